"""What the supervisor's browser shows: a copy of the log taken and verified when the server
starts (`verified_copy`), the chain's state, and records with where each stands.

Decisions: the chain is verified once, when the server starts, on the copy the browser then
serves and reads alone (`dealer.audit.browser_queries.snapshot`: the log's WAL included), so
every page shows what verify checked and nothing appended or changed since; statuses come from
`dealer.audit.status`, the same code as `dealer audit show`, so the page and the command never
disagree."""

from __future__ import annotations

from pathlib import Path

from dealer.audit import entries
from dealer.audit.browser_queries import QUERIES as CANNED_QUERIES
from dealer.audit.browser_queries import snapshot
from dealer.audit.chain import VerifyResult
from dealer.audit.records import Record, RecordFilter, RecordKind
from dealer.audit.status import status
from dealer.audit.verify import verify as verify_log
from dealer.desk.context import LogLocation, log_location, open_desk_log, shown
from dealer.desk.records import Shown
from dealer.kernel.errors import DealerError
from dealer.kernel.tuples import NamedTuple

__all__ = [
    "CANNED_QUERIES",
    "ChainState",
    "chain_state",
    "served_file",
    "verified_copy",
    "with_status",
]


def served_file(db: LogLocation | None) -> Path:
    """The SQLite log file to serve (`--db`, else the default log); a PostgreSQL log is refused
    in one line: the browser (Datasette) reads SQLite files only."""
    where = log_location(db)
    if not isinstance(where, Path):
        raise DealerError(
            f"--db {shown(where)}: dealer audit browse reads an SQLite log file; copy the "
            "PostgreSQL log into one first (dealer audit copy)"
        )
    return where


class ChainState(NamedTuple):
    """The newest record (the head), the newest checkpoint record, and the verification."""

    head: Record | None
    checkpoint: Record | None
    verified: VerifyResult


def chain_state(db: Path | None) -> ChainState:
    """The head, the last checkpoint and `verify` of the whole chain."""
    with open_desk_log(db, existing=True, read_only=True) as log:
        head = log.records(RecordFilter(), limit=1, newest_first=True)
        mark = log.records(RecordFilter(kind=RecordKind.CHECKPOINT), limit=1, newest_first=True)
        return ChainState(head[0] if head else None, mark[0] if mark else None, verify_log(log))


def verified_copy(db: Path, folder: Path) -> tuple[Path, ChainState]:
    """A copy of the log `db` as it stands (its WAL included) in `folder`, under the log's own
    file name (the database's name in the browser's addresses), and the chain's state verified
    on that copy: the file the browser serves, and what its banner says of it."""
    copy = folder / db.name
    snapshot(db, copy)
    return copy, chain_state(copy)


def with_status(db: Path | None, flt: RecordFilter, *, limit: int | None = None) -> list[Shown]:
    """The records matching `flt` (at most `limit`), oldest first, each with the records that
    refer to it and its status."""
    with open_desk_log(db, existing=True, read_only=True) as log, log.snapshot():
        return [
            Shown(r, entries.links(log, r.id), status(log, r))
            for r in log.records(flt, limit=limit)
        ]
