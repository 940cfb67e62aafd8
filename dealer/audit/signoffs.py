"""Large-pay sign-off: a ruling whose result carries `signoff_required` (a seat paid more than
the table profile's `signoff_over`) awaits a supervisor's sign-off, a `signoff` record linked to
it, made through `authority.supervised` (so a refusal is recorded like every supervisor's).

Refused: a record that needs no sign-off, one already signed off (once is enough: the sign-off
names who and when), and a voided ruling (nothing of it is paid). An overridden ruling is
signed all the same: the large pay was ruled at the table, and the override beside it is a
supervisor's own act, reviewed where it is listed.
"""

from __future__ import annotations

from decimal import Decimal
from typing import TYPE_CHECKING, Any

from dealer.audit.authority import supervised
from dealer.audit.entries import first_link
from dealer.audit.records import Record, RecordKind, supervisor_entry
from dealer.audit.users import User
from dealer.kernel.errors import AuditError
from dealer.kernel.money import fmt_money

if TYPE_CHECKING:
    from dealer.audit.storage import Reads, Storage, WriteTransaction

AWAITING = "awaiting sign-off"


def required(record: Record) -> dict[str, Any] | None:
    """The sign-off `record` needs (`over`, `seats`), or None: only a ruling that carries one."""
    needed = record.result.get("signoff_required")
    return needed if record.kind == RecordKind.RULING and isinstance(needed, dict) else None


def signed(reads: Reads, record_id: int) -> Record | None:
    """The sign-off of ruling `record_id`, if it has one."""
    return first_link(reads, record_id, RecordKind.SIGNOFF)


def awaiting(reads: Reads, record: Record) -> bool:
    """True when `record` needs a sign-off it does not have, and is not voided."""
    return (
        required(record) is not None
        and signed(reads, record.id) is None
        and first_link(reads, record.id, RecordKind.VOID) is None
    )


def sign_off(storage: Storage, record_id: int, *, supervisor_id: str, pin: str) -> int:
    """Sign off ruling `record_id`'s large pay: a `signoff` record linked to it, by the
    supervisor whose id and PIN these are. Returns the sign-off's id."""
    return supervised(
        storage,
        supervisor_id,
        pin,
        RecordKind.SIGNOFF,
        lambda tx, sup: _sign(tx, sup, record_id),
    )


def _sign(tx: WriteTransaction, supervisor: User, record_id: int) -> int:
    record = tx.record(record_id)
    if record is None:
        raise AuditError(f"there is no audit record {record_id} to sign off")
    needed = required(record)
    if needed is None:
        raise AuditError(
            f"record {record_id} needs no sign-off: only a ruling that paid a seat more than "
            "the table's sign-off line does"
        )
    if first_link(tx, record_id, RecordKind.VOID) is not None:
        raise AuditError(f"ruling {record_id} is voided: nothing of it is paid to sign off")
    done = signed(tx, record_id)
    if done is not None:
        raise AuditError(f"ruling {record_id} is already signed off by {done.user_id} (#{done.id})")
    seats = ", ".join(str(s) for s in needed.get("seats", []))
    return tx.append(
        supervisor_entry(
            record,
            RecordKind.SIGNOFF,
            supervisor.user_id,
            result={"ruling": record_id, "over": needed.get("over"), "seats": needed.get("seats")},
            explanation=[
                f"Ruling {record_id} signed off by supervisor {supervisor.user_id}: the pay of "
                f"seat {seats}, over {fmt_money(Decimal(str(needed.get('over'))))}"
            ],
        )
    )
