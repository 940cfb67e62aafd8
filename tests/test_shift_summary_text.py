"""`dealer shift summary`'s report for people, section by section: each section of
`dealer.cli.shift.summary_text` given a small summary value, its exact text with something to
say and with nothing, and the whole report as its sections in order (so a section broken, or
left out of the report, fails its own test). tests/test_shift_summary.py reads the report of a
real log."""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal

from dealer.audit.chain import Checkpoint
from dealer.audit.disputes import Dispute, Resolution
from dealer.cli.shift import (
    _close_text,
    _corrections_text,
    _counts_text,
    _large_pays_text,
    _meter_adjustments_text,
    _meters_text,
    _open_disputes_text,
    _own_documents_text,
    _resolved_disputes_text,
    _rule_changes_text,
    _signoffs_text,
    _wagers_text,
    summary_text,
)
from dealer.desk.shift import (
    Correction,
    LargePay,
    MeterAdjustment,
    MeterMovement,
    OwnDocument,
    ShiftSummary,
    SignedOff,
    WagerTotals,
)
from dealer.games.paigow.pay import Wager

EMPTY = ShiftSummary(
    table="PG-1",
    since=None,
    until=None,
    rounds=(),
    settles=(),
    voided=(),
    other_rulings=0,
    seats=0,
    wagers={},
    meters=(),
    open_disputes=(),
    overrides=(),
    voids=(),
    signoff_over=Decimal(2500),
)
"""A table's summary over a range with no record in it."""


def at(minute: int) -> str:
    """A record's time (to the microsecond, as stored) on the day of the shift."""
    return f"2026-05-09T14:{minute:02d}:00.123456Z"


def lines(*text: str) -> str:
    return "\n".join(text)


def dispute(number: int, resolution: Resolution | None = None) -> Dispute:
    return Dispute(
        id=number,
        opened_at=at(number),
        opened_by="d-7",
        table_id="PG-1",
        seat=3 if number % 2 else None,
        occurred_at=at(number - 1),
        parties=(),
        video="",
        rulings=(4, 6) if number % 2 else (),
        description=f"short paid {number}",
        resolution=resolution,
    )


RESOLUTION = Resolution(
    record_id=21,
    resolved_at=at(21),
    supervisor_id="sup-1",
    outcome="dealer-error",
    amount_adjusted="12.5",
    second_reviewer="sup-2",
    reason="video",
)
FULL = replace(
    EMPTY,
    since=at(0),
    until="2026-05-10T00:00:00.000000Z",
    rounds=(4, 6),
    settles=(9,),
    voided=(8,),
    replaced={4: 12},
    other_rulings=2,
    seats=5,
    wagers={
        Wager.BASE: WagerTotals(3, Decimal(45), Decimal("7.50")),
        Wager.ENVY: WagerTotals(1, Decimal(0), Decimal(5)),
        Wager.PROGRESSIVE_TREASURE: WagerTotals(1, Decimal(1), Decimal(-1)),
    },
    meters=(
        MeterMovement(
            "progressive_treasure",
            Decimal(10000),
            Decimal("0.50"),
            1,
            Decimal(500),
            Decimal(0),
            Decimal(0),
            Decimal(9600),
        ),
        MeterMovement(
            "progressive_insurance",
            None,
            Decimal("0.25"),
            0,
            Decimal(0),
            Decimal(0),
            Decimal(0),
            None,
            link="floor-2",
        ),
    ),
    open_disputes=(dispute(15),),
    resolved_disputes=(dispute(20, RESOLUTION),),
    meter_adjustments=(
        MeterAdjustment(
            11, at(11), "sup-1", "progressive_treasure", Decimal("-99.50"), Decimal(9600), "count"
        ),
    ),
    large_pays=(LargePay(6, 4, Decimal("4487.80")), LargePay(9, None, Decimal(2600))),
    awaiting_signoff=(6,),
    signed_off=(SignedOff(9, 13, "sup-1"),),
    rule_changes={6: ("limits.progressive_insurance.max=4", "foul=reset")},
    overrides=(Correction(12, "override", at(12), "sup-1", 4, "chip error", "seat 2 by hand"),),
    voids=(Correction(10, "void", at(10), "sup-1", 8, "misdeal", None),),
)
"""A summary with something in every section."""


def test_counts() -> None:
    assert _counts_text(EMPTY) == lines(
        "Shift summary: table PG-1, the first record to now",
        "rounds 0 (none); single-seat settles 0 (none); seats played 0",
    )
    assert _counts_text(FULL) == lines(
        "Shift summary: table PG-1, 2026-05-09T14:00:00Z to 2026-05-10T00:00:00Z",
        "rounds 2 (#4 #6); single-seat settles 1 (#9); seats played 5",
        "voided, not counted: #8",
        "counted with an override's figures: #4 by override #12",
        "other rulings (no money): 2",
    )


def test_wagers() -> None:
    assert _wagers_text(EMPTY) == lines(
        "wager    bets    wagered    players' net",
        "-------  ------  ---------  --------------",
        "total            $0         $0",
        "players' net $0; house result $0",
    )
    assert _wagers_text(FULL) == lines(
        "wager                 bets    wagered    players' net",
        "--------------------  ------  ---------  --------------",
        "base                  3       $45        +$7.50",
        "envy (pays)           1                  +$5",
        "progressive treasure  1       $1         -$1",
        "total                         $46        +$11.50",
        "players' net +$11.50; house result -$11.50",
    )


def test_meters() -> None:
    assert _meters_text(EMPTY) == ""
    assert _meters_text(FULL) == lines(
        "meter                                 start    contributions    hits (paid)    reseeds"
        "    adjusted    end",
        "------------------------------------  -------  ---------------  -------------"
        "  ---------  ----------  ------",
        "progressive treasure                  $10,000  $0.50            1 ($500)       $0"
        "         $0          $9,600",
        "progressive insurance (link floor-2)  linked   $0.25            0 ($0)         $0"
        "         $0          linked",
        "warning: +$99.50 of the progressive treasure meter's movement is not explained by the"
        " records in this range",
    )


def test_open_disputes() -> None:
    assert _open_disputes_text(EMPTY) == "No open disputes."
    assert _open_disputes_text(FULL) == lines(
        "Open disputes:",
        "#    when                  seat    rulings    what",
        "---  --------------------  ------  ---------  -------------",
        "15   2026-05-09T14:14:00Z  3       #4 #6      short paid 15",
    )


def test_resolved_disputes() -> None:
    assert _resolved_disputes_text(EMPTY) == "No disputes resolved."
    assert _resolved_disputes_text(FULL) == lines(
        "Resolved disputes:",
        "#    resolved              seat    outcome       adjusted    supervisor    what",
        "---  --------------------  ------  ------------  ----------  ------------  -------------",
        "20   2026-05-09T14:21:00Z          dealer-error  +$12.50     sup-1         short paid 20",
    )


def test_meter_adjustments() -> None:
    assert _meter_adjustments_text(EMPTY) == "No meter adjustments."
    assert _meter_adjustments_text(FULL) == lines(
        "Meter adjustments:",
        "#    when                  supervisor    meter                 change    to      reason",
        "---  --------------------  ------------  --------------------  --------  ------  --------",
        "11   2026-05-09T14:11:00Z  sup-1         progressive treasure  -$99.50   $9,600  count",
    )


def test_large_pays() -> None:
    assert _large_pays_text(EMPTY) == "No large pays (a seat's net win of more than $2,500)."
    assert _large_pays_text(FULL) == lines(
        "Large pays (a seat's net win of more than $2,500):",
        "ruling    seat    net",
        "--------  ------  ----------",
        "#6        4       +$4,487.80",
        "#9                +$2,600",
    )


def test_signoffs() -> None:
    assert _signoffs_text(EMPTY) == lines("Awaiting sign-off: none", "Signed off: none")
    assert _signoffs_text(FULL) == lines("Awaiting sign-off: #6", "Signed off: #9 by sup-1 (#13)")


def test_rule_changes() -> None:
    assert _rule_changes_text(EMPTY) == "No rulings made with rule changes."
    assert _rule_changes_text(FULL) == lines(
        "Rulings made with rule changes (--rule or --house-way, not as the profile has it):",
        "ruling    changes",
        "--------  ----------------------------------------------",
        "#6        limits.progressive_insurance.max=4, foul=reset",
    )


def test_documents_not_shipped() -> None:
    assert _own_documents_text(EMPTY) == "No rulings made with documents the program does not ship."
    way = OwnDocument("House Way tp.yaml", "33b2861d96fd" + "0" * 52, (6, 9))
    assert _own_documents_text(replace(FULL, own_documents=(way,))) == lines(
        "Rulings made with documents the program does not ship (a property's own, or a shipped"
        " one edited):",
        "document           sha256         rulings",
        "-----------------  -------------  ---------",
        "House Way tp.yaml  33b2861d96fd…  #6, #9",
    )


def test_corrections() -> None:
    assert _corrections_text(EMPTY) == "No overrides or voids."
    assert _corrections_text(FULL) == lines(
        "Overrides and voids:",
        "#    what      when                  supervisor    of    decision        reason",
        "---  --------  --------------------  ------------  ----  --------------  ----------",
        "10   void      2026-05-09T14:10:00Z  sup-1         #8                    misdeal",
        "12   override  2026-05-09T14:12:00Z  sup-1         #4    seat 2 by hand  chip error",
    )


SECTIONS = (
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
"""The report's sections in order, as this file knows them."""


def test_the_shift_close() -> None:
    """The checkpoint line to keep outside the log, where to keep it and what it proves."""
    line = "18:" + "ab" * 32
    assert _close_text(EMPTY) == ""
    assert _close_text(replace(EMPTY, head=Checkpoint(18, "ab" * 32))) == lines(
        f"Shift close: keep this checkpoint outside the log: {line}",
        "(write it on the shift's paperwork, or keep it in a file on another machine; never "
        "only beside the log)",
        f"Later, dealer audit verify --checkpoint {line} fails if any of these 18 records was "
        "changed, removed or re-chained, even with the checkpoints recorded in the log deleted "
        "too. A supervisor or auditor records a signed one: dealer audit checkpoint --output "
        "FILE.",
    )


def test_the_report_is_its_sections_in_order() -> None:
    """Every section, a blank line between two; the meters left out when none moved, the
    shift close when the summary was read from no log."""
    closed = replace(FULL, head=Checkpoint(18, "ab" * 32))
    assert summary_text(closed) == "\n\n".join(section(closed) for section in SECTIONS)
    assert summary_text(EMPTY) == "\n\n".join(
        section(EMPTY) for section in SECTIONS if section not in (_meters_text, _close_text)
    )
