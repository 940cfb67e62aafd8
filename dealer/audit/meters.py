"""Progressive meters: a meter's value is the newest `meter` record of (table, meter name).

A ruling that moves a meter records the move in the same transaction, linked to the ruling
(read, rule, record, move: two tables' terminals never pay from the same meter value twice); a
supervisor sets a meter by hand with `adjust`. Each `meter` record holds the previous value,
the new value, the delta and the reason.
"""

from __future__ import annotations

from decimal import Decimal
from typing import TYPE_CHECKING

from dealer.audit import users
from dealer.audit.authority import supervised
from dealer.audit.records import DEALER, METER, SUPERVISOR, Entry, amount
from dealer.kernel.errors import AuditError

if TYPE_CHECKING:
    from dealer.audit.storage import Storage, WriteTransaction


def move(
    tx: WriteTransaction,
    table_id: str,
    name: str,
    value: Decimal | int | float | str,
    reason: str,
    *,
    user_id: str | None = None,
    role: str | None = None,
    game: str | None = None,
    links_to: int | None = None,
    action: str = "move",
) -> int:
    """Move meter `name` at `table_id` to `value`: a `meter` record (previous value, new
    value, delta, reason). Who, game and link default to the last record other than a meter
    move appended in this transaction (the ruling that moved it). Returns the record id."""
    if not isinstance(name, str) or not name.strip():
        raise AuditError("a meter needs a name")
    if not isinstance(reason, str) or not reason.strip():
        raise AuditError(f"moving meter {name} needs a reason")
    new = amount(value, f"meter {name}")
    mover = [(record_id, entry) for record_id, entry in tx.appended if entry.kind != METER]
    last_id, last = mover[-1] if mover else (None, None)
    if user_id is None:
        if last is None:
            raise AuditError(f"moving meter {name} needs the id of the user who moved it")
        user_id, role = last.user_id, last.role
    else:
        role = role or users.role_of(tx, user_id)
        users.check_actor(tx, user_id, role, METER)
    previous = tx.meter(table_id, name)
    delta = new - (previous or Decimal(0))
    shown = "unset" if previous is None else str(previous)
    return tx.append(
        Entry(
            kind=METER,
            user_id=user_id,
            role=role or DEALER,
            table_id=table_id,
            game=game if game is not None else (last.game if last else ""),
            action=action,
            result={
                "meter": name,
                "previous": None if previous is None else str(previous),
                "value": str(new),
                "delta": str(delta),
            },
            explanation=[f"Meter {name} at table {table_id}: {shown} -> {new} ({reason})"],
            links_to=links_to if links_to is not None else last_id,
            reason=reason,
        )
    )


def adjust(
    storage: Storage,
    table_id: str,
    name: str,
    value: Decimal | int | float | str,
    reason: str,
    *,
    supervisor_id: str,
    pin: str,
) -> int:
    """Set meter `name` at `table_id` by hand (a supervisor action); return the record id."""
    return supervised(
        storage,
        supervisor_id,
        pin,
        "meter-adjust",
        lambda tx, sup: move(
            tx, table_id, name, value, reason, user_id=sup.user_id, role=SUPERVISOR, action="adjust"
        ),
        table_id=table_id,
    )
