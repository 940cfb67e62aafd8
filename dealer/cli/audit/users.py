"""`dealer audit user …`: register users, change their role or standing, list them."""

from __future__ import annotations

from typing import Annotated

import typer

from dealer import inputs
from dealer.cli.audit.options import (
    SUPERVISOR,
    NewPinOption,
    Supervisor,
    SupervisorOption,
    answer,
    echo_json,
    new_pin_or_ask,
    signer,
)
from dealer.cli.common import (
    DbOption,
    JsonFlag,
    PinOption,
    composed,
)
from dealer.cli.render import table
from dealer.desk import supervision
from dealer.desk.supervision import Role

app = typer.Typer(help="Users, roles and supervisor PINs.", no_args_is_help=True)


@app.command("add")
def user_add(
    user_id: Annotated[str, typer.Argument(help="The new user's id.")],
    role: Annotated[str, typer.Option("--role", help=" | ".join(Role))],
    new_pin: NewPinOption = None,
    supervisor: SupervisorOption = None,
    pin: PinOption = None,
    as_json: JsonFlag = False,
    db: DbOption = None,
) -> None:
    """Register a user (a supervisor action; the very first user bootstraps).

    On a database that never had a supervisor, the first user must be a supervisor and is
    registered without authorisation (recorded as a bootstrap); after that a supervisor's id
    and PIN are needed."""
    new_id = inputs.user_id(user_id)
    own = new_pin_or_ask(new_pin, new_id) if role == Role.SUPERVISOR or new_pin else None

    def credentials() -> tuple[str, str]:
        who = signer(supervisor, pin)
        return who.user_id, who.pin

    made, added, bootstrap = supervision.add_user(
        db, new_id, role, pin=own, supervisor=supervisor, credentials=credentials
    )
    said = (
        f"First supervisor {user_id} registered (bootstrap) as record {made}."
        if bootstrap
        else f"User {user_id} registered as {role} (record {made})."
    )
    data = {"record_id": made, "bootstrap": bootstrap} | (added.to_dict() if added else {})
    answer(as_json, data, said)


@app.command("set")
@composed(who=SUPERVISOR)
def user_set(
    who: Supervisor,
    user_id: Annotated[str, typer.Argument(help="The user to change.")],
    role: Annotated[str | None, typer.Option("--role", help=" | ".join(Role))] = None,
    active: Annotated[
        bool | None, typer.Option("--enable/--disable", help="Let the user act, or not.")
    ] = None,
    set_pin: Annotated[bool, typer.Option("--set-pin", help="Give the user a new PIN.")] = False,
    new_pin: NewPinOption = None,
    as_json: JsonFlag = False,
    db: DbOption = None,
) -> None:
    """Change a user's role, PIN, or enable/disable them (a supervisor action)."""
    changing = inputs.user_id(user_id)
    own = new_pin_or_ask(new_pin, changing) if set_pin or new_pin else None
    made, changed, _ = supervision.change_user(
        db,
        changing,
        role=role,
        pin=own,
        active=active,
        supervisor=who.user_id,
        supervisor_pin=who.pin,
    )
    answer(
        as_json,
        {"record_id": made} | (changed.to_dict() if changed else {}),
        f"User {user_id} changed (record {made}).",
    )


@app.command("list")
def user_list(as_json: JsonFlag = False, db: DbOption = None) -> None:
    """Registered users and their roles (never their PINs)."""
    found = supervision.list_users(db)
    if as_json:
        echo_json({"users": [u.to_dict() for u in found]})
        return
    if not found:
        typer.echo("No users registered: the first one is a supervisor (dealer audit user add).")
        return
    rows = [
        [u.user_id, u.role, "active" if u.active else "disabled", "yes" if u.has_pin else "no"]
        for u in found
    ]
    typer.echo(table(rows, ["user", "role", "status", "PIN"]))
