"""A whole table round as typed in a round file: read it, check all of it, report every problem.

A round file (YAML or JSON) names the table, the dealer's seven cards and each occupied seat
(1-6) with its wagers and either its seven `cards` (set by the House Way on request) or its
own `high` and `low` hands:

    table: PG-3
    dealer: As Kd 9c 7h 5s 3d 2c
    seats:
      - seat: 1
        cards: Js Jd Ac Qh 8s 5d 3h        # the player asks for the House Way
        wagers: {base: 25, treasure: 5, progressive_treasure: 1}
      - seat: 4
        high: Kc Kh 9d 6s 2h
        low: Qs Td
        wagers: {base: 10, insurance: 5, insurance_on_dealer: true}
        patron: P-123                      # optional: the player's patron id

A seat's `wagers` name each wager a seat places by its name in the registry
(`dealer.games.paigow.pay.Wager`, the base required) and each declaration on the dealer's hand
(`insurance_on_dealer`); they are read into one `SeatWagers`, each amount once. Every wager is
checked against the table profile: within its limits, a progressive wager a whole number of its
units, and no wager the table does not offer. A patron id is kept with the seat's ruling
(searchable with `dealer audit search --patron`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from contextlib import suppress
from dataclasses import dataclass
from decimal import Decimal
from types import MappingProxyType
from typing import Any

from dealer.games.paigow.deck import parse_cards
from dealer.games.paigow.pay import DECLARABLE, PLACED, ZERO, Wager
from dealer.games.paigow.profile import Profile
from dealer.inputs import PAIGOW_SEATS, money, patron_id, table_id, whole_number
from dealer.kernel.cards import Card
from dealer.kernel.errors import DealerError
from dealer.kernel.money import fmt_money, money_json
from dealer.kernel.text import quoted
from dealer.kernel.tuples import NamedTuple

WAGER_KEYS = frozenset(PLACED) | {w.on_dealer_key for w in DECLARABLE}
"""The keys of a seat's `wagers` mapping."""
SEAT_KEYS = {"seat", "cards", "high", "low", "wagers", "patron"}


class RoundError(DealerError):
    """A round that cannot be settled; the message lists every problem found."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = problems
        if len(problems) == 1:
            super().__init__(problems[0])
        else:
            super().__init__(f"the round has {len(problems)} problems: " + "; ".join(problems))


class SeatWagers(NamedTuple):
    """One seat's wagers, from where they were typed or filed to the bonus engine: each amount
    read once (`dealer.inputs.money`) and checked once against the table profile (a round
    file's seat by `read_round`, a seat of the live table by `read_seat`, the options of
    `paigow settle` by the same check). `amounts` holds each wager given, the base always (a
    bonus wager of zero is not placed); `on_dealer` the wagers declared on the dealer's hand."""

    amounts: Mapping[Wager, Decimal]
    on_dealer: frozenset[Wager] = frozenset()

    @property
    def base(self) -> Decimal:
        """The base wager."""
        return self.amounts[Wager.BASE]

    def amount(self, wager: Wager) -> Decimal:
        """The amount of one wager (zero where not placed)."""
        return self.amounts.get(wager, ZERO)

    def to_dict(self) -> dict[str, Any]:
        """As a round file states them: each amount placed, then each declaration."""
        out: dict[str, Any] = {
            w.value: money_json(self.amount(w)) for w in PLACED if self.amount(w)
        }
        return out | {w.on_dealer_key: True for w in DECLARABLE if w in self.on_dealer}


@dataclass(frozen=True)
class SeatInput:
    """One occupied seat: its seven cards, its own setting if it set the hand, its wagers, the
    player's patron id if given."""

    seat: int
    cards: tuple[Card, ...]
    high: tuple[Card, ...] | None
    low: tuple[Card, ...] | None
    wagers: SeatWagers
    patron: str | None = None

    @property
    def house_way(self) -> bool:
        """True when the dealer sets this hand by the House Way (the player asked)."""
        return self.high is None


@dataclass(frozen=True)
class RoundInput:
    """A checked round, ready to settle."""

    table: str | None
    dealer: tuple[Card, ...]
    seats: tuple[SeatInput, ...]


class _Checker:
    """Collects problems instead of stopping at the first."""

    def __init__(self) -> None:
        self.problems: list[str] = []
        self.owner: dict[Card, str] = {}

    def cards(self, text: Any, count: int, where: str) -> tuple[Card, ...] | None:
        if not isinstance(text, str):
            self.problems.append(f"{where}: give the cards as text, e.g. 'As Kd 9c'")
            return None
        try:
            cards = parse_cards(text, (count,), where)
        except DealerError as exc:
            self.problems.append(f"{where}: {exc}")
            return None
        for card in cards:
            if card in self.owner:
                what = "a second joker" if card.is_joker else f"duplicate card {card}"
                self.problems.append(f"{where}: {what} (also in {self.owner[card]})")
            else:
                self.owner[card] = where if where.startswith("seat") else f"the {where}"
        return cards

    def wagers(self, raw: Any, where: str, profile: Profile) -> SeatWagers | None:
        """A seat's wagers: a round file's mapping, each amount read here, or `SeatWagers`
        already read (the options of `paigow settle`); either way checked against the table
        profile: the base given, every wager within its limits and offered at the table, a
        declaration on the dealer's hand only with its wager."""
        read = isinstance(raw, SeatWagers)
        if not read and not isinstance(raw, Mapping):
            self.problems.append(f"{where}: wagers must be a mapping, e.g. {{base: 25}}")
            return None
        given: Mapping[Any, Any] = raw.amounts if isinstance(raw, SeatWagers) else raw
        unknown = set(given) - WAGER_KEYS
        if unknown:
            self.problems.append(f"{where}: unknown wager {sorted(unknown)[0]!r}")
        if Wager.BASE not in given:
            self.problems.append(f"{where}: the base wager is required")
            return None
        amounts: dict[Wager, Decimal] = {}
        for wager in PLACED:
            if wager not in given:
                continue
            try:
                amount = given[wager] if read else money(given[wager], f"{wager.value} wager")
            except DealerError as exc:
                self.problems.append(f"{where}: {exc}")
                continue
            amounts[wager] = amount
            if not amount and wager.bonus:  # a bonus wager of 0 is not placed
                continue
            if wager.bonus and not profile.offers(wager):
                self.problems.append(f"{where}: {wager.not_offered}")
                continue
            limit = profile.limits.get(wager)
            problem = limit.problem(amount) if limit is not None else None
            if problem is not None:
                self.problems.append(f"{where}: {wager} wager {fmt_money(amount)} {problem}")
        on_dealer = self._declared(raw, where)
        for wager in sorted(on_dealer - {w for w, a in amounts.items() if a}):
            article = "an" if wager.words[0] in "aeiou" else "a"
            self.problems.append(
                f"{where}: {wager.on_dealer_key} without {article} {wager.words} wager"
            )
        if Wager.BASE not in amounts:
            return None
        return SeatWagers(MappingProxyType(amounts), on_dealer)

    def _declared(self, raw: Mapping[str, Any] | SeatWagers, where: str) -> frozenset[Wager]:
        """The wagers declared on the dealer's hand (`insurance_on_dealer: true`)."""
        if isinstance(raw, SeatWagers):
            return raw.on_dealer
        declared = set()
        for wager in DECLARABLE:
            on_dealer = raw.get(wager.on_dealer_key, False)
            if not isinstance(on_dealer, bool):
                self.problems.append(f"{where}: {wager.on_dealer_key} must be true or false")
            if on_dealer:
                declared.add(wager)
        return frozenset(declared)

    def claim(self, cards: Sequence[Card], owner: str) -> None:
        """Mark cards already checked (the dealer's, earlier seats') as taken by `owner`."""
        for card in cards:
            self.owner[card] = owner

    def seat(
        self,
        seat_raw: Any,
        index: str,
        taken: set[int],
        profile: Profile,
        *,
        partial: bool = False,
    ) -> SeatInput | None:
        """Check one seat mapping; with `partial`, only the parts given so far (a seat being
        typed in): a missing hand or missing wagers is not (yet) a problem."""
        if not isinstance(seat_raw, Mapping):
            self.problems.append(f"{index}: a seat must be a mapping")
            return None
        given = seat_raw.get("seat")
        number: int | None = None
        with suppress(DealerError):  # in decimal as written: `seat: 01` is not seat 1
            number = whole_number(given, "seat", least=1, most=PAIGOW_SEATS.stop - 1)
        plain = len(str(given)) <= 12 and str(given).isprintable()
        where = f"seat {given if plain else quoted(given)}"
        if number is None:
            self.problems.append(
                f"{where}: seats are numbered {PAIGOW_SEATS.start} to {PAIGOW_SEATS.stop - 1}"
            )
        elif number in taken:
            self.problems.append(f"{where}: listed twice")
        else:
            taken.add(number)
        extra = set(seat_raw) - SEAT_KEYS
        if extra:
            self.problems.append(f"{where}: unknown field {sorted(extra)[0]!r}")
        high = low = None
        if "cards" in seat_raw:
            if "high" in seat_raw or "low" in seat_raw:
                self.problems.append(f"{where}: give cards (House Way) or high and low, not both")
            cards = self.cards(seat_raw["cards"], 7, where)
        elif "high" in seat_raw and "low" in seat_raw:
            high = self.cards(seat_raw["high"], 5, f"{where} high hand")
            low = self.cards(seat_raw["low"], 2, f"{where} low hand")
            cards = high + low if high and low else None
        else:
            if not partial:
                self.problems.append(f"{where}: give its seven cards, or its high and low hands")
            cards = None
        wagers = None
        if not partial or "wagers" in seat_raw:
            wagers = self.wagers(seat_raw.get("wagers"), where, profile)
        patron = self.patron(seat_raw.get("patron"), where)
        if cards and wagers and number is not None:
            return SeatInput(number, cards, high, low, wagers, patron)
        return None

    def patron(self, raw: Any, where: str) -> str | None:
        """The seat's patron id (None: not given)."""
        if raw is None:
            return None
        try:
            return patron_id(raw)  # as written: `patron: 0012345` is patron 0012345
        except DealerError as exc:
            self.problems.append(f"{where}: {exc}")
            return None


def read_round(raw: Any, profile: Profile) -> RoundInput:
    """Check a round read from its file; raise RoundError listing every problem."""
    check = _Checker()
    if not isinstance(raw, Mapping):
        raise RoundError(["the round file must hold a mapping with dealer and seats"])
    unknown = set(raw) - {"table", "dealer", "seats"}
    if unknown:
        check.problems.append(f"unknown field {sorted(unknown)[0]!r}")
    dealer = check.cards(raw.get("dealer"), 7, "dealer's hand")
    seats_raw = raw.get("seats")
    seats: list[SeatInput] = []
    if not isinstance(seats_raw, list) or not seats_raw:
        check.problems.append("seats: list at least one occupied seat")
        seats_raw = []
    taken: set[int] = set()
    for i, seat_raw in enumerate(seats_raw):
        seat = check.seat(seat_raw, f"seats[{i}]", taken, profile)
        if seat is not None:
            seats.append(seat)
    table = raw.get("table")
    if table is not None:
        try:
            table = table_id(table)  # as written: `table: 012` is table 012, not 10
        except DealerError as exc:
            check.problems.append(f"table: {exc}")
    if check.problems or dealer is None:
        raise RoundError(check.problems)
    return RoundInput(
        None if table is None else str(table),
        dealer,
        tuple(sorted(seats, key=lambda s: s.seat)),
    )


def _earlier(dealer: Sequence[Card], seats: Sequence[SeatInput]) -> tuple[_Checker, set[int]]:
    check = _Checker()
    check.claim(dealer, "the dealer's hand")
    for earlier in seats:
        check.claim(earlier.cards, f"seat {earlier.seat}")
    return check, {earlier.seat for earlier in seats}


def read_dealer(text: Any, seats: Sequence[SeatInput] = ()) -> tuple[Card, ...]:
    """Check the dealer's seven cards (against the seats already in, if any), as `read_round`
    does; raise RoundError."""
    check, _ = _earlier((), seats)
    cards = check.cards(text, 7, "dealer's hand")
    if check.problems or cards is None:
        raise RoundError(check.problems)
    return cards


def check_seat(
    raw: Any,
    profile: Profile,
    dealer: Sequence[Card] = (),
    seats: Sequence[SeatInput] = (),
) -> None:
    """Check the parts given so far of one seat being typed in (its number; its cards or high
    and low; its wagers), by the rules of `read_round`, against the dealer's cards and the seats
    already in; raise RoundError listing every problem."""
    check, taken = _earlier(dealer, seats)
    check.seat(raw, "seat", taken, profile, partial=True)
    if check.problems:
        raise RoundError(check.problems)


def read_seat(
    raw: Any,
    profile: Profile,
    dealer: Sequence[Card] = (),
    seats: Sequence[SeatInput] = (),
) -> SeatInput:
    """Check one whole seat (a round file's seat mapping) by the rules of `read_round`, against
    the dealer's cards and the seats already in; raise RoundError listing every problem."""
    check, taken = _earlier(dealer, seats)
    seat = check.seat(raw, "seat", taken, profile)
    if check.problems or seat is None:
        raise RoundError(check.problems)
    return seat
