"""One Hyrule turn (seed 002, RULINGS §3): the winner by precedence.

Precedence of a turn:
1. a joker is in play: the best five present wins (5♥ > 5♠ > 5♣ > 5♦); with no five a single
   joker wins; two jokers and no five tie (the house decides by a run-off);
2. no joker, both ♦ and ♥ present: the highest ♥ wins;
3. otherwise the first suit present in the order ♦ ♣ ♠ ♥ wins, highest face value (ace 1 …
   king 13). Fives are ordinary cards when no joker is played.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from dealer.games.hyrule import MAX_PLAYERS, MIN_PLAYERS
from dealer.games.hyrule.deck import check_cards, parse_cards
from dealer.kernel.cards import ACE, Card, symbols
from dealer.kernel.errors import CardError

CLUBS, DIAMONDS, HEARTS, SPADES = range(4)
FIVE_ORDER = (HEARTS, SPADES, CLUBS, DIAMONDS)
"""Fives against a joker, best first: 5♥ > 5♠ > 5♣ > 5♦."""
SUIT_ORDER = (DIAMONDS, CLUBS, SPADES, HEARTS)
"""Without a joker (and not both ♦ and ♥): the first suit present in this order wins."""


def face(card: Card) -> int:
    """Hyrule face value: ace 1, 2-10, jack 11, queen 12, king 13."""
    return 1 if card.rank == ACE else card.rank


def _check_turn(cards: Sequence[Card]) -> None:
    if not MIN_PLAYERS <= len(cards) <= MAX_PLAYERS:
        raise CardError(
            f"wrong number of cards for the turn: expected {MIN_PLAYERS} to {MAX_PLAYERS} "
            f"(one per player), got {len(cards)}"
        )
    check_cards(cards, "turn")


def parse_turn(text: str | Iterable[str]) -> tuple[Card, ...]:
    """Parse the 2-7 cards of one turn in play order; `CardError` names the bad token."""
    cards = parse_cards(text)
    _check_turn(cards)
    return cards


RULE_TEXT = {
    "five-beats-joker": "a joker is in play and a five is present: the best five wins "
    "(5♥ > 5♠ > 5♣ > 5♦)",
    "joker": "a joker is in play and no five: the joker beats everything",
    "two-jokers": "two jokers and no five: a tie; the house decides by a run-off",
    "hearts-over-diamonds": "no joker, and both ♦ and ♥ are present: the highest ♥ wins",
    "suit-order": "no joker, and not both ♦ and ♥: the first suit present in the order "
    "♦ ♣ ♠ ♥ wins, highest face value (ace 1 … king 13)",
}
"""The precedence rules, by the name a `TurnResult` reports."""


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


@dataclass(frozen=True)
class TurnResult:
    """The winner of one turn (an index into the cards in play order), or the tied cards."""

    cards: tuple[Card, ...]
    winner: int | None
    tied: tuple[int, ...]
    rule: str  # a key of RULE_TEXT

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: `{"winner": INDEX|null, "tied": [INDEX, ...], "rule": ..., "cards": …}`."""
        return {
            "winner": self.winner,
            "tied": list(self.tied),
            "rule": self.rule,
            "cards": [str(c) for c in self.cards],
        }

    def explanation(self) -> list[str]:
        """The cards, the precedence rule applied, and the outcome."""
        lines = [f"Cards in play order: {symbols(self.cards)}.", f"Rule: {RULE_TEXT[self.rule]}."]
        if self.winner is None:
            who = " and ".join(f"the {_ordinal(i + 1)} card (JK)" for i in self.tied)
            lines.append(f"Tie between {who}: the house decides by a run-off.")
        else:
            card = self.cards[self.winner]
            lines.append(f"The {_ordinal(self.winner + 1)} card, {card.symbol()}, wins.")
        return lines


def turn(cards: Sequence[Card]) -> TurnResult:
    """Rule one turn of 2-7 cards (in play order) by the precedence of RULINGS §3."""
    cards = tuple(cards)
    _check_turn(cards)
    jokers = tuple(i for i, c in enumerate(cards) if c.is_joker)
    if jokers:
        fives = [i for i, c in enumerate(cards) if c.rank == 5 and not c.is_joker]
        if fives:
            best = min(fives, key=lambda i: FIVE_ORDER.index(cards[i].suit))
            return TurnResult(cards, best, (), "five-beats-joker")
        if len(jokers) == 1:
            return TurnResult(cards, jokers[0], (), "joker")
        return TurnResult(cards, None, jokers, "two-jokers")
    suits = {c.suit for c in cards}
    if DIAMONDS in suits and HEARTS in suits:
        suit, rule = HEARTS, "hearts-over-diamonds"
    else:
        suit, rule = next(s for s in SUIT_ORDER if s in suits), "suit-order"
    best = max((i for i, c in enumerate(cards) if c.suit == suit), key=lambda i: face(cards[i]))
    return TurnResult(cards, best, (), rule)
