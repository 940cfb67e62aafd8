"""Registering users and changing them: supervisor actions, except the very first supervisor of
a new audit database, who registers themself (a bootstrap, on the record as such), and a
recovery, authorised by the operator's recovery key.

The bootstrap makes the operator's recovery key (an Ed25519 key pair: its public half on the
bootstrap record, its private half printed once and never stored). When every supervisor has
forgotten their PIN, or is disabled, whoever holds it registers a supervisor (or gives one a
new PIN and enables them): a `user`/`recover` record signed by the recovery key, which names a
new recovery key (the one typed is spent). A supervisor may replace the recovery key (a signed
`user`/`recovery-key` record): the way a log bootstrapped by release 0.2.0 gets one."""

from __future__ import annotations

from typing import TYPE_CHECKING

from dealer.audit import keys, users
from dealer.audit.authority import SigningTransaction, supervised
from dealer.audit.records import Entry, RecordKind, Role
from dealer.audit.users import UserAction
from dealer.kernel.errors import AccessError, AuditError
from dealer.kernel.tuples import NamedTuple

if TYPE_CHECKING:
    from dealer.audit.storage import Storage, WriteTransaction


def add_user(
    storage: Storage,
    user_id: str,
    role: str,
    *,
    pin: str | None = None,
    supervisor_id: str | None = None,
    supervisor_pin: str | None = None,
) -> int:
    """Register `user_id` with `role` (supervisors need a PIN); return the record id. A PIN
    makes the user's signing key (`dealer.audit.keys`).

    Needs a supervisor's id and PIN — except on a database where no supervisor was ever
    registered: then, with no supervisor id given, the first user is created by
    bootstrapping, and must be a supervisor with a PIN (recorded as `user`/`bootstrap`,
    signed with the key it makes)."""
    users.check_role(role)
    if role == Role.SUPERVISOR and pin is None:
        raise AuditError("a supervisor needs a PIN")
    if supervisor_id is None:
        return bootstrap(storage, user_id, role, pin).record_id
    pin_hash = keys.make_key(pin, user_id)[0] if pin is not None else None
    return supervised(
        storage,
        supervisor_id,
        supervisor_pin,
        "user-add",
        lambda tx, sup: users.write_user(
            tx, sup.user_id, Role.SUPERVISOR, UserAction.ADD, user_id, role, True, pin_hash
        ),
    )


def change_user(
    storage: Storage,
    user_id: str,
    *,
    role: str | None = None,
    pin: str | None = None,
    active: bool | None = None,
    supervisor_id: str,
    supervisor_pin: str,
) -> int:
    """Change a registered user's role, PIN or active flag (a supervisor action); return the
    record id. At least one active supervisor remains, and every supervisor keeps a PIN."""
    if role is None and pin is None and active is None:
        raise AuditError("nothing to change: give a role, a PIN or active/disabled")
    if role is not None:
        users.check_role(role)
    pin_hash = keys.make_key(pin, user_id)[0] if pin is not None else None
    return supervised(
        storage,
        supervisor_id,
        supervisor_pin,
        "user-change",
        lambda tx, sup: users.change_row(tx, sup.user_id, user_id, role, pin_hash, active),
    )


class Recovered(NamedTuple):
    """A record that made a recovery key (a bootstrap, a recovery, a replacement) and that key's
    private half, to be printed once."""

    record_id: int
    recovery_key: str


FIRST_USER = "the first user of an audit database must be a supervisor (with a PIN)"
"""Why a log's first user is refused when they are not a supervisor with a PIN."""


def bootstrap(storage: Storage, user_id: str, role: str, pin: str | None) -> Recovered:
    """Register the first supervisor of a log that never had one, signed with the key their
    PIN makes, and the operator's recovery key (`Recovered`)."""
    made = keys.make_key(pin, user_id) if role == Role.SUPERVISOR and pin is not None else None
    public, recovery = keys.make_recovery_key()
    with storage.transaction() as tx:
        if tx.supervisor_ever_registered():
            raise AccessError("adding a user needs a supervisor id and PIN")
        if made is None:
            raise AccessError(FIRST_USER)
        pin_hash, private = made
        made_id = users.write_user(
            SigningTransaction(tx, user_id, private),
            user_id,
            Role.SUPERVISOR,
            UserAction.BOOTSTRAP,
            user_id,
            Role.SUPERVISOR,
            True,
            pin_hash,
            settings={users.RECOVERY_KEY: public},
        )
    return Recovered(made_id, recovery)


def recover(storage: Storage, user_id: str, pin: str, recovery_key: str) -> Recovered:
    """Register `user_id` as an active supervisor with a new `pin` (or, if registered, make
    them one, with that PIN, enabled), authorised by the operator's `recovery_key`: for a log
    whose every supervisor forgot their PIN or is disabled. The record names a new recovery
    key (`Recovered`); the one typed is spent. AccessError if `recovery_key` is not the log's."""
    typed = keys.recovery_private(recovery_key)
    pin_hash, private = keys.make_key(pin, user_id)
    public, recovery = keys.make_recovery_key()
    with storage.transaction() as tx:
        current = users.recovery_key(tx)
        if current is None:
            raise AccessError(
                "this audit log has no recovery key (it was bootstrapped by release 0.2.0): a "
                "supervisor makes one with dealer audit user recovery-key"
            )
        if keys.public_hex(typed) != current:
            raise AccessError("that is not this audit log's recovery key: nothing changed")
        row = tx.user(user_id)
        made = users.write_user(
            SigningTransaction(tx, user_id, private),
            user_id,
            Role.SUPERVISOR,
            UserAction.RECOVER,
            user_id,
            Role.SUPERVISOR,
            True,
            pin_hash,
            was=users.user_of(row) if row else None,
            was_pin=row.pin_hash if row else None,
            settings={users.RECOVERY_KEY: public},
            recovery=typed,
        )
    return Recovered(made, recovery)


def new_recovery_key(storage: Storage, supervisor_id: str, supervisor_pin: str) -> Recovered:
    """Replace the operator's recovery key (a supervisor action, signed): the old one no longer
    recovers anything. For a log with none (bootstrapped by release 0.2.0) or a key that may
    have been seen."""
    public, recovery = keys.make_recovery_key()

    def record(tx: WriteTransaction, sup: users.User) -> int:
        return tx.append(
            Entry(
                kind=RecordKind.USER,
                user_id=sup.user_id,
                role=Role.SUPERVISOR,
                action=UserAction.RECOVERY_KEY,
                result={"recovery_key": public},
                explanation=[f"{sup.user_id} made a new recovery key for the operator"],
                settings={users.RECOVERY_KEY: public},
            )
        )

    made = supervised(storage, supervisor_id, supervisor_pin, "recovery-key", record)
    return Recovered(made, recovery)
