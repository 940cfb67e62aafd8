"""A ruling is made only from documents the program ships or a supervisor approved: a profile or
pay table never approved, approved for another table, or edited since, is refused in one line
and nothing is recorded."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli import run
from log_reads import records

from dealer.audit import approvals, open_log
from dealer.audit.records import RecordKind
from dealer.kernel.digest import sha256_hex
from dealer.kernel.documents import shipped_documents
from dealer.kernel.errors import AccessError

SETTLE = (
    "paigow",
    "settle",
    "--dealer",
    "8h 3h 5c 6s 2c 2d Jh",
    "--player",
    "As Kd 9c 7h 5s 3d JK",
    "--wager",
    "25",
    "--user",
    "d-104",
)
ROOM = "name: room-2\nrules:\n  wheel: lowest\n"


@pytest.fixture()
def db(dealer_db: Path | str) -> Path | str:
    """Supervisor sup-1 on a log on each backend."""
    path = dealer_db
    add = run("audit", "user", "add", "sup-1", "--role", "supervisor", "--new-pin", "signal-9876")
    assert add.exit_code == 0, add.output
    return path


def _count(db: Path | str) -> int:
    return len(records(db, kind=RecordKind.RULING))


def approve(profile: Path, *table: str) -> None:
    args = ["audit", "approve-profile", str(profile), "--reason", "room 2 house rules"]
    result = run(*args, *table, "--supervisor", "sup-1", "--pin", "signal-9876")
    assert result.exit_code == 0, result.output


def test_the_shipped_profile_needs_no_approval(db: Path | str) -> None:
    result = run(*SETTLE, "--table", "PG-1", "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["settings"]["profile_sha256"] in shipped_documents()


def test_a_profile_never_approved_is_refused_and_nothing_recorded(
    db: Path | str, tmp_path: Path
) -> None:
    profile = tmp_path / "room.yaml"
    profile.write_text(ROOM, encoding="utf-8")
    result = run(*SETTLE, "--table", "PG-1", "--profile", str(profile))
    digest = sha256_hex(ROOM)[:12]
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == (
        f"Error: the table profile {profile} (sha256 {digest}…) is not approved for table PG-1:"
        " a supervisor approves its file with 'dealer audit approve-profile FILE'\n"
    )
    assert _count(db) == 0


def test_an_approval_holds_for_its_table_or_for_every_table(db: Path | str, tmp_path: Path) -> None:
    profile = tmp_path / "room.yaml"
    profile.write_text(ROOM, encoding="utf-8")
    approve(profile, "--table", "PG-1")
    assert run(*SETTLE, "--table", "PG-1", "--profile", str(profile)).exit_code == 0
    elsewhere = run(*SETTLE, "--table", "PG-2", "--profile", str(profile))
    assert elsewhere.exit_code == 1 and "not approved for table PG-2" in elsewhere.stderr
    approve(profile)
    assert run(*SETTLE, "--table", "PG-2", "--profile", str(profile)).exit_code == 0
    assert _count(db) == 2


def test_a_profile_edited_after_its_approval_is_refused(db: Path | str, tmp_path: Path) -> None:
    profile = tmp_path / "room.yaml"
    profile.write_text(ROOM, encoding="utf-8")
    approve(profile)
    profile.write_text(ROOM.replace("lowest", "second-highest"), encoding="utf-8")
    result = run(*SETTLE, "--table", "PG-1", "--profile", str(profile))
    assert result.exit_code == 1 and "is not approved for table PG-1" in result.stderr
    assert _count(db) == 0


def test_a_pay_table_file_not_shipped_needs_its_approval(db: Path | str) -> None:
    settings = {"paytables_sha256": {"PT-HOUSE-01": "ab" * 32}}
    shipped = next(iter(shipped_documents()))
    with open_log(db) as log:
        with pytest.raises(
            AccessError, match=r"^the pay table PT-HOUSE-01 \(sha256 abababababab…\)"
        ):
            approvals.check_documents(log, "PG-1", settings)
        approvals.check_documents(log, "PG-1", {"paytables_sha256": {"PT-X": shipped}})


def test_a_live_session_with_rules_not_approved_is_refused_at_the_start(
    db: Path | str, tmp_path: Path
) -> None:
    profile = tmp_path / "room.yaml"
    profile.write_text(ROOM, encoding="utf-8")
    lines = "dealer 8h 3h 5c 6s 2c 2d Jh\n1 As Kd 9c 7h 5s 3d JK base 25\nsettle\nquit\n"
    args = ["table", "--profile", str(profile), "--user", "d-104", "--table", "PG-1"]
    result = run(*args, stdin=lines)
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr.startswith(f"Error: the table profile {profile} (sha256 ")
    approve(profile)
    result = run(*args, stdin=lines)
    assert result.exit_code == 0, result.output
    assert _count(db) == 1
