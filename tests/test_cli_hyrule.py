"""`dealer hyrule …` through the CLI runner: turns, whole games through stdin, exit codes and
the rulings on the record."""

import csv
import functools
import json
import random
from collections import Counter
from pathlib import Path

import cli
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from log_reads import records

import dealer.cli.console as console
from dealer.games.hyrule.deck import HYRULE_DECK, parse_cards
from dealer.games.hyrule.game import HyruleGame, Phase, deck_order
from dealer.games.hyrule.ranking import turn
from dealer.games.hyrule.rulings import turn_ruling
from dealer.games.hyrule.session import apply_move, parse_move
from dealer.kernel.errors import MoveError

DATA = Path(__file__).parent / "data"


@pytest.fixture()
def db(dealer_db: Path | str, monkeypatch: pytest.MonkeyPatch) -> Path | str:
    """An empty log on each backend; the commands run as d-104 at HY-2."""
    monkeypatch.setenv("DEALER_USER", "d-104")
    monkeypatch.setenv("DEALER_TABLE", "HY-2")
    return dealer_db


run = functools.partial(cli.run, whole=True)


def rulings(db: Path | str) -> list[tuple[int, str | None, str | None, str]]:
    """(id, game, action, input) of every ruling on the record, in order."""
    return [(r.id, r.game, r.action, r.input_text) for r in records(db, kind="ruling")]


def result_of(db: Path | str, record_id: int) -> dict:
    (record,) = records(db, ids=(record_id,))
    return dict(record.result)


def json_lines(text: str) -> list[dict]:
    return [json.loads(line) for line in text.splitlines()]


# --- one turn -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "winner", "tied", "rule"),
    [
        ("Jh 3d 5c", 0, [], "hearts-over-diamonds"),
        ("Kc 2d 9s", 1, [], "suit-order"),
        ("JK 5d 2c", 1, [], "five-beats-joker"),
        ("5d JK 5h 5s", 2, [], "five-beats-joker"),
        ("Ks JK Qh", 1, [], "joker"),
        ("JK 2c JK", None, [0, 2], "two-jokers"),
        ("5c 5h", 0, [], "suit-order"),
    ],
)
def test_turn_json(
    db: Path | str, cards: str, winner: int | None, tied: list[int], rule: str
) -> None:
    result = run("hyrule", "turn", cards, "--json")
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert (out["winner"], out["tied"], out["rule"]) == (winner, tied, rule)
    assert out["cards"] == [str(c) for c in parse_cards(cards)]
    assert (out["ruling_id"], out["settings"]) == (1, {})
    assert rulings(db) == [(1, "hyrule", "turn", cards)]


def test_two_joker_tie_exact_json(db: Path | str) -> None:
    out = json.loads(run("hyrule", "turn", "JK", "2c", "joker", "--json").stdout)
    assert out == {
        "winner": None,
        "tied": [0, 2],
        "rule": "two-jokers",
        "cards": ["JK", "2c", "JK"],
        "ruling_id": 1,
        "explanation": [
            "Cards in play order: JK 2♣ JK.",
            "Rule: two jokers and no five: a tie; the house decides by a run-off.",
            "Tie between the 1st card (JK) and the 3rd card (JK): the house decides by a run-off.",
        ],
        "settings": {},
    }


def test_turn_for_people(db: Path | str) -> None:
    result = run("hyrule", "turn", "9c Qs 7c")
    assert result.exit_code == 0
    assert result.stdout == (
        "#    card\n"
        "---  ------  ----\n"
        "1    9♣      wins\n"
        "2    Q♠\n"
        "3    7♣\n"
        "  · Cards in play order: 9♣ Q♠ 7♣.\n"
        "  · Rule: no joker, and not both ♦ and ♥: the first suit present in the order ♦ ♣ ♠ ♥"
        " wins, highest face value (ace 1 … king 13).\n"
        "  · The 1st card, 9♣, wins.\n"
        "ruling #1 recorded\n"
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["Jh"], "Error: wrong number of cards for the turn: expected 2 to 7"),
        (["2c 3c 4c 5c 6c 7c 8c 9c"], "Error: wrong number of cards for the turn"),
        (["Jh", "Zz"], "Error: unknown card 'Zz'"),
        (["Jh 3d Jh"], "Error: duplicate card Jh"),
        (["JK JK JK"], "Error: a third joker in the turn"),
    ],
)
def test_bad_turn_is_one_error_line_exit_1_and_nothing_recorded(
    db: Path | str, args: list[str], message: str
) -> None:
    result = run("hyrule", "turn", *args)
    assert result.exit_code == 1
    assert result.stderr.startswith(message)
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.output
    assert rulings(db) == []


def test_batch_turns_with_a_bad_line_in_the_middle(db: Path | str) -> None:
    lines = "Jh 3d 5c\nJK 2c JK\nJh Jh\n# skipped\nKs JK Qh\n"
    result = run("hyrule", "turn", "--batch", "-", "--json", stdin=lines)
    assert result.exit_code == 1
    outs = json_lines(result.stdout)
    assert [(o.get("winner"), o.get("tied")) for o in outs] == [
        (0, []),
        (None, [0, 2]),
        (None, None),
        (1, []),
    ]
    assert outs[2] == {"line": 3, "input": "Jh Jh", "error": outs[2]["error"]}
    assert result.stderr == "Error: line 3: duplicate card Jh: it is already in the turn\n"
    assert [r[3] for r in rulings(db)] == ["Jh 3d 5c", "JK 2c JK", "Ks JK Qh"]


@settings(max_examples=80, deadline=None)
@given(st.lists(st.sampled_from(HYRULE_DECK[:-1]), min_size=2, max_size=7, unique=True))
def test_turn_ruling_matches_the_engine(cards: list) -> None:
    text = " ".join(map(str, cards))
    ruling = turn_ruling(text)
    assert (ruling.game, ruling.action, ruling.input_text) == ("hyrule", "turn", text)
    assert dict(ruling.result) == turn(cards).to_dict()
    assert ruling.cards == tuple(str(c) for c in cards)


# --- whole games --------------------------------------------------------------------------------


def _script(name: str) -> tuple[str, int, str, list[str]]:
    """(rules, players, deck, moves) of a recorded game in tests/data (see test_hyrule.py)."""
    with open(DATA / name, encoding="utf-8") as f:
        rows = list(
            csv.DictReader((line for line in f if not line.startswith("#")), delimiter="\t")
        )
    rules, *hands, top = (part.strip() for part in rows[0]["move"].split("|"))
    seats = [parse_cards(h) for h in hands]
    deck = [seats[s][k] for k in range(7) for s in range(len(seats))] + list(parse_cards(top))
    rest = Counter(HYRULE_DECK) - Counter(deck)
    deck += sorted(rest.elements())
    return rules.split()[1], len(seats), " ".join(map(str, deck)), [r["move"] for r in rows[1:]]


def play(players: int, rules: str, deck: str, moves: list[str], *extra: str):
    stdin = "".join(f"{m}\n" for m in moves)
    return run(
        "hyrule",
        "game",
        "--players",
        str(players),
        "--rules",
        rules,
        "--deck",
        deck,
        *extra,
        stdin=stdin,
    )


def test_strategy_game_json(db: Path | str) -> None:
    rules, players, deck, moves = _script("hyrule_game_strategy.tsv")
    result = play(players, rules, deck, moves, "--json")
    assert result.exit_code == 0, result.output
    assert result.stderr == ""
    outs = json_lines(result.stdout)
    assert [o["event"] for o in outs] == ["trick"] * 7 + ["game"]
    first = outs[0]
    assert {k: first[k] for k in ("trick", "seats", "cards", "winner", "tied", "rule")} == {
        "trick": 1,
        "seats": [3, 1, 2],
        "cards": ["2s", "JK", "JK"],
        "winner": None,
        "tied": [1, 2],
        "rule": "two-jokers",
    }
    assert (first["taker"], first["run_off"], first["captured"]) == (1, True, [3, 0, 0])
    assert first["swaps"] == [
        {"event": "swap", "trick": 1, "seat": 2, "discarded": "2h", "drawn": "5h"}
    ]
    assert first["settings"] == {"rules": "strategy", "players": 3, "seed": None}
    assert [o["taker"] for o in outs[:7]] == [1, 2, 1, 1, 2, 1, 1]
    final = outs[-1]
    assert {k: final[k] for k in ("captured", "winners", "draw", "final", "tricks")} == {
        "captured": [15, 6, 0],
        "winners": [1],
        "draw": False,
        "final": True,
        "tricks": 7,
    }
    assert final["trick_records"] == [o["ruling_id"] for o in outs[:7]] == list(range(1, 8))
    assert final["deck"] == deck.split()
    assert final["explanation"][-1] == "Result: seat 1 wins with 15 cards."
    recorded = rulings(db)
    assert [(r[1], r[2]) for r in recorded] == [("hyrule", "trick")] * 7 + [("hyrule", "game")]
    assert recorded[0][3] == "leader 2; swap 2 2h; play 3 2s; play 1 JK; play 2 JK; run-off 1"
    assert recorded[-1][3] == "; ".join(moves)
    assert result_of(db, 8)["captured"] == [15, 6, 0]


def test_chance_game_for_people_ends_in_a_draw(db: Path | str) -> None:
    rules, players, deck, moves = _script("hyrule_game_chance.tsv")
    result = play(players, rules, deck, moves)
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert out.startswith(
        "Hyrule, chance rules, 3 players, dealt from the deck as given\n"
        "trick 1 of 7, chance rules\n"
        "seat    hand                   captured\n"
        "------  ---------------------  ----------\n"
        "1       JK 2♣ 3♣ 4♣ 5♣ 6♣ 7♣   0\n"
        "2       JK 2♥ 3♥ 4♥ 5♥ 6♥ 7♠   0\n"
        "3       2♦ 3♦ 4♦ 8♠ 9♠ 10♠ J♠  0\n"
        "next: trick 1: seats 1, 2, 3 to place a card face down\n"
        "seat 3 places a card face down\n"
        "placed face down: seats 3\n"
        "next: trick 1: seats 1, 2 to place a card face down\n"
    )
    assert (
        "seat 2 places a card face down\n"
        "seat    card\n"
        "------  ------  ---\n"
        "1       JK      tie\n"
        "2       JK      tie\n"
        "3       8♠\n"
        "  · Trick 1: seat 1 JK, seat 2 JK, seat 3 8♠.\n"
        "  · Rule: two jokers and no five: a tie; the house decides by a run-off.\n"
        "  · Tie between seat 1 and seat 2: waiting for the house's run-off.\n"
        "next: the house's run-off between seats 1, 2: run-off SEAT\n"
        "the house's run-off: seat 2 takes trick 1\n"
    ) in out
    assert out.endswith(
        "final score\n"
        "seat    captured\n"
        "------  ----------  ----\n"
        "1       9           draw\n"
        "2       9           draw\n"
        "3       3\n"
        "  · Final score (captured cards, face values not counted): seat 1 9, seat 2 9,"
        " seat 3 3.\n"
        "  · Result: draw between seat 1 and seat 2 with 9 cards each.\n"
        "ruling #8 recorded\n"
    )
    assert out.count("ruling #") == 8
    assert [r[2] for r in rulings(db)] == ["trick"] * 7 + ["game"]


def test_an_illegal_move_is_refused_and_then_corrected(db: Path | str) -> None:
    rules, players, deck, moves = _script("hyrule_game_strategy.tsv")
    # seat 2 tries to swap right after a swap, seat 0 to play a card it does not hold, then a
    # typo: each refused, the game goes on
    fixed = [*moves[:2], "swap 3 5s", moves[2], "play 1 As", "plya 1 JK", *moves[3:]]
    result = play(players, rules, deck, fixed, "--json")
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        "Error: line 3: seat 3 may not swap: the previous player swapped, so seat 3 must play",
        "Error: line 5: seat 1 does not hold A♠",
        "Error: line 6: unknown move 'plya 1 JK': expected one of leader, play, swap, run-off",
    ]
    outs = json_lines(result.stdout)
    assert [o.get("line") for o in outs[:3]] == [3, 5, 6]
    assert [o.get("event") for o in outs[3:]] == ["trick"] * 7 + ["game"]
    assert outs[-1]["captured"] == [15, 6, 0]
    recorded = rulings(db)
    assert len(recorded) == 8
    assert "As" not in recorded[-1][3] and recorded[-1][3] == "; ".join(moves)


def test_a_card_not_held_is_refused_with_nothing_lost(db: Path | str) -> None:
    rules, players, deck, moves = _script("hyrule_game_strategy.tsv")
    fixed = [*moves[:4], "play 2 Qh", "show", *moves[4:]]
    result = play(players, rules, deck, fixed)
    assert result.exit_code == 1
    assert result.stderr == "Error: line 5: seat 2 does not hold Q♥\n"
    assert (
        "1       2♦ 3♦ 4♦ 6♠ 7♠ 8♠      0\n"
        "2       JK 3♥ 9♣ 10♣ J♣ Q♣ 5♥  0\n"
        "3       5♠ A♥ K♥ 3♠ 4♠ 9♦      0\n"
        "stock: 32 cards; discards: 2♥\n"
        "trick 1 so far: seat 3 2♠, seat 1 JK\n"
        "next: trick 1: seat 2 to play\n"
        "seat 2 plays JK\n"
    ) in result.stdout
    assert result.stdout.count("final score") == 1


def test_quit_records_the_score_so_far(db: Path | str) -> None:
    rules, players, deck, moves = _script("hyrule_game_strategy.tsv")
    result = play(players, rules, deck, [*moves[:8], "quit", *moves[8:]], "--json")
    assert result.exit_code == 0
    outs = json_lines(result.stdout)
    assert [o["event"] for o in outs] == ["trick", "game"]
    assert {k: outs[1][k] for k in ("captured", "final", "tricks", "trick_records")} == {
        "captured": [3, 0, 0],
        "final": False,
        "tricks": 1,
        "trick_records": [1],
    }
    assert outs[1]["explanation"][-1] == (
        "The game was stopped during trick 2, before all seven cards each were played."
    )
    assert [r[2] for r in rulings(db)] == ["trick", "game"]


def test_input_ending_before_any_trick_records_nothing(db: Path | str) -> None:
    rules, players, deck, moves = _script("hyrule_game_strategy.tsv")
    result = play(players, rules, deck, moves[:4])
    assert result.exit_code == 0
    assert result.stdout.endswith("game stopped before any trick was ruled: nothing recorded\n")
    assert rulings(db) == []


def _moves_for(game: HyruleGame) -> list[str]:
    """Legal moves to the end: the first tied seat leads or takes the run-off, every seat plays
    its first card."""
    moves = []
    while game.phase is not Phase.OVER:
        seat = game.awaiting[0]
        if game.phase is Phase.LEADER:
            move, game = f"leader {seat + 1}", game.choose_leader(seat)
        elif game.phase is Phase.RUN_OFF:
            move, game = f"run-off {seat + 1}", game.settle_run_off(seat)
        else:
            card = game.hands[seat][0]
            move, game = f"play {seat + 1} {card}", game.play(seat, card)
        moves.append(move)
    return moves


@pytest.mark.parametrize(("players", "rules", "seed"), [(2, "strategy", 7), (7, "chance", 11)])
def test_seeded_game_is_reproducible(db: Path | str, players: int, rules: str, seed: int) -> None:
    dealt = HyruleGame.deal(players, rules, rng=random.Random(seed))
    moves = _moves_for(dealt)
    args = ["hyrule", "game", "--players", str(players), "--rules", rules, "--seed", str(seed)]
    shown = run(*args, "--json", stdin="show\nquit\n")
    state = json_lines(shown.stdout)[0]
    assert state["event"] == "state"
    assert state["hands"] == [[str(c) for c in h] for h in dealt.hands]
    result = run(*args, "--json", stdin="".join(f"{m}\n" for m in moves))
    assert result.exit_code == 0, result.output
    outs = json_lines(result.stdout)
    assert [o["event"] for o in outs] == ["trick"] * 7 + ["game"]
    assert outs[-1]["settings"] == {"rules": rules, "players": players, "seed": seed}
    assert outs[-1]["deck"] == [str(c) for c in deck_order(dealt)]
    assert len(rulings(db)) == 8
    replay = run(
        "hyrule",
        "game",
        "--players",
        str(players),
        "--rules",
        rules,
        "--deck",
        " ".join(outs[-1]["deck"]),
        "--json",
        stdin="".join(f"{m}\n" for m in moves),
    )
    assert [o["captured"] for o in json_lines(replay.stdout)] == [o["captured"] for o in outs]


def test_without_a_seed_the_chosen_seed_is_shown_and_recorded(db: Path | str) -> None:
    result = run("hyrule", "game", "--players", "2", stdin="quit\n")
    assert result.exit_code == 0
    first = result.stdout.splitlines()[0]
    assert first.startswith("Hyrule, strategy rules, 2 players, shuffle seed ")
    seed = int(first.rsplit(" ", 1)[1])
    again = run("hyrule", "game", "--players", "2", "--seed", str(seed), stdin="quit\n")
    assert again.stdout == result.stdout


def test_help_and_prompts_at_a_terminal(db: Path | str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(console, "at_terminal", lambda: True)
    result = run("hyrule", "game", "--players", "3", "--seed", "5", stdin="help\nleader 4\nquit\n")
    assert result.exit_code == 0  # at a terminal the person saw the refusal; from a pipe: 1
    assert "type help for the moves\nmoves (seats are numbered" in result.stdout
    assert "  run-off SEAT     two jokers and no five" in result.stdout
    assert result.stdout.endswith(
        "recorded)\ngame stopped before any trick was ruled: nothing recorded\n"
    )
    # prompts go to the terminal on stderr (the one console of the live sessions)
    assert result.stderr == (
        "trick 1> trick 1> Error: seat 4 is not at this table (seats 1 to 3)\ntrick 1> "
    )  # at a terminal, no line number


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--deck", "As Kd"], "Error: the deck must be the 54 Hyrule cards"),
        (["--deck", "As Zz"], "Error: the deck: unknown card 'Zz': a card is a rank"),
        (["--deck", "As As"], "Error: the deck: duplicate card As: it is already in the deck\n"),
        (["--deck", "JK JK JK"], "Error: the deck: a third joker in the deck: the Hyrule deck"),
    ],
)
def test_bad_deck_is_exit_1_and_nothing_recorded(
    db: Path | str, args: list[str], message: str
) -> None:
    result = run("hyrule", "game", "--players", "3", *args, stdin="leader 1\n")
    assert result.exit_code == 1
    assert result.stderr.startswith(message) and result.stderr.count("\n") == 1
    assert result.stdout == ""
    assert rulings(db) == []


@pytest.mark.parametrize(
    "args",
    [
        ["hyrule", "game"],
        ["hyrule", "game", "--players", "1"],
        ["hyrule", "game", "--players", "8"],
        ["hyrule", "game", "--players", "3", "--rules", "fast"],
        ["hyrule", "game", "--players", "3", "--seed", "x"],
        [
            "hyrule",
            "game",
            "--players",
            "3",
            "--seed",
            "1",
            "--deck",
            " ".join(map(str, HYRULE_DECK)),
        ],
        ["hyrule", "turn", "Jh", "3d", "--bogus"],
        ["hyrule", "deal"],
    ],
)
def test_bad_usage_exits_2(db: Path | str, args: list[str]) -> None:
    assert run(*args, stdin="quit\n").exit_code == 2
    assert rulings(db) == []


@pytest.mark.parametrize(
    "move",
    ["play 2 2d", "play 1 As", "swap 1 2d", "leader 4", "run-off 1", "play 6 2d", "play 0 2d"],
)
def test_illegal_moves_raise_move_error(move: str) -> None:
    rules, players, deck, moves = _script("hyrule_game_strategy.tsv")
    game = apply_move(
        HyruleGame.deal(players, rules, deck=parse_cards(deck)), parse_move("leader 1")
    )
    game = apply_move(game, parse_move("swap 1 6s"))
    with pytest.raises(MoveError):
        apply_move(game, parse_move(move))
