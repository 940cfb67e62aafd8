"""Empire (RULINGS §5): the 50 plaques (`deck`), the combination table (provisional data,
`combinations`), the two-pass valuation of tableaux (`ranking`), rulings (`rulings`) and one
hand's play and betting at a table (`session`)."""

MIN_PLAYERS, MAX_PLAYERS = 2, 7
"""How many play a hand, each at a seat numbered from 1: at most as many hands of seven as the
50 plaques deal (declared with the package, not in the engine, so the log's seat filters know
an Empire table without loading the game; `tests/test_empire.py` checks the deal)."""
