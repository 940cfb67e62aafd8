"""The SQLite backend: numbered migrations, the append-only triggers, the SQL of a filter."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
import sqlite_utils
from sqlite_file import migration, set_back

from dealer.audit import entries, staff
from dealer.audit.chain import GENESIS_HASH, Checkpoint, seal
from dealer.audit.records import Entry, RecordFilter
from dealer.audit.sql_reads import WriteState, filter_sql
from dealer.audit.sqlite import SQLiteStorage
from dealer.audit.sqlite_schema import (
    LATEST,
    MIGRATIONS,
    PROTECTION_TRIGGERS,
    migrate,
    schema_version,
)
from dealer.audit.verify import verify
from dealer.kernel.errors import AuditError

ENTRY = Entry(kind="ruling", user_id="D1", role="dealer", table_id="T1", input_text="As Ks")
HAND_WRITTEN = Path(__file__).parent / "data" / "sqlite-log-hand-written-schema.sql"
"""A log made while every migration was SQL text (7 records), as sqlite3's iterdump wrote it."""


def hand_written_log(path: Path) -> Path:
    """The log of `HAND_WRITTEN` at `path`."""
    conn = sqlite3.connect(path, isolation_level=None)
    conn.executescript(HAND_WRITTEN.read_text(encoding="utf-8"))
    conn.close()
    return path


def schema_of(path: Path) -> dict[str, object]:
    """Every table's columns and indexes, and every trigger, as sqlite-utils reads them."""
    db = sqlite_utils.Database(sqlite3.connect(path), recursive_triggers=False)
    shape: dict[str, object] = {
        table.name: (
            [column[1:] for column in table.columns],
            sorted((i.name, i.unique, i.partial, i.columns) for i in table.indexes),
        )
        for table in db.tables
    }
    shape["triggers"] = sorted(db.triggers)
    db.close()
    return shape


def test_new_database_has_every_migration(tmp_path: Path) -> None:
    with SQLiteStorage.open(tmp_path / "a.sqlite") as log:
        assert log.conn.execute("PRAGMA user_version").fetchone()[0] == LATEST == len(MIGRATIONS)
        rows = log.conn.execute(
            "SELECT version, name FROM schema_migrations ORDER BY version"
        ).fetchall()
        assert [r[0] for r in rows] == list(range(1, LATEST + 1))
        assert rows[0][1].startswith("records:")
        triggers = log.conn.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'")
        assert {row[0] for row in triggers} >= set(PROTECTION_TRIGGERS)


def test_the_protection_triggers_are_every_trigger_of_a_new_log(tmp_path: Path) -> None:
    with SQLiteStorage.open(tmp_path / "a.sqlite") as log:
        triggers = log.conn.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'")
        assert sorted(row[0] for row in triggers) == sorted(PROTECTION_TRIGGERS)


def test_a_log_made_by_hand_written_migrations_opens_verifies_and_records_unchanged(
    tmp_path: Path,
) -> None:
    """The plain indexes of a log made before sqlite-utils made them have other SQL text: such
    a log opens with only the migrations after it (the bound on a record's size, the settings
    kept once, the floor's sums, a table's records by time, canonical JSON), verifies, and
    takes new records."""
    path = hand_written_log(tmp_path / "then.sqlite")
    conn = sqlite3.connect(path)
    schema = "SELECT type, name, sql FROM sqlite_master ORDER BY name"
    before = conn.execute(schema).fetchall()
    with SQLiteStorage.open(path) as log:
        found = verify(log)
        assert (found.ok, found.records, found.problems) == (True, 7, ())
        assert entries.append(log, ENTRY._replace(seat=2)) == 8
        assert verify(log).ok
        assert [r.id for r in log.records(RecordFilter(seat=2))] == [8]
    added = [row[:2] for row in conn.execute(schema).fetchall() if row not in before]
    assert added == [
        ("table", "floor_sums"),
        ("table", "floor_sums_from"),
        ("trigger", "floor_sums_from_no_delete"),
        ("trigger", "floor_sums_from_no_update"),
        ("trigger", "floor_sums_from_once"),
        ("trigger", "floor_sums_no_delete"),
        ("trigger", "records_bounded"),
        ("index", "records_by_table_time"),
        ("table", "settings_texts"),
        ("trigger", "settings_texts_bounded"),
        ("trigger", "settings_texts_no_delete"),
        ("trigger", "settings_texts_no_update"),
    ]
    conn.close()


def test_a_new_log_has_the_schema_of_one_made_by_hand_written_migrations(
    tmp_path: Path,
) -> None:
    SQLiteStorage.open(tmp_path / "now.sqlite").close()
    SQLiteStorage.open(hand_written_log(tmp_path / "then.sqlite")).close()  # the later ones
    then = schema_of(tmp_path / "then.sqlite")
    now = schema_of(tmp_path / "now.sqlite")
    assert now == then
    assert set(now) == {
        "records",
        "users",
        "record_seats",
        "settings_texts",
        "floor_sums",
        "floor_sums_from",
        "schema_migrations",
        "triggers",
    }


def test_reopening_applies_nothing_again(tmp_path: Path) -> None:
    path = tmp_path / "a.sqlite"
    SQLiteStorage.open(path).close()
    with SQLiteStorage.open(path) as log:
        assert log.conn.execute("SELECT COUNT(*) FROM schema_migrations").fetchone()[0] == LATEST


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
    with SQLiteStorage.open(path) as log:
        first = entries.append(log, ENTRY)
        assert log.conn.execute("PRAGMA user_version").fetchone()[0] == LATEST
        assert log.conn.execute("SELECT COUNT(*) FROM schema_migrations").fetchone()[0] == LATEST
        assert first == 1
        assert verify(log).ok


def test_the_seat_index_is_rebuilt_for_an_older_log(tmp_path: Path) -> None:
    """A log from before the seat index: the migration fills it from the records' content,
    leaving the records and their chain as they were."""
    path = tmp_path / "old.sqlite"
    round_result = {"seats": [{"seat": 2, "patron": "P-1"}, {"seat": 4}]}
    with SQLiteStorage.open(path) as log:
        entries.append(log, ENTRY._replace(result=round_result))
        entries.append(log, ENTRY._replace(seat=4, result={"patron": "P-2"}))
        before = list(log.rows())
    conn = sqlite3.connect(path, isolation_level=None)
    set_back(conn, migration("record_seats"))
    conn.close()
    with SQLiteStorage.open(path) as log:
        assert log.conn.execute("PRAGMA user_version").fetchone()[0] == LATEST
        assert log.conn.execute(
            "SELECT record_id, seat, patron FROM record_seats ORDER BY record_id, seat"
        ).fetchall() == [(1, 2, "P-1"), (1, 4, None), (2, 4, "P-2")]
        assert list(log.rows()) == before
        assert [r.id for r in log.records(RecordFilter(seat=4))] == [1, 2]
        assert verify(log).ok


def test_a_log_migrated_up_to_an_earlier_version_is_finished_when_opened(tmp_path: Path) -> None:
    """`migrate(conn, target)` makes a log as an earlier release left it (bulk loads fill one
    before the seat index exists); opening it applies the rest, indexing the seats."""
    path = tmp_path / "a.sqlite"
    seat_index = next(n for n, (name, _) in enumerate(MIGRATIONS, 1) if "record_seats" in name)
    conn = sqlite3.connect(path, isolation_level=None)
    assert migrate(conn, seat_index - 1) == seat_index - 1
    assert migrate(conn, seat_index - 1) == seat_index - 1
    tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master")}
    assert "records" in tables and "record_seats" not in tables
    row = seal(ENTRY._replace(seat=4), Checkpoint(0, GENESIS_HASH))
    conn.execute(
        f"INSERT INTO records ({', '.join(row)}) VALUES ({', '.join('?' * len(row))})",
        list(row.values()),
    )
    conn.close()
    with SQLiteStorage.open(path) as log:
        assert schema_version(log.conn) == LATEST
        assert [r.id for r in log.records(RecordFilter(seat=4))] == [1]
        assert verify(log).ok


def test_the_seat_index_is_append_only(tmp_path: Path) -> None:
    with SQLiteStorage.open(tmp_path / "a.sqlite") as log:
        entries.append(log, ENTRY._replace(seat=3))
        entries.append(log, ENTRY)
        for sql in ("UPDATE record_seats SET seat = 4", "DELETE FROM record_seats"):
            with pytest.raises(sqlite3.DatabaseError, match="seat index cannot be"):
                log.conn.execute(sql)
        with pytest.raises(sqlite3.DatabaseError, match="written with its record, and only then"):
            log.conn.execute("INSERT INTO record_seats VALUES (1, 5, 'P-1')")


def test_verify_finds_a_seat_index_changed_outside_the_tool(tmp_path: Path) -> None:
    with SQLiteStorage.open(tmp_path / "a.sqlite") as log:
        entries.append(log, ENTRY._replace(seat=3))
        entries.append(log, ENTRY)
        assert verify(log).ok
        log.conn.execute("DROP TRIGGER record_seats_of_the_newest")
        log.conn.execute("INSERT INTO record_seats VALUES (1, 5, 'P-1')")
        found = verify(log)
        assert not found.ok
        assert found.problems == (
            "the protection trigger record_seats_of_the_newest is missing: someone removed it",
            "the seat index does not match record 1: it was changed outside the tool",
        )


USERS_WITHOUT_CHECKS = (
    "CREATE TABLE users (record_id INTEGER PRIMARY KEY REFERENCES records(id), "
    "user_id TEXT NOT NULL, role TEXT NOT NULL, active INTEGER NOT NULL, pin_hash TEXT)"
)


@pytest.mark.parametrize(
    ("sql", "problems"),
    [
        (
            [
                "DROP TRIGGER records_no_delete",
                "CREATE TRIGGER records_no_delete BEFORE DELETE ON records WHEN 0 "
                "BEGIN SELECT 1; END",
            ],
            (
                "the protection trigger records_no_delete is not the one this software made: "
                "someone changed it",
            ),
        ),
        (
            [
                "CREATE TRIGGER records_quietly BEFORE INSERT ON records WHEN NEW.kind = 'void' "
                "BEGIN SELECT RAISE(IGNORE); END"
            ],
            ("the trigger records_quietly on records is not this software's: someone added it",),
        ),
        (
            ["DROP INDEX records_by_time"],
            ("the index records_by_time is missing: someone removed it",),
        ),
        (
            ["DROP INDEX records_by_time", "CREATE INDEX records_by_time ON records(user_id)"],
            ("the index records_by_time is not the one this software made: someone changed it",),
        ),
        (["CREATE TABLE notes (said TEXT)", "CREATE INDEX notes_said ON notes(said)"], ()),
    ],
    ids=["trigger-changed", "trigger-added", "index-dropped", "index-changed", "their-own"],
)
def test_verify_finds_a_schema_changed_outside_the_tool(
    tmp_path: Path, sql: list[str], problems: tuple[str, ...]
) -> None:
    """The schema is compared with the one the migrations declare (through sqlite-utils): a
    table or index of someone's own is no problem."""
    with SQLiteStorage.open(tmp_path / "a.sqlite") as log:
        entries.append(log, ENTRY)
        entries.append(log, ENTRY._replace(seat=3))
        for statement in sql:
            log.conn.execute(statement)
        found = verify(log)
        assert (found.ok, found.records, found.problems) == (not problems, 2, problems)


def test_verify_finds_a_table_rebuilt_without_its_checks(tmp_path: Path) -> None:
    with SQLiteStorage.open(tmp_path / "a.sqlite") as log:
        entries.append(log, ENTRY)
        of_users = "SELECT sql FROM sqlite_master WHERE tbl_name = 'users' AND type <> 'table'"
        saved = [row[0] for row in log.conn.execute(of_users)]
        log.conn.execute("DROP TABLE users")
        log.conn.execute(USERS_WITHOUT_CHECKS)
        for statement in saved:  # its triggers and index as they were
            log.conn.execute(statement)
        assert verify(log).problems == (
            "the table users is not the one this software made: someone changed it",
        )


def test_newer_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "new.sqlite"
    SQLiteStorage.open(path).close()
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA user_version = {LATEST + 1}")
    conn.close()
    with pytest.raises(AuditError, match=f"schema version {LATEST + 1}, newer than this software"):
        SQLiteStorage.open(path)


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
    with SQLiteStorage.open(tmp_path / "a.sqlite") as log:
        entries.append(log, ENTRY)
        entries.append(log, ENTRY)
        staff.add_user(log, "S1", "supervisor", pin="lantern-2468")
        with pytest.raises(sqlite3.DatabaseError, match=message):
            log.conn.execute(sql)
        assert verify(log).ok


@pytest.mark.parametrize(
    ("record_id", "prev_hash"),
    [(3, "head"), (1, GENESIS_HASH), (2, GENESIS_HASH), (7, "head")],
)
def test_insert_out_of_order_refused(tmp_path: Path, record_id: int, prev_hash: str) -> None:
    with SQLiteStorage.open(tmp_path / "a.sqlite") as log:
        entries.append(log, ENTRY)
        head = log.head().head_hash
        columns = [r[1] for r in log.conn.execute("PRAGMA table_info(records)").fetchall()]
        values = next(log.rows())
        values.update(id=record_id, prev_hash=head if prev_hash == "head" else prev_hash)
        with pytest.raises(sqlite3.DatabaseError, match="appended in order"):
            log.conn.execute(
                f"INSERT INTO records ({', '.join(columns)}) "
                f"VALUES ({', '.join('?' for _ in columns)})",
                [values[c] for c in columns],
            )


@pytest.mark.parametrize(
    ("flt", "where", "params"),
    [
        (RecordFilter(), "1", []),
        (RecordFilter(ids=(3, 5)), "id IN (?, ?)", [3, 5]),
        (
            RecordFilter(table_id="T1", seat=0),
            "table_id = ? AND id IN (SELECT record_id FROM record_seats WHERE seat = ?)",
            ["T1", 0],
        ),
        (
            RecordFilter(seat=2, patron="P-1"),
            "id IN (SELECT record_id FROM record_seats WHERE seat = ? AND patron = ?)",
            [2, "P-1"],
        ),
        (
            RecordFilter(game="paigow", user_id="D1", since="a", until="b"),
            "game = ? AND user_id = ? AND recorded_at >= ? AND recorded_at < ?",
            ["paigow", "D1", "a", "b"],
        ),
        (RecordFilter(kind="void", links_to=4), "kind = ? AND links_to = ?", ["void", 4]),
    ],
)
def test_filter_where(flt: RecordFilter, where: str, params: list[object]) -> None:
    assert filter_sql(flt, SQLiteStorage.dialect) == (where, params)


def test_write_state_keeps_what_was_appended_and_refuses_writes_once_closed() -> None:
    state = WriteState()
    state._check_open()
    entry = Entry(kind="ruling", user_id="D1", role="dealer", action="rank")
    state._appended.append((7, entry))
    assert state.appended == ((7, entry),)
    state.close()
    with pytest.raises(AuditError, match="this audit transaction is already finished"):
        state._check_open()
    assert state.appended == ((7, entry),)
