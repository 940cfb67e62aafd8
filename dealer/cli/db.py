"""`dealer db init`: set up a floor's shared PostgreSQL audit database."""

from __future__ import annotations

from typing import Annotated

import typer

from dealer.desk import database

app = typer.Typer(help="Set up a shared audit database.", no_args_is_help=True)


@app.command("init")
def init(
    url: Annotated[
        str,
        typer.Argument(
            help="postgresql://OWNER@HOST/DBNAME: the database, as its owner (may create roles)."
        ),
    ],
) -> None:
    """Create the audit log's schema in a PostgreSQL database, the terminals' role dealer_app
    and the read-only role dealer_auditor, with their grants; make its functions again; take
    CONNECT and TEMPORARY on the database from PUBLIC (only the two roles connect). Safe to run
    again: it also puts back functions and grants someone changed."""
    for line in database.init(url):
        typer.echo(line)
