"""A ruling records the role its user is registered with, whichever way it is made (`--user`,
`DEALER_USER`, a batch, a round file, the demo, the live table, another game): an id nobody
registered rules as a dealer, never as the supervisor its name suggests; an auditor rules on
nothing."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from cli import run
from log_reads import head, records, use
from typer.testing import Result

PIN = "lantern-2468"
ROOT = Path(__file__).resolve().parents[1]
DEALER = "As Kd 9c 7h 5s 3d 2c"


@pytest.fixture(scope="module")
def built(new_log: Callable[[], Path | str]) -> Path | str:
    """S1 (bootstrap), D1 and A1 registered: records 1-3, on each backend, built once for the
    tests to copy."""
    with pytest.MonkeyPatch.context() as patch:
        path = use(new_log(), patch)
        bootstrap = run("audit", "user", "add", "S1", "--role", "supervisor", "--new-pin", PIN)
        assert bootstrap.exit_code == 0, bootstrap.output
        for user, role in (("D1", "dealer"), ("A1", "auditor")):
            added = run(
                "audit", "user", "add", user, "--role", role, "--supervisor", "S1", "--pin", PIN
            )
            assert added.exit_code == 0, added.output
    return path


@pytest.fixture
def db(
    built: Path | str,
    copy_log: Callable[[Path | str], Path | str],
    monkeypatch: pytest.MonkeyPatch,
) -> Path | str:
    """A copy of the `built` log, named in DEALER_DB."""
    return use(copy_log(built), monkeypatch)


def rulings(db: Path | str) -> list[tuple[str, str]]:
    return [(record.user_id, record.role) for record in records(db, kind="ruling")]


def by_option(user: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Result:
    return run("paigow", "rank", "As Ks", "--user", user)


def by_environment(user: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Result:
    monkeypatch.setenv("DEALER_USER", user)
    return run("paigow", "rank", "As Ks")


def by_batch(user: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Result:
    batch = tmp_path / "hands.txt"
    batch.write_text("As Ks\n2c 2d\n", encoding="utf-8")
    return run("paigow", "rank", "--batch", str(batch), "--user", user)


def by_round_file(user: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Result:
    return run("round", str(ROOT / "examples" / "round.yaml"), "--user", user)


def by_demo(user: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Result:
    return run("demo", "--seed", "7", "--user", user)


def at_the_live_table(user: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Result:
    lines = f"{DEALER}\n1 Js Jd Ac Qh 8s 5d 3h base 25\nsettle\nquit\n"
    return run("table", "--table", "PG-1", "--user", user, stdin=lines)


def another_game(user: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Result:
    return run("burosh", "rank", "As Ks Qs", "--trump", "spades", "--user", user)


PATHS: dict[str, Callable[[str, Path, pytest.MonkeyPatch], Result]] = {
    "--user": by_option,
    "DEALER_USER": by_environment,
    "--batch": by_batch,
    "round file": by_round_file,
    "demo": by_demo,
    "live table": at_the_live_table,
    "burosh": another_game,
}


@pytest.mark.parametrize("path", sorted(PATHS))
@pytest.mark.parametrize(
    ("user", "role"), [("sup-7", "dealer"), ("D1", "dealer"), ("S1", "supervisor")]
)
def test_a_ruling_records_the_registered_role(
    db: Path | str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    path: str,
    user: str,
    role: str,
) -> None:
    made = PATHS[path](user, tmp_path, monkeypatch)
    assert made.exit_code == 0, made.output
    recorded = rulings(db)
    assert recorded and set(recorded) == {(user, role)}


AUDITOR = "A1 is an auditor: auditors read the record and take checkpoints only"
REFUSED = {
    "--user": f"Error: {AUDITOR}\n",
    "DEALER_USER": f"Error: {AUDITOR}\n",
    "--batch": f"Error: line 1: {AUDITOR}\nError: line 2: {AUDITOR}\n",
    "round file": f"Error: {AUDITOR}\n",
    "demo": f"Error: {AUDITOR}\n",
    "live table": f"Error: line 3: {AUDITOR} (the round is kept: settle again, or undo)\n"
    "Error: line 4: round 1 is not settled (the dealer's cards and 1 seat): settle it, or quit "
    "again to leave it unrecorded\n"
    "Error: the input ended with round 1 not settled (the dealer's cards and 1 seat): nothing "
    "is recorded for it\n",
    "burosh": f"Error: {AUDITOR}\n",
}


@pytest.mark.parametrize("path", sorted(PATHS))
def test_an_auditor_rules_on_nothing(
    db: Path | str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, path: str
) -> None:
    before = head(db)
    refused = PATHS[path]("A1", tmp_path, monkeypatch)
    assert (refused.exit_code, refused.stderr) == (1, REFUSED[path])
    assert head(db) == before
