"""Disputes: opening, resolving with a second reviewer, listing the open ones."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from dealer.audit import disputes, entries, open_log, staff
from dealer.audit.records import Entry
from dealer.audit.storage import Storage
from dealer.audit.verify import verify
from dealer.kernel.errors import AccessError, AuditError

PIN = "2468"


@pytest.fixture
def log(tmp_path: Path) -> Iterator[Storage]:
    with open_log(tmp_path / "a.sqlite") as opened:
        staff.add_user(opened, "S1", "supervisor", pin=PIN)
        staff.add_user(
            opened, "S2", "supervisor", pin="1357", supervisor_id="S1", supervisor_pin=PIN
        )
        staff.add_user(opened, "A1", "auditor", supervisor_id="S1", supervisor_pin=PIN)
        staff.add_user(opened, "D2", "dealer", supervisor_id="S1", supervisor_pin=PIN)
        for seat in (1, 2):
            entries.append(
                opened,
                Entry(
                    kind="ruling",
                    user_id="D1",
                    role="dealer",
                    table_id="PG-1",
                    seat=seat,
                    game="paigow",
                    action="settle",
                ),
            )
        yield opened


def open_one(log: Storage, table_id: str = "PG-1", **extra: object) -> int:
    fields: dict[str, object] = dict(
        user_id="D1",
        table_id=table_id,
        seat=2,
        description="patron says the low hand was set wrong",
        occurred_at="2026-05-09T14:05:00.000000Z",
        parties=["patron seat 2", "D1"],
        video="camera 12, 14:04-14:07",
        rulings=[6],
    )
    fields.update(extra)
    return disputes.open_dispute(log, **fields)  # type: ignore[arg-type]


def test_open_dispute_record(log: Storage) -> None:
    dispute_id = open_one(log)
    record = entries.get(log, dispute_id)
    assert (record.kind, record.action, record.table_id, record.seat, record.links_to) == (
        "dispute",
        "open",
        "PG-1",
        2,
        6,
    )
    assert record.result == {
        "occurred_at": "2026-05-09T14:05:00.000000Z",
        "parties": ["patron seat 2", "D1"],
        "video": "camera 12, 14:04-14:07",
        "rulings": [6],
        "description": "patron says the low hand was set wrong",
    }
    assert record.explanation[0] == (
        "Dispute at table PG-1 seat 2, 2026-05-09T14:05:00.000000Z: "
        "patron says the low hand was set wrong"
    )
    dispute = disputes.dispute(log, dispute_id)
    assert dispute.is_open and dispute.opened_by == "D1" and dispute.rulings == (6,)
    assert dispute.to_dict()["open"] is True and dispute.to_dict()["resolution"] is None


def test_open_dispute_defaults_to_now(log: Storage) -> None:
    dispute = disputes.dispute(
        log, disputes.open_dispute(log, user_id="S1", table_id="PG-1", description="chip count")
    )
    assert dispute.occurred_at <= entries.get(log, dispute.id).recorded_at
    assert (dispute.seat, dispute.parties, dispute.video, dispute.rulings) == (None, (), "", ())


@pytest.mark.parametrize(
    ("extra", "error", "message"),
    [
        ({"table_id": ""}, AuditError, "needs the table"),
        ({"description": "  "}, AuditError, "needs a description"),
        ({"rulings": [99]}, AuditError, "no audit record 99 to dispute"),
        ({"user_id": "A1"}, AccessError, "auditors read the record"),
    ],
)
def test_open_dispute_refusals(
    log: Storage, extra: dict[str, object], error: type[Exception], message: str
) -> None:
    before = log.head()
    with pytest.raises(error, match=message):
        open_one(log, **extra)
    assert log.head() == before


def test_resolve(log: Storage) -> None:
    dispute_id = open_one(log)
    resolution_id = disputes.resolve_dispute(
        log,
        dispute_id,
        outcome="dealer-error",
        amount_adjusted="25.50",
        second_reviewer="S2",
        reason="video shows the 9-high low",
        supervisor_id="S1",
        pin=PIN,
    )
    record = entries.get(log, resolution_id)
    assert (record.kind, record.action, record.user_id, record.links_to, record.seat) == (
        "dispute-resolution",
        "dealer-error",
        "S1",
        dispute_id,
        2,
    )
    assert record.result == {
        "dispute": dispute_id,
        "outcome": "dealer-error",
        "amount_adjusted": "25.50",
        "second_reviewer": "S2",
    }
    resolution = disputes.dispute(log, dispute_id).resolution
    assert resolution is not None
    assert (
        resolution.outcome,
        resolution.amount_adjusted,
        resolution.second_reviewer,
        resolution.supervisor_id,
    ) == (
        "dealer-error",
        "25.50",
        "S2",
        "S1",
    )
    assert not disputes.dispute(log, dispute_id).is_open
    assert verify(log).ok


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        (
            {"outcome": "house-error"},
            "outcome 'house-error' is not one of no-error, patron-error, dealer-error",
        ),
        ({"second_reviewer": "S1"}, "someone other than the resolving supervisor"),
        (
            {"second_reviewer": "D2"},
            "second reviewer D2 must be an active registered supervisor or auditor",
        ),
        ({"second_reviewer": "Z1"}, "second reviewer Z1 must be"),
        ({"reason": ""}, "needs a reason"),
        ({"amount_adjusted": "ten"}, "amount adjusted must be a number"),
    ],
)
def test_resolve_refusals(log: Storage, changes: dict[str, object], message: str) -> None:
    dispute_id = open_one(log)
    fields: dict[str, object] = dict(
        outcome="patron-error",
        amount_adjusted=0,
        second_reviewer="A1",
        reason="r",
        supervisor_id="S1",
        pin=PIN,
    )
    fields.update(changes)
    before = log.head()
    with pytest.raises(AuditError, match=message):
        disputes.resolve_dispute(log, dispute_id, **fields)  # type: ignore[arg-type]
    assert log.head() == before


def test_resolve_only_disputes_once(log: Storage) -> None:
    dispute_id = open_one(log)
    args = dict(
        outcome="no-error",
        amount_adjusted=0,
        second_reviewer="A1",
        reason="r",
        supervisor_id="S1",
        pin=PIN,
    )
    disputes.resolve_dispute(log, dispute_id, **args)  # type: ignore[arg-type]
    with pytest.raises(AuditError, match=f"dispute {dispute_id} is already resolved"):
        disputes.resolve_dispute(log, dispute_id, **args)  # type: ignore[arg-type]
    with pytest.raises(AuditError, match="there is no dispute 5"):
        disputes.resolve_dispute(log, 5, **args)  # type: ignore[arg-type]
    with pytest.raises(AuditError, match="there is no dispute 5"):
        disputes.dispute(log, 5)


def test_open_disputes_listed(log: Storage) -> None:
    first = open_one(log)
    second = open_one(log, table_id="PG-2")
    third = open_one(log)
    disputes.resolve_dispute(
        log,
        second,
        outcome="no-error",
        amount_adjusted=0,
        second_reviewer="A1",
        reason="r",
        supervisor_id="S1",
        pin=PIN,
    )
    assert [d.id for d in disputes.open_disputes(log)] == [first, third]
    assert [d.id for d in disputes.open_disputes(log, "PG-2")] == []
    assert [d.id for d in disputes.disputes(log)] == [first, second, third]
    assert [d.id for d in disputes.disputes(log, table_id="PG-2")] == [second]
