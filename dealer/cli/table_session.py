"""`dealer table`: a live session for a dealer at a table, round after round.

The session (`dealer.games.paigow.session`) decides everything; this module reads lines, shows the
replies and records each round exactly as `dealer round` does. stdout carries what is asked
for: each settled round (a table, or with --json its JSON object on one line), and the answers
to `show` and `history` (JSON objects with --json). Prompts and acknowledgements go to the
terminal only when there is one; errors are `Error: …` lines on stderr (`Error: line N: …`
when the input is not a terminal), and with --json each refused line is also answered on stdout
by `{"line": N, "input": TEXT, "error": TEXT}`, as a batch's and `hyrule game`'s are."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Annotated

import typer

from dealer.cli import render
from dealer.cli.common import ask_hidden, at_desk, emit
from dealer.cli.console import Console
from dealer.desk.context import Desk, HouseRules, shown
from dealer.desk.live import Said, table_session
from dealer.desk.sign_ins import seated
from dealer.kernel.errors import DealerError
from dealer.kernel.replies import ReplyKind

if TYPE_CHECKING:
    from dealer.games.paigow.session import TableReply

app = typer.Typer()

SessionJson = Annotated[
    bool,
    typer.Option(
        "--json", help="Each settled round as one JSON object a line (and show, history)."
    ),
]


def _show(console: Console[Said[TableReply]], said: Said[TableReply]) -> None:
    """A settled round (recorded), or the table's answer to any other line."""
    if said.ruling is not None and said.ruling_id is not None:
        emit(said.ruling, said.ruling_id, console.as_json, render.round_text)
        return
    reply = said.reply
    if reply is None:
        return
    if reply.kind in (ReplyKind.SHOW, ReplyKind.HISTORY):
        if console.as_json:
            typer.echo(json.dumps(reply.data, ensure_ascii=False))
        else:
            typer.echo("\n".join(reply.lines))
    elif reply.kind == ReplyKind.HELP:
        typer.echo("\n".join(reply.lines), err=console.as_json)
    elif reply.kind == ReplyKind.UNDONE:
        typer.echo("\n".join(reply.lines), err=True)
    elif reply.kind == ReplyKind.ENTERED:
        console.note(reply.lines)


@app.command("table")
@at_desk()
def table_(desk: Desk, house: HouseRules, as_json: SessionJson = False) -> None:
    """A live table session: the dealer's cards, each seat, settle; round after round.

    Type the dealer's seven cards, then one line per seat, then settle.
    A seat: `3 As Kd 9c 7h 5s 3d 2c base 25 treasure 5`, or `4 high … / low … base 10`.
    Each round is ruled and recorded as `dealer round` does it.
    Inside: help, show, undo, settle, history, quit. At a table a supervisor assigned, the
    dealer signs in first: asked for their PIN once, unless signed in there already."""
    signing = f"it by signing in first (dealer sign-in --table {desk.table})"
    desk = seated(desk, lambda who: ask_hidden(f"PIN for {who}", signing))
    session = table_session(desk, house)
    console: Console[Said[TableReply]] = Console(as_json)
    console.note(
        [
            f"dealer table: table {desk.table}, profile {session.state.profile.name}, "
            f"dealer {desk.user}, log {shown(desk.db)}",
            "Type help for the notation; settle to settle a round; quit (or Ctrl-D) to leave.",
        ]
    )

    def refused(number: int, text: str, exc: DealerError) -> None:
        if as_json:
            typer.echo(json.dumps({"line": number, "input": text, "error": str(exc)}))

    console.run(session, lambda said: _show(console, said), refused)
