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
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from decimal import Decimal
from types import MappingProxyType
from typing import Any

from dealer.games.paigow.deck import check_distinct
from dealer.games.paigow.events import LABELS, SevenCardEvents, classify
from dealer.games.paigow.pay import (
    PLACED,
    PROGRESSIVES,
    ZERO,
    Basis,
    PayKind,
    Payout,
    Wager,
    capped,
    floor_cent,
    row_net,
    units_of,
)
from dealer.games.paigow.paytables import PayRow, PayTable, PayTables, shipped_paytables
from dealer.games.paigow.profile import Cap, MeterConfig, Profile
from dealer.inputs import money
from dealer.kernel.cards import Card
from dealer.kernel.errors import ConfigError, DealerError
from dealer.kernel.money import fmt_money, money_json

SETTLE_ORDER = tuple(Wager)
"""A seat's rulings are listed in the order of `Wager`."""


@dataclass(frozen=True)
class SeatBonusInput:
    """One seat: its number, seven cards and bonus wagers (zero where not placed). Amounts may
    be given as numbers or text; they are kept as Decimals of whole cents."""

    seat: int
    cards: tuple[Card, ...]
    insurance: Decimal = ZERO
    insurance_on_dealer: bool = False
    treasure: Decimal = ZERO
    progressive_insurance: Decimal = ZERO
    progressive_treasure: Decimal = ZERO

    def __post_init__(self) -> None:
        if isinstance(self.seat, bool) or not isinstance(self.seat, int) or self.seat < 1:
            raise DealerError(f"seat {self.seat!r}: seats are numbered from 1")
        object.__setattr__(self, "cards", tuple(self.cards))
        for name in PLACED:
            value = money(getattr(self, name), f"seat {self.seat} {name} wager")
            object.__setattr__(self, name, value)

    def wager(self, name: str) -> Decimal:
        """The amount of one bonus wager (`insurance`, `treasure`, …)."""
        amount: Decimal = getattr(self, name)
        return amount


@dataclass(frozen=True)
class Meters:
    """The two progressive meters."""

    progressive_insurance: Decimal = ZERO
    progressive_treasure: Decimal = ZERO

    def __post_init__(self) -> None:
        for name in PROGRESSIVES:
            object.__setattr__(self, name, money(getattr(self, name), f"{name} meter"))

    def get(self, name: str) -> Decimal:
        """One meter by its wager name."""
        value: Decimal = getattr(self, name)
        return value

    def to_dict(self) -> dict[str, int | float]:
        """JSON form."""
        return {name: money_json(self.get(name)) for name in PROGRESSIVES}


DEFAULT_METERS: Mapping[str, MeterConfig] = MappingProxyType(
    {
        Wager.PROGRESSIVE_INSURANCE: MeterConfig(Decimal(5000), Decimal("0.25"), Decimal(100_000)),
        Wager.PROGRESSIVE_TREASURE: MeterConfig(Decimal(10000), Decimal("0.25"), Decimal(250_000)),
    }
)
"""The meters of the shipped default profile: seed, share of each wager and cap."""

DEFAULT_UNITS: Mapping[str, Decimal] = MappingProxyType(dict.fromkeys(PROGRESSIVES, Decimal(1)))
"""The progressive wagers' unit in the shipped default profile: $1."""


@dataclass(frozen=True)
class BonusSettings:
    """The table settings the bonus wagers depend on."""

    insurance_table: str = "PT-FLT-EC-PGI-01"
    treasure_table: str = "PT-FLT-EC-ET-01"
    envy_table: str = "E01"
    progressive_insurance_table: str = "PT-BJS-EC-PGI-01"
    progressive_treasure_table: str = "PT-BJS-EC-ET-01"
    envy_minimum: Decimal = Decimal(5)
    caps: Mapping[str, Cap] = field(default_factory=lambda: MappingProxyType({}))
    meters: Mapping[str, MeterConfig] = field(default_factory=lambda: DEFAULT_METERS)
    units: Mapping[str, Decimal] = field(default_factory=lambda: DEFAULT_UNITS)
    offered: frozenset[str] = frozenset(Wager)

    def __post_init__(self) -> None:
        object.__setattr__(self, "envy_minimum", money(self.envy_minimum, "Envy minimum"))
        for name in self.caps:
            if name not in tuple(Wager):
                raise ConfigError(f"cap for {name!r}: caps are set for {', '.join(Wager)}")
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
        tables: dict[str, Any] = {w.table_setting: profile.table_id(w) for w in Wager}
        return cls(
            **tables,
            envy_minimum=profile.envy_minimum,
            caps=profile.caps,
            meters=profile.meters,
            units=MappingProxyType({w: profile.unit(w) for w in PROGRESSIVES}),
            offered=frozenset(w for w in Wager if profile.offers(w)),
        )

    def cap(self, wager: str) -> Cap:
        """The caps of one wager type (no cap where not set)."""
        return self.caps.get(wager) or Cap(None, None)

    def table_id(self, wager: str) -> str:
        """The pay table chosen for one wager type."""
        table_id: str = getattr(self, Wager(wager).table_setting)
        return table_id

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
            **{w.table_setting: self.table_id(w) for w in Wager},
            "envy_minimum": money_json(self.envy_minimum),
            "caps": {
                w: {"per_hand": num(self.cap(w).per_hand), "per_round": num(self.cap(w).per_round)}
                for w in Wager
            },
            "meters": {
                m: {"seed": num(c.seed), "contribution": float(c.contribution), "cap": num(c.cap)}
                for m, c in self.meters.items()
            },
            "units": {w: num(u) for w, u in self.units.items()},
            "offered": {w.value: w in self.offered for w in Wager},
        }


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
        """Every ruling's lines, seat by seat, then the meters."""
        lines = [f"seat {r.seat}: {line}" for r in self.results for line in r.explanation()]
        for name in PROGRESSIVES:
            before, added = self.meters_before.get(name), self.contributions.get(name)
            after = self.meters_after.get(name)
            if added or before != after:
                cap = self.settings.meters[name].cap
                full = f" (at its cap {fmt_money(cap)}: contributions stop there)"
                lines.append(
                    f"{name.full_name} meter: {fmt_money(before)} + contributions "
                    f"{fmt_money(added)} → {fmt_money(after)}"
                    + (full if before + added >= cap else "")
                )
        return lines


def _apply_caps(results: list[BonusResult], settings: BonusSettings) -> list[BonusResult]:
    """Per-hand then per-round caps on the winnings of each wager type."""
    out = list(results)
    for wager in Wager:
        cap = settings.cap(wager)
        idx = [i for i, r in enumerate(out) if r.wager == wager and r.net > 0]
        pays = capped([(out[i].seat, out[i].net) for i in idx], wager, cap.per_hand, cap.per_round)
        for i, pay in zip(idx, pays, strict=True):
            if pay.notes:
                out[i] = replace(out[i], net=pay.net, caps=pay.notes)
    return out


def _classify_all(
    seats: Sequence[SeatBonusInput], dealer_cards: Sequence[Card]
) -> tuple[dict[int, SevenCardEvents], SevenCardEvents]:
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


def settle_bonuses(
    seats: Sequence[SeatBonusInput],
    dealer_cards: Sequence[Card],
    settings: BonusSettings | None = None,
    meters: Meters | None = None,
    paytables: PayTables | None = None,
) -> RoundBonuses:
    """Settle every bonus wager of a round: Insurance, Treasure, Envy, the progressives, caps.

    `meters` are the progressive meters before the round (default zero); the result holds
    the contributions and the meters after. `paytables` defaults to the shipped tables. A
    placed wager the table does not offer, or a progressive wager that is not a whole number of
    units, is refused (DealerError)."""
    settings = settings or BonusSettings()
    meters = meters or Meters()
    library = paytables or shipped_paytables()
    tables = {w: library.get(settings.table_id(w), w) for w in Wager if w in settings.offered}
    ordered = sorted(seats, key=lambda s: s.seat)
    for s in ordered:
        placed = next((w for w in PLACED if s.wager(w) > 0 and w not in settings.offered), None)
        if placed is not None:
            raise DealerError(f"seat {s.seat}: {placed.not_offered}")
    units = {
        (s.seat, w): settings.units_in(w, s.wager(w), s.seat)
        for s in ordered
        for w in PROGRESSIVES
        if s.wager(w) > 0
    }
    hands, dealer = _classify_all(ordered, dealer_cards)

    shares = {
        name: sum(
            (floor_cent(s.wager(name) * settings.meters[name].contribution) for s in ordered),
            ZERO,
        )
        for name in PROGRESSIVES
    }
    added = {
        name: max(min(shares[name], settings.meters[name].cap - meters.get(name)), ZERO)
        for name in PROGRESSIVES
    }
    meter_now: dict[str, Decimal] = {name: meters.get(name) + added[name] for name in PROGRESSIVES}
    results: list[BonusResult] = []
    for s in ordered:
        for wager in (Wager.INSURANCE, Wager.TREASURE):
            amount = s.wager(wager)
            if amount <= 0:
                continue
            on_dealer = wager == Wager.INSURANCE and s.insurance_on_dealer
            hand = dealer if on_dealer else hands[s.seat]
            where = "dealer" if on_dealer else "own"
            results.append(settle_wager(wager, amount, hand, tables[wager], s.seat, where))
        if Wager.ENVY in tables:
            results.extend(_envy(s, ordered, hands, tables[Wager.ENVY], settings))
    for name in PROGRESSIVES:
        for s in ordered:
            amount = s.wager(name)
            if amount <= 0:
                continue
            seed = settings.meters[name].seed
            result = settle_wager(
                name,
                amount,
                hands[s.seat],
                tables[name],
                s.seat,
                "own",
                meter_now[name],
                seed,
                units[s.seat, name],
            )
            if result.meter is not None:
                meter_now[name] = result.meter.after
            results.append(result)
    paid = _apply_caps(results, settings)
    for i, r in enumerate(paid):
        if r.meter is not None and r.net != r.uncapped_net:
            back = r.uncapped_net - r.net
            meter_now[r.wager] += back
            paid[i] = replace(r, meter=replace(r.meter, returned=back))
    by_seat = [
        SeatBonuses(
            s.seat,
            hands[s.seat],
            tuple(
                sorted(
                    (r for r in paid if r.seat == s.seat),
                    key=lambda r: SETTLE_ORDER.index(r.wager),
                )
            ),
        )
        for s in ordered
    ]
    return RoundBonuses(
        tuple(by_seat),
        dealer,
        meters,
        Meters(**added),
        Meters(**meter_now),
        settings,
    )


def _envy(
    seat: SeatBonusInput,
    seats: Iterable[SeatBonusInput],
    hands: Mapping[int, SevenCardEvents],
    table: PayTable,
    settings: BonusSettings,
) -> list[BonusResult]:
    """The Envy pays of one seat: one per other seat's hand the Envy table lists, if the seat's
    Emperor's Treasure wager is at least the Envy minimum."""
    if seat.treasure <= 0 or seat.treasure < settings.envy_minimum:
        return []
    out = []
    for other in seats:
        if other.seat == seat.seat:
            continue
        result = settle_wager(
            Wager.ENVY, ZERO, hands[other.seat], table, seat.seat, f"seat {other.seat}"
        )
        if result.row is not None and result.net > 0:
            out.append(replace(result, from_seat=other.seat))
    return out
