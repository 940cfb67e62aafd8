"""`dealer burosh …`: rank and challenge Burosh hands under a trump suit."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated

import typer

from dealer.cli import render
from dealer.cli.common import (
    Inputs,
    at_desk,
    hands_line,
    show_each,
)
from dealer.desk.context import Desk
from dealer.desk.games import burosh_compare, burosh_rank, burosh_symbols
from dealer.kernel.errors import DealerError
from dealer.kernel.ruling import Ruling

app = typer.Typer(
    help="Burosh challenges: 55 cards, three wild cards, a trump suit.", no_args_is_help=True
)

TrumpOption = Annotated[
    str, typer.Option("--trump", help="The trump suit: s, h, d, c, a suit symbol or its name.")
]


def pretty(cards: Sequence[str]) -> str:
    """Canonical Burosh cards as a person reads them: `Emperor A♥ 10♦ Hermit`."""
    return burosh_symbols(cards)


def rank_text(ruling: Ruling) -> str:
    """`dealer burosh rank`: the hand, its category, the reasons."""
    hand = ruling.result
    return f"{pretty(hand['hand'])}  {hand['description']}\n{render.reasons(ruling)}"


def compare_text(ruling: Ruling) -> str:
    """`dealer burosh compare`: each hand and its category, the winner(s), the reasons."""
    winners = ruling.result["winners"]
    mark = render.verdict(winners, "tie")
    rows = [
        [f"hand {i + 1}", pretty(h["hand"]), h["description"], mark if i in winners else ""]
        for i, h in enumerate(ruling.result["hands"])
    ]
    return f"{render.table(rows, ['', 'cards', 'hand', ''])}\n{render.reasons(ruling)}"


@app.command()
@at_desk()
def rank(
    desk: Desk,
    io: Inputs,
    trump: TrumpOption,
    cards: Annotated[
        list[str] | None, typer.Argument(help="One to five cards, e.g. EM Ah Kh Qh Jh.")
    ] = None,
) -> None:
    """Rank a hand of one to five cards: its best category under the trump suit."""
    show_each(cards, io, burosh_rank(desk, trump), rank_text)


@app.command()
@at_desk()
def compare(
    desk: Desk,
    io: Inputs,
    trump: TrumpOption,
    hands: Annotated[
        list[str] | None,
        typer.Argument(help="Two or more hands, each quoted: 'Ks Kh' 'Kd EM'."),
    ] = None,
) -> None:
    """Challenge two or more hands; several winners are a tie (all challenging dice stay)."""
    if hands and len(hands) < 2:
        raise DealerError("compare needs two or more hands, each quoted: 'Ks Kh' 'Kd EM'")
    show_each(hands_line(hands), io, burosh_compare(desk, trump), compare_text, "hands")
