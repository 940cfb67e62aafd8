"""Entries, records and filters of the audit log."""

from __future__ import annotations

import gc
import json
import re
from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dealer.audit.records import Entry, Record, amount, canonical_json, records_of
from dealer.inputs import time as parse_time
from dealer.kernel.errors import AuditError, DealerError


def ruling(**changes: object) -> Entry:
    fields: dict[str, object] = dict(
        kind="ruling",
        user_id="D7",
        role="dealer",
        table_id="PG-3",
        game="paigow",
        action="rank",
        input_text="as ks, jk",
        cards=["As", "Ks", "JK"],
        result={"category": "three-aces"},
        explanation=["Three aces: the joker plays as an ace"],
        settings={"profile": "house.yaml"},
        seat=2,
    )
    fields.update(changes)
    return Entry(**fields)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("typed", "end_of_day", "stored"),
    [
        ("2026-05-09", False, "2026-05-09T00:00:00.000000Z"),
        ("2026-05-09", True, "2026-05-10T00:00:00.000000Z"),
        ("2026-12-31", True, "2027-01-01T00:00:00.000000Z"),
        ("2026-05-09T14:05", False, "2026-05-09T14:05:00.000000Z"),
        ("2026-05-09T14:05", True, "2026-05-09T14:05:00.000000Z"),
        ("2026-05-09T14:05:07Z", False, "2026-05-09T14:05:07.000000Z"),
        ("2026-05-09T14:05:07+02:00", False, "2026-05-09T12:05:07.000000Z"),
        ("2026-05-09 23:30-01:00", False, "2026-05-10T00:30:00.000000Z"),
        (" 2026-05-09T14:05:07.25z ", False, "2026-05-09T14:05:07.250000Z"),
    ],
)
def test_parse_time(typed: str, end_of_day: bool, stored: str) -> None:
    assert parse_time(typed, end_of_day=end_of_day) == stored


@pytest.mark.parametrize("typed", ["yesterday", "2026-13-01", "14:05", "", "2026-05-09T25:00"])
def test_parse_time_refuses(typed: str) -> None:
    with pytest.raises(DealerError, match="cannot read the time"):
        parse_time(typed)


def test_stored_entry_is_canonical_json() -> None:
    stored = ruling(result={"b": 1, "a": "é"}).stored()
    assert stored["result"] == '{"a":"é","b":1}'
    assert stored["cards"] == '["As","Ks","JK"]'
    assert stored["seat"] == 2
    assert stored["reason"] is None


def test_empty_reason_is_stored_as_null() -> None:
    assert ruling(reason="").stored()["reason"] is None
    assert ruling(reason="misdeal").stored()["reason"] == "misdeal"


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"kind": "Ruling"}, "kebab-case"),
        ({"kind": ""}, "kebab-case"),
        ({"user_id": ""}, "id of the user"),
        ({"user_id": "  "}, "id of the user"),
        ({"role": "boss"}, "role 'boss'"),
        ({"role": "unknown"}, "role 'unknown'"),
        ({"cards": "As Ks"}, "list of canonical card strings"),
        ({"cards": ["As", 3]}, "list of canonical card strings"),
        ({"explanation": "because"}, "list of lines"),
        ({"seat": "2"}, "seat must be a whole number"),
        ({"seat": True}, "seat must be a whole number"),
        ({"links_to": 1.5}, "links_to must be a whole number"),
        ({"result": ["not", "a", "dict"]}, "result must be a JSON object"),
        ({"result": {"net": float("nan")}}, "not JSON-ready"),
        ({"settings": {"when": object()}}, "settings of this ruling is not JSON-ready"),
        ({"game": None}, "game must be text"),
        ({"reason": 5}, "reason must be text"),
    ],
)
def test_entry_refuses(changes: dict[str, object], message: str) -> None:
    with pytest.raises(AuditError, match=message):
        ruling(**changes).stored()


@pytest.mark.parametrize("kind", ["ruling", "access-denied"])
def test_every_record_is_made_in_a_role(kind: str) -> None:
    with pytest.raises(AuditError, match="role 'unknown' is not one of dealer, supervisor"):
        ruling(kind=kind, role="unknown").stored()


@given(
    result=st.dictionaries(
        st.text(max_size=5),
        st.one_of(
            st.integers(),
            st.text(max_size=8),
            st.booleans(),
            st.none(),
            st.floats(allow_nan=False, allow_infinity=False),
        ),
        max_size=4,
    ),
    text=st.text(max_size=20),
)
def test_record_round_trip(result: dict[str, object], text: str) -> None:
    stored = ruling(result=result, input_text=text).stored()
    stored.update(id=1, recorded_at="t", software_version="v", prev_hash="p", hash="h")
    record = Record.from_row(stored)
    assert record.result == result
    assert record.input_text == text
    assert record.cards == ("As", "Ks", "JK")
    assert json.loads(canonical_json(record.to_dict()))["result"] == result


def test_damaged_json_is_an_audit_error() -> None:
    stored = ruling().stored()
    stored.update(id=9, recorded_at="t", software_version="v", prev_hash="p", hash="h")
    stored["result"] = "{broken"
    with pytest.raises(AuditError, match="record 9 is damaged"):
        Record.from_row(stored)


def stored_row(n: int, **changes: object) -> dict[str, object]:
    stored = ruling(**changes).stored()
    stored.update(id=n, recorded_at="t", software_version="v", prev_hash="p", hash="h")
    return stored


def test_records_read_in_bulk_share_each_settings_text() -> None:
    rows = [stored_row(n, settings={"profile": f"p{n % 2}"}) for n in range(1, 5)]
    read = records_of(rows)
    assert read == [Record.from_row(row) for row in rows]
    assert read[0].settings is read[2].settings and read[1].settings is read[3].settings
    assert read[0].settings is not read[1].settings


@pytest.mark.parametrize("collecting", [True, False])
def test_a_bulk_read_leaves_the_collector_as_it_found_it(collecting: bool) -> None:
    """The collector is paused while the records are built, then as it was, even when a
    damaged record ends the read."""
    (gc.enable if collecting else gc.disable)()
    try:
        assert len(records_of([stored_row(1), stored_row(2)])) == 2
        assert gc.isenabled() is collecting
        with pytest.raises(AuditError, match="record 2 is damaged"):
            records_of([stored_row(1), {**stored_row(2), "result": "{broken"}])
        assert gc.isenabled() is collecting
    finally:
        gc.enable()


@pytest.mark.parametrize(
    ("value", "number"),
    [("10000.30", Decimal("10000.30")), (0.1, Decimal("0.1")), (-25, Decimal(-25))],
)
def test_amount(value: object, number: Decimal) -> None:
    assert amount(value, "meter treasure") == number  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (True, "meter treasure must be a number, not True"),
        ("lots", "meter treasure must be a number, not 'lots'"),
        (float("inf"), "meter treasure must be a finite number, not inf"),
        ("NaN", "meter treasure must be a finite number, not 'NaN'"),
    ],
)
def test_amount_refuses(value: object, message: str) -> None:
    with pytest.raises(AuditError, match=f"^{re.escape(message)}$"):
        amount(value, "meter treasure")  # type: ignore[arg-type]
