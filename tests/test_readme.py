"""Every `dealer` command the README shows runs exactly as written, in the order written, in a
fresh folder (with the shipped `examples/`): exit status 0, nothing on stderr but notes. The
transcripts (`$ dealer …` followed by its output) are run too and must print what they show."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
SLOW = ("dealer analyze",)
"""Commands measured elsewhere (minutes of enumeration or simulation): run by the slow tests."""


def commands() -> list[str]:
    """The README's indented `dealer …` lines (continuations joined, comments dropped)."""
    found: list[str] = []
    lines = iter(README.splitlines())
    for line in lines:
        if not line.startswith("    dealer "):
            continue
        while line.endswith("\\"):
            line = line[:-1] + next(lines).strip()
        found.append(" ".join(shlex.split(line, comments=True)[1:]))
    return found


def transcripts() -> list[tuple[str, list[str]]]:
    """The README's `$ dealer …` lines with the output shown under each."""
    shown: list[tuple[str, list[str]]] = []
    for line in README.splitlines():
        if line.startswith("    $ dealer "):
            shown.append((line[len("    $ ") :], []))
        elif shown and line.startswith("    ") and not line.startswith("    $"):
            shown[-1][1].append(line[4:])
    return shown


def dealer(command: str, folder: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("DEALER_")}
    return subprocess.run(
        [sys.executable, "-m", "dealer", *shlex.split(command, comments=True)[1:]],
        cwd=folder,
        env=env | {"PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=300,
        stdin=subprocess.DEVNULL,
    )


@pytest.fixture()
def folder(tmp_path: Path) -> Path:
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    return tmp_path


def test_the_readme_shows_commands() -> None:
    assert len(commands()) >= 30
    assert not [c for c in commands() if "…" in c or "****" in c]


def test_every_command_runs_as_written(folder: Path) -> None:
    for command in commands():
        if command.startswith(SLOW):
            continue
        result = dealer(f"dealer {command}", folder)
        assert result.returncode == 0, (command, result.stderr)
        notes = [line for line in result.stderr.splitlines() if not line.startswith("note: ")]
        assert notes == [], (command, result.stderr)


def test_every_transcript_ends_as_it_shows(folder: Path) -> None:
    for command in commands():  # the transcripts follow the commands, in the same log
        if not command.startswith(SLOW):
            dealer(f"dealer {command}", folder)
    for command, shown in transcripts():
        result = dealer(command, folder)
        refused = [line for line in shown if line.startswith("Error: ")]
        if refused:
            assert (result.returncode, result.stderr.splitlines()) == (1, refused), command
        else:
            assert result.returncode == 0, (command, result.stderr)
            assert result.stdout.splitlines()[0].split()[0] == shown[0].split()[0], command
