"""Reading a test's audit log on either backend: `where` is a SQLite file (a Path) or a
PostgreSQL URL (a str), as the `log_at` fixture gives it, and every read goes through
`dealer.audit.open_log` (the Storage interface), never through a database driver, so a test
reads both backends the same way. `use` names the log to the commands as an operator does, in
DEALER_DB."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from dealer.audit import open_log
from dealer.audit.chain import Checkpoint
from dealer.audit.records import Record, RecordFilter, RecordKind, canonical_json
from dealer.kernel.ruling import Ruling

SETTINGS = (
    "DEALER_DB",
    "DEALER_USER",
    "DEALER_TABLE",
    "DEALER_PIN",
    "DEALER_NEW_PIN",
    "DEALER_REVIEWER_PIN",
)
"""The environment settings of the desk: none leaks in from the shell running the tests."""

READING = (
    ["audit", "list"],
    ["audit", "search", "--table", "PG-1"],
    ["audit", "show", "2"],
    ["audit", "verify"],
    ["audit", "export", "--format", "jsonl"],
    ["audit", "user", "list"],
    ["audit", "dispute", "list"],
    ["audit", "meter", "show", "progressive_treasure", "--table", "PG-1"],
    ["shift", "summary", "--table", "PG-1"],
)
"""Every reading command, at table PG-1 and record 2: run against a log that must not change."""


def use(where: Path | str, monkeypatch: pytest.MonkeyPatch) -> Path | str:
    """Name the log at `where` in DEALER_DB, with no other desk setting; return `where`."""
    for name in SETTINGS:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("DEALER_DB", str(where))
    return where


def exists(where: Path | str) -> bool:
    """Whether there is a log at `where` (a PostgreSQL database from `log_at` always holds one)."""
    return not isinstance(where, Path) or where.exists()


def records(where: Path | str, **match: Any) -> list[Record]:
    """The records matching `match` (RecordFilter's fields), by id; none if there is no log."""
    if not exists(where):
        return []
    with open_log(where, read_only=True) as log:
        return log.records(RecordFilter(**match))


def kinds(where: Path | str) -> list[str]:
    """The kind of every record, by id."""
    return [record.kind for record in records(where)]


def head(where: Path | str) -> Checkpoint:
    """How many records there are and the newest one's hash."""
    with open_log(where, read_only=True) as log:
        return log.head()


def untouched(where: Path | str) -> bool:
    """Whether nothing was written: no SQLite file made, no record in the PostgreSQL log."""
    if isinstance(where, Path):
        return not where.exists()
    return head(where).records == 0


def rows(where: Path | str, **match: Any) -> list[dict[str, Any]]:
    """The stored rows matching `match`, by id: every field as stored (JSON fields as text)."""
    if not exists(where):
        return []
    with open_log(where, read_only=True) as log:
        return [dict(row) for row in log.rows(RecordFilter(**match))]


def secret(where: Path | str, user_id: str) -> str | None:
    """The stored secret of `user_id`'s newest users row, as the log's owner reads it (on
    PostgreSQL every other login reads it withheld)."""
    with open_log(where) as log:
        rows = [row for row in log.user_history() if row.user_id == user_id]
    return rows[-1].pin_hash if rows else None


def record(record_id: int, kind: str, action: str, result: Any, **extra: Any) -> Record:
    """A record as a backend reads it back, made in the test (no log): for the pure functions
    that take records (the shift summary's `summarize`). `extra` may give `game`, `links_to`."""
    return Record(
        id=record_id,
        recorded_at=f"2026-05-09T14:00:{record_id:02d}.000000Z",
        kind=kind,
        game=extra.get("game", "paigow"),
        action=action,
        table_id="PG-1",
        seat=None,
        user_id="d-1",
        role="dealer",
        input_text="",
        cards=(),
        result=result,
        explanation=(),
        settings={},
        links_to=extra.get("links_to"),
        reason=None,
        software_version="0",
        prev_hash="",
        hash="",
    )


def ruling_record(number: int, ruling: Ruling, result: Mapping[str, Any] | None = None) -> Record:
    """Ruling `ruling` as the log keeps it (JSON as stored: `result`, else its own), record
    `number` at table PG-9 by d-9, a minute after the one before: for the statistics read from
    records made in the test."""
    return Record(
        number,
        f"2026-05-09T12:{number % 60:02d}:00.000000Z",
        RecordKind.RULING,
        "paigow",
        ruling.action,
        "PG-9",
        None,
        "d-9",
        "dealer",
        ruling.input_text,
        tuple(ruling.cards),
        json.loads(canonical_json(ruling.result)) if result is None else dict(result),
        (),
        json.loads(canonical_json(ruling.settings)),
        None,
        None,
        "test",
        "",
        "",
    )
