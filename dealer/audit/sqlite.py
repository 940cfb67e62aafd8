"""The SQLite backend of the audit log: one database file shared by every process at the floor.

The one module of the package that talks to SQLite (its migrations are in `sqlite_schema`).
Every write is one `BEGIN IMMEDIATE` transaction: the writer takes the database's write lock
before it reads the chain head, so processes ruling at once queue up instead of failing with
SQLITE_BUSY_SNAPSHOT, and a killed process leaves no partial record. WAL journal,
`synchronous=FULL` (a committed record survives a power cut) and a busy timeout.

Before anything writes to a file, its header and tables are read (read-only): a file that is
not SQLite, or an SQLite database without our tables, is refused untouched. A new file is made
0600 (its -wal and -shm take its mode). Reading commands open the log with `mode=ro` (or
`immutable=1` for a file nobody can write) and never migrate it.
"""

from __future__ import annotations

import os
import sqlite3
import stat
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager, nullcontext
from pathlib import Path
from typing import Any

from dealer.audit.chain import Checkpoint, record_hash, seal
from dealer.audit.glances import METER_VALUES, short
from dealer.audit.records import (
    STORED_FIELDS,
    Entry,
    UserRow,
    seats_of,
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
from dealer.audit.sqlite_schema import (
    LATEST,
    SEATS_INSERT,
    migrate,
    schema_problems,
    schema_version,
)
from dealer.audit.sums import KEY_COLUMNS, SUM_COLUMNS, SumRow, fields
from dealer.kernel.errors import AuditError

BUSY_TIMEOUT_SECONDS = 15.0
"""How long a writer waits for another process's write to finish before giving up."""
WAIT_SLICE_MS = 100
"""The longest single wait for the write lock inside SQLite (see `_waiting`)."""
RETRY_PAUSE_SECONDS = 0.005
"""The pause between two tries of a statement that met another process's lock."""


def _waiting(conn: sqlite3.Connection, statement: str) -> sqlite3.Cursor:
    """Execute `statement`, again while another process holds the lock, up to the
    connection's busy timeout. SQLite waits inside C, so each wait is a slice of at most
    `WAIT_SLICE_MS` (as long as Ctrl-C can go unheard while the log is busy); and some
    statements meet a lock without waiting at all (`PRAGMA journal_mode = WAL` on a new file
    that another process is making too fails at once), so each try after the first is paced by
    `RETRY_PAUSE_SECONDS`."""
    (full_ms,) = conn.execute("PRAGMA busy_timeout").fetchone()
    deadline = time.monotonic() + full_ms / 1000
    conn.execute(f"PRAGMA busy_timeout = {min(WAIT_SLICE_MS, full_ms)}")
    try:
        while True:
            try:
                return conn.execute(statement)
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc) or time.monotonic() >= deadline:
                    raise
            time.sleep(RETRY_PAUSE_SECONDS)
    finally:
        conn.execute(f"PRAGMA busy_timeout = {full_ms}")


def _describe(exc: sqlite3.Error) -> str:
    text = str(exc)
    if "full" in text:
        return "the disk (or the database size limit) is full"
    if "locked" in text or "busy" in text:
        return (
            f"the database stayed busy for more than {BUSY_TIMEOUT_SECONDS:g} s "
            "(another process is writing)"
        )
    return text


SQLITE_HEADER = b"SQLite format 3\x00"
"""The first 16 bytes of every SQLite database file."""
OUR_TABLES = ("records", "schema_migrations")
"""The tables that make an SQLite database an audit log of ours."""


def _uri(path: Path, params: str) -> str:
    """An SQLite `file:` URI for `path` with query `params` (mode=ro, immutable=1)."""
    text = str(path).replace("%", "%25").replace("?", "%3f").replace("#", "%23")
    return f"file:{text}?{params}"


def _stat(where: Path) -> os.stat_result | None:
    """The file's status (None: there is none); AuditError for a folder or a device."""
    try:
        found = os.stat(where)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise AuditError(f"cannot open the audit log {where}: {exc.strerror}") from None
    if stat.S_ISDIR(found.st_mode):
        raise AuditError(f"{where} is a folder: --db names the audit log file inside one")
    if not stat.S_ISREG(found.st_mode):
        raise AuditError(f"{where} is not a regular file: --db names an audit log file")
    return found


def _check_header(where: Path) -> None:
    """AuditError unless the file starts with the SQLite header (it is read, never written)."""
    try:
        with open(where, "rb") as file:
            header = file.read(len(SQLITE_HEADER))
    except OSError as exc:
        raise AuditError(f"cannot read the audit log {where}: {exc.strerror}") from None
    if header != SQLITE_HEADER:
        raise AuditError(
            f"{where} is not an SQLite database: refusing to use it as the audit log "
            "(--db names a dealer audit log, or a new file)"
        )


def _schema(conn: sqlite3.Connection, where: Path) -> int | None:
    """The schema version of our log on `conn`; None for an SQLite file with no schema at all
    (a new log); AuditError for an SQLite database of something else."""
    entries = conn.execute("SELECT type, name FROM sqlite_master").fetchall()
    if not entries:
        return None
    tables = sorted(name for kind, name in entries if kind == "table")
    if not all(name in tables for name in OUR_TABLES):
        raise AuditError(
            f"{where} is an SQLite database of something else (tables: "
            f"{', '.join(tables) or 'none'}), not a dealer audit log (expected the tables "
            f"{' and '.join(OUR_TABLES)}): refusing to use it"
        )
    return schema_version(conn)


def _probe(where: Path, params: str) -> sqlite3.Connection:
    conn = sqlite3.connect(_uri(where, params), uri=True, isolation_level=None)
    try:
        conn.execute("SELECT 1 FROM sqlite_master LIMIT 1").fetchall()
    except BaseException:
        conn.close()
        raise
    return conn


def _reader(where: Path, found: os.stat_result, *, probing: bool = False) -> sqlite3.Connection:
    """A read-only connection to the existing SQLite file `where`.

    `mode=ro`; `immutable=1` instead when no -wal holds uncheckpointed records and nobody can
    write the file (no write permission, or its -wal cannot be created), so that reading an
    archived log creates nothing beside it. `probing` (a look at the tables before a writer
    opens the file) prefers `immutable=1` whenever there is no -wal, so that a file refused
    is left without companions; a failed look is retried with `mode=ro`."""
    wal = os.path.exists(f"{where}-wal")
    if not wal and (probing or not found.st_mode & 0o222):
        try:
            return _probe(where, "mode=ro&immutable=1")
        except sqlite3.Error:
            if not probing:
                raise
    try:
        return _probe(where, "mode=ro")
    except sqlite3.Error:
        if wal:
            raise
        return _probe(where, "mode=ro&immutable=1")


def _schema_of(
    where: Path, found: os.stat_result, *, probing: bool = False
) -> tuple[sqlite3.Connection, int | None]:
    """A read-only connection to `where` and its schema version (see `_schema`)."""
    try:
        conn = _reader(where, found, probing=probing)
    except sqlite3.Error as exc:
        raise AuditError(f"cannot read the audit log {where}: {_describe(exc)}") from None
    try:
        return conn, _schema(conn, where)
    except sqlite3.Error as exc:
        conn.close()
        raise AuditError(
            f"{where} is not a readable SQLite database ({_describe(exc)}): "
            "refusing to use it as the audit log"
        ) from None
    except BaseException:
        conn.close()
        raise


def _check_for_writing(where: Path) -> int | None:
    """Check the file at `where` before anything writes to it: its schema version, None for a
    new log (a missing file is created here, 0600; an empty file is new); AuditError for a file
    that is not ours, a read-only file, a missing folder or a newer schema."""
    if where.parent.exists() and not where.parent.is_dir():
        raise AuditError(f"{where.parent} is not a folder: it cannot hold the audit log {where}")
    if not where.parent.is_dir():
        raise AuditError(
            f"the folder {where.parent} of the audit log {where} does not exist "
            "(create it first, or check the path)"
        )
    found = _stat(where)
    if found is None:
        try:
            fd = os.open(where, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:  # another process made it just now
            found = _stat(where)
        except OSError as exc:
            raise AuditError(f"cannot create the audit log {where}: {exc.strerror}") from None
        else:
            os.fchmod(fd, 0o600)
            os.close(fd)
            return None
    if found is None or found.st_size == 0:
        return None
    _check_header(where)
    if not found.st_mode & 0o222:
        raise AuditError(
            f"the audit log {where} is read-only (mode {stat.S_IMODE(found.st_mode):04o}): "
            "it can be read, listed, verified and exported, not written"
        )
    conn, version = _schema_of(where, found, probing=True)
    conn.close()
    if version is not None and version > LATEST:
        raise AuditError(_newer(where, version))
    return version


def _newer(where: Path, version: int) -> str:
    return (
        f"the audit database {where} has schema version {version}, newer than this software "
        f"knows ({LATEST}): upgrade dealer"
    )


def _open_reading(where: Path) -> sqlite3.Connection:
    """A read-only connection to the existing, current audit log `where` (nothing migrated,
    nothing written); AuditError for anything else."""
    found = _stat(where)
    if found is None:
        raise AuditError(f"there is no audit database at {where}")
    if found.st_size == 0:
        raise AuditError(f"the audit log {where} is an empty file: nothing is recorded in it yet")
    _check_header(where)
    probe, version = _schema_of(where, found, probing=True)  # a file refused gets no -wal
    probe.close()
    if version == LATEST:
        conn, version = _schema_of(where, found)
        if version == LATEST:
            return conn
        conn.close()
    if version is None:
        raise AuditError(f"{where} is an empty SQLite database: nothing is recorded in it yet")
    if version > LATEST:
        raise AuditError(_newer(where, version))
    raise AuditError(
        f"the audit log {where} has schema version {version}, older than this software's "
        f"({LATEST}): it cannot be upgraded while only reading; a command that writes to it "
        "(e.g. dealer audit checkpoint) upgrades it first"
    )


def _scalar(column: str, path: str) -> str:
    """The JSON text at `path` of `column` when it is a text or a number (`glances.short`),
    else NULL; NULL too when the column is no JSON (a damaged record: `readable`), which
    SQLite's JSON functions refuse to read."""
    kind = f"json_type(r.{column}, '{path}') IN ('text', 'integer', 'real')"
    value = short(f"r.{column} -> '{path}'")
    return f"CASE WHEN json_valid(r.{column}) THEN CASE WHEN {kind} THEN {value} END END"


GLANCE = ", ".join(
    (
        "json_valid(r.result) AND json_valid(r.explanation)",
        _scalar("result", "$.total_net"),
        _scalar("result", "$.base.outcome"),
        *(_scalar("result", f"$.{key}") for key in METER_VALUES),
        _scalar("explanation", "$[0]"),
        "r.input_text",
    )
)
"""`Dialect.glance`: SQLite's JSON functions (each JSON parsed once a row: SQLite keeps the
parse for the row's next call)."""


class _Reads(SQLReads):
    """The reads of `storage.Reads` over one SQLite connection (`sql_reads.SQLReads`)."""

    dialect = Dialect(
        mark="?",
        schema="",
        true="1",
        meter_name="json_extract(result, '$.meter')",
        meter_link="json_extract(result, '$.link')",
        user_order="u.user_id",
        users="users",
        glance=GLANCE,
        glance_from="",
        among="{} IN (SELECT value FROM json_each(?))",
        contains="instr({}, ?) > 0",
    )

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def _reading(self, doing: str) -> AbstractContextManager[None]:
        return nullcontext()


_SUM_ROW = (*KEY_COLUMNS, *SUM_COLUMNS, "last_at", "last_mark")
SUMS_UPSERT = (
    f"INSERT INTO floor_sums ({', '.join(_SUM_ROW)}) "
    f"VALUES ({', '.join(':' + name for name in _SUM_ROW)}) "
    "ON CONFLICT (grp, hour, member, source) DO UPDATE SET "
    + ", ".join(f"{name} = {name} + excluded.{name}" for name in SUM_COLUMNS)
    + ", last_at = coalesce(excluded.last_at, last_at), "
    "last_mark = coalesce(excluded.last_mark, last_mark)"
)
"""How a record's numbers are added to the floor's sums (one row: made, or added to)."""


class _Transaction(_Reads, WriteState):
    """One BEGIN IMMEDIATE … COMMIT, opened by `SQLiteStorage.transaction()`. The head is read
    under the write lock, so no other process can append in between."""

    def __init__(self, storage: SQLiteStorage) -> None:
        super().__init__(storage.conn)
        WriteState.__init__(self)
        self._storage = storage
        self._head = self.head()
        self._time = self._head_time()

    def _head_time(self) -> str:
        row = self.conn.execute(
            "SELECT recorded_at FROM records ORDER BY id DESC LIMIT 1"
        ).fetchone()
        return str(row[0]) if row else ""

    def append(self, entry: Entry) -> int:
        """Store `entry` as the next record, and the seats it involved (`seats_of`) in the
        index `record_seats`; return its id."""
        self._check_open()
        row = seal(entry, self._head, not_before=self._time)
        columns = ", ".join(row)
        marks = ", ".join(f":{name}" for name in row)
        with self._storage.errors("write the record", writing=True):
            self.conn.execute(
                f"INSERT INTO records ({columns}) VALUES ({marks})", self._settings_kept(row)
            )
            self.conn.executemany(
                SEATS_INSERT, [(row["id"], seat, patron) for seat, patron in seats_of(entry)]
            )
        self._head, self._time = Checkpoint(row["id"], row["hash"]), row["recorded_at"]
        self._appended.append((row["id"], entry))
        self._times[row["id"]] = row["recorded_at"]
        return int(row["id"])

    def copy(self, row: dict[str, Any]) -> None:
        """Store a copied record as it is (the trigger records_in_order checks its place), and
        the seats it involved in the index, as `append` does."""
        self._check_open()
        if record_hash(row) != row["hash"]:
            raise AuditError(f"record {row['id']} to copy does not carry its own hash")
        columns = ", ".join(STORED_FIELDS)
        marks = ", ".join(f":{name}" for name in STORED_FIELDS)
        with self._storage.errors("copy the record", writing=True):
            self.conn.execute(
                f"INSERT INTO records ({columns}) VALUES ({marks})", self._settings_kept(row)
            )
            self.conn.executemany(
                SEATS_INSERT,
                list(indexed_seats([(row["id"], row["seat"], row["result"])])),
            )
        self._head, self._time = Checkpoint(row["id"], row["hash"]), row["recorded_at"]

    def _settings_kept(self, row: dict[str, Any]) -> dict[str, Any]:
        """`row` as stored: long settings kept once in `settings_texts` and referenced
        (`settings_reference`)."""
        reference = settings_reference(row["settings"])
        if reference is None:
            return row
        self.conn.execute(
            "INSERT OR IGNORE INTO settings_texts (ref, text) VALUES (?, ?)",
            [reference, row["settings"]],
        )
        return {**row, "settings": reference}

    def add_sums(self, record_id: int, rows: Callable[[], Sequence[SumRow]]) -> None:
        """Add record `record_id`'s numbers, as the tool makes them (`rows`), to the floor's
        sums (`dealer.audit.sums`)."""
        self._upsert_sums(rows())

    def copy_sums(self, record_ids: Sequence[int], rows: Sequence[SumRow]) -> None:
        """Add copied rulings' numbers, summed, to the floor's sums (a file keeps no list of
        the rulings summed: `verify` recomputes the sums from the records)."""
        self._upsert_sums(rows)

    def _upsert_sums(self, rows: Sequence[SumRow]) -> None:
        self._check_open()
        with self._storage.errors("write the floor's sums", writing=True):
            self.conn.executemany(SUMS_UPSERT, [fields(row) for row in rows])

    def add_user(self, row: UserRow) -> None:
        """Store a users row."""
        self._check_open()
        self.conn.execute(
            f"INSERT INTO users ({USER_COLUMNS}) VALUES (?, ?, ?, ?, ?)",
            [row.record_id, row.user_id, row.role, int(row.active), row.pin_hash],
        )


class SQLiteStorage(_Reads):
    """An audit log in one SQLite file. Open with `SQLiteStorage.open(path)`."""

    kept_by_server = False
    """A file: whoever holds it reads all of it and can rewrite it (`Storage`)."""

    def __init__(self, conn: sqlite3.Connection, path: Path) -> None:
        super().__init__(conn)
        self.path = path
        self._in_transaction = False

    @classmethod
    def open(
        cls,
        path: str | Path,
        *,
        busy_timeout: float = BUSY_TIMEOUT_SECONDS,
        read_only: bool = False,
    ) -> SQLiteStorage:
        """Open the audit log at `path` and migrate it (a missing or empty file becomes a new
        log, created 0600, in a folder that must exist); with `read_only`, open an existing log
        for reading only (SQLite's `mode=ro`), never migrating or changing it.

        A file that is not ours (not SQLite, or SQLite without our tables) is refused before
        anything is written to it."""
        where = Path(path)
        if read_only:
            return cls(_open_reading(where), where)
        version = _check_for_writing(where)
        conn: sqlite3.Connection | None = None
        try:
            conn = sqlite3.connect(str(where), timeout=busy_timeout, isolation_level=None)
            conn.execute(f"PRAGMA busy_timeout = {int(busy_timeout * 1000)}")
            mode = _waiting(conn, "PRAGMA journal_mode = WAL").fetchone()[0]
            if str(mode).lower() != "wal":
                raise AuditError(f"the audit log {where} cannot use WAL journaling (got {mode})")
            conn.execute("PRAGMA synchronous = FULL")
            conn.execute("PRAGMA foreign_keys = ON")
            if version != LATEST or schema_version(conn) != LATEST:
                migrate(conn)
        except sqlite3.Error as exc:
            if conn is not None:
                conn.close()
            raise AuditError(f"cannot open the audit log {where}: {_describe(exc)}") from None
        except AuditError:
            if conn is not None:
                conn.close()
            raise
        return cls(conn, where)

    def close(self) -> None:
        """Close the database."""
        self.conn.close()

    def __enter__(self) -> SQLiteStorage:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def errors(self, doing: str, *, writing: bool = False) -> Iterator[None]:
        """Turn SQLite errors met while doing something into AuditError naming the file (for a
        write: saying that nothing was saved)."""
        try:
            yield
        except sqlite3.Error as exc:
            outcome = ": nothing was saved" if writing else ""
            raise AuditError(
                f"could not {doing} in the audit log {self.path} ({_describe(exc)}){outcome}"
            ) from None

    def _reading(self, doing: str) -> AbstractContextManager[None]:
        return self.errors(doing)

    @contextmanager
    def transaction(self) -> Iterator[_Transaction]:
        """BEGIN IMMEDIATE … COMMIT; rolled back on any exception. Nothing written inside is
        saved unless the block ends normally and the COMMIT succeeds (else AuditError)."""
        if self._in_transaction:
            raise AuditError("an audit transaction is already open on this connection")
        with self.errors("start writing", writing=True):
            self._begin_writing()
        self._in_transaction = True
        tx: _Transaction | None = None
        try:
            tx = _Transaction(self)
            yield tx
            with self.errors("save the record", writing=True):
                self.conn.execute("COMMIT")
        except sqlite3.Error as exc:
            if self.conn.in_transaction:
                self.conn.execute("ROLLBACK")
            raise AuditError(
                f"could not write to the audit log {self.path} ({_describe(exc)}): "
                "nothing was saved"
            ) from None
        except BaseException:
            if self.conn.in_transaction:
                self.conn.execute("ROLLBACK")
            raise
        finally:
            if tx is not None:
                tx.close()
            self._in_transaction = False

    def _begin_writing(self) -> None:
        """BEGIN IMMEDIATE, waiting for another process's write (`_waiting`)."""
        _waiting(self.conn, "BEGIN IMMEDIATE")

    @contextmanager
    def snapshot(self) -> Iterator[None]:
        """A read transaction: every query inside sees the same state."""
        with self.errors("read"):
            self.conn.execute("BEGIN")
            try:
                yield
            finally:
                if self.conn.in_transaction:
                    self.conn.execute("COMMIT")

    def login(self) -> None:
        """None: a file names no one (`Storage.login`)."""
        return None

    def released_secret(self, row: UserRow, pin: str) -> str | None:
        """The row's own secret: whoever reads the file holds it anyway (`Storage`). A log
        copied for reading holds its secrets withheld (`keys.withheld`): no PIN opens them, and
        a supervisor's PIN asked there is refused before anything is written."""
        from dealer.audit import keys  # key work only: kept off a ruling's start-up

        if keys.parse_withheld(row.pin_hash) is not None:
            raise AuditError(
                f"the PIN of {row.user_id} is withheld in {self.path}, a copy for reading "
                "(dealer audit copy): a supervisor acts on the log it was copied from"
            )
        return row.pin_hash

    def user_history(self) -> list[UserRow]:
        """Every users row ever stored, by record id."""
        with self.errors("read"):
            rows = self.conn.execute(
                f"SELECT {USER_COLUMNS} FROM users ORDER BY record_id"
            ).fetchall()
        return [user_row(row) for row in rows]

    def protection_problems(self, sums: str | None = None) -> list[str]:
        """The append-only triggers that are missing or changed, a trigger added, and a table
        or index that differs from the declared schema (`sqlite_schema.schema_problems`). The
        file computes no sums itself (`sums` is a server's: the tool writes them here)."""
        with self.errors("read"):
            return schema_problems(self.conn)

    def integrity_problems(self) -> list[str]:
        """What SQLite's quick_check finds, and a seat index that differs from the seats the
        records involved (`records.seats_of`)."""
        with self.errors("read"):
            quick = [row[0] for row in self.conn.execute("PRAGMA quick_check").fetchall()]
            if quick != ["ok"]:
                return [f"SQLite quick_check: {'; '.join(quick)}"]
            return self._seat_index_problems()

    def _seat_index_problems(self) -> list[str]:
        indexed = self.conn.execute(
            "SELECT record_id, seat, patron FROM record_seats ORDER BY record_id, seat"
        )
        records = self.conn.execute("SELECT id, seat, result FROM records ORDER BY id")
        return seat_index_problems(indexed, records)
