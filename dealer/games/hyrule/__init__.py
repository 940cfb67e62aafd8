"""Hyrule (seed 002, RULINGS §3): the 54-card deck, the winner of one turn by precedence, and a
game tracker: `deck`, `ranking`, `game`, `rulings`, `session`."""

MIN_PLAYERS, MAX_PLAYERS = 2, 7
"""How many play a game, each at a seat numbered from 1 (declared with the package, not in the
engine, so the log's seat filters know a Hyrule table without loading the game)."""
