"""Progressive meters: a meter's value is the newest `meter` record of (table, meter name).

A ruling that moves a meter records the move in the same transaction, linked to the ruling
(read, rule, record, move: two tables' terminals never pay from the same meter value twice); a
supervisor sets a meter by hand with `adjust`, the one hand-made meter write (a reset or a
reseed is an adjustment too). Each `meter` record holds the previous value, the new value, the
delta and the reason; every value written is whole cents, zero or more.

An adjustment is checked before the supervisor's authority, so a refused one writes nothing:
the meter must be one the table has (`ranges`, from the table profile) and the value whole
cents from the meter's seed (its reset value) to its cap. A meter a ruling pays from is always
one a ruling can pay from, so no typed value can stop a table.
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import TYPE_CHECKING

from dealer.audit import users
from dealer.audit.authority import supervised
from dealer.audit.records import DEALER, METER, SUPERVISOR, Entry, amount
from dealer.kernel.errors import AuditError
from dealer.kernel.money import fmt_money, whole_cents
from dealer.kernel.tuples import NamedTuple

if TYPE_CHECKING:
    from dealer.audit.storage import Storage, WriteTransaction


class MeterRange(NamedTuple):
    """The values a supervisor may set a meter to: from its seed (the value it resets to) to
    its cap (the most it holds)."""

    seed: Decimal
    cap: Decimal


def _value(value: Decimal | int | float | str, name: str) -> Decimal:
    """A meter value for the record: whole cents, zero or more."""
    new = amount(value, f"meter {name}")
    if new < 0 or not whole_cents(new):
        raise AuditError(f"meter {name} must be whole cents, zero or more, not {value!r}")
    return new


def range_of(ranges: Mapping[str, MeterRange], name: str) -> MeterRange:
    """The range of meter `name`; AuditError naming the meters there are if it is not one."""
    if name not in ranges:
        raise AuditError(f"there is no meter {name!r}: the meters are {', '.join(sorted(ranges))}")
    return ranges[name]


def check_adjustment(
    ranges: Mapping[str, MeterRange],
    table_id: str,
    name: str,
    value: Decimal | int | float | str,
    reason: str,
) -> None:
    """AuditError unless meter `name` is one of `ranges`, `value` one a supervisor may set it
    to at `table_id` (whole cents from its seed to its cap), and a reason is given."""
    allowed = range_of(ranges, name)
    new = _value(value, name)
    if not allowed.seed <= new <= allowed.cap:
        raise AuditError(
            f"meter {name} at table {table_id} cannot be set to {fmt_money(new)}: a supervisor "
            f"sets a meter between its seed and its cap, "
            f"{fmt_money(allowed.seed)}–{fmt_money(allowed.cap)}"
        )
    if not isinstance(reason, str) or not reason.strip():
        raise AuditError(f"adjusting meter {name} needs a reason")


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
    new = _value(value, name)
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
    ranges: Mapping[str, MeterRange],
    supervisor_id: str,
    pin: str,
) -> int:
    """Set meter `name` at `table_id` by hand (a supervisor action); return the record id. The
    value is checked against `ranges` (`check_adjustment`) before anything else."""
    check_adjustment(ranges, table_id, name, value, reason)
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
