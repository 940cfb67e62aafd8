"""Supervisor approval of profiles and pay tables, and the profile digest on every ruling."""

import json
from pathlib import Path

import pytest
from cli import run
from log_reads import kinds

PAYTABLES = Path(__file__).parents[1] / "paytables"


@pytest.fixture()
def db(dealer_db: Path | str) -> Path | str:
    """Supervisor sup-1 and dealer d-1 on a log on each backend."""
    path = dealer_db
    for args in (
        ["audit", "user", "add", "sup-1", "--role", "supervisor", "--new-pin", "signal-9876"],
        [
            "audit",
            "user",
            "add",
            "d-1",
            "--role",
            "dealer",
            "--new-pin",
            "ledger-4817",
            "--supervisor",
            "sup-1",
            "--pin",
            "signal-9876",
        ],
    ):
        assert run(*args).exit_code == 0
    return path


def test_a_supervisor_approves_a_profile_and_rulings_carry_its_digest(
    db: Path | str, tmp_path: Path
) -> None:
    profile = tmp_path / "room.yaml"
    profile.write_text("name: room\nrules:\n  foul: reset\n", encoding="utf-8")
    approved = run(
        "audit",
        "approve-profile",
        str(profile),
        "--reason",
        "new rules",
        "--supervisor",
        "sup-1",
        "--pin",
        "signal-9876",
        "--json",
    )
    assert approved.exit_code == 0, approved.output
    digest = json.loads(approved.stdout)["sha256"]
    ruled = run("paigow", "rank", "As Ks", "--profile", str(profile), "--json", "--user", "d-1")
    assert json.loads(ruled.stdout)["settings"]["profile_sha256"] == digest
    assert kinds(db)[-2:] == ["profile-change", "ruling"]


def test_a_dealer_or_a_wrong_pin_is_refused_and_recorded(db: Path | str, tmp_path: Path) -> None:
    table = PAYTABLES / "envy-bonus.yaml"
    dealer = run(
        "audit",
        "approve-paytables",
        str(table),
        "--reason",
        "x",
        "--supervisor",
        "d-1",
        "--pin",
        "1234",
    )
    assert dealer.exit_code == 1 and dealer.stderr.startswith("Error: d-1 is a dealer")
    wrong = run(
        "audit",
        "approve-paytables",
        str(table),
        "--reason",
        "x",
        "--supervisor",
        "sup-1",
        "--pin",
        "0000",
    )
    assert wrong.exit_code == 1
    assert kinds(db)[-2:] == ["access-denied", "access-denied"]


def test_a_bad_profile_is_not_approved(db: Path | str, tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("rules:\n  wheel: sideways\n", encoding="utf-8")
    result = run(
        "audit",
        "approve-profile",
        str(bad),
        "--reason",
        "x",
        "--supervisor",
        "sup-1",
        "--pin",
        "signal-9876",
    )
    assert result.exit_code == 1 and "rules.wheel: 'sideways'" in result.stderr
    assert "profile-change" not in kinds(db)
