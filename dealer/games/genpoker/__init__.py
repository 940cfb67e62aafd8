"""Genpoker (seed 003, RULINGS §4): the 64-card Six Generations deck (`deck`), its 18 hand ranks
(`ranking`), rulings (`rulings`) and the draw round played at a table (`session`)."""

MIN_PLAYERS, MAX_PLAYERS = 2, 8
"""How many play a draw, each at a seat numbered from 1 (declared with the package, not in the
engine, so the log's seat filters know a Genpoker table without loading the game)."""
