"""Exhaustive: every one of the C(53,5) = 2,869,685 five-card hands.

* Hands without the joker: category counts equal the published ones for 2,598,960 hands, and
  (wheels aside, whose place is a table setting) our order agrees with phevaluator, an
  independent evaluator used only as a test oracle.
* Hands with the joker: each of the 270,725 is classified again by an independent, slow
  evaluator written here from RULINGS §1.1 (the joker as an ace, or any card completing a
  straight, flush or straight flush), and the categories must agree hand by hand.
"""

from collections import Counter
from itertools import combinations

import pytest

from dealer.games.paigow.ranking import Category, high_key
from dealer.kernel.cards import DECK

phevaluator = pytest.importorskip("phevaluator")

PUBLISHED_NATURAL = {  # 52-card five-card poker, the standard published counts
    "royal-flush": 4,
    "straight-flush": 36,
    "four-of-a-kind": 624,
    "full-house": 3_744,
    "flush": 5_108,
    "straight": 10_200,
    "three-of-a-kind": 54_912,
    "two-pair": 123_552,
    "one-pair": 1_098_240,
    "high-card": 1_302_540,
}
ORDER = [
    "high-card",
    "one-pair",
    "two-pair",
    "three-of-a-kind",
    "straight",
    "flush",
    "full-house",
    "four-of-a-kind",
    "straight-flush",
    "royal-flush",
    "five-aces",
]


def _plain_category(ranks: list[int], suited: bool) -> str:
    """A textbook evaluator for five natural ranks (independent of dealer's)."""
    shape = sorted(Counter(ranks).values(), reverse=True)
    distinct = sorted(set(ranks))
    straight = len(distinct) == 5 and (
        distinct[-1] - distinct[0] == 4 or distinct == [2, 3, 4, 5, 14]
    )
    if straight and suited:
        return "royal-flush" if distinct[0] == 10 else "straight-flush"
    if shape[0] == 4:
        return "four-of-a-kind"
    if shape[:2] == [3, 2]:
        return "full-house"
    if suited:
        return "flush"
    if straight:
        return "straight"
    if shape[0] == 3:
        return "three-of-a-kind"
    if shape[:2] == [2, 2]:
        return "two-pair"
    return "one-pair" if shape[0] == 2 else "high-card"


def _bug_category(four: tuple) -> str:
    """The joker hand by substitution: an ace (no suit), or any rank that completes a straight,
    flush or straight flush."""
    ranks = [c.rank for c in four]
    if ranks.count(14) == 4:
        return "five-aces"
    best = _plain_category([*ranks, 14], suited=False)
    suited = len({c.suit for c in four}) == 1
    for r in range(2, 15):
        if r in ranks:
            continue
        cat = _plain_category([*ranks, r], suited)
        if cat in ("straight", "flush", "straight-flush", "royal-flush") and (
            ORDER.index(cat) > ORDER.index(best)
        ):
            best = cat
    return best


@pytest.mark.slow
def test_every_five_card_hand() -> None:
    naturals = DECK[:-1]
    names = [str(c) for c in naturals]
    counts: Counter[str] = Counter()
    oracle: dict[tuple[int, ...], int] = {}
    for combo in combinations(range(52), 5):
        cards = [naturals[i] for i in combo]
        key = high_key(cards)
        counts[Category(key[0]).label] += 1
        if key[0] in (Category.STRAIGHT, Category.STRAIGHT_FLUSH) and key[1] == 27:
            continue  # the wheel: its place is the table's setting, not poker's
        ph = phevaluator.evaluate_cards(*[names[i] for i in combo])
        assert oracle.setdefault(key, ph) == ph, f"{names} splits an oracle class"
    assert dict(counts) == PUBLISHED_NATURAL
    ranks_in_our_order = [oracle[k] for k in sorted(oracle)]
    assert all(a > b for a, b in zip(ranks_in_our_order, ranks_in_our_order[1:], strict=False))

    joker = DECK[-1]
    joker_counts: Counter[str] = Counter()
    for four in combinations(naturals, 4):
        ours = Category(high_key([*four, joker])[0]).label
        assert ours == _bug_category(four), f"{[str(c) for c in four]} + JK"
        joker_counts[ours] += 1
    assert sum(joker_counts.values()) == 270_725
    total = counts + joker_counts
    assert sum(total.values()) == 2_869_685
    assert total["five-aces"] == 1
    # The joker makes royal flushes of any four of the five royal cards of a suit: 4 × 5 = 20.
    assert joker_counts["royal-flush"] == 20
