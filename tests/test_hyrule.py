"""Hyrule: one turn's winner by precedence, typed turns, and the game tracker."""

from __future__ import annotations

import csv
import random
from collections import Counter
from dataclasses import replace
from itertools import permutations
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dealer.games.hyrule.deck import HYRULE_DECK, parse_cards
from dealer.games.hyrule.game import HyruleGame, Phase, Rules, Swap, Trick
from dealer.games.hyrule.ranking import face, parse_turn, turn
from dealer.games.hyrule.session import GameSession, apply_move, parse_move
from dealer.games.paigow.deck import parse_card
from dealer.kernel.cards import JOKER, Card
from dealer.kernel.errors import CardError, DealerError

DATA = Path(__file__).parent / "data"


def _rows(name: str) -> list[dict[str, str]]:
    with open(DATA / name, encoding="utf-8") as f:
        lines = [line for line in f if not line.startswith("#")]
    return list(csv.DictReader(lines, delimiter="\t"))


def _seats(text: str) -> list[int]:
    return [int(s) for s in text.split(",") if s]


# --- turns --------------------------------------------------------------------------------------


@pytest.mark.parametrize("row", _rows("hyrule_examples.tsv"), ids=lambda r: r["cards"])
def test_seed_examples(row: dict[str, str]) -> None:
    cards = parse_turn(row["cards"])
    result = turn(cards)
    assert result.to_dict()["winner"] == int(row["winner"])
    assert result.to_dict()["tied"] == []
    assert result.rule == row["rule"]
    for order in permutations(range(len(cards))):
        again = turn([cards[i] for i in order])
        assert again.winner is not None
        assert order[again.winner] == result.winner


@pytest.mark.parametrize("row", _rows("hyrule_turns.tsv"), ids=lambda r: r["why"][:40])
def test_more_turns(row: dict[str, str]) -> None:
    result = turn(parse_turn(row["cards"]))
    winner = None if row["winner"] == "-" else int(row["winner"])
    tied = [] if row["tied"] == "-" else _seats(row["tied"])
    assert result.to_dict() | {"cards": None, "rule": None} == {
        "winner": winner,
        "tied": tied,
        "cards": None,
        "rule": None,
    }
    assert result.rule == row["rule"]


def test_turn_explanations() -> None:
    tie = turn(parse_turn("JK 2c JK"))
    assert tie.explanation()[-1] == (
        "Tie between the 1st card (JK) and the 3rd card (JK): the house decides by a run-off."
    )
    assert "two jokers and no five" in tie.explanation()[1]
    win = turn(parse_turn("8h 8d 8s"))
    assert win.explanation() == [
        "Cards in play order: 8♥ 8♦ 8♠.",
        "Rule: no joker, and both ♦ and ♥ are present: the highest ♥ wins.",
        "The 1st card, 8♥, wins.",
    ]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("2c", "wrong number of cards for the turn: expected 2 to 7"),
        ("2c 3c 4c 5c 6c 7c 8c 9c", "expected 2 to 7 .*got 8"),
        ("JK JK joker", "a third joker"),
        ("2c 2C", "duplicate card 2c"),
        ("2c Xx", "unknown card 'Xx'"),
        ("", "wrong number of cards"),
    ],
)
def test_parse_turn_errors(text: str, message: str) -> None:
    with pytest.raises(CardError, match=message):
        parse_turn(text)


def test_parse_turn_forms() -> None:
    assert parse_turn("JK,jk 10h") == (JOKER, JOKER, Card(10, 2))
    assert parse_turn("2c2s") == (Card(2, 0), Card(2, 3))
    assert parse_turn("JKJK 5♠") == (JOKER, JOKER, Card(5, 3))


def test_turn_api_rejects_bad_cards() -> None:
    with pytest.raises(CardError, match="third joker"):
        turn([JOKER, JOKER, JOKER])
    with pytest.raises(CardError, match="wrong number"):
        turn([Card(2, 0)] * 1)


# an independent reading of the seed's two-card "beats" lists
_BEATS = {1: {0, 3}, 0: {3, 2}, 3: {2}, 2: {1}}  # ♦ > ♣ ♠; ♣ > ♠ ♥; ♠ > ♥; ♥ > ♦
_FIVES = [2, 3, 0, 1]  # 5♥ 5♠ 5♣ 5♦


def _seed_two_card_winner(a: Card, b: Card) -> int | None:
    if a.is_joker and b.is_joker:
        return None
    if a.is_joker or b.is_joker:
        other, joker_at = (b, 0) if a.is_joker else (a, 1)
        return 1 - joker_at if other.rank == 5 else joker_at
    if a.suit == b.suit:
        return 0 if face(a) > face(b) else 1
    return 0 if b.suit in _BEATS[a.suit] else 1


turns = st.tuples(
    st.lists(st.sampled_from(HYRULE_DECK[:-1]), min_size=2, max_size=7, unique=True),
    st.booleans(),
).flatmap(
    lambda drawn: st.permutations(
        (drawn[0] + [JOKER])[:7] if drawn[1] and JOKER in drawn[0] else drawn[0]
    )
)


@settings(max_examples=300)
@given(turns, st.randoms(use_true_random=False))
def test_turn_properties(cards: list[Card], rnd: random.Random) -> None:
    result = turn(cards)
    jokers = [i for i, c in enumerate(cards) if c.is_joker]
    fives = [c for c in cards if c.rank == 5 and not c.is_joker]
    if result.winner is None:
        assert len(jokers) == 2 and not fives
        assert result.tied == tuple(jokers)
    else:
        assert 0 <= result.winner < len(cards)
        assert result.tied == ()
        won = cards[result.winner]
        if jokers and fives:
            assert won.rank == 5 and min(_FIVES.index(c.suit) for c in fives) == _FIVES.index(
                won.suit
            )
    shuffled = list(range(len(cards)))
    rnd.shuffle(shuffled)
    again = turn([cards[i] for i in shuffled])
    if result.winner is None:
        assert sorted(shuffled[i] for i in again.tied) == list(result.tied)
    else:
        assert again.winner is not None and shuffled[again.winner] == result.winner
    if len(cards) == 2:
        assert result.winner == _seed_two_card_winner(cards[0], cards[1])


# --- the game -----------------------------------------------------------------------------------


def _stacked_deck(hands: list[str], stock_top: str) -> list[Card]:
    """A deck dealt one card at a time from seat 0 so that each seat gets its hand."""
    seats = [parse_cards(h, "hand") for h in hands]
    top = list(parse_cards(stock_top, "stock"))
    deck = [seats[s][k] for k in range(7) for s in range(len(seats))] + top
    rest = Counter(HYRULE_DECK) - Counter(deck)
    return deck + [c for c in HYRULE_DECK if rest[c] and not rest.subtract([c])]


def _scripted(name: str) -> tuple[HyruleGame, list[HyruleGame]]:
    rows = _rows(name)
    rules, *hands, stock_top = (part.strip() for part in rows[0]["move"].split("|"))
    game = HyruleGame.deal(len(hands), rules.split()[1], deck=_stacked_deck(hands, stock_top))
    states = [game]
    _check_row(game, rows[0])
    for row in rows[1:]:
        game = apply_move(game, parse_move(row["move"]))
        _check_row(game, row)
        states.append(game)
    return game, states


def _check_row(game: HyruleGame, row: dict[str, str]) -> None:
    state = game.to_dict()
    assert state["phase"] == row["phase"], row["move"]
    assert state["awaiting"] == _seats(row["awaiting"]), row["move"]
    assert state["score"]["captured"] == _seats(row["captured"]), row["move"]
    assert state["may_swap"] == (row["may_swap"] == "yes"), row["move"]
    in_play = sum(len(h) for h in game.hands) + len(game.stock) + len(game.discard)
    in_play += sum(len(c) for c in game.captured) + len(game.table)
    in_play += 0 if game.pending is None else len(game.pending.seats)
    assert in_play == 54


def test_scripted_strategy_game() -> None:
    game, _ = _scripted("hyrule_game_strategy.tsv")
    assert game.phase is Phase.OVER
    assert game.score().to_dict() == {
        "captured": [15, 6, 0],
        "winners": [1],
        "draw": False,
        "final": True,
    }
    assert [str(c) for c in game.discard] == ["2h", "6s"]
    assert len(game.stock) == 54 - 21 - 2
    swaps = [e for e in game.history if isinstance(e, Swap)]
    assert [(s.seat, str(s.discarded), str(s.drawn)) for s in swaps] == [
        (1, "2h", "5h"),
        (0, "6s", "Qh"),
    ]
    tricks = [e for e in game.history if isinstance(e, Trick)]
    assert [t.taker for t in tricks] == [0, 1, 0, 0, 1, 0, 0]
    assert tricks[0].seats == (2, 0, 1) and tricks[0].run_off
    assert tricks[0].result.rule == "two-jokers"
    assert "Final score" in game.score().explanation()[0]
    assert game.score().explanation()[1] == "Result: seat 1 wins with 15 cards."
    text = game.explanation()
    assert "Trick 1: seat 2 swaps, discarding 2♥ face up" in text[0]
    assert text[-1] == "Waiting for nothing: the game is over."


def test_scripted_chance_game_ends_in_a_draw() -> None:
    game, states = _scripted("hyrule_game_chance.tsv")
    score = game.score()
    assert score.to_dict() == {
        "captured": [9, 9, 3],
        "winners": [1, 2],
        "draw": True,
        "final": True,
    }
    assert score.explanation()[1] == "Result: draw between seat 1 and seat 2 with 9 cards each."
    tricks = [e for e in game.history if isinstance(e, Trick)]
    assert all(t.seats == (0, 1, 2) for t in tricks)  # chance: recorded in seat order
    assert [t.taker for t in tricks] == [1, 1, 0, 1, 0, 0, 2]
    assert not game.discard and len(game.stock) == 54 - 21
    pending = states[3]
    assert pending.phase is Phase.RUN_OFF and pending.pending is not None
    assert "waiting for the house's run-off" in pending.explanation()[-4]


@pytest.fixture(scope="module")
def strategy_states() -> list[HyruleGame]:
    return _scripted("hyrule_game_strategy.tsv")[1]


@pytest.fixture(scope="module")
def chance_states() -> list[HyruleGame]:
    return _scripted("hyrule_game_chance.tsv")[1]


# state index: after that many moves of the strategy script
ILLEGAL_STRATEGY = [
    (0, "play 2 2h", "first name the leader, the tallest of seats 1, 2, 3"),
    (0, "run-off 2", "no run-off is pending"),
    (1, "leader 3", "no leader to choose now"),
    (1, "play 1 JK", "it is seat 2's turn, not seat 1's"),
    (1, "swap 2 Kd", "seat 2 does not hold K♦"),
    (1, "play 8 2h", "seat 8 is not at this table"),
    (1, "play 0 2h", "seat 0 is not at this table"),
    (2, "swap 3 2s", "the previous player swapped, so seat 3 must play"),
    (3, "swap 1 JK", "only the player starting a trick may swap"),
    (5, "play 1 2d", "first settle the run-off between seats 1, 2"),
    (5, "run-off 3", "seat 3 is not in the run-off"),
    (9, "leader 3", "seat 3 may not lead: the leader is the tallest of seats 1, 2"),
    (26, "play 1 4d", "the game is over"),
    (26, "leader 1", "no leader to choose now: the game is over"),
]


@pytest.mark.parametrize(("state", "move", "message"), ILLEGAL_STRATEGY)
def test_illegal_strategy_moves(
    strategy_states: list[HyruleGame], state: int, move: str, message: str
) -> None:
    with pytest.raises(DealerError, match=message):
        apply_move(strategy_states[state], parse_move(move))


@pytest.mark.parametrize(
    ("state", "move", "message"),
    [
        (0, "swap 1 JK", "no swapping under chance rules"),
        (1, "play 3 2d", "seat 3 has already placed a card this turn"),
        (0, "leader 1", "no leader to choose now"),
    ],
)
def test_illegal_chance_moves(
    chance_states: list[HyruleGame], state: int, move: str, message: str
) -> None:
    with pytest.raises(DealerError, match=message):
        apply_move(chance_states[state], parse_move(move))


def test_swap_refused_when_the_stock_is_empty(strategy_states: list[HyruleGame]) -> None:
    game = replace(strategy_states[1], stock=())
    assert not game.may_swap
    with pytest.raises(DealerError, match="the stock is empty"):
        game.swap(1, parse_card("2h"))


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"players": 1, "rules": "chance", "rng": random.Random(1)}, "2 to 7 players, not 1"),
        ({"players": 8, "rules": "chance", "rng": random.Random(1)}, "2 to 7 players, not 8"),
        ({"players": 3, "rules": "poker", "rng": random.Random(1)}, "unknown rules 'poker'"),
        ({"players": 3, "rules": "chance"}, "either a random generator or a deck order"),
        (
            {"players": 3, "rules": "chance", "rng": random.Random(1), "deck": HYRULE_DECK},
            "either a random generator or a deck order",
        ),
        ({"players": 3, "rules": "chance", "deck": HYRULE_DECK[:-1]}, "got 53 cards"),
        ({"players": 3, "rules": "chance", "deck": HYRULE_DECK + (JOKER,)}, "a third joker"),
        (
            {"players": 3, "rules": "chance", "deck": HYRULE_DECK[:-2] + (Card(2, 0), JOKER)},
            "duplicate card 2c",
        ),
    ],
)
def test_bad_deals(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(DealerError, match=message):
        HyruleGame.deal(**kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "unknown move"),
        ("fold 1", "unknown move 'fold 1'"),
        ("play 1", "expected 'play SEAT CARD'"),
        ("leader x", "expected 'leader SEAT'"),
        ("play 1 Zz", "unknown card 'Zz'"),
        ("leader \u00b2", "expected 'leader SEAT'"),
        ("play \u0663 Jh", "expected 'play SEAT CARD'"),
        ("run-off " + "9" * 5000, "expected 'run-off SEAT'"),
    ],
)
def test_bad_moves(text: str, message: str) -> None:
    with pytest.raises(DealerError, match=message):
        parse_move(text)


@pytest.mark.parametrize("line", ["", "   "])
def test_a_blank_line_is_refused_by_the_session(line: str) -> None:
    session = GameSession.start(HyruleGame.deal(2, "strategy", rng=random.Random(1)), {})
    with pytest.raises(DealerError, match="unknown move"):
        session.step(line)


def test_parse_move_forms() -> None:
    assert str(parse_move("RUNOFF 2")) == "run-off 2"
    assert str(parse_move("swap 0 10h")) == "swap 0 Th"
    assert parse_move("play 3 jk").card == JOKER


def _random_game(players: int, rules: Rules, seed: int) -> HyruleGame:
    """Play a whole game choosing random legal moves (swaps, leaders and run-offs included)."""
    rnd = random.Random(seed)
    game = HyruleGame.deal(players, rules, rng=random.Random(seed))
    assert all(len(h) == 7 for h in game.hands) and len(game.stock) == 54 - 7 * players
    while game.phase is not Phase.OVER:
        seat = rnd.choice(game.awaiting)
        if game.phase is Phase.LEADER:
            game = game.choose_leader(seat)
        elif game.phase is Phase.RUN_OFF:
            game = game.settle_run_off(seat)
        elif game.may_swap and rnd.random() < 0.4:
            game = game.swap(seat, rnd.choice(game.hands[seat]))
        else:
            game = game.play(seat, rnd.choice(game.hands[seat]))
    return game


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 7), st.sampled_from(list(Rules)), st.integers(0, 10**6))
def test_random_games_end_after_seven_tricks(players: int, rules: Rules, seed: int) -> None:
    game = _random_game(players, rules, seed)
    tricks = [e for e in game.history if isinstance(e, Trick)]
    swaps = [e for e in game.history if isinstance(e, Swap)]
    assert len(tricks) == 7 and all(len(t.seats) == players for t in tricks)
    for t in tricks:  # chance: seat order; strategy: counter-clockwise from the starter
        start = 0 if rules is Rules.CHANCE else t.seats[0]
        assert t.seats == tuple((start + k) % players for k in range(players))
    assert sum(game.score().captured) == 7 * players
    assert all(t.taker is not None for t in tricks)
    assert len(game.discard) == len(swaps) == 54 - 7 * players - len(game.stock)
    for before, after in zip(game.history, game.history[1:], strict=False):
        assert not (isinstance(before, Swap) and isinstance(after, Swap))
    if rules is Rules.CHANCE:
        assert not swaps


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 7), st.integers(0, 10**6), st.randoms(use_true_random=False))
def test_chance_placement_order_does_not_matter(
    players: int, seed: int, rnd: random.Random
) -> None:
    """Chance rules: the same cards placed in any seat order give the same captures."""
    dealt = HyruleGame.deal(players, Rules.CHANCE, rng=random.Random(seed))
    first, second = dealt, dealt
    for k in range(7):
        order = list(range(players))
        rnd.shuffle(order)
        for seat in range(players):
            first = first.play(seat, dealt.hands[seat][k])
        for seat in order:
            second = second.play(seat, dealt.hands[seat][k])
        while first.phase is Phase.RUN_OFF:
            first = first.settle_run_off(first.awaiting[0])
            second = second.settle_run_off(second.awaiting[0])
    assert first.to_dict() == second.to_dict()


def test_strategy_leader_is_most_captured(strategy_states: list[HyruleGame]) -> None:
    game = strategy_states[6]  # after the run-off: the first seat (index 0) holds 3 captured cards
    assert game.leader == 0 and game.awaiting == (0,)
    dumped = game.to_dict()
    assert dumped["hands"][0] == ["2d", "3d", "4d", "6s", "7s", "8s"]
    assert dumped["history"][0] == {
        "event": "swap",
        "trick": 1,
        "seat": 2,
        "discarded": "2h",
        "drawn": "5h",
    }
    assert dumped["history"][1]["taker"] == 1 and dumped["history"][1]["run_off"] is True
