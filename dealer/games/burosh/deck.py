"""The 55-card Burosh deck (seed 000, RULINGS §2) and its vocabulary: the 52 standard cards
(never the joker) and three wild cards, the Emperor (`EM`), the Magician (`MG`) and the Hermit
(`HM`). Standard cards are typed in the standard notation, wild cards as `EM`/`MG`/`HM` or
`Emperor`/`Magician`/`Hermit` (any case); cards may be run together (`KdEMhm`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from enum import Enum

from dealer.kernel.cards import (
    JOKER_TYPED,
    STANDARD_52,
    STANDARD_TYPED,
    SUIT_CHARS,
    SUIT_SYMBOLS,
    Card,
    Deck,
    check,
    parse,
    tokens,
)
from dealer.kernel.errors import CardError

MAX_CARDS = 5


class Wild(Enum):
    """The three wild cards of the Burosh deck."""

    EMPEROR = "EM"
    MAGICIAN = "MG"
    HERMIT = "HM"

    def __str__(self) -> str:
        return self.value

    @property
    def title(self) -> str:
        """The card's name as a person says it: `Emperor`."""
        return self.name.capitalize()

    def symbol(self) -> str:
        """For people: the full name."""
        return self.title


BuroshCard = Card | Wild
"""A card of the 55-card Burosh deck: a standard card (never the joker) or a wild card."""

DECK: tuple[BuroshCard, ...] = STANDARD_52 + tuple(Wild)
"""The 55-card deck: the 52 standard cards, then the Emperor, the Magician and the Hermit."""


_WILD_NAMES = {
    "em": Wild.EMPEROR,
    "emperor": Wild.EMPEROR,
    "mg": Wild.MAGICIAN,
    "magician": Wild.MAGICIAN,
    "hm": Wild.HERMIT,
    "hermit": Wild.HERMIT,
}
_TRUMP_NAMES = {
    **{ch: i for i, ch in enumerate(SUIT_CHARS)},
    **{sym: i for i, sym in enumerate(SUIT_SYMBOLS)},
    **{name: i for i, name in enumerate(("club", "diamond", "heart", "spade"))},
    **{name: i for i, name in enumerate(("clubs", "diamonds", "hearts", "spades"))},
}
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")


def _unknown(token: str) -> str:
    if token.strip().lower() in JOKER_TYPED:
        return f"{token!r}: the joker is not a Burosh card (the wild cards are EM, MG and HM)"
    return (
        f"unknown card {token!r}: a Burosh card is a rank (2-9, T or 10, J, Q, K, A) and a "
        "suit (s h d c or ♠ ♥ ♦ ♣), or a wild card EM, MG, HM (Emperor, Magician, Hermit)"
    )


BUROSH: Deck[BuroshCard] = Deck(
    name="Burosh",
    cards=DECK,
    typed={**STANDARD_TYPED, **_WILD_NAMES},
    unknown=_unknown,
    run_together=re.compile(
        r"emperor|magician|hermit|em|mg|hm|joker|jk|10.|[2-9tjqka].", re.IGNORECASE
    ),
    duplicate_value="duplicate card {card}: it is already in the {what}",
)
"""Burosh's vocabulary for the one card parser."""


def parse_hand(text: str | Iterable[str]) -> tuple[BuroshCard, ...]:
    """Parse a typed Burosh hand of 1-5 cards, in the order typed.

    Raises `CardError` naming the token for an unknown card, the joker, a duplicate card, or
    more than five cards; and for no cards at all.
    """
    cards = parse(BUROSH, text)
    if len(cards) > MAX_CARDS:
        extra = tokens(BUROSH, text)[MAX_CARDS]
        raise CardError(
            f"too many cards: {extra!r} would be card {MAX_CARDS + 1}; "
            f"a Burosh hand is 1 to {MAX_CARDS} cards"
        )
    if not cards:
        raise CardError(f"no cards: a Burosh hand is 1 to {MAX_CARDS} cards")
    return cards


def parse_trump(text: str) -> int:
    """Parse a trump suit (`s h d c`, `♠ ♥ ♦ ♣`, or `spades` … `clubs`, any case) to 0-3."""
    suit = _TRUMP_NAMES.get(text.strip().lower())
    if suit is None:
        raise CardError(
            f"unknown trump suit {text!r}: give s, h, d, c, a suit symbol, or a suit name"
        )
    return suit


def _canonical_key(card: BuroshCard) -> tuple[int, int, int]:
    if isinstance(card, Wild):
        return (0, list(Wild).index(card), 0)
    return (1, -card.rank, -card.suit)


def canonical(cards: Iterable[BuroshCard]) -> tuple[BuroshCard, ...]:
    """Cards in canonical order: wild cards (EM, MG, HM) first, then high to low."""
    return tuple(sorted(cards, key=_canonical_key))


def check_hand(cards: Sequence[BuroshCard], what: str = "hand") -> tuple[BuroshCard, ...]:
    """Cards given as values: 1-5 distinct Burosh cards, in canonical order."""
    if not 1 <= len(cards) <= MAX_CARDS:
        raise CardError(
            f"wrong number of cards for the {what}: a Burosh hand is 1 to {MAX_CARDS} cards, "
            f"got {len(cards)}"
        )
    for card in cards:
        if not isinstance(card, Wild | Card) or (isinstance(card, Card) and card.is_joker):
            raise CardError(f"{card!s}: not a Burosh card")
    return canonical(check(BUROSH, cards, what))
