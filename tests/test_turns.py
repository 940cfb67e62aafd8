"""`dealer.kernel.turns`: the seat a typed move is for, and the prompt, record and end of a
session in which the seats act one at a time."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from dealer.kernel.errors import DealerError, MoveError
from dealer.kernel.ruling import Ruling, RulingAction
from dealer.kernel.turns import SeatTurns, moving_seat

SHOWDOWN = Ruling("genpoker", RulingAction.DRAW, "stand", (), {}, (), {})


@pytest.mark.parametrize(
    ("named", "to_act", "seat"),
    [(None, 0, 0), (None, 3, 3), (2, 0, 1), (5, None, 4)],
)
def test_a_move_is_for_the_seat_it_names_else_the_seat_to_act(
    named: int | None, to_act: int | None, seat: int
) -> None:
    assert moving_seat(named, to_act, "over") == seat


def test_a_move_naming_no_seat_when_none_is_to_act_is_refused() -> None:
    with pytest.raises(MoveError, match="^the round is over$"):
        moving_seat(None, None, "the round is over")


@dataclass(frozen=True)
class _Round(SeatTurns):
    next_seat: int | None

    moves_help = "'go'"
    unfinished = "before the end: seat {seat} to go"

    @property
    def to_act(self) -> int | None:
        return self.next_seat

    @property
    def over(self) -> bool:
        return self.next_seat is None


def test_the_prompt_names_the_seat_to_act_as_people_count_seats() -> None:
    assert _Round(2).prompt == "seat 3> "
    assert _Round(None).prompt == "seat 1> "


def test_a_ruling_recorded_leaves_the_session_as_it_is() -> None:
    session = _Round(None)
    assert session.recorded(12, SHOWDOWN) is session


def test_nothing_is_left_to_record_at_the_end() -> None:
    assert _Round(None).final() is None


def test_input_ending_before_the_session_is_over_is_refused_naming_the_seat() -> None:
    with pytest.raises(DealerError) as refused:
        _Round(1).final()
    assert str(refused.value) == "the moves ended before the end: seat 2 to go; nothing recorded"
