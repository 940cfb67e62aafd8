"""`--rule` on a ruling: approved by a supervisor's id and PIN (refusals recorded as every
supervisor's) whatever the profile — the shipped one or one approved for the table — and
refused where the profile forbids changes; never asked of an analysis."""

from __future__ import annotations

import functools
import json
import os
from pathlib import Path
from typing import Any

import cli
import pytest
from log_reads import untouched
from typer.testing import Result

from dealer.audit import open_log
from dealer.audit.authority import guesser

run = functools.partial(cli.run, whole=True)
ok = functools.partial(cli.ok, whole=True)
PIN = "lantern-2468"
SUP = ("--supervisor", "sup-7", "--pin", PIN)
ROYAL = "As Ks Qs Js Ts"


def records(db: Path) -> int:
    return int(json.loads(ok("audit", "verify", "--json").stdout)["records"])


@pytest.fixture
def place(dealer_db: Path | str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder with profiles `house.yaml` (wheel: lowest) and `strict.yaml` (rule changes
    forbidden), and an empty log on each backend in `DEALER_DB`."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "house.yaml").write_text("name: house\nrules:\n  wheel: lowest\n")
    (tmp_path / "strict.yaml").write_text("name: strict\nrules:\n  rule_changes: forbidden\n")
    return tmp_path


@pytest.fixture
def approved(place: Path) -> Path:
    """Supervisor sup-7, dealer d-1, and house.yaml approved for every table (records 1-3)."""
    ok("audit", "user", "add", "sup-7", "--role", "supervisor", "--new-pin", PIN)
    ok("audit", "user", "add", "d-1", "--role", "dealer", "--new-pin", "harbor-1357", *SUP)
    ok("audit", "approve-profile", "house.yaml", "--reason", "the floor's rules", *SUP)
    return place


def rank(*extra: str) -> Result:
    return run(
        "paigow", "rank", ROYAL, "--profile", "house.yaml", "--user", "d-1", "--table", "PG-1",
        *extra,
    )  # fmt: skip


def settings_of(result: Result) -> dict[str, Any]:
    out: dict[str, Any] = json.loads(result.stdout)["settings"]
    return out


def test_a_change_to_the_shipped_profile_needs_a_supervisor_on_a_fresh_log(
    place: Path, dealer_db: Path | str
) -> None:
    """The shipped profile is approved by the release: a dealer alone cannot change it."""
    seeded = ("--rule", "meters.progressive_treasure.seed=200000")
    args = ("paigow", "rank", ROYAL, "--user", "d-1", "--table", "PG-1", *seeded)
    refused = run(*args)
    assert (refused.exit_code, refused.stdout, refused.stderr) == (
        1,
        "",
        "Error: --rule changes the table profile default: a supervisor approves the change "
        "with --supervisor ID and --pin\n",
    )
    assert untouched(dealer_db)
    ok("audit", "user", "add", "sup-7", "--role", "supervisor", "--new-pin", PIN)
    settings = settings_of(ok(*args, *SUP, "--json"))
    assert settings["overrides"] == ["meters.progressive_treasure.seed=200000"]
    assert settings["rule_changes_approved_by"] == "sup-7"
    assert run("audit", "show", "2").stdout.splitlines()[2] == (
        "  rule changes: meters.progressive_treasure.seed=200000 (approved by sup-7)"
    )


def test_an_approved_profile_rules_unchanged_without_a_supervisor(approved: Path) -> None:
    assert rank().stdout.splitlines()[-1] == "ruling #4 recorded"


def test_a_change_to_an_approved_profile_needs_a_supervisor(approved: Path) -> None:
    before = records(approved)
    refused = rank("--rule", "wheel=second-highest")
    assert (refused.exit_code, refused.stdout, refused.stderr) == (
        1,
        "",
        "Error: --rule changes the table profile house: a supervisor approves the change "
        "with --supervisor ID and --pin\n",
    )
    assert records(approved) == before


@pytest.mark.parametrize(
    ("who", "pin", "message"),
    [
        ("d-1", "harbor-1357", "d-1 is a dealer: rule change needs a supervisor id and PIN"),
        ("sup-7", "0000", "wrong PIN for sup-7: rule change refused"),
    ],
)
def test_a_refused_approver_is_on_the_record(
    approved: Path, who: str, pin: str, message: str
) -> None:
    before = records(approved)
    refused = rank("--rule", "wheel=second-highest", "--supervisor", who, "--pin", pin)
    assert (refused.exit_code, refused.stdout, refused.stderr) == (1, "", f"Error: {message}\n")
    assert records(approved) == before + 1
    denied = json.loads(ok("audit", "show", str(before + 1), "--json").stdout)
    with open_log(os.environ["DEALER_DB"]) as log:
        typed = guesser(log, "d-1")  # the ruling's dealer, or the database login
    assert (denied["kind"], denied["user_id"], denied["action"], denied["result"]["target"]) == (
        "access-denied",
        typed,
        "rule change",
        who,
    )


def test_an_unregistered_approver_writes_nothing(approved: Path) -> None:
    before = records(approved)
    refused = rank("--rule", "wheel=second-highest", "--supervisor", "sup-9", "--pin", PIN)
    assert (refused.exit_code, refused.stderr) == (
        1,
        "Error: user sup-9 is not a registered supervisor: rule change needs the id and PIN of "
        "an active supervisor\n",
    )
    assert records(approved) == before


def test_the_ruling_records_who_approved_the_change(approved: Path) -> None:
    ruled = rank("--rule", "wheel=second-highest", *SUP, "--json")
    assert ruled.exit_code == 0, ruled.output
    settings = settings_of(ruled)
    assert (settings["overrides"], settings["rule_changes_approved_by"], settings["wheel"]) == (
        ["wheel=second-highest"],
        "sup-7",
        "second-highest",
    )
    assert run("audit", "show", "4").stdout.splitlines()[2] == (
        "  rule changes: wheel=second-highest (approved by sup-7)"
    )


def test_the_pin_is_asked_when_not_given(approved: Path) -> None:
    asked = run(
        "paigow", "rank", ROYAL, "--profile", "house.yaml", "--user", "d-1", "--table", "PG-1",
        "--rule", "wheel=second-highest", "--supervisor", "sup-7", stdin=f"{PIN}\n",
    )  # fmt: skip
    assert (asked.exit_code, asked.stdout.splitlines()[0]) == (0, "PIN for sup-7: ")
    assert asked.stdout.splitlines()[-1] == "ruling #4 recorded"


def test_an_approval_for_another_table_does_not_apply(place: Path) -> None:
    ok("audit", "user", "add", "sup-7", "--role", "supervisor", "--new-pin", PIN)
    ok("audit", "approve-profile", "house.yaml", "--reason", "r", "--table", "PG-2", *SUP)
    refused = rank("--rule", "wheel=second-highest", *SUP)
    assert refused.exit_code == 1
    assert "is not approved for table PG-1" in refused.stderr


def test_a_settle_and_a_round_need_the_supervisor_too(approved: Path) -> None:
    settle = (
        "paigow", "settle", "--dealer", "2s 2d 4c 6h 8s 9d Jc", "--player", "Ks Kd Kc Kh As Ad 3h",
        "--wager", "25", "--profile", "house.yaml", "--rule", "foul=reset", "--user", "d-1",
    )  # fmt: skip
    refused = run(*settle)
    assert (refused.exit_code, refused.stderr) == (
        1,
        "Error: --rule changes the table profile house: a supervisor approves the change "
        "with --supervisor ID and --pin\n",
    )
    assert settings_of(ok(*settle, *SUP, "--json"))["rule_changes_approved_by"] == "sup-7"
    table = run(
        "table", "--profile", "house.yaml", "--rule", "foul=reset", "--user", "d-1",
        "--table", "PG-1", stdin="",
    )  # fmt: skip
    assert (table.exit_code, table.stderr) == (
        1,
        "Error: --rule changes the table profile house: a supervisor approves the change "
        "with --supervisor ID and --pin\n",
    )


def test_a_profile_that_forbids_changes_refuses_them(place: Path, dealer_db: Path | str) -> None:
    refused = run("paigow", "rank", ROYAL, "--profile", "strict.yaml", "--rule", "wheel=lowest")
    assert (refused.exit_code, refused.stdout, refused.stderr) == (
        1,
        "",
        "Error: --rule: the table profile strict forbids rule changes "
        "(rules.rule_changes: forbidden); rule without --rule\n",
    )
    assert untouched(dealer_db)


def test_an_analysis_takes_no_supervisor() -> None:
    shown = cli.run("analyze", "paytable", "--help")
    assert shown.exit_code == 0
    assert "--rule" in shown.stdout and "--supervisor" not in shown.stdout


@pytest.mark.parametrize(
    ("approver", "verified"),
    [
        (
            "d-1",
            "record 4 (ruling): at that point d-1, named as approving its rule changes, was not "
            "an active supervisor",
        ),
        (
            "sup-9",
            "record 4 (ruling): at that point sup-9, named as approving its rule changes, was not "
            "an active supervisor",
        ),
        ("sup-7", "record 4 (ruling): at that point it carries no countersignature of sup-7"),
    ],
)
def test_verify_checks_the_approver_named_in_a_ruling(
    approved: Path, approver: str, verified: str | None
) -> None:
    """A ruling written straight into the log (as someone with the file could) naming an
    approver who was not an active supervisor then, or one who did not sign it, is caught by
    verify."""
    from dealer.audit import entries, open_log
    from dealer.audit.records import Entry

    ruling = Entry(
        kind="ruling",
        user_id="d-1",
        role="dealer",
        table_id="PG-1",
        game="paigow",
        action="rank",
        settings={"overrides": ["wheel=second-highest"], "rule_changes_approved_by": approver},
    )
    with open_log(os.environ["DEALER_DB"]) as log:
        entries.append(log, ruling)
    checked = json.loads(run("audit", "verify", "--json").stdout)
    assert checked.get("problem") == verified
