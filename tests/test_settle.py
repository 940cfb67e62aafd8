"""Base-wager settlement: win, push, lose, copies, fouls and the dealer-pai-gow options."""

import csv
from decimal import Decimal
from pathlib import Path

import pytest

from dealer.games.paigow.deck import parse_cards
from dealer.games.paigow.house_way import load_house_way
from dealer.games.paigow.settle import BaseRules, house_way_sets, player_sets, settle_base

DATA = Path(__file__).parent / "data"
WAY = load_house_way("trump-plaza")


def _rows() -> list[list[str]]:
    with open(DATA / "settle_cases.tsv", encoding="utf-8") as f:
        return [r for r in csv.reader(f, delimiter="\t") if r and not r[0].startswith("#")]


@pytest.mark.parametrize("row", _rows(), ids=lambda r: r[7])
def test_settlement_table(row: list[str]) -> None:
    dealer, high, low, pai_gow_rule, foul, outcome, net, _ = row
    hand = player_sets(parse_cards(high), parse_cards(low))
    result = settle_base(
        parse_cards(dealer), hand, Decimal(10), WAY, BaseRules("second-highest", pai_gow_rule, foul)
    )
    assert (result.outcome, result.net) == (outcome, Decimal(net))


def test_copy_in_both_hands_loses_and_says_so() -> None:
    dealer = parse_cards("Ks Kd Qc Jh 5s 3d 2c")
    hand = player_sets(parse_cards("Kc Kh 5h 3c 2h"), parse_cards("Qd Js"))
    result = settle_base(dealer, hand, Decimal(25), WAY, BaseRules())
    assert result.outcome == "lose" and result.net == Decimal(-25)
    text = "\n".join(result.explanation())
    assert "high: copy (pair of kings, 5-3-2 kickers) — a copy goes to the dealer" in text
    assert "base wager $25: lose, both hands lose: -$25" in text


def test_player_asking_for_the_house_way() -> None:
    dealer = parse_cards("Ks Kd 9c 7h 5s 3d 2c")
    hand = house_way_sets(parse_cards("As Ad 8c 6h 4s Qc Jd"), WAY)
    result = settle_base(dealer, hand, Decimal(10), WAY, BaseRules())
    assert result.player.set_by == "house-way"
    assert {str(c) for c in result.player.low} == {"Qc", "Jd"}
    assert result.outcome == "win" and not result.foul


def test_half_pay_arithmetic_keeps_cents() -> None:
    dealer = parse_cards("As Kd 9c 7h 5s 3d 2c")
    hand = player_sets(parse_cards("Ac Ad 8c 6h 4s"), parse_cards("Ks Qd"))
    result = settle_base(dealer, hand, Decimal(5), WAY, BaseRules())
    assert result.net == Decimal("2.5") and result.odds == "1 to 2"
    assert result.to_dict()["net"] == 2.5
