"""Disputes: opened by anyone at the table, resolved by a supervisor with a second reviewer.

A dispute is a `dispute` record (table, seat, when it happened, the parties, a camera or video
reference, the rulings in question); its resolution is a `dispute-resolution` record linked to
it: the outcome (`no-error`, `patron-error`, `dealer-error`), the amount adjusted and the second
reviewer. Neither is ever edited; a dispute without a resolution is open.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from dealer.audit import users
from dealer.audit.records import AUDITOR, DISPUTE, DISPUTE_RESOLUTION, SUPERVISOR, Entry, Record
from dealer.kernel.errors import AuditError

if TYPE_CHECKING:
    from sqlite_utils import Database

    from dealer.audit.log import Transaction

OUTCOMES = ("no-error", "patron-error", "dealer-error")


@dataclass(frozen=True)
class Resolution:
    """How a dispute ended."""

    record_id: int
    resolved_at: str
    supervisor_id: str
    outcome: str
    amount_adjusted: str
    second_reviewer: str
    reason: str

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready."""
        return dict(self.__dict__)


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


def open_dispute(
    tx: Transaction,
    *,
    user_id: str,
    role: str,
    table_id: str,
    description: str,
    seat: int | None,
    occurred_at: str,
    parties: Sequence[str],
    video: str,
    rulings: Sequence[int],
) -> int:
    """Record a new dispute; return its id."""
    if not table_id:
        raise AuditError("a dispute needs the table it happened at")
    if not description.strip():
        raise AuditError("a dispute needs a description of what is disputed")
    for ruling_id in rulings:
        if tx.record(ruling_id) is None:
            raise AuditError(f"there is no audit record {ruling_id} to dispute")
    where = f"table {table_id}" + (f" seat {seat}" if seat is not None else "")
    lines = [f"Dispute at {where}, {occurred_at}: {description}"]
    if parties:
        lines.append(f"Parties: {', '.join(parties)}")
    if video:
        lines.append(f"Video: {video}")
    if rulings:
        lines.append(f"Rulings in question: {', '.join(str(r) for r in rulings)}")
    return tx.append(
        Entry(
            kind=DISPUTE,
            user_id=user_id,
            role=role,
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
    )


def resolve_dispute(
    tx: Transaction,
    supervisor: users.User,
    dispute_id: int,
    outcome: str,
    amount: Decimal,
    second_reviewer: str,
    reason: str,
) -> int:
    """Record the resolution of open dispute `dispute_id`; return its id."""
    if outcome not in OUTCOMES:
        raise AuditError(f"outcome {outcome!r} is not one of {', '.join(OUTCOMES)}")
    if not reason.strip():
        raise AuditError("a dispute resolution needs a reason")
    opened = tx.record(dispute_id)
    if opened is None or opened.kind != DISPUTE:
        raise AuditError(f"there is no dispute {dispute_id}")
    if tx.linked(dispute_id, DISPUTE_RESOLUTION):
        raise AuditError(f"dispute {dispute_id} is already resolved")
    if second_reviewer == supervisor.user_id:
        raise AuditError("the second reviewer must be someone other than the resolving supervisor")
    reviewer = users.current_row(tx.db, second_reviewer)
    if (
        reviewer is None
        or not reviewer.user.active
        or reviewer.user.role
        not in (
            SUPERVISOR,
            AUDITOR,
        )
    ):
        raise AuditError(
            f"second reviewer {second_reviewer} must be an active registered supervisor or auditor"
        )
    return tx.write(
        Entry(
            kind=DISPUTE_RESOLUTION,
            user_id=supervisor.user_id,
            role=SUPERVISOR,
            table_id=opened.table_id,
            seat=opened.seat,
            action=outcome,
            result={
                "dispute": dispute_id,
                "outcome": outcome,
                "amount_adjusted": str(amount),
                "second_reviewer": second_reviewer,
            },
            explanation=[
                f"Dispute {dispute_id} resolved by {supervisor.user_id}: {outcome}, "
                f"amount adjusted {amount}, second reviewer {second_reviewer}",
                reason,
            ],
            links_to=dispute_id,
            reason=reason,
        )
    )


def _dispute(opened: Record, resolved: Record | None) -> Dispute:
    facts = opened.result
    resolution = None
    if resolved is not None:
        resolution = Resolution(
            record_id=resolved.id,
            resolved_at=resolved.recorded_at,
            supervisor_id=resolved.user_id,
            outcome=resolved.result.get("outcome", ""),
            amount_adjusted=resolved.result.get("amount_adjusted", ""),
            second_reviewer=resolved.result.get("second_reviewer", ""),
            reason=resolved.reason or "",
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


def list_disputes(db: Database, *, open_only: bool, table_id: str | None) -> list[Dispute]:
    """Disputes oldest first, with resolutions; only unresolved ones with `open_only`."""
    where = "d.kind = ?"
    params: list[Any] = [DISPUTE_RESOLUTION, DISPUTE]
    if table_id is not None:
        where += " AND d.table_id = ?"
        params.append(table_id)
    rows = db.query(
        "SELECT d.id AS dispute_id, r.id AS resolution_id FROM records d "
        "LEFT JOIN records r ON r.links_to = d.id AND r.kind = ? "
        f"WHERE {where} ORDER BY d.id",
        params,
    )
    found = []
    for row in list(rows):
        if open_only and row["resolution_id"] is not None:
            continue
        found.append(_load(db, row["dispute_id"], row["resolution_id"]))
    return found


def load_dispute(db: Database, dispute_id: int) -> Dispute:
    """Dispute `dispute_id`; AuditError if there is none."""
    row = db.execute(
        "SELECT d.kind, (SELECT MIN(r.id) FROM records r WHERE r.links_to = d.id AND r.kind = ?) "
        "FROM records d WHERE d.id = ?",
        [DISPUTE_RESOLUTION, dispute_id],
    ).fetchone()
    if row is None or row[0] != DISPUTE:
        raise AuditError(f"there is no dispute {dispute_id}")
    return _load(db, dispute_id, row[1])


def _load(db: Database, dispute_id: int, resolution_id: int | None) -> Dispute:
    def record(record_id: int) -> Record:
        return Record.from_row(next(db.query("SELECT * FROM records WHERE id = ?", [record_id])))

    resolved = record(resolution_id) if resolution_id is not None else None
    return _dispute(record(dispute_id), resolved)
