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

from collections.abc import Mapping, Sequence
from functools import cache
from itertools import combinations
from pathlib import Path
from typing import Any, NamedTuple

from dealer.games.paigow.ranking import (
    MADE_BY_STRAIGHT_OR_FLUSH,
    Key,
    has_straight_or_flush,
    high_key,
    is_foul,
    low_key,
)
from dealer.kernel.cards import Card, symbols
from dealer.kernel.documents import DocumentSyntaxError, load_yaml
from dealer.kernel.errors import ConfigError, HouseWayError

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


def shape_of(cards: Sequence[Card]) -> Shape:
    """Group seven cards by rank and name the pattern."""
    counts: dict[int, int] = {}
    for c in cards:
        counts[c.rank] = counts.get(c.rank, 0) + 1
    by = sorted(counts, reverse=True)
    five = next((r for r in by if counts[r] == 5), None)
    quads = next((r for r in by if counts[r] == 4), None)
    trips = tuple(r for r in by if counts[r] == 3)
    pairs = tuple(r for r in by if counts[r] == 2)
    singles = tuple(r for r in by if counts[r] == 1)
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
    return Shape(pattern, five, quads, trips, pairs, singles, has_straight_or_flush(cards))


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
    """A named, versioned House Way document."""

    name: str
    version: str
    title: str
    source: str
    clauses: tuple[Clause, ...]


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


def _tie_order(low: Sequence[Card]) -> tuple[int, ...]:
    """Prefer lower suits low (the joker, index 52, stays high)."""
    return tuple(sorted(-c.index for c in low))


def _carry_out(action: Action, cards: Sequence[Card], s: Shape) -> tuple[int, ...] | None:
    """The indices of the low hand for this action, or None if it cannot be carried out."""
    if action.best_of:
        best: tuple[Key, tuple[int, ...]] | None = None
        for option in action.best_of:
            picked = _carry_out(option, cards, s)
            if picked is not None:
                key = low_key([cards[i] for i in picked])
                if best is None or key > best[0]:
                    best = (key, picked)
        return None if best is None else best[1]
    target = action.low_ranks(s)
    if target is None and action.low != "best":
        return None
    if target is None:
        candidates = SPLITS
    else:
        r = [c.rank for c in cards]
        candidates = tuple(
            (h, (a, b)) for h, (a, b) in SPLITS if (max(r[a], r[b]), min(r[a], r[b])) == target
        )
    if len(candidates) == 1 and not action.high_straight_or_flush:
        return candidates[0][1]
    chosen: tuple[tuple[Key | tuple[int, ...], ...], tuple[int, int]] | None = None
    for high_idx, (a, b) in candidates:
        low = (cards[a], cards[b])
        hkey = high_key([cards[i] for i in high_idx])
        if action.high_straight_or_flush and hkey[0] not in MADE_BY_STRAIGHT_OR_FLUSH:
            continue
        lead = (low_key(low), hkey) if target is None else (hkey,)
        score = (*lead, _tie_order(low))
        if chosen is None or score > chosen[0]:
            chosen = (score, (a, b))
    return None if chosen is None else chosen[1]


def set_hand(cards: Sequence[Card], way: HouseWay) -> Setting:
    """Set seven cards by the House Way. Raises HouseWayError if no clause can set them or the
    deciding clause would foul (a defect of the document, never shown as a ruling)."""
    if len(cards) != 7:
        raise HouseWayError(f"the House Way sets seven cards, got {len(cards)}")
    s = shape_of(cards)
    for clause in way.clauses:
        if not clause.when.holds(s):
            continue
        low_idx = _carry_out(clause.action, cards, s)
        if low_idx is None:
            continue
        low = tuple(sorted((cards[i] for i in low_idx), reverse=True))
        high = tuple(sorted((c for i, c in enumerate(cards) if i not in low_idx), reverse=True))
        if is_foul(high_key(high), low_key(low)):
            raise HouseWayError(
                f"House Way {way.name} v{way.version} §{clause.id} fouls {symbols(cards)}"
            )
        return Setting(high, low, way.name, way.version, clause.id, clause.says)
    raise HouseWayError(f"House Way {way.name} v{way.version} has no clause for {symbols(cards)}")


# --- reading House Way documents -------------------------------------------------------------

SHIPPED = ("trump-plaza", "foxwoods")


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
            text = str(item).upper()
            if text in groups:
                out |= groups[text]
            elif text in RANK_SYMBOLS:
                out.add(RANK_SYMBOLS[text])
            elif text.isdigit() and 2 <= int(text) <= 10:
                out.add(int(text))
            else:
                raise self.fail(where, f"{item!r} is not a rank (2-10, J, Q, K, A) or rank group")
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
        for gname, granks in (raw.get("rank_groups") or {}).items():
            groups[str(gname).upper()] = self.ranks(granks, f"rank_groups.{gname}", {})
        if not isinstance(raw["clauses"], list) or not raw["clauses"]:
            raise self.fail("clauses", "must be a non-empty list")
        clauses = []
        for i, c in enumerate(raw["clauses"]):
            where = f"clauses[{i}]"
            if not isinstance(c, dict):
                raise self.fail(where, "a clause must be a mapping")
            for field in ("id", "says", "when"):
                if field not in c:
                    raise self.fail(where, f"missing {field!r}")
            where = f"clause {c['id']}"
            body = {k: v for k, v in c.items() if k in ("low", "high", "best_of")}
            clauses.append(
                Clause(
                    str(c["id"]),
                    str(c["says"]).strip(),
                    self.condition(c["when"], where, groups),
                    self.action(body, where),
                )
            )
        return HouseWay(
            str(raw["name"]),
            str(raw["version"]),
            str(raw.get("title", raw["name"])),
            str(raw.get("source", "")),
            tuple(clauses),
        )


def parse_house_way(text: str, origin: str) -> HouseWay:
    """Parse and validate a House Way document (`origin` names it in errors)."""
    try:
        raw = load_yaml(text)
    except DocumentSyntaxError as exc:
        raise ConfigError(f"House Way {origin}: not valid YAML: {exc}") from None
    return _Reader(origin).way(raw)


@cache
def load_house_way(name_or_path: str) -> HouseWay:
    """A shipped House Way by name (`trump-plaza`, `foxwoods`) or a property's own file."""
    if name_or_path in SHIPPED:
        shipped = Path(__file__).parent / "house_ways" / f"{name_or_path}.yaml"
        return parse_house_way(shipped.read_text(encoding="utf-8"), f"{name_or_path}.yaml")
    path = Path(name_or_path)
    if not path.exists():
        raise ConfigError(
            f"unknown House Way {name_or_path!r}: shipped ways are {', '.join(SHIPPED)}, "
            "or give the path of a House Way file"
        )
    from dealer.inputs import text_file  # a property's own file only

    return parse_house_way(text_file(path, "House Way file"), str(path))
