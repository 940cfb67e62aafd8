"""The storage interface of the audit log: what a backend keeps, and nothing more.

A backend stores records (the 19 fields of `records.STORED_FIELDS`, each row exactly as
`chain.seal` makes it), the seats each record involved (`records.seats_of`, derived from the
record's content and stored in the transaction that appends it), the floor's sums (`sums`)
and the users table, and answers the reads below. Every rule about who may write what lives in
the feature modules above it (users, authority, corrections, disputes, meters, verify, export),
which talk to a `Storage` only. `dealer.audit.sqlite` is the first backend; another one is a module
implementing these protocols, opened by `dealer.audit.open_log`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager
from decimal import Decimal
from typing import Any, Protocol

from dealer.audit.chain import Checkpoint
from dealer.audit.glances import Glance
from dealer.audit.records import Entry, Record, RecordFilter, UserRow
from dealer.audit.sums import SumRow, Total


class Reads(Protocol):
    """What can be read, from the storage or from inside a write transaction."""

    def record(self, record_id: int) -> Record | None:
        """Record `record_id`, or None."""
        ...

    def records(
        self,
        flt: RecordFilter | None = None,
        *,
        limit: int | None = None,
        newest_first: bool = False,
    ) -> list[Record]:
        """Records matching `flt` by id, oldest first (newest first with `newest_first`), at
        most `limit`; `flt.seat` and `flt.patron` match the record's `seats_of` (both given:
        the same seat)."""
        ...

    def rows(
        self,
        flt: RecordFilter | None = None,
        *,
        limit: int | None = None,
        newest_first: bool = False,
    ) -> Iterator[dict[str, Any]]:
        """The stored rows behind `records` (JSON columns as the stored text that was hashed)."""
        ...

    def record_ids(
        self, flt: RecordFilter, *, limit: int | None = None, newest_first: bool = False
    ) -> list[int]:
        """The numbers of the records `records` would give for the same arguments."""
        ...

    def head(self) -> Checkpoint:
        """The record count and the newest record's hash (genesis for an empty log)."""
        ...

    def meter(self, table_id: str, name: str) -> Decimal | None:
        """The value of the newest `meter` record of (table, meter name) that is no linked
        meter's, None if never set."""
        ...

    def meter_records(
        self, table_id: str, name: str, limit: int, until: str | None = None
    ) -> list[Record]:
        """The newest `limit` `meter` records of (table, meter name) that are no linked meter's,
        recorded before `until` (None: any), newest first."""
        ...

    def link_records(self, link: str, limit: int, *, oldest_first: bool = False) -> list[Record]:
        """The newest `limit` `meter` records of linked meter `link`, newest first (one indexed
        lookup); with `oldest_first`, its first `limit` records."""
        ...

    def user(self, user_id: str, before: int | None = None) -> UserRow | None:
        """The newest users row of `user_id` (set by a record before `before`: None, any), None
        if the id was never registered (then)."""
        ...

    def users(self) -> list[UserRow]:
        """The newest users row of every registered id, by id."""
        ...

    def supervisor_ever_registered(self) -> bool:
        """Whether any users row ever gave someone the supervisor role."""
        ...

    def count_by_user(self, flt: RecordFilter, *, signed_in: bool = False) -> dict[str, int]:
        """How many records matching `flt` each user made (with `signed_in`, of those naming
        the sign-in they were made under)."""
        ...

    def sums_from(self) -> int:
        """The first record the floor's sums cover (`dealer.audit.sums`)."""
        ...

    def sum_totals(self, grp: str, since: str | None, until: str | None) -> list[Total]:
        """The sums of group `grp` per (member, source) over the hours from `since` up to
        `until` (None: open)."""
        ...

    def sum_rows(self, hour: str) -> list[SumRow]:
        """Every row of sums of `hour`, by group, member and source."""
        ...

    def member_rows(self, hours: Sequence[str], members: Sequence[tuple[str, str]]) -> list[SumRow]:
        """The rows of the members' own sums (source '') in `hours`, members as (group,
        member)."""
        ...

    def sum_hours(self) -> list[str]:
        """Every hour that has sums, in order."""
        ...


class WriteTransaction(Reads, Protocol):
    """Writes that land together or not at all, serialised against every other writer of the
    same log (the head cannot move under it); its reads see its own writes."""

    @property
    def appended(self) -> Sequence[tuple[int, Entry]]:
        """The entries appended in this transaction so far, with their ids."""
        ...

    def append(self, entry: Entry) -> int:
        """Store `entry` as the next record (`seal`) with its seats (`seats_of`); return its
        id."""
        ...

    def appended_record(self, record_id: int) -> Record | None:
        """Record `record_id` as appended in this transaction (its entry, id and time; no
        hashes), without reading it back; None for one it did not append."""
        ...

    def add_user(self, row: UserRow) -> None:
        """Store a users row (its record, a `user` record, appended in this transaction)."""
        ...

    def add_sums(self, record_id: int, rows: Callable[[], Sequence[SumRow]]) -> None:
        """Add the numbers of record `record_id`, appended in this transaction, to the floor's
        sums (`dealer.audit.sums`): those `rows` makes, where the backend takes them from the
        tool (SQLite); a server that computed them as it appended the record (PostgreSQL)
        never calls `rows`."""
        ...

    def copy_sums(self, record_ids: Sequence[int], rows: Sequence[SumRow]) -> None:
        """Add the numbers of rulings copied in this transaction (`record_ids`), summed in
        `rows`, to the floor's sums at once (a copy's: on PostgreSQL the owner's)."""
        ...

    def copy(self, row: dict[str, Any]) -> None:
        """Store a record exactly as another log stores it (a copy: number, time and hashes
        kept); it must be the next record, link to the head and carry its own hash."""
        ...

    def bulk(self) -> AbstractContextManager[None]:
        """A block of many writes in a row whose answers nothing inside reads (a copy): the
        backend may send them without waiting for each (PostgreSQL's pipeline); a write
        refused is raised by the block at the latest, and the transaction is rolled back."""
        ...


class Storage(Reads, Protocol):
    """An open audit log. Close it with `close()` or by leaving a `with` block."""

    @property
    def kept_by_server(self) -> bool:
        """Whether a database server keeps the log (PostgreSQL: it decides who writes what and
        withholds the users' secrets from every login but its owner's), rather than a file
        whose holder reads all of it and can rewrite it (SQLite): what a copy's rules go by
        (`dealer.audit.copy`)."""
        ...

    def glances(self, record_ids: Sequence[int]) -> list[Glance]:
        """What a list shows of each of `record_ids` (`glances.Glance`: its columns, seats,
        summary values and what refers to it, read without the record whole), in that order;
        a number no record has is left out."""
        ...

    def __enter__(self) -> Storage: ...

    def __exit__(self, *exc: object) -> None: ...

    def close(self) -> None:
        """Release the log."""
        ...

    def transaction(self) -> AbstractContextManager[WriteTransaction]:
        """A write transaction: committed when the block ends normally, else nothing of it is
        saved (AuditError saying so when the backend fails)."""
        ...

    def snapshot(self) -> AbstractContextManager[None]:
        """A read transaction: every read inside sees the same state."""
        ...

    def user_history(self) -> list[UserRow]:
        """Every users row ever stored, by record id."""
        ...

    def login(self) -> str | None:
        """Who this storage is open as, where the backend knows it for certain: on PostgreSQL
        the database login (`session_user`, which every record it appends is made in); None on
        SQLite, whose file names no one (the desk's user stands in)."""
        ...

    def released_secret(self, row: UserRow, pin: str) -> str | None:
        """The stored secret of users row `row` for `pin` to open (`users.unlock`): the row's own
        where its reader holds it anyway (SQLite's file), else released by the server only to
        a `pin` it checks, each check counted (PostgreSQL: None when `pin` is wrong;
        AccessError while the server's own lockout holds)."""
        ...

    def protection_problems(self, sums: str | None = None) -> list[str]:
        """What is missing or changed of the backend's own append-only protection and schema
        (for `verify`); on a server that computes the floor's sums, its function compared with
        `sums` too (`verify.FloorSums.server`; None: not compared)."""
        ...

    def integrity_problems(self) -> list[str]:
        """What the backend's own integrity check finds (for `verify`)."""
        ...
