"""Verifying the log: the whole hash chain recomputed, checked against checkpoints kept outside,
the users table checked against the records behind it, and the backend's own checks."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

from dealer.audit.chain import ChainCheck, Checkpoint, VerifyResult
from dealer.audit.records import USER, RecordFilter
from dealer.audit.users import user_record_result

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
