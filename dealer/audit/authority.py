"""A supervisor's authority: their id and PIN checked before the work, a refusal put on the record.

Every supervisor action (override, void, resolving a dispute or correcting its amount, adjusting
a meter, approving a profile or pay tables, adding or changing a user) runs through
`supervised`: the work is done in one write transaction if the id is a registered, active
supervisor's and the PIN is theirs — checked together, under the write lock. Otherwise
AccessError is raised; when the id is a registered user's (a dealer, an auditor, a disabled
supervisor, a wrong PIN), an `access-denied` record first says who tried what and why it was
refused. An id nobody registered writes nothing: it is no one to put on the record, and a
mistyped id must not fill the log.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

from dealer.audit import users
from dealer.audit.records import ACCESS_DENIED, SUPERVISOR, Entry
from dealer.audit.users import User
from dealer.kernel.errors import AccessError

if TYPE_CHECKING:
    from dealer.audit.storage import Storage, WriteTransaction

T = TypeVar("T")


def supervised(
    storage: Storage,
    supervisor_id: str | None,
    pin: str | None,
    action: str,
    work: Callable[[WriteTransaction, User], T],
    *,
    table_id: str = "",
) -> T:
    """Run `work` in one transaction if `supervisor_id` is a registered, active supervisor and
    `pin` is theirs; else raise AccessError (recording the refusal of a registered user).

    The PIN is checked (scrypt, slow on purpose) before the write lock is taken, against the
    row read then; under the lock the row is read again and the PIN checked again only if the
    row changed in between."""
    if not supervisor_id or not isinstance(supervisor_id, str):
        raise AccessError(f"{action} needs a supervisor id and PIN")
    typed = pin if isinstance(pin, str) else ""
    seen = storage.user(supervisor_id)
    seen_ok = seen is not None and users.pin_matches(typed, seen.pin_hash)
    with storage.transaction() as tx:
        row = tx.user(supervisor_id)
        if row is None:
            raise AccessError(users.unregistered(supervisor_id, action))
        if seen is not None and row.pin_hash == seen.pin_hash:
            pin_ok = seen_ok
        else:
            pin_ok = users.pin_matches(typed, row.pin_hash)
        refused = users.refusal(row, supervisor_id, pin_ok, action)
        if refused is None:
            return work(tx, users.user_of(row))
        code, sentence = refused
        tx.append(
            Entry(
                kind=ACCESS_DENIED,
                user_id=supervisor_id,
                role=row.role,
                table_id=table_id,
                action=action,
                result={"refused": action, "why": code},
                explanation=[sentence],
                reason=sentence,
            )
        )
    raise AccessError(sentence)


def authenticate(storage: Storage, user_id: str, pin: str, action: str) -> User:
    """The supervisor `user_id` if `pin` is theirs and they may do `action` (nothing is
    written); otherwise the refusal is recorded and AccessError raised."""
    return supervised(storage, user_id, pin, action, lambda tx, user: user)


def append_supervised(storage: Storage, entry: Entry, pin: str) -> int:
    """Append `entry` (e.g. a profile-change or paytable-change) made by the supervisor
    `entry.user_id`, after checking their PIN (a refusal is recorded); return its id."""
    if entry.role != SUPERVISOR:
        raise AccessError(f"a {entry.kind} is made by a supervisor, not a {entry.role}")
    return supervised(
        storage,
        entry.user_id,
        pin,
        entry.kind,
        lambda tx, user: tx.append(entry),
        table_id=entry.table_id,
    )
