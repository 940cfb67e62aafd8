"""The audit log: every ruling on a tamper-evident record (SQLite, one hash chain).

Start at `AuditLog.open()`; the hash recipe is documented in `dealer.audit.chain`.
"""

from dealer.audit.chain import Checkpoint, VerifyResult, parse_checkpoints
from dealer.audit.disputes import OUTCOMES, Dispute, Resolution
from dealer.audit.log import AuditLog, Transaction, default_db_path
from dealer.audit.records import ROLES, Entry, Record, RecordFilter, parse_time
from dealer.audit.users import User

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
