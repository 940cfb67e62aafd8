"""Signed supervisor actions: each supervisor's key sealed under their PIN, every supervisor
action signed, verify checking each signature (a forged, copied or unsigned record is named),
the shipped key cost, the PIN's minimum length, and the lockout after wrong PINs."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from cli import run
from log_reads import secret

import dealer
from dealer.audit import corrections, entries, keys, open_log, staff, users
from dealer.audit.authority import guesser
from dealer.audit.chain import GENESIS_HASH, seal
from dealer.audit.records import STORED_FIELDS, Entry, RecordFilter, UserRow
from dealer.audit.verify import release as verify_release
from dealer.audit.verify import verify
from dealer.kernel.errors import AccessError

PIN = "lantern-2468"
PIN2 = "harbor-1357"
JSON_FIELDS = ("cards", "result", "explanation", "settings")


def ruling() -> Entry:
    return Entry(kind="ruling", user_id="D1", role="dealer", table_id="PG-1", action="rank")


@pytest.fixture(scope="module")
def built(new_log: Callable[[], Path | str]) -> Path | str:
    """S1 (bootstrap, record 1), S2 (2), D1 (3), a ruling (4) and S2's void of it (5), on each
    backend, built once for the tests to copy."""
    where = new_log()
    with open_log(where) as log:
        staff.add_user(log, "S1", "supervisor", pin=PIN)
        staff.add_user(log, "S2", "supervisor", pin=PIN2, supervisor_id="S1", supervisor_pin=PIN)
        staff.add_user(log, "D1", "dealer", supervisor_id="S1", supervisor_pin=PIN)
        entries.append(log, ruling())
        corrections.void(log, 4, reason="misdeal", supervisor_id="S2", pin=PIN2)
    return where


@pytest.fixture
def path(built: Path | str, copy_log: Callable[[Path | str], Path | str]) -> Path | str:
    """A copy of the `built` log."""
    return copy_log(built)


def problems(path: Path | str) -> tuple[bool, int | None, tuple[str, ...]]:
    with open_log(path) as log:
        result = verify(log)
    return result.ok, result.first_bad, result.problems


def forge(path: Path | str, entry: Entry, account: tuple[str, str] | None = None) -> int:
    """Append `entry` as someone who can write around the tool would (who holds the SQLite
    file; the PostgreSQL database's owner): a correct chain hash, no key. With `account` (a
    user id, a sealed key), a users row registering that supervisor too."""
    with open_log(path) as log, log.transaction() as tx:
        row = seal(entry, tx.head())
        tx.copy(row)
        if account is not None:
            tx.add_user(UserRow(int(row["id"]), account[0], "supervisor", True, account[1]))
    return int(row["id"])


def head_hash(path: Path | str) -> str:
    """The hash of the log's newest record: what a record appended next signs as its place."""
    with open_log(path) as log:
        return log.head().head_hash


def stored_row(path: Path | str, record_id: int) -> dict[str, object]:
    with open_log(path) as log:
        return next(log.rows(RecordFilter(ids=(record_id,))))


def test_every_supervisor_action_is_signed_and_verifies(path: Path | str) -> None:
    with open_log(path) as log:
        made = log.records()
        s1_key = made[0].result["key"]
        assert made[0].settings["signature"]["key"] == s1_key  # the bootstrap signs itself
        assert made[1].settings["signature"]["key"] == s1_key  # S1 added S2
        assert made[4].settings["signature"]["key"] == made[1].result["key"]  # S2's void
        assert "signature" not in made[3].settings  # a ruling is not signed
    assert (secret(path, "S2") or "").startswith("ed25519-scrypt$")
    assert problems(path) == (True, None, ())


def test_a_forged_void_without_a_signature_fails_naming_it(path: Path | str) -> None:
    forged = forge(
        path,
        Entry(kind="void", user_id="S1", role="supervisor", links_to=4, reason="forged"),
    )
    assert problems(path) == (
        False,
        forged,
        (f"record {forged} (void): at that point it carries no signature of S1",),
    )


def test_a_forged_signature_fails(path: Path | str) -> None:
    genuine = stored_row(path, 5)
    signature = json.loads(str(genuine["settings"]))["signature"]
    forged = forge(
        path,
        Entry(
            kind="void",
            user_id="S2",
            role="supervisor",
            links_to=4,
            reason="another reason",
            settings={"signature": signature},
        ),
    )
    assert problems(path)[2] == (
        f"record {forged} (void): at that point its signature does not match its content of S2",
    )


def replayed(path: Path | str, record_id: int) -> Entry:
    """Record `record_id` as an entry to append again: what it signed and its settings (the
    signature with them), as someone replaying a signed record would."""
    return Entry(
        **{
            name: json.loads(str(value)) if name in JSON_FIELDS else value
            for name, value in stored_row(path, record_id).items()
            if name in keys.SIGNED_FIELDS or name == "settings"
        }
    )


def _altered(field: str, value: object) -> object:
    """A stored value of `field` changed (a signature, kept in settings, stays as it was)."""
    if field in ("cards", "explanation"):
        return json.dumps([*json.loads(str(value)), "x"])
    if field in ("result", "settings"):
        return json.dumps({**json.loads(str(value)), "x": 1})
    if field in ("id", "seat", "links_to"):
        return int(str(value or 0)) + 1
    return f"{value}x"


@pytest.mark.parametrize("field", STORED_FIELDS)
def test_a_signature_covers_what_the_maker_said_not_where_it_was_stored(
    path: Path | str, field: str
) -> None:
    """The signature recipe, fixed: a change to any of these fields breaks a signature, its
    place (`prev_hash`) too; what the backend assigns from the place (number, time, release,
    hash) is not signed (a copied log, stored as it was, keeps them valid)."""
    covered = [
        "kind",
        "game",
        "action",
        "table_id",
        "seat",
        "user_id",
        "role",
        "input_text",
        "cards",
        "result",
        "explanation",
        "settings",
        "links_to",
        "reason",
        "prev_hash",
    ]
    void = stored_row(path, 5)
    with open_log(path) as log:
        key = entries.get(log, 2).result["key"]
    assert keys.signature_problem(void, key) is None
    problem = keys.signature_problem({**void, field: _altered(field, void[field])}, key)
    assert (problem is not None) == (field in covered), problem


def test_a_replayed_signed_record_fails(path: Path | str) -> None:
    """Its signature is bound to the place it was made for (and spent there)."""
    genuine = replayed(path, 5)
    copy = forge(path, genuine)
    assert problems(path) == (
        False,
        copy,
        (f"record {copy} (void): at that point its signature does not match its content of S2",),
    )


def test_a_forged_supervisor_account_fails(path: Path | str) -> None:
    blob, _ = keys.make_key("attacker-0000")
    forged = forge(
        path,
        Entry(
            kind="user",
            user_id="S1",
            role="supervisor",
            action="add",
            result=users.user_record_result("X1", "supervisor", True, blob),
        ),
        account=("X1", blob),
    )
    assert problems(path) == (
        False,
        forged,
        (f"record {forged} (user): at that point it carries no signature of S1",),
    )


def test_a_signature_by_another_supervisors_key_fails(path: Path | str) -> None:
    with open_log(path) as log:
        s2 = log.user("S2")
    assert s2 is not None
    private = keys.open_key(PIN2, secret(path, "S2"))
    assert private is not None
    signed = keys.sign(
        Entry(kind="void", user_id="S1", role="supervisor", links_to=4, reason="r"),
        private,
        head_hash(path),
    )
    forged = forge(path, signed)
    assert problems(path)[2] == (
        f"record {forged} (void): at that point it is signed with a key that was not its "
        "maker's then of S1",
    )


@pytest.mark.shipped_kdf
def test_the_shipped_key_cost() -> None:
    assert (keys.KDF_N, keys.KDF_R, keys.KDF_P) == (2**17, 8, 1)
    assert keys.SECRET_MIN_LENGTH == 10 and users.LOCKOUT_AFTER == 5


@pytest.mark.shipped_kdf
def test_a_key_made_at_the_shipped_cost_opens() -> None:
    stored, private = keys.make_key("lantern-2468")
    assert stored.startswith("ed25519-scrypt$131072$8$1$")
    opened = keys.open_key("lantern-2468", stored)
    assert (
        opened is not None
        and keys.public_key(stored)
        == keys.sign(ruling(), opened, GENESIS_HASH).settings["signature"]["key"]
    )
    assert keys.open_key("lantern-2469", stored) is None


def test_lockout_after_five_wrong_pins(path: Path | str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Five wrong PINs of S2's in a row from this terminal lock it out of S2's PIN for a minute
    from the fifth (no lock record: the refusals say it, each in the name of who typed it);
    meanwhile even the right PIN from here is refused unchecked and not counted, while S2 acts
    from their own terminal; then this terminal is let try again. The clock is set, never
    waited for."""
    with open_log(path) as log:
        typed = guesser(log)
        for attempt in range(1, 5):
            with pytest.raises(AccessError, match=r"^wrong PIN for S2: void refused$"):
                corrections.void(log, 4, reason="r", supervisor_id="S2", pin=f"wrong-{attempt}")
        with pytest.raises(AccessError) as fifth:
            corrections.void(log, 4, reason="r", supervisor_id="S2", pin="wrong-5")
        latest = log.records()[-1]
        assert latest.kind == "access-denied"
        at = datetime.fromisoformat(latest.recorded_at)
        until = (at + timedelta(seconds=60)).strftime("%Y-%m-%d %H:%M:%S UTC")
        assert str(fifth.value) == (
            f"wrong PIN for S2: void refused; {typed} has typed 5 wrong PINs in a row for S2: "
            f"no more until {until}"
        )
        monkeypatch.setattr(users, "now", lambda: at + timedelta(seconds=59))
        with pytest.raises(AccessError) as locked:
            corrections.void(log, 4, reason="r", supervisor_id="S2", pin=PIN2)
        assert str(locked.value) == (
            f"{typed} has typed 5 wrong PINs in a row for S2: void refused (the PIN was not "
            f"checked) until {until}"
        )
        denied = log.records(RecordFilter(kind="access-denied"))
        assert [(r.user_id, r.result["target"], r.result["why"]) for r in denied] == [
            (typed, "S2", "wrong-pin")
        ] * 5 + [(typed, "S2", "locked")]
        assert users.user(log, "S2").active  # type: ignore[union-attr]
        monkeypatch.setattr(users, "now", lambda: at + timedelta(seconds=60))
        staff.add_user(log, "D2", "dealer", supervisor_id="S2", supervisor_pin=PIN2)
    assert problems(path) == (True, None, ())


def test_a_signed_change_resets_the_count(path: Path | str) -> None:
    """A supervisor's signed change of S2 (here a new PIN) starts every terminal's count of
    S2's wrong PINs again."""
    with open_log(path) as log:
        for _ in range(4):
            with pytest.raises(AccessError):
                corrections.void(log, 4, reason="r", supervisor_id="S2", pin="wrong-pin!")
        staff.change_user(log, "S2", pin="harbor-7531", supervisor_id="S1", supervisor_pin=PIN)
        for _ in range(4):
            with pytest.raises(AccessError, match="^wrong PIN for S2: void refused$"):
                corrections.void(log, 4, reason="r", supervisor_id="S2", pin="wrong-pin!")
        assert users.user(log, "S2").active  # type: ignore[union-attr]


def test_an_unearned_lock_record_fails(path: Path | str) -> None:
    """A lock record (release 0.2.0's) forged into a log of this release counts for nothing and
    fails verify."""
    with open_log(path) as log:
        s2 = log.user("S2")
    assert s2 is not None
    forged = forge(
        path,
        Entry(
            kind="user",
            user_id="S2",
            role="supervisor",
            action="lock",
            result=users.user_record_result("S2", "supervisor", False, s2.pin_hash),
        ),
    )
    assert problems(path)[2] == (
        f"record {forged} (user): at that point a lock record after record 1, the log's first "
        "signature bound to its place, counts for nothing: this release never writes one",
    )


def test_a_short_pin_is_refused_in_one_line(dealer_db: Path | str) -> None:
    refused = run("audit", "user", "add", "sup-7", "--role", "supervisor", "--new-pin", "2468")
    assert (refused.exit_code, refused.stdout) == (1, "")
    assert refused.stderr == (
        "Error: the new PIN needs at least 10 characters, of which at least 6 are not a common "
        "PIN or word, a run or repeat (1234, 9876, aaaa, abab, qwerty), a date or the user's own "
        "id; a short phrase of a few words is easiest to remember\n"
    )
    assert (
        run("audit", "user", "add", "sup-7", "--role", "supervisor", "--new-pin", PIN).exit_code
        == 0
    )
    with open_log(dealer_db) as log:
        assert log.head().records == 1


# -- checkpoints ----------------------------------------------------------------------------

PIN_A = "ledger-86420"


def checkpoint_entry(path: Path | str, maker: str, role: str, **changes: object) -> Entry:
    """A checkpoint entry as the tool would write it next: the right count and head hash."""
    with open_log(path) as log:
        head = log.head()
    fields: dict[str, object] = dict(
        kind="checkpoint",
        user_id=maker,
        role=role,
        result={"records": head.records, "head_hash": head.head_hash},
        explanation=[f"Checkpoint after record {head.records}"],
    )
    return Entry(**(fields | changes))  # type: ignore[arg-type]


def test_an_auditors_checkpoint_is_signed_and_verifies(path: Path | str) -> None:
    with open_log(path) as log:
        added = staff.add_user(
            log, "A1", "auditor", pin=PIN_A, supervisor_id="S1", supervisor_pin=PIN
        )
        made = entries.checkpoint(log, "A1", PIN_A, table_id="PG-1")
        record = entries.get(log, made.records)
        key = entries.get(log, added).result["key"]
        assert (record.kind, record.user_id, record.role) == ("checkpoint", "A1", "auditor")
        assert record.settings["signature"]["key"] == key
        entries.checkpoint(log, "S1", PIN)  # a supervisor's too
    assert problems(path) == (True, None, ())


@pytest.mark.parametrize(
    ("maker", "pin", "why"),
    [
        ("D1", PIN, "D1 is a dealer: checkpoint needs a supervisor or auditor id and PIN"),
        (
            "X9",
            PIN,
            "user X9 is not a registered supervisor or auditor: checkpoint needs the id and PIN "
            "of an active supervisor or auditor",
        ),
        ("S1", "wrong-pin!", "wrong PIN for S1: checkpoint refused"),
    ],
)
def test_a_checkpoint_needs_a_supervisor_or_auditor_and_their_pin(
    path: Path | str, maker: str, pin: str, why: str
) -> None:
    with open_log(path) as log:
        typed = guesser(log)
        before = log.head().records
        with pytest.raises(AccessError) as refused:
            entries.checkpoint(log, maker, pin)
        assert str(refused.value) == why
        after = log.records(RecordFilter(ids=tuple(range(before + 1, before + 3))))
    recorded = [] if maker == "X9" else [("access-denied", typed, maker)]
    assert [(r.kind, r.user_id, r.result.get("target")) for r in after] == recorded
    assert problems(path) == (True, None, ())


def test_wrong_checkpoint_pins_count_toward_the_lockout(path: Path | str) -> None:
    with open_log(path) as log:
        for attempt in range(1, 5):
            with pytest.raises(AccessError):
                corrections.void(log, 4, reason="r", supervisor_id="S2", pin=f"wrong-{attempt}")
        with pytest.raises(AccessError) as fifth:
            entries.checkpoint(log, "S2", "wrong-5")
        assert str(fifth.value).startswith(
            f"wrong PIN for S2: checkpoint refused; {guesser(log)} has typed 5 wrong PINs in a "
            "row for S2: no more until "
        )
    assert problems(path) == (True, None, ())


def test_an_auditor_without_a_pin_is_told_so_and_never_locked(path: Path | str) -> None:
    """An auditor may be registered without a PIN; no PIN is then right, so a checkpoint is
    refused saying why, and the refusals (on the record) count toward no lockout."""
    with open_log(path) as log:
        staff.add_user(log, "A3", "auditor", supervisor_id="S1", supervisor_pin=PIN)
        for attempt in range(users.LOCKOUT_AFTER + 1):
            with pytest.raises(AccessError) as refused:
                entries.checkpoint(log, "A3", f"any-pin-{attempt}")
            assert str(refused.value) == (
                "A3 has no PIN: checkpoint refused until a supervisor gives them one"
            )
        denied = log.records(RecordFilter(kind="access-denied", user_id=guesser(log)))
        refused_a3 = {"refused": "checkpoint", "why": "no-pin", "target": "A3"}
        assert [r.result for r in denied] == [refused_a3] * (users.LOCKOUT_AFTER + 1)
        row = log.user("A3")
        assert row is not None and row.active  # not locked
        staff.change_user(log, "A3", pin=PIN_A, supervisor_id="S1", supervisor_pin=PIN)
        entries.checkpoint(log, "A3", PIN_A)
    assert problems(path) == (True, None, ())


def test_a_log_kept_by_an_earlier_release_still_verifies(
    log_at: Path | str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Before checkpoints were signed (release 0.2.0) anyone took one, unsigned, in their own
    role: such a log verifies as it did. From the first record of a later release on, every
    checkpoint is held to the rule, one claiming the earlier release too."""
    monkeypatch.setattr(dealer, "__version__", "0.1.0")
    with open_log(log_at) as log:
        staff.add_user(log, "S1", "supervisor", pin=PIN)
        staff.add_user(log, "D1", "dealer", pin=PIN2, supervisor_id="S1", supervisor_pin=PIN)
    for maker, role in (("S1", "supervisor"), ("D1", "dealer")):  # as 0.1.0 took them
        forge(log_at, checkpoint_entry(log_at, maker, role))
    assert problems(log_at) == (True, None, ())
    monkeypatch.setattr(dealer, "__version__", "0.2.0")
    with open_log(log_at) as log:
        entries.checkpoint(log, "S1", PIN)
    monkeypatch.setattr(dealer, "__version__", "0.1.0")
    late = forge(log_at, checkpoint_entry(log_at, "D1", "dealer"))
    assert problems(log_at) == (
        False,
        late,
        (
            f"record {late} (checkpoint): at that point D1 was not a registered supervisor or "
            "auditor",
        ),
    )


@pytest.mark.parametrize(
    ("version", "release"),
    [
        ("0.1.0", (0, 1, 0)),
        ("0.2.0", (0, 2, 0)),
        ("0.10.3", (0, 10, 3)),
        ("1", (1,)),
        ("0.2.0rc1", (10**9,)),
        ("", (10**9,)),
        ("0.²", (10**9,)),
        ("9" * 5000, (10**9,)),
    ],
)
def test_a_records_release_compares_as_numbers(version: str, release: tuple[int, ...]) -> None:
    """Text that is not dotted numbers is held to every rule, as the newest release."""
    assert verify_release(version) == release


def test_a_forged_checkpoint_without_a_signature_fails_naming_it(path: Path | str) -> None:
    forged = forge(path, checkpoint_entry(path, "S1", "supervisor"))
    assert problems(path) == (
        False,
        forged,
        (f"record {forged} (checkpoint): at that point it carries no signature of S1",),
    )


def test_a_checkpoint_with_a_bad_or_copied_signature_fails(path: Path | str) -> None:
    with open_log(path) as log:
        made = entries.checkpoint(log, "S1", PIN).records
    genuine = json.loads(str(stored_row(path, made)["settings"]))["signature"]
    changed = forge(
        path, checkpoint_entry(path, "S1", "supervisor", settings={"signature": genuine})
    )
    copied = replayed(path, made)
    copy = forge(path, copied)
    assert problems(path) == (
        False,
        changed,
        (
            f"record {changed} (checkpoint): at that point its signature does not match its "
            "content of S1",
            f"record {copy} (checkpoint): at that point its signature does not match its "
            "content of S1",
        ),
    )


def test_a_checkpoint_by_a_maker_without_a_key_is_not_asked_for_a_signature(
    path: Path | str,
) -> None:
    """Taken before checkpoints needed a PIN, by a dealer or an id never registered."""
    forge(path, checkpoint_entry(path, "D1", "dealer"))
    forge(path, checkpoint_entry(path, "nobody", "dealer"))
    assert problems(path) == (True, None, ())


def test_a_checkpoint_signed_by_a_dealers_own_key_fails(path: Path | str) -> None:
    with open_log(path) as log:
        staff.add_user(log, "D2", "dealer", pin=PIN_A, supervisor_id="S1", supervisor_pin=PIN)
        d2 = log.user("D2")
    assert d2 is not None
    private = keys.open_key(PIN_A, secret(path, "D2"))
    assert private is not None
    forged = forge(
        path, keys.sign(checkpoint_entry(path, "D2", "dealer"), private, head_hash(path))
    )
    assert problems(path) == (
        False,
        forged,
        (
            f"record {forged} (checkpoint): at that point D2 was not a registered supervisor "
            "or auditor",
        ),
    )
