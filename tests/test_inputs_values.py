"""The one input boundary for typed values: money, seats, record ids, ids and free text."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest
from cli import run
from hypothesis import given, settings
from hypothesis import strategies as st

from dealer import inputs
from dealer.kernel.errors import DealerError
from dealer.kernel.money import fmt_money
from dealer.kernel.text import printable, quoted


@pytest.mark.parametrize(
    ("typed", "amount"),
    [
        ("25", Decimal(25)),
        ("$25", Decimal(25)),
        (" 12.5 ", Decimal("12.50")),
        ("12.50", Decimal("12.50")),
        ("25.00", Decimal(25)),
        ("0", Decimal(0)),
        ("1000000", Decimal(1_000_000)),
        (25, Decimal(25)),
        (12.5, Decimal("12.50")),
        (Decimal("7.35"), Decimal("7.35")),
    ],
)
def test_amounts_read(typed: object, amount: Decimal) -> None:
    read = inputs.money(typed)
    assert read == amount
    assert str(read) == str(amount)


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ("1e400", "wager '1e400' is not an amount: use digits with at most one decimal point"),
        ("1e3", "wager '1e3' is not an amount: use digits"),
        ("nan", "wager 'nan' is not an amount: use digits"),
        ("inf", "wager 'inf' is not an amount: use digits"),
        ("-5", "wager '-5' is not an amount: an amount is zero or more"),
        (-5, "wager '-5' is not an amount: an amount is zero or more"),
        ("+5", "wager '+5' is not an amount: use digits"),
        ("1,000", "without thousands separators (1000, not 1,000)"),
        ("0.001", "wager '0.001' is not an amount: amounts are whole cents"),
        ("12.", "wager '12.' is not an amount"),
        (".5", "wager '.5' is not an amount"),
        ("1.2.3", "wager '1.2.3' is not an amount"),
        ("$$5", "wager '$$5' is not an amount"),
        ("５", "wager '５' is not an amount"),
        ("٣", "wager '٣' is not an amount"),
        ("0x10", "wager '0x10' is not an amount"),
        ("", "wager '' is not an amount"),
        ("1000000.01", "wager '1000000.01' is more than $1,000,000, the most allowed"),
        (10**30, "is more than $1,000,000, the most allowed"),
        ("9" * 40, "the most allowed is $1,000,000"),
        (float("inf"), "wager 'inf' is not an amount"),
        (float("nan"), "wager 'nan' is not an amount"),
        (True, "wager 'True' is not an amount"),
        (None, "wager 'None' is not an amount"),
        ([5], "wager '[5]' is not an amount"),
        (Decimal("0.001"), "wager '0.001' has fractions of a cent"),
    ],
)
def test_amounts_refused(typed: object, message: str) -> None:
    with pytest.raises(DealerError) as refused:
        inputs.money(typed)
    assert message in str(refused.value)


def test_a_bound_can_be_given() -> None:
    assert inputs.money("9999999", "amount", limit=Decimal(10_000_000)) == Decimal(9_999_999)
    with pytest.raises(DealerError, match=r"amount '10000000.01' is more than \$10,000,000"):
        inputs.money("10000000.01", "amount", limit=Decimal(10_000_000))


def test_the_bound_is_as_documented() -> None:
    assert fmt_money(inputs.WAGER_LIMIT) == "$1,000,000"


@settings(derandomize=True, max_examples=300, deadline=None)
@given(st.text(max_size=30))
def test_any_text_is_an_amount_of_whole_cents_in_bounds_or_refused(typed: str) -> None:
    try:
        amount = inputs.money(typed)
    except DealerError as refused:
        assert "\n" not in str(refused)
        return
    assert amount.is_finite()
    assert 0 <= amount <= inputs.WAGER_LIMIT
    assert amount == amount.quantize(Decimal("0.01"))
    assert typed.strip().isascii()


@pytest.mark.parametrize(
    ("typed", "number"), [("1", 1), (" 42 ", 42), (7, 7), ("007", 7), ("9" * 18, 10**18 - 1)]
)
def test_record_ids_read(typed: object, number: int) -> None:
    assert inputs.record_id(typed) == number


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ("0", "record id '0' is not a record number"),
        (0, "record id '0' is not a record number"),
        ("-1", "record id '-1' is not a record number"),
        ("abc", "record id 'abc' is not a record number"),
        ("５", "record id '５' is not a record number"),
        ("²", "record id '²' is not a record number"),
        (10**30, "record id '1000000000000000000000000000000' is larger than any record number"),
        ("9" * 5000, "is larger than any record number"),
        (True, "record id 'True' is not a record number"),
    ],
)
def test_record_ids_refused(typed: object, message: str) -> None:
    with pytest.raises(DealerError) as refused:
        inputs.record_id(typed)
    assert message in str(refused.value)
    assert len(str(refused.value)) < 200


@pytest.mark.parametrize("count", [1, 20, 10**18 - 1])
def test_record_counts_read(count: int) -> None:
    assert inputs.record_count(count) == count


@pytest.mark.parametrize("count", [0, -1, 10**18, 10**4000])
def test_record_counts_refused(count: int) -> None:
    with pytest.raises(DealerError) as refused:
        inputs.record_count(count)
    assert str(refused.value) == (
        f"--limit {count}: give how many records, from 1 to 999,999,999,999,999,999"
    )


@pytest.mark.parametrize("typed", ["0", "7", "-1", "1.5", "x", "５", "9" * 5000, True, None])
def test_seats_refused(typed: object) -> None:
    with pytest.raises(DealerError, match="seats are numbered 1-6"):
        inputs.seat(typed)


@pytest.mark.parametrize(
    ("typed", "read"),
    [
        ("discard 1R1", (None, "discard 1R1")),
        ("  seat 3 discard 1R1 ", (3, "discard 1R1")),
        ("Seat 12: bet 5", (12, "bet 5")),
        ("seat 2", (2, "")),
        ("seated", (None, "seated")),
    ],
)
def test_a_seat_may_be_named_before_a_move(typed: str, read: tuple[int | None, str]) -> None:
    assert inputs.seat_first(typed) == read


@pytest.mark.parametrize("seat", ["x", "٣", "1234567890", "-1"])
def test_a_named_seat_is_ascii_digits(seat: str) -> None:
    with pytest.raises(DealerError, match=f"seat '{seat}' is not a seat number"):
        inputs.seat_first(f"seat {seat} stand")


@pytest.mark.parametrize("typed", ["PG-3", "main.7", "T#12", "a" * 64])
def test_table_ids_read(typed: str) -> None:
    assert inputs.table_id(typed) == typed


@pytest.mark.parametrize(
    "typed", ["\x1b]0;pwned\x07", "PG\n3", "PG 3", "", "-x", "a" * 65, "PG‮3", 7]
)
def test_table_ids_refused(typed: object) -> None:
    with pytest.raises(DealerError) as refused:
        inputs.table_id(typed)
    assert "letters, digits and . _ @ # - (up to 64)" in str(refused.value)
    assert printable(str(refused.value)) == str(refused.value)


@pytest.mark.parametrize("typed", ["P-123", "club#4471", "ann.lee@casino", "a" * 64])
def test_patron_ids_read(typed: str) -> None:
    assert inputs.patron_id(typed) == typed


@pytest.mark.parametrize("typed", ["P 1", "", "-x", "a" * 65, "P\x1b[2J", "P‮1", 7, None])
def test_patron_ids_refused(typed: object) -> None:
    with pytest.raises(DealerError) as refused:
        inputs.patron_id(typed)
    message = str(refused.value)
    assert message.startswith("patron id ")
    assert message.endswith("letters, digits and . _ @ # - (up to 64)")
    assert printable(message) == message


def test_free_text_is_one_plain_line() -> None:
    assert inputs.text("  wrong card read  ", "reason") == "wrong card read"
    for bad, message in [
        ("line one\nline two", "has a control character"),
        ("\x1b[2Jcleared", "has a control character"),
        ("bell\x07", "has a control character"),
        ("abc\u202edef", "has a control character"),
        ("   ", "reason is empty"),
        ("x" * 2001, "reason is 2,001 characters long: at most 2,000"),
        (5, "reason must be text"),
    ]:
        with pytest.raises(DealerError) as refused:
            inputs.text(bad, "reason")
        assert message in str(refused.value)
        assert printable(str(refused.value)) == str(refused.value)


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("plain ♠ text", "plain ♠ text"),
        ("\x1b]0;pwned\x07", "\\x1b]0;pwned\\x07"),
        ("a\nb\r\tc", "a\\nb\\r\\tc"),
        ("\x7f\x85", "\\x7f\\x85"),
        ("rtl\u202eltr\u200b", "rtl\\u202eltr\\u200b"),
    ],
)
def test_printable_escapes_what_would_act_on_a_terminal(text: str, shown: str) -> None:
    assert printable(text) == shown


def test_quoted_shortens_a_long_value() -> None:
    assert quoted("A" * 102_400) == "'" + "A" * 40 + "…' (102,400 characters)"
    assert quoted("x\ny") == "'x\\ny'"


@pytest.mark.parametrize(
    ("typed", "read"),
    [
        ('{"winner": 1}', {"winner": 1}),
        ("{}", {}),
        ('{"a": {"b": [1, "é"]}}', {"a": {"b": [1, "é"]}}),
    ],
)
def test_a_json_object_is_read(typed: str, read: dict[str, object]) -> None:
    assert inputs.json_object(typed, "--result") == read


@pytest.mark.parametrize(
    "typed", ["[1]", "1", '"x"', "null", "{", "", '{"a": "\\ud800"}', '{"a": "\udcff"}']
)
def test_anything_but_a_json_object_is_refused(typed: str) -> None:
    with pytest.raises(DealerError) as refused:
        inputs.json_object(typed, "--result")
    assert str(refused.value) == "--result must be a JSON object, e.g. '{\"winner\": 1}'"


@pytest.mark.parametrize(
    "args",
    [
        ("audit", "list"),
        ("audit", "search", "--table", "PG-1"),
        ("shift", "summary", "--table", "PG-1"),
    ],
    ids=" ".join,
)
@pytest.mark.parametrize(
    ("since", "until"), [("2026-05-10", "2026-05-09"), ("2026-05-09T12:00", "2026-05-09T12:00")]
)
def test_a_time_range_that_ends_before_it_starts_is_refused_by_every_command(
    tmp_path: Path, args: tuple[str, ...], since: str, until: str
) -> None:
    """`audit list` answered "No records" where `shift summary` refused: one reading of a range."""
    result = run(*args, "--since", since, "--until", until, "--db", str(tmp_path / "a.sqlite"))
    assert (result.exit_code, result.stderr) == (
        1,
        f"Error: --since '{since}' is not before --until '{until}'\n",
    )
