"""Genpoker: notation, the 64-card deck, the 18 categories and their ties, the draw."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Iterator
from math import comb, prod
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dealer.games.genpoker.deck import DECK, PER_COLOUR, GenCard, parse_card, parse_hand
from dealer.games.genpoker.draw import deal, play_draw, standard_discards
from dealer.games.genpoker.ranking import Category, compare, explain, hand_key, rank_hand
from dealer.kernel.errors import CardError, DealerError

DATA = Path(__file__).parent / "data"
N = {g: 2 * PER_COLOUR[g] for g in PER_COLOUR}  # cards per generation
HANDS = comb(64, 5)


def _rows(name: str) -> list[list[str]]:
    lines = (DATA / name).read_text(encoding="utf-8").splitlines()
    return [line.split("\t") for line in lines if line and not line.startswith("#")]


# --- notation ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("token", "canonical"),
    [
        ("1R", "1R1"),
        ("1b", "1B1"),
        ("2R1", "2R1"),
        ("3b2", "3B2"),
        ("6R16", "6R16"),
        ("5r8", "5R8"),
    ],
)
def test_parse_card_canonical(token: str, canonical: str) -> None:
    assert str(parse_card(token)) == canonical


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("1R 2R 3R1 4R1 7R1", "unknown card '7R1'"),
        ("1R 2R 3R3 4R1 5R1", "unknown card '3R3': generation 3 has number 1-2"),
        ("1R 2R 3R1 4R1 6G1", "unknown card '6G1'"),
        ("1R 2R 3R 4R1 5R1", "unknown card '3R': generation 3 needs a number 1-2"),
        ("1R 2R2 3R1 4R1 5R1", "unknown card '2R2'"),
        ("1R 2R 3R1 4R1 6R17", "unknown card '6R17'"),
        ("1R 2R 3R1 4R1 1r1", "duplicate card '1r1'"),
        ("1R 2R 3R1 4R1", "wrong number of cards for the hand: expected 5, got 4"),
        ("1R 2R 3R1 4R1 5R1 6R1", "expected 5, got 6"),
    ],
)
def test_parse_hand_errors_name_the_token(text: str, message: str) -> None:
    with pytest.raises(CardError, match=message.replace("(", r"\(")):
        parse_hand(text)


def test_parse_hand_accepts_commas_and_case() -> None:
    assert [str(c) for c in parse_hand("1r,2b, 3R2 6r7 6b7")] == ["1R1", "2B1", "3R2", "6R7", "6B7"]


# --- the deck ----------------------------------------------------------------------------


def test_deck_has_64_cards_by_generation_and_colour() -> None:
    assert len(DECK) == len(set(DECK)) == 64
    assert Counter(c.generation for c in DECK) == {1: 2, 2: 2, 3: 4, 4: 8, 5: 16, 6: 32}
    assert Counter(c.colour for c in DECK) == {"R": 32, "B": 32}
    assert [c.index for c in DECK] == list(range(64))
    couples = {(c, c.partner()) for c in DECK if c.generation == 6 and c.colour == "R"}
    assert len(couples) == 16 and all(p in DECK for _, p in couples)


def test_every_card_round_trips_through_its_text() -> None:
    assert all(parse_card(str(c)) == c for c in DECK)


# --- categories and ties: the seed's examples --------------------------------------------


@pytest.mark.parametrize(("hand", "category", "source"), _rows("genpoker_ranks.tsv"))
def test_seed_categories(hand: str, category: str, source: str) -> None:
    ranked = rank_hand(parse_hand(hand))
    assert ranked.to_dict()["category"] == category, source


def test_every_category_is_in_the_table_and_reachable() -> None:
    named = {row[1] for row in _rows("genpoker_ranks.tsv")}
    assert named == {c.label for c in Category}
    assert len(named) == 18


@pytest.mark.parametrize(("hands", "winners", "source"), _rows("genpoker_compares.tsv"))
def test_seed_ties(hands: str, winners: str, source: str) -> None:
    result = compare([parse_hand(h) for h in hands.split("|")])
    assert result.to_dict()["winners"] == [int(w) for w in winners.split(",")], source


def test_flush_example_explains_the_sum() -> None:
    result = compare([parse_hand("1B 3B1 6B1 6B2 6B3"), parse_hand("1R 4R1 4R2 5R1 6R1")])
    assert result.winners == (1,)
    assert "sum of all five (lower wins): 20 against 22" in " ".join(explain(result))


def test_rank_to_dict_shape() -> None:
    data = rank_hand(parse_hand("6R1 6R2 6B3 4R1 4R2")).to_dict()
    assert data == {
        "category": "full-house",
        "rank": 13,
        "cards": ["4R1", "4R2", "6R1", "6R2", "6B3"],
        "active": ["4R1", "4R2", "6R1", "6R2", "6B3"],
        "tiebreak": [{"name": "three of a kind", "value": 6}, {"name": "pair", "value": 4}],
    }


def test_split_pot_is_said() -> None:
    result = compare([parse_hand("1R 2R 3R1 4R1 5R1"), parse_hand("1B 2B 3B1 4B1 5B1")])
    assert result.to_dict()["split"] is True
    assert "split the pot" in explain(result)[-1]


def test_rank_hand_refuses_bad_hands() -> None:
    cards = parse_hand("1R 2R 3R1 4R1 5R1")
    with pytest.raises(CardError, match="expected 5, got 4"):
        rank_hand(cards[:4])
    with pytest.raises(CardError, match="duplicate card '1R1'"):
        rank_hand((*cards[:4], cards[0]))


def test_compare_refuses_a_card_in_two_hands_and_a_single_hand() -> None:
    with pytest.raises(CardError, match="duplicate card 5R1: in hand 1 and hand 2"):
        compare([parse_hand("1R 2R 3R1 4R1 5R1"), parse_hand("5R1 5B1 6R1 6R2 6R3")])
    with pytest.raises(CardError, match="at least two hands"):
        compare([parse_hand("1R 2R 3R1 4R1 5R1")])


# --- exhaustive counts -------------------------------------------------------------------


def _e(values: list[int], k: int) -> int:
    """Elementary symmetric sum: the ways to take one card from each of k distinct groups."""
    return sum(prod(c) for c in itertools.combinations(values, k))


def _expected_counts() -> dict[str, int]:
    """Hand counts per category by combinatorics, independent of the classifier.

    `n` is cards per colour of a generation, `N` per generation. A pair or trio of generation
    6 must not hold a couple (that is a Country); one-colour hands of a lower category are
    Flushes; a hand counts in its highest category only."""
    n = PER_COLOUR
    gens = list(range(1, 7))

    def groups(size: int, g: int, per: dict[int, int]) -> int:
        """Ways to take `size` cards of generation g from `per[g]` per colour, no couple."""
        if g == 6:
            width = per[6] if per is n else per[6] // 2  # nations available
            return comb(width, size) * (1 if per is n else 2**size)
        return comb(per[g], size)

    both = {g: N[g] for g in gens}
    trio = {g: groups(3, g, both) for g in (3, 4, 5, 6)}
    pair = {g: groups(2, g, both) for g in (3, 4, 5, 6)}
    trio1 = {g: groups(3, g, n) for g in (3, 4, 5, 6)}  # one colour
    pair1 = {g: groups(2, g, n) for g in (3, 4, 5, 6)}
    america = prod(n[g] for g in range(1, 6))
    ancestors = prod(n[g] for g in range(2, 7))
    counts = {
        "america": 2 * america,
        "ancestors": 2 * ancestors,
        "straight": prod(N[g] for g in range(1, 6))
        + prod(N[g] for g in range(2, 7))
        - 2 * (america + ancestors),
        "grandparents": comb(4, 4) * (64 - 4),
        "xx-century": comb(8, 5),
        "two-countries": comb(16, 2) * (64 - 4),
        "victorian": comb(16, 5),
        "europe": comb(32, 5) - comb(16, 2) * (32 - 4),
        "children": comb(62, 3),
        "parents": comb(62, 3) - (64 - 4),  # not with both Children
    }
    # Exactly one couple: the other three hold no couple; then drop Europe, Children, Parents.
    one_couple = 16 * (comb(62, 3) - 15 * 60)
    europe_one_couple = 16 * (comb(30, 3) - 15 * 28)
    counts["country"] = one_couple - europe_one_couple - 2 * 16 * 60
    counts["four-of-a-kind"] = sum(groups(4, g, both) * (64 - N[g]) for g in (4, 5, 6))
    counts["full-house"] = sum(trio[a] * pair[b] for a in trio for b in pair if a != b)
    one_colour_four = sum(groups(4, g, n) * (32 - n[g]) for g in (4, 5, 6))
    one_colour_full = sum(trio1[a] * pair1[b] for a in trio1 for b in pair1 if a != b)
    counts["flush"] = 2 * (
        comb(32, 5)
        - america
        - ancestors
        - comb(n[5], 5)
        - comb(n[6], 5)
        - one_colour_four
        - one_colour_full
    )

    def others(k: int, exclude: tuple[int, ...], per: dict[int, int]) -> int:
        return _e([per[g] for g in gens if g not in exclude], k)

    counts["three-of-a-kind"] = sum(
        trio[a] * others(2, (a,), N) - 2 * trio1[a] * others(2, (a,), n) for a in trio
    )
    counts["two-pair"] = sum(
        pair[a] * pair[b] * others(1, (a, b), N) - 2 * pair1[a] * pair1[b] * others(1, (a, b), n)
        for a, b in itertools.combinations(pair, 2)
    )
    counts["pair"] = sum(
        pair[a] * others(3, (a,), N) - 2 * pair1[a] * others(3, (a,), n) for a in pair
    )
    counts["high-card"] = sum(
        prod(N[g] for g in gens if g != m) - 2 * prod(n[g] for g in gens if g != m)
        for m in (2, 3, 4, 5)
    )
    return counts


def test_expected_counts_cover_every_hand_once() -> None:
    expected = _expected_counts()
    assert set(expected) == {c.label for c in Category}
    assert sum(expected.values()) == HANDS == 7_624_512


def _classes() -> Iterator[tuple[int, tuple[GenCard, ...]]]:
    """Every hand class with its size and one hand of it.

    A class fixes, per generation 1-5, how many red and how many black cards, and for
    generation 6 how many couples and how many red and black cards without their partner.
    Which cards they are changes no category, so one hand speaks for the class."""
    cells: list[tuple[int, int, int]] = []  # (generation, red, black) for 1-5
    for g in range(1, 6):
        cells.extend((g, r, b) for r in range(PER_COLOUR[g] + 1) for b in range(PER_COLOUR[g] + 1))

    def lower(g: int, left: int) -> Iterator[tuple[int, list[GenCard]]]:
        if g == 6:
            for k in range(left // 2 + 1):
                for r in range(left - 2 * k + 1):
                    b = left - 2 * k - r
                    ways = comb(16, k) * comb(16 - k, r) * comb(16 - k - r, b)
                    if ways:
                        cards = [GenCard(6, c, i) for i in range(1, k + 1) for c in "RB"]
                        cards += [GenCard(6, "R", k + i) for i in range(1, r + 1)]
                        cards += [GenCard(6, "B", k + r + i) for i in range(1, b + 1)]
                        yield ways, cards
            return
        for r in range(min(PER_COLOUR[g], left) + 1):
            for b in range(min(PER_COLOUR[g], left - r) + 1):
                ways = comb(PER_COLOUR[g], r) * comb(PER_COLOUR[g], b)
                here = [GenCard(g, "R", i) for i in range(1, r + 1)]
                here += [GenCard(g, "B", i) for i in range(1, b + 1)]
                for rest_ways, rest in lower(g + 1, left - r - b):
                    yield ways * rest_ways, here + rest

    for ways, cards in lower(1, 5):
        yield ways, tuple(cards)


def test_exhaustive_classification_by_hand_class() -> None:
    counts: Counter[str] = Counter()
    per_colour: Counter[tuple[str, str]] = Counter()
    for ways, cards in _classes():
        category = Category(hand_key(cards)[0])
        counts[category.label] += ways
        if category in (Category.AMERICA, Category.ANCESTORS):
            per_colour[(category.label, cards[0].colour)] += ways
    assert sum(counts.values()) == HANDS
    assert counts == _expected_counts()
    # One-per-deck hands, derived by hand: America 1*1*2*4*8 per colour, Ancestors
    # 1*2*4*8*16 per colour, Grandparents the four 3s and any of 60, XX Century 5 of the 8,
    # Children and Parents both cards and any 3 of 62 (Parents without both Children).
    assert per_colour == {
        ("america", "R"): 64,
        ("america", "B"): 64,
        ("ancestors", "R"): 1024,
        ("ancestors", "B"): 1024,
    }
    assert counts["grandparents"] == 60
    assert counts["xx-century"] == 56
    assert counts["children"] == 37_820
    assert counts["parents"] == 37_820 - 60
    assert counts["two-countries"] == 120 * 60


@pytest.mark.slow
def test_exhaustive_classification_of_every_hand() -> None:
    """All 7,624,512 hands through the classifier itself (about 16 s)."""
    counts: Counter[int] = Counter(hand_key(h)[0] for h in itertools.combinations(DECK, 5))
    assert sum(counts.values()) == HANDS
    assert {Category(c).label: n for c, n in counts.items()} == _expected_counts()


# --- properties --------------------------------------------------------------------------

hands = st.lists(st.sampled_from(DECK), min_size=5, max_size=5, unique=True)
disjoint = st.permutations(DECK).map(lambda d: (d[0:5], d[5:10], d[10:15]))


@given(hands, st.randoms(use_true_random=False))
def test_order_of_cards_never_matters(cards: list[GenCard], rnd: random.Random) -> None:
    shuffled = list(cards)
    rnd.shuffle(shuffled)
    assert rank_hand(cards) == rank_hand(shuffled)
    assert hand_key(cards) == rank_hand(shuffled).key


@given(disjoint)
def test_compare_is_a_total_preorder_consistent_with_rank(
    three: tuple[list[GenCard], list[GenCard], list[GenCard]],
) -> None:
    def at_least(x: list[GenCard], y: list[GenCard]) -> bool:
        return 0 in compare([x, y]).winners

    a, b, c = three
    for x, y in itertools.permutations(three, 2):
        assert at_least(x, y) or at_least(y, x)  # total
        if rank_hand(x).category < rank_hand(y).category:
            assert compare([x, y]).winners == (0,)  # consistent with the category order
    for x, y, z in itertools.permutations(three):
        if at_least(x, y) and at_least(y, z):
            assert at_least(x, z)  # transitive
    together = compare([a, b, c]).winners
    for w in together:
        assert all(at_least(three[w], h) for h in three if h is not three[w])


# --- the draw ----------------------------------------------------------------------------


def test_deal_gives_five_distinct_cards_to_each_seat() -> None:
    dealt = deal(8, random.Random(1))
    cards = [c for hand in dealt.dealt for c in hand] + list(dealt.stock)
    assert [len(h) for h in dealt.dealt] == [5] * 8
    assert sorted(c.index for c in cards) == list(range(64))
    assert dealt.to_act == 0


def test_deal_is_reproducible_with_the_same_random() -> None:
    assert deal(4, random.Random(7)) == deal(4, random.Random(7))
    assert deal(4, random.Random(7)) != deal(4, random.Random(8))


def test_draw_replaces_discards_from_the_top_of_the_stock() -> None:
    start = deal(3, random.Random(3))
    hand = start.hand(0)
    after = start.draw(0, " ".join(str(c) for c in hand[:3]))
    assert after.hand(0) == hand[3:] + start.stock[:3]
    assert after.stock == start.stock[3:]
    assert after.to_act == 1


def test_eight_seats_can_each_draw_three() -> None:
    result = play_draw(8, random.Random(5), lambda seat, cards: cards[:3], pot=80)
    assert all(len(step.drawn) == 3 for step in result.round.draws)
    assert result.round.stock == ()
    assert sum(result.shares) == 80


@pytest.mark.parametrize(
    ("discard", "message"),
    [
        (4, "seat 1 may discard at most 3 cards, not 4"),
        ("foreign", "seat 1 cannot discard .*: it is not in that hand"),
    ],
)
def test_illegal_discards_are_refused(discard: int | str, message: str) -> None:
    start = deal(2, random.Random(11))
    if discard == "foreign":
        cards: tuple[GenCard, ...] = (start.stock[0],)
    else:
        cards = start.hand(0)[: int(discard)]
    with pytest.raises(DealerError, match=message):
        start.draw(0, cards)


def test_draw_out_of_turn_twice_and_early_showdown_are_refused() -> None:
    start = deal(3, random.Random(2))
    with pytest.raises(DealerError, match="seat 1 draws now, not seat 2"):
        start.draw(1, "")
    with pytest.raises(DealerError, match="discards .* twice"):
        start.draw(0, [start.hand(0)[0]] * 2)
    with pytest.raises(DealerError, match=r"seat\(s\) 2, 3 still to draw"):
        start.draw(0, "").showdown()
    with pytest.raises(CardError, match="unknown card 'xx'"):
        start.draw(0, "xx")


@pytest.mark.parametrize("players", [1, 9, 0])
def test_player_count_is_two_to_eight(players: int) -> None:
    with pytest.raises(DealerError, match=f"2-8 players, not {players}"):
        deal(players, random.Random(0))


def test_split_pot_gives_the_odd_chip_to_the_first_winner() -> None:
    # Find a reproducible split: every seat stands pat; look for a tied deal.
    for seed in range(2000):
        result = play_draw(3, random.Random(seed), lambda seat, cards: (), pot=101)
        if len(result.winners) == 2:
            first, second = result.winners
            assert result.shares[first] == 51 and result.shares[second] == 50
            assert sum(result.shares) == 101
            return
    pytest.fail("no split pot in 2000 deals")


def test_draw_result_to_dict_and_explanation() -> None:
    result = play_draw(2, random.Random(4), pot=10)
    data = result.to_dict()
    assert set(data) >= {"winners", "hands", "seats", "pot", "shares"}
    assert [s["seat"] for s in data["seats"]] == [1, 2]
    assert all(len(s["hand"]) == 5 for s in data["seats"])
    text = " ".join(result.explanation())
    assert "Seat 1" in text and "Seat 0" not in text and "Pot 10" in text


@pytest.mark.parametrize(
    ("hand", "discards"),
    [
        ("1R 2B 3R1 4R1 5R1", ""),
        ("5R1 5B1 1R 3R1 6B2", "6B2 3R1"),
        ("1R 3B1 4R1 5R1 6B1", "6B1 5R1 4R1"),
        ("6R1 6B1 4R2 5R3 2R", "5R3 4R2"),
    ],
)
def test_standard_discards(hand: str, discards: str) -> None:
    assert [str(c) for c in standard_discards(parse_hand(hand))] == discards.split()


@settings(max_examples=50, deadline=None)
@given(st.integers(2, 8), st.integers(0, 2**32), st.integers(0, 1000))
def test_any_round_is_consistent(players: int, seed: int, pot: int) -> None:
    result = play_draw(players, random.Random(seed), pot=pot)
    shown = [c for s in range(players) for c in result.round.hand(s)]
    assert len(shown) == len(set(shown)) == 5 * players
    assert result.winners and sum(result.shares) == pot
    best = min(hand_key(result.round.hand(s)) for s in range(players))
    assert all(hand_key(result.round.hand(w)) == best for w in result.winners)
