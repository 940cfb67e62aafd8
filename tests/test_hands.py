"""Five- and two-card ranks: a table of hands, the wheel setting, fouls, and properties."""

import csv
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dealer.games.paigow.deck import parse_cards
from dealer.games.paigow.profile import load_profile
from dealer.games.paigow.ranking import (
    Category,
    has_straight_or_flush,
    high_key,
    is_foul,
    low_key,
    pai_gow_high,
    rank_high,
    rank_low,
)
from dealer.games.paigow.rulings import compare_ruling
from dealer.kernel.cards import DECK, Card, format_cards

DATA = Path(__file__).parent / "data"
PROFILE = load_profile()


def _rows(name: str) -> list[list[str]]:
    with open(DATA / name, encoding="utf-8") as f:
        return [r for r in csv.reader(f, delimiter="\t") if r and not r[0].startswith("#")]


@pytest.mark.parametrize("row", _rows("paigow_high_hands.tsv"), ids=lambda r: r[0])
def test_high_hand_table(row: list[str]) -> None:
    cards, wheel, category, ordered, description = row
    value = rank_high(parse_cards(cards), wheel)
    assert value.category == category
    assert " ".join(str(c) for c in value.cards) == ordered
    assert value.description == description


def _hk(text: str, wheel: bool = True) -> tuple[int, ...]:
    return high_key(parse_cards(text), wheel)


def test_wheel_is_second_highest_by_default() -> None:
    broadway, wheel, king = "Ac Kd Qh Js Tc", "Ac 2d 3h 4s 5c", "Kd Qh Js Tc 9c"
    assert _hk(broadway) > _hk(wheel) > _hk(king)
    six = "2d 3h 4s 5c 6d"
    assert _hk(wheel, False) < _hk(six, False)
    assert _hk("Ah 2h 3h 4h 5h") > _hk("Kh Qh Jh Th 9h")
    assert _hk("Ah 2h 3h 4h 5h", False) < _hk("2h 3h 4h 5h 6h", False)


def test_joker_in_a_flush_takes_the_highest_missing_rank() -> None:
    # A♥ K♥ JK J♥ 2♥ compares as A-K-Q-J-2: above A-K-J-x-x, below A-K-Q-J-3
    assert _hk("Ah Kh JK Jh 2h") == _hk("Ad Kd Qd Jd 2d")
    assert _hk("Ah Kh JK Jh 2h") > _hk("As Ks Js 9s 8s")
    assert _hk("Ah Kh JK Jh 2h") < _hk("Ac Kc Qc Jc 3c")


def test_two_card_ranks() -> None:
    assert low_key(parse_cards("2c 2d")) > low_key(parse_cards("As Ks"))
    assert low_key(parse_cards("JK Ad")) == low_key(parse_cards("As Ah"))
    assert low_key(parse_cards("JK Kd")) == low_key(parse_cards("As Kh"))
    assert low_key(parse_cards("As Qh")) < low_key(parse_cards("Kc Kh"))
    assert rank_low(parse_cards("Qh As")).description == "ace-queen"


@pytest.mark.parametrize(
    ("high", "low", "foul"),
    [
        ("As 7h 5s 3d 2c", "Kd 9c", False),
        ("Kd 7h 5s 3d 2c", "As 9c", True),
        ("Ks Kd 8c 5s 2c", "Ac Ad", True),
        ("Ks Kd 8c 5s 2c", "Qc Qd", False),
        ("3s 3d 2c 2s 7c", "Ac Ad", False),
        ("8s 8d Ac Kd Qc", "8c 8h", False),
        ("As Kd 9c 7h 2c", "JK Kh", False),
        ("As Qd 9c 7h 2c", "Ac Kh", True),
    ],
)
def test_fouls(high: str, low: str, foul: bool) -> None:
    assert is_foul(high_key(parse_cards(high)), low_key(parse_cards(low))) is foul


@pytest.mark.parametrize(
    ("cards", "high"),
    [
        ("9c 8d 7h 6s 4c 3d 2c", 9),
        ("Kc 8d 6h 5s 4c 3d 2c", None),  # 2-3-4-5-6 straight
        ("JK 8d 6h 5s 4c Td 2c", None),  # the joker completes 4-5-6-7-8
        ("JK Kd 9h 7s 5c 3d 2c", 14),
        ("JK Ad 9h 7s 5c 3d 2c", None),  # joker and ace: a pair of aces
        ("Kh Qh 9h 7h 5c 3d 2c", 13),
        ("JK Qh 9h 7h 5h 3d 2c", None),  # the joker completes a flush
    ],
)
def test_pai_gow(cards: str, high: int | None) -> None:
    assert pai_gow_high(parse_cards(cards)) == high


five = st.lists(st.sampled_from(DECK), min_size=5, max_size=5, unique=True)


@given(five, st.randoms(use_true_random=False), st.booleans())
def test_order_of_cards_never_matters(cards: list[Card], rnd, wheel: bool) -> None:
    shuffled = list(cards)
    rnd.shuffle(shuffled)
    assert high_key(cards, wheel) == high_key(shuffled, wheel)
    assert rank_high(cards).cards == rank_high(shuffled).cards
    assert low_key(cards[:2]) == low_key(cards[1::-1])


three_hands = st.lists(st.sampled_from(DECK), min_size=15, max_size=15, unique=True)


def _winner(a: list[Card], b: list[Card]) -> int | None:
    return compare_ruling(format_cards(a), format_cards(b), PROFILE).result["winner"]


@given(three_hands)
def test_compare_is_a_total_order_consistent_with_rank(cards: list[Card]) -> None:
    a, b, c = cards[:5], cards[5:10], cards[10:]
    ab, ba = _winner(a, b), _winner(b, a)
    assert (ab, ba) in ((0, 1), (1, 0), (None, None))  # antisymmetric; a copy both ways
    beats = {(x, y) for (x, y), w in _pairs(a, b, c) if w == 0}
    for x, y in beats:  # transitive: x beats y and y beats z, so x beats z
        for y2, z in beats:
            if y == y2 and x != z:
                assert (x, z) in beats
    ca, cb = (
        Category[rank_high(a).category.upper().replace("-", "_")],
        Category[rank_high(b).category.upper().replace("-", "_")],
    )
    if ca != cb:
        assert ab == (0 if ca > cb else 1)  # a higher category always wins


def _pairs(a: list[Card], b: list[Card], c: list[Card]) -> list[tuple[tuple[str, str], int | None]]:
    hands = {"a": a, "b": b, "c": c}
    return [((x, y), _winner(hands[x], hands[y])) for x in hands for y in hands if x != y]


@given(st.lists(st.sampled_from(DECK), min_size=7, max_size=7, unique=True))
def test_pai_gow_excludes_made_hands(cards: list[Card]) -> None:
    if pai_gow_high(cards) is not None:
        assert not has_straight_or_flush(cards)
        assert len({c.rank for c in cards}) == 7
