"""Attacks on who a user is and how their PIN and key are kept, as an insider would make them:
weak PINs (deliverable 12), a forged lockout changing a user (attack 9), every supervisor locked
out for ever (attack 7) and PIN hashes and sealed keys read by a terminal (attack 2)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from cli import run
from log_reads import head, use

from dealer.audit import keys, open_log, staff
from dealer.kernel.errors import AuditError

PIN = "lantern-2468"
PIN2 = "harbor-1357"

WEAK_PINS = (
    "1234567890",
    "0987654321",
    "qwertyuiop",
    "asdfghjkl;",
    "1q2w3e4r5t",
    "password12",
    "aaaaaaaaaa",
    "1212121212",
    "abcdef1234",
    "25.12.1990",
    "1990-12-25",
    "sup-7sup-7!",
    "sup-7-12345",
)


@pytest.fixture(scope="module")
def built(new_log: Callable[[], Path | str]) -> Path | str:
    """S1 (bootstrap), S2 and the dealer D1, on each backend, built once for the tests to copy."""
    where = new_log()
    with open_log(where) as log:
        staff.add_user(log, "S1", "supervisor", pin=PIN)
        staff.add_user(log, "S2", "supervisor", pin=PIN2, supervisor_id="S1", supervisor_pin=PIN)
        staff.add_user(log, "D1", "dealer", supervisor_id="S1", supervisor_pin=PIN)
    return where


@pytest.fixture
def path(built: Path | str, copy_log: Callable[[Path | str], Path | str]) -> Path | str:
    """A copy of the `built` log."""
    return copy_log(built)


@pytest.mark.parametrize("weak", WEAK_PINS)
def test_a_weak_pin_is_refused(weak: str) -> None:
    """Deliverable 12: a PIN of ten characters or more that a guesser tries first (a common
    PIN, a run, a repeat, a keyboard row, a date, the user's own id) is refused."""
    with pytest.raises(AuditError, match=r"^the new PIN is too easy to guess \("):
        keys.check_secret(weak, "sup-7")


@pytest.mark.parametrize("fine", [PIN, PIN2, "correct horse", "signal-9876", "red-table-7"])
def test_a_phrase_or_a_word_and_digits_is_allowed(fine: str) -> None:
    """Deliverable 12: the check refuses patterns, not PINs that merely contain one."""
    assert keys.check_secret(fine, "sup-7") == fine


def test_the_user_commands_refuse_a_weak_pin_in_one_line(
    path: Path | str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Deliverable 12: `audit user add` and `audit user set --new-pin` refuse a weak PIN in one
    `Error:` line saying what is allowed, and nothing is written."""
    use(path, monkeypatch)
    before = head(path)
    add = run(
        "audit", "user", "add", "sup-7", "--role", "supervisor", "--new-pin", "1234567890",
        "--supervisor", "S1", "--pin", PIN,
    )  # fmt: skip
    change = run(
        "audit", "user", "set", "S2", "--new-pin", "qwertyuiop", "--supervisor", "S1", "--pin", PIN
    )  # fmt: skip
    for refused in (add, change):
        assert (refused.exit_code, refused.stdout) == (1, "")
        assert refused.stderr.startswith("Error: the new PIN is too easy to guess (")
        assert refused.stderr.count("\n") == 1 and "at least 10 characters" in refused.stderr
    assert head(path) == before
