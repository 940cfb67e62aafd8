"""The PostgreSQL backend of the audit log: one database the floor's terminals share.

The one module besides `dealer.audit.sqlite` that talks to a database (its schema and roles are
in `postgres_schema`). psycopg 3 is imported here only, so it loads only when `--db` (or
`DEALER_DB`) is a `postgresql://` URL.

The server enforces what a record is (see `postgres_schema`): a terminal's login can only call
`dealer.append_record` and `dealer.add_user`, which number, date and hash each record inside the
server, in the name of the login. This module therefore sends the entry's checked fields
(`Entry.stored`) and keeps what the server returns; `verify` recomputes every hash on the client
with the recipe of `dealer.audit.chain`.

A write transaction is READ COMMITTED and takes the log's advisory lock first, so the head
cannot move under it (its reads, a meter's value among them, are the latest) and writers at
once queue up. Commits are durable (`synchronous_commit = on`). The URL's password never
appears in a message (`redact`).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager, nullcontext
from decimal import Decimal, InvalidOperation
from itertools import zip_longest
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit, urlunsplit

import dealer
from dealer.audit.chain import GENESIS_HASH, Checkpoint
from dealer.audit.postgres_schema import (
    APP_ROLE,
    LATEST,
    LOCK_KEY,
    PROTECTION_TRIGGERS,
    SCHEMA,
    SCHEMA_STATEMENTS,
    role_statements,
)
from dealer.audit.records import (
    STORED_FIELDS,
    SUPERVISOR,
    Entry,
    Record,
    RecordFilter,
    UserRow,
    seats_in,
    seats_of,
    utc_now,
)
from dealer.kernel.errors import AuditError

if TYPE_CHECKING:
    import psycopg

URL_SCHEMES = ("postgresql://", "postgres://")
"""How a `--db` value names a PostgreSQL log rather than an SQLite file."""

_FILTERED = ("table_id", "game", "user_id", "kind", "action", "links_to")
_SEATED = ("seat", "patron")
"""Filters answered by the seat index `record_seats` (see `records.seats_of`)."""
_USER_COLUMNS = "record_id, user_id, role, active, pin_hash"
_APPEND = (
    "SELECT * FROM dealer.append_record("
    "%(kind)s, %(game)s, %(action)s, %(table_id)s, %(seat)s, %(user_id)s, %(role)s, "
    "%(input_text)s, %(cards)s, %(result)s, %(explanation)s, %(settings)s, %(links_to)s, "
    "%(reason)s, %(software_version)s, %(seats)s, %(patrons)s)"
)
_SEATS_INSERT = "INSERT INTO dealer.record_seats (record_id, seat, patron) VALUES (%s, %s, %s)"


def is_url(location: object) -> bool:
    """Whether `location` (a `--db` value) is a PostgreSQL URL."""
    return isinstance(location, str) and location.startswith(URL_SCHEMES)


def redact(url: str) -> str:
    """`url` without its password (for messages): `postgresql://user@host/db`."""
    try:
        parts = urlsplit(url)
        if parts.password is None:
            return url
        host = parts.netloc.rsplit("@", 1)[1]
        user = f"{parts.username}@" if parts.username else ""
        return urlunsplit(parts._replace(netloc=user + host))
    except ValueError:
        return "the PostgreSQL URL given"


def filter_sql(flt: RecordFilter) -> tuple[str, list[Any]]:
    """The SQL condition selecting the records `flt` matches, and its parameters."""
    clauses: list[str] = []
    params: list[Any] = []
    if flt.ids:
        clauses.append("id = ANY(%s)")
        params.append(list(flt.ids))
    for column in _FILTERED:
        value = getattr(flt, column)
        if value is not None:
            clauses.append(f"{column} = %s")
            params.append(value)
    seated = [(column, getattr(flt, column)) for column in _SEATED]
    if any(value is not None for _, value in seated):
        matches = " AND ".join(f"{column} = %s" for column, value in seated if value is not None)
        clauses.append(f"id IN (SELECT record_id FROM dealer.record_seats WHERE {matches})")
        params.extend(value for _, value in seated if value is not None)
    if flt.since is not None:
        clauses.append("recorded_at >= %s")
        params.append(flt.since)
    if flt.until is not None:
        clauses.append("recorded_at < %s")
        params.append(flt.until)
    return (" AND ".join(clauses) or "true"), params


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


def _user_row(row: Sequence[Any]) -> UserRow:
    record_id, user_id, role, active, pin_hash = row
    return UserRow(record_id, user_id, role, bool(active), pin_hash)


def connect(url: str) -> psycopg.Connection[Any]:
    """An autocommit connection to `url`; AuditError (without the password) if there is none."""
    import psycopg

    try:
        conn = psycopg.connect(url, autocommit=True, connect_timeout=15)
        conn.isolation_level = psycopg.IsolationLevel.READ_COMMITTED
    except (psycopg.Error, ValueError) as exc:
        raise AuditError(
            f"cannot connect to the audit log {redact(url)}: {_reason(exc, url)}"
        ) from None
    conn.execute("SET synchronous_commit = on")
    return conn


def _reason(exc: Exception, url: str) -> str:
    """The first line of a driver error, with any trace of the URL's password removed."""
    text = (str(exc).strip().splitlines() or ["unknown error"])[0]
    try:
        password = urlsplit(url).password
    except ValueError:
        password = None
    return text.replace(password, "***") if password else text


def _schema_version(conn: psycopg.Connection[Any]) -> int | None:
    found = conn.execute("SELECT to_regclass('dealer.schema_migrations')").fetchone()
    if found is None or found[0] is None:
        return None
    row = conn.execute("SELECT max(version) FROM dealer.schema_migrations").fetchone()
    return None if row is None or row[0] is None else int(row[0])


def init(url: str) -> list[str]:
    """Create the schema, the roles `dealer_app` and `dealer_auditor` and their grants in the
    database at `url` (connected as its owner); return what was done. A database that already
    holds the current schema only gets its roles and grants again."""
    import psycopg

    conn = connect(url)
    done: list[str] = []
    try:
        with conn.transaction():
            encoding = conn.execute("SHOW server_encoding").fetchone()
            if encoding is None or encoding[0] != "UTF8":
                raise AuditError(
                    f"the database {redact(url)} is not UTF8-encoded: create it with "
                    "ENCODING 'UTF8'"
                )
            conn.execute("SELECT pg_advisory_xact_lock(%s)", [LOCK_KEY])
            version = _schema_version(conn)
            if version is None:
                for statement in SCHEMA_STATEMENTS:
                    conn.execute(statement)
                conn.execute(
                    "INSERT INTO dealer.schema_migrations VALUES (%s, %s, %s)",
                    [LATEST, "records, users, their protection and write functions", utc_now()],
                )
                done.append(f"created the schema {SCHEMA} (version {LATEST})")
            elif version > LATEST:
                raise AuditError(_newer(url, version))
            else:
                done.append(f"the schema {SCHEMA} is already there (version {version})")
            for statement in role_statements():
                conn.execute(statement)
            done.append("granted dealer_app (terminals) and dealer_auditor (read-only)")
    except psycopg.Error as exc:
        raise AuditError(
            f"could not set up the audit log {redact(url)} ({_reason(exc, url)}): nothing was "
            "changed"
        ) from None
    finally:
        conn.close()
    return done


def _newer(url: str, version: int) -> str:
    return (
        f"the audit database {redact(url)} has schema version {version}, newer than this "
        f"software knows ({LATEST}): upgrade dealer"
    )


class _Reads:
    """The reads of `storage.Reads` over one connection."""

    def __init__(self, conn: psycopg.Connection[Any], url: str) -> None:
        self.conn = conn
        self.url = url

    @contextmanager
    def errors(self, doing: str, *, writing: bool = False) -> Iterator[None]:
        """Turn driver errors met while doing something into AuditError naming the log (for a
        write: saying that nothing was saved)."""
        import psycopg

        try:
            yield
        except psycopg.Error as exc:
            outcome = ": nothing was saved" if writing else ""
            raise AuditError(
                f"could not {doing} in the audit log {redact(self.url)} "
                f"({_reason(exc, self.url)}){outcome}"
            ) from None

    def _reading(self, doing: str) -> AbstractContextManager[None]:
        return self.errors(doing)

    def rows(
        self,
        flt: RecordFilter | None = None,
        *,
        limit: int | None = None,
        newest_first: bool = False,
    ) -> Iterator[dict[str, Any]]:
        """The stored rows matching `flt`, by id (JSON columns as their stored text)."""
        where, params = filter_sql(flt or RecordFilter())
        order = "DESC" if newest_first else "ASC"
        sql = f"SELECT * FROM dealer.records WHERE {where} ORDER BY id {order}"
        if limit is not None:
            sql += f" LIMIT {int(limit)}"
        with self._reading("read"):
            cursor = self.conn.execute(sql, params)
            names = [column.name for column in cursor.description or ()]
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
        rows = self.rows(flt, limit=limit, newest_first=newest_first)
        return [Record.from_row(row) for row in rows]

    def record(self, record_id: int) -> Record | None:
        """Record `record_id`, or None."""
        found = self.records(RecordFilter(ids=(record_id,)))
        return found[0] if found else None

    def head(self) -> Checkpoint:
        """The record count and newest hash."""
        with self._reading("read"):
            row = self.conn.execute(
                "SELECT id, hash FROM dealer.records ORDER BY id DESC LIMIT 1"
            ).fetchone()
        return Checkpoint(row[0], row[1]) if row else Checkpoint(0, GENESIS_HASH)

    def meter(self, table_id: str, name: str) -> Decimal | None:
        """The newest `meter` record's value for (table, meter name): the index records_meters.
        The value is read as text, so no digit is lost on the way."""
        with self._reading("read the meter"):
            row = self.conn.execute(
                "SELECT id, (result::json) ->> 'value' FROM dealer.records "
                "WHERE kind = 'meter' AND table_id = %s AND (result::json) ->> 'meter' = %s "
                "ORDER BY id DESC LIMIT 1",
                [table_id, name],
            ).fetchone()
        if row is None or row[1] is None:
            return None
        value = row[1]
        try:
            return Decimal(value)
        except (InvalidOperation, TypeError, ValueError):
            raise AuditError(
                f"audit record {row[0]} is damaged: meter {name} at table {table_id} holds "
                f"{value!r}, which is not a number"
            ) from None

    def user(self, user_id: str) -> UserRow | None:
        """The newest users row of `user_id`, or None."""
        with self._reading("read"):
            row = self.conn.execute(
                f"SELECT {_USER_COLUMNS} FROM dealer.users WHERE user_id = %s "
                "ORDER BY record_id DESC LIMIT 1",
                [user_id],
            ).fetchone()
        return None if row is None else _user_row(row)

    def users(self) -> list[UserRow]:
        """The newest users row of every registered id, by id."""
        with self._reading("read"):
            rows = self.conn.execute(
                f"SELECT {_USER_COLUMNS} FROM dealer.users u WHERE u.record_id = "
                "(SELECT max(record_id) FROM dealer.users v WHERE v.user_id = u.user_id) "
                'ORDER BY u.user_id COLLATE "C"'
            ).fetchall()
        return [_user_row(row) for row in rows]

    def supervisor_ever_registered(self) -> bool:
        """Whether any users row ever gave someone the supervisor role."""
        with self._reading("read"):
            row = self.conn.execute(
                "SELECT 1 FROM dealer.users WHERE role = %s LIMIT 1", [SUPERVISOR]
            ).fetchone()
        return row is not None


class _Transaction(_Reads):
    """One READ COMMITTED transaction holding the log's advisory lock, opened by
    `PostgresStorage.transaction()`."""

    def __init__(self, storage: PostgresStorage) -> None:
        super().__init__(storage.conn, storage.url)
        self._closed = False
        self._appended: list[tuple[int, Entry]] = []

    def _reading(self, doing: str) -> AbstractContextManager[None]:
        return nullcontext()

    @property
    def appended(self) -> Sequence[tuple[int, Entry]]:
        """The entries appended in this transaction so far, with their ids."""
        return tuple(self._appended)

    def append(self, entry: Entry) -> int:
        """Send `entry` and its seats (`seats_of`) to `dealer.append_record`, which numbers,
        dates and hashes it and indexes the seats with it; return its id. A link is checked
        here too, with the message the SQLite backend gives."""
        if self._closed:
            raise AuditError("this audit transaction is already finished")
        row = entry.stored()
        if entry.links_to is not None and not 1 <= entry.links_to <= (self.head().records or 0):
            raise AuditError(f"there is no audit record {entry.links_to} to refer to")
        row["software_version"] = dealer.__version__
        seats = seats_of(entry)
        row["seats"] = [seat for seat, _ in seats]
        row["patrons"] = [patron for _, patron in seats]
        found = self.conn.execute(_APPEND, row).fetchone()
        if found is None:
            raise AuditError("the audit log returned no record")
        record_id = int(found[0])
        self._appended.append((record_id, entry))
        return record_id

    def copy(self, row: dict[str, Any]) -> None:
        """Insert a copied record as it is, and its seats in the index: only the owner may
        (terminals hold no INSERT); the triggers check the record's number, link, hash and
        time, and that each seat is the new record's."""
        if self._closed:
            raise AuditError("this audit transaction is already finished")
        columns = ", ".join(STORED_FIELDS)
        marks = ", ".join(f"%({name})s" for name in STORED_FIELDS)
        self.conn.execute(f"INSERT INTO dealer.records ({columns}) VALUES ({marks})", row)
        with self.conn.cursor() as cursor:
            cursor.executemany(
                _SEATS_INSERT, list(indexed_seats([(row["id"], row["seat"], row["result"])]))
            )

    def add_user(self, row: UserRow) -> None:
        """Send a users row to `dealer.add_user` (it goes with the user record just appended)."""
        if self._closed:
            raise AuditError("this audit transaction is already finished")
        self.conn.execute(
            "SELECT dealer.add_user(%s, %s, %s, %s, %s)",
            [row.record_id, row.user_id, row.role, row.active, row.pin_hash],
        )

    def close(self) -> None:
        """Refuse further writes (at COMMIT or ROLLBACK)."""
        self._closed = True


class PostgresStorage(_Reads):
    """An audit log in a PostgreSQL database set up by `dealer db init`. Open with
    `PostgresStorage.open(url)`."""

    def __init__(self, conn: psycopg.Connection[Any], url: str) -> None:
        super().__init__(conn, url)
        self._in_transaction = False

    @classmethod
    def open(cls, url: str, *, read_only: bool = False) -> PostgresStorage:
        """Open the log at `url`. Its schema must be there (`dealer db init`): a terminal's login
        cannot create one. `read_only` opens it for reading only (a read-only session)."""
        conn = connect(url)
        try:
            with _Reads(conn, url).errors("open the log"):
                version = _schema_version(conn)
                if read_only:
                    conn.execute("SET default_transaction_read_only = on")
        except BaseException:
            conn.close()
            raise
        if version != LATEST:
            conn.close()
            if version is None:
                raise AuditError(
                    f"the database {redact(url)} holds no audit log: set it up once with "
                    f"dealer db init {redact(url)} (as the database's owner)"
                )
            if version > LATEST:
                raise AuditError(_newer(url, version))
            raise AuditError(
                f"the audit log {redact(url)} has schema version {version}, older than this "
                f"software's ({LATEST}): run dealer db init as the database's owner"
            )
        return cls(conn, url)

    def close(self) -> None:
        """Close the connection."""
        self.conn.close()

    def __enter__(self) -> PostgresStorage:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def transaction(self) -> Iterator[_Transaction]:
        """BEGIN (READ COMMITTED), the log's advisory lock, … COMMIT; rolled back on any
        exception. Nothing written inside is saved unless the block ends normally and the
        COMMIT succeeds (else AuditError)."""
        if self._in_transaction:
            raise AuditError("an audit transaction is already open on this connection")
        self._in_transaction = True
        tx: _Transaction | None = None
        try:
            with self.errors("write", writing=True), self.conn.transaction():
                self.conn.execute("SELECT pg_advisory_xact_lock(%s)", [LOCK_KEY])
                tx = _Transaction(self)
                yield tx
                tx.close()
        finally:
            if tx is not None:
                tx.close()
            self._in_transaction = False

    @contextmanager
    def snapshot(self) -> Iterator[None]:
        """A REPEATABLE READ, READ ONLY transaction: every query inside sees the same state."""
        with self.errors("read"), self.conn.transaction():
            self.conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            yield

    def user_history(self) -> list[UserRow]:
        """Every users row ever stored, by record id."""
        with self.errors("read"):
            rows = self.conn.execute(
                f"SELECT {_USER_COLUMNS} FROM dealer.users ORDER BY record_id"
            ).fetchall()
        return [_user_row(row) for row in rows]

    def protection_problems(self) -> list[str]:
        """The append-only triggers that are missing, and any write right the terminals' role
        holds on a table."""
        with self.errors("read"):
            present = {
                row[0]
                for row in self.conn.execute(
                    "SELECT tgname FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid "
                    "JOIN pg_namespace n ON n.oid = c.relnamespace "
                    "WHERE n.nspname = %s AND tgenabled <> 'D'",
                    [SCHEMA],
                )
            }
            granted = self.conn.execute(
                "SELECT c.relname, p.privilege FROM pg_class c "
                "JOIN pg_namespace n ON n.oid = c.relnamespace "
                "CROSS JOIN unnest(ARRAY['INSERT', 'UPDATE', 'DELETE', 'TRUNCATE']) p(privilege) "
                "WHERE n.nspname = %s AND c.relkind = 'r' AND EXISTS "
                "(SELECT 1 FROM pg_roles WHERE rolname = %s) "
                "AND has_table_privilege(%s, c.oid, p.privilege) ORDER BY 1, 2",
                [SCHEMA, APP_ROLE, APP_ROLE],
            ).fetchall()
        problems = [
            f"the protection trigger {name} is missing or disabled: someone removed it"
            for name in PROTECTION_TRIGGERS
            if name not in present
        ]
        problems.extend(
            f"the role {APP_ROLE} may {privilege} on {table}: terminals could write around "
            "the server's append function"
            for table, privilege in granted
        )
        return problems

    def integrity_problems(self) -> list[str]:
        """A seat index that differs from the seats the records involved (`records.seats_of`).
        Nothing else beyond the chain: the server keeps its own pages (checksums are a server
        setting, outside the log)."""
        with self.errors("read"):
            newest = self.head().records  # records and their seats are committed together
            indexed = self.conn.execute(
                "SELECT record_id, seat, patron FROM dealer.record_seats WHERE record_id <= %s "
                "ORDER BY record_id, seat",
                [newest],
            ).fetchall()
            records = self.conn.execute(
                "SELECT id, seat, result FROM dealer.records WHERE id <= %s ORDER BY id", [newest]
            )
            for held, meant in zip_longest(indexed, indexed_seats(records)):
                if held != meant:
                    record = min(row[0] for row in (held, meant) if row is not None)
                    return [
                        f"the seat index does not match record {record}: it was changed "
                        "outside the tool"
                    ]
        return []
