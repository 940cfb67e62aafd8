"""Hyrule (seed 002, RULINGS §3): the 54-card deck, the winner of one turn by precedence, and a
game tracker: `deck`, `ranking`, `game`, `rulings`, `session`."""
