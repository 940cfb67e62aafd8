"""A Hyrule game at the table, one typed line at a time: the pure live-session step.

Moves: `leader SEAT`, `play SEAT CARD`, `swap SEAT CARD`, `run-off SEAT`; and `show`, `help`,
`quit`. A completed trick comes back in the reply as a ruling to record; once it is recorded
the session is told its id (`recorded`), and the game's score is ruled at the end (`final`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any

from dealer.games.hyrule.deck import parse_card
from dealer.games.hyrule.game import HyruleGame, Phase, Trick
from dealer.games.hyrule.rulings import game_ruling, trick_ruling
from dealer.kernel.cards import Card
from dealer.kernel.errors import DealerError
from dealer.kernel.replies import Reply, ReplyKind
from dealer.kernel.ruling import Ruling
from dealer.kernel.text import quoted

MOVE_KINDS = ("leader", "play", "swap", "run-off")
_SEAT = re.compile(r"[0-9]{1,9}")
"""A seat as typed: ASCII digits (no lookalike digit, no superscript), at most nine."""


@dataclass(frozen=True)
class Move:
    """One move of a scripted game: `leader SEAT`, `play SEAT CARD`, `swap SEAT CARD`,
    `run-off SEAT`. SEAT is typed as people count seats (from 1); `seat` is its index."""

    kind: str
    seat: int
    card: Card | None = None

    def __str__(self) -> str:
        return f"{self.kind} {self.seat + 1}" + ("" if self.card is None else f" {self.card}")


def parse_move(text: str) -> Move:
    """Parse a typed move (`play 2 7h`, `swap 1 Kd`, `leader 1`, `run-off 3`)."""
    words = text.split()
    kind = words[0].lower() if words else ""
    kind = "run-off" if kind == "runoff" else kind
    if kind not in MOVE_KINDS:
        raise DealerError(f"unknown move {quoted(text)}: expected one of {', '.join(MOVE_KINDS)}")
    wants_card = kind in ("play", "swap")
    if len(words) != (3 if wants_card else 2) or not _SEAT.fullmatch(words[1]):
        form = f"{kind} SEAT CARD" if wants_card else f"{kind} SEAT"
        raise DealerError(f"bad move {quoted(text)}: expected {form!r}")
    card = parse_card(words[2]) if wants_card else None
    return Move(kind, int(words[1]) - 1, card)


def apply_move(game: HyruleGame, move: Move) -> HyruleGame:
    """Apply one move to a game, returning the new state."""
    if move.kind == "leader":
        return game.choose_leader(move.seat)
    if move.kind == "run-off":
        return game.settle_run_off(move.seat)
    assert move.card is not None
    if move.kind == "play":
        return game.play(move.seat, move.card)
    return game.swap(move.seat, move.card)


HELP = """moves (seats are numbered 1 to N counter-clockwise; cards as As, Td, 7h, JK):
  play SEAT CARD   place a card (strategy: face up, in turn; chance: face down, in any order)
  swap SEAT CARD   strategy, instead of starting a trick: discard CARD face up, draw from the stock
  leader SEAT      strategy: the tallest of the seats tied for most captured leads
  run-off SEAT     two jokers and no five: the seat the house's run-off picks takes the cards
  show             the hands, the trick so far, the captured cards, the stock
  help             this list
  quit             stop the game (the score so far is recorded)"""

QUIT_WORDS = ("quit", "exit")


@dataclass(frozen=True, kw_only=True)
class GameReply(Reply):
    """What the session answers to one line. `kind`: move (`move` applied to `before`; `ruling`
    is the trick it completed, to record), show, help (its `lines`) or quit."""

    move: Move | None = None
    before: HyruleGame | None = None


def _tricks(game: HyruleGame) -> int:
    return sum(isinstance(e, Trick) for e in game.history)


@dataclass(frozen=True)
class GameSession:
    """One game run at the table: the game as dealt and now, the moves accepted (all, and those
    of the trick being played), the record ids of the tricks ruled."""

    dealt: HyruleGame
    settings: dict[str, Any]
    game: HyruleGame
    moves: tuple[str, ...] = ()
    trick_moves: tuple[str, ...] = ()
    trick_ids: tuple[int, ...] = ()
    quit: bool = False

    @classmethod
    def start(cls, dealt: HyruleGame, settings: dict[str, Any]) -> GameSession:
        """The session of a game straight from the deal."""
        return cls(dealt, settings, dealt)

    @property
    def prompt(self) -> str:
        """`trick 3> `."""
        return f"trick {self.game.trick_shown}> "

    @property
    def over(self) -> bool:
        """True once the game is over or the table quit."""
        return self.quit or self.game.phase is Phase.OVER

    def step(self, line: str) -> tuple[GameSession, GameReply]:
        """Take one typed line; the next state and the reply. An illegal move raises
        `DealerError` (`MoveError` for one the rules refuse) and changes nothing."""
        word = next(iter(line.split()), "").lower()
        if word in QUIT_WORDS:
            return replace(self, quit=True), GameReply(kind=ReplyKind.QUIT)
        if word == "help":
            return self, GameReply(kind=ReplyKind.HELP, lines=tuple(HELP.splitlines()))
        if word == "show":
            return self, GameReply(kind=ReplyKind.SHOW)
        move = parse_move(line)
        after = apply_move(self.game, move)
        state = replace(
            self, game=after, moves=(*self.moves, line), trick_moves=(*self.trick_moves, line)
        )
        if _tricks(after) == _tricks(self.game):
            return state, GameReply(kind=ReplyKind.MOVE, move=move, before=self.game)
        trick = trick_ruling(after, "; ".join(state.trick_moves), self.settings)
        return replace(state, trick_moves=()), GameReply(
            kind=ReplyKind.MOVE, move=move, before=self.game, ruling=trick
        )

    def recorded(self, ruling_id: int, ruling: Ruling) -> GameSession:
        """The trick of the last reply is on the record as `ruling_id`."""
        return replace(self, trick_ids=(*self.trick_ids, ruling_id))

    def final(self) -> Ruling | None:
        """The score to record when the session ends: final at the end of the game; when stopped
        early, the score so far (None when no trick was ruled: nothing to record)."""
        if self.game.phase is not Phase.OVER and not self.trick_ids:
            return None
        return game_ruling(
            self.dealt, self.game, "; ".join(self.moves), self.settings, self.trick_ids
        )
