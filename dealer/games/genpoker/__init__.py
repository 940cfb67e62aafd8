"""Genpoker: the 64-card Six Generations deck, its 18 hand ranks and the draw (RULINGS §4)."""

from dealer.games.genpoker.cards import DECK, GenCard, parse_card, parse_cards, parse_hand
from dealer.games.genpoker.draw import (
    Draw,
    DrawResult,
    DrawRound,
    deal,
    play_round,
    standard_discards,
)
from dealer.games.genpoker.hands import (
    Category,
    GenComparison,
    GenHand,
    compare,
    hand_key,
    rank_hand,
)

__all__ = [
    "DECK",
    "Category",
    "Draw",
    "DrawResult",
    "DrawRound",
    "GenCard",
    "GenComparison",
    "GenHand",
    "compare",
    "deal",
    "hand_key",
    "parse_card",
    "parse_cards",
    "parse_hand",
    "play_round",
    "rank_hand",
    "standard_discards",
]
