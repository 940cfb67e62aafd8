"""`dealer shift summary`: a table's shift from the audit log (read-only)."""

from __future__ import annotations

import json
from collections.abc import Callable
from decimal import Decimal
from typing import Annotated

import typer

from dealer import inputs
from dealer.cli.common import HOUSE, DbOption, JsonFlag, composed
from dealer.cli.render import table as text_table
from dealer.desk.context import HouseRules
from dealer.desk.shift import WAGER_TYPES, ShiftSummary, shift_summary
from dealer.kernel.money import fmt_money

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
    """The summary for a person: each of `_SECTIONS` in turn, a blank line between two
    (a section with nothing to say, as the meters of a shift that moved none, is left out)."""
    return "\n\n".join(text for text in (section(summary) for section in _SECTIONS) if text)


def _counts_text(summary: ShiftSummary) -> str:
    """The table and time range; the rounds, settles and seats counted; the rulings voided,
    those counted with an override's figures, and the other rulings (no money)."""
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
    return "\n".join(lines)


def _wagers_text(summary: ShiftSummary) -> str:
    """A row a wager type (bets, wagered, players' net; Envy wagers nothing of its own) and the
    total, then the players' net and the house's result."""
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
    return "\n".join(
        [
            text_table(rows, ["wager", "bets", "wagered", "players' net"]),
            f"players' net {fmt_money(summary.players_net, signed=True)}; house result "
            f"{fmt_money(summary.house_result, signed=True)}",
        ]
    )


def _meters_text(summary: ShiftSummary) -> str:
    """How each progressive meter moved, and a warning for each whose movement the records do
    not explain; nothing when no meter moved."""
    if not summary.meters:
        return ""
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
    lines = [text_table(meters, headers)]
    lines += [
        f"warning: {fmt_money(m.unexplained, signed=True)} of the {m.meter.replace('_', ' ')} "
        "meter's movement is not explained by the records in this range"
        for m in summary.meters
        if m.unexplained
    ]
    return "\n".join(lines)


def _open_disputes_text(summary: ShiftSummary) -> str:
    """The table's open disputes, or that there are none."""
    if not summary.open_disputes:
        return "No open disputes."
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
    return "Open disputes:\n" + text_table(disputes, ["#", "when", "seat", "rulings", "what"])


def _resolved_disputes_text(summary: ShiftSummary) -> str:
    """The disputes resolved in the range (how, for how much, by whom), or that there are
    none."""
    if not summary.resolved_disputes:
        return "No disputes resolved."
    resolved = [
        [
            str(d.id),
            _when(d.resolution.resolved_at),
            "" if d.seat is None else str(d.seat),
            d.resolution.outcome,
            fmt_money(Decimal(d.resolution.amount_adjusted or 0), signed=True),
            d.resolution.supervisor_id,
            d.description,
        ]
        for d in summary.resolved_disputes
        if d.resolution is not None
    ]
    headers = ["#", "resolved", "seat", "outcome", "adjusted", "supervisor", "what"]
    return "Resolved disputes:\n" + text_table(resolved, headers)


def _meter_adjustments_text(summary: ShiftSummary) -> str:
    """The meters moved by hand in the range (adjustments and reseeds), or that there are
    none."""
    if not summary.meter_adjustments:
        return "No meter adjustments."
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
    return "Meter adjustments:\n" + text_table(adjusted, headers)


def _large_pays_text(summary: ShiftSummary) -> str:
    """Each seat's net win over the sign-off line, or that there is none; the line is said
    either way."""
    threshold = fmt_money(summary.signoff_over)
    if not summary.large_pays:
        return f"No large pays (a seat's net win of more than {threshold})."
    pays = [
        [f"#{p.ruling}", "" if p.seat is None else str(p.seat), fmt_money(p.net, signed=True)]
        for p in summary.large_pays
    ]
    return f"Large pays (a seat's net win of more than {threshold}):\n" + text_table(
        pays, ["ruling", "seat", "net"]
    )


def _signoffs_text(summary: ShiftSummary) -> str:
    """The rulings whose large pay awaits a supervisor's sign-off, and those signed off."""
    waiting = _ids(summary.awaiting_signoff)
    signed = ", ".join(f"#{s.ruling} by {s.by} (#{s.record})" for s in summary.signed_off)
    return f"Awaiting sign-off: {waiting}\nSigned off: {signed or 'none'}"


def _rule_changes_text(summary: ShiftSummary) -> str:
    """The rulings made with `--rule` changes and what they changed, or that there are none."""
    if not summary.rule_changes:
        return "No rulings made with rule changes."
    changed = [[f"#{r}", ", ".join(c)] for r, c in summary.rule_changes.items()]
    return (
        "Rulings made with rule changes (--rule or --house-way, not as the profile has it):\n"
        + text_table(changed, ["ruling", "changes"])
    )


def _own_documents_text(summary: ShiftSummary) -> str:
    """The documents rulings were decided by that the program does not ship, each with its
    SHA-256 and rulings, or that there are none."""
    if not summary.own_documents:
        return "No rulings made with documents the program does not ship."
    rows = [
        [d.what, d.sha256[:12] + "…", ", ".join(f"#{r}" for r in d.rulings)]
        for d in summary.own_documents
    ]
    return (
        "Rulings made with documents the program does not ship (a property's own, or a shipped"
        " one edited):\n" + text_table(rows, ["document", "sha256", "rulings"])
    )


def _corrections_text(summary: ShiftSummary) -> str:
    """The overrides and voids, by record, or that there are none."""
    corrections = sorted((*summary.overrides, *summary.voids), key=lambda c: c.id)
    if not corrections:
        return "No overrides or voids."
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
    return "Overrides and voids:\n" + text_table(rows, headers)


def _close_text(summary: ShiftSummary) -> str:
    """The shift close: the checkpoint line to keep outside the log, where to keep it and what
    it proves (nothing for a summary not read from a log)."""
    if summary.head is None:
        return ""
    line = str(summary.head)
    return "\n".join(
        [
            f"Shift close: keep this checkpoint outside the log: {line}",
            "(write it on the shift's paperwork, or keep it in a file on another machine; "
            "never only beside the log)",
            f"Later, dealer audit verify --checkpoint {line} fails if any of these "
            f"{summary.head.records} records was changed, removed or re-chained, even with the "
            "checkpoints recorded in the log deleted too. A supervisor or auditor records a "
            "signed one: dealer audit checkpoint --output FILE.",
        ]
    )


_SECTIONS: tuple[Callable[[ShiftSummary], str], ...] = (
    _counts_text,
    _wagers_text,
    _meters_text,
    _open_disputes_text,
    _resolved_disputes_text,
    _meter_adjustments_text,
    _large_pays_text,
    _signoffs_text,
    _rule_changes_text,
    _own_documents_text,
    _corrections_text,
    _close_text,
)
"""The sections of the summary for a person, in order: each the text of one part of it."""


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
    voids of one table over a time range; then the shift close: the checkpoint line (record
    count and head hash) to keep outside the log, which `dealer audit verify --checkpoint`
    checks the log against later."""
    start, end = inputs.time_range(since, until)
    result = shift_summary(db, inputs.table_id(table), since=start, until=end, house=house)
    if as_json:
        typer.echo(json.dumps(result.to_dict(), ensure_ascii=False))
    else:
        typer.echo(summary_text(result))
