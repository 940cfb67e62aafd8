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
    ask_hidden,
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

    made, added, bootstrap, recovery = supervision.add_user(
        db, new_id, role, pin=own, supervisor=supervisor, credentials=credentials
    )
    said = (
        f"First supervisor {user_id} registered (bootstrap) as record {made}.\n"
        + _recovery_said(recovery)
        if bootstrap and recovery
        else f"User {user_id} registered as {role} (record {made})."
    )
    data = {"record_id": made, "bootstrap": bootstrap} | (added.to_dict() if added else {})
    answer(as_json, data | ({"recovery_key": recovery} if recovery else {}), said)


def _recovery_said(recovery: str) -> str:
    """The operator's recovery key, shown this once."""
    return (
        f"Operator's recovery key (shown once, never stored; keep it offline, sealed): {recovery}\n"
        "Whoever holds it can register a supervisor (dealer audit user recover) when every "
        "supervisor has forgotten their PIN."
    )


@app.command("recover")
def user_recover(
    user_id: Annotated[str, typer.Argument(help="The supervisor to register or restore.")],
    recovery_key: Annotated[
        str | None,
        typer.Option(
            "--recovery-key",
            envvar="DEALER_RECOVERY_KEY",
            help="The operator's recovery key (64 hex digits, printed when it was made; else "
            "asked, hidden).",
        ),
    ] = None,
    new_pin: NewPinOption = None,
    as_json: JsonFlag = False,
    db: DbOption = None,
) -> None:
    """Register a supervisor with the operator's recovery key, when every supervisor has
    forgotten their PIN (or is disabled).

    The user becomes an active supervisor with the new PIN (a new user is registered; a
    registered one is restored). The key typed is spent: a new recovery key is shown once.
    On PostgreSQL run it logged in as that supervisor or as the database owner."""
    new_id = inputs.user_id(user_id)
    if recovery_key is None:
        give = "--recovery-key (or DEALER_RECOVERY_KEY)"
        recovery_key = ask_hidden("Operator's recovery key", give)
    own = new_pin_or_ask(new_pin, new_id)
    made, changed, _, recovery = supervision.recover(db, new_id, pin=own, recovery_key=recovery_key)
    said = f"Supervisor {user_id} registered with the recovery key (record {made}).\n"
    data = {"record_id": made} | (changed.to_dict() if changed else {})
    answer(as_json, data | {"recovery_key": recovery}, said + _recovery_said(recovery or ""))


@app.command("recovery-key")
@composed(who=SUPERVISOR)
def user_recovery_key(who: Supervisor, as_json: JsonFlag = False, db: DbOption = None) -> None:
    """Make a new operator's recovery key (a supervisor action); the old one no longer works.

    For a log bootstrapped before recovery keys, or when the key may have been seen."""
    made, _, _, recovery = supervision.new_recovery_key(
        db, supervisor=who.user_id, supervisor_pin=who.pin
    )
    said = f"New recovery key recorded (record {made}).\n" + _recovery_said(recovery or "")
    answer(as_json, {"record_id": made, "recovery_key": recovery}, said)


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
    made, changed, _, _ = supervision.change_user(
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
