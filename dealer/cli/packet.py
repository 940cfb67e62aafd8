"""A dispute packet for people: as text, or as one self-contained HTML page to print.

Its first section says where each disputed ruling stands (in effect; overridden by #N, whose
decision is in effect; voided by #N, nothing of it in effect), so that no reader takes a
corrected ruling's figures for what was paid.

Both are drawn from the same sections (a heading, then label and value rows, a value a line of
text or a table: a ruling's hands as set, its wagers, a round's seats), so the page, the text
and the browser's page never say different things. Each time is written once, in the machine's
local time with its zone (`--json` keeps the stored UTC). The settings are named lines, as
`audit show` writes them. Every stored text is shown safe: control characters escaped in the
text, and HTML-escaped in the page, which has inline CSS and no script."""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal
from html import escape

from dealer.cli.render import (
    PAYTABLE_HEADERS,
    pretty,
    round_dealer,
    round_seats,
    round_total,
    setting_fields,
    setting_rows,
    settle_hands,
    settle_wagers,
    table,
)
from dealer.desk.packet import Packet, deciding
from dealer.desk.records import Record
from dealer.kernel.money import fmt_money
from dealer.kernel.ruling import RulingAction
from dealer.kernel.text import printable
from dealer.kernel.tuples import NamedTuple


class Grid(NamedTuple):
    """A table in a section: a ruling's hands as set, its wagers, a round's seats."""

    headers: list[str]
    rows: list[list[str]]


Row = tuple[str, str | Grid]
"""A section's row: its label and its value, a line of text or a table."""
Section = tuple[str, list[Row]]

_CSS = (
    "body{font-family:Georgia,serif;margin:2em;color:#000}"
    "h1{font-size:1.4em}h2{font-size:1.1em;margin-top:1.5em;border-bottom:1px solid #000}"
    "table{border-collapse:collapse;width:100%}"
    "th{text-align:left;vertical-align:top;padding:2px 1em 2px 0;width:9em}"
    "td{font-family:monospace;white-space:pre-wrap;word-break:break-all;padding:2px 0}"
    "td table th,td table td{width:auto;padding:0 1.5em 0 0;white-space:pre;word-break:normal}"
    "@media print{h2{break-after:avoid}table{break-inside:avoid}}"
)


def when(stamp: str) -> str:
    """A stored UTC time, once: in local time with its zone (`2026-05-09 09:00:00 EST`)."""
    moment = datetime.fromisoformat(stamp).astimezone()
    return f"{moment:%Y-%m-%d %H:%M:%S} {moment.tzname()}"


def _what(record: Record) -> str:
    return " ".join(part for part in (record.kind, record.game, record.action) if part)


def _standings(packet: Packet) -> Section:
    rows: list[Row] = [
        (f"ruling #{r.id}", "no standing: not a ruling" if s is None else s.standing())
        for r, s in zip(packet.rulings, packet.standings, strict=True)
    ]
    return "Where the rulings stand", rows or [("", "no ruling named")]


def _claim(packet: Packet) -> Section:
    d = packet.dispute
    rows: list[Row] = [
        ("opened", f"{when(d.opened_at)} by {d.opened_by}"),
        ("table", d.table_id + ("" if d.seat is None else f", seat {d.seat}")),
        ("happened", when(d.occurred_at) if d.occurred_at else "-"),
        ("parties", ", ".join(d.parties) or "-"),
        ("video", d.video or "-"),
        ("rulings", " ".join(str(r) for r in d.rulings) or "-"),
        ("description", d.description),
    ]
    if d.resolution is None:
        rows.append(("status", "open"))
    else:
        adjusted = fmt_money(Decimal(d.resolution.amount_adjusted), signed=True)
        rows.append(("status", f"{d.resolution.outcome}, amount adjusted {adjusted}"))
    return f"Dispute {d.id}: the claim", rows


def played(record: Record) -> list[Row]:
    """What was ruled, as the live table and `audit show` show it: a settled seat's hands as
    set and its wagers (each with its pay table and row), a round's table of seats, a set
    hand's high and low; else the cards."""
    result = record.result
    if record.game == "paigow" and record.action == RulingAction.SETTLE and "base" in result:
        return [
            ("hands", Grid(["", "high", "low"], settle_hands(result))),
            ("wagers", Grid(PAYTABLE_HEADERS, settle_wagers(result, paytables=True))),
        ]
    if record.game == "paigow" and record.action == RulingAction.ROUND and "seats" in result:
        headers, rows = round_seats(result)
        return [
            ("round", round_dealer(result)),
            ("seats", Grid(headers, rows)),
            ("total", round_total(result)),
        ]
    if record.game == "paigow" and "high_hand" in result and "low_hand" in result:
        rows = setting_rows(result["high_hand"], result["low_hand"])
        return [("set", Grid(["high (5 cards)", "low (2 cards)"], rows))]
    return [("cards", pretty(record.cards))] if record.cards else []


def _ruling(record: Record) -> Section:
    rows: list[Row] = [
        ("recorded", f"{when(record.recorded_at)} by {record.user_id} ({record.role})"),
        ("table", record.table_id + ("" if record.seat is None else f", seat {record.seat}")),
    ]
    typed = record.input_text.strip()
    if "\n" in typed:  # a filed round: its seats are the table below, the file whole in --json
        rows.append(("input", f"{len(typed.splitlines())} lines as filed (whole in --json)"))
    elif typed:
        rows.append(("input", record.input_text))
    rows += played(record)
    rows += [("why", line) for line in record.explanation]
    rows += setting_fields(deciding(record.settings))
    return f"Record {record.id}: {_what(record)}", rows


def _linked(packet: Packet) -> Section:
    rows: list[Row] = []
    for r in packet.linked:
        rows.append((f"#{r.id}", f"{_what(r)} by {r.user_id} ({r.role}), {when(r.recorded_at)}"))
        rows += [("", line) for line in r.explanation]
        if r.reason and r.reason not in " ".join(r.explanation):
            rows.append(("reason", r.reason))
    return "Linked records", rows or [("", "none")]


def _chain(packet: Packet) -> Section:
    rows: list[Row] = []
    for r in sorted([packet.claim, *packet.rulings, *packet.linked], key=lambda r: r.id):
        rows += [(f"#{r.id} hash", r.hash), ("prev hash", r.prev_hash)]
    if packet.checkpoint is None:
        rows.append(("checkpoint", f"no checkpoint recorded after record {packet.last} yet"))
    else:
        c = packet.checkpoint
        rows.append(("checkpoint", f"record {c.id}, {when(c.recorded_at)}, hash {c.hash}"))
    v = packet.verified
    if v.ok:
        rows.append(("verify", f"OK: {v.records} records, the hash chain verifies"))
    else:
        first = "" if v.first_bad is None else f" at record {v.first_bad}"
        rows.append(("verify", f"FAILED{first}: {v.problem}"))
    return "Proof: the records on the hash chain", rows


def sections(packet: Packet) -> list[Section]:
    """The packet as headed sections of label and value rows, in reading order."""
    return [
        _standings(packet),
        _claim(packet),
        *(_ruling(r) for r in packet.rulings),
        _linked(packet),
        _chain(packet),
    ]


def _grid_text(grid: Grid) -> list[str]:
    return table(grid.rows, grid.headers).splitlines()


def packet_text(packet: Packet) -> str:
    """The packet as text for a terminal (control characters shown escaped): each section's
    labels in one column (at least 14 wide), a table under its label, indented."""
    lines = []
    for heading, rows in sections(packet):
        lines.append(heading)
        width = max([14, *(len(label) for label, value in rows if isinstance(value, str))])
        for label, value in rows:
            if isinstance(value, Grid):
                lines += [f"  {label}", *(f"    {line}".rstrip() for line in _grid_text(value))]
            else:
                lines.append(f"  {label:<{width}} {value}".rstrip())
    return "\n".join(printable(line) for line in lines)


def _cell(value: str | Grid) -> str:
    if isinstance(value, str):
        return escape(value)
    head = "".join(f"<th>{escape(h)}</th>" for h in value.headers)
    body = "".join(
        "<tr>" + "".join(f"<td>{escape(cell)}</td>" for cell in row) + "</tr>" for row in value.rows
    )
    return f"<table><tr>{head}</tr>{body}</table>"


def packet_html(packet: Packet) -> str:
    """The packet as one self-contained HTML page: inline CSS, no script, all text escaped."""
    title = escape(f"Dispute {packet.dispute.id} packet")
    body = [f"<h1>{title}</h1>"]
    for heading, rows in sections(packet):
        body.append(f"<h2>{escape(heading)}</h2>\n<table>")
        body += [
            f"<tr><th>{escape(label)}</th><td>{_cell(value)}</td></tr>" for label, value in rows
        ]
        body.append("</table>")
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f"<title>{title}</title>\n<style>{_CSS}</style>\n</head>\n<body>\n"
        + "\n".join(body)
        + "\n</body>\n</html>\n"
    )
