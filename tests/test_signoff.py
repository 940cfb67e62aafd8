"""Large-pay sign-off through the CLI: a seat paid over the profile's `signoff_over` awaits a
supervisor's sign-off (`audit signoff N`), shown by `audit show`, found by `audit search
--awaiting-signoff`, listed by the shift summary; each refusal in one line, exit 1."""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

import cli
import pytest

run = functools.partial(cli.run, whole=True)
ok = functools.partial(cli.ok, whole=True)
PIN = "lantern-2468"
SUP = ("--supervisor", "sup-7", "--pin", PIN)
DEALER_PAIR = "2s 2d 4c 6h 8s 9d Jc"
FOUR_KINGS = "Ks Kd Kc Kh As Ad 3h"


def settle(wager: str, *extra: str) -> dict[str, Any]:
    """A settle at PG-3 that the four kings win even money; its JSON."""
    ran = ok(
        "paigow", "settle", "--dealer", DEALER_PAIR, "--player", FOUR_KINGS, "--wager", wager,
        "--table", "PG-3", "--user", "d-104", "--json", *extra,
    )  # fmt: skip
    out: dict[str, Any] = json.loads(ran.stdout)
    return out


@pytest.fixture
def db(dealer_db: Path | str) -> Path | str:
    """Supervisor sup-7 (PIN 2468) and dealer d-104 (records 1-2), on each backend."""
    path = dealer_db
    ok("audit", "user", "add", "sup-7", "--role", "supervisor", "--new-pin", PIN)
    ok("audit", "user", "add", "d-104", "--role", "dealer", "--new-pin", "harbor-1357", *SUP)
    return path


def status_line(record: int) -> str:
    return run("audit", "show", str(record)).stdout.splitlines()[1]


def records(db: Path | str) -> int:
    return int(json.loads(ok("audit", "verify", "--json").stdout)["records"])


def test_a_large_pay_awaits_sign_off_until_a_supervisor_signs(db: Path | str) -> None:
    said = run(
        "paigow", "settle", "--dealer", DEALER_PAIR, "--player", FOUR_KINGS, "--wager", "5000",
        "--table", "PG-3", "--user", "d-104",
    )  # fmt: skip
    assert said.exit_code == 0
    assert said.stdout.splitlines()[-8:] == [
        "  · base wager $5,000: win, 1 to 1: +$5,000",
        "  · seat 1 wins +$5,000, more than $2,500: the pay awaits a supervisor's sign-off",
        "wager    amount    result    pays    net",
        "-------  --------  --------  ------  -------",
        "base     $5,000    win       1 to 1  +$5,000",
        "total                                +$5,000",
        "ruling #3 recorded",
        "awaiting sign-off: dealer audit signoff 3",
    ]
    assert status_line(3) == "  status     in effect; awaiting sign-off"
    shown = json.loads(ok("audit", "show", "3", "--json").stdout)
    assert shown["result"]["signoff_required"] == {"over": 2500, "seats": [1]}
    assert shown["status"]["signoff"] == {"awaiting": True, "by": None, "record": None}
    made = records(db) + 1
    signed = run("audit", "signoff", "3", *SUP)
    assert (signed.exit_code, signed.stdout, signed.stderr) == (
        0,
        f"Sign-off recorded as record {made} (signs off ruling 3).\n",
        "",
    )
    assert status_line(3) == f"  status     in effect; signed off by sup-7 (#{made})"
    record = json.loads(ok("audit", "show", str(made), "--json").stdout)
    assert (record["kind"], record["user_id"], record["role"], record["links_to"]) == (
        "signoff",
        "sup-7",
        "supervisor",
        3,
    )
    assert record["result"] == {"ruling": 3, "over": 2500, "seats": [1]}
    assert json.loads(ok("audit", "show", "3", "--json").stdout)["status"]["signoff"] == {
        "awaiting": False,
        "by": "sup-7",
        "record": made,
    }
    assert ok("audit", "verify").stdout.startswith("OK: ")


def test_a_pay_at_the_line_needs_no_sign_off(db: Path | str) -> None:
    """The line is `signoff_over`: a seat paid exactly that much needs none."""
    at_line = settle("2500")
    assert "signoff_required" not in at_line
    ruling = str(at_line["ruling_id"])
    assert status_line(int(ruling)) == "  status     in effect"
    before = records(db)
    refused = run("audit", "signoff", ruling, *SUP)
    assert (refused.exit_code, refused.stdout, refused.stderr) == (
        1,
        "",
        f"Error: record {ruling} needs no sign-off: only a ruling that paid a seat more than "
        "the table's sign-off line does\n",
    )
    assert records(db) == before


def test_the_profile_sets_the_line(db: Path | str) -> None:
    lowered = settle("1000", "--rule", "signoff_over=500", *SUP)
    assert lowered["signoff_required"] == {"over": 500, "seats": [1]}
    assert lowered["settings"]["signoff_over"] == 500
    refused = run(
        "paigow", "settle", "--dealer", DEALER_PAIR, "--player", FOUR_KINGS, "--wager", "5",
        "--rule", "signoff_over=lots",
    )  # fmt: skip
    assert (refused.exit_code, refused.stdout, refused.stderr) == (
        1,
        "",
        "Error: profile --rule signoff_over=lots: rules.signoff_over 'lots' is not an amount: "
        "use digits with at most one decimal point and two decimals, e.g. 25, 12.50 or $25\n",
    )


def test_sign_off_refusals(db: Path | str) -> None:
    signed = str(settle("5000")["ruling_id"])
    signoff = records(db) + 1
    ok("audit", "signoff", signed, *SUP)
    voided = str(settle("5000")["ruling_id"])
    ok("audit", "void", voided, "--reason", "misdeal", *SUP)
    before = records(db)
    twice = run("audit", "signoff", signed, *SUP)
    assert (twice.exit_code, twice.stdout, twice.stderr) == (
        1,
        "",
        f"Error: ruling {signed} is already signed off by sup-7 (#{signoff})\n",
    )
    gone = run("audit", "signoff", voided, *SUP)
    assert (gone.exit_code, gone.stdout, gone.stderr) == (
        1,
        "",
        f"Error: ruling {voided} is voided: nothing of it is paid to sign off\n",
    )
    missing = run("audit", "signoff", "999", *SUP)
    assert (missing.exit_code, missing.stderr) == (
        1,
        "Error: there is no audit record 999 to sign off\n",
    )
    assert records(db) == before
    assert status_line(int(voided)).startswith("  status     voided by #")
    assert "sign-off" not in status_line(int(voided))


def test_a_refused_supervisor_is_on_the_record(db: Path | str) -> None:
    ruling = str(settle("5000")["ruling_id"])
    before = records(db)
    dealer = run("audit", "signoff", ruling, "--supervisor", "d-104", "--pin", "harbor-1357")
    assert (dealer.exit_code, dealer.stdout, dealer.stderr) == (
        1,
        "",
        "Error: d-104 is a dealer: signoff needs a supervisor id and PIN\n",
    )
    wrong = run("audit", "signoff", ruling, "--supervisor", "sup-7", "--pin", "0000")
    assert (wrong.exit_code, wrong.stderr) == (1, "Error: wrong PIN for sup-7: signoff refused\n")
    assert records(db) == before + 2
    nobody = run("audit", "signoff", ruling, "--supervisor", "sup-9", "--pin", PIN)
    assert (nobody.exit_code, nobody.stderr) == (
        1,
        "Error: user sup-9 is not a registered supervisor: signoff needs the id and PIN of an "
        "active supervisor\n",
    )
    assert records(db) == before + 2
    assert status_line(int(ruling)) == "  status     in effect; awaiting sign-off"


def test_an_overridden_ruling_is_signed_all_the_same(db: Path | str) -> None:
    ruling = str(settle("5000")["ruling_id"])
    override = records(db) + 1
    ok("audit", "override", ruling, "--decision", "paid by hand", "--reason", "chips", *SUP)
    assert status_line(int(ruling)) == f"  status     overridden by #{override}; awaiting sign-off"
    ok("audit", "signoff", ruling, *SUP)
    assert status_line(int(ruling)) == (
        f"  status     overridden by #{override}; signed off by sup-7 (#{override + 1})"
    )


def test_search_and_the_shift_summary_say_what_waits(db: Path | str) -> None:
    first = settle("5000")["ruling_id"]
    settle("25")
    second = settle("4000")["ruling_id"]
    voided = settle("5000")["ruling_id"]
    ok("audit", "void", str(voided), "--reason", "misdeal", *SUP)
    signed = records(db) + 1
    ok("audit", "signoff", str(first), *SUP)
    found = json.loads(ok("audit", "search", "--awaiting-signoff", "--json").stdout)
    assert [r["id"] for r in found["records"]] == [second]
    listed = ok("audit", "search", "--awaiting-signoff").stdout.splitlines()
    assert [line.split()[0] for line in listed[2:]] == [str(second)]
    assert listed[2].endswith(" net +$4,000")
    summary = ok("shift", "summary", "--table", "PG-3").stdout.splitlines()
    assert f"Awaiting sign-off: #{second}" in summary
    assert f"Signed off: #{first} by sup-7 (#{signed})" in summary
    data = json.loads(ok("shift", "summary", "--table", "PG-3", "--json").stdout)
    assert data["signoffs"] == {
        "awaiting": [second],
        "signed": [{"ruling": first, "record": signed, "by": "sup-7"}],
    }
    assert data["large_pays"]["threshold"] == 2500
    assert [p["ruling"] for p in data["large_pays"]["pays"]] == [first, second]
    higher = json.loads(
        ok("shift", "summary", "--table", "PG-3", "--json", "--rule", "signoff_over=4500").stdout
    )
    assert higher["large_pays"]["threshold"] == 4500
    assert [p["ruling"] for p in higher["large_pays"]["pays"]] == [first]


def test_the_live_table_says_a_pay_awaits_sign_off(db: Path | str) -> None:
    lines = "2s 2d 4c 6h 8s 9d Jc\n4 Ks Kd Kc Kh As Ad 3h base 5000\nsettle\nhistory\nquit\n"
    ran = run("table", "--table", "PG-3", "--user", "d-104", stdin=lines)
    assert ran.exit_code == 0, ran.output
    assert ran.stdout.splitlines()[-3:] == [
        "ruling #3 recorded",
        "awaiting sign-off: dealer audit signoff 3",
        "round 1: ruling #3, seats 4, players +$5,000, house -$5,000; sign-off needed (seat 4): "
        "dealer audit signoff 3",
    ]
    assert status_line(3) == "  status     in effect; awaiting sign-off"
