"""The operator's report: every shipped table, grouped by wager, side by side."""

from __future__ import annotations

from decimal import Decimal

import pytest

from dealer.analysis.paytable_return import analyze_paytable
from dealer.analysis.report import OperatorReport, operator_report
from dealer.games.paigow.pay import BONUSES, PROGRESSIVES
from dealer.games.paigow.paytables import WAGERS, shipped_paytables
from dealer.games.paigow.profile import load_profile

METERS = {name: load_profile().meters[name].seed for name in PROGRESSIVES}
"""Each meter at its seed in the shipped profile."""


@pytest.fixture(scope="module")
def report() -> OperatorReport:
    return operator_report(shipped_paytables(), Decimal(1), METERS, Decimal(5))


def test_every_shipped_table_is_in_its_section(report: OperatorReport) -> None:
    assert [s.wager for s in report.sections] == list(WAGERS)
    listed = [a.table.id for s in report.sections for a in s.analyses]
    assert sorted(listed) == sorted(t.id for t in shipped_paytables())
    for section in report.sections:
        assert {a.table.wager for a in section.analyses} == {section.wager}


def test_figures_are_each_tables_own_analysis(report: OperatorReport) -> None:
    for section in report.sections:
        for analysis in section.analyses:
            alone = analyze_paytable(analysis.table, Decimal(1), METERS.get(section.wager))
            assert analysis.return_ == alone.return_


def test_grid_lays_tables_side_by_side(report: OperatorReport) -> None:
    treasure = next(s for s in report.sections if s.wager == "treasure")
    headers, rows = treasure.grid(Decimal(5))
    assert headers[0] == "Event" and headers[1:] == [f"PT-FLT-EC-ET-0{i}" for i in range(1, 9)]
    by_label = {r[0]: r[1:] for r in rows}
    assert by_label["3 Pair"] == ["Push"] + ["Loss"] * 7
    assert by_label["House edge"][1] == "7.7656%"
    assert by_label["Return"][1] == "-7.7656%"
    progressive = next(s for s in report.sections if s.wager == "progressive_treasure")
    cells = {r[0]: r[1:] for r in progressive.grid(Decimal(5))[1]}
    assert cells["5-Card Royal Flush w/ A-K Suited"] == [
        "50% of the meter",
        "50% of the meter",
        "N/A",
    ]


def test_envy_rows_are_per_other_players_hand(report: OperatorReport) -> None:
    envy = next(s for s in report.sections if s.wager == "envy")
    cells = {r[0]: r[1:] for r in envy.grid(Decimal(5))[1]}
    assert cells["Paid per other player's hand"][0] == "$0.026990"
    assert cells["Per $5 qualifying Treasure wager"][0] == "0.5398%"
    assert "House edge" not in cells


def test_markdown_and_notes(report: OperatorReport) -> None:
    text = report.markdown()
    assert text.startswith("# Emperor's Challenge Exposed: pay tables side by side\n")
    assert "## Envy Bonus" in text
    assert "| Event | PT-FLT-EC-PGI-01 |" in text
    assert any("$10,000" in note for note in report.notes())
    out = report.to_dict()
    assert out["meters"] == {name: int(seed) for name, seed in METERS.items()}
    assert [s["wager"] for s in out["sections"]] == list(BONUSES)
