"""Genpoker rulings: typed text in, a `Ruling` out. Pure: no printing, no database.

Hands and seats are numbered from 0 everywhere (explanations, JSON, error messages), as the
engine numbers them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from dealer.games.genpoker.cards import GenCard, parse_cards, parse_hand
from dealer.games.genpoker.draw import MAX_DISCARD, DrawResult, DrawRound
from dealer.games.genpoker.hands import compare, rank_hand
from dealer.kernel.errors import CardError, DealerError, MoveError
from dealer.kernel.ruling import Ruling

HAND_RANKS = "genpoker seed 003 (RULINGS §4)"
"""What every Genpoker ruling rests on: the seed's 18 categories and tie rules."""

_SEAT = re.compile(r"seat\s+(\S+?)\s*:?(?:\s+(.*))?", re.IGNORECASE)


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
        "rank",
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
    parsed = [parse_cards(text, (5,), f"hand {i}") for i, text in enumerate(hands)]
    comparison = compare(parsed)
    return Ruling(
        "genpoker",
        "compare",
        " | ".join(hands),
        tuple(str(c) for hand in parsed for c in hand),
        comparison.to_dict(),
        tuple(comparison.explanation()),
        _settings(),
    )


@dataclass(frozen=True)
class Discard:
    """One typed draw move: the seat named (None: the seat to act), the cards thrown, and the
    move as typed after any `seat N`."""

    seat: int | None
    cards: tuple[GenCard, ...]
    text: str


MOVES_HELP = f"'discard CARDS' (1-{MAX_DISCARD} cards) or 'stand'"


def read_discard(text: str) -> Discard:
    """Read a typed draw move: `discard 1R1 6B7`, `stand` (or `pat`), optionally after
    `seat N`. Raises `DealerError` for anything else, `CardError` for a bad card."""
    seat: int | None = None
    words = text.strip()
    named = _SEAT.fullmatch(words)
    if named is not None:
        if not named.group(1).isdigit():
            raise DealerError(f"seat {named.group(1)!r} is not a seat number")
        seat = int(named.group(1))
        words = named.group(2) or ""
    verb, _, rest = words.partition(" ")
    verb = verb.lower()
    if verb in ("stand", "pat"):
        if rest.strip() and rest.strip().lower() != "pat":
            raise DealerError(f"'{verb}' takes no cards: to throw cards away type 'discard CARDS'")
        return Discard(seat, (), words)
    if verb == "discard":
        cards = parse_cards(rest, what="discard")
        if not cards:
            raise DealerError(f"name the cards to discard, or stand: {MOVES_HELP}")
        return Discard(seat, cards, words)
    raise DealerError(f"unknown move {words!r}: type {MOVES_HELP}")


def discard(state: DrawRound, text: str) -> tuple[DrawRound, int, Discard]:
    """Apply one typed draw move to the round: the round after it, the seat that drew, the move.

    Raises `MoveError` for a discard the rules refuse (out of turn, more than three, a card not
    in the hand) and `DealerError`/`CardError` for a move that cannot be read."""
    move = read_discard(text)
    seat = state.to_act if move.seat is None else move.seat
    if seat is None:
        raise MoveError("every seat has drawn: the round is at the showdown")
    return state.draw(seat, move.cards), seat, move


def draw_ruling(result: DrawResult, seed: int, moves: Sequence[str]) -> Ruling:
    """The showdown of a draw round; `moves` are the accepted moves as typed."""
    rnd = result.round
    typed = " | ".join([f"players {rnd.players}, seed {seed}, pot {result.pot}", *moves])
    cards = tuple(str(c) for seat in range(rnd.players) for c in rnd.hand(seat))
    settings = _settings(players=rnd.players, seed=seed, max_discard=MAX_DISCARD)
    return Ruling(
        "genpoker",
        "draw",
        typed,
        cards,
        result.to_dict(),
        tuple(result.explanation()),
        settings,
    )
