"""What a live session answers to one typed line: the kinds of reply the games' sessions share.

Each game's session (`dealer.games.*.session`) takes a line to its next state and a reply of one
of these kinds; the desk records what a reply completes and the CLI shows it by its kind."""

from __future__ import annotations

from enum import StrEnum


class ReplyKind(StrEnum):
    """The kind of a live session's reply. Pai Gow's table: entered (a hand or a seat taken),
    error (a line refused), undone (the last entry taken back), show, history, help, settle (a
    round to settle and record), quit, nothing (a blank or comment line). Hyrule's game: move (a
    move applied), show, help, quit."""

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
