"""The House Way procedure as the documents describe it, hand by hand, kept for the tests only.

`set_hand` here reads every clause for every hand: the shape of the seven cards, each clause's
condition, the 21 splits its action allows and their five-card keys. The engine
(`dealer.games.paigow.house_way.set_hand`) compiles a way into a plan by ranks instead;
tests/test_house_way.py checks that both set every hand alike.
"""

from __future__ import annotations

from collections.abc import Sequence

from dealer.games.paigow.house_way import SPLITS, Action, HouseWay, Setting, Shape, shape_of
from dealer.games.paigow.ranking import (
    MADE_BY_STRAIGHT_OR_FLUSH,
    Key,
    has_straight_or_flush,
    high_key,
    is_foul,
    low_key,
)
from dealer.kernel.cards import Card, symbols
from dealer.kernel.errors import HouseWayError


def _tie_order(low: Sequence[Card]) -> tuple[int, ...]:
    return tuple(sorted(-c.index for c in low))


def _carry_out(action: Action, cards: Sequence[Card], s: Shape) -> tuple[int, ...] | None:
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
    """Set seven cards by reading the way's clauses in order."""
    s = shape_of([c.rank for c in cards], has_straight_or_flush(cards))
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
