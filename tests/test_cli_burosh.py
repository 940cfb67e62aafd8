"""`dealer burosh …` through the CLI runner: exact output, JSON keys, exit codes, the record."""

import functools
import json
from pathlib import Path

import cli
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from log_reads import rows

from dealer.games.burosh.deck import DECK
from dealer.games.burosh.rulings import compare_ruling, rank_ruling


@pytest.fixture()
def db(dealer_db: Path | str, monkeypatch: pytest.MonkeyPatch) -> Path | str:
    """An empty log on each backend; the commands run as d-104 at BR-1."""
    monkeypatch.setenv("DEALER_USER", "d-104")
    monkeypatch.setenv("DEALER_TABLE", "BR-1")
    return dealer_db


run = functools.partial(cli.run, whole=True)


def rulings(db: Path | str) -> list[tuple[str, str, str, str]]:
    """(game, action, input, settings) of every ruling on the record, in order."""
    return [
        (row["game"], row["action"], row["input_text"], row["settings"])
        for row in rows(db, kind="ruling")
    ]


def test_rank_json_emperors_court(db: Path | str) -> None:
    result = run("burosh", "rank", "EM", "Ah", "Kh", "Qh", "Jh", "--trump", "h", "--json")
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out == {
        "category": "emperors-court",
        "title": "Emperor's Court",
        "position": 1,
        "trump": "h",
        "hand": ["EM", "Ah", "Kh", "Qh", "Jh"],
        "cards": ["EM", "Ah", "Kh", "Qh", "Jh"],
        "played": ["EM", "Ah", "Kh", "Qh", "Jh"],
        "wilds": {"EM": "EM"},
        "emperor": True,
        "description": "Emperor's Court",
        "ruling_id": 1,
        "explanation": [
            "Trump ♥ (hearts).",
            "Emperor's Court (category 1 of 30: Emperor, Ace, King, Queen, Jack, all in trump):"
            " Emperor A♥ K♥ Q♥ J♥.",
            "The Emperor plays as itself, one rank above the ace (trump).",
        ],
        "settings": {"trump": "h"},
    }
    assert rulings(db) == [("burosh", "rank", "EM Ah Kh Qh Jh", '{"trump":"h"}')]


@pytest.mark.parametrize(
    ("cards", "trump", "category", "wilds"),
    [
        ("2s 2h 2d", "s", "trump-three-of-a-kind", {}),
        ("Jh Jd Jc", "s", "three-of-a-kind", {}),
        ("MG Th Td Tc Ts", "spades", "five-of-a-kind", {"MG": "Ts"}),
        ("HM 9c 9d", "♠", "three-of-a-kind", {"HM": "9h"}),
        ("8s 7s 6s 5s", "S", "trump-short-straight-flush", {}),
        ("Ah 9d", "s", "high-card", {}),
    ],
)
def test_rank_categories(
    db: Path | str, cards: str, trump: str, category: str, wilds: dict
) -> None:
    out = json.loads(run("burosh", "rank", cards, "--trump", trump, "--json").stdout)
    assert (out["category"], out["wilds"]) == (category, wilds)


def test_rank_for_people(db: Path | str) -> None:
    result = run("burosh", "rank", "Kd EM 4h", "--trump", "s")
    assert result.exit_code == 0
    assert result.stdout == (
        "Emperor K♦ 4♥  Trump Pair of kings\n"
        "  · Trump ♠ (spades).\n"
        "  · Trump Pair of kings (category 27 of 30: any two cards of the same value, at least one"
        " in trump): K♠ K♦.\n"
        "  · The Emperor plays as K♠ (always trump).\n"
        "  · Outside the category, ignored (no kickers): 4♥.\n"
        "ruling #1 recorded\n"
    )


def test_compare_tie_json(db: Path | str) -> None:
    result = run("burosh", "compare", "Ts Th", "Td MG", "--trump", "s", "--json")
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert (out["winners"], out["tie"]) == ([0, 1], True)
    assert [h["category"] for h in out["hands"]] == ["trump-pair", "trump-pair"]
    assert out["hands"][1]["wilds"] == {"MG": "Ts"}
    assert out["explanation"][-1] == (
        "Hands 1, 2: same category and values; the Magician and the Hermit count as the cards"
        " they copy; tie: all challenging dice stay."
    )
    assert (out["ruling_id"], out["settings"]) == (1, {"trump": "s"})
    assert rulings(db) == [("burosh", "compare", "Ts Th | Td MG", '{"trump":"s"}')]


def test_compare_tie_for_people(db: Path | str) -> None:
    result = run("burosh", "compare", "Ts Th", "Td MG", "--trump", "s")
    assert result.exit_code == 0
    assert result.stdout == (
        "        cards         hand\n"
        "------  ------------  ------------------  ---\n"
        "hand 1  10♠ 10♥       Trump Pair of tens  tie\n"
        "hand 2  Magician 10♦  Trump Pair of tens  tie\n"
        "  · Trump ♠ (spades).\n"
        "  · Hand 1: Trump Pair of tens (10♠ 10♥).\n"
        "  · Hand 2: Trump Pair of tens (10♠ 10♦).\n"
        "  · Hands 1, 2: same category and values; the Magician and the Hermit count as the cards"
        " they copy; tie: all challenging dice stay.\n"
        "ruling #1 recorded\n"
    )


@pytest.mark.parametrize(
    ("hands", "winners"),
    [
        (["Ks Kh", "Kd EM"], [1]),
        (["2s 2h 2d", "Jh Jd Jc"], [0]),
        (["Ah 9d", "2s", "Kh Kd"], [2]),
        (["Ah Kh 9h 5h 2h", "Ad Kd 9d 5d 2d"], [0, 1]),
        (["2h 2d EM", "2c HM"], [0, 1]),
    ],
)
def test_compare_winners(db: Path | str, hands: list[str], winners: list[int]) -> None:
    out = json.loads(run("burosh", "compare", *hands, "--trump", "s", "--json").stdout)
    assert out["winners"] == winners
    assert len(out["hands"]) == len(hands)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["rank", "As", "Zx"], "Error: unknown card 'Zx'"),
        (["rank", "As", "JK"], "Error: 'JK': the joker is not a Burosh card"),
        (["rank", "As Kd As"], "Error: duplicate card 'As'"),
        (["rank", "As Kd Qc Jh Ts 9s"], "Error: too many cards: '9s' would be card 6"),
        (["rank", "As", "--trump", "x"], "Error: unknown trump suit 'x'"),
        (["compare", "Ks Kh", "Kd Zx"], "Error: hand 2: unknown card 'Zx'"),
        (["compare", "Ks EM", "Kd EM"], "Error: duplicate card EM: in hand 1 and hand 2"),
        (["compare", "Ks Kh"], "Error: compare needs two or more hands"),
        (["compare", "Ks Kh", ""], "Error: hand 2: no cards"),
    ],
)
def test_bad_input_is_one_error_line_exit_1_and_nothing_recorded(
    db: Path | str, args: list[str], message: str
) -> None:
    if "--trump" not in args:
        args = [*args, "--trump", "s"]
    result = run("burosh", *args)
    assert result.exit_code == 1
    assert result.stderr.startswith(message)
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.output
    assert result.stdout == ""
    assert rulings(db) == []


@pytest.mark.parametrize(
    "args",
    [
        ["burosh", "rank", "As Kd"],
        ["burosh", "compare", "As", "Kd"],
        ["burosh", "rank", "As", "--trump"],
        ["burosh", "rank", "As", "--trump", "s", "--bogus"],
        ["burosh", "deal"],
    ],
)
def test_bad_usage_exits_2(db: Path | str, args: list[str]) -> None:
    assert run(*args).exit_code == 2
    assert rulings(db) == []


def test_batch_rank_with_a_bad_line_in_the_middle(db: Path | str) -> None:
    lines = "EM Ah Kh Qh Jh\n# a comment\n\nAs JK\n2s 2h 2d\n"
    result = run("burosh", "rank", "--trump", "h", "--batch", "-", "--json", stdin=lines)
    assert result.exit_code == 1
    outs = [json.loads(line) for line in result.stdout.splitlines()]
    assert [o.get("category") for o in outs] == ["emperors-court", None, "trump-three-of-a-kind"]
    assert [o.get("ruling_id") for o in outs] == [1, None, 2]
    assert outs[1] == {"line": 4, "input": "As JK", "error": outs[1]["error"]}
    assert result.stderr.startswith("Error: line 4: 'JK': the joker is not a Burosh card")
    assert result.stderr.count("\n") == 1
    assert [r[:3] for r in rulings(db)] == [
        ("burosh", "rank", "EM Ah Kh Qh Jh"),
        ("burosh", "rank", "2s 2h 2d"),
    ]


def test_batch_compare_from_a_file(db: Path | str, tmp_path: Path) -> None:
    batch = tmp_path / "challenges.txt"
    batch.write_text("Ks Kh | Kd EM\nTs Th|Td MG\nAh 9d | 2s | Kh Kd\nKs Kh | Ks\n", "utf-8")
    result = run("burosh", "compare", "--trump", "s", "--batch", str(batch), "--json")
    assert result.exit_code == 1
    outs = [json.loads(line) for line in result.stdout.splitlines()]
    assert [o.get("winners") for o in outs] == [[1], [0, 1], [2], None]
    assert "Error: line 4: duplicate card Ks: in hand 1 and hand 2" in result.stderr
    assert [r[2] for r in rulings(db)] == ["Ks Kh | Kd EM", "Ts Th | Td MG", "Ah 9d | 2s | Kh Kd"]


def test_batch_file_missing(db: Path | str, tmp_path: Path) -> None:
    result = run("burosh", "rank", "--trump", "s", "--batch", str(tmp_path / "none.txt"))
    assert result.exit_code == 1
    assert result.stderr.startswith("Error: cannot read batch file")
    assert rulings(db) == []


# --- the ruling builders (pure) -----------------------------------------------------------------

_HANDS = st.lists(st.sampled_from(DECK), min_size=2, max_size=8, unique=True)


@settings(max_examples=60, deadline=None)
@given(cards=_HANDS, split=st.integers(1, 7), trump=st.sampled_from("cdhs"))
def test_compare_ruling_is_symmetric(cards: list, split: int, trump: str) -> None:
    split = min(split, len(cards) - 1)
    a, b = cards[:split][:5], cards[split:][:5]
    texts = [" ".join(map(str, a)), " ".join(map(str, b))]
    forward = compare_ruling(texts, trump)
    backward = compare_ruling(texts[::-1], trump)
    assert sorted(1 - w for w in backward.result["winners"]) == forward.result["winners"]
    ranks = [rank_ruling(t, trump).result["position"] for t in texts]
    assert [h["position"] for h in forward.result["hands"]] == ranks
    assert forward.cards == rank_ruling(texts[0], trump).cards + rank_ruling(texts[1], trump).cards
