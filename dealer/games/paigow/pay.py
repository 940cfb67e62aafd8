"""The wagers of Emperor's Challenge Exposed and the one arithmetic of their bonus pays.

`Wager` is the one registry of a wager: every wager a seat can have, the base wager first, each
member stating once how it is settled (`Settled`), its name, its option on `paigow settle`, its
short forms at the live table, its column in the round table and the events its pay tables name
(`Terms`); its profile settings follow from how it is settled (`Wager.profile_keys`). The settle
loop, a seat's wagers, the command line's options, the round table's columns, the pay-table
schema and the shift summary's lists are built from it, so a new wager is its member here, its
pay table (`paytables/`) and its lines in `default_profile.yaml`. `PayKind` names the kinds of
pay-table row and `Basis` a table's note on how its bare numbers pay. `row_net` is the one place
a pay kind becomes money: the settlement (`dealer.games.paigow.bonus`) and the exact analysis
(`dealer.analysis.paytable_return`) both call it, so the published house edge describes what
the table pays. The words a person reads for a pay (`Pay.text`) and the arithmetic line of a
ruling (`Payout.arithmetic`) are derived beside it, and so are the caps (`share`, `capped`).

The base wager is in the registry but pays by no row: it has no pay table, no events and no
caps, and it is settled against the dealer's hand (`dealer.games.paigow.settle`). `BONUSES` are
the others, the wagers paid by a row of a pay table.

Money: every amount is a Decimal of whole cents. A pay's `net` is the player's gain (+) or
loss (−): a losing wager nets −amount, a push 0, N to 1 nets N × amount, N for 1 nets
(N − 1) × amount, each rounded down to the cent. A fixed or meter pay in a "for 1" table is
paid for the wager (nets pay − amount), in a "to 1" table on top of it; an Envy pay has no
wager and nets its amount. A meter pay is that share of the meter as it stands, rounded down
to the cent; it comes off the meter, and a 100% pay resets the meter to its seed.

Units: a progressive wager is a whole number of the table's units (`units_of`; default one $1
unit). A fixed pay is what one unit wins, so it is paid once per unit; a meter pay is paid once
per hit, whatever the units (a casino never pays the jackpot twice); odds pays are in
proportion to the amount anyway. Every other wager is one unit.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import ROUND_DOWN, ROUND_FLOOR, Decimal
from enum import StrEnum

from dealer.games.paigow.events import PAI_GOW_EVENTS, POKER_EVENTS
from dealer.kernel.errors import DealerError
from dealer.kernel.money import CENT, fmt_money
from dealer.kernel.tuples import NamedTuple

ZERO = Decimal(0)


class Settled(StrEnum):
    """How a wager is settled: on which hand, and what pays it."""

    AGAINST_DEALER = "against the dealer's hand"
    """The base wager: both hands against the dealer's (`dealer.games.paigow.settle`)."""
    OWN_HAND = "on the seat's own hand"
    """A row of the wager's pay table for the seat's seven cards (Emperor's Treasure)."""
    DEALER_WHEN_DECLARED = "on the seat's own hand, or the dealer's when declared"
    """As `OWN_HAND`, or on the dealer's seven cards when the player declared it (Pai Gow
    Insurance, the lammer): a round file's `<wager>_on_dealer: true`."""
    ACROSS_THE_TABLE = "across the table"
    """No wager of its own: paid for each other seat's hand its table lists, to a seat whose
    wager it rides on is at least the table's `<wager>_minimum` (Envy, on Emperor's Treasure)."""
    FROM_A_METER = "from a progressive meter"
    """On the seat's own hand, a whole number of units, a share of each wager going to the
    wager's meter and a percent-of-meter row paid from it (the progressives)."""


class Terms(NamedTuple):
    """What a `Wager` member states: its name as the rules print it, how it is settled, the
    events its pay tables may name, its column in the round table (`dealer round`), its option
    on `paigow settle` ("": none, it is never placed), its short forms at the live table (its
    name is typed with `-` for `_`), the words that declare it on the dealer's hand, and the
    wager it rides on (`ACROSS_THE_TABLE`)."""

    full_name: str
    settled: Settled
    events: tuple[str, ...]
    column: str
    option: str = ""
    short: tuple[str, ...] = ()
    on_dealer: tuple[str, ...] = ()
    rides_on: str = ""


class Wager(StrEnum):
    """Every wager a seat can have, by the name profiles, round files, pay tables and results
    use, with its `Terms` (see the module docstring). The order is the order of a seat's
    rulings, of the round table's columns, of the shift summary and of the operator's report."""

    _value_: str
    terms: Terms

    def __new__(cls, value: str, terms: Terms | None = None) -> Wager:
        """A member, from its line below (`Wager("treasure")` looks one up, as for any enum:
        the type checker reads this signature for that call too, hence the default)."""
        assert terms is not None, f"the wager {value} states its terms"
        member = str.__new__(cls, value)
        member._value_ = value
        member.terms = terms
        return member

    BASE = (
        "base",
        Terms(
            "Base Wager",
            Settled.AGAINST_DEALER,
            events=(),
            column="base",
            option="--wager",
            short=("b", "bet", "wager"),
        ),
    )
    INSURANCE = (
        "insurance",
        Terms(
            "Pai Gow Insurance",
            Settled.DEALER_WHEN_DECLARED,
            events=PAI_GOW_EVENTS,
            column="insurance",
            option="--insurance",
            short=("ins", "i", "pgi"),
            on_dealer=("dealer-insurance", "insurance-on-dealer", "on-dealer", "lammer"),
        ),
    )
    TREASURE = (
        "treasure",
        Terms(
            "Emperor's Treasure",
            Settled.OWN_HAND,
            events=POKER_EVENTS,
            column="treasure",
            option="--treasure",
            short=("tr", "t", "et"),
        ),
    )
    ENVY = (
        "envy",
        Terms(
            "Envy Bonus",
            Settled.ACROSS_THE_TABLE,
            events=POKER_EVENTS,
            column="envy",
            rides_on="treasure",
        ),
    )
    PROGRESSIVE_INSURANCE = (
        "progressive_insurance",
        Terms(
            "Pai Gow Insurance Progressive",
            Settled.FROM_A_METER,
            events=PAI_GOW_EVENTS,
            column="prog. ins.",
            option="--progressive-insurance",
            short=("prog-insurance", "prog-ins", "pi"),
        ),
    )
    PROGRESSIVE_TREASURE = (
        "progressive_treasure",
        Terms(
            "Emperor's Treasure Progressive",
            Settled.FROM_A_METER,
            events=POKER_EVENTS,
            column="prog. treas.",
            option="--progressive-treasure",
            short=("prog-treasure", "prog-tr", "pt"),
        ),
    )

    @property
    def full_name(self) -> str:
        """The wager's name as the rules print it: `Pai Gow Insurance`."""
        return self.terms.full_name

    @property
    def settled(self) -> Settled:
        """How the wager is settled."""
        return self.terms.settled

    @property
    def words(self) -> str:
        """The wager as a dealer says it: `progressive insurance`."""
        return self.value.replace("_", " ")

    @property
    def typed(self) -> str:
        """The wager's name at the live table: `progressive-insurance`."""
        return self.value.replace("_", "-")

    @property
    def bonus(self) -> bool:
        """True for a wager paid by a row of its pay table (every wager but the base)."""
        return self.settled is not Settled.AGAINST_DEALER

    @property
    def placed(self) -> bool:
        """True for a wager a seat places, with an amount (every wager but Envy's kind)."""
        return self.settled is not Settled.ACROSS_THE_TABLE

    @property
    def progressive(self) -> bool:
        """True for a wager paid from a progressive meter; the meter is named after it."""
        return self.settled is Settled.FROM_A_METER

    @property
    def rides_on(self) -> Wager:
        """The wager an across-the-table wager is paid on (Envy: Emperor's Treasure)."""
        return Wager(self.terms.rides_on)

    @property
    def on_dealer_key(self) -> str:
        """A round file's key declaring the wager on the dealer's hand: `insurance_on_dealer`."""
        return f"{self.value}_on_dealer"

    @property
    def table_setting(self) -> str:
        """The profile setting naming the wager's pay table: `treasure_table`."""
        return f"{self.value}_table"

    @property
    def profile_keys(self) -> tuple[str, ...]:
        """The settings `default_profile.yaml` holds for the wager, by how it is settled:
        `rules.<wager>_table`, `offered.<wager>` and `caps.<wager>` for a bonus wager,
        `limits.<wager>` for a placed one, its `unit` and `meters.<wager>` for a progressive
        one, `rules.<wager>_minimum` for one across the table."""
        keys = [f"limits.{self.value}"] if self.placed else []
        if self.bonus:
            keys += [f"rules.{self.table_setting}", f"offered.{self.value}", f"caps.{self.value}"]
        if self.progressive:
            keys += [f"limits.{self.value}.unit", f"meters.{self.value}"]
        if self.settled is Settled.ACROSS_THE_TABLE:
            keys.append(f"rules.{self.value}_minimum")
        return tuple(keys)

    @property
    def not_offered(self) -> str:
        """The refusal of the wager at a table that does not offer it."""
        return f"the {self.words} wager is not offered at this table"


BONUSES = tuple(w for w in Wager if w.bonus)
"""The wagers paid by a row of a pay table: their tables, caps and `offered` settings."""
PLACED = tuple(w for w in Wager if w.placed)
"""The wagers a seat places, the base first: Envy is not one, it is paid on a Treasure wager of
at least the table's Envy minimum."""
PROGRESSIVES = tuple(w for w in Wager if w.progressive)
"""The wagers with a meter; the meters are named after them."""
DECLARABLE = tuple(w for w in Wager if w.settled is Settled.DEALER_WHEN_DECLARED)
"""The wagers a player may declare on the dealer's hand (`insurance_on_dealer: true`)."""


class PayKind(StrEnum):
    """The kind of a pay-table row, as pay-table files spell it."""

    TO_ONE = "to-1"
    FOR_ONE = "for-1"
    FIXED = "fixed"
    PERCENT = "percent-of-meter"
    PUSH = "push"
    LOSS = "loss"
    NOT_OFFERED = "not-offered"

    @property
    def valued(self) -> bool:
        """True for the kinds whose rows carry a value (odds, an amount, a share)."""
        return self in (PayKind.TO_ONE, PayKind.FOR_ONE, PayKind.FIXED, PayKind.PERCENT)


class Basis(StrEnum):
    """A table's note on its bare numbers: "to 1" (the wager returned), "for 1" (the wager
    included), or fixed amounts (Envy, which has no wager)."""

    TO_ONE = "to-1"
    FOR_ONE = "for-1"
    FIXED = "fixed"


def floor_cent(value: Decimal) -> Decimal:
    """`value` rounded down to the cent."""
    return value.quantize(CENT, ROUND_DOWN)


def units_of(amount: Decimal, unit: Decimal) -> int | None:
    """How many units of `unit` make `amount`, or None when it is not a whole number of them."""
    count, left = divmod(amount, unit)
    return int(count) if left == 0 else None


def _number_text(value: Decimal) -> str:
    return f"{int(value):,}" if value == value.to_integral_value() else f"{value.normalize():,}"


@dataclass(frozen=True, slots=True)
class Pay:
    """One pay of a table: its kind and, for the kinds that have one, its value."""

    kind: PayKind
    value: Decimal | None = None

    @property
    def from_meter(self) -> bool:
        """True for a share of the progressive meter."""
        return self.kind == PayKind.PERCENT

    def text(self) -> str:
        """As a person reads it: `5 to 1`, `250 for 1`, `$1,000`, `10% of the meter`, `Push`."""
        match self.kind, self.value:
            case PayKind.TO_ONE, Decimal() as v:
                return f"{_number_text(v)} to 1"
            case PayKind.FOR_ONE, Decimal() as v:
                return f"{_number_text(v)} for 1"
            case PayKind.FIXED, Decimal() as v:
                return fmt_money(v)
            case PayKind.PERCENT, Decimal() as v:
                return f"{_number_text(v)}% of the meter"
            case PayKind.PUSH, _:
                return "Push"
            case PayKind.LOSS, _:
                return "Loss"
        return "N/A"


@dataclass(frozen=True, slots=True)
class Payout:
    """What one row paid one wager of `amount` (`units` units) in a table of `basis` (`pay`
    None: no row).

    `paid` is the pay counted out (value × wager for odds, the fixed amount once per unit, the
    share of the meter; nothing for a push, a loss or no row) and `net` the player's gain or
    loss. For a meter pay, `meter` is the meter as it stood (`paid` comes off it) and `reset`
    says the pay took all of it, so the meter goes back to its seed."""

    pay: Pay | None
    basis: Basis
    amount: Decimal
    paid: Decimal
    net: Decimal
    meter: Decimal | None = None
    reset: bool = False
    units: int = 1

    def meter_after(self, seed: Decimal) -> Decimal:
        """The meter after a meter pay: its seed after a reset, else what the pay left."""
        assert self.meter is not None
        return seed if self.reset else self.meter - self.paid

    def arithmetic(self, lead: str, meter_after: Decimal | None) -> str:
        """The explanation's line, after `lead` (the row, or why there is none):
        `row Full House: 5 to 1 × $10 = +$50`. `meter_after` is where a meter pay left the
        meter."""
        w = fmt_money(self.amount)
        net = fmt_money(self.net, signed=True)
        start = f"{lead}: "
        if self.pay is None:
            return f"{start}the {w} wager loses = {net}"
        text = self.pay.text()
        match self.pay.kind:
            case PayKind.TO_ONE:
                return f"{start}{text} × {w} = {net}"
            case PayKind.FOR_ONE:
                return f"{start}{text} × {w} = {fmt_money(self.paid)} for the {w} wager: {net}"
            case PayKind.PUSH:
                return f"{start}Push, the {w} wager is returned = {net}"
            case PayKind.LOSS:
                return f"{start}Loss, the {w} wager loses = {net}"
            case PayKind.PERCENT:
                assert self.meter is not None and meter_after is not None
                after = (
                    f"the meter resets to its seed {fmt_money(meter_after)}"
                    if self.reset
                    else f"the meter goes to {fmt_money(meter_after)}"
                )
                got = f"{text} {fmt_money(self.meter)} = {fmt_money(self.paid)}"
                if self.units > 1:
                    got += f", paid once for the {self.units} units,"
                return f"{start}{got}{self._for_wager()} = {net}; {after}"
        if self.units > 1:
            assert self.pay.value is not None
            per_unit = f"{fmt_money(self.pay.value)} fixed × {self.units} units"
            return f"{start}{per_unit} = {fmt_money(self.paid)}{self._for_wager()} = {net}"
        return f"{start}{fmt_money(self.paid)} fixed{self._for_wager()} = {net}"

    def _for_wager(self) -> str:
        if self.amount == ZERO and self.basis == Basis.FIXED:
            return ""
        if self.basis == Basis.FOR_ONE:
            return f" for the {fmt_money(self.amount)} wager"
        return f" on top of the {fmt_money(self.amount)} wager"


def row_net(
    pay: Pay | None,
    basis: Basis,
    amount: Decimal,
    meter: Decimal | None = None,
    units: int = 1,
) -> Payout:
    """What a row pays a wager of `amount` (0 for Envy) in a table of `basis`, with the meter
    at `meter` for a share of the meter, the wager being `units` units (see the module
    docstring); `pay` None is no row: the wager loses. The one place a pay kind becomes money.
    A not-offered row pays nothing (the hand's next event decides), so it is refused, as is a
    meter pay without the meter."""
    if units < 1:
        raise ValueError(f"a wager of {units} units")
    if pay is None:
        return Payout(None, basis, amount, ZERO, -amount, units=units)
    match pay.kind, pay.value:
        case PayKind.TO_ONE, Decimal() as value:
            paid = floor_cent(value * amount)
            return Payout(pay, basis, amount, paid, paid, units=units)
        case PayKind.FOR_ONE, Decimal() as value:
            paid = floor_cent(value * amount)
            return Payout(pay, basis, amount, paid, paid - amount, units=units)
        case PayKind.PUSH, _:
            return Payout(pay, basis, amount, ZERO, ZERO, units=units)
        case PayKind.LOSS, _:
            return Payout(pay, basis, amount, ZERO, -amount, units=units)
        case PayKind.FIXED, Decimal() as value:
            paid = value * units
            return Payout(pay, basis, amount, paid, _net_of(paid, basis, amount), units=units)
        case PayKind.PERCENT, Decimal() as value:
            if meter is None:
                raise DealerError(f"a pay of {pay.text()} needs the meter as it stands")
            paid = floor_cent(meter * value / 100)
            net = _net_of(paid, basis, amount)
            return Payout(pay, basis, amount, paid, net, meter, value == 100, units)
    raise ValueError(f"a {pay.kind} row pays nothing: the hand's next event decides")


def _net_of(paid: Decimal, basis: Basis, amount: Decimal) -> Decimal:
    """A fixed or meter pay: for the wager in a "for 1" table, on top of it otherwise."""
    return paid - amount if basis == Basis.FOR_ONE else paid


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


class CappedPay(NamedTuple):
    """A winning pay after the caps of its wager type, and the notes that explain the cut
    (none when the caps left it whole)."""

    net: Decimal
    notes: tuple[str, ...]


def capped(
    pays: Sequence[tuple[int, Decimal]],
    wager: Wager,
    per_hand: Decimal | None,
    per_round: Decimal | None,
) -> list[CappedPay]:
    """The winning pays of one wager type in a round, `(seat, net)` each in settling order,
    after its caps: per hand first (a seat's total for the wager in the round), then per round
    (shared among all the winners in proportion, `share`). A cut pay's notes name each cap that
    cut it, then what it was paid of what it won."""
    nets = [net for _, net in pays]
    notes: list[list[str]] = [[] for _ in pays]
    if per_hand is not None:
        for seat in sorted({s for s, _ in pays}):
            mine = [i for i, (s, _) in enumerate(pays) if s == seat]
            total = sum((nets[i] for i in mine), ZERO)
            if total <= per_hand:
                continue
            note = (
                f"capped at the {wager.full_name} maximum of {fmt_money(per_hand)} "
                f"per hand (seat {seat} won {fmt_money(total, signed=True)} in all)"
            )
            for i, paid in zip(mine, share([nets[i] for i in mine], per_hand), strict=True):
                nets[i] = paid
                notes[i].append(note)
    if per_round is not None:
        total = sum(nets, ZERO)
        if total > per_round:
            note = (
                f"capped at the {wager.full_name} maximum of {fmt_money(per_round)} "
                f"per round, shared in proportion among {len(pays)} winning "
                f"{'pays' if len(pays) > 1 else 'pay'} of {fmt_money(total, signed=True)}"
            )
            for i, paid in enumerate(share(nets, per_round)):
                nets[i] = paid
                notes[i].append(note)
    return [
        CappedPay(
            net,
            (*cut, f"paid {fmt_money(net, signed=True)} of {fmt_money(won, signed=True)}")
            if cut
            else (),
        )
        for net, cut, (_, won) in zip(nets, notes, pays, strict=True)
    ]
