"""Genpoker rulings: typed text in, a `Ruling` out. Pure: no printing, no database.

Hands and seats are numbered from 1 wherever a person reads them (explanations, error messages,
the draw's seats); the compare contract's `winners` are 0-based indices into the hands given.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from dealer.games.genpoker.deck import GenCard, parse_cards, parse_hand
from dealer.games.genpoker.draw import MAX_DISCARD, DrawResult
from dealer.games.genpoker.ranking import compare, explain, rank_hand
from dealer.kernel.errors import CardError
from dealer.kernel.ruling import Ruling, RulingAction

HAND_RANKS = "genpoker seed 003 (docs/rules.md, Genpoker)"
"""What every Genpoker ruling rests on: the seed's 18 categories and tie rules."""


def _settings(**more: Any) -> dict[str, Any]:
    return {"hand_ranks": HAND_RANKS, **more}


def _strs(cards: Sequence[GenCard]) -> tuple[str, ...]:
    return tuple(str(c) for c in cards)


def rank_ruling(text: str) -> Ruling:
    """Rank one five-card hand: `{"category", "rank", "cards", "active", "tiebreak"}`."""
    cards = parse_hand(text)
    hand = rank_hand(cards)
    return Ruling(
        "genpoker",
        RulingAction.RANK,
        text,
        _strs(cards),
        hand.to_dict(),
        tuple(hand.explanation()),
        _settings(),
    )


def split_hands(text: str) -> list[str]:
    """Split `A | B | …` (a compare batch line, or hands given as arguments) into hands."""
    parts = [p.strip() for p in text.split("|")]
    if len(parts) < 2 or not all(parts):
        raise CardError(
            "compare needs two or more hands, each quoted as its own argument or separated by '|'"
        )
    return parts


def compare_ruling(hands: Sequence[str]) -> Ruling:
    """Compare two or more hands from one deck: `{"winners", "split", "hands"}`."""
    if len(hands) < 2:
        raise CardError(f"compare needs at least two hands, got {len(hands)}")
    parsed = [parse_cards(text, (5,), f"hand {i}") for i, text in enumerate(hands, start=1)]
    comparison = compare(parsed)
    return Ruling(
        "genpoker",
        RulingAction.COMPARE,
        " | ".join(hands),
        tuple(str(c) for hand in parsed for c in hand),
        comparison.to_dict(),
        tuple(explain(comparison)),
        _settings(),
    )


def draw_ruling(result: DrawResult, seed: int, moves: Sequence[str]) -> Ruling:
    """The showdown of a draw round; `moves` are the accepted moves as typed."""
    rnd = result.round
    typed = " | ".join([f"players {rnd.players}, seed {seed}, pot {result.pot}", *moves])
    cards = tuple(str(c) for seat in range(rnd.players) for c in rnd.hand(seat))
    settings = _settings(players=rnd.players, seed=seed, max_discard=MAX_DISCARD)
    return Ruling(
        "genpoker",
        RulingAction.DRAW,
        typed,
        cards,
        result.to_dict(),
        tuple(result.explanation()),
        settings,
    )
