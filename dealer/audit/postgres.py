"""The PostgreSQL backend of the audit log: one database the floor's terminals share.

The one module besides `dealer.audit.sqlite` that talks to a database (its schema and roles are
in `postgres_schema`). psycopg 3 is imported here only, so it loads only when `--db` (or
`DEALER_DB`) is a `postgresql://` URL.

The server enforces what a record is (see `postgres_schema`): a terminal's login can only call
`dealer.append_record` and `dealer.add_user`, which number, date and hash each record inside the
server, in the name of the login. This module therefore sends the entry's checked fields
(`Entry.stored`) and keeps what the server returns; `verify` recomputes every hash on the client
with the recipe of `dealer.audit.chain`.

A write transaction is READ COMMITTED and takes the log's lock first (`dealer.lock_log`), so
the head cannot move under it (its reads, a meter's value among them, are the latest) and
writers at once queue up, each for at most `BUSY_TIMEOUT_SECONDS`. Commits are durable
(`synchronous_commit = on`). A message shows of the URL only its host(s) and database
(`redact`); connecting and each statement are bounded in time (`CONNECT_SECONDS`,
`STATEMENT_SECONDS`).
"""

from __future__ import annotations

import atexit
import json
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager, nullcontext
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qsl, unquote, urlencode, urlsplit

import dealer
from dealer.audit.chain import check_link
from dealer.audit.glances import METER_VALUES, UNREAD, short
from dealer.audit.postgres_schema import (
    APP_ROLE,
    APPEND_FUNCTION,
    FIRST,
    FUNCTIONS,
    LATEST,
    LOCK_KEY,
    MIGRATIONS,
    PROTECTION_TRIGGERS,
    RECORD_SUMS,
    SCHEMA,
    SCHEMA_STATEMENTS,
    SEARCH_PATH,
    TRIGGERS,
    Function,
    granted,
    record_sums,
    role_statements,
    sums_upsert,
)
from dealer.audit.records import (
    STORED_FIELDS,
    Entry,
    UserRow,
    seats_of,
    utc_now,
)
from dealer.audit.sql_reads import (
    USER_COLUMNS,
    Dialect,
    SQLReads,
    WriteState,
    indexed_seats,
    seat_index_problems,
    settings_reference,
    user_row,
)
from dealer.audit.sums import SumRow, fields
from dealer.kernel.errors import AccessError, AuditError

if TYPE_CHECKING:
    import psycopg

BUSY_TIMEOUT_SECONDS = 15.0
"""How long a writer waits for another terminal's write (the log's lock) before giving up, as
on SQLite (`dealer.audit.sqlite.BUSY_TIMEOUT_SECONDS`): a terminal stopped in the middle of a
write does not hold up the floor's others for ever. The session's `lock_timeout`."""

_APPEND = (
    "SELECT * FROM dealer.append_record("
    "%(kind)s, %(game)s, %(action)s, %(table_id)s, %(seat)s, %(user_id)s, %(role)s, "
    "%(input_text)s, %(cards)s, %(result)s, %(explanation)s, %(settings)s, %(links_to)s, "
    "%(reason)s, %(software_version)s, %(seats)s, %(patrons)s)"
)
_OWNS = (
    "SELECT pg_catalog.pg_get_userbyid(n.nspowner) = session_user FROM pg_catalog.pg_namespace n "
    f"WHERE n.nspname = '{SCHEMA}'"
)
"""Whether this login owns the log."""
_SEATS_INSERT = "INSERT INTO dealer.record_seats (record_id, seat, patron) VALUES (%s, %s, %s)"
_CANONICAL = "SELECT dealer.check_canonical(%(cards)s, %(result)s, %(explanation)s, %(settings)s)"
"""The server's check of a copied record's JSON (`append_record` makes it of every other)."""


SHOWN_PARAMETERS = ("host", "dbname")
"""The query parameters a message shows of a URL: where the log is (a socket folder, say), never
who logs in or how."""

CONNECT_SECONDS = 5.0
"""How long connecting may take in all: every host of a multi-host URL, and every address a
host name has, together. A server that accepts and never answers held a command 15.8 s (one
host) and 45.9 s (three hosts); now such a command ends within 10 s, start-up included (loading
the driver alone took 2 s on a busy machine), with one line."""

ATTEMPT_SECONDS = 3
"""How long one host (one address) may take to answer, so that a second host of the URL is
still tried when the first is silent (the driver's least is 2 s)."""

STATEMENT_SECONDS = 30.0
"""The longest a statement may run on the server (its `statement_timeout`), waiting for the
log's lock included (that wait ends first, at `BUSY_TIMEOUT_SECONDS`)."""

KEEPALIVE_SECONDS = 5
"""TCP keepalives after this much quiet, one a second, three missed give up: a server whose
machine or network went away while a statement waited is noticed within about 8 s, not after
the system's two hours."""


def redact(url: str) -> str:
    """`url` as a message shows it: where the log is and nothing else, its host(s), port(s) and
    database (`postgresql://floor-db:5433/audit`, a `?host=` or `?dbname=` kept); never a user,
    a password or any other parameter."""
    try:
        parts = urlsplit(url)
        hosts = parts.netloc.rpartition("@")[2]
        kept = [(k, v) for k, v in parse_qsl(parts.query) if k in SHOWN_PARAMETERS]
    except ValueError:
        return "the PostgreSQL URL given"
    query = f"?{urlencode(kept, safe='/')}" if kept else ""
    return f"{parts.scheme}://{hosts}{parts.path}{query}"


SECRET_PARAMETERS = ("password", "sslpassword")
"""The query parameters that hold a secret (as the URL's own password does)."""


def _secrets(url: str) -> set[str]:
    """What of `url` no message may repeat, even where the driver quotes it: its password and
    the value of a query parameter holding one (as written and decoded)."""
    try:
        parts = urlsplit(url)
        found = {parts.password or ""}
        found |= {v for k, v in parse_qsl(parts.query) if k in SECRET_PARAMETERS}
    except ValueError:  # a URL it cannot read is never repeated whole (redact)
        return set()
    return {s for secret in found if secret for s in (secret, unquote(secret))}


def connect(url: str) -> psycopg.Connection[Any]:
    """An autocommit connection to `url`, made within `CONNECT_SECONDS` in all; AuditError (the
    URL as `redact` shows it) if there is none."""
    import psycopg

    try:
        conn = _connect_within(url, CONNECT_SECONDS)
        conn.isolation_level = psycopg.IsolationLevel.READ_COMMITTED
    except (TimeoutError, psycopg.errors.ConnectionTimeout):
        raise AuditError(
            f"cannot connect to the audit log {redact(url)}: no server answered in time (at "
            f"most {ATTEMPT_SECONDS} s a host, {CONNECT_SECONDS:g} s in all)"
        ) from None
    except (psycopg.Error, ValueError) as exc:
        raise AuditError(
            f"cannot connect to the audit log {redact(url)}: {_reason(exc, url)}"
        ) from None
    conn.execute(
        f"SET synchronous_commit = on; SET lock_timeout = {int(BUSY_TIMEOUT_SECONDS * 1000)}; "
        f"SET statement_timeout = {int(STATEMENT_SECONDS * 1000)}"
    )
    return conn


def _connect_within(url: str, seconds: float) -> psycopg.Connection[Any]:
    """`psycopg.connect(url)`, given up after `seconds` in all (TimeoutError). The driver bounds
    each attempt, not their sum: the attempt runs on a thread of its own, and one that ends
    after it was given up closes what it made."""
    import threading

    import psycopg

    made: list[psycopg.Connection[Any] | BaseException] = []
    lock = threading.Lock()
    given_up = False

    def attempt() -> None:
        try:
            result: psycopg.Connection[Any] | BaseException = psycopg.connect(
                url,
                autocommit=True,
                connect_timeout=ATTEMPT_SECONDS,
                keepalives=1,
                keepalives_idle=KEEPALIVE_SECONDS,
                keepalives_interval=1,
                keepalives_count=3,
            )
        except BaseException as exc:  # handed to the caller, raised there
            result = exc
        with lock:
            if given_up and isinstance(result, psycopg.Connection):
                result.close()
            made.append(result)

    thread = threading.Thread(target=attempt, name="dealer-connect", daemon=True)
    thread.start()
    thread.join(seconds)
    with lock:
        if not made:
            given_up = True
            raise TimeoutError
    result = made[0]
    if isinstance(result, BaseException):
        raise result
    return result


def _reason(exc: Exception, url: str) -> str:
    """The first line of a driver error, with the URL shown as `redact` shows it and any trace
    of a password removed; a lock waited for too long in the words SQLite's backend uses."""
    import psycopg

    if isinstance(exc, psycopg.errors.LockNotAvailable):
        return (
            f"the database stayed busy for more than {BUSY_TIMEOUT_SECONDS:g} s "
            "(another process is writing)"
        )
    text = (str(exc).strip().splitlines() or ["unknown error"])[0].replace(url, redact(url))
    for secret in sorted(_secrets(url), key=len, reverse=True):
        text = text.replace(secret, "***")
    return text


_kept: dict[tuple[str, bool], psycopg.Connection[Any]] = {}
"""The connection the process closed last, by (URL, read-only): one at most. A live table, a
batch file or a page of the browser makes one ruling or read after another; taking the
connection up again spares each a new server process and login (on a local server, the larger
part of a ruling's time). Closed when the process exits."""


def _keep(conn: psycopg.Connection[Any], url: str, read_only: bool) -> None:
    """Keep `conn` for the next `open` of `url` if it is open with no transaction, closing the
    one kept before; else close it."""
    import psycopg

    idle = not conn.closed and conn.info.transaction_status == psycopg.pq.TransactionStatus.IDLE
    _close_kept()
    if idle:
        _kept[(url, read_only)] = conn
    else:
        conn.close()


def _close_kept() -> None:
    for key in list(_kept):
        _kept.pop(key).close()


atexit.register(_close_kept)


def _reused(url: str, read_only: bool) -> tuple[psycopg.Connection[Any], int | None] | None:
    """The kept connection to `url` and the log's schema version read on it, if there is one
    and it still answers (one dropped since, or whose server restarted, is closed: the caller
    makes a new one)."""
    import psycopg

    conn = _kept.pop((url, read_only), None)
    if conn is None:
        return None
    try:
        return conn, _latest_version(conn)  # its table was there when the connection was kept
    except psycopg.Error:
        conn.close()
        return None


def _schema_version(conn: psycopg.Connection[Any]) -> int | None:
    found = conn.execute("SELECT to_regclass('dealer.schema_migrations')").fetchone()
    if found is None or found[0] is None:
        return None
    return _latest_version(conn)


def _latest_version(conn: psycopg.Connection[Any]) -> int | None:
    row = conn.execute("SELECT max(version) FROM dealer.schema_migrations").fetchone()
    return None if row is None or row[0] is None else int(row[0])


def init(url: str, sums: str) -> list[str]:
    """Create the schema, the roles `dealer_app` and `dealer_auditor` and their grants in the
    database at `url` (connected as its owner); return what was done. Every run makes the
    functions again (`postgres_schema.FUNCTIONS`, and the server's floor sums by the desk's
    `sums`: `record_sums`) and sets the grants to the shipped ones (`role_statements`),
    closing the database to PUBLIC: a database that already holds the current schema gets only
    those again."""
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
            found = version = _schema_version(conn)
            if version is None:
                for statement in SCHEMA_STATEMENTS:
                    conn.execute(statement)
                _migrated(conn, version := 1, FIRST)
            elif version > LATEST:
                raise AuditError(_newer(url, version))
            for number, (name, statements) in enumerate(MIGRATIONS[version - 1 :], version + 1):
                for statement in statements:
                    conn.execute(statement)
                _migrated(conn, number, name)
            if found is None:
                done.append(f"created the schema {SCHEMA} (version {LATEST})")
            elif found < LATEST:
                done.append(f"upgraded the schema {SCHEMA} from version {found} to {LATEST}")
            else:
                done.append(f"the schema {SCHEMA} is already there (version {found})")
            for function in (*FUNCTIONS, record_sums(sums)):
                conn.execute(function.statement)
            for statement in role_statements():
                conn.execute(statement)
            _check_database_closed(conn, url)
            done.append("granted dealer_app (terminals) and dealer_auditor (read-only)")
    except psycopg.Error as exc:
        raise AuditError(
            f"could not set up the audit log {redact(url)} ({_reason(exc, url)}): nothing was "
            "changed"
        ) from None
    finally:
        conn.close()
    return done


def _check_database_closed(conn: psycopg.Connection[Any], url: str) -> None:
    """AuditError if PUBLIC may still connect to the database or make temporary tables in it:
    the login running `init` does not own the database, so its REVOKE changed nothing."""
    row = conn.execute(
        "SELECT count(*) FROM pg_catalog.pg_database d, "
        "pg_catalog.aclexplode(coalesce(d.datacl, pg_catalog.acldefault('d', d.datdba))) a "
        "WHERE d.datname = pg_catalog.current_database() AND a.grantee = 0"
    ).fetchone()
    if row is not None and row[0]:
        raise AuditError(
            f"the database {redact(url)} still lets every login connect and make temporary "
            "tables: run dealer db init as the database's owner (createdb --owner)"
        )


def _migrated(conn: psycopg.Connection[Any], version: int, name: str) -> None:
    conn.execute(
        "INSERT INTO dealer.schema_migrations VALUES (%s, %s, %s)", [version, name, utc_now()]
    )


def _check_may_append(conn: psycopg.Connection[Any], url: str) -> None:
    """AuditError if the login may not execute the append function (it may only read)."""
    row = conn.execute(
        "SELECT current_user, has_function_privilege(%s, 'EXECUTE')", [APPEND_FUNCTION]
    ).fetchone()
    if row is not None and not row[1]:
        raise AuditError(
            f"the audit log {redact(url)} is read-only for the login {row[0]}: it can be read, "
            "listed, verified and exported, not written"
        )


def _newer(url: str, version: int) -> str:
    return (
        f"the audit database {redact(url)} has schema version {version}, newer than this "
        f"software knows ({LATEST}): upgrade dealer"
    )


STREAM_ROWS = 500
"""Records a server-side cursor fetches at a time (`_Reads._rows_of`)."""
_COPIED_SUMS = sums_upsert("%s")
_ANALYZE_WRITTEN = (
    "ANALYZE dealer.records, dealer.record_seats, dealer.settings_texts, dealer.users, "
    "dealer.floor_sums, dealer.floor_sums_of"
)
"""The tables a copy writes, analyzed after it (the owner's: a copy is)."""
BULK_SYNC = 1000
"""Records copied in pipeline mode between two waits for the server's answers."""


def _scalar(value: str) -> str:
    """The JSON text of json `value` when it is a text or a number (`glances.short`), else
    NULL."""
    return (
        f"CASE WHEN json_typeof({value}) IN ('string', 'number') "
        f"THEN {short(f'({value})::text')} END"
    )


_OUTCOME = _scalar("j.base -> 'outcome'")
GLANCE = ", ".join(
    (
        "true",
        _scalar("j.total_net"),
        f"CASE WHEN json_typeof(j.base) = 'object' THEN {_OUTCOME} END",
        *(_scalar(f"j.{key}") for key in METER_VALUES),
        _scalar("e.line"),
        "r.input_text",
    )
)
"""`Dialect.glance`: the values of the result's keys as `json_to_record` gives them
(`glance_from`: the result parsed once, each value its own text as stored, a number never
rewritten), the explanation's first line. The server refuses a record whose JSON is not JSON:
every record is readable (one the server cannot take apart: `_Reads._glance_rows`)."""

GLANCE_FROM = (
    "CROSS JOIN LATERAL json_to_record(r.result::json) AS j({}) "
    "CROSS JOIN LATERAL (SELECT r.explanation::json -> 0 AS line OFFSET 0) e"
).format(", ".join(f"{key} json" for key in ("total_net", "base", *METER_VALUES)))
"""`Dialect.glance_from`: the result's keys a glance reads, as json, and the explanation's
first line (each JSON parsed once: the OFFSET keeps the line's subquery from being merged into
the query, which would parse it once a use)."""


class _Reads(SQLReads):
    """The reads of `storage.Reads` over one PostgreSQL connection (`sql_reads.SQLReads`)."""

    dialect = Dialect(
        mark="%s",
        schema="dealer.",
        true="true",
        meter_name="(result::json) ->> 'meter'",
        meter_link="(result::json) ->> 'link'",
        user_order='u.user_id COLLATE "C"',
        users="dealer.user_rows()",
        glance=GLANCE,
        glance_from=GLANCE_FROM,
        among="{} IN (SELECT json_array_elements_text(%s::json)::bigint)",
        contains="strpos({}, %s) > 0",
    )

    _cursors = 0
    """Server-side cursors opened in this process (each one's name is its own)."""

    def __init__(self, conn: psycopg.Connection[Any], url: str) -> None:
        self.conn = conn
        self.url = url
        self.closed = False

    @contextmanager
    def errors(self, doing: str, *, writing: bool = False) -> Iterator[None]:
        """Turn driver errors met while doing something into AuditError naming the log (for a
        write: saying that nothing was saved). A log closed (`PostgresStorage.close`: its
        connection may be serving the next one) is not used."""
        import psycopg

        outcome = ": nothing was saved" if writing else ""
        if self.closed:
            raise AuditError(
                f"could not {doing} in the audit log {redact(self.url)} (it is closed){outcome}"
            )
        try:
            yield
        except psycopg.Error as exc:
            raise AuditError(
                f"could not {doing} in the audit log {redact(self.url)} "
                f"({_reason(exc, self.url)}){outcome}"
            ) from None

    def _reading(self, doing: str) -> AbstractContextManager[None]:
        return self.errors(doing)

    def _glance_rows(self, record_ids: Sequence[int]) -> list[Sequence[Any]]:
        """`SQLReads._glance_rows`, whatever a record holds. The server takes JSON only in the
        hash recipe's encoding, no key twice (`dealer.check_canonical`, which no NUL escape or
        lone surrogate passes), but its JSON functions cannot take apart a number beyond
        `numeric` or a result that is no object, and a log of an earlier release holds whatever
        JSON its server took: a record holding one (which a login may append) fails the query.
        Then the records are read again one at a time, each in a savepoint, and such a record's
        glance holds none of its values (`glances.UNREAD`): it is listed by its input, and the
        list of the floor is never stopped by it."""
        import psycopg

        try:
            with self.conn.transaction():  # a savepoint inside the snapshot
                return super()._glance_rows(record_ids)
        except psycopg.DataError:  # SQLSTATE class 22: the value cannot be converted
            if len(record_ids) > 1:
                return [row for one in record_ids for row in self._glance_rows([one])]
        return self._glance_select(record_ids, UNREAD, "")

    def _rows_of(self, sql: str, params: Sequence[Any], doing: str) -> Iterator[dict[str, Any]]:
        """The rows of a `SELECT *` of records, as `SQLReads` reads them (`_streamed`)."""
        with self._reading(doing), self._streamed(sql, params) as cursor:
            names = [column[0] for column in cursor.description or ()]
            for values in cursor:
                yield dict(zip(names, values, strict=True))

    def _streamed(
        self, sql: str, params: Sequence[Any]
    ) -> psycopg.Cursor[Any] | psycopg.ServerCursor[Any]:
        """`sql` run inside a snapshot through a cursor on the server, fetched `STREAM_ROWS`
        rows at a time, so that a long read (verify, a copy's source, the statistics) never
        holds the log in memory; outside a transaction, as an ordinary query."""
        from psycopg import pq

        if self.conn.info.transaction_status != pq.TransactionStatus.INTRANS:
            return self.conn.execute(sql, params)
        _Reads._cursors += 1
        cursor = self.conn.cursor(name=f"rows_{_Reads._cursors}")
        cursor.itersize = STREAM_ROWS
        cursor.execute(sql, params)
        return cursor


class _Transaction(_Reads, WriteState):
    """One READ COMMITTED transaction holding the log's lock (`dealer.lock_log`), opened by
    `PostgresStorage.transaction()`."""

    def __init__(self, storage: PostgresStorage) -> None:
        super().__init__(storage.conn, storage.url)
        WriteState.__init__(self)
        self._pipeline: psycopg.Pipeline | None = None
        self._settings_copied: set[str] = set()

    @contextmanager
    def bulk(self) -> Iterator[None]:
        """Many writes in a row in pipeline mode: each sent without waiting for its answer
        (a copy of a month would otherwise wait a round trip for each of millions), the
        answers taken in every `BULK_SYNC` copied records and when the block ends; then the
        tables written are analyzed, so the server plans the next reads for their new size."""
        with self.conn.pipeline() as pipeline:
            self._pipeline = pipeline
            try:
                yield
            finally:
                self._pipeline = None
        self.conn.execute(_ANALYZE_WRITTEN)

    def _reading(self, doing: str) -> AbstractContextManager[None]:
        return nullcontext()

    def _streamed(
        self, sql: str, params: Sequence[Any]
    ) -> psycopg.Cursor[Any] | psycopg.ServerCursor[Any]:
        """An ordinary query: a write transaction reads a few records while it holds the log's
        lock, and a cursor on the server would cost it round trips under the lock."""
        return self.conn.execute(sql, params)

    def append(self, entry: Entry) -> int:
        """Send `entry` and its seats (`seats_of`) to `dealer.append_record`, which numbers,
        dates and hashes it and indexes the seats with it; return its id. A link is checked
        here too, with the message the SQLite backend gives."""
        self._check_open()
        row = entry.stored()
        linked = entry.links_to
        if linked is not None and all(linked != made for made, _ in self._appended):
            check_link(entry, self.head().records or 0)  # one just appended needs no round trip
        row["software_version"] = dealer.__version__
        seats = seats_of(entry)
        row["seats"] = [seat for seat, _ in seats]
        row["patrons"] = [patron for _, patron in seats]
        found = self.conn.execute(_APPEND, row).fetchone()
        if found is None:
            raise AuditError("the audit log returned no record")
        record_id = int(found[0])
        self._appended.append((record_id, entry))
        self._times[record_id] = str(found[1])  # the columns of dealer.records: id, recorded_at
        return record_id

    def add_sums(self, record_id: int, rows: Callable[[], Sequence[SumRow]]) -> None:
        """Nothing to send: the server added record `record_id`'s numbers to the floor's sums
        itself when it appended the record (`dealer.add_sums`, in `append_record`), computed
        from the record; the tool's reckoning (`rows`) is never made."""
        self._check_open()

    def copy_sums(self, record_ids: Sequence[int], rows: Sequence[SumRow]) -> None:
        """Add copied rulings' numbers, summed, to the floor's sums at once, and mark each
        ruling summed (`floor_sums_of`): the owner's statements (terminals hold no INSERT on
        either), with the upsert `dealer.add_sums` adds the server's rows by."""
        self._check_open()
        self.conn.execute(
            "INSERT INTO dealer.floor_sums_of SELECT pg_catalog.unnest(%s::bigint[])",
            [list(record_ids)],
        )
        sent = json.dumps([fields(row) for row in rows])
        self.conn.execute(_COPIED_SUMS, [sent])

    def copy(self, row: dict[str, Any]) -> None:
        """Insert a copied record as it is, and its seats in the index: only the owner may
        (terminals hold no INSERT); the server checks its JSON as `append_record` does
        (`dealer.check_canonical`), the triggers its number, link, hash and time, and that each
        seat is the new record's."""
        self._check_open()
        self.conn.execute(_CANONICAL, row)
        columns = ", ".join(STORED_FIELDS)
        marks = ", ".join(f"%({name})s" for name in STORED_FIELDS)
        reference = settings_reference(row["settings"])
        if reference is not None:  # kept once, as `dealer.append_record` keeps it
            if reference not in self._settings_copied:
                self.conn.execute(
                    "INSERT INTO dealer.settings_texts (ref, text) VALUES (%s, %s) "
                    "ON CONFLICT (ref) DO NOTHING",
                    [reference, row["settings"]],
                )
                self._settings_copied.add(reference)
            row = {**row, "settings": reference}
        self.conn.execute(f"INSERT INTO dealer.records ({columns}) VALUES ({marks})", row)
        with self.conn.cursor() as cursor:
            cursor.executemany(
                _SEATS_INSERT, list(indexed_seats([(row["id"], row["seat"], row["result"])]))
            )
        if self._pipeline is not None and row["id"] % BULK_SYNC == 0:
            self._pipeline.sync()

    def add_user(self, row: UserRow) -> None:
        """Send a users row to `dealer.add_user` (it goes with the user record just appended)."""
        self._check_open()
        self.conn.execute(
            "SELECT dealer.add_user(%s, %s, %s, %s, %s)",
            [row.record_id, row.user_id, row.role, row.active, row.pin_hash],
        )


class PostgresStorage(_Reads):
    """An audit log in a PostgreSQL database set up by `dealer db init`. Open with
    `PostgresStorage.open(url)`."""

    kept_by_server = True
    """The server decides who writes what and withholds the secrets (`Storage`)."""

    def __init__(self, conn: psycopg.Connection[Any], url: str, read_only: bool = False) -> None:
        super().__init__(conn, url)
        self._in_transaction = False
        self._read_only = read_only
        self._login: str | None = None

    @classmethod
    def open(cls, url: str, *, read_only: bool = False) -> PostgresStorage:
        """Open the log at `url`. Its schema must be there (`dealer db init`): a terminal's login
        cannot create one. `read_only` opens it for reading only (a read-only session). A login
        that may not append (an auditor's) is refused for writing here, in one line, as a
        read-only SQLite file is: not after a PIN was asked and a record signed. The connection
        the process last closed to the same log is taken up again when it is still open and
        idle (`_reused`; it was checked when made); else a new one is made."""
        reused = _reused(url, read_only)
        if reused is not None:
            conn, version = reused
        else:
            conn = connect(url)
            try:
                with _Reads(conn, url).errors("open the log"):
                    version = _schema_version(conn)
                    if read_only:
                        conn.execute("SET default_transaction_read_only = on")
                    elif version == LATEST:
                        _check_may_append(conn, url)
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
        return cls(conn, url, read_only)

    def close(self) -> None:
        """Put the connection by for the next `open` of the same log in this process (`_kept`)
        when it is idle, else close it."""
        if not self.closed:
            self.closed = True
            _keep(self.conn, self.url, self._read_only)

    def __enter__(self) -> PostgresStorage:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def transaction(self) -> Iterator[_Transaction]:
        """BEGIN (READ COMMITTED), the log's lock (`dealer.lock_log`), … COMMIT; rolled back on any
        exception. Nothing written inside is saved unless the block ends normally and the
        COMMIT succeeds (else AuditError)."""
        if self._in_transaction:
            raise AuditError("an audit transaction is already open on this connection")
        self._in_transaction = True
        tx: _Transaction | None = None
        try:
            with self.errors("write", writing=True), self.conn.transaction():
                self.conn.execute("SELECT dealer.lock_log()")
                tx = _Transaction(self)
                yield tx
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
        """Every users row ever stored, by record id: the secrets themselves for the log's
        owner (a copy carries them), else as the server shows them (`dealer.user_rows()`)."""
        with self.errors("read"):
            owner = self.conn.execute(_OWNS).fetchone()
            source = "dealer.users" if owner and owner[0] else "dealer.user_rows()"
            rows = self.conn.execute(
                f"SELECT {USER_COLUMNS} FROM {source} ORDER BY record_id"
            ).fetchall()
        return [user_row(row) for row in rows]

    def login(self) -> str:
        """The database login this log is open as (`session_user`), read once."""
        if self._login is None:
            with self.errors("read"):
                found = self.conn.execute("SELECT session_user::text").fetchone()
            self._login = str(found[0]) if found else ""
        return self._login

    def released_secret(self, row: UserRow, pin: str) -> str | None:
        """The secret the server withholds, released to `pin` (`Storage`): the proof that `pin`
        derives (`keys.proof`) is checked and counted by `dealer.submit_attempt` in a
        transaction of its own, committed before `dealer.open_secret` answers — rolling back
        an answer never takes a wrong PIN off the count. Inside an open transaction, or on a
        read-only connection, the check is made on a connection of its own."""
        import psycopg

        from dealer.audit import keys  # key work only: kept off a ruling's start-up

        withheld = keys.parse_withheld(row.pin_hash)
        if withheld is None:
            return row.pin_hash
        proof = keys.proof(pin, withheld) if isinstance(pin, str) else ""
        own = self._in_transaction or self._read_only
        conn = connect(self.url) if own else self.conn
        try:
            with self.errors("check the PIN"):
                try:
                    found = conn.execute(
                        "SELECT dealer.submit_attempt(%s, %s)", [row.user_id, proof]
                    ).fetchone()
                except psycopg.errors.InsufficientPrivilege as exc:
                    raise AccessError(_reason(exc, self.url)) from None
                if found is None:
                    return None
                released = conn.execute("SELECT dealer.open_secret(%s)", [found[0]]).fetchone()
        finally:
            if own:
                conn.close()
        return released[0] if released else None

    def protection_problems(self, sums: str | None = None) -> list[str]:
        """What differs from the protection and the definitions this software makes: a
        trigger missing, disabled, changed or added, a write right the terminals' role holds
        on a table, a function missing, changed (its body, settings, security or owner) or
        added, a grant on the log's objects this software does not make (PUBLIC's too), and a
        rule or row security on a table (either could drop a write or hide rows silently).
        Definitions are compared, not names: a same-named trigger or function that does
        something else is reported. The server's floor sums (`dealer.record_sums`) are
        compared with the desk's `sums`, and left alone without them (a verify that does not
        check the sums)."""
        with self.errors("read"), self.conn.transaction():
            path = self.conn.execute("SELECT pg_catalog.current_setting('search_path')").fetchone()
            # names as the server prints them with only the catalog visible: always qualified
            self.conn.execute("SELECT pg_catalog.set_config('search_path', 'pg_catalog', true)")
            triggers = self.conn.execute(_TRIGGERS, [SCHEMA]).fetchall()
            granted_writes = self.conn.execute(
                "SELECT c.relname, p.privilege FROM pg_class c "
                "JOIN pg_namespace n ON n.oid = c.relnamespace "
                "CROSS JOIN unnest(ARRAY['INSERT', 'UPDATE', 'DELETE', 'TRUNCATE']) p(privilege) "
                "WHERE n.nspname = %s AND c.relkind = 'r' AND EXISTS "
                "(SELECT 1 FROM pg_roles WHERE rolname = %s) "
                "AND has_table_privilege(%s, c.oid, p.privilege) ORDER BY 1, 2",
                [SCHEMA, APP_ROLE, APP_ROLE],
            ).fetchall()
            functions = self.conn.execute(_FUNCTION_DEFINITIONS, [SCHEMA]).fetchall()
            grants = self.conn.execute(_GRANTS, {"schema": SCHEMA}).fetchall()
            rewriting = self.conn.execute(_RULES_AND_ROW_SECURITY, {"schema": SCHEMA}).fetchall()
            self.conn.execute(
                "SELECT pg_catalog.set_config('search_path', %s, true)", [path[0] if path else ""]
            )
        return [
            *_trigger_problems(triggers),
            *(
                f"the role {APP_ROLE} may {privilege} on {table}: terminals could write around "
                "the server's append function"
                for table, privilege in granted_writes
            ),
            *_function_problems(functions, sums),
            *_grant_problems(grants),
            *(
                f"the {what} on {table} is not this software's: someone added it"
                for table, what in rewriting
            ),
        ]

    def integrity_problems(self) -> list[str]:
        """A seat index that differs from the seats the records involved (`records.seats_of`).
        Nothing else beyond the chain: the server keeps its own pages (checksums are a server
        setting, outside the log)."""
        with self.errors("read"):
            newest = self.head().records  # records and their seats are committed together
            indexed = self._streamed(
                "SELECT record_id, seat, patron FROM dealer.record_seats WHERE record_id <= %s "
                "ORDER BY record_id, seat",
                [newest],
            )
            records = self._streamed(
                "SELECT id, seat, result FROM dealer.records WHERE id <= %s ORDER BY id", [newest]
            )
            return seat_index_problems(indexed, records)


_TRIGGERS = (
    "SELECT t.tgname, c.relname, pg_get_triggerdef(t.oid), t.tgenabled IN ('O', 'A') "
    "FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid "
    "JOIN pg_namespace n ON n.oid = c.relnamespace "
    "WHERE n.nspname = %s AND NOT t.tgisinternal ORDER BY 1"
)
"""Each trigger on the log's tables: name, table, definition, whether it fires."""

_FUNCTION_DEFINITIONS = (
    "SELECT p.oid::regprocedure::text, p.prosrc, coalesce(p.proconfig, '{}'), p.prosecdef, "
    "pg_get_userbyid(p.proowner) = pg_get_userbyid(n.nspowner) "
    "FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace "
    "WHERE n.nspname = %s ORDER BY 1"
)
"""Each function of the log's schema: identity, body, settings, SECURITY DEFINER, whether the
log's owner owns it."""

_GRANTS = """
SELECT item, a.privilege_type,
       CASE a.grantee WHEN 0 THEN 'PUBLIC' ELSE pg_get_userbyid(a.grantee) END
FROM (
    SELECT 'SCHEMA ' || n.nspname, coalesce(n.nspacl, acldefault('n', n.nspowner)), n.nspowner
    FROM pg_namespace n WHERE n.nspname = %(schema)s
    UNION ALL
    SELECT 'TABLE ' || c.oid::regclass::text, coalesce(c.relacl, acldefault('r', c.relowner)),
           c.relowner
    FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = %(schema)s AND c.relkind NOT IN ('i', 'I', 'c', 't')
    UNION ALL
    SELECT 'COLUMN ' || c.oid::regclass::text || '.' || quote_ident(a.attname), a.attacl,
           c.relowner
    FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
    JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = %(schema)s AND a.attacl IS NOT NULL
    UNION ALL
    SELECT 'FUNCTION ' || p.oid::regprocedure::text,
           coalesce(p.proacl, acldefault('f', p.proowner)), p.proowner
    FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
    WHERE n.nspname = %(schema)s
) objects(item, acl, owner), aclexplode(acl) a
WHERE a.grantee <> owner
ORDER BY 1, 2, 3
"""
"""Every privilege on the log's schema, tables, columns and functions held by another than
the object's owner, as (object, privilege, grantee): PUBLIC for all."""


_RULES_AND_ROW_SECURITY = """
SELECT c.relname, 'rule ' || r.rulename
FROM pg_rewrite r JOIN pg_class c ON c.oid = r.ev_class
JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE n.nspname = %(schema)s AND c.relkind = 'r'
UNION ALL
SELECT c.relname, 'row security'
FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE n.nspname = %(schema)s AND (c.relrowsecurity OR c.relforcerowsecurity)
ORDER BY 1, 2
"""
"""Each rule on a table of the log, and each table with row security on: this software makes
neither."""


def _trigger_problems(found: list[tuple[Any, ...]]) -> list[str]:
    """The protection triggers missing or not firing, those whose definition is not the one
    this software made (`postgres_schema.TRIGGERS`), and triggers it does not make."""
    shipped = {" ".join(statement.split()).split()[2]: statement for statement in TRIGGERS}
    present = {name: (table, " ".join(made.split()), fires) for name, table, made, fires in found}
    problems = [
        f"the protection trigger {name} is missing or disabled: someone removed it"
        for name in PROTECTION_TRIGGERS
        if name not in present or not present[name][2]
    ]
    for name, (table, made, _) in present.items():
        if name not in shipped:
            problems.append(
                f"the trigger {name} on {table} is not this software's: someone added it"
            )
        elif made != shipped[name]:
            problems.append(
                f"the protection trigger {name} is not the one this software made: "
                "someone changed it"
            )
    return problems


def _function_problems(found: list[tuple[Any, ...]], sums: str | None) -> list[str]:
    """Each of the log's functions missing or unlike the one this software makes
    (`postgres_schema.FUNCTIONS`, and `record_sums(sums)`: body, `search_path`, SECURITY
    DEFINER, owned by the log's owner), and each function of the schema it does not make;
    without `sums`, `dealer.record_sums` is not compared."""
    made: tuple[Function, ...] = () if sums is None else (record_sums(sums),)
    shipped = {function.identity: function for function in (*FUNCTIONS, *made)}
    setting = [f"search_path={SEARCH_PATH}"]
    present = {
        identity: rest for identity, *rest in found if sums is not None or identity != RECORD_SUMS
    }
    problems = [
        f"the function {identity} is missing: someone removed it"
        for identity in shipped
        if identity not in present
    ]
    for identity, (body, config, definer, owned) in present.items():
        function = shipped.get(identity)
        if function is None:
            problems.append(f"the function {identity} is not this software's: someone added it")
            continue
        differs = [
            what
            for what, same in (
                ("its body", body == function.body),
                ("its settings", list(config) == setting),
                ("its security", definer == function.definer),
                ("its owner", owned),
            )
            if not same
        ]
        if differs:
            problems.append(
                f"the function {identity} is not the one this software made "
                f"({', '.join(differs)}): someone changed it"
            )
    return problems


def _grant_problems(found: list[tuple[Any, ...]]) -> list[str]:
    """Each privilege on the log's objects this software does not grant
    (`postgres_schema.granted`), to a role, a login or PUBLIC; the terminals' write rights on a
    table are reported on their own (`protection_problems`)."""
    shipped = {
        (target.replace(", ", ","), privilege, grantee) for target, privilege, grantee in granted()
    }
    writes = ("INSERT", "UPDATE", "DELETE", "TRUNCATE")
    return [
        f"{grantee} may {privilege} on {target}: a grant this software does not make"
        for target, privilege, grantee in found
        if (target, privilege, grantee) not in shipped
        and not (grantee == APP_ROLE and target.startswith("TABLE ") and privilege in writes)
    ]
