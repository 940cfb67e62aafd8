"""`dealer round FILE` and `dealer demo`: a whole Emperor's Challenge table round at once."""

from __future__ import annotations

import secrets
from typing import Annotated

import typer

from dealer.cli import render
from dealer.cli.common import (
    DbOption,
    JsonFlag,
    ProfileOption,
    RuleOption,
    TableOption,
    UserOption,
    show,
)
from dealer.desk import paigow as desk_paigow
from dealer.desk.context import HouseRules, desk_for
from dealer.inputs import text_or_stdin

app = typer.Typer()


@app.command("round")
def round_(
    file: Annotated[str, typer.Argument(help="A round file (YAML or JSON); '-' for stdin.")],
    as_json: JsonFlag = False,
    profile: ProfileOption = None,
    rule: RuleOption = None,
    db: DbOption = None,
    user: UserOption = None,
    table: TableOption = None,
) -> None:
    """Settle a whole table round: every seat's base and bonus wagers, Envy, progressives."""
    text, origin = text_or_stdin(file, "round file")
    recorded = desk_paigow.play_round(
        desk_for(db, user, table), HouseRules.of(profile, rule), text, origin
    )
    show(recorded, as_json, render.round_text)


@app.command()
def demo(
    seed: Annotated[int | None, typer.Option("--seed", help="Deal this shuffle again.")] = None,
    as_json: JsonFlag = False,
    profile: ProfileOption = None,
    rule: RuleOption = None,
    db: DbOption = None,
    user: UserOption = None,
    table: TableOption = None,
) -> None:
    """Deal, set, settle and log a random round of six seats with sample wagers."""
    chosen = seed if seed is not None else secrets.randbelow(10**6)
    desk = desk_for(db, user, table, default_table=desk_paigow.DEMO_TABLE)
    if not as_json:
        typer.echo(f"demo round, seed {chosen} (dealer demo --seed {chosen} deals it again)")
    show(desk_paigow.demo(desk, HouseRules.of(profile, rule), chosen), as_json, render.round_text)
