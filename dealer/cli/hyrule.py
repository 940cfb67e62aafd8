"""`dealer hyrule …`: rule one turn, or run a whole game at a table, move by move."""

from __future__ import annotations

import json
from enum import StrEnum
from typing import TYPE_CHECKING, Annotated, Any

import typer

from dealer.cli import render
from dealer.cli.common import (
    Inputs,
    JsonFlag,
    OptionsMisused,
    at_desk,
    emit,
    show_each,
)
from dealer.cli.console import Console
from dealer.desk.context import Desk
from dealer.desk.games import hyrule_turn
from dealer.desk.live import Said, hyrule_game
from dealer.kernel.errors import DealerError
from dealer.kernel.replies import ReplyKind
from dealer.kernel.ruling import Ruling

if TYPE_CHECKING:
    from dealer.games.hyrule.game import HyruleGame, Trick
    from dealer.games.hyrule.session import GameReply, Move

app = typer.Typer(
    help="Hyrule: 54 cards, suits in a circle of precedence, jokers and fives.",
    no_args_is_help=True,
)


def _seats(seats: Any) -> str:
    """Seat indices as a person counts seats (from 1): `1, 3`."""
    return ", ".join(str(s + 1) for s in seats)


def turn_text(ruling: Ruling) -> str:
    """`dealer hyrule turn`: the cards in play order, the winner (or the tie), the reasons."""
    r = ruling.result
    rows = [
        [str(i + 1), render.pretty([card]), _mark(i, r["winner"], r["tied"])]
        for i, card in enumerate(r["cards"])
    ]
    return f"{render.table(rows, ['#', 'card', ''])}\n{render.reasons(ruling)}"


def _mark(index: int, winner: int | None, tied: list[int]) -> str:
    if index == winner:
        return "wins"
    return "tie" if index in tied else ""


def trick_text(ruling: Ruling) -> str:
    """A trick of a game: who played what, who takes the cards, the reasons."""
    r = ruling.result
    rows = []
    for i, (seat, card) in enumerate(zip(r["seats"], r["cards"], strict=True)):
        mark = "takes" if seat == r["taker"] else "tie" if i in r["tied"] else ""
        rows.append([str(seat), render.pretty([card]), mark])
    return f"{render.table(rows, ['seat', 'card', ''])}\n{render.reasons(ruling)}"


def tie_text(trick: Trick) -> str:
    """A trick tied on two jokers, waiting for the house's run-off."""
    tied = {trick.seats[i] for i in trick.result.tied}
    rows = [
        [str(seat + 1), card.symbol(), "tie" if seat in tied else ""]
        for seat, card in zip(trick.seats, trick.result.cards, strict=True)
    ]
    reasons = "\n".join(f"  · {line}" for line in trick.explanation())
    return f"{render.table(rows, ['seat', 'card', ''])}\n{reasons}"


def score_text(ruling: Ruling) -> str:
    """The score of a game: captured cards per seat, the winner or the draw, the reasons."""
    r = ruling.result
    mark = "draw" if r["draw"] else "wins" if r["final"] else "leads"
    rows = [
        [str(seat), str(n), mark if seat in r["winners"] else ""]
        for seat, n in enumerate(r["captured"], start=1)
    ]
    title = "final score" if r["final"] else "score when stopped"
    return f"{title}\n{render.table(rows, ['seat', 'captured', ''])}\n{render.reasons(ruling)}"


def _captured(counts: list[int]) -> str:
    return "captured: " + ", ".join(f"seat {s}: {n}" for s, n in enumerate(counts, start=1))


def next_text(game: HyruleGame) -> str:
    """What the table waits for now, and how to type it."""
    phase, seats, trick = game.phase, game.awaiting, game.trick_number
    if phase == "over":
        return "game over"
    if phase == "leader":
        return (
            f"next: trick {trick}: the tallest of seats {_seats(seats)} (tied for most captured) "
            "leads: leader SEAT"
        )
    if phase == "run-off":
        return f"next: the house's run-off between seats {_seats(seats)}: run-off SEAT"
    if game.rules == "chance":
        who = f"seat {seats[0] + 1}" if len(seats) == 1 else f"seats {_seats(seats)}"
        return f"next: trick {trick}: {who} to place a card face down"
    swap = " or swap" if game.may_swap else ""
    return f"next: trick {trick}: seat {seats[0] + 1} to play{swap}"


def table_text(game: HyruleGame) -> str:
    """The cards on the table in the trick being played (face down under chance rules)."""
    if not game.table:
        return ""
    if game.rules == "chance":
        return f"placed face down: seats {_seats(sorted(s for s, _ in game.table))}"
    plays = ", ".join(f"seat {s + 1} {c.symbol()}" for s, c in game.table)
    return f"trick {game.trick_number} so far: {plays}"


def state_text(game: HyruleGame) -> str:
    """`show`: the hands, the captures, the stock and discards, the trick so far, what is next."""
    rows = [
        [str(seat + 1), render.pretty([str(c) for c in hand]), str(len(game.captured[seat]))]
        for seat, hand in enumerate(game.hands)
    ]
    discard = " ".join(c.symbol() for c in game.discard) or "none"
    stock = f"stock: {len(game.stock)} cards; discards: {discard}"
    lines = [
        f"trick {game.trick_shown} of {game.tricks}, {game.rules} rules",
        render.table(rows, ["seat", "hand", "captured"]),
        stock if game.rules == "strategy" else "",
        table_text(game),
        next_text(game),
    ]
    return "\n".join(line for line in lines if line)


def move_text(move: Move, before: HyruleGame, after: HyruleGame) -> str:
    """One line saying what an accepted move did."""
    if move.kind == "leader":
        return f"seat {move.seat + 1} leads trick {after.trick_number}"
    if move.kind == "run-off":
        return f"the house's run-off: seat {move.seat + 1} takes trick {before.trick_number}"
    assert move.card is not None
    if move.kind == "swap":
        return (
            f"seat {move.seat + 1} swaps: discards {move.card.symbol()} face up and draws from the "
            f"stock ({len(after.stock)} left)"
        )
    if before.rules == "chance":
        return f"seat {move.seat + 1} places a card face down"
    return f"seat {move.seat + 1} plays {move.card.symbol()}"


class RulesChoice(StrEnum):
    """The seed's two ways of taking turns (`--rules`)."""

    CHANCE = "chance"
    STRATEGY = "strategy"


def _show_ruling(console: Console[Said[GameReply]], said: Said[GameReply], human: Any) -> None:
    """A recorded ruling: JSON on stdout with --json (and the text for a person at a terminal
    on stderr), else the text."""
    assert said.ruling is not None and said.ruling_id is not None
    emit(said.ruling, said.ruling_id, console.as_json, human)
    if console.as_json:
        console.say(f"{human(said.ruling)}\nruling #{said.ruling_id} recorded")


def _show(console: Console[Said[GameReply]], game: HyruleGame, said: Said[GameReply]) -> None:
    """What one line did (a move, show, help), or the end of the game (the score recorded)."""
    reply = said.reply
    if reply is None:
        if said.ruling is None:
            console.say("game stopped before any trick was ruled: nothing recorded")
        else:
            _show_ruling(console, said, score_text)
        return
    if reply.kind == ReplyKind.HELP:
        console.say("\n".join(reply.lines))
    elif reply.kind == ReplyKind.SHOW:
        if console.as_json:
            typer.echo(json.dumps({"event": "state", **game.to_dict()}, ensure_ascii=False))
        console.say(state_text(game))
    elif reply.kind == ReplyKind.MOVE:
        assert reply.move is not None and reply.before is not None
        console.say(move_text(reply.move, reply.before, game))
        if said.ruling is not None:
            _show_ruling(console, said, trick_text)
            console.say(_captured(said.ruling.result["captured"]))
        elif game.pending is not None:
            console.say(tie_text(game.pending))
        else:
            console.say(table_text(game))
        if game.phase != "over":
            console.say(next_text(game))


@app.command()
@at_desk()
def turn(
    desk: Desk,
    io: Inputs,
    cards: Annotated[
        list[str] | None, typer.Argument(help="The cards of one turn in play order: Jh 3d JK.")
    ] = None,
) -> None:
    """Rule one turn: which card (index in play order) wins, or the tied jokers."""
    show_each(cards, io, hyrule_turn(desk), turn_text)


@app.command()
@at_desk()
def game(
    desk: Desk,
    players: Annotated[
        int, typer.Option("--players", min=2, max=7, help="Number of players, 2 to 7.")
    ],
    rules: Annotated[
        RulesChoice, typer.Option("--rules", help="How turns are taken: chance or strategy.")
    ] = RulesChoice.STRATEGY,
    seed: Annotated[
        int | None,
        typer.Option("--seed", help="Seed of the shuffle (the same seed deals the same cards)."),
    ] = None,
    deck: Annotated[
        str | None,
        typer.Option(
            "--deck",
            help="The 54 cards in order, top card first, instead of a shuffle "
            "(a recorded game's deck replays it).",
        ),
    ] = None,
    as_json: JsonFlag = False,
) -> None:
    """Run a whole game: moves are read line by line (typed at a terminal or piped in), each
    trick and the final score are recorded. Type `help` for the moves."""
    if seed is not None and deck is not None:
        raise OptionsMisused("give --seed or --deck, not both")
    session = hyrule_game(desk, players, str(rules), seed, deck)
    dealt = session.state.game
    shuffle = session.state.settings["seed"]
    how = "dealt from the deck as given" if shuffle is None else f"shuffle seed {shuffle}"
    console: Console[Said[GameReply]] = Console(as_json)
    console.say(f"Hyrule, {rules} rules, {players} players, {how}\n{state_text(dealt)}")
    if console.interactive:
        console.say("type help for the moves")

    def refused(number: int, text: str, exc: DealerError) -> None:
        if as_json:
            typer.echo(json.dumps({"line": number, "input": text, "error": str(exc)}))

    console.run(session, lambda said: _show(console, session.state.game, said), refused)
