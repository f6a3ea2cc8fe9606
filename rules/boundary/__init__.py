"""The boundary between the engine form (`rules.engine`) and the pydantic models:
`state` (GameState <-> Game), `moves` (API moves and table melds <-> engine tuples), and
`carried` (the engine form a model carries along, and building models from trusted data).
"""
