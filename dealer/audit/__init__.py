"""The audit log: every ruling on a tamper-evident record (SQLite, one hash chain).

Start at `AuditLog.open()`; the hash recipe is documented in `dealer.audit.chain`.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

_HOMES = {
    "Checkpoint": "chain",
    "VerifyResult": "chain",
    "parse_checkpoints": "chain",
    "OUTCOMES": "disputes",
    "Dispute": "disputes",
    "Resolution": "disputes",
    "AuditLog": "log",
    "Transaction": "log",
    "default_db_path": "log",
    "ROLES": "records",
    "Entry": "records",
    "Record": "records",
    "RecordFilter": "records",
    "parse_time": "records",
    "User": "users",
}
"""Each public name and the module it lives in: loaded on first use, so that a ruling's write
path imports only what it needs."""

if TYPE_CHECKING:
    from dealer.audit.chain import Checkpoint, VerifyResult, parse_checkpoints
    from dealer.audit.disputes import OUTCOMES, Dispute, Resolution
    from dealer.audit.log import AuditLog, Transaction, default_db_path
    from dealer.audit.records import ROLES, Entry, Record, RecordFilter, parse_time
    from dealer.audit.users import User


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'dealer.audit' has no attribute {name!r}")
    return getattr(importlib.import_module(f"dealer.audit.{home}"), name)


__all__ = [
    "OUTCOMES",
    "ROLES",
    "AuditLog",
    "Checkpoint",
    "Dispute",
    "Entry",
    "Record",
    "RecordFilter",
    "Resolution",
    "Transaction",
    "User",
    "VerifyResult",
    "default_db_path",
    "parse_checkpoints",
    "parse_time",
]
