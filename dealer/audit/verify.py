"""Verifying the log: the whole hash chain recomputed, checked against checkpoints kept outside,
the users table checked against the records behind it, and the backend's own checks."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from dealer.audit.chain import ChainCheck, Checkpoint, VerifyResult
from dealer.audit.records import (
    ACCESS_DENIED,
    CHECKPOINT,
    DISPUTE_CORRECTION,
    DISPUTE_RESOLUTION,
    METER,
    OVERRIDE,
    PAYTABLE_CHANGE,
    PROFILE_CHANGE,
    SIGNOFF,
    SUPERVISOR,
    USER,
    VOID,
    RecordFilter,
    UserRow,
)
from dealer.audit.users import actor_problem, user_record_result

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
        OVERRIDE,
        VOID,
        DISPUTE_RESOLUTION,
        DISPUTE_CORRECTION,
        PROFILE_CHANGE,
        PAYTABLE_CHANGE,
        USER,
        SIGNOFF,
    }
)
"""Kinds of record only an active supervisor makes (and a meter record other than a ruling's
`move`: an adjustment)."""


def _history_problems(rows: Iterable[Mapping[str, Any]]) -> Iterator[tuple[int, str]]:
    """Each record whose maker could not make it at that point of the log, and each checkpoint
    recorded in the log that the chain no longer matches, as (record id, problem), in order.

    The users are replayed from the `user` records: a supervisor action needs its maker to be,
    at that point, a registered, active supervisor (the first user record of a log may register
    its own maker as the first supervisor: the bootstrap); every other record's role must be
    its maker's registered role then (an id never registered acts as a dealer)."""
    standing: dict[str, UserRow] = {}
    hashes: dict[int, str] = {}
    for row in rows:
        record_id, maker, kind = int(row["id"]), str(row["user_id"]), str(row["kind"])
        hashes[record_id] = str(row["hash"])
        result = _json(row["result"])
        result = result if isinstance(result, dict) else {}
        if kind == CHECKPOINT and isinstance(result.get("records"), int):
            counted = result["records"]
            if counted and hashes.get(counted) != result.get("head_hash"):
                yield (
                    record_id,
                    f"the chain no longer matches checkpoint #{record_id} at record {counted}: "
                    "the history before it was rewritten",
                )
        bootstrap = kind == USER and not standing and result.get("user") == maker
        supervising = kind in SUPERVISOR_ACTIONS or (kind == METER and row["action"] != "move")
        if kind != ACCESS_DENIED and not bootstrap:
            now = standing.get(maker)
            problem = actor_problem(now, maker, str(row["role"]), kind)
            if problem is None and supervising and (now is None or now.role != SUPERVISOR):
                problem = f"{maker} was not a registered supervisor"
            if problem is not None:
                yield (record_id, f"record {record_id} ({kind}): at that point {problem}")
        if kind == USER and isinstance(result.get("user"), str):
            standing[result["user"]] = UserRow(
                record_id, result["user"], str(result.get("role")), bool(result.get("active")), None
            )


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
        if record is None or record["kind"] != USER or _json(record["result"]) != expected:
            yield (
                f"the users table row of {user_row.user_id} does not match record "
                f"{user_row.record_id}: it was changed outside the tool"
            )


def _json(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return None
