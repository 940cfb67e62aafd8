"""The operator's report: every pay table side by side, with its exact return and house edge.

One section per bonus wager (Pai Gow Insurance, Emperor's Treasure, Envy Bonus and the two
progressives), laid out as the seed's appendices are: a row per event, a column per table, each
cell the pay, and under them the return, house edge and hit frequency of each table, all from
`dealer.analysis.paytable_return` (every one of the 154,143,080 hands counted exactly).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from types import MappingProxyType
from typing import Any

from dealer.analysis.exact import count_events
from dealer.analysis.paytable_return import PaytableReturn, analyze_paytable
from dealer.games.paigow.events import EVENT_ORDER
from dealer.games.paigow.pay import PROGRESSIVES, Wager
from dealer.games.paigow.paytables import PayTable
from dealer.kernel.money import fmt_money, money_json

Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class ReportSection:
    """The tables of one bonus wager, side by side."""

    wager: str
    analyses: tuple[PaytableReturn, ...]

    @property
    def title(self) -> str:
        """The wager's name."""
        return Wager(self.wager).full_name

    def events(self) -> list[str]:
        """Every event some table of the section has a row for, highest first."""
        named = {row.event for a in self.analyses for row in a.table.rows}
        return [e for e in EVENT_ORDER if e in named]

    def grid(self, envy_minimum: Decimal) -> tuple[list[str], list[list[str]]]:
        """Headers and rows: the pays, then the return, house edge and hit frequency."""
        tables = [a.table for a in self.analyses]
        headers = ["Event", *(t.id for t in tables)]
        rows = []
        for event in self.events():
            cells = []
            for t in tables:
                row = t.row(event)
                cells.append(row.pay.text() if row else "—")
            label = next(r.label for t in tables for r in t.rows if r.event == event)
            rows.append([label, *cells])
        if self.analyses and not self.analyses[0].has_wager:
            rows.append(
                [
                    "Paid per other player's hand",
                    *(f"${float(a.return_):.6f}" for a in self.analyses),
                ]
            )
            rows.append(
                [
                    f"Per {fmt_money(envy_minimum)} qualifying Treasure wager",
                    *(_percent(a.return_ / Fraction(envy_minimum)) for a in self.analyses),
                ]
            )
        else:
            rows.append(["Return", *(_percent(a.return_) for a in self.analyses)])
            rows.append(["House edge", *(_percent(a.house_edge) for a in self.analyses)])
        rows.append(["Hit frequency", *(_percent(a.hit_frequency) for a in self.analyses)])
        return headers, rows


def _percent(value: Fraction) -> str:
    return f"{float(value) * 100:.4f}%"


@dataclass(frozen=True)
class OperatorReport:
    """Every table's analysis, grouped by wager, and the inputs they share."""

    hands: int
    wager: Decimal
    meters: Mapping[str, Decimal]
    envy_minimum: Decimal
    sections: tuple[ReportSection, ...]
    units: Mapping[str, int]

    def notes(self) -> list[str]:
        """The assumptions behind the figures, one sentence each."""
        lines = [
            f"All {self.hands:,} seven-card hands of the 53-card deck are counted exactly, each "
            "at its highest event; a table pays the first event it offers that the hand holds.",
            f"Return and house edge are per unit wagered, for a {fmt_money(self.wager)} wager "
            "(a fixed pay of a progressive table is paid once per unit of the wager, of any "
            "other table once per wager, so its share depends on the wager).",
            "The Envy Bonus has no wager: its figure is the Envy paid for one other player's "
            "hand, collected once per other player by each qualifying Treasure wager.",
        ]
        for wager, units in self.units.items():
            lines.append(
                f"{Wager(wager).full_name}: the {fmt_money(self.wager)} wager is {units} "
                f"{'unit' if units == 1 else 'units'} of {fmt_money(self.wager / units)}; a "
                "share of the meter is paid once per hit."
            )
        for wager, amount in self.meters.items():
            if any(s.wager == wager and _uses_meter(s.analyses) for s in self.sections):
                lines.append(
                    f"{Wager(wager).full_name}: shares of the meter are paid from a meter of "
                    f"{fmt_money(amount)} (its seed); the house edge falls as the meter grows."
                )
        return lines

    def to_dict(self) -> dict[str, Any]:
        """JSON form: the inputs and every table's analysis, by wager."""
        return {
            "hands": self.hands,
            "wager": money_json(self.wager),
            "meters": {k: money_json(v) for k, v in self.meters.items()},
            "envy_minimum": money_json(self.envy_minimum),
            "units": dict(self.units),
            "notes": self.notes(),
            "sections": [
                {"wager": s.wager, "name": s.title, "tables": [a.to_dict() for a in s.analyses]}
                for s in self.sections
            ],
        }

    def markdown(self) -> str:
        """The report as Markdown."""
        out = ["# Emperor's Challenge Exposed: pay tables side by side", ""]
        out += [f"* {line}" for line in self.notes()]
        for section in self.sections:
            headers, rows = section.grid(self.envy_minimum)
            out += ["", f"## {section.title}", "", *_markdown_table(headers, rows)]
        return "\n".join(out) + "\n"


def _uses_meter(analyses: Iterable[PaytableReturn]) -> bool:
    return any(r.pay.from_meter for a in analyses for r in a.table.rows)


def _markdown_table(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    def line(cells: Sequence[str]) -> str:
        return "| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |"

    rule = "|" + "|".join(":---" if i == 0 else "---:" for i in range(len(headers))) + "|"
    return [line(headers), rule, *(line(r) for r in rows)]


def operator_report(
    tables: Iterable[PayTable],
    wager: Decimal,
    meters: Mapping[str, Decimal],
    envy_minimum: Decimal,
    counts: Mapping[str, int] | None = None,
    progress: Progress | None = None,
    units: Mapping[str, int] = MappingProxyType({}),
) -> OperatorReport:
    """Analyse every table (`meters` by wager name, for share-of-meter rows; `units`, how many
    units the wager is, by progressive wager name, one where not named) and group them by wager
    in the order of `dealer.games.paigow.pay.Wager`."""
    if counts is None:
        counts = count_events("paytable", progress)
    grouped: dict[str, list[PaytableReturn]] = {}
    for table in tables:
        analysis = analyze_paytable(
            table, wager, meters.get(table.wager), counts, units=units.get(table.wager, 1)
        )
        grouped.setdefault(table.wager, []).append(analysis)
    sections = tuple(
        ReportSection(w, tuple(sorted(grouped[w], key=lambda a: a.table.id)))
        for w in Wager
        if w in grouped
    )
    return OperatorReport(
        sum(counts.values()),
        wager,
        {w: meters[w] for w in meters if w in grouped},
        envy_minimum,
        sections,
        {w: units.get(w, 1) for w in PROGRESSIVES if w in grouped},
    )
