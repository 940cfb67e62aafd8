"""A live session in which the seats act one at a time (a Genpoker draw round, an Empire hand):
what such a session does the same way whatever the game.

A typed move names its seat (`seat N` before it, as people count seats) or is the seat to act's;
the prompt names the seat to act; the session's one ruling comes back in the reply to the move
that ends it, so nothing is left to record at the end, and input that ends before then is
refused. A game's session (a frozen dataclass) adds its state, `to_act`, `over`, `step`, how a
move is typed (`moves_help`) and what input ending early missed (`unfinished`).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import TYPE_CHECKING, ClassVar, Self

from dealer.kernel.errors import DealerError, MoveError

if TYPE_CHECKING:
    from dealer.kernel.ruling import Ruling


def moving_seat(named: int | None, to_act: int | None, done: str) -> int:
    """The seat (an index from 0) a typed move is for: the seat it names (counted from 1), else
    the seat to act; `MoveError` saying `done` when it names none and none is to act."""
    seat = to_act if named is None else named - 1
    if seat is None:
        raise MoveError(done)
    return seat


class SeatTurns(ABC):
    """The prompt, the record and the end of a session in which the seats act one at a time."""

    moves_help: ClassVar[str]
    """How a move is typed."""
    unfinished: ClassVar[str]
    """What input that ends too early missed, the seat to act as `{seat}`: `before the
    showdown: seat {seat} has not drawn`."""

    @property
    @abstractmethod
    def to_act(self) -> int | None:
        """The seat to act (an index from 0), None when none is."""

    @property
    @abstractmethod
    def over(self) -> bool:
        """True once the session's ruling is made."""

    @property
    def prompt(self) -> str:
        """`seat 2> `: the seat to act, as people count seats."""
        return f"seat {(self.to_act or 0) + 1}> "

    def recorded(self, ruling_id: int, ruling: Ruling) -> Self:
        """The ruling is on the record (nothing more to keep)."""
        return self

    def final(self) -> Ruling | None:
        """Nothing is left to record at the end; input ending before the session is over is
        refused (`DealerError`)."""
        if not self.over:
            missed = self.unfinished.format(seat=(self.to_act or 0) + 1)
            raise DealerError(f"the moves ended {missed}; nothing recorded")
        return None
