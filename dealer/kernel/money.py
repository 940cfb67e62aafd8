"""Money at the table: exact Decimal amounts of whole cents, their JSON form and their display.
(Typed or filed amounts are read by `dealer.inputs.money`.)"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal

CENT = Decimal("0.01")
_READABLE_DIGITS = 15
"""Amounts of more digits than this are shown in scientific form (`$1E+400`): only a refused
value is ever that large, and its error line stays one readable line."""


def whole_cents(amount: Decimal) -> bool:
    """True for a finite amount with nothing below the cent; exact for any size (rounding to
    the cent, `quantize`, fails for amounts of more digits than the context holds)."""
    if not amount.is_finite():
        return False
    _, digits, exponent = amount.as_tuple()
    below_cent = -int(exponent) - 2
    return below_cent <= 0 or not any(digits[-below_cent:])


def money_json(amount: Decimal) -> int | float:
    """JSON number: an int when whole, else a float of the cents."""
    if amount == amount.to_integral_value():
        return int(amount)
    return float(amount.quantize(CENT))


def fmt_money(amount: Decimal, signed: bool = False) -> str:
    """`$12.50`, `-$5`, `+$10` (signed); `$1E+400` for an amount too long to read, and what a
    value that is no amount (infinity, NaN, read from a damaged record) says it is."""
    if amount.is_nan():
        return str(amount)
    sign = "-" if amount < 0 else ("+" if signed and amount > 0 else "")
    body = abs(amount)
    if body.is_infinite():
        text = str(body)
    elif body.adjusted() >= _READABLE_DIGITS:
        text = f"{body.normalize():E}"
    elif body != body.to_integral_value():
        text = f"{body:,.2f}"
    else:
        text = f"{int(body):,}"
    return f"{sign}${text}"


def fmt_terms(terms: Sequence[tuple[str, Decimal]]) -> str:
    """Named amounts added to a figure, each signed: `+ contributions $0.25 − hit $10,000.50`
    (a term of 0 left out, a negative one subtracted; '' when every one is 0)."""
    return " ".join(
        f"{'−' if amount < 0 else '+'} {name} {fmt_money(abs(amount))}"
        for name, amount in terms
        if amount
    )


def fmt_sum(start: str, terms: Sequence[tuple[str, Decimal]], end: Decimal) -> str:
    """A figure's arithmetic in words, each term named and signed so that the line adds up:
    `$10,000.25 + contributions $0.25 − hit $10,000.50 + reseed $10,000 → $10,000`. `start`
    is the starting figure as written (`$10,000.25`); the terms are `fmt_terms`'. The caller's
    terms are what add up to `end`: this only writes them."""
    return " ".join(part for part in (start, fmt_terms(terms), "→", fmt_money(end)) if part)
