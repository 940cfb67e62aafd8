"""A supervisor's authority: their id and secret checked before the work, the work signed, a
refusal put on the record.

Every supervisor action (override, void, resolving a dispute or correcting its amount, adjusting
a meter, approving a profile or pay tables, adding or changing a user) runs through
`supervised`: the work is done in one write transaction if the id is a registered, active
supervisor's and the PIN opens their signing key (`dealer.audit.keys`) — checked together,
under the write lock — and every entry the work appends in their name is signed with that key
(`SigningTransaction`), so a new kind of supervisor action is signed without more code.
Otherwise AccessError is raised; when the id is a registered user's (a dealer, an auditor, a
disabled supervisor, a wrong PIN), an `access-denied` record first says what was tried, why it
was refused and whose PIN it was (`users.TARGET`), in the name of who typed it: the terminal's
login (`Storage.login`, the database login on PostgreSQL; else the desk's user, `typer`, else
the operating system's login). The guesser is throttled, never the guessed: from the
`LOCKOUT_AFTER`th wrong PIN in a row of one user's typed by one login, that login's attempts at
that user's PIN are refused for a while without being checked, and are not counted
(`users.lockout`, recomputed from those records; nothing else is written); the user, and every
other login, go on. An id nobody registered writes nothing: it is no one to put on the record,
and a mistyped id must not fill the log.

The tool never acts on what verify would reject. The users table is where the tool reads
standing fast, but it is the log's `user` records that vouch for it: before the work, the
supervisor's row must be what the log's sound `user` records say (`chain_users`: each made by
an active supervisor of that point and signed by their key, or the bootstrap; a lock only
disables its own maker), else the work is refused in one line and nothing is written. And a
supervisor's record read back (a void, a sign-off, a dispute's resolution, an approval) counts
only if its maker was an active supervisor then, by those records, and it carries their valid
signature for its place (`vouch_problem`).

A checkpoint runs through it too, open to auditors as well (`roles`), so it is signed by its
maker like a supervisor action.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager
from decimal import Decimal
from typing import TYPE_CHECKING, Any, TypeVar

from dealer.audit import keys, users
from dealer.audit.chain import Checkpoint
from dealer.audit.records import Entry, Record, RecordFilter, RecordKind, Role, UserRow
from dealer.audit.sums import SumRow, Total
from dealer.audit.users import User, UserAction
from dealer.kernel.errors import AccessError
from dealer.kernel.tuples import NamedTuple

if TYPE_CHECKING:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    from dealer.audit.storage import Reads, Storage, WriteTransaction

T = TypeVar("T")


class SigningTransaction:
    """A write transaction whose entries made by `signer_id` are signed with `private` (None:
    a supervisor whose PIN predates signing keys; nothing is signed). `standing`, when given, is
    the signer's users row the authority checked (`standing_row`), which `user` gives for them:
    a later row the log's user records do not vouch for changes nothing of the work."""

    def __init__(
        self,
        tx: WriteTransaction,
        signer_id: str,
        private: Ed25519PrivateKey | None,
        standing: UserRow | None = None,
    ) -> None:
        self._tx, self._signer_id, self._private = tx, signer_id, private
        self._standing = standing

    def append(self, entry: Entry) -> int:
        """Sign `entry` if its maker is the signer, as the record after the head (which cannot
        move in a write transaction), then append it."""
        if self._private is not None and entry.user_id == self._signer_id:
            entry = keys.sign(entry, self._private, self._tx.head().head_hash)
        return self._tx.append(entry)

    @property
    def appended(self) -> Sequence[tuple[int, Entry]]:
        """The entries appended in this transaction so far, with their ids."""
        return self._tx.appended

    def add_user(self, row: UserRow) -> None:
        """Store a users row."""
        self._tx.add_user(row)

    def appended_record(self, record_id: int) -> Record | None:
        """A record appended in this transaction, without reading it back."""
        return self._tx.appended_record(record_id)

    def copy(self, row: dict[str, Any]) -> None:
        """Store a copied record as it is (a copy is never signed anew)."""
        self._tx.copy(row)

    def copy_sums(self, record_ids: Sequence[int], rows: Sequence[SumRow]) -> None:
        """Add copied rulings' numbers at once (`WriteTransaction.copy_sums`)."""
        self._tx.copy_sums(record_ids, rows)

    def bulk(self) -> AbstractContextManager[None]:
        """Many writes in a row (`WriteTransaction.bulk`)."""
        return self._tx.bulk()

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

    def record_ids(
        self, flt: RecordFilter, *, limit: int | None = None, newest_first: bool = False
    ) -> list[int]:
        """The numbers of the records matching `flt` (see `Reads.record_ids`)."""
        return self._tx.record_ids(flt, limit=limit, newest_first=newest_first)

    def head(self) -> Checkpoint:
        """The record count and the newest record's hash."""
        return self._tx.head()

    def meter(self, table_id: str, name: str) -> Decimal | None:
        """The newest value of a meter."""
        return self._tx.meter(table_id, name)

    def meter_records(
        self, table_id: str, name: str, limit: int, until: str | None = None
    ) -> list[Record]:
        """The newest meter records of a table's own meter (before `until`)."""
        return self._tx.meter_records(table_id, name, limit, until)

    def link_records(self, link: str, limit: int, *, oldest_first: bool = False) -> list[Record]:
        """The newest (or first) meter records of a linked meter."""
        return self._tx.link_records(link, limit, oldest_first=oldest_first)

    def user(self, user_id: str, before: int | None = None) -> UserRow | None:
        """The newest users row of `user_id` (the signer's as checked: `standing`)."""
        if self._standing is not None and user_id == self._signer_id and before is None:
            return self._standing
        return self._tx.user(user_id, before)

    def users(self) -> list[UserRow]:
        """The newest users row of every registered id."""
        return self._tx.users()

    def supervisor_ever_registered(self) -> bool:
        """Whether any users row ever gave someone the supervisor role."""
        return self._tx.supervisor_ever_registered()

    def add_sums(self, record_id: int, rows: Callable[[], Sequence[SumRow]]) -> None:
        """Add a record's numbers to the floor's sums (`WriteTransaction.add_sums`)."""
        self._tx.add_sums(record_id, rows)

    def count_by_user(self, flt: RecordFilter, *, signed_in: bool = False) -> dict[str, int]:
        """How many records matching `flt` each user made (`Reads.count_by_user`)."""
        return self._tx.count_by_user(flt, signed_in=signed_in)

    def sums_from(self) -> int:
        """The first record the floor's sums cover."""
        return self._tx.sums_from()

    def sum_totals(self, grp: str, since: str | None, until: str | None) -> list[Total]:
        """The sums of a group over a range of hours."""
        return self._tx.sum_totals(grp, since, until)

    def sum_rows(self, hour: str) -> list[SumRow]:
        """Every row of sums of an hour."""
        return self._tx.sum_rows(hour)

    def member_rows(self, hours: Sequence[str], members: Sequence[tuple[str, str]]) -> list[SumRow]:
        """The rows of the members' own sums in `hours`."""
        return self._tx.member_rows(hours, members)

    def sum_hours(self) -> list[str]:
        """Every hour that has sums."""
        return self._tx.sum_hours()


class Countersigner(NamedTuple):
    """A supervisor who approves someone else's record (a dispute's second reviewer, a ruling's
    approver of its rule changes), their PIN checked: their id and the key it opened (None: a
    PIN from before signing keys, which signs nothing)."""

    user_id: str
    private: Ed25519PrivateKey | None


def supervised(
    storage: Storage,
    supervisor_id: str | None,
    pin: str | None,
    action: str,
    work: Callable[[WriteTransaction, User], T],
    *,
    table_id: str = "",
    roles: Sequence[str] = (Role.SUPERVISOR,),
    typer: str | None = None,
) -> T:
    """Run `work` in one transaction, its entries signed, if `supervisor_id` is a registered,
    active supervisor (or, given `roles`, of one of those roles) and `pin` opens their key; else
    raise AccessError (recording the refusal of a registered user in the name of who typed it,
    `guesser`; while that login's lockout for them holds, `users.held_lockout`, without checking
    the PIN).

    The secret is checked (scrypt, slow on purpose) before the write lock is taken, against the
    row read then; under the lock the row and the lockout are read again, and the secret
    checked again only if the row changed."""
    return _authorised(
        storage,
        supervisor_id,
        pin,
        action,
        lambda tx, user, private, row: work(
            SigningTransaction(tx, user.user_id, private, row), user
        ),
        table_id=table_id,
        roles=roles,
        typer=typer,
    )


def guesser(storage: Storage, typer: str | None = None) -> str:
    """Who typed a PIN at this terminal, as its refusal names them: the database login the log
    is open as (PostgreSQL appends in no other name), else `typer` (the desk's user: a ruling's
    `--user`), else the operating system's login (`inputs.login_name`)."""
    from dealer import inputs

    return storage.login() or typer or inputs.login_name()


def _authorised(
    storage: Storage,
    supervisor_id: str | None,
    pin: str | None,
    action: str,
    work: Callable[[WriteTransaction, User, Ed25519PrivateKey | None, UserRow], T],
    *,
    table_id: str = "",
    roles: Sequence[str] = (Role.SUPERVISOR,),
    typer: str | None = None,
) -> T:
    """`supervised`'s checks, with `work` given the key the PIN opened and the row checked."""
    if not supervisor_id or not isinstance(supervisor_id, str):
        raise AccessError(users.needs_id(action, roles))
    typed = pin if isinstance(pin, str) else ""
    who = guesser(storage, typer)
    seen = storage.user(supervisor_id)
    checked = seen is not None and users.held_lockout(storage, seen, who) is None
    seen_open = _unlock(storage, seen, typed) if seen is not None and checked else None
    with storage.transaction() as tx:
        said = chain_users(tx)
        row = standing_row(tx, supervisor_id, said)
        if row is None:
            raise AccessError(users.unregistered(supervisor_id, action, roles))
        held = users.held_lockout(tx, row, who)
        if held is not None:
            opened = None
        elif checked and seen is not None and row.pin_hash == seen.pin_hash:
            opened = seen_open
        else:
            opened = _unlock(storage, row, typed)
        locked = users.is_locked(tx, row)
        refused = users.refusal(
            row, supervisor_id, opened is not None, action, locked=locked, held=held, roles=roles
        )
        if refused is None:
            forged = _chain_problem(said, row)
            if forged is not None:
                raise AccessError(forged)
            private = opened.private if opened is not None else None
            return work(tx, users.user_of(row), private, row)
        code, sentence = refused
        tx.append(
            Entry(
                kind=RecordKind.ACCESS_DENIED,
                user_id=who,
                role=users.role_of(tx, who),
                table_id=table_id,
                action=action,
                result={"refused": action, "why": code, users.TARGET: supervisor_id},
                explanation=[sentence],
                reason=sentence,
            )
        )
        now_held = users.held_lockout(tx, row, who) if code == "wrong-pin" else None
        if now_held is not None:
            sentence += f"; {now_held.said(supervisor_id)}: no more until {now_held.until_text()}"
    raise AccessError(sentence)


def standing_row(reads: Reads, user_id: str, said: ChainUsers) -> UserRow | None:
    """The users row of `user_id` the tool acts on: their newest, but for a lock record of
    release 0.2.0 written after the log's first signature bound to its place (`said`, the
    log's user records: such a lock counts for nothing), for which the row before it stands."""
    row = reads.user(user_id)
    while row is not None and said.bound_since is not None and row.record_id > said.bound_since:
        record = reads.record(row.record_id)
        if record is None or record.kind != RecordKind.USER or record.action != UserAction.LOCK:
            break
        row = reads.user(user_id, before=row.record_id)
    return row


def _unlock(storage: Storage, row: UserRow, typed: str) -> users.Unlocked | None:
    """What `typed` opens of `row`'s secret, as the backend releases it (`released_secret`)."""
    if row.pin_hash is None:
        return None
    return users.unlock(typed, storage.released_secret(row, typed))


def authenticate(storage: Storage, user_id: str, pin: str, action: str) -> User:
    """The supervisor `user_id` if `pin` is theirs and they may do `action` (nothing is
    written); otherwise the refusal is recorded and AccessError raised."""
    return supervised(storage, user_id, pin, action, lambda tx, user: user)


class ChainUser(NamedTuple):
    """A user's standing as the log's sound `user` records say: role, active, public key."""

    role: str
    active: bool
    key: str | None


class ChainUsers(NamedTuple):
    """The users the log's sound `user` records set up to a point, and the first of those
    records carrying a format-2 signature (from which every signature is bound to its place)."""

    standing: dict[str, ChainUser]
    bound_since: int | None


_CHAIN_USERS: dict[tuple[int, str], ChainUsers] = {}
"""`chain_users`' answers in this process, by the newest user record they read (its number and
hash, which commits to every record before it): user records are only ever appended, so a
live table or a floor's terminal reads and checks them once, not at every ruling."""


def chain_users(reads: Reads, before: int | None = None) -> ChainUsers:
    """The users as the log's `user` records before record `before` (all, when None) say
    (`_chain_users`), read once in a process for the same newest user record."""
    flt = RecordFilter(kind=RecordKind.USER, before_id=before)
    newest = next(reads.rows(flt, newest_first=True, limit=1), None)
    if newest is None:
        return ChainUsers({}, None)
    key = (int(newest["id"]), str(newest["hash"]))
    found = _CHAIN_USERS.get(key)
    if found is None:
        found = _CHAIN_USERS[key] = _chain_users(reads, key[0] + 1)
    return ChainUsers(dict(found.standing), found.bound_since)


def _chain_users(reads: Reads, before: int | None = None) -> ChainUsers:
    """The users as the log's `user` records before record `before` (all, when None) say,
    each record counted only if it is sound: the bootstrap (the first, registering its own
    maker, signed with the key it records), a recovery (registering its own maker, signed with
    the key it records and by the operator's recovery key a sound record named before), a lock
    (only disabling its own maker: a role or key it carries is ignored), or a change made in
    the supervisor role by an active supervisor of that point, signed by their key then (one
    with no key, a PIN from before signing keys, could not sign), with a signature no earlier
    user record spent. A record that is not sound changes no one's standing."""
    standing: dict[str, ChainUser] = {}
    bound: int | None = None
    spent: set[bytes] = set()
    recovery: str | None = None  # the operator's recovery key, as the sound records name it
    for row in reads.rows(RecordFilter(kind=RecordKind.USER)):
        record_id = int(row["id"])
        if before is not None and record_id >= before:
            break
        result = _object(row["result"])
        who, maker = result.get("user"), str(row["user_id"])
        if not isinstance(who, str):
            continue
        if row["action"] == UserAction.LOCK:
            if who == maker and who in standing and bound is None:
                standing[who] = standing[who]._replace(active=False)
            continue
        if row["action"] == UserAction.RECOVER:  # a new supervisor by the operator's key
            if who != maker or recovery is None:
                continue
            if users.recovery_signature_problem(row, recovery) is not None:
                continue
            key = result.get("key")
        elif not standing and who == maker:
            key = result.get("key")
        else:
            now = standing.get(maker)
            if row["role"] != Role.SUPERVISOR or now is None or not now.active:
                continue
            if now.role != Role.SUPERVISOR:
                continue
            key = now.key
        if isinstance(key, str):
            found = keys.signature_of(row)
            value = keys.signature_bytes(found) if found is not None else None
            if _signed_problem(row, key, bound) is not None or value is None or value in spent:
                continue
            spent.add(value)
            if bound is None and _format(row) == keys.FORMAT:
                bound = record_id
        named = users.recovery_key_named(RecordKind.USER, row["action"], _object(row["settings"]))
        recovery = named if named is not None else recovery
        new_key = result.get("key")
        standing[who] = ChainUser(
            str(result.get("role")),
            result.get("active") is True,
            new_key if isinstance(new_key, str) else None,
        )
    return ChainUsers(standing, bound)


def vouch_problem(reads: Reads, row: Mapping[str, Any]) -> str | None:
    """Why the tool may not act on the stored supervisor record `row` (a void, a sign-off, a
    dispute's resolution, an approval): its maker was not an active supervisor at that point
    by the log's sound `user` records (`chain_users`), or it does not carry their valid
    signature for its content and place; None when it may."""
    users_then = chain_users(reads, before=int(row["id"]))
    maker = str(row["user_id"])
    now = users_then.standing.get(maker)
    if row["role"] != Role.SUPERVISOR or now is None or now.role != Role.SUPERVISOR:
        return f"{maker} was not a supervisor then"
    if not now.active:
        return f"{maker} was disabled then"
    if now.key is None:
        return None
    return _signed_problem(row, now.key, users_then.bound_since)


def _signed_problem(row: Mapping[str, Any], key: str, bound: int | None) -> str | None:
    """Why `row` is not signed by `key` as the log at that point requires (format 2 from the
    first format-2 user record on)."""
    problem = keys.signature_problem(row, key)
    if problem is None and bound is not None and _format(row) != keys.FORMAT:
        return "its signature is of format 1, not bound to its place"
    return problem


def _format(row: Mapping[str, Any]) -> int | None:
    found = keys.signature_of(row)
    return keys.signature_format(found) if found is not None else None


def _object(text: object) -> dict[str, Any]:
    try:
        value = json.loads(str(text))
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


def _chain_problem(users_then: ChainUsers, row: UserRow) -> str | None:
    """Why the users row `row` is not what the log's sound `user` records (`users_then`) say (a
    users row or a user record written around the tool): its role, active state or key
    differ."""
    said = users_then.standing.get(row.user_id)
    if (
        said is None
        or said.role != row.role
        or said.active != row.active
        or said.key != keys.public_key(row.pin_hash)
    ):
        return (
            f"{row.user_id}'s standing in the users table is not what the log's signed user "
            "records say (run dealer audit verify): refused, nothing was written"
        )
    return None


def countersigner(
    storage: Storage, user_id: str, pin: str, action: str, *, typer: str | None = None
) -> Countersigner:
    """The supervisor `user_id`, with the key `pin` opens, to countersign what they approve
    (`append_countersigned`); otherwise the refusal is recorded, in the name of who typed it
    (`typer`: the desk's user, where the log does not say), and AccessError raised."""
    return _authorised(
        storage,
        user_id,
        pin,
        action,
        lambda tx, user, private, row: Countersigner(user.user_id, private),
        typer=typer,
    )


def signer(
    storage: Storage,
    user_id: str,
    pin: str,
    action: str,
    *,
    roles: Sequence[str],
    typer: str | None = None,
) -> Countersigner:
    """`user_id`, of one of `roles`, with the key `pin` opens, to sign a record of theirs made
    later in the session (`append_signed`: a trainee's drill, kept when it ends); otherwise the
    refusal is recorded, in the name of who typed it, and AccessError raised."""
    return _authorised(
        storage,
        user_id,
        pin,
        action,
        lambda tx, user, private, row: Countersigner(user.user_id, private),
        roles=roles,
        typer=typer,
    )


def append_signed(tx: WriteTransaction, entry: Entry, maker: Countersigner) -> int:
    """Append `entry`, made by `maker` (whose PIN was checked: `signer`), signed with their key
    as the record after the transaction's head."""
    if maker.private is not None and entry.user_id == maker.user_id:
        entry = keys.sign(entry, maker.private, tx.head().head_hash)
    return tx.append(entry)


def signed_by_maker_problem(reads: Reads, row: Mapping[str, Any]) -> str | None:
    """Why the stored record `row` does not carry a valid signature of its maker's, by the key
    the log's sound user records gave them at that point (none: they had no PIN), or None."""
    users_then = chain_users(reads, before=int(row["id"]))
    now = users_then.standing.get(str(row["user_id"]))
    if now is None or now.key is None:
        return f"{row['user_id']} had no PIN to sign it with"
    return _signed_problem(row, now.key, users_then.bound_since)


def append_countersigned(
    tx: WriteTransaction, entry: Entry, approver: Countersigner, signer: str
) -> int:
    """Append `entry`, countersigned by `approver` (whom its field `signer` names) as the record
    after the transaction's head; then signed by its maker where `tx` signs (`supervised`)."""
    if approver.private is not None:
        entry = keys.countersign(entry, approver.private, tx.head().head_hash, signer)
    return tx.append(entry)


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
