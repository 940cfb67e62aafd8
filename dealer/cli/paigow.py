"""`dealer paigow …`: rank, compare, set and settle Emperor's Challenge Exposed hands."""

from __future__ import annotations

import inspect
from typing import TYPE_CHECKING, Annotated, Any

import typer

from dealer.cli import render
from dealer.cli.common import (
    Composite,
    Inputs,
    JsonFlag,
    OptionsMisused,
    at_desk,
    option,
    show,
    show_each,
)
from dealer.desk import paigow as desk_paigow
from dealer.desk.context import Desk, HouseRules
from dealer.kernel.errors import DealerError

if TYPE_CHECKING:
    from dealer.games.paigow.round_input import SeatWagers

app = typer.Typer(
    help="Emperor's Challenge Exposed (Pai Gow Poker with a joker).", no_args_is_help=True
)

Cards = Annotated[list[str] | None, typer.Argument(help="Cards, e.g. As Kd JK 10h 9c.")]


@app.command()
@at_desk()
def rank(
    desk: Desk,
    house: HouseRules,
    io: Inputs,
    cards: Cards = None,
) -> None:
    """Rank a five-card (high) or two-card (low) hand."""
    show_each(
        cards,
        io,
        lambda text: desk_paigow.rank(desk, house, text),
        render.rank_text,
    )


@app.command()
@at_desk()
def compare(
    desk: Desk,
    house: HouseRules,
    io: Inputs,
    first: Annotated[
        str | None, typer.Argument(help="First hand, quoted: 'As Ks Qs Js Ts'.")
    ] = None,
    second: Annotated[str | None, typer.Argument(help="Second hand, same size.")] = None,
) -> None:
    """Compare two hands of the same size; a copy (tie) gives winner null."""
    if (first or second) and not (first and second):
        raise DealerError("compare needs two hands, each quoted: 'As Ks Qs Js Ts' 'Ad Kd Qd Jd Td'")
    typed = f"{first} | {second}" if first and second else None
    show_each(
        typed,
        io,
        lambda text: desk_paigow.compare_line(desk, house, text),
        render.compare_text,
    )


HouseWayOption = Annotated[
    str | None,
    typer.Option(
        "--house-way",
        help="trump-plaza, foxwoods, or an approved file (dealer audit approve-house-way FILE); "
        "another than the table profile's is a rule change a supervisor approves (--supervisor, "
        "--pin).",
    ),
]
"""`--house-way` of `set` and `settle`, declared once."""


@app.command("set")
@at_desk()
def set_(
    desk: Desk,
    house: HouseRules,
    io: Inputs,
    cards: Cards = None,
    house_way: HouseWayOption = None,
) -> None:
    """Set seven cards by the House Way."""
    show_each(
        cards,
        io,
        lambda text: desk_paigow.set_hand(desk, house, text, house_way),
        render.set_text,
    )


@app.command()
@at_desk()
def bonus(
    desk: Desk,
    house: HouseRules,
    io: Inputs,
    cards: Cards = None,
) -> None:
    """The seven-card bonus events of a hand and the pay table rows they settle on."""
    show_each(
        cards,
        io,
        lambda text: desk_paigow.bonus(desk, house, text),
        render.bonus_text,
    )


def _seat_wagers() -> Composite:
    """The options of every wager a seat places, from the registry (`--wager` the base,
    `--insurance` and `--insurance-on-dealer`, `--treasure`, …): each amount read once, here."""
    placed = [w for w in desk_paigow.wagers() if w.terms.option]
    declarable = [w for w in placed if w.terms.on_dealer]
    options: list[inspect.Parameter] = []
    for w in placed:
        if w.bonus:
            amount = typer.Option(w.terms.option, help="A bonus wager (currency).")
            options.append(option(w.value, Annotated[str | None, amount]))
        else:
            base = typer.Option(w.terms.option, help="The base wager.")
            options.append(option(w.value, Annotated[str, base], inspect.Parameter.empty))
        if w in declarable:
            rides = f"{w.words.capitalize()} rides on the dealer's hand."
            declared = typer.Option(f"{w.terms.option}-on-dealer", help=rides)
            options.append(option(w.on_dealer_key, Annotated[bool, declared], False))

    def build(**typed: Any) -> SeatWagers:
        from dealer.inputs import money

        amounts = {
            w: money(typed[w.value], f"{w.words} wager" if w.bonus else "wager")
            for w in placed
            if typed[w.value] is not None
        }
        declared = [w for w in declarable if typed[w.on_dealer_key]]
        return desk_paigow.seat_wagers(amounts, declared)

    return Composite(tuple(options), build)


@app.command()
@at_desk(wagers=_seat_wagers)
def settle(
    desk: Desk,
    house: HouseRules,
    wagers: SeatWagers,
    dealer: Annotated[str, typer.Option("--dealer", help="The dealer's seven cards.")],
    player: Annotated[
        str | None, typer.Option("--player", help="The player's seven cards, set by the House Way.")
    ] = None,
    high: Annotated[str | None, typer.Option("--high", help="The player's five-card hand.")] = None,
    low: Annotated[str | None, typer.Option("--low", help="The player's two-card hand.")] = None,
    seat: Annotated[int, typer.Option("--seat", min=1, max=6, help="The seat (1-6).")] = 1,
    house_way: HouseWayOption = None,
    patron: Annotated[
        str | None, typer.Option("--patron", help="The player's patron id (kept on the record).")
    ] = None,
    as_json: JsonFlag = False,
) -> None:
    """Settle one seat against the dealer: the base wager and any bonus wagers."""
    from dealer.inputs import patron_id

    given = (player is not None, high is not None, low is not None)
    if given not in ((True, False, False), (False, True, True)):
        raise OptionsMisused("give --player CARDS, or --high CARDS and --low CARDS")
    recorded = desk_paigow.settle(
        desk,
        house,
        dealer,
        wagers,
        player=player,
        high=high,
        low=low,
        seat=seat,
        house_way=house_way,
        patron=None if patron is None else patron_id(patron),
    )
    show(recorded, as_json, render.settle_text)
