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

import json
import re
from collections.abc import Iterable, Mapping
from decimal import Decimal, InvalidOperation
from typing import Any

from dealer.cli.packet import Section, sections
from dealer.cli.render import meter_movement, meter_mover
from dealer.cli.shift import summary_text
from dealer.desk.browse import ChainState
from dealer.desk.packet import Packet
from dealer.desk.records import Record, Shown, Status
from dealer.desk.shift import ShiftSummary
from dealer.desk.supervision import Dispute, MeterMove
from dealer.kernel.cards import symbol
from dealer.kernel.money import fmt_money
from dealer.kernel.tuples import NamedTuple

NAV = (
    ("/-/dealer", "Dealer pages"),
    ("/-/dealer/seat", "Seat history"),
    ("/-/dealer/disputes", "Open disputes"),
    ("/-/dealer/meters", "Meter book"),
    ("/-/dealer/shift", "Shift summary"),
    ("/-/dealer/training", "Trainees and certificates"),
)

MONEY_KEYS = frozenset(
    {"wager", "net", "total_net", "amount", "amount_adjusted", "delta", "value", "previous"}
)
"""Result fields that hold money, shown with `fmt_money`; nets and deltas with their sign."""
_SIGNED = ("net", "delta", "adjusted")
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


def amounts(result: Mapping[str, Any], prefix: str = "") -> list[tuple[str, Amount]]:
    """The money in a result (and in its nested objects), labelled by where it is."""
    found: list[tuple[str, Amount]] = []
    for key, value in result.items():
        if isinstance(value, Mapping):
            found += amounts(value, f"{prefix}{key} ")
        elif key in MONEY_KEYS and value is not None and not isinstance(value, bool):
            found.append((f"{prefix}{key}", amount(value, signed=key.endswith(_SIGNED))))
    return found


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


def record_page(shown: Shown) -> dict[str, Any]:
    """One record's page: the record, what it is, its status, cards, money, the records that
    refer to it, and the result as recorded."""
    record, referring, status = shown
    return {
        "title": f"Record {record.id}",
        "record": record,
        "what": what(record),
        "status": status_view(status),
        "cards": card_faces(record.cards),
        "amounts": amounts(record.result),
        "referring": [(r, what(r)) for r in referring],
        "result": json.dumps(record.result, ensure_ascii=False, indent=1),
    }


def record_rows(found: list[Shown]) -> list[dict[str, Any]]:
    """Records as rows: id, time, table, seat, user, what, cards, the first reason, status."""
    return [
        {
            "record": r,
            "what": what(r),
            "cards": card_faces(r.cards),
            "why": r.explanation[0] if r.explanation else r.input_text,
            "status": [] if status is None else linked(status.text()),
        }
        for r, _, status in found
    ]


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


def chain_banner(state: ChainState) -> dict[str, Any]:
    """The chain's head, last checkpoint and verification, on every page (red when `verify`
    failed, naming the first bad record)."""
    head, mark, verified = state
    return {"head": head, "checkpoint": mark, "verified": verified, "nav": NAV}


def fields(*given: tuple[str, str, str | None]) -> list[Field]:
    """A search form's inputs: (name, label, the value typed or None)."""
    return [Field(name, label, value or "") for name, label, value in given]
