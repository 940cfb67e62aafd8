"""Ruling and recording: a ruling goes on the record before it is shown as final; a batch of
typed lines is ruled line by line, a bad line reported without stopping the others."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import NamedTuple

from dealer.desk.context import Desk
from dealer.desk.recording import record
from dealer.inputs import lines
from dealer.kernel.errors import DealerError
from dealer.kernel.ruling import Ruling


class Recorded(NamedTuple):
    """A ruling and the id of its record."""

    ruling: Ruling
    ruling_id: int


class LineOutcome(NamedTuple):
    """One line of a batch: its number and text, and its recorded ruling or the error."""

    number: int
    text: str
    recorded: Recorded | None
    error: str | None


def record_one(desk: Desk, ruling: Ruling) -> Recorded:
    """Put one ruling on the record."""
    (ruling_id,) = record(desk, [ruling])
    return Recorded(ruling, ruling_id)


def rule_lines(source: str, rule_line: Callable[[str], Recorded]) -> Iterator[LineOutcome]:
    """Rule and record each line of a batch file (`-`: standard input) on its own."""
    for number, text in lines(source):
        try:
            yield LineOutcome(number, text, rule_line(text), None)
        except DealerError as exc:
            yield LineOutcome(number, text, None, str(exc))
