"""A supervisor's action where there is no log yet is refused before any file is made: nothing
to act on, and no empty `logs/dealer.sqlite` left behind (only `audit user add` starts a log)."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli import run

PIN = ["--supervisor", "sup-7", "--pin", "lantern-2468"]
ACTIONS = [
    ["audit", "void", "4", "--reason", "test", *PIN],
    ["audit", "override", "4", "--decision", "push", "--reason", "test", *PIN],
    ["audit", "signoff", "4", *PIN],
    ["audit", "dispute", "open", "low hand", "--ruling", "4", "--table", "PG-3"],
    ["audit", "meter", "adjust", "progressive_treasure", "12000", "--reason", "reseed",
     "--table", "PG-3", *PIN],
    ["audit", "user", "set", "d-1", "--disable", *PIN],
    ["audit", "user", "recovery-key", *PIN],
    ["audit", "user", "recover", "sup-7", "--recovery-key", "k", "--new-pin", "harbour-light-7"],
    ["audit", "checkpoint", "--user", "sup-7", "--pin", "lantern-2468"],
]  # fmt: skip


@pytest.mark.parametrize("words", ACTIONS, ids=lambda words: "-".join(words[1:3]))
def test_a_supervisors_action_without_a_log_makes_none(
    words: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    refused = run(*words)
    assert (refused.exit_code, refused.stderr) == (
        1,
        "Error: there is no audit database at logs/dealer.sqlite\n",
    )
    assert list(tmp_path.iterdir()) == []


def test_the_first_supervisor_starts_the_log(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    made = run("audit", "user", "add", "sup-7", "--role", "supervisor", "--new-pin", "lantern-2468")
    assert made.exit_code == 0, made.output
    assert (tmp_path / "logs" / "dealer.sqlite").is_file()
