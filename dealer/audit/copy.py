"""Copying a log to another place, record for record: `dealer audit copy FROM TO`.

A copy keeps every record as it is (number, time, software version, both hashes) and a users
row for each of the source's, so both logs verify with the same head hash. The source must
verify first, against the checkpoints given (`outside`), and the copy stops at the newest of
them. The target must be empty or an earlier copy of the same chain (its head is the source's
record of that number): then only the records it lacks are added. Onto any other chain it is
refused. On PostgreSQL only the database's owner can copy in (terminals cannot insert records).
The target's floor's sums are the desk's recomputation of the records copied (`add_sums`, as
verify recomputes them), an hour's rows at once: on PostgreSQL written by the owner's own
statements, not computed by the server record by record as an append is (a month's copy would
pay for it a million times). The owner can write anything anyway; verify recomputes the sums
from the records and names an hour that differs.

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
  server withholds them there), so a source that holds them withheld is refused. From an
  SQLite file it takes the history only up to a supervisor's signed checkpoint kept outside
  the file (`outside`: the `N:HASH` lines `dealer audit checkpoint -o FILE` wrote): whoever
  holds the file can rewrite all of it — its user records and checkpoints too, under a
  supervisor of their own bootstrapped in the real one's name — so nothing inside it vouches
  for it. The record N of the newest line must be a checkpoint whose signature is valid and
  made by a supervisor the target already knows by that key (its own signed user records: the
  same chain's, copied before), or, where it does not (an empty floor knows no one), by the
  supervisor who vouches for it in person (`Voucher`): their PIN must open the key that
  signed it. The records after it stay in the file until a newer checkpoint is copied
  (`Copied.left`).
* From PostgreSQL, and from one SQLite file to another, no checkpoint is asked: the server's
  log is not the file's holder's to rewrite, and an SQLite target proves no more than its own
  file. Checkpoints given are checked and the copy stops at the newest all the same."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from dealer.audit import keys
from dealer.audit.authority import chain_users
from dealer.audit.chain import Checkpoint
from dealer.audit.records import RecordFilter, RecordKind, Role, UserRow
from dealer.audit.verify import FloorSums, RulingsCheck, verify
from dealer.kernel.errors import AuditError
from dealer.kernel.tuples import NamedTuple

if TYPE_CHECKING:
    from dealer.audit.storage import Reads, Storage, WriteTransaction


class SumsAdder(Protocol):
    """Adds each record a copy writes to the target's floor's sums (the desk's: this layer
    knows no game)."""

    def add(self, row: dict[str, Any]) -> None:
        """Take the record just copied (as stored)."""

    def finish(self) -> None:
        """Write what is still held, after the last record."""


class Voucher(NamedTuple):
    """The supervisor who vouches in person for the checkpoint a copy into PostgreSQL stops at,
    with their PIN: its signer, where the target does not know them by the key that signed
    it."""

    user_id: str
    pin: str


class Copied(NamedTuple):
    """How many records were added, the target's head after the copy, and how many records of
    the source come after it, not copied (after the checkpoint the copy stopped at, `until`)."""

    copied: int
    head: Checkpoint
    left: int = 0
    until: int = 0


NEEDS_CHECKPOINT = (
    "copying an SQLite file into PostgreSQL takes its history only up to a supervisor's signed "
    "checkpoint kept outside the file: give it with --checkpoint FILE (or N:HASH), as dealer "
    "audit checkpoint -o FILE wrote it; nothing copied"
)


def copy_log(
    source: Storage,
    target: Storage,
    sums: FloorSums | None = None,
    add_sums: Callable[[WriteTransaction], SumsAdder] | None = None,
    *,
    rulings: RulingsCheck | None = None,
    outside: Sequence[Checkpoint] = (),
    voucher: Voucher | None = None,
) -> Copied:
    """Add to `target` the records (and users rows) of `source` it lacks, in one transaction:
    the records verify found sound (the floor's sums checked by `sums`, each ruling against its
    documents by `rulings`, the log against `outside`), up to the newest of `outside`, not any
    a terminal appended since; each copied
    record added to the target's floor's sums by what `add_sums` makes for the transaction.
    Into an SQLite file the users' secrets are withheld; from one into PostgreSQL the newest
    of `outside` is required and vouched for (`_vouched`, `voucher`) — the module's
    decisions. The records are read one at a time as they are copied (a log of millions is
    never held in memory) and written in bulk (`WriteTransaction.bulk`); the users rows, a few
    per person, are read first."""
    counted = [mark for mark in outside if mark.records is not None]
    from_file = target.kept_by_server and not source.kept_by_server
    if from_file and not counted:
        raise AuditError(NEEDS_CHECKPOINT)
    checked = verify(source, outside, sums=sums, rulings=rulings)
    if not checked.ok:
        raise AuditError(f"the log to copy does not verify ({checked.problem}): nothing copied")
    count = checked.records
    newest = max(counted, key=lambda mark: mark.records or 0, default=None)
    until = count if newest is None else (newest.records or 0)
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
            if from_file and newest is not None:
                _vouched(source, tx, newest, voucher)
            adding = add_sums(tx) if add_sums is not None else None
            last = head.head_hash
            with tx.bulk():
                for row in source.rows(limit=max(until, have)):
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
                    last = row["hash"]
                    if row["id"] in users:
                        tx.add_user(users[row["id"]])
                    if adding is not None:
                        adding.add(row)
                if adding is not None:
                    adding.finish()
            if newest is not None and until >= have and last != newest.head_hash:
                raise AuditError(
                    f"the log to copy changed while it was copied: it no longer ends at "
                    f"checkpoint {newest}; nothing copied"
                )
    reached = max(until, have)
    return Copied(max(until - have, 0), Checkpoint(reached, last), count - reached, until)


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


def _vouched(source: Storage, tx: Reads, mark: Checkpoint, voucher: Voucher | None) -> None:
    """AuditError unless record `mark.records` of `source` (its hash checked against `mark` by
    verify) is a supervisor's checkpoint, validly signed, by a supervisor `tx` (the target)
    knows as active by that key on its own signed user records — or, where it does not, whose
    PIN, given by `voucher`, opens that key in `source`."""
    found = list(source.rows(RecordFilter(ids=(mark.records or 0,))))
    row = found[0] if found else None
    signed = keys.signature_of(row) if row is not None else None
    key = signed.get("key") if signed is not None else None
    if (
        row is None
        or row["kind"] != RecordKind.CHECKPOINT
        or row["role"] != Role.SUPERVISOR
        or not isinstance(key, str)
        or keys.signature_problem(row, key) is not None
    ):
        what = "" if row is None else f" ({row['kind']} by {row['user_id']}, {row['role']})"
        raise AuditError(
            f"checkpoint {mark}: record {mark.records} of the log to copy is not a checkpoint "
            f"signed by a supervisor{what}: nothing copied"
        )
    signer = str(row["user_id"])
    known = chain_users(tx).standing.get(signer)
    if known is not None and known.role == Role.SUPERVISOR and known.active and known.key == key:
        return
    vouch = f"{signer} vouches for it in person (--supervisor {signer} and their PIN)"
    if voucher is None:
        raise AuditError(
            f"checkpoint {mark} was signed by {signer}, whom the target log does not know by "
            f"that key: {vouch}; nothing copied"
        )
    if voucher.user_id != signer:
        raise AuditError(
            f"checkpoint {mark} was signed by {signer}, not by {voucher.user_id}: {vouch}; "
            "nothing copied"
        )
    sealed = [r.pin_hash for r in source.user_history() if r.user_id == signer]
    if not any(keys.public_key(s) == key and keys.open_key(voucher.pin, s) for s in sealed):
        raise AuditError(
            f"the PIN given for {signer} does not open the key that signed checkpoint {mark}: "
            "nothing copied"
        )
