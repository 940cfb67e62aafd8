"""Reading the record, for a supervisor or an auditor: list, search, show one record with what
refers to it, export with the hashes, verify (against checkpoints kept outside), and take a
checkpoint at shift close. Each function opens the desk's log, does one thing, closes it."""

from __future__ import annotations

import os
import stat
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import IO, TYPE_CHECKING

from dealer.audit import entries, signoffs
from dealer.audit.chain import Checkpoint, VerifyResult, parse_checkpoints
from dealer.audit.export import export as write_records
from dealer.audit.glances import Glance
from dealer.audit.records import Record, RecordFilter, RecordKind, Reference
from dealer.audit.status import Status, status
from dealer.audit.verify import verify as verify_chain
from dealer.desk.context import Desk, LogLocation, log_location, open_desk_log
from dealer.games import empire, genpoker, hyrule
from dealer.inputs import PAIGOW_SEATS, text_file
from dealer.kernel.errors import AuditError, DealerError
from dealer.kernel.text import quoted
from dealer.kernel.tuples import NamedTuple

if TYPE_CHECKING:
    from dealer.audit.copy import Copied
    from dealer.audit.storage import Storage

__all__ = [
    "ANY_GAME_SEATS",
    "Checkpoint",
    "Glance",
    "Record",
    "RecordFilter",
    "RecordKind",
    "Reference",
    "Shown",
    "Status",
    "Verification",
    "checkpoint",
    "export",
    "glances",
    "search",
    "show",
    "verify",
    "write_whole",
]

ANY_GAME_SEATS = range(
    1, max(len(PAIGOW_SEATS), empire.MAX_PLAYERS, genpoker.MAX_PLAYERS, hyrule.MAX_PLAYERS) + 1
)
"""The seats of any game's table (1-8: Genpoker's), numbered from 1: the seats the log's seat
filter and a dispute may name. Each game declares its own in its package, so reading them loads
no game."""


class Shown(NamedTuple):
    """A record and the records that refer to it (overrides, voids, disputes, meter moves);
    from `show`, also where it stands (None for a record that is not a ruling or override)."""

    record: Record
    linked: list[Record]
    status: Status | None = None


class Verification(NamedTuple):
    """What `verify` found, and against how many checkpoints."""

    result: VerifyResult
    checkpoints: int


LOG_COMPANIONS = ("", "-wal", "-shm", "-journal")
"""The audit log's own file and the files SQLite keeps beside it: never an output's target."""


def verified(log: Storage, checkpoints: Sequence[Checkpoint] = ()) -> VerifyResult:
    """`audit.verify` of `log` against `checkpoints`, the floor's sums recomputed from the
    records and the server's function that computes them compared with the desk's
    (`floor_sums_sql.FLOOR_SUMS`), and each Pai Gow ruling's settings made again from the
    documents it names (`ruling_documents.RulingDocuments`): every verify the desk makes. The
    floor's sums (and the settlement they re-read) are loaded here, not by a list or search."""
    from dealer.desk.floor_sums_sql import FLOOR_SUMS
    from dealer.desk.ruling_documents import RulingDocuments

    return verify_chain(log, checkpoints, sums=FLOOR_SUMS, rulings=RulingDocuments())


def refuse_log_target(path: Path, db: LogLocation | None) -> None:
    """DealerError, before anything is written, when writing `path` (an export, a dispute
    packet's page, a checkpoint line) would write over the audit log at `db`, a file SQLite
    keeps beside it (`-wal`, `-shm`, `-journal`: by name, or the same file under another name),
    or any other SQLite database (another log)."""
    from dealer.audit.sqlite import SQLITE_HEADER

    target = Path(os.path.realpath(path))
    log = log_location(db)
    if isinstance(log, Path):
        own = Path(os.path.realpath(log))
        for suffix in LOG_COMPANIONS:
            companion = own.with_name(own.name + suffix)
            same = target == companion or (
                target.exists() and companion.exists() and os.path.samefile(target, companion)
            )
            if same:
                what = "the audit log" if not suffix else f"the audit log's {suffix[1:]} file"
                raise DealerError(f"cannot write {path}: it is {what}; name another file")
    if not target.is_file():  # not there, or a device: nothing of a log to lose
        return
    try:
        with open(target, "rb") as existing:
            header = existing.read(len(SQLITE_HEADER))
    except OSError:
        return  # not readable: the write itself says what is wrong
    if header == SQLITE_HEADER:
        raise DealerError(
            f"cannot write {path}: it is an SQLite database (a log?); name another file"
        )


def _private(path: Path, how: int) -> IO[str]:
    """`path` opened for writing text (`how`: os.O_TRUNC to replace, os.O_APPEND to append);
    a file created here is 0600 (owner only) whatever the umask, an existing one keeps its
    mode."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        fd = os.open(path, os.O_WRONLY | how)
    else:
        os.fchmod(fd, 0o600)
    return os.fdopen(fd, "w", encoding="utf-8", newline="")


@contextmanager
def _whole(path: Path) -> Iterator[IO[str]]:
    """`path` written whole or not at all: into a temporary file beside it (0600, or the mode of
    the file it replaces) renamed over it once complete, removed if anything (an error, Ctrl-C)
    stops the writing. A path that is there but not a regular file (a device such as
    /dev/stdout, a pipe) cannot be replaced: it is written as it goes."""
    if path.exists() and not path.is_file():
        with _private(path, os.O_TRUNC) as out:
            yield out
        return
    fd, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".partial", dir=path.parent)
    partial = Path(name)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as out:
            if path.exists():
                os.fchmod(fd, stat.S_IMODE(path.stat().st_mode))
            yield out
        os.replace(partial, path)
    except BaseException:
        partial.unlink(missing_ok=True)
        raise


def _matching(
    log: Storage, flt: RecordFilter, limit: int | None, newest: bool, awaiting_signoff: bool
) -> list[Record]:
    """`search`'s records, read from `log`."""
    found = log.records(flt, limit=None if awaiting_signoff else limit, newest_first=newest)
    if awaiting_signoff:
        found = [r for r in found if signoffs.awaiting(log, r)][:limit]
    return found[::-1] if newest else found


def search(
    db: LogLocation | None,
    flt: RecordFilter,
    *,
    limit: int | None = None,
    newest: bool = False,
    awaiting_signoff: bool = False,
) -> list[Record]:
    """The records matching `flt`, oldest first: the first `limit` of them, or with `newest`
    the newest `limit`; with `awaiting_signoff`, only rulings whose large pay awaits a
    supervisor's sign-off (not signed off, not voided)."""
    with open_desk_log(db, read_only=True) as log, log.snapshot():
        return _matching(log, flt, limit, newest, awaiting_signoff)


def glances(
    db: LogLocation | None,
    flt: RecordFilter,
    *,
    limit: int | None = None,
    newest: bool = False,
    awaiting_signoff: bool = False,
) -> list[Glance]:
    """What a list shows of the records `search` gives for the same arguments (`Glance`: the
    seats, a summary's values and what refers to each), read without the records whole, in
    one snapshot: a patron's month in a tenth of the time. Which rulings await a sign-off is
    read from the records themselves."""
    with open_desk_log(db, read_only=True) as log, log.snapshot():
        if awaiting_signoff:
            ids = [r.id for r in _matching(log, flt, limit, newest, awaiting_signoff)]
        else:
            ids = log.record_ids(flt, limit=limit, newest_first=newest)
            ids = ids[::-1] if newest else ids
        return _standing(log, log.glances(ids))


def _standing(log: Storage, found: list[Glance]) -> list[Glance]:
    """Each glance with the record that took it out of effect, as `audit.status` reads it: a
    record's own void; else, for a ruling, the newest of its overrides not voided itself (read
    in one more query, only where a ruling has an override). An override overridden in turn or
    whose ruling is voided is told by `show`."""
    overrides = {
        r.id for g in found if g.kind == RecordKind.RULING for r in g.references
        if r.kind == RecordKind.OVERRIDE
    }  # fmt: skip
    voided = {
        g.id for g in log.glances(sorted(overrides))
        if any(r.kind == RecordKind.VOID for r in g.references)
    }  # fmt: skip
    out = []
    for g in found:
        if g.kind in (RecordKind.RULING, RecordKind.OVERRIDE):
            voids = [r for r in g.references if r.kind == RecordKind.VOID]
            over = [r for r in g.references if r.kind == RecordKind.OVERRIDE and r.id not in voided]
            by = voids[0] if voids else over[-1] if over else None
            g = g._replace(not_in_effect=by)
        out.append(g)
    return out


def show(db: LogLocation | None, record_id: int) -> Shown:
    """Record `record_id`, the records that refer to it and its status; AuditError if there
    is none."""
    with open_desk_log(db, read_only=True) as log, log.snapshot():
        record = entries.get(log, record_id)
        return Shown(record, entries.links(log, record_id), status(log, record))


def export(db: LogLocation | None, fmt: str, flt: RecordFilter, to: IO[str] | Path) -> int:
    """Write the matching records with their hashes as `csv` or `jsonl` to a stream or into a
    file (created or replaced whole: never left half written); return how many."""
    if isinstance(to, Path):
        refuse_log_target(to, db)
    with open_desk_log(db, read_only=True) as log:
        if not isinstance(to, Path):
            return write_records(log, to, fmt, flt)
        try:
            with _whole(to) as out:
                return write_records(log, out, fmt, flt)
        except OSError as exc:
            raise DealerError(f"cannot write {to}: {exc.strerror}") from None


def write_whole(path: Path, text: str, db: LogLocation | None) -> None:
    """`text` into `path`, created 0600 or replaced whole (as an export); DealerError naming
    the file when it cannot be written, or when it is the log at `db` (`refuse_log_target`)."""
    refuse_log_target(path, db)
    try:
        with _whole(path) as out:
            out.write(text)
    except OSError as exc:
        raise DealerError(f"cannot write {path}: {exc.strerror}") from None


def outside(checkpoints: Sequence[str]) -> list[Checkpoint]:
    """The checkpoints kept outside a log, each given as a file of `N:HASH` lines (or JSON
    lines) or as `N:HASH` / `HASH` itself; AuditError naming the one that holds none."""
    wanted: list[Checkpoint] = []
    for given in checkpoints:
        text = text_file(given, "checkpoint file") if Path(given).is_file() else given
        try:
            found = parse_checkpoints(text)
        except AuditError as exc:
            raise AuditError(f"checkpoint {quoted(given)}: {exc}") from None
        if any(c.records is not None and c.records < 1 for c in found):
            raise AuditError(
                f"checkpoint {quoted(given)}: a checkpoint counts the records, from 1 (N:HASH)"
            )
        wanted += found
    return wanted


def verify(db: LogLocation | None, checkpoints: Sequence[str] = ()) -> Verification:
    """Verify the log, against checkpoints kept outside (`outside`)."""
    wanted = outside(checkpoints)
    with open_desk_log(db, read_only=True) as log:
        return Verification(verified(log, wanted), len(wanted))


def copy(
    source: LogLocation,
    target: LogLocation,
    checkpoints: Sequence[str] = (),
    supervisor: str | None = None,
    pin: str = "",
) -> Copied:
    """Copy the log at `source` (read-only) to `target` (an SQLite file made if missing, for
    reading; or a PostgreSQL log, as its owner), every record and hash kept, up to the newest
    of the `checkpoints` kept outside (`outside`); only the records the target lacks are added,
    and a target holding another chain is refused (`dealer.audit.copy`, which says what a copy
    needs in each direction: from an SQLite file into PostgreSQL, a supervisor's checkpoint,
    vouched for by the target's supervisors or by `supervisor` with their `pin`); the source's
    floor's sums are verified and the target's added to for each ruling copied."""
    from dealer.audit.copy import Voucher, copy_log
    from dealer.desk import floor_sums
    from dealer.desk.floor_sums_sql import FLOOR_SUMS
    from dealer.desk.ruling_documents import RulingDocuments

    marks = outside(checkpoints)
    voucher = Voucher(supervisor, pin) if supervisor is not None else None
    with open_desk_log(source, existing=True, read_only=True) as src, open_desk_log(target) as dst:
        return copy_log(
            src,
            dst,
            FLOOR_SUMS,
            floor_sums.CopiedSums,
            rulings=RulingDocuments(),
            outside=marks,
            voucher=voucher,
        )


def checkpoint(desk: Desk, pin: str, output: Path | None = None) -> Checkpoint:
    """Record a checkpoint by the desk's user (an active supervisor or auditor, `pin` theirs:
    it is signed) at its table; the count and head hash including it, also appended as an
    `N:HASH` line to `output` when given (a file kept outside). The line is written and synced
    before the record is committed: if it cannot be written, the checkpoint is not recorded. A
    file that cannot be written to (in a missing folder, a folder, a FIFO or a device, the log
    itself) is refused before anything is done; a file whose last line has no newline gets one
    first, so that two lines are never glued."""
    if output is not None:
        _checkpoint_file(output, desk.db)

    def keep(made: Checkpoint) -> None:
        if output is None:
            return
        try:
            with _private(output, os.O_APPEND) as out:
                out.write(("\n" if _ends_unfinished(output) else "") + f"{made}\n")
                out.flush()
                os.fsync(out.fileno())
        except OSError as exc:
            raise DealerError(
                f"cannot write {output}: {exc.strerror}; the checkpoint was not recorded"
            ) from None

    with open_desk_log(desk.db, existing=True) as log:
        return entries.checkpoint(log, desk.user, pin, table_id=desk.table, keep=keep)


def _checkpoint_file(output: Path, db: LogLocation | None) -> None:
    """DealerError unless `output` can take a checkpoint line: a regular file, or none yet in a
    folder that exists; never the log (`refuse_log_target`)."""
    why = None
    if output.is_dir():
        why = "it is a folder"
    elif not output.parent.is_dir():
        why = f"there is no folder {output.parent}"
    elif output.exists() and not output.is_file():
        why = "it is not a regular file (a FIFO, a device or a socket)"
    if why is not None:
        raise DealerError(f"cannot write the checkpoint to {output}: {why}")
    refuse_log_target(output, db)


def _ends_unfinished(path: Path) -> bool:
    """Whether the file at `path` has text after its last newline."""
    with open(path, "rb") as existing:
        if existing.seek(0, os.SEEK_END) == 0:
            return False
        existing.seek(-1, os.SEEK_END)
        return existing.read(1) != b"\n"
