"""A dispute packet for people: as text, or as one self-contained HTML page to print.

Both are drawn from the same sections (a heading, then label and value rows), so the page and
the text never say different things. Times are shown in the machine's local time with the
stored UTC beside them. Every stored text is shown safe: control characters escaped in the
text, and HTML-escaped in the page, which has inline CSS and no script."""

from __future__ import annotations

import json
from datetime import datetime
from decimal import Decimal
from html import escape
from typing import Any

from dealer.desk.packet import Packet, deciding
from dealer.desk.records import Record
from dealer.kernel.money import fmt_money
from dealer.kernel.text import printable

Section = tuple[str, list[tuple[str, str]]]

_CSS = (
    "body{font-family:Georgia,serif;margin:2em;color:#000}"
    "h1{font-size:1.4em}h2{font-size:1.1em;margin-top:1.5em;border-bottom:1px solid #000}"
    "table{border-collapse:collapse;width:100%}"
    "th{text-align:left;vertical-align:top;padding:2px 1em 2px 0;width:9em}"
    "td{font-family:monospace;white-space:pre-wrap;word-break:break-all;padding:2px 0}"
    "@media print{h2{break-after:avoid}table{break-inside:avoid}}"
)


def when(stamp: str) -> str:
    """A stored UTC time as local time with its zone, the UTC time beside it."""
    moment = datetime.fromisoformat(stamp).astimezone()
    return f"{moment:%Y-%m-%d %H:%M:%S} {moment.tzname()} ({stamp[:19]}Z UTC)"


def _what(record: Record) -> str:
    return " ".join(part for part in (record.kind, record.game, record.action) if part)


def _json(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def _claim(packet: Packet) -> Section:
    d = packet.dispute
    rows = [
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


def _ruling(record: Record) -> Section:
    rows = [
        ("recorded", f"{when(record.recorded_at)} by {record.user_id} ({record.role})"),
        ("table", record.table_id + ("" if record.seat is None else f", seat {record.seat}")),
    ]
    if record.input_text:
        rows.append(("input", record.input_text))
    if record.cards:
        rows.append(("cards", " ".join(record.cards)))
    rows += [("why", line) for line in record.explanation]
    rows += [(name, _json(value)) for name, value in deciding(record.settings).items()]
    return f"Record {record.id}: {_what(record)}", rows


def _linked(packet: Packet) -> Section:
    rows = []
    for r in packet.linked:
        rows.append((f"#{r.id}", f"{_what(r)} by {r.user_id} ({r.role}), {when(r.recorded_at)}"))
        rows += [("", line) for line in r.explanation]
        if r.reason and r.reason not in " ".join(r.explanation):
            rows.append(("reason", r.reason))
    return "Linked records", rows or [("", "none")]


def _chain(packet: Packet) -> Section:
    rows = []
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
        _claim(packet),
        *(_ruling(r) for r in packet.rulings),
        _linked(packet),
        _chain(packet),
    ]


def packet_text(packet: Packet) -> str:
    """The packet as text for a terminal (control characters shown escaped)."""
    lines = []
    for heading, rows in sections(packet):
        lines.append(heading)
        lines += [f"  {label:<14} {value}".rstrip() for label, value in rows]
    return "\n".join(printable(line) for line in lines)


def packet_html(packet: Packet) -> str:
    """The packet as one self-contained HTML page: inline CSS, no script, all text escaped."""
    title = escape(f"Dispute {packet.dispute.id} packet")
    body = [f"<h1>{title}</h1>"]
    for heading, rows in sections(packet):
        body.append(f"<h2>{escape(heading)}</h2>\n<table>")
        body += [
            f"<tr><th>{escape(label)}</th><td>{escape(value)}</td></tr>" for label, value in rows
        ]
        body.append("</table>")
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f"<title>{title}</title>\n<style>{_CSS}</style>\n</head>\n<body>\n"
        + "\n".join(body)
        + "\n</body>\n</html>\n"
    )
