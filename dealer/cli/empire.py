"""`dealer empire …`: rank and compare Empire tableaux, and track one hand from stdin.

The combination table is `--combinations FILE` (env DEALER_EMPIRE_COMBINATIONS); without it the
shipped provisional table is used, and every ruling says so. (`--table` is the casino table id,
as on every command.)"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
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
from dealer.desk.games import empire_compare, empire_rank
from dealer.desk.live import Said, empire_hand
from dealer.kernel.ruling import Ruling

if TYPE_CHECKING:
    from dealer.games.empire.combinations import CombinationTable
    from dealer.games.empire.hand import EmpireHand
    from dealer.games.empire.session import HandReply

app = typer.Typer(
    help="Empire: seven-plaque tableaux, special plaques and betting.", no_args_is_help=True
)

CombinationsOption = Annotated[
    Path | None,
    typer.Option(
        "--combinations",
        envvar="DEALER_EMPIRE_COMBINATIONS",
        help="An operator's combination table (YAML), approved by a supervisor (dealer audit "
        "approve-combinations FILE); default: the shipped provisional one.",
    ),
]


def _table_line(table: Mapping[str, Any]) -> str:
    """`combination table empire-attested v1: PROVISIONAL`."""
    flag = "PROVISIONAL" if table["provisional"] else "operator table"
    return f"combination table {table['name']} v{table['version']}: {flag}"


def _active(hand: Mapping[str, Any]) -> str:
    return " ".join(
        a["plaque"] if a["plaque"] == a["as"] else f"{a['plaque']}→{a['as']}"
        for a in hand["active"]
    )


def rank_text(ruling: Ruling) -> str:
    """`dealer empire rank`."""
    r = ruling.result
    rows = [[" ".join(r["plaques"]), r["category"], _active(r)]]
    body = render.table(rows, ["plaques", "combination", "active"])
    return f"{body}\n{render.reasons(ruling)}\n{_table_line(r['table'])}"


def compare_text(ruling: Ruling) -> str:
    """`dealer empire compare`."""
    r = ruling.result
    verdict = render.verdict(r["winners"])
    rows = [
        [
            f"tableau {i + 1}",
            " ".join(h["plaques"]),
            h["category"],
            _active(h),
            verdict if i in r["winners"] else "",
        ]
        for i, h in enumerate(r["hands"])
    ]
    body = render.table(rows, ["", "plaques", "combination", "active", ""])
    return f"{body}\n{render.reasons(ruling)}\n{_table_line(r['table'])}"


def hand_text(ruling: Ruling) -> str:
    """The result of `dealer empire hand`."""
    r = ruling.result
    verdict = render.verdict(r["winners"])
    rows = [
        [
            f"seat {s['seat']}",
            " ".join(s["tableau"]),
            "yielded" if s["yielded"] else s["category"],
            str(s["put_in"]),
            f"{verdict} {r['shares'][s['seat'] - 1]}" if s["seat"] in r["winners"] else "",
        ]
        for s in r["seats"]
    ]
    body = render.table(rows, ["", "tableau", "combination", "put in", f"pot {r['pot']}"])
    return f"{body}\n{render.reasons(ruling)}\n{_table_line(r['table'])}"


@app.command()
@at_desk()
def rank(
    desk: Desk,
    io: Inputs,
    plaques: Annotated[
        list[str] | None, typer.Argument(help="A tableau, e.g. red-sword blue-sword dragon elf.")
    ] = None,
    other: Annotated[
        list[str] | None,
        typer.Option(
            "--other",
            help="Another tableau still in play (its Dwarf or Thief may "
            "restrict this one); repeatable.",
        ),
    ] = None,
    combinations: CombinationsOption = None,
) -> None:
    """Value a tableau (1-7 plaques): its best combination and active plaques."""
    show_each(plaques, io, empire_rank(desk, combinations, other or ()), rank_text, "plaques")


@app.command()
@at_desk()
def compare(
    desk: Desk,
    io: Inputs,
    tableaux: Annotated[
        list[str] | None,
        typer.Argument(help="Tableaux, each quoted ('red-sword blue-sword'), or separated by '|'."),
    ] = None,
    combinations: CombinationsOption = None,
) -> None:
    """Compare tableaux still in play (two passes: restrictions, then values)."""
    show_each(hands_line(tableaux), io, empire_compare(desk, combinations), compare_text, "plaques")


def _status(hand: EmpireHand) -> str:
    """`Seat 2 to act: see or raise or yield (pot 12; the bet is 4, seat 2 owes 4).`"""
    seat = hand.to_act
    b = hand.betting
    owed = ""
    if b is not None and b.opened and seat is not None:
        owed = f"; the bet is {b.bet}, seat {seat + 1} owes {b.bet - b.paid[seat]}"
    shown = None if seat is None else seat + 1
    return f"Seat {shown} to act: {' or '.join(hand.legal_actions())} (pot {hand.pot}{owed})."


def _intro(table: CombinationTable, players: int, seed: int, ante: int, moves: str) -> str:
    flag = (
        "PROVISIONAL (docs/rules.md, Empire): every value rests on it"
        if table.provisional
        else f"from {table.origin}"
    )
    return (
        f"Empire hand: {players} players, seed {seed}, ante {ante}. Combination table "
        f"{table.name} v{table.version}, {flag}. Moves: {moves}."
    )


@app.command()
@at_desk()
def hand(
    desk: Desk,
    players: Annotated[
        int,
        typer.Option("--players", min=2, max=7, help="Players (2-7)."),
    ],
    seed: SeedOption = None,
    ante: Annotated[int, typer.Option("--ante", min=0, help="Each seat's ante (chips).")] = 0,
    stack: Annotated[
        int | None,
        typer.Option("--stack", min=1, help="Chips each seat holds (default: not tracked)."),
    ] = None,
    combinations: CombinationsOption = None,
    as_json: JsonFlag = False,
) -> None:
    """Track one hand of play and betting, move by move from stdin.

    Seven plaques each, two face up; the seat to act types its move, one a line.

    Moves: 'bet N', 'see', 'raise N', 'yield', 'turn', each optionally after 'seat N'."""
    session = empire_hand(desk, players, seed, ante, stack, combinations)
    start = session.state
    if as_json:
        emit_event("deal", seed=start.seed, ante=ante, **start.hand.to_dict())
    else:
        typer.echo(_intro(start.hand.table, players, start.seed, ante, start.moves_help))
        for line in start.hand.events:
            typer.echo(line)
        typer.echo(_status(start.hand))

    def show(said: Said[HandReply]) -> None:
        reply, hand = said.reply, session.state.hand
        if reply is None:
            return
        if as_json:
            emit_event(
                "move",
                seat=reply.seat + 1,
                move=str(reply.move),
                log=list(reply.lines),
                **hand.to_dict(),
            )
        else:
            for line in reply.lines:
                typer.echo(line)
            if hand.phase != "over":
                typer.echo(_status(hand))
        emit_said(said, "result", as_json, hand_text)

    run_turns(session, show, as_json)
