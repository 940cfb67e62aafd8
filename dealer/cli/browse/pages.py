"""Records rendered for people, as HTML fragments for the browser's pages: cards with suit
symbols in suit colours, money as the CLI shows it, each ruling's status with links to the
records that made it so, the reasons in words.

Decisions: nothing here computes a ruling: statuses, packets, summaries and meters come from
the desk, and their words from the same code the CLI prints with (`Status.text`, the packet's
sections, the shift summary's text), so a new status (a sign-off) shows here as it lands there.
Every stored text is HTML-escaped; a `#N` in a status becomes a link to record N."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from decimal import Decimal, InvalidOperation
from html import escape
from typing import Any

from dealer.cli.packet import sections
from dealer.cli.shift import summary_text
from dealer.desk.browse import ChainState
from dealer.desk.packet import Packet
from dealer.desk.records import Record, Shown, Status
from dealer.desk.shift import ShiftSummary
from dealer.desk.supervision import Dispute
from dealer.kernel.cards import symbol
from dealer.kernel.money import fmt_money

CSS = (
    ".card{font-weight:bold;padding:0 .15em}.suit-h,.suit-d{color:#c00}"
    ".suit-s,.suit-c{color:#000}"
    ".chain{padding:.4em .8em;margin:0 0 1em;border:1px solid #8a8;background:#efe}"
    ".chain.bad{border-color:#a00;background:#c00;color:#fff;font-weight:bold}"
    ".chain.bad a{color:#fff}.chain code{font-size:.85em}"
    ".dealer-nav a{margin-right:1em}"
    ".status{padding:.5em .8em;margin:.5em 0 1em;border-left:6px solid #393}"
    ".status.overridden{border-color:#c80;background:#fff6e0}"
    ".status.voided{border-color:#a00;background:#c00;color:#fff;font-weight:bold}"
    ".status.voided a{color:#fff}"
    ".record th{text-align:left;vertical-align:top;padding-right:1em}"
    ".money{font-family:monospace}"
    "@media print{header,footer,.dealer-nav,form{display:none}}"
)
"""The style of the dealer's pages (added to Datasette's own)."""

NAV = (
    ("/-/dealer", "Dealer pages"),
    ("/-/dealer/seat", "Seat history"),
    ("/-/dealer/disputes", "Open disputes"),
    ("/-/dealer/meters", "Meter book"),
    ("/-/dealer/shift", "Shift summary"),
)

MONEY_KEYS = frozenset(
    {"wager", "net", "total_net", "amount", "amount_adjusted", "delta", "value", "previous"}
)
"""Result fields that hold money, shown with `fmt_money`; nets and deltas with their sign."""
_SIGNED = ("net", "delta", "adjusted")
_REFERENCE = re.compile(r"#(\d+)")


def link(record_id: int | None, text: str | None = None) -> str:
    """A link to a record's page."""
    if record_id is None:
        return "-"
    return f'<a href="/-/dealer/record/{record_id}">{escape(text or f"#{record_id}")}</a>'


def cards(tokens: Iterable[str]) -> str:
    """Cards as a person reads them, each in its suit's colour (`A♠` black, `10♥` red)."""
    spans = []
    for token in tokens:
        suit = token[-1:].lower() if token.lower() not in ("jk", "joker") else "j"
        spans.append(f'<span class="card suit-{escape(suit)}">{escape(symbol(token))}</span>')
    return " ".join(spans)


def money_html(value: Any, signed: bool = False) -> str:
    """A stored amount as the CLI shows it; anything that is not an amount as it is."""
    try:
        amount = Decimal(str(value))
    except InvalidOperation:
        return escape(str(value))
    return f'<span class="money">{escape(fmt_money(amount, signed=signed))}</span>'


def _amounts(result: Mapping[str, Any], prefix: str = "") -> list[tuple[str, str]]:
    """The money in a result (and in its nested objects), labelled by where it is."""
    found: list[tuple[str, str]] = []
    for key, value in result.items():
        if isinstance(value, Mapping):
            found += _amounts(value, f"{prefix}{key} ")
        elif key in MONEY_KEYS and value is not None and not isinstance(value, bool):
            found.append((f"{prefix}{key}", money_html(value, signed=key.endswith(_SIGNED))))
    return found


def status_text(status: Status) -> str:
    """`Status.text()` with every `#N` a link to record N."""
    return _REFERENCE.sub(lambda m: link(int(m.group(1))), escape(status.text()))


def status_block(status: Status | None) -> str:
    """Where a ruling stands, coloured by its state; a voided one as a red banner."""
    if status is None:
        return ""
    state = status.state.replace(" ", "-")
    lines = [f"Status: {status_text(status)}"]
    if status.state == "voided":
        lines.append("Nothing of this ruling is in effect.")
    if status.decision:
        lines.append(f"Decision in effect: {escape(status.decision)}")
    return f'<div class="status {state}">{"<br>".join(lines)}</div>'


def what(record: Record) -> str:
    """`ruling paigow settle`."""
    return " ".join(part for part in (record.kind, record.game, record.action) if part)


def _row(label: str, value: str) -> str:
    return f"<tr><th>{escape(label)}</th><td>{value}</td></tr>"


def record_page(shown: Shown) -> tuple[str, str]:
    """The title and body of one record's page."""
    record, linked, status = shown
    seat = "" if record.seat is None else f", seat {record.seat}"
    rows = [
        _row(
            "recorded",
            f"{escape(record.recorded_at)} by {escape(record.user_id)} ({escape(record.role)})",
        ),  # fmt: skip
        _row("table", escape((record.table_id or "-") + seat)),
    ]
    if record.input_text:
        rows.append(_row("input", escape(record.input_text)))
    if record.cards:
        rows.append(_row("cards", cards(record.cards)))
    rows += [_row(label, value) for label, value in _amounts(record.result)]
    if record.reason:
        rows.append(_row("reason", escape(record.reason)))
    if record.links_to is not None:
        rows.append(_row("refers to", link(record.links_to, f"record #{record.links_to}")))
    if record.rule_changes:
        rows.append(_row("rule changes", escape(", ".join(record.rule_changes))))
    rows += [_row("hash", f"<code>{escape(record.hash)}</code>"),
             _row("prev hash", f"<code>{escape(record.prev_hash)}</code>")]  # fmt: skip
    why = "".join(f"<li>{escape(line)}</li>" for line in record.explanation)
    refs = "".join(
        f"<li>{link(r.id)} {escape(what(r))} by {escape(r.user_id)}, {escape(r.recorded_at)}"
        + (f": {escape(r.reason)}" if r.reason else "")
        + "</li>"
        for r in linked
    )
    body = [
        f"<h1>Record {record.id}: {escape(what(record))}</h1>",
        status_block(status),
        f'<table class="record">{"".join(rows)}</table>',
    ]
    if why:
        body.append(f"<h2>Why</h2><ul>{why}</ul>")
    if refs:
        body.append(f"<h2>Referred to by</h2><ul>{refs}</ul>")
    body.append(
        "<details><summary>The result as recorded</summary><pre>"
        f"{escape(json.dumps(record.result, ensure_ascii=False, indent=1))}</pre></details>"
    )
    return f"Record {record.id}", "".join(body)


def _table(headings: tuple[str, ...], rows: list[str]) -> str:
    """A table of Datasette's look: the headings, then the rows (each a whole `<tr>`)."""
    head = "".join(f"<th>{h}</th>" for h in headings)
    return f'<table class="rows-and-columns"><tr>{head}</tr>{"".join(rows)}</table>'


def records_table(found: list[Shown]) -> str:
    """Records as rows: id, time, table, seat, user, what, cards, the first reason, status."""
    if not found:
        return "<p>No records.</p>"
    headings = ("#", "time (UTC)", "table", "seat", "user", "what", "cards", "why", "status")
    rows = [
        "<tr>"
        f"<td>{link(r.id)}</td><td>{escape(r.recorded_at[:19])}Z</td><td>{escape(r.table_id)}</td>"
        f"<td>{'' if r.seat is None else r.seat}</td><td>{escape(r.user_id)}</td>"
        f"<td>{escape(what(r))}</td><td>{cards(r.cards)}</td>"
        f"<td>{escape(r.explanation[0] if r.explanation else r.input_text)}</td>"
        f"<td>{'' if status is None else status_text(status)}</td>"
        "</tr>"
        for r, _, status in found
    ]
    return _table(headings, rows)


def _meter_name(result: dict[str, Any]) -> str:
    """A meter record's meter, with the link of a linked meter (whose values are the link's)."""
    name = str(result.get("meter", ""))
    return name if result.get("link") is None else f"{name} (link {result['link']})"


def meter_book(found: list[Shown]) -> str:
    """Every meter movement: when, which meter, from and to, by whom, and why."""
    if not found:
        return "<p>No meter movements.</p>"
    headings = ("#", "time (UTC)", "table", "meter", "from", "change", "to", "by", "why")
    rows = []
    for r, _, _ in found:
        res = r.result
        before = "unset" if res.get("previous") is None else money_html(res["previous"])
        why = escape(r.reason or "")
        if r.links_to is not None:
            why = f"{why} ({link(r.links_to, f'ruling #{r.links_to}')})"
        rows.append(
            f"<tr><td>{link(r.id)}</td><td>{escape(r.recorded_at[:19])}Z</td>"
            f"<td>{escape(r.table_id)}</td><td>{escape(_meter_name(res))}</td>"
            f"<td>{before}</td><td>{money_html(res.get('delta'), signed=True)}</td>"
            f"<td>{money_html(res.get('value'))}</td>"
            f"<td>{escape(r.user_id)} ({escape(r.role)}), {escape(r.action)}</td>"
            f"<td>{why}</td></tr>"
        )
    return _table(headings, rows)


def disputes_table(found: list[Dispute]) -> str:
    """The disputes: opened when and by whom, where, the rulings named, the claim, the packet."""
    if not found:
        return "<p>No open disputes.</p>"
    headings = ("dispute", "opened", "by", "table", "rulings", "claim", "packet")
    rows = [
        f"<tr><td>{link(d.id)}</td><td>{escape(d.opened_at[:19])}Z</td>"
        f"<td>{escape(d.opened_by)}</td>"
        f"<td>{escape(d.table_id + ('' if d.seat is None else f', seat {d.seat}'))}</td>"
        f"<td>{' '.join(link(r) for r in d.rulings)}</td><td>{escape(d.description)}</td>"
        f'<td><a href="/-/dealer/packet/{d.id}">packet</a></td></tr>'
        for d in found
    ]
    return _table(headings, rows)


def packet_body(packet: Packet) -> str:
    """The dispute packet's sections (the same as `dealer audit dispute packet`), printable."""
    parts = ['<p><button onclick="window.print()">Print</button></p>']
    for heading, rows in sections(packet):
        cells = "".join(_row(label, escape(value)) for label, value in rows)
        parts.append(f'<h2>{escape(heading)}</h2><table class="record">{cells}</table>')
    return "".join(parts)


def shift_body(summary: ShiftSummary) -> str:
    """The shift summary as `dealer shift summary` prints it."""
    return f"<pre>{escape(summary_text(summary))}</pre>"


def chain_banner(state: ChainState) -> str:
    """The chain's head, last checkpoint and verification, on every page; red when `verify`
    failed, naming the first bad record."""
    head, mark, verified = state
    nav = "".join(f'<a href="{href}">{label}</a>' for href, label in NAV)
    if head is None:
        where = "The log is empty."
    else:
        where = f"Head: record {link(head.id)}, hash <code>{escape(head.hash)}</code>."
    where += (
        " No checkpoint yet."
        if mark is None
        else f" Last checkpoint: record {link(mark.id)}, {escape(mark.recorded_at[:19])}Z."
    )
    if verified.ok:
        result = f"Verified at start: {verified.records} records, the hash chain verifies."
        kind = "chain"
    else:
        first = "" if verified.first_bad is None else f" First bad record: {verified.first_bad}."
        result = f"VERIFY FAILED at start:{escape(first)} {escape(verified.problem or '')}"
        kind = "chain bad"
    return (
        f'<div class="dealer-nav">{nav}</div>'
        f'<div class="{kind}" id="chain">{result}<br>{where}</div>'
    )


def field(name: str, label: str, value: str | None) -> str:
    """A labelled text input of a search form."""
    shown = "" if value is None else escape(value, quote=True)
    return f'<label>{escape(label)} <input name="{name}" value="{shown}"></label> '


def form(action: str, fields: list[str]) -> str:
    """A GET search form (the browser never writes)."""
    return f'<form method="get" action="{action}">{"".join(fields)}<input type="submit"></form>'
