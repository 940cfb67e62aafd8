"""`dealer table`: a live session for a dealer at a table, round after round.

The session (`dealer.games.paigow.session`) decides everything; this module reads lines, shows the
replies and records each round exactly as `dealer round` does. stdout carries what is asked
for: each settled round (a table, or with --json its JSON object on one line), and the answers
to `show` and `history` (JSON objects with --json). Prompts and acknowledgements go to the
terminal only when there is one; errors are `Error: …` lines on stderr (`Error: line N: …`
when the input is not a terminal)."""

from __future__ import annotations

import json
import sys
from decimal import Decimal
from typing import Annotated, Any

import typer

from dealer.cli import render
from dealer.cli.common import (
    DbOption,
    Desk,
    ProfileOption,
    RuleOption,
    TableOption,
    UserOption,
    emit,
    profile_of,
)
from dealer.desk.context import desk_for
from dealer.desk.recording import check_log, record_with_meters
from dealer.games.paigow import seat_rulings
from dealer.games.paigow.bonus import Meters
from dealer.games.paigow.profile import Profile
from dealer.games.paigow.session import (
    ENTERED,
    ERROR,
    HELP_TEXT,
    HISTORY,
    QUIT,
    SETTLE,
    SHOW,
    UNDONE,
    Reply,
    Session,
)
from dealer.games.paigow.table_round import PROGRESSIVE_METERS, starting_meters
from dealer.kernel.errors import DealerError
from dealer.kernel.ruling import Ruling

app = typer.Typer()

SessionJson = Annotated[
    bool,
    typer.Option(
        "--json", help="Each settled round as one JSON object a line (and show, history)."
    ),
]


def record_round(raw: Any, typed: str, profile: Profile, desk: Desk) -> tuple[int, Ruling]:
    """Rule and record one round as `dealer round` does: the table's meters read, the round
    ruled, the ruling and the meter moves written in one transaction."""

    def rule_round(stored: dict[str, Decimal | None]) -> tuple[Ruling, Meters]:
        return seat_rulings.round_ruling(raw, typed, profile, starting_meters(stored, profile))

    return record_with_meters(desk, PROGRESSIVE_METERS, rule_round)


class Console:
    """The terminal or the pipe: reads lines, shows replies."""

    def __init__(self, as_json: bool) -> None:
        self.as_json = as_json
        self.interactive = sys.stdin.isatty()
        self.editing = self.interactive and sys.stdout.isatty()
        self.line = 0
        if self.editing:
            try:
                import readline  # noqa: F401 - line editing and history for input()
            except ImportError:
                self.editing = False

    def read(self, prompt: str) -> str | None:
        """The next line (None at the end of input); at a terminal, Ctrl-C drops the line."""
        while True:
            try:
                if self.editing:
                    text = input(prompt)
                else:
                    if self.interactive:
                        sys.stderr.write(prompt)
                        sys.stderr.flush()
                    text = sys.stdin.readline()
                    if not text:
                        return None
            except EOFError:
                return None
            except KeyboardInterrupt:
                if not self.interactive:
                    raise
                typer.echo("\n(line dropped; quit to leave)", err=True)
                continue
            self.line += 1
            return text

    def note(self, lines: tuple[str, ...] | list[str]) -> None:
        """Chatter for a person at a terminal (stderr); nothing in a pipe."""
        if self.interactive:
            typer.echo("\n".join(lines), err=True)

    def error(self, message: str) -> None:
        """One `Error: …` line on stderr."""
        where = "" if self.interactive else f"line {self.line}: "
        typer.echo(f"Error: {where}{message}", err=True)

    def answer(self, reply: Reply) -> None:
        """Show a reply that is not a settlement."""
        if reply.kind == ERROR:
            self.error(reply.lines[0])
        elif reply.kind in (SHOW, HISTORY):
            if self.as_json:
                typer.echo(json.dumps(reply.data, ensure_ascii=False))
            else:
                typer.echo("\n".join(reply.lines))
        elif reply.kind == HELP_TEXT:
            typer.echo("\n".join(reply.lines), err=self.as_json)
        elif reply.kind == UNDONE:
            typer.echo("\n".join(reply.lines), err=True)
        elif reply.kind == ENTERED:
            self.note(reply.lines)


@app.command("table")
def table_(
    as_json: SessionJson = False,
    profile: ProfileOption = None,
    rule: RuleOption = None,
    db: DbOption = None,
    user: UserOption = None,
    table: TableOption = None,
) -> None:
    """A live table session: the dealer's cards, each seat, settle; round after round.

    Type the dealer's seven cards, then one line per seat, then settle.
    A seat: `3 As Kd 9c 7h 5s 3d 2c base 25 treasure 5`, or `4 high … / low … base 10`.
    Each round is ruled and recorded as `dealer round` does it.
    Inside: help, show, undo, settle, history, quit."""
    prof = profile_of(profile, rule)
    desk = desk_for(db, user, table)
    check_log(desk)  # a log that cannot be written fails now, not at settle
    console = Console(as_json)
    console.note(
        [
            f"dealer table: table {desk.table}, profile {prof.name}, dealer {desk.user}, "
            f"log {desk.db}",
            "Type help for the notation; settle to settle a round; quit (or Ctrl-D) to leave.",
        ]
    )
    session = Session(prof, desk.table)
    while True:
        line = console.read(session.prompt)
        if line is None:
            break
        session, reply = session.step(line)
        if reply.kind == QUIT:
            break
        if reply.kind != SETTLE:
            console.answer(reply)
            continue
        try:
            ruling_id, ruling = record_round(reply.round, reply.typed, prof, desk)
        except DealerError as exc:
            console.error(f"{exc} (the round is kept: settle again, or undo)")
            continue
        emit(ruling, ruling_id, as_json, render.round_text)
        session = session.settled(ruling_id, ruling.result)
    if session.in_progress:
        typer.echo(
            f"Error: round {session.round_number} was not settled ({session.pending()}): "
            "nothing is recorded for it",
            err=True,
        )
        raise typer.Exit(1)
