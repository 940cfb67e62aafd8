"""The meter book tells a meter's seed from a ruling's contributions and hits and from a
supervisor's adjustments: `audit show` of a meter record, `audit list`'s summary of one, and
the stored reason. A meter's first value is its seed (the profile's, when a ruling first used
the meter — even one with no wager on it), never a dealer adding money."""

from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path

import pytest
from cli import ok

from dealer.audit.meters import MeterAction, MoveKind, movement
from dealer.audit.records import Record
from dealer.cli.render import meter_movement

PIN = "lantern-2468"
SUPERVISOR = ("--supervisor", "S1", "--pin", PIN)
AT = ("--table", "PG-1", "--user", "d-104")
DEALER = "As Kd 9c 6h 5s 3d 2c"


@pytest.fixture
def db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A log with supervisor S1 (record 1): in it, a settle with no progressive wager (2; its
    seeds 3-4), one with a progressive wager (5; its move 6), a seven-card straight flush that
    hits the treasure meter (7; 8), an adjustment (9), and a supervisor's first value of another
    table's meter (10)."""
    path = tmp_path / "log.sqlite"
    for name in ("DEALER_USER", "DEALER_TABLE", "DEALER_PIN", "DEALER_NEW_PIN"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("DEALER_DB", str(path))
    ok("audit", "user", "add", "S1", "--role", "supervisor", "--new-pin", PIN)
    settle = ("paigow", "settle", "--dealer", DEALER, "--wager", "10", *AT)
    ok(*settle, "--player", "Js Jd Ac Qh 8s 5d 3h")
    ok(*settle, "--player", "Js Jd Ac Qh 8s 5d 3h", "--progressive-treasure", "1")
    ok(*settle, "--player", "Kh Qh Jh Th 9h 8h 7h", "--progressive-treasure", "1")
    adjust = ("audit", "meter", "adjust", "progressive_treasure")
    ok(*adjust, "12000", "--reason", "reseed", "--table", "PG-1", *SUPERVISOR)
    ok(*adjust, "20000", "--reason", "opening", "--table", "PG-2", *SUPERVISOR)
    yield path


def meter_section(record_id: int) -> list[str]:
    """`audit show N`'s lines from `Meter:` to the next section, and its reason."""
    lines = ok("audit", "show", str(record_id)).stdout.splitlines()
    start = lines.index("Meter:")
    end = next(i for i, line in enumerate(lines) if i > start and not line.startswith(" "))
    return [*lines[start:end], lines[-1]]


def test_a_meters_first_value_is_its_seed_from_the_profile_by_the_ruling(db: Path) -> None:
    """The insurance meter had no wager on ruling 2: its first value is the profile's seed."""
    assert meter_section(3) == [
        "Meter:",
        "  meter  progressive_insurance",
        "  from   - (never set)",
        "  moved  the profile's seed $5,000",
        "  to     $5,000",
        "  by     ruling #2 (d-104 at PG-1)",
        "  · Meter progressive_insurance at table PG-1: first value $5,000 (ruling #2)",
    ]
    assert meter_section(4)[3] == "  moved  the profile's seed $10,000"


def test_a_rulings_move_is_its_contributions_and_its_hits(db: Path) -> None:
    assert meter_section(6) == [
        "Meter:",
        "  meter  progressive_treasure",
        "  from   $10,000",
        "  moved  + contributions $0.25",
        "  to     $10,000.25",
        "  by     ruling #5 (d-104 at PG-1)",
        "  · Meter progressive_treasure at table PG-1: $10,000 → $10,000.25 (ruling #5)",
    ]
    assert meter_section(8)[2:5] == [
        "  from   $10,000.25",
        "  moved  + contributions $0.25 − hits $10,000.50 + reseed $10,000",
        "  to     $10,000",
    ]


def test_an_adjustment_is_the_supervisors_and_a_first_value_set_by_hand_its_seed(
    db: Path,
) -> None:
    assert meter_section(9) == [
        "Meter:",
        "  meter  progressive_treasure",
        "  from   $10,000",
        "  moved  + adjustment $2,000",
        "  to     $12,000",
        "  by     supervisor S1",
        "  · Meter progressive_treasure at table PG-1: $10,000 → $12,000 (reseed)",
    ]
    assert meter_section(10)[2:6] == [
        "  from   - (never set)",
        "  moved  seed $20,000, set by hand",
        "  to     $20,000",
        "  by     supervisor S1",
    ]


def test_audit_list_says_where_a_meter_starts_and_how_it_moves(db: Path) -> None:
    listed = ok("audit", "list", "--kind", "meter").stdout.splitlines()[2:]
    assert [line.split("  ")[-1].strip() for line in listed] == [
        "progressive_insurance starts $5,000",
        "progressive_treasure starts $10,000",
        "progressive_treasure +$0.25 → $10,000.25",
        "progressive_treasure -$0.25 → $10,000",
        "progressive_treasure set to $12,000",
        "progressive_treasure starts $20,000",
    ]


def _meter_record(result: dict[str, object], links_to: int | None = 1) -> Record:
    return Record(
        2, "2026-11-27T04:00:00Z", "meter", "paigow", MeterAction.MOVE, "PG-1", None, "d-104",
        "dealer", "", (), result, (), {}, links_to, "ruling #1", "0.2.0", "", "",
    )  # fmt: skip


def _ruling(result: dict[str, object]) -> Record:
    return _meter_record(result)._replace(id=1, kind="ruling", action="settle", links_to=None)


def test_what_the_cap_held_back_is_told_from_the_contributions() -> None:
    """A meter at its cap takes the contribution and holds it back: before + contributions +
    what the cap held back = after."""
    meters = {
        "before": {"progressive_treasure": 250000},
        "contributions": {"progressive_treasure": 0.25},
        "after": {"progressive_treasure": 250000},
    }
    record = _meter_record(
        {"meter": "progressive_treasure", "previous": "250000", "value": "250000", "delta": "0"}
    )
    move = movement(record, _ruling({"meters": meters}))
    assert (move.kind, move.contributions, move.capped, move.paid, move.reseed) == (
        MoveKind.RULING, Decimal("0.25"), Decimal("-0.25"), Decimal(0), Decimal(0),
    )  # fmt: skip
    assert meter_movement(move) == "+ contributions $0.25 − held back at the cap $0.25"


def test_a_first_move_whose_ruling_is_not_there_is_its_first_value() -> None:
    record = _meter_record(
        {"meter": "progressive_insurance", "previous": None, "value": "5000", "delta": "5000"}
    )
    move = movement(record, None)
    assert (move.kind, move.seed, move.contributions, move.capped) == (
        MoveKind.SEED, Decimal(5000), Decimal(0), Decimal(0),
    )  # fmt: skip
