"""The dealer's drills: seven-card hands to set by the House Way, and settled seats to pay.

Pure: the caller hands in the random source (`random.Random`), the trainee's past misses and
the typed answers; every reply is a value. Each hand is judged by the engines the rulings use,
never by a second arithmetic: a setting by `house_way.set_hand`, a seat's pay by
`seat_rulings.settle_ruling` (the base wager, every bonus wager, the meters; with Envy, the
whole table as a round is settled), so a drill and a ruling can never disagree.

Drawing teaches: a candidate deal is kept with a weight of 1 plus the trainee's misses (at
most `MISS_WEIGHT`) of its key (the House Way clause that decides it; a payout's pay rows, by
wager and event) over the weight of their most-missed key, so a missed clause or row comes up
more often; the same seed and the same misses deal the same hands. A drill can be limited to
chosen clauses or events: candidates are dealt until one qualifies, at most `DRAW_LIMIT` a
hand (a limit too rare for that is refused, naming it).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from decimal import Decimal
from types import MappingProxyType
from typing import Any

from dealer.games.paigow.bonus import Meters
from dealer.games.paigow.deck import parse_cards
from dealer.games.paigow.events import LABELS, classify
from dealer.games.paigow.house_way import HouseWay, Setting, set_hand
from dealer.games.paigow.pay import Wager
from dealer.games.paigow.profile import TRAINING_HANDS_LIMIT, Profile
from dealer.games.paigow.ranking import high_key, low_key
from dealer.games.paigow.round_input import SeatWagers
from dealer.games.paigow.seat_rulings import settle_ruling
from dealer.inputs import signed_money
from dealer.kernel.cards import DECK, Card, format_cards, symbols
from dealer.kernel.errors import DealerError
from dealer.kernel.money import fmt_money, money_json
from dealer.kernel.ruling import Ruling
from dealer.kernel.tuples import NamedTuple

HOUSE_WAY = "house-way"
PAYOUTS = "payouts"
DRILLS = (HOUSE_WAY, PAYOUTS)
"""The drills, as their commands and training records name them."""

HANDS_LIMIT = TRAINING_HANDS_LIMIT
"""The most hands one drill deals (its training record keeps every hand)."""
DRAW_LIMIT = 20_000
"""The most candidate deals for one hand of a limited drill."""
MISS_WEIGHT = 9
"""The most a key's past misses add to its weight: a hand missed often comes up at most ten
times as often as one never missed."""

SAMPLE_AMOUNTS: Mapping[str, tuple[int, ...]] = MappingProxyType(
    {"base": (10, 25, 50, 100), "insurance": (5, 10, 25), "treasure": (5, 10, 25)}
)
"""The amounts a payout drill places on a wager (a progressive wager: one unit)."""
OTHER_SEATS = (1, 3)
"""How many other seats (fewest, most) an Envy drill deals at the table: the hands Envy pays
on."""
SEATS = range(1, 7)
"""The seats of the table an Envy drill seats its hands at."""


class Miss(NamedTuple):
    """An answer judged wrong: what the trainee typed, and the keys it missed."""

    typed: str
    keys: tuple[str, ...]


class Judged(NamedTuple):
    """One answer judged: the hand's number, whether it was right, the keys it was judged on
    (and those missed), and what a person and a program are shown."""

    hand: int
    correct: bool
    keys: tuple[str, ...]
    missed: tuple[str, ...]
    lines: tuple[str, ...]
    """On a miss: the right answer and why (the clause's words, the ruling's arithmetic)."""
    fields: Mapping[str, Any]
    """The JSON of the answer beside `hand` and `correct`."""

    def to_json(self) -> dict[str, Any]:
        """`{"hand", "correct", …}` (house-way: `house_way`, `clause`; payouts: `nets`)."""
        return {"hand": self.hand, "correct": self.correct, **self.fields}


class Summary(NamedTuple):
    """A drill's result so far: hands answered, right, and misses by key."""

    drill: str
    score: int
    hands: int
    dealt: int
    missed: Mapping[str, int]
    asked: Mapping[str, int]

    @property
    def accuracy(self) -> float:
        """The share of the answered hands answered right (0 with none answered)."""
        return self.score / self.hands if self.hands else 0.0

    def to_json(self) -> dict[str, Any]:
        """`{"score", "hands", "accuracy", "missed_clauses", "asked"}`: misses and hands asked
        by key (a House Way clause; a payout's pay row, `treasure:straight`)."""
        return {
            "score": self.score,
            "hands": self.hands,
            "accuracy": round(self.accuracy * 100, 1),
            "missed_clauses": dict(self.missed),
            "asked": dict(self.asked),
        }


class Limit(NamedTuple):
    """What a drill may deal: every hand, or only hands of these keys' last parts (clause ids;
    events)."""

    chosen: frozenset[str] = frozenset()

    def allows(self, parts: Iterable[str]) -> bool:
        """Whether a hand whose keys end in `parts` may be dealt."""
        return not self.chosen or not self.chosen.isdisjoint(parts)


def weight(keys: Sequence[str], misses: Mapping[str, int]) -> int:
    """How often a hand of `keys` is kept, relative to a hand of no missed key (weight 1): one
    plus the past misses of its most-missed key, at most `MISS_WEIGHT`."""
    return 1 + min(MISS_WEIGHT, max((misses.get(k, 0) for k in keys), default=0))


def kept(rng: random.Random, keys: Sequence[str], misses: Mapping[str, int]) -> bool:
    """Whether a candidate of `keys` is dealt: with probability its weight over the largest
    weight of the trainee's misses (one draw of `rng` each time, so a seed and the misses decide
    the hands)."""
    top = weight(tuple(misses), misses)
    return rng.random() * top < weight(keys, misses)


class _Drill:
    """What both drills share: the hands, the score, the misses, the prompt."""

    name = ""

    def __init__(
        self, rng: random.Random, hands: int, misses: Mapping[str, int], limit: Limit
    ) -> None:
        if not 1 <= hands <= HANDS_LIMIT:
            raise DealerError(f"--hands {hands}: a drill deals 1 to {HANDS_LIMIT} hands")
        self.rng, self.total, self.misses, self.limit = rng, hands, dict(misses), limit
        self.answers: list[Judged] = []
        self.dealt = 0

    @property
    def over(self) -> bool:
        """True once every hand is answered."""
        return len(self.answers) >= self.total

    def _judged(self, judged: Judged) -> Judged:
        self.answers.append(judged)
        return judged

    def summary(self) -> Summary:
        """The score so far; misses and hands asked by key."""
        missed: dict[str, int] = {}
        asked: dict[str, int] = {}
        for answer in self.answers:
            for key in answer.keys:
                asked[key] = asked.get(key, 0) + 1
            for key in answer.missed:
                missed[key] = missed.get(key, 0) + 1
        score = sum(a.correct for a in self.answers)
        return Summary(self.name, score, len(self.answers), self.dealt, missed, asked)

    def _cards(self, count: int) -> list[Card]:
        """`count` cards dealt from a shuffled 53-card deck (the joker in)."""
        return self.rng.sample(DECK, count)


# --- House Way -------------------------------------------------------------------------------


class WayHand(NamedTuple):
    """A hand to set: its number, the seven cards, and the House Way's setting."""

    number: int
    cards: tuple[Card, ...]
    setting: Setting

    def to_json(self) -> dict[str, Any]:
        """`{"hand", "cards"}`: what the trainee sees."""
        return {"hand": self.number, "cards": [str(c) for c in self.cards]}


class HouseWayDrill(_Drill):
    """Seven cards at a time from a 53-card deck (the joker in); the trainee types the two low
    cards, or `high … / low …`; judged against the House Way's setting."""

    name = HOUSE_WAY

    def __init__(
        self,
        way: HouseWay,
        rng: random.Random,
        hands: int,
        misses: Mapping[str, int] = MappingProxyType({}),
        clauses: Iterable[str] = (),
    ) -> None:
        chosen = frozenset(clauses)
        ids = [c.id for c in way.clauses]
        unknown = sorted(chosen.difference(ids))
        if unknown:
            raise DealerError(
                f"--clause {unknown[0]}: House Way {way.name} v{way.version} has no such clause "
                f"(its clauses: {', '.join(ids)})"
            )
        super().__init__(rng, hands, misses, Limit(chosen))
        self.way = way
        self.hand = self._deal()

    @property
    def prompt(self) -> str:
        """What the drill waits for."""
        return f"hand {self.hand.number} low (or high … / low …)> "

    def _deal(self) -> WayHand:
        for _ in range(DRAW_LIMIT):
            cards = tuple(self._cards(7))
            setting = set_hand(cards, self.way)
            if self.limit.allows((setting.clause,)) and kept(
                self.rng, (setting.clause,), self.misses
            ):
                self.dealt += 1
                return WayHand(self.dealt, cards, setting)
        raise DealerError(
            f"--clause {','.join(sorted(self.limit.chosen))}: no hand of those clauses came up "
            f"in {DRAW_LIMIT:,} deals: choose clauses that decide more hands"
        )

    def step(self, line: str) -> tuple[Judged, WayHand | None]:
        """Judge one typed setting (`DealerError`: it is not one, ask again; never scored), and
        deal the next hand unless the drill is over."""
        hand = self.hand
        high, low = _typed_setting(line, hand.cards)
        right = hand.setting
        correct = high_key(high) == high_key(right.high) and low_key(low) == low_key(right.low)
        lines = (
            ()
            if correct
            else (
                f"the House Way: high {symbols(right.high)} / low {symbols(right.low)}",
                right.rule,
            )
        )
        judged = self._judged(
            Judged(
                hand.number,
                correct,
                (right.clause,),
                () if correct else (right.clause,),
                lines,
                {
                    "house_way": {
                        "high": [str(c) for c in right.high],
                        "low": [str(c) for c in right.low],
                    },
                    "clause": right.clause,
                    "rule": right.rule,
                    "answer": {"high": [str(c) for c in high], "low": [str(c) for c in low]},
                },
            )
        )
        if self.over:
            return judged, None
        self.hand = self._deal()
        return judged, self.hand


def _typed_setting(line: str, cards: Sequence[Card]) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
    """The trainee's setting of `cards`: two low cards, or `high FIVE / low TWO`."""
    text = line.strip()
    if "/" in text:
        first, _, second = text.partition("/")
        high_text, low_text = first.strip(), second.strip()
        if not (high_text.lower().startswith("high") and low_text.lower().startswith("low")):
            raise DealerError("type the two low cards (Kd 9c), or high FIVE CARDS / low TWO CARDS")
        high = parse_cards(high_text[4:], (5,), "high hand")
        low = parse_cards(low_text[3:], (2,), "low hand")
    else:
        if text.lower().startswith("low"):
            text = text[3:]
        low = parse_cards(text, (2,), "low hand")
        high = tuple(c for c in cards if c not in low)
    foreign = [c for c in (*high, *low) if c not in cards]
    if foreign or len(set(high) | set(low)) != 7:
        raise DealerError(
            f"set the seven cards dealt ({format_cards(cards)}): "
            + (f"{foreign[0]} is not one of them" if foreign else "a card is typed twice")
        )
    return tuple(sorted(high, reverse=True)), tuple(sorted(low, reverse=True))


# --- payouts ---------------------------------------------------------------------------------


class PayHand(NamedTuple):
    """A settled seat to pay: the dealer's and the player's cards, the wagers, the meters, and
    the settlement's ruling (its nets by wager); with Envy, the other seats' cards by seat (the
    ruling is then the seat's, the whole table settled)."""

    number: int
    dealer: tuple[Card, ...]
    player: tuple[Card, ...]
    wagers: Mapping[Wager, Decimal]
    meters: Meters
    ruling: Ruling
    nets: Mapping[str, Decimal]
    keys: tuple[str, ...]
    """The pay rows it turns on: `base:OUTCOME`, `WAGER:EVENT` (`treasure:straight`,
    `insurance:no-event`, `envy:no-event` when no other seat's hand pays it)."""
    others: tuple[tuple[int, tuple[Card, ...]], ...] = ()

    @property
    def total(self) -> Decimal:
        """The seat's total net."""
        return sum(self.nets.values(), Decimal(0))

    def setting(self, who: str) -> dict[str, list[str]]:
        """The high and low hand of `dealer` or `player` as the settlement set them."""
        hands = self.ruling.result[who] if who == "dealer" else self.ruling.result["base"]["player"]
        return {"high": list(hands["high"]["cards"]), "low": list(hands["low"]["cards"])}

    def to_json(self) -> dict[str, Any]:
        """`{"hand", "dealer", "dealer_set", "seat", "player", "others", "wagers", "paytables",
        "meters", "order"}`: `order` is the order the nets are typed in; `others` the other
        seats' hands as the settlement set them (`{"seat", "high", "low"}`; none without
        Envy)."""
        return {
            "hand": self.number,
            "dealer": [str(c) for c in self.dealer],
            "dealer_set": self.setting("dealer"),
            "seat": self.ruling.result["seat"],
            "player": self.setting("player"),
            "others": list(self.ruling.result.get("others", ())),
            "wagers": {str(w): money_json(a) for w, a in self.wagers.items()},
            "paytables": dict(self.ruling.settings.get("paytables", {})),
            "meters": {str(m): v for m, v in self.meters.to_dict().items()},
            "order": list(self.nets),
        }


class PayoutDrill(_Drill):
    """A dealer's and a player's hand, both set by the House Way, and the player's wagers; the
    trainee types each wager's net in `order` (`+12.50 +100 -1`) or the seat's total; judged to
    the cent against the settlement.

    Envy is drilled on a Treasure wager (placed with it, at least the table's Envy minimum) and
    one to three other seats dealt from the same deck, each its own hand set by the House Way:
    the whole table is settled, and the trainee pays the one seat, Envy +0 when no other hand
    pays it. `--event` then deals a hand when the seat's or another seat's hand has the event."""

    name = PAYOUTS

    def __init__(
        self,
        profile: Profile,
        rng: random.Random,
        hands: int,
        wagers: Sequence[Wager],
        misses: Mapping[str, int] = MappingProxyType({}),
        events: Iterable[str] = (),
    ) -> None:
        chosen = frozenset(events)
        unknown = sorted(chosen.difference(LABELS))
        if unknown:
            raise DealerError(
                f"--event {unknown[0]}: not a bonus event (events: {', '.join(LABELS)})"
            )
        placed = list(wagers)
        if Wager.BASE not in placed:
            placed.insert(0, Wager.BASE)
        placed += [Wager(w.terms.rides_on) for w in wagers if not w.placed]
        refused = [w for w in placed if w.bonus and not profile.offers(w)]
        if refused:
            raise DealerError(f"--wagers: {refused[0].not_offered}")
        super().__init__(rng, hands, misses, Limit(chosen))
        self.profile = profile
        self.wagers = tuple(w for w in Wager if w in placed)
        self.envy = Wager.ENVY in self.wagers
        self.meters = Meters(**{name: m.seed for name, m in profile.meters.items()})
        self.hand = self._deal()

    @property
    def prompt(self) -> str:
        """What the drill waits for."""
        return f"hand {self.hand.number} nets ({' '.join(self.hand.nets)}) or total> "

    def _amounts(self) -> dict[Wager, Decimal]:
        amounts: dict[Wager, Decimal] = {}
        for wager in self.wagers:
            if not wager.placed:
                continue
            if wager.progressive:
                amounts[wager] = self.profile.limits[wager].min or self.profile.unit(wager)
            else:
                amounts[wager] = Decimal(self.rng.choice(SAMPLE_AMOUNTS[wager]))
        if self.envy:  # Envy is paid on a Treasure wager of at least the table's minimum
            amounts[Wager.TREASURE] = max(amounts[Wager.TREASURE], self.profile.envy_minimum)
        return amounts

    def _seats(self) -> tuple[int, tuple[int, ...]]:
        """The seat paid and the other seats at the table (none without Envy)."""
        if not self.envy:
            return 1, ()
        taken = self.rng.sample(SEATS, 1 + self.rng.randint(*OTHER_SEATS))
        return taken[0], tuple(sorted(taken[1:]))

    def _deal(self) -> PayHand:
        for _ in range(DRAW_LIMIT):
            seat, around = self._seats()
            deck = self._cards(14 + 7 * len(around))
            player, dealer = tuple(deck[:7]), tuple(deck[7:14])
            others = tuple((n, tuple(deck[7 * i : 7 * i + 7])) for i, n in enumerate(around, 2))
            amounts = self._amounts()
            hands = (player, *(held for _, held in others))
            if self.limit.chosen and not any(self.limit.allows(classify(h).events) for h in hands):
                continue
            wagers = SeatWagers(MappingProxyType(dict(amounts)), frozenset())
            ruling, _ = settle_ruling(
                format_cards(dealer),
                wagers,
                self.profile,
                self.meters,
                player=format_cards(player),
                seat=seat,
                others=[(n, format_cards(held)) for n, held in others],
            )
            nets, keys = _nets(ruling, self.wagers)
            if kept(self.rng, keys, self.misses):
                self.dealt += 1
                return PayHand(
                    self.dealt, dealer, player, amounts, self.meters, ruling, nets, keys, others
                )
        raise DealerError(
            f"--event {','.join(sorted(self.limit.chosen))}: no hand with those events came up "
            f"in {DRAW_LIMIT:,} deals: choose events that come up more often"
        )

    def step(self, line: str) -> tuple[Judged, PayHand | None]:
        """Judge one typed answer (`DealerError`: it is not one, ask again; never scored), and
        deal the next hand unless the drill is over."""
        hand = self.hand
        words = line.replace(",", " ").split()
        names = list(hand.nets)
        if len(words) not in (1, len(names)):
            raise DealerError(
                f"type each wager's net in order ({' '.join(names)}: {len(names)} amounts, "
                "+12.50 or -10) or the seat's total"
            )
        typed = [signed_money(w, "net") for w in words]
        if len(typed) == len(names):
            wrong = tuple(n for n, t in zip(names, typed, strict=True) if t != hand.nets[n])
        else:
            wrong = () if typed[0] == hand.total else tuple(names)
        missed = tuple(k for k in hand.keys if k.split(":")[0] in wrong)
        lines = (
            ()
            if not wrong
            else (
                "the nets: "
                + ", ".join(f"{n} {fmt_money(v, signed=True)}" for n, v in hand.nets.items())
                + f"; total {fmt_money(hand.total, signed=True)}",
                *hand.ruling.explanation,
                *_no_envy(hand),
            )
        )
        judged = self._judged(
            Judged(
                hand.number,
                not wrong,
                hand.keys,
                missed,
                lines,
                {
                    "nets": {n: money_json(v) for n, v in hand.nets.items()},
                    "total": money_json(hand.total),
                    "wrong": list(wrong),
                    "rows": list(hand.keys),
                },
            )
        )
        if self.over:
            return judged, None
        self.hand = self._deal()
        return judged, self.hand


def _nets(ruling: Ruling, wagers: Sequence[Wager]) -> tuple[dict[str, Decimal], tuple[str, ...]]:
    """A seat's nets by wager (the base first, then each bonus of `wagers` in the registry's
    order; Envy +0 when no other seat's hand pays it) and the pay rows it turns on, from the
    ruling."""
    result = ruling.result
    base = result["base"]
    nets = {str(w): Decimal(0) for w in wagers}
    nets["base"] = Decimal(str(base["net"]))
    keys = [f"base:{base['outcome']}"]
    for paid in result["bonuses"]:
        wager = str(paid["wager"])
        nets[wager] += Decimal(str(paid["net"]))
        keys.append(f"{wager}:{paid['event'] or 'no-event'}")
    if Wager.ENVY in wagers and not any(k.startswith(f"{Wager.ENVY}:") for k in keys):
        keys.append(f"{Wager.ENVY}:no-event")
    return nets, tuple(dict.fromkeys(keys))


def _no_envy(hand: PayHand) -> tuple[str, ...]:
    """Why an Envy drilled pays nothing (the ruling lists only the pays): no other seat's hand
    makes a row of its table."""
    if f"{Wager.ENVY}:no-event" not in hand.keys:
        return ()
    seats = ", ".join(f"seat {n}" for n, _ in hand.others)
    table = hand.ruling.settings["paytables"][Wager.ENVY]
    zero = fmt_money(Decimal(0), signed=True)
    return (
        f"seat {hand.ruling.result['seat']}: {Wager.ENVY.full_name} {table}: no other seat's "
        f"hand ({seats}) makes a row: {zero}",
    )
