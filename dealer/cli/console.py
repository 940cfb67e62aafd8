"""The one input loop of the live sessions: `dealer table`, `dealer hyrule game`,
`dealer genpoker draw`, `dealer empire hand` and the training drills (`dealer train`).

Lines come from a terminal (a prompt, line editing where readline is there, Ctrl-C drops the
line being typed) or from a pipe (no prompts). Blank lines and `#` comments are skipped; every
other line goes to the session's step and its reply to the command's `show`. A line the session
refuses is one `Error: …` line on stderr (`Error: line N: …` from a pipe, N counting every
line; a line over `LINE_LIMIT` characters, or holding a control character other than a tab, is
refused) and the session goes on. At the end of input (or once the session is over) the session
finishes, and what it says is shown too. A session that may not end yet (a round dealt but not
settled) refuses to finish: from a pipe that is the command's `Error: …` (exit status 1); at a
terminal, where Ctrl-D is easily pressed by mistake, the person is asked whether to leave anyway,
and stays in the session unless they answer yes.
"""

from __future__ import annotations

import signal
import sys
from collections.abc import Callable
from typing import Generic, Protocol, TypeVar

import typer

from dealer.kernel.errors import DealerError
from dealer.kernel.text import QUOTE_LIMIT, has_control, quoted

R = TypeVar("R")
R_co = TypeVar("R_co", covariant=True)


class Session(Protocol[R_co]):
    """What the console drives: a desk's live session."""

    @property
    def prompt(self) -> str:
        """What the session waits for."""
        ...

    @property
    def over(self) -> bool:
        """True once nothing more is to be typed."""
        ...

    def step(self, line: str) -> R_co:
        """One typed line (`DealerError` refuses it)."""
        ...

    def finish(self) -> R_co:
        """The end of the session (`DealerError` when it may not end now)."""
        ...


LINE_LIMIT = 4096
"""The most characters a line of a live session may have (a longer one is refused, and only this
much of it is ever held: the rest is read and dropped)."""


def _skip_rest_of_line() -> None:
    """Read and drop what is left of an over-long line, a bounded piece at a time."""
    while (more := sys.stdin.readline(LINE_LIMIT)) and not more.endswith("\n"):
        pass


def at_terminal() -> bool:
    """True when a person types at a terminal (prompts are shown)."""
    return sys.stdin.isatty()


class Console(Generic[R]):
    """The terminal or the pipe: reads lines, reports refused ones, hands replies to `show`."""

    def __init__(self, as_json: bool = False, *, interrupt_ends: bool = False) -> None:
        self.as_json = as_json
        self.interrupt_ends = interrupt_ends
        """Ctrl-C ends the input as Ctrl-D does (a training drill ends with its summary)."""
        self.interactive = at_terminal()
        self.editing = self.interactive and sys.stdout.isatty()
        self.line = 0
        self.on_interrupt = signal.getsignal(signal.SIGINT)
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
                    text = sys.stdin.readline(LINE_LIMIT + 1)
                    if not text:
                        raise EOFError
                    if len(text) > LINE_LIMIT and not text.endswith("\n"):
                        _skip_rest_of_line()
            except EOFError:
                if self.interactive:
                    typer.echo("", err=True)
                return None
            except KeyboardInterrupt:
                if self.interrupt_ends:
                    if self.interactive:
                        typer.echo("", err=True)
                    return None
                if not self.interactive:
                    raise
                signal.signal(signal.SIGINT, self.on_interrupt)  # the next Ctrl-C is heard too
                typer.echo("\n(line dropped; quit to leave)", err=True)
                continue
            self.line += 1
            return text

    def note(self, lines: tuple[str, ...] | list[str]) -> None:
        """Chatter for a person at a terminal (stderr); nothing in a pipe."""
        if self.interactive:
            typer.echo("\n".join(lines), err=True)

    def say(self, text: str) -> None:
        """Text for the people at the table: stdout; with --json stderr at a terminal (stdout
        stays JSON Lines) and nothing through a pipe."""
        if not text:
            return
        if not self.as_json:
            typer.echo(text)
        elif self.interactive:
            typer.echo(text, err=True)

    def error(self, message: str) -> None:
        """One `Error: …` line on stderr (with the line number when reading a pipe)."""
        where = "" if self.interactive else f"line {self.line}: "
        typer.echo(f"Error: {where}{message}", err=True)

    def run(
        self,
        session: Session[R],
        show: Callable[[R], None],
        refused: Callable[[int, str, DealerError], None] | None = None,
    ) -> None:
        """Drive `session` to its end; `refused(line number, text, error)` hears of each refused
        line (after its `Error:` line). From a pipe, a session with a refused line ends with exit
        status 1, so that a script never takes it for a clean one; at a terminal the person saw
        each refusal and typed the line again, and the session ends normally."""
        count = 0
        while True:
            line = None if session.over else self.read(session.prompt)
            if line is None:
                if self._finished(session, show):
                    break
                continue
            text = line.strip()
            if not text or text.startswith("#"):
                continue
            try:
                if len(text) > LINE_LIMIT:
                    text = text[:QUOTE_LIMIT] + "…"
                    raise DealerError(f"a line may be at most {LINE_LIMIT:,} characters")
                if has_control(text.replace("\t", " ")):
                    raise DealerError(
                        f"line {quoted(text)} holds a control character (ESC, a form feed, a "
                        "file separator…): type it in plain characters"
                    )
                reply = session.step(text)
            except DealerError as exc:
                count += 1
                self.error(str(exc))
                if refused is not None:
                    refused(self.line, text, exc)
                continue
            show(reply)
        if count and not self.interactive:
            raise typer.Exit(1)

    def _finished(self, session: Session[R], show: Callable[[R], None]) -> bool:
        """Finish the session and show what it says; False when it may not end yet and the
        person at the terminal chose to stay. Asked only at the end of input: a session over by
        its own command (quit) is not asked again."""
        try:
            said = session.finish()
        except DealerError as exc:
            if session.over or not self.interactive:
                raise
            typer.echo(str(exc), err=True)
            answer = self.read("leave anyway? [y/N] ")
            return answer is not None and answer.strip().lower() in ("y", "yes")
        show(said)
        return True
