"""Entries on the record: one appended on its own, a checkpoint, one record read back with the
records that refer to it."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from dealer.audit import users
from dealer.audit.authority import supervised, vouch_problem
from dealer.audit.chain import Checkpoint
from dealer.audit.records import Entry, Record, RecordFilter, RecordKind, Role
from dealer.kernel.errors import AuditError

if TYPE_CHECKING:
    from dealer.audit.storage import Reads, Storage, WriteTransaction
    from dealer.audit.users import User

CHECKPOINT_ROLES = (Role.SUPERVISOR, Role.AUDITOR)
"""Who records a checkpoint: an active supervisor or auditor, with their PIN."""


def append(storage: Storage, entry: Entry) -> int:
    """Put one entry on the record in its own transaction (its maker's role checked, as
    `users.append_checked`); return its id."""
    with storage.transaction() as tx:
        return users.append_checked(tx, entry)


def checkpoint(
    storage: Storage,
    user_id: str,
    pin: str,
    *,
    table_id: str = "",
    keep: Callable[[Checkpoint], None] | None = None,
) -> Checkpoint:
    """Record a checkpoint made by `user_id`, an active supervisor or auditor whose `pin` opens
    their key (it is signed like a supervisor action; a refusal is recorded as one is), and
    return the count and head hash *including* that record, to keep outside the database
    (e.g. at shift close). `keep` is given that line before the record is committed (to write
    it outside): if it raises, the checkpoint is not recorded."""

    def record(tx: WriteTransaction, user: User) -> Checkpoint:
        before = tx.head()
        tx.append(
            Entry(
                kind=RecordKind.CHECKPOINT,
                user_id=user_id,
                role=user.role,
                table_id=table_id,
                result={"records": before.records, "head_hash": before.head_hash},
                explanation=[f"Checkpoint after record {before.records}"],
            )
        )
        made = tx.head()
        if keep is not None:
            keep(made)
        return made

    return supervised(
        storage,
        user_id,
        pin,
        RecordKind.CHECKPOINT,
        record,
        table_id=table_id,
        roles=CHECKPOINT_ROLES,
    )


def get(reads: Reads, record_id: int) -> Record:
    """Record `record_id`; AuditError if there is none."""
    record = reads.record(record_id)
    if record is None:
        raise AuditError(f"there is no audit record {record_id}")
    return record


def links(reads: Reads, record_id: int) -> list[Record]:
    """Records that refer to `record_id` (overrides, voids, disputes, meter movements…)."""
    return reads.records(RecordFilter(links_to=record_id))


def first_link(reads: Reads, record_id: int, kind: str) -> Record | None:
    """The first record of `kind` that refers to `record_id` (its void, its sign-off, a
    dispute's resolution: a supervisor's record), or None. One that verify would reject (not
    made by an active supervisor of that point, or not signed by them for its place:
    `authority.vouch_problem`) is not acted on: it is passed over."""
    for row in list(reads.rows(RecordFilter(links_to=record_id, kind=kind))):
        if vouch_problem(reads, row) is None:
            return Record.from_row(row)
    return None
