"""Copying a log to another place, record for record: `dealer audit copy FROM TO`.

A copy keeps every record as it is (number, time, software version, both hashes) and a users
row for each of the source's, so both logs verify with the same head hash; it is how history
moves from a table's SQLite file to the floor's PostgreSQL database and back. The source must
verify first. The target must be empty or an earlier copy of the same chain (its head is the
source's record of that number): then only the records it lacks are added. Onto any other
chain it is refused. On PostgreSQL only the database's owner can copy in (terminals cannot
insert records).

Decisions, by where the copy goes (`Storage.kept_by_server`):

* **Into an SQLite file, a copy is for reading** — browsing, an archive, a regulator's copy —
  always: whoever holds the file reads all of it. Its users rows hold each secret withheld
  (`keys.withheld`, what the PostgreSQL server shows its terminals: the fingerprint verify
  compares, the public key), never a sealed key or a PIN verifier, so the copy verifies and no
  PIN can be tested against it; a supervisor's PIN asked there is refused. Any login that
  reads a PostgreSQL log (an auditor's) can make one. A table's log that keeps working
  elsewhere moves as its file (copied whole, or its backup), never through this copy; the
  floor's own backup is the database's (pg_dump).
* **Into PostgreSQL, a copy is a working log's move**: the users' secrets go with it (the
  server withholds them there), so a source that holds them withheld is refused."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from dealer.audit import keys
from dealer.audit.chain import GENESIS_HASH, Checkpoint
from dealer.audit.records import UserRow
from dealer.audit.verify import SumsCheck, verify
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
    sums: SumsCheck | None = None,
    add_sums: Callable[[WriteTransaction], SumsAdder] | None = None,
) -> Copied:
    """Add to `target` the records (and users rows) of `source` it lacks, in one transaction:
    the records verify found sound (the floor's sums checked by `sums`), not any a terminal
    appended since; each copied record added to the target's floor's sums by what `add_sums`
    makes for the transaction; into an SQLite file the users' secrets withheld (`_kept`). The
    records are read one at a time as they are copied (a log of millions is never held in
    memory) and written in bulk (`WriteTransaction.bulk`); the users rows, a few per person,
    are read first."""
    checked = verify(source, sums=sums)
    if not checked.ok:
        raise AuditError(f"the log to copy does not verify ({checked.problem}): nothing copied")
    count = checked.records
    with source.snapshot():
        users = {row.record_id: _kept(row, target) for row in source.user_history()}
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


def _kept(row: UserRow, target: Storage) -> UserRow:
    """The users row `row` as `target` keeps it: its secret withheld in a copy for reading;
    into PostgreSQL the secret itself, which a source that withholds it cannot give."""
    if row.pin_hash is None:
        return row
    if not target.kept_by_server:
        return row._replace(pin_hash=keys.withheld(row.pin_hash))
    if keys.parse_withheld(row.pin_hash) is not None:
        raise AuditError(
            "the PINs of the log to copy are withheld (a copy for reading, or a PostgreSQL log "
            "read by a login other than its owner's), and PostgreSQL keeps them: copy the log "
            "itself, as its owner; nothing copied"
        )
    return row
