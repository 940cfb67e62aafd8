"""The `dealer` command: mounts the command groups and guards the process boundary.

A process imports only the group it runs (`dealer paigow …` never imports the audit
desk's modules); `dealer --help` and the test runner see every group."""

from __future__ import annotations

import importlib
import inspect
import os
import re
import sys
import warnings
from collections.abc import Sequence
from typing import Any, NoReturn

import typer
from typer._click.core import Context
from typer._click.formatting import HelpFormatter
from typer.core import TyperGroup

from dealer import __version__
from dealer.cli.signals import Terminated
from dealer.desk.context import DeskNotice
from dealer.kernel.errors import DealerError

GROUPS: dict[str, str] = {
    "paigow": "dealer.cli.paigow",
    "paytables": "dealer.cli.paytables",
    "analyze": "dealer.cli.analyze",
    "round": "dealer.cli.table_round",
    "demo": "dealer.cli.table_round",
    "audit": "dealer.cli.audit",
    "burosh": "dealer.cli.burosh",
    "hyrule": "dealer.cli.hyrule",
    "genpoker": "dealer.cli.genpoker",
    "empire": "dealer.cli.empire",
    "table": "dealer.cli.table_session",
    "shift": "dealer.cli.shift",
    "stats": "dealer.cli.stats",
    "db": "dealer.cli.db",
    "train": "dealer.cli.train",
    "sign-in": "dealer.cli.sign_in",
    "sign-out": "dealer.cli.sign_in",
    "floor": "dealer.cli.floor",
}
"""Command group name → the module whose `app` (a typer.Typer) it mounts."""
TOP_LEVEL = {"dealer.cli.table_round", "dealer.cli.table_session", "dealer.cli.sign_in"}
"""Modules whose commands are top-level commands, not a group."""


_HYPHEN = "-"
_UNBROKEN = "\u2011"
"""A hyphen the help's wrapping does not break at (as the framework's wrap would break
`--progressive-treasure` or `tie-break`); put back before the help is shown."""


class _WholeWords(HelpFormatter):
    """Help text wrapped only between words: never inside an option name or a hyphenated word."""

    def write_text(self, text: str) -> None:
        super().write_text(text.replace(_HYPHEN, _UNBROKEN))

    def write_dl(self, rows: Sequence[tuple[str, str]], *args: Any, **kwargs: Any) -> None:
        kept = [(term, text.replace(_HYPHEN, _UNBROKEN)) for term, text in rows]
        super().write_dl(kept, *args, **kwargs)

    def getvalue(self) -> str:
        return super().getvalue().replace(_UNBROKEN, _HYPHEN)


class _HelpContext(Context):
    """A command's context, drawing its help with `_WholeWords` (typer's own click, pinned)."""

    formatter_class = _WholeWords


class _ErrorBoundary(TyperGroup):
    """The root command group: the one place an error becomes what a person (or a script) sees,
    whichever command raised it — one `Error: …` line on stderr, or with `--json` one JSON
    object `{"error": MESSAGE, "exit": STATUS}`; exit status 1 for a domain error (a value,
    file or database that is refused), 2 for a command line that cannot be parsed (unknown
    command or option, a missing or mistyped argument), 130 for an interrupt (Ctrl-C), 143 for
    SIGTERM."""

    context_class = _HelpContext

    def invoke(self, ctx: Any) -> Any:
        warnings.showwarning = _show_notice
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            raise _Interrupted from None
        finally:
            warnings.showwarning = _PYTHON_SHOWWARNING

    def main(self, args: Sequence[str] | None = None, *rest: Any, **extra: Any) -> Any:
        words = list(sys.argv[1:] if args is None else args)
        _plain_help(self)
        extra["standalone_mode"] = False
        try:
            status = super().main(words, *rest, **extra)
        except DealerError as exc:
            _refuse(str(exc), 1, words)
        except _Interrupted:
            _refuse("interrupted", 130, words)
        except Terminated:
            _refuse("terminated", 143, words)
        except typer.TyperException as exc:  # the framework's: a command line it cannot parse
            if _asks_for_help(exc):
                typer.echo(exc.format_message(), err=True)  # the help (or, shown, nothing)
                sys.exit(exc.exit_code)
            _refuse(_usage(exc), exc.exit_code, words)
        except typer.Abort:
            _refuse("stopped", 1, words)
        except BrokenPipeError:
            sys.stderr = open(os.devnull, "w")  # noqa: SIM115 - the reader left; say nothing
            sys.exit(1)
        except Exception as exc:  # a defect or the machine (a full disk): still one line
            _refuse(f"unexpected failure ({type(exc).__name__}: {exc}); please report it", 1, words)
        sys.exit(status if isinstance(status, int) else 0)


def _plain_help(group: Any) -> None:
    """Help drawn as plain text, each line broken only between words: a command's line in its
    group's list is its help's whole first paragraph (wrapped like any help text), never cut
    to a length with `...`."""
    for command in group.commands.values():
        command.context_class = _HelpContext
        if command.short_help is None and command.help:
            first = inspect.cleandoc(command.help).split("\n\n")[0]
            command.short_help = " ".join(first.split())
        if hasattr(command, "commands"):
            _plain_help(command)


class _Interrupted(Exception):
    """Ctrl-C (SIGINT) while a command ran: carried past the framework to the boundary."""


def _asks_for_help(exc: typer.TyperException) -> bool:
    """Whether `exc` is a group run without a command (`dealer`, `dealer audit`): the usage
    error the framework raises with the group's help as its message (shown already where the
    help is drawn with rich). Its class is not exported, so it is known by name, as typer's
    own error display knows it."""
    return type(exc).__name__ == "NoArgsIsHelpError"


def _usage(exc: typer.TyperException) -> str:
    """A command-line mistake in one line, with where to look for the right form."""
    message = exc.format_message().rstrip(".")
    context = getattr(exc, "ctx", None)
    if context is not None:
        message += f" (see '{context.command_path} --help')"
    return message


def _refuse(message: str, status: int, words: Sequence[str]) -> NoReturn:
    """Say why a command was refused, in one line on stderr, and leave with `status`."""
    import json

    from dealer.kernel.text import printable

    typed = words[: words.index("--")] if "--" in words else words
    if "--json" in typed:
        line = json.dumps({"error": message, "exit": status})
    else:
        line = "Error: " + printable(_LONG_WORD.sub(_shortened, message))
    sys.stdout.flush()
    print(line, file=sys.stderr)
    sys.exit(status)


_LONG_WORD = re.compile(r"\S{200,}")


def _shortened(found: re.Match[str]) -> str:
    word = found[0]
    return f"{word[:60]}… ({len(word):,} characters)"


_PYTHON_SHOWWARNING = warnings.showwarning


def _show_notice(
    message: Warning | str, category: type[Warning], *args: Any, **kwargs: Any
) -> None:
    """A desk's notice as one `note:` line on stderr, when it happens; other warnings as Python
    shows them."""
    if issubclass(category, DeskNotice):
        typer.echo(f"note: {message}", err=True)
    else:
        _PYTHON_SHOWWARNING(message, category, *args, **kwargs)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"dealer {__version__}")
        raise typer.Exit()


def _just(group: typer.Typer, command: str) -> typer.Typer:
    """The group with only `command` mounted (typer builds every command's parameters, so a
    process mounts only the one it runs); the whole group if it has no such command."""
    from typer.main import get_command_name

    picked = [
        c
        for c in group.registered_commands
        if c.callback is not None and (c.name or get_command_name(c.callback.__name__)) == command
    ]
    if not picked:
        return group
    trimmed = typer.Typer(help=group.info.help, no_args_is_help=True)
    trimmed.registered_commands = picked
    trimmed.registered_callback = group.registered_callback
    return trimmed


def build_app(only: str | None = None, command: str | None = None) -> typer.Typer:
    """The root app with every group, or only the named one (with only `command` in it)."""
    root = typer.Typer(
        cls=_ErrorBoundary,
        help="dealer: rulings for casino table games, explained and on the record.",
        no_args_is_help=True,
        rich_markup_mode=None,
        pretty_exceptions_enable=False,
        add_completion=False,
    )

    @root.callback()
    def _root(
        version: bool = typer.Option(
            False, "--version", callback=_version, is_eager=True, help="Show the version."
        ),
    ) -> None:
        """dealer: rulings for casino table games, explained and on the record."""

    mounted: set[str] = set()
    for name, module in GROUPS.items():
        if (only is None or only == name) and module not in mounted:
            mounted.add(module)
            group = importlib.import_module(module).app
            if command is not None and module not in TOP_LEVEL:
                group = _just(group, command)
            # a module whose commands stand at the top level (round, demo) merges in unnamed
            root.add_typer(group, name=None if module in TOP_LEVEL else name)
    return root


def __getattr__(name: str) -> Any:
    """`dealer.cli.app.app`: the full app, built on first use (for tests and tools)."""
    if name == "app":
        return build_app()
    raise AttributeError(name)


def for_command_line(argv: Sequence[str]) -> typer.Typer:
    """The app a command line runs: only the group its first word names, with only the command
    its second word names (every group when the first word is none)."""
    words = [a for a in argv if not a.startswith("-")]
    group = words[0] if words and words[0] in GROUPS else None
    command = words[1] if group and len(words) > 1 else None
    return build_app(group, command)
