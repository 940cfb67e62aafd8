"""The SQLite schema of the audit log, as numbered migrations applied in order (used only by
`dealer.audit.sqlite`).

`PRAGMA user_version` holds the number of the last migration applied, and the table
`schema_migrations` names each one and when it ran. Migrations run inside one
`BEGIN IMMEDIATE` transaction, so processes opening a new database at once apply them once.
A database newer than this software is refused rather than touched.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable

from dealer.audit.chain import GENESIS_HASH
from dealer.audit.records import utc_now
from dealer.audit.sql_reads import indexed_seats
from dealer.kernel.errors import AuditError

PROTECTION_TRIGGERS = (
    "records_no_update",
    "records_no_delete",
    "records_in_order",
    "users_no_update",
    "users_no_delete",
    "record_seats_no_update",
    "record_seats_no_delete",
    "record_seats_of_the_newest",
)
"""Triggers that keep the record append-only; `verify` reports any that are missing."""

SEATS_INSERT = "INSERT INTO record_seats (record_id, seat, patron) VALUES (?, ?, ?)"
"""How a record's seats (`records.seats_of`) go into the seat index."""


def index_seats(conn: sqlite3.Connection) -> None:
    """Fill the seat index from the records already in the log (`records.seats_in`: derived
    data, the records and their hashes are not touched). A record whose result cannot be read
    is left out of the index; `verify` reports it as damaged."""
    records = conn.execute("SELECT id, seat, result FROM records ORDER BY id")
    conn.executemany(SEATS_INSERT, list(indexed_seats(records)))


Step = str | Callable[[sqlite3.Connection], None]
"""One step of a migration: an SQL statement, or a function filling derived data."""

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
            "CREATE INDEX users_by_user ON users(user_id, record_id)",
        ),
    ),
    (
        "indexes: searches by table, time, user and link, and the progressive meters",
        (
            "CREATE INDEX records_by_table ON records(table_id, seat, id)",
            "CREATE INDEX records_by_time ON records(recorded_at)",
            "CREATE INDEX records_by_user ON records(user_id, id)",
            "CREATE INDEX records_by_kind ON records(kind, id)",
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
            "CREATE INDEX record_seats_by_seat ON record_seats(seat, record_id)",
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
)

LATEST = len(MIGRATIONS)


def schema_version(conn: sqlite3.Connection) -> int:
    """The number of the last migration applied to the database (0 for a new file)."""
    return int(conn.execute("PRAGMA user_version").fetchone()[0])


def migrate(conn: sqlite3.Connection) -> int:
    """Apply every pending migration (in one BEGIN IMMEDIATE transaction); return the version.

    `conn` must be in driver autocommit mode (isolation_level None)."""
    version = schema_version(conn)
    if version > LATEST:
        raise AuditError(
            f"the audit database has schema version {version}, newer than this software "
            f"knows ({LATEST}): upgrade dealer"
        )
    if version == LATEST:
        return version
    conn.execute("BEGIN IMMEDIATE")
    try:
        version = schema_version(conn)
        if version < LATEST:
            conn.execute(
                "CREATE TABLE IF NOT EXISTS schema_migrations "
                "(version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)"
            )
            for number, (name, statements) in enumerate(MIGRATIONS[version:], start=version + 1):
                for step in statements:
                    if isinstance(step, str):
                        conn.execute(step)
                    else:
                        step(conn)
                conn.execute(
                    "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
                    [number, name, utc_now()],
                )
            conn.execute(f"PRAGMA user_version = {LATEST}")
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    return LATEST
