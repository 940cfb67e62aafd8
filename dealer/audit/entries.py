"""Entries on the record: one appended on its own, a checkpoint, one record read back with the
records that refer to it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from dealer.audit import users
from dealer.audit.chain import Checkpoint
from dealer.audit.records import CHECKPOINT, Entry, Record, RecordFilter
from dealer.kernel.errors import AuditError

if TYPE_CHECKING:
    from dealer.audit.storage import Reads, Storage


def append(storage: Storage, entry: Entry) -> int:
    """Put one entry on the record in its own transaction (its maker's role checked, as
    `users.append_checked`); return its id."""
    with storage.transaction() as tx:
        return users.append_checked(tx, entry)


def checkpoint(storage: Storage, user_id: str, *, table_id: str = "") -> Checkpoint:
    """Record a checkpoint and return the count and head hash *including* that record, to
    keep outside the database (e.g. at shift close)."""
    role = users.role_of(storage, user_id)
    with storage.transaction() as tx:
        before = tx.head()
        users.append_checked(
            tx,
            Entry(
                kind=CHECKPOINT,
                user_id=user_id,
                role=role,
                table_id=table_id,
                result={"records": before.records, "head_hash": before.head_hash},
                explanation=[f"Checkpoint after record {before.records}"],
            ),
        )
        return tx.head()


def get(reads: Reads, record_id: int) -> Record:
    """Record `record_id`; AuditError if there is none."""
    record = reads.record(record_id)
    if record is None:
        raise AuditError(f"there is no audit record {record_id}")
    return record


def links(reads: Reads, record_id: int) -> list[Record]:
    """Records that refer to `record_id` (overrides, voids, disputes, meter movements…)."""
    return reads.records(RecordFilter(links_to=record_id))
