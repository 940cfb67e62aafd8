"""`dealer round FILE` and `dealer demo`: a whole Emperor's Challenge table round at once."""

from __future__ import annotations

import secrets
from decimal import Decimal
from pathlib import Path
from typing import Annotated, Any

import typer

from dealer.cli import render
from dealer.cli.common import (
    DbOption,
    Desk,
    JsonFlag,
    ProfileOption,
    RuleOption,
    TableOption,
    UserOption,
    emit,
    profile_of,
)
from dealer.desk.context import desk_for
from dealer.desk.recording import record_with_meters
from dealer.games.paigow import seat_rulings
from dealer.games.paigow.bonus import Meters
from dealer.games.paigow.demo import deal_demo_round
from dealer.games.paigow.profile import Profile
from dealer.games.paigow.table_round import PROGRESSIVE_METERS, starting_meters
from dealer.kernel.errors import DealerError
from dealer.kernel.ruling import Ruling

app = typer.Typer()


def _settle(raw: Any, typed: str, prof: Profile, desk: Desk, as_json: bool) -> None:
    table = raw.get("table") if isinstance(raw, dict) else None
    if table is not None:
        desk = Desk(desk.db, desk.user, str(table))

    def rule_round(stored: dict[str, Decimal | None]) -> tuple[Ruling, Meters]:
        return seat_rulings.round_ruling(raw, typed, prof, starting_meters(stored, prof))

    ruling_id, ruling = record_with_meters(desk, PROGRESSIVE_METERS, rule_round)
    emit(ruling, ruling_id, as_json, render.round_text)


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
    if file == "-":
        import sys

        text, origin = sys.stdin.read(), "stdin"
    else:
        try:
            text, origin = Path(file).read_text(encoding="utf-8"), file
        except OSError as exc:
            raise DealerError(f"cannot read round file {file}: {exc.strerror}") from None
    raw = seat_rulings.read_round_text(text, origin)
    _settle(raw, text, profile_of(profile, rule), desk_for(db, user, table), as_json)


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
    desk = desk_for(db, user, table, default_table="DEMO")
    raw = deal_demo_round(chosen, desk.table)
    if not as_json:
        typer.echo(f"demo round, seed {chosen} (dealer demo --seed {chosen} deals it again)")
    _settle(raw, f"dealer demo --seed {chosen}", profile_of(profile, rule), desk, as_json)
