"""`dealer hyrule …`: rule one turn, or run a whole game at a table, move by move."""

from __future__ import annotations

import json
import random
import secrets
import sys
from collections.abc import Callable, Iterator
from typing import Annotated, Any

import typer

from dealer.cli import render
from dealer.cli.common import (
    BatchOption,
    DbOption,
    Desk,
    JsonFlag,
    TableOption,
    UserOption,
    emit,
    record,
    rule_inputs,
)
from dealer.desk.context import desk_for
from dealer.games.hyrule import (
    HAND_SIZE,
    HyruleGame,
    Move,
    Phase,
    Rules,
    Trick,
    apply_move,
    game_ruling,
    game_settings,
    parse_cards,
    parse_move,
    trick_ruling,
    turn_ruling,
)
from dealer.kernel.errors import DealerError
from dealer.kernel.ruling import Ruling

app = typer.Typer(
    help="Hyrule: 54 cards, suits in a circle of precedence, jokers and fives.",
    no_args_is_help=True,
)

HELP = """moves (seats are numbered 0 to N-1 counter-clockwise; cards as As, Td, 7h, JK):
  play SEAT CARD   place a card (strategy: face up, in turn; chance: face down, in any order)
  swap SEAT CARD   strategy, instead of starting a trick: discard CARD face up, draw from the stock
  leader SEAT      strategy: the tallest of the seats tied for most captured leads
  run-off SEAT     two jokers and no five: the seat the house's run-off picks takes the cards
  show             the hands, the trick so far, the captured cards, the stock
  help             this list
  quit             stop the game (the score so far is recorded)"""

QUIT_WORDS = ("quit", "exit")


def _seats(seats: Any) -> str:
    return ", ".join(str(s) for s in seats)


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
        [str(seat), card.symbol(), "tie" if seat in tied else ""]
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
        for seat, n in enumerate(r["captured"])
    ]
    title = "final score" if r["final"] else "score when stopped"
    return f"{title}\n{render.table(rows, ['seat', 'captured', ''])}\n{render.reasons(ruling)}"


def _captured(counts: list[int]) -> str:
    return "captured: " + ", ".join(f"seat {s}: {n}" for s, n in enumerate(counts))


def next_text(game: HyruleGame) -> str:
    """What the table waits for now, and how to type it."""
    phase, seats, trick = game.phase, game.awaiting, game.trick_number
    if phase is Phase.OVER:
        return "game over"
    if phase is Phase.LEADER:
        return (
            f"next: trick {trick}: the tallest of seats {_seats(seats)} (tied for most captured) "
            "leads: leader SEAT"
        )
    if phase is Phase.RUN_OFF:
        return f"next: the house's run-off between seats {_seats(seats)}: run-off SEAT"
    if game.rules is Rules.CHANCE:
        who = f"seat {seats[0]}" if len(seats) == 1 else f"seats {_seats(seats)}"
        return f"next: trick {trick}: {who} to place a card face down"
    swap = " or swap" if game.may_swap else ""
    return f"next: trick {trick}: seat {seats[0]} to play{swap}"


def table_text(game: HyruleGame) -> str:
    """The cards on the table in the trick being played (face down under chance rules)."""
    if not game.table:
        return ""
    if game.rules is Rules.CHANCE:
        return f"placed face down: seats {_seats(sorted(s for s, _ in game.table))}"
    plays = ", ".join(f"seat {s} {c.symbol()}" for s, c in game.table)
    return f"trick {game.trick_number} so far: {plays}"


def state_text(game: HyruleGame) -> str:
    """`show`: the hands, the captures, the stock and discards, the trick so far, what is next."""
    rows = [
        [str(seat), render.pretty([str(c) for c in hand]), str(len(game.captured[seat]))]
        for seat, hand in enumerate(game.hands)
    ]
    discard = " ".join(c.symbol() for c in game.discard) or "none"
    stock = f"stock: {len(game.stock)} cards; discards: {discard}"
    lines = [
        f"trick {min(game.trick_number, HAND_SIZE)} of {HAND_SIZE}, {game.rules} rules",
        render.table(rows, ["seat", "hand", "captured"]),
        stock if game.rules is Rules.STRATEGY else "",
        table_text(game),
        next_text(game),
    ]
    return "\n".join(line for line in lines if line)


def move_text(move: Move, before: HyruleGame, after: HyruleGame) -> str:
    """One line saying what an accepted move did."""
    if move.kind == "leader":
        return f"seat {move.seat} leads trick {after.trick_number}"
    if move.kind == "run-off":
        return f"the house's run-off: seat {move.seat} takes trick {before.trick_number}"
    assert move.card is not None
    if move.kind == "swap":
        return (
            f"seat {move.seat} swaps: discards {move.card.symbol()} face up and draws from the "
            f"stock ({len(after.stock)} left)"
        )
    if before.rules is Rules.CHANCE:
        return f"seat {move.seat} places a card face down"
    return f"seat {move.seat} plays {move.card.symbol()}"


def _tricks(game: HyruleGame) -> int:
    return sum(isinstance(e, Trick) for e in game.history)


def _interactive() -> bool:
    """True when a person types the moves at a terminal (prompts are shown)."""
    return sys.stdin.isatty()


class GameTable:
    """One game run at the table: reads moves, refuses illegal ones, records every trick and the
    final score, and tells the table what happened and what comes next."""

    def __init__(
        self,
        game: HyruleGame,
        settings: dict[str, Any],
        desk: Desk,
        as_json: bool,
        interactive: bool,
    ) -> None:
        self.dealt = self.game = game
        self.settings = settings
        self.desk = desk
        self.as_json = as_json
        self.interactive = interactive
        self.moves: list[str] = []  # every accepted move, as typed
        self.trick_moves: list[str] = []  # the accepted moves of the trick being played
        self.trick_ids: list[int] = []
        self.refused = 0

    def say(self, text: str) -> None:
        """Text for the people at the table: stdout, or stderr at a terminal with --json (so
        stdout stays JSON Lines), or nothing through a pipe with --json."""
        if not text:
            return
        if not self.as_json:
            typer.echo(text)
        elif self.interactive:
            typer.echo(text, err=True)

    def lines(self) -> Iterator[tuple[int, str]]:
        """Numbered input lines, with a prompt at a terminal."""
        number = 0
        while True:
            if self.interactive:
                typer.echo(
                    f"trick {min(self.game.trick_number, HAND_SIZE)}> ", nl=False, err=self.as_json
                )
            line = sys.stdin.readline()
            if not line:
                if self.interactive:
                    typer.echo("", err=self.as_json)
                return
            number += 1
            yield number, line.strip()

    def run(self, opening: str) -> None:
        """Play the game out from stdin; the score is recorded when it ends or is stopped."""
        self.say(f"{opening}\n{state_text(self.game)}")
        if self.interactive:
            self.say("type help for the moves")
        try:
            for number, text in self.lines():
                if not text or text.startswith("#"):
                    continue
                word = text.split()[0].lower()
                if word in QUIT_WORDS:
                    break
                if word == "help":
                    self.say(HELP)
                elif word == "show":
                    self.show()
                else:
                    self.try_move(number, text)
                if self.game.phase is Phase.OVER:
                    break
        except KeyboardInterrupt:
            if self.interactive:
                typer.echo("", err=self.as_json)
        self.finish()

    def show(self) -> None:
        """The state: as text, or with --json one object `{"event": "state", ...}`."""
        if self.as_json:
            typer.echo(json.dumps({"event": "state", **self.game.to_dict()}, ensure_ascii=False))
        self.say(state_text(self.game))

    def try_move(self, number: int, text: str) -> None:
        """Apply a typed move, or refuse it with one `Error:` line (the game goes on)."""
        try:
            move = parse_move(text)
            after = apply_move(self.game, move)
        except DealerError as exc:
            self.refused += 1
            where = "" if self.interactive else f"line {number}: "
            typer.echo(f"Error: {where}{exc}", err=True)
            if self.as_json:
                typer.echo(json.dumps({"line": number, "input": text, "error": str(exc)}))
            return
        before, self.game = self.game, after
        self.moves.append(text)
        self.trick_moves.append(text)
        self.say(move_text(move, before, after))
        if _tricks(after) > _tricks(before):
            self.rule_trick()
        elif after.pending is not None:
            self.say(tie_text(after.pending))
        else:
            self.say(table_text(after))
        if after.phase is not Phase.OVER:
            self.say(next_text(after))

    def rule_trick(self) -> None:
        """Record the trick just completed, then show it."""
        ruling = trick_ruling(self.game, "; ".join(self.trick_moves), self.settings)
        (ruling_id,) = record(self.desk, [ruling])
        self.trick_ids.append(ruling_id)
        self.trick_moves = []
        self.show_ruling(ruling, ruling_id, trick_text)
        self.say(_captured(ruling.result["captured"]))

    def finish(self) -> None:
        """Record the score: final at the end; when stopped early, the score so far (unless no
        trick was ruled, when there is nothing to record)."""
        if self.game.phase is not Phase.OVER and not self.trick_ids:
            self.say("game stopped before any trick was ruled: nothing recorded")
            return
        ruling = game_ruling(
            self.dealt, self.game, "; ".join(self.moves), self.settings, self.trick_ids
        )
        (ruling_id,) = record(self.desk, [ruling])
        self.show_ruling(ruling, ruling_id, score_text)

    def show_ruling(self, ruling: Ruling, ruling_id: int, human: Callable[[Ruling], str]) -> None:
        """A recorded ruling: JSON on stdout with --json (and the text for a person at a
        terminal on stderr), else the text."""
        emit(ruling, ruling_id, self.as_json, human)
        if self.as_json:
            self.say(f"{human(ruling)}\nruling #{ruling_id} recorded")


@app.command()
def turn(
    cards: Annotated[
        list[str] | None, typer.Argument(help="The cards of one turn in play order: Jh 3d JK.")
    ] = None,
    as_json: JsonFlag = False,
    batch: BatchOption = None,
    db: DbOption = None,
    user: UserOption = None,
    table: TableOption = None,
) -> None:
    """Rule one turn: which card (index in play order) wins, or the tied jokers."""
    typed = " ".join(cards) if cards else None
    rule_inputs(typed, batch, turn_ruling, desk_for(db, user, table), as_json, turn_text)


@app.command()
def game(
    players: Annotated[
        int, typer.Option("--players", min=2, max=7, help="Number of players, 2 to 7.")
    ],
    rules: Annotated[
        Rules, typer.Option("--rules", help="How turns are taken: chance or strategy.")
    ] = Rules.STRATEGY,
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
    db: DbOption = None,
    user: UserOption = None,
    table: TableOption = None,
) -> None:
    """Run a whole game: moves are read line by line (typed at a terminal or piped in), each
    trick and the final score are recorded. Type `help` for the moves."""
    if seed is not None and deck is not None:
        raise typer.BadParameter("give --seed or --deck, not both")
    if deck is not None:
        dealt = HyruleGame.deal(players, rules, deck=parse_cards(deck, "deck"))
        opening = f"Hyrule, {rules} rules, {players} players, dealt from the deck as given"
    else:
        if seed is None:
            seed = secrets.randbelow(2**32)
        dealt = HyruleGame.deal(players, rules, rng=random.Random(seed))
        opening = f"Hyrule, {rules} rules, {players} players, shuffle seed {seed}"
    session = GameTable(
        dealt, game_settings(dealt, seed), desk_for(db, user, table), as_json, _interactive()
    )
    session.run(opening)
    if session.refused:
        raise typer.Exit(1)
