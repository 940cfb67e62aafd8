"""`dealer sign-in` and `dealer sign-out`: a dealer at a table, on the record, with their own
PIN."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from dealer.cli.common import DbOption, JsonFlag, UserOption, pin_or_ask
from dealer.desk.context import desk_for
from dealer.desk.sign_ins import sign_in, sign_out
from dealer.kernel.errors import DealerError

app = typer.Typer()

SignInTable = Annotated[
    str | None,
    typer.Option("--table", envvar="DEALER_TABLE", help="The table (table id) [env DEALER_TABLE]."),
]
OwnPin = Annotated[
    str | None,
    typer.Option("--pin", envvar="DEALER_PIN", help="Your own PIN (else asked, hidden)."),
]


@app.command("sign-in")
def sign_in_(
    table: SignInTable = None,
    user: UserOption = None,
    pin: OwnPin = None,
    as_json: JsonFlag = False,
    db: DbOption = None,
) -> None:
    """Sign in at a table with your PIN: from then on its rulings are yours, until you sign out,
    another dealer signs in there, you sign in at another table, or a shift's length (8 hours)
    passes. At a table a supervisor assigned, only the dealer signed in there rules."""
    if not table:
        raise DealerError("--table: name the table you deal at (or DEALER_TABLE)")
    desk = desk_for(db, user, table)
    made = sign_in(desk, pin_or_ask(pin, desk.user))
    until = made.until().strftime("%Y-%m-%d %H:%M:%S UTC")
    if as_json:
        typer.echo(
            json.dumps(
                {
                    "record_id": made.record_id,
                    "user": made.user_id,
                    "table": made.table_id,
                    "until": until,
                }
            )
        )
    else:
        typer.echo(
            f"{made.user_id} signed in at table {made.table_id} (record {made.record_id}), until "
            f"{until} at the latest."
        )


@app.command("sign-out")
def sign_out_(
    table: SignInTable = None,
    user: UserOption = None,
    pin: OwnPin = None,
    as_json: JsonFlag = False,
    db: DbOption = None,
) -> None:
    """Sign out of the table you are signed in at, with your PIN."""
    if not table:
        raise DealerError("--table: name the table you deal at (or DEALER_TABLE)")
    desk = desk_for(db, user, table)
    made = sign_out(desk, pin_or_ask(pin, desk.user))
    if as_json:
        typer.echo(json.dumps({"record_id": made, "user": desk.user, "table": desk.table}))
    else:
        typer.echo(f"{desk.user} signed out of table {desk.table} (record {made}).")
