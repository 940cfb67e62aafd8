"""What a list of records shows of each one (`audit list`, `audit search`): a `Glance`, read by
the database from the stored record without the record read whole.

A patron's month is hundreds of rounds, each a few kilobytes of cards, wagers and settlements;
a list shows of each its columns, its seats, one line and what refers to it. The database takes
the few values that line needs out of the stored JSON (`Dialect.glance`: SQLite's JSON
functions, PostgreSQL's `json_to_record`), and the seats come from the seat index: nothing of
the record is parsed here but those values. A full record is read by `Reads.records`.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any

from dealer.audit.records import Reference
from dealer.kernel.errors import AuditError
from dealer.kernel.tuples import NamedTuple

GLANCE_COLUMNS = ("id", "recorded_at", "kind", "game", "action", "table_id", "user_id", "role")
"""The record's own columns a glance holds, as stored."""

VALUE_MAX = 200
"""The longest value a glance holds (its JSON text, in characters); a longer one is left out,
as if the record had none (a list's line shows less): however a record was written, a list of
it stays small."""


def short(sql: str) -> str:
    """SQL of `sql`'s value when it is at most `VALUE_MAX` characters long, else NULL."""
    return f"CASE WHEN length({sql}) <= {VALUE_MAX} THEN {sql} END"


METER_VALUES = ("meter", "value", "delta", "previous")
"""The keys of a meter record's result a glance holds."""

GLANCE_VALUES = (
    "readable",
    "total_net",
    "outcome",
    *METER_VALUES,
    "first_line",
    "input_text",
)
"""What each backend's `Dialect.glance` selects after `GLANCE_COLUMNS`, in this order: whether
the result and explanation are JSON at all; the result's `total_net`, its `base.outcome`, a
meter record's `meter`, `value`, `delta` and `previous`, and the first line of the explanation:
each the JSON text of a text or a number, NULL when the record has none there (or something
else: a list's line shows a word or a number, never a whole object) or a longer one than
`VALUE_MAX` (`short`); the input as typed."""


UNREAD = ", ".join(("true", *("NULL" for _ in GLANCE_VALUES[1:-1]), "r.input_text"))
"""SQL of the `GLANCE_VALUES` of a record `r` whose JSON the database cannot take apart: none
of its values, so that a list shows it by its input."""


class Glance(NamedTuple):
    """A record as a list shows it: its columns, the seats it involved (the seat index, in
    order), the values its summary is made of (None where its result has none), and the
    records that refer to it (`Reference`s, in record order); `not_in_effect`, for a ruling or
    override that is not in effect, the record that made it so (its void, or the override in
    effect over it: the desk's reading, `dealer.desk.records.glances`)."""

    id: int
    recorded_at: str
    kind: str
    game: str
    action: str
    table_id: str
    user_id: str
    role: str
    total_net: Any
    outcome: Any
    meter: Any
    value: Any
    delta: Any
    previous: Any
    first_line: str | None
    input_text: str
    seats: tuple[int, ...] = ()
    references: tuple[Reference, ...] = ()
    not_in_effect: Reference | None = None


def _value(text: str | None) -> Any:
    """A JSON value as the database gave it (its text), parsed; None for none, JSON null or a
    text that is no JSON value this side can hold."""
    try:
        return None if text is None else json.loads(text)
    except ValueError:
        return None


def glance_of(row: Sequence[Any], seats: Iterable[int], references: Iterable[Reference]) -> Glance:
    """The glance of a row of `GLANCE_COLUMNS` and `GLANCE_VALUES`, with the seats and
    references read beside it. A record whose result or explanation is no JSON is damaged:
    AuditError, as reading it whole says."""
    record_id, recorded_at, kind, game, action, table_id, user_id, role = row[: len(GLANCE_COLUMNS)]
    readable, total_net, outcome, meter, value, delta, previous, first, text = row[
        len(GLANCE_COLUMNS) :
    ]
    if not readable:
        raise AuditError(f"audit record {record_id} is damaged: its stored JSON cannot be read")
    return Glance(
        record_id,
        recorded_at,
        kind,
        game,
        action,
        table_id,
        user_id,
        role,
        total_net=_value(total_net),
        outcome=_value(outcome),
        meter=_value(meter),
        value=_value(value),
        delta=_value(delta),
        previous=_value(previous),
        first_line=line if isinstance(line := _value(first), str) else None,
        input_text=text,
        seats=tuple(seats),
        references=tuple(references),
    )
