"""`dealer paigow …`: rank, compare, set and settle Emperor's Challenge Exposed hands."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from typing import TYPE_CHECKING, Annotated

import typer

from dealer.cli import render
from dealer.cli.common import (
    BatchOption,
    DbOption,
    Desk,
    JsonFlag,
    ProfileOption,
    RuleOption,
    TableOption,
    UserOption,
    emit,
    profile_of,
    rule_inputs,
)
from dealer.desk.context import desk_for
from dealer.desk.recording import record_with_meters
from dealer.games.paigow import rulings
from dealer.inputs import money
from dealer.kernel.errors import DealerError
from dealer.kernel.ruling import Ruling

if TYPE_CHECKING:
    from dealer.games.paigow.bonus import Meters

app = typer.Typer(
    help="Emperor's Challenge Exposed (Pai Gow Poker with a joker).", no_args_is_help=True
)

Cards = Annotated[list[str] | None, typer.Argument(help="Cards, e.g. As Kd JK 10h 9c.")]


def _rule_cards(
    cards: list[str] | None,
    batch: str | None,
    rule_text: Callable[[str], Ruling],
    desk: Desk,
    as_json: bool,
    human: Callable[[Ruling], str],
) -> None:
    rule_inputs(" ".join(cards) if cards else None, batch, rule_text, desk, as_json, human)


@app.command()
def rank(
    cards: Cards = None,
    as_json: JsonFlag = False,
    batch: BatchOption = None,
    profile: ProfileOption = None,
    rule: RuleOption = None,
    db: DbOption = None,
    user: UserOption = None,
    table: TableOption = None,
) -> None:
    """Rank a five-card (high) or two-card (low) hand."""
    prof = profile_of(profile, rule)
    _rule_cards(
        cards,
        batch,
        lambda text: rulings.rank_ruling(text, prof),
        desk_for(db, user, table),
        as_json,
        render.rank_text,
    )


@app.command()
def compare(
    first: Annotated[
        str | None, typer.Argument(help="First hand, quoted: 'As Ks Qs Js Ts'.")
    ] = None,
    second: Annotated[str | None, typer.Argument(help="Second hand, same size.")] = None,
    as_json: JsonFlag = False,
    batch: BatchOption = None,
    profile: ProfileOption = None,
    rule: RuleOption = None,
    db: DbOption = None,
    user: UserOption = None,
    table: TableOption = None,
) -> None:
    """Compare two hands of the same size; a copy (tie) gives winner null."""
    prof = profile_of(profile, rule)

    def rule_line(text: str) -> Ruling:
        a, b = rulings.batch_line_cards(text)
        return rulings.compare_ruling(a, b, prof)

    if (first or second) and not (first and second):
        raise DealerError("compare needs two hands, each quoted: 'As Ks Qs Js Ts' 'Ad Kd Qd Jd Td'")
    typed = f"{first} | {second}" if first and second else None
    rule_inputs(typed, batch, rule_line, desk_for(db, user, table), as_json, render.compare_text)


@app.command("set")
def set_(
    cards: Cards = None,
    house_way: Annotated[
        str | None, typer.Option("--house-way", help="trump-plaza, foxwoods, or a file.")
    ] = None,
    as_json: JsonFlag = False,
    batch: BatchOption = None,
    profile: ProfileOption = None,
    rule: RuleOption = None,
    db: DbOption = None,
    user: UserOption = None,
    table: TableOption = None,
) -> None:
    """Set seven cards by the House Way."""
    prof = profile_of(profile, rule)
    _rule_cards(
        cards,
        batch,
        lambda text: rulings.set_ruling(text, prof, house_way),
        desk_for(db, user, table),
        as_json,
        render.set_text,
    )


@app.command()
def bonus(
    cards: Cards = None,
    as_json: JsonFlag = False,
    batch: BatchOption = None,
    profile: ProfileOption = None,
    rule: RuleOption = None,
    db: DbOption = None,
    user: UserOption = None,
    table: TableOption = None,
) -> None:
    """The seven-card bonus events of a hand and the pay table rows they settle on."""
    prof = profile_of(profile, rule)
    _rule_cards(
        cards,
        batch,
        lambda text: rulings.bonus_ruling(text, prof),
        desk_for(db, user, table),
        as_json,
        render.bonus_text,
    )


Amount = Annotated[str | None, typer.Option(help="A bonus wager (currency).")]


@app.command()
def settle(
    dealer: Annotated[str, typer.Option("--dealer", help="The dealer's seven cards.")],
    wager: Annotated[str, typer.Option("--wager", help="The base wager.")],
    player: Annotated[
        str | None, typer.Option("--player", help="The player's seven cards, set by the House Way.")
    ] = None,
    high: Annotated[str | None, typer.Option("--high", help="The player's five-card hand.")] = None,
    low: Annotated[str | None, typer.Option("--low", help="The player's two-card hand.")] = None,
    treasure: Amount = None,
    insurance: Amount = None,
    insurance_on_dealer: Annotated[
        bool, typer.Option("--insurance-on-dealer", help="Insurance rides on the dealer's hand.")
    ] = False,
    progressive_treasure: Amount = None,
    progressive_insurance: Amount = None,
    seat: Annotated[int, typer.Option("--seat", min=1, max=6, help="The seat (1-6).")] = 1,
    house_way: Annotated[
        str | None, typer.Option("--house-way", help="trump-plaza, foxwoods, or a file.")
    ] = None,
    as_json: JsonFlag = False,
    profile: ProfileOption = None,
    rule: RuleOption = None,
    db: DbOption = None,
    user: UserOption = None,
    table: TableOption = None,
) -> None:
    """Settle one seat against the dealer: the base wager and any bonus wagers."""
    from dealer.games.paigow import seat_rulings
    from dealer.games.paigow.table_round import PROGRESSIVE_METERS, starting_meters

    if (player is None) == (high is None and low is None):
        raise typer.BadParameter("give --player CARDS, or --high CARDS and --low CARDS")
    prof = profile_of(profile, rule)
    bonus = seat_rulings.BonusWagers(
        treasure=_amount(treasure, "treasure"),
        insurance=_amount(insurance, "insurance"),
        insurance_on_dealer=insurance_on_dealer,
        progressive_treasure=_amount(progressive_treasure, "progressive treasure"),
        progressive_insurance=_amount(progressive_insurance, "progressive insurance"),
    )

    def rule_seat(stored: dict[str, Decimal | None]) -> tuple[Ruling, Meters]:
        return seat_rulings.settle_ruling(
            dealer,
            money(wager),
            prof,
            starting_meters(stored, prof),
            player=player,
            high=high,
            low=low,
            house_way=house_way,
            bonus=bonus,
            seat=seat,
        )

    desk = desk_for(db, user, table)
    ruling_id, ruling = record_with_meters(desk, PROGRESSIVE_METERS, rule_seat)
    emit(ruling, ruling_id, as_json, render.settle_text)


def _amount(text: str | None, what: str) -> Decimal | None:
    return None if text is None else money(text, f"{what} wager")
