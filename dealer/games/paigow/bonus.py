"""Settlement of the bonus wagers of Emperor's Challenge Exposed (RULINGS §1.5).

Pure functions over seven-card hands and pay tables: Pai Gow Insurance (on the player's hand,
or the dealer's when the player declared it: the lammer), Emperor's Treasure, the Envy Bonus
across the table, the two progressives with their meters, and the caps.

Money: every amount is a Decimal of whole cents. A result's `net` is the player's gain (+) or
loss (−): a losing wager nets −amount, a push 0, N to 1 nets N × amount, N for 1 nets
(N − 1) × amount. A fixed or meter pay in a "for 1" table is paid for the wager (nets pay −
amount), in a "to 1" table on top of it; an Envy pay has no wager and nets its amount.

Meters: the values come in and the new values go out. Each progressive wager adds its
contribution (a share of the wager, rounded down to the cent) to its meter before the hands are
paid; hits are paid in seat order, each from the meter the one before left; a percentage pay is
that share of the meter, rounded down to the cent, and comes off the meter; a 100% pay resets
it to its seed. Fixed and odds pays of a progressive table are paid by the house.

Caps (per wager type, on the winnings): per hand first (a seat's total for that wager in the
round), then per round (shared among the winners in proportion to what they would be paid, to
the cent, the odd cents to the largest remainders, then seat order). What a cap keeps from a
meter pay stays in the meter.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from decimal import ROUND_DOWN, ROUND_FLOOR, Decimal
from types import MappingProxyType
from typing import Any

from dealer.games.paigow.events import LABELS, SevenCardEvents, classify
from dealer.games.paigow.paytables import (
    FIXED,
    FOR_ONE,
    LOSS,
    NOT_OFFERED,
    PERCENT,
    PUSH,
    TO_ONE,
    WAGERS,
    PayRow,
    PayTable,
    PayTables,
    shipped_paytables,
)
from dealer.games.paigow.profile import Cap, MeterConfig, Profile
from dealer.inputs import money
from dealer.kernel.cards import Card, check_distinct
from dealer.kernel.errors import ConfigError, DealerError
from dealer.kernel.money import CENT, fmt_money, money_json

ZERO = Decimal(0)
PROGRESSIVES = ("progressive_insurance", "progressive_treasure")
TABLE_SETTINGS: Mapping[str, str] = MappingProxyType({w: f"{w}_table" for w in WAGERS})
"""The BonusSettings field naming each wager's pay table."""
SETTLE_ORDER = ("insurance", "treasure", "envy", "progressive_insurance", "progressive_treasure")


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
        for name in ("insurance", "treasure", *PROGRESSIVES):
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
        "progressive_insurance": MeterConfig(Decimal(5000), Decimal("0.25")),
        "progressive_treasure": MeterConfig(Decimal(10000), Decimal("0.25")),
    }
)
"""The meters of the shipped default profile: seed and share of each wager."""


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

    def __post_init__(self) -> None:
        object.__setattr__(self, "envy_minimum", money(self.envy_minimum, "Envy minimum"))
        for name in self.caps:
            if name not in WAGERS:
                raise ConfigError(f"cap for {name!r}: caps are set for {', '.join(WAGERS)}")
        for name in PROGRESSIVES:
            meter = self.meters.get(name)
            if meter is None:
                raise ConfigError(f"the {name} meter needs a seed and a contribution")
            if not ZERO <= meter.contribution <= 1:
                raise ConfigError(f"the {name} contribution {meter.contribution} is not 0 to 1")

    @classmethod
    def from_profile(cls, profile: Profile) -> BonusSettings:
        """The bonus settings of a table profile."""
        return cls(
            insurance_table=profile.insurance_table,
            treasure_table=profile.treasure_table,
            envy_table=profile.envy_table,
            progressive_insurance_table=profile.progressive_insurance_table,
            progressive_treasure_table=profile.progressive_treasure_table,
            envy_minimum=profile.envy_minimum,
            caps=profile.caps,
            meters=profile.meters,
        )

    def cap(self, wager: str) -> Cap:
        """The caps of one wager type (no cap where not set)."""
        return self.caps.get(wager) or Cap(None, None)

    def table_id(self, wager: str) -> str:
        """The pay table chosen for one wager type."""
        table_id: str = getattr(self, TABLE_SETTINGS[wager])
        return table_id

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""

        def num(v: Decimal | None) -> int | float | None:
            return None if v is None else money_json(v)

        return {
            **{TABLE_SETTINGS[w]: self.table_id(w) for w in WAGERS},
            "envy_minimum": money_json(self.envy_minimum),
            "caps": {
                w: {"per_hand": num(self.cap(w).per_hand), "per_round": num(self.cap(w).per_round)}
                for w in WAGERS
            },
            "meters": {
                m: {"seed": num(c.seed), "contribution": float(c.contribution)}
                for m, c in self.meters.items()
            },
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
    basis: str
    hand: str  # "own", "dealer" or "seat N" (Envy)
    event: str | None
    event_cards: tuple[Card, ...]
    row: PayRow | None
    skipped: tuple[str, ...]
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
        w = fmt_money(self.amount)
        net = fmt_money(self.uncapped_net, signed=True)
        row = self.row
        if row is None:
            return f"{self.reason}: the {w} wager loses = {net}"
        value = row.pay.value
        text = row.pay.text()
        start = f"row {row.label}: "
        if row.pay.kind == TO_ONE:
            return f"{start}{text} × {w} = {net}"
        if row.pay.kind == FOR_ONE:
            assert value is not None
            got = fmt_money((value * self.amount).quantize(CENT, ROUND_DOWN))
            return f"{start}{text} × {w} = {got} for the {w} wager: {net}"
        if row.pay.kind == PUSH:
            return f"{start}Push, the {w} wager is returned = {net}"
        if row.pay.kind == LOSS:
            return f"{start}Loss, the {w} wager loses = {net}"
        if row.pay.kind == PERCENT and self.meter is not None:
            m = self.meter
            after = (
                f"the meter resets to its seed {fmt_money(m.after)}"
                if m.reset
                else f"the meter goes to {fmt_money(m.after)}"
            )
            got = f"{text} {fmt_money(m.before)} = {fmt_money(m.paid)}"
            return f"{start}{got}{self._for_wager()} = {net}; {after}"
        assert value is not None
        return f"{start}{fmt_money(value)} fixed{self._for_wager()} = {net}"

    def _for_wager(self) -> str:
        if self.amount == ZERO and self.basis == FIXED:
            return ""
        if self.basis == FOR_ONE:
            return f" for the {fmt_money(self.amount)} wager"
        return f" on top of the {fmt_money(self.amount)} wager"


def _rounded(value: Decimal) -> Decimal:
    return value.quantize(CENT, ROUND_DOWN)


def settle_wager(
    wager: str,
    amount: Decimal,
    events: SevenCardEvents,
    table: PayTable,
    seat: int = 1,
    hand: str = "own",
    meter: Decimal | None = None,
    seed: Decimal | None = None,
) -> BonusResult:
    """One bonus wager (or Envy pay, `amount` 0) on one hand against one pay table, uncapped.

    `meter` is the progressive meter as it stands (needed for a percentage pay) and `seed` the
    value a 100% pay resets it to; the result's `meter` says what the pay did to it."""
    row = table.row_for(events.events)
    skipped: list[str] = []
    for event in events.events:
        top = table.row(event)
        if row is not None and event == row.event:
            break
        if top is not None and top.pay.kind == NOT_OFFERED:
            skipped.append(event)
    meter_pay: MeterPay | None = None
    if row is None:
        net = -amount
    else:
        kind, value = row.pay.kind, row.pay.value
        if kind == TO_ONE:
            assert value is not None
            net = _rounded(value * amount)
        elif kind == FOR_ONE:
            assert value is not None
            net = _rounded(value * amount) - amount
        elif kind == PUSH:
            net = ZERO
        elif kind == LOSS:
            net = -amount
        else:
            assert value is not None
            received = value
            if kind == PERCENT:
                if meter is None or seed is None:
                    raise DealerError(f"{table.id} pays from a meter: give the meter and its seed")
                received = _rounded(meter * value / 100)
                reset = value == 100
                meter_pay = MeterPay(
                    wager, meter, value, received, seed if reset else meter - received, reset
                )
            net = received - amount if table.basis == FOR_ONE else received
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
        uncapped_net=net,
        net=net,
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
                lines.append(
                    f"{WAGERS[name].name} meter: {fmt_money(before)} + contributions "
                    f"{fmt_money(added)} → {fmt_money(after)}"
                )
        return lines


def share(amounts: Sequence[Decimal], cap: Decimal) -> list[Decimal]:
    """Cut `amounts` (whole cents, ≥ 0) to total at most `cap`, in proportion: each gets its
    share rounded down to the cent, the odd cents go to the largest remainders (then the
    earliest)."""
    total = sum(amounts, ZERO)
    if total <= cap:
        return list(amounts)
    exact = [a * cap / total / CENT for a in amounts]
    cents = [e.to_integral_value(ROUND_FLOOR) for e in exact]
    left = int(cap / CENT) - int(sum(cents, ZERO))
    order = sorted(range(len(amounts)), key=lambda i: (cents[i] - exact[i], i))
    for i in order[:left]:
        cents[i] += 1
    return [c * CENT for c in cents]


def _apply_caps(results: list[BonusResult], settings: BonusSettings) -> list[BonusResult]:
    """Per-hand then per-round caps on the winnings of each wager type."""
    out = list(results)
    for wager in WAGERS:
        cap = settings.cap(wager)
        idx = [i for i, r in enumerate(out) if r.wager == wager and r.net > 0]
        if cap.per_hand is not None:
            for seat in sorted({out[i].seat for i in idx}):
                mine = [i for i in idx if out[i].seat == seat]
                total = sum((out[i].net for i in mine), ZERO)
                if total <= cap.per_hand:
                    continue
                note = (
                    f"capped at the {WAGERS[wager].name} maximum of {fmt_money(cap.per_hand)} "
                    f"per hand (seat {seat} won {fmt_money(total, signed=True)} in all)"
                )
                for i, paid in zip(
                    mine, share([out[i].net for i in mine], cap.per_hand), strict=True
                ):
                    out[i] = replace(out[i], net=paid, caps=(*out[i].caps, note))
        if cap.per_round is not None:
            total = sum((out[i].net for i in idx), ZERO)
            if total > cap.per_round:
                note = (
                    f"capped at the {WAGERS[wager].name} maximum of {fmt_money(cap.per_round)} "
                    f"per round, shared in proportion among {len(idx)} winning "
                    f"{'pays' if len(idx) > 1 else 'pay'} of {fmt_money(total, signed=True)}"
                )
                for i, paid in zip(
                    idx, share([out[i].net for i in idx], cap.per_round), strict=True
                ):
                    out[i] = replace(out[i], net=paid, caps=(*out[i].caps, note))
    for i, r in enumerate(out):
        if r.caps:
            final = (
                f"paid {fmt_money(r.net, signed=True)} of {fmt_money(r.uncapped_net, signed=True)}"
            )
            out[i] = replace(r, caps=(*r.caps, final))
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
    the contributions and the meters after. `paytables` defaults to the shipped tables."""
    settings = settings or BonusSettings()
    meters = meters or Meters()
    library = paytables or shipped_paytables()
    tables = {w: library.get(settings.table_id(w), w) for w in WAGERS}
    ordered = sorted(seats, key=lambda s: s.seat)
    hands, dealer = _classify_all(ordered, dealer_cards)

    added = {
        name: sum(
            (_rounded(s.wager(name) * settings.meters[name].contribution) for s in ordered), ZERO
        )
        for name in PROGRESSIVES
    }
    meter_now = {name: meters.get(name) + added[name] for name in PROGRESSIVES}
    results: list[BonusResult] = []
    for s in ordered:
        for wager in ("insurance", "treasure"):
            amount = s.wager(wager)
            if amount <= 0:
                continue
            on_dealer = wager == "insurance" and s.insurance_on_dealer
            hand = dealer if on_dealer else hands[s.seat]
            where = "dealer" if on_dealer else "own"
            results.append(settle_wager(wager, amount, hand, tables[wager], s.seat, where))
        results.extend(_envy(s, ordered, hands, tables["envy"], settings))
    for name in PROGRESSIVES:
        for s in ordered:
            amount = s.wager(name)
            if amount <= 0:
                continue
            seed = settings.meters[name].seed
            result = settle_wager(
                name, amount, hands[s.seat], tables[name], s.seat, "own", meter_now[name], seed
            )
            if result.meter is not None:
                meter_now[name] = result.meter.after
            results.append(result)
    capped = _apply_caps(results, settings)
    for i, r in enumerate(capped):
        if r.meter is not None and r.net != r.uncapped_net:
            back = r.uncapped_net - r.net
            meter_now[r.wager] += back
            capped[i] = replace(r, meter=replace(r.meter, returned=back))
    by_seat = [
        SeatBonuses(
            s.seat,
            hands[s.seat],
            tuple(
                sorted(
                    (r for r in capped if r.seat == s.seat),
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
            "envy", ZERO, hands[other.seat], table, seat.seat, f"seat {other.seat}"
        )
        if result.row is not None and result.net > 0:
            out.append(replace(result, from_seat=other.seat))
    return out
