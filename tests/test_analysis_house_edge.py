"""Base-game simulation: the per-round arithmetic against the settlement, the best reply against
a brute force over the 21 splits, reproducibility across workers, and the published figures."""

from __future__ import annotations

import random
from collections.abc import Sequence
from decimal import Decimal
from typing import Any

import pytest
from house_edge_reference import best_reply, round_outcomes
from hypothesis import given, settings
from hypothesis import strategies as st

from dealer.analysis import house_edge
from dealer.analysis.house_edge import (
    CHUNK_ROUNDS,
    MAX_ROUNDS,
    MAX_WORKERS,
    OUTCOMES,
    StrategyEdge,
    run_chunk,
    simulate,
)
from dealer.games.paigow.best_reply import (
    DEALER_PAI_GOW_OPTIONS,
    cached_high_key,
    frontier,
    net_halves,
    pai_gow_class,
    reply_outcome,
)
from dealer.games.paigow.house_way import SPLITS, HouseWay, load_house_way
from dealer.games.paigow.ranking import Key, high_key, is_foul, low_key
from dealer.games.paigow.settle import BaseRules, house_way_sets, player_sets, settle_base
from dealer.kernel.cards import DECK, Card
from dealer.kernel.errors import DealerError

TRUMP = load_house_way("trump-plaza")
FOXWOODS = load_house_way("foxwoods")


def deals(n: int, seed: int) -> list[tuple[list[Card], list[Card]]]:
    rnd = random.Random(seed)
    out = []
    for _ in range(n):
        cards = rnd.sample(DECK, 14)
        out.append((cards[:7], cards[7:]))
    return out


# ------------------------------------------------------------------ one round


@pytest.mark.parametrize(
    ("option", "outcome", "pai_gow", "halves"),
    [
        ("half-pay", 2, 0, 2),
        ("half-pay", 2, 1, 1),
        ("half-pay", 2, 2, 1),
        ("half-pay", 1, 2, 0),
        ("half-pay", 0, 1, -2),
        ("push-king-or-less", 2, 0, 2),
        ("push-king-or-less", 2, 1, 2),
        ("push-king-or-less", 2, 2, 0),
        ("push-king-or-less", 0, 2, 0),
        ("push-king-or-less", 0, 1, -2),
        ("push-ace-high", 2, 1, 0),
        ("push-ace-high", 0, 1, 0),
        ("push-ace-high", 2, 2, 2),
        ("push-ace-high", 0, 2, -2),
        ("push-ace-high", 1, 0, 0),
    ],
)
def test_net_halves(option: str, outcome: int, pai_gow: int, halves: int) -> None:
    assert net_halves(option, outcome, pai_gow) == halves


def test_unknown_option_is_a_domain_error() -> None:
    with pytest.raises(DealerError, match="dealer_pai_gow"):
        net_halves("commission", 2, 0)


@pytest.mark.parametrize("way", [TRUMP, FOXWOODS], ids=lambda w: w.name)
def test_round_arithmetic_matches_the_settlement(way: HouseWay) -> None:
    for dealer, player in deals(300, 3):
        outcome, _ = round_outcomes(dealer, player, way, best=False)
        pg = pai_gow_class(dealer)
        for option in DEALER_PAI_GOW_OPTIONS:
            ruled = settle_base(
                dealer,
                house_way_sets(player, way),
                Decimal(1),
                way,
                BaseRules(dealer_pai_gow=option),
            )
            assert ruled.net == Decimal(net_halves(option, outcome, pg)) / 2
            if option == "half-pay":
                assert ruled.outcome == OUTCOMES[outcome]


def brute_best(dealer: list[Card], player: list[Card], way: HouseWay) -> int:
    """The best outcome over the 21 splits, each settled by the settlement itself."""
    best = 0
    for high_idx, (a, b) in SPLITS:
        ruled = settle_base(
            dealer,
            player_sets([player[i] for i in high_idx], [player[a], player[b]]),
            Decimal(1),
            way,
            BaseRules(dealer_pai_gow="push-ace-high"),
        )
        if not ruled.foul:
            hand = (ruled.player_high.key > ruled.dealer_high.key) + (
                ruled.player_low.key > ruled.dealer_low.key
            )
            best = max(best, hand)
    return best


def test_best_reply_is_the_best_split() -> None:
    improved = 0
    for dealer, player in deals(150, 5):
        house, reply = round_outcomes(dealer, player, TRUMP)
        assert reply is not None
        assert reply.outcome == brute_best(dealer, player, TRUMP)
        assert reply.outcome >= house
        assert reply.house_way == (reply.outcome == house)
        high = [c for i, c in enumerate(player) if i not in reply.low]
        low = [player[i] for i in reply.low]
        assert not is_foul(high_key(high), low_key(low))
        improved += reply.outcome > house
    assert improved > 0  # seeing the dealer's hand helps in some rounds


def test_best_reply_tie_rule_prefers_the_strongest_high_hand() -> None:
    for dealer, player in deals(80, 9):
        d = house_way_sets(dealer, TRUMP)
        dh, dl = high_key(d.high), low_key(d.low)
        # a House Way "setting" that loses both hands forces a search among the others
        worst = min(
            (s for s in SPLITS if not is_foul(*_keys(player, s))),
            key=lambda s: _keys(player, s),
        )
        reply = best_reply(player, dh, dl, worst[1])
        if reply.house_way:
            continue
        chosen = _keys(player, (tuple(i for i in range(7) if i not in reply.low), reply.low))
        for split in SPLITS:
            hk, lk = _keys(player, split)
            if not is_foul(hk, lk) and (hk > dh) + (lk > dl) == reply.outcome:
                assert (hk, lk) <= chosen


def _keys(cards: Sequence[Card], split: tuple[tuple[int, ...], tuple[int, int]]) -> tuple[Key, Key]:
    high_idx, (a, b) = split
    return high_key([cards[i] for i in high_idx]), low_key((cards[a], cards[b]))


@settings(max_examples=300, deadline=None)
@given(st.permutations(DECK), st.booleans())
def test_cached_high_key_is_high_key(cards: list[Card], wheel_second: bool) -> None:
    five = cards[:5]
    assert cached_high_key(five, wheel_second) == high_key(five, wheel_second)


# ------------------------------------------------------------------ a worker's round by ranks


def test_the_deal_draws_what_sample_draws() -> None:
    dealt = [0] * 14
    for seed in range(200):
        house_edge._deal(random.Random(seed).getrandbits, dealt)
        assert house_edge._cards(dealt) == random.Random(seed).sample(DECK, 14)


@settings(max_examples=300, deadline=None)
@given(st.permutations(DECK))
def test_a_hand_code_counts_ranks_and_suits(deck: list[Card]) -> None:
    hand = deck[:7]
    code = sum(house_edge._CODES[c.index] for c in hand)
    joker = sum(c.is_joker for c in hand)
    suits = [sum(c.suit == s for c in hand) for s in range(4)]
    assert bool(house_edge._may_flush(code)) == (max(suits) + joker >= 5)
    ranks = [(code >> 3 * slot) & 7 for slot in range(14)]
    assert ranks[13] == joker
    assert ranks[:13] == [sum(c.rank == r and not c.is_joker for c in hand) for r in range(2, 15)]


def _resuited(cards: list[Card], rnd: random.Random) -> list[Card]:
    """The same ranks (the joker kept) with other suits, drawn at random."""
    out: list[Card] = []
    for rank in sorted({c.rank for c in cards if not c.is_joker}):
        n = sum(c.rank == rank and not c.is_joker for c in cards)
        out += [Card(rank, s) for s in rnd.sample(range(4), n)]
    return out + [c for c in cards if c.is_joker]


@settings(max_examples=400, deadline=None)
@given(st.permutations(DECK), st.randoms(use_true_random=False))
def test_a_hand_that_cannot_hold_a_flush_is_decided_by_its_ranks(
    deck: list[Card], rnd: random.Random
) -> None:
    # what run_chunk keeps by a hand's ranks is the same for every hand with those ranks
    hand, other = deck[:7], _resuited(deck[:7], rnd)
    codes = [sum(house_edge._CODES[c.index] for c in h) for h in (hand, other)]
    assert codes[0] & house_edge._RANKS == codes[1] & house_edge._RANKS
    if any(map(house_edge._may_flush, codes)):
        return
    assert pai_gow_class(hand) == pai_gow_class(other)
    for wheel_second in (True, False):
        assert frontier(hand, wheel_second) == frontier(other, wheel_second)
        for way in (TRUMP, FOXWOODS):
            keys = house_edge._house_keys(hand, way, wheel_second)
            assert keys == house_edge._house_keys(other, way, wheel_second)


@pytest.mark.parametrize("wheel_second", [True, False])
def test_the_frontier_gives_the_best_reply(wheel_second: bool) -> None:
    for dealer, player in deals(400, 11):
        d = house_way_sets(dealer, TRUMP)
        dh, dl = high_key(d.high, wheel_second), low_key(d.low)
        _, reply = round_outcomes(dealer, player, TRUMP, wheel_second)
        assert reply is not None
        assert reply_outcome(frontier(player, wheel_second), dh, dl) == reply.outcome


def test_the_frontier_is_every_unbeaten_legal_setting() -> None:
    for _, player in deals(100, 12):
        legal = [k for k in (_keys(player, s) for s in SPLITS) if not is_foul(*k)]
        unbeaten = {
            (lk, hk)
            for hk, lk in legal
            if not any(h >= hk and lo >= lk and (h, lo) != (hk, lk) for h, lo in legal)
        }
        assert set(frontier(player)) == unbeaten


@pytest.mark.parametrize("wheel_second", [True, False])
def test_a_chunk_tallies_what_its_rounds_settle_card_by_card(
    wheel_second: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Once from nothing kept, then from what the first time kept (the worker's memo, made new
    here whatever other tests left in it)."""
    memo = house_edge._Memo()
    monkeypatch.setattr(house_edge, "_MEMOS", {wheel_second: memo})
    rounds, seed, chunk = 1500, 8, 3
    rnd = random.Random(house_edge._chunk_seed(seed, chunk))
    expected = [0] * 36
    for _ in range(rounds):
        cards = rnd.sample(DECK, 14)
        pg = pai_gow_class(cards[:7])
        for w, way in enumerate((TRUMP, FOXWOODS)):
            house, reply = round_outcomes(cards[:7], cards[7:], way, wheel_second)
            assert reply is not None
            expected[w * 18 + house * 3 + pg] += 1
            expected[w * 18 + 9 + reply.outcome * 3 + pg] += 1
    for _ in range(2):
        got = run_chunk((TRUMP, FOXWOODS), ("house-way", "best"), wheel_second, seed, chunk, rounds)
        assert got == expected
        assert memo.pai_gow and memo.frontier and all(memo.ways.values())
    alone = run_chunk((FOXWOODS,), ("best",), wheel_second, seed, chunk, rounds)
    assert alone == expected[27:36]


# ------------------------------------------------------------------ the tally and its figures


def test_option_figures_from_a_hand_made_tally() -> None:
    # counts[outcome][dealer pai gow: none, ace-high, king-or-less]
    edge = StrategyEdge("w", "1", "house-way", ((6, 2, 2), (5, 1, 0), (2, 1, 1)))
    half = edge.option("half-pay")  # nets: -1 x10, 0 x6, +1 x2, +1/2 x2
    assert (half.win, half.push, half.lose) == (0.2, 0.3, 0.5)
    assert half.house_edge == pytest.approx(0.35)
    king = edge.option("push-king-or-less")  # pushes: 2 losses, 1 win; nets -1 x8, +1 x3
    assert (king.win, king.push, king.lose) == (0.15, 0.45, 0.4)
    assert king.house_edge == pytest.approx(0.25)
    ace = edge.option("push-ace-high")  # pushes: 2 losses, 1 win
    assert ace.house_edge == pytest.approx(0.25)
    values = [-1] * 8 + [0] * 9 + [1] * 3
    mean = sum(values) / 20
    sample_var = sum((v - mean) ** 2 for v in values) / 19
    assert king.standard_error == pytest.approx((sample_var / 20) ** 0.5)
    lo, hi = king.ci95
    assert lo < king.house_edge < hi
    assert hi - lo == pytest.approx(2 * 1.959964 * king.standard_error)
    assert edge.hand_outcomes() == {"win": 0.2, "push": 0.3, "lose": 0.5}


def test_same_seed_same_figures_whatever_the_workers() -> None:
    rounds = 2 * CHUNK_ROUNDS + 7
    one = simulate(rounds, 42, [TRUMP], ["house-way"], workers=1)
    two = simulate(rounds, 42, [TRUMP], ["house-way"], workers=2)
    assert one == two
    assert one.strategies[0].rounds == rounds
    other = simulate(rounds, 43, [TRUMP], ["house-way"], workers=1)
    assert other.strategies[0].counts != one.strategies[0].counts


def test_every_way_and_mode_is_settled_on_the_same_deals() -> None:
    report = simulate(3000, 1, [TRUMP, FOXWOODS], workers=1)
    assert [(s.house_way, s.player) for s in report.strategies] == [
        ("trump-plaza", "house-way"),
        ("trump-plaza", "best"),
        ("foxwoods", "house-way"),
        ("foxwoods", "best"),
    ]
    by_pai_gow = {
        tuple(sum(row[g] for row in s.counts) for g in range(3)) for s in report.strategies
    }
    assert len(by_pai_gow) == 1  # the same dealer hands for every way and mode
    alone = simulate(3000, 1, [FOXWOODS], ["best"], workers=1)
    assert alone.strategies[0] == report.strategies[3]
    house, best = report.strategies[:2]
    assert best.option("half-pay").house_edge < house.option("half-pay").house_edge


def test_progress_reaches_the_rounds() -> None:
    seen: list[tuple[int, int]] = []
    simulate(CHUNK_ROUNDS + 1, 3, [TRUMP], ["house-way"], progress=lambda d, t: seen.append((d, t)))
    assert seen == [(CHUNK_ROUNDS, CHUNK_ROUNDS + 1), (CHUNK_ROUNDS + 1, CHUNK_ROUNDS + 1)]


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"rounds": 0}, "rounds must be at least 1, got 0"),
        ({"rounds": MAX_ROUNDS + 1}, f"rounds must be at most 100,000,000, got {MAX_ROUNDS + 1}"),
        ({"rounds": 10**31}, "rounds must be at most"),
        ({"workers": 0}, "workers must be at least 1, got 0"),
        ({"workers": MAX_WORKERS + 1}, "workers must be at most 64, got 65"),
        ({"players": ["dealer"]}, "player mode"),
        ({"players": []}, "player mode"),
        ({"wheel": "highest"}, "wheel"),
        ({"ways": []}, "House Way"),
    ],
)
def test_bad_inputs_are_domain_errors(kwargs: dict[str, Any], message: str) -> None:
    args = {"rounds": 10, "seed": 1, "ways": [TRUMP], **kwargs}
    with pytest.raises(DealerError, match=message):
        simulate(**args)


def test_report_json_and_explanation() -> None:
    report = simulate(500, 9, [TRUMP], workers=1)
    out = report.to_dict()
    assert (out["rounds"], out["seed"], out["wheel"]) == (500, 9, "second-highest")
    strategy = out["strategies"][0]
    assert strategy["house_way"] == {"name": "trump-plaza", "version": TRUMP.version}
    assert [o["dealer_pai_gow"] for o in strategy["options"]] == list(DEALER_PAI_GOW_OPTIONS)
    assert sum(h["probability"] for h in strategy["hands"].values()) == pytest.approx(1)
    assert any("copy goes to the dealer" in line for line in report.explanation())


# ------------------------------------------------------------------ the published simulation

PUBLISHED = {"win": 0.2855, "push": 0.4147, "lose": 0.2998}
INDEPENDENT = {"win": 0.2862, "push": 0.4146, "lose": 0.2993}
"""Both sides set by trump-plaza, copies to the dealer: a published simulation, and an
independent one of 20 million rounds."""


@pytest.mark.slow
def test_trump_plaza_both_sides_near_the_published_simulations() -> None:
    # 300,000 rounds: a standard error of 0.08-0.09 percentage points on each probability, so
    # this quick check allows 0.1 point plus three standard errors; the slow test below runs
    # enough rounds for the 0.1-point check itself.
    report = simulate(300_000, 2026, [TRUMP], ["house-way"], workers=2)
    strategy = report.strategies[0]
    ses = strategy.hand_standard_errors()
    for name, p in strategy.hand_outcomes().items():
        assert ses[name] < 0.001
        for reference in (PUBLISHED, INDEPENDENT):
            assert abs(p - reference[name]) <= 0.001 + 3 * ses[name], (name, p)


@pytest.mark.slow
def test_trump_plaza_both_sides_within_a_tenth_of_a_point() -> None:
    # 2,000,000 rounds: a standard error of about 0.033 points, a third of the tolerance.
    report = simulate(2_000_000, 1, [TRUMP], ["house-way"], workers=2)
    strategy = report.strategies[0]
    for name, p in strategy.hand_outcomes().items():
        assert strategy.hand_standard_errors()[name] < 0.00035
        for reference in (PUBLISHED, INDEPENDENT):
            assert abs(p - reference[name]) <= 0.001, (name, p, reference[name])
