"""A dealer signing in at a table and out of it (`dealer sign-in`, `dealer sign-out`): each with
their own PIN, signed with their key, refused in one line; who stands signed in at a table
(`sign_ins.sitting`) and when it ends; verify's check of every sign-in."""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from cli import ok, run
from log_reads import records

from dealer.audit import open_log, sign_ins
from dealer.audit.chain import seal
from dealer.audit.records import Entry, RecordKind
from dealer.audit.sign_ins import SIGN_IN_HOURS, SignInAction, sitting
from dealer.audit.verify import verify

PIN = "lantern-2468"
PIN_104 = "harbor-1357"
PIN_105 = "tundra-8642"
SUP = ("--supervisor", "sup-7", "--pin", PIN)


@pytest.fixture
def db(dealer_db: Path | str) -> Path | str:
    """Supervisor sup-7, dealers d-104 and d-105 with PINs, auditor a-3, dealer d-106 without
    a PIN (records 1-5), on each backend."""
    ok("audit", "user", "add", "sup-7", "--role", "supervisor", "--new-pin", PIN, group=None)
    for who, pin in (("d-104", PIN_104), ("d-105", PIN_105)):
        ok("audit", "user", "add", who, "--role", "dealer", "--new-pin", pin, *SUP)
    ok("audit", "user", "add", "a-3", "--role", "auditor", *SUP)
    ok("audit", "user", "add", "d-106", "--role", "dealer", *SUP)
    return dealer_db


def signed(who: str, pin: str, table: str = "PG-3", *extra: str) -> dict[str, object]:
    ran = ok("sign-in", "--table", table, "--user", who, "--pin", pin, "--json", *extra)
    out: dict[str, object] = json.loads(ran.stdout)
    return out


def now() -> str:
    from dealer.audit.records import utc_now

    return utc_now()


def test_a_dealer_signs_in_and_out_with_their_pin(db: Path | str) -> None:
    said = ok("sign-in", "--table", "PG-3", "--user", "d-104", "--pin", PIN_104)
    made = records(db, kind="sign-in")[-1]
    until = datetime.fromisoformat(made.recorded_at) + timedelta(hours=SIGN_IN_HOURS)
    assert said.stdout == (
        f"d-104 signed in at table PG-3 (record 6), until "
        f"{until.strftime('%Y-%m-%d %H:%M:%S UTC')} at the latest.\n"
    )
    assert (made.user_id, made.role, made.table_id, made.action) == (
        "d-104",
        "dealer",
        "PG-3",
        "in",
    )
    assert made.settings["signature"]["key"] == records(db, kind="user")[1].result["key"]
    with open_log(db) as log:
        assert sitting(log, "PG-3", now()) == sign_ins.Sitting(6, "d-104", "PG-3", made.recorded_at)
    out = ok("sign-out", "--table", "PG-3", "--user", "d-104", "--pin", PIN_104)
    assert out.stdout == "d-104 signed out of table PG-3 (record 7).\n"
    with open_log(db) as log:
        assert sitting(log, "PG-3", now()) is None
        assert verify(log).ok


@pytest.mark.parametrize(
    ("who", "pin", "said", "recorded"),
    [
        ("d-104", "harbor-0000", "wrong PIN for d-104: sign-in refused", True),
        ("a-3", PIN, "a-3 is an auditor: sign-in needs a dealer or supervisor id and PIN", True),
        ("d-106", PIN, "d-106 has no PIN: sign-in refused until a supervisor gives them one", True),
        (
            "d-999",
            PIN,
            "user d-999 is not a registered dealer or supervisor: sign-in needs the id and PIN "
            "of an active dealer or supervisor",
            False,
        ),
    ],
)
def test_a_sign_in_is_refused_in_one_line(
    db: Path | str, who: str, pin: str, said: str, recorded: bool
) -> None:
    before = len(records(db))
    refused = run("sign-in", "--table", "PG-3", "--user", who, "--pin", pin)
    assert (refused.exit_code, refused.stdout, refused.stderr) == (1, "", f"Error: {said}\n")
    kinds = [r.kind for r in records(db)[before:]]
    assert kinds == (["access-denied"] if recorded else [])


def test_a_sign_in_needs_a_table(db: Path | str) -> None:
    refused = run("sign-in", "--user", "d-104", "--pin", PIN_104, env={"DEALER_TABLE": None})
    assert (refused.exit_code, refused.stderr) == (
        1,
        "Error: --table: name the table you deal at (or DEALER_TABLE)\n",
    )


def test_one_cannot_sign_out_where_one_is_not_signed_in(db: Path | str) -> None:
    signed("d-104", PIN_104)
    before = len(records(db))
    refused = run("sign-out", "--table", "PG-3", "--user", "d-105", "--pin", PIN_105)
    assert (refused.exit_code, refused.stderr) == (
        1,
        "Error: d-105 is not signed in at table PG-3\n",
    )
    assert len(records(db)) == before


def test_a_sign_in_ends_at_another_sign_in_there_or_elsewhere_and_after_a_shift(
    db: Path | str,
) -> None:
    signed("d-104", PIN_104, "PG-3")
    with open_log(db) as log:
        first = sitting(log, "PG-3", now())
    assert first is not None and first.user_id == "d-104"
    signed("d-105", PIN_105, "PG-3")  # d-105 relieves d-104
    with open_log(db) as log:
        relieved = sitting(log, "PG-3", now())
        assert relieved is not None and relieved.user_id == "d-105"
    signed("d-105", PIN_105, "PG-4")  # and moves on: one table at a time
    with open_log(db) as log:
        assert sitting(log, "PG-3", now()) is None
        moved = sitting(log, "PG-4", now())
        assert moved is not None and moved.user_id == "d-105"
        later = (moved.until() + timedelta(seconds=1)).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
        assert sitting(log, "PG-4", later) is None
        assert verify(log).ok


def test_a_sign_in_written_around_the_tool_fails_verify(db: Path | str) -> None:
    """The file's holder (or the owner) writes a sign-in without the dealer's PIN: it carries
    no signature of theirs, and one for a dealer with no PIN could never carry one."""
    for who in ("d-104", "d-106"):
        with open_log(db) as log, log.transaction() as tx:
            entry = Entry(
                kind=RecordKind.SIGN_IN,
                user_id=who,
                role="dealer",
                table_id="PG-3",
                action=SignInAction.IN,
                result={"user": who, "table": "PG-3"},
            )
            tx.copy(seal(entry, tx.head()))
    with open_log(db) as log:
        assert verify(log).problems == (
            "record 6 (sign-in): at that point it carries no signature of d-104",
            "record 7 (sign-in): at that point a sign-in by d-106, who has no PIN to sign in with",
        )
