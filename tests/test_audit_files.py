"""The audit database file itself: a file that is not ours is refused untouched, no folder is
made without saying so, a read-only (archived) log can be read, and every file the log makes
is private whatever the umask. Through the real CLI (and the desk, to look at open files)."""

from __future__ import annotations

import os
import sqlite3
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import cli
import pytest
from log_reads import READING
from typer.testing import Result

from dealer.audit import entries
from dealer.audit.records import Entry
from dealer.audit.sqlite_schema import LATEST, MIGRATIONS
from dealer.desk.context import open_desk_log
from dealer.kernel.errors import AuditError

PIN = "lantern-2468"
PNG = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)) * 4
RULING = Entry(
    kind="ruling", user_id="D1", role="dealer", table_id="PG-1", game="paigow", input_text="As"
)

"""Every reading command, each with a read that finds something in the `logged` log."""
WRITING = ["audit", "user", "add", "S1", "--role", "supervisor", "--new-pin", PIN]


def run(*args: str, db: Path | None = None) -> Result:
    """`dealer ARGS`, with `--db DB` after them when `db` is given."""
    return cli.run(*args, *(["--db", str(db)] if db is not None else []))


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("DEALER_DB", "DEALER_USER", "DEALER_TABLE", "DEALER_PIN", "DEALER_NEW_PIN"):
        monkeypatch.delenv(name, raising=False)


@contextmanager
def umask(mask: int) -> Iterator[None]:
    old = os.umask(mask)
    try:
        yield
    finally:
        os.umask(old)


def mode(path: Path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def companions(db: Path) -> list[str]:
    return sorted(p.name for p in db.parent.iterdir() if p.name.startswith(db.name + "-"))


def state(path: Path) -> tuple[bytes, int]:
    """The file's bytes and modification time: unchanged means untouched."""
    return path.read_bytes(), os.stat(path).st_mtime_ns


@pytest.fixture
def logged(tmp_path: Path) -> Path:
    """A log with a supervisor (record 1) and a ruling at PG-1 (record 2), closed."""
    db = tmp_path / "audit.sqlite"
    assert run(*WRITING, db=db).exit_code == 0
    with open_desk_log(db) as log:
        entries.append(log, RULING)
    assert companions(db) == []  # the last connection's close checkpointed the WAL away
    return db


# -- a file that is not ours --------------------------------------------------------------


def _foreign(path: Path, *, wal: bool) -> None:
    conn = sqlite3.connect(path, isolation_level=None)
    if wal:
        conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("CREATE TABLE photos (id INTEGER PRIMARY KEY, name TEXT)")
    conn.execute("INSERT INTO photos (name) VALUES ('beach.png')")
    conn.close()


@pytest.mark.parametrize(
    ("content", "said"),
    [
        (b"shift notes: table 3 short a chip rack\n" * 20, "is not an SQLite database"),
        (PNG, "is not an SQLite database"),
        ("rollback", "is an SQLite database of something else (tables: photos)"),
        ("wal", "is an SQLite database of something else (tables: photos)"),
    ],
)
def test_a_file_that_is_not_ours_is_refused_untouched(
    tmp_path: Path, content: bytes | str, said: str
) -> None:
    db = tmp_path / "given.db"
    if isinstance(content, bytes):
        db.write_bytes(content)
    else:
        _foreign(db, wal=content == "wal")
    before = state(db)
    for args in (WRITING, *READING):
        result = run(*args, db=db)
        assert result.exit_code == 1, args
        assert result.stdout == ""
        lines = result.stderr.splitlines()
        assert len(lines) == 1 and lines[0].startswith("Error: "), result.stderr
        assert str(db) in lines[0] and said in lines[0]
        assert "Traceback" not in result.stderr
        assert state(db) == before, args
        assert companions(db) == [], args


def test_the_refusal_says_what_is_expected(tmp_path: Path) -> None:
    db = tmp_path / "given.db"
    _foreign(db, wal=False)
    assert run(*WRITING, db=db).stderr == (
        f"Error: {db} is an SQLite database of something else (tables: photos), not a dealer "
        "audit log (expected the tables records and schema_migrations): refusing to use it\n"
    )
    db.write_text("hello\n")
    assert run(*WRITING, db=db).stderr == (
        f"Error: {db} is not an SQLite database: refusing to use it as the audit log "
        "(--db names a dealer audit log, or a new file)\n"
    )


def test_a_folder_is_refused(tmp_path: Path) -> None:
    result = run(*WRITING, db=tmp_path)
    assert (result.exit_code, result.stderr) == (
        1,
        f"Error: {tmp_path} is a folder: --db names the audit log file inside one\n",
    )
    assert list(tmp_path.iterdir()) == []


def test_an_empty_file_is_a_new_log(tmp_path: Path) -> None:
    db = tmp_path / "new.sqlite"
    db.touch()
    assert run(*WRITING, db=db).exit_code == 0
    assert run("audit", "verify", db=db).stdout.startswith("OK: 1 records")


# -- folders --------------------------------------------------------------------------------


def test_a_db_in_a_missing_folder_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "no-such-folder" / "audit.sqlite"
    result = run(*WRITING, db=db)
    assert (result.exit_code, result.stderr) == (
        1,
        f"Error: the folder {db.parent} of the audit log {db} does not exist "
        "(create it first, or check the path)\n",
    )
    assert not db.parent.exists()
    for args in READING:
        assert run(*args, db=db).stderr == f"Error: there is no audit database at {db}\n"
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("mask", [0o022, 0o000])
def test_the_default_folder_is_made_private_and_said(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, mask: int
) -> None:
    monkeypatch.chdir(tmp_path)
    for args in READING:  # reading makes nothing
        assert run(*args).stderr == "Error: there is no audit database at logs/dealer.sqlite\n"
    assert list(tmp_path.iterdir()) == []
    with umask(mask):
        made = run(*WRITING)
    assert made.exit_code == 0, made.output
    assert made.stderr == "note: created the folder logs for the audit log\n"
    assert mode(tmp_path / "logs") == 0o700
    assert mode(tmp_path / "logs" / "dealer.sqlite") == 0o600
    again = run("audit", "checkpoint", "--user", "S1", "--pin", PIN)
    assert (again.exit_code, again.stderr) == (0, "")  # said once, when it was made


# -- reading a read-only log ----------------------------------------------------------------


def test_an_archived_log_is_read_without_a_change(logged: Path) -> None:
    os.chmod(logged, 0o444)
    before = state(logged)
    for args in READING:
        result = run(*args, db=logged)
        assert result.exit_code == 0, (args, result.output)
    assert "As" in run("audit", "show", "2", db=logged).stdout
    assert run("audit", "verify", db=logged).stdout.startswith("OK: 2 records")
    target = logged.parent / "archive.jsonl"
    assert run("audit", "export", "--format", "jsonl", "-o", str(target), db=logged).exit_code == 0
    assert len(target.read_text().splitlines()) == 2
    assert state(logged) == before
    assert companions(logged) == []  # opened immutable: no -wal, no -shm beside it


def test_an_archived_log_is_not_written(logged: Path) -> None:
    os.chmod(logged, 0o444)
    before = state(logged)
    result = run("audit", "checkpoint", "--user", "S1", "--pin", PIN, db=logged)
    assert (result.exit_code, result.stderr) == (
        1,
        f"Error: the audit log {logged} is read-only (mode 0444): it can be read, listed, "
        "verified and exported, not written\n",
    )
    assert state(logged) == before and companions(logged) == []


def test_reading_commands_open_the_log_read_only(logged: Path) -> None:
    """A writable log too: opened with mode=ro, so nothing can be written through it (even by
    root, whom file permissions do not stop), nothing is migrated, the file is unchanged."""
    before = state(logged)
    with open_desk_log(logged, read_only=True) as log:
        assert [r.id for r in log.records()] == [1, 2]
        with pytest.raises(AuditError, match="readonly"):
            entries.append(log, RULING)
    for args in READING:
        assert run(*args, db=logged).exit_code == 0, args
    assert state(logged) == before


def _old_log(path: Path) -> None:
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA journal_mode = WAL")
    for statement in MIGRATIONS[0][1]:
        conn.execute(statement)
    conn.execute(
        "CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT, applied_at TEXT)"
    )
    conn.execute("INSERT INTO schema_migrations VALUES (1, ?, 'then')", [MIGRATIONS[0][0]])
    conn.execute("PRAGMA user_version = 1")
    conn.close()


def test_an_older_log_is_reported_to_readers_and_upgraded_by_a_writer(tmp_path: Path) -> None:
    db = tmp_path / "old.sqlite"
    _old_log(db)
    before = state(db)
    for args in READING:
        result = run(*args, db=db)
        assert (result.exit_code, result.stderr) == (
            1,
            f"Error: the audit log {db} has schema version 1, older than this software's "
            f"({LATEST}): it cannot be upgraded while only reading; a command that writes to "
            "it (e.g. dealer audit checkpoint) upgrades it first\n",
        ), args
    assert state(db) == before
    assert run(*WRITING, db=db).exit_code == 0
    assert run("audit", "verify", db=db).stdout.startswith("OK: 1 records")


# -- private files --------------------------------------------------------------------------


@pytest.mark.parametrize("mask", [0o022, 0o000])
def test_every_file_of_the_log_is_private(tmp_path: Path, mask: int) -> None:
    db = tmp_path / "audit.sqlite"
    export, kept = tmp_path / "audit.csv", tmp_path / "shift.chk"
    with umask(mask):
        assert run(*WRITING, db=db).exit_code == 0
        with open_desk_log(db) as log:  # while it is open its -wal and -shm are there
            entries.append(log, RULING)
            assert companions(db) == ["audit.sqlite-shm", "audit.sqlite-wal"]
            assert [mode(db.parent / name) for name in companions(db)] == [0o600, 0o600]
        made = run("audit", "export", "--format", "csv", "-o", str(export), db=db)
        assert made.exit_code == 0
        for _ in range(2):
            taken = run("audit", "checkpoint", "--user", "S1", "--pin", PIN, "-o", str(kept), db=db)
            assert taken.exit_code == 0
    assert mode(db) == 0o600
    assert mode(export) == 0o600
    assert mode(kept) == 0o600
    assert [line[:2] for line in kept.read_text().splitlines()] == ["3:", "4:"]  # appended


def test_an_existing_checkpoint_file_is_appended_to(logged: Path) -> None:
    kept = logged.parent / "paper.chk"
    kept.write_text("1:" + "0" * 64 + "\n")
    os.chmod(kept, 0o640)
    assert (
        run(
            "audit", "checkpoint", "--user", "S1", "--pin", PIN, "-o", str(kept), db=logged
        ).exit_code
        == 0
    )
    assert kept.read_text().splitlines()[1].startswith("3:")
    assert mode(kept) == 0o640  # the file kept outside is the person's: its mode is theirs


@pytest.mark.parametrize("command", [("paigow", "set", "As Kd 9c 7h 5s 3d JK"), ("audit", "list")])
def test_sqlite_s_in_memory_name_is_refused_and_leaves_no_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: tuple[str, ...]
) -> None:
    """`--db :memory:` was refused only after an empty file of that name was made."""
    monkeypatch.chdir(tmp_path)
    result = cli.run(*command, "--db", ":memory:")
    assert (result.exit_code, result.stderr) == (
        1,
        "Error: the audit log ':memory:' would be SQLite's in-memory database, which keeps "
        "nothing: name the log's file (or a postgresql:// URL)\n",
    )
    assert list(tmp_path.iterdir()) == []
