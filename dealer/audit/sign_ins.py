"""Who is at a table: a dealer's sign-in there with their own PIN, on the record, and when it ends.

A `sign-in` record (`SignInAction.IN`) is made by the dealer themself at the table
(`table_id`), through `authority.supervised` with their own id and PIN (a dealer's or a
supervisor's: whoever deals), and signed with their key: no one signs in in another's name, and
a sign-in the file's holder or a login writes around the tool fails `dealer audit verify`
(it carries no valid signature of its maker). A sign-in stands (`sitting`) until the first of:
the dealer's sign-out there (`SignInAction.OUT`, signed too), another dealer's sign-in at that
table, the same dealer's sign-in at another table (one table at a time), or `SIGN_IN_HOURS`
after it (a shift's length).

What it is for (`seat_at`): at a table a supervisor assigned (`assignments.assigned`), a
ruling is made only by the dealer signed in there — a ruling naming no user is theirs, one in
anyone else's name is refused — and names that sign-in (`SIGNED_IN`, in its settings), so a
ruling in a dealer's name is theirs and the statistics by dealer count only such rulings
(`signed_in`). At a table never assigned anyone rules as before, and a ruling by the dealer
signed in there names their sign-in too. `SignInBook` is verify's replay of the same rule.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timedelta
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from dealer.audit.records import Entry, RecordFilter, RecordKind, Role
from dealer.kernel.errors import AccessError
from dealer.kernel.tuples import NamedTuple

if TYPE_CHECKING:
    from dealer.audit.assignments import Assignment
    from dealer.audit.storage import Reads, Storage, WriteTransaction
    from dealer.audit.users import User

SIGN_IN_HOURS = 8
"""How long a sign-in stands at the longest: a shift's length."""
SIGNED_IN = "sign_in"
"""The setting of a ruling naming the sign-in (its record's number) it was made under."""
SIGN_IN_ROLES = (Role.DEALER, Role.SUPERVISOR)
"""Who signs in at a table: whoever deals there (a supervisor relieving a dealer too)."""


class SignInAction(StrEnum):
    """The action of a `sign-in` record: a dealer signing in at its table, or out of it."""

    IN = "in"
    OUT = "out"


class Sitting(NamedTuple):
    """A sign-in that stands: its record, who, where, and when it was made (`recorded_at`)."""

    record_id: int
    user_id: str
    table_id: str
    at: str

    def until(self) -> datetime:
        """When it ends at the latest (`SIGN_IN_HOURS` after it)."""
        return _moment(self.at) + timedelta(hours=SIGN_IN_HOURS)

    def stands_at(self, when: str) -> bool:
        """Whether it has not run out at `when` (a stored time)."""
        return _moment(when) < self.until()


def _moment(stamp: str) -> datetime:
    return datetime.fromisoformat(stamp.replace("Z", "+00:00"))


def sitting(reads: Reads, table_id: str, when: str | None = None) -> Sitting | None:
    """The sign-in that stands at `table_id` at `when` (a stored time; None: now, by the clock
    that dates records, read only where someone signed in there), None when no one is signed
    in there: the table's newest sign-in record, unless it is a sign-out, has run out, or its
    dealer has signed in or out anywhere since."""
    newest = reads.records(
        RecordFilter(kind=RecordKind.SIGN_IN, table_id=table_id), newest_first=True, limit=1
    )
    if not newest or newest[0].action != SignInAction.IN:
        return None
    found = newest[0]
    theirs = reads.records(
        RecordFilter(kind=RecordKind.SIGN_IN, user_id=found.user_id), newest_first=True, limit=1
    )
    if not theirs or theirs[0].id != found.id:
        return None
    made = Sitting(found.id, found.user_id, found.table_id, found.recorded_at)
    if when is None:
        from dealer.audit import chain

        when = chain.utc_now()
    return made if made.stands_at(when) else None


class Seat(NamedTuple):
    """Who rules at a table now, under which sign-in (None: none), and the table's assignment
    (None: never assigned), read once under the write lock of the ruling."""

    user_id: str
    sign_in: int | None
    assignment: Assignment | None

    def entry(self, made: Entry) -> Entry:
        """The ruling `made` as made from this seat: by its user, naming its sign-in."""
        if self.sign_in is None:
            return made._replace(user_id=self.user_id)
        settings = {**made.settings, SIGNED_IN: self.sign_in}
        return made._replace(user_id=self.user_id, settings=settings)


def seat_at(reads: Reads, table_id: str, user_id: str, *, named: bool = True) -> Seat:
    """Who rules at `table_id` now and under which sign-in: at a table a supervisor assigned,
    only the dealer signed in there (`user_id` when `named`, the desk's user as typed; else
    whoever is signed in); AccessError, saying who is signed in there and how to sign in,
    otherwise. At a table never assigned, `user_id` (under their sign-in there, if any)."""
    from dealer.audit import assignments

    if not table_id:
        return Seat(user_id, None, None)
    assignment = assignments.assigned(reads, table_id)
    standing = sitting(reads, table_id)
    if standing is not None and not named:
        user_id = standing.user_id
    theirs = standing is not None and standing.user_id == user_id
    if assignment is not None and not theirs:
        signing = f"the dealer signs in there first: dealer sign-in --table {table_id}"
        if standing is None:
            raise AccessError(
                f"table {table_id} is assigned and no one is signed in at it: {signing}"
            )
        raise AccessError(
            f"table {table_id} is assigned and {standing.user_id} is signed in at it, not "
            f"{user_id}: only the dealer signed in at a table rules there ({signing})"
        )
    return Seat(user_id, standing.record_id if theirs and standing else None, assignment)


def signed_in(settings: object) -> bool:
    """Whether a ruling's `settings` name the sign-in it was made under, by its record's number
    (a whole number, never true or false; verify checks that it stood): a ruling the statistics
    by dealer count."""
    named = settings.get(SIGNED_IN) if isinstance(settings, Mapping) else None
    return isinstance(named, int) and not isinstance(named, bool)


def sign_entry(user: User, table_id: str, action: SignInAction) -> Entry:
    """The sign-in (or sign-out) record of `user` at `table_id`."""
    said = "signed in at" if action == SignInAction.IN else "signed out of"
    return Entry(
        kind=RecordKind.SIGN_IN,
        user_id=user.user_id,
        role=user.role,
        table_id=table_id,
        action=action,
        result={"user": user.user_id, "table": table_id},
        explanation=[f"{user.user_id} {said} table {table_id}"],
    )


def sign_in(
    storage: Storage, user_id: str, pin: str, table_id: str, *, typer: str | None = None
) -> Sitting:
    """Sign `user_id` in at `table_id` with their PIN (signed with their key; a refusal
    recorded in the name of who typed it, `typer` where the log does not say); the sitting it
    starts."""
    from dealer.audit.authority import supervised

    def record(tx: WriteTransaction, user: User) -> Sitting:
        made = tx.append(sign_entry(user, table_id, SignInAction.IN))
        found = tx.appended_record(made)
        assert found is not None
        return Sitting(made, user.user_id, table_id, found.recorded_at)

    return supervised(
        storage,
        user_id,
        pin,
        "sign-in",
        record,
        table_id=table_id,
        roles=SIGN_IN_ROLES,
        typer=typer,
    )


def sign_out(
    storage: Storage, user_id: str, pin: str, table_id: str, *, typer: str | None = None
) -> int:
    """Sign `user_id` out of `table_id`, where they are signed in, with their PIN; the record's
    number. AccessError when they are not signed in there."""
    from dealer.audit.authority import supervised

    def record(tx: WriteTransaction, user: User) -> int:
        standing = sitting(tx, table_id)
        if standing is None or standing.user_id != user.user_id:
            raise AccessError(f"{user.user_id} is not signed in at table {table_id}")
        return tx.append(sign_entry(user, table_id, SignInAction.OUT))

    return supervised(
        storage,
        user_id,
        pin,
        "sign-out",
        record,
        table_id=table_id,
        roles=SIGN_IN_ROLES,
        typer=typer,
    )


class SignInBook:
    """Verify's replay of the sign-ins: who stands signed in at each table (`sitting`'s rule,
    read record by record), so that a ruling naming a sign-in is checked against the log."""

    def __init__(self) -> None:
        self._tables: dict[str, Sitting] = {}
        self._dealers: dict[str, str] = {}

    def replay(self, row: Mapping[str, Any]) -> None:
        """What the sound `sign-in` record `row` changes: its dealer's sign-in (ending their
        earlier one and the table's) or sign-out."""
        if row["kind"] != RecordKind.SIGN_IN:
            return
        maker, table = str(row["user_id"]), str(row["table_id"])
        earlier = self._dealers.pop(maker, None)
        held = self._tables.get(earlier) if earlier is not None else None
        if earlier is not None and held is not None and held.user_id == maker:
            del self._tables[earlier]
        self._tables.pop(table, None)
        if row["action"] == SignInAction.IN:
            self._tables[table] = Sitting(int(row["id"]), maker, table, str(row["recorded_at"]))
            self._dealers[maker] = table

    def problem(self, maker: str, table: str, named: object, when: str) -> str | None:
        """Why a ruling by `maker` at `table` at `when`, naming the sign-in `named` (its
        `SIGNED_IN` setting), was not made under that sign-in, or None."""
        standing = self._tables.get(table)
        if standing is None or standing.record_id != named or not standing.stands_at(when):
            return f"it names sign-in {named}, which did not stand at table {table} then"
        if standing.user_id != maker:
            return f"it names sign-in {named}, which is {standing.user_id}'s, not {maker}'s"
        return None
