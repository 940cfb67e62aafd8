"""Several processes ruling into one audit database at once, and a process killed mid-write."""

from __future__ import annotations

import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from dealer.audit import entries, open_log
from dealer.audit.records import Entry, RecordFilter
from dealer.audit.sqlite import SQLiteStorage
from dealer.audit.verify import verify

WORKER = """
import sys, time
from pathlib import Path
from dealer.audit import meters, open_log, users
from dealer.audit.records import Entry

path, worker, rounds, go = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), Path(sys.argv[4])
pause = float(sys.argv[5])  # seconds between the appends of one round, inside the transaction
while not go.exists():
    time.sleep(0.005)
with open_log(path) as log:
    done = 0
    while rounds < 0 or done < rounds:
        with log.transaction() as tx:
            value = int(tx.meter("PG-1", "treasure") or 0)
            for seat in range(1, 4):  # the last seat's ruling states the meter it moves
                moved = {"meters": {
                    "before": {"treasure": value}, "contributions": {"treasure": 1},
                    "after": {"treasure": value + 1},
                }, "bonuses": [{"wager": "treasure", "amount": 1}]} if seat == 3 else {}
                users.append_checked(tx, Entry(
                    kind="ruling", user_id=f"D{worker}", role="dealer", table_id="PG-1",
                    game="paigow", action="settle",
                    input_text=f"{worker}:{done}:{seat}" + "x" * 400,
                    result={"worker": worker, "round": done, **moved}, seat=seat,
                ))
                time.sleep(pause)
            meters.move(tx, "PG-1", "treasure", value + 1, "one contribution per round")
        done += 1
        print(done, flush=True)
"""


def start(
    script: Path, db: Path | str, worker: int, rounds: int, go: Path, pause: float = 0.0
) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, str(script), str(db), str(worker), str(rounds), str(go), str(pause)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def test_processes_at_once_lose_nothing(log_at: Path | str, tmp_path: Path) -> None:
    """On each backend; an SQLite log is new, made by whichever process comes first."""
    script, db, go = tmp_path / "worker.py", log_at, tmp_path / "go"
    script.write_text(WORKER)
    workers, rounds = 4, 50
    procs = [start(script, db, w, rounds, go) for w in range(workers)]
    go.touch()  # all open the new database and write at once
    for proc in procs:
        _, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, err
    with open_log(db) as log:
        result = verify(log)
        assert (result.ok, result.records, result.first_bad) == (True, workers * rounds * 4, None)
        ids = [r.id for r in log.records()]
        assert ids == list(range(1, workers * rounds * 4 + 1))
        typed = sorted(r.input_text.rstrip("x") for r in log.records(RecordFilter(kind="ruling")))
        assert typed == sorted(
            f"{w}:{n}:{s}" for w in range(workers) for n in range(rounds) for s in range(1, 4)
        )
        assert log.meter("PG-1", "treasure") == workers * rounds  # read-modify-write held


def test_processes_making_a_log_at_once_migrate_it_once(tmp_path: Path) -> None:
    """An SQLite file made by several processes at once gets its schema once (a PostgreSQL log
    is made once, beforehand, by `dealer db init`)."""
    script, db, go = tmp_path / "worker.py", tmp_path / "logs" / "shared.sqlite", tmp_path / "go"
    script.write_text(WORKER)
    db.parent.mkdir()
    procs = [start(script, db, w, 1, go) for w in range(4)]
    go.touch()
    for proc in procs:
        _, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, err
    with SQLiteStorage.open(db) as log:
        assert verify(log).ok
        migrations = log.conn.execute("SELECT COUNT(*) FROM schema_migrations").fetchone()[0]
        assert migrations == log.conn.execute("PRAGMA user_version").fetchone()[0]


def test_killed_mid_write_leaves_no_partial_round(log_at: Path | str, tmp_path: Path) -> None:
    script, db, go = tmp_path / "worker.py", log_at, tmp_path / "go"
    script.write_text(WORKER)
    go.touch()
    proc = start(script, db, 1, -1, go, pause=0.002)  # mostly inside an open transaction
    assert proc.stdout is not None
    committed = 0
    deadline = time.monotonic() + 60
    while committed < 25 and time.monotonic() < deadline:
        committed = int(proc.stdout.readline() or committed)
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    assert proc.returncode == -signal.SIGKILL
    assert committed >= 25
    if isinstance(db, Path):  # the file itself (a PostgreSQL server keeps its own pages)
        with sqlite3.connect(db) as conn:
            assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    with open_log(db) as log:
        result = verify(log)
        assert result.ok, result.problems
        rulings = len(log.records(RecordFilter(kind="ruling")))
        meters = len(log.records(RecordFilter(kind="meter")))
        assert rulings == 3 * meters >= 3 * committed  # whole rounds only
        assert log.meter("PG-1", "treasure") == meters
        after = entries.append(
            log, Entry(kind="ruling", user_id="D2", role="dealer", input_text="next")
        )
        assert after == result.records + 1  # the lock died with the process
        assert verify(log).ok


def test_a_writer_waits_for_the_lock_in_short_slices(tmp_path: Path) -> None:
    """While another process writes, a writer asks again every `WAIT_SLICE_MS` (so Ctrl-C is
    heard between asks) and writes once the lock is free; its busy timeout is then restored."""
    import threading

    from dealer.audit.sqlite import BUSY_TIMEOUT_SECONDS, WAIT_SLICE_MS

    db = tmp_path / "audit.sqlite"
    said: list[str] = []
    locked = threading.Event()

    def other_writer() -> None:  # holds the write lock until the writer has asked three times
        holder = sqlite3.connect(db, isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")
        locked.set()
        deadline = time.monotonic() + 60  # a hang guard only
        while said.count("BEGIN IMMEDIATE") < 3 and time.monotonic() < deadline:
            time.sleep(0.01)
        holder.execute("ROLLBACK")
        holder.close()

    with SQLiteStorage.open(db) as log:
        entries.append(log, Entry(kind="ruling", user_id="D1", role="dealer", input_text="a"))
        other = threading.Thread(target=other_writer)
        other.start()
        assert locked.wait(60)
        log.conn.set_trace_callback(said.append)
        entries.append(log, Entry(kind="ruling", user_id="D1", role="dealer", input_text="b"))
        log.conn.set_trace_callback(None)
        other.join(60)
        assert said.count("BEGIN IMMEDIATE") >= 3
        assert said[:2] == ["PRAGMA busy_timeout", f"PRAGMA busy_timeout = {WAIT_SLICE_MS}"]
        assert f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT_SECONDS * 1000)}" in said
        assert [r.input_text for r in log.records(RecordFilter())] == ["a", "b"]


def test_a_new_log_another_process_is_making_is_waited_for(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Turning a new file to WAL journaling meets another process's lock without SQLite's
    waiting (it failed at once, ~1 run in 7 of four terminals opening a new log together): the
    opener pauses and asks again. The lock is let go at the first pause, so the opener must
    have asked twice."""
    from dealer.audit import sqlite as sqlite_log

    db = tmp_path / "audit.sqlite"
    holder = sqlite3.connect(db, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # as a process in the middle of making the file
    holder.execute("CREATE TABLE scratch (x)")
    pauses: list[float] = []

    def pause(seconds: float) -> None:
        pauses.append(seconds)
        if holder.in_transaction:
            holder.execute("ROLLBACK")

    monkeypatch.setattr(sqlite_log.time, "sleep", pause)
    try:
        with SQLiteStorage.open(db) as log:
            entries.append(log, Entry(kind="ruling", user_id="D1", role="dealer", input_text="a"))
            assert log.conn.execute("PRAGMA journal_mode").fetchone() == ("wal",)
            assert [r.input_text for r in log.records(RecordFilter())] == ["a"]
    finally:
        holder.close()
    assert pauses == [sqlite_log.RETRY_PAUSE_SECONDS]
