"""`dealer floor`: what a supervisor decides for the floor's tables: `assign` a table its
profile (a signed record), and list the `assignments` in force."""

from __future__ import annotations

from typing import Annotated

import typer

from dealer import inputs
from dealer.cli.audit.options import SUPERVISOR, Supervisor, answer, echo_json, utc_time
from dealer.cli.common import DbOption, JsonFlag, composed
from dealer.desk import assignments

app = typer.Typer(
    help="The floor's tables: the profile each is assigned, by a supervisor's signed record.",
    no_args_is_help=True,
)


@app.command()
@composed(who=SUPERVISOR)
def assign(
    who: Supervisor,
    table: Annotated[str, typer.Argument(help="The table to assign (its id: PG-3).")],
    profile: Annotated[
        str,
        typer.Option(
            "--profile",
            help="The table profile: 'default' (the shipped one), or a YAML file approved for "
            "this table or every table (dealer audit approve-profile).",
        ),
    ],
    reason: Annotated[
        str | None, typer.Option("--reason", help="Why (said on the record).")
    ] = None,
    as_json: JsonFlag = False,
    db: DbOption = None,
) -> None:
    """Assign a table its profile (house rules): a signed record of yours, from which every Pai
    Gow ruling at the table is made under that profile (its House Way, pay tables, meters,
    limits and sign-off line), with no profile named. A ruling there under another profile, a
    changed setting or another House Way is a rule change: a supervisor approves it with their
    PIN, or it is refused where the profile forbids rule changes. Reassigning is a new record;
    a table once assigned stays assigned (reassign it to 'default')."""
    said = None if reason is None else inputs.text(reason, "--reason")
    made = assignments.assign(db, table, profile, said, supervisor=who.user_id, pin=who.pin)
    answer(
        as_json,
        {
            "record_id": made.record_id,
            "table": made.table_id,
            "profile": made.profile,
            "sha256": made.sha256,
        },
        f"Table {made.table_id} assigned the profile {made.profile} as record {made.record_id} "
        f"(sha256 {made.sha256}).",
    )


@app.command("assignments")
def list_assignments(
    table: Annotated[str | None, typer.Option("--table", help="Only this table.")] = None,
    as_json: JsonFlag = False,
    db: DbOption = None,
) -> None:
    """The profile each assigned table is ruled under: the assignment in force (the newest),
    who made it and when. A table not listed was never assigned: it rules under the profile
    each ruling names."""
    from dealer.cli.render import short_hash
    from dealer.cli.render import table as shown

    chosen = None if table is None else inputs.table_id(table)
    found = assignments.list_assignments(db, chosen)
    if as_json:
        listed = [
            {
                "table": a.table_id,
                "profile": a.profile,
                "profile_source": a.source,
                "sha256": a.sha256,
                "record_id": a.record_id,
                "assigned_by": a.made_by,
                "assigned_at": a.recorded_at,
            }
            for a in found
        ]
        echo_json({"count": len(listed), "assignments": listed})
        return
    if not found:
        typer.echo("No table is assigned a profile.")
        return
    rows = [
        [
            a.table_id,
            a.profile,
            short_hash(a.sha256),
            a.record_id,
            a.made_by,
            utc_time(a.recorded_at),
        ]
        for a in found
    ]
    typer.echo(shown(rows, ["table", "profile", "sha256", "record", "by", "at"]))
