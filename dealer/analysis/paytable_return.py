"""Exact return of a bonus pay table over all C(53,7) = 154,143,080 seven-card hands.

The counts come from `dealer.analysis.exact`: every hand counted once, by its highest event
(its *class*). A pay table pays the first event the hand contains that the table offers
(`PayTable.row_for`), so a hand whose class the table does not offer (no row, or N/A) falls
through to a lower event it also holds. That is only countable from the class totals when every
hand of the class settles alike, so the fall-through is decided per class from what such hands
always, never or only sometimes hold:

* a royal flush with a suited A-K always holds a royal flush (and so a straight flush, a flush,
  a straight) and never a seven-card straight flush with the joker, five aces, four of a kind
  or three pair: where its row is N/A, its hands are paid as royal flushes (PT-BJS-EC-ET-03);
* a one-colour or two-tone 9-high pai gow is always a 9-high pai gow;
* pai gows hold no poker event and poker hands no pai gow; a hand of no event holds none.

A table that offers an event only some hands of a class hold, while not offering the class
itself, is refused (PayTableError) rather than counted wrongly.

Money is the settlement's own: each row's net comes from `dealer.games.paigow.pay.row_net`,
the one arithmetic `dealer.games.paigow.bonus` settles with ("to 1" nets value × wager, "for 1"
nets (value − 1) × wager, each rounded down to the cent; a fixed or meter pay is paid for the
wager in a "for 1" table and on top of it in a "to 1" table; a meter pay is that share of the
meter as it stands, rounded down to the cent). A progressive wager of several units is paid as
the settlement pays it: a fixed pay once per unit, a share of the meter once per hit, so the
figures per unit wagered depend on the units only through the meter's rows. All sums are exact
fractions; floats appear only in the JSON and text.

Envy tables have no wager: their figures are the Envy paid for one other player's hand, in
currency (return = expected pay per other player's hand; house edge = minus that, the house's
cost). A Treasure wager at the Envy minimum collects that once for every other player seated.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from types import MappingProxyType
from typing import Any

from dealer.analysis.exact import PAYTABLE_ORDER, count_events
from dealer.games.paigow import events as ev
from dealer.games.paigow import pay
from dealer.games.paigow.pay import Basis, PayKind, Wager
from dealer.games.paigow.paytables import PayRow, PayTable
from dealer.kernel.errors import DealerError, PayTableError
from dealer.kernel.money import fmt_money, money_json

Progress = Callable[[int, int], None]
NOTHING = "nothing"
"""The class of hands with no bonus event (`dealer.analysis.exact`)."""

_PAI_GOWS = frozenset(ev.PAI_GOW_EVENTS)

ALWAYS: Mapping[str, frozenset[str]] = MappingProxyType(
    {
        ev.SEVEN_CARD_STRAIGHT_FLUSH: frozenset({ev.STRAIGHT_FLUSH, ev.FLUSH, ev.STRAIGHT}),
        ev.ROYAL_FLUSH_WITH_SUITED_AK: frozenset(
            {ev.ROYAL_FLUSH, ev.STRAIGHT_FLUSH, ev.FLUSH, ev.STRAIGHT}
        ),
        ev.SEVEN_CARD_STRAIGHT_FLUSH_WITH_JOKER: frozenset(
            {ev.STRAIGHT_FLUSH, ev.FLUSH, ev.STRAIGHT}
        ),
        ev.FIVE_ACES: frozenset({ev.FOUR_OF_A_KIND, ev.THREE_OF_A_KIND}),
        ev.ROYAL_FLUSH: frozenset({ev.STRAIGHT_FLUSH, ev.FLUSH, ev.STRAIGHT}),
        ev.STRAIGHT_FLUSH: frozenset({ev.FLUSH, ev.STRAIGHT}),
        ev.FOUR_OF_A_KIND: frozenset({ev.THREE_OF_A_KIND}),
        ev.FULL_HOUSE: frozenset({ev.THREE_OF_A_KIND}),
        ev.NINE_HIGH_ONE_COLOR: frozenset({ev.NINE_HIGH}),
        ev.NINE_HIGH_TWO_TONE: frozenset({ev.NINE_HIGH}),
    }
)
"""Lower events every hand of a class holds."""

NEVER: Mapping[str, frozenset[str]] = MappingProxyType(
    {
        # seven natural cards of seven ranks in one suit: no joker, no repeated rank
        ev.SEVEN_CARD_STRAIGHT_FLUSH: frozenset(
            {
                ev.ROYAL_FLUSH_WITH_SUITED_AK,
                ev.SEVEN_CARD_STRAIGHT_FLUSH_WITH_JOKER,
                ev.FIVE_ACES,
                ev.FOUR_OF_A_KIND,
                ev.FULL_HOUSE,
                ev.THREE_OF_A_KIND,
                ev.THREE_PAIR,
            }
        ),
        # a royal (four or five naturals of one suit) and a natural A-K of another suit: at
        # most six suited cards with the joker, at most three aces, at most two pairs
        ev.ROYAL_FLUSH_WITH_SUITED_AK: frozenset(
            {
                ev.SEVEN_CARD_STRAIGHT_FLUSH_WITH_JOKER,
                ev.FIVE_ACES,
                ev.FOUR_OF_A_KIND,
                ev.THREE_PAIR,
            }
        ),
        # six naturals of six ranks in one suit and the joker: at most a pair (of aces)
        ev.SEVEN_CARD_STRAIGHT_FLUSH_WITH_JOKER: frozenset(
            {
                ev.FIVE_ACES,
                ev.FOUR_OF_A_KIND,
                ev.FULL_HOUSE,
                ev.THREE_OF_A_KIND,
                ev.THREE_PAIR,
            }
        ),
        # four aces of four suits, the joker and two cards: at most three of a suit, three
        # ranks, two groups
        ev.FIVE_ACES: frozenset(
            {ev.ROYAL_FLUSH, ev.STRAIGHT_FLUSH, ev.FLUSH, ev.STRAIGHT, ev.THREE_PAIR}
        ),
    }
)
"""Lower events no hand of a class holds (beyond the pai gow / poker divide)."""


def holds(klass: str, event: str) -> bool | None:
    """Whether the hands of class `klass` hold `event`: True (all), False (none) or None
    (some)."""
    if klass == event or event in ALWAYS.get(klass, frozenset()):
        return True
    if klass == NOTHING or event in NEVER.get(klass, frozenset()):
        return False
    if (klass in _PAI_GOWS) != (event in _PAI_GOWS):
        return False
    if klass in _PAI_GOWS:
        return False  # a pai gow is of one height only
    if ev.EVENT_ORDER.index(event) < ev.EVENT_ORDER.index(klass):
        return False  # a class is its hands' highest event
    return None


def settling_row(table: PayTable, klass: str) -> PayRow | None:
    """The row of `table` that settles every hand of class `klass`, or None (no pay). Raises
    PayTableError when the class's hands would settle on different rows."""
    for event in ev.EVENT_ORDER:
        row = table.row(event)
        if row is None or row.pay.kind == PayKind.NOT_OFFERED:
            continue
        held = holds(klass, event)
        if held:
            return row
        if held is None:
            raise PayTableError(
                f"pay table {table.id} does not offer {klass} but offers {event}, which only "
                f"some {klass} hands hold: its return cannot be counted from the class totals"
            )
    return None


def row_net(
    row: PayRow | None, table: PayTable, wager: Decimal, meter: Decimal | None, units: int = 1
) -> Decimal:
    """What one hand settled on `row` nets the player, by the settlement's own arithmetic
    (`dealer.games.paigow.pay.row_net`; `wager` 0 for Envy, of `units` units); None for no row:
    the wager loses."""
    if row is not None and row.pay.from_meter and meter is None:
        raise DealerError(f"pay table {table.id} pays a share of the meter: give the meter")
    return pay.row_net(row.pay if row else None, table.basis, wager, meter, units).net


@dataclass(frozen=True)
class RowReturn:
    """One line of the analysis: a row of the table (or the hands no row pays, `row` None),
    the hands it settles, by class, and what each nets."""

    row: PayRow | None
    classes: tuple[tuple[str, int], ...]
    net: Decimal

    @property
    def combinations(self) -> int:
        """Hands settled on this line."""
        return sum(n for _, n in self.classes)


@dataclass(frozen=True)
class PaytableReturn:
    """The exact analysis of one pay table."""

    table: PayTable
    hands: int
    wager: Decimal
    meter: Decimal | None
    lines: tuple[RowReturn, ...]
    units: int = 1

    @property
    def has_wager(self) -> bool:
        """False for Envy (figures per other player's hand, in currency)."""
        return self.table.has_wager

    @property
    def expected_net(self) -> Fraction:
        """The player's mean net per hand, in currency."""
        total = sum(Fraction(line.net) * line.combinations for line in self.lines)
        return Fraction(total) / self.hands

    def contribution(self, line: RowReturn) -> Fraction:
        """A line's share of the return."""
        share = Fraction(line.net) * line.combinations / self.hands
        return share / Fraction(self.wager) if self.has_wager else share

    @property
    def return_(self) -> Fraction:
        """Mean net per unit wagered (Envy: mean pay per other player's hand)."""
        return self.expected_net / Fraction(self.wager) if self.has_wager else self.expected_net

    @property
    def house_edge(self) -> Fraction:
        """Minus the return."""
        return -self.return_

    @property
    def hit_frequency(self) -> Fraction:
        """Share of hands the table pays something (net above zero)."""
        hits = sum(line.combinations for line in self.lines if line.net > 0)
        return Fraction(hits, self.hands)

    def to_dict(self) -> dict[str, Any]:
        """JSON form: CONTRACT keys `paytable`, `hands`, `house_edge`, `events` (each with
        `event`, `combinations`, `pays`, `return`), and the inputs and exact fractions."""
        events = []
        for line in self.lines:
            row = line.row
            events.append(
                {
                    "event": row.event if row else None,
                    "label": row.label if row else "no pay",
                    "combinations": line.combinations,
                    "probability": float(Fraction(line.combinations, self.hands)),
                    "pays": row.pay.text()
                    if row
                    else ("nothing" if not self.has_wager else "Loss"),
                    "net": money_json(line.net),
                    "return": float(self.contribution(line)),
                    "classes": dict(line.classes),
                }
            )
        return {
            "paytable": self.table.id,
            "name": self.table.name,
            "wager_type": self.table.wager,
            "basis": self.table.basis,
            "hands": self.hands,
            "wager": money_json(self.wager) if self.has_wager else None,
            "units": self.units if Wager(self.table.wager).progressive else None,
            "meter": None if self.meter is None else money_json(self.meter),
            "measure": "per unit wagered"
            if self.has_wager
            else "Envy paid per other player's hand, in currency",
            "house_edge": float(self.house_edge),
            "return": float(self.return_),
            "return_exact": str(self.return_),
            "hit_frequency": float(self.hit_frequency),
            "expected_net": float(self.expected_net),
            "events": events,
        }

    def explanation(self) -> list[str]:
        """How the figures were made, for a person."""
        t = self.table
        kind = Wager(t.wager).full_name
        named = kind if t.name == kind else f"{t.name}, {kind}"
        lines = [
            f"{t.id} ({named}), pays {_basis_words(t.basis)}",
            f"all {self.hands:,} seven-card hands counted exactly, each by its highest event; "
            "a table pays the first event it offers that the hand holds",
        ]
        if self.has_wager:
            lines.append(f"wager {fmt_money(self.wager)}; return = mean net ÷ wager")
            if Wager(t.wager).progressive:
                unit = fmt_money(self.wager / self.units)
                lines.append(
                    f"{self.units} {'unit' if self.units == 1 else 'units'} of {unit}: a fixed "
                    "pay is paid once per unit, a share of the meter once per hit"
                )
        else:
            lines.append(
                "Envy has no wager of its own: return = mean Envy paid for one other player's "
                "hand; house edge = minus that"
            )
        if self.meter is not None:
            lines.append(f"meter {fmt_money(self.meter)} as it stands when a share is paid")
        for line in self.lines:
            if line.row is None:
                continue
            fallen = [k for k, n in line.classes if n and k != line.row.event]
            if fallen:
                lines.append(
                    f"{', '.join(fallen)}: not offered by this table; those hands also hold "
                    f"{line.row.event} and are paid on its row"
                )
        lines.append(
            f"return {float(self.return_):+.6f} (exactly {self.return_}), house edge "
            f"{float(self.house_edge):.6f}, hit frequency {float(self.hit_frequency):.6f} "
            "(the share of hands that win something)"
        )
        return lines


def _basis_words(basis: str) -> str:
    words: dict[str, str] = {
        Basis.TO_ONE: '"to 1"',
        Basis.FOR_ONE: '"for 1"',
        Basis.FIXED: "fixed amounts",
    }
    return words.get(basis, basis)


def analyze_paytable(
    table: PayTable,
    wager: Decimal = Decimal(1),
    meter: Decimal | None = None,
    counts: Mapping[str, int] | None = None,
    progress: Progress | None = None,
    units: int = 1,
) -> PaytableReturn:
    """The exact return of `table` for a wager of `wager` (ignored for Envy) of `units` units
    (a progressive wager's: fixed pays per unit), with the meter at `meter` for share-of-meter
    rows. `counts` are hands per class (default: every hand of the 53-card deck,
    `count_events("paytable")`); `progress(done, total)` while counting."""
    if counts is None:
        counts = count_events("paytable", progress)
    unknown = set(counts) - set(PAYTABLE_ORDER)
    if unknown:
        raise DealerError(f"unknown hand classes {sorted(unknown)}")
    stake = wager if table.has_wager else Decimal(0)
    if table.has_wager and wager <= 0:
        raise DealerError(f"wager {wager} must be above zero")
    by_row: dict[int, list[tuple[str, int]]] = {}
    unpaid: list[tuple[str, int]] = []
    for klass in PAYTABLE_ORDER:
        row = settling_row(table, klass)
        n = counts.get(klass, 0)
        if row is None:
            unpaid.append((klass, n))
        else:
            by_row.setdefault(row.number, []).append((klass, n))
    uses_meter = any(
        r.pay.from_meter and sum(n for _, n in by_row.get(r.number, [])) for r in table.rows
    )
    if uses_meter and meter is None:
        raise DealerError(f"pay table {table.id} pays a share of the meter: give the meter")
    lines = [
        RowReturn(row, (), Decimal(0))
        if row.pay.kind == PayKind.NOT_OFFERED
        else RowReturn(
            row, tuple(by_row.get(row.number, ())), row_net(row, table, stake, meter, units)
        )
        for row in table.rows
    ]
    lines.append(RowReturn(None, tuple(unpaid), row_net(None, table, stake, meter, units)))
    return PaytableReturn(
        table, sum(counts.values()), wager, meter if uses_meter else None, tuple(lines), units
    )
