"""Money at the table: exact decimal amounts, their JSON form and their display."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation

from dealer.kernel.errors import DealerError

CENT = Decimal("0.01")


def to_money(value: object, what: str = "wager") -> Decimal:
    """Parse an amount (number or text) into a Decimal of whole cents, zero or more."""
    if isinstance(value, bool):
        raise DealerError(f"{what} {value!r} is not an amount")
    try:
        amount = Decimal(str(value).strip().lstrip("$"))
    except InvalidOperation:
        raise DealerError(f"{what} {value!r} is not an amount") from None
    if not amount.is_finite() or amount < 0:
        raise DealerError(f"{what} {value!r} must be zero or more")
    if amount != amount.quantize(CENT):
        raise DealerError(f"{what} {value!r} has fractions of a cent")
    return amount


def money_json(amount: Decimal) -> int | float:
    """JSON number: an int when whole, else a float of the cents."""
    if amount == amount.to_integral_value():
        return int(amount)
    return float(amount.quantize(CENT))


def fmt_money(amount: Decimal, signed: bool = False) -> str:
    """`$12.50`, `-$5`, `+$10` (signed)."""
    sign = "-" if amount < 0 else ("+" if signed and amount > 0 else "")
    body = abs(amount)
    text = f"{body:,.2f}" if body != body.to_integral_value() else f"{int(body):,}"
    return f"{sign}${text}"
