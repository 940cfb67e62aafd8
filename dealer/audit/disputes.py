"""Disputes: opened by anyone at the table, resolved by a supervisor with a second reviewer.

A dispute is a `dispute` record (table, seat, when it happened, the parties, a camera or video
reference, the rulings in question); its resolution is a `dispute-resolution` record linked to
it: the outcome (`no-error`, `patron-error`, `dealer-error`), the amount adjusted and the second
reviewer. Neither is ever edited; a dispute without a resolution is open.

The second reviewer confirms with their own PIN: they must be another registered, active
supervisor, authenticated through `authority.countersigner` (a wrong PIN is refused and
recorded like any supervisor's), before the resolving supervisor's own check and work; under
the write lock the reviewer's standing is read again, and the record is countersigned with the
key their PIN opened (`settings.countersignature`, which verify checks) and signed by the
resolving supervisor. An auditor reads the record but never approves
money moving, so an auditor is no second reviewer.

The amount adjusted is whole cents, + paid to the patron or − taken back, at most
`AMOUNT_LIMIT` either way. A wrong amount is corrected by a `dispute-correction` record linked
to the dispute (a supervisor action with a second reviewer, as the resolution is): the dispute
then reads the newest corrected amount, and every correction stays on the record.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from dealer.audit import users
from dealer.audit.authority import (
    Countersigner,
    append_countersigned,
    countersigner,
    supervised,
)
from dealer.audit.chain import future_limit
from dealer.audit.entries import first_link
from dealer.audit.records import (
    Entry,
    Record,
    RecordFilter,
    RecordKind,
    Role,
    amount,
    supervisor_entry,
    utc_now,
)
from dealer.kernel.errors import AuditError
from dealer.kernel.money import fmt_money, money_json, whole_cents
from dealer.kernel.tuples import NamedTuple

if TYPE_CHECKING:
    from dealer.audit.storage import Reads, Storage, WriteTransaction


class DisputeOutcome(StrEnum):
    """How a dispute ends: the `outcome` of its resolution (and that record's action)."""

    NO_ERROR = "no-error"
    PATRON_ERROR = "patron-error"
    DEALER_ERROR = "dealer-error"


AMOUNT_LIMIT = Decimal(10_000_000)
"""The most a dispute's amount adjusted may be, paid or taken back ($10,000,000): ten times the
largest meter cap a table profile may set, more than a table pays in any round, so what it
refuses is a slip of the keyboard."""


def check_amount(value: Decimal | int | float | str) -> Decimal:
    """The amount adjusted of a dispute: whole cents, + paid to the patron or − taken back, at
    most `AMOUNT_LIMIT` either way; AuditError otherwise."""
    adjusted = amount(value, "the amount adjusted")
    if not whole_cents(adjusted):
        raise AuditError(f"the amount adjusted {value!r} has fractions of a cent")
    if abs(adjusted) > AMOUNT_LIMIT:
        raise AuditError(
            f"the amount adjusted {fmt_money(adjusted, signed=True)} is more than "
            f"{fmt_money(AMOUNT_LIMIT)}, the most a dispute adjusts either way"
        )
    return adjusted


@dataclass(frozen=True)
class AmountCorrection:
    """A correction of a resolved dispute's amount: its record, who made it, the amount before
    and after, the second reviewer and why."""

    record_id: int
    corrected_at: str
    supervisor_id: str
    previous: str
    amount_adjusted: str
    second_reviewer: str
    reason: str

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: the amounts as JSON numbers, as every amount in JSON is."""
        return dict(self.__dict__) | {
            "previous": _amount_json(self.previous),
            "amount_adjusted": _amount_json(self.amount_adjusted),
        }


@dataclass(frozen=True)
class Resolution:
    """How a dispute ended: `amount_adjusted` is the amount as it stands (the newest
    correction's, else the resolution's), `corrections` how it came to be, oldest first."""

    record_id: int
    resolved_at: str
    supervisor_id: str
    outcome: str
    amount_adjusted: str
    second_reviewer: str
    reason: str
    corrections: tuple[AmountCorrection, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: the amount as a JSON number, as every amount in JSON is."""
        return dict(self.__dict__) | {
            "amount_adjusted": _amount_json(self.amount_adjusted),
            "corrections": [c.to_dict() for c in self.corrections],
        }


def _amount_json(stored: str) -> int | float | None:
    """A stored amount (text of a Decimal) as JSON; None where none was stored."""
    return money_json(Decimal(stored)) if stored else None


@dataclass(frozen=True)
class Dispute:
    """A dispute as opened, with its resolution once there is one."""

    id: int
    opened_at: str
    opened_by: str
    table_id: str
    seat: int | None
    occurred_at: str
    parties: tuple[str, ...]
    video: str
    rulings: tuple[int, ...]
    description: str
    resolution: Resolution | None

    @property
    def is_open(self) -> bool:
        """True until it is resolved."""
        return self.resolution is None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready."""
        return {
            "id": self.id,
            "opened_at": self.opened_at,
            "opened_by": self.opened_by,
            "table_id": self.table_id,
            "seat": self.seat,
            "occurred_at": self.occurred_at,
            "parties": list(self.parties),
            "video": self.video,
            "rulings": list(self.rulings),
            "description": self.description,
            "open": self.is_open,
            "resolution": self.resolution.to_dict() if self.resolution else None,
        }


DISPUTABLE = (RecordKind.RULING, RecordKind.OVERRIDE)
"""The records a dispute may name: what decided a pay (a ruling, an override's decision)."""


def open_dispute(
    storage: Storage,
    *,
    user_id: str,
    table_id: str,
    description: str,
    seat: int | None = None,
    occurred_at: str | None = None,
    parties: Sequence[str] = (),
    video: str = "",
    rulings: Sequence[int] = (),
) -> int:
    """Open a dispute (any dealer or supervisor may); return its id. `occurred_at` is the
    stored UTC form, default now; never later than the clock's `chain.FUTURE_TOLERANCE`."""
    if not table_id:
        raise AuditError("a dispute needs the table it happened at")
    if not description.strip():
        raise AuditError("a dispute needs a description of what is disputed")
    now = utc_now()
    occurred_at = occurred_at or now
    if occurred_at > future_limit(now):
        raise AuditError(
            f"a dispute is of something that happened: {occurred_at} is after this clock's "
            f"time ({now})"
        )
    where = f"table {table_id}" + (f" seat {seat}" if seat is not None else "")
    lines = [f"Dispute at {where}, {occurred_at}: {description}"]
    if parties:
        lines.append(f"Parties: {', '.join(parties)}")
    if video:
        lines.append(f"Video: {video}")
    if rulings:
        lines.append(f"Rulings in question: {', '.join(str(r) for r in rulings)}")
    entry = Entry(
        kind=RecordKind.DISPUTE,
        user_id=user_id,
        role=users.role_of(storage, user_id),
        table_id=table_id,
        seat=seat,
        action="open",
        input_text=description,
        result={
            "occurred_at": occurred_at,
            "parties": list(parties),
            "video": video,
            "rulings": list(rulings),
            "description": description,
        },
        explanation=lines,
        links_to=rulings[0] if rulings else None,
    )
    with storage.transaction() as tx:
        for ruling_id in rulings:
            found = tx.record(ruling_id)
            if found is None:
                raise AuditError(f"there is no audit record {ruling_id} to dispute")
            if found.kind not in DISPUTABLE:
                raise AuditError(
                    f"record {ruling_id} is a {found.kind} record, not a ruling: a dispute names "
                    "the rulings in question (or the overrides that replaced them)"
                )
        return users.append_checked(tx, entry)


class Review(NamedTuple):
    """Who decides on a dispute and why: the supervisor and a second reviewer, each with their
    own PIN, and the reason. Built once where it is typed and passed whole to a reviewed
    decision (`resolve_dispute`, `correct_amount`)."""

    supervisor_id: str
    pin: str
    second_reviewer: str
    reviewer_pin: str
    reason: str


def resolve_dispute(
    storage: Storage,
    dispute_id: int,
    *,
    outcome: str,
    amount_adjusted: Decimal | int | float | str,
    review: Review,
) -> int:
    """Resolve open dispute `dispute_id`: a `DisputeOutcome`, the amount adjusted (+ paid to
    the patron, − taken back), and the `review` (a second reviewer: another registered, active
    supervisor, with their PIN). Returns the resolution's id."""
    adjusted = check_amount(amount_adjusted)

    def resolution(tx: WriteTransaction, supervisor: users.User) -> Entry:
        if outcome not in tuple(DisputeOutcome):
            raise AuditError(f"outcome {outcome!r} is not one of {', '.join(DisputeOutcome)}")
        if not review.reason.strip():
            raise AuditError("a dispute resolution needs a reason")
        opened = _opened(tx, dispute_id)
        if first_link(tx, dispute_id, RecordKind.DISPUTE_RESOLUTION) is not None:
            raise AuditError(f"dispute {dispute_id} is already resolved")
        return _reviewed_entry(
            RecordKind.DISPUTE_RESOLUTION,
            outcome,
            supervisor,
            opened,
            {"outcome": outcome},
            f"Dispute {dispute_id} resolved by {supervisor.user_id}: {outcome}, "
            f"amount adjusted {fmt_money(adjusted, signed=True)}",
            adjusted,
            review,
        )

    return _reviewed(storage, resolution, review, doing="resolving", action="dispute-resolve")


def correct_amount(
    storage: Storage,
    dispute_id: int,
    *,
    amount_adjusted: Decimal | int | float | str,
    review: Review,
) -> int:
    """Correct the amount adjusted of resolved dispute `dispute_id`: a `dispute-correction`
    record linked to the dispute (the resolution stays as it was), with the `review` (a second
    reviewer: another registered, active supervisor, with their PIN). Returns the
    correction's id."""
    adjusted = check_amount(amount_adjusted)

    def correction(tx: WriteTransaction, supervisor: users.User) -> Entry:
        if not review.reason.strip():
            raise AuditError("a correction of a dispute's amount needs a reason")
        opened = _opened(tx, dispute_id)
        resolution = dispute(tx, dispute_id).resolution
        if resolution is None:
            raise AuditError(
                f"dispute {dispute_id} is open: its amount is given when it is resolved"
            )
        previous = resolution.amount_adjusted
        if Decimal(previous) == adjusted:
            raise AuditError(
                f"the amount adjusted of dispute {dispute_id} is already "
                f"{fmt_money(adjusted, signed=True)}"
            )
        return _reviewed_entry(
            RecordKind.DISPUTE_CORRECTION,
            "amount",
            supervisor,
            opened,
            {"resolution": resolution.record_id, "previous": previous},
            f"Dispute {dispute_id}: amount adjusted corrected by {supervisor.user_id} from "
            f"{fmt_money(Decimal(previous), signed=True)} to {fmt_money(adjusted, signed=True)}",
            adjusted,
            review,
        )

    return _reviewed(storage, correction, review, doing="correcting", action="dispute-correct")


def _reviewed(
    storage: Storage,
    entry: Callable[[WriteTransaction, users.User], Entry],
    review: Review,
    *,
    doing: str,
    action: str,
) -> int:
    """A supervisor's record about a dispute that a second reviewer confirms (a resolution, a
    correction): the reviewer authenticated first (`_review`), then, under the supervisor's
    authority and the write lock, `entry` checks the dispute and makes the record, the reviewer
    is checked to be another active supervisor (`_check_reviewer`), and it is appended,
    countersigned by the reviewer and signed by the supervisor."""
    reviewer = _review(storage, review, doing)

    def write(tx: WriteTransaction, supervisor: users.User) -> int:
        made = entry(tx, supervisor)
        _check_reviewer(tx, supervisor, review.second_reviewer, doing)
        return append_countersigned(tx, made, reviewer, "second_reviewer")

    return supervised(storage, review.supervisor_id, review.pin, action, write)


def _reviewed_entry(
    kind: RecordKind,
    action: str,
    supervisor: users.User,
    opened: Record,
    facts: dict[str, Any],
    said: str,
    adjusted: Decimal,
    review: Review,
) -> Entry:
    """The record of a reviewed decision on dispute `opened`, at its table and seat, linked to
    it: its `facts` with the dispute, the amount adjusted and the second reviewer; what it
    `said` and the review's reason as its explanation."""
    return supervisor_entry(
        opened,
        kind,
        supervisor.user_id,
        action=action,
        result={
            "dispute": opened.id,
            **facts,
            "amount_adjusted": str(adjusted),
            "second_reviewer": review.second_reviewer,
        },
        explanation=[f"{said}, second reviewer {review.second_reviewer}", review.reason],
        reason=review.reason,
    )


def _opened(reads: Reads, dispute_id: int) -> Record:
    opened = reads.record(dispute_id)
    if opened is None or opened.kind != RecordKind.DISPUTE:
        raise AuditError(f"there is no dispute {dispute_id}")
    return opened


def _review(storage: Storage, review: Review, doing: str) -> Countersigner:
    """The second reviewer's confirmation: someone other than the supervisor, authenticated
    with their own PIN as a supervisor (a registered user's refusal is recorded), with the key
    it opened to countersign the record."""
    if review.second_reviewer == review.supervisor_id:
        raise AuditError(f"the second reviewer must be someone other than the {doing} supervisor")
    return countersigner(
        storage, review.second_reviewer, review.reviewer_pin, f"second review of {doing} a dispute"
    )


def _check_reviewer(reads: Reads, supervisor: users.User, second_reviewer: str, doing: str) -> None:
    """AuditError unless `second_reviewer` is, under the write lock, another active registered
    supervisor (their PIN was checked by `_review`)."""
    if second_reviewer == supervisor.user_id:
        raise AuditError(f"the second reviewer must be someone other than the {doing} supervisor")
    reviewer = reads.user(second_reviewer)
    if reviewer is None or not reviewer.active or reviewer.role != Role.SUPERVISOR:
        raise AuditError(
            f"second reviewer {second_reviewer} must be an active registered supervisor"
        )


def _correction(record: Record) -> AmountCorrection:
    facts = record.result
    return AmountCorrection(
        record_id=record.id,
        corrected_at=record.recorded_at,
        supervisor_id=record.user_id,
        previous=facts.get("previous", ""),
        amount_adjusted=facts.get("amount_adjusted", ""),
        second_reviewer=facts.get("second_reviewer", ""),
        reason=record.reason or "",
    )


def _dispute(opened: Record, resolved: Record | None, corrected: Sequence[Record]) -> Dispute:
    facts = opened.result
    resolution = None
    if resolved is not None:
        corrections = tuple(_correction(record) for record in corrected)
        resolution = Resolution(
            record_id=resolved.id,
            resolved_at=resolved.recorded_at,
            supervisor_id=resolved.user_id,
            outcome=resolved.result.get("outcome", ""),
            amount_adjusted=(
                corrections[-1].amount_adjusted
                if corrections
                else resolved.result.get("amount_adjusted", "")
            ),
            second_reviewer=resolved.result.get("second_reviewer", ""),
            reason=resolved.reason or "",
            corrections=corrections,
        )
    return Dispute(
        id=opened.id,
        opened_at=opened.recorded_at,
        opened_by=opened.user_id,
        table_id=opened.table_id,
        seat=opened.seat,
        occurred_at=facts.get("occurred_at", ""),
        parties=tuple(facts.get("parties", ())),
        video=facts.get("video", ""),
        rulings=tuple(facts.get("rulings", ())),
        description=facts.get("description", ""),
        resolution=resolution,
    )


def disputes(
    reads: Reads, *, open_only: bool = False, table_id: str | None = None
) -> list[Dispute]:
    """Disputes, oldest first, with their resolutions; `open_only` for the unresolved ones
    (to read at shift start)."""
    resolutions: dict[int, Record] = {}
    for resolved in reads.records(RecordFilter(kind=RecordKind.DISPUTE_RESOLUTION)):
        if resolved.links_to is not None:
            resolutions.setdefault(resolved.links_to, resolved)
    corrections: dict[int, list[Record]] = {}
    if not open_only:
        for corrected in reads.records(RecordFilter(kind=RecordKind.DISPUTE_CORRECTION)):
            if corrected.links_to is not None:
                corrections.setdefault(corrected.links_to, []).append(corrected)
    found = []
    for opened in reads.records(RecordFilter(kind=RecordKind.DISPUTE, table_id=table_id)):
        resolution = resolutions.get(opened.id)
        if not (open_only and resolution is not None):
            found.append(_dispute(opened, resolution, corrections.get(opened.id, ())))
    return found


def open_disputes(reads: Reads, table_id: str | None = None) -> list[Dispute]:
    """The unresolved disputes (to list at shift start)."""
    return disputes(reads, open_only=True, table_id=table_id)


def dispute(reads: Reads, dispute_id: int) -> Dispute:
    """Dispute `dispute_id` with its resolution (and the corrections of its amount) if any;
    AuditError if there is none."""
    opened = _opened(reads, dispute_id)
    resolved = first_link(reads, dispute_id, RecordKind.DISPUTE_RESOLUTION)
    corrected = reads.records(RecordFilter(links_to=dispute_id, kind=RecordKind.DISPUTE_CORRECTION))
    return _dispute(opened, resolved, corrected)
