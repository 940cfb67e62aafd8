"""What the two SQL backends (`sqlite`, `postgres`) share: how a `RecordFilter` becomes SQL, the
reads of `storage.Reads` over one connection, a users row, what the seat index should hold, and
what a write transaction keeps beside its reads (`WriteState`).

Each backend names its `Dialect` (parameter marks, the schema its tables live in, its JSON
operators, its byte order of ids) and its connection; the SQL and the checks are written once.
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator, Sequence
from contextlib import AbstractContextManager, nullcontext
from decimal import Decimal
from itertools import zip_longest
from typing import Any, ClassVar

from dealer.audit.chain import GENESIS_HASH, Checkpoint
from dealer.audit.glances import GLANCE_COLUMNS, Glance, glance_of
from dealer.audit.records import (
    STORED_FIELDS,
    Entry,
    Record,
    RecordFilter,
    Reference,
    Role,
    UserRow,
    meter_value,
    records_of,
    seats_in,
)
from dealer.audit.sign_ins import SIGNED_IN
from dealer.audit.sums import KEY_COLUMNS, SUM_COLUMNS, SumKey, SumRow, Total
from dealer.kernel.digest import sha256_hex
from dealer.kernel.errors import AuditError
from dealer.kernel.tuples import NamedTuple

USER_COLUMNS = "record_id, user_id, role, active, pin_hash"
"""The columns of a users row, in `UserRow` order."""

SETTINGS_KEPT_OVER = 256
"""A record's settings longer than this (bytes) are kept once in `settings_texts`, by their
SHA-256, and the record holds the reference (`settings_reference`): the rulings of a table share
one settings text. The hash chain covers the full text; every read puts it back."""


def settings_reference(text: str) -> str | None:
    """The reference a record stores for the settings `text` (`sha256:` and its SHA-256), or
    None when the text is short enough to be stored in the record itself."""
    if len(text.encode("utf-8")) <= SETTINGS_KEPT_OVER:
        return None
    return "sha256:" + sha256_hex(text)


def record_select(schema: str) -> str:
    """`SELECT` of whole records as stored, each settings reference replaced by its text (the
    row the hash covers); the records' own columns stay unqualified for a `WHERE`."""
    columns = ", ".join(
        "coalesce(s.text, r.settings) AS settings" if name == "settings" else f"r.{name}"
        for name in STORED_FIELDS
    )
    return (
        f"SELECT {columns} FROM {schema}records r "
        f"LEFT JOIN {schema}settings_texts s ON s.ref = r.settings"
    )


IDS_A_QUERY = 500
"""The most record numbers one query asks about (a long list's are read in parts)."""

_FILTERED = ("table_id", "game", "user_id", "kind", "action", "links_to")
_SEATED = ("seat", "patron")
"""Filters answered by the seat index `record_seats` (see `records.seats_of`)."""


class Dialect(NamedTuple):
    """How one backend writes the shared SQL."""

    mark: str
    """A parameter placeholder: `?` or `%s`."""
    schema: str
    """The prefix of the log's tables: `` or `dealer.`."""
    true: str
    """An always-true condition."""
    meter_name: str
    """The `meter` of a meter record's result."""
    meter_link: str
    """The `link` of a meter record's result (a linked meter's, `dealer.audit.meters`)."""
    user_order: str
    """User ids in byte order."""
    users: str
    """What the users rows are read from: the table, or what a backend shows of it (the
    PostgreSQL server withholds the secrets: `dealer.user_rows()`)."""
    glance: str
    """The `glances.GLANCE_VALUES` of a record `r`, taken out of its JSON by the database."""
    glance_from: str
    """What `glance` needs joined to the records `r` (PostgreSQL: each JSON parsed once)."""
    among: str
    """A column (`{}`) is one of the numbers in one parameter, a JSON list: one parameter
    however many numbers (no list of marks for the driver to rewrite)."""
    contains: str
    """A text column (`{}`) holds the text of one parameter."""


def filter_sql(flt: RecordFilter, d: Dialect) -> tuple[str, list[Any]]:
    """The SQL condition selecting the records `flt` matches, and its parameters."""
    clauses: list[str] = []
    params: list[Any] = []
    if flt.ids:
        clauses.append(f"id IN ({', '.join(d.mark for _ in flt.ids)})")
        params.extend(flt.ids)
    for column in _FILTERED:
        value = getattr(flt, column)
        if value is not None:
            clauses.append(f"{column} = {d.mark}")
            params.append(value)
    seated = [(column, value) for column in _SEATED if (value := getattr(flt, column)) is not None]
    if seated:
        matches = " AND ".join(f"{column} = {d.mark}" for column, _ in seated)
        clauses.append(f"id IN (SELECT record_id FROM {d.schema}record_seats WHERE {matches})")
        params.extend(value for _, value in seated)
    if flt.since is not None:
        clauses.append(f"recorded_at >= {d.mark}")
        params.append(flt.since)
    if flt.until is not None:
        clauses.append(f"recorded_at < {d.mark}")
        params.append(flt.until)
    if flt.before_id is not None:
        clauses.append(f"id < {d.mark}")
        params.append(flt.before_id)
    return (" AND ".join(clauses) or d.true), params


def user_row(row: Sequence[Any]) -> UserRow:
    """A users row as read (`USER_COLUMNS`)."""
    record_id, user_id, role, active, pin_hash = row
    return UserRow(record_id, user_id, role, bool(active), pin_hash)


def indexed_seats(rows: Iterable[Sequence[Any]]) -> Iterator[tuple[int, int, str | None]]:
    """What the seat index should hold for records given as (id, seat, result text), as
    (record id, seat, patron): each record's `records.seats_in`. A record whose result cannot
    be read has none (`verify` reports it as damaged)."""
    for record_id, seat, text in rows:
        try:
            result = json.loads(text)
        except (TypeError, ValueError):
            continue
        for number, patron in seats_in(seat, result):
            yield record_id, number, patron


def seat_index_problems(
    indexed: Iterable[Sequence[Any]], records: Iterable[Sequence[Any]]
) -> list[str]:
    """The first record whose rows in the seat index (`indexed`: record id, seat, patron, by
    record and seat) differ from what its content says (`records`: id, seat, result, by id)."""
    for held, meant in zip_longest(indexed, indexed_seats(records)):
        if held is None or meant is None or tuple(held) != tuple(meant):
            record = min(row[0] for row in (held, meant) if row is not None)
            return [
                f"the seat index does not match record {record}: it was changed outside the tool"
            ]
    return []


_BEYOND = 2**62
"""A record number beyond any log's."""


class WriteState:
    """What a SQL backend's write transaction keeps beside its reads: the entries it appended,
    with their ids, and whether it is finished (closed at COMMIT or ROLLBACK: a write after
    that is refused). A backend's transaction calls `WriteState.__init__` when it opens and
    `_check_open` before each write."""

    def __init__(self) -> None:
        self._appended: list[tuple[int, Entry]] = []
        self._times: dict[int, str] = {}
        self._closed = False

    @property
    def appended(self) -> Sequence[tuple[int, Entry]]:
        """The entries appended in this transaction so far, with their ids."""
        return tuple(self._appended)

    def appended_record(self, record_id: int) -> Record | None:
        """Record `record_id` as appended in this transaction, from its entry and the time it
        was given (no read); None for one it did not append."""
        entry = next((e for made, e in reversed(self._appended) if made == record_id), None)
        if entry is None:
            return None
        return Record(
            record_id,
            self._times[record_id],
            entry.kind,
            entry.game,
            entry.action,
            entry.table_id,
            entry.seat,
            entry.user_id,
            entry.role,
            entry.input_text,
            tuple(entry.cards),
            entry.result,
            tuple(entry.explanation),
            entry.settings,
            entry.links_to,
            entry.reason,
            "",
            "",
            "",
        )

    def bulk(self) -> AbstractContextManager[None]:
        """Many writes in a row (`WriteTransaction.bulk`): sent one by one here."""
        return nullcontext()

    def _check_open(self) -> None:
        """AuditError once the transaction is finished."""
        if self._closed:
            raise AuditError("this audit transaction is already finished")

    def close(self) -> None:
        """Refuse further writes (at COMMIT or ROLLBACK)."""
        self._closed = True


class SQLReads(ABC):
    """The reads of `storage.Reads` over one connection (`conn`), in the backend's `dialect`.
    `_reading` wraps each one: the storage names a failure, a write transaction lets it abort
    the whole transaction."""

    dialect: ClassVar[Dialect]
    conn: Any

    @abstractmethod
    def _reading(self, doing: str) -> AbstractContextManager[None]:
        """What wraps a read that is `doing` something (each backend's own)."""

    def rows(
        self,
        flt: RecordFilter | None = None,
        *,
        limit: int | None = None,
        newest_first: bool = False,
    ) -> Iterator[dict[str, Any]]:
        """The stored rows matching `flt`, by id (JSON columns as their stored text)."""
        where, params = filter_sql(flt or RecordFilter(), self.dialect)
        order = "DESC" if newest_first else "ASC"
        sql = f"{record_select(self.dialect.schema)} WHERE {where} ORDER BY id {order}"
        if limit is not None:
            sql += f" LIMIT {int(limit)}"
        return self._rows_of(sql, params, "read")

    def _rows_of(self, sql: str, params: Sequence[Any], doing: str) -> Iterator[dict[str, Any]]:
        """The rows a `SELECT *` of records gives, each as a dict by column name."""
        with self._reading(doing):
            cursor = self.conn.execute(sql, params)
            names = [column[0] for column in cursor.description or ()]
            for values in cursor:
                yield dict(zip(names, values, strict=True))

    def records(
        self,
        flt: RecordFilter | None = None,
        *,
        limit: int | None = None,
        newest_first: bool = False,
    ) -> list[Record]:
        """Records matching `flt`, oldest first (newest first with `newest_first`)."""
        return records_of(self.rows(flt, limit=limit, newest_first=newest_first))

    def record(self, record_id: int) -> Record | None:
        """Record `record_id`, or None."""
        found = self.records(RecordFilter(ids=(record_id,)))
        return found[0] if found else None

    def record_ids(
        self, flt: RecordFilter, *, limit: int | None = None, newest_first: bool = False
    ) -> list[int]:
        """The numbers of the records matching `flt`, by id (newest first with
        `newest_first`), at most `limit`."""
        where, params = filter_sql(flt, self.dialect)
        order = "DESC" if newest_first else "ASC"
        sql = f"SELECT id FROM {self.dialect.schema}records WHERE {where} ORDER BY id {order}"
        if limit is not None:
            sql += f" LIMIT {int(limit)}"
        with self._reading("read"):
            return [int(row[0]) for row in self.conn.execute(sql, params)]

    def glances(self, record_ids: Sequence[int]) -> list[Glance]:
        """The glances of `record_ids` (`glances.Glance`), in that order (a number no record
        has left out): per `IDS_A_QUERY` of them, one query for the records' columns and the
        values the database takes out of their JSON, one for their seats (the seat index), one
        for what refers to them (`links_to`, indexed: numbers and kinds)."""
        d, ids = self.dialect, list(record_ids)
        rows: dict[int, Sequence[Any]] = {}
        seats: dict[int, list[int]] = {}
        found: dict[int, list[Reference]] = {}
        with self._reading("read the records"):
            for start in range(0, len(ids), IDS_A_QUERY):
                part = ids[start : start + IDS_A_QUERY]
                listed = [json.dumps(part)]
                for row in self._glance_rows(part):
                    rows[row[0]] = row
                for record_id, seat in self.conn.execute(
                    f"SELECT record_id, seat FROM {d.schema}record_seats "
                    f"WHERE {d.among.format('record_id')} ORDER BY record_id, seat",
                    listed,
                ):
                    seats.setdefault(record_id, []).append(seat)
                for target, record_id, kind in self.conn.execute(
                    f"SELECT links_to, id, kind FROM {d.schema}records "
                    f"WHERE {d.among.format('links_to')} ORDER BY id",
                    listed,
                ):
                    found.setdefault(target, []).append(Reference(record_id, kind))
        return [glance_of(rows[i], seats.get(i, ()), found.get(i, ())) for i in ids if i in rows]

    def _glance_rows(self, record_ids: Sequence[int]) -> list[Sequence[Any]]:
        """The rows of `GLANCE_COLUMNS` and `Dialect.glance` of `record_ids` (any order)."""
        return self._glance_select(record_ids, self.dialect.glance, self.dialect.glance_from)

    def _glance_select(
        self, record_ids: Sequence[int], values: str, joined: str
    ) -> list[Sequence[Any]]:
        """The rows of `GLANCE_COLUMNS` and `values` (SQL of the `glances.GLANCE_VALUES`) of
        `record_ids`, `joined` joined to the records `r` (any order)."""
        d = self.dialect
        columns = ", ".join(f"r.{name}" for name in GLANCE_COLUMNS)
        return self.conn.execute(
            f"SELECT {columns}, {values} FROM {d.schema}records r {joined} "
            f"WHERE {d.among.format('r.id')}",
            [json.dumps(list(record_ids))],
        ).fetchall()

    def head(self) -> Checkpoint:
        """The record count and newest hash."""
        with self._reading("read"):
            row = self.conn.execute(
                f"SELECT id, hash FROM {self.dialect.schema}records ORDER BY id DESC LIMIT 1"
            ).fetchone()
        return Checkpoint(row[0], row[1]) if row else Checkpoint(0, GENESIS_HASH)

    def meter(self, table_id: str, name: str) -> Decimal | None:
        """The newest `meter` record's value for (table, meter name), a linked meter's records
        left out (a table's own meter is never a link's). A value that is no number (no version
        of the tool writes one) is a damaged record."""
        d = self.dialect
        with self._reading("read the meter"):
            row = self.conn.execute(
                f"SELECT id, result FROM {d.schema}records WHERE kind = 'meter' "
                f"AND table_id = {d.mark} AND {d.meter_name} = {d.mark} AND {d.meter_link} IS NULL "
                "ORDER BY id DESC LIMIT 1",
                [table_id, name],
            ).fetchone()
        return (
            None
            if row is None
            else meter_value(row[0], row[1], f"meter {name} at table {table_id}")
        )

    def meter_records(
        self, table_id: str, name: str, limit: int, until: str | None = None
    ) -> list[Record]:
        """The newest `limit` `meter` records of (table, meter name) recorded before `until`
        (None: any), newest first, a linked meter's records left out (as `meter`). Before
        `until` is below the first record at or after it (the log's times never run backwards:
        one step of the time index, then the meter index alone)."""
        d = self.dialect
        before, params = "", [table_id, name]
        if until is not None:
            first = (
                f"SELECT id FROM {d.schema}records WHERE recorded_at >= {d.mark} "
                "ORDER BY recorded_at, id LIMIT 1"
            )
            before = f"AND id < coalesce(({first}), {_BEYOND}) "
            params = [*params, until]
        sql = (
            f"{record_select(d.schema)} WHERE kind = 'meter' AND table_id = {d.mark} "
            f"AND {d.meter_name} = {d.mark} AND {d.meter_link} IS NULL {before}"
            f"ORDER BY id DESC LIMIT {int(limit)}"
        )
        rows = self._rows_of(sql, params, "read the meter")
        return records_of(rows)

    def link_records(self, link: str, limit: int, *, oldest_first: bool = False) -> list[Record]:
        """The newest `limit` `meter` records of linked meter `link`, newest first, or its first
        with `oldest_first` (the index `records_linked_meters`: one lookup however long the
        log)."""
        d = self.dialect
        sql = (
            f"{record_select(d.schema)} WHERE kind = 'meter' AND {d.meter_link} = "
            f"{d.mark} ORDER BY id {'ASC' if oldest_first else 'DESC'} LIMIT {int(limit)}"
        )
        return records_of(self._rows_of(sql, [link], "read the meter"))

    def user(self, user_id: str, before: int | None = None) -> UserRow | None:
        """The newest users row of `user_id` (set before record `before`), or None."""
        d = self.dialect
        earlier = "" if before is None else f" AND record_id < {d.mark}"
        with self._reading("read"):
            row = self.conn.execute(
                f"SELECT {USER_COLUMNS} FROM {d.users} WHERE user_id = {d.mark}{earlier} "
                "ORDER BY record_id DESC LIMIT 1",
                [user_id] if before is None else [user_id, before],
            ).fetchone()
        return None if row is None else user_row(row)

    def users(self) -> list[UserRow]:
        """The newest users row of every registered id, by id."""
        d = self.dialect
        with self._reading("read"):
            rows = self.conn.execute(
                f"SELECT {USER_COLUMNS} FROM {d.users} u WHERE u.record_id IN "
                f"(SELECT max(record_id) FROM {d.users} GROUP BY user_id) "
                f"ORDER BY {d.user_order}"
            ).fetchall()
        return [user_row(row) for row in rows]

    def supervisor_ever_registered(self) -> bool:
        """Whether any users row ever gave someone the supervisor role."""
        d = self.dialect
        with self._reading("read"):
            row = self.conn.execute(
                f"SELECT 1 FROM {d.users} WHERE role = {d.mark} LIMIT 1", [Role.SUPERVISOR]
            ).fetchone()
        return row is not None

    def count_by_user(self, flt: RecordFilter, *, signed_in: bool = False) -> dict[str, int]:
        """How many records matching `flt` each user made (with `signed_in`, of those whose
        settings name a sign-in: `sign_ins.SIGNED_IN` as a key, in the settings or the text
        they keep once; verify checks that each stood)."""
        d = self.dialect
        where, params = filter_sql(flt, d)
        if signed_in:
            key = f'"{SIGNED_IN}":'
            where += (
                f" AND ({d.contains.format('settings')} OR settings IN (SELECT ref FROM "
                f"{d.schema}settings_texts WHERE {d.contains.format('text')}))"
            )
            params = [*params, key, key]
        with self._reading("read"):
            rows = self.conn.execute(
                f"SELECT user_id, count(*) FROM {d.schema}records WHERE {where} GROUP BY user_id",
                params,
            ).fetchall()
        return {str(user): int(count) for user, count in rows}

    def sums_from(self) -> int:
        """The first record the floor's sums cover (`dealer.audit.sums`)."""
        with self._reading("read the floor's sums"):
            row = self.conn.execute(
                f"SELECT from_id FROM {self.dialect.schema}floor_sums_from"
            ).fetchone()
        return int(row[0]) if row else 1

    def sum_totals(self, grp: str, since: str | None, until: str | None) -> list[Total]:
        """The sums of group `grp` per (member, source) over the hours from `since` up to
        `until` (hours as `sums.hour_of` gives them; None: open)."""
        d = self.dialect
        where, params = [f"grp = {d.mark}"], [grp]
        for bound, op in ((since, ">="), (until, "<")):
            if bound is not None:
                where.append(f"hour {op} {d.mark}")
                params.append(bound)
        summed = ", ".join(f"sum({name})" for name in SUM_COLUMNS)
        with self._reading("read the floor's sums"):
            rows = self.conn.execute(
                f"SELECT member, source, {summed} FROM {d.schema}floor_sums "
                f"WHERE {' AND '.join(where)} GROUP BY member, source ORDER BY member, source",
                params,
            ).fetchall()
        return [Total(row[0], row[1], tuple(row[2:])) for row in rows]

    def sum_rows(self, hour: str) -> list[SumRow]:
        """Every row of sums of `hour`, by group, member and source."""
        d = self.dialect
        columns = ", ".join((*KEY_COLUMNS, *SUM_COLUMNS, "last_at", "last_mark"))
        with self._reading("read the floor's sums"):
            rows = self.conn.execute(
                f"SELECT {columns} FROM {d.schema}floor_sums WHERE hour = {d.mark} "
                "ORDER BY grp, member, source",
                [hour],
            ).fetchall()
        return [_sum_row(row) for row in rows]

    def member_rows(self, hours: Sequence[str], members: Sequence[tuple[str, str]]) -> list[SumRow]:
        """The rows of the members' own sums (source '') in `hours`, members as (group, member):
        one query, by the sums' key."""
        d = self.dialect
        by_group: dict[str, list[str]] = {}
        for grp, member in members:
            by_group.setdefault(grp, []).append(member)
        if not hours or not by_group:
            return []
        columns = ", ".join((*KEY_COLUMNS, *SUM_COLUMNS, "last_at", "last_mark"))
        marks = ", ".join(d.mark for _ in hours)
        clauses, params = [], []
        for grp, names in by_group.items():
            clauses.append(
                f"(grp = {d.mark} AND hour IN ({marks}) "
                f"AND member IN ({', '.join(d.mark for _ in names)}) AND source = '')"
            )
            params += [grp, *hours, *names]
        with self._reading("read the floor's sums"):
            rows = self.conn.execute(
                f"SELECT {columns} FROM {d.schema}floor_sums WHERE {' OR '.join(clauses)}",
                params,
            ).fetchall()
        return [_sum_row(row) for row in rows]

    def sum_hours(self) -> list[str]:
        """Every hour that has sums, in order."""
        with self._reading("read the floor's sums"):
            rows = self.conn.execute(
                f"SELECT DISTINCT hour FROM {self.dialect.schema}floor_sums ORDER BY hour"
            ).fetchall()
        return [str(row[0]) for row in rows]


def _sum_row(row: Sequence[Any]) -> SumRow:
    """A row of sums as read (`KEY_COLUMNS`, `SUM_COLUMNS`, last_at, last_mark)."""
    keys = len(KEY_COLUMNS)
    values = len(SUM_COLUMNS)
    return SumRow(
        SumKey(*row[:keys]), tuple(row[keys : keys + values]), row[keys + values], row[-1]
    )
