"""A ruling that moves meters is ruled before the write lock and recorded under it only if the
meters are still as it read them; else it is ruled again on the values under the lock (another
terminal moved the meter in between), on both backends."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from pathlib import Path

from dealer.audit import open_log
from dealer.desk.context import Desk
from dealer.desk.recording import record_with_meters
from dealer.kernel.ruling import Ruling

TABLE = "PG-1"
NAME = "progressive_treasure"


Rule = Callable[[dict[str, Decimal | None]], tuple[Ruling, dict[str, Decimal]]]


def to_500(stored: dict[str, Decimal | None]) -> tuple[Ruling, dict[str, Decimal]]:
    """Another terminal's ruling taking the unset meter from $100 to $500, as a ruling states
    its meters (a $400 contribution from a $400 wager), so that its move is explained."""
    moved = {"before": {NAME: 100}, "contributions": {NAME: 400}, "after": {NAME: 500}}
    result = {"meters": moved, "bonuses": [{"wager": NAME, "amount": 400}]}
    ruling = Ruling("paigow", "settle", "test", (), result, (), {})
    return ruling, {NAME: Decimal(500)}


def contribution_rule(seen: list[Decimal | None], meanwhile: Path | str | None = None) -> Rule:
    """A rule adding $1 to the meter (from $100 when unset), noting each value it ruled on; on
    its first call, another terminal moves the meter to $500 first (`meanwhile`)."""

    def rule(stored: dict[str, Decimal | None]) -> tuple[Ruling, dict[str, Decimal]]:
        value = stored[NAME]
        seen.append(value)
        if meanwhile is not None and len(seen) == 1:
            record_with_meters(Desk(meanwhile, "d-2", TABLE), {NAME: None}, to_500)
        start = Decimal(100) if value is None else value
        ruling = Ruling(
            game="paigow",
            action="settle",
            input_text="test",
            cards=(),
            result={"meter_before": str(start)},
            explanation=(),
            settings={},
        )
        return ruling, {NAME: start + 1}

    return rule


def test_a_meter_unchanged_since_it_was_read_is_ruled_once(log_at: Path | str) -> None:
    seen: list[Decimal | None] = []
    ruling_id, ruling = record_with_meters(
        Desk(log_at, "d-1", TABLE), {NAME: None}, contribution_rule(seen)
    )
    assert seen == [None]
    with open_log(log_at) as log:
        assert log.meter(TABLE, NAME) == Decimal(101)
        assert ruling_id == 1 and ruling.result == {"meter_before": "100"}


def test_a_meter_moved_before_the_lock_is_ruled_again_on_its_new_value(
    log_at: Path | str,
) -> None:
    seen: list[Decimal | None] = []
    rule = contribution_rule(seen, meanwhile=log_at)
    ruling_id, ruling = record_with_meters(Desk(log_at, "d-1", TABLE), {NAME: None}, rule)
    assert seen == [None, Decimal(500)]
    assert ruling.result == {"meter_before": "500"}
    with open_log(log_at) as log:
        assert log.meter(TABLE, NAME) == Decimal(501)
        moved = log.record(ruling_id + 1)
        assert moved is not None
        assert (moved.result["previous"], moved.result["value"]) == ("500", "501")
