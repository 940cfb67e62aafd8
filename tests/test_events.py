"""Seven-card bonus events: hand-built cases, a slow obvious brute force on random hands, the
published counts of the rarer events by targeted enumeration, and card-order invariance."""

import csv
import itertools
import random
from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dealer.games.paigow.deck import parse_cards
from dealer.games.paigow.events import (
    EVENT_ORDER,
    LABELS,
    PAI_GOW_EVENTS,
    classify,
)
from dealer.kernel.cards import DECK, JOKER, Card
from dealer.kernel.errors import CardError

DATA = Path(__file__).parent / "data"
NATURALS = DECK[:-1]
ACE = 14


def _rows(name: str) -> list[list[str]]:
    with open(DATA / name, encoding="utf-8") as f:
        rows = [r for r in csv.reader(f, delimiter="\t") if r and not r[0].startswith("#")]
    return rows[1:]


# ---------------------------------------------------------------- the brute force (slow, obvious)


def _five_events(cards: Sequence[tuple[int, int]]) -> set[str]:
    """Events of five (rank, suit) cards, duplicates allowed (a joker copying a card)."""
    ranks = sorted(r for r, _ in cards)
    counts = Counter(ranks)
    flush = len({s for _, s in cards}) == 1
    straight = len(counts) == 5 and (ranks[4] - ranks[0] == 4 or ranks == [2, 3, 4, 5, 14])
    out = set()
    if flush:
        out.add("flush")
    if straight:
        out.add("straight")
    if straight and flush:
        out.add("straight-flush")
        if ranks[0] == 10:
            out.add("royal-flush")
    if counts[ACE] == 5:
        out.add("five-aces")
    if max(counts.values()) >= 4:
        out.add("four-of-a-kind")
    if max(counts.values()) >= 3:
        out.add("three-of-a-kind")
        trips = [r for r, n in counts.items() if n >= 3]
        if any(n >= 2 and r not in trips[:1] for r, n in counts.items()):
            out.add("full-house")
    return out


_MADE_BY_RUN_OR_SUIT = {"flush", "straight", "straight-flush", "royal-flush"}


def _five_card_events(cards: Sequence[Card]) -> set[str]:
    """Every five-card event of any 5 of the cards, trying the joker as every card of the deck:
    as an ace it may make anything; as another card only a straight or a flush."""
    out: set[str] = set()
    for five in itertools.combinations(cards, 5):
        naturals = [(c.rank, c.suit) for c in five if not c.is_joker]
        if len(naturals) == 5:
            out |= _five_events(naturals)
            continue
        for sub in NATURALS:
            events = _five_events([*naturals, (sub.rank, sub.suit)])
            out |= events if sub.rank == ACE else events & _MADE_BY_RUN_OR_SUIT
    return out


def _run_of_seven(cards: Sequence[tuple[int, int]]) -> bool:
    if len({s for _, s in cards}) != 1:
        return False
    ranks = sorted(r for r, _ in cards)
    low = sorted(1 if r == ACE else r for r in ranks)
    return any(len(set(rs)) == 7 and rs[6] - rs[0] == 6 for rs in (ranks, low))


def brute_events(cards: Sequence[Card]) -> set[str]:
    """All events of seven cards, the obvious way."""
    out = _five_card_events(cards)
    naturals = [(c.rank, c.suit) for c in cards if not c.is_joker]
    if len(naturals) == 7 and _run_of_seven(naturals):
        out.add("seven-card-straight-flush")
    if len(naturals) == 6 and any(
        _run_of_seven([*naturals, (sub.rank, sub.suit)]) for sub in NATURALS
    ):
        out.add("seven-card-straight-flush-with-joker")
    for a, k in itertools.permutations([c for c in cards if not c.is_joker], 2):
        if a.rank == ACE and k.rank == 13 and a.suit == k.suit:
            rest = [c for c in cards if c not in (a, k)]
            if "royal-flush" in _five_card_events(rest):
                out.add("royal-flush-with-suited-ak")
    as_ace = [ACE if c.is_joker else c.rank for c in cards]
    for six in itertools.combinations(as_ace, 6):
        s = sorted(six)
        if s[0] == s[1] and s[2] == s[3] and s[4] == s[5] and len(set(s)) == 3:
            out.add("three-pair")
    pair = len(set(as_ace)) < 7
    if not pair and not out & _MADE_BY_RUN_OR_SUIT:
        high = max(as_ace)
        name = {9: "9-high", 10: "10-high", 11: "jack-high", 12: "queen-high"}.get(high)
        name = name or {13: "king-high", 14: "ace-high"}[high]
        out.add(f"{name}-pai-gow")
        if high == 9:
            reds = {c.suit in (1, 2) for c in cards}
            out.add("9-high-pai-gow-one-color" if len(reds) == 1 else "9-high-pai-gow-two-tone")
    return out


# ---------------------------------------------------------------- the tests


@pytest.mark.parametrize("row", _rows("events_cases.tsv"), ids=lambda r: r[0])
def test_hand_built_cases(row: list[str]) -> None:
    cards, expected, _note = row
    hand = classify(parse_cards(cards))
    assert list(hand.events) == ([] if expected == "-" else expected.split(","))


@pytest.mark.parametrize("row", _rows("events_cases.tsv"), ids=lambda r: r[0])
def test_brute_force_agrees_on_hand_built_cases(row: list[str]) -> None:
    cards = parse_cards(row[0])
    assert set(classify(cards).events) == brute_events(cards)


@pytest.mark.parametrize("row", _rows("event_hands.tsv"), ids=lambda r: r[0])
def test_example_hand_of_each_event(row: list[str]) -> None:
    event, cards = row
    hand = classify(parse_cards(cards))
    assert event in hand.events
    assert hand.events[0] == event or event == "9-high-pai-gow"


def _check_witness(event: str, cards: tuple[Card, ...], hand: tuple[Card, ...]) -> None:
    """The cards named for an event are in the hand and make the event by themselves."""
    assert len(set(cards)) == len(cards) and set(cards) <= set(hand)
    as_ace = [ACE if c.is_joker else c.rank for c in cards]
    if event in ("four-of-a-kind", "three-of-a-kind"):
        assert len(cards) == (4 if event == "four-of-a-kind" else 3) and len(set(as_ace)) == 1
    elif event == "three-pair":
        assert len(cards) == 6 and sorted(Counter(as_ace).values()) == [2, 2, 2]
    elif event in PAI_GOW_EVENTS or event.startswith("seven-card") or event.endswith("suited-ak"):
        assert set(cards) == set(hand)
    else:
        assert len(cards) == 5 and event in _five_card_events(cards)


def _random_hands(rng: random.Random, deck: Sequence[Card], n: int) -> Iterable[tuple[Card, ...]]:
    for _ in range(n):
        yield tuple(rng.sample(list(deck), 7))


# Decks that make the rare events common: two suits of high cards with the joker; one suit and
# the aces and kings; ranks 9 and below with the aces (pai gows, wheels); four ranks (pairs and
# quads); high hearts with the joker (seven-card straight flushes); a royal with two suited
# A-Ks; the red 2-9 (one-colour 9-high pai gows).
_RICH_DECKS = (
    [c for c in NATURALS if c.suit in (2, 3) and c.rank >= 7] + [JOKER],
    [c for c in NATURALS if c.suit == 1 or c.rank in (13, 14)] + [JOKER],
    [c for c in NATURALS if c.rank <= 9 or c.rank == 14] + [JOKER],
    [c for c in NATURALS if c.rank in (2, 3, 13, 14)] + [JOKER],
    [c for c in NATURALS if c.suit == 2 and c.rank >= 5] + [JOKER],
    [c for c in NATURALS if (c.suit == 2 and c.rank >= 10) or (c.rank >= 13 and c.suit < 2)]
    + [JOKER],
    [c for c in NATURALS if c.suit in (1, 2) and c.rank <= 9],
)


@pytest.mark.slow
def test_brute_force_agrees_on_random_hands() -> None:
    rng = random.Random(20261122)
    hands = list(_random_hands(rng, DECK, 1500))
    for deck in _RICH_DECKS:
        hands += _random_hands(rng, deck, 200)
    seen: Counter[str] = Counter()
    for hand in hands:
        events = classify(hand)
        assert set(events.events) == brute_events(hand), " ".join(map(str, hand))
        assert list(events.events) == [e for e in EVENT_ORDER if e in events.events]
        for event in events.events:
            _check_witness(event, events.event_cards[event], hand)
        seen.update(events.events)
    # the sample reaches every event, so the comparison covered each of them
    assert set(seen) == set(EVENT_ORDER)


def _hands_holding(cores: Iterable[list[Card]], extra: int) -> set[frozenset[Card]]:
    """Every seven-card hand holding one of `cores` (plus `extra` other cards)."""
    hands: set[frozenset[Card]] = set()
    for core in cores:
        rest = [c for c in DECK if c not in core]
        for more in itertools.combinations(rest, extra):
            hands.add(frozenset((*core, *more)))
    return hands


def _highest_counts(hands: Iterable[frozenset[Card]]) -> Counter[str]:
    return Counter(classify(tuple(h)).events[0] for h in hands)


@pytest.mark.slow
def test_published_counts_of_straight_flushes_and_royals() -> None:
    """Every hand holding a five-card straight flush (a natural one or four cards and the
    joker), counted by its highest event: 32, 196, 26,092 royals (with and without a suited
    A-K) and 184,644 straight flushes over all 154,143,080 hands."""
    windows = [
        [Card(ACE if r == 1 else r, s) for r in range(low, low + 5)]
        for low in range(1, 11)
        for s in range(4)
    ]
    cores = [*windows, *([c for c in w if c != gap] + [JOKER] for w in windows for gap in w)]
    counts = _highest_counts(_hands_holding(cores, 2))
    assert counts["seven-card-straight-flush"] == 32
    assert counts["seven-card-straight-flush-with-joker"] == 196
    assert counts["royal-flush"] + counts["royal-flush-with-suited-ak"] == 26092
    assert counts["straight-flush"] == 184644


def test_published_count_of_five_aces() -> None:
    aces = [c for c in NATURALS if c.rank == ACE]
    counts = _highest_counts(_hands_holding([[*aces, JOKER]], 2))
    assert counts == {"five-aces": 1128}


@pytest.mark.slow
def test_published_count_of_four_of_a_kind() -> None:
    quads = [[c for c in NATURALS if c.rank == r] for r in range(2, 15)]
    three_aces = [[c for c in quads[-1] if c != gap] + [JOKER] for gap in quads[-1]]
    counts = _highest_counts(_hands_holding([*quads, *three_aces], 3))
    assert counts["four-of-a-kind"] == 307472


@pytest.mark.slow
def test_published_count_of_9_high_pai_gows() -> None:
    """9-high pai gows hold seven of the ranks 2-9 (and no joker, which is an ace): 31,080."""
    counts: Counter[str] = Counter()
    for ranks in itertools.combinations(range(2, 10), 7):
        for suits in itertools.product(range(4), repeat=7):
            hand = classify([Card(r, s) for r, s in zip(ranks, suits, strict=True)])
            counts.update(e for e in hand.events if e.startswith("9-high"))
    assert counts["9-high-pai-gow"] == 31080
    assert counts["9-high-pai-gow-one-color"] + counts["9-high-pai-gow-two-tone"] == 31080


@given(st.permutations(list(DECK)).map(lambda d: d[:7]), st.randoms(use_true_random=False))
def test_card_order_never_changes_the_events(hand: list[Card], rng: random.Random) -> None:
    shuffled = list(hand)
    rng.shuffle(shuffled)
    a, b = classify(hand), classify(shuffled)
    assert a.events == b.events
    assert {e: set(cs) for e, cs in a.event_cards.items()} == {
        e: set(cs) for e, cs in b.event_cards.items()
    }
    assert a.to_dict()["emperors_treasure"] == b.to_dict()["emperors_treasure"]


def test_to_dict_gives_each_wager_familys_event() -> None:
    hand = classify(parse_cards("JK Kh Qh Jh Th As Ks"))
    d = hand.to_dict()
    assert d["emperors_treasure"] == "royal-flush-with-suited-ak"
    assert d["progressive_treasure"] == "royal-flush-with-suited-ak"
    assert d["envy"] == "royal-flush-with-suited-ak"
    assert d["pai_gow_insurance"] is None and d["progressive_insurance"] is None
    assert d["event_cards"]["royal-flush-with-suited-ak"] == [
        "JK",
        "Kh",
        "Qh",
        "Jh",
        "Th",
        "As",
        "Ks",
    ]
    assert d["events"][0] == "royal-flush-with-suited-ak" and d["pai_gow"] is None

    pai_gow = classify(parse_cards("9h 8h 7d 6d 4h 3d 2h")).to_dict()
    assert pai_gow["pai_gow_insurance"] == "9-high-pai-gow"
    assert pai_gow["progressive_insurance"] == "9-high-pai-gow-one-color"
    assert pai_gow["emperors_treasure"] is None
    assert pai_gow["pai_gow"] == {"high": "9", "one_color": True}

    full = classify(parse_cards("Qs Qd Qh 4c 4d 9h 2c")).to_dict()
    assert full["emperors_treasure"] == "full-house"
    assert full["progressive_treasure"] == "full-house"
    assert full["envy"] is None
    assert full["event_cards"]["full-house"] == ["Qs", "Qh", "Qd", "4d", "4c"]


def test_explanation_names_each_event_and_its_cards() -> None:
    lines = classify(parse_cards("8s 8d 8h 9c Td Jh Qs")).explanation()
    assert lines == ["3-of-a-Kind: 8♠ 8♥ 8♦", "5-Card Straight: Q♠ J♥ 10♦ 9♣ 8♠"]
    assert "no bonus event" in classify(parse_cards("Qs Qh Jd Jc 5s 4h 2h")).explanation()[0]


def test_every_event_has_a_label() -> None:
    assert set(LABELS) == set(EVENT_ORDER)


@pytest.mark.parametrize(
    ("cards", "message"),
    [
        ("As Kd Qh Jc 9s 8d", "expected 7, got 6"),
        ("As Kd Qh Jc 9s 8d 7h 6c", "expected 7, got 8"),
    ],
)
def test_wrong_count_is_a_card_error(cards: str, message: str) -> None:
    with pytest.raises(CardError, match=message):
        classify(parse_cards(cards))


def test_repeated_card_is_a_card_error() -> None:
    card = parse_cards("As")[0]
    with pytest.raises(CardError, match="duplicate"):
        classify([card, card, *parse_cards("Kd Qh Jc 9s 8d")])
