"""A round of Emperor's Challenge played card by card, kept for the tests only: the House Way
setting of each hand, and the player's best reply to the exposed dealer setting searched over
the 21 splits of the seven cards with the reply itself (its low cards, whether it is the House
Way's).

The simulation (`dealer.analysis.house_edge.run_chunk`) keeps only outcomes, from what a hand's
ranks decide and from the player's frontier; tests/test_analysis_house_edge.py checks that a
chunk tallies exactly what these rounds settle.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from dealer.analysis.house_edge import _house_keys
from dealer.games.paigow.best_reply import (
    _HIGH_KEYS,
    _SPLIT_READERS,
    _mark,
    _suited,
    cached_high_key,
)
from dealer.games.paigow.house_way import HouseWay, set_hand
from dealer.games.paigow.ranking import Category, Key, high_key, low_key
from dealer.kernel.cards import JOKER_SUIT, Card


def round_outcomes(
    dealer: Sequence[Card],
    player: Sequence[Card],
    way: HouseWay,
    wheel_second: bool = True,
    best: bool = True,
) -> tuple[int, Reply | None]:
    """One round under one House Way: the hand outcome of a player setting by the House Way,
    and (with `best`) the player's best reply to the exposed dealer setting."""
    return player_outcomes(player, way, *_house_keys(dealer, way, wheel_second), wheel_second, best)


def player_outcomes(
    player: Sequence[Card],
    way: HouseWay,
    dealer_high: Key,
    dealer_low: Key,
    wheel_second: bool = True,
    best: bool = True,
) -> tuple[int, Reply | None]:
    """The player's side of `round_outcomes`, against the dealer setting's keys."""
    p = set_hand(player, way)
    outcome = (cached_high_key(p.high, wheel_second) > dealer_high) + (low_key(p.low) > dealer_low)
    if not best:
        return outcome, None
    house_low = (player.index(p.low[0]), player.index(p.low[1]))
    return outcome, best_reply(player, dealer_high, dealer_low, house_low, wheel_second)


@dataclass(frozen=True, slots=True)
class Reply:
    """The player's setting against a known dealer setting: indices of the two low cards into
    the seven cards, the hand outcome (index into OUTCOMES), and whether it is the House Way's."""

    low: tuple[int, int]
    outcome: int
    house_way: bool


_PAIR = int(Category.ONE_PAIR)
_NO_PAIR = int(Category.HIGH_CARD)


def best_reply(
    cards: Sequence[Card],
    dealer_high: Key,
    dealer_low: Key,
    house_low: tuple[int, int],
    wheel_second: bool = True,
) -> Reply:
    """The best legal setting of seven cards against a dealer setting (its high and low keys).

    `house_low` holds the indices of the low cards of the House Way's setting of `cards`: it is
    kept whenever no other setting does better. Among other settings with the best outcome, the
    strongest high hand, then the strongest low hand is taken (settings equal in both differ
    only in suits and are interchangeable).

    Speed: a split is looked at only while it could still be taken. Its low hand is ranked
    first; a low hand no better than the dealer's caps its outcome at 1, so such a split is
    passed over unhesitatingly when the House Way's setting or a split already found does at
    least as well, before its high hand is ranked."""
    house_high = cached_high_key([cards[i] for i in range(7) if i not in house_low], wheel_second)
    house_outcome = (house_high > dealer_high) + (
        low_key((cards[house_low[0]], cards[house_low[1]])) > dealer_low
    )
    if house_outcome == 2:
        return Reply(house_low, 2, True)
    # The cards high to low, the joker first: any five of them read in order are sorted too,
    # so a split's high-key signature is read off in place (see cached_high_key).
    hand = sorted(cards, key=_mark, reverse=True)
    marks = tuple(map(_mark, hand))
    ranks = [c.rank for c in hand]  # the joker is an ace in the low hand
    naturals = [c.suit for c in hand if c.suit != JOKER_SUIT]
    may_be_suited = max(map(naturals.count, set(naturals))) >= 4
    floor = house_outcome  # a split must do better than this to be taken
    best: tuple[int, Key, Key] = (-1, (), ())
    best_low = (0, 0)
    for high, a, b in _SPLIT_READERS:
        ra, rb = ranks[a], ranks[b]
        lk: Key = (_PAIR, ra) if ra == rb else (_NO_PAIR, ra, rb)
        low_wins = lk > dealer_low
        if not low_wins and floor >= 1:
            continue
        signature = (
            high(marks),
            may_be_suited and _suited(high(hand)),
            wheel_second,
        )
        hk = _HIGH_KEYS.get(signature)
        if hk is None:
            hk = _HIGH_KEYS[signature] = high_key(high(hand), wheel_second)
        outcome = (hk > dealer_high) + low_wins
        if outcome <= floor or hk[: len(lk)] < lk:  # not better, or a foul
            continue
        score = (outcome, hk, lk)
        if score > best:
            best, best_low = score, (a, b)
            floor = outcome - 1  # equal outcomes still compete on their hands
    if best[0] <= house_outcome:
        return Reply(house_low, house_outcome, True)
    a, b = best_low
    return Reply((cards.index(hand[a]), cards.index(hand[b])), best[0], False)
