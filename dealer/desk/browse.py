"""What the supervisor's browser shows: a copy of the log taken and verified when the server
starts (`verified_copy`), the chain's state, and records with where each stands.

Decisions: the chain is verified once, when the server starts, on the copy the browser then
serves and reads alone (`dealer.audit.browser_queries.snapshot`: the log's WAL included), so
every page shows what verify checked and nothing appended or changed since; statuses come from
`dealer.audit.status`, the same code as `dealer audit show`, so the page and the command never
disagree."""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path

from dealer.audit import disputes, entries, meters, signoffs
from dealer.audit.browser_queries import QUERIES as CANNED_QUERIES
from dealer.audit.browser_queries import snapshot
from dealer.audit.chain import VerifyResult
from dealer.audit.disputes import Dispute
from dealer.audit.meters import MeterMove
from dealer.audit.records import Record, RecordFilter, RecordKind
from dealer.audit.status import status
from dealer.desk.context import LogLocation, log_location, open_desk_log, shown
from dealer.desk.records import Shown, verified
from dealer.inputs import TIME_FORMAT
from dealer.kernel.errors import DealerError
from dealer.kernel.tuples import NamedTuple

__all__ = [
    "CANNED_QUERIES",
    "ChainState",
    "FrontPage",
    "chain_state",
    "front_page",
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
        return ChainState(head[0] if head else None, mark[0] if mark else None, verified(log))


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


SHIFT = timedelta(hours=12)
"""The shift the front page speaks of: the 12 hours up to the newest record of the log served."""
LATEST = 10
"""How many of the latest rulings the front page lists."""


class FrontPage(NamedTuple):
    """What needs a supervisor now (`front_page`): the open disputes, the large pays awaiting a
    sign-off, the shift's overrides and voids, each meter's newest record (a table's own, or a
    link's), the latest rulings with their status."""

    disputes: list[Dispute]
    awaiting: list[Shown]
    decisions: list[Shown]
    meters: list[MeterMove]
    latest: list[Shown]


def front_page(db: Path | None) -> FrontPage:
    """The supervisor's front page, read from the log served in one snapshot: open disputes
    oldest first, large pays no one has signed off, the overrides and voids of the last `SHIFT`
    before the newest record, each meter as its newest record left it (with the ruling it
    follows, `meters.movement`), and the `LATEST` rulings, oldest first."""
    with open_desk_log(db, existing=True, read_only=True) as log, log.snapshot():
        newest = log.records(RecordFilter(), limit=1, newest_first=True)
        since = None
        if newest:
            stamp = datetime.fromisoformat(newest[0].recorded_at.removesuffix("Z"))
            since = (stamp - SHIFT).strftime(TIME_FORMAT)

        def standing(found: list[Record]) -> list[Shown]:
            return [Shown(r, entries.links(log, r.id), status(log, r)) for r in found]

        rulings = RecordFilter(kind=RecordKind.RULING)
        awaiting = [r for r in log.records(rulings) if signoffs.awaiting(log, r)]
        decided = [
            r
            for kind in (RecordKind.OVERRIDE, RecordKind.VOID)
            for r in log.records(RecordFilter(kind=kind, since=since))
        ]
        book: dict[tuple[str, ...], Record] = {}
        for r in log.records(RecordFilter(kind=RecordKind.METER), newest_first=True):
            link = r.result.get("link")
            key = (
                ("link", link)
                if isinstance(link, str)
                else (r.table_id, str(r.result.get("meter")))
            )
            book.setdefault(key, r)
        moves = [
            meters.movement(r, None if r.links_to is None else log.record(r.links_to))
            for r in sorted(book.values(), key=lambda r: (r.table_id, str(r.result.get("meter"))))
        ]
        latest = log.records(rulings, limit=LATEST, newest_first=True)[::-1]
        return FrontPage(
            disputes.open_disputes(log),
            standing(awaiting),
            standing(sorted(decided, key=lambda r: r.id)),
            moves,
            standing(latest),
        )
