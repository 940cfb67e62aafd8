"""The House Way: one engine that reads a House Way document (YAML) and sets seven cards.

A document is an ordered list of clauses. Each clause has a condition (`when`) on the shape of
the seven cards, with the joker counted as an ace, and an action that names the two-card low
hand; everything else goes high. The first clause whose condition holds and whose action can
be carried out decides the setting, and the setting names that clause.

Conditions (`when`, all must hold):
  pattern: one of PATTERNS (or a list)
  straight_or_flush: true|false    some five cards make a straight or flush (joker may complete)
  with: pair|trips|singles          beside the four of a kind or five aces
  ranks: {ROLE: [RANK or GROUP …]}  ROLE is quads, trips, pair (the highest), lower_pair
  can_go_low: [RANK …]              a singleton of one of these ranks
  can_go_low_all: [RANK …]          singletons of all of these ranks

Actions:
  low: second-and-third-singles | highest-singles | best
       | {pair: highest|lowest} | {pair_from: quads|trips|five-aces}
       | {one_from: trips, plus: highest-single}
  high: straight-or-flush           the high hand must be a straight, flush or straight flush
  best_of: [ACTION, ACTION …]       the action giving the better low hand (ties: the first)

Where the action leaves a choice of cards (which ace of three goes low), the engine plays the
best high hand, then keeps the joker and the higher suits (♠ ♥ ♦ ♣) high.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from functools import cache
from itertools import combinations
from operator import attrgetter
from pathlib import Path
from typing import Any

from dealer.games.paigow.ranking import (
    Key,
    high_key,
    is_foul,
    low_key,
)
from dealer.inputs import TEXT_LIMIT, document, document_name, text, whole_number
from dealer.kernel.cards import JOKER_SUIT, Card, symbols
from dealer.kernel.digest import sha256_hex
from dealer.kernel.errors import ConfigError, DealerError, HouseWayError
from dealer.kernel.text import quoted
from dealer.kernel.tuples import NamedTuple

PATTERNS = (
    "five-aces",
    "four-of-a-kind",
    "two-trips",
    "full-house",
    "three-of-a-kind",
    "three-pair",
    "two-pair",
    "one-pair",
    "no-pair",
)
ROLES = ("quads", "trips", "pair", "lower_pair")
RANK_SYMBOLS = {"A": 14, "K": 13, "Q": 12, "J": 11, "T": 10}
SPLITS: tuple[tuple[tuple[int, ...], tuple[int, int]], ...] = tuple(
    (tuple(i for i in range(7) if i not in low), low) for low in combinations(range(7), 2)
)
"""The 21 ways to split seven cards: (indices of the high hand, indices of the low hand)."""


class Shape(NamedTuple):
    """The seven cards grouped by rank (joker as an ace), each list high to low."""

    pattern: str
    five: int | None
    quads: int | None
    trips: tuple[int, ...]
    pairs: tuple[int, ...]
    singles: tuple[int, ...]
    straight_or_flush: bool


def shape_of(ranks: Sequence[int], straight_or_flush: bool) -> Shape:
    """Group seven ranks (the joker as an ace) and name the pattern."""
    counts: dict[int, int] = {}
    for r in ranks:
        counts[r] = counts.get(r, 0) + 1
    groups: tuple[list[int], ...] = ([], [], [], [], [], [])
    for r in sorted(counts, reverse=True):
        groups[counts[r]].append(r)
    five = groups[5][0] if groups[5] else None
    quads = groups[4][0] if groups[4] else None
    trips, pairs, singles = tuple(groups[3]), tuple(groups[2]), tuple(groups[1])
    if five:
        pattern = "five-aces"
    elif quads:
        pattern = "four-of-a-kind"
    elif len(trips) == 2:
        pattern = "two-trips"
    elif trips:
        pattern = "full-house" if pairs else "three-of-a-kind"
    else:
        pattern = ("no-pair", "one-pair", "two-pair", "three-pair")[len(pairs)]
    return Shape(pattern, five, quads, trips, pairs, singles, straight_or_flush)


class Condition(NamedTuple):
    """When a clause applies."""

    patterns: frozenset[str]
    straight_or_flush: bool | None = None
    with_: str | None = None
    ranks: tuple[tuple[str, frozenset[int]], ...] = ()
    can_go_low: frozenset[int] = frozenset()
    can_go_low_all: frozenset[int] = frozenset()

    def holds(self, s: Shape) -> bool:
        """True when the shape meets every part of the condition."""
        if s.pattern not in self.patterns:
            return False
        if self.straight_or_flush is not None and s.straight_or_flush != self.straight_or_flush:
            return False
        if self.with_ is not None and _beside(s) != self.with_:
            return False
        for role, allowed in self.ranks:
            rank = _role_rank(s, role)
            if rank is None or rank not in allowed:
                return False
        if self.can_go_low and not self.can_go_low.intersection(s.singles):
            return False
        return self.can_go_low_all.issubset(s.singles)


def _beside(s: Shape) -> str:
    if s.trips:
        return "trips"
    return "pair" if s.pairs else "singles"


def _role_rank(s: Shape, role: str) -> int | None:
    if role == "quads":
        return s.quads
    if role == "trips":
        return s.trips[0] if s.trips else None
    if role == "pair":
        return s.pairs[0] if s.pairs else None
    return s.pairs[1] if len(s.pairs) > 1 else None


class Action(NamedTuple):
    """What a clause does: which ranks go low, and what the high hand must be."""

    low: str | tuple[str, str]
    high_straight_or_flush: bool = False
    best_of: tuple[Action, ...] = ()

    def low_ranks(self, s: Shape) -> tuple[int, int] | None:
        """The ranks of the two low cards, or None for `best` or when the shape lacks them."""
        low = self.low
        if low == "second-and-third-singles":
            return (s.singles[1], s.singles[2]) if len(s.singles) >= 3 else None
        if low == "highest-singles":
            return (s.singles[0], s.singles[1]) if len(s.singles) >= 2 else None
        if isinstance(low, str):  # "best": no fixed ranks
            return None
        kind, which = low
        if kind == "pair":
            if not s.pairs:
                return None
            r = s.pairs[0] if which == "highest" else s.pairs[-1]
            return (r, r)
        if kind == "pair_from":
            groups = {"quads": s.quads, "trips": s.trips[0] if s.trips else None}
            found = groups.get(which, s.five)
            return None if found is None else (found, found)
        # one_from trips, plus the highest single
        if not s.trips or not s.singles:
            return None
        return (max(s.trips[0], s.singles[0]), min(s.trips[0], s.singles[0]))


class Clause(NamedTuple):
    """One numbered clause of a House Way, in the document's words."""

    id: str
    says: str
    when: Condition
    action: Action


class HouseWay(NamedTuple):
    """A named, versioned House Way document, with where it was read from (`origin`: a shipped
    way's name, or the file's path) and the SHA-256 of its text, which every ruling that sets a
    hand by it records (`house_way_source`, `house_way_sha256`)."""

    name: str
    version: str
    title: str
    source: str
    clauses: tuple[Clause, ...]
    origin: str = ""
    sha256: str = ""


class Setting(NamedTuple):
    """Seven cards set as a five-card high hand and a two-card low hand, and why."""

    high: tuple[Card, ...]
    low: tuple[Card, ...]
    house_way: str
    version: str
    clause: str
    says: str

    @property
    def rule(self) -> str:
        """The deciding clause as a supervisor reads it out."""
        return f"{self.house_way} v{self.version} §{self.clause}: {self.says}"

    def explanation(self) -> list[str]:
        """Lines for a person: the clause, then the hands."""
        return [self.rule, f"high: {symbols(self.high)}", f"low: {symbols(self.low)}"]


# --- setting seven cards --------------------------------------------------------------------
#
# A way is compiled once, lazily, into a plan (`_Plan`): its clauses by pattern; which clauses
# hold, memoised by what a condition can ask of the shape (pattern, straight or flush, the
# ranks of the groups, the singles a condition names); and, by the seven ranks (the joker as
# an ace) and whether the joker is among them, the steps that may decide the hand with the
# ranks each action sends low. A hand then costs its rank key, one dictionary look-up, its
# suits only where a flush would change the clause, and a choice of cards only where the
# ranks leave one (which of three aces goes low, the best two cards that leave a straight or
# flush high). There are fewer than 100,000 rank keys, so a plan stays a few megabytes.


class _Option(NamedTuple):
    """One way to carry out an action for some ranks: the ranks that go low (None: the best
    two cards), and whether the high hand must be a straight, flush or straight flush."""

    target: tuple[int, int] | None
    high_straight_or_flush: bool


class _Step(NamedTuple):
    """A clause whose condition holds, and its action's options for the ranks (two or more
    for best_of: the better low hand, ties the first)."""

    clause: Clause
    options: tuple[_Option, ...]


class _Entry(NamedTuple):
    """The steps for one rank key; whether a flush would change them (the ranks hold no
    straight and some clause asks for a straight or flush); the steps with a flush, once a
    hand has needed them."""

    plain: tuple[_Step, ...]
    asks_suits: bool
    with_flush: tuple[_Step, ...] | None = None


def _options(action: Action, s: Shape) -> tuple[_Option, ...]:
    """The options of `action` the ranks allow (best_of nested or not: the better low hand of
    all, ties the first, is the same)."""
    if action.best_of:
        return tuple(o for option in action.best_of for o in _options(option, s))
    target = action.low_ranks(s)
    if target is None and action.low != "best":
        return ()
    return (_Option(target, action.high_straight_or_flush),)


class _Plan:
    """A way compiled for speed: its clauses by pattern, and the steps found so far by rank
    key (seven ranks low to high, the joker as an ace; whether the joker is among them)."""

    def __init__(self, way: HouseWay) -> None:
        self.way = way
        by_pattern: dict[str, list[Clause]] = {p: [] for p in PATTERNS}
        for clause in way.clauses:
            for pattern in clause.when.patterns:
                by_pattern[pattern].append(clause)
        self.by_pattern = {p: tuple(c) for p, c in by_pattern.items()}
        self.asks_straight_or_flush = frozenset(
            p
            for p, cs in by_pattern.items()
            if any(c.when.straight_or_flush is not None for c in cs)
        )
        self.watched = frozenset().union(
            *(c.when.can_go_low | c.when.can_go_low_all for c in way.clauses)
        )
        self.entries: tuple[dict[tuple[int, ...], _Entry], ...] = ({}, {})
        """Without and with the joker."""
        self.holding: dict[tuple[object, ...], tuple[Clause, ...]] = {}

    def steps(self, s: Shape) -> tuple[_Step, ...]:
        """The clauses that may decide a hand of shape `s`, in order, up to the first that is
        always carried out (fixed ranks low, no straight or flush demanded)."""
        named = tuple(r for r in s.singles if r in self.watched)
        what = (s.pattern, s.straight_or_flush, s.quads, s.trips[:1], s.pairs[:2], named)
        holding = self.holding.get(what)
        if holding is None:  # what a condition can ask of the shape
            holding = tuple(c for c in self.by_pattern[s.pattern] if c.when.holds(s))
            self.holding[what] = holding
        steps = []
        for clause in holding:
            options = _options(clause.action, s)
            if not options:
                continue
            steps.append(_Step(clause, options))
            first = options[0]
            if len(options) == 1 and first.target is not None and not first.high_straight_or_flush:
                break
        return tuple(steps)

    def entry(self, key: tuple[int, ...], joker: bool) -> _Entry:
        """The steps for a rank key, found once."""
        mask = 0
        for r in key[:-1] if joker else key:  # the joker: the last of the aces
            mask |= 1 << (r - 1)
        straight = _straight(mask, joker)
        s = shape_of(key, straight)
        asks = not straight and s.pattern in self.asks_straight_or_flush
        entry = self.entries[joker][key] = _Entry(self.steps(s), asks)
        return entry

    def with_flush(self, key: tuple[int, ...], joker: bool) -> tuple[_Step, ...]:
        """The steps for a rank key whose cards make a flush, found once."""
        entry = self.entries[joker][key]
        if entry.with_flush is not None:
            return entry.with_flush
        steps = self.steps(shape_of(key, True))
        self.entries[joker][key] = entry._replace(with_flush=steps)
        return steps


_PLANS: dict[int, _Plan] = {}
"""Each way's plan, by the way's identity (a way is a tuple of clauses: hashing it per hand
would cost more than the plan saves)."""


def _plan(way: HouseWay) -> _Plan:
    found = _PLANS.get(id(way))
    if found is not None and found.way is way:
        return found
    if len(_PLANS) >= 8:  # ways read from files one after another: keep the memory bounded
        _PLANS.clear()
    plan = _PLANS[id(way)] = _Plan(way)
    return plan


def _straight(mask: int, jokers: int) -> bool:
    """Whether natural ranks (rank r as bit r - 1), with `jokers` (0 or 1) filling a gap, hold
    a straight: five bits in a row, or four of five with the joker (the ace also plays low)."""
    m = mask | mask >> 13
    if not jokers:
        return bool(m & m >> 1 & m >> 2 & m >> 3 & m >> 4)
    two = m & m >> 1
    return bool(two & m >> 2 & (m >> 3 | m >> 4) | m & m >> 3 & m >> 4 & (m >> 1 | m >> 2))


_HIGH_OF: dict[tuple[int, int], tuple[int, ...]] = {low: high for high, low in SPLITS}
_ORDER = attrgetter("rank", "suit")
"""Sort key of a card: the order of `Card` (rank, then suit), without a Python-level compare."""


def _tie_order(low: Sequence[Card]) -> tuple[int, ...]:
    """Prefer lower suits low (the joker, index 52, stays high)."""
    return tuple(sorted(-c.index for c in low))


def _pick(option: _Option, cards: Sequence[Card], ranks: list[int]) -> tuple[int, int] | None:
    """The indices of the low hand for one option, or None if it cannot be carried out."""
    target, need_sf = option
    if target is None:
        return _best_low(need_sf, cards, ranks)
    top, second = target
    if not need_sf:  # mostly one card of each rank, or the only two of a pair
        if top != second and ranks.count(top) == 1 and ranks.count(second) == 1:
            a, b = ranks.index(top), ranks.index(second)
            return (a, b) if a < b else (b, a)
        if top == second and ranks.count(top) == 2:
            a = ranks.index(top)
            return (a, ranks.index(top, a + 1))
    tops = [i for i in range(7) if ranks[i] == top]
    if top == second:
        candidates = list(combinations(tops, 2))
    else:
        seconds = [i for i in range(7) if ranks[i] == second]
        candidates = [(a, b) if a < b else (b, a) for a in tops for b in seconds]
    return _best_high(candidates, need_sf, cards)


def _best_high(
    candidates: Sequence[tuple[int, int]], need_sf: bool, cards: Sequence[Card]
) -> tuple[int, int] | None:
    """Of the candidate low hands, the one leaving the best high hand (a straight or flush if
    `need_sf`), then the joker and the higher suits high; None if none qualifies."""
    if need_sf:
        candidates = list(filter(_straight_or_flush_high(cards), candidates))
    chosen: tuple[tuple[Key, tuple[int, ...]], tuple[int, int]] | None = None
    for a, b in candidates:
        hkey = high_key([cards[i] for i in _HIGH_OF[a, b]])
        score = (hkey, _tie_order((cards[a], cards[b])))
        if chosen is None or score > chosen[0]:
            chosen = (score, (a, b))
    return None if chosen is None else chosen[1]


def _best_low(need_sf: bool, cards: Sequence[Card], ranks: list[int]) -> tuple[int, int] | None:
    """The best two cards low (then as `_best_high`): the splits are tried by the low hand's
    value, best first, and a high hand is valued only when its ranks and suits make it a
    straight or flush (or none is needed)."""
    makes = _straight_or_flush_high(cards)
    values = sorted(
        (
            (
                256 + ranks[a]  # a pair, above every two ranks
                if ranks[a] == ranks[b]
                else ranks[a] * 16 + ranks[b]
                if ranks[a] > ranks[b]
                else ranks[b] * 16 + ranks[a],
                (a, b),
            )
            for a, b in _HIGH_OF
        ),
        reverse=True,
    )
    group: list[tuple[int, int]] = []
    best = 0
    for value, low in values:
        if group and value != best:
            break
        if not need_sf or makes(low):
            best = value
            group.append(low)
    return _best_high(group, False, cards) if group else None


def _straight_or_flush_high(cards: Sequence[Card]) -> Callable[[tuple[int, int]], bool]:
    """A test of a low hand (two indices): whether the other five cards are a straight or a
    flush (the joker completes one), from rank bits and suits, without valuing the hand."""
    suits = [c.suit for c in cards]
    jokers = int(JOKER_SUIT in suits)
    counts = [suits.count(s) for s in range(4)]
    most = max(counts)
    flush_suit = counts.index(most)
    # a flush is high when no card of another suit is: only one suit can hold four of seven
    off = {i for i in range(7) if suits[i] not in (flush_suit, JOKER_SUIT)}
    flush = most + jokers >= 5 and len(off) <= 2
    bits = [0 if c.suit == JOKER_SUIT else 1 << (c.rank - 1) for c in cards]
    straight = _straight(sum(set(bits)), jokers)

    def test(low: tuple[int, int]) -> bool:
        if flush and off.issubset(low):
            return True
        if not straight:
            return False
        mask = naturals = 0
        for i in _HIGH_OF[low]:
            if bits[i]:
                mask |= bits[i]
                naturals += 1
        return mask.bit_count() == naturals and _straight(mask, 5 - naturals)

    return test


def _carry_out(step: _Step, cards: Sequence[Card], ranks: list[int]) -> tuple[int, int] | None:
    """The indices of the low hand for the step's action, or None if it cannot be carried out."""
    if len(step.options) == 1:
        return _pick(step.options[0], cards, ranks)
    best: tuple[Key, tuple[int, int]] | None = None
    for option in step.options:
        picked = _pick(option, cards, ranks)
        if picked is not None:
            key = low_key((cards[picked[0]], cards[picked[1]]))
            if best is None or key > best[0]:
                best = (key, picked)
    return None if best is None else best[1]


def _fouls(high: Sequence[Card], low: Sequence[Card]) -> bool:
    """`is_foul` of the two hands (each high to low), decided from the ranks where they settle
    it: a straight or flush only raises the high hand, so the ranks' value is a floor."""
    hr = [c.rank for c in high]
    kinds = len(set(hr))
    top, second = low[0].rank, low[1].rank
    if top != second:
        if kinds < 5 or (hr[0], hr[1]) >= (top, second):
            return False
    elif kinds <= 3 or (kinds == 4 and max(r for r in hr if hr.count(r) == 2) > top):
        return False
    return is_foul(high_key(high), low_key(low))


def set_hand(cards: Sequence[Card], way: HouseWay) -> Setting:
    """Set seven cards by the House Way. Raises HouseWayError if no clause can set them or the
    deciding clause would foul (a defect of the document, never shown as a ruling)."""
    if len(cards) != 7:
        raise HouseWayError(f"the House Way sets seven cards, got {len(cards)}")
    ranks = [c.rank for c in cards]
    suits = [c.suit for c in cards]
    joker = JOKER_SUIT in suits
    key = tuple(sorted(ranks))
    plan = _plan(way)
    entry = plan.entries[joker].get(key) or plan.entry(key, joker)
    steps = entry.plain
    if entry.asks_suits and max(map(suits.count, (0, 1, 2, 3))) + joker >= 5:
        steps = entry.with_flush or plan.with_flush(key, joker)
    for step in steps:
        low_idx = _carry_out(step, cards, ranks)
        if low_idx is None:
            continue
        a, b = low_idx
        ca, cb = cards[a], cards[b]
        low = (ca, cb) if (ca.rank, ca.suit) > (cb.rank, cb.suit) else (cb, ca)
        high = [cards[i] for i in _HIGH_OF[low_idx]]
        high.sort(key=_ORDER, reverse=True)
        clause = step.clause
        if _fouls(high, low):
            raise HouseWayError(
                f"House Way {way.name} v{way.version} §{clause.id} fouls {symbols(cards)}"
            )
        return Setting(tuple(high), low, way.name, way.version, clause.id, clause.says)
    raise HouseWayError(f"House Way {way.name} v{way.version} has no clause for {symbols(cards)}")


# --- reading House Way documents -------------------------------------------------------------

SHIPPED = ("trump-plaza", "foxwoods")
_CLAUSE_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,31}")
_ID_RULE = "letters, digits and . _ - (up to 32), e.g. 3a"
NAME_LIMIT = 100
"""The most characters of a way's name, version or title."""


class _Reader:
    """Validates one House Way document, naming the file and the place of any problem."""

    def __init__(self, origin: str) -> None:
        self.origin = origin

    def fail(self, where: str, problem: str) -> ConfigError:
        return ConfigError(f"House Way {self.origin}: {where}: {problem}")

    def ranks(self, value: Any, where: str, groups: Mapping[str, frozenset[int]]) -> frozenset[int]:
        items = value if isinstance(value, list) else [value]
        out: set[int] = set()
        for item in items:
            word = item.upper() if isinstance(item, str) else ""
            if word in groups:
                out |= groups[word]
            elif word in RANK_SYMBOLS:
                out.add(RANK_SYMBOLS[word])
            else:
                try:  # in decimal, as written (`010` is not a rank)
                    out.add(whole_number(item, "rank", least=2, most=10))
                except DealerError:
                    raise self.fail(
                        where, f"{quoted(item)} is not a rank (2-10, J, Q, K, A) or rank group"
                    ) from None
        return frozenset(out)

    def condition(self, raw: Any, where: str, groups: Mapping[str, frozenset[int]]) -> Condition:
        if not isinstance(raw, dict):
            raise self.fail(where, "'when' must be a mapping")
        unknown = set(raw) - {
            "pattern",
            "straight_or_flush",
            "with",
            "ranks",
            "can_go_low",
            "can_go_low_all",
        }
        if unknown:
            raise self.fail(where, f"unknown condition {sorted(unknown)[0]!r}")
        pats = raw.get("pattern")
        pats = pats if isinstance(pats, list) else [pats]
        for p in pats:
            if p not in PATTERNS:
                raise self.fail(where, f"pattern {p!r} is not one of {', '.join(PATTERNS)}")
        sf = raw.get("straight_or_flush")
        if sf is not None and not isinstance(sf, bool):
            raise self.fail(where, "straight_or_flush must be true or false")
        with_ = raw.get("with")
        if with_ is not None and with_ not in ("pair", "trips", "singles"):
            raise self.fail(where, f"with {with_!r} is not pair, trips or singles")
        ranks_raw = raw.get("ranks", {})
        if not isinstance(ranks_raw, dict):
            raise self.fail(where, "ranks must be a mapping of role to ranks")
        ranks = []
        for role, value in ranks_raw.items():
            if role not in ROLES:
                raise self.fail(where, f"rank role {role!r} is not one of {', '.join(ROLES)}")
            ranks.append((role, self.ranks(value, f"{where} ranks.{role}", groups)))
        return Condition(
            frozenset(pats),
            sf,
            with_,
            tuple(ranks),
            self.ranks(raw.get("can_go_low", []), f"{where} can_go_low", groups),
            self.ranks(raw.get("can_go_low_all", []), f"{where} can_go_low_all", groups),
        )

    def action(self, raw: Any, where: str) -> Action:
        if not isinstance(raw, dict):
            raise self.fail(where, "an action must be a mapping")
        if "best_of" in raw:
            options = raw["best_of"]
            if not isinstance(options, list) or len(options) < 2:
                raise self.fail(where, "best_of must list two or more actions")
            parts = tuple(self.action(o, f"{where} best_of[{i}]") for i, o in enumerate(options))
            return Action("best", best_of=parts)
        if "low" not in raw:
            raise self.fail(where, "missing 'low'")
        high = raw.get("high")
        if high not in (None, "straight-or-flush", "any"):
            raise self.fail(where, f"high {high!r} is not straight-or-flush or any")
        low = raw["low"]
        simple = ("second-and-third-singles", "highest-singles", "best")
        if isinstance(low, str):
            if low not in simple:
                raise self.fail(where, f"low {low!r} is not one of {', '.join(simple)}")
            parsed: str | tuple[str, str] = low
        elif isinstance(low, dict) and len(low) in (1, 2):
            kind = next(iter(low))
            allowed = {
                "pair": ("highest", "lowest"),
                "pair_from": ("quads", "trips", "five-aces"),
                "one_from": ("trips",),
            }
            if kind not in allowed or low[kind] not in allowed[kind]:
                raise self.fail(where, f"low {low!r} is not a known selection")
            if kind == "one_from" and low.get("plus") != "highest-single":
                raise self.fail(where, "one_from needs 'plus: highest-single'")
            parsed = (kind, low[kind])
        else:
            raise self.fail(where, f"low {low!r} is not a known selection")
        if parsed == "best" and high != "straight-or-flush":
            raise self.fail(where, "low: best needs high: straight-or-flush")
        return Action(parsed, high == "straight-or-flush")

    def way(self, raw: Any) -> HouseWay:
        if not isinstance(raw, dict):
            raise self.fail("top level", "a House Way must be a mapping")
        for field in ("name", "version", "clauses"):
            if field not in raw:
                raise self.fail("top level", f"missing {field!r}")
        groups: dict[str, frozenset[int]] = {}
        rank_groups = raw.get("rank_groups") or {}
        if not isinstance(rank_groups, dict):
            raise self.fail("rank_groups", "must be a mapping of a name to ranks")
        for gname, granks in rank_groups.items():
            if not _CLAUSE_ID.fullmatch(gname):
                raise self.fail("rank_groups", f"{quoted(gname)} is not a name: {_ID_RULE}")
            groups[gname.upper()] = self.ranks(granks, f"rank_groups.{gname}", {})
        if not isinstance(raw["clauses"], list) or not raw["clauses"]:
            raise self.fail("clauses", "must be a non-empty list")
        clauses: list[Clause] = []
        for i, c in enumerate(raw["clauses"]):
            where = f"clauses[{i}]"
            if not isinstance(c, dict):
                raise self.fail(where, "a clause must be a mapping")
            for field in ("id", "says", "when"):
                if field not in c:
                    raise self.fail(where, f"missing {field!r}")
            if not isinstance(c["id"], str) or not _CLAUSE_ID.fullmatch(c["id"]):
                raise self.fail(where, f"id {quoted(c['id'])} is not a clause id: {_ID_RULE}")
            where = f"clause {c['id']}"
            body = {k: v for k, v in c.items() if k in ("low", "high", "best_of")}
            clause = Clause(
                c["id"],
                self.shown(c["says"], f"{where} says", TEXT_LIMIT),
                self.condition(c["when"], where, groups),
                self.action(body, where),
            )
            self.cited_once(clause, clauses, where)
            clauses.append(clause)
        try:
            named = document_name(raw["name"], "name", limit=NAME_LIMIT)
        except DealerError as exc:
            raise ConfigError(f"House Way {self.origin}: {exc}") from None
        return HouseWay(
            named,
            self.shown(raw["version"], "version", NAME_LIMIT),
            self.shown(raw.get("title", named), "title", NAME_LIMIT),
            "" if raw.get("source") is None else self.shown(raw["source"], "source", TEXT_LIMIT),
            tuple(clauses),
        )

    def shown(self, value: Any, where: str, limit: int) -> str:
        """A text the way shows (on the terminal, in every ruling it decides): one line without
        control characters, at most `limit` characters (`dealer.inputs.text`)."""
        try:
            return text(value, where, limit=limit)
        except DealerError as exc:
            raise ConfigError(f"House Way {self.origin}: {exc}") from None

    def cited_once(self, clause: Clause, before: Sequence[Clause], where: str) -> None:
        """A ruling cites a clause by its id and its words: the clauses of one id are the
        branches of one published clause, written one after another, each in words of its own;
        an id that comes back after another's, or one clause's citation twice, is refused."""
        for earlier in before:
            if earlier.id != clause.id:
                continue
            if earlier.says == clause.says:
                raise self.fail(
                    where, "says what an earlier clause of this id says: two clauses one citation"
                )
            if before[-1].id != clause.id:
                raise self.fail(
                    where,
                    f"the id {clause.id} is already used by an earlier clause, not the one "
                    "just before: the branches of one clause are written one after another",
                )


def parse_house_way(source: str, origin: str) -> HouseWay:
    """Parse and validate a House Way document (`origin` names it in errors and is kept as the
    way's origin), with the SHA-256 of `source`."""
    way = _Reader(origin).way(document(source, f"House Way {origin}"))
    return way._replace(origin=origin, sha256=sha256_hex(source))


@cache
def _shipped_way(name: str) -> HouseWay:
    shipped = Path(__file__).parent / "house_ways" / f"{name}.yaml"
    way = parse_house_way(shipped.read_text(encoding="utf-8"), f"{name}.yaml")
    return way._replace(origin=name)


def load_house_way(name_or_path: str) -> HouseWay:
    """A shipped House Way by name (`trump-plaza`, `foxwoods`; read once), or a property's own
    file, read each time it is named: a file edited since is never served as it was (its
    SHA-256 is what a supervisor approves, `dealer.audit.approvals`)."""
    if name_or_path in SHIPPED:
        return _shipped_way(name_or_path)
    path = Path(name_or_path)
    if not path.exists():
        raise ConfigError(
            f"unknown House Way {name_or_path!r}: shipped ways are {', '.join(SHIPPED)}, "
            "or give the path of a House Way file"
        )
    from dealer.inputs import text_file  # a property's own file only

    way = parse_house_way(text_file(path, "House Way file"), str(path))
    if way.name in SHIPPED and _content(way) != _content(_shipped_way(way.name)):
        raise ConfigError(
            f"House Way {path}: it is named {way.name}, a shipped way's name, with other content "
            f"than the shipped {way.name}: give the property's way a name of its own"
        )
    return way


def _content(way: HouseWay) -> tuple[object, ...]:
    """What a way says: its name, version, title, source and clauses (not where it was read
    from, nor its text's layout and comments)."""
    return (way.name, way.version, way.title, way.source, way.clauses)
