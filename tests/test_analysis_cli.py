"""`dealer analyze …` through the CLI runner: JSON per the contract, text for people, errors as
one `Error:` line, no audit records, the progress bar only on a terminal."""

from __future__ import annotations

import functools
import io
import json
from pathlib import Path

import cli
import pytest

from dealer.cli.analyze import ProgressBar
from dealer.games.paigow.pay import BONUSES

run = functools.partial(cli.run, group="analyze")


@pytest.fixture(autouse=True)
def _no_audit_db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    db = tmp_path / "audit.sqlite"
    monkeypatch.setenv("DEALER_DB", str(db))
    monkeypatch.chdir(tmp_path)
    return db


def test_paytable_json_has_the_contract_keys(_no_audit_db: Path) -> None:
    result = run("paytable", "PT-FLT-EC-ET-02", "--json")
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["paytable"] == "PT-FLT-EC-ET-02"
    assert out["hands"] == 154_143_080
    assert round(out["house_edge"], 6) == 0.077656
    assert {"event", "combinations", "pays", "return"} <= set(out["events"][0])
    assert out["ruling_id"] is None
    assert out["settings"]["wager"] == 1
    assert not _no_audit_db.exists()  # analyses rule on no hand: nothing is recorded


def test_paytable_text_for_people() -> None:
    result = run("paytable", "PT-FLT-EC-PGI-01")
    assert result.exit_code == 0, result.output
    assert "9-High Pai Gow" in result.stdout
    assert "400 to 1" in result.stdout
    assert "house edge 0.169295" in result.stdout


def test_progressive_meter_defaults_to_the_profile_seed_and_can_be_given() -> None:
    seed = json.loads(run("paytable", "PT-BJS-EC-PGI-01", "--json").stdout)
    assert seed["meter"] == 5000
    assert seed["settings"]["meter_from"] == "the profile's meter seed"
    given = json.loads(run("paytable", "PT-BJS-EC-PGI-01", "--json", "--meter", "25000").stdout)
    assert given["meter"] == 25000
    assert given["settings"]["meter_from"] == "--meter"
    assert given["house_edge"] < seed["house_edge"]
    ruled = json.loads(
        run(
            "paytable",
            "PT-BJS-EC-PGI-01",
            "--json",
            "--rule",
            "meters.progressive_insurance.seed=25000",
        ).stdout
    )
    assert ruled["house_edge"] == given["house_edge"]


def test_envy_has_no_wager() -> None:
    out = json.loads(run("paytable", "E05", "--json", "--wager", "5").stdout)
    assert out["wager"] is None
    assert out["return"] > 0
    text = run("paytable", "E05").stdout
    assert "Envy paid per other player's hand: $0.053368" in text


def test_operator_tables_load_from_a_file(tmp_path: Path) -> None:
    own = tmp_path / "own.yaml"
    own.write_text(
        "schema: 1\nsource: house\ntables:\n  - id: HOUSE-ET\n    wager: treasure\n"
        "    basis: to-1\n    rows:\n      - {event: straight-flush, kind: to-1, value: 100}\n"
    )
    out = json.loads(run("paytable", "HOUSE-ET", "--paytables", str(own), "--json").stdout)
    # every hand holding a straight flush: 7-card ones, royals (with a suited A-K or not), the rest
    assert out["events"][0]["combinations"] == 32 + 72 + 196 + 26_020 + 184_644
    assert out["settings"]["paytables"] == [str(own)]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["paytable", "PT-NOPE"], "unknown pay table 'PT-NOPE'"),
        (["paytable", "PT-FLT-EC-ET-01", "--wager", "-5"], "an amount is zero or more"),
        (["paytable", "PT-FLT-EC-ET-01", "--wager", "0"], "above zero"),
        (["paytable", "PT-BJS-EC-ET-01", "--meter", "lots"], "not an amount"),
        (["house-edge", "--rounds", "0"], "rounds must be at least 1"),
        (["house-edge", "--rounds", "9" * 31], "rounds must be at most 100,000,000"),
        (["house-edge", "--rounds", "10", "--workers", "1000000"], "workers must be at most 64"),
        (["house-edge", "--rounds", "10", "--player", "dealer"], "player mode"),
        (["house-edge", "--rounds", "10", "--house-way", "nowhere"], "unknown House Way"),
    ],
)
def test_errors_are_one_line(args: list[str], message: str) -> None:
    result = run(*args)
    assert result.exit_code == 1
    assert result.stderr.startswith("Error: ")
    assert message in result.stderr
    assert "Traceback" not in result.output


def test_house_edge_json_is_reproducible() -> None:
    args = ["house-edge", "--rounds", "1500", "--seed", "5", "--house-way", "trump-plaza"]
    one = json.loads(run(*args, "--json", "--workers", "1").stdout)
    two = json.loads(run(*args, "--json", "--workers", "2").stdout)
    assert one["strategies"] == two["strategies"]
    assert one["ruling_id"] is None
    assert one["settings"]["house_ways"] == [{"name": "trump-plaza", "version": "1"}]
    assert [s["player"] for s in one["strategies"]] == ["house-way", "best"]


def test_house_edge_text_and_default_ways() -> None:
    result = run("house-edge", "--rounds", "300", "--player", "house-way", "--workers", "1")
    assert result.exit_code == 0, result.output
    assert "trump-plaza" in result.stdout and "foxwoods" in result.stdout
    assert "push-king-or-less" in result.stdout
    assert "95% CI" in result.stdout


def test_report_formats() -> None:
    markdown = run("report")
    assert markdown.exit_code == 0, markdown.output
    assert markdown.stdout.startswith("# Emperor's Challenge Exposed")
    assert "| House edge |" in markdown.stdout
    text = run("report", "--format", "text")
    assert "Emperor's Treasure Progressive" in text.stdout
    data = json.loads(run("report", "--json").stdout)
    assert [s["wager"] for s in data["sections"]] == list(BONUSES)
    meters = json.loads(run("report", "--format", "json", "--treasure-meter", "50000").stdout)
    assert meters["meters"]["progressive_treasure"] == 50000


def test_report_rejects_an_unknown_format() -> None:
    result = run("report", "--format", "pdf")
    assert result.exit_code == 2


def test_progress_bar_draws_only_on_a_terminal() -> None:
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    tty = Terminal()
    bar = ProgressBar("counting", tty, width=10)
    bar(5, 10)
    bar(10, 10)
    bar.close()
    assert tty.getvalue() == "\rcounting [#####-----]  50%\rcounting [##########] 100%\n"
    pipe = io.StringIO()
    quiet = ProgressBar("counting", pipe)
    quiet(5, 10)
    quiet.close()
    assert pipe.getvalue() == ""
