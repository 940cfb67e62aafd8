"""Users, roles and supervisor PINs.

Roles: `dealer` (rules hands), `supervisor` (also overrides, voids, resolves disputes, adjusts
meters, changes profiles and pay tables: each with their id and PIN), `auditor` (reads only).
A PIN (at least 10 characters) seals the user's signing key (`dealer.audit.keys`) and is never
stored; the sealed key is kept in the users row, its public half on the user's record.

The guesser is throttled, never the guessed: a refusal of a typed PIN is recorded in the name of
who typed it (the terminal's login: `authority`), naming whose PIN it was (`TARGET`), and after
`LOCKOUT_AFTER` wrong PINs in a row of one user's from one login that login may not try that
user's PIN for a while (`lockout`), longer with each further wrong PIN up to an hour; the user
themself, and every other login, go on working. The lockout ends by itself: no record says so,
it is recomputed from the access-denied records. (Release 0.2.0 recorded a lock as a
`user`/`lock` record disabling the user until a supervisor enabled them; such a record still
stands where that release wrote it, and counts for nothing after the log's first signature
bound to its place: `authority.chain_users`.) A new PIN is checked for strength
(`keys.check_secret`). The `users` table keeps one row per change, each
tied to the `user` record that made it; a person's current state is their newest row. Ids that
were never registered may rule as dealers.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import UTC, datetime, timedelta
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from dealer.audit.records import Entry, Record, RecordFilter, RecordKind, Role, UserRow
from dealer.inputs import TIME_FORMAT
from dealer.kernel.digest import sha256_hex
from dealer.kernel.errors import AccessError, AuditError
from dealer.kernel.tuples import NamedTuple

if TYPE_CHECKING:
    from collections.abc import Sequence

    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    from dealer.audit.storage import Reads, WriteTransaction

LOCKOUT_AFTER = 5
"""Wrong secrets in a row after which a registered user is locked for a while (`lockout`)."""
LOCKOUT_FIRST_SECONDS = 60
"""How long the `LOCKOUT_AFTER`th wrong secret in a row locks a user; each further one doubles."""
LOCKOUT_MAX_SECONDS = 3600
"""The longest a lockout lasts, however many wrong secrets: no one is ever locked out for good."""
LOCKOUT_COUNTED = LOCKOUT_AFTER + 12
"""The most wrong secrets in a row a lockout counts: from there on each lasts the longest."""
LOCKOUT_WINDOW_SECONDS = 24 * 3600
"""How far back a lockout counts wrong secrets: a day without one starts the count again."""
TARGET = "target"
"""The field of an access-denied record's result naming whose PIN was typed; its maker is who
typed it. A refusal of a release before throttling by guesser names none: it was made in its
target's own name (`refused_target`)."""


class UserAction(StrEnum):
    """The action of a `user` record: the first supervisor registering themself (bootstrap), a
    supervisor adding or changing a user, a supervisor registered or given a new key with the
    operator's recovery key (recover), a supervisor replacing the recovery key, or — written by
    release 0.2.0 only — a user locked after `LOCKOUT_AFTER` wrong secrets (a record of theirs,
    made without their secret, which may change nothing but disable them)."""

    BOOTSTRAP = "bootstrap"
    ADD = "add"
    CHANGE = "change"
    RECOVER = "recover"
    RECOVERY_KEY = "recovery-key"
    LOCK = "lock"


RECOVERY = "recovery"
"""The key in a `user`/`recover` record's `settings` holding the recovery key's signature."""
RECOVERY_KEY = "recovery_key"
"""The key in the `settings` of a bootstrap, a recovery or a `user`/`recovery-key` record
naming the operator's recovery key from then on (its public half, hex)."""


def recovery_key_named(kind: str, action: str, settings: Any) -> str | None:
    """The recovery key a record of `kind`/`action` with `settings` names, or None."""
    setting = (UserAction.BOOTSTRAP, UserAction.RECOVER, UserAction.RECOVERY_KEY)
    named = settings.get(RECOVERY_KEY) if isinstance(settings, dict) else None
    if kind == RecordKind.USER and action in setting and isinstance(named, str):
        return named
    return None


def recovery_signature_problem(row: Mapping[str, Any], recovery: str) -> str | None:
    """Why the stored `user`/`recover` record `row` is not signed by the operator's recovery
    key `recovery` (its public half), or None. Checked on the row as that key signed it: its
    settings with the `RECOVERY` signature in the place of the maker's own (which covers it)."""
    from dealer.audit import keys  # key work only: kept off a ruling's start-up

    settings = json.loads(row["settings"])
    signed = settings.pop(RECOVERY, None)
    settings.pop(keys.SIGNATURE, None)
    if signed is not None:
        settings[keys.SIGNATURE] = signed
    return keys.signature_problem({**row, "settings": json.dumps(settings)}, recovery)


def recovery_key(reads: Reads) -> str | None:
    """The operator's recovery key now (public half, hex): the last one a `user` record named,
    None if none ever did (a log bootstrapped by release 0.2.0, until a supervisor makes one)."""
    found = None
    for made in reads.records(RecordFilter(kind=RecordKind.USER)):
        found = recovery_key_named(made.kind, made.action, made.settings) or found
    return found


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


def user_of(row: UserRow) -> User:
    """The standing a users row gives (no PIN material)."""
    return User(row.user_id, row.role, row.active, row.pin_hash is not None, row.record_id)


def check_role(role: str) -> str:
    """`role` if it is one of the roles, else AuditError."""
    if role not in tuple(Role):
        raise AuditError(f"role {role!r} is not one of {', '.join(Role)}")
    return role


class Unlocked(NamedTuple):
    """A secret that matched: the signing key it opened (None for a PIN hash made before
    signing keys, which checks the PIN but has no key)."""

    private: Ed25519PrivateKey | None


def unlock(pin: str, stored: str | None) -> Unlocked | None:
    """What `pin` opens in the stored secret (a key blob, or a legacy `scrypt$` PIN hash), or
    None when it is not the secret behind it."""
    from dealer.audit import keys  # key work only: kept off a ruling's start-up

    if keys.parse_blob(stored) is not None:
        private = keys.open_key(pin, stored)
        return Unlocked(private) if private is not None else None
    return Unlocked(None) if _legacy_pin_matches(pin, stored) else None


def _legacy_pin_matches(pin: str, stored: str | None) -> bool:
    """Whether `pin` is the PIN behind a salted scrypt hash `scrypt$N$r$p$SALT$HASH` (hex),
    as stored before signing keys (constant-time compare)."""
    if stored is None or not isinstance(pin, str):
        return False
    try:
        scheme, n, r, p, salt, digest = stored.split("$")
        if scheme != "scrypt" or int(n) > 2**20:
            return False
        import hashlib  # PIN work only: kept off a ruling's start-up

        computed = hashlib.scrypt(
            pin.encode("utf-8"), salt=bytes.fromhex(salt), n=int(n), r=int(r), p=int(p), dklen=32
        )
    except ValueError:
        return False
    import hmac

    return hmac.compare_digest(computed.hex(), digest)


def pin_fingerprint(stored: str | None) -> str | None:
    """SHA-256 of the stored secret: written on user records so `verify` can tell a secret
    swapped in the users table, without putting the blob itself in exports. A secret the
    PostgreSQL server withholds (`keys.Withheld`) carries the fingerprint of the one it keeps."""
    if stored is None:
        return None
    from dealer.audit import keys  # key work only: kept off a ruling's start-up

    withheld = keys.parse_withheld(stored)
    return withheld.fingerprint if withheld is not None else sha256_hex(stored)


def user(reads: Reads, user_id: str) -> User | None:
    """The registered user `user_id` now, or None."""
    row = reads.user(user_id)
    return user_of(row) if row else None


def all_users(reads: Reads) -> list[User]:
    """Every registered user's current standing, by id."""
    return [user_of(row) for row in reads.users()]


def role_of(reads: Reads, user_id: str) -> str:
    """The role `user_id` acts in: their registered role, else dealer."""
    row = reads.user(user_id)
    return row.role if row else Role.DEALER


def active_supervisors(reads: Reads) -> list[str]:
    """Ids of the active supervisors now."""
    return [row.user_id for row in reads.users() if row.active and row.role == Role.SUPERVISOR]


def roles_said(roles: Sequence[str]) -> str:
    """`roles` as said in a refusal: "supervisor", "supervisor or auditor"."""
    return " or ".join(roles)


def needs_id(action: str, roles: Sequence[str] = (Role.SUPERVISOR,)) -> str:
    """What `action` kept to `roles` needs: "void needs a supervisor id and PIN"."""
    return f"{action} needs {_a(roles_said(roles))} id and PIN"


def unregistered(user_id: str, action: str, roles: Sequence[str] = (Role.SUPERVISOR,)) -> str:
    """The refusal of an `action` for one of `roles` named on an id nobody registered."""
    who = roles_said(roles)
    return (
        f"user {user_id} is not a registered {who}: {action} needs the id and PIN of an "
        f"active {who}"
    )


def refusal(
    row: UserRow,
    user_id: str,
    pin_ok: bool,
    action: str,
    *,
    locked: bool = False,
    held: Lockout | None = None,
    roles: Sequence[str] = (Role.SUPERVISOR,),
) -> tuple[str, str] | None:
    """Why the registered `user_id` may not do `action`, kept to `roles` (a short code and a
    sentence), or None when they may. `pin_ok` is whether the PIN given matches the row's
    secret; `locked` whether the row disabling them is a lock record of release 0.2.0; `held`
    the lockout of whoever typed it when it holds now (the PIN was not checked). A role not
    allowed is coded `not-` and the roles (`not-supervisor`, `not-supervisor-or-auditor`); a
    user with no PIN (an auditor may be registered without one) is `no-pin`, which no lockout
    counts."""
    if held is not None:
        return "locked", (
            f"{held.said(user_id)}: {action} refused (the PIN was not checked) until "
            f"{held.until_text()}"
        )
    if locked:
        return "locked", (
            f"{user_id} is locked after {LOCKOUT_AFTER} wrong PINs: {action} refused until "
            "another supervisor enables them"
        )
    if not row.active:
        return "disabled", f"{user_id} is disabled: {action} refused"
    if row.role not in roles:
        return "not-" + "-or-".join(roles), (
            f"{user_id} is {_a(row.role)}: {needs_id(action, roles)}"
        )
    if row.pin_hash is None:  # no PIN can be right: not a wrong PIN, never a lockout
        return "no-pin", (
            f"{user_id} has no PIN: {action} refused until a supervisor gives them one"
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
        if role != Role.DEALER:
            return f"{user_id} is not a registered {role}: unregistered ids act as dealers"
        return None
    if not row.active:
        return f"{user_id} is disabled"
    if role != row.role:
        return f"{user_id} is registered as {_a(row.role)}, not {_a(role)}"
    if role == Role.AUDITOR and kind != RecordKind.CHECKPOINT:
        return f"{user_id} is an auditor: auditors read the record and take checkpoints only"
    return None


def user_record_result(
    user_id: str, role: str, active: bool, pin_hash: str | None
) -> dict[str, Any]:
    """The `result` of the user record behind a users row: what `verify` compares them on.
    `key` (the public key of their signing key, hex) only when their secret has one."""
    from dealer.audit import keys  # key work only: kept off a ruling's start-up

    result: dict[str, Any] = {
        "user": user_id,
        "role": role,
        "active": active,
        "pin_fingerprint": pin_fingerprint(pin_hash),
    }
    public = keys.public_key(pin_hash)
    if public is not None:
        result["key"] = public
    return result


def acting_role(reads: Reads, user_id: str, kind: str, role: str | None = None) -> str:
    """The role `user_id` puts a record of `kind` on the log in — `role` as said, else their
    registered role, else dealer — once they are checked to be allowed in it (`actor_problem`,
    AccessError): one read of the maker, made in the transaction that records it."""
    row = reads.user(user_id) if isinstance(user_id, str) else None
    acting = role or (row.role if row else Role.DEALER)
    problem = actor_problem(row, user_id, acting, kind)
    if problem:
        raise AccessError(problem)
    return acting


def append_checked(tx: WriteTransaction, entry: Entry) -> int:
    """Put `entry` on the record as made by `entry.user_id`; return its id. Registered users
    act in their own role only (`actor_problem`); ids never registered act as dealers."""
    acting_role(tx, entry.user_id, entry.kind, entry.role)
    return tx.append(entry)


def write_user(
    tx: WriteTransaction,
    actor_id: str,
    actor_role: str,
    action: UserAction,
    user_id: str,
    role: str,
    active: bool,
    pin_hash: str | None,
    *,
    was: User | None = None,
    was_pin: str | None = None,
    settings: dict[str, Any] | None = None,
    recovery: Ed25519PrivateKey | None = None,
) -> int:
    """Record a user change (`add`, `bootstrap`, `change`, `recover`) made by `actor_id`, with
    `settings`, and store the new users row; return the record id. Adding an id that exists is
    refused. With `recovery` (the operator's recovery key) the record carries its signature
    under `RECOVERY`, which the maker's own signature then covers."""
    if action in (UserAction.ADD, UserAction.BOOTSTRAP) and tx.user(user_id) is not None:
        raise AuditError(f"user {user_id} already exists: change them instead")
    lines = [f"{actor_id} {'registered' if was is None else 'changed'} {user_id}: {role}"]
    if was is not None:
        if was.role != role:
            lines.append(f"role {was.role} -> {role}")
        if was.active != active:
            lines.append("enabled" if active else "disabled")
    if pin_hash is not None and (was is None or pin_hash != was_pin):
        lines.append("PIN set (a new signing key)")
    if action == UserAction.BOOTSTRAP:
        lines.append("first supervisor of this audit database (bootstrap)")
    if action == UserAction.RECOVER:
        lines.append("authorised by the operator's recovery key (recover)")
    entry = Entry(
        kind=RecordKind.USER,
        user_id=actor_id,
        role=actor_role,
        action=action,
        result=user_record_result(user_id, role, active, pin_hash),
        explanation=lines,
        settings=settings or {},
    )
    if recovery is not None:
        from dealer.audit import keys  # key work only: kept off a ruling's start-up

        countersigned = keys.sign(entry, recovery, tx.head().head_hash).settings[keys.SIGNATURE]
        entry = entry._replace(settings={**entry.settings, RECOVERY: countersigned})
    record_id = tx.append(entry)
    tx.add_user(UserRow(record_id, user_id, role, active, pin_hash))
    return record_id


def change_row(
    tx: WriteTransaction,
    actor_id: str,
    user_id: str,
    role: str | None,
    pin_hash: str | None,
    active: bool | None,
) -> int:
    """Change `user_id`'s role, PIN or active flag; keeps at least one active supervisor and
    a PIN on every supervisor. What is kept of the row (a role, a key) is carried only from a
    row its record vouches for (`vouched_row`): a change never signs in what was written
    around the tool."""
    row = vouched_row(tx, user_id)
    new_role = role if role is not None else row.role
    new_active = active if active is not None else row.active
    new_pin = pin_hash if pin_hash is not None else row.pin_hash
    from dealer.audit import keys  # key work only: kept off a ruling's start-up

    if new_role == Role.SUPERVISOR and keys.public_key(new_pin) is None:
        raise AuditError(
            f"{user_id} needs a new PIN to be a supervisor (it makes their signing key)"
        )
    still_supervising = new_role == Role.SUPERVISOR and new_active
    if not still_supervising and active_supervisors(tx) == [user_id]:
        raise AuditError(f"{user_id} is the last active supervisor: register another one first")
    return write_user(
        tx,
        actor_id,
        Role.SUPERVISOR,
        UserAction.CHANGE,
        user_id,
        new_role,
        new_active,
        new_pin,
        was=user_of(row),
        was_pin=row.pin_hash,
    )


def vouched_row(reads: Reads, user_id: str) -> UserRow:
    """The newest users row of `user_id` once its record is checked to say the same (role,
    active, the secret's fingerprint and public key) and, for a lock record of release 0.2.0,
    to change nothing of the user but disable them (`lock_changes`); else AuditError. A users
    row or a lock record written around the tool is never carried into a signed change."""
    row = reads.user(user_id)
    if row is None:
        raise AuditError(f"there is no user {user_id}")
    record = reads.record(row.record_id)
    said = user_record_result(row.user_id, row.role, row.active, row.pin_hash)
    if (
        record is None
        or record.kind != RecordKind.USER
        or record.result != said
        or (record.action == UserAction.LOCK and lock_changes(reads, record) is not None)
    ):
        raise AuditError(
            f"the users table row of {user_id} is not what its record {row.record_id} vouches "
            "for: it was written outside the tool (run dealer audit verify); nothing changed"
        )
    return row


def lock_changes(reads: Reads, lock: Record) -> str | None:
    """What the lock record `lock` (release 0.2.0's) changes of its user besides disabling
    them — their role, key or secret, against the user record before it — or None. A lock
    is made without a secret: it may change nothing else."""
    who = lock.result.get("user")
    before = next(
        (
            made
            for made in reads.records(RecordFilter(kind=RecordKind.USER), newest_first=True)
            if made.id < lock.id and made.result.get("user") == who
        ),
        None,
    )
    if before is None:
        return "a lock record of someone never registered"
    for field in ("role", "key", "pin_fingerprint"):
        if lock.result.get(field) != before.result.get(field):
            return f"a lock record changing the {field} of {who}"
    return None


def is_locked(reads: Reads, row: UserRow) -> bool:
    """Whether the users row `row` is a lock of release 0.2.0 (its record a `user`/`lock`),
    which disables the user until a supervisor enables them."""
    if row.active:
        return False
    record = reads.record(row.record_id)
    return record is not None and record.action == UserAction.LOCK


def now() -> datetime:
    """The time a lockout is held against (UTC): the one clock of `lockout`, which the tests
    set instead of waiting."""
    return datetime.now(UTC)


def lockout_seconds(failures: int) -> int:
    """How long `failures` wrong secrets in a row lock a user: none below `LOCKOUT_AFTER`, then
    `LOCKOUT_FIRST_SECONDS` doubling with each one more, at most `LOCKOUT_MAX_SECONDS` (the
    rule verify and the PostgreSQL functions apply too)."""
    if failures < LOCKOUT_AFTER:
        return 0
    doublings = min(failures - LOCKOUT_AFTER, 12)
    return min(LOCKOUT_FIRST_SECONDS * 2**doublings, LOCKOUT_MAX_SECONDS)


class Lockout(NamedTuple):
    """The wrong secrets in a row one login (`guesser`) typed for one user, and the time (a
    record's `recorded_at`) of the latest."""

    failures: int
    latest: str | None
    guesser: str = ""

    def said(self, user_id: str) -> str:
        """The lockout as a refusal says it: `d-104 has typed 5 wrong PINs in a row for S1`."""
        return f"{self.guesser} has typed {self.failures} wrong PINs in a row for {user_id}"

    @property
    def until(self) -> datetime | None:
        """When the lockout ends (the latest wrong secret + `lockout_seconds`), None if the
        failures lock nobody."""
        seconds = lockout_seconds(self.failures)
        if not seconds or self.latest is None:
            return None
        return datetime.fromisoformat(self.latest) + timedelta(seconds=seconds)

    def holds_at(self, when: datetime | str) -> bool:
        """Whether the lockout holds at `when` (a time, or a record's `recorded_at`)."""
        until = self.until
        at = datetime.fromisoformat(when) if isinstance(when, str) else when
        return until is not None and at < until

    def until_text(self) -> str:
        """When the lockout ends, as said in a refusal: `2026-11-27 10:05:03 UTC`."""
        until = self.until
        return until.strftime("%Y-%m-%d %H:%M:%S UTC") if until else "now"


def refused_target(maker: str, result: Mapping[str, Any]) -> str:
    """Whose PIN an access-denied record by `maker` (its `result`) refused: the one it names
    (`TARGET`), else its maker's own (a refusal made before throttling by guesser)."""
    target = result.get(TARGET)
    return target if isinstance(target, str) else maker


def lockout(reads: Reads, row: UserRow, guesser: str) -> Lockout:
    """The lockout of `guesser` (who typed) for the PIN of the user of `row`, recomputed from
    the record: the `wrong-pin` refusals `guesser` made naming that user in the last
    `LOCKOUT_WINDOW_SECONDS`, newest first, back to the record that set `row` (a signed change
    of them, a recovery) or, when the guesser is that user, the newest record carrying their
    signature (their PIN typed right: the count starts again), at most `LOCKOUT_COUNTED`; a
    refusal while locked (`locked`) is not counted. Nothing but the access-denied records says
    anyone is locked; another login's wrong PINs never count against this one, and the user's
    own right PIN at another terminal never clears this one's."""
    since = _last_signed(reads, row) if guesser == row.user_id else row.record_id
    window = (now() - timedelta(seconds=LOCKOUT_WINDOW_SECONDS)).strftime(TIME_FORMAT)
    count, latest = 0, None
    flt = RecordFilter(user_id=guesser, kind=RecordKind.ACCESS_DENIED, since=window)
    for made in reads.rows(flt, newest_first=True):
        if made["id"] <= since or count >= LOCKOUT_COUNTED:
            break
        result = json.loads(made["result"])
        if result.get("why") == "wrong-pin" and refused_target(guesser, result) == row.user_id:
            count += 1
            latest = latest or str(made["recorded_at"])
    return Lockout(count, latest, guesser)


def _last_signed(reads: Reads, row: UserRow) -> int:
    """The newest record after the one that set `row` made by its user and carrying their
    signature (their PIN typed right), else that one."""
    from dealer.audit import keys  # key work only: kept off a ruling's start-up

    for made in reads.rows(RecordFilter(user_id=row.user_id), newest_first=True):
        if made["id"] <= row.record_id:
            break
        if keys.signature_of(made) is not None:
            return int(made["id"])
    return row.record_id


def held_lockout(reads: Reads, row: UserRow, guesser: str) -> Lockout | None:
    """The lockout of `guesser` for the PIN of the user of `row` if it holds `now()`, else
    None."""
    found = lockout(reads, row, guesser)
    return found if found.holds_at(now()) else None
