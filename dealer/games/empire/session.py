"""One Empire hand at the table, one typed line at a time: the pure live-session step.

The seat to act types `bet N`, `see`, `raise N`, `yield` or `turn`, optionally after `seat N`;
once the hand is over, its result comes back in the reply as a ruling to record.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from dealer.games.empire.hand import ACTIONS, MAX_CHIPS, EmpireHand
from dealer.games.empire.rulings import hand_ruling
from dealer.inputs import seat_first
from dealer.kernel.errors import DealerError
from dealer.kernel.replies import Reply, ReplyKind
from dealer.kernel.text import quoted
from dealer.kernel.turns import SeatTurns, moving_seat

_NUMBER = re.compile(r"[0-9]{1,9}")
"""An amount of chips as typed: ASCII digits (no lookalike digit, no superscript), at most nine
of them (more chips than `MAX_CHIPS`)."""
_MANY = re.compile(r"[0-9]{10,}")
MOVES_HELP = "'bet N', 'see', 'raise N', 'yield' or 'turn'"


@dataclass(frozen=True)
class Move:
    """One typed move of a hand: the seat named as people count seats, from 1 (None: the seat
    to act), action, amount."""

    seat: int | None
    action: str
    amount: int | None

    def __str__(self) -> str:
        return self.action if self.amount is None else f"{self.action} {self.amount}"


def read_move(text: str) -> Move:
    """Read a typed move: `bet 5`, `see`, `raise 10`, `yield`, `turn`, optionally after
    `seat N`. Raises `DealerError` naming what cannot be read."""
    seat, words = seat_first(text)
    parts = words.lower().split()
    if not parts or parts[0] not in ACTIONS:
        raise DealerError(f"unknown move {quoted(words)}: type {MOVES_HELP}")
    action, rest = parts[0], parts[1:]
    if action in ("bet", "raise"):
        if len(rest) != 1:
            raise DealerError(f"'{action}' takes one amount of chips, e.g. '{action} 5'")
        amount = rest[0]
        if _MANY.fullmatch(amount):
            raise DealerError(f"{action} amount {amount} is more than {MAX_CHIPS:,} chips")
        if not _NUMBER.fullmatch(amount):
            raise DealerError(f"{action} amount {amount!r} is not a whole number of chips")
        return Move(seat, action, int(amount))
    if rest:
        raise DealerError(f"'{action}' takes nothing after it, not {' '.join(rest)!r}")
    return Move(seat, action, None)


def act(hand: EmpireHand, text: str) -> tuple[EmpireHand, int, Move]:
    """Apply one typed move to the hand: the hand after it, the seat that moved, the move.

    Raises `MoveError` for a move the rules refuse now and `DealerError` for one that cannot
    be read."""
    move = read_move(text)
    seat = moving_seat(move.seat, hand.to_act, "the hand is over")
    return hand.act(seat, move.action, move.amount), seat, move


@dataclass(frozen=True, kw_only=True)
class HandReply(Reply):
    """What the session answers to an accepted move (kind move): the seat (an index from 0),
    the move, the hand's log lines it added (`lines`), and the hand's result (to record) once
    the hand is over."""

    kind: ReplyKind = ReplyKind.MOVE
    seat: int
    move: Move


@dataclass(frozen=True)
class HandSession(SeatTurns):
    """A hand being played: the hand, its seed, ante and stack, the moves accepted (as typed)."""

    hand: EmpireHand
    seed: int
    ante: int
    stack: int | None
    moves: tuple[str, ...] = ()

    moves_help = MOVES_HELP
    unfinished = "before the hand was over: seat {seat} to act"

    @property
    def to_act(self) -> int | None:
        """The seat to act (an index from 0), None once the hand is over."""
        return self.hand.to_act

    @property
    def over(self) -> bool:
        """True once the hand is over (its result is ruled)."""
        return self.hand.phase == "over"

    def step(self, line: str) -> tuple[HandSession, HandReply]:
        """Apply one typed move; the next state and the reply (`DealerError` for a refused
        move, which changes nothing)."""
        seen = len(self.hand.events)
        after, seat, move = act(self.hand, line)
        state = replace(self, hand=after, moves=(*self.moves, f"seat {seat + 1}: {move}"))
        log = after.events[seen:]
        if not state.over:
            return state, HandReply(seat=seat, move=move, lines=log)
        ruling = hand_ruling(after, self.seed, self.ante, self.stack, state.moves)
        return state, HandReply(seat=seat, move=move, lines=log, ruling=ruling)
