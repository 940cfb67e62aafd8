"""A live session's lines are bounded: a line longer than 4,096 characters is refused in one
line (the session goes on), only that much of it is ever held, and an error repeats at most 40
characters of what was typed — at the Pai Gow table and in the three games played move by move.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli import run

from dealer.cli.console import LINE_LIMIT
from dealer.kernel.text import QUOTE_LIMIT

SESSIONS = {
    "table": ["table", "--table", "PG-1"],
    "hyrule": ["hyrule", "game", "--players", "2", "--seed", "1"],
    "genpoker": ["genpoker", "draw", "--players", "2", "--seed", "1"],
    "empire": ["empire", "hand", "--players", "2", "--seed", "1"],
}


@pytest.fixture(autouse=True)
def _log(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DEALER_DB", str(tmp_path / "audit.sqlite"))
    monkeypatch.setenv("DEALER_USER", "d-104")


@pytest.mark.parametrize("args", SESSIONS.values(), ids=SESSIONS)
@pytest.mark.parametrize("length", [LINE_LIMIT + 1, 1_000_000])
def test_a_line_over_the_limit_is_refused_and_the_session_goes_on(
    args: list[str], length: int
) -> None:
    result = run(*args, stdin="x" * length + "\n" + "y" * 3 + "\n")
    errors = result.stderr.splitlines()
    assert errors[0] == f"Error: line 1: a line may be at most {LINE_LIMIT:,} characters"
    assert errors[1].startswith("Error: line 2: ")  # the next line was read, and ruled on
    assert result.exit_code == 1


@pytest.mark.parametrize("args", SESSIONS.values(), ids=SESSIONS)
def test_a_line_at_the_limit_is_read(args: list[str]) -> None:
    result = run(*args, stdin="x" * LINE_LIMIT + "\n")
    assert "a line may be at most" not in result.stderr


@pytest.mark.parametrize("args", [a for n, a in SESSIONS.items() if n != "table"], ids=str)
def test_an_unknown_move_is_quoted_to_40_characters(args: list[str]) -> None:
    typed = "z" * 300
    result = run(*args, stdin=typed + "\n")
    first = result.stderr.splitlines()[0]
    assert f"'{'z' * QUOTE_LIMIT}…' (300 characters)" in first
    assert "z" * (QUOTE_LIMIT + 1) not in first


@pytest.mark.parametrize("args", [SESSIONS["genpoker"], SESSIONS["empire"]], ids=str)
def test_with_json_a_long_line_s_error_event_repeats_40_characters(args: list[str]) -> None:
    """The games whose refusals are also JSON events (seats acting one at a time)."""
    result = run(*args, "--json", stdin="x" * (LINE_LIMIT + 1) + "\n")
    events = [json.loads(line) for line in result.stdout.splitlines()]
    (error,) = [e for e in events if e.get("event") == "error"]
    assert error["input"] == "x" * QUOTE_LIMIT + "…"
    assert error["error"] == f"a line may be at most {LINE_LIMIT:,} characters"
