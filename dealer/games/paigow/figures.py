"""The figures of a Pai Gow settle or round result where they come from a person, not from the
engine: a supervisor's replacement result (`dealer audit override --result`), in the form of
the ruling it replaces, checked before it is recorded, and again where the shift summary counts
a stored one (a replacement that fails is counted as no replacement: the ruling as ruled).

The form (as a ruling records it): a settle's `base` ({wager, net}) and `bonuses` ([{wager,
amount, net}]); a round's `seats`, each {seat, base, bonuses}. A result without its figures'
key (`base`, `seats`) states a decision, not figures, and is not checked here. Each amount is a
JSON number that passes the money type (`dealer.inputs.money`: a wager or an amount from 0,
`signed_money`: a net either way), within `FIGURE_LIMIT`, in whole cents."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from dealer.games.paigow.pay import Wager
from dealer.inputs import FIGURE_LIMIT, PAIGOW_SEATS, money, signed_money, whole_number
from dealer.kernel.errors import DealerError
from dealer.kernel.money import fmt_money
from dealer.kernel.ruling import RulingAction

FIGURES_KEY: dict[str, str] = {RulingAction.SETTLE: "base", RulingAction.ROUND: "seats"}
"""The key that carries a ruling's figures, by the action that made it."""


def _amount(value: Any, where: str, *, signed: bool) -> None:
    """Refuse `value` unless it is a JSON number passing the money type."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise DealerError(f"{where} must be an amount written as a JSON number, e.g. 12.5")
    if isinstance(value, int) and abs(value) > FIGURE_LIMIT:  # not shown: it may be huge
        raise DealerError(f"{where} is more than {fmt_money(FIGURE_LIMIT)}, the most allowed")
    read = signed_money if signed else money
    read(repr(value) if isinstance(value, float) else value, where, limit=FIGURE_LIMIT)


def _seat(raw: Any, where: str) -> None:
    """One seat's figures: its base wager and net, and each bonus wager's amount and net."""
    if not isinstance(raw, Mapping):
        raise DealerError(f"{where} must be a mapping with base and bonuses")
    base = raw.get("base")
    if not isinstance(base, Mapping):
        raise DealerError(f"{where}base must be a mapping with wager and net")
    _amount(base.get("wager"), f"{where}base.wager", signed=False)
    _amount(base.get("net"), f"{where}base.net", signed=True)
    bonuses = raw.get("bonuses", [])
    if not isinstance(bonuses, list):
        raise DealerError(f"{where}bonuses must be a list")
    for index, bonus in enumerate(bonuses):
        at = f"{where}bonuses[{index}]."
        if not isinstance(bonus, Mapping) or bonus.get("wager") not in set(Wager):
            raise DealerError(f"{at.rstrip('.')} must be a mapping naming its wager")
        _amount(bonus.get("amount"), f"{at}amount", signed=False)
        _amount(bonus.get("net"), f"{at}net", signed=True)


def check_figures(action: str, result: Mapping[str, Any], what: str = "--result") -> None:
    """Refuse (`DealerError`, naming the place after `what`) a replacement result for a ruling
    made by `action` whose figures are not in the ruling's form (module docstring)."""
    key = FIGURES_KEY.get(action)
    if key is None or key not in result:
        return
    if key == "base":
        _seat(result, f"{what} ")
        return
    seats = result["seats"]
    if not isinstance(seats, list) or not seats:
        raise DealerError(f"{what} seats must be a list of at least one seat")
    taken: set[int] = set()
    for index, seat in enumerate(seats):
        where = f"{what} seats[{index}]."
        number = seat.get("seat") if isinstance(seat, Mapping) else None
        if isinstance(number, bool) or not isinstance(number, int):
            number = None
        seat_no = whole_number(number, f"{where}seat", least=1, most=PAIGOW_SEATS.stop - 1)
        if seat_no in taken:
            raise DealerError(f"{where}seat {seat_no} is listed twice")
        taken.add(seat_no)
        _seat(seat, where)


def has_figures(action: str, result: Any) -> bool:
    """Whether a stored replacement result carries figures in the form of a ruling made by
    `action` (the shift summary counts those; any other states a decision)."""
    key = FIGURES_KEY.get(action)
    if not isinstance(result, Mapping) or key is None or key not in result:
        return False
    try:
        check_figures(action, result)
    except DealerError:
        return False
    return True
