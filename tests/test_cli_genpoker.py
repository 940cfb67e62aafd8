"""`dealer genpoker …` through the CLI runner: exact output, JSON keys, exit codes, the record."""

import json
import random
from pathlib import Path

import pytest
from cli import run
from hypothesis import given, settings
from hypothesis import strategies as st
from log_reads import records

from dealer.games.genpoker import rulings, session
from dealer.games.genpoker.deck import DECK
from dealer.games.genpoker.draw import deal
from dealer.games.genpoker.ranking import rank_hand
from dealer.kernel.errors import DealerError, MoveError

SPLIT = ("1R 2B 3R1 4R1 5R1", "1B 2R 3B1 4B1 5B1")


@pytest.fixture()
def db(dealer_db: Path | str, monkeypatch: pytest.MonkeyPatch) -> Path | str:
    """An empty log on each backend; the commands run as d-104 at GP-1."""
    monkeypatch.setenv("DEALER_USER", "d-104")
    monkeypatch.setenv("DEALER_TABLE", "GP-1")
    return dealer_db


def rulings_in(db: Path | str) -> list[tuple[str | None, str | None, str]]:
    return [(r.game, r.action, r.input_text) for r in records(db, kind="ruling")]


def test_compare_split_pot_json(db: Path | str) -> None:
    result = run("genpoker", "compare", *SPLIT, "--json")
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert set(out) == {"winners", "split", "hands", "ruling_id", "explanation", "settings"}
    assert out["winners"] == [0, 1] and out["split"] is True
    assert out["hands"][1] == {
        "category": "straight",
        "rank": 3,
        "cards": ["1B1", "2R1", "3B1", "4B1", "5B1"],
        "active": ["1B1", "2R1", "3B1", "4B1", "5B1"],
        "tiebreak": [{"name": "lowest card", "value": 1}],
    }
    assert out["ruling_id"] == 1
    assert out["explanation"][-1] == (
        "Hand 1 and Hand 2 tie on Straight (lowest card 1): they split the pot."
    )
    assert out["settings"] == {"hand_ranks": "genpoker seed 003 (docs/rules.md, Genpoker)"}
    assert rulings_in(db) == [("genpoker", "compare", " | ".join(SPLIT))]


def test_compare_accepts_one_argument_with_bars(db: Path | str) -> None:
    result = run("genpoker", "compare", "1R 2B 3R1 4R1 5R1 | 2R 3B1 4R2 5R2 6R1", "--json")
    assert json.loads(result.stdout)["winners"] == [0]


def test_rank_for_people(db: Path | str) -> None:
    result = run("genpoker", "rank", "6r7", "6B7", "1R", "5B3", "4R2")
    assert result.exit_code == 0, result.output
    assert result.stdout == (
        "cards                hand\n"
        "-------------------  -------------------------------------------------\n"
        "1R1 4R2 5B3 6R7 6B7  country (lowest other card 1, sum of all five 22)\n"
        "  · Country, rank 11 of 18: one generation-6 couple (same nation, both colours).\n"
        "  · No higher category applies (a hand takes its highest).\n"
        "  · Ties: lowest other card (lower wins), then sum of all five (lower wins); else"
        " split. This hand: lowest other card 1, sum of all five 22.\n"
        "ruling #1 recorded\n"
    )
    assert rulings_in(db) == [("genpoker", "rank", "6r7 6B7 1R 5B3 4R2")]


def test_compare_for_people(db: Path | str) -> None:
    result = run("genpoker", "compare", *SPLIT)
    assert result.stdout.splitlines()[:4] == [
        "        cards                hand",
        "------  -------------------  ------------------------  ------",
        "hand 1  1R1 2B1 3R1 4R1 5R1  straight (lowest card 1)  splits",
        "hand 2  1B1 2R1 3B1 4B1 5B1  straight (lowest card 1)  splits",
    ]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["rank", "1R", "2B", "3R1", "4R1", "7R1"], "Error: unknown card '7R1'"),
        (["rank", "1R", "2B", "3R", "4R1", "5R1"], "Error: unknown card '3R': generation 3 needs"),
        (["rank", "1R 1r1 3R1 4R1 5R1"], "Error: duplicate card '1r1'"),
        (["rank", "1R 2B 3R1 4R1"], "Error: wrong number of cards for the hand"),
        (["compare", SPLIT[0]], "Error: compare needs two or more hands"),
        (["compare", SPLIT[0], SPLIT[0]], "Error: duplicate card 1R1: in hand 1 and hand 2"),
        (["compare", SPLIT[0], "1B 2R 3B1"], "Error: wrong number of cards for the hand 2"),
        (["compare", f"{SPLIT[0]} | "], "Error: compare needs two or more hands"),
        (["rank", "--batch", "/no/such/file"], "Error: cannot read batch file /no/such/file"),
    ],
)
def test_bad_input_is_one_error_line_exit_1_and_nothing_recorded(
    db: Path | str, args: list[str], message: str
) -> None:
    result = run("genpoker", *args)
    assert result.exit_code == 1
    assert result.stderr.startswith(message)
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.output
    assert rulings_in(db) == []


@pytest.mark.parametrize(
    "args",
    [
        ["rank", "--bogus"],
        ["draw"],
        ["draw", "--players", "9"],
        ["draw", "--players", "1"],
        ["draw", "--players", "2", "--pot", "-1"],
        ["draw", "--players", "two"],
        ["nothing"],
    ],
)
def test_bad_usage_exits_2(db: Path | str, args: list[str]) -> None:
    assert run("genpoker", *args, stdin="stand\nstand\n").exit_code == 2
    assert rulings_in(db) == []


def test_batch_rank_with_a_bad_line_in_the_middle(db: Path | str) -> None:
    lines = "1R 2B 3R1 4R1 5R1\n# comment\n1R 2B 3R1 4R1 9X\n\n6R1 6B1 6R2 6B2 1R\n"
    result = run("genpoker", "rank", "--batch", "-", "--json", stdin=lines)
    assert result.exit_code == 1
    outs = [json.loads(line) for line in result.stdout.splitlines()]
    assert [o.get("category") for o in outs] == ["straight", None, "two-countries"]
    assert [o.get("ruling_id") for o in outs] == [1, None, 2]
    assert outs[1] == {"line": 3, "input": "1R 2B 3R1 4R1 9X", "error": outs[1]["error"]}
    assert result.stderr.startswith("Error: line 3: unknown card '9X'")
    assert [r[1] for r in rulings_in(db)] == ["rank", "rank"]


def test_batch_compare(db: Path | str) -> None:
    lines = (
        f"{SPLIT[0]} | {SPLIT[1]}\n1R 2R 3R1 4R1 5R1 | 2B 3B1 4B1 5B1 6B9 | 6R1 6B2 6R2 6B1 5R8\n"
    )
    result = run("genpoker", "compare", "--batch", "-", "--json", stdin=lines)
    assert result.exit_code == 0, result.output
    assert [json.loads(x)["winners"] for x in result.stdout.splitlines()] == [[0, 1], [0]]
    assert len(rulings_in(db)) == 2


# Seed 7, three players: seat 1 4R3 5B8 5R4 6R14 1B1; seat 2 5R5 6B3 6B9 1R1 5R1;
# seat 3 4B1 6B8 6R12 5R6 4R1.
DRAW_SCRIPT = """\
discard 1R1
discard 6R14 5B8
# seat 3 tries to jump the queue
seat 3 stand
dicsard 6B8
stand
discard 6B8 6R12 5R6 4R1
discard 6B8 9Z1
seat 3: discard 6B8 6R12 5R6
"""


def test_a_scripted_draw_round_with_illegal_moves_refused_then_corrected(db: Path | str) -> None:
    result = run(
        "genpoker",
        "draw",
        "--players",
        "3",
        "--seed",
        "7",
        "--pot",
        "31",
        "--json",
        stdin=DRAW_SCRIPT,
    )
    assert result.exit_code == 1, result.output  # a piped session with refused lines
    assert result.stderr.splitlines() == [
        "Error: line 1: seat 1 cannot discard 1R1: it is not in that hand (4R3 5B8 5R4 6R14 1B1)",
        "Error: line 4: seat 2 draws now, not seat 3: seats draw in order from the dealer's left",
        "Error: line 5: unknown move 'dicsard 6B8': type 'discard CARDS' (1-3 cards) or 'stand'",
        "Error: line 7: seat 3 may discard at most 3 cards, not 4",
        "Error: line 8: unknown card '9Z1': a Genpoker card is a generation 1-6, a colour R or B "
        "and its number, e.g. 1R, 3B2, 6R16",
    ]
    outs = [json.loads(line) for line in result.stdout.splitlines()]
    assert [o["event"] for o in outs] == [
        "deal", "turn", "error", "draw", "turn", "error", "error", "draw", "turn", "error",
        "error", "draw", "showdown",
    ]  # fmt: skip
    assert outs[0] == {"event": "deal", "players": 3, "seed": 7, "pot": 31, "to_act": 1}
    assert outs[1] == {"event": "turn", "seat": 1, "hand": ["4R3", "5B8", "5R4", "6R14", "1B1"]}
    assert outs[3] == {
        "event": "draw",
        "seat": 1,
        "discarded": ["6R14", "5B8"],
        "drawn": ["5R7", "4R4"],
        "hand": ["4R3", "5R4", "1B1", "5R7", "4R4"],
    }
    final = outs[-1]
    assert final["winners"] == [2] and final["split"] is False
    assert [h["category"] for h in final["hands"]] == ["two-pair", "two-pair", "full-house"]
    assert final["pot"] == 31 and final["shares"] == [0, 0, 31]
    assert final["seats"][1]["discarded"] == [] and final["ruling_id"] == 1
    assert final["settings"] == {
        "hand_ranks": "genpoker seed 003 (docs/rules.md, Genpoker)",
        "players": 3,
        "seed": 7,
        "max_discard": 3,
    }
    assert final["explanation"][-2:] == [
        "Full House (rank 13) beats Two Pair (rank 16).",
        "Pot 31: seat 3 31.",
    ]
    assert rulings_in(db) == [
        (
            "genpoker",
            "draw",
            "players 3, seed 7, pot 31 | seat 1: discard 6R14 5B8 | seat 2: stand"
            " | seat 3: discard 6B8 6R12 5R6",
        )
    ]


def test_a_draw_round_for_people(db: Path | str) -> None:
    script = "discard 6R14 5B8\nstand\ndiscard 6B8 6R12 5R6\n"
    result = run("genpoker", "draw", "--players", "3", "--seed", "7", stdin=script)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[:7] == [
        "Genpoker draw: 3 players, seed 7, pot 0. Each seat in turn: 'discard CARDS' (1-3 cards)"
        " or 'stand'.",
        "Seat 1 holds 4R3 5B8 5R4 6R14 1B1.",
        "Seat 1 discards 6R14 5B8, draws 5R7 4R4: 4R3 5R4 1B1 5R7 4R4.",
        "Seat 2 holds 5R5 6B3 6B9 1R1 5R1.",
        "Seat 2 stands pat: 5R5 6B3 6B9 1R1 5R1.",
        "Seat 3 holds 4B1 6B8 6R12 5R6 4R1.",
        "Seat 3 discards 6B8 6R12 5R6, draws 6B7 6B6 6R11: 4B1 4R1 6B7 6B6 6R11.",
    ]
    assert lines[7:12] == [
        "        hand                  rank",
        "------  --------------------  ---------------------------------------------------  ----",
        "seat 1  1B1 4R3 4R4 5R4 5R7   two-pair (lower pair 4, other pair 5, fifth card 1)",
        "seat 2  1R1 5R1 5R5 6B3 6B9   two-pair (lower pair 5, other pair 6, fifth card 1)",
        "seat 3  4R1 4B1 6R11 6B6 6B7  full-house (three of a kind 6, pair 4)               wins",
    ]
    assert lines[-1] == "ruling #1 recorded"


def test_a_draw_that_ends_early_records_nothing(db: Path | str) -> None:
    result = run("genpoker", "draw", "--players", "3", "--seed", "7", stdin="stand\n")
    assert result.exit_code == 1
    assert result.stderr == (
        "Error: the moves ended before the showdown: seat 2 has not drawn; nothing recorded\n"
    )
    assert rulings_in(db) == []


def test_a_split_pot_in_a_draw_round(db: Path | str) -> None:
    # Two players standing pat: the first seed whose deal ties, as the engine rules it.
    seed = next(
        s for s in range(5000) if len(deal(2, random.Random(s)).draw(0, "").draw(1, "")
                                      .showdown().winners) == 2
    )  # fmt: skip
    result = run("genpoker", "draw", "--players", "2", "--seed", str(seed), "--pot", "5",
                 "--json", stdin="stand\nstand pat\n")  # fmt: skip
    final = json.loads(result.stdout.splitlines()[-1])
    assert final["winners"] == [0, 1] and final["split"] is True
    assert final["shares"] == [3, 2]


@settings(max_examples=40, deadline=None)
@given(st.permutations(DECK).map(lambda deck: deck[:15]))
def test_compare_winners_are_the_best_ranked_hands(cards: list) -> None:
    typed = [" ".join(str(c) for c in cards[i : i + 5]) for i in (0, 5, 10)]
    ruling = rulings.compare_ruling(typed)
    keys = [rank_hand(cards[i : i + 5]).key for i in (0, 5, 10)]
    assert ruling.result["winners"] == [i for i, k in enumerate(keys) if k == min(keys)]
    assert ruling.cards == tuple(str(c) for c in cards[:15])


@given(st.integers(0, 7), st.sampled_from(["stand", "pat", "stand pat"]))
def test_read_discard_understands_a_seat_and_a_stand(seat: int, verb: str) -> None:
    assert session.read_discard(f"seat {seat} {verb}") == session.Discard(seat, (), verb)
    assert session.read_discard(verb.upper()) == session.Discard(None, (), verb.upper())


@pytest.mark.parametrize("seat", ["\u00b2", "\u0663", "\uff12", "9" * 5000])
def test_a_seat_is_ascii_digits_and_at_most_nine_of_them(seat: str) -> None:
    with pytest.raises(DealerError, match=r"^seat '.*' is not a seat number$"):
        session.read_discard(f"seat {seat} stand")


def test_refused_discards_are_move_errors_and_unreadable_ones_are_not() -> None:
    start = deal(3, random.Random(7))
    for move in ("discard 1R1", "seat 2 stand", "discard 4R3 5B8 5R4 6R14"):
        with pytest.raises(MoveError):
            session.discard(start, move)
    for move in ("dicsard 4R3", "discard", "stand 4R3", "seat x stand"):
        with pytest.raises(DealerError) as caught:
            session.discard(start, move)
        assert not isinstance(caught.value, MoveError)
