"""Closed, full and missing standard streams, and a signal while the command still loads: one
line on whatever stream is open, the right exit status, never a traceback; a ruling recorded
before its output failed says so, and where to read it.

Real processes with real file descriptors: `>&-` and `<&-` are a closed descriptor (Python
then has no `sys.stdout` / `sys.stdin`), `/dev/full` a device on which every write fails. The
signals are raised by the process itself at a chosen point (an import hook, or after the
command), so nothing here depends on timing."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from log_reads import records

from dealer.cli.streams import WIDTH_LIMIT

ROOT = Path(__file__).resolve().parents[1]
HAND = "As Kd 9c 7h 5s 3d JK"
DEALER = [str(Path(sys.executable).with_name("dealer"))]
"""The console script, as a person runs it (its name is in usage lines)."""


def _run(
    tmp_path: Path, args: list[str], *, stdin: int | None = None, stdout: int | None = None
) -> subprocess.CompletedProcess[str]:
    """`dealer ARGS` on a log in `tmp_path`, its stdin and stdout as given (closed when -1)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("DEALER_")}
    env.update(DEALER_DB=str(tmp_path / "audit.sqlite"), DEALER_USER="d-104")
    env["PYTHONPATH"] = str(ROOT)
    closing = [fd for fd, how in ((0, stdin), (1, stdout)) if how == -1]

    def close() -> None:
        for fd in closing:
            os.close(fd)

    return subprocess.run(
        [*DEALER, *args],
        stdin=subprocess.DEVNULL if stdin is None else (None if stdin == -1 else stdin),
        stdout=subprocess.PIPE if stdout is None else (None if stdout == -1 else stdout),
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        cwd=tmp_path,
        preexec_fn=close if closing else None,
        timeout=120,
    )


def _rulings(tmp_path: Path) -> list[int]:
    return [r.id for r in records(tmp_path / "audit.sqlite") if r.kind == "ruling"]


@pytest.mark.parametrize(
    ("args", "status", "message"),
    [
        (
            ["paigow", "set", "Zz"],
            1,
            "Error: unknown card 'Zz': a card is a rank (2-9, T or 10, J, Q, K, A) and a suit "
            "(s h d c or ♠ ♥ ♦ ♣), or JK for the joker\n",
        ),
        (
            ["paigow", "sett"],
            2,
            "Error: No such command 'sett'. Did you mean 'set', 'settle'? "
            "(see 'dealer paigow --help')\n",
        ),
        (["--version"], 1, "Error: standard output is closed\n"),
    ],
)
def test_with_stdout_closed_a_refusal_keeps_its_line_and_status(
    tmp_path: Path, args: list[str], status: int, message: str
) -> None:
    done = _run(tmp_path, args, stdout=-1)
    assert (done.returncode, done.stderr) == (status, message)


@pytest.mark.parametrize("as_json", [False, True])
def test_a_ruling_recorded_with_stdout_closed_says_so_and_where_to_read_it(
    tmp_path: Path, as_json: bool
) -> None:
    done = _run(tmp_path, ["paigow", "set", HAND, *(["--json"] if as_json else [])], stdout=-1)
    (ruling,) = _rulings(tmp_path)
    message = (
        f"ruling #{ruling} was recorded, but standard output is closed: read it with "
        f"'dealer audit show {ruling}'"
    )
    assert done.returncode == 1
    if as_json:
        assert json.loads(done.stderr) == {"error": message, "exit": 1}
    else:
        assert done.stderr == f"Error: {message}\n"


def test_a_ruling_recorded_when_stdout_is_full_says_so(tmp_path: Path) -> None:
    with open("/dev/full", "w") as full:
        done = _run(tmp_path, ["paigow", "set", HAND], stdout=full.fileno())
    (ruling,) = _rulings(tmp_path)
    assert (done.returncode, done.stderr) == (
        1,
        f"Error: ruling #{ruling} was recorded, but standard output failed (No space left on "
        f"device): read it with 'dealer audit show {ruling}'\n",
    )


@pytest.mark.parametrize(
    "args",
    [["table", "--table", "PG-1"], ["paigow", "set", "--batch", "-"], ["round", "-"]],
    ids=" ".join,
)
def test_with_stdin_closed_a_command_that_reads_it_says_so(tmp_path: Path, args: list[str]) -> None:
    done = _run(tmp_path, args, stdin=-1)
    assert (done.returncode, done.stderr) == (1, "Error: standard input is closed\n")
    assert not (tmp_path / "audit.sqlite").exists() or _rulings(tmp_path) == []


def test_with_stderr_closed_a_refusal_keeps_its_status(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("DEALER_")}
    env.update(DEALER_DB=str(tmp_path / "audit.sqlite"), PYTHONPATH=str(ROOT))
    done = subprocess.run(
        ["sh", "-c", 'exec "$@" 2>&-', "sh", *DEALER, "paigow", "set", "Zz"],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=120,
    )
    assert (done.returncode, done.stdout, done.stderr) == (1, "", "")


LOADING = """
import signal, sys
class SignalOnImport:
    def find_spec(self, name, path=None, target=None):
        if name == "typer":
            signal.raise_signal(signal.{signal})
        return None
sys.meta_path.insert(0, SignalOnImport())
sys.argv = ["dealer", *{args!r}]
from dealer.cli import main
main()
"""


@pytest.mark.parametrize(
    ("sent", "status", "message"), [("SIGINT", 130, "interrupted"), ("SIGTERM", 143, "terminated")]
)
@pytest.mark.parametrize("as_json", [False, True])
def test_a_signal_while_the_command_loads_is_one_line(
    tmp_path: Path, sent: str, status: int, message: str, as_json: bool
) -> None:
    """While the framework is imported (the first fraction of a second), a signal used to end in
    a traceback (Ctrl-C) or a death with no word (SIGTERM)."""
    args = ["paigow", "set", HAND, *(["--json"] if as_json else [])]
    done = subprocess.run(
        [sys.executable, "-c", LOADING.format(signal=sent, args=args)],
        capture_output=True,
        text=True,
        env={**os.environ, "DEALER_DB": str(tmp_path / "audit.sqlite"), "PYTHONPATH": str(ROOT)},
        cwd=tmp_path,
        timeout=120,
    )
    said = json.dumps({"error": message, "exit": status}) if as_json else f"Error: {message}"
    assert (done.returncode, done.stdout, done.stderr) == (status, "", said + "\n")
    assert not (tmp_path / "audit.sqlite").exists()


AFTER = """
import signal, sys
sys.argv = ["dealer", "paigow", "set", {hand!r}]
from dealer.cli import main
try:
    main()
finally:
    signal.raise_signal(signal.SIGTERM)
    signal.raise_signal(signal.SIGINT)
"""


def test_a_signal_after_the_ruling_is_recorded_and_shown_changes_nothing(tmp_path: Path) -> None:
    """Once the command has finished, Python's shutdown would give the signals back to the
    system and one arriving then killed the process: its ruling recorded, its status lost."""
    done = subprocess.run(
        [sys.executable, "-c", AFTER.format(hand=HAND)],
        capture_output=True,
        text=True,
        env={**os.environ, "DEALER_DB": str(tmp_path / "audit.sqlite"), "PYTHONPATH": str(ROOT)},
        cwd=tmp_path,
        timeout=120,
    )
    (ruling,) = _rulings(tmp_path)
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.endswith(f"ruling #{ruling} recorded\n")


@pytest.mark.parametrize("columns", ["10000000", "401", "abc", "0", "-5", "٣٠"])
def test_help_is_drawn_within_the_width_limit_whatever_columns_says(
    tmp_path: Path, columns: str
) -> None:
    """`COLUMNS=10000000` made `paigow settle --help` take 16 s and 330 MB of spaces."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("DEALER_")}
    done = subprocess.run(
        [*DEALER, "paigow", "settle", "--help"],
        capture_output=True,
        text=True,
        env={**env, "COLUMNS": columns, "PYTHONPATH": str(ROOT)},
        cwd=tmp_path,
        timeout=120,
    )
    widths = [len(line) for line in done.stdout.splitlines()]
    assert done.returncode == 0 and "Usage: dealer paigow settle" in done.stdout
    assert 0 < max(widths) <= WIDTH_LIMIT
