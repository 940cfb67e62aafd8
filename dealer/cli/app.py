"""The `dealer` command: mounts the command groups and guards the process boundary.

A process imports only the group it runs (`dealer paigow …` never imports the audit
desk's modules); `dealer --help` and the test runner see every group."""

from __future__ import annotations

import importlib
import signal
import sys
import warnings
from typing import Any

import typer
from typer.core import TyperGroup

from dealer import __version__
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
}
"""Command group name → the module whose `app` (a typer.Typer) it mounts."""
TOP_LEVEL = {"dealer.cli.table_round", "dealer.cli.table_session"}
"""Modules whose commands are top-level commands, not a group."""


class _ErrorBoundary(TyperGroup):
    """The root command group: the one place a domain error becomes `Error: …` on stderr and
    exit status 1, whichever command raised it; an interrupt (Ctrl-C, SIGINT) becomes
    `Error: interrupted` and exit status 130 (128 + SIGINT, as a shell reports it)."""

    def invoke(self, ctx: Any) -> Any:
        warnings.showwarning = _show_notice
        try:
            return super().invoke(ctx)
        except DealerError as exc:
            typer.echo(f"Error: {exc}", err=True)
            raise typer.Exit(1) from None
        except KeyboardInterrupt:
            typer.echo("Error: interrupted", err=True)
            raise typer.Exit(130) from None
        finally:
            warnings.showwarning = _PYTHON_SHOWWARNING


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


def _interrupted(signum: int, frame: object) -> None:
    """SIGINT (Ctrl-C): stop the command, through the error boundary. One is enough: later ones
    are not heard, so that none cuts the clean-up short (a live session at a terminal, where
    Ctrl-C only drops the line being typed, listens again)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    raise KeyboardInterrupt


def main() -> None:
    """Console-script entry point. SIGINT is taken by `_interrupted` even where the parent left
    it ignored (a job a script started in the background), where Python installs no handler."""
    signal.signal(signal.SIGINT, _interrupted)
    words = [a for a in sys.argv[1:] if not a.startswith("-")]
    group = words[0] if words and words[0] in GROUPS else None
    command = words[1] if group and len(words) > 1 else None
    build_app(group, command)()
