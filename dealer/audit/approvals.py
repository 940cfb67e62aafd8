"""Which rules documents a ruling may be computed from: the package's own, or approved.

A ruling names each document that decided it by the SHA-256 of its text: the table profile
(`settings.profile_sha256`), the pay tables (`settings.paytables_sha256`), the House Way it set
a hand by (`settings.house_way_sha256`), Empire's combination table
(`settings.combinations_sha256`). Before it is recorded, each must be a document the package
ships (listed with its digests, `dealer.kernel.documents`) or one a supervisor approved on the
chain: a `profile-change`, `paytable-change`, `house-way-change` or `combinations-change` record
with that SHA-256, for this table or for every table. A profile's approval also covers the House
Way file the profile names (`rules.house_way`): the approval holds that file's SHA-256
(`house_way_file`), so the file edited after it is refused, named. Otherwise the ruling is
refused and nothing is written: a file edited after its approval, or never shown to a
supervisor, decides no pay.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from dealer.audit.records import APPROVAL_KINDS, Record, RecordFilter, RecordKind
from dealer.kernel.digest import sha256_hex
from dealer.kernel.documents import shipped_documents
from dealer.kernel.errors import AccessError

if TYPE_CHECKING:
    from dealer.audit.storage import Reads


def documents(settings: Mapping[str, Any]) -> Iterator[tuple[RecordKind, str, str]]:
    """(record kind that approves it, what it is, SHA-256) of each document a ruling's
    `settings` name: the one list of them, which the shift summary reads too."""
    profile_sha256 = settings.get("profile_sha256")
    if isinstance(profile_sha256, str):
        name = settings.get("profile_source") or settings.get("profile", "")
        yield RecordKind.PROFILE_CHANGE, f"table profile {name}", profile_sha256
    paytables = settings.get("paytables_sha256")
    if isinstance(paytables, Mapping):
        for table_id, digest in sorted(paytables.items()):
            if isinstance(digest, str):
                yield RecordKind.PAYTABLE_CHANGE, f"pay table {table_id}", digest
    house_way = settings.get("house_way_sha256")
    if isinstance(house_way, str):
        yield RecordKind.HOUSE_WAY_CHANGE, f"House Way {_source(settings)}", house_way
    combinations = settings.get("combinations_sha256")
    if isinstance(combinations, str):
        table = settings.get("combination_table")
        origin = table.get("origin", "") if isinstance(table, Mapping) else ""
        yield RecordKind.COMBINATIONS_CHANGE, f"combination table {origin}", combinations


def _source(settings: Mapping[str, Any]) -> str:
    return str(settings.get("house_way_source", ""))


def _approvals(reads: Reads, kind: RecordKind, digest: str, table_id: str) -> Iterator[Record]:
    """The supervisors' approvals of the document `digest` for `table_id` that the log vouches
    for: one verify would reject (`authority.vouch_problem`) approves nothing."""
    from dealer.audit.authority import vouch_problem  # a non-shipped document only

    for row in list(reads.rows(RecordFilter(kind=kind))):
        record = Record.from_row(row)
        matches = record.table_id in ("", table_id) and record.result.get("sha256") == digest
        if matches and vouch_problem(reads, row) is None:
            yield record


def _approved(reads: Reads, kind: RecordKind, digest: str, table_id: str) -> bool:
    return next(_approvals(reads, kind, digest, table_id), None) is not None


def _named_house_ways(
    reads: Reads, table_id: str, settings: Mapping[str, Any]
) -> list[Mapping[str, Any]]:
    """The House Way files (`{"file", "sha256"}`) named by the approvals, for `table_id`, of
    the profile a ruling's `settings` name."""
    profile_sha256 = settings.get("profile_sha256")
    if not isinstance(profile_sha256, str):
        return []
    approvals = _approvals(reads, RecordKind.PROFILE_CHANGE, profile_sha256, table_id)
    named = (record.result.get("house_way_file") for record in approvals)
    return [file for file in named if isinstance(file, Mapping)]


def _refuse_edited(
    named: list[Mapping[str, Any]], settings: Mapping[str, Any], digest: str
) -> None:
    """AccessError naming the House Way file when a profile's approval named the same file
    (by the path the profile gives) with another SHA-256: it was edited since."""
    source = _source(settings)
    for file in named:
        if file.get("file") == source:
            profile = settings.get("profile_source") or settings.get("profile", "")
            raise AccessError(
                f"the House Way file {source} named by the table profile {profile} was edited "
                f"after the profile's approval (sha256 {digest[:12]}…, approved "
                f"{str(file.get('sha256'))[:12]}…): a supervisor approves the profile again "
                "with 'dealer audit approve-profile FILE'"
            )


_COMMAND = {
    RecordKind.PROFILE_CHANGE: "approve-profile",
    RecordKind.PAYTABLE_CHANGE: "approve-paytables",
    RecordKind.HOUSE_WAY_CHANGE: "approve-house-way",
    RecordKind.COMBINATIONS_CHANGE: "approve-combinations",
}


def check_documents(reads: Reads, table_id: str, settings: Mapping[str, Any]) -> None:
    """AccessError unless every document a ruling's `settings` name is shipped or approved for
    `table_id` (the first one that is not, named in the message)."""
    shipped = shipped_documents()
    for kind, what, digest in documents(settings):
        if digest in shipped or _approved(reads, kind, digest, table_id):
            continue
        if kind == RecordKind.HOUSE_WAY_CHANGE:
            named = _named_house_ways(reads, table_id, settings)
            if any(file.get("sha256") == digest for file in named):
                continue  # the file the approved profile names, as it was approved
            _refuse_edited(named, settings, digest)
        where = f"for table {table_id}" if table_id else "for every table (no table is named)"
        raise AccessError(
            f"the {what} (sha256 {digest[:12]}…) is not approved {where}:"
            f" a supervisor approves its file with 'dealer audit {_COMMAND[kind]} FILE'"
        )


def approved_text(reads: Reads, kind: RecordKind, digest: str) -> str | None:
    """The text of the document `digest` as an approval record of `kind` holds it (its own
    SHA-256 is `digest`: the text vouches for itself), None when none does. A table's assigned
    profile is read so, and a past ruling's profile read again."""
    for row in list(reads.rows(RecordFilter(kind=kind))):
        text = row["input_text"]
        if isinstance(text, str) and sha256_hex(text) == digest:
            return text
    return None


class ApprovalBook:
    """The approvals a replay of the log has read so far (verify's, from each sound approval
    record on), by kind and SHA-256: the table each is for (`""`: every table), what its record
    says it holds (`result`) and the document's text. What `check_documents` asks of the log at
    the write, asked of its history."""

    def __init__(self) -> None:
        self._held: dict[tuple[str, str], list[tuple[str, Mapping[str, Any], str]]] = {}

    def add(self, kind: str, table_id: str, result: Mapping[str, Any], text: str) -> None:
        """Keep a sound record of `kind` at `table_id`, if it is an approval (its `result`, the
        document's `text`)."""
        digest = result.get("sha256")
        if kind in APPROVAL_KINDS and isinstance(digest, str):
            self._held.setdefault((kind, digest), []).append((table_id, result, text))

    def approval(self, kind: RecordKind, digest: str, table_id: str) -> Mapping[str, Any] | None:
        """What the first approval of `digest` for `table_id` (or every table) says it holds."""
        for table, result, _ in self._held.get((kind, digest), ()):
            if table in ("", table_id):
                return result
        return None

    def text(self, kind: RecordKind, digest: str, table_id: str) -> str | None:
        """The text of document `digest` approved for `table_id` (or every table), None when
        no approval for it holds it."""
        for table, _, text in self._held.get((kind, digest), ()):
            if table in ("", table_id) and sha256_hex(text) == digest:
                return text
        return None
