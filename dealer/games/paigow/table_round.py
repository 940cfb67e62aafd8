"""A whole table round: every seat's base wager against the dealer's House Way hand, and every
bonus wager (Insurance, Treasure, Envy across seats, both progressives, caps). Pure: the
progressive meters come in and go out as values."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from dealer.games.paigow.bonus import (
    BonusSettings,
    Meters,
    RoundBonuses,
    SeatBonuses,
    settle_bonuses,
)
from dealer.games.paigow.house_way import HouseWay
from dealer.games.paigow.pay import PROGRESSIVES, ZERO
from dealer.games.paigow.paytables import PayTables
from dealer.games.paigow.profile import Profile
from dealer.games.paigow.round_input import RoundInput, SeatInput
from dealer.games.paigow.settle import (
    BaseRules,
    BaseSettlement,
    house_way_sets,
    player_sets,
    settle_base,
)
from dealer.kernel.cards import symbols
from dealer.kernel.errors import DealerError
from dealer.kernel.money import fmt_money, money_json, whole_cents

PROGRESSIVE_METERS = PROGRESSIVES
"""The meters a round reads and moves, by name."""


@dataclass(frozen=True)
class SeatResult:
    """One seat's rulings: the base wager and its bonus wagers."""

    seat: int
    base: BaseSettlement
    bonuses: SeatBonuses
    patron: str | None = None

    @property
    def total_net(self) -> Decimal:
        """The seat's gain (+) or loss (−) over every wager."""
        return self.base.net + self.bonuses.net

    def to_dict(self) -> dict[str, Any]:
        """CONTRACT keys: `base`, `bonuses`, `total_net`, with the seat and its events; `patron`
        only when the seat has one (so results without patrons read as they always did)."""
        patron = {} if self.patron is None else {"patron": self.patron}
        return {
            "seat": self.seat,
            **patron,
            "base": self.base.to_dict(),
            "bonuses": [r.to_dict() for r in self.bonuses.results],
            "events": self.bonuses.events.to_dict(),
            "total_net": money_json(self.total_net),
        }


@dataclass(frozen=True)
class RoundResult:
    """Every ruling of one round, and the meters before and after it."""

    table: str | None
    seats: tuple[SeatResult, ...]
    bonuses: RoundBonuses

    @property
    def total_net(self) -> Decimal:
        """The players' total gain (+) or loss (−): the house's result with the sign turned."""
        return sum((s.total_net for s in self.seats), Decimal(0))

    def to_dict(self) -> dict[str, Any]:
        """The round's JSON: `seats` as `paigow settle` gives each, the dealer, the meters."""
        first = self.seats[0].base
        meters = self.bonuses.to_dict()
        return {
            "table": self.table,
            "dealer": {
                "cards": [str(c) for c in first.dealer.cards],
                "high": first.dealer_high.to_dict(),
                "low": first.dealer_low.to_dict(),
                "rule": first.dealer.setting.rule if first.dealer.setting else None,
                "pai_gow": first.to_dict()["dealer_pai_gow"],
                "events": meters["dealer"],
            },
            "seats": [s.to_dict() for s in self.seats],
            "meters": meters["meters"],
            "progressive_hits": meters["progressive_hits"],
            "total_net": money_json(self.total_net),
        }

    def explanation(self) -> list[str]:
        """The dealer's setting, then each seat's reasons, then the meters."""
        first = self.seats[0].base
        lines = [
            first.reasons[0],
            f"dealer: {symbols(first.dealer.high)} / {symbols(first.dealer.low)}",
        ]
        for s in self.seats:
            lines += [f"seat {s.seat}: {r}" for r in s.base.reasons[1:]]
        lines += self.bonuses.explanation()
        lines.append(f"players' total: {fmt_money(self.total_net, signed=True)}")
        return lines

    @property
    def meters_after(self) -> Meters:
        """The progressive meters the round leaves."""
        return self.bonuses.meters_after


def _set_hand(seat: SeatInput, way: HouseWay) -> Any:
    if seat.high is None or seat.low is None:
        return house_way_sets(seat.cards, way)
    return player_sets(seat.high, seat.low)


def settle_round(
    rnd: RoundInput,
    profile: Profile,
    way: HouseWay,
    meters: Meters,
    paytables: PayTables | None = None,
) -> RoundResult:
    """Settle every wager of every seat of the round."""
    rules = BaseRules(profile.wheel, profile.dealer_pai_gow, profile.foul)
    bases = {
        seat.seat: settle_base(rnd.dealer, _set_hand(seat, way), seat.wagers.base, way, rules)
        for seat in rnd.seats
    }
    bonuses = settle_bonuses(
        rnd.seats, rnd.dealer, BonusSettings.from_profile(profile), meters, paytables
    )
    seats = tuple(
        SeatResult(s.seat, bases[s.seat], bonuses.seat(s.seat), s.patron) for s in rnd.seats
    )
    return RoundResult(rnd.table, seats, bonuses)


def starting_meters(stored: dict[str, Decimal | None], profile: Profile, table: str) -> Meters:
    """The meters before a round at `table`: as stored, else each meter's seed.

    A stored value no ruling can pay from — not whole cents, below zero, or above the meter's
    cap (written by an older version, or the profile's cap lowered since) — is refused, naming
    the meter: nothing is ruled at the table until a supervisor sets the meter again (within
    its seed and cap), and the refused ruling can then be made as it was typed."""
    values: dict[str, Decimal] = {}
    for name in PROGRESSIVE_METERS:
        value, meter = stored.get(name), profile.meters[name]
        if value is not None and not (whole_cents(value) and ZERO <= value <= meter.cap):
            raise DealerError(
                f"the {name} meter at table {table} holds {fmt_money(value)}, which no ruling can "
                f"pay from (a meter holds whole cents from $0 to its cap, {fmt_money(meter.cap)}): "
                "a supervisor sets it again with dealer audit meter adjust"
            )
        values[name] = meter.seed if value is None else value
    return Meters(**values)
