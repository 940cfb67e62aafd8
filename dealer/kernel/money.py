"""Money at the table: exact Decimal amounts of whole cents, their JSON form and their display.
(Typed or filed amounts are read by `dealer.inputs.money`.)"""

from __future__ import annotations

from decimal import Decimal

CENT = Decimal("0.01")


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
