"""A patron's own setting judged when it is ruled: the nets of the best setting and of the House
Way's that a settle records (`best_net`, `house_way_net`) for hand-made hands, against every
legal setting and the statistics' former computation on random deals, and the statistics
reading them (the same figures as recomputing them for a ruling recorded before)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from decimal import Decimal
from types import MappingProxyType
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from log_reads import ruling_record

from dealer.audit.records import canonical_json
from dealer.desk.shift import InEffect
from dealer.desk.stats import Judge, Read, floor_of, summed
from dealer.desk.stats_sources import Sources
from dealer.games.paigow.best_reply import (
    ReplyNets,
    cached_high_key,
    frontier,
    net_halves,
    pai_gow_class,
    reply_nets,
    reply_outcome,
)
from dealer.games.paigow.bonus import Meters
from dealer.games.paigow.deck import parse_cards
from dealer.games.paigow.house_way import SPLITS, load_house_way, set_hand
from dealer.games.paigow.pay import Wager
from dealer.games.paigow.profile import CHOICES, load_profile
from dealer.games.paigow.ranking import WHEEL_SETTINGS, high_key, is_foul, low_key
from dealer.games.paigow.round_input import SeatWagers
from dealer.games.paigow.seat_rulings import settle_ruling
from dealer.games.paigow.settle import (
    BaseRules,
    BaseSettlement,
    house_way_sets,
    player_sets,
    settle_base,
)
from dealer.kernel.cards import DECK, Card
from dealer.kernel.ruling import Ruling

WAY = load_house_way("trump-plaza")
NO_PAI_GOW = "Tc 8s Ts Kd 5h 2h 9d"
"""A dealer hand (a pair of tens) against which hand A's House Way setting pushes and another
setting wins both hands."""
HAND_A = "Qh Td 6h Th 7d Ac 3c"
JACK_HIGH = "2s 3d 4c 6h 8s 9d Jc"
"""A dealer jack-high pai gow: a win pays 1 to 2 (half-pay)."""


def _settle(dealer: str, high: str, low: str, wager: int = 25, **rules: str) -> BaseSettlement:
    return settle_base(
        parse_cards(dealer),
        player_sets(parse_cards(high), parse_cards(low)),
        Decimal(wager),
        WAY,
        BaseRules(**rules),
    )


def _player(result: BaseSettlement) -> dict[str, Any]:
    player = result.to_dict()["player"]
    assert isinstance(player, dict)
    return player


def test_a_setting_equal_to_the_best_records_its_own_net() -> None:
    result = _settle(JACK_HIGH, "As Ad 3c 5h 7s", "Kc Kh")
    player = _player(result)
    assert (result.net, player["best_net"], player["house_way_net"]) == (
        Decimal("12.5"),
        12.5,
        12.5,
    )
    assert not any("own setting" in line for line in result.explanation())


def test_a_foul_against_the_best_setting() -> None:
    result = _settle(JACK_HIGH, "Kc Kh 3c 5h 7s", "As Ad")
    player = _player(result)
    assert result.foul and result.net == -25
    assert (player["best_net"], player["house_way_net"]) == (12.5, 12.5)
    assert result.explanation()[-1] == (
        "player's own setting: the best setting would have won $12.50 (House Way: win $12.50)"
    )


def test_a_setting_worse_than_the_house_way_s() -> None:
    result = _settle(NO_PAI_GOW, "Qh Td 7d Ac 3c", "6h Th", wager=10)
    player = _player(result)
    assert result.net == -10 and (player["best_net"], player["house_way_net"]) == (10, 0)
    assert result.explanation()[-1] == (
        "player's own setting: the best setting would have won $10 (House Way: push)"
    )


def test_a_best_setting_that_pushes_and_a_house_way_that_loses() -> None:
    """Every hand pushes against a king-high pai gow under `push-king-or-less`: the best
    setting too, and a foul still forfeits."""
    result = _settle(JACK_HIGH, "Kc Kh 3c 5h 7s", "As Ad", dealer_pai_gow="push-king-or-less")
    assert result.net == -25 and _player(result)["best_net"] == 0
    assert result.explanation()[-1] == (
        "player's own setting: the best setting would have pushed (House Way: push)"
    )


def test_the_line_names_a_house_way_that_loses() -> None:
    assert ReplyNets(Decimal(0), Decimal("-12.5")).shortfall() == (
        "player's own setting: the best setting would have pushed (House Way: lose $12.50)"
    )


def test_a_hand_set_by_the_house_way_records_the_best_only() -> None:
    """The House Way's own setting is what was played: the best setting's net is recorded (what
    asking for the House Way cost the patron), the House Way's is the net itself (as for a
    fouled hand re-set by the House Way under `reset`)."""
    asked = settle_base(
        parse_cards(NO_PAI_GOW),
        house_way_sets(parse_cards(HAND_A), WAY),
        Decimal(10),
        WAY,
        BaseRules(),
    )
    reset = _settle(JACK_HIGH, "Kc Kh 3c 5h 7s", "As Ad", foul="reset")
    for result in (asked, reset):
        assert result.reply is not None and result.reply.house_way == result.net
        assert set(_player(result)) == {"set_by", "high", "low", "best_net"}
        assert _player(result)["set_by"] == "house-way"
        assert result.reply.best >= result.net
    assert (asked.net, _player(asked)["best_net"]) == (0, 10)


def _former_hand_play(
    dealer: Sequence[Card], player: Sequence[Card], wager: Decimal, rules: BaseRules
) -> tuple[Decimal, Decimal]:
    """The statistics' computation before the settle recorded the nets: the best outcome from
    the frontier against the dealer's House Way keys, the House Way's net by the settlement."""
    wheel_second = rules.wheel == "second-highest"
    dealer_setting = set_hand(dealer, WAY)
    outcome = reply_outcome(
        frontier(player, wheel_second),
        high_key(dealer_setting.high, wheel_second),
        low_key(dealer_setting.low),
    )
    best = Decimal(net_halves(rules.dealer_pai_gow, outcome, pai_gow_class(dealer))) * wager / 2
    house = settle_base(dealer, house_way_sets(player, WAY), wager, WAY, rules).net
    return best, house


@settings(max_examples=150, deadline=None)
@given(
    deck=st.permutations(DECK),
    split=st.sampled_from(SPLITS),
    wheel=st.sampled_from(WHEEL_SETTINGS),
    option=st.sampled_from(CHOICES["dealer_pai_gow"]),
    wager=st.sampled_from(["5", "25", "12.35", "0.05", "5000"]),
)
def test_the_best_setting_is_never_worse_than_any_setting(
    deck: list[Card], split: Any, wheel: str, option: str, wager: str
) -> None:
    """For random deals and any setting of the player's seven cards (a foul forfeits): the
    recorded best net is the best of every legal setting's net as the settlement pays it, so
    never below the net played nor the House Way's; and both are what the statistics computed
    before."""
    dealer, cards = deck[:7], deck[7:14]
    high, low = [cards[i] for i in split[0]], [cards[i] for i in split[1]]
    rules = BaseRules(wheel, option, "forfeit")
    amount = Decimal(wager)
    result = settle_base(dealer, player_sets(high, low), amount, WAY, rules)
    assert result.reply is not None
    best, house = result.reply
    assert best >= result.net and best >= house
    wheel_second = wheel == "second-highest"
    settings_of = (([cards[i] for i in hi], [cards[i] for i in lo]) for hi, lo in SPLITS)
    legal = [
        settle_base(dealer, player_sets(five, two), amount, WAY, rules).net
        for five, two in settings_of
        if not is_foul(cached_high_key(five, wheel_second), low_key(two))
    ]
    assert best == max(legal)
    assert (best, house) == _former_hand_play(dealer, cards, amount, rules)
    nets = reply_nets(
        dealer, set_hand(dealer, WAY), cards, amount, WAY, rules.wheel, rules.dealer_pai_gow
    )
    assert (nets.best, nets.house_way) == (best, house)


# --- the statistics read what the settle recorded ------------------------------------------

ROUNDS = 5000
"""Simulated rounds for the statistics' base edges (one chunk, then cached)."""


def _ruling(
    dealer: str, player: str | None = None, high: str | None = None, low: str | None = None
) -> Ruling:
    """A $10 base wager settled for patron P-1 at the default profile."""
    base = SeatWagers(MappingProxyType({Wager.BASE: Decimal(10)}))
    profile = load_profile()
    return settle_ruling(dealer, base, profile, Meters(), player, high, low, patron="P-1")[0]


def _patron(results: list[tuple[Ruling, dict[str, Any]]]) -> dict[str, Any]:
    """The patron's row of the statistics read from these rulings' records."""
    sources = Sources({}, ROUNDS, 26)
    read = Read()
    records = [ruling_record(n, ruling, result) for n, (ruling, result) in enumerate(results, 1)]
    read.records(records, InEffect(frozenset(), {}, {}), Judge(sources))
    (row,) = summed(floor_of(read.numbers, sources), None, None, 0.95, 0).groups["patrons"]
    return row.figures


def _stored(ruling: Ruling) -> dict[str, Any]:
    result: dict[str, Any] = json.loads(canonical_json(ruling.result))
    return result


def _without_nets(result: dict[str, Any]) -> dict[str, Any]:
    player = result["base"]["player"]
    for key in ("best_net", "house_way_net"):
        player.pop(key, None)
    return result


@pytest.fixture(scope="module")
def hands() -> list[Ruling]:
    """Hand A set best, set worse than the House Way's, fouled, and set by the House Way."""
    return [
        _ruling(NO_PAI_GOW, high="Qh Td Th 7d 3c", low="6h Ac"),
        _ruling(NO_PAI_GOW, high="Qh Td 7d Ac 3c", low="6h Th"),
        _ruling(NO_PAI_GOW, high="Td Th 7d Ac 3c", low="Qh 6h"),
        _ruling(NO_PAI_GOW, player=HAND_A),
    ]


def test_statistics_read_the_recorded_nets_as_they_would_recompute_them(
    hands: list[Ruling],
) -> None:
    recorded = _patron([(r, _stored(r)) for r in hands])
    before = _patron([(r, _without_nets(_stored(r))) for r in hands])
    assert recorded == before
    # best $10 each; played +10, −10, 0 and the House Way's 0: costs 0 + 20 + 10 + 10
    assert recorded["play_cost"] == 40 and recorded["own_hands"] == 3


def test_statistics_take_the_recorded_nets_without_recomputing(hands: list[Ruling]) -> None:
    """A recorded best net is read as it stands (what the settle found is a fact of the
    ruling): one planted $7 higher costs the patron $7 more."""
    planted = _stored(hands[0])
    planted["base"]["player"]["best_net"] = 17
    figures = _patron([(hands[0], planted)])
    assert figures["play_cost"] == 7 and figures["best_share"] == 0
