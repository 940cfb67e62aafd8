"""What each of the browser's pages shows, as plain values for its Jinja template
(`templates/dealer_*.html`): cards as suit and symbol, money as the CLI shows it, each
ruling's status as text with the record numbers to link, the reasons in words.

Decisions: nothing here computes a ruling: statuses, packets, summaries and meters come from
the desk, and their words from the same code the CLI prints with (`Status.text`, the packet's
sections, the shift summary's text), so a new status (a sign-off) shows here as it lands there.
Nothing here writes HTML: every value is text, and the templates (autoescaped, nothing marked safe)
escape each one where it is placed, so stored text cannot become markup. A record number to
link is an `int` (the templates link nothing else), so stored text never becomes a link."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from decimal import Decimal, InvalidOperation
from typing import Any

from dealer.cli.packet import Grid, Section, played, sections
from dealer.cli.render import fields as named_fields
from dealer.cli.render import meter_movement, meter_mover
from dealer.cli.shift import summary_text
from dealer.cli.stats import cell, columns, heading, source_line
from dealer.desk.browse import ChainState, FrontPage
from dealer.desk.packet import Packet
from dealer.desk.records import Record, Shown, Status
from dealer.desk.shift import ShiftSummary
from dealer.desk.stats import Row, Statistics
from dealer.desk.stats_pages import GroupPage
from dealer.desk.supervision import Dispute, MeterMove
from dealer.kernel.cards import symbol
from dealer.kernel.money import CENT, fmt_money
from dealer.kernel.tuples import NamedTuple

NAV = (
    ("/-/dealer", "Dealer pages"),
    ("/-/dealer/seat", "Seat history"),
    ("/-/dealer/disputes", "Open disputes"),
    ("/-/dealer/meters", "Meter book"),
    ("/-/dealer/shift", "Shift summary"),
    ("/-/dealer/training", "Trainees and certificates"),
    ("/-/dealer/stats", "Statistics"),
    ("/-/dealer/stats/flags", "Flags"),
)

_REFERENCE = re.compile(r"#(\d+)")
_SUITS = frozenset("shdcj")

Linked = list[tuple[str, int | None]]
"""Text in pieces, each with the record it links to (None: plain text)."""


class Amount(NamedTuple):
    """A stored value as shown: `money` when it is an amount (`$25`, `+$86.50`)."""

    text: str
    money: bool


class Field(NamedTuple):
    """A labelled text input of a search form: its name, label and the value typed."""

    name: str
    label: str
    value: str


class StatusView(NamedTuple):
    """Where a ruling stands: its state (a CSS class), the status text with its record
    numbers to link, and the decision in effect."""

    state: str
    text: Linked
    voided: bool
    decision: str | None


def card_faces(tokens: Iterable[str]) -> list[tuple[str, str]]:
    """Cards as a person reads them, each with its suit (for its colour): `("s", "A♠")`,
    `("h", "10♥")`; a token of no known suit with `x`."""
    faces = []
    for token in tokens:
        suit = "j" if token.lower() in ("jk", "joker") else token[-1:].lower()
        faces.append((suit if suit in _SUITS else "x", symbol(token)))
    return faces


def amount(value: Any, signed: bool = False) -> Amount:
    """A stored amount as the CLI shows it; anything that is not an amount as it is."""
    try:
        parsed = Decimal(str(value))
    except InvalidOperation:
        return Amount(str(value), False)
    return Amount(fmt_money(parsed, signed=signed), True)


def linked(text: str) -> Linked:
    """`text` with every `#N` a link to record N: `overridden by #8` is
    `[("overridden by ", None), ("#8", 8)]`."""
    pieces: Linked = []
    at = 0
    for found in _REFERENCE.finditer(text):
        if found.start() > at:
            pieces.append((text[at : found.start()], None))
        pieces.append((found.group(0), int(found.group(1))))
        at = found.end()
    if at < len(text):
        pieces.append((text[at:], None))
    return pieces


def status_view(status: Status | None) -> StatusView | None:
    """Where a ruling stands, for its coloured block (a voided one a red banner)."""
    if status is None:
        return None
    return StatusView(
        status.state.replace(" ", "-"),
        linked(status.text()),
        status.nothing_in_effect,
        status.decision,
    )


def record_id(value: Any) -> int | None:
    """A record number to link to; None for anything that is not one (stored text that claims
    to be one is shown as text, never linked)."""
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def what(record: Record) -> str:
    """`ruling paigow settle`."""
    return " ".join(part for part in (record.kind, record.game, record.action) if part)


class Table(NamedTuple):
    """A table on a page (`packet.Grid` with its cards as suit and face to colour)."""

    headers: list[str]
    rows: list[list[str | list[tuple[str, str]]]]


_SYMBOL_SUITS = {"♠": "s", "♥": "h", "♦": "d", "♣": "c"}


def _cell(text: str) -> str | list[tuple[str, str]]:
    """A table cell: cards as suit and face (coloured by the page), any other text as it is."""
    tokens = text.split(" ")
    if text and all(t == "JK" or t[-1:] in _SYMBOL_SUITS and len(t) > 1 for t in tokens):
        return [("j", t) if t == "JK" else (_SYMBOL_SUITS[t[-1]], t) for t in tokens]
    return text


def _shown_rows(record: Record) -> list[tuple[str, Any]]:
    """What was ruled, as `audit show` and the packet show it: a settled seat's hands and
    wagers, a round's table of seats, a set hand (tables, cards coloured); else the result's
    named lines. No JSON."""
    rows: list[tuple[str, Any]] = []
    for label, value in played(record):
        if isinstance(value, Grid):
            rows.append((label, Table(value.headers, [[_cell(c) for c in r] for r in value.rows])))
        else:
            rows.append((label, Table([], [[_cell(value)]]) if label == "cards" else value))
    if not any(isinstance(value, Table) and value.headers for _, value in rows):
        rows += named_fields(record.result)
    return rows


def _move_rows(move: MeterMove) -> list[tuple[str, Any]]:
    """A meter record as the meter book reads it: from, what moved it (its seed, a ruling's
    contributions and hits, an adjustment), to, and by whom."""
    return [
        ("meter", _meter_name(move.record.result)),
        ("from", "never set" if move.previous is None else fmt_money(move.previous)),
        ("moved", meter_movement(move)),
        ("to", "-" if move.value is None else fmt_money(move.value)),
        ("by", meter_mover(move)),
    ]


def record_page(shown: Shown, move: MeterMove | None = None) -> dict[str, Any]:
    """One record's page: the record, what it is, its status, what was ruled (hands as set,
    wagers, a round's seats; the cards in their suits' colours, money as the CLI shows it; a
    meter record's `move`), the records that refer to it. No JSON (Datasette's own table view
    has the record as stored)."""
    record, referring, status = shown
    return {
        "title": f"Record {record.id}",
        "record": record,
        "what": what(record),
        "status": status_view(status),
        "shown": _shown_rows(record) if move is None else _move_rows(move),
        "referring": [(r, what(r)) for r in referring],
    }


def _seat_result(record: Record, seat: int | None, patron: str | None) -> tuple[str, Any]:
    """A ruling's outcome and net for the seat (or patron) asked for: a settled seat's own, or
    that seat's inside a round (a round asked for by no seat: its seats and players' total);
    ("", "") for a record that settled no seat."""
    result = record.result
    seats = result.get("seats")
    if isinstance(seats, list) and seat is None and patron is None and "total_net" in result:
        count = f"{len(seats)} seat{'s' if len(seats) != 1 else ''}"
        return count, amount(result["total_net"], signed=True)
    for entry in seats if isinstance(seats, list) else [result]:
        if not isinstance(entry, Mapping) or "total_net" not in entry:
            continue
        if entry is not result and not (
            entry.get("seat") == seat or (patron is not None and entry.get("patron") == patron)
        ):
            continue
        base = entry.get("base")
        outcome = base.get("outcome", "") if isinstance(base, Mapping) else ""
        return str(outcome), amount(entry["total_net"], signed=True)
    return "", ""


def record_rows(
    found: list[Shown], seat: int | None = None, patron: str | None = None
) -> list[dict[str, Any]]:
    """Records as rows: id, time, table, seat, user, what, cards, the first reason, status; for
    a seat's or patron's history also each ruling's outcome and net for that seat."""
    rows = []
    for r, _, status in found:
        outcome, net = _seat_result(r, seat, patron)
        rows.append(
            {
                "record": r,
                "what": what(r),
                "cards": card_faces(r.cards),
                "why": r.explanation[0] if r.explanation else r.input_text,
                "status": [] if status is None else linked(status.text()),
                "outcome": outcome,
                "net": net,
            }
        )
    return rows


def _meter_name(result: dict[str, Any]) -> str:
    """A meter record's meter, with the link of a linked meter (whose values are the link's)."""
    name = str(result.get("meter", ""))
    return name if result.get("link") is None else f"{name} (link {result['link']})"


def meter_rows(found: list[MeterMove]) -> list[dict[str, Any]]:
    """Every meter movement: when, which meter, from and to, what moved it (its seed, a
    ruling's contributions and hits, a supervisor's adjustment, as `audit show` says), the
    ruling or supervisor who did, and a supervisor's reason."""
    return [
        {
            "record": m.record,
            "meter": _meter_name(m.record.result),
            "before": None if m.previous is None else amount(m.previous),
            "moved": meter_movement(m),
            "value": "-" if m.value is None else amount(m.value),
            "by": linked(meter_mover(m)),
            "why": None if m.ruling is not None else m.record.reason,
        }
        for m in found
    ]


def dispute_rows(found: list[Dispute]) -> list[dict[str, Any]]:
    """The disputes: opened when and by whom, where, the rulings named (each a record number
    to link, or stored text shown as it is), the claim."""
    return [
        {
            "dispute": d,
            "where": d.table_id + ("" if d.seat is None else f", seat {d.seat}"),
            "rulings": [
                (str(r), None) if record_id(r) is None else (f"#{r}", r) for r in d.rulings
            ],
        }
        for d in found
    ]


def packet_sections(packet: Packet) -> list[Section]:
    """The dispute packet's sections (the same as `dealer audit dispute packet`)."""
    return sections(packet)


def shift_text(summary: ShiftSummary) -> str:
    """The shift summary as `dealer shift summary` prints it."""
    return summary_text(summary)


def front_page(front: FrontPage) -> dict[str, Any]:
    """The supervisor's "what needs me now": the open disputes, the large pays awaiting a
    sign-off, the shift's overrides and voids, the meters as they stand, the latest rulings
    with their outcome and net."""
    return {
        "disputes": dispute_rows(front.disputes),
        "awaiting": record_rows(front.awaiting),
        "decisions": record_rows(front.decisions),
        "meters": meter_rows(front.meters),
        "latest": record_rows(front.latest),
    }


def chain_banner(state: ChainState) -> dict[str, Any]:
    """The chain's head, last checkpoint and verification, on every page (red when `verify`
    failed, naming the first bad record)."""
    head, mark, verified = state
    return {"head": head, "checkpoint": mark, "verified": verified, "nav": NAV}


def fields(*given: tuple[str, str, str | None]) -> list[Field]:
    """A search form's inputs: (name, label, the value typed or None)."""
    return [Field(name, label, value or "") for name, label, value in given]


STATS_KINDS = {"tables": "table", "dealers": "dealer", "patrons": "patron"}
"""Each group of the statistics and the word naming one of it in the pages' addresses."""
CHART = (760, 280, 84, 12, 12, 34)
"""The charts' size and margins: width, height, left, right, top, bottom (SVG units)."""
PATRON_PLAY = (
    "own_hands",
    "played_hands",
    "best_share",
    "play_cost",
    "against_house_way",
    "demonstrated_edge",
    "demonstrated_edge_interval",
    "theo",
    "theo_source",
)
"""A patron's demonstrated play, as `dealer stats patrons --json` names it."""


class Figure(NamedTuple):
    """A figure of a statistics row: its name as the text output heads it, and its value."""

    name: str
    text: str


def _figure_text(name: str, value: Any) -> str:
    """A figure as the text output shows it; an interval as `LOW to HIGH` (the row's
    `interval` in money)."""
    if isinstance(value, list):
        return " to ".join(_figure_text(name, v) for v in value)
    return cell("wagered" if name == "interval" else name, value)


def stats_figures(row: Row, names: Iterable[str]) -> list[Figure]:
    """A row's figures `names` as the text output shows them (money to the cent, FLAG)."""
    return [Figure(n.replace("_", " "), _figure_text(n, row.figures.get(n))) for n in names]


def stats_overview(result: Statistics, query: str) -> dict[str, Any]:
    """`dealer stats tables|dealers|patrons` on one page: each group's heading line and table
    as the text output has them, each row's key to link to its page (`query`: the range)."""
    groups = []
    for group, kind in STATS_KINDS.items():
        names = columns(group)
        groups.append(
            {
                "id": group,
                "heading": heading(result, group),
                "kind": kind,
                "headings": [n.replace("_", " ") for n in names],
                "rows": [
                    (row.key, [cell(n, row.figures[n]) for n in names[1:]])
                    for row in result.groups[group]
                ],
            }
        )
    return {
        "groups": groups,
        "query": query,
        "sources": [source_line(s) for s in result.sources],
    }


def flags_view(result: Statistics, query: str) -> dict[str, Any]:
    """Everything `dealer stats flags` lists: each flag's kind, what it is about (a table,
    dealer or patron to link to its page, with `query`: the range; an event's pay table and
    row), its figures as the text output words them, and the rulings behind it (record numbers
    to link); the range and where the expected figures came from."""
    span = f"From {result.since or 'the first record'} to {result.until or 'now'}"
    return {
        "heading": f"{span}, {result.confidence:.0%} interval",
        "rows": _flag_rows(result),
        "query": query,
        "sources": [source_line(s) for s in result.sources],
    }


def _flag_rows(result: Statistics) -> list[dict[str, Any]]:
    rows = []
    for flag in result.flags:
        group, key = next(
            (g, flag[k])
            for g, k in (("tables", "table"), ("dealers", "user"), ("patrons", "patron"))
            if k in flag
        )
        rows.append(
            {
                "kind": flag["kind"],
                "about": (STATS_KINDS[group], str(key)),
                "what": f"{flag['paytable']} {flag['event']}" if flag["kind"] == "event" else "",
                "figures": [
                    Figure(k.replace("_", " "), cell(k, v)) for k, v in flag["figures"].items()
                ],
                "rulings": [i for i in flag["rulings"] if isinstance(i, int)],
            }
        )
    return rows


def _scale(low: float, high: float, size: float, start: float, flip: bool) -> Any:
    span = (high - low) or 1.0

    def at(value: float) -> float:
        share = (value - low) / span
        return round(start + (1 - share if flip else share) * size, 1)

    return at


def _points(pairs: Iterable[tuple[float, float]]) -> str:
    return " ".join(f"{x},{y}" for x, y in pairs)


def result_chart(page: GroupPage) -> dict[str, Any]:
    """The house result over time against the expected line and its band (expected ± the
    critical value × the standard error of the cumulative figures), as numbers for the SVG of
    the template: polylines and a polygon (each bucket a step: flat to its start, then to its
    end's figures), a marker per bucket end with its figures in data attributes, and the same
    figures as rows for a table (screen readers)."""
    width, height, left, right, top, bottom = CHART
    series = page.series
    band = [
        (float(p.expected) - page.critical * p.standard_error,
         float(p.expected) + page.critical * p.standard_error)
        for p in series
    ]  # fmt: skip
    values = [0.0, *(float(p.house_result) for p in series), *(v for b in band for v in b)]
    low, high = min(values), max(values)
    start, stop = page.start.timestamp(), page.stop.timestamp()
    x_of = _scale(start, stop, width - left - right, left, flip=False)
    y_of = _scale(low, high, height - top - bottom, top, flip=True)
    step = 3600 if page.step == "hour" else 86400

    def path(figure: Any) -> str:
        pairs = [(x_of(start), y_of(figure(0)))]
        for i in range(1, len(series)):
            end = series[i].end.timestamp()
            pairs += [
                (x_of(max(end - step, start)), y_of(figure(i - 1))),
                (x_of(end), y_of(figure(i))),
            ]
        return _points(pairs)

    upper = path(lambda i: band[i][1]).split(" ")
    lower = path(lambda i: band[i][0]).split(" ")
    rows = [
        {
            "end": p.end.strftime("%Y-%m-%d %H:%M"),
            "rulings": p.rulings,
            "house_result": cell("house_result", p.house_result),
            "expected": cell("expected_house_result", p.expected),
            "low": cell("wagered", round(band[i][0], 2)),
            "high": cell("wagered", round(band[i][1], 2)),
            "x": x_of(p.end.timestamp()),
            "y": y_of(float(p.house_result)),
            "data": (
                str(p.house_result.quantize(CENT)),
                str(p.expected.quantize(CENT)),
                f"{band[i][0]:.2f}",
                f"{band[i][1]:.2f}",
            ),
        }
        for i, p in enumerate(series)
        if i
    ]
    return {
        "size": (width, height),
        "plot": (left, top, width - right, height - bottom),
        "band": " ".join(upper + lower[::-1]),
        "expected": path(lambda i: float(series[i].expected)),
        "result": path(lambda i: float(series[i].house_result)),
        "zero": y_of(0.0),
        "ticks": [(y_of(v), cell("wagered", round(v, 2))) for v in (high, low)],
        "from": page.start.strftime("%Y-%m-%d %H:%M"),
        "to": page.stop.strftime("%Y-%m-%d %H:%M"),
        "step": page.step,
        "rows": rows,
    }


def pace_chart(page: GroupPage) -> dict[str, Any]:
    """Game pace by hour of the day (UTC): a bar per hour (rounds per hour, on the days that
    hour saw play; a patron's hands), as numbers for the SVG, and the same as rows."""
    width, height, left, right, top, bottom = CHART
    most = max((h.per_hour for h in page.pace), default=0.0) or 1.0
    slot = (width - left - right) / 24
    base = height - bottom
    bars = [
        {
            "hour": h.hour,
            "x": round(left + h.hour * slot + 1, 1),
            "y": round(base - h.per_hour / most * (height - top - bottom), 1),
            "width": round(slot - 2, 1),
            "height": round(h.per_hour / most * (height - top - bottom), 1),
            "rounds": h.rounds,
            "days": h.days,
            "per_hour": f"{h.per_hour:.1f}",
            "label": round(left + (h.hour + 0.5) * slot, 1),
        }
        for h in page.pace
    ]
    return {
        "size": (width, height),
        "base": base,
        "left": left,
        "most": f"{most:.1f}",
        "top": top,
        "bars": bars,
        "what": "hands" if page.group == "patrons" else "rounds",
    }


def group_view(page: GroupPage, query: str) -> dict[str, Any]:
    """A table's, dealer's or patron's page: its row's figures as the text output words them,
    the interval, a patron's demonstrated play, the charts, the others it played with (to link,
    with `query`: the range), and where the expected figures came from."""
    names = columns(page.group)
    return {
        "kind": STATS_KINDS[page.group],
        "key": page.key,
        "heading": heading(page.statistics, page.group),
        "figures": stats_figures(page.row, (*names[1:], "interval")),
        "play": stats_figures(page.row, PATRON_PLAY) if page.group == "patrons" else [],
        "chart": result_chart(page),
        "pace": pace_chart(page),
        "related": [
            (STATS_KINDS[group], group, keys) for group, keys in page.related.items() if keys
        ],
        "query": query,
        "sources": [source_line(s) for s in page.statistics.sources],
        "confidence": f"{page.statistics.confidence:.0%}",
    }
