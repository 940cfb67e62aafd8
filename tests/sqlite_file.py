"""An SQLite log read straight from its file, as whoever holds the file would read it to
re-chain it: each record's row as its hash covers it, a long settings text put back from
`settings_texts` where the record holds its reference; and the re-chaining itself, and the
floor's sums computed again as the tool keeps them; and a log set back to what an earlier
release left (`set_back`)."""

from __future__ import annotations

import re
import sqlite3
from typing import Any

from dealer.audit.chain import GENESIS_HASH, record_hash
from dealer.audit.records import Record
from dealer.audit.sqlite import SUMS_UPSERT
from dealer.audit.sqlite_schema import MIGRATIONS, Index
from dealer.audit.sums import SumRow, fields
from dealer.desk.floor_sums import Replay, counts

_MADE = re.compile(r"CREATE\s+(TABLE|INDEX|TRIGGER)\s+(\w+)")


def migration(named: str) -> int:
    """The number of the one migration whose description starts with `named`."""
    (number,) = [n for n, (name, _) in enumerate(MIGRATIONS, 1) if name.startswith(named)]
    return number


def set_back(conn: sqlite3.Connection, first: int) -> None:
    """Leave the log as the release before migration `first` did: every table, index and
    trigger that migration and the later ones made dropped (newest first; what went with its
    table is already gone), their versions forgotten. Data a migration only filled in (the
    seat index's rows) goes with its table."""
    for _, steps in reversed(MIGRATIONS[first - 1 :]):
        made: list[tuple[str, str]] = []
        for step in steps:
            if isinstance(step, Index):
                made.append(("INDEX", step.name))
            elif isinstance(step, str):
                made += [(kind.upper(), name) for kind, name in _MADE.findall(step)]
        for kind, name in reversed(made):
            conn.execute(f"DROP {kind} IF EXISTS {name}")
    conn.execute("DELETE FROM schema_migrations WHERE version >= ?", [first])
    conn.execute(f"PRAGMA user_version = {first - 1}")


_WHOLE = (
    "SELECT r.*, s.text AS kept FROM records r "
    "LEFT JOIN settings_texts s ON s.ref = r.settings WHERE r.id >= ? ORDER BY r.id"
)


def whole_rows(conn: sqlite3.Connection, start: int = 1) -> list[dict[str, Any]]:
    """The rows of the records from `start` on, by id, each with its whole settings text."""
    conn.row_factory = sqlite3.Row
    rows = []
    for found in conn.execute(_WHOLE, [start]):
        row = dict(found)
        kept = row.pop("kept")
        rows.append({**row, "settings": kept or row["settings"]})
    return rows


def rechain(conn: sqlite3.Connection, start: int = 1) -> None:
    """Compute every hash again from record `start` on, by the published recipe, and store it
    (the protection triggers already dropped by the caller)."""
    before = conn.execute("SELECT hash FROM records WHERE id = ?", [start - 1]).fetchone()
    previous = str(before[0]) if before else GENESIS_HASH
    for row in whole_rows(conn, start):
        row["prev_hash"] = previous
        previous = record_hash(row)
        conn.execute(
            "UPDATE records SET prev_hash = ?, hash = ? WHERE id = ?",
            [row["prev_hash"], previous, row["id"]],
        )


def resum(conn: sqlite3.Connection) -> None:
    """Compute the floor's sums again from the records, as the tool keeps them, and store them
    in place of the log's (the protection triggers already dropped by the caller)."""
    replay = Replay()
    made: list[SumRow] = []
    for row in whole_rows(conn):
        record = Record.from_row(row)
        if counts(record):
            made += replay.add(record) or []
    made += replay.finish() or []
    conn.execute("DELETE FROM floor_sums")
    conn.executemany(SUMS_UPSERT, [fields(row) for row in made])
