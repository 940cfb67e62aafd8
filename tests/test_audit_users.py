"""Users, roles, PINs, bootstrapping the first supervisor, and refusals: a registered user's on
the record, an unregistered id's writing nothing."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from decimal import Decimal
from pathlib import Path

import pytest

from dealer.audit import corrections, disputes, entries, keys, meters, open_log, staff, users
from dealer.audit.authority import append_supervised, authenticate, guesser
from dealer.audit.disputes import Review
from dealer.audit.records import Entry, RecordFilter
from dealer.audit.storage import Storage
from dealer.audit.users import pin_fingerprint
from dealer.audit.verify import verify
from dealer.kernel.errors import AccessError, AuditError

PIN = "lantern-2468"
RANGES = {"progressive_treasure": meters.MeterRange(Decimal(10000), Decimal(250000))}


@pytest.fixture(scope="module")
def built(new_log: Callable[[], Path | str]) -> Path | str:
    """S1, S2, D1, A1 and a ruling, on each backend, built once for the tests to copy."""
    where = new_log()
    with open_log(where) as opened:
        staff.add_user(opened, "S1", "supervisor", pin=PIN)
        staff.add_user(
            opened, "S2", "supervisor", pin="harbor-1357", supervisor_id="S1", supervisor_pin=PIN
        )
        staff.add_user(opened, "D1", "dealer", supervisor_id="S1", supervisor_pin=PIN)
        staff.add_user(opened, "A1", "auditor", supervisor_id="S1", supervisor_pin=PIN)
        entries.append(opened, ruling())
    return where


@pytest.fixture
def log(built: Path | str, copy_log: Callable[[Path | str], Path | str]) -> Iterator[Storage]:
    """A copy of the `built` log, open."""
    with open_log(copy_log(built)) as opened:
        yield opened


def ruling(user_id: str = "D1", role: str = "dealer", kind: str = "ruling") -> Entry:
    return Entry(
        kind=kind, user_id=user_id, role=role, table_id="PG-1", game="paigow", action="rank"
    )


def test_a_pin_seals_a_signing_key() -> None:
    stored, private = keys.make_key("lantern-2468")
    blob = keys.parse_blob(stored)
    assert blob is not None and stored.startswith("ed25519-scrypt$1024$8$1$")
    assert len(blob.salt) == 16 and blob.public == keys.public_key(stored)
    assert users.unlock("lantern-2468", stored) is not None
    assert users.unlock("lantern-2469", stored) is None
    assert users.unlock("lantern-2468", None) is None
    assert users.unlock("lantern-2468", "md5$abc") is None
    assert users.unlock("lantern-2468", "ed25519-scrypt$x$8$1$00$00$00$00") is None
    assert keys.make_key("lantern-2468")[0] != stored  # a new key, salted
    assert pin_fingerprint(None) is None and len(pin_fingerprint(stored) or "") == 64


@pytest.mark.parametrize("pin", ["", "123", "2468", "   nine 9  ", "123456789"])
def test_short_pin_refused(pin: str) -> None:
    with pytest.raises(AuditError, match="the new PIN needs at least 10 characters"):
        keys.make_key(pin)


def test_bootstrap_first_supervisor(log_at: Path | str) -> None:
    # A PIN of letters no hex digest, time or number can hold: were it a digit string, the
    # record's random hashes would contain it by chance about once in 300 runs.
    secret = "pin-zqxw-vkjq"
    with open_log(log_at) as fresh:
        with pytest.raises(
            AccessError, match="first user of an audit database must be a supervisor"
        ):
            staff.add_user(fresh, "D1", "dealer")
        with pytest.raises(AuditError, match="a supervisor needs a PIN"):
            staff.add_user(fresh, "S1", "supervisor")
        assert fresh.head().records == 0
        record_id = staff.add_user(fresh, "S1", "supervisor", pin=secret)
        record = entries.get(fresh, record_id)
        assert (record.kind, record.action, record.user_id, record.role) == (
            "user",
            "bootstrap",
            "S1",
            "supervisor",
        )
        assert record.result["user"] == "S1" and record.result["active"] is True
        assert "PIN" not in str(record.result) and secret not in str(record.to_dict())
        with pytest.raises(AccessError, match="needs a supervisor id and PIN"):
            staff.add_user(fresh, "S9", "supervisor", pin="summit-9999")
        assert [u.user_id for u in users.all_users(fresh)] == ["S1"]
        assert authenticate(fresh, "S1", secret, "void").role == "supervisor"


def test_users_listed(log: Storage) -> None:
    listed = [(u.user_id, u.role, u.active, u.has_pin) for u in users.all_users(log)]
    assert listed == [
        ("A1", "auditor", True, False),
        ("D1", "dealer", True, False),
        ("S1", "supervisor", True, True),
        ("S2", "supervisor", True, True),
    ]
    assert users.user(log, "D9") is None
    assert (users.role_of(log, "S2"), users.role_of(log, "D1"), users.role_of(log, "D9")) == (
        "supervisor",
        "dealer",
        "dealer",
    )


def test_add_user_refusals(log: Storage) -> None:
    with pytest.raises(AuditError, match="user D1 already exists"):
        staff.add_user(log, "D1", "dealer", supervisor_id="S1", supervisor_pin=PIN)
    with pytest.raises(AuditError, match="role 'pit-boss'"):
        staff.add_user(log, "P1", "pit-boss", supervisor_id="S1", supervisor_pin=PIN)


def supervisor_actions(log: Storage, who: str, pin: str) -> dict[str, Callable[[], object]]:
    dispute = disputes.open_dispute(log, user_id="D1", table_id="PG-1", description="short pay")
    reviewer, reviewer_pin = ("S1", PIN) if who == "S2" else ("S2", "harbor-1357")
    return {
        "override": lambda: corrections.override(
            log, 1 + 4, decision="push", reason="r", supervisor_id=who, pin=pin
        ),
        "void": lambda: corrections.void(log, 5, reason="misdeal", supervisor_id=who, pin=pin),
        "dispute-resolve": lambda: disputes.resolve_dispute(
            log,
            dispute,
            outcome="no-error",
            amount_adjusted=0,
            review=Review(
                supervisor_id=who,
                pin=pin,
                second_reviewer=reviewer,
                reviewer_pin=reviewer_pin,
                reason="r",
            ),
        ),
        "meter-adjust": lambda: meters.adjust(
            log,
            "PG-1",
            "progressive_treasure",
            10000,
            "reset",
            ranges=RANGES,
            supervisor_id=who,
            pin=pin,
        ),
        "profile-change": lambda: append_supervised(
            log,
            Entry(
                kind="profile-change", user_id=who, role="supervisor", settings={"wheel": "lowest"}
            ),
            pin,
        ),
        "paytable-change": lambda: append_supervised(
            log, Entry(kind="paytable-change", user_id=who, role="supervisor"), pin
        ),
        "user-add": lambda: staff.add_user(
            log, "D5", "dealer", supervisor_id=who, supervisor_pin=pin
        ),
        "user-change": lambda: staff.change_user(
            log, "D1", active=False, supervisor_id=who, supervisor_pin=pin
        ),
    }


ACTIONS = [
    "override",
    "void",
    "dispute-resolve",
    "meter-adjust",
    "profile-change",
    "paytable-change",
    "user-add",
    "user-change",
]


@pytest.mark.parametrize("action", ACTIONS)
@pytest.mark.parametrize(
    ("who", "pin", "why", "message"),
    [
        ("D1", PIN, "not-supervisor", "D1 is a dealer: {action} needs a supervisor id and PIN"),
        (
            "A1",
            PIN,
            "not-supervisor",
            "A1 is an auditor: {action} needs a supervisor id and PIN",
        ),
        ("S1", "0000", "wrong-pin", "wrong PIN for S1: {action} refused"),
        ("S1", "", "wrong-pin", "wrong PIN for S1: {action} refused"),
    ],
)
def test_refused_and_recorded(
    log: Storage, action: str, who: str, pin: str, why: str, message: str
) -> None:
    """The refusal is on the record in the name of who typed it at this terminal (the
    database login; on SQLite the operating system's), naming whose id and PIN it was."""
    attempt = supervisor_actions(log, who, pin)[action]
    before = log.head().records
    expected = message.format(action=action)
    with pytest.raises(AccessError) as refused:
        attempt()
    assert str(refused.value) == expected
    assert log.head().records == before + 1
    record = entries.get(log, before + 1)
    typed = guesser(log)
    assert (record.kind, record.action, record.user_id, record.role) == (
        "access-denied",
        action,
        typed,
        users.role_of(log, typed),
    )
    assert record.result == {"refused": action, "why": why, "target": who}
    assert record.reason == expected
    assert verify(log).ok


@pytest.mark.parametrize("action", ACTIONS)
@pytest.mark.parametrize("pin", [PIN, "0000", ""])
def test_an_unregistered_id_is_refused_and_writes_nothing(
    log: Storage, action: str, pin: str
) -> None:
    attempt = supervisor_actions(log, "sup-7", pin)[action]
    before = log.head()
    with pytest.raises(AccessError) as refused:
        attempt()
    assert str(refused.value) == (
        f"user sup-7 is not a registered supervisor: {action} needs the id and PIN of an "
        "active supervisor"
    )
    assert log.head() == before


def test_an_unregistered_id_is_refused_before_any_supervisor_is_registered(
    log_at: Path | str,
) -> None:
    with open_log(log_at) as fresh:
        with pytest.raises(AccessError, match="user sup-7 is not a registered supervisor"):
            corrections.void(fresh, 1, reason="r", supervisor_id="sup-7", pin=PIN)
        with pytest.raises(AccessError, match="user sup-7 is not a registered supervisor"):
            staff.add_user(fresh, "S1", "supervisor", pin=PIN, supervisor_id="sup-7")
        assert fresh.head().records == 0
        assert staff.add_user(fresh, "S1", "supervisor", pin=PIN) == 1  # the bootstrap still works


@pytest.mark.parametrize("action", ACTIONS)
def test_supervisor_may(log: Storage, action: str) -> None:
    attempt = supervisor_actions(log, "S2", "harbor-1357")[action]
    before = log.head().records
    attempt()
    made = entries.get(log, before + 1)
    assert made.user_id == "S2" and made.role == "supervisor" and made.kind != "access-denied"


def test_disabled_supervisor_refused(log: Storage) -> None:
    staff.change_user(log, "S2", active=False, supervisor_id="S1", supervisor_pin=PIN)
    with pytest.raises(AccessError, match="S2 is disabled: void refused"):
        corrections.void(log, 5, reason="r", supervisor_id="S2", pin="harbor-1357")
    refused = log.records(RecordFilter(kind="access-denied"))[-1]
    assert (refused.user_id, refused.result["target"]) == (guesser(log), "S2")


def test_no_supervisor_id(log: Storage) -> None:
    with pytest.raises(AccessError, match="void needs a supervisor id and PIN"):
        corrections.void(log, 5, reason="r", supervisor_id="", pin=PIN)


def test_authenticate_success_writes_nothing(log: Storage) -> None:
    before = log.head()
    user = authenticate(log, "S1", PIN, "void")
    assert (user.user_id, user.role, user.active) == ("S1", "supervisor", True)
    assert log.head() == before


def test_change_pin(log: Storage) -> None:
    staff.change_user(
        log, "S2", pin="copper-8642", supervisor_id="S2", supervisor_pin="harbor-1357"
    )
    with pytest.raises(AccessError, match="wrong PIN"):
        authenticate(log, "S2", "harbor-1357", "void")
    assert authenticate(log, "S2", "copper-8642", "void").user_id == "S2"
    change = log.records(RecordFilter(kind="user"))[-1]
    assert change.action == "change" and change.explanation == (
        "S2 changed S2: supervisor",
        "PIN set (a new signing key)",
    )


def test_promote_and_demote(log: Storage) -> None:
    with pytest.raises(AuditError, match="needs a new PIN to be a supervisor"):
        staff.change_user(log, "D1", role="supervisor", supervisor_id="S1", supervisor_pin=PIN)
    staff.change_user(
        log, "D1", role="supervisor", pin="tundra-5555", supervisor_id="S1", supervisor_pin=PIN
    )
    assert authenticate(log, "D1", "tundra-5555", "void").role == "supervisor"
    staff.change_user(log, "D1", role="dealer", supervisor_id="S1", supervisor_pin=PIN)
    with pytest.raises(AccessError, match="D1 is a dealer"):
        authenticate(log, "D1", "tundra-5555", "void")


def test_last_supervisor_kept(log: Storage) -> None:
    staff.change_user(log, "S2", active=False, supervisor_id="S1", supervisor_pin=PIN)
    with pytest.raises(AuditError, match="S1 is the last active supervisor"):
        staff.change_user(log, "S1", active=False, supervisor_id="S1", supervisor_pin=PIN)
    with pytest.raises(AuditError, match="S1 is the last active supervisor"):
        staff.change_user(log, "S1", role="dealer", supervisor_id="S1", supervisor_pin=PIN)
    assert users.user(log, "S1") is not None and users.user(log, "S1").active  # type: ignore[union-attr]


def test_change_user_refusals(log: Storage) -> None:
    with pytest.raises(AuditError, match="nothing to change"):
        staff.change_user(log, "D1", supervisor_id="S1", supervisor_pin=PIN)
    with pytest.raises(AuditError, match="there is no user D7"):
        staff.change_user(log, "D7", active=False, supervisor_id="S1", supervisor_pin=PIN)


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        (
            ruling("D9", "supervisor"),
            "D9 is not a registered supervisor: unregistered ids act as dealers",
        ),
        (ruling("D1", "supervisor"), "D1 is registered as a dealer, not a supervisor"),
        (ruling("S1", "dealer"), "S1 is registered as a supervisor, not a dealer"),
        (
            ruling("A1", "auditor"),
            "A1 is an auditor: auditors read the record and take checkpoints only",
        ),
    ],
)
def test_who_may_append(log: Storage, entry: Entry, message: str) -> None:
    before = log.head()
    with pytest.raises(AccessError, match=message):
        entries.append(log, entry)
    assert log.head() == before


def test_who_may_append_allowed(log: Storage) -> None:
    assert entries.append(log, ruling("D9", "dealer")) > 0  # never registered: a dealer
    assert entries.append(log, ruling("S1", "supervisor")) > 0
    staff.add_user(log, "A2", "auditor", pin="meadow-9753", supervisor_id="S1", supervisor_pin=PIN)
    assert entries.checkpoint(log, "A2", "meadow-9753").records == log.head().records
    assert entries.get(log, log.head().records).role == "auditor"


def test_disabled_dealer_may_not_rule(log: Storage) -> None:
    staff.change_user(log, "D1", active=False, supervisor_id="S1", supervisor_pin=PIN)
    with pytest.raises(AccessError, match="D1 is disabled"):
        entries.append(log, ruling())
    staff.change_user(log, "D1", active=True, supervisor_id="S1", supervisor_pin=PIN)
    assert entries.append(log, ruling()) > 0
