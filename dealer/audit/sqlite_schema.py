"""The SQLite schema of the audit log, as numbered migrations applied in order, and its check
(used only by `dealer.audit.sqlite`).

`PRAGMA user_version` holds the number of the last migration applied, and the table
`schema_migrations` names each one and when it ran. Migrations run inside one
`BEGIN IMMEDIATE` transaction, so processes opening a new database at once apply them once.
A database newer than this software is refused rather than touched.

The migrations are applied, and the schema checked, through sqlite-utils over the log's own
connection (`sqlite_utils.Database(conn)`: its writes join that transaction). A plain index is
declared as an `Index` and made by `create_index`, the bookkeeping table by `create`; a table
with CHECK constraints, a partial or expression index and a trigger stay SQL, which sqlite-utils
has no way to declare. `schema_problems` compares the log with a database made in memory by the
same migrations, through sqlite-utils' introspection (tables, columns, indexes, triggers).
sqlite-utils is imported only to make, migrate or check a log: opening a current log for a
ruling reads `PRAGMA user_version` and never loads it.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import TYPE_CHECKING

from dealer.audit.chain import GENESIS_HASH
from dealer.audit.records import APPROVAL_KINDS, RECORD_LIMIT, SIZED_FIELDS, utc_now
from dealer.audit.sql_reads import indexed_seats
from dealer.audit.sums import INTS, REALS
from dealer.inputs import DOCUMENT_LIMIT
from dealer.kernel.errors import AuditError
from dealer.kernel.tuples import NamedTuple

if TYPE_CHECKING:
    from sqlite_utils import Database
    from sqlite_utils.db import Index as SQLiteIndex

PROTECTION_TRIGGERS = (
    "records_no_update",
    "records_no_delete",
    "records_in_order",
    "users_no_update",
    "users_no_delete",
    "record_seats_no_update",
    "record_seats_no_delete",
    "record_seats_of_the_newest",
    "records_bounded",
    "settings_texts_no_update",
    "settings_texts_no_delete",
    "settings_texts_bounded",
    "floor_sums_no_delete",
    "floor_sums_from_no_update",
    "floor_sums_from_no_delete",
    "floor_sums_from_once",
)
"""Triggers that keep the record append-only and bounded; `verify` reports any that
are missing or changed (`schema_problems`)."""

_SUM_DECLARATIONS = ", ".join(
    [f"n{i} INTEGER NOT NULL DEFAULT 0" for i in range(INTS)]
    + [f"x{i} REAL NOT NULL DEFAULT 0" for i in range(REALS)]
)
"""The columns of the floor's sums (`dealer.audit.sums`)."""

SEATS_INSERT = "INSERT INTO record_seats (record_id, seat, patron) VALUES (?, ?, ?)"
"""How a record's seats (`records.seats_of`) go into the seat index."""


def index_seats(db: Database) -> None:
    """Fill the seat index from the records already in the log (`records.seats_in`: derived
    data, the records and their hashes are not touched). A record whose result cannot be read
    is left out of the index; `verify` reports it as damaged."""
    records = db.execute("SELECT id, seat, result FROM records ORDER BY id")
    db.conn.executemany(SEATS_INSERT, list(indexed_seats(records)))


def _bytes(field: str) -> str:
    return f"coalesce(length(CAST(NEW.{field} AS BLOB)), 0)"


_DOCUMENT = (
    f"(CASE WHEN NEW.kind IN ({', '.join(repr(str(kind)) for kind in APPROVAL_KINDS)}) "
    f"THEN {_bytes('input_text')} ELSE 0 END)"
)
"""The bytes of the document an approval holds in a new record (0 for another record)."""

_TOO_LARGE = (
    f"an audit record is at most {RECORD_LIMIT} bytes, besides the document of at most "
    f"{DOCUMENT_LIMIT} bytes an approval holds"
)

BOUNDED = f"""
            CREATE TRIGGER records_bounded BEFORE INSERT ON records
            WHEN {_DOCUMENT} > {DOCUMENT_LIMIT}
              OR {" + ".join(_bytes(field) for field in SIZED_FIELDS)} - {_DOCUMENT}
                 > {RECORD_LIMIT}
            BEGIN
                SELECT RAISE(ABORT, '{_TOO_LARGE}');
            END
            """
"""The trigger that bounds a record as `records.size_problem` does, for whoever writes the
file."""


class Index(NamedTuple):
    """A plain index (columns only, in order), made by sqlite-utils' `create_index`."""

    table: str
    name: str
    columns: tuple[str, ...]


Step = str | Index | Callable[["Database"], None]
"""One step of a migration: an SQL statement, a plain index, or a function filling derived
data."""

MIGRATIONS: tuple[tuple[str, tuple[Step, ...]], ...] = (
    (
        "records: the hash-chained log and its append-only triggers",
        (
            """
            CREATE TABLE records (
                id INTEGER PRIMARY KEY CHECK (typeof(id) = 'integer' AND id > 0),
                recorded_at TEXT NOT NULL,
                kind TEXT NOT NULL,
                game TEXT NOT NULL,
                action TEXT NOT NULL,
                table_id TEXT NOT NULL,
                seat INTEGER CHECK (seat IS NULL OR typeof(seat) = 'integer'),
                user_id TEXT NOT NULL,
                role TEXT NOT NULL,
                input_text TEXT NOT NULL,
                cards TEXT NOT NULL,
                result TEXT NOT NULL,
                explanation TEXT NOT NULL,
                settings TEXT NOT NULL,
                links_to INTEGER REFERENCES records(id),
                reason TEXT,
                software_version TEXT NOT NULL,
                prev_hash TEXT NOT NULL,
                hash TEXT NOT NULL
            )
            """,
            """
            CREATE TRIGGER records_no_update BEFORE UPDATE ON records
            BEGIN
                SELECT RAISE(ABORT, 'audit records cannot be changed: record an override or void');
            END
            """,
            """
            CREATE TRIGGER records_no_delete BEFORE DELETE ON records
            BEGIN
                SELECT RAISE(ABORT, 'audit records cannot be deleted');
            END
            """,
            f"""
            CREATE TRIGGER records_in_order BEFORE INSERT ON records
            WHEN NEW.id IS NOT (SELECT COALESCE(MAX(id), 0) + 1 FROM records)
              OR NEW.prev_hash IS NOT COALESCE(
                    (SELECT hash FROM records WHERE id = NEW.id - 1), '{GENESIS_HASH}')
            BEGIN
                SELECT RAISE(ABORT, 'audit records are appended in order, each linked to the last');
            END
            """,
        ),
    ),
    (
        "users: roles and supervisor PINs, one row per change, each tied to its record",
        (
            """
            CREATE TABLE users (
                record_id INTEGER PRIMARY KEY REFERENCES records(id),
                user_id TEXT NOT NULL,
                role TEXT NOT NULL CHECK (role IN ('dealer', 'supervisor', 'auditor')),
                active INTEGER NOT NULL CHECK (active IN (0, 1)),
                pin_hash TEXT
            )
            """,
            """
            CREATE TRIGGER users_no_update BEFORE UPDATE ON users
            BEGIN
                SELECT RAISE(ABORT, 'user history cannot be changed: record a new user change');
            END
            """,
            """
            CREATE TRIGGER users_no_delete BEFORE DELETE ON users
            BEGIN
                SELECT RAISE(ABORT, 'user history cannot be deleted');
            END
            """,
            Index("users", "users_by_user", ("user_id", "record_id")),
        ),
    ),
    (
        "indexes: searches by table, time, user and link, and the progressive meters",
        (
            Index("records", "records_by_table", ("table_id", "seat", "id")),
            Index("records", "records_by_time", ("recorded_at",)),
            Index("records", "records_by_user", ("user_id", "id")),
            Index("records", "records_by_kind", ("kind", "id")),
            "CREATE INDEX records_by_link ON records(links_to) WHERE links_to IS NOT NULL",
            """
            CREATE INDEX records_meters
            ON records(table_id, json_extract(result, '$.meter'), id) WHERE kind = 'meter'
            """,
        ),
    ),
    (
        "record_seats: the seats (and patron ids) each record involved, for seat searches",
        (
            """
            CREATE TABLE record_seats (
                record_id INTEGER NOT NULL REFERENCES records(id),
                seat INTEGER NOT NULL CHECK (typeof(seat) = 'integer'),
                patron TEXT,
                PRIMARY KEY (record_id, seat)
            )
            """,
            """
            CREATE TRIGGER record_seats_no_update BEFORE UPDATE ON record_seats
            BEGIN
                SELECT RAISE(ABORT, 'the seat index cannot be changed');
            END
            """,
            """
            CREATE TRIGGER record_seats_no_delete BEFORE DELETE ON record_seats
            BEGIN
                SELECT RAISE(ABORT, 'the seat index cannot be deleted from');
            END
            """,
            Index("record_seats", "record_seats_by_seat", ("seat", "record_id")),
            """
            CREATE INDEX record_seats_by_patron
            ON record_seats(patron, record_id) WHERE patron IS NOT NULL
            """,
            index_seats,
            """
            CREATE TRIGGER record_seats_of_the_newest BEFORE INSERT ON record_seats
            WHEN NEW.record_id IS NOT (SELECT MAX(id) FROM records)
            BEGIN
                SELECT RAISE(ABORT, 'the seat index is written with its record, and only then');
            END
            """,
        ),
    ),
    (
        "indexes: a linked progressive meter's newest records",
        (
            """
            CREATE INDEX records_linked_meters
            ON records(json_extract(result, '$.link'), id) WHERE kind = 'meter'
            """,
        ),
    ),
    (
        "records_bounded: a record is at most 64 KiB, an approval's document at most its file's",
        (BOUNDED,),
    ),
    (
        "settings_texts: a record's long settings kept once, by their SHA-256",
        (
            "CREATE TABLE settings_texts (ref TEXT PRIMARY KEY, text TEXT NOT NULL) WITHOUT ROWID",
            """
            CREATE TRIGGER settings_texts_no_update BEFORE UPDATE ON settings_texts
            BEGIN
                SELECT RAISE(ABORT, 'kept settings cannot be changed');
            END
            """,
            """
            CREATE TRIGGER settings_texts_no_delete BEFORE DELETE ON settings_texts
            BEGIN
                SELECT RAISE(ABORT, 'kept settings cannot be deleted');
            END
            """,
            f"""
            CREATE TRIGGER settings_texts_bounded BEFORE INSERT ON settings_texts
            WHEN length(CAST(NEW.text AS BLOB)) > {RECORD_LIMIT}
            BEGIN
                SELECT RAISE(ABORT, '{_TOO_LARGE}');
            END
            """,
        ),
    ),
    (
        "floor_sums: the floor's numbers per hour, added to by each ruling's transaction",
        (
            f"""
            CREATE TABLE floor_sums (
                hour TEXT NOT NULL,
                grp TEXT NOT NULL,
                member TEXT NOT NULL,
                source TEXT NOT NULL,
                {_SUM_DECLARATIONS},
                last_at TEXT,
                last_mark TEXT,
                PRIMARY KEY (grp, hour, member, source)
            ) WITHOUT ROWID
            """,
            """
            CREATE TRIGGER floor_sums_no_delete BEFORE DELETE ON floor_sums
            BEGIN
                SELECT RAISE(ABORT, 'the floor''s sums cannot be deleted from');
            END
            """,
            "CREATE TABLE floor_sums_from (from_id INTEGER NOT NULL)",
            "INSERT INTO floor_sums_from SELECT coalesce(max(id), 0) + 1 FROM records",
            """
            CREATE TRIGGER floor_sums_from_no_update BEFORE UPDATE ON floor_sums_from
            BEGIN
                SELECT RAISE(ABORT, 'where the floor''s sums start cannot be changed');
            END
            """,
            """
            CREATE TRIGGER floor_sums_from_no_delete BEFORE DELETE ON floor_sums_from
            BEGIN
                SELECT RAISE(ABORT, 'where the floor''s sums start cannot be changed');
            END
            """,
            """
            CREATE TRIGGER floor_sums_from_once BEFORE INSERT ON floor_sums_from
            WHEN (SELECT count(*) FROM floor_sums_from) > 0
            BEGIN
                SELECT RAISE(ABORT, 'where the floor''s sums start cannot be changed');
            END
            """,
        ),
    ),
    (
        "records_by_table_time: a table's records by time (a shift summary reads a table's day)",
        ("CREATE INDEX records_by_table_time ON records(table_id, recorded_at)",),
    ),
)


LATEST = len(MIGRATIONS)


def schema_version(conn: sqlite3.Connection) -> int:
    """The number of the last migration applied to the database (0 for a new file)."""
    return int(conn.execute("PRAGMA user_version").fetchone()[0])


def _database(conn: sqlite3.Connection) -> Database:
    """`conn` seen through sqlite-utils, unchanged: no pragma set, no plugin run on it."""
    from sqlite_utils import Database

    return Database(conn, recursive_triggers=False, execute_plugins=False)


def _apply(db: Database, step: Step) -> None:
    if isinstance(step, str):
        db.execute(step)
    elif isinstance(step, Index):
        db.table(step.table).create_index(step.columns, index_name=step.name)
    else:
        step(db)


def migrate(conn: sqlite3.Connection, target: int = LATEST) -> int:
    """Apply every pending migration up to `target` (in one BEGIN IMMEDIATE transaction);
    return the version. A `target` below `LATEST` makes a log as an earlier release left it
    (to load records into before a later migration derives its data from them).

    `conn` must be in driver autocommit mode (isolation_level None)."""
    version = schema_version(conn)
    if version > LATEST:
        raise AuditError(
            f"the audit database has schema version {version}, newer than this software "
            f"knows ({LATEST}): upgrade dealer"
        )
    if version >= target:
        return version
    db = _database(conn)
    conn.execute("BEGIN IMMEDIATE")
    try:
        version = schema_version(conn)
        if version < target:
            done = db.table("schema_migrations")
            done.create(
                {"version": int, "name": str, "applied_at": str},
                pk="version",
                not_null=("name", "applied_at"),
                if_not_exists=True,
            )
            for number in range(version + 1, target + 1):
                name, steps = MIGRATIONS[number - 1]
                for step in steps:
                    _apply(db, step)
                done.insert({"version": number, "name": name, "applied_at": utc_now()})
            conn.execute(f"PRAGMA user_version = {target}")
            version = target
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    return version


def _declared() -> Database:
    """An empty database in memory with every migration applied: the schema as declared."""
    from sqlite_utils import Database

    db = Database(memory=True, recursive_triggers=False, execute_plugins=False)
    for _, steps in MIGRATIONS:
        for step in steps:
            _apply(db, step)
    return db


def _sql(text: str | None) -> str:
    """SQL text as written, whitespace aside."""
    return " ".join((text or "").split())


def schema_problems(conn: sqlite3.Connection) -> list[str]:
    """How the log on `conn` differs from the schema the migrations declare (for `verify`):
    each protection trigger missing or changed, each trigger the migrations do not make (it
    could drop or alter what is written), each declared table missing or changed (its SQL, so
    its columns and CHECK constraints) and each declared index missing or on other columns.
    The bookkeeping table `schema_migrations` and tables or indexes of someone's own are not
    the log's and not checked."""
    log = _database(conn)
    with _declared() as declared:
        return _trigger_problems(log, declared) + _table_problems(log, declared)


def _trigger_problems(log: Database, declared: Database) -> list[str]:
    found = {trigger.name: trigger for trigger in log.triggers}
    made = {trigger.name: trigger for trigger in declared.triggers}
    problems = []
    for name in PROTECTION_TRIGGERS:
        if name not in found:
            problems.append(f"the protection trigger {name} is missing: someone removed it")
        elif (found[name].table, _sql(found[name].sql)) != (made[name].table, _sql(made[name].sql)):
            problems.append(
                f"the protection trigger {name} is not the one this software made: "
                "someone changed it"
            )
    return problems + [
        f"the trigger {name} on {trigger.table} is not this software's: someone added it"
        for name, trigger in found.items()
        if name not in made
    ]


def _table_problems(log: Database, declared: Database) -> list[str]:
    problems = []
    for table in declared.tables:
        found = log.table(table.name)
        if not found.exists():
            problems.append(f"the table {table.name} is missing: someone removed it")
            continue
        if _sql(found.schema) != _sql(table.schema):
            problems.append(
                f"the table {table.name} is not the one this software made: someone changed it"
            )
        indexes = {index.name: _index_shape(index) for index in found.indexes}
        for index in table.indexes:
            if index.name not in indexes:
                problems.append(f"the index {index.name} is missing: someone removed it")
            elif indexes[index.name] != _index_shape(index):
                problems.append(
                    f"the index {index.name} is not the one this software made: someone changed it"
                )
    return problems


def _index_shape(index: SQLiteIndex) -> tuple[object, ...]:
    """What an index is, as SQLite reports it (its SQL text differs between the logs made
    before plain indexes came from `create_index` and after): unique, partial, its columns
    (None for an expression)."""
    return (index.unique, index.partial, tuple(index.columns))
