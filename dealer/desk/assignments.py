"""Which profile a table is approved for: a supervisor assigns it (`dealer floor assign`), and
every Pai Gow ruling at the table is then made under that profile.

`assign` checks the profile (the shipped default by name, `default`, or a file) as a ruling
would read it, with the documents it names (its House Way and pay tables), and that each is
shipped or approved for the table or every table (`audit.approvals`); then records the
assignment, signed (`audit.assignments`). A ruling at an assigned table (`ruling_profile`) is
made under the assigned profile, read from the text the approval holds (or the shipped
default), never a file on the terminal's disk; another profile (`--profile` naming a file of
other text), a `--rule` or another `--house-way` is a rule change (`rule_changes`), refused
where the assigned profile forbids them. The meters of an assigned table are its profile's
(`table_profile`). A table never assigned, and a ruling at no table, rule as before.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from dealer.audit import assignments
from dealer.audit.assignments import Assignment
from dealer.desk.context import Desk, HouseRules, LogLocation, log_location, open_desk_log
from dealer.kernel.errors import DealerError
from dealer.kernel.tuples import NamedTuple

if TYPE_CHECKING:
    from dealer.audit.storage import Reads, Storage
    from dealer.games.paigow.profile import Profile

__all__ = ["Assigned", "Assignment", "assign", "assigned", "list_assignments", "table_profile"]

GAME = "paigow"
DEFAULT = "default"
"""How `dealer floor assign --profile` names the shipped default profile (a file named so is
`./default`)."""


class Assigned(NamedTuple):
    """A table's assignment, with its profile read from the text the assignment names (the
    approval record's, or the shipped default's: `text` None)."""

    assignment: Assignment
    text: str | None
    profile: Profile

    def ruling(self, house: HouseRules) -> Profile:
        """The profile a ruling at the table is made under with `house`'s options: the assigned
        one, a `--profile` file of the same text alike; another file is a change to it
        (`profile=FILE` first in the overrides); then `--rule` and `--house-way` changes."""
        from dealer.games.paigow.profile import PROFILE_CHANGE, load_profile, profile_of_text

        if house.profile is None:
            return profile_of_text(self.text, self.profile.source, house.rules, house.house_way)
        given = load_profile(house.profile, house.rules, house.house_way)
        if given.sha256 == self.profile.sha256:
            return given
        return given._replace(overrides=(f"{PROFILE_CHANGE}{given.source}", *given.overrides))


def assigned(reads: Reads, table: str) -> Assigned | None:
    """The assignment of `table` (for Pai Gow) and its profile; None when it has none."""
    from dealer.audit.approvals import approved_text
    from dealer.audit.records import RecordKind
    from dealer.games.paigow.profile import load_profile, profile_of_text

    found = assignments.assigned(reads, table)
    if found is None or found.game != GAME:
        return None
    shipped = load_profile()
    if found.sha256 == shipped.sha256:
        return Assigned(found, None, shipped)
    text = approved_text(reads, RecordKind.PROFILE_CHANGE, found.sha256)
    if text is None:
        raise DealerError(
            f"{found.said()}, whose text no approval on the log holds (sha256 "
            f"{found.sha256[:12]}…): run dealer audit verify"
        )
    return Assigned(found, text, profile_of_text(text, found.source))


@contextmanager
def table_log(desk: Desk) -> Iterator[Storage | None]:
    """The desk's log, opened once for a ruling at its table: the table's assignment read from
    it (`assigned`), then the ruling recorded into it (`recording.record`); None at no table,
    or where there is no log yet (nothing is read, nothing made: the ruling makes it)."""
    where = log_location(desk.db)
    if not desk.table or (isinstance(where, Path) and not where.exists()):
        yield None
        return
    with open_desk_log(desk.db) as log:
        yield log


def table_profile(db: LogLocation | None, table: str, house: HouseRules) -> Profile:
    """The profile `table` is ruled under, for a supervisor's command on it (its meters, its
    shift summary's sign-off line): the assigned one (a `--profile` of other text, or a
    `--rule`, is refused), else `house`'s."""
    with open_desk_log(db, read_only=True) as log:
        found = assigned(log, table)
    if found is None:
        return house.load()
    other = house.profile is not None and house.load().sha256 != found.profile.sha256
    for option, given in (("--profile", other), ("--rule", bool(house.rules))):
        if given:
            raise DealerError(
                f"{option}: {found.assignment.said()}: the table is ruled under that profile "
                f"(leave out {option})"
            )
    return found.profile


def assign(
    db: LogLocation | None,
    table: str,
    profile: str,
    reason: str | None,
    *,
    supervisor: str,
    pin: str,
) -> Assignment:
    """Assign `table` the profile `profile` (`default`, or a file), for Pai Gow: its documents
    checked as a ruling reads them, and approved for the table (or every table); the
    supervisor's PIN checked and the record signed. The demo's own table is never assigned."""
    from dealer import inputs
    from dealer.audit import approvals
    from dealer.desk.context import DEMO_TABLE
    from dealer.games.paigow.house_way import load_house_way
    from dealer.games.paigow.profile import load_profile
    from dealer.games.paigow.seat_rulings import round_settings

    table_id = inputs.table_id(table)
    if table_id == DEMO_TABLE:
        raise DealerError(f"table {DEMO_TABLE} is the demo's own: it is never assigned a profile")
    read = load_profile(None if profile == DEFAULT else Path(profile))
    settings = round_settings(read, load_house_way(read.house_way))
    made = assignments.entry(
        table_id, GAME, (read.name, read.source, read.sha256), settings, supervisor, reason
    )
    with open_desk_log(db) as log:
        approvals.check_documents(log, table_id, settings)
        record = log.record(assignments.assign(log, made, pin))
    found = None if record is None else Assignment.of(record)
    assert found is not None, "an assignment just appended reads back as one"
    return found


def list_assignments(db: LogLocation | None, table: str | None = None) -> list[Assignment]:
    """Each assigned table's assignment (`table`: that table's only), by table."""
    with open_desk_log(db, read_only=True) as log:
        found = assignments.every_table(log)
    return [a for a in found if table is None or a.table_id == table]
