"""A supervisor's authority: their id and secret checked before the work, the work signed, a
refusal put on the record.

Every supervisor action (override, void, resolving a dispute or correcting its amount, adjusting
a meter, approving a profile or pay tables, adding or changing a user) runs through
`supervised`: the work is done in one write transaction if the id is a registered, active
supervisor's and the PIN opens their signing key (`dealer.audit.keys`) — checked together,
under the write lock — and every entry the work appends in their name is signed with that key
(`SigningTransaction`), so a new kind of supervisor action is signed without more code.
Otherwise AccessError is raised; when the id is a registered user's (a dealer, an auditor, a
disabled or locked supervisor, a wrong PIN), an `access-denied` record first says who tried what
and why it was refused. From the `LOCKOUT_AFTER`th wrong PIN in a row the user is locked for a
while (`users.lockout`, recomputed from those records; nothing else is written): an attempt
then is refused without its PIN being checked, and is not counted.
An id nobody registered writes nothing: it is no one to put on the record, and a mistyped id
must not fill the log. A checkpoint runs through it too, open to auditors as well
(`roles`), so it is signed by its maker like a supervisor action.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from decimal import Decimal
from typing import TYPE_CHECKING, Any, TypeVar

from dealer.audit import keys, users
from dealer.audit.chain import Checkpoint
from dealer.audit.records import Entry, Record, RecordFilter, RecordKind, Role, UserRow
from dealer.audit.users import User
from dealer.kernel.errors import AccessError

if TYPE_CHECKING:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    from dealer.audit.storage import Storage, WriteTransaction

T = TypeVar("T")


class SigningTransaction:
    """A write transaction whose entries made by `signer_id` are signed with `private` (None:
    a supervisor whose PIN predates signing keys; nothing is signed)."""

    def __init__(
        self, tx: WriteTransaction, signer_id: str, private: Ed25519PrivateKey | None
    ) -> None:
        self._tx, self._signer_id, self._private = tx, signer_id, private

    def append(self, entry: Entry) -> int:
        """Sign `entry` if its maker is the signer, then append it."""
        if self._private is not None and entry.user_id == self._signer_id:
            entry = keys.sign(entry, self._private)
        return self._tx.append(entry)

    @property
    def appended(self) -> Sequence[tuple[int, Entry]]:
        """The entries appended in this transaction so far, with their ids."""
        return self._tx.appended

    def add_user(self, row: UserRow) -> None:
        """Store a users row."""
        self._tx.add_user(row)

    def copy(self, row: dict[str, Any]) -> None:
        """Store a copied record as it is (a copy is never signed anew)."""
        self._tx.copy(row)

    def record(self, record_id: int) -> Record | None:
        """Record `record_id`, or None."""
        return self._tx.record(record_id)

    def records(
        self,
        flt: RecordFilter | None = None,
        *,
        limit: int | None = None,
        newest_first: bool = False,
    ) -> list[Record]:
        """Records matching `flt` (see `Reads.records`)."""
        return self._tx.records(flt, limit=limit, newest_first=newest_first)

    def rows(
        self,
        flt: RecordFilter | None = None,
        *,
        limit: int | None = None,
        newest_first: bool = False,
    ) -> Iterator[dict[str, Any]]:
        """The stored rows behind `records`."""
        return self._tx.rows(flt, limit=limit, newest_first=newest_first)

    def head(self) -> Checkpoint:
        """The record count and the newest record's hash."""
        return self._tx.head()

    def meter(self, table_id: str, name: str) -> Decimal | None:
        """The newest value of a meter."""
        return self._tx.meter(table_id, name)

    def link_records(self, link: str, limit: int) -> list[Record]:
        """The newest meter records of a linked meter."""
        return self._tx.link_records(link, limit)

    def user(self, user_id: str) -> UserRow | None:
        """The newest users row of `user_id`."""
        return self._tx.user(user_id)

    def users(self) -> list[UserRow]:
        """The newest users row of every registered id."""
        return self._tx.users()

    def supervisor_ever_registered(self) -> bool:
        """Whether any users row ever gave someone the supervisor role."""
        return self._tx.supervisor_ever_registered()


def supervised(
    storage: Storage,
    supervisor_id: str | None,
    pin: str | None,
    action: str,
    work: Callable[[WriteTransaction, User], T],
    *,
    table_id: str = "",
    roles: Sequence[str] = (Role.SUPERVISOR,),
) -> T:
    """Run `work` in one transaction, its entries signed, if `supervisor_id` is a registered,
    active supervisor (or, given `roles`, of one of those roles) and `pin` opens their key; else
    raise AccessError (recording the refusal of a registered user; while they are locked out,
    `users.held_lockout`, without checking the PIN).

    The secret is checked (scrypt, slow on purpose) before the write lock is taken, against the
    row read then; under the lock the row and the lockout are read again, and the secret
    checked again only if the row changed."""
    if not supervisor_id or not isinstance(supervisor_id, str):
        raise AccessError(users.needs_id(action, roles))
    typed = pin if isinstance(pin, str) else ""
    seen = storage.user(supervisor_id)
    checked = seen is not None and users.held_lockout(storage, seen) is None
    seen_open = users.unlock(typed, seen.pin_hash) if seen is not None and checked else None
    with storage.transaction() as tx:
        row = tx.user(supervisor_id)
        if row is None:
            raise AccessError(users.unregistered(supervisor_id, action, roles))
        held = users.held_lockout(tx, row)
        if held is not None:
            opened = None
        elif checked and seen is not None and row.pin_hash == seen.pin_hash:
            opened = seen_open
        else:
            opened = users.unlock(typed, row.pin_hash)
        locked = users.is_locked(tx, row)
        refused = users.refusal(
            row, supervisor_id, opened is not None, action, locked=locked, held=held, roles=roles
        )
        if refused is None:
            private = opened.private if opened is not None else None
            return work(SigningTransaction(tx, supervisor_id, private), users.user_of(row))
        code, sentence = refused
        tx.append(
            Entry(
                kind=RecordKind.ACCESS_DENIED,
                user_id=supervisor_id,
                role=row.role,
                table_id=table_id,
                action=action,
                result={"refused": action, "why": code},
                explanation=[sentence],
                reason=sentence,
            )
        )
        now_held = users.held_lockout(tx, row) if code == "wrong-pin" else None
        if now_held is not None:
            sentence += (
                f"; {supervisor_id} is now locked after {now_held.failures} wrong PINs in a row "
                f"until {now_held.until_text()}"
            )
    raise AccessError(sentence)


def authenticate(storage: Storage, user_id: str, pin: str, action: str) -> User:
    """The supervisor `user_id` if `pin` is theirs and they may do `action` (nothing is
    written); otherwise the refusal is recorded and AccessError raised."""
    return supervised(storage, user_id, pin, action, lambda tx, user: user)


def append_supervised(storage: Storage, entry: Entry, pin: str) -> int:
    """Append `entry` (e.g. a profile-change or paytable-change) made by the supervisor
    `entry.user_id`, after checking their PIN (a refusal is recorded); return its id."""
    if entry.role != Role.SUPERVISOR:
        raise AccessError(f"a {entry.kind} is made by a supervisor, not a {entry.role}")
    return supervised(
        storage,
        entry.user_id,
        pin,
        entry.kind,
        lambda tx, user: tx.append(entry),
        table_id=entry.table_id,
    )
