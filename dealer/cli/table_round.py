"""`dealer round FILE` and `dealer demo`: a whole Emperor's Challenge table round at once."""

from __future__ import annotations

import secrets
from typing import Annotated

import typer

from dealer.cli import render
from dealer.cli.common import JsonFlag, at_desk, show
from dealer.desk import paigow as desk_paigow
from dealer.desk.context import DEMO_TABLE, Desk, HouseRules
from dealer.inputs import ROUND_FILE_LIMIT, text_or_stdin

app = typer.Typer()


@app.command("round")
@at_desk()
def round_(
    desk: Desk,
    house: HouseRules,
    file: Annotated[str, typer.Argument(help="A round file (YAML or JSON); '-' for stdin.")],
    as_json: JsonFlag = False,
) -> None:
    """Settle a whole table round: every seat's base and bonus wagers, Envy, progressives."""
    text, origin = text_or_stdin(file, "round file", ROUND_FILE_LIMIT)
    show(desk_paigow.play_round(desk, house, text, origin), as_json, render.round_text)


@app.command()
@at_desk(own_table=DEMO_TABLE)
def demo(
    desk: Desk,
    house: HouseRules,
    seed: Annotated[int | None, typer.Option("--seed", help="Deal this shuffle again.")] = None,
    as_json: JsonFlag = False,
) -> None:
    """Deal, set, settle and log a random round of six seats with sample wagers, at the demo's
    own table DEMO (never a real table's meters: --table refused, DEALER_TABLE not used)."""
    chosen = seed if seed is not None else secrets.randbelow(10**6)
    dealt = desk_paigow.demo(desk, house, chosen)  # refused before a word is printed
    if not as_json:
        typer.echo(f"demo round, seed {chosen} (dealer demo --seed {chosen} deals it again)")
    show(dealt, as_json, render.round_text)
