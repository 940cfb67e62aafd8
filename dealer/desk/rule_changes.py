"""A ruling's `--rule` changes, decided before it is ruled: refused where the table's profile
forbids them (`rules.rule_changes: forbidden`); approved by a supervisor's id and PIN where the
profile in use is an approved one; flagged only otherwise.

Decisions: a profile is approved at a table when the log holds a `profile-change` approval of
its text (the same SHA-256 the ruling records as `profile_sha256`) for that table or for every
table (an approval without `--table`). Without one (a fresh log, a profile nobody approved)
there is nothing a change deviates from on the record and maybe no supervisor registered yet,
so the ruling is made as before: its changes are flagged (`settings.overrides`, `rule
changes:` in `audit show`, the shift summary). The supervisor is checked through
`authority.authenticate` (a registered user's refusal is recorded) and named in the ruling's
settings (`rule_changes_approved_by`). The demo and the analyses rule nothing at a table and
never come here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from dealer.desk.context import Desk, HouseRules, open_log
from dealer.kernel.errors import DealerError

if TYPE_CHECKING:
    from dealer.games.paigow.profile import Profile

ACTION = "rule change"


def ruling_profile(desk: Desk, house: HouseRules) -> Profile:
    """The profile a ruling at `desk` is made under: `house` loaded, its `--rule` changes
    refused, approved (the approver recorded) or flagged as the table's profile has it."""
    profile = house.load()
    if not house.rules:
        return profile
    table = house._replace(rules=(), supervisor=None, pin=None).load()
    if table.rule_changes == "forbidden":
        raise DealerError(
            f"--rule: the table profile {table.name} forbids rule changes "
            "(rules.rule_changes: forbidden); rule without --rule"
        )
    if not _approved(desk, table.sha256):
        return profile
    if not house.supervisor:
        raise DealerError(
            f"--rule changes the approved profile {table.name}: a supervisor approves the "
            "change with --supervisor ID and --pin"
        )
    from dealer.audit.authority import authenticate

    with open_log(desk.db) as log:
        who = authenticate(log, house.supervisor, house.pin or "", ACTION)
    return profile._replace(approved_by=who.user_id)


def _approved(desk: Desk, sha256: str) -> bool:
    """True when the log at the desk holds an approval of the profile text `sha256` for the
    desk's table or for every table."""
    from dealer.audit.records import PROFILE_CHANGE, RecordFilter

    if not desk.db.is_file() or desk.db.stat().st_size == 0:
        return False  # a new log: nothing approved yet
    with open_log(desk.db, read_only=True) as log:
        return any(
            r.result.get("sha256") == sha256 and r.table_id in ("", desk.table)
            for r in log.records(RecordFilter(kind=PROFILE_CHANGE))
        )
