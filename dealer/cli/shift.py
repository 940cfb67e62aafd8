"""`dealer shift summary`: a table's shift from the audit log (read-only)."""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Annotated

import typer

from dealer import inputs
from dealer.cli.common import HOUSE, DbOption, JsonFlag, composed
from dealer.cli.render import table as text_table
from dealer.desk.context import HouseRules
from dealer.desk.shift import WAGER_TYPES, ShiftSummary, shift_summary
from dealer.kernel.errors import DealerError
from dealer.kernel.money import fmt_money
from dealer.kernel.text import quoted

app = typer.Typer(help="Shift reports for a table, from the audit log.", no_args_is_help=True)

WAGER_LABELS = {w: w.words if w.placed else f"{w.words} (pays)" for w in WAGER_TYPES}
"""Each wager's row: a wager with no amount of its own (Envy) counts its pays."""


def _ids(ids: tuple[int, ...]) -> str:
    return " ".join(f"#{i}" for i in ids) if ids else "none"


def _when(stamp: str) -> str:
    return stamp[:19] + "Z" if stamp else ""


def _meter_value(value: Decimal | None, link: str | None) -> str:
    """A meter's start or end: a linked meter's are the link's (moved by other tables too)."""
    if value is not None:
        return fmt_money(value)
    return "linked" if link else "unset"


def summary_text(summary: ShiftSummary) -> str:
    """The summary for a person: counts, a table per wager type, meters, disputes, corrections."""
    span = (
        f"{_when(summary.since or '') or 'the first record'} to "
        f"{_when(summary.until or '') or 'now'}"
    )
    lines = [
        f"Shift summary: table {summary.table}, {span}",
        f"rounds {len(summary.rounds)} ({_ids(summary.rounds)}); single-seat settles "
        f"{len(summary.settles)} ({_ids(summary.settles)}); seats played {summary.seats}",
    ]
    if summary.voided:
        lines.append(f"voided, not counted: {_ids(summary.voided)}")
    if summary.replaced:
        by = ", ".join(f"#{r} by override #{o}" for r, o in summary.replaced.items())
        lines.append(f"counted with an override's figures: {by}")
    if summary.other_rulings:
        lines.append(f"other rulings (no money): {summary.other_rulings}")
    rows = [
        [
            WAGER_LABELS[name],
            str(t.count),
            fmt_money(t.wagered) if name.placed else "",
            fmt_money(t.net, signed=True),
        ]
        for name, t in summary.wagers.items()
    ]
    rows.append(
        ["total", "", fmt_money(summary.total_wagered), fmt_money(summary.players_net, signed=True)]
    )
    lines += [
        "",
        text_table(rows, ["wager", "bets", "wagered", "players' net"]),
        f"players' net {fmt_money(summary.players_net, signed=True)}; house result "
        f"{fmt_money(summary.house_result, signed=True)}",
    ]
    if summary.meters:
        meters = [
            [
                m.meter.replace("_", " ") + ("" if m.link is None else f" (link {m.link})"),
                _meter_value(m.start, m.link),
                fmt_money(m.contributions),
                f"{m.hits} ({fmt_money(m.paid)})",
                fmt_money(m.reseeds),
                fmt_money(m.adjustments, signed=True),
                _meter_value(m.end, m.link),
            ]
            for m in summary.meters
        ]
        headers = ["meter", "start", "contributions", "hits (paid)", "reseeds", "adjusted", "end"]
        lines += ["", text_table(meters, headers)]
        lines += [
            f"warning: {fmt_money(m.unexplained, signed=True)} of the {m.meter.replace('_', ' ')} "
            "meter's movement is not explained by the records in this range"
            for m in summary.meters
            if m.unexplained
        ]
    if summary.open_disputes:
        disputes = [
            [
                str(d.id),
                _when(d.occurred_at),
                "" if d.seat is None else str(d.seat),
                " ".join(f"#{r}" for r in d.rulings),
                d.description,
            ]
            for d in summary.open_disputes
        ]
        lines += [
            "",
            "Open disputes:",
            text_table(disputes, ["#", "when", "seat", "rulings", "what"]),
        ]
    else:
        lines += ["", "No open disputes."]
    if summary.resolved_disputes:
        resolved = [
            [
                str(d.id),
                _when(d.resolution.resolved_at),
                "" if d.seat is None else str(d.seat),
                d.resolution.outcome,
                fmt_money(Decimal(d.resolution.amount_adjusted or 0)),
                d.resolution.supervisor_id,
                d.description,
            ]
            for d in summary.resolved_disputes
            if d.resolution is not None
        ]
        headers = ["#", "resolved", "seat", "outcome", "adjusted", "supervisor", "what"]
        lines += ["", "Resolved disputes:", text_table(resolved, headers)]
    else:
        lines += ["", "No disputes resolved."]
    if summary.meter_adjustments:
        adjusted = [
            [
                str(m.id),
                _when(m.recorded_at),
                m.user_id,
                m.meter.replace("_", " "),
                fmt_money(m.delta, signed=True),
                fmt_money(m.value),
                m.reason,
            ]
            for m in summary.meter_adjustments
        ]
        headers = ["#", "when", "supervisor", "meter", "change", "to", "reason"]
        lines += ["", "Meter adjustments:", text_table(adjusted, headers)]
    else:
        lines += ["", "No meter adjustments."]
    threshold = fmt_money(summary.signoff_over)
    if summary.large_pays:
        pays = [
            [f"#{p.ruling}", "" if p.seat is None else str(p.seat), fmt_money(p.net, signed=True)]
            for p in summary.large_pays
        ]
        lines += [
            "",
            f"Large pays (a seat's net win of more than {threshold}):",
            text_table(pays, ["ruling", "seat", "net"]),
        ]
    else:
        lines += ["", f"No large pays (a seat's net win of more than {threshold})."]
    waiting = _ids(summary.awaiting_signoff)
    signed = ", ".join(f"#{s.ruling} by {s.by} (#{s.record})" for s in summary.signed_off)
    lines += ["", f"Awaiting sign-off: {waiting}", f"Signed off: {signed or 'none'}"]
    if summary.rule_changes:
        changed = [[f"#{r}", ", ".join(c)] for r, c in summary.rule_changes.items()]
        lines += [
            "",
            "Rulings made with rule changes (--rule, not as the profile has it):",
            text_table(changed, ["ruling", "changes"]),
        ]
    else:
        lines += ["", "No rulings made with rule changes."]
    corrections = sorted((*summary.overrides, *summary.voids), key=lambda c: c.id)
    if corrections:
        rows = [
            [
                str(c.id),
                c.kind,
                _when(c.recorded_at),
                c.user_id,
                "" if c.target is None else f"#{c.target}",
                c.decision or "",
                c.reason,
            ]
            for c in corrections
        ]
        headers = ["#", "what", "when", "supervisor", "of", "decision", "reason"]
        lines += ["", "Overrides and voids:", text_table(rows, headers)]
    else:
        lines += ["", "No overrides or voids."]
    return "\n".join(lines)


@app.command()
@composed(house=HOUSE)
def summary(
    house: HouseRules,
    table: Annotated[
        str, typer.Option("--table", envvar="DEALER_TABLE", help="The table (table id).")
    ],
    since: Annotated[
        str | None,
        typer.Option("--since", help="From this time, UTC: 2026-05-09 or 2026-05-09T14:00."),
    ] = None,
    until: Annotated[
        str | None,
        typer.Option("--until", help="Before this time (a date alone: through that day), UTC."),
    ] = None,
    as_json: JsonFlag = False,
    db: DbOption = None,
) -> None:
    """Rounds, seats, wagered and net by wager type (of the rulings in effect), the house's
    result, meter movements and adjustments, large pays (over the profile's `signoff_over`) and
    their sign-offs, open and resolved disputes, rulings made with rule changes, overrides and
    voids of one table over a time range."""
    start = inputs.time(since) if since else None
    end = inputs.time(until, end_of_day=True) if until else None
    if start is not None and end is not None and start >= end:
        raise DealerError(f"--since {quoted(since)} is not before --until {quoted(until)}")
    result = shift_summary(db, inputs.table_id(table), since=start, until=end, house=house)
    if as_json:
        typer.echo(json.dumps(result.to_dict(), ensure_ascii=False))
    else:
        typer.echo(summary_text(result))
