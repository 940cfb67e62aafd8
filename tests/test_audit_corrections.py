"""Overrides and voids: new records linked to the ruling, never edits."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from dealer.audit import corrections, entries, open_log, staff
from dealer.audit.records import Entry
from dealer.audit.storage import Storage
from dealer.kernel.errors import AuditError

PIN = "lantern-2468"


@pytest.fixture
def log(log_at: Path | str) -> Iterator[Storage]:
    with open_log(log_at) as opened:
        staff.add_user(opened, "S1", "supervisor", pin=PIN)  # record 1
        entries.append(
            opened,  # record 2
            Entry(
                kind="ruling",
                user_id="D1",
                role="dealer",
                table_id="PG-1",
                seat=4,
                game="paigow",
                action="set",
                cards=["As", "Ks"],
                result={"high": ["As"]},
                settings={"house_way": "foxwoods"},
            ),
        )
        yield opened


def test_override_links_and_keeps_the_ruling(log: Storage) -> None:
    original = entries.get(log, 2)
    override_id = corrections.override(
        log,
        2,
        decision="set the pair low",
        reason="patron's request under house rule 4",
        supervisor_id="S1",
        pin=PIN,
        result={"low": ["As", "Ks"]},
    )
    made = entries.get(log, override_id)
    assert (made.kind, made.links_to, made.user_id, made.role, made.table_id, made.seat) == (
        "override",
        2,
        "S1",
        "supervisor",
        "PG-1",
        4,
    )
    assert made.result == {
        "overrides": 2,
        "decision": "set the pair low",
        "result": {"low": ["As", "Ks"]},
    }
    settings = dict(made.settings)
    assert set(settings.pop("signature")) == {"v", "key", "nonce", "signed_at", "value"}
    assert settings == {"house_way": "foxwoods"} and made.cards == ("As", "Ks")
    assert made.reason == "patron's request under house rule 4"
    assert entries.get(log, 2) == original
    assert [r.id for r in entries.links(log, 2)] == [override_id]


def test_void(log: Storage) -> None:
    void_id = corrections.void(log, 2, reason="  misdeal ", supervisor_id="S1", pin=PIN)
    made = entries.get(log, void_id)
    assert (made.kind, made.links_to, made.result, made.reason) == (
        "void",
        2,
        {"voids": 2},
        "misdeal",
    )
    assert made.explanation == ("Ruling 2 voided by supervisor S1", "Reason: misdeal")
    with pytest.raises(AuditError, match=f"record 2 was already voided by record {void_id}"):
        corrections.void(log, 2, reason="again", supervisor_id="S1", pin=PIN)
    with pytest.raises(AuditError, match="already voided"):
        corrections.override(log, 2, decision="x", reason="y", supervisor_id="S1", pin=PIN)


def test_void_an_override(log: Storage) -> None:
    override_id = corrections.override(
        log, 2, decision="push", reason="r", supervisor_id="S1", pin=PIN
    )
    void_id = corrections.void(log, override_id, reason="wrong call", supervisor_id="S1", pin=PIN)
    assert (
        entries.get(log, void_id).explanation[0]
        == f"Override {override_id} voided by supervisor S1"
    )


@pytest.mark.parametrize(
    ("target", "reason", "decision", "message"),
    [
        (9, "r", "d", "no audit record 9 to override"),
        (1, "r", "d", "record 1 is a user: only a ruling can be overridden"),
        (2, " ", "d", "an override needs a reason"),
        (2, "r", "", "needs the supervisor's decision"),
    ],
)
def test_override_refusals(
    log: Storage, target: int, reason: str, decision: str, message: str
) -> None:
    before = log.head()
    with pytest.raises(AuditError, match=message):
        corrections.override(
            log, target, decision=decision, reason=reason, supervisor_id="S1", pin=PIN
        )
    assert log.head() == before


@pytest.mark.parametrize(
    ("target", "reason", "message"),
    [
        (9, "r", "no audit record 9 to void"),
        (1, "r", "record 1 is a user: only a ruling or override can be voided"),
        (2, "", "a void needs a reason"),
    ],
)
def test_void_refusals(log: Storage, target: int, reason: str, message: str) -> None:
    with pytest.raises(AuditError, match=message):
        corrections.void(log, target, reason=reason, supervisor_id="S1", pin=PIN)
