"""What a live session answers to one typed line, whatever the game: one shape of reply.

Each game's session (`dealer.games.*.session`) takes a line to its next state and a `Reply`:
its kind, the lines a person reads, and the ruling the line completed (to record). A game's
reply adds what its command shows beyond that (a Pai Gow round to settle, a Hyrule move, the
seat that drew or moved). One driver (`dealer.desk.live.Live`) records what a reply completes
and refuses a reply of kind `error`; the CLI shows each reply by its kind."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from dealer.kernel.ruling import Ruling


class ReplyKind(StrEnum):
    """The kind of a live session's reply: entered (a hand or a seat taken), error (a line
    refused, the state kept: a quit asked to be typed again), undone (the last entry taken
    back), show, history, help, settle (a Pai Gow round to settle and record), move (a move
    applied: a Hyrule card, a Genpoker draw, an Empire action), quit, nothing (a blank or
    comment line)."""

    ENTERED = "entered"
    ERROR = "error"
    UNDONE = "undone"
    SHOW = "show"
    HISTORY = "history"
    HELP = "help"
    SETTLE = "settle"
    MOVE = "move"
    QUIT = "quit"
    NOTHING = "nothing"


@dataclass(frozen=True)
class Reply:
    """A live session's answer to one line: its `kind`, the `lines` a person reads (for an
    error, the one line saying why), and the `ruling` the line completed, to record (None:
    nothing to record)."""

    kind: ReplyKind
    lines: tuple[str, ...] = ()
    ruling: Ruling | None = None
