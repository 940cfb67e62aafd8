"""Burosh rulings: a typed hand (or hands) and trump suit → a `Ruling`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from dealer.games.burosh.deck import parse_hand, parse_trump
from dealer.games.burosh.ranking import BuroshHand, compare, explain, rank_hand
from dealer.kernel.cards import SUIT_CHARS
from dealer.kernel.errors import CardError
from dealer.kernel.ruling import Ruling, RulingAction


def _hand_result(hand: BuroshHand) -> dict[str, Any]:
    return {**hand.to_dict(), "description": hand.describe()}


def _settings(trump: int) -> dict[str, Any]:
    return {"trump": SUIT_CHARS[trump]}


def rank_ruling(text: str, trump_text: str) -> Ruling:
    """Rank one typed hand under a typed trump suit: `{"category": NAME, ...}`."""
    trump = parse_trump(trump_text)
    hand = rank_hand(parse_hand(text), trump)
    return Ruling(
        "burosh",
        RulingAction.RANK,
        text,
        tuple(str(c) for c in hand.hand),
        _hand_result(hand),
        tuple(hand.explanation()),
        _settings(trump),
    )


def compare_ruling(texts: Sequence[str], trump_text: str) -> Ruling:
    """Challenge two or more typed hands under a typed trump suit:
    `{"winners": [INDEX, ...], "tie": BOOL, "hands": [...]}`."""
    trump = parse_trump(trump_text)
    hands = []
    for i, text in enumerate(texts, start=1):
        try:
            hands.append(parse_hand(text))
        except CardError as exc:
            raise CardError(f"hand {i}: {exc}") from None
    challenge = compare(hands, trump)
    result = {**challenge.to_dict("tie"), "hands": [_hand_result(h) for h in challenge.hands]}
    return Ruling(
        "burosh",
        RulingAction.COMPARE,
        " | ".join(texts),
        tuple(str(c) for h in challenge.hands for c in h.hand),
        result,
        tuple(explain(challenge)),
        _settings(trump),
    )


def batch_hands(line: str) -> list[str]:
    """Split a batch line `A | B | …` into its hands (for compare)."""
    return [part.strip() for part in line.split("|")]
