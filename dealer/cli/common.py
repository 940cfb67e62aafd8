"""What every command shares: the common options (declared once, `at_desk`), and showing what
the desk ruled (JSON for scripts, text for people; a batch line by line)."""

from __future__ import annotations

import inspect
import json
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TypeVar, cast

import typer

from dealer.cli.streams import StreamError
from dealer.desk.context import HouseRules, desk_for, own_table_desk
from dealer.desk.recording import Recorded, rule_lines
from dealer.kernel.errors import DealerError
from dealer.kernel.ruling import Ruling
from dealer.kernel.tuples import NamedTuple

if TYPE_CHECKING:
    from dealer.desk.live import Live, Said
    from dealer.kernel.replies import Reply

R = TypeVar("R")
Answer = TypeVar("Answer", bound="Reply")
"""A live session's reply (`kernel.replies.Reply`)."""

JsonFlag = Annotated[bool, typer.Option("--json", help="One JSON object on stdout.")]
BatchJsonFlag = Annotated[
    bool, typer.Option("--json", help="One JSON object on stdout (JSON Lines with --batch).")
]
"""`--json` of a command that also takes `--batch` (the help of each names only its own)."""
DbOption = Annotated[
    str | None,
    typer.Option(
        "--db",
        envvar="DEALER_DB",
        help="Audit database: a file, or a postgresql:// URL (default: logs/dealer.sqlite).",
    ),
]
UserOption = Annotated[
    str | None, typer.Option("--user", envvar="DEALER_USER", help="Who rules (user id).")
]
TableOption = Annotated[
    str | None, typer.Option("--table", envvar="DEALER_TABLE", help="Which table (table id).")
]
OwnTableOption = Annotated[
    str | None,
    typer.Option("--table", help="Not taken: dealt at its own table (DEALER_TABLE not used)."),
]
ProfileOption = Annotated[
    Path | None, typer.Option("--profile", help="A YAML table profile (house rules).")
]
RuleOption = Annotated[
    list[str] | None,
    typer.Option("--rule", help="Override one setting: KEY=VALUE (repeatable)."),
]
BatchOption = Annotated[
    str | None, typer.Option("--batch", help="Rule one input per line of FILE ('-': stdin).")
]
SeedOption = Annotated[
    int | None,
    typer.Option("--seed", min=0, help="Shuffle seed, to replay a deal (default: random)."),
]


class OptionsMisused(typer.BadParameter):
    """A command line whose options go together wrongly, or that lacks the input it needs
    (cards, or --batch): exit 2, as every command line that cannot be read, in one wording
    whatever the command (`paigow settle`'s hands, `hyrule game`'s deal, a ruling's input)."""

    def format_message(self) -> str:
        return self.message


def emit(
    ruling: Ruling, ruling_id: int | None, as_json: bool, human: Callable[[Ruling], str]
) -> None:
    """Show one recorded ruling; if standard output fails, the one `Error:` line says the ruling
    was recorded all the same, and where to read it."""
    try:
        if as_json:
            typer.echo(json.dumps(ruling.to_json(ruling_id), ensure_ascii=False))
        else:
            typer.echo(human(ruling))
            if ruling_id is not None:
                typer.echo(f"ruling #{ruling_id} recorded")
                if "signoff_required" in ruling.result:
                    typer.echo(f"awaiting sign-off: dealer audit signoff {ruling_id}")
    except StreamError as exc:
        if ruling_id is None:
            raise
        raise StreamError(
            f"ruling #{ruling_id} was recorded, but {exc}: read it with "
            f"'dealer audit show {ruling_id}'"
        ) from None


def emit_event(event: str, **fields: Any) -> None:
    """One JSON Lines event of an interactive game."""
    typer.echo(json.dumps({"event": event, **fields}, ensure_ascii=False))


def emit_said(said: Said[Any], event: str, as_json: bool, human: Callable[[Ruling], str]) -> None:
    """The ruling a live session's step recorded, if it recorded one: the `event` with the
    ruling's JSON, or its text for a person."""
    if said.ruling is None or said.ruling_id is None:
        return
    if as_json:
        emit_event(event, **said.ruling.to_json(said.ruling_id))
    else:
        emit(said.ruling, said.ruling_id, False, human)


def run_turns(
    session: Live[Any, Answer], show: Callable[[Said[Answer]], None], as_json: bool
) -> None:
    """Run a live session in which the seats act one at a time (`kernel.turns.SeatTurns`) line
    by line (`Console`), each step shown by `show`; with `--json`, a refused line's `Error:` is
    followed by an `error` event naming the seat to act (from 1), the line and why."""
    from dealer.cli.console import Console

    def refused(number: int, text: str, exc: DealerError) -> None:
        if as_json:
            index = session.state.to_act
            seat = None if index is None else index + 1
            emit_event("error", seat=seat, input=text, error=str(exc))

    console: Console[Said[Answer]] = Console(as_json)
    console.run(session, show, refused)


def hands_line(hands: list[str] | None) -> str | None:
    """Hands given one an argument as one typed line, as a batch file's line holds them:
    `A | B`; None when none is given."""
    return " | ".join(hands) if hands else None


def show(recorded: Recorded, as_json: bool, human: Callable[[Ruling], str]) -> None:
    """Show one ruling the desk recorded."""
    emit(recorded.ruling, recorded.ruling_id, as_json, human)


class Inputs(NamedTuple):
    """Where a ruling command's input comes from (`--batch FILE`, else its arguments) and how it
    answers (`--json`)."""

    as_json: bool
    batch: str | None


def show_each(
    typed: str | list[str] | None,
    io: Inputs,
    rule_one: Callable[[str], Recorded],
    human: Callable[[Ruling], str],
    what: str = "cards",
) -> None:
    """The typed input (words joined by spaces) ruled by the desk, or each line of --batch: a
    bad line is reported (and, with --json, answered by an error object) and the others still
    ruled; exit 1 if any failed."""
    as_json, batch = io
    if isinstance(typed, list):
        typed = " ".join(typed)
    if batch is None:
        if not typed:
            raise OptionsMisused(f"no {what} given")
        show(rule_one(typed), as_json, human)
        return
    if typed:
        raise OptionsMisused(f"give {what} or --batch, not both")
    failed = 0
    for outcome in rule_lines(batch, rule_one):
        if outcome.recorded is not None:
            show(outcome.recorded, as_json, human)
            continue
        failed += 1
        typer.echo(f"Error: line {outcome.number}: {outcome.error}", err=True)
        if as_json:
            line = {"line": outcome.number, "input": outcome.text, "error": outcome.error}
            typer.echo(json.dumps(line))
    if failed:
        raise typer.Exit(1)


class Composite(NamedTuple):
    """A value a command receives whole but a person types as several options: the options,
    and how their values (as keywords) make the value."""

    options: tuple[inspect.Parameter, ...]
    build: Callable[..., Any]


def option(name: str, annotation: Any, default: Any = None) -> inspect.Parameter:
    """One typer option of a composite, by its parameter name and `Annotated` type."""
    return inspect.Parameter(
        name, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=annotation
    )


def _desk(own_table: str | None) -> Composite:
    if own_table is not None:
        return Composite(
            (option("db", DbOption), option("user", UserOption), option("table", OwnTableOption)),
            lambda db, user, table: own_table_desk(db, user, own_table, table),
        )
    return Composite(
        (option("db", DbOption), option("user", UserOption), option("table", TableOption)),
        lambda db, user, table: desk_for(db, user, table),
    )


HOUSE = Composite(
    (option("profile", ProfileOption), option("rule", RuleOption)),
    lambda profile, rule: HouseRules.of(profile, rule),
)
"""`--profile` and `--rule`: the house rules."""

RuleSupervisorOption = Annotated[
    str | None,
    typer.Option(
        "--supervisor",
        help="The supervisor approving rule changes to an approved profile.",
    ),
]
PinOption = Annotated[
    str | None,
    typer.Option("--pin", envvar="DEALER_PIN", help="The supervisor's PIN (else asked, hidden)."),
]


def ask_hidden(prompt: str, give: str, *, confirm: bool = False) -> str:
    """What a person types at `prompt`, not shown (a PIN, a key); with `confirm`, typed twice.

    Asked only at a terminal: with none (a pipe, a job, a service), the framework would print
    the prompt on standard output and Python's hidden input would warn and read standard input
    in the clear. That is refused before anything is shown or read, in one line saying what is
    needed and how to give it (`give`: the option and its environment variable)."""
    if not _terminal_to_ask_at():
        raise DealerError(f"{prompt} is needed and there is no terminal to ask it at: give {give}")
    if confirm:
        return str(typer.prompt(prompt, hide_input=True, confirmation_prompt=True))
    return str(typer.prompt(prompt, hide_input=True))


def _terminal_to_ask_at() -> bool:
    """Whether hidden input has a terminal to read from: the process's controlling terminal, or
    a standard input that is a terminal. A standard input put in place of the process's own
    (a runner typing for a person, in the same process) is read as it is."""
    import os
    import sys

    if sys.__stdin__ is not None and sys.stdin is not sys.__stdin__:
        return True
    try:
        os.close(os.open("/dev/tty", os.O_RDWR | os.O_NOCTTY))
    except OSError:
        return sys.stdin is not None and sys.stdin.isatty()
    return True


def pin_or_ask(pin: str | None, who: str) -> str:
    """`pin` as given (`--pin`, `DEALER_PIN`), else asked of `who` with hidden input."""
    return pin if pin is not None else ask_hidden(f"PIN for {who}", "--pin (or DEALER_PIN)")


def _ruling_house(
    profile: Path | None, rule: list[str] | None, supervisor: str | None, pin: str | None
) -> HouseRules:
    """The house rules of a ruling command; a supervisor named without `--pin` is asked for it
    (hidden). `--supervisor` does not read `DEALER_USER`: that is the dealer's id here."""
    from dealer import inputs

    who = inputs.user_id(supervisor, "--supervisor") if supervisor else None
    return HouseRules.of(profile, rule, who, pin if who is None else pin_or_ask(pin, who))


RULING_HOUSE = Composite(
    (
        option("profile", ProfileOption),
        option("rule", RuleOption),
        option("supervisor", RuleSupervisorOption),
        option("pin", PinOption),
    ),
    _ruling_house,
)
"""`--profile`, `--rule`, and `--supervisor`/`--pin`: the house rules of a ruling, with the
supervisor who approves `--rule` changes to an approved profile."""


class _Composed:
    """A command with composite parameters. Its signature (what typer reads to build the
    command's options) is worked out when typer first asks for it: a process builds only the
    command it runs, so the others of the group never pay for it. A composite given as a
    function is made then too (its options may come from a registry the command alone loads)."""

    def __init__(
        self,
        command: Callable[..., Any],
        composites: dict[str, Composite | Callable[[], Composite]],
    ) -> None:
        self.__wrapped__ = command
        self.__name__ = command.__name__
        self.__qualname__ = command.__qualname__
        self.__module__ = command.__module__
        self.__doc__ = command.__doc__
        self._given = composites
        self._made: dict[str, Composite] | None = None
        self._signature: inspect.Signature | None = None

    @property
    def _composites(self) -> dict[str, Composite]:
        if self._made is None:
            self._made = {
                name: given if isinstance(given, Composite) else given()
                for name, given in self._given.items()
            }
        return self._made

    @property
    def __signature__(self) -> inspect.Signature:
        if self._signature is None:
            # the command's own annotations evaluated, a composite's not: its value's type may
            # be one the command line names only for the type checker
            signature = inspect.signature(self.__wrapped__)
            scope = getattr(self.__wrapped__, "__globals__", {})
            own = [
                p.replace(annotation=eval(p.annotation, scope))
                if isinstance(p.annotation, str)
                else p
                for p in signature.parameters.values()
                if p.name not in self._given
            ]
            added = [o for c in self._composites.values() for o in c.options]
            self._signature = signature.replace(parameters=own + added)
        return self._signature

    @property
    def __annotations__(self) -> dict[str, Any]:  # type: ignore[override]
        parameters = self.__signature__.parameters.values()
        return {p.name: p.annotation for p in parameters} | {"return": None}

    def __call__(self, *args: Any, **options: Any) -> Any:
        for name, composite in self._composites.items():
            typed = {o.name: options.pop(o.name) for o in composite.options}
            options[name] = composite.build(**typed)
        return self.__wrapped__(*args, **options)


def composed(
    **composites: Composite | Callable[[], Composite],
) -> Callable[[Callable[..., R]], Callable[..., R]]:
    """A command whose parameters named in `composites` are typed as those composites' options
    (declared once, here or beside the command group; or made by a function when the command
    is built) and handed to it built."""

    def wrap(command: Callable[..., R]) -> Callable[..., R]:
        return cast(Callable[..., R], _Composed(command, composites))

    return wrap


INPUTS = Composite(
    (option("as_json", BatchJsonFlag, False), option("batch", BatchOption)),
    lambda as_json, batch: Inputs(as_json, batch),
)
"""`--json` and `--batch FILE`."""


def at_desk(
    *,
    own_table: str | None = None,
    analysis: bool = False,
    **more: Composite | Callable[[], Composite],
) -> Callable[[Callable[..., R]], Callable[..., R]]:
    """A command that acts at a desk (`desk: Desk`: `--db`, `--user`, `--table` with their
    environment variables; with `own_table`, always at that table: `--table` refused and
    `DEALER_TABLE` not read); with a `house: HouseRules` parameter, under house rules
    (`--profile`, `--rule`, and for a ruling `--supervisor`/`--pin`; an `analysis` rules nothing,
    so its `--rule` needs no supervisor); with an `io: Inputs` parameter, ruling typed or batch
    input (`--json`, `--batch`); and the command's own composites (`more`, by parameter)."""

    def wrap(command: Callable[..., R]) -> Callable[..., R]:
        names = inspect.signature(command).parameters
        chosen = {"desk": _desk(own_table)} if "desk" in names else {}
        if "house" in names:
            chosen["house"] = HOUSE if analysis or own_table is not None else RULING_HOUSE
        if "io" in names:
            chosen["io"] = INPUTS
        return composed(**more, **chosen)(command)

    return wrap
