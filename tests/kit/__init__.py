"""The test kit: what every test imports (ports, deals, clients, responses, servers, an
in-memory store)."""
