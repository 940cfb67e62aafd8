"""Numbered migrations and the append-only triggers."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from dealer.audit import AuditLog, Entry
from dealer.audit.chain import GENESIS_HASH
from dealer.audit.schema import LATEST, MIGRATIONS, PROTECTION_TRIGGERS
from dealer.kernel.errors import AuditError

ENTRY = Entry(kind="ruling", user_id="D1", role="dealer", table_id="T1", input_text="As Ks")


def test_new_database_has_every_migration(tmp_path: Path) -> None:
    with AuditLog.open(tmp_path / "a.sqlite") as log:
        assert log.db.execute("PRAGMA user_version").fetchone()[0] == LATEST == len(MIGRATIONS)
        rows = log.db.execute(
            "SELECT version, name FROM schema_migrations ORDER BY version"
        ).fetchall()
        assert [r[0] for r in rows] == list(range(1, LATEST + 1))
        assert rows[0][1].startswith("records:")
        assert {t.name for t in log.db.triggers} >= set(PROTECTION_TRIGGERS)


def test_reopening_applies_nothing_again(tmp_path: Path) -> None:
    path = tmp_path / "a.sqlite"
    AuditLog.open(path).close()
    with AuditLog.open(path) as log:
        assert log.db.execute("SELECT COUNT(*) FROM schema_migrations").fetchone()[0] == LATEST


def test_old_database_is_upgraded_keeping_records(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite"
    conn = sqlite3.connect(path, isolation_level=None)
    for statement in MIGRATIONS[0][1]:
        conn.execute(statement)
    conn.execute(
        "CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT, applied_at TEXT)"
    )
    conn.execute("INSERT INTO schema_migrations VALUES (1, ?, 'then')", [MIGRATIONS[0][0]])
    conn.execute("PRAGMA user_version = 1")
    conn.close()
    with AuditLog.open(path) as log:
        first = log.append(ENTRY)
        assert log.db.execute("PRAGMA user_version").fetchone()[0] == LATEST
        assert log.db.execute("SELECT COUNT(*) FROM schema_migrations").fetchone()[0] == LATEST
        assert first == 1
        assert log.verify().ok


def test_newer_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "new.sqlite"
    AuditLog.open(path).close()
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA user_version = {LATEST + 1}")
    conn.close()
    with pytest.raises(AuditError, match=f"schema version {LATEST + 1}, newer than this software"):
        AuditLog.open(path)


@pytest.mark.parametrize(
    ("sql", "message"),
    [
        ("UPDATE records SET result = '{}' WHERE id = 1", "cannot be changed"),
        ("DELETE FROM records WHERE id = 2", "cannot be deleted"),
        ("DELETE FROM records", "cannot be deleted"),
        ("UPDATE users SET role = 'supervisor'", "user history cannot be changed"),
        ("DELETE FROM users", "user history cannot be deleted"),
    ],
)
def test_triggers_refuse_changes(tmp_path: Path, sql: str, message: str) -> None:
    with AuditLog.open(tmp_path / "a.sqlite") as log:
        log.append(ENTRY)
        log.append(ENTRY)
        log.add_user("S1", "supervisor", pin="2468")
        with pytest.raises(sqlite3.DatabaseError, match=message):
            log.db.conn.execute(sql)
        assert log.verify().ok


@pytest.mark.parametrize(
    ("record_id", "prev_hash"),
    [(3, "head"), (1, GENESIS_HASH), (2, GENESIS_HASH), (7, "head")],
)
def test_insert_out_of_order_refused(tmp_path: Path, record_id: int, prev_hash: str) -> None:
    with AuditLog.open(tmp_path / "a.sqlite") as log:
        log.append(ENTRY)
        head = log.head().head_hash
        columns = [r[1] for r in log.db.execute("PRAGMA table_info(records)").fetchall()]
        values = dict(next(log.db.query("SELECT * FROM records WHERE id = 1")))
        values.update(id=record_id, prev_hash=head if prev_hash == "head" else prev_hash)
        with pytest.raises(sqlite3.DatabaseError, match="appended in order"):
            log.db.conn.execute(
                f"INSERT INTO records ({', '.join(columns)}) "
                f"VALUES ({', '.join('?' for _ in columns)})",
                [values[c] for c in columns],
            )
