"""The browser's reads of an SQLite log (it serves SQLite log files only): the copy it serves,
and the fixed, read-only queries a supervisor asks for beside its pages, in SQLite's dialect.
Here, in the audit layer, because only the log's own modules read the file and write SQL; the
browser's server hands the queries to Datasette as canned queries (`dealer.cli.browse.server`).

Decisions: the browser serves a copy (`snapshot`), not the log itself. The copy is taken
through SQLite's backup API over the log's own read-only connection, so it holds every
committed record, those still in the WAL included, as one consistent state; it is verified,
then every view of the browser (its pages, Datasette's tables and these queries) reads it and
nothing else. A view cannot differ from what verify checked: not by a WAL that one reader
ignores (an `immutable` open reads the main file alone), nor by records appended, or a file
changed, after the check. The copy is one for reading, as `dealer audit copy` makes into an
SQLite file (`dealer.audit.copy`): its users rows hold each secret withheld (`keys.withheld`),
written over in place before anything reads it, the space they held zeroed."""

from __future__ import annotations

import os
import sqlite3
from contextlib import closing
from pathlib import Path

from dealer.kernel.errors import AuditError


def snapshot(source: Path, target: Path) -> None:
    """Copy the SQLite log `source` as it stands, its WAL included, into the new file `target`
    (made 0600; one file with a rollback journal, never a WAL), its secrets withheld
    (`withhold`). `source` is opened as every reading command opens it (a file that is not a
    log of ours is refused), and nothing is written to it; AuditError when the copy cannot be
    made."""
    from dealer.audit.sqlite import SQLiteStorage

    with SQLiteStorage.open(source, read_only=True) as log:
        try:
            os.close(os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
            with closing(sqlite3.connect(target, isolation_level=None)) as copy:
                log.conn.backup(copy)
                withhold(copy)
                copy.execute("PRAGMA journal_mode = DELETE")
        except (OSError, sqlite3.Error) as exc:
            reason = exc.strerror if isinstance(exc, OSError) else str(exc)
            raise AuditError(f"cannot copy the audit log {source} to browse it: {reason}") from None


def withhold(copy: sqlite3.Connection) -> None:
    """Each secret in the users table of `copy` (a log's copy just made, on a connection in
    autocommit mode) written over by its withheld form (`keys.withheld`), in one transaction:
    the table's triggers (its append-only protection, and any other) dropped first, so none
    refuses or fires, and made again after from their own SQL text, so verify finds them as
    they were; the journal kept in memory and the freed space zeroed (`secure_delete`), so
    nothing of a secret is left in the file or beside it."""
    from dealer.audit import keys  # key work only

    copy.execute("PRAGMA journal_mode = MEMORY")
    copy.execute("PRAGMA secure_delete = ON")
    copy.create_function("withheld", 1, keys.withheld, deterministic=True)
    copy.execute("BEGIN IMMEDIATE")
    try:
        found = "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'users'"
        triggers = copy.execute(found).fetchall()
        for name, _ in triggers:
            copy.execute('DROP TRIGGER "' + name.replace('"', '""') + '"')
        copy.execute("UPDATE users SET pin_hash = withheld(pin_hash) WHERE pin_hash IS NOT NULL")
        for _, sql in triggers:
            copy.execute(sql)
        copy.execute("COMMIT")
    except BaseException:
        copy.execute("ROLLBACK")
        raise


QUERIES: dict[str, dict[str, str]] = {
    "overrides_and_voids_by_user": {
        "title": "Overrides and voids, by the supervisor who made them",
        "sql": (
            "SELECT id, recorded_at, user_id, kind, table_id, seat, links_to AS of_record, reason"
            " FROM records WHERE kind IN ('override', 'void')"
            " AND (:user = '' OR user_id = :user) ORDER BY id"
        ),
    },
    "large_pays_by_user": {
        "title": "Large pays (over the table's sign-off line), by who ruled or signed them off",
        "sql": (
            "SELECT r.id, r.recorded_at, r.table_id, r.user_id AS ruled_by,"
            " json_extract(r.result, '$.signoff_required.seats') AS seats,"
            " json_extract(r.result, '$.signoff_required.over') AS line,"
            " (SELECT s.user_id || ' (#' || s.id || ')' FROM records s"
            "  WHERE s.kind = 'signoff' AND s.links_to = r.id) AS signed_off_by"
            " FROM records r WHERE r.kind = 'ruling'"
            " AND json_extract(r.result, '$.signoff_required') IS NOT NULL"
            " AND (:user = '' OR r.user_id = :user OR EXISTS (SELECT 1 FROM records s"
            "  WHERE s.kind = 'signoff' AND s.links_to = r.id AND s.user_id = :user))"
            " ORDER BY r.id"
        ),
    },
    "records_by_user": {
        "title": "Every record a user made",
        "sql": (
            "SELECT id, recorded_at, kind, game, action, table_id, seat, reason"
            " FROM records WHERE user_id = :user ORDER BY id"
        ),
    },
}
"""Fixed, read-only queries a supervisor asks for, beside the pages of the plugin."""
