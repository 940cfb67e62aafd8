"""Putting rulings on the record: a `Ruling` becomes an audit `Entry`, written in one
transaction before anything is shown as final; a batch of typed lines is ruled line by line, a
bad line reported without stopping the others."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, nullcontext
from decimal import Decimal
from typing import TYPE_CHECKING, Any, Protocol

from dealer.desk.context import Desk, open_desk_log
from dealer.kernel.errors import DealerError
from dealer.kernel.ruling import Ruling, RulingAction
from dealer.kernel.tuples import NamedTuple

APPROVER = "rule_changes_approved_by"
"""The setting naming who approved a ruling's rule changes (`Profile.approved_by`)."""

if TYPE_CHECKING:
    from dealer.audit.authority import Countersigner
    from dealer.audit.meters import MeterLink, SeedOf
    from dealer.audit.records import Entry
    from dealer.audit.sign_ins import Seat
    from dealer.audit.storage import Reads, Storage, WriteTransaction

    class MeterValues(Protocol):
        """Progressive meter values by name (the rules' `Meters`)."""

        def get(self, name: str) -> Decimal:
            """One meter's value."""
            ...


def ruling_entry(ruling: Ruling, user: str, role: str, table: str) -> Entry:
    """The audit entry of `ruling`, made by `user` in `role` at `table`."""
    from dealer.audit.records import Entry, RecordKind

    return Entry(
        kind=RecordKind.RULING,
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


def append_ruling(
    tx: WriteTransaction, entry: Entry, approver: Countersigner | None, seat: Seat | None = None
) -> int:
    """Append a ruling made from shipped or approved documents only (`audit.approvals`), from
    its table's seat (`seat`, read here when not given: `sign_ins.seat_at`; at an assigned
    table only the dealer signed in there rules, and the ruling names their sign-in), and at a
    table assigned a profile under its assignment unless a supervisor approved the change
    (`audit.assignments.check_ruling`), with what it adds to the floor's sums
    (`floor_sums.add_ruling`); its maker was checked in this transaction (`users.acting_role`).
    A ruling naming who approved its rule changes is countersigned by them (`approver`, the
    desk's), or not recorded."""
    from dealer.audit import approvals, assignments, sign_ins

    if seat is None:
        seat = sign_ins.seat_at(tx, entry.table_id, entry.user_id)
    entry = seat.entry(entry)
    approvals.check_documents(tx, entry.table_id, entry.settings or {})
    assignments.check_ruling(entry, seat.assignment)
    named = (entry.settings or {}).get(APPROVER)
    if named is None:
        ruling_id = tx.append(entry)
    elif approver is None or approver.user_id != named:
        raise DealerError(f"the rule changes approved by {named} were not signed by {named}")
    else:
        from dealer.audit.authority import append_countersigned

        ruling_id = append_countersigned(tx, entry, approver, APPROVER)
    if entry.game == "paigow" and entry.action in (RulingAction.ROUND, RulingAction.SETTLE):
        from dealer.desk import floor_sums

        floor_sums.add_ruling(tx, ruling_id)
    return ruling_id


def check_log(desk: Desk, settings: Mapping[str, Any]) -> None:
    """Open and close the desk's audit log at the start of a live session: a log that cannot be
    written, or house rules not approved for the table (`audit.approvals`), fail now, not at
    the first settle."""
    from dealer.audit import approvals

    with open_desk_log(desk.db) as log:
        approvals.check_documents(log, desk.table, settings)


def opened(desk: Desk, log: Storage | None) -> AbstractContextManager[Storage]:
    """`log`, already open for the ruling (left open), else the desk's log opened for it."""
    return nullcontext(log) if log is not None else open_desk_log(desk.db)


def record(desk: Desk, rulings: Sequence[Ruling], log: Storage | None = None) -> list[int]:
    """Append the rulings atomically (into `log` when the ruling holds it open, else the
    desk's); their record ids (the ruling ids shown to people). Each is recorded with the role
    the desk's user is registered with, read under the write lock (an id nobody registered
    rules as a dealer): never a role typed or assumed."""
    from dealer.audit import sign_ins, users
    from dealer.audit.records import RecordKind

    with opened(desk, log) as held, held.transaction() as tx:
        seat = sign_ins.seat_at(tx, desk.table, desk.user, named=desk.named)
        role = users.acting_role(tx, seat.user_id, RecordKind.RULING)
        return [
            append_ruling(tx, ruling_entry(r, seat.user_id, role, desk.table), desk.approver, seat)
            for r in rulings
        ]


def record_with_meters(
    desk: Desk,
    links: Mapping[str, MeterLink | None],
    rule: Callable[[dict[str, Decimal | None]], tuple[Ruling, MeterValues]],
    seed_of: SeedOf | None = None,
    log: Storage | None = None,
) -> tuple[int, Ruling]:
    """Read the table's progressive meters (each name of `links`: the table's own meter, or the
    link's, `audit.meters.current`), rule, record the ruling and move the meters, all in one
    write transaction: writers are serialised, so two terminals (at one table or at two tables
    of one link) never pay from the same meter value twice nor lose a contribution.

    `rule` is pure: it runs first on the meters as read before the write lock, and its ruling
    is recorded only if the meters read again under the lock are the same; else it runs again
    on those. So the lock, which every terminal of the log waits for, is held to record, not to
    rule. A meter the ruling moves whose newest record nothing explains (a value written into
    the log by hand) is refused under the lock (`meters.check_explained`, a reset to the seed
    the past ruling's documents give, `seed_of`: by default read from them,
    `ruling_documents.documented_seed`): nothing is written. `log`: the desk's log, when the
    ruling holds it open."""
    from dealer.audit import meters, sign_ins, users
    from dealer.audit.records import RecordKind
    from dealer.desk.ruling_documents import documented_seed

    user, table = desk.user, desk.table

    def read(reads: Reads) -> dict[str, Decimal | None]:
        return {name: meters.current(reads, table, name, link) for name, link in links.items()}

    with opened(desk, log) as held:
        seen = read(held)
        ruled = rule(seen)
        with held.transaction() as tx:
            seat = sign_ins.seat_at(tx, table, user, named=desk.named)
            user = seat.user_id
            role = users.acting_role(tx, user, RecordKind.RULING)
            stored = read(tx)
            ruling, after = ruled if stored == seen else rule(stored)
            for name, link in links.items():  # never paid from a value nothing explains
                if after.get(name) != stored[name]:
                    meters.check_explained(tx, table, name, link, seed_of or documented_seed)
            entry = ruling_entry(ruling, user, role, table)
            ruling_id = append_ruling(tx, entry, desk.approver, seat)
            for name, link in links.items():
                if after.get(name) != stored[name]:
                    meters.move(
                        tx, table, name, after.get(name), f"ruling #{ruling_id}",
                        link=link, previous=meters.Previous(stored[name]),
                    )  # fmt: skip
    return ruling_id, ruling


class Recorded(NamedTuple):
    """A ruling and the id of its record."""

    ruling: Ruling
    ruling_id: int


class LineOutcome(NamedTuple):
    """One line of a batch: its number and text, and its recorded ruling or the error."""

    number: int
    text: str
    recorded: Recorded | None
    error: str | None


def record_one(desk: Desk, ruling: Ruling, log: Storage | None = None) -> Recorded:
    """Put one ruling on the record (`record`)."""
    (ruling_id,) = record(desk, [ruling], log)
    return Recorded(ruling, ruling_id)


def rule_lines(source: str, rule_line: Callable[[str], Recorded]) -> Iterator[LineOutcome]:
    """Rule and record each line of a batch file (`-`: standard input) on its own."""
    from dealer.inputs import lines  # batch input only

    for number, text in lines(source):
        try:
            yield LineOutcome(number, text, rule_line(text), None)
        except DealerError as exc:
            yield LineOutcome(number, text, None, str(exc))
