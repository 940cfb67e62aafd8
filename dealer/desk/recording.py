"""Putting rulings on the record: a `Ruling` becomes an audit `Entry`, written in one
transaction before anything is shown as final."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from decimal import Decimal
from typing import TYPE_CHECKING, Protocol

from dealer.desk.context import Desk
from dealer.desk.log import open_log
from dealer.kernel.ruling import Ruling

if TYPE_CHECKING:
    from dealer.audit.records import Entry


def _entry(ruling: Ruling, user: str, role: str, table: str) -> Entry:
    from dealer.audit.records import RULING, Entry

    return Entry(
        kind=RULING,
        user_id=user,
        role=role,
        table_id=table,
        game=ruling.game,
        action=ruling.action,
        input_text=ruling.input_text,
        cards=list(ruling.cards),
        result=dict(ruling.result),
        explanation=list(ruling.explanation),
        settings=dict(ruling.settings),
        seat=ruling.seat,
    )


def check_log(desk: Desk) -> None:
    """Open and close the desk's audit log: a log that cannot be written fails now (at the
    start of a live session), not at the first settle."""
    open_log(desk.db).close()


def record(desk: Desk, rulings: Sequence[Ruling]) -> list[int]:
    """Append the rulings atomically; their record ids (the ruling ids shown to people)."""
    from dealer.audit import users

    with open_log(desk.db) as log:
        role = users.role_of(log, desk.user)
        with log.transaction() as tx:
            return [
                users.append_checked(tx, _entry(r, desk.user, role, desk.table)) for r in rulings
            ]


class MeterValues(Protocol):
    """Progressive meter values by name (the rules' `Meters`)."""

    def get(self, name: str) -> Decimal:
        """One meter's value."""
        ...


def record_with_meters(
    desk: Desk,
    names: Sequence[str],
    rule: Callable[[dict[str, Decimal | None]], tuple[Ruling, MeterValues]],
) -> tuple[int, Ruling]:
    """Read the table's progressive meters, rule, record the ruling and move the meters, all in
    one transaction (so two tables' terminals never pay from the same meter value twice)."""
    from dealer.audit import meters, users

    user, table = desk.user, desk.table
    with open_log(desk.db) as log:
        role = users.role_of(log, user)
        with log.transaction() as tx:
            stored = {name: tx.meter(table, name) for name in names}
            ruling, after = rule(stored)
            ruling_id = users.append_checked(tx, _entry(ruling, user, role, table))
            for name in names:
                if after.get(name) != stored[name]:
                    meters.move(tx, table, name, after.get(name), f"ruling #{ruling_id}")
    return ruling_id, ruling
