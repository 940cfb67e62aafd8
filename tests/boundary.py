"""Running `dealer` as a person does, for the boundary attack (tests/test_boundary_attack.py).

A real process (`python -m dealer …`, run by `runpy` as `-m` does) in its own session (no
controlling terminal, so a PIN is never asked of the person running the tests), with at most
1 GiB of address space, set by the child itself before it imports anything of dealer (so a
blow-up fails the test, not the machine; and without `preexec_fn`, which is not safe when the
tests start processes from several threads), and a hang guard of 60 s (never an assertion on
time). Then the standard every refusal meets, checked in one place: the exit status, one
`Error: …` line (or, with `--json`, one JSON object) on stderr, no traceback, no control
character, nothing on stdout; and the audit log: its bytes, and no write-ahead log with
anything in it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import unicodedata
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import NamedTuple

MEMORY_LIMIT = 1 << 30
"""The address space a `dealer` process may use: ample for any ruling, small for a blow-up."""
HANG_GUARD = 60
"""Seconds after which a process that has not ended fails its test (a guard, not a measure)."""


class Ran(NamedTuple):
    """What a finished process left: its exit status, stdout and stderr (as text)."""

    status: int
    stdout: str
    stderr: str


_LIMITED = (
    "import resource, runpy; "
    f"resource.setrlimit(resource.RLIMIT_AS, ({MEMORY_LIMIT}, {MEMORY_LIMIT})); "
    "runpy.run_module('dealer', run_name='__main__', alter_sys=True)"
)
"""`python -m dealer` under the memory limit."""


def dealer_env(place: Path, extra: Mapping[str, str | None] = ()) -> dict[str, str]:
    """This environment without any `DEALER_*` variable, then: the log `place/log.sqlite`, user
    d-1 at table PG-1, the YAML cache and the home folder inside `place`; then `extra` (a None
    value removes the variable)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("DEALER_")}
    env |= {
        "DEALER_DB": str(place / "log.sqlite"),
        "DEALER_USER": "d-1",
        "DEALER_TABLE": "PG-1",
        "DEALER_CACHE": str(place / "cache"),
        "HOME": str(place / "home"),
    }
    for name, value in dict(extra).items():
        if value is None:
            env.pop(name, None)
        else:
            env[name] = value
    return env


def run_dealer(
    args: Sequence[str], *, cwd: Path, env: Mapping[str, str], stdin: bytes = b""
) -> Ran:
    """`python -m dealer ARGS` run to its end, `stdin` its whole input."""
    done = subprocess.run(
        [sys.executable, "-c", _LIMITED, *args],
        cwd=cwd,
        env=dict(env),
        input=stdin,
        capture_output=True,
        timeout=HANG_GUARD,
        start_new_session=True,
    )
    return Ran(
        done.returncode,
        done.stdout.decode("utf-8", "backslashreplace"),
        done.stderr.decode("utf-8", "backslashreplace"),
    )


def error_lines(stderr: str, shown: str) -> list[str]:
    """The lines of stderr, each asserted to be safe to show at a terminal: no control
    character (an escape sequence in a typed id could retitle or rewrite the screen), and no
    traceback."""
    assert "Traceback" not in stderr, shown
    assert stderr.endswith("\n"), shown
    lines = stderr.removesuffix("\n").split("\n")
    for line in lines:
        assert not [c for c in line if unicodedata.category(c) == "Cc"], shown
    return lines


def refusal(ran: Ran, status: int, *, as_json: bool = False, quiet: bool = True) -> str:
    """The message of a refusal by the standard (asserted): exit `status`; stderr exactly one
    line, `Error: MESSAGE` or with `as_json` the object `{"error": MESSAGE, "exit": status}`;
    no traceback, no control character; with `quiet`, nothing on stdout."""
    shown = f"exit {ran.status}\nstdout: {ran.stdout[:2000]!r}\nstderr: {ran.stderr[:2000]!r}"
    assert "Traceback" not in ran.stdout, shown
    assert ran.status == status, shown
    lines = error_lines(ran.stderr, shown)
    assert len(lines) == 1, shown
    if quiet:
        assert ran.stdout == "", shown
    if not as_json:
        assert lines[0].startswith("Error: "), shown
        return lines[0].removeprefix("Error: ")
    said = json.loads(lines[0])
    assert isinstance(said, dict) and set(said) == {"error", "exit"}, shown
    assert said["exit"] == status and isinstance(said["error"], str), shown
    assert not said["error"].startswith("Error"), shown
    return said["error"]


def session_refusals(ran: Ran) -> list[str]:
    """The messages of a live session fed only refused lines (asserted): exit status 1, every
    stderr line an `Error: …` line, at least one, no traceback, no control character."""
    shown = f"exit {ran.status}\nstdout: {ran.stdout[:2000]!r}\nstderr: {ran.stderr[:2000]!r}"
    assert "Traceback" not in ran.stdout, shown
    assert ran.status == 1, shown
    lines = error_lines(ran.stderr, shown)
    assert all(line.startswith("Error: ") for line in lines), shown
    return [line.removeprefix("Error: ") for line in lines]


class LogBytes(NamedTuple):
    """An audit log as it lies on disk: the database's bytes, and whether its write-ahead log
    holds anything (a read-only open leaves an empty one)."""

    database: bytes
    pending: bool

    @classmethod
    def of(cls, path: Path) -> LogBytes:
        wal = path.with_name(path.name + "-wal")
        return cls(path.read_bytes(), wal.exists() and wal.stat().st_size > 0)
