"""`dealer round`, `dealer demo` and `paigow settle` with bonus wagers, through the CLI."""

import json
from pathlib import Path
from typing import Any

import pytest
from cli import run

from dealer.audit import open_log
from dealer.audit.records import Record, RecordFilter
from dealer.games.paigow.pay import Wager

ROUNDS = Path(__file__).parent / "data" / "rounds"


@pytest.fixture()
def db(log_at: Path | str, monkeypatch: pytest.MonkeyPatch) -> Path | str:
    """The log the commands write, on each backend (`log_at`)."""
    monkeypatch.setenv("DEALER_DB", str(log_at))
    monkeypatch.setenv("DEALER_USER", "d-104")
    return log_at


def records(db: Path | str, **match: Any) -> list[Record]:
    if isinstance(db, Path) and not db.exists():
        return []
    with open_log(db, read_only=True) as log:
        return log.records(RecordFilter(**match))


def count(db: Path | str, kind: str = "ruling") -> int:
    return len(records(db, kind=kind))


def test_round_file_json(db: Path | str) -> None:
    result = run("round", str(ROUNDS / "envy_and_progressives.yaml"), "--json")
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["table"] == "PG-9" and out["ruling_id"] == 1
    assert [s["seat"] for s in out["seats"]] == [1, 2, 3]
    for seat in out["seats"]:
        assert set(seat) >= {"seat", "base", "bonuses", "total_net"}
        assert {"outcome", "net", "foul"} <= set(seat["base"])
    assert out["settings"]["paytables"]["treasure"] == "PT-FLT-EC-ET-01"
    assert count(db) == 1 and count(db, "meter") == 2
    assert {record.table_id for record in records(db)} == {"PG-9"}


def test_invalid_round_is_one_error_and_nothing_logged(db: Path | str) -> None:
    result = run("round", str(ROUNDS / "invalid.yaml"))
    assert result.exit_code == 1
    assert result.stderr == (
        "Error: the round has 4 problems: seat 1: duplicate card As (also in the dealer's hand);"
        " seat 7: seats are numbered 1 to 6; seat 7: a second joker (also in the dealer's hand);"
        " seat 7: base wager $10,000 is outside the table limits $5-$5,000\n"
    )
    assert count(db) == 0


def test_round_from_stdin_and_bad_yaml(db: Path | str) -> None:
    assert run("round", "-", stdin="dealer: [unclosed\n").exit_code == 1
    assert run("round", "nowhere.yaml").stderr.startswith("Error: cannot read round file")
    assert count(db) == 0


@pytest.mark.parametrize("text", ["", "- seat: 1\n", "dealer\n", "42\n"])
def test_a_round_file_that_is_not_a_mapping_is_refused_by_name(
    db: Path, tmp_path: Path, text: str
) -> None:
    path = tmp_path / "r.yaml"
    path.write_text(text)
    result = run("round", str(path))
    assert result.exit_code == 1
    assert result.stdout == ""
    assert result.stderr == (
        f"Error: {path} is not a round: a round file holds a mapping of its table, dealer and "
        "seats\n"
    )
    assert count(db) == 0 and (isinstance(db, str) or not db.exists())


def test_meters_persist_between_rounds(db: Path | str) -> None:
    for expected in (10000.5, 10001):
        out = json.loads(run("round", str(ROUNDS / "envy_and_progressives.yaml"), "--json").stdout)
        assert out["meters"]["after"]["progressive_treasure"] == expected


def test_demo_is_reproducible_and_verifies(db: Path | str) -> None:
    first = json.loads(run("demo", "--seed", "11", "--json").stdout)
    second = json.loads(run("demo", "--seed", "11", "--json").stdout)
    assert first["seats"] == second["seats"] and first["dealer"] == second["dealer"]
    assert len(first["seats"]) == 6
    verify = run("audit", "verify", "--json")
    assert verify.exit_code == 0, verify.output
    assert json.loads(verify.stdout)["ok"] is True


def test_demo_for_people(db: Path | str) -> None:
    result = run("demo", "--seed", "7")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0] == "demo round, seed 7 (dealer demo --seed 7 deals it again)"
    assert lines[1].startswith("table DEMO   dealer: ")
    headers = ["seat", "high", "low", "base", "net", *(w.terms.column for w in Wager if w.bonus)]
    assert lines[2].split() == " ".join([*headers, "total"]).split()  # `prog. ins.`: two words
    assert lines[-1] == "ruling #1 recorded"


def test_settle_with_every_bonus_wager(db: Path | str) -> None:
    result = run(
        "paigow",
        "settle",
        "--dealer",
        "As Kd 9c 7h 5s 3d 2c",
        "--player",
        "Js Jd Jc Jh 8s 5d 3h",
        "--wager",
        "25",
        "--treasure",
        "5",
        "--insurance",
        "5",
        "--insurance-on-dealer",
        "--progressive-treasure",
        "1",
        "--json",
    )
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["base"] == {**out["base"], "outcome": "win", "net": 12.5, "foul": False}
    bonuses = {b["wager"]: b for b in out["bonuses"]}
    assert (bonuses["treasure"]["event"], bonuses["treasure"]["net"]) == ("four-of-a-kind", 100)
    assert bonuses["treasure"]["paytable"] == "PT-FLT-EC-ET-01"
    assert (bonuses["insurance"]["event"], bonuses["insurance"]["net"]) == ("ace-high-pai-gow", 10)
    assert bonuses["progressive_treasure"]["net"] == 74
    assert out["total_net"] == 196.5


def test_settle_refuses_a_wager_over_the_limit(db: Path | str) -> None:
    result = run(
        "paigow",
        "settle",
        "--dealer",
        "As Kd 9c 7h 5s 3d 2c",
        "--player",
        "Js Jd Jc Jh 8s 5d 3h",
        "--wager",
        "25",
        "--progressive-treasure",
        "50",
    )
    assert result.exit_code == 1
    assert result.stderr == (
        "Error: seat 1: progressive_treasure wager $50 is outside the table limits $1-$1 "
        "(units of $1)\n"
    )
    assert count(db) == 0


def test_both_meter_moves_link_to_the_ruling(db: Path | str) -> None:
    run("round", str(ROUNDS / "envy_and_progressives.yaml"), "--json")
    assert [record.links_to for record in records(db, kind="meter")] == [1, 1]


def test_a_demo_never_touches_the_terminals_table(
    db: Path | str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DEALER_TABLE", "PG-3")
    played = run("round", str(ROUNDS / "envy_and_progressives.yaml"), "--table", "PG-3", "--json")
    assert played.exit_code == 0, played.output
    meters = {
        name: run("audit", "meter", "show", name, "--json").stdout
        for name in ("progressive_insurance", "progressive_treasure")
    }
    before = records(db, table_id="PG-3")
    demo = run("demo", "--seed", "11", "--json")
    assert demo.exit_code == 0, demo.output
    assert json.loads(demo.stdout)["table"] == "DEMO"
    assert demo.stderr == ""
    for name, shown in meters.items():
        assert run("audit", "meter", "show", name, "--json").stdout == shown
    assert records(db, table_id="PG-3") == before


def test_a_demo_refuses_a_table(db: Path | str) -> None:
    result = run("demo", "--seed", "11", "--table", "PG-3")
    assert result.exit_code == 1
    assert result.stdout == ""
    assert result.stderr == (
        "Error: --table: the demo is dealt at its own table DEMO, never at a real table "
        "(leave out --table)\n"
    )
    assert count(db) == 0
