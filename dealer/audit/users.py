"""Users, roles and supervisor PINs.

Roles: `dealer` (rules hands), `supervisor` (also overrides, voids, resolves disputes, adjusts
meters, changes profiles and pay tables: each with their id and PIN), `auditor` (reads only).
PINs are stored as salted scrypt hashes, never as typed. The `users` table keeps one row per
change, each tied to the `user` record that made it; a person's current state is their newest
row. Ids that were never registered may rule as dealers.
"""

from __future__ import annotations

import json
import re
import sqlite3
from typing import TYPE_CHECKING, Any, NamedTuple

from dealer.audit.records import AUDITOR, DEALER, ROLES, SUPERVISOR, USER, Entry
from dealer.kernel.digest import sha256_hex
from dealer.kernel.errors import AuditError

if TYPE_CHECKING:
    from sqlite_utils import Database

    from dealer.audit.log import Transaction

SCRYPT_N = 2**14
SCRYPT_R = 8
SCRYPT_P = 1
PIN_MIN_LENGTH = 4

_USER_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._@-]{0,63}")


class User(NamedTuple):
    """A person's current standing: id, role, whether active, whether a PIN is set, and the
    record that last changed them."""

    user_id: str
    role: str
    active: bool
    has_pin: bool
    record_id: int

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready (no PIN material)."""
        return {
            "user_id": self.user_id,
            "role": self.role,
            "active": self.active,
            "has_pin": self.has_pin,
            "record_id": self.record_id,
        }


class UserRow(NamedTuple):
    """A stored user row, PIN hash included (never leaves the audit package)."""

    user: User
    pin_hash: str | None


def check_user_id(user_id: str) -> str:
    """`user_id` if it is a usable id (letters, digits, `._@-`, up to 64), else AuditError."""
    if not isinstance(user_id, str) or not _USER_ID.fullmatch(user_id):
        raise AuditError(
            f"user id {user_id!r} is not valid: use letters, digits and . _ @ - (up to 64)"
        )
    return user_id


def check_role(role: str) -> str:
    """`role` if it is one of the roles, else AuditError."""
    if role not in ROLES:
        raise AuditError(f"role {role!r} is not one of {', '.join(ROLES)}")
    return role


def hash_pin(pin: str) -> str:
    """A salted scrypt hash of `pin`: `scrypt$N$r$p$SALT$HASH` (hex)."""
    if not isinstance(pin, str) or len(pin.strip()) < PIN_MIN_LENGTH:
        raise AuditError(f"a PIN needs at least {PIN_MIN_LENGTH} characters")
    import secrets  # PIN work only: kept off a ruling's start-up

    salt = secrets.token_bytes(16)
    digest = _scrypt(pin, salt, SCRYPT_N, SCRYPT_R, SCRYPT_P)
    return f"scrypt${SCRYPT_N}${SCRYPT_R}${SCRYPT_P}${salt.hex()}${digest.hex()}"


def pin_matches(pin: str, stored: str | None) -> bool:
    """Whether `pin` is the PIN behind the stored hash (constant-time compare)."""
    if stored is None or not isinstance(pin, str):
        return False
    try:
        scheme, n, r, p, salt, digest = stored.split("$")
        if scheme != "scrypt":
            return False
        computed = _scrypt(pin, bytes.fromhex(salt), int(n), int(r), int(p))
    except ValueError:
        return False
    import hmac

    return hmac.compare_digest(computed.hex(), digest)


def pin_fingerprint(stored: str | None) -> str | None:
    """SHA-256 of the stored PIN hash: written on user records so `verify` can tell a PIN hash
    swapped in the users table, without putting the hash itself in exports."""
    return None if stored is None else sha256_hex(stored)


def _scrypt(pin: str, salt: bytes, n: int, r: int, p: int) -> bytes:
    import hashlib  # PIN work only: kept off a ruling's start-up

    return hashlib.scrypt(pin.encode("utf-8"), salt=salt, n=n, r=r, p=p, dklen=32)


def _row_to_user(row: dict[str, Any]) -> UserRow:
    user = User(
        user_id=row["user_id"],
        role=row["role"],
        active=bool(row["active"]),
        has_pin=row["pin_hash"] is not None,
        record_id=row["record_id"],
    )
    return UserRow(user, row["pin_hash"])


def current_row(db: Database | sqlite3.Connection, user_id: str) -> UserRow | None:
    """The newest row of `user_id`, or None if the id was never registered (plain SQL: it is
    on every ruling's path)."""
    cursor = db.execute(
        "SELECT * FROM users WHERE user_id = ? ORDER BY record_id DESC LIMIT 1", [user_id]
    )
    row = cursor.fetchone()
    if row is None:
        return None
    return _row_to_user(dict(zip([d[0] for d in cursor.description], row, strict=True)))


def all_users(db: Database) -> list[User]:
    """Every registered user's current standing, by id."""
    rows = db.query(
        "SELECT u.* FROM users u WHERE u.record_id = "
        "(SELECT MAX(record_id) FROM users v WHERE v.user_id = u.user_id) ORDER BY u.user_id"
    )
    return [_row_to_user(row).user for row in rows]


def supervisor_ever_registered(db: Database) -> bool:
    """Whether any row ever gave someone the supervisor role (bootstrapping ends then)."""
    row = db.execute("SELECT 1 FROM users WHERE role = ? LIMIT 1", [SUPERVISOR]).fetchone()
    return row is not None


def active_supervisors(db: Database) -> list[str]:
    """Ids of the active supervisors now."""
    return [u.user_id for u in all_users(db) if u.active and u.role == SUPERVISOR]


def refusal(row: UserRow | None, user_id: str, pin_ok: bool, action: str) -> tuple[str, str] | None:
    """Why `user_id` may not do the supervisor `action` (a short code and a sentence), or None
    when they may. `pin_ok` is whether the PIN given matches the row's hash."""
    if row is None:
        return "unknown-user", f"{user_id} is not a registered user: {action} refused"
    if not row.user.active:
        return "disabled", f"{user_id} is disabled: {action} refused"
    if row.user.role != SUPERVISOR:
        return "not-supervisor", (
            f"{user_id} is {_a(row.user.role)}: {action} needs a supervisor id and PIN"
        )
    if not pin_ok:
        return "wrong-pin", f"wrong PIN for {user_id}: {action} refused"
    return None


def _a(role: str) -> str:
    return ("an " if role[:1] in "aeiou" else "a ") + role


def actor_problem(row: UserRow | None, user_id: str, role: str, kind: str) -> str | None:
    """Why `user_id` may not put a record of `kind` on the log as `role`, or None.

    Registered users act in their registered role and only while active; auditors only take
    checkpoints; ids never registered act as dealers."""
    if row is None:
        if role != DEALER:
            return f"{user_id} is not a registered {role}: unregistered ids act as dealers"
        return None
    if not row.user.active:
        return f"{user_id} is disabled"
    if role != row.user.role:
        return f"{user_id} is registered as {_a(row.user.role)}, not {_a(role)}"
    if role == AUDITOR and kind != "checkpoint":
        return f"{user_id} is an auditor: auditors read the record and take checkpoints only"
    return None


def user_record_result(
    user_id: str, role: str, active: bool, pin_hash: str | None
) -> dict[str, Any]:
    """The `result` of the user record behind a users row: what `verify` compares them on."""
    return {
        "user": user_id,
        "role": role,
        "active": active,
        "pin_fingerprint": pin_fingerprint(pin_hash),
    }


def parse_result(text: str) -> Any:
    """A stored result's JSON (None if it cannot be read)."""
    try:
        return json.loads(text)
    except ValueError:
        return None


def write_user(
    tx: Transaction,
    actor_id: str,
    actor_role: str,
    action: str,
    user_id: str,
    role: str,
    active: bool,
    pin_hash: str | None,
    *,
    was: User | None = None,
) -> int:
    """Record a user change (`add`, `bootstrap`, `change`) made by `actor_id` and store the new
    users row; return the record id. Adding an id that exists is refused."""
    if action != "change" and current_row(tx.db, user_id) is not None:
        raise AuditError(f"user {user_id} already exists: change them instead")
    lines = [f"{actor_id} {'registered' if was is None else 'changed'} {user_id}: {role}"]
    if was is not None:
        if was.role != role:
            lines.append(f"role {was.role} -> {role}")
        if was.active != active:
            lines.append("enabled" if active else "disabled")
    if pin_hash is not None:
        lines.append("PIN set")
    if action == "bootstrap":
        lines.append("first supervisor of this audit database (bootstrap)")
    record_id = tx.write(
        Entry(
            kind=USER,
            user_id=actor_id,
            role=actor_role,
            action=action,
            result=user_record_result(user_id, role, active, pin_hash),
            explanation=lines,
        )
    )
    tx.db.execute(
        "INSERT INTO users (record_id, user_id, role, active, pin_hash) VALUES (?, ?, ?, ?, ?)",
        [record_id, user_id, role, int(active), pin_hash],
    )
    return record_id


def change_user(
    tx: Transaction,
    actor_id: str,
    user_id: str,
    role: str | None,
    pin_hash: str | None,
    active: bool | None,
) -> int:
    """Change `user_id`'s role, PIN or active flag; keeps at least one active supervisor and
    a PIN on every supervisor."""
    row = current_row(tx.db, user_id)
    if row is None:
        raise AuditError(f"there is no user {user_id}")
    new_role = role if role is not None else row.user.role
    new_active = active if active is not None else row.user.active
    new_pin = pin_hash if pin_hash is not None else row.pin_hash
    if new_role == SUPERVISOR and new_pin is None:
        raise AuditError(f"{user_id} needs a PIN to be a supervisor")
    still_supervising = new_role == SUPERVISOR and new_active
    if not still_supervising and active_supervisors(tx.db) == [user_id]:
        raise AuditError(f"{user_id} is the last active supervisor: register another one first")
    return write_user(
        tx, actor_id, SUPERVISOR, "change", user_id, new_role, new_active, new_pin, was=row.user
    )
