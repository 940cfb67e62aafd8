"""Exact seven-card event counts: published full-deck figures, and exhaustive brute force over
small decks with a slow, obvious per-hand classifier written here from the rules' words."""

from __future__ import annotations

import csv
from collections import Counter
from collections.abc import Iterable
from functools import cache
from itertools import combinations
from math import comb
from pathlib import Path
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from dealer.analysis.exact import (
    FULL_DECK,
    PAYTABLE_ORDER,
    POKER_ORDER,
    DeckComposition,
    clear_cache,
    count_deck_events,
    count_events,
    event_order,
)
from dealer.kernel.errors import DealerError

DATA = Path(__file__).parent / "data"

# ---------------------------------------------------------------------------------------------
# The slow classifier. A card is (rank 2-14, suit 0-3); the joker is (14, 4).

JOKER = (14, 4)
ALL_CARDS = [(r, s) for r in range(2, 15) for s in range(4)]
BLACK, RED = {0, 3}, {1, 2}
COMPLETIONS = {"royal-flush", "straight-flush", "flush", "straight"}
PAI_GOW_NAMES = {
    9: "9-high-pai-gow",
    10: "10-high-pai-gow",
    11: "jack-high-pai-gow",
    12: "queen-high-pai-gow",
    13: "king-high-pai-gow",
    14: "ace-high-pai-gow",
}


def natural_category(cards: Iterable[tuple[int, int | None]]) -> str:
    """Poker category of five cards without a joker (suit None: the joker read as an ace)."""
    cards = list(cards)
    ranks = sorted(r for r, _ in cards)
    counts = sorted(Counter(ranks).values(), reverse=True)
    suits = {s for _, s in cards}
    flush = len(suits) == 1 and None not in suits
    straight = len(set(ranks)) == 5 and (ranks[4] - ranks[0] == 4 or ranks == [2, 3, 4, 5, 14])
    if counts[0] == 5:
        return "five-aces"
    if straight and flush:
        return "royal-flush" if ranks[0] == 10 else "straight-flush"
    if counts[0] == 4:
        return "four-of-a-kind"
    if counts[:2] == [3, 2]:
        return "full-house"
    if flush:
        return "flush"
    if straight:
        return "straight"
    if counts[0] == 3:
        return "three-of-a-kind"
    if counts[0] == 2:
        return "pair"
    return "high-card"


@cache
def readings(five: frozenset[tuple[int, int]]) -> frozenset[str]:
    """Every category five cards can be read as: the joker is an ace, or any card that makes
    a straight, flush or straight flush."""
    naturals = [c for c in five if c != JOKER]
    if len(naturals) == 5:
        return frozenset({natural_category(naturals)})
    found = {natural_category([*naturals, (14, None)])}
    for card in ALL_CARDS:
        if card not in naturals:
            category = natural_category([*naturals, card])
            if category in COMPLETIONS:
                found.add(category)
    return frozenset(found)


def is_seven_straight_flush(cards: list[tuple[int, int]]) -> bool:
    """Seven natural cards of one suit in sequence (the ace high or low)."""
    if len({s for _, s in cards}) != 1:
        return False
    ranks = sorted(r for r, _ in cards)
    return ranks == list(range(ranks[0], ranks[0] + 7)) or ranks == [2, 3, 4, 5, 6, 7, 14]


def brute_events(hand: tuple[tuple[int, int], ...]) -> set[str]:
    """Every event seven cards hold, found the slow way."""
    naturals = [c for c in hand if c != JOKER]
    joker = len(naturals) == 6
    seen: set[str] = set()
    for five in combinations(hand, 5):
        seen |= readings(frozenset(five))
    present = seen - {"pair", "high-card"}
    if not joker and is_seven_straight_flush(naturals):
        present.add("seven-card-straight-flush")
    if joker and any(
        card not in naturals and is_seven_straight_flush([*naturals, card]) for card in ALL_CARDS
    ):
        present.add("seven-card-straight-flush-with-joker")
    for suit in range(4):
        if (14, suit) in hand and (13, suit) in hand:
            rest = frozenset(c for c in hand if c not in {(14, suit), (13, suit)})
            if "royal-flush" in readings(rest):
                present.add("royal-flush-with-suited-ak")
    by_rank = Counter(14 if c == JOKER else c[0] for c in hand)
    if sum(1 for n in by_rank.values() if n >= 2) >= 3:
        present.add("three-pair")
    if seen == {"high-card"}:
        high = PAI_GOW_NAMES.get(max(by_rank), f"{max(by_rank)}-high-pai-gow")
        if high == "9-high-pai-gow":
            suits = {s for _, s in hand}
            high += "-one-color" if suits <= BLACK or suits <= RED else "-two-tone"
        present.add(high)
    return present


def highest(present: set[str], order: tuple[str, ...]) -> str:
    """The highest of `present` in `order`, or "nothing"."""
    return next((e for e in order if e in present), "nothing")


def brute_event(hand: tuple[tuple[int, int], ...], order: tuple[str, ...]) -> str:
    """The highest event of seven cards in `order`."""
    return highest(brute_events(hand), order)


def deck_cards(deck: DeckComposition) -> list[tuple[int, int]]:
    """The cards of a (small) deck."""
    return [(r, s) for r in deck.ranks for s in deck.suits] + ([JOKER] if deck.joker else [])


@cache
def brute_counts(deck: DeckComposition) -> dict[str, dict[str, int]]:
    """Every seven-card hand of `deck` classified one by one, in each order."""
    tallies = {order: Counter[str]() for order in ("paytable", "poker")}
    for hand in combinations(deck_cards(deck), 7):
        present = brute_events(hand)
        for order, tally in tallies.items():
            tally[highest(present, event_order(order))] += 1
    return {
        order: {e: tally[e] for e in event_order(order)} | dict(tally)
        for order, tally in tallies.items()
    }


# ---------------------------------------------------------------------------------------------
# The classifier itself, on hands whose event the rules name outright.

CLASSIFIER_CASES = [
    ("9h Th Jh Qh Kh Ah 8h", "seven-card-straight-flush"),
    ("Ac 2c 3c 4c 5c 6c 7c", "seven-card-straight-flush"),
    ("JK Kh Qh Jh Th As Ks", "royal-flush-with-suited-ak"),
    ("Ah Kh Qh Jh Th Ad Kd", "royal-flush-with-suited-ak"),
    ("Ah Kh Qh Jh Th Ad Kc", "royal-flush"),
    ("JK Kh Qh Jh Th 9h 8h", "seven-card-straight-flush-with-joker"),
    ("JK 2d 3d 4d 6d 7d 8d", "seven-card-straight-flush-with-joker"),
    ("Ac Ad Ah As JK 2c 3d", "five-aces"),
    ("Ac Ad Ah JK 2c 2d 3d", "four-of-a-kind"),
    ("As Ks Qs Js JK Ah Ad", "royal-flush"),
    ("Ac 2c 3c 4c JK Kd Qh", "straight-flush"),
    ("Ac Ad JK Kc Kd 2h 5s", "full-house"),
    ("Ah Kh JK Jh 2h 5c 5d", "flush"),
    ("Ac Ad JK Kc Qd Jh Ts", "three-of-a-kind"),
    ("Ac Ad JK 2d 3h 4s 9c", "three-of-a-kind"),
    ("Ac JK 2d 3h 4s 9c 9d", "straight"),
    ("Ac 2d 3h 4s 5c 9c 9d", "straight"),
    ("Ac JK 2d 2h 4s 4c 9d", "three-pair"),
    ("JK Kd Qh 9s 7c 4d 2h", "ace-high-pai-gow"),
    ("Kd Qh Ts 8c 6d 4h 2s", "king-high-pai-gow"),
    ("9c 8s 7c 5s 4c 3s 2c", "9-high-pai-gow-one-color"),
    ("9c 8h 7c 5s 4c 3s 2c", "9-high-pai-gow-two-tone"),
    ("JK Qd Jh Ts 8c 2d 3h", "straight"),
    ("Ac Ad 2c 3d 4h 6s 8c", "nothing"),
]


def parse(text: str) -> tuple[tuple[int, int], ...]:
    """Cards as the classifier holds them, from canonical notation."""
    cards = []
    for token in text.split():
        cards.append(
            JOKER
            if token == "JK"
            else ("23456789TJQKA".index(token[0]) + 2, "cdhs".index(token[1]))
        )
    return tuple(cards)


@pytest.mark.parametrize(("text", "event"), CLASSIFIER_CASES)
def test_brute_classifier(text: str, event: str) -> None:
    assert brute_event(parse(text), PAYTABLE_ORDER) == event


def test_brute_classifier_poker_order_puts_the_straight_first() -> None:
    assert brute_event(parse("Ac Ad JK 2d 3h 4s 9c"), POKER_ORDER) == "straight"


# ---------------------------------------------------------------------------------------------
# The counter against the brute force.

SMALL_DECKS = [
    # four suits: quads, five aces, full houses, royals with and without a suited A-K
    DeckComposition(ranks=(10, 11, 12, 13, 14), suits=(0, 1, 2, 3), joker=True),
    # the wheel, seven-card straight flushes, 9-high pai gows all of one colour (clubs, spades)
    DeckComposition(ranks=(14, 2, 3, 4, 5, 6, 7, 8, 9), suits=(0, 3), joker=True),
    # 9-high pai gows that are two-tone only (clubs, hearts)
    DeckComposition(ranks=(2, 3, 4, 5, 6, 7, 8, 9), suits=(0, 2), joker=True),
    # 9-high pai gows of both kinds (clubs, hearts, spades), no joker
    DeckComposition(ranks=(2, 3, 4, 5, 7, 8, 9), suits=(0, 2, 3), joker=False),
    # 10-, jack-, queen- and king-high pai gows (diamonds, hearts), no joker
    DeckComposition(ranks=(2, 3, 4, 6, 7, 9, 10, 11, 12, 13), suits=(1, 2), joker=False),
]


@pytest.mark.slow
@pytest.mark.parametrize("deck", SMALL_DECKS, ids=lambda d: f"{len(d.ranks)}x{len(d.suits)}")
@pytest.mark.parametrize("order", ["paytable", "poker"])
def test_small_deck_matches_brute_force(deck: DeckComposition, order: str) -> None:
    assert count_deck_events(deck, order) == brute_counts(deck)[order]


def test_small_decks_reach_every_event() -> None:
    reached = {e for deck in SMALL_DECKS for e, n in count_deck_events(deck).items() if n}
    assert reached == set(PAYTABLE_ORDER)


@pytest.mark.slow
@settings(max_examples=25, deadline=None)
@given(
    ranks=st.sets(st.integers(2, 14), min_size=2, max_size=13),
    suits=st.sets(st.integers(0, 3), min_size=1, max_size=4),
    joker=st.booleans(),
)
def test_any_small_deck_matches_brute_force(ranks: set[int], suits: set[int], joker: bool) -> None:
    size = len(ranks) * len(suits) + joker
    assume(7 <= size <= 14)
    deck = DeckComposition(ranks=tuple(sorted(ranks)), suits=tuple(sorted(suits)), joker=joker)
    assert count_deck_events(deck, "poker") == brute_counts(deck)["poker"]
    assert sum(count_deck_events(deck).values()) == comb(size, 7)


@pytest.mark.slow
def test_no_pai_gow_below_9_high() -> None:
    deck = DeckComposition(ranks=(2, 3, 4, 5, 6, 7, 8), suits=(0, 1), joker=True)
    brute = brute_counts(deck)["paytable"]
    assert set(brute) == set(PAYTABLE_ORDER)
    assert all(n == 0 for e, n in count_deck_events(deck).items() if "pai-gow" in e)


# ---------------------------------------------------------------------------------------------
# The full 53-card deck against the published figures.


def published() -> list[tuple[list[str], int, int]]:
    """Rows of tests/data/exact_published.tsv: (event ids, pay-table count, poker count)."""
    with (DATA / "exact_published.tsv").open() as f:
        rows = csv.DictReader((line for line in f if not line.startswith("#")), delimiter="\t")
        return [(r["events"].split(","), int(r["paytable"]), int(r["poker"])) for r in rows]


def test_published_rows_cover_every_event_once() -> None:
    ids = [e for events, _, _ in published() for e in events]
    assert sorted(ids) == sorted(PAYTABLE_ORDER)


@pytest.mark.parametrize("order", ["paytable", "poker"])
def test_full_deck_matches_published_figures(order: str) -> None:
    counts = count_events(order)
    assert list(counts) == list(event_order(order))
    column = 1 if order == "paytable" else 2
    for row in published():
        assert sum(counts[e] for e in row[0]) == row[column], row[0]
    assert sum(counts.values()) == comb(53, 7) == FULL_DECK.hands == 154_143_080


def test_royal_with_suited_ak_counted_by_hand() -> None:
    # natural royal (4 suits) or one with the joker for any of its 5 cards, A-K in 3 other suits
    assert count_events()["royal-flush-with-suited-ak"] == (4 + 4 * 5) * 3


def test_one_color_9_high_counted_by_hand() -> None:
    # ranks 2-3-4-5-7-8-9 or 2-3-4-6-7-8-9; per colour 2**7 suitings, 70 of them split 4-3
    assert count_events()["9-high-pai-gow-one-color"] == 2 * 2 * 70


def test_orders_differ_only_by_trips_against_straight() -> None:
    paytable, poker = count_events("paytable"), count_events("poker")
    moved = poker["straight"] - paytable["straight"]
    assert moved == paytable["three-of-a-kind"] - poker["three-of-a-kind"] == 201_824
    assert {e: n for e, n in paytable.items() if e not in {"straight", "three-of-a-kind"}} == {
        e: n for e, n in poker.items() if e not in {"straight", "three-of-a-kind"}
    }


# ---------------------------------------------------------------------------------------------
# API details.


def test_orders_are_the_brief_orders() -> None:
    assert PAYTABLE_ORDER.index("three-of-a-kind") < PAYTABLE_ORDER.index("straight")
    assert POKER_ORDER.index("straight") < POKER_ORDER.index("three-of-a-kind")
    assert PAYTABLE_ORDER[:4] == (
        "seven-card-straight-flush",
        "royal-flush-with-suited-ak",
        "seven-card-straight-flush-with-joker",
        "five-aces",
    )
    assert PAYTABLE_ORDER[-1] == "nothing"


def test_result_is_a_copy_of_the_cache() -> None:
    first = count_events()
    first["nothing"] = -1
    assert count_events()["nothing"] > 0


def test_progress_reaches_the_total() -> None:
    deck = SMALL_DECKS[0]
    clear_cache()
    calls: list[tuple[int, int]] = []
    count_deck_events(deck, progress=lambda done, total: calls.append((done, total)))
    assert calls and calls[-1][0] == calls[-1][1] > 0
    assert all(a[0] < b[0] for a, b in zip(calls, calls[1:], strict=False))


def test_unknown_order_is_a_domain_error() -> None:
    with pytest.raises(DealerError, match="unknown event order 'bridge'"):
        count_events("bridge")


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"ranks": (2, 2, 3)}, "ranks must be distinct"),
        ({"ranks": (1, 2, 3)}, "ranks must be distinct values 2-14"),
        ({"suits": (0, 4)}, "suits must be distinct values 0-3"),
        ({"ranks": (2, 3), "suits": (0, 1)}, "cannot deal a 7-card hand"),
    ],
)
def test_bad_deck_is_a_domain_error(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(DealerError, match=message):
        DeckComposition(**kwargs)
