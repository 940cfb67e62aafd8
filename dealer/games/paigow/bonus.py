"""Settlement of the bonus wagers of Emperor's Challenge Exposed (RULINGS §1.5).

Pure functions over seven-card hands and pay tables: Pai Gow Insurance (on the player's hand,
or the dealer's when the player declared it: the lammer), Emperor's Treasure, the Envy Bonus
across the table, the two progressives with their meters, and the caps.

Money: every amount is a Decimal of whole cents; what a row pays is computed by
`dealer.games.paigow.pay.row_net`, the arithmetic the exact analysis uses too. A result's `net`
is the player's gain (+) or loss (−).

Meters: the values come in and the new values go out. Each progressive wager adds its
contribution (a share of the wager, rounded down to the cent) to its meter before the hands are
paid, up to the meter's cap (contributions stop there: a meter never grows past its cap); hits
are paid in seat order, each from the meter the one before left; a percentage pay is that share
of the meter, rounded down to the cent, and comes off the meter; a 100% pay resets it to its
seed. Fixed and odds pays of a progressive table are paid by the house.

Units: a progressive wager is a whole number of its unit (`BonusSettings.units`, the profile's
`limits.<progressive>.unit`); a fixed pay is paid once per unit, a share of the meter once per
hit. The contribution is a share of the wager's amount, so of each unit alike.

Not offered: a wager the table does not offer (`BonusSettings.offered`) is refused if placed;
Envy, which is never placed, is then simply not paid.

Caps (per wager type, on the winnings, `dealer.games.paigow.pay.capped`): per hand first (a
seat's total for that wager in the round), then per round (shared among the winners in
proportion to what they would be paid, to the cent, the odd cents to the largest remainders,
then seat order). What a cap keeps from a meter pay stays in the meter.

`settle_bonuses` is these steps, in order, each a function of its own: `check_placed` (refuse
a wager not offered, or a progressive one not in whole units), `classify_hands`,
`contributions` (to the meters), `settle_seat` (each wager of a seat, by how the registry
`dealer.games.paigow.pay.Wager` says it is settled), `apply_caps`, `return_to_meters` (what a cap
kept from a meter pay) and `group_by_seat`. The wagers come in as each seat's `SeatWagers`,
read and checked once where they were typed or filed (`dealer.games.paigow.round_input`).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from decimal import Decimal
from types import MappingProxyType
from typing import Any

from dealer.games.paigow.deck import check_distinct
from dealer.games.paigow.events import LABELS, SevenCardEvents, classify
from dealer.games.paigow.pay import (
    BONUSES,
    PROGRESSIVES,
    ZERO,
    Basis,
    PayKind,
    Payout,
    Settled,
    Wager,
    capped,
    floor_cent,
    row_net,
    units_of,
)
from dealer.games.paigow.paytables import PayRow, PayTable, PayTables, shipped_paytables
from dealer.games.paigow.profile import Cap, MeterConfig, Profile, load_profile
from dealer.games.paigow.round_input import SeatInput
from dealer.inputs import money
from dealer.kernel.cards import Card
from dealer.kernel.errors import ConfigError, DealerError
from dealer.kernel.money import fmt_money, fmt_sum, money_json
from dealer.kernel.tuples import NamedTuple

SETTLE_ORDER = tuple(Wager)
"""A seat's rulings are listed in the order of `Wager`."""


@dataclass(frozen=True, init=False)
class Meters:
    """The progressive meters, by the wager each is named after (`PROGRESSIVES`): given by
    keyword (`Meters(progressive_treasure=10000)`), zero where not given."""

    values: Mapping[str, Decimal]

    def __init__(self, **values: Decimal | int | str) -> None:
        unknown = sorted(set(values) - set(PROGRESSIVES))
        if unknown:
            raise TypeError(f"there is no meter {unknown[0]!r}")
        read = {name: money(values.get(name, ZERO), f"{name} meter") for name in PROGRESSIVES}
        object.__setattr__(self, "values", MappingProxyType(read))

    def get(self, name: str) -> Decimal:
        """One meter by its wager name."""
        return self.values[name]

    def to_dict(self) -> dict[str, int | float]:
        """JSON form."""
        return {name: money_json(self.get(name)) for name in PROGRESSIVES}


@functools.cache
def _shipped_profile() -> Profile:
    return load_profile()


@dataclass(frozen=True)
class BonusSettings:
    """The table settings the bonus wagers depend on; each one not given is the shipped
    default profile's (`BonusSettings()` is `BonusSettings.from_profile(load_profile())`).
    `tables` is the pay table posted for each bonus wager, by wager."""

    tables: Mapping[str, str] = field(default_factory=lambda: _tables(_shipped_profile()))
    envy_minimum: Decimal = field(default_factory=lambda: _shipped_profile().envy_minimum)
    caps: Mapping[str, Cap] = field(default_factory=lambda: _shipped_profile().caps)
    meters: Mapping[str, MeterConfig] = field(default_factory=lambda: _shipped_profile().meters)
    units: Mapping[str, Decimal] = field(default_factory=lambda: _units(_shipped_profile()))
    offered: frozenset[str] = field(default_factory=lambda: _offered(_shipped_profile()))

    def __post_init__(self) -> None:
        object.__setattr__(self, "envy_minimum", money(self.envy_minimum, "Envy minimum"))
        for name in self.caps:
            if name not in BONUSES:
                raise ConfigError(f"cap for {name!r}: caps are set for {', '.join(BONUSES)}")
        for name in PROGRESSIVES:
            meter = self.meters.get(name)
            if meter is None:
                raise ConfigError(f"the {name} meter needs a seed, a contribution and a cap")
            if not ZERO <= meter.contribution <= 1:
                raise ConfigError(f"the {name} contribution {meter.contribution} is not 0 to 1")
            unit = self.units.get(name)
            if unit is None or unit <= 0:
                raise ConfigError(f"the {name} wager needs a unit above zero")
            if meter.cap < meter.seed:
                raise ConfigError(f"the {name} cap {meter.cap} is below its seed {meter.seed}")

    @classmethod
    def from_profile(cls, profile: Profile) -> BonusSettings:
        """The bonus settings of a table profile."""
        return cls(
            _tables(profile),
            profile.envy_minimum,
            profile.caps,
            profile.meters,
            _units(profile),
            _offered(profile),
        )

    def cap(self, wager: str) -> Cap:
        """The caps of one wager type (no cap where not set)."""
        return self.caps.get(wager) or Cap(None, None)

    def table_id(self, wager: str) -> str:
        """The pay table chosen for one wager type."""
        return self.tables[wager]

    def units_in(self, wager: Wager, amount: Decimal, seat: int) -> int:
        """How many units a progressive wager of `amount` is; refused unless a whole number."""
        unit = self.units[wager]
        units = units_of(amount, unit)
        if units is None:
            raise DealerError(
                f"seat {seat}: the {wager.words} wager {fmt_money(amount)} is not a whole "
                f"number of {fmt_money(unit)} units"
            )
        return units

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""

        def num(v: Decimal | None) -> int | float | None:
            return None if v is None else money_json(v)

        return {
            **{w.table_setting: self.table_id(w) for w in BONUSES},
            "envy_minimum": money_json(self.envy_minimum),
            "caps": {
                w: {"per_hand": num(self.cap(w).per_hand), "per_round": num(self.cap(w).per_round)}
                for w in BONUSES
            },
            "meters": {
                m: {"seed": num(c.seed), "contribution": float(c.contribution), "cap": num(c.cap)}
                for m, c in self.meters.items()
            },
            "units": {w: num(u) for w, u in self.units.items()},
            "offered": {w.value: w in self.offered for w in BONUSES},
        }


def _tables(profile: Profile) -> Mapping[str, str]:
    return MappingProxyType({w: profile.table_id(w) for w in BONUSES})


def _units(profile: Profile) -> Mapping[str, Decimal]:
    return MappingProxyType({w: profile.unit(w) for w in PROGRESSIVES})


def _offered(profile: Profile) -> frozenset[str]:
    return frozenset(w for w in BONUSES if profile.offers(w))


@dataclass(frozen=True)
class MeterPay:
    """A pay taken from a progressive meter."""

    meter: str
    before: Decimal
    percent: Decimal
    paid: Decimal
    after: Decimal
    reset: bool
    returned: Decimal = ZERO

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "meter": self.meter,
            "before": money_json(self.before),
            "percent": money_json(self.percent),
            "paid": money_json(self.paid),
            "after": money_json(self.after),
            "reset": self.reset,
            "returned_by_cap": money_json(self.returned),
        }


@dataclass(frozen=True)
class BonusResult:
    """The ruling on one bonus wager (or one Envy pay) of one seat."""

    seat: int
    wager: str
    amount: Decimal
    paytable: str
    paytable_name: str
    basis: Basis
    hand: str  # "own", "dealer" or "seat N" (Envy)
    event: str | None
    event_cards: tuple[Card, ...]
    row: PayRow | None
    skipped: tuple[str, ...]
    payout: Payout
    uncapped_net: Decimal
    net: Decimal
    meter: MeterPay | None = None
    from_seat: int | None = None
    caps: tuple[str, ...] = ()
    reason: str = ""

    @property
    def kind(self) -> str:
        """The pay kind of the row that settled it, or `no-event`."""
        return self.row.pay.kind if self.row else "no-event"

    @property
    def pays(self) -> str:
        """The pay as printed: `5 to 1`, `$125`, `Push`, or `no event`."""
        return self.row.pay.text() if self.row else "no event"

    def to_dict(self) -> dict[str, Any]:
        """JSON form: wager, amount, event, paytable, row, pays, kind, net, uncapped_net, …"""
        out: dict[str, Any] = {
            "wager": self.wager,
            "seat": self.seat,
            "amount": money_json(self.amount),
            "hand": self.hand,
            "event": self.event,
            "event_cards": [str(c) for c in self.event_cards],
            "paytable": self.paytable,
            "row": self.row.label if self.row else None,
            "row_number": self.row.number if self.row else None,
            "pays": self.pays,
            "kind": self.kind,
            "net": money_json(self.net),
            "uncapped_net": money_json(self.uncapped_net),
            "capped": self.net != self.uncapped_net,
            "caps": list(self.caps),
            "not_offered": list(self.skipped),
            "meter": self.meter.to_dict() if self.meter else None,
            "units": self.payout.units if Wager(self.wager).progressive else None,
        }
        if self.from_seat is not None:
            out["from_seat"] = self.from_seat
        return out

    def explanation(self) -> list[str]:
        """What was paid and why: the table, the row, the pay kind and the arithmetic."""
        on = {"own": "", "dealer": " on the dealer's hand (lammer)"}.get(
            self.hand, f" on {self.hand}'s hand"
        )
        head = f"{self.paytable_name} {self.paytable}{on}"
        lines = [
            f"{head}: row {LABELS.get(e, e)} is N/A in this table; the hand's next event decides"
            for e in self.skipped
        ]
        lines.append(f"{head}, {self._arithmetic()}")
        lines.extend(self.caps)
        if self.meter is not None and self.meter.returned:
            lines.append(f"the {fmt_money(self.meter.returned)} the cap kept stays in the meter")
        return lines

    def _arithmetic(self) -> str:
        lead = self.reason if self.row is None else f"row {self.row.label}"
        return self.payout.arithmetic(lead, self.meter.after if self.meter else None)


def settle_wager(
    wager: str,
    amount: Decimal,
    events: SevenCardEvents,
    table: PayTable,
    seat: int = 1,
    hand: str = "own",
    meter: Decimal | None = None,
    seed: Decimal | None = None,
    units: int = 1,
) -> BonusResult:
    """One bonus wager (or Envy pay, `amount` 0) on one hand against one pay table, uncapped.

    `meter` is the progressive meter as it stands (needed for a percentage pay) and `seed` the
    value a 100% pay resets it to; the result's `meter` says what the pay did to it. `units` is
    how many units the wager is (a fixed pay is paid once per unit)."""
    row = table.row_for(events.events)
    skipped: list[str] = []
    for event in events.events:
        top = table.row(event)
        if row is not None and event == row.event:
            break
        if top is not None and top.pay.kind == PayKind.NOT_OFFERED:
            skipped.append(event)
    if row is not None and row.pay.from_meter and (meter is None or seed is None):
        raise DealerError(f"{table.id} pays from a meter: give the meter and its seed")
    payout = row_net(row.pay if row else None, table.basis, amount, meter, units)
    meter_pay: MeterPay | None = None
    if payout.meter is not None:
        assert row is not None and row.pay.value is not None and seed is not None
        meter_pay = MeterPay(
            wager,
            payout.meter,
            row.pay.value,
            payout.paid,
            payout.meter_after(seed),
            payout.reset,
        )
    return BonusResult(
        seat=seat,
        wager=wager,
        amount=amount,
        paytable=table.id,
        paytable_name=table.name,
        basis=table.basis,
        hand=hand,
        event=row.event if row else None,
        event_cards=events.event_cards[row.event] if row else (),
        row=row,
        skipped=tuple(skipped),
        payout=payout,
        uncapped_net=payout.net,
        net=payout.net,
        meter=meter_pay,
        reason=_no_row_reason(events) if row is None else "",
    )


def _no_row_reason(events: SevenCardEvents) -> str:
    if not events.events:
        return "the hand makes no bonus event (no pai gow, nothing from three pair up)"
    names = ", ".join(LABELS[e] for e in events.events)
    return f"this table pays none of the hand's events ({names})"


@dataclass(frozen=True)
class SeatBonuses:
    """One seat's bonus rulings in a round."""

    seat: int
    events: SevenCardEvents
    results: tuple[BonusResult, ...]

    @property
    def net(self) -> Decimal:
        """The seat's total bonus net."""
        return sum((r.net for r in self.results), ZERO)

    def to_dict(self) -> dict[str, Any]:
        """JSON form: `{"seat", "events", "bonuses": [...], "net"}`."""
        return {
            "seat": self.seat,
            "events": self.events.to_dict(),
            "bonuses": [r.to_dict() for r in self.results],
            "net": money_json(self.net),
        }

    def explanation(self) -> list[str]:
        """Every result's lines."""
        return [line for r in self.results for line in r.explanation()]


@dataclass(frozen=True)
class RoundBonuses:
    """Every bonus ruling of a round, and the meters before and after."""

    seats: tuple[SeatBonuses, ...]
    dealer: SevenCardEvents
    meters_before: Meters
    contributions: Meters
    meters_after: Meters
    settings: BonusSettings

    def seat(self, number: int) -> SeatBonuses:
        """The rulings of one seat."""
        for s in self.seats:
            if s.seat == number:
                return s
        raise DealerError(f"no seat {number} in this round")

    @property
    def results(self) -> tuple[BonusResult, ...]:
        """Every result, seat by seat."""
        return tuple(r for s in self.seats for r in s.results)

    def to_dict(self) -> dict[str, Any]:
        """JSON form: seats, dealer events, meters (before, contributions, after), hits."""
        return {
            "seats": [s.to_dict() for s in self.seats],
            "dealer": self.dealer.to_dict(),
            "meters": {
                "before": self.meters_before.to_dict(),
                "contributions": self.contributions.to_dict(),
                "after": self.meters_after.to_dict(),
            },
            "progressive_hits": [
                {"seat": r.seat, **r.meter.to_dict()} for r in self.results if r.meter
            ],
            "settings": self.settings.to_dict(),
        }

    def explanation(self) -> list[str]:
        """Every ruling's lines, seat by seat, then each meter's arithmetic, which adds up:
        before + contributions − what its hits paid + the reseed after a 100% pay + what a cap
        kept from a pay (it goes back) = after."""
        lines = [f"seat {r.seat}: {line}" for r in self.results for line in r.explanation()]
        for name in PROGRESSIVES:
            before, added = self.meters_before.get(name), self.contributions.get(name)
            after = self.meters_after.get(name)
            if added or before != after:
                hits = [r.meter for r in self.results if r.meter and r.meter.meter == name]
                paid = sum((h.paid for h in hits), ZERO)
                terms = [
                    ("contributions", added),
                    ("hits" if len(hits) > 1 else "hit", -paid),
                    ("reseed", sum((h.after - h.before + h.paid for h in hits), ZERO)),
                    ("back from the cap", sum((h.returned for h in hits), ZERO)),
                ]
                cap = self.settings.meters[name].cap
                full = f" (at its cap {fmt_money(cap)}: contributions stop there)"
                lines.append(
                    f"{name.full_name} meter: {fmt_sum(fmt_money(before), terms, after)}"
                    + (full if before + added >= cap else "")
                )
        return lines


class RoundHands(NamedTuple):
    """What each seat's wagers are settled against: the seats (in seat order), each seat's
    events and the dealer's, the pay table posted for each wager the table offers, and the
    settings."""

    seats: Sequence[SeatInput]
    hands: Mapping[int, SevenCardEvents]
    dealer: SevenCardEvents
    tables: Mapping[Wager, PayTable]
    settings: BonusSettings


def check_placed(seats: Sequence[SeatInput], settings: BonusSettings) -> dict[tuple[int, str], int]:
    """Refuse a placed wager the table does not offer, then a progressive wager that is not a
    whole number of the table's units (DealerError, naming the seat); the units of each
    progressive wager placed, by seat and wager."""
    for s in seats:
        placed = (w for w in BONUSES if w.placed and s.wagers.amount(w) > 0)
        refused = next((w for w in placed if w not in settings.offered), None)
        if refused is not None:
            raise DealerError(f"seat {s.seat}: {refused.not_offered}")
    return {
        (s.seat, w): settings.units_in(w, s.wagers.amount(w), s.seat)
        for s in seats
        for w in PROGRESSIVES
        if s.wagers.amount(w) > 0
    }


def classify_hands(
    seats: Sequence[SeatInput], dealer_cards: Sequence[Card]
) -> tuple[dict[int, SevenCardEvents], SevenCardEvents]:
    """Each seat's seven-card events, by seat, and the dealer's; refused when a seat is listed
    twice or a card is dealt twice."""
    numbers = [s.seat for s in seats]
    if len(set(numbers)) != len(numbers):
        twice = next(n for n in numbers if numbers.count(n) > 1)
        raise DealerError(f"seat {twice} is listed twice")
    dealer = classify(dealer_cards)
    hands = {s.seat: classify(s.cards) for s in seats}
    check_distinct(
        [("dealer's hand", dealer_cards)] + [(f"hand of seat {s.seat}", s.cards) for s in seats]
    )
    return hands, dealer


def contributions(
    seats: Sequence[SeatInput], settings: BonusSettings, meters: Meters
) -> tuple[Meters, dict[str, Decimal]]:
    """What every progressive wager adds to its meter before any hand is paid (its share of
    each wager, rounded down to the cent, up to the meter's cap), and the meters then."""
    added = {}
    for name in PROGRESSIVES:
        config = settings.meters[name]
        share = sum((floor_cent(s.wagers.amount(name) * config.contribution) for s in seats), ZERO)
        added[name] = max(min(share, config.cap - meters.get(name)), ZERO)
    return Meters(**added), {name: meters.get(name) + added[name] for name in PROGRESSIVES}


def settle_seat(
    seat: SeatInput,
    round_hands: RoundHands,
    meters: dict[str, Decimal],
    units: Mapping[tuple[int, str], int],
) -> list[BonusResult]:
    """Every bonus wager of one seat, uncapped, in the order of `Wager`, each as the registry
    says it is settled: on the seat's hand (or the dealer's, declared), across the table, or
    from its meter (`meters`, the meters as the seats before left them, is moved by each hit)."""
    results: list[BonusResult] = []
    for wager in BONUSES:
        table = round_hands.tables.get(wager)
        amount = seat.wagers.amount(wager)
        if table is None or (wager.placed and amount <= 0):
            continue
        match wager.settled:
            case Settled.ACROSS_THE_TABLE:
                results += across_the_table(wager, seat, round_hands, table)
            case Settled.FROM_A_METER:
                result = settle_wager(
                    wager,
                    amount,
                    round_hands.hands[seat.seat],
                    table,
                    seat.seat,
                    "own",
                    meters[wager],
                    round_hands.settings.meters[wager].seed,
                    units[seat.seat, wager],
                )
                if result.meter is not None:
                    meters[wager] = result.meter.after
                results.append(result)
            case _:
                on_dealer = wager in seat.wagers.on_dealer
                hand = round_hands.dealer if on_dealer else round_hands.hands[seat.seat]
                where = "dealer" if on_dealer else "own"
                results.append(settle_wager(wager, amount, hand, table, seat.seat, where))
    return results


def across_the_table(
    wager: Wager, seat: SeatInput, round_hands: RoundHands, table: PayTable
) -> list[BonusResult]:
    """The pays of a wager across the table (Envy) to one seat: one per other seat's hand the
    table lists, if the seat's wager it rides on (Emperor's Treasure) is at least the table's
    minimum (`envy_minimum`)."""
    riding = seat.wagers.amount(wager.rides_on)
    if riding <= 0 or riding < round_hands.settings.envy_minimum:
        return []
    out = []
    for other in round_hands.seats:
        if other.seat == seat.seat:
            continue
        hand = round_hands.hands[other.seat]
        result = settle_wager(wager, ZERO, hand, table, seat.seat, f"seat {other.seat}")
        if result.row is not None and result.net > 0:
            out.append(replace(result, from_seat=other.seat))
    return out


def apply_caps(results: Sequence[BonusResult], settings: BonusSettings) -> list[BonusResult]:
    """Per-hand then per-round caps on the winnings of each wager type."""
    out = list(results)
    for wager in BONUSES:
        cap = settings.cap(wager)
        idx = [i for i, r in enumerate(out) if r.wager == wager and r.net > 0]
        pays = capped([(out[i].seat, out[i].net) for i in idx], wager, cap.per_hand, cap.per_round)
        for i, pay in zip(idx, pays, strict=True):
            if pay.notes:
                out[i] = replace(out[i], net=pay.net, caps=pay.notes)
    return out


def return_to_meters(
    results: Sequence[BonusResult], meters: Mapping[str, Decimal]
) -> tuple[list[BonusResult], dict[str, Decimal]]:
    """What a cap kept from a meter pay goes back to its meter: the results, each meter pay
    saying what it returned, and the meters after."""
    after = dict(meters)
    out = list(results)
    for i, r in enumerate(out):
        if r.meter is not None and r.net != r.uncapped_net:
            back = r.uncapped_net - r.net
            after[r.wager] += back
            out[i] = replace(r, meter=replace(r.meter, returned=back))
    return out, after


def group_by_seat(
    results: Sequence[BonusResult],
    seats: Sequence[SeatInput],
    hands: Mapping[int, SevenCardEvents],
) -> tuple[SeatBonuses, ...]:
    """Each seat's rulings, in seat order, listed in the order of `Wager`."""
    return tuple(
        SeatBonuses(
            s.seat,
            hands[s.seat],
            tuple(
                sorted(
                    (r for r in results if r.seat == s.seat),
                    key=lambda r: SETTLE_ORDER.index(r.wager),
                )
            ),
        )
        for s in seats
    )


def settle_bonuses(
    seats: Sequence[SeatInput],
    dealer_cards: Sequence[Card],
    settings: BonusSettings | None = None,
    meters: Meters | None = None,
    paytables: PayTables | None = None,
) -> RoundBonuses:
    """Settle every bonus wager of a round: Insurance, Treasure, Envy, the progressives, caps
    (the steps of the module docstring).

    `meters` are the progressive meters before the round (default zero); the result holds
    the contributions and the meters after. `paytables` defaults to the shipped tables. A
    placed wager the table does not offer, or a progressive wager that is not a whole number of
    units, is refused (DealerError)."""
    settings = settings or BonusSettings()
    meters = meters or Meters()
    library = paytables or shipped_paytables()
    tables = {w: library.get(settings.table_id(w), w) for w in BONUSES if w in settings.offered}
    ordered = sorted(seats, key=lambda s: s.seat)
    units = check_placed(ordered, settings)
    hands, dealer = classify_hands(ordered, dealer_cards)
    added, meter_now = contributions(ordered, settings, meters)
    round_hands = RoundHands(ordered, hands, dealer, tables, settings)
    results = [r for s in ordered for r in settle_seat(s, round_hands, meter_now, units)]
    paid, after = return_to_meters(apply_caps(results, settings), meter_now)
    by_seat = group_by_seat(paid, ordered, hands)
    return RoundBonuses(by_seat, dealer, meters, added, Meters(**after), settings)
