"""A supervisor's decisions on the record: `dealer audit override`, `void`, `signoff`,
`approve-profile`, `approve-paytables`, `approve-house-way` and `approve-combinations`, each
signed by the supervisor."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from dealer import inputs
from dealer.cli.audit.log import app
from dealer.cli.audit.options import (
    SUPERVISOR,
    ReasonOption,
    Supervisor,
    answer,
)
from dealer.cli.common import (
    DbOption,
    JsonFlag,
    TableOption,
    composed,
)
from dealer.desk import supervision
from dealer.desk.context import LogLocation
from dealer.desk.supervision import RecordKind as Kind
from dealer.kernel.tuples import NamedTuple


@app.command()
@composed(who=SUPERVISOR)
def override(
    who: Supervisor,
    record_id: Annotated[int, typer.Argument(help="The ruling to override.")],
    decision: Annotated[str, typer.Option("--decision", help="What the supervisor ruled.")],
    reason: ReasonOption,
    result: Annotated[
        str | None, typer.Option("--result", help="The ruling as a JSON object (optional).")
    ] = None,
    as_json: JsonFlag = False,
    db: DbOption = None,
) -> None:
    """Override a ruling: a new record linked to it (the ruling itself is never changed)."""
    replacement = None if result is None else inputs.json_object(result, "--result")
    made = supervision.override(
        db,
        inputs.record_id(record_id),
        decision=inputs.text(decision, "--decision"),
        reason=inputs.text(reason, "--reason"),
        result=replacement,
        supervisor=who.user_id,
        pin=who.pin,
    )
    said = f"Override recorded as record {made} (overrides ruling {record_id})."
    answer(as_json, {"record_id": made, "overrides": record_id}, said)


@app.command()
@composed(who=SUPERVISOR)
def void(
    who: Supervisor,
    record_id: Annotated[int, typer.Argument(help="The ruling (or override) to void.")],
    reason: ReasonOption,
    as_json: JsonFlag = False,
    db: DbOption = None,
) -> None:
    """Void a ruling or an override: a new record linked to it."""
    made = supervision.void(
        db,
        inputs.record_id(record_id),
        reason=inputs.text(reason, "--reason"),
        supervisor=who.user_id,
        pin=who.pin,
    )
    answer(
        as_json,
        {"record_id": made, "voids": record_id},
        f"Void recorded as record {made} (voids record {record_id}).",
    )


@app.command()
@composed(who=SUPERVISOR)
def signoff(
    who: Supervisor,
    record_id: Annotated[int, typer.Argument(help="The ruling whose large pay to sign off.")],
    as_json: JsonFlag = False,
    db: DbOption = None,
) -> None:
    """Sign off a ruling that paid a seat more than the table's sign-off line (the profile's
    `signoff_over`): a `signoff` record linked to it."""
    made = supervision.sign_off(
        db, inputs.record_id(record_id), supervisor=who.user_id, pin=who.pin
    )
    answer(
        as_json,
        {"record_id": made, "signs_off": record_id},
        f"Sign-off recorded as record {made} (signs off ruling {record_id}).",
    )


FileArgument = Annotated[Path, typer.Argument(help="The file to approve.")]


def _approve(
    kind: Kind,
    who: Supervisor,
    file: Path,
    reason: str,
    table_id: str | None,
    db: LogLocation | None,
) -> supervision.Approval:
    return supervision.approve(
        db, kind, file, reason, supervisor=who.user_id, pin=who.pin, table_id=table_id or ""
    )


class _Approvable(NamedTuple):
    """One `audit approve-…` command: the approval record it makes, how its answer names what
    was approved (`what` in words, `key` in JSON: one name, or a list with `many`), its help."""

    kind: Kind
    command: str
    what: str
    key: str
    help: str
    many: bool = False


APPROVABLE = (
    _Approvable(
        Kind.PROFILE_CHANGE, "approve-profile", "Profile", "profile",
        "Approve a table profile (house rules) for use: checked, then recorded with its "
        "SHA-256, which every ruling made with it carries as settings.profile_sha256. A House "
        "Way file it names (rules.house_way) is approved with it as it is now: edited later, "
        "it is refused.",
    ),
    _Approvable(
        Kind.PAYTABLE_CHANGE, "approve-paytables", "Pay tables", "paytables",
        "Approve a pay-table file for use: checked, then recorded with its SHA-256.", many=True,
    ),
    _Approvable(
        Kind.HOUSE_WAY_CHANGE, "approve-house-way", "House Way", "house_way",
        "Approve a House Way file for use (dealer paigow settle --house-way FILE, a profile's "
        "rules.house_way): checked, then "
        "recorded with its SHA-256, which every ruling setting a hand by it carries as "
        "settings.house_way_sha256.",
    ),
    _Approvable(
        Kind.COMBINATIONS_CHANGE, "approve-combinations", "Combination table", "combinations",
        "Approve an Empire combination table file for use (dealer empire rank --combinations "
        "FILE): checked, then "
        "recorded with its SHA-256, which every ruling under it carries as "
        "settings.combinations_sha256.",
    ),
)  # fmt: skip
"""The rules files a supervisor approves, each by its own command (one way: `_approval`)."""


def _approval(approvable: _Approvable) -> None:
    """Mount the command that approves one kind of rules file."""

    @app.command(approvable.command, help=approvable.help)
    @composed(who=SUPERVISOR)
    def approve(
        who: Supervisor,
        file: FileArgument,
        reason: ReasonOption,
        as_json: JsonFlag = False,
        db: DbOption = None,
        table_id: TableOption = None,
    ) -> None:
        made, digest, names = _approve(approvable.kind, who, file, reason, table_id, db)
        said = f"{approvable.what} {', '.join(names)} approved as record {made} (sha256 {digest})."
        named = list(names) if approvable.many else names[0]
        answer(as_json, {"record_id": made, "sha256": digest, approvable.key: named}, said)


for _approvable in APPROVABLE:
    _approval(_approvable)
