"""Empire: plaque notation, the combination table, the two-pass valuation, the hand tracker."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from dealer.games.empire import MAX_PLAYERS
from dealer.games.empire.combinations import default_table, load_table
from dealer.games.empire.deck import SET, Plaque, parse_plaque, parse_plaques
from dealer.games.empire.hand import DEALT, EmpireHand, deal_hand, start_hand
from dealer.games.empire.ranking import Active, compare, comparison_dict, explain, rank_tableau
from dealer.kernel.errors import CardError, ConfigError, DealerError

DATA = Path(__file__).parent / "data"
TABLE = default_table()
OPERATOR = load_table(DATA / "empire_operator_table.yaml")


def _rows(name: str) -> list[list[str]]:
    lines = (DATA / name).read_text(encoding="utf-8").splitlines()
    return [line.split("\t") for line in lines if line and not line.startswith("#")]


def _active(active: tuple[Active, ...]) -> str:
    marks = ["*" if a.emulated else "~" if a.recoloured_by else "" for a in active]
    return " ".join(a.considered + m for a, m in zip(active, marks, strict=True))


# --- notation ----------------------------------------------------------------------------


def test_the_set_has_fifty_plaques() -> None:
    assert len(SET) == len(set(SET)) == 50
    assert [p.index for p in SET] == list(range(50))
    assert sum(1 for p in SET if p.group == "military") == 25
    assert sum(1 for p in SET if p.group == "civic") == 20
    assert [str(p) for p in SET if p.group == "unique"] == [
        "elf",
        "dwarf",
        "thief",
        "dragon",
        "dragon",
    ]


def test_every_plaque_round_trips_and_two_dragons_parse() -> None:
    assert all(parse_plaque(str(p)) in SET for p in SET)
    plaques = parse_plaques("Dragon RED-SWORD dragon")
    assert [str(p) for p in plaques] == ["dragon", "red-sword", "dragon"]
    assert plaques[0] != plaques[2]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("red-axe", "unknown plaque 'red-axe': no type 'axe'"),
        ("pink-sword", "unknown plaque 'pink-sword': no colour 'pink'"),
        ("wizard", "unknown plaque 'wizard': a plaque is <colour>-<type>"),
        ("red-sword red-sword", "duplicate plaque 'red-sword'"),
        ("dragon dragon dragon", "a third dragon 'dragon': the set has two Dragons"),
    ],
)
def test_bad_plaques_are_named(text: str, message: str) -> None:
    with pytest.raises(CardError, match=message):
        parse_plaques(text)


def test_tableau_size_and_plaques_shared_between_tableaux() -> None:
    with pytest.raises(CardError, match="expected 1-7, got 8"):
        rank_tableau(
            parse_plaques("elf dwarf thief red-sword red-bow red-spear red-horse red-sigil")
        )
    with pytest.raises(CardError, match="duplicate plaque red-sword: in tableau 1 and tableau 2"):
        compare([parse_plaques("red-sword"), parse_plaques("red-sword blue-bow")])
    with pytest.raises(CardError, match="a third dragon in tableau 2"):
        compare([parse_plaques("dragon dragon"), parse_plaques("dragon")])
    with pytest.raises(CardError, match="at least two tableaux"):
        compare([parse_plaques("dragon")])


# --- special properties, restrictions, ties: worked examples -----------------------------


@pytest.mark.parametrize(
    ("tableau", "others", "category", "active", "note"), _rows("empire_ranks.tsv")
)
def test_worked_examples(tableau: str, others: str, category: str, active: str, note: str) -> None:
    rest = [] if others == "-" else [parse_plaques(t) for t in others.split("|")]
    ranked = rank_tableau(parse_plaques(tableau), TABLE, rest)
    assert (ranked.category, _active(ranked.active)) == (category, active), note


@pytest.mark.parametrize(("tableaux", "winners", "note"), _rows("empire_compares.tsv"))
def test_showdown_examples(tableaux: str, winners: str, note: str) -> None:
    result = compare([parse_plaques(t) for t in tableaux.split("|")], TABLE)
    assert result.to_dict()["winners"] == [int(w) for w in winners.split(",")], note


def test_coffer_recolour_is_explained() -> None:
    ranked = rank_tableau(parse_plaques("red-sword red-bow red-spear blue-horse red-coffer"))
    horse = ranked.active[-1]
    assert (str(horse.plaque), horse.considered, horse.emulated) == (
        "blue-horse",
        "red-horse",
        False,
    )
    assert "blue-horse as red-horse (recoloured by red-coffer)" in " ".join(ranked.explanation())


def test_crown_merge_is_explained() -> None:
    ranked = rank_tableau(
        parse_plaques("red-sword red-bow blue-spear blue-horse red-crown blue-crown")
    )
    assert "recoloured by the Crowns, blue merged into red" in " ".join(ranked.explanation())


def test_emulated_coffer_says_it_gives_no_power() -> None:
    ranked = rank_tableau(parse_plaques("elf red-coffer blue-coffer green-sword"))
    assert ranked.active[-1].emulated
    assert "An emulated Coffer or Crown gives none of its power." in ranked.explanation()


def test_restrictions_are_reported() -> None:
    ranked = rank_tableau(
        parse_plaques("red-sword blue-sword blue-bow dragon"),
        TABLE,
        [parse_plaques("thief blue-coffer"), parse_plaques("dwarf green-gate green-sword")],
    )
    data = ranked.to_dict()
    assert data["ignored"] == ["blue-sword", "blue-bow"]
    assert data["restrictions"] == {"no_emulating": ["sword", "gate"], "no_counting": ["blue"]}
    text = " ".join(ranked.explanation())
    assert "Other tableau 1's Thief with blue-coffer forbids counting blue plaques" in text
    assert "Other tableau 2's Dwarf with green-gate forbids emulating sword, gate" in text


def test_tie_break_explanations() -> None:
    emulated = compare(
        [parse_plaques("black-sword white-sword"), parse_plaques("red-sword dragon")]
    )
    assert "a true plaque beats an emulated one" in explain(emulated)[-2]
    colour = compare([parse_plaques("red-bow white-bow"), parse_plaques("blue-bow green-bow")])
    assert "colour decides, red against blue" in explain(colour)[-2]
    rank = compare([parse_plaques("red-sword blue-sword"), parse_plaques("red-bow blue-bow")])
    assert "highest-ranked active plaques decide, sword against bow" in explain(rank)[-2]
    split = compare([parse_plaques("dragon"), parse_plaques("dragon")])
    assert split.tie and "split the pot" in explain(split)[-2]


# --- provisional data and the operator's table -------------------------------------------


def test_shipped_table_is_provisional_and_holds_only_attested_combinations() -> None:
    assert TABLE.provisional
    kinds = {(c.kind, c.types if c.kind == "same-colour" else ()) for c in TABLE.combinations}
    assert kinds == {
        ("same-type", ()),
        ("same-colour", ("sword", "bow", "spear", "horse", "sigil")),
    }
    assert {c.count for c in TABLE.combinations if c.kind == "same-colour"} == {4, 5}


def test_every_ruling_on_the_shipped_table_says_provisional() -> None:
    ranked = rank_tableau(parse_plaques("red-sword blue-sword"))
    assert ranked.to_dict()["provisional"] is True
    assert any(line.startswith("Provisional:") for line in ranked.explanation())
    result = compare([parse_plaques("red-sword"), parse_plaques("blue-bow")])
    assert comparison_dict(result)["provisional"] is True
    assert all(h["provisional"] for h in comparison_dict(result)["hands"])
    assert any(line.startswith("Provisional:") for line in explain(result))


def test_an_operator_table_changes_rulings() -> None:
    citadel = parse_plaques("red-gate red-tower red-crown")
    assert rank_tableau(citadel, TABLE).category == "no-combination"
    ranked = rank_tableau(citadel, OPERATOR)
    assert ranked.category == "citadel"
    assert ranked.to_dict()["provisional"] is False
    assert ranked.to_dict()["table"]["name"] == "test-house"
    assert not any(line.startswith("Provisional:") for line in ranked.explanation())
    # Its type order puts towers on top: the same two pairs swap places.
    pairs = [parse_plaques("red-sword blue-sword"), parse_plaques("red-tower blue-tower")]
    assert compare(pairs, TABLE).winners == (0,)
    assert compare(pairs, OPERATOR).winners == (1,)
    # It has no three of a type: three swords are only a pair there.
    assert (
        rank_tableau(parse_plaques("red-sword blue-sword green-sword"), OPERATOR).category == "pair"
    )


def test_a_set_can_use_emulation_and_recolouring() -> None:
    ranked = rank_tableau(parse_plaques("red-gate blue-tower red-coffer dragon"), OPERATOR)
    assert ranked.category == "citadel"
    assert _active(ranked.active) == "red-tower~ red-gate red-crown*"


def _bad_tables() -> list[dict[str, Any]]:
    return yaml.safe_load((DATA / "empire_bad_tables.yaml").read_text(encoding="utf-8"))


@pytest.mark.parametrize("case", _bad_tables(), ids=lambda c: c["case"])
def test_bad_table_files_give_clear_errors(case: dict[str, Any], tmp_path: Path) -> None:
    path = tmp_path / "house.yaml"
    path.write_text(case["document"], encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        load_table(path)
    message = str(caught.value)
    assert message.startswith(f"combination table {path}: ")
    assert case["error"] in message


def test_a_missing_table_file(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="cannot read it"):
        load_table(tmp_path / "nowhere.yaml")


# --- properties --------------------------------------------------------------------------

tableaux = st.lists(st.sampled_from(SET), min_size=1, max_size=7, unique=True)


@settings(max_examples=60, deadline=None)
@given(tableaux, st.randoms(use_true_random=False))
def test_order_of_plaques_never_matters(plaques: list[Plaque], rnd: random.Random) -> None:
    shuffled = list(plaques)
    rnd.shuffle(shuffled)
    first, second = rank_tableau(plaques), rank_tableau(shuffled)
    assert (first.category, first.key) == (second.category, second.key)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(SET), min_size=2, max_size=7, unique=True))
def test_a_further_plaque_never_lowers_a_tableau(plaques: list[Plaque]) -> None:
    assert rank_tableau(plaques).key >= rank_tableau(plaques[:-1]).key


@settings(max_examples=40, deadline=None)
@given(st.permutations(SET), st.integers(2, 4))
def test_compare_agrees_with_each_tableau_valued_against_the_others(
    order: list[Plaque], players: int
) -> None:
    hands = [order[i * 5 : i * 5 + 5] for i in range(players)]
    result = compare(hands)
    keys = [
        rank_tableau(h, TABLE, [o for j, o in enumerate(hands) if j != i]).key
        for i, h in enumerate(hands)
    ]
    assert [h.key for h in result.hands] == keys
    assert result.winners == tuple(i for i, k in enumerate(keys) if k == max(keys))


# --- the hand tracker --------------------------------------------------------------------

DEALS = [
    "red-sword blue-sword green-sword white-gate black-tower red-bow blue-bow",
    "red-spear green-horse white-spear black-horse blue-gate green-gate red-gate",
]


def _start(**kwargs: Any) -> EmpireHand:
    return start_hand([parse_plaques(d) for d in DEALS], TABLE, **kwargs)


def test_deal_gives_seven_each_two_face_up() -> None:
    hand = deal_hand(7, random.Random(3), ante=2)
    plaques = [p for s in hand.seats for p in s.plaques]
    assert len(plaques) == len(set(plaques)) == 49
    assert all(len(s.tableau) == 2 for s in hand.seats)
    assert hand.pot == 14 and hand.phase == "betting" and hand.to_act == 0
    assert deal_hand(3, random.Random(9)) == deal_hand(3, random.Random(9))
    with pytest.raises(DealerError, match="2-7 players, not 8"):
        deal_hand(8, random.Random(0))


def test_the_most_players_are_as_many_as_the_plaques_deal_hands_of_seven() -> None:
    assert len(SET) // DEALT == MAX_PLAYERS


def test_a_hand_played_through_to_a_yield() -> None:
    hand = _start(ante=1, stacks=[20, 20])
    assert hand.legal_actions() == ("bet", "yield")
    with pytest.raises(DealerError, match="seat 1 cannot turn now"):
        hand.turn(0)
    hand = hand.bet(0, 2).raise_(1, 3).see(0)
    assert (hand.phase, hand.pot, hand.turn_seat) == ("turning", 12, 0)
    assert [s.stack for s in hand.seats] == [14, 14]
    hand = hand.turn(0)  # green-sword: three of a type, value up, the turn passes
    assert hand.turn_seat == 1 and hand.events[-1].endswith("value up.")
    hand = hand.turn(1)  # white-spear: a pair of spears, value up
    assert hand.turn_seat == 0
    hand = hand.turn(0)  # white-gate: no increase, seat 0 turns again
    assert hand.turn_seat == 0 and hand.legal_actions() == ("turn", "bet", "yield")
    hand = hand.turn(0)  # black-tower: five face up, must bet or yield
    assert hand.must_decide and hand.legal_actions() == ("bet", "yield")
    with pytest.raises(DealerError, match="two plaques remain unturned"):
        hand.turn(0)
    hand = hand.bet(0, 4).see(1)
    assert hand.turn_seat == 1 and hand.pot == 20
    hand = hand.turn(1).turn(1)  # black-horse, blue-gate: no increase; five face up
    assert hand.must_decide
    hand = hand.yield_(1)
    assert hand.phase == "over" and hand.winners == (0,) and hand.shares == (20, 0)
    assert "seat 1 takes the pot of 20" in hand.events[-1]


def test_a_hand_played_through_to_a_showdown() -> None:
    hand = _start(ante=1).bet(0, 1).see(1)
    hand = hand.turn(0).turn(1).turn(0).turn(0).bet(0, 1).see(1).turn(1).turn(1)
    hand = hand.bet(1, 2).raise_(0, 1).see(1)
    assert hand.phase == "over" and hand.showdown is not None
    assert hand.winners == (0,) and hand.pot == 12 and hand.shares == (12, 0)
    data = hand.to_dict()
    assert data["showdown"]["winners"] == [0] and data["provisional"] is True
    text = " ".join(hand.explanation())
    assert "Seat 1 wins with three-of-a-type" in text and "Provisional:" in text


def test_a_split_pot_gives_the_odd_chip_to_the_first_winner() -> None:
    # Deal 1392 ends with seat 0's green-sword, recoloured red by its red-coffer, level with
    # seat 2's true red-sword: both are true red swords.
    hand = deal_hand(3, random.Random(1392), ante=1)
    while hand.phase != "over":
        legal = hand.legal_actions()
        action = "turn" if "turn" in legal else "see" if "see" in legal else "bet"
        hand = hand.act(hand.to_act or 0, action, 1 if action == "bet" else None)
    assert hand.winners == (0, 2) and hand.pot == 15
    assert hand.shares == (8, 0, 7)
    assert "seat 1 and seat 3 split the pot of 15" in hand.events[-1]


def test_a_player_who_cannot_see_must_yield() -> None:
    hand = _start(ante=1, stacks=[30, 5]).bet(0, 10)
    assert hand.legal_actions() == ("yield",)
    with pytest.raises(DealerError, match="a player who cannot see the current bet must yield"):
        hand.see(1)
    with pytest.raises(DealerError, match="cannot bet 30: it has 29 chips"):
        _start(ante=1, stacks=[30, 5]).bet(0, 30)


def test_out_of_turn_and_bad_actions_are_refused() -> None:
    hand = _start()
    with pytest.raises(DealerError, match="it is seat 1's move, not seat 2's"):
        hand.bet(1, 5)
    with pytest.raises(DealerError, match="above zero"):
        hand.bet(0, 0)
    with pytest.raises(DealerError, match="unknown action 'fold'"):
        hand.act(0, "fold")
    with pytest.raises(DealerError, match="there is no seat 6"):
        hand.yield_(5)
    over = hand.yield_(0)
    assert over.winners == (1,)
    with pytest.raises(DealerError, match="the hand is over"):
        over.bet(1, 1)


def test_opening_yield_passes_the_opening_to_the_next_seat() -> None:
    deals = [parse_plaques(d) for d in DEALS] + [
        parse_plaques("elf dwarf thief dragon dragon red-horse blue-horse")
    ]
    hand = start_hand(deals, TABLE).yield_(0)
    assert hand.to_act == 1 and hand.legal_actions() == ("bet", "yield")
    hand = hand.bet(1, 2).see(2)
    assert hand.phase == "turning" and hand.turn_seat == 1


def test_values_in_play_are_read_under_the_others_restrictions() -> None:
    mine = parse_plaques("red-gate dragon blue-bow green-bow black-bow white-bow red-bow")
    walled = parse_plaques(
        "dwarf green-gate green-sword red-spear blue-spear white-spear red-horse"
    )
    hand = start_hand([mine, walled], TABLE)
    assert hand.value(0).category == "no-combination"  # the Dwarf's Gate: no emulated gate
    assert hand.yield_(0).winners == (1,)
    open_ = parse_plaques("dwarf green-sword green-gate red-spear blue-spear white-spear red-horse")
    free = start_hand([mine, open_], TABLE)
    assert free.value(0).category == "pair"  # no Gate or Tower face up yet: no restriction
    assert _active(free.value(0).active) == "red-gate blue-gate*"


@settings(max_examples=30, deadline=None)
@given(st.integers(2, 7), st.integers(0, 2**32))
def test_random_hands_end_with_every_chip_accounted_for(players: int, seed: int) -> None:
    rng = random.Random(seed)
    stacks = [rng.randint(5, 40) for _ in range(players)]
    hand = deal_hand(players, rng, ante=1, stacks=stacks)
    for _ in range(500):
        if hand.phase == "over":
            break
        seat = hand.to_act
        assert seat is not None
        action = rng.choice(hand.legal_actions())
        amount = rng.randint(1, 3) if action in ("bet", "raise") else None
        try:
            hand = hand.act(seat, action, amount)
        except DealerError as error:
            assert "chips" in str(error)  # a bet beyond the stack: try something else
    assert hand.phase == "over"
    assert sum(hand.shares) == hand.pot == sum(s.put_in for s in hand.seats)
    assert [s.stack + s.put_in for s in hand.seats if s.stack is not None] == stacks
    assert hand.winners and all(not hand.seats[w].yielded for w in hand.winners)
