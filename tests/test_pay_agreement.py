"""Settlement and the exact analysis pay every row of every shipped pay table alike.

For each row, a hand whose highest event is the row's event (`tests/data/event_hands.tsv`) is
settled by `bonus.settle_wager` and counted by `paytable_return.analyze_paytable`: both must
settle it on the same row (the row itself, or for an N/A row the row the hand falls through
to) and net the same, for several wager sizes and, in tables with shares of the meter, several
meters. A row no hand settles on fails the test. Progressive wagers of several units (of $1 and
of $5) agree too: a fixed pay once per unit, a share of the meter once per hit."""

from __future__ import annotations

import csv
from decimal import Decimal
from pathlib import Path

import pytest
import yaml

from dealer.analysis.exact import PAYTABLE_ORDER
from dealer.analysis.paytable_return import NOTHING, analyze_paytable
from dealer.games.paigow.bonus import settle_wager
from dealer.games.paigow.deck import parse_cards
from dealer.games.paigow.events import SevenCardEvents, classify
from dealer.games.paigow.pay import PayKind, Wager
from dealer.games.paigow.paytables import PayRow, PayTable, shipped_dir, shipped_paytables

DATA = Path(__file__).parent / "data"
STAKES = (Decimal(1), Decimal(5), Decimal("7.35"), Decimal(25))
METERS = (Decimal(10000), Decimal("12345.67"), Decimal("0.99"))
UNITS = (1, 3, 5)
UNIT_SIZES = (Decimal(1), Decimal(5))
SEED = Decimal(5000)
ONE_HAND_PER_CLASS = dict.fromkeys(PAYTABLE_ORDER, 1)
TABLES = list(shipped_paytables())


def _event_hands() -> dict[str, SevenCardEvents]:
    with open(DATA / "event_hands.tsv", encoding="utf-8") as f:
        rows = [r for r in csv.reader(f, delimiter="\t") if r and not r[0].startswith("#")]
    return {event: classify(parse_cards(cards)) for event, cards in rows[1:]}


HANDS = _event_hands()


def hand_class(events: SevenCardEvents) -> str:
    """The class the exact analysis counts a hand under: its highest event."""
    return next((e for e in events.events if e in PAYTABLE_ORDER), NOTHING)


def analysis_lines(
    table: PayTable, stake: Decimal, meter: Decimal | None, units: int = 1
) -> dict[str, tuple[PayRow | None, Decimal]]:
    """For each hand class, the row the analysis settles it on and what that row nets."""
    wager = stake if table.has_wager else Decimal(1)
    analysis = analyze_paytable(table, wager, meter, ONE_HAND_PER_CLASS, units=units)
    return {klass: (line.row, line.net) for line in analysis.lines for klass, _ in line.classes}


def test_every_event_of_the_shipped_tables_has_a_hand() -> None:
    events = {row.event for table in TABLES for row in table.rows}
    assert events <= set(HANDS)
    for event in events:
        assert event in HANDS[event].events, event


def test_every_shipped_table_is_checked() -> None:
    files = shipped_dir().glob("*.yaml")
    count = sum(len(yaml.safe_load(f.read_text(encoding="utf-8"))["tables"]) for f in files)
    assert len(TABLES) == len(shipped_paytables()) == count > 0


@pytest.mark.parametrize("table", TABLES, ids=lambda t: t.id)
def test_settlement_and_analysis_pay_every_row_alike(table: PayTable) -> None:
    meters = METERS if any(r.pay.from_meter for r in table.rows) else (None,)
    stakes = STAKES if table.has_wager else (Decimal(0),)
    settled_rows: set[int] = set()
    for stake in stakes:
        for meter in meters:
            lines = analysis_lines(table, stake, meter)
            for row in table.rows:
                events = HANDS[row.event]
                settled = settle_wager(table.wager, stake, events, table, meter=meter, seed=SEED)
                line_row, line_net = lines[hand_class(events)]
                where = (table.id, row.label, stake, meter)
                assert settled.row == line_row, where
                assert settled.net == line_net, where
                if row.pay.kind == PayKind.NOT_OFFERED:
                    assert settled.row != row, where
                else:
                    assert settled.row == row, where
                settled_rows.add(row.number)
    assert settled_rows == {r.number for r in table.rows}


@pytest.mark.parametrize(
    "table", [t for t in TABLES if Wager(t.wager).progressive], ids=lambda t: t.id
)
def test_multi_unit_progressive_wagers_are_paid_alike(table: PayTable) -> None:
    meters = METERS if any(r.pay.from_meter for r in table.rows) else (None,)
    for unit in UNIT_SIZES:
        for units in UNITS:
            stake = unit * units
            for meter in meters:
                lines = analysis_lines(table, stake, meter, units)
                for row in table.rows:
                    events = HANDS[row.event]
                    settled = settle_wager(
                        table.wager, stake, events, table, meter=meter, seed=SEED, units=units
                    )
                    one = settle_wager(table.wager, unit, events, table, meter=meter, seed=SEED)
                    where = (table.id, row.label, unit, units, meter)
                    assert (settled.row, settled.net) == lines[hand_class(events)], where
                    assert settled.row is not None and settled.row == one.row, where
                    match settled.row.pay.kind:
                        case PayKind.FIXED:  # once per unit
                            assert settled.payout.paid == one.payout.paid * units, where
                        case PayKind.PERCENT:  # once per hit
                            assert settled.payout.paid == one.payout.paid, where
                        case _:  # odds: in proportion to the amount
                            assert settled.net == one.net * units, where
