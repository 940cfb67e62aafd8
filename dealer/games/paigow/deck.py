"""The 53-card Pai Gow deck of Emperor's Challenge Exposed: the 52 standard cards and one joker
(the bug), in the standard notation; cards may be run together (`AsKd`)."""

from __future__ import annotations

from collections.abc import Iterable

from dealer.kernel.cards import DECK, Card, Deck, card_of, distinct, parse, standard_deck

__all__ = ["DECK", "PAIGOW", "check_distinct", "parse_card", "parse_cards"]


PAIGOW: Deck[Card] = standard_deck("53-card", 1)._replace(
    too_many_copies="a second joker {token!r}: the deck has one joker",
    shared="duplicate card {card}: in {first} and {second}",
    shared_copies="a second joker in {second}: the joker is in {first}",
)
"""The 52 standard cards and one joker (Pai Gow's deck)."""


def parse_card(token: str) -> Card:
    """Parse one standard card or joker token; `CardError` names the token if it is not one."""
    return card_of(PAIGOW, token)


def parse_cards(
    text: str | Iterable[str], counts: Iterable[int] | None = None, what: str = "hand"
) -> tuple[Card, ...]:
    """Parse typed cards of the 53-card deck in the order typed (see `parse`)."""
    return parse(PAIGOW, text, counts, what)


def check_distinct(hands: Iterable[tuple[str, Iterable[Card]]]) -> None:
    """Raise `CardError` if a card (or the joker) appears in more than one named hand."""
    distinct(PAIGOW, ((f"the {name}", cards) for name, cards in hands))
