"""The test kit: what every test imports (ports, deals, clients, responses, servers, an
in-memory store), and whatever two test modules share: a test module imports the kit, never
another test module (tests/test_structure.py checks).

- `audits`: what the hidden-information audits share (their scale, greedy bot, and
  `ServerTruth`, the server's true state of a room at each version).
- `browsers`: Chromium, page sizes, screenshots, gestures on the table (`meld`, `select`),
  axe-core's script, node for web/js modules.
- `clients`: an HTTP client, `Api` (docs/api.md's routes), `bearer`, websocket seats
  (`seat_socket`).
- `cluster`: several `rummy serve` processes on one PostgreSQL and one Redis.
- `deals`: fixed deals (`fixed_deal`) and the hands several tests deal (`ANNA`, `BOB`,
  `OUT_IN_ONE_TURN` and its `MELDS`).
- `hangs`: what a hung test leaves behind.
- `leaks`: the card-leak detector of the audits.
- `memory_store`: the room service's store and writer in memory.
- `oddities`: odd strings, the places of a request /openapi.json names, and what in an
  answer breaks docs/api.md's error promise (the hostile odd-strings test).
- `openapi`: the app's /openapi.json built without serving (`app_schema`), and every
  operation with its operation id (`OPERATIONS`).
- `players`: REST helpers, a recording seat and a bot for the multi-process tests.
- `ports`: free loopback ports.
- `processes`: `rummy serve` as a subprocess.
- `responses`: checks of the server's answers (`ok`, `error_code`).
- `rooms`: rooms a test starts from (`online_room`, `full_room`, `play_out_hand`,
  `computer_room`, `new_room`).
- `scenarios`: every variant at every player count (`EVERY_TABLE`), the engine's scenarios.
- `servers`: a real server in the test's process (`start_server`, `LiveServer`).
- `tables`: tables that play on their own over REST, for the operator's tests.
"""
