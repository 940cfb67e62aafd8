"""A ruling's `--rule` changes, a `--house-way` other than the table profile's (recorded as
the change `house_way=NAME`), and at a table assigned a profile (`desk.assignments`) a
`--profile` of other text (recorded first as `profile=FILE`), decided before it is ruled:
refused where the table's profile forbids them (`rules.rule_changes: forbidden`); otherwise
approved by a supervisor's id and PIN. A new kind of change to a ruling's profile goes here.

Decisions: every profile a ruling may use is approved — the shipped default by the program's
release, any other by a supervisor's approval on the chain (`dealer.audit.approvals` refuses the
rest when the ruling is recorded) — so every change to it needs a supervisor, on a fresh log as
on an old one: a dealer alone can never seed a meter or change a pay for one ruling. The
supervisor is checked through `authority.countersigner` (a registered user's refusal is
recorded), named in the ruling's settings (`rule_changes_approved_by`) and signs each ruling
made with the change with the key their PIN opened (its `countersignature`, which verify
checks: a name alone fails); the change itself is still flagged (`settings.overrides`,
`rule changes:` in `audit show`, the shift summary). The demo and the analyses rule nothing
at a table and never come here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from dealer.desk.context import Desk, HouseRules, open_desk_log
from dealer.kernel.errors import DealerError

if TYPE_CHECKING:
    from dealer.games.paigow.profile import Profile

ACTION = "rule change"


def changed_profile(
    desk: Desk, house: HouseRules, table: Profile, profile: Profile
) -> tuple[Desk, Profile]:
    """The profile a ruling at `desk` is made under when it differs from the `table`'s (the
    table's assigned profile, or `house`'s file without its changes): `profile` (`house`
    loaded, with its changes: `--rule`, a `--house-way` other than the profile's, another
    `--profile` than the one assigned), its changes refused where the table's profile forbids
    them, else approved by the supervisor given (the approver recorded); and the desk to record
    at, carrying the approver who countersigns each ruling (`Desk.approver`). A House Way the
    changes name is read and checked first, as the ruling reads it."""
    from dealer.games.paigow.house_way import load_house_way
    from dealer.games.paigow.profile import PROFILE_CHANGE

    load_house_way(profile.house_way)
    if profile.overrides[0].startswith(PROFILE_CHANGE):
        option, changes = "--profile", f"--profile {house.profile}"
    elif house.rules:
        option = changes = "--rule"
    else:
        option, changes = "--house-way", f"--house-way {house.house_way}"
    if table.rule_changes == "forbidden":
        raise DealerError(
            f"{option}: the table profile {table.name} forbids rule changes "
            f"(rules.rule_changes: forbidden); rule without {option}"
        )
    if not house.supervisor:
        raise DealerError(
            f"{changes} changes the table profile {table.name}: a supervisor approves the "
            "change with --supervisor ID and --pin"
        )
    from dealer.audit.authority import countersigner

    with open_desk_log(desk.db) as log:
        who = countersigner(log, house.supervisor, house.pin or "", ACTION, typer=desk.user)
    return desk._replace(approver=who), profile._replace(approved_by=who.user_id)
