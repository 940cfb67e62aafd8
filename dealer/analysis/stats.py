"""The floor's statistics, pure: what a wager should give the house, how far a result may stray
from it, each patron's demonstrated play, and the tests that raise a flag.

A wager's expected figures (`Figures`) are the house's expected result in currency, the variance
of the player's net on it, and the standard error of the house edge it was figured from (zero
for an exact figure) with the source that edge came from. A group of wagers (`Expectation`)
sums them: the expected house result; its standard error is the square root of the summed
variances (each hand is dealt independently) plus, for each simulated source, the square of
(amount wagered under it × the edge's standard error) — a simulation's error is one error shared
by every wager figured from it, so it adds up with the amount, not with its square root.
Every figure here is a sum over wagers, so a database can keep the same sums (`GROUP BY`, or a
rollup per day) and these functions turn them into the row.

The base wager's edge is simulated (`dealer.analysis.house_edge`): per unit wagered, from the
tally of a simulation of one House Way against the dealer, the player setting by the House Way
or by the best reply to the exposed dealer hand. Bonus wagers are exact
(`dealer.analysis.paytable_return`, through `pay.row_net`): at the wager's own amount, so the
rounding down to the cent is the settlement's.

A patron's play (`PlaySums`, `PlayTally`): the dealer's hand is exposed, so for the same cards
the nets of the best setting and of the House Way's setting are known exactly
(`dealer.games.paigow.best_reply`, recorded by the settle); what a patron's own setting cost is
the best setting's net less the setting's, at the same wager, never below zero.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from statistics import NormalDist

from dealer.analysis.house_edge import StrategyEdge
from dealer.analysis.paytable_return import PaytableReturn
from dealer.games.paigow.best_reply import net_halves
from dealer.kernel.errors import DealerError

ZERO = Decimal(0)
MIN_OWN_HANDS = 100
"""The hands a patron must have set themselves before their demonstrated edge is their theo's
(fewer: the House Way's edge, or the best reply's for a patron who sets most hands)."""


def z_critical(confidence: float) -> float:
    """The two-sided normal quantile of `confidence` (1.959964 for 0.95)."""
    if not 0 < confidence < 1:
        raise DealerError(f"confidence {confidence} must be between 0 and 1 (for example 0.95)")
    return NormalDist().inv_cdf((1 + confidence) / 2)


def decimal_of(value: Fraction) -> Decimal:
    """A fraction as a Decimal (28 significant digits)."""
    return Decimal(value.numerator) / Decimal(value.denominator)


@dataclass(frozen=True)
class UnitFigures:
    """A base wager's figures per unit wagered: the house edge (exact for the tally), the
    variance of the player's net per unit, the edge's standard error."""

    edge: Decimal
    variance: float
    edge_error: float


def base_unit_figures(strategy: StrategyEdge, option: str) -> UnitFigures:
    """The base wager per unit under `dealer_pai_gow` option `option`, from a simulation's
    tally: its house edge (minus the mean net), the population variance of the net, and the
    edge's standard error (`StrategyEdge.option`)."""
    rounds = strategy.rounds
    total = squares = 0
    for outcome in range(3):
        for pg in range(3):
            halves = net_halves(option, outcome, pg)
            count = strategy.counts[outcome][pg]
            total += halves * count
            squares += halves * halves * count
    mean = Fraction(total, 2 * rounds)
    variance = float(Fraction(squares, 4 * rounds) - mean * mean)
    return UnitFigures(-decimal_of(mean), variance, strategy.option(option).standard_error)


def paytable_figures(analysis: PaytableReturn) -> tuple[Decimal, float]:
    """One bonus wager (or, for Envy, one other player's hand) by the exact analysis at its
    amount: the house's expected result in currency and the variance of the player's net."""
    mean = analysis.expected_net
    squares = sum(
        (Fraction(line.net) ** 2 * line.combinations for line in analysis.lines), Fraction(0)
    )
    variance = float(squares / analysis.hands - mean * mean)
    return -decimal_of(mean), variance


METER_REACH = Decimal(1_000_000)
"""The meter the slope of a share-of-meter pay is read at (`MeterFigures.of`): far enough that
the pay's rounding down to the cent is a millionth of the slope."""


@dataclass(frozen=True)
class MeterFigures:
    """A progressive wager's figures as the meter moves: each line of the exact analysis nets
    `net + slope × meter` (its share of the meter; 0 for a fixed pay), so the expected result is
    linear in the meter and the variance quadratic. Each figure is exact at the wager's amount
    but for the cent the settlement rounds a share of the meter down to (under a cent a hit), so
    one analysis serves every meter a table shows, and sums over wagers need only the meters'
    sum and sum of squares."""

    lines: tuple[tuple[Fraction, Fraction, Fraction], ...]
    """(probability, net at a meter of 0, slope) of each line."""

    @staticmethod
    def of(at_zero: PaytableReturn, far: PaytableReturn) -> MeterFigures:
        """From the analyses of one wager at a meter of 0 and at `METER_REACH`."""
        hands = Fraction(at_zero.hands)
        return MeterFigures(
            tuple(
                (
                    line.combinations / hands,
                    Fraction(line.net),
                    (Fraction(other.net) - Fraction(line.net)) / Fraction(METER_REACH),
                )
                for line, other in zip(at_zero.lines, far.lines, strict=True)
            )
        )

    def at(self, meter: Decimal) -> tuple[Decimal, float]:
        """`paytable_figures` of the wager with the meter at `meter`."""
        return self.summed(1, meter, meter * meter)

    def summed(self, wagers: int, meters: Decimal, squares: Decimal) -> tuple[Decimal, float]:
        """`paytable_figures` summed over `wagers` wagers placed at meters summing to `meters`,
        their squares to `squares`: the mean is a + b·m a wager, the mean square c + 2d·m + e·m²,
        so the sums need only the meters' sum and sum of squares."""
        a = sum((p * net for p, net, _ in self.lines), Fraction(0))
        b = sum((p * slope for p, _, slope in self.lines), Fraction(0))
        c = sum((p * net * net for p, net, _ in self.lines), Fraction(0))
        d = sum((p * net * slope for p, net, slope in self.lines), Fraction(0))
        e = sum((p * slope * slope for p, _, slope in self.lines), Fraction(0))
        m, q = Fraction(meters), Fraction(squares)
        mean = wagers * a + b * m
        variance = wagers * (c - a * a) + 2 * (d - a * b) * m + (e - b * b) * q
        return -decimal_of(mean), float(variance)


@dataclass
class Expectation:
    """What a group of wagers should give the house: sums that grow with each wager."""

    expected: Decimal = ZERO
    variance: float = 0.0
    systematic: dict[str, list[float]] = field(default_factory=dict)
    """By simulated source: [amount wagered under it, the edge's standard error]."""
    by_source: dict[str, Decimal] = field(default_factory=dict)
    """The expected house result figured from each source."""

    def add(
        self, expected: Decimal, variance: float, source: str, amount: Decimal, error: float
    ) -> None:
        """One wager: its expected house result, variance, source, amount and the source's
        edge error (0: exact)."""
        self.expected += expected
        self.variance += variance
        self.by_source[source] = self.by_source.get(source, ZERO) + expected
        if error:
            held = self.systematic.setdefault(source, [0.0, error])
            held[0] += float(amount)

    def merge(self, other: Expectation) -> None:
        """Add `other`'s wagers to these."""
        self.expected += other.expected
        self.variance += other.variance
        for source, value in other.by_source.items():
            self.by_source[source] = self.by_source.get(source, ZERO) + value
        for source, (amount, error) in other.systematic.items():
            self.systematic.setdefault(source, [0.0, error])[0] += amount

    @property
    def standard_error(self) -> float:
        """Of the house result less the expected: the hands' spread and each simulation's error
        on the amount figured from it."""
        shared = sum((amount * error) ** 2 for amount, error in self.systematic.values())
        return math.sqrt(self.variance + shared)


def z_score(result: Decimal, expected: Decimal, standard_error: float) -> float | None:
    """(result − expected) / standard error; None when there is no spread (no wagers)."""
    if standard_error <= 0:
        return None
    return float(result - expected) / standard_error


@dataclass(frozen=True)
class PlaySums:
    """Hands a patron played under one House Way and wheel, as sums: how many, set by
    themselves, set to the best outcome; the amount wagered, what their settings cost against
    the best setting's outcome and earned against the House Way's; and the squares the cost's
    spread is figured from (currency²)."""

    hands: int
    own_hands: int
    best_hands: int
    wagered: Decimal
    cost: Decimal
    against_house_way: Decimal
    costs_squared: float
    cost_wager: float
    wagers_squared: float


@dataclass
class PlayTally:
    """A patron's hands and what their settings did, as sums: `cost` is the money their
    settings cost against the best setting's outcome; `best_expected` the base wagers at the
    best reply's edge (in currency) with that edge's error on the amount."""

    hands: int = 0
    own_hands: int = 0
    best_hands: int = 0
    wagered: Decimal = ZERO
    cost: Decimal = ZERO
    against_house_way: Decimal = ZERO
    """The player's net less the House Way's on the same hands (+: their settings earned)."""
    best_expected: Decimal = ZERO
    best_error: float = 0.0
    costs_squared: float = 0.0
    cost_wager: float = 0.0
    wagers_squared: float = 0.0

    def add(self, hands: PlaySums, best_edge: UnitFigures) -> None:
        """Hands under one House Way and wheel (`PlaySums`), the best reply's edge theirs."""
        self.hands += hands.hands
        self.own_hands += hands.own_hands
        self.best_hands += hands.best_hands
        self.wagered += hands.wagered
        self.cost += hands.cost
        self.against_house_way += hands.against_house_way
        self.best_expected += hands.wagered * best_edge.edge
        self.best_error += float(hands.wagered) * best_edge.edge_error
        self.costs_squared += hands.costs_squared
        self.cost_wager += hands.cost_wager
        self.wagers_squared += hands.wagers_squared

    @property
    def best_share(self) -> float | None:
        """The share of hands set to the best outcome (None: no hands)."""
        return self.best_hands / self.hands if self.hands else None

    @property
    def demonstrated_edge(self) -> Decimal | None:
        """The house edge of the patron's play: the best reply's edge plus what their settings
        cost per unit wagered (None: no hands)."""
        if not self.wagered:
            return None
        return (self.best_expected + self.cost) / self.wagered

    def demonstrated_error(self) -> float | None:
        """The demonstrated edge's standard error: the cost per unit as a ratio estimate
        (its spread from hand to hand) and the best reply's simulated edge error."""
        if not self.wagered or self.hands < 2:
            return None
        total = float(self.wagered)
        ratio = float(self.cost) / total
        spread = (
            self.costs_squared - 2 * ratio * self.cost_wager + ratio * ratio * self.wagers_squared
        )
        sampling = math.sqrt(max(spread, 0.0) * self.hands / (self.hands - 1)) / total
        return math.sqrt(sampling**2 + (self.best_error / total) ** 2)


@dataclass(frozen=True)
class Pace:
    """Rounds (or hands) per hour while dealing: the gaps between consecutive rounds of one
    dealer or at one table (a patron's hands), a gap over a break left out (`desk.floor_sums`),
    as sums."""

    gaps: int = 0
    seconds: float = 0.0

    @property
    def per_hour(self) -> float | None:
        """Rounds per hour over the time dealing (None: no two rounds close enough)."""
        return self.gaps * 3600 / self.seconds if self.seconds > 0 else None

    @property
    def hours(self) -> float:
        """The time dealing, in hours."""
        return self.seconds / 3600


def binomial_upper_tail(hits: int, trials: int, probability: float) -> float:
    """P(X ≥ `hits`) for X binomial(`trials`, `probability`), summed term by term from `hits`
    up until the terms no longer count (1.0 when `hits` is 0)."""
    if hits <= 0:
        return 1.0
    if hits > trials or probability <= 0:
        return 0.0
    if probability >= 1:
        return 1.0
    log_p, log_q = math.log(probability), math.log1p(-probability)

    def log_term(k: int) -> float:
        return (
            math.lgamma(trials + 1)
            - math.lgamma(k + 1)
            - math.lgamma(trials - k + 1)
            + k * log_p
            + (trials - k) * log_q
        )

    def summed(ks: range) -> float:
        """The terms of `ks`, from the mode outwards, until they no longer count."""
        total = 0.0
        for k in ks:
            term = math.exp(log_term(k))
            total += term
            if term < total * 1e-16:
                break
        return total

    if hits <= trials * probability:  # the upper tail holds the mode: 1 − the lower tail
        return max(0.0, 1.0 - summed(range(hits - 1, -1, -1)))
    return min(summed(range(hits, trials + 1)), 1.0)
