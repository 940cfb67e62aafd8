"""What every command shares: the common options, recording a ruling
in the audit log, and showing it (JSON for scripts, text for people)."""

from __future__ import annotations

import functools
import inspect
import json
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, TypeVar

import typer

from dealer.desk.context import UNASSIGNED_TABLE, Desk, HouseRules, desk_for
from dealer.desk.recording import record
from dealer.desk.rulings import Recorded, rule_lines
from dealer.games.paigow.profile import Profile, load_profile
from dealer.inputs import lines
from dealer.kernel.errors import DealerError
from dealer.kernel.ruling import Ruling

R = TypeVar("R")

JsonFlag = Annotated[
    bool, typer.Option("--json", help="One JSON object on stdout (JSON Lines with --batch).")
]
DbOption = Annotated[
    Path | None,
    typer.Option("--db", envvar="DEALER_DB", help="Audit database (default: logs/dealer.sqlite)."),
]
UserOption = Annotated[
    str | None, typer.Option("--user", envvar="DEALER_USER", help="Who rules (user id).")
]
TableOption = Annotated[
    str | None, typer.Option("--table", envvar="DEALER_TABLE", help="Which table (table id).")
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


def profile_of(path: Path | None, rules: list[str] | None) -> Profile:
    """The table profile for this command."""
    return load_profile(path, rules or ())


def emit(
    ruling: Ruling, ruling_id: int | None, as_json: bool, human: Callable[[Ruling], str]
) -> None:
    """Show one recorded ruling."""
    if as_json:
        typer.echo(json.dumps(ruling.to_json(ruling_id), ensure_ascii=False))
    else:
        typer.echo(human(ruling))
        if ruling_id is not None:
            typer.echo(f"ruling #{ruling_id} recorded")


def emit_event(event: str, **fields: Any) -> None:
    """One JSON Lines event of an interactive game."""
    typer.echo(json.dumps({"event": event, **fields}, ensure_ascii=False))


def rule_inputs(
    typed: str | None,
    batch: str | None,
    rule_text: Callable[[str], Ruling],
    desk: Desk,
    as_json: bool,
    human: Callable[[Ruling], str],
    what: str = "cards",
) -> None:
    """Rule the typed input, or each line of --batch; record; show."""
    if batch is not None:
        if typed:
            raise DealerError(f"give {what} or --batch, not both")
        run_batch(batch, rule_text, desk, as_json, human)
        return
    if not typed:
        raise DealerError(f"no {what} given")
    ruling = rule_text(typed)
    (ruling_id,) = record(desk, [ruling])
    emit(ruling, ruling_id, as_json, human)


def run_batch(
    source: str,
    rule_line: Callable[[str], Ruling],
    desk: Desk,
    as_json: bool,
    human: Callable[[Ruling], str],
) -> None:
    """Rule and record each line on its own; a bad line is reported (and, with --json, answered
    by an error object) and the others still ruled. Exit 1 if any line failed."""
    failed = 0
    for number, text in lines(source):
        try:
            ruling = rule_line(text)
            (ruling_id,) = record(desk, [ruling])
        except DealerError as exc:
            failed += 1
            typer.echo(f"Error: line {number}: {exc}", err=True)
            if as_json:
                typer.echo(json.dumps({"line": number, "input": text, "error": str(exc)}))
            continue
        emit(ruling, ruling_id, as_json, human)
    if failed:
        raise typer.Exit(1)


def show(recorded: Recorded, as_json: bool, human: Callable[[Ruling], str]) -> None:
    """Show one ruling the desk recorded."""
    emit(recorded.ruling, recorded.ruling_id, as_json, human)


def show_each(
    typed: str | None,
    batch: str | None,
    rule_one: Callable[[str], Recorded],
    as_json: bool,
    human: Callable[[Ruling], str],
    what: str = "cards",
) -> None:
    """The typed input ruled by the desk, or each line of --batch: a bad line is reported (and,
    with --json, answered by an error object) and the others still ruled; exit 1 if any failed."""
    if batch is None:
        if not typed:
            raise DealerError(f"no {what} given")
        show(rule_one(typed), as_json, human)
        return
    if typed:
        raise DealerError(f"give {what} or --batch, not both")
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


_DESK_OPTIONS = (
    inspect.Parameter("db", inspect.Parameter.KEYWORD_ONLY, default=None, annotation=DbOption),
    inspect.Parameter("user", inspect.Parameter.KEYWORD_ONLY, default=None, annotation=UserOption),
    inspect.Parameter(
        "table", inspect.Parameter.KEYWORD_ONLY, default=None, annotation=TableOption
    ),
)
_HOUSE_OPTIONS = (
    inspect.Parameter(
        "profile", inspect.Parameter.KEYWORD_ONLY, default=None, annotation=ProfileOption
    ),
    inspect.Parameter("rule", inspect.Parameter.KEYWORD_ONLY, default=None, annotation=RuleOption),
)


def at_desk(*, default_table: str | None = None) -> Callable[[Callable[..., R]], Callable[..., R]]:
    """A command that acts at the desk: its `desk: Desk` parameter becomes the `--db`, `--user`
    and `--table` options (with their environment variables), and a `house: HouseRules`
    parameter becomes `--profile` and `--rule`, so every command spells them once, here."""

    def wrap(command: Callable[..., R]) -> Callable[..., R]:
        signature = inspect.signature(command, eval_str=True)
        own = [p for p in signature.parameters.values() if p.name not in ("desk", "house")]
        extra = list(_DESK_OPTIONS) if "desk" in signature.parameters else []
        if "house" in signature.parameters:
            extra += _HOUSE_OPTIONS

        @functools.wraps(command)
        def run(*args: Any, **options: Any) -> R:
            if "desk" in signature.parameters:
                where = (options.pop("db"), options.pop("user"), options.pop("table"))
                options["desk"] = desk_for(*where, default_table=default_table or UNASSIGNED_TABLE)
            if "house" in signature.parameters:
                options["house"] = HouseRules.of(options.pop("profile"), options.pop("rule"))
            return command(*args, **options)

        parameters = [*own, *extra]
        run.__signature__ = signature.replace(parameters=parameters)  # type: ignore[attr-defined]
        run.__annotations__ = {p.name: p.annotation for p in parameters} | {"return": None}
        return run

    return wrap
