"""`dealer stats`: win against expectation per table, dealer and patron, and the flags, from the
audit log (read-only)."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Annotated, Any

import typer

from dealer import inputs
from dealer.cli.common import DbOption, JsonFlag
from dealer.cli.render import table as text_table
from dealer.desk.stats import GROUPS, STATS_ROUNDS, Statistics, statistics

app = typer.Typer(
    help="The floor's statistics: result against expectation, game pace, patrons' play, flags.",
    no_args_is_help=True,
)

SinceOption = Annotated[
    str | None,
    typer.Option("--since", help="From this time, UTC: 2026-05-09 or 2026-05-09T14:00."),
]
UntilOption = Annotated[
    str | None,
    typer.Option("--until", help="Before this time (a date alone: through that day), UTC."),
]
PeriodOption = Annotated[
    str | None,
    typer.Option("--period", help="day, month or year (UTC) holding --date; not with --since."),
]
DateOption = Annotated[
    str | None, typer.Option("--date", help="The date of --period, YYYY-MM-DD (default: today).")
]
ConfidenceOption = Annotated[
    float,
    typer.Option("--confidence", help="The interval's confidence, between 0 and 1."),
]
RoundsOption = Annotated[
    int,
    typer.Option(
        "--rounds",
        help="Rounds the base wager's edge is simulated over (fixed seed; kept in the cache).",
    ),
]


def _range(
    since: str | None, until: str | None, period: str | None, day: str | None
) -> tuple[str | None, str | None]:
    """The time range of `--since/--until` or of `--period/--date`, never both."""
    if period is None:
        if day is not None:
            raise typer.BadParameter("--date is the date of a --period", param_hint="--date")
        return inputs.time_range(since, until)
    if since is not None or until is not None:
        raise typer.BadParameter(
            "give --period or --since/--until, not both", param_hint="--period"
        )
    return inputs.period_range(period, day, datetime.now(UTC).date())


def _compute(
    db: str | None,
    since: str | None,
    until: str | None,
    period: str | None,
    day: str | None,
    confidence: float,
    rounds: int,
    group: str | None,
) -> Statistics:
    start, end = _range(since, until, period, day)
    return statistics(db, since=start, until=end, confidence=confidence, rounds=rounds, group=group)


def _money(value: Any) -> str:
    return "" if value is None else f"{value:,.2f}"


def _value(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "FLAG" if value else ""
    return str(value)


COLUMNS = {
    "tables": ("table", "rulings", "rounds", "rounds_per_hour"),
    "dealers": ("user", "rulings", "rounds", "rounds_per_hour"),
    "patrons": (
        "patron",
        "hands",
        "hands_per_hour",
        "average_bet",
        "theo_source",
        "best_share",
        "play_cost",
        "demonstrated_edge",
    ),
}
MONEY = (
    "wagered",
    "house_result",
    "expected_house_result",
    "standard_error",
    "average_bet",
    "play_cost",
    "theo",
)


def columns(group: str) -> tuple[str, ...]:
    """The figures of a group's text table, in order (headed by their names, `_` as spaces)."""
    return (
        *COLUMNS[group],
        "wagered",
        "house_result",
        "expected_house_result",
        "standard_error",
        "z",
        "flag",
    )


def cell(name: str, value: Any) -> str:
    """A figure as the text output shows it (money to the cent, a flag as FLAG)."""
    return _money(value) if name in MONEY else _value(value)


def heading(result: Statistics, group: str) -> str:
    """The first line of a group's text output: the group, the range, the confidence."""
    span = f"{result.since or 'the first record'} to {result.until or 'now'}"
    return (
        f"{group.capitalize()}, {span}: house result against expectation, "
        f"{result.confidence:.0%} interval"
    )


def _text(result: Statistics, group: str) -> str:
    """The group's rows as a table, then where the figures came from."""
    names = columns(group)
    rows = [[cell(n, row.figures[n]) for n in names] for row in result.groups[group]]
    lines = [
        heading(result, group),
        text_table(rows, [n.replace("_", " ") for n in names]) if rows else "No rulings.",
    ]
    if group == "dealers" and result.left_out:
        lines.append(
            f"{result.left_out:,} ruling{'s' if result.left_out != 1 else ''} made under no "
            "dealer's sign-in left out (a dealer's figures are the rulings their sign-in puts "
            "on the record as theirs)."
        )
    lines += [source_line(s) for s in result.sources]
    return "\n".join(lines)


def source_line(source: dict[str, Any]) -> str:
    """Where an expected figure came from, in a line."""
    if source["method"] == "simulation":
        return (
            f"{source['source']}: house edge {source['house_edge']:.4%} ± "
            f"{source['standard_error']:.4%} (simulated, {source['rounds']:,} rounds, seed "
            f"{source['seed']})"
        )
    return f"{source['source']}: house edge {source['house_edge']:.4%} (exact)"


def _report(group: str) -> Any:
    def command(
        since: SinceOption = None,
        until: UntilOption = None,
        period: PeriodOption = None,
        day: DateOption = None,
        confidence: ConfidenceOption = 0.95,
        rounds: RoundsOption = STATS_ROUNDS,
        as_json: JsonFlag = False,
        db: DbOption = None,
    ) -> None:
        result = _compute(db, since, until, period, day, confidence, rounds, group)
        if as_json:
            typer.echo(json.dumps(result.to_dict(group), ensure_ascii=False))
        else:
            typer.echo(_text(result, group))

    command.__doc__ = (
        f"Per {GROUPS[group]}: rulings, wagered, the house result against its expected figure, "
        "the standard error, z and a flag outside the interval."
    )
    return command


for _group in GROUPS:
    app.command(_group)(_report(_group))


@app.command()
def flags(
    since: SinceOption = None,
    until: UntilOption = None,
    period: PeriodOption = None,
    day: DateOption = None,
    confidence: ConfidenceOption = 0.95,
    rounds: RoundsOption = STATS_ROUNDS,
    as_json: JsonFlag = False,
    db: DbOption = None,
) -> None:
    """Everything outside the interval: tables, dealers and patrons; pay-table events hit more
    often than their exact probability allows; dealers corrected more often than the floor —
    each with its figures and the rulings behind it."""
    result = _compute(db, since, until, period, day, confidence, rounds, None)
    if as_json:
        typer.echo(json.dumps(result.to_dict(None), ensure_ascii=False))
        return
    if not result.flags:
        typer.echo("No flags.")
        return
    for flag in result.flags:
        who = next(flag[k] for k in ("table", "user", "patron") if k in flag)
        figures = ", ".join(f"{k} {v}" for k, v in flag["figures"].items())
        what = f" {flag['paytable']} {flag['event']}" if flag["kind"] == "event" else ""
        rulings = " ".join(f"#{i}" for i in flag["rulings"])
        typer.echo(f"{flag['kind']} {who}{what}: {figures}; rulings {rulings}")
