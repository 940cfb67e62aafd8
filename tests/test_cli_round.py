"""`dealer round`, `dealer demo` and `paigow settle` with bonus wagers, through the CLI."""

import json
import re
from pathlib import Path
from typing import Any

import pytest
import yaml
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
    result = run("round", str(ROUNDS / "invalid.yaml"), "--table", "PG-1")
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
    assert lines[-2].startswith("players' total ") and lines[-1] == "ruling #1 recorded"
    pays = lines[-10:-2]  # the last block: each seat's nets, only the wagers a seat placed
    assert pays[0].split() == ["seat", "base", "insurance", "treasure", "prog.", "treas.", "total"]
    assert [row.split()[0] for row in pays[2:]] == ["1", "2", "3", "4", "5", "6"]
    assert max(len(line) for line in lines[-10:]) <= 80  # into a file: fitted to 80 columns
    narrow = run("demo", "--seed", "7", env={"COLUMNS": "40"}).stdout.splitlines()
    assert narrow[-4:] == [
        "seat 6: base $0 · treasure -$5",
        "    prog. treas. -$1 · total -$6",
        "players' total +$94",
        "ruling #4 recorded",  # the demo's round and its three meter moves came first
    ]
    assert [line.split(":")[0] for line in narrow if re.match(r"seat \d:", line)] == [
        f"seat {n}" for n in range(1, 7)
    ]


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
        "--table",
        "PG-3",
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
        "--table",
        "PG-3",
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


NO_TABLE = {"DEALER_TABLE": None}
SETTLE = (
    "paigow",
    "settle",
    "--dealer",
    "As Kd 9c 7h 5s 3d 2c",
    "--player",
    "Js Jd Jc Jh 8s 5d 3h",
)


@pytest.mark.parametrize("progressive", [w.terms.option for w in Wager if w.progressive])
def test_a_progressive_wager_with_no_table_named_is_refused(
    db: Path | str, progressive: str
) -> None:
    """A progressive wager is paid from a table's meters: with no table named it is refused in
    one line saying how to name it, and nothing is written (no meter of a made-up table)."""
    result = run(*SETTLE, "--wager", "25", progressive, "1", env=NO_TABLE)
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr.count("\n") == 1
    assert result.stderr.endswith(
        "wager is paid at a table's progressive meters: name the table with --table ID "
        "(or DEALER_TABLE)\n"
    )
    assert count(db) == 0 and count(db, "meter") == 0


def test_a_settle_without_a_progressive_wager_names_no_table(db: Path | str) -> None:
    """A ruling that moves no meter may go without a table: recorded with none, no meter
    written; with a table named, at that table."""
    ok_ = run(*SETTLE, "--wager", "25", "--treasure", "5", "--json", env=NO_TABLE)
    assert ok_.exit_code == 0, ok_.output
    assert json.loads(ok_.stdout)["total_net"] == 112.5
    assert [record.table_id for record in records(db, kind="ruling")] == [""]
    assert count(db, "meter") == 0
    at_table = run(*SETTLE, "--wager", "25", "--table", "PG-2")
    assert at_table.exit_code == 0, at_table.output
    assert [record.table_id for record in records(db, kind="ruling")] == ["", "PG-2"]


def test_a_round_names_its_table(db: Path | str, tmp_path: Path) -> None:
    """A round settles at a table's meters: with no `table:` in the file and no --table (nor
    DEALER_TABLE) it is refused in one line; the file's table or --table is recorded."""
    text = (ROUNDS / "envy_and_progressives.yaml").read_text(encoding="utf-8")
    untabled = tmp_path / "round.yaml"
    untabled.write_text(
        "\n".join(line for line in text.splitlines() if not line.startswith("table:")) + "\n",
        encoding="utf-8",
    )
    refused = run("round", str(untabled), env=NO_TABLE)
    assert (refused.exit_code, refused.stdout, refused.stderr) == (
        1,
        "",
        "Error: a round settles at a table's progressive meters: name the table with --table ID "
        "(or DEALER_TABLE), or table: in the round file\n",
    )
    assert count(db) == 0 and count(db, "meter") == 0
    played = run("round", str(untabled), "--json", env={"DEALER_TABLE": "PG-6"})
    assert played.exit_code == 0, played.output
    assert json.loads(played.stdout)["table"] == "PG-6"
    assert {record.table_id for record in records(db)} == {"PG-6"}


def test_a_log_holding_the_old_made_up_table_still_reads_and_verifies(db: Path | str) -> None:
    """Logs written before every ruling named its table hold rounds and meters at a table
    `unassigned`: they read, search and verify as any other table's."""
    from dealer.desk.context import Desk
    from dealer.desk.paigow import record_round
    from dealer.games.paigow.profile import load_profile

    text = (ROUNDS / "envy_and_progressives.yaml").read_text(encoding="utf-8")
    raw = yaml.safe_load(text)
    del raw["table"]
    old = Desk(db, "d-104", "unassigned")  # as the desk recorded a round with no table named
    record_round(old, load_profile(None, ()), raw, text)
    assert {record.table_id for record in records(db)} == {"unassigned"}
    verified = run("audit", "verify", "--json")
    assert verified.exit_code == 0 and json.loads(verified.stdout)["ok"] is True
    listed = run("audit", "search", "--table", "unassigned", "--json")
    assert listed.exit_code == 0, listed.output
    assert "unassigned" in listed.stdout
    meter = run("audit", "meter", "show", "progressive_treasure", "--table", "unassigned")
    assert meter.exit_code == 0, meter.output


def test_no_table_is_made_up() -> None:
    """No ruling is recorded at a table nobody named: the package names no stand-in table."""
    package = Path(__file__).parents[1] / "dealer"
    named = [p.name for p in package.rglob("*.py") if "unassigned" in p.read_text("utf-8")]
    assert named == []


SHORT_OF_THE_BEST = (
    "seat 2: player's own setting: the best setting would have won $10 (House Way: push)"
)
"""Seat 2's setting loses where the best setting of its cards wins and the House Way's pushes."""


def test_an_own_setting_short_of_the_best_in_a_round_and_at_the_live_table(db: Path | str) -> None:
    """The same round ruled from a file and at the live table: the line for seat 2, and its
    nets recorded; seat 5, set by the House Way, records the best setting's only (the House
    Way's is its own)."""
    round_file = (
        "table: PG-3\ndealer: Tc 8s Ts Kd 5h 2h 9d\nseats:\n"
        "  - {seat: 2, high: Qh Td 7d Ac 3c, low: 6h Th, wagers: {base: 10}}\n"
        "  - {seat: 5, cards: As Ad 8c 7h 4s Qc Jd, wagers: {base: 10}}\n"
    )
    typed = (
        "Tc 8s Ts Kd 5h 2h 9d\n2 high Qh Td 7d Ac 3c / low 6h Th base 10\n"
        "5 As Ad 8c 7h 4s Qc Jd base 10\nsettle\n"
    )
    ruled = run("round", "-", stdin=round_file)
    live = run("table", "--table", "PG-3", stdin=typed)
    for result in (ruled, live):
        assert result.exit_code == 0, result.output
        assert result.stdout.count("player's own setting") == 1
        assert f"  · {SHORT_OF_THE_BEST}\n" in result.stdout
    rulings = records(db, kind="ruling")
    assert [r.action for r in rulings] == ["round", "round"]
    for record in rulings:
        own, asked = (seat["base"]["player"] for seat in record.result["seats"])
        assert (own["best_net"], own["house_way_net"]) == (10, 0)
        asked_net = record.result["seats"][1]["base"]["net"]
        assert "house_way_net" not in asked and asked["best_net"] >= asked_net
        assert SHORT_OF_THE_BEST in record.explanation
