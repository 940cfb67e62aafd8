"""Disputes: opening, resolving with a second reviewer, bounded amounts and their corrections
(linked records), listing the open ones."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from decimal import Decimal
from pathlib import Path

import pytest

from dealer.audit import disputes, entries, open_log, staff
from dealer.audit.authority import guesser
from dealer.audit.disputes import Review
from dealer.audit.records import Entry
from dealer.audit.storage import Storage
from dealer.audit.verify import verify
from dealer.kernel.errors import AccessError, AuditError

PIN = "lantern-2468"
REVIEW = Review(
    supervisor_id="S1", pin=PIN, second_reviewer="S2", reviewer_pin="harbor-1357", reason="r"
)


def reviewed(fields: dict[str, object]) -> dict[str, object]:
    """`fields` with the review's own (supervisor, reviewer, their PINs, reason) as one
    `Review`, over `REVIEW`'s."""
    own = {name: value for name, value in fields.items() if name in Review._fields}
    rest = {name: value for name, value in fields.items() if name not in Review._fields}
    return rest | {"review": REVIEW._replace(**own)}


@pytest.fixture(scope="module")
def built(new_log: Callable[[], Path | str]) -> Path | str:
    """S1, S2, A1, D2 and two rulings, on each backend, built once for the tests to copy."""
    where = new_log()
    with open_log(where) as opened:
        staff.add_user(opened, "S1", "supervisor", pin=PIN)
        staff.add_user(
            opened, "S2", "supervisor", pin="harbor-1357", supervisor_id="S1", supervisor_pin=PIN
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
    return where


@pytest.fixture
def log(built: Path | str, copy_log: Callable[[Path | str], Path | str]) -> Iterator[Storage]:
    """A copy of the `built` log, open."""
    with open_log(copy_log(built)) as opened:
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
        ({"rulings": [1]}, AuditError, "record 1 is a user record, not a ruling: a dispute names"),
        (
            {"occurred_at": "9000-01-01T00:00:00.000000Z"},
            AuditError,
            "a dispute is of something that happened: 9000-01-01T00:00:00.000000Z is after",
        ),
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


def test_a_dispute_names_no_other_dispute(log: Storage) -> None:
    """A dispute of a dispute (or of any record that decided no pay) would show that record as
    the disputed ruling in the packet."""
    first = open_one(log)
    before = log.head()
    with pytest.raises(AuditError, match=f"record {first} is a dispute record, not a ruling"):
        open_one(log, rulings=[first])
    assert log.head() == before


def test_resolve(log: Storage) -> None:
    dispute_id = open_one(log)
    resolution_id = disputes.resolve_dispute(
        log,
        dispute_id,
        outcome="dealer-error",
        amount_adjusted="25.50",
        review=REVIEW._replace(reason="video shows the 9-high low"),
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
        ({"reason": ""}, "needs a reason"),
        ({"amount_adjusted": "ten"}, "amount adjusted must be a number"),
        ({"amount_adjusted": "Infinity"}, "amount adjusted must be a finite number"),
        ({"amount_adjusted": "25.001"}, "the amount adjusted '25.001' has fractions of a cent"),
        (
            {"amount_adjusted": Decimal("10000000.01")},
            r"the amount adjusted \+\$10,000,000.01 is more than \$10,000,000, the most a dispute "
            "adjusts either way",
        ),
        (
            {"amount_adjusted": Decimal("-1E+400")},
            r"the amount adjusted -\$1E\+400 is more than \$10,000,000",
        ),
    ],
)
def test_resolve_refusals(log: Storage, changes: dict[str, object], message: str) -> None:
    dispute_id = open_one(log)
    fields: dict[str, object] = dict(outcome="patron-error", amount_adjusted=0)
    fields.update(changes)
    before = log.head()
    with pytest.raises(AuditError, match=message):
        disputes.resolve_dispute(log, dispute_id, **reviewed(fields))  # type: ignore[arg-type]
    assert log.head() == before


def test_resolve_only_disputes_once(log: Storage) -> None:
    dispute_id = open_one(log)
    args = dict(outcome="no-error", amount_adjusted=0, review=REVIEW)
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
        review=REVIEW,
    )
    assert [d.id for d in disputes.open_disputes(log)] == [first, third]
    assert [d.id for d in disputes.open_disputes(log, "PG-2")] == []
    assert [d.id for d in disputes.disputes(log)] == [first, second, third]
    assert [d.id for d in disputes.disputes(log, table_id="PG-2")] == [second]


@pytest.mark.parametrize("adjusted", ["10000000", "-10000000", "0", "-0.01"])
def test_amounts_within_the_limit_either_way(log: Storage, adjusted: str) -> None:
    dispute_id = open_one(log)
    disputes.resolve_dispute(
        log,
        dispute_id,
        outcome="dealer-error",
        amount_adjusted=Decimal(adjusted),
        review=REVIEW,
    )
    resolution = disputes.dispute(log, dispute_id).resolution
    assert resolution is not None and resolution.amount_adjusted == adjusted


def resolved_one(log: Storage) -> int:
    dispute_id = open_one(log)
    disputes.resolve_dispute(
        log,
        dispute_id,
        outcome="dealer-error",
        amount_adjusted=Decimal("2500"),
        review=REVIEW._replace(reason="video shows the low hand"),
    )
    return dispute_id


def correct(log: Storage, dispute_id: int, **changes: object) -> int:
    fields: dict[str, object] = dict(
        amount_adjusted=Decimal("25"),
        second_reviewer="S1",
        reviewer_pin=PIN,
        reason="typed 2500 for 25",
        supervisor_id="S2",
        pin="harbor-1357",
    )
    fields.update(changes)
    return disputes.correct_amount(log, dispute_id, **reviewed(fields))  # type: ignore[arg-type]


def test_a_dispute_amount_is_corrected_by_a_linked_record(log: Storage) -> None:
    dispute_id = resolved_one(log)
    resolution_id = dispute_id + 1
    resolved_before = entries.get(log, resolution_id)
    first = correct(log, dispute_id)
    second = correct(log, dispute_id, amount_adjusted=Decimal("-12.50"), reason="paid twice")
    record = entries.get(log, first)
    assert (record.kind, record.action, record.user_id, record.role, record.links_to) == (
        "dispute-correction",
        "amount",
        "S2",
        "supervisor",
        dispute_id,
    )
    assert record.result == {
        "dispute": dispute_id,
        "resolution": resolution_id,
        "previous": "2500",
        "amount_adjusted": "25",
        "second_reviewer": "S1",
    }
    assert record.explanation == (
        f"Dispute {dispute_id}: amount adjusted corrected by S2 from +$2,500 to +$25, "
        "second reviewer S1",
        "typed 2500 for 25",
    )
    assert entries.get(log, resolution_id) == resolved_before  # never edited
    assert [r.id for r in entries.links(log, dispute_id)] == [resolution_id, first, second]
    resolution = disputes.dispute(log, dispute_id).resolution
    assert resolution is not None
    assert resolution.amount_adjusted == "-12.50"
    assert [
        (c.record_id, c.previous, c.amount_adjusted, c.reason) for c in resolution.corrections
    ] == [
        (first, "2500", "25", "typed 2500 for 25"),
        (second, "25", "-12.50", "paid twice"),
    ]
    listed = disputes.disputes(log)[0].to_dict()["resolution"]
    assert listed["amount_adjusted"] == -12.5
    assert [c["record_id"] for c in listed["corrections"]] == [first, second]
    assert verify(log).ok


@pytest.mark.parametrize(
    ("changes", "error", "message"),
    [
        ({"amount_adjusted": Decimal("2500")}, AuditError, r"is already \+\$2,500"),
        ({"amount_adjusted": "2.505"}, AuditError, "'2.505' has fractions of a cent"),
        ({"amount_adjusted": Decimal("2E+7")}, AuditError, "is more than \\$10,000,000"),
        ({"reason": " "}, AuditError, "a correction of a dispute's amount needs a reason"),
        ({"second_reviewer": "S2"}, AuditError, "someone other than the correcting supervisor"),
        ({"second_reviewer": "Z1"}, AccessError, "user Z1 is not a registered supervisor"),
        ({"supervisor_id": "sup-7"}, AccessError, "user sup-7 is not a registered supervisor"),
    ],
)
def test_correction_refusals_write_nothing(
    log: Storage, changes: dict[str, object], error: type[Exception], message: str
) -> None:
    dispute_id = resolved_one(log)
    before = log.head()
    with pytest.raises(error, match=message):
        correct(log, dispute_id, **changes)
    assert log.head() == before


def test_only_a_resolved_dispute_is_corrected(log: Storage) -> None:
    dispute_id = open_one(log)
    before = log.head()
    with pytest.raises(AuditError, match=f"dispute {dispute_id} is open: its amount is given"):
        correct(log, dispute_id)
    with pytest.raises(AuditError, match="there is no dispute 5"):
        correct(log, 5)
    assert log.head() == before


@pytest.mark.parametrize(
    ("reviewer", "reviewer_pin", "message"),
    [
        ("S2", "9999", "wrong PIN for S2: second review of resolving a dispute refused"),
        (
            "A1",
            "",
            "A1 is an auditor: second review of resolving a dispute needs a supervisor id and PIN",
        ),
        (
            "D2",
            "",
            "D2 is a dealer: second review of resolving a dispute needs a supervisor id and PIN",
        ),
    ],
)
def test_a_reviewer_who_cannot_confirm_is_refused_on_the_record(
    log: Storage, reviewer: str, reviewer_pin: str, message: str
) -> None:
    """The second reviewer authenticates as a supervisor: a registered user's refusal is an
    `access-denied` record naming them (in the name of who typed it), and the dispute stays
    open."""
    dispute_id = open_one(log)
    before = log.head().records or 0
    with pytest.raises(AccessError, match=message):
        disputes.resolve_dispute(
            log,
            dispute_id,
            outcome="no-error",
            amount_adjusted=0,
            review=REVIEW._replace(second_reviewer=reviewer, reviewer_pin=reviewer_pin),
        )
    denied = entries.get(log, before + 1)
    assert (denied.kind, denied.user_id, denied.action, denied.result["target"]) == (
        "access-denied",
        guesser(log),
        "second review of resolving a dispute",
        reviewer,
    )
    assert log.head().records == before + 1
    assert disputes.dispute(log, dispute_id).is_open
    assert verify(log).ok


def test_an_unregistered_reviewer_writes_nothing(log: Storage) -> None:
    dispute_id = open_one(log)
    before = log.head()
    with pytest.raises(AccessError, match="user Z1 is not a registered supervisor"):
        disputes.resolve_dispute(
            log,
            dispute_id,
            outcome="no-error",
            amount_adjusted=0,
            review=REVIEW._replace(second_reviewer="Z1"),
        )
    assert log.head() == before
