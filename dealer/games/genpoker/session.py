"""A Genpoker draw round at the table, one typed line at a time: the pure live-session step.

Each seat in turn types `discard CARDS` (up to three) or `stand`, optionally after `seat N`;
once every seat has drawn, the showdown comes back in the reply as a ruling to record.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from dealer.games.genpoker.deck import GenCard, parse_cards
from dealer.games.genpoker.draw import MAX_DISCARD, DrawRound
from dealer.games.genpoker.rulings import draw_ruling
from dealer.inputs import seat_first
from dealer.kernel.errors import DealerError
from dealer.kernel.replies import Reply, ReplyKind
from dealer.kernel.text import quoted
from dealer.kernel.turns import SeatTurns, moving_seat


@dataclass(frozen=True)
class Discard:
    """One typed draw move: the seat named as people count seats, from 1 (None: the seat to
    act), the cards thrown, and the move as typed after any `seat N`."""

    seat: int | None
    cards: tuple[GenCard, ...]
    text: str


MOVES_HELP = f"'discard CARDS' (1-{MAX_DISCARD} cards) or 'stand'"


def read_discard(text: str) -> Discard:
    """Read a typed draw move: `discard 1R1 6B7`, `stand` (or `pat`), optionally after
    `seat N`. Raises `DealerError` for anything else, `CardError` for a bad card."""
    seat, words = seat_first(text)
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
    raise DealerError(f"unknown move {quoted(words)}: type {MOVES_HELP}")


def discard(state: DrawRound, text: str) -> tuple[DrawRound, int, Discard]:
    """Apply one typed draw move to the round: the round after it, the seat that drew, the move.

    Raises `MoveError` for a discard the rules refuse (out of turn, more than three, a card not
    in the hand) and `DealerError`/`CardError` for a move that cannot be read."""
    move = read_discard(text)
    seat = moving_seat(
        move.seat, state.to_act, "every seat has drawn: the round is at the showdown"
    )
    return state.draw(seat, move.cards), seat, move


@dataclass(frozen=True, kw_only=True)
class DrawReply(Reply):
    """What the session answers to an accepted move (kind move): the seat that drew (an index
    from 0), and the showdown's ruling (to record) once every seat has drawn."""

    kind: ReplyKind = ReplyKind.MOVE
    seat: int


@dataclass(frozen=True)
class DrawSession(SeatTurns):
    """A draw round being played: the round, its seed and pot, the moves accepted (as typed)."""

    round: DrawRound
    seed: int
    pot: int
    moves: tuple[str, ...] = ()

    moves_help = MOVES_HELP
    unfinished = "before the showdown: seat {seat} has not drawn"

    @property
    def to_act(self) -> int | None:
        """The seat to draw next (an index from 0), None at the showdown."""
        return self.round.to_act

    @property
    def over(self) -> bool:
        """True once every seat has drawn (the showdown is ruled)."""
        return self.round.to_act is None

    def step(self, line: str) -> tuple[DrawSession, DrawReply]:
        """Apply one typed move; the next state and the reply (`DealerError` for a refused
        move, which changes nothing)."""
        after, seat, move = discard(self.round, line)
        state = replace(self, round=after, moves=(*self.moves, f"seat {seat + 1}: {move.text}"))
        if not state.over:
            return state, DrawReply(seat=seat)
        showdown = draw_ruling(after.showdown(self.pot), self.seed, state.moves)
        return state, DrawReply(seat=seat, ruling=showdown)
