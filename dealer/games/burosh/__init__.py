"""Burosh challenge hands (seed 000, RULINGS §2): `deck` (the 55 cards and their vocabulary),
`ranking` (30 categories, trump, wild cards) and `rulings`."""
