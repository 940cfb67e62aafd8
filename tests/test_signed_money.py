"""Amounts with a direction (a dispute's amount adjusted), whole cents of any size, and money
shown in one readable line however large the value refused."""

from __future__ import annotations

from decimal import Decimal

import pytest

from dealer.inputs import money, signed_money
from dealer.kernel.errors import DealerError
from dealer.kernel.money import fmt_money, whole_cents

FORM = "use digits with at most one decimal point and two decimals, e.g. 25, 12.50 or $25"


@pytest.mark.parametrize(
    ("typed", "amount"),
    [
        ("25", Decimal(25)),
        ("+25", Decimal(25)),
        ("-25", Decimal(-25)),
        ("-$12.50", Decimal("-12.50")),
        (" +$0.01 ", Decimal("0.01")),
        ("-0", Decimal(0)),
    ],
)
def test_signed_money(typed: str, amount: Decimal) -> None:
    read = signed_money(typed, "the amount adjusted")
    assert read == amount and str(read) == str(amount)


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ("ten", f"the amount adjusted 'ten' is not an amount: {FORM}"),
        ("-", f"the amount adjusted '' is not an amount: {FORM}"),
        ("--5", "the amount adjusted '-5' is not an amount: an amount is zero or more"),
        (
            "-2.505",
            "the amount adjusted '2.505' is not an amount: amounts are whole cents (at most two "
            "decimals)",
        ),
    ],
)
def test_signed_money_refusals(typed: str, message: str) -> None:
    with pytest.raises(DealerError) as refused:
        signed_money(typed, "the amount adjusted")
    assert str(refused.value) == message


@pytest.mark.parametrize(
    ("amount", "whole"),
    [
        ("12.50", True),
        ("12.500", True),
        ("1E+400", True),
        ("1.000000000000000000000000000000000E+30", True),
        ("12.501", False),
        ("0.001", False),
        ("1E-400", False),
        ("NaN", False),
        ("Infinity", False),
    ],
)
def test_whole_cents_of_any_size(amount: str, whole: bool) -> None:
    assert whole_cents(Decimal(amount)) is whole


def test_an_amount_too_large_is_refused_not_crashed_on() -> None:
    with pytest.raises(DealerError, match="meter '1e400' is not an amount"):
        money("1e400", "meter")


@pytest.mark.parametrize(
    ("amount", "shown"),
    [
        ("250000", "$250,000"),
        ("-12.5", "-$12.50"),
        ("999999999999999", "$999,999,999,999,999"),
        ("1000000000000000", "$1E+15"),
        ("1E+400", "$1E+400"),
        ("-1E+400", "-$1E+400"),
        ("Infinity", "$Infinity"),
        ("NaN", "NaN"),
    ],
)
def test_money_shown_in_one_readable_line(amount: str, shown: str) -> None:
    assert fmt_money(Decimal(amount)) == shown
