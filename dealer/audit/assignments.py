"""A table's assignment: the profile a supervisor assigned it by a signed record, which every
ruling of that game at the table is made and recorded under.

An `assignment` record (a supervisor action, `verify.SUPERVISOR_ACTIONS`: signed, and on
PostgreSQL taken from a registered supervisor only) is made at its table, for its game, and
holds what the table is approved for in its result: the profile's name, the file it was read
from and the SHA-256 of its text (`profile_sha256`: a text the package ships or an approval
record holds), and `settings`, every setting a ruling at the table records under it as a round
records them (the House Way by SHA-256, the pay tables by id and SHA-256, the meters' seed,
contribution, cap and link, the limits, the sign-off line, `rule_changes`, no overrides). A
table's assignment is its newest one: reassigning is a new record, and a table once assigned
stays assigned (a supervisor reassigns it, to the shipped default if need be). A table never
assigned rules as before.

The settings are the assignment's own words, which a supervisor signed: the tool (at the write,
`check_ruling`), the PostgreSQL server (`dealer.check_assignment`, which reads no profile and
so compares JSON) and verify compare a ruling's settings with them, never with the ruling's own
copy of a profile. They compare alike (`difference`): every setting the assignment holds, but
those `EXEMPT` (the profile's file name, the House Way's name and version: the SHA-256 beside
each decides), is the ruling's too, with the same value; the House Way's and the pay tables'
are left out only by a ruling that uses none (`OPTIONAL`: a rank). A ruling
whose settings differ is a rule change: recorded only where the assignment allows rule changes
and a supervisor approved it (`rule_changes_approved_by`, who countersigns: verify checks the
countersignature, the server that the approver is an active supervisor).

Reading a table's assignment (`assigned`) is one indexed lookup of the kind's newest records,
and the log's vouching for the newest (`authority.vouch_problem`); a record the log does not
vouch for (written around the tool) assigns nothing. A later check of a ruling at an assigned
table asks it the same way.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import TYPE_CHECKING, Any

from dealer.audit.records import Entry, Record, RecordFilter, RecordKind, Role, canonical_json
from dealer.kernel.errors import AccessError
from dealer.kernel.tuples import NamedTuple

if TYPE_CHECKING:
    from dealer.audit.storage import Reads, Storage

ASSIGN = "assign"
"""The action of an assignment record."""
APPROVER = "rule_changes_approved_by"
"""The setting of a ruling naming the supervisor who approved its rule changes."""
FORBIDDEN = "forbidden"
"""The `rule_changes` setting of a profile that takes no rule change, a supervisor's neither."""
EXEMPT = ("house_way", "profile_source")
"""Settings of an assignment a ruling's are not compared on: the House Way's name and version
(`house_way_sha256` decides it) and the profile's file name (`profile_sha256` decides it)."""
OPTIONAL = ("house_way_source", "house_way_sha256", "paytables", "paytables_sha256")
"""Settings a ruling that sets no hand and reads no pay table (a rank, a compare) leaves out."""


class Assignment(NamedTuple):
    """A table's assignment as its record holds it: the record, the table and game, the
    profile (name, the file it was read from, SHA-256 of its text), the settings a ruling there
    records, who assigned it and when."""

    record_id: int
    table_id: str
    game: str
    profile: str
    source: str
    sha256: str
    settings: Mapping[str, Any]
    made_by: str
    recorded_at: str

    @classmethod
    def of(cls, record: Record) -> Assignment | None:
        """The assignment `record` makes, None when its result does not hold one."""
        result = record.result
        settings, digest = result.get("settings"), result.get("profile_sha256")
        if not isinstance(settings, Mapping) or not isinstance(digest, str):
            return None
        return cls(
            record.id,
            record.table_id,
            record.game,
            str(result.get("profile", "")),
            str(result.get("profile_source", "")),
            digest,
            settings,
            record.user_id,
            record.recorded_at,
        )

    def forbids_changes(self) -> bool:
        """Whether the assigned profile takes no rule change (`rules.rule_changes`)."""
        return self.settings.get("rule_changes") == FORBIDDEN

    def said(self) -> str:
        """The assignment in words, for a message: `table PG-3 is assigned the profile strict
        (record 4)`."""
        return (
            f"table {self.table_id} is assigned the profile {self.profile} "
            f"(record {self.record_id})"
        )


def entry(
    table_id: str,
    game: str,
    profile: tuple[str, str, str],
    settings: Mapping[str, Any],
    supervisor: str,
    reason: str | None,
) -> Entry:
    """Supervisor `supervisor`'s assignment of the profile (`profile`: its name, the file it was
    read from, the SHA-256 of its text) to `table_id` for `game`, with the `settings` a ruling
    there records."""
    name, source, digest = profile
    said = [f"table {table_id} assigned the profile {name} ({source}, sha256 {digest})"]
    return Entry(
        kind=RecordKind.ASSIGNMENT,
        user_id=supervisor,
        role=Role.SUPERVISOR,
        table_id=table_id,
        game=game,
        action=ASSIGN,
        result={
            "profile": name,
            "profile_source": source,
            "profile_sha256": digest,
            "settings": dict(settings),
        },
        explanation=said + ([f"reason: {reason}"] if reason else []),
        reason=reason,
    )


def assign(storage: Storage, made: Entry, pin: str) -> int:
    """Append the assignment `made` (`entry`), its supervisor's PIN checked and the record
    signed (a refusal is recorded); its record id."""
    from dealer.audit.authority import append_supervised

    return append_supervised(storage, made, pin)


def _vouched(
    reads: Reads, flt: RecordFilter, wanted: Callable[[Assignment], bool] = lambda _: True
) -> Iterator[Assignment]:
    """The assignments matching `flt` and `wanted`, newest first, that the log vouches for
    (asked of those wanted only: it reads the log's users, and its signatures). Their numbers
    are read first: a table never assigned costs one small query."""
    ids = reads.record_ids(flt._replace(kind=RecordKind.ASSIGNMENT), newest_first=True)
    if not ids:
        return
    for row in list(reads.rows(RecordFilter(ids=tuple(ids)), newest_first=True)):
        found = Assignment.of(Record.from_row(row))
        if found is None or not wanted(found):
            continue
        from dealer.audit.authority import vouch_problem  # an assignment to vouch for only

        if vouch_problem(reads, row) is None:
            yield found


def assigned(reads: Reads, table_id: str) -> Assignment | None:
    """The assignment of `table_id` (None: never assigned, or no table)."""
    if not table_id:
        return None
    return next(_vouched(reads, RecordFilter(table_id=table_id)), None)


def every_table(reads: Reads) -> list[Assignment]:
    """Each assigned table's assignment, by table."""
    found: dict[str, Assignment] = {}
    for assignment in _vouched(reads, RecordFilter(), lambda a: a.table_id not in found):
        found[assignment.table_id] = assignment
    return [found[table] for table in sorted(found)]


def naming_link(
    reads: Reads, link: str, before: int | None = None
) -> tuple[Assignment, Mapping[str, Any]] | None:
    """The newest assignment before record `before` (None: of all) whose settings link a meter
    to `link`, with that meter's settings (its seed and cap are then the link's terms,
    `meters.link_terms`); None when none does."""
    naming = _vouched(
        reads,
        RecordFilter(before_id=before),
        lambda a: next(linked_meters(a.settings, link), None) is not None,
    )
    for assignment in naming:
        return assignment, next(linked_meters(assignment.settings, link))
    return None


def linked_meters(settings: Mapping[str, Any], link: str) -> Iterator[Mapping[str, Any]]:
    """The settings of each meter that `settings` link to `link`, with its name (`meter`)."""
    found = settings.get("meters")
    for name, meter in found.items() if isinstance(found, Mapping) else ():
        if isinstance(meter, Mapping) and meter.get("link") == link:
            yield {**meter, "meter": name}


def difference(assigned: Mapping[str, Any], settings: Mapping[str, Any]) -> str | None:
    """The first setting (by name) in which a ruling's `settings` differ from the assignment's
    `assigned`, or None: each setting of the assignment but `EXEMPT`, in the same JSON (a
    number as written, true not 1), left out only where `OPTIONAL`."""
    for key in sorted(assigned):
        if key in EXEMPT or (key in OPTIONAL and key not in settings):
            continue
        if key not in settings or canonical_json(settings[key]) != canonical_json(assigned[key]):
            return key
    return None


def ruling_problem(assignment: Assignment, settings: Mapping[str, Any]) -> str | None:
    """Why a ruling with `settings` may not be recorded at the table of `assignment`: its
    settings differ (`difference`) and the assignment takes no rule change, or no supervisor
    is named as approving it; None when it may (the approver's countersignature and standing
    are checked where the ruling is recorded, and by verify)."""
    key = difference(assignment.settings, settings)
    if key is None:
        return None
    if assignment.forbids_changes():
        return (
            f"its settings.{key} differ from the assignment's, a rule change the profile "
            "forbids (rules.rule_changes: forbidden)"
        )
    if not settings.get(APPROVER):
        return (
            f"its settings.{key} differ from the assignment's, a rule change no supervisor approved"
        )
    return None


def check_ruling(made: Entry, assignment: Assignment | None) -> None:
    """AccessError unless the ruling `made` may be recorded at its table, whose assignment is
    `assignment` (None: never assigned), as read under the write lock (`ruling_problem`)."""
    if assignment is None or assignment.game != made.game:
        return
    why = ruling_problem(assignment, made.settings or {})
    if why is not None:
        raise AccessError(f"{assignment.said()}, and this ruling is not made under it: {why}")
