"""Ctrl-C (SIGINT) stops a command: exit status 130, one `Error: interrupted` line on stderr,
no traceback, no worker process left running, nothing half written.

Real processes are sent real signals, once they are visibly in the middle of their work (their
workers started, a progress bar drawn, a ruling shown). Every wait has a generous deadline only
so that a hang fails the test instead of stalling the suite; no time is ever asserted."""

from __future__ import annotations

import contextlib
import json
import os
import select
import signal
import sqlite3
import subprocess
import sys
import termios
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO

import pytest
from log_reads import records as logged
from test_table_session import Terminal

from dealer.desk import records
from dealer.desk.records import RecordFilter

ROOT = Path(__file__).resolve().parents[1]
HANG_GUARD = 60.0
"""Seconds a step may take before the test fails as hung (never a measure of speed)."""
DEALER = [sys.executable, "-m", "dealer"]
HOUSE_EDGE = ["analyze", "house-edge", "--rounds", "100000000", "--player", "house-way"]
"""A simulation far too long to finish before it is interrupted."""
SET_LINES = ["As Kd 9c 7h 5s 3d 2c", "Js Jd Ac Qh 8s 5d 3h", "2c 3d 5h 8s 9c Jd Kh"]

pytestmark = pytest.mark.skipif(
    not Path("/proc/self/stat").exists(), reason="finds worker processes in /proc"
)


def _env(tmp_path: Path, db: Path | str | None = None) -> dict[str, str]:
    """Commands run in `tmp_path`, on the log at `db` (by default audit.sqlite there)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("DEALER_")}
    env.update(
        DEALER_DB=str(tmp_path / "audit.sqlite" if db is None else db),
        DEALER_USER="d-104",
        PYTHONPATH=str(ROOT),
    )
    return env


def _start(
    args: list[str],
    tmp_path: Path,
    *,
    ignoring_sigint: bool = False,
    db: Path | str | None = None,
) -> subprocess.Popen:
    """`dealer args` in a process group of its own (as a terminal runs a command: Ctrl-C goes
    to the whole group); with `ignoring_sigint`, started as a script starts a background job,
    with SIGINT ignored."""
    command = [*DEALER, *args]
    if ignoring_sigint:
        command = ["sh", "-c", "trap '' INT; exec \"$@\"", "sh", *command]
    return subprocess.Popen(
        command,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=_env(tmp_path, db),
        cwd=tmp_path,
        start_new_session=True,
    )


def _stat(pid: int) -> tuple[str, int, int] | None:
    """A process's state, parent and start time (None when there is no such process)."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2 :].split()
    return fields[0], int(fields[1]), int(fields[19])


def _children(pid: int) -> set[tuple[int, int]]:
    """The live child processes of `pid`, each as (pid, start time)."""
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and (st := _stat(int(entry.name))) is not None:
            state, parent, started = st
            if parent == pid and state != "Z":
                found.add((int(entry.name), started))
    return found


def _running(processes: set[tuple[int, int]]) -> set[tuple[int, int]]:
    """Those of `processes` still running (the same pid and start time, not a zombie)."""
    return {
        (pid, started)
        for pid, started in processes
        if (st := _stat(pid)) is not None and st[2] == started and st[0] != "Z"
    }


def _workers(proc: subprocess.Popen, count: int) -> set[tuple[int, int]]:
    """Wait until `proc` has `count` worker processes (failing if it ends or hangs first)."""
    deadline = time.monotonic() + HANG_GUARD
    while len(found := _children(proc.pid)) < count:
        assert proc.poll() is None, f"the command ended first: {proc.communicate()}"
        assert time.monotonic() < deadline, f"no {count} workers within {HANG_GUARD:g} s"
        time.sleep(0.05)
    return found


def _waiting(pid: int) -> None:
    """Wait until `pid` sleeps, waiting for input. A signal that came while it was still on its
    way there (between Python's last check for signals and the blocking read) would be taken
    only at the next input: so does Python, and a person types on."""
    deadline = time.monotonic() + HANG_GUARD
    while (st := _stat(pid)) is None or st[0] != "S":
        assert time.monotonic() < deadline, f"the command did not wait within {HANG_GUARD:g} s"
        time.sleep(0.01)


def _line(stream: IO[str]) -> str:
    """The next line of a child's output, waited for at most HANG_GUARD seconds (the child
    writes it alone: no line is left in the stream's buffer)."""
    ready, _, _ = select.select([stream], [], [], HANG_GUARD)
    assert ready, f"no output within {HANG_GUARD:g} s"
    return stream.readline()


def _ended(proc: subprocess.Popen) -> tuple[int, str, str]:
    """Exit status, stdout and stderr of `proc` once it ends (killed, and failed, if it hangs)."""
    try:
        out, err = proc.communicate(timeout=HANG_GUARD)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        raise AssertionError("the command did not stop") from None
    return proc.returncode, out, err


@pytest.mark.parametrize("ignoring_sigint", [False, True], ids=["ctrl-c", "kill-int-from-a-script"])
def test_a_simulation_stops_with_its_workers(tmp_path: Path, ignoring_sigint: bool) -> None:
    """Ctrl-C reaches the whole process group; `kill -INT` only the command, even one a script
    started with SIGINT ignored."""
    proc = _start([*HOUSE_EDGE, "--workers", "2"], tmp_path, ignoring_sigint=ignoring_sigint)
    workers = _workers(proc, 2)
    if ignoring_sigint:
        os.kill(proc.pid, signal.SIGINT)
    else:
        os.killpg(proc.pid, signal.SIGINT)
    assert _ended(proc) == (130, "", "Error: interrupted\n")
    assert _running(workers) == set()


def test_sigterm_stops_a_simulation_with_its_workers(tmp_path: Path) -> None:
    proc = _start([*HOUSE_EDGE, "--workers", "2"], tmp_path)
    workers = _workers(proc, 2)
    os.kill(proc.pid, signal.SIGTERM)
    assert _ended(proc) == (143, "", "Error: terminated\n")
    assert _running(workers) == set()


def test_sigterm_with_json_is_one_json_object(tmp_path: Path) -> None:
    proc = _start([*HOUSE_EDGE, "--workers", "2", "--json"], tmp_path)
    _workers(proc, 2)
    os.kill(proc.pid, signal.SIGTERM)
    status, out, err = _ended(proc)
    assert (status, out, json.loads(err)) == (143, "", {"error": "terminated", "exit": 143})


def test_workers_die_with_a_killed_simulation(tmp_path: Path) -> None:
    """SIGKILL runs no clean-up in the command: its workers must notice by themselves."""
    proc = _start([*HOUSE_EDGE, "--workers", "2"], tmp_path)
    workers = _workers(proc, 2)
    os.kill(proc.pid, signal.SIGKILL)
    assert proc.wait(timeout=HANG_GUARD) == -signal.SIGKILL
    deadline = time.monotonic() + HANG_GUARD
    while _running(workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    left = _running(workers)
    for pid, _ in left:
        os.kill(pid, signal.SIGKILL)  # not to leave them computing when the test fails
    assert left == set()


def test_a_second_ctrl_c_while_leaving_is_not_heard(tmp_path: Path) -> None:
    proc = _start([*HOUSE_EDGE, "--workers", "2"], tmp_path)
    workers = _workers(proc, 2)
    os.killpg(proc.pid, signal.SIGINT)
    assert proc.stderr is not None and _line(proc.stderr) == "Error: interrupted\n"
    os.killpg(proc.pid, signal.SIGINT)  # not yet waited for: the group is still there
    assert _ended(proc) == (130, "", "")
    assert _running(workers) == set()


class Keyboard(Terminal):
    """A command on a pseudo-terminal where Ctrl-C is pressed. A terminal discards the output
    not yet read when Ctrl-C sends its SIGINT, and with it what the command writes at that very
    moment; here it keeps it (NOFLSH), so that what is shown does not depend on timing."""

    def __init__(self, args: list[str], env: dict[str, str]) -> None:
        import pty

        self.pid, self.fd = pty.fork()
        if self.pid == 0:  # the child, on the terminal
            attrs = termios.tcgetattr(0)
            attrs[3] |= termios.NOFLSH
            termios.tcsetattr(0, termios.TCSANOW, attrs)
            os.execve(sys.executable, [sys.executable, *args], env)
        self.seen = b""


def _rest(term: Terminal) -> bytes:
    """All a terminal showed, once its command has ended (to the end of its output)."""
    while select.select([term.fd], [], [], HANG_GUARD)[0]:
        try:
            chunk = os.read(term.fd, 4096)
        except OSError:  # the command's side of the terminal is closed
            break
        if not chunk:
            break
        term.seen += chunk
    return term.seen


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
def test_ctrl_c_at_a_terminal_stops_a_simulation(tmp_path: Path) -> None:
    """The key itself: the terminal sends SIGINT to the command and its workers alike."""
    term = Keyboard(["-m", "dealer", *HOUSE_EDGE, "--workers", "2"], _env(tmp_path))
    try:
        term.expect("dealing rounds [")  # a chunk is done: the workers are at work
        workers = _children(term.pid)
        assert len(workers) == 2
        os.write(term.fd, b"\x03")
        assert term.wait(HANG_GUARD) == 130
        shown = _rest(term).decode(errors="replace").replace("\r", "")
    finally:
        term.close()
    assert shown.endswith("\nError: interrupted\n") and "Traceback" not in shown
    assert _running(workers) == set()


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
def test_ctrl_c_in_a_live_session_at_a_terminal_drops_the_line_every_time(tmp_path: Path) -> None:
    term = Keyboard(["-m", "dealer", "table", "--table", "PG-8"], _env(tmp_path))
    try:
        term.expect("round 1, dealer's cards> ")
        for typed in ("As Kd", "9c 7h"):
            os.write(term.fd, typed.encode())
            term.expect(typed)
            _waiting(term.pid)
            os.write(term.fd, b"\x03")
            term.expect("(line dropped; quit to leave)")
            term.expect("round 1, dealer's cards> ")
        term.send("quit")
        assert term.wait(HANG_GUARD) == 0
    finally:
        term.close()


def _recorded(db: Path | str) -> list[str]:
    return [record.input_text for record in logged(db)]


def _verifies(tmp_path: Path, db: Path | str | None = None) -> bool:
    done = subprocess.run(
        [*DEALER, "audit", "verify", "--json"],
        env=_env(tmp_path, db),
        capture_output=True,
        text=True,
        timeout=HANG_GUARD,
        check=False,
    )
    return bool(json.loads(done.stdout)["ok"])


def test_a_batch_keeps_every_ruling_it_made(log_at: Path | str, tmp_path: Path) -> None:
    """Each line is its own transaction: the rulings shown are on the record, whole."""
    proc = _start(["paigow", "set", "--batch", "-", "--json"], tmp_path, db=log_at)
    assert proc.stdin is not None and proc.stdout is not None
    for number, line in enumerate(SET_LINES, 1):
        proc.stdin.write(line + "\n")
        proc.stdin.flush()
        assert json.loads(_line(proc.stdout))["ruling_id"] == number
    _waiting(proc.pid)
    os.killpg(proc.pid, signal.SIGINT)
    assert _ended(proc) == (130, "", '{"error": "interrupted", "exit": 130}\n')  # --json
    assert _recorded(log_at) == SET_LINES
    assert _verifies(tmp_path, log_at)


def test_a_piped_table_session_keeps_its_settled_rounds(log_at: Path | str, tmp_path: Path) -> None:
    proc = _start(["table", "--table", "PG-2", "--json"], tmp_path, db=log_at)
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(f"{SET_LINES[0]}\n1 {SET_LINES[1]} base 25\nsettle\n{SET_LINES[2]}\n")
    proc.stdin.flush()
    assert json.loads(_line(proc.stdout))["ruling_id"] == 1
    _waiting(proc.pid)  # round 2 dealt, not settled
    os.killpg(proc.pid, signal.SIGINT)
    assert _ended(proc) == (130, "", '{"error": "interrupted", "exit": 130}\n')  # --json
    assert [record.id for record in logged(log_at, action="round")] == [1]
    assert _verifies(tmp_path, log_at)


# -- an export is written whole or not at all ----------------------------------------------------


@pytest.fixture
def log(tmp_path: Path) -> Path:
    db = tmp_path / "audit.sqlite"
    done = subprocess.run(
        [*DEALER, "paigow", "set", "--batch", "-"],
        input="\n".join(SET_LINES) + "\n",
        env=_env(tmp_path),
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=HANG_GUARD,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return db


def _files(folder: Path) -> list[str]:
    """The files in `folder` besides the audit log's own."""
    return sorted(p.name for p in folder.iterdir() if not p.name.startswith("audit.sqlite"))


def _interrupted_export(monkeypatch: pytest.MonkeyPatch, db: Path, target: Path) -> None:
    """Export into `target`, stopped by Ctrl-C after a record is written."""

    def stopped(storage: object, out: IO[str], fmt: str, flt: object) -> int:
        out.write('{"id": 1}\n')
        out.flush()
        raise KeyboardInterrupt

    monkeypatch.setattr(records, "write_records", stopped)
    with pytest.raises(KeyboardInterrupt):
        records.export(db, "jsonl", RecordFilter(), target)


def test_an_interrupted_export_leaves_no_file(
    monkeypatch: pytest.MonkeyPatch, log: Path, tmp_path: Path
) -> None:
    _interrupted_export(monkeypatch, log, tmp_path / "audit.jsonl")
    assert _files(tmp_path) == []


def test_an_interrupted_export_leaves_the_old_file_as_it_was(
    monkeypatch: pytest.MonkeyPatch, log: Path, tmp_path: Path
) -> None:
    target = tmp_path / "audit.jsonl"
    assert records.export(log, "jsonl", RecordFilter(), target) == 3
    target.chmod(0o640)
    whole = target.read_bytes()
    _interrupted_export(monkeypatch, log, target)
    assert target.read_bytes() == whole
    assert _files(tmp_path) == ["audit.jsonl"]
    monkeypatch.undo()
    assert records.export(log, "jsonl", RecordFilter(), target) == 3
    assert target.read_bytes() == whole and target.stat().st_mode & 0o777 == 0o640


def test_an_export_into_a_device_is_written_as_it_goes(log: Path) -> None:
    assert records.export(log, "csv", RecordFilter(), Path(os.devnull)) == 3


def _has_open(pid: int, path: Path) -> bool:
    try:
        return any(
            Path(f"/proc/{pid}/fd/{fd}").resolve() == path for fd in os.listdir(f"/proc/{pid}/fd")
        )
    except OSError:
        return False


@contextlib.contextmanager
def _another_terminal_writing(db: Path | str) -> Iterator[Callable[[int], bool]]:
    """Another terminal in the middle of a write to the log at `db`, holding the write lock
    until the block ends; yields whether a process waits for that lock. SQLite: a transaction
    begun IMMEDIATE, and the process has the file open. PostgreSQL: the log's lock
    (`dealer.lock_log`), and a session waits for a lock."""
    if isinstance(db, Path):
        holder = sqlite3.connect(db, isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")
        try:
            yield lambda pid: _has_open(pid, db.resolve())
        finally:
            holder.execute("ROLLBACK")
            holder.close()
        return
    import psycopg

    with psycopg.connect(db) as holder, psycopg.connect(db, autocommit=True) as watcher:
        holder.execute("SELECT dealer.lock_log()")

        def waits(pid: int) -> bool:
            """Whether a session of this log's database waits for its lock (the one the
            process `pid` opened: no other session writes there)."""
            found = watcher.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
                "AND datname = current_database()"
            ).fetchone()
            return found is not None and found[0] > 0

        try:
            yield waits
        finally:
            holder.rollback()


def test_a_ruling_waiting_for_the_log_stops(log_at: Path | str, tmp_path: Path) -> None:
    """Ctrl-C while a ruling waits for another terminal's write: exit 130, one line, nothing
    recorded, the log still verifies. (That the wait is heard within a slice, not after the
    busy timeout, is `test_audit_concurrency.py::test_a_writer_waits_for_the_lock_in_short_slices`:
    this test asserts no time.)"""
    first = subprocess.run(
        [*DEALER, "paigow", "set", SET_LINES[0]],
        env=_env(tmp_path, log_at),
        capture_output=True,
        timeout=HANG_GUARD,
        check=True,
    )
    assert first.returncode == 0
    with _another_terminal_writing(log_at) as waits:
        proc = _start(["paigow", "set", SET_LINES[1]], tmp_path, db=log_at)
        deadline = time.monotonic() + HANG_GUARD
        while not waits(proc.pid):
            assert proc.poll() is None, f"the command ended first: {proc.communicate()}"
            assert time.monotonic() < deadline, "the command never waited for the log"
            time.sleep(0.01)
        _waiting(proc.pid)
        os.killpg(proc.pid, signal.SIGINT)
        assert _ended(proc) == (130, "", "Error: interrupted\n")
    assert _recorded(log_at) == [SET_LINES[0]]
    assert _verifies(tmp_path, log_at)
