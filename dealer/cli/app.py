"""The `dealer` command: mounts each command group and guards the process boundary."""

from __future__ import annotations

import sys

import typer

from dealer import __version__
from dealer.cli import audit, paigow
from dealer.errors import DealerError

app = typer.Typer(
    help="dealer: rulings for casino table games, explained and on the record.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)
app.add_typer(paigow.app, name="paigow")
app.add_typer(audit.app, name="audit")


@app.callback()
def _root(
    version: bool = typer.Option(False, "--version", help="Show the version and exit."),
) -> None:
    if version:
        typer.echo(f"dealer {__version__}")
        raise typer.Exit()


def main() -> None:
    """Console-script entry point."""
    try:
        app()
    except DealerError as exc:  # a command that escaped its own boundary
        print(f"Error: {exc}", file=sys.stderr)
        sys.exit(1)
