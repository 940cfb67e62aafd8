"""`dealer genpoker …`: rank and compare Genpoker hands, and run a draw round from stdin."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Annotated, Any

import typer

from dealer.cli import render
from dealer.cli.common import (
    Inputs,
    JsonFlag,
    SeedOption,
    at_desk,
    emit_event,
    emit_said,
    hands_line,
    run_turns,
    show_each,
)
from dealer.desk.context import Desk
from dealer.desk.games import genpoker_compare, genpoker_rank
from dealer.desk.live import Said, genpoker_draw
from dealer.kernel.ruling import Ruling

if TYPE_CHECKING:
    from dealer.games.genpoker.draw import DrawRound
    from dealer.games.genpoker.session import DrawReply

app = typer.Typer(
    help="Genpoker: the 64-card Six Generations deck, where lower numbers win.",
    no_args_is_help=True,
)

Hands = Annotated[
    list[str] | None,
    typer.Argument(help="Hands, each quoted ('1R 2B 3R1 4R1 5R1'), or separated by '|'."),
]


def _describe(hand: Mapping[str, Any]) -> str:
    """`pair (pair 5, lowest other card 1, sum of all five 22)`."""
    items = ", ".join(f"{t['name']} {t['value']}" for t in hand["tiebreak"])
    return f"{hand['category']} ({items})" if items else str(hand["category"])


def _seat(index: int | None) -> int | None:
    """A seat index as people count seats (from 1)."""
    return None if index is None else index + 1


def rank_text(ruling: Ruling) -> str:
    """`dealer genpoker rank`."""
    hand = ruling.result
    body = render.table([[" ".join(hand["cards"]), _describe(hand)]], ["cards", "hand"])
    return f"{body}\n{render.reasons(ruling)}"


def compare_text(ruling: Ruling) -> str:
    """`dealer genpoker compare`."""
    winners = ruling.result["winners"]
    verdict = render.verdict(winners)
    rows = [
        [f"hand {i + 1}", " ".join(h["cards"]), _describe(h), verdict if i in winners else ""]
        for i, h in enumerate(ruling.result["hands"])
    ]
    return f"{render.table(rows, ['', 'cards', 'hand', ''])}\n{render.reasons(ruling)}"


def draw_text(ruling: Ruling) -> str:
    """The showdown of `dealer genpoker draw`."""
    r = ruling.result
    verdict = render.verdict(r["winners"])
    rows = []
    for seat, hand in enumerate(r["hands"]):
        share = f" {r['shares'][seat]}" if r["pot"] else ""
        outcome = f"{verdict}{share}" if seat in r["winners"] else ""
        rows.append([f"seat {seat + 1}", " ".join(hand["cards"]), _describe(hand), outcome])
    return f"{render.table(rows, ['', 'hand', 'rank', ''])}\n{render.reasons(ruling)}"


@app.command()
@at_desk()
def rank(
    desk: Desk,
    io: Inputs,
    cards: Annotated[
        list[str] | None, typer.Argument(help="Five cards, e.g. 1R 3B2 4R1 6R7 6B7.")
    ] = None,
) -> None:
    """Rank a five-card hand: its category (18 ranks, best first) and tie-break values."""
    show_each(cards, io, genpoker_rank(desk), rank_text)


@app.command()
@at_desk()
def compare(
    desk: Desk,
    io: Inputs,
    hands: Hands = None,
) -> None:
    """Compare two or more hands: the winner, or several winners splitting the pot."""
    show_each(hands_line(hands), io, genpoker_compare(desk), compare_text)


def _show_turn(state: DrawRound, as_json: bool) -> None:
    seat = state.to_act
    if seat is None:
        return
    hand = [str(c) for c in state.hand(seat)]
    if as_json:
        emit_event("turn", seat=seat + 1, hand=hand)
    else:
        typer.echo(f"Seat {seat + 1} holds {' '.join(hand)}.")


def _show_draw(state: DrawRound, seat: int, as_json: bool) -> None:
    step = state.draws[seat]
    hand = [str(c) for c in state.hand(seat)]
    if as_json:
        emit_event(
            "draw",
            seat=seat + 1,
            discarded=[str(c) for c in step.discarded],
            drawn=[str(c) for c in step.drawn],
            hand=hand,
        )
    elif step.discarded:
        thrown = " ".join(str(c) for c in step.discarded)
        drawn = " ".join(str(c) for c in step.drawn)
        typer.echo(f"Seat {seat + 1} discards {thrown}, draws {drawn}: {' '.join(hand)}.")
    else:
        typer.echo(f"Seat {seat + 1} stands pat: {' '.join(hand)}.")


@app.command()
@at_desk()
def draw(
    desk: Desk,
    players: Annotated[int, typer.Option("--players", min=2, max=8, help="Players (2-8).")],
    seed: SeedOption = None,
    pot: Annotated[int, typer.Option("--pot", min=0, help="Chips in the pot.")] = 0,
    as_json: JsonFlag = False,
) -> None:
    """Play a draw round, move by move from stdin, to a recorded showdown.

    Five cards each; each seat in turn types 'discard CARDS' (up to three) or 'stand'.

    A move may start with 'seat N'. Equal best hands split the pot."""
    session = genpoker_draw(desk, players, seed, pot)
    start = session.state
    if as_json:
        emit_event(
            "deal", players=players, seed=start.seed, pot=pot, to_act=_seat(start.round.to_act)
        )
    else:
        typer.echo(
            f"Genpoker draw: {players} players, seed {start.seed}, pot {pot}. "
            f"Each seat in turn: {start.moves_help}."
        )
    _show_turn(start.round, as_json)

    def show(said: Said[DrawReply]) -> None:
        if said.reply is None:
            return
        current = session.state.round
        _show_draw(current, said.reply.seat, as_json)
        _show_turn(current, as_json)
        emit_said(said, "showdown", as_json, draw_text)

    run_turns(session, show, as_json)
