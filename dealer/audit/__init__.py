"""The audit log: every ruling on a tamper-evident record (one hash chain, append-only).

Bottom up: `records` (what goes on the record) and `chain` (the hash recipe, checkpoints);
`storage` (the interface a backend implements) and `sqlite` (the SQLite backend); then the
features, functions over a `Storage`: `users` and `authority` (roles, PINs, a supervisor's
authority), `entries`, `staff`, `corrections`, `disputes`, `meters`, `verify`, `export`.
Start at `open_log(path)`.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from dealer.audit.storage import Storage


def open_log(path: str | Path) -> Storage:
    """Open (creating it on first use) the audit log at `path`: a SQLite database file."""
    from dealer.audit.sqlite import SQLiteStorage

    return SQLiteStorage.open(path)
