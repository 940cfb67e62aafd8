"""Which rules documents a ruling may be computed from: the package's own, or approved.

A ruling names the table profile and the pay tables it used by the SHA-256 of their text
(`settings.profile_sha256`, `settings.paytables_sha256`). Before it is recorded, each must be a
document the package ships (listed with its digests, `dealer.kernel.documents`) or one a
supervisor approved on the chain: a `profile-change` or `paytable-change` record with that
SHA-256, for this table or for every table. Otherwise the ruling is refused and nothing is
written: a file edited after its approval, or never shown to a supervisor, decides no pay.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from dealer.audit.records import Record, RecordFilter, RecordKind
from dealer.kernel.documents import shipped_documents
from dealer.kernel.errors import AccessError

if TYPE_CHECKING:
    from dealer.audit.storage import Reads


def _documents(settings: Mapping[str, Any]) -> Iterator[tuple[RecordKind, str, str]]:
    """(record kind that approves it, what it is, SHA-256) of each document `settings` names."""
    profile_sha256 = settings.get("profile_sha256")
    if isinstance(profile_sha256, str):
        name = settings.get("profile_source") or settings.get("profile", "")
        yield RecordKind.PROFILE_CHANGE, f"table profile {name}", profile_sha256
    paytables = settings.get("paytables_sha256")
    if isinstance(paytables, Mapping):
        for table_id, digest in sorted(paytables.items()):
            if isinstance(digest, str):
                yield RecordKind.PAYTABLE_CHANGE, f"pay table {table_id}", digest


def _approved(reads: Reads, kind: RecordKind, digest: str, table_id: str) -> bool:
    """Whether a supervisor's approval of the document `digest` for `table_id` is on the chain;
    one verify would reject (`authority.vouch_problem`) approves nothing."""
    from dealer.audit.authority import vouch_problem  # a non-shipped document only

    for row in list(reads.rows(RecordFilter(kind=kind))):
        record = Record.from_row(row)
        matches = record.table_id in ("", table_id) and record.result.get("sha256") == digest
        if matches and vouch_problem(reads, row) is None:
            return True
    return False


_COMMAND = {
    RecordKind.PROFILE_CHANGE: "approve-profile",
    RecordKind.PAYTABLE_CHANGE: "approve-paytables",
}


def check_documents(reads: Reads, table_id: str, settings: Mapping[str, Any]) -> None:
    """AccessError unless every document a ruling's `settings` name is shipped or approved for
    `table_id` (the first one that is not, named in the message)."""
    shipped = shipped_documents()
    for kind, what, digest in _documents(settings):
        if digest in shipped or _approved(reads, kind, digest, table_id):
            continue
        raise AccessError(
            f"the {what} (sha256 {digest[:12]}…) is not approved for table {table_id}:"
            f" a supervisor approves its file with 'dealer audit {_COMMAND[kind]} FILE'"
        )
