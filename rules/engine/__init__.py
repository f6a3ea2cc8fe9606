"""The fast engine: a whole match as a mutable `Game` of ints and lists, moves as tuples.

`fields` (the slots, phases, move kinds), `hand` (dealing, end of turn, scoring, votes),
`game` (the moves), `jokers` (a taken joker's place), `generate` and `layoffs` (legal moves),
`switches` (a variant flattened for the hot path). Its documented API is `rules.playout`.
"""
