"""Copying a log to another place, record for record: `dealer audit copy FROM TO`.

A copy keeps every record as it is (number, time, software version, both hashes) and every
users row, so both logs verify with the same head hash; it is how history moves from a table's
SQLite file to the floor's PostgreSQL database and back. The source must verify first. The
target must be empty or an earlier copy of the same chain (its head is the source's record of
that number): then only the records it lacks are added. Onto any other chain it is refused.
On PostgreSQL only the database's owner can copy (terminals cannot insert records, nor read
the users' sealed keys a copy carries). The target's floor's sums are the desk's recomputation
of the records copied (`add_sums`, as verify recomputes them), an hour's rows at once: on
PostgreSQL written by the owner's own statements, not computed by the server record by record
as an append is (a month's copy would pay for it a million times). The owner can write anything
anyway; verify recomputes the sums from the records and names an hour that differs."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from dealer.audit import keys
from dealer.audit.chain import GENESIS_HASH, Checkpoint
from dealer.audit.verify import FloorSums, verify
from dealer.kernel.errors import AuditError
from dealer.kernel.tuples import NamedTuple

if TYPE_CHECKING:
    from dealer.audit.storage import Storage, WriteTransaction


class SumsAdder(Protocol):
    """Adds each record a copy writes to the target's floor's sums (the desk's: this layer
    knows no game)."""

    def add(self, row: dict[str, Any]) -> None:
        """Take the record just copied (as stored)."""

    def finish(self) -> None:
        """Write what is still held, after the last record."""


class Copied(NamedTuple):
    """How many records were added, and the target's head after the copy."""

    copied: int
    head: Checkpoint


def copy_log(
    source: Storage,
    target: Storage,
    sums: FloorSums | None = None,
    add_sums: Callable[[WriteTransaction], SumsAdder] | None = None,
) -> Copied:
    """Add to `target` the records (and users rows) of `source` it lacks, in one transaction:
    the records verify found sound (the floor's sums checked by `sums`), not any a terminal
    appended since; each copied record added to the target's floor's sums by what `add_sums`
    makes for the transaction. The records are read one at a time as they are copied (a log of
    millions is never held in memory) and written in bulk (`WriteTransaction.bulk`); the users
    rows, a few per person, are read first."""
    checked = verify(source, sums=sums)
    if not checked.ok:
        raise AuditError(f"the log to copy does not verify ({checked.problem}): nothing copied")
    count = checked.records
    with source.snapshot():
        users = {row.record_id: row for row in source.user_history()}
        if any(keys.parse_withheld(row.pin_hash) is not None for row in users.values()):
            raise AuditError(
                "the PINs of the log to copy are withheld from this login (the PostgreSQL "
                "server shows them to the database's owner only): copy it as the owner; "
                "nothing copied"
            )
        with target.transaction() as tx:
            head = tx.head()
            have = head.records or 0
            if have > count:
                raise AuditError(
                    f"the target log holds {have} records, more than the {count} of the log "
                    "to copy: it is another chain, refusing to copy onto it"
                )
            adding = add_sums(tx) if add_sums is not None else None
            last = GENESIS_HASH
            with tx.bulk():
                for row in source.rows(limit=count):
                    last = row["hash"]
                    if row["id"] < have:
                        continue
                    if row["id"] == have:
                        if row["hash"] != head.head_hash:
                            raise AuditError(
                                f"the target log holds a different chain (its record {have} "
                                "is not the same record): refusing to copy onto it"
                            )
                        continue
                    tx.copy(row)
                    if row["id"] in users:
                        tx.add_user(users[row["id"]])
                    if adding is not None:
                        adding.add(row)
                if adding is not None:
                    adding.finish()
    return Copied(count - have, Checkpoint(count, last))
