"""The 54-card Hyrule deck (seed 002, RULINGS §3): the 52 standard cards and two jokers.

A joker is `dealer.kernel.cards.JOKER` (the two are equal values). Cards are typed in the
standard notation and may be run together (`JKJK 5♠`).
"""

from __future__ import annotations

from collections.abc import Iterable

from dealer.kernel.cards import Card, Deck, card_of, check, parse, standard_deck
from dealer.kernel.errors import CardError

JOKERS = 2
HYRULE: Deck[Card] = standard_deck("Hyrule", JOKERS)._replace(
    duplicate="duplicate card {card}: it is already in the {what}",
    too_many_copies="a third joker in the {what}: the Hyrule deck has two jokers",
)
"""Hyrule's vocabulary for the one card parser."""
HYRULE_DECK: tuple[Card, ...] = HYRULE.cards
"""The 54-card deck: the 52 standard cards and two jokers."""


def parse_card(token: str) -> Card:
    """Parse one Hyrule card token (a standard card or `JK`)."""
    return card_of(HYRULE, token)


def parse_cards(text: str | Iterable[str], what: str = "turn") -> tuple[Card, ...]:
    """Parse typed Hyrule cards (standard cards and up to two `JK`), in the order typed."""
    return parse(HYRULE, text, what=what)


def parse_deck(text: str) -> tuple[Card, ...]:
    """A deck order typed in full (`--deck`, top card first): every refusal names the deck,
    as a seat's refusal names the seat."""
    try:
        return parse_cards(text, "deck")
    except CardError as exc:
        raise CardError(f"the deck: {exc}") from None


def check_cards(cards: Iterable[Card], what: str) -> tuple[Card, ...]:
    """Cards given as values: no card twice, no third joker."""
    return check(HYRULE, cards, what)
