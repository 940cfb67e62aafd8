"""Genpoker (seed 003, RULINGS §4): the 64-card Six Generations deck (`deck`), its 18 hand ranks
(`ranking`), rulings (`rulings`) and the draw round played at a table (`session`)."""
