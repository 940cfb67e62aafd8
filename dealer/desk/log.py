"""The audit log a desk writes to: opened here, for one thing a person does, then closed."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from dealer.desk.context import default_db
from dealer.kernel.errors import AuditError

if TYPE_CHECKING:
    from dealer.audit.storage import Storage


def open_log(db: Path | None, *, existing: bool = False) -> Storage:
    """The audit log at `db` (else `default_db()`), created on first use; with `existing`, an
    AuditError instead of creating one (reading a log that is not there is a mistake)."""
    from dealer.audit import open_log as open_storage  # the log's modules load on first use

    path = db if db is not None else default_db()
    if existing and not path.exists():
        raise AuditError(f"there is no audit database at {path}")
    return open_storage(path)
