"""The floor's sums: numbers kept per hour beside the records, so that statistics over a month or
a year are read from a few thousand rows instead of every record.

A row is keyed by the hour of the records it sums (`YYYY-MM-DDTHH`, UTC, of `recorded_at`), a
group (`grp`: who the numbers are of, for instance a table), a member of it (the table's id) and
a source (what kind of numbers: '' for the member's own, else a wager's kind); it holds
`INTS` whole numbers and `REALS` real numbers, which every new record adds to, and the last
record's time and mark (`last_at`, `last_mark`: where a member's next record reads what came
before it). What the numbers mean is the desk's (`dealer.desk.floor_sums`): this layer knows no
game. The desk adds a record's numbers in the transaction that appends it, so the sums are
always the records'; `verify` recomputes them from the records and reports the first hour that
differs. They are derived data: the records and their hashes are the log.

The sums cover the records from `sums_from()` on (1 for a log made by this version; the first
record after the upgrade for an older log, whose earlier records are read from the records).

Who computes a ruling's rows: on SQLite the tool, in the ruling's transaction (whoever holds
the file can write anything anyway); on PostgreSQL the server, from the record `append_record`
appends, by the desk's SQL (`verify.FloorSums`, made by `dealer db init`): a terminal sends
none, and no function it may execute takes any. The owner's bulk copy writes the rows the desk
recomputed from the records it copies (`WriteTransaction.copy_sums`), as verify recomputes
them.
"""

from __future__ import annotations

from typing import Any

from dealer.kernel.tuples import NamedTuple

INTS = 10
"""Whole numbers a row holds (`n0` … `n9`: counts and amounts in cents)."""
REALS = 4
"""Real numbers a row holds (`x0` … `x3`: sums of squares and seconds)."""
SUM_COLUMNS = tuple(f"n{i}" for i in range(INTS)) + tuple(f"x{i}" for i in range(REALS))
"""The columns every new record adds to, in order."""
KEY_COLUMNS = ("hour", "grp", "member", "source")


class SumKey(NamedTuple):
    """Which row: the hour, the group, its member, the source."""

    hour: str
    grp: str
    member: str
    source: str


class SumRow(NamedTuple):
    """One row of sums (`values`: the `INTS` whole numbers then the `REALS` real ones) and the
    newest record's time and mark it holds."""

    key: SumKey
    values: tuple[int | float, ...]
    last_at: str | None = None
    last_mark: str | None = None


class Total(NamedTuple):
    """The sums of one (member, source) of a group over a range of hours."""

    member: str
    source: str
    values: tuple[int | float, ...]


def hour_of(stamp: str) -> str:
    """The hour a stored time (`records.utc_now`'s form) is summed in."""
    return stamp[:13]


def fields(row: SumRow) -> dict[str, Any]:
    """`row` by column name (`KEY_COLUMNS`, `SUM_COLUMNS`, last_at, last_mark), as a backend
    writes it."""
    return {
        **dict(zip(KEY_COLUMNS, row.key, strict=True)),
        **dict(zip(SUM_COLUMNS, row.values, strict=True)),
        "last_at": row.last_at,
        "last_mark": row.last_mark,
    }
