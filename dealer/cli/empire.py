"""`dealer empire …`: rank and compare Empire tableaux, and track one hand from stdin.

The combination table is `--combinations FILE` (env DEALER_EMPIRE_COMBINATIONS); without it the
shipped provisional table is used, and every ruling says so. (`--table` is the casino table id,
as on every command.)"""

from __future__ import annotations

import random
import secrets
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any

import typer

from dealer.cli import render
from dealer.cli.common import (
    BatchOption,
    DbOption,
    JsonFlag,
    TableOption,
    UserOption,
    emit,
    emit_event,
    next_move,
    record,
    rule_inputs,
)
from dealer.desk.context import desk_for
from dealer.games.empire import rulings
from dealer.games.empire.combinations import CombinationTable
from dealer.games.empire.hand import MAX_PLAYERS, EmpireHand, deal_hand
from dealer.kernel.errors import DealerError
from dealer.kernel.ruling import Ruling

app = typer.Typer(
    help="Empire: seven-plaque tableaux, special plaques and betting.", no_args_is_help=True
)

CombinationsOption = Annotated[
    Path | None,
    typer.Option(
        "--combinations",
        envvar="DEALER_EMPIRE_COMBINATIONS",
        help="An operator's combination table (YAML); default: the shipped provisional one.",
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
    verdict = "splits" if len(r["winners"]) > 1 else "wins"
    rows = [
        [
            f"tableau {i}",
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
    verdict = "splits" if len(r["winners"]) > 1 else "wins"
    rows = [
        [
            f"seat {s['seat']}",
            " ".join(s["tableau"]),
            "yielded" if s["yielded"] else s["category"],
            str(s["put_in"]),
            f"{verdict} {r['shares'][s['seat']]}" if s["seat"] in r["winners"] else "",
        ]
        for s in r["seats"]
    ]
    body = render.table(rows, ["", "tableau", "combination", "put in", f"pot {r['pot']}"])
    return f"{body}\n{render.reasons(ruling)}\n{_table_line(r['table'])}"


@app.command()
def rank(
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
    as_json: JsonFlag = False,
    batch: BatchOption = None,
    db: DbOption = None,
    user: UserOption = None,
    table: TableOption = None,
) -> None:
    """Value a tableau (1-7 plaques): its best combination and active plaques."""
    combos = rulings.table_of(combinations)
    rule_inputs(
        " ".join(plaques) if plaques else None,
        batch,
        lambda text: rulings.rank_ruling(text, combos, other or ()),
        desk_for(db, user, table),
        as_json,
        rank_text,
        "plaques",
    )


@app.command()
def compare(
    tableaux: Annotated[
        list[str] | None,
        typer.Argument(help="Tableaux, each quoted ('red-sword blue-sword'), or separated by '|'."),
    ] = None,
    combinations: CombinationsOption = None,
    as_json: JsonFlag = False,
    batch: BatchOption = None,
    db: DbOption = None,
    user: UserOption = None,
    table: TableOption = None,
) -> None:
    """Compare tableaux still in play (two passes: restrictions, then values)."""
    combos = rulings.table_of(combinations)
    rule_inputs(
        " | ".join(tableaux) if tableaux else None,
        batch,
        lambda text: rulings.compare_ruling(rulings.split_tableaux(text), combos),
        desk_for(db, user, table),
        as_json,
        compare_text,
        "plaques",
    )


def _status(hand: EmpireHand) -> str:
    """`Seat 1 to act: see or raise or yield (pot 12; the bet is 4, seat 1 owes 4).`"""
    seat = hand.to_act
    b = hand.betting
    owed = ""
    if b is not None and b.opened and seat is not None:
        owed = f"; the bet is {b.bet}, seat {seat} owes {b.bet - b.paid[seat]}"
    return f"Seat {seat} to act: {' or '.join(hand.legal_actions())} (pot {hand.pot}{owed})."


def _intro(table: CombinationTable, players: int, seed: int, ante: int) -> str:
    flag = (
        "PROVISIONAL (RULINGS §5): every value rests on it"
        if table.provisional
        else f"from {table.origin}"
    )
    return (
        f"Empire hand: {players} players, seed {seed}, ante {ante}. Combination table "
        f"{table.name} v{table.version}, {flag}. Moves: {rulings.MOVES_HELP}."
    )


@app.command()
def hand(
    players: Annotated[
        int,
        typer.Option("--players", min=2, max=MAX_PLAYERS, help=f"Players (2-{MAX_PLAYERS})."),
    ],
    seed: Annotated[
        int | None,
        typer.Option("--seed", min=0, help="Shuffle seed, to replay a deal (default: random)."),
    ] = None,
    ante: Annotated[int, typer.Option("--ante", min=0, help="Each seat's ante (chips).")] = 0,
    stack: Annotated[
        int | None,
        typer.Option("--stack", min=1, help="Chips each seat holds (default: not tracked)."),
    ] = None,
    combinations: CombinationsOption = None,
    as_json: JsonFlag = False,
    db: DbOption = None,
    user: UserOption = None,
    table: TableOption = None,
) -> None:
    """Track one hand of play and betting, move by move from stdin.

    Seven plaques each, two face up; the seat to act types its move, one a line.

    Moves: 'bet N', 'see', 'raise N', 'yield', 'turn', each optionally after 'seat N'."""
    desk = desk_for(db, user, table)
    combos = rulings.table_of(combinations)
    seed = secrets.randbelow(2**32) if seed is None else seed
    stacks = None if stack is None else [stack] * players
    state = deal_hand(players, random.Random(seed), combos, ante, stacks)
    if as_json:
        emit_event("deal", seed=seed, ante=ante, **state.to_dict())
    else:
        typer.echo(_intro(combos, players, seed, ante))
        for line in state.events:
            typer.echo(line)
        typer.echo(_status(state))
    moves: list[str] = []
    while state.phase != "over":
        text = next_move(f"seat {state.to_act}> ")
        if text is None:
            break
        seen = len(state.events)
        try:
            state, seat, move = rulings.act(state, text)
        except DealerError as exc:
            typer.echo(f"Error: {exc}", err=True)
            if as_json:
                emit_event("error", seat=state.to_act, input=text, error=str(exc))
            continue
        moves.append(f"seat {seat}: {move}")
        if as_json:
            emit_event(
                "move", seat=seat, move=str(move), log=list(state.events[seen:]), **state.to_dict()
            )
            continue
        for line in state.events[seen:]:
            typer.echo(line)
        if state.phase != "over":
            typer.echo(_status(state))
    if state.phase != "over":
        raise DealerError(
            f"the moves ended before the hand was over: seat {state.to_act} to act; "
            "nothing recorded"
        )
    ruling = rulings.hand_ruling(state, seed, ante, stack, moves)
    (ruling_id,) = record(desk, [ruling])
    if as_json:
        emit_event("result", **ruling.to_json(ruling_id))
    else:
        emit(ruling, ruling_id, False, hand_text)
