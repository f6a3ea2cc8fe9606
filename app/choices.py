"""The closed sets of names the API takes and shows, each a named enum in JSON Schema (one
OpenAPI component, so generated clients get one enum class, and a typo fails before it is
sent). `rules.VariantName` and `rules.End` are the rules' own."""

from __future__ import annotations

from typing import Literal

from typing_extensions import TypeAliasType

# POST /api/rooms `mode` (API.md): other seats join by invite, one device holds every seat, or
# the server's bots play the other seats.
Mode = TypeAliasType("Mode", Literal["online", "local", "computer"])

# The browser's levels (bots.LEVELS): a computer seat's, and a stand-in's.
BotLevel = TypeAliasType("BotLevel", Literal["easy", "medium", "hard"])

# What a computer seat may be given: a level or a strategy (bots.STRATEGY_NAMES).
BotName = TypeAliasType("BotName", Literal["easy", "medium", "hard", "random", "greedy", "expert"])

RoomStatus = TypeAliasType("RoomStatus", Literal["waiting", "playing", "hand_over", "match_over"])
