"""Verifying the log: the whole hash chain recomputed, checked against checkpoints kept outside,
the users table checked against the records behind it, and the backend's own checks."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from dealer.audit import keys
from dealer.audit.chain import ChainCheck, Checkpoint, VerifyResult
from dealer.audit.entries import CHECKPOINT_ROLES
from dealer.audit.meters import MeterAction
from dealer.audit.records import RecordFilter, RecordKind, Role, UserRow
from dealer.audit.users import (
    LOCKOUT_AFTER,
    UserAction,
    actor_problem,
    roles_said,
    user_record_result,
)

if TYPE_CHECKING:
    from dealer.audit.storage import Storage


def verify(storage: Storage, checkpoints: Sequence[Checkpoint] = ()) -> VerifyResult:
    """Recompute the whole chain; check the backend's append-only protection, the users table
    against its records, the backend's integrity check, and the log against `checkpoints`."""
    check = ChainCheck(list(checkpoints))
    problems: list[str] = []
    with storage.snapshot():
        check.feed(storage.rows())
        first_bad = check.first_bad
        if check.problem:
            problems.append(check.problem)
        against = check.checkpoint_problem()
        if against:
            first_bad = first_bad if first_bad is not None else against[0]
            problems.append(against[1])
        history = list(_history_problems(storage.rows()))
        if history:
            first_bad = first_bad if first_bad is not None else history[0][0]
            problems.extend(problem for _, problem in history)
        problems.extend(storage.protection_problems())
        problems.extend(_user_problems(storage))
        problems.extend(storage.integrity_problems())
    return VerifyResult(
        ok=not problems,
        records=check.rows,
        first_bad=first_bad,
        problem=problems[0] if problems else None,
        problems=tuple(problems),
    )


SUPERVISOR_ACTIONS = frozenset(
    {
        RecordKind.OVERRIDE,
        RecordKind.VOID,
        RecordKind.DISPUTE_RESOLUTION,
        RecordKind.DISPUTE_CORRECTION,
        RecordKind.PROFILE_CHANGE,
        RecordKind.PAYTABLE_CHANGE,
        RecordKind.USER,
        RecordKind.SIGNOFF,
    }
)
"""Kinds of record only an active supervisor makes (and a meter record other than a ruling's
`move`: an adjustment); each is signed by its maker's key (`dealer.audit.keys`)."""


SIGNED_CHECKPOINTS_SINCE = (0, 2, 0)
"""The release from which a checkpoint is taken by a supervisor or an auditor, signed with
their key (`entries.checkpoint`); verify holds checkpoints to that from the first record such a
release wrote, so that a log kept by an earlier release still verifies."""


def release(version: object) -> tuple[int, ...]:
    """A record's `software_version` as numbers to compare (`0.2.0` is (0, 2, 0)); text that is
    not dotted numbers counts as the newest release, held to every rule."""
    parts = str(version).split(".")
    if all(part.isascii() and part.isdigit() and len(part) <= 9 for part in parts):
        return tuple(int(part) for part in parts)
    return (10**9,)


def _supervising(row: Mapping[str, Any]) -> bool:
    """Whether the record `row` is a supervisor action (a lock is made without a secret)."""
    kind, action = row["kind"], row["action"]
    if kind == RecordKind.USER and action == UserAction.LOCK:
        return False
    return kind in SUPERVISOR_ACTIONS or (kind == RecordKind.METER and action != MeterAction.MOVE)


def _history_problems(rows: Iterable[Mapping[str, Any]]) -> Iterator[tuple[int, str]]:
    """Each record whose maker could not make it at that point of the log, each supervisor
    action not signed by its maker's key then, each signature seen twice, each lock not earned
    by wrong PINs, each checkpoint not signed by its maker's key then, and each checkpoint
    recorded in the log that the chain no longer matches, as (record id, problem), in order.

    The users are replayed from the `user` records: a supervisor action needs its maker to be,
    at that point, a registered, active supervisor (the first user record of a log may register
    its own maker as the first supervisor: the bootstrap, signed by the key it records); every
    other record's role must be its maker's registered role then (an id never registered acts as
    a dealer). A checkpoint is signed by its maker like a supervisor action, and one whose maker
    has a key must be a supervisor's or an auditor's, from the first record a release from
    `SIGNED_CHECKPOINTS_SINCE` on wrote (before, anyone took a checkpoint, unsigned; a
    checkpoint claiming an older release after that point is held to the rule). A maker with no
    key on the chain (a PIN from before signing keys) could not sign: such records are not
    asked to be."""
    signing_checkpoints = False
    standing: dict[str, UserRow] = {}
    public: dict[str, str] = {}
    wrong: dict[str, int] = {}
    values: set[str] = set()
    hashes: dict[int, str] = {}
    for row in rows:
        record_id, maker, kind = int(row["id"]), str(row["user_id"]), str(row["kind"])
        hashes[record_id] = str(row["hash"])
        signing_checkpoints = signing_checkpoints or (
            release(row["software_version"]) >= SIGNED_CHECKPOINTS_SINCE
        )
        signed_checkpoint = kind == RecordKind.CHECKPOINT and signing_checkpoints
        result = _json(row["result"])
        result = result if isinstance(result, dict) else {}
        if kind == RecordKind.CHECKPOINT and isinstance(result.get("records"), int):
            counted = result["records"]
            if counted and hashes.get(counted) != result.get("head_hash"):
                yield (
                    record_id,
                    f"the chain no longer matches checkpoint #{record_id} at record {counted}: "
                    "the history before it was rewritten",
                )
        bootstrap = kind == RecordKind.USER and not standing and result.get("user") == maker
        problem = None
        if kind != RecordKind.ACCESS_DENIED and not bootstrap:
            now = standing.get(maker)
            problem = actor_problem(now, maker, str(row["role"]), kind)
            if (
                problem is None
                and _supervising(row)
                and (now is None or now.role != Role.SUPERVISOR)
            ):
                problem = f"{maker} was not a registered supervisor"
            keyed = signed_checkpoint and maker in public
            if problem is None and keyed and (now is None or now.role not in CHECKPOINT_ROLES):
                problem = f"{maker} was not a registered {roles_said(CHECKPOINT_ROLES)}"
        if problem is None:
            problem = _approver_problem(row, standing)
        if problem is None and kind == RecordKind.USER and row["action"] == UserAction.LOCK:
            problem = _lock_problem(result, maker, wrong.get(maker, 0))
        key = result.get("key") if bootstrap else public.get(maker)
        signature = keys.signature_of(row)
        signed = _supervising(row) or signed_checkpoint or bootstrap or signature is not None
        if problem is None and signed and isinstance(key, str):
            why = keys.signature_problem(row, key)
            problem = f"{why} of {maker}" if why else None
        if problem is None and signature is not None:
            if signature.get("value") in values:
                problem = "its signature was already used by an earlier record: it is a copy"
            values.add(str(signature.get("value")))
            wrong[maker] = 0
        if problem is not None:
            yield (record_id, f"record {record_id} ({kind}): at that point {problem}")
        if kind == RecordKind.ACCESS_DENIED and result.get("why") == "wrong-pin":
            wrong[maker] = wrong.get(maker, 0) + 1
        if kind == RecordKind.USER and isinstance(result.get("user"), str):
            who = result["user"]
            standing[who] = UserRow(
                record_id, who, str(result.get("role")), bool(result.get("active")), None
            )
            wrong[who] = 0
            if isinstance(result.get("key"), str):
                public[who] = result["key"]
            else:
                public.pop(who, None)


def _approver_problem(row: Mapping[str, Any], standing: Mapping[str, UserRow]) -> str | None:
    """Why the supervisor a ruling names as approving its rule changes could not approve them
    at that point (not a registered, active supervisor), or None. The approver authenticated
    when the ruling was made; this catches a name written in afterwards or a disabled one."""
    settings = _json(row["settings"])
    approver = settings.get("rule_changes_approved_by") if isinstance(settings, dict) else None
    if approver is None:
        return None
    now = standing.get(str(approver))
    if now is None or now.role != Role.SUPERVISOR or not now.active:
        return f"{approver}, named as approving its rule changes, was not an active supervisor"
    return None


def _lock_problem(result: Mapping[str, Any], maker: str, wrong: int) -> str | None:
    """Why a `user`/`lock` record by `maker` is not a lockout they earned, or None."""
    if result.get("user") != maker or result.get("active") is not False:
        return "a lock record may only disable its own maker"
    if wrong < LOCKOUT_AFTER:
        return f"{maker} was locked after {wrong} wrong PINs, not {LOCKOUT_AFTER}"
    return None


def _user_problems(storage: Storage) -> Iterator[str]:
    """Each users row whose record is missing, is not a `user` record, or says otherwise."""
    history = storage.user_history()
    ids = tuple(sorted({row.record_id for row in history}))
    behind = {row["id"]: row for row in storage.rows(RecordFilter(ids=ids))} if ids else {}
    for user_row in history:
        record = behind.get(user_row.record_id)
        expected = user_record_result(
            user_row.user_id, user_row.role, user_row.active, user_row.pin_hash
        )
        if (
            record is None
            or record["kind"] != RecordKind.USER
            or _json(record["result"]) != expected
        ):
            yield (
                f"the users table row of {user_row.user_id} does not match record "
                f"{user_row.record_id}: it was changed outside the tool"
            )


def _json(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return None
