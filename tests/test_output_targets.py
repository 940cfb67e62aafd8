"""No output is ever written over the audit log: an export, a dispute packet's page and a
checkpoint line aimed at the log itself, at a file SQLite keeps beside it, at the log under
another name (a hard link) or at another SQLite log are refused in one line before anything is
written, and the log still verifies, byte for byte as it was."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest
from cli import run

PIN = "lantern-2468"
SUPERVISOR = ("--user", "sup-1", "--pin", PIN)

Target = Callable[[Path], Path]


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A log with a supervisor, one settled ruling (2, its meters 3-4) and a dispute of it (5),
    built once."""
    log = tmp_path_factory.mktemp("built") / "audit.sqlite"
    db = ("--db", str(log))
    for args in (
        ["audit", "user", "add", "sup-1", "--role", "supervisor", "--new-pin", PIN, *db],
        ["paigow", "settle", "--dealer", "As Kd 9c 7h 5s 3d 2c", "--player",
         "Js Jd Jc Jh 8s 5d 3h", "--wager", "25", "--user", "d-1", "--table", "PG-1", *db],
        ["audit", "dispute", "open", "patron says the hand was set wrong", "--table", "PG-1",
         "--ruling", "2", "--user", "d-1", *db],
    ):  # fmt: skip
        result = run(*args, whole=True)
        assert result.exit_code == 0, result.output
    return log


@pytest.fixture()
def log(built: Path, tmp_path: Path) -> Path:
    copy = tmp_path / "audit.sqlite"
    copy.write_bytes(built.read_bytes())
    return copy


def _link(log: Path) -> Path:
    os.link(log, log.with_name("renamed.sqlite"))
    return log.with_name("renamed.sqlite")


def _other_log(log: Path) -> Path:
    other = log.with_name("other.sqlite")
    other.write_bytes(log.read_bytes())
    return other


TARGETS: dict[str, tuple[Target, str]] = {
    "the log": (lambda log: log, "it is the audit log"),
    "its WAL by name": (lambda log: log.with_name(log.name + "-wal"), "the audit log's wal file"),
    "its shared memory": (lambda log: log.with_name(log.name + "-shm"), "audit log's shm file"),
    "its journal": (lambda log: log.with_name(log.name + "-journal"), "log's journal file"),
    "the log by another name": (_link, "it is the audit log"),
    "another log": (_other_log, "it is an SQLite database (a log?)"),
}
OUTPUTS: dict[str, Callable[[Path], list[str]]] = {
    "export jsonl": lambda to: ["audit", "export", "--format", "jsonl", "-o", str(to)],
    "export csv": lambda to: ["audit", "export", "--format", "csv", "-o", str(to)],
    "dispute packet page": lambda to: ["audit", "dispute", "packet", "5", "--html", str(to)],
    "checkpoint line": lambda to: ["audit", "checkpoint", *SUPERVISOR, "-o", str(to)],
}


@pytest.mark.parametrize("target", TARGETS, ids=str)
@pytest.mark.parametrize("output", OUTPUTS, ids=str)
def test_an_output_aimed_at_a_log_is_refused_before_anything_is_written(
    log: Path, output: str, target: str
) -> None:
    make, why = TARGETS[target]
    to = make(log)
    before = {p.name: p.read_bytes() for p in log.parent.iterdir() if p.is_file()}
    result = run(*OUTPUTS[output](to), "--db", str(log), whole=True)
    assert result.exit_code == 1, result.output
    assert result.stderr.startswith(f"Error: cannot write {to}: ")
    assert why in result.stderr and result.stderr.count("\n") == 1
    after = {p.name: p.read_bytes() for p in log.parent.iterdir() if p.is_file()}
    assert {n: b for n, b in after.items() if not n.endswith(("-wal", "-shm"))} == {
        n: b for n, b in before.items() if not n.endswith(("-wal", "-shm"))
    }
    verified = run("audit", "verify", "--db", str(log), whole=True)
    assert (verified.exit_code, verified.stdout) == (0, "OK: 5 records, the hash chain verifies.\n")


@pytest.mark.parametrize("output", OUTPUTS, ids=str)
def test_an_output_beside_the_log_is_written(log: Path, output: str) -> None:
    """The guard refuses logs, not the folder they are in (the test above cannot pass by
    refusing everything)."""
    to = log.with_name("out.txt")
    result = run(*OUTPUTS[output](to), "--db", str(log), whole=True)
    assert result.exit_code == 0, result.output
    assert to.stat().st_size > 0


def _records(log: Path) -> int:
    verified = run("audit", "verify", "--db", str(log), whole=True)
    return int(verified.stdout.split()[1])


CHECKPOINT = ("audit", "checkpoint", *SUPERVISOR)


@pytest.mark.parametrize("target", ["fifo", "device"])
def test_a_checkpoint_line_that_cannot_be_kept_records_nothing(log: Path, target: str) -> None:
    """A FIFO nobody reads held the command for ever after its record was added; a device that
    refuses the line (/dev/full) left a record whose line was never kept."""
    to = log.with_name("kept.chk")
    if target == "fifo":
        os.mkfifo(to)
    else:
        to = Path("/dev/full")
    result = run(*CHECKPOINT, "-o", str(to), "--db", str(log), whole=True)
    assert (result.exit_code, result.stderr) == (
        1,
        f"Error: cannot write the checkpoint to {to}: it is not a regular file (a FIFO, a "
        "device or a socket)\n",
    )
    assert _records(log) == 5


def test_a_checkpoint_whose_line_is_not_synced_is_not_recorded(
    log: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The line is written and synced before the record is committed, or the record goes."""

    def full(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    to = log.with_name("kept.chk")
    result = run(*CHECKPOINT, "-o", str(to), "--db", str(log), whole=True)
    monkeypatch.undo()
    assert (result.exit_code, result.stderr) == (
        1,
        f"Error: cannot write {to}: No space left on device; the checkpoint was not recorded\n",
    )
    assert _records(log) == 5


def test_a_checkpoint_line_never_joins_an_unfinished_last_line(log: Path) -> None:
    to = log.with_name("kept.chk")
    first = run(*CHECKPOINT, "-o", str(to), "--db", str(log), whole=True)
    assert first.exit_code == 0, first.output
    to.write_text(to.read_text().rstrip("\n"))  # a line edited by hand, its newline lost
    second = run(*CHECKPOINT, "-o", str(to), "--db", str(log), whole=True)
    assert second.exit_code == 0, second.output
    lines = to.read_text().splitlines()
    assert [line.split(":")[0] for line in lines] == ["6", "7"]
    verified = run("audit", "verify", "--checkpoint", str(to), "--db", str(log), whole=True)
    assert verified.exit_code == 0 and "2 checkpoint" in verified.stdout, verified.stdout
