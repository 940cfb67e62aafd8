"""dealer: rulings for casino table games, explained and on the record."""

__version__ = "0.2.0"
