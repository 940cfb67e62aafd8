"""A record's long settings are kept once, by their SHA-256, on both backends: the rulings of a
table share one text, every read gives the whole text back (the row the hash covers), and an
edit of a kept text is caught by the chain."""

from __future__ import annotations

import hashlib
import json
import sqlite3
from pathlib import Path

import psycopg
import pytest
from pg_server import PgServer

from dealer.audit import entries, open_log
from dealer.audit.records import Entry, canonical_json
from dealer.audit.sql_reads import SETTINGS_KEPT_OVER, settings_reference
from dealer.audit.verify import verify

SETTINGS = {"house_way": {"name": "trump-plaza", "version": "1"}, "notes": "x" * 300}
TEXT = canonical_json(SETTINGS)
REFERENCE = "sha256:" + hashlib.sha256(TEXT.encode("utf-8")).hexdigest()


def ruling(seat: int, settings: dict[str, object] = SETTINGS) -> Entry:
    return Entry(
        kind="ruling",
        game="paigow",
        action="set",
        table_id="T-1",
        seat=seat,
        user_id="d-104",
        role="dealer",
        input_text="As Kd",
        result={"seat": seat},
        settings=settings,
    )


def stored(where: Path | str) -> tuple[list[str], list[tuple[str, str]]]:
    """The settings column of every record as stored, and the kept texts, read as the owner."""
    if isinstance(where, Path):
        conn = sqlite3.connect(where)
        prefix = ""
    else:
        conn = psycopg.connect(where)  # type: ignore[assignment]
        prefix = "dealer."
    try:
        columns = [
            row[0] for row in conn.execute(f"SELECT settings FROM {prefix}records ORDER BY id")
        ]
        kept = [tuple(row) for row in conn.execute(f"SELECT ref, text FROM {prefix}settings_texts")]
    finally:
        conn.close()
    return columns, kept


@pytest.mark.parametrize(
    ("text", "kept_apart"),
    [("{}", False), ("x" * SETTINGS_KEPT_OVER, False), ("é" * 129, True), (TEXT, True)],
)
def test_only_a_settings_text_longer_than_the_bound_is_kept_apart(
    text: str, kept_apart: bool
) -> None:
    """The bound counts bytes (UTF-8), as the database's length does."""
    reference = settings_reference(text)
    assert (reference is not None) == kept_apart
    if kept_apart:
        assert reference == "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


def test_rulings_share_one_kept_text_and_read_it_whole(log_at: Path | str) -> None:
    with open_log(log_at) as log:
        for seat in (1, 2, 3):
            entries.append(log, ruling(seat))
        entries.append(log, ruling(4, {"short": True}))
        records = log.records()
        rows = list(log.rows())
        assert verify(log).ok
    columns, kept = stored(log_at)
    assert columns == [REFERENCE] * 3 + ['{"short":true}']
    assert kept == [(REFERENCE, TEXT)]
    assert [record.settings for record in records] == [SETTINGS] * 3 + [{"short": True}]
    assert [row["settings"] for row in rows] == [TEXT] * 3 + ['{"short":true}']


def test_a_kept_text_edited_in_the_file_fails_verify(tmp_path: Path) -> None:
    """Whoever holds the SQLite file changes the kept settings every ruling of the table
    shares (dropping the trigger that refuses it): each ruling no longer carries its own hash."""
    path = tmp_path / "log.sqlite"
    with open_log(path) as log:
        entries.append(log, ruling(1))
        entries.append(log, ruling(2))
    conn = sqlite3.connect(path, isolation_level=None)
    with pytest.raises(sqlite3.IntegrityError, match="kept settings cannot be changed"):
        conn.execute("UPDATE settings_texts SET text = replace(text, 'trump', 'foxwo')")
    conn.execute("DROP TRIGGER settings_texts_no_update")
    conn.execute("UPDATE settings_texts SET text = replace(text, 'trump', 'foxwo')")
    conn.close()
    with open_log(path) as log:
        found = verify(log)
    assert (found.ok, found.first_bad) == (False, 1)


def test_a_terminal_cannot_keep_a_text_or_name_one(pg_server: PgServer) -> None:
    """On PostgreSQL a terminal's login neither writes a kept text nor appends a record whose
    settings are a reference: the server makes the reference itself, from the whole text."""
    url = pg_server.fresh_url()
    with open_log(url) as log:
        entries.append(log, ruling(1))
    with psycopg.connect(pg_server.login(url, "d-104"), autocommit=True) as conn:
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute("INSERT INTO dealer.settings_texts VALUES ('sha256:00', '{}')")
        with pytest.raises(psycopg.errors.InvalidTextRepresentation):
            conn.execute(
                "SELECT dealer.append_record('ruling', 'paigow', 'set', 'T-1', 1, 'd-104', "
                "'dealer', '', '[]', '{}', '[]', %s, NULL, NULL, '0', '{}', '{}')",
                [REFERENCE],
            )
    with open_log(url) as log:
        assert log.head().records == 1 and verify(log).ok
        assert json.loads(next(iter(log.rows()))["settings"]) == SETTINGS
    pg_server.drop(url)
