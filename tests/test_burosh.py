"""Burosh challenge hands: categories, wild cards, trump, ties, typed input."""

from __future__ import annotations

import csv
import random
from collections import Counter
from collections.abc import Sequence
from itertools import combinations, product
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dealer.games.burosh.deck import DECK, BuroshCard, Wild, parse_hand, parse_trump
from dealer.games.burosh.ranking import (
    CATEGORIES,
    CATEGORY_BY_NAME,
    TIE_LINE,
    compare,
    explain,
    rank_hand,
)
from dealer.kernel.cards import Card
from dealer.kernel.errors import CardError, DealerError

DATA = Path(__file__).parent / "data"
SPADES = 3


def _rows(name: str) -> list[dict[str, str]]:
    with open(DATA / name, encoding="utf-8") as f:
        lines = [line for line in f if not line.startswith("#")]
    return list(csv.DictReader(lines, delimiter="\t"))


CATEGORY_ROWS = _rows("burosh_categories.tsv")
COMPARE_ROWS = _rows("burosh_compare.tsv")


# --- the category table -------------------------------------------------------------------------


def test_thirty_categories_in_seed_order() -> None:
    names = [c.name for c in CATEGORIES]
    assert len(names) == 30 == len(set(names))
    assert names[:4] == ["emperors-court", "five-of-a-kind", "imperial-flush", "royal-flush"]
    assert names[17] == "trump-short-straight-flush"
    assert names[8] == "high-bastion"
    assert names[-2:] == ["trump", "high-card"]
    assert [c.position for c in CATEGORIES] == list(range(1, 31))


@pytest.mark.parametrize("row", CATEGORY_ROWS, ids=lambda r: f"{r['category']}:{r['hand']}")
def test_category_table(row: dict[str, str]) -> None:
    hand = rank_hand(parse_hand(row["hand"]), parse_trump(row["trump"]))
    result = hand.to_dict()
    assert result["category"] == row["category"]
    assert result["played"] == row["played"].split()
    wilds = dict(w.split("=") for w in row["wilds"].split())
    assert result["wilds"] == {w: (None if p == "-" else p) for w, p in wilds.items()}
    assert hand.key == _brute_best(hand.hand, hand.trump)


def _has_wild_in_category(row: dict[str, str]) -> bool:
    return any(p != "-" for p in (w.split("=")[1] for w in row["wilds"].split()))


def test_every_category_reached_with_and_without_wilds() -> None:
    plain = {r["category"] for r in CATEGORY_ROWS if not r["wilds"]}
    wild = {r["category"] for r in CATEGORY_ROWS if _has_wild_in_category(r)}
    everything = {c.name for c in CATEGORIES}
    assert everything - plain == {"emperors-court", "five-of-a-kind", "four-of-a-kind"}
    assert everything - wild == {"two-pair"}


@pytest.mark.parametrize("rank", range(2, 15))
@pytest.mark.parametrize("trump", range(4))
def test_natural_four_of_a_kind_always_holds_a_trump(rank: int, trump: int) -> None:
    hand = rank_hand(tuple(Card(rank, s) for s in range(4)), trump)
    assert hand.category.name == "trump-four-of-a-kind"


# --- challenges ---------------------------------------------------------------------------------


@pytest.mark.parametrize("row", COMPARE_ROWS, ids=lambda r: r["why"][:50])
def test_compare_table(row: dict[str, str]) -> None:
    hands = [parse_hand(h) for h in row["hands"].split("|")]
    result = compare(hands, parse_trump(row["trump"]))
    winners = [int(w) for w in row["winners"].split(",")]
    assert result.to_dict("tie")["winners"] == winners
    assert len(result.to_dict("tie")["hands"]) == len(hands)
    assert result.tie == (len(winners) > 1)
    assert (TIE_LINE in explain(result)[-1]) == result.tie


def test_seed_emperor_wins_tie_and_says_so() -> None:
    result = compare([parse_hand("Ks Kh"), parse_hand("Kd EM")], SPADES)
    assert result.winners == (1,)
    assert "the Emperor wins" in explain(result)[-1]
    assert result.hands[1].to_dict()["wilds"] == {"EM": "Ks"}


def test_seed_magician_tie_explanation() -> None:
    result = compare([parse_hand("Ts Th"), parse_hand("Td MG")], SPADES)
    last = explain(result)[-1]
    assert "tie: all challenging dice stay" in last
    assert "Magician and the Hermit count as the cards they copy" in last


def test_trump_beats_higher_values_explanation() -> None:
    result = compare([parse_hand("2s 2h 2d"), parse_hand("Jh Jd Jc")], SPADES)
    assert "the same hand with trump wins whatever the values" in explain(result)[-1]


# --- explanations and JSON ----------------------------------------------------------------------


def test_hand_dict_and_explanation() -> None:
    hand = rank_hand(parse_hand("2h 2d EM 9c"), SPADES)
    assert hand.to_dict() == {
        "category": "pair",
        "title": "Pair",
        "position": 28,
        "trump": "s",
        "hand": ["EM", "9c", "2h", "2d"],
        "cards": ["2h", "2d"],
        "played": ["2h", "2d"],
        "wilds": {"EM": None},
        "emperor": False,
    }
    text = "\n".join(hand.explanation())
    assert "Pair of twos (category 28 of 30" in text
    assert "The Emperor is outside the category (ignored)." in text
    assert "ignored (no kickers): 9♣" in text


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("EM As Ks Qs Js", "The Emperor plays as itself, one rank above the ace (trump)."),
        ("HM Kh Qh Jh Th", "The Hermit plays as A♥ (never trump)."),
        ("MG 8s 7s 6s", "The Magician plays as 9♠ (always trump)."),
        ("EM Kd", "The Emperor plays as K♠ (always trump)."),
    ],
)
def test_wild_explanation(text: str, line: str) -> None:
    assert line in rank_hand(parse_hand(text), SPADES).explanation()


# --- typed input --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("As Kd", (Card(14, 3), Card(13, 1))),
        ("as,kd", (Card(14, 3), Card(13, 1))),
        ("AsKd", (Card(14, 3), Card(13, 1))),
        ("A♠ em", (Card(14, 3), Wild.EMPEROR)),
        ("Emperor MAGICIAN hermit", (Wild.EMPEROR, Wild.MAGICIAN, Wild.HERMIT)),
        ("KdEMhm", (Card(13, 1), Wild.EMPEROR, Wild.HERMIT)),
        ("Th 10d", (Card(10, 2), Card(10, 1))),
    ],
)
def test_parse_hand(text: str, expected: tuple[BuroshCard, ...]) -> None:
    assert parse_hand(text) == expected


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "no cards"),
        (" , ", "no cards"),
        ("As Xs", "unknown card 'Xs'"),
        ("As JK", "'JK': the joker is not a Burosh card"),
        ("joker", "'joker': the joker is not a Burosh card"),
        ("As as", "duplicate card 'as'"),
        ("EM emperor", "duplicate card 'emperor'"),
        ("As Ks Qs Js Ts 9s", "too many cards: '9s' would be card 6"),
        ("1s", "unknown card '1s'"),
        ("10h ♠A", "unknown card '♠A'"),
    ],
)
def test_parse_hand_errors(text: str, message: str) -> None:
    with pytest.raises(CardError, match=message):
        parse_hand(text)


@pytest.mark.parametrize(
    ("text", "suit"),
    [
        ("s", 3),
        ("H", 2),
        ("d", 1),
        ("c", 0),
        ("♠", 3),
        ("♦", 1),
        ("Spades", 3),
        ("hearts", 2),
        (" CLUBS ", 0),
        ("diamond", 1),
    ],
)
def test_parse_trump(text: str, suit: int) -> None:
    assert parse_trump(text) == suit


@pytest.mark.parametrize("text", ["", "x", "joker", "trump"])
def test_parse_trump_errors(text: str) -> None:
    with pytest.raises(CardError, match="unknown trump suit"):
        parse_trump(text)


def test_api_errors() -> None:
    with pytest.raises(CardError, match="wrong number of cards"):
        rank_hand((), SPADES)
    with pytest.raises(CardError, match="wrong number of cards"):
        rank_hand(DECK[:6], SPADES)
    with pytest.raises(CardError, match="duplicate card As"):
        rank_hand((Card(14, 3), Card(14, 3)), SPADES)
    with pytest.raises(CardError, match="not a Burosh card"):
        rank_hand((Card(14, 4),), SPADES)
    with pytest.raises(DealerError, match="trump suit must be 0-3"):
        rank_hand((Card(14, 3),), 4)
    with pytest.raises(DealerError, match="at least two hands"):
        compare([parse_hand("As")], SPADES)
    with pytest.raises(CardError, match="duplicate card EM: in hand 1 and hand 2"):
        compare([parse_hand("EM"), parse_hand("Kd EM")], SPADES)


# --- properties: an independent brute force -----------------------------------------------------

# Played cards are (value, suit); value 15 is the Emperor itself, 1 the low one.
_E, _A = 15, 14


def _brute_options(card: BuroshCard, trump: int) -> list[tuple[int, int]]:
    """Straight from RULINGS §2, written apart from the engine."""
    if card is Wild.EMPEROR:
        return [(_E, trump), (14, trump), (13, trump), (12, trump), (11, trump)]
    if card is Wild.MAGICIAN:
        return [(v, trump) for v in range(1, 11)]
    if card is Wild.HERMIT:
        return [(v, s) for v in range(2, 15) for s in range(4) if s != trump]
    assert isinstance(card, Card)
    return [(card.rank, card.suit)]


def _brute_run_top(cards: Sequence[tuple[int, int]]) -> int | None:
    """Best top of a sequence, trying every ace high or low independently."""
    tops = []
    choices = [[v, 1] if v == _A else [v] for v, _ in cards]
    for values in product(*choices):
        ordered = sorted(values)
        if ordered == list(range(ordered[0], ordered[0] + len(ordered))):
            tops.append(ordered[-1])
    return max(tops, default=None)


def _brute_category(
    cards: Sequence[tuple[int, int]], trump: int
) -> list[tuple[str, tuple[int, ...]]]:
    """Every category (name, values) these exact cards make, by the seed's definitions."""
    size = len(cards)
    suits = {s for _, s in cards}
    trumps = [s == trump for _, s in cards]
    all_trump, no_trump = all(trumps), not any(trumps)
    one_suit = len(suits) == 1 and no_trump
    top = _brute_run_top(cards)
    counts = Counter(v for v, _ in cards)
    shape = sorted(counts.values(), reverse=True)
    by_group = sorted(counts, key=lambda v: (counts[v], v), reverse=True)
    group_trumps = sum(any(s == trump for v, s in cards if v == g) for g in by_group)
    desc = tuple(sorted((v for v, _ in cards), reverse=True))
    found: list[tuple[str, tuple[int, ...]]] = []

    def add(name: str, ok: bool, values: tuple[int, ...]) -> None:
        if ok and CATEGORY_BY_NAME[name].size == size:
            found.append((name, values))

    if top is not None:
        add("emperors-court", all_trump and top == _E, (top,))
        add("imperial-flush", all_trump and top == _A, (top,))
        add("royal-flush", one_suit and top == _A, (top,))
        add("trump-straight-flush", all_trump, (top,))
        add("straight-flush", one_suit, (top,))
        add("trump-straight", not no_trump, (top,))
        add("straight", no_trump, (top,))
        add("trump-short-straight-flush", all_trump, (top,))
        add("short-straight-flush", one_suit, (top,))
        add("trump-short-straight", not no_trump, (top,))
        add("short-straight", no_trump, (top,))
    add("trump-flush", all_trump, desc)
    add("flush", one_suit, desc)
    add("trump-short-flush", all_trump, desc)
    add("short-flush", one_suit, desc)
    groups = tuple(by_group)
    add("five-of-a-kind", shape == [5], groups)
    add("trump-four-of-a-kind", shape == [4] and not no_trump, groups)
    add("four-of-a-kind", shape == [4] and no_trump, groups)
    add("high-bastion", shape == [3, 2] and group_trumps == 2, groups)
    add("low-bastion", shape == [3, 2] and group_trumps == 1, groups)
    add("full-house", shape == [3, 2] and group_trumps == 0, groups)
    add("trump-three-of-a-kind", shape == [3] and not no_trump, groups)
    add("three-of-a-kind", shape == [3] and no_trump, groups)
    add("high-gate", shape == [2, 2] and group_trumps == 2, groups)
    add("low-gate", shape == [2, 2] and group_trumps == 1, groups)
    add("two-pair", shape == [2, 2] and group_trumps == 0, groups)
    add("trump-pair", shape == [2] and not no_trump, groups)
    add("pair", shape == [2] and no_trump, groups)
    add("trump", size == 1 and all_trump, desc)
    add("high-card", size == 1 and no_trump, desc)
    return found


def _brute_best(hand: Sequence[BuroshCard], trump: int) -> tuple[int, tuple[int, ...], bool]:
    """Every assignment × every subset × every category; the best (−position, values, Emperor)."""
    best = None
    for played in product(*(_brute_options(c, trump) for c in hand)):
        for size in range(1, len(hand) + 1):
            for idxs in combinations(range(len(hand)), size):
                subset = [played[i] for i in idxs]
                emperor = any(hand[i] is Wild.EMPEROR for i in idxs)
                for name, values in _brute_category(subset, trump):
                    key = (-CATEGORY_BY_NAME[name].position, values, emperor)
                    if best is None or key > best:
                        best = key
    assert best is not None
    return best


def _dense_hand(draw: st.DrawFn) -> list[BuroshCard]:
    """Hands with many groups, runs and flushes: a few ranks, two or three suits, some wilds."""
    low = draw(st.integers(2, 10))
    ranks = st.sampled_from([*range(low, low + 5), 14])
    naturals = st.builds(Card, ranks, st.sampled_from([SPADES, 2]))
    wilds = draw(st.lists(st.sampled_from(list(Wild)), max_size=2, unique=True))
    size = draw(st.sampled_from([2, 3, 4, 5, 5, 5]))
    cards = draw(
        st.lists(naturals, min_size=size - len(wilds), max_size=size - len(wilds), unique=True)
    )
    return [*wilds, *cards]


any_hand = st.lists(st.sampled_from(DECK), min_size=1, max_size=5, unique=True)
dense_hand = st.composite(_dense_hand)()
hands = st.one_of(any_hand, dense_hand)
trumps = st.integers(0, 3)


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hands, trumps)
def test_rank_matches_brute_force(hand: list[BuroshCard], trump: int) -> None:
    ranked = rank_hand(hand, trump)
    assert ranked.key == _brute_best(hand, trump)


@pytest.mark.parametrize("text", ["EM MG HM 7h 8d", "EM MG HM Ks Kh", "EM MG HM 2s", "EM MG HM"])
def test_three_wilds_match_brute_force(text: str) -> None:
    hand = parse_hand(text)
    for trump in (SPADES, 2):
        assert rank_hand(hand, trump).key == _brute_best(hand, trump)


@settings(max_examples=150, deadline=None)
@given(hands, trumps, st.randoms(use_true_random=False))
def test_typed_order_never_matters(hand: list[BuroshCard], trump: int, rnd: random.Random) -> None:
    shuffled = list(hand)
    rnd.shuffle(shuffled)
    assert rank_hand(shuffled, trump) == rank_hand(hand, trump)


@settings(max_examples=150, deadline=None)
@given(hands, trumps)
def test_category_cards_and_wilds_are_consistent(hand: list[BuroshCard], trump: int) -> None:
    ranked = rank_hand(hand, trump)
    assert len(ranked.cards) == ranked.category.size == len(ranked.played)
    assert set(ranked.cards) | set(ranked.ignored) == set(hand)
    for card, played in zip(ranked.cards, ranked.played, strict=True):
        if isinstance(card, Card):
            assert (played.value, played.suit) == (card.rank, card.suit)
        else:
            assert (played.value, played.suit) in _brute_options(card, trump)
    wilds_used = {w for w, p in ranked.wilds if p is not None}
    assert wilds_used == {c for c in ranked.cards if isinstance(c, Wild)}
    assert ranked.emperor == (Wild.EMPEROR in ranked.cards)
    if ranked.category.name in ("emperors-court", "five-of-a-kind", "four-of-a-kind"):
        assert wilds_used, "impossible without a wild card"
    if ranked.category.name == "two-pair":
        assert not wilds_used, "a wild card would make Three of a Kind"


@settings(max_examples=100, deadline=None)
@given(
    st.lists(st.sampled_from(DECK), min_size=4, max_size=10, unique=True), trumps, st.integers(1, 3)
)
def test_compare_winners_have_the_best_key(cards: list[BuroshCard], trump: int, cut: int) -> None:
    first, second = cards[:cut], cards[cut:][:5]
    result = compare([first, second], trump)
    keys = [h.key for h in result.hands]
    assert result.winners == tuple(i for i, k in enumerate(keys) if k == max(keys))
    swapped = compare([second, first], trump)
    assert sorted(1 - w for w in swapped.winners) == sorted(result.winners)
