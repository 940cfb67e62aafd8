"""The audit log: every ruling on a tamper-evident record (one hash chain, append-only).

Bottom up: `records` (what goes on the record) and `chain` (the hash recipe, checkpoints);
`storage` (the interface a backend implements), `sqlite` (the SQLite backend, the embedded
default) and `postgres` (the PostgreSQL backend, for a floor of terminals); then the
features, functions over a `Storage`: `users` and `authority` (roles, PINs, a supervisor's
authority), `entries`, `staff`, `corrections`, `disputes`, `signoffs`, `meters`, `verify`,
`export`. Start at `open_log(path)`.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, TypeGuard

if TYPE_CHECKING:
    from dealer.audit.storage import Storage


URL_SCHEMES = ("postgresql://", "postgres://")
"""How a `--db` value names a PostgreSQL log rather than an SQLite file."""


def is_postgres_url(location: object) -> TypeGuard[str]:
    """Whether `location` (a `--db` value) is a PostgreSQL URL."""
    return isinstance(location, str) and location.startswith(URL_SCHEMES)


def open_log(path: str | Path, *, read_only: bool = False) -> Storage:
    """Open the audit log at `path`, a SQLite database file: for writing (a missing or empty
    file becomes a new log, in a folder that must exist), or with `read_only` for reading an
    existing log without changing it. A file that is not a log of ours is refused untouched.

    A `postgresql://` (or `postgres://`) URL opens the PostgreSQL log there instead (set up once
    by `dealer db init`); psycopg is imported only then."""
    if is_postgres_url(path):
        from dealer.audit.postgres import PostgresStorage

        return PostgresStorage.open(path, read_only=read_only)
    from dealer.audit.sqlite import SQLiteStorage

    return SQLiteStorage.open(path, read_only=read_only)
