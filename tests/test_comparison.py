"""The one Comparison shape every game's compare returns: who wins, a shared win, its JSON."""

from __future__ import annotations

from typing import Any

import pytest

from dealer.kernel.comparison import Comparison, hand_names, rank_together
from dealer.kernel.errors import DealerError
from dealer.kernel.tuples import NamedTuple


class Hand(NamedTuple):
    key: tuple[int, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"key": list(self.key)}


HANDS = (Hand((3, 1)), Hand((5, 0)), Hand((3, 1)), Hand((5, 0)), Hand((4, 9)))


def test_the_highest_key_wins_and_equal_best_keys_share_the_win() -> None:
    compared = rank_together(HANDS, hand_names(len(HANDS), None, "Hand", "hands"))
    assert compared.winners == (1, 3) and compared.tie
    assert compared.best == Hand((5, 0))
    assert compared.losers() == [Hand((3, 1)), Hand((3, 1)), Hand((4, 9))]
    assert compared.names == ("Hand 1", "Hand 2", "Hand 3", "Hand 4", "Hand 5")


def test_with_lower_wins_the_lowest_key_wins() -> None:
    compared = rank_together(HANDS, ("a", "b", "c", "d", "e"), lower_wins=True)
    assert compared.winners == (0, 2)
    alone = rank_together(HANDS[3:], ("d", "e"), lower_wins=True)
    assert alone.winners == (1,) and not alone.tie


def test_the_json_names_the_shared_win_as_the_game_does() -> None:
    compared = rank_together(HANDS[:2], ("x", "y"))
    hands = [{"key": [3, 1]}, {"key": [5, 0]}]
    assert compared.to_dict() == {"winners": [1], "split": False, "hands": hands}
    assert list(compared.to_dict("tie")) == ["winners", "tie", "hands"]
    assert compared.winner_dict() == {"winner": 1, "hands": hands}


def test_a_copy_of_two_hands_has_no_winner() -> None:
    copy: Comparison[Hand] = rank_together(HANDS[:3:2], ("hand 1", "hand 2"))
    assert copy.winner_dict() == {"winner": None, "hands": [{"key": [3, 1]}] * 2}


def test_names_are_one_per_hand() -> None:
    assert hand_names(2, None, "Tableau", "tableaux") == ("Tableau 1", "Tableau 2")
    assert hand_names(2, ["Seat 3", "Seat 5"], "Hand", "hands") == ("Seat 3", "Seat 5")
    with pytest.raises(DealerError, match="3 names for 2 tableaux"):
        hand_names(2, ["a", "b", "c"], "Tableau", "tableaux")
