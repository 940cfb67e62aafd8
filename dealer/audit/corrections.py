"""Overrides and voids: a supervisor's correction is a new record linked to the ruling, never
an edit of it. An override states what the supervisor ruled instead; a void cancels a ruling
(or an override). A voided record cannot be overridden or voided again."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from dealer.audit.authority import supervised
from dealer.audit.entries import first_link
from dealer.audit.records import Record, RecordKind, supervisor_entry
from dealer.audit.users import User
from dealer.kernel.errors import AuditError

if TYPE_CHECKING:
    from dealer.audit.storage import Storage, WriteTransaction


def _target(
    tx: WriteTransaction, record_id: int, kinds: tuple[RecordKind, ...], doing: str, done: str
) -> Record:
    record = tx.record(record_id)
    if record is None:
        raise AuditError(f"there is no audit record {record_id} to {doing}")
    if record.kind not in kinds:
        raise AuditError(
            f"record {record_id} is a {record.kind}: only a {' or '.join(kinds)} can be {done}"
        )
    void = first_link(tx, record_id, RecordKind.VOID)
    if void is not None:
        raise AuditError(f"record {record_id} was already voided by record {void.id}")
    return record


def _reason(reason: str, doing: str) -> str:
    if not isinstance(reason, str) or not reason.strip():
        raise AuditError(f"{doing} needs a reason")
    return reason.strip()


def override(
    storage: Storage,
    record_id: int,
    *,
    decision: str,
    reason: str,
    supervisor_id: str,
    pin: str,
    result: Mapping[str, Any] | None = None,
) -> int:
    """Override ruling `record_id` with the supervisor's `decision` (a new record linked to
    it; the ruling itself stays as it was). Returns the override's id."""
    return supervised(
        storage,
        supervisor_id,
        pin,
        RecordKind.OVERRIDE,
        lambda tx, sup: _override(tx, sup, record_id, decision, reason, result),
    )


def void(storage: Storage, record_id: int, *, reason: str, supervisor_id: str, pin: str) -> int:
    """Void ruling (or override) `record_id`: a new record linked to it. Returns its id."""
    return supervised(
        storage,
        supervisor_id,
        pin,
        RecordKind.VOID,
        lambda tx, sup: _void(tx, sup, record_id, reason),
    )


def _override(
    tx: WriteTransaction,
    supervisor: User,
    record_id: int,
    decision: str,
    reason: str,
    result: Mapping[str, Any] | None,
) -> int:
    why = _reason(reason, "an override")
    if not isinstance(decision, str) or not decision.strip():
        raise AuditError("an override needs the supervisor's decision")
    ruling = _target(tx, record_id, (RecordKind.RULING,), "override", "overridden")
    return tx.append(
        supervisor_entry(
            ruling,
            RecordKind.OVERRIDE,
            supervisor.user_id,
            input_text=decision,
            cards=ruling.cards,
            result={"overrides": record_id, "decision": decision, "result": dict(result or {})},
            explanation=[
                f"Ruling {record_id} overridden by supervisor {supervisor.user_id}: {decision}",
                f"Reason: {why}",
            ],
            settings=ruling.settings,
            reason=why,
        )
    )


def _void(tx: WriteTransaction, supervisor: User, record_id: int, reason: str) -> int:
    why = _reason(reason, "a void")
    voided = _target(tx, record_id, (RecordKind.RULING, RecordKind.OVERRIDE), "void", "voided")
    return tx.append(
        supervisor_entry(
            voided,
            RecordKind.VOID,
            supervisor.user_id,
            result={"voids": record_id},
            explanation=[
                f"{voided.kind.capitalize()} {record_id} voided by supervisor {supervisor.user_id}",
                f"Reason: {why}",
            ],
            reason=why,
        )
    )
