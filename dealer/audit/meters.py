"""Progressive meters: a meter's value is the newest `meter` record of (table, meter name), or
for a linked meter the newest `meter` record of its link, whichever table moved it.

A ruling that moves a meter records the move in the same transaction, linked to the ruling
(read, rule, record, move: two tables' terminals never pay from the same meter value twice); a
supervisor sets a meter by hand with `adjust`, the one hand-made meter write (a reset or a
reseed is an adjustment too). Each `meter` record holds the previous value, the new value, the
delta and the reason; every value written is whole cents, zero or more.

An adjustment is checked before the supervisor's authority, so a refused one writes nothing:
the meter must be one the table has (`ranges`, from the table profile) and the value whole
cents from the meter's seed (its reset value) to its cap. A meter a ruling pays from is always
one a ruling can pay from, so no typed value can stop a table.

A linked meter (`MeterLink`: a profile meter naming a `link`) is one meter shared by every
table whose profile names the link: its records carry the link, its seed and its cap in the
result (`table_id` stays the table whose ruling or supervisor moved it), and its value is the
newest of them (one lookup in the index `records_linked_meters`). The seed and cap are the
link's terms, one thing on the floor: a ruling or an adjustment whose profile states other
terms than the link's newest record is refused, naming the link and both terms. The terms
change only under a new link id (the old link's records stay as they are).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from decimal import Decimal, InvalidOperation
from enum import StrEnum
from typing import TYPE_CHECKING

from dealer.audit import users
from dealer.audit.authority import supervised
from dealer.audit.records import Entry, Record, RecordKind, Role, amount, meter_value
from dealer.kernel.errors import AuditError
from dealer.kernel.money import fmt_money, whole_cents
from dealer.kernel.tuples import NamedTuple

if TYPE_CHECKING:
    from dealer.audit.storage import Reads, Storage, WriteTransaction


class MeterAction(StrEnum):
    """The action of a `meter` record: a ruling's `move` (its contributions and hits), or a
    supervisor's `adjust` (a value set by hand: a reset or a reseed too)."""

    MOVE = "move"
    ADJUST = "adjust"


class Previous(NamedTuple):
    """A meter's value (None: never set) as read under the write lock of the transaction that
    moves it."""

    value: Decimal | None


class MeterRange(NamedTuple):
    """The values a supervisor may set a meter to: from its seed (the value it resets to) to
    its cap (the most it holds); `link` names the link of a linked meter (whose terms the seed
    and cap are)."""

    seed: Decimal
    cap: Decimal
    link: str | None = None

    def linked(self) -> MeterLink | None:
        """The meter's link and terms, None for a table's own meter."""
        return None if self.link is None else MeterLink(self.link, self.seed, self.cap)


class MeterLink(NamedTuple):
    """A linked meter's link and its terms (seed and cap), as a table's profile states them."""

    link: str
    seed: Decimal
    cap: Decimal

    def result(self) -> dict[str, str]:
        """What a record of the linked meter carries besides the meter's name and values."""
        return {"link": self.link, "seed": str(self.seed), "cap": str(self.cap)}


def newest_of_link(reads: Reads, name: str, link: MeterLink) -> Record | None:
    """The newest meter record of `link` (None: never moved), checked against the terms the
    table's profile states: AuditError naming the link and both terms when they differ, or
    when the link is another meter's."""
    found = reads.link_records(link.link, 1)
    if not found:
        return None
    newest = found[0]
    held = newest.result
    if held.get("meter") != name:
        raise AuditError(
            f"link {link.link} is the {held.get('meter')} meter (record {newest.id}), not "
            f"{name}: a link is one meter on the floor"
        )
    terms = (_number(held.get("seed")), _number(held.get("cap")))
    if terms != (link.seed, link.cap):
        recorded = "/".join("?" if t is None else fmt_money(t) for t in terms)
        raise AuditError(
            f"meter {name} is linked as {link.link}, whose seed/cap are {recorded} (record "
            f"{newest.id}), but this table's profile says {fmt_money(link.seed)}/"
            f"{fmt_money(link.cap)}: every table of a link states its terms alike"
        )
    return newest


def _number(text: object) -> Decimal | None:
    try:
        return Decimal(str(text)) if text is not None else None
    except InvalidOperation:
        return None


def current(
    reads: Reads, table_id: str, name: str, link: MeterLink | None = None
) -> Decimal | None:
    """Meter `name`'s value at `table_id` (None: never set): the table's own, or with `link`
    the link's (`newest_of_link`). A value that is no number is a damaged record."""
    if link is None:
        return reads.meter(table_id, name)
    newest = newest_of_link(reads, name, link)
    if newest is None:
        return None
    return meter_value(newest.id, json.dumps(newest.result), f"meter {name} of link {link.link}")


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
        where = f"at table {table_id}" if allowed.link is None else f"of link {allowed.link}"
        raise AuditError(
            f"meter {name} {where} cannot be set to {fmt_money(new)}: a supervisor "
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
    action: MeterAction = MeterAction.MOVE,
    link: MeterLink | None = None,
    previous: Previous | None = None,
) -> int:
    """Move meter `name` at `table_id` to `value`: a `meter` record (previous value, new
    value, delta, reason; with `link`, the link's previous value and the link and its terms).
    Who, game and link default to the last record other than a meter move appended in this
    transaction (the ruling that moved it). The previous value is read here, unless the caller
    read it in this transaction (`previous`). Returns the record id."""
    if not isinstance(name, str) or not name.strip():
        raise AuditError("a meter needs a name")
    if not isinstance(reason, str) or not reason.strip():
        raise AuditError(f"moving meter {name} needs a reason")
    new = _value(value, name)
    mover = [
        (record_id, entry) for record_id, entry in tx.appended if entry.kind != RecordKind.METER
    ]
    last_id, last = mover[-1] if mover else (None, None)
    if user_id is None:
        if last is None:
            raise AuditError(f"moving meter {name} needs the id of the user who moved it")
        user_id, role = last.user_id, last.role
    else:
        role = users.acting_role(tx, user_id, RecordKind.METER, role)
    before = current(tx, table_id, name, link) if previous is None else previous.value
    delta = new - (before or Decimal(0))
    shown = "unset" if before is None else str(before)
    linked = "" if link is None else f" (link {link.link})"
    return tx.append(
        Entry(
            kind=RecordKind.METER,
            user_id=user_id,
            role=role or Role.DEALER,
            table_id=table_id,
            game=game if game is not None else (last.game if last else ""),
            action=action,
            result={
                "meter": name,
                "previous": None if before is None else str(before),
                "value": str(new),
                "delta": str(delta),
                **({} if link is None else link.result()),
            },
            explanation=[f"Meter {name}{linked} at table {table_id}: {shown} -> {new} ({reason})"],
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
            tx,
            table_id,
            name,
            value,
            reason,
            user_id=sup.user_id,
            role=Role.SUPERVISOR,
            action=MeterAction.ADJUST,
            link=ranges[name].linked(),
        ),
        table_id=table_id,
    )
