"""Registering users and changing them: supervisor actions, except the very first supervisor of
a new audit database, who registers themself (a bootstrap, on the record as such)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from dealer.audit import keys, users
from dealer.audit.authority import SigningTransaction, supervised
from dealer.audit.records import Role
from dealer.audit.users import UserAction
from dealer.kernel.errors import AccessError, AuditError

if TYPE_CHECKING:
    from dealer.audit.storage import Storage


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
    made = keys.make_key(pin, user_id) if pin is not None else None
    pin_hash = made[0] if made else None
    if supervisor_id is None:
        with storage.transaction() as tx:
            if tx.supervisor_ever_registered():
                raise AccessError("adding a user needs a supervisor id and PIN")
            if role != Role.SUPERVISOR:
                raise AccessError(
                    "the first user of an audit database must be a supervisor (with a PIN)"
                )
            self_signed = SigningTransaction(tx, user_id, made[1] if made else None)
            return users.write_user(
                self_signed,
                user_id,
                Role.SUPERVISOR,
                UserAction.BOOTSTRAP,
                user_id,
                Role.SUPERVISOR,
                True,
                pin_hash,
            )
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
