"""Attacks on who a user is and how their PIN and key are kept, as an insider would make them:
weak PINs (deliverable 12), a forged lockout changing a user (attack 9), every supervisor locked
out for ever (attack 7) and PIN hashes and sealed keys read by a terminal (attack 2)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from cli import run
from log_reads import head, records, use

from dealer.audit import keys, open_log, staff, users
from dealer.audit.authority import guesser
from dealer.audit.chain import seal
from dealer.audit.records import Entry, UserRow
from dealer.audit.verify import verify
from dealer.kernel.errors import AccessError, AuditError

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


RECOVERY: dict[str, str] = {}
"""The operator's recovery key of the `built` log, by backend (printed once at its bootstrap)."""


@pytest.fixture(scope="module")
def built(new_log: Callable[[], Path | str]) -> Path | str:
    """S1 (bootstrap, record 1), S2 (2) and the dealer D1 (3), on each backend, built once for
    the tests to copy; the bootstrap's recovery key kept in `RECOVERY`."""
    where = new_log()
    with open_log(where) as log:
        RECOVERY[str(where)] = staff.bootstrap(log, "S1", "supervisor", PIN).recovery_key
        staff.add_user(log, "S2", "supervisor", pin=PIN2, supervisor_id="S1", supervisor_pin=PIN)
        staff.add_user(log, "D1", "dealer", supervisor_id="S1", supervisor_pin=PIN)
    return where


@pytest.fixture
def path(built: Path | str, copy_log: Callable[[Path | str], Path | str]) -> Path | str:
    """A copy of the `built` log."""
    return copy_log(built)


@pytest.fixture
def recovery_key(built: Path | str) -> str:
    """The operator's recovery key of the `built` log (and of each copy of it)."""
    return RECOVERY[str(built)]


def problems(path: Path | str) -> tuple[str, ...]:
    with open_log(path) as log:
        return verify(log).problems


def forge(path: Path | str, entry: Entry, row: UserRow | None = None) -> int:
    """Append `entry` as whoever writes around the tool would (the SQLite file's holder; the
    PostgreSQL database's owner): a correct chain hash, no key; with `row`, a users row for it
    (its record id set to the new record's)."""
    with open_log(path) as log, log.transaction() as tx:
        sealed = seal(entry, tx.head())
        tx.copy(sealed)
        if row is not None:
            tx.add_user(row._replace(record_id=int(sealed["id"])))
    return int(sealed["id"])


def wrong_pin(who: str, role: str = "supervisor") -> Entry:
    return Entry(
        kind="access-denied",
        user_id=who,
        role=role,
        action="void",
        result={"refused": "void", "why": "wrong-pin"},
        reason=f"wrong PIN for {who}: void refused",
    )


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


@pytest.mark.parametrize(
    ("who", "role", "was"), [("S2", "supervisor", "supervisor"), ("D1", "supervisor", "dealer")]
)
def test_a_forged_lockout_changes_no_role_or_key(
    path: Path | str, who: str, role: str, was: str
) -> None:
    """Attack 9: with write access to the log (the SQLite file), five forged wrong-PIN denials
    and an unsigned lock record carrying the attacker's own key (and, for a dealer, the
    supervisor role); verify fails on the lock record, and the routine re-enable by another
    supervisor refuses to sign that key in (nothing is written)."""
    blob, _ = keys.make_key("attacker-7391", who)
    for _ in range(users.LOCKOUT_AFTER):
        forge(path, wrong_pin(who, was))
    lock = Entry(
        kind="user",
        user_id=who,
        role=was,
        action="lock",
        result=users.user_record_result(who, role, False, blob),
        explanation=[f"{who} changed {who}: {role}", "locked after 5 wrong PINs in a row"],
    )
    forged = forge(path, lock, UserRow(0, who, role, False, blob))
    assert problems(path) == (
        f"record {forged} (user): at that point a lock record after record 1, the log's first "
        "signature bound to its place, counts for nothing: this release never writes one",
    )
    before = head(path)
    with open_log(path) as log, pytest.raises(AuditError) as refused:
        staff.change_user(log, who, active=True, supervisor_id="S1", supervisor_pin=PIN)
    assert str(refused.value) == (
        f"the users table row of {who} is not what its record {forged} vouches for: it was "
        "written outside the tool (run dealer audit verify); nothing changed"
    )
    assert head(path) == before
    with open_log(path) as log, pytest.raises(AccessError):
        staff.add_user(log, "D7", "dealer", supervisor_id=who, supervisor_pin="attacker-7391")


def test_a_dealer_cannot_lock_every_supervisor_out_for_good(
    path: Path | str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Attack 7: a dealer types wrong PINs for every supervisor at their terminal, through a
    ruling's `--rule … --supervisor S --pin wrong` and the audit commands, and keeps typing
    while locked. That terminal is locked out of each supervisor's PIN (even the right one
    refused unchecked) but only for a while: once the time has passed (the clock set, never
    waited for) it is let try again, and the log verifies. No lock record is written. (That
    the supervisors themselves go on working at their own terminals meanwhile is Trust III's
    `test_pin_attacks`.)"""
    use(path, monkeypatch)
    monkeypatch.setenv("LOGNAME", "D1")  # the audit commands typed at D1's terminal too
    with open_log(path) as log:
        typed = guesser(log, "D1")
    ruling = ("paigow", "rank", "As Ks Qs Js Ts", "--user", "D1", "--table", "PG-1")
    changed = (*ruling, "--rule", "wheel=second-highest")
    for sup in ("S1", "S2"):
        for attempt in range(users.LOCKOUT_AFTER + 3):
            refused = run(*changed, "--supervisor", sup, "--pin", f"guess-{attempt}-x")
            assert refused.exit_code == 1
        refused = run("audit", "void", "3", "--reason", "r", "--supervisor", sup, "--pin", "0000")
        assert refused.exit_code == 1
        assert f"{typed} has typed 5 wrong PINs in a row for {sup}" in refused.stderr
    for sup, pin in (("S1", PIN), ("S2", PIN2)):
        refused = run("audit", "checkpoint", "--user", sup, "--pin", pin)
        assert refused.stderr.startswith(
            f"Error: {typed} has typed 5 wrong PINs in a row for {sup}: checkpoint refused (the "
            "PIN was not checked) until "
        )
    denied = records(path, kind="access-denied")
    assert [r.result["why"] for r in denied].count("wrong-pin") == 2 * users.LOCKOUT_AFTER
    assert {(r.user_id, r.result["target"]) for r in denied} == {(typed, "S1"), (typed, "S2")}
    assert not records(path, kind="user", action="lock")
    fifth = [r for r in denied if r.result["target"] == "S1" and r.result["why"] == "wrong-pin"]
    latest = datetime.fromisoformat(fifth[-1].recorded_at)
    monkeypatch.setattr(users, "now", lambda: latest + timedelta(seconds=59))
    assert run(*changed, "--supervisor", "S1", "--pin", PIN).exit_code == 1
    monkeypatch.setattr(users, "now", lambda: latest + timedelta(seconds=60))
    ruled = run(*changed, "--supervisor", "S1", "--pin", PIN)
    assert ruled.exit_code == 0, ruled.output
    assert problems(path) == ()


def test_the_lockout_grows_to_an_hour_and_no_more() -> None:
    """Attack 7: the lockout rule — none below five wrong PINs in a row, a minute at five,
    doubling with each one more, an hour at most however many."""
    seconds = [users.lockout_seconds(n) for n in (0, 4, 5, 6, 7, 10, 11, 12, 1000)]
    assert seconds == [0, 0, 60, 120, 240, 1920, 3600, 3600, 3600]


def test_the_operator_recovers_a_log_whose_supervisors_forgot_their_pins(
    path: Path | str, recovery_key: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Attack 7 (deliverable 9's recovery): every supervisor has forgotten their PIN; the
    operator's recovery key, printed once at the bootstrap, registers a new supervisor, who
    acts; the key is then spent and a new one shown; a wrong key changes nothing."""
    use(path, monkeypatch)
    recovery = recovery_key
    with open_log(path) as log:
        typed = keys.public_hex(keys.recovery_private(recovery))
        assert users.recovery_key(log) == typed
    before = head(path)
    wrong = run("audit", "user", "recover", "S3", "--recovery-key", "ab" * 32, "--new-pin", PIN)
    assert (wrong.exit_code, wrong.stderr) == (
        1,
        "Error: that is not this audit log's recovery key: nothing changed\n",
    )
    assert head(path) == before
    made = run(
        "audit", "user", "recover", "S3", "--recovery-key", recovery, "--new-pin", "meadow-9753",
        "--json",
    )  # fmt: skip
    assert made.exit_code == 0, made.output
    assert '"recovery_key": "' in made.stdout
    added = run(
        "audit", "user", "add", "D9", "--role", "dealer", "--supervisor", "S3", "--pin",
        "meadow-9753",
    )  # fmt: skip
    assert added.exit_code == 0, added.output
    again = run("audit", "user", "recover", "S4", "--recovery-key", recovery, "--new-pin", PIN)
    assert again.exit_code == 1
    assert problems(path) == ()


def test_a_forged_recovery_fails_verify(path: Path | str) -> None:
    """Attack 7/9: whoever writes around the tool (the SQLite file's holder) cannot make
    themself a supervisor by a `user`/`recover` record signed with a recovery key of their own:
    verify fails on it."""
    blob, private = keys.make_key("attacker-7391", "D1")
    _, own = keys.make_recovery_key()
    entry = Entry(
        kind="user",
        user_id="D1",
        role="supervisor",
        action="recover",
        result=users.user_record_result("D1", "supervisor", True, blob),
    )
    prev = head(path).head_hash  # the forged record goes right after the head
    countersigned = keys.sign(entry, keys.recovery_private(own), prev).settings["signature"]
    entry = keys.sign(entry._replace(settings={"recovery": countersigned}), private, prev)
    forged = forge(path, entry, UserRow(0, "D1", "supervisor", True, blob))
    assert problems(path) == (
        f"record {forged} (user): at that point a recovery not made with the operator's "
        "recovery key then (it is signed with a key that was not its maker's then)",
    )
