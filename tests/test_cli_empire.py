"""`dealer empire …` through the CLI runner: exact output, JSON keys (with the provisional flag),
exit codes, the record."""

import json
import random
from pathlib import Path

import pytest
from cli import run
from hypothesis import given
from hypothesis import strategies as st
from log_reads import records

from dealer.games.empire import session
from dealer.games.empire.combinations import default_table
from dealer.games.empire.hand import ACTIONS, deal_hand
from dealer.games.empire.ranking import PROVISIONAL_LINE
from dealer.kernel.digest import sha256_hex
from dealer.kernel.errors import DealerError, MoveError

OPERATOR = Path(__file__).parent / "data" / "empire_operator_table.yaml"
SHIPPED = {
    "name": "empire-attested",
    "version": "1",
    "provisional": True,
    "origin": "shipped combinations.yaml",
}
OPERATOR_TABLE = {
    "name": "test-house",
    "version": "2024.1",
    "provisional": False,
    "origin": str(OPERATOR),
}
PROVISIONAL = PROVISIONAL_LINE.format(name="empire-attested", version="1")
SHIPPED_SHA256 = default_table().sha256
OPERATOR_SHA256 = sha256_hex(OPERATOR.read_text(encoding="utf-8"))


@pytest.fixture()
def db(dealer_db: Path | str, monkeypatch: pytest.MonkeyPatch) -> Path | str:
    """An empty log on each backend; the commands run as d-104 at EM-2."""
    monkeypatch.setenv("DEALER_USER", "d-104")
    monkeypatch.setenv("DEALER_TABLE", "EM-2")
    monkeypatch.delenv("DEALER_EMPIRE_COMBINATIONS", raising=False)
    return dealer_db


@pytest.fixture()
def approved(db: Path | str) -> Path | str:
    """The log of `db` with supervisor sup-1, who approved the operator's combination table
    for every table (records 1 and 2): a table neither shipped nor approved rules nothing."""
    sup = ("--supervisor", "sup-1", "--pin", "signal-9876")
    for args in (
        ("audit", "user", "add", "sup-1", "--role", "supervisor", "--new-pin", "signal-9876"),
        ("audit", "approve-combinations", str(OPERATOR), "--reason", "the house's", *sup),
    ):
        done = run(*args, env={"DEALER_USER": None})
        assert done.exit_code == 0, done.output
    return db


def rulings_in(db: Path | str) -> list[tuple[str | None, str | None, str]]:
    return [(r.game, r.action, r.input_text) for r in records(db, kind="ruling")]


def test_rank_on_the_provisional_table_says_so(db: Path | str) -> None:
    result = run("empire", "rank", "red-sword", "blue-sword", "--json")
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out == {
        "category": "pair",
        "plaques": ["red-sword", "blue-sword"],
        "active": [
            {"plaque": "red-sword", "as": "red-sword", "emulated": False, "recoloured": False},
            {"plaque": "blue-sword", "as": "blue-sword", "emulated": False, "recoloured": False},
        ],
        "ignored": [],
        "restrictions": {"no_emulating": [], "no_counting": []},
        "value": {
            "combination_rank": 1,
            "type_ranks": [9, 9],
            "true": [True, True],
            "colours": ["red", "blue"],
        },
        "provisional": True,
        "table": SHIPPED,
        "ruling_id": 1,
        "explanation": [
            "pair: 2 plaques of one type (combination 6 of 6 in table empire-attested v1).",
            "Active: red-sword; blue-sword.",
            "Ties: highest-ranked active plaques, then true over emulated, then colour (red, "
            "blue, green, black, white); else split.",
            PROVISIONAL,
        ],
        "settings": {"combination_table": SHIPPED, "combinations_sha256": SHIPPED_SHA256},
    }
    assert rulings_in(db) == [("empire", "rank", "red-sword blue-sword")]


def test_compare_on_an_operator_table_is_not_provisional(approved: Path | str) -> None:
    tableaux = ("red-gate blue-gate", "red-bow blue-bow")
    shipped = json.loads(run("empire", "compare", *tableaux, "--json").stdout)
    assert shipped["winners"] == [1] and shipped["provisional"] is True  # bow above gate
    assert shipped["explanation"][-1] == PROVISIONAL
    result = run("empire", "compare", *tableaux, "--combinations", str(OPERATOR), "--json")
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert set(out) == {
        "winners", "split", "hands", "provisional", "table", "ruling_id", "explanation", "settings"
    }  # fmt: skip
    assert out["winners"] == [0] and out["split"] is False
    assert out["provisional"] is False and out["table"] == OPERATOR_TABLE
    assert [h["value"]["type_ranks"] for h in out["hands"]] == [[8, 8], [2, 2]]
    assert out["explanation"] == [
        "Tableau 1: pair (red-gate, blue-gate).",
        "Tableau 2: pair (red-bow, blue-bow).",
        "Tableau 1 wins with pair (red-gate, blue-gate).",
        "Both pair: the highest-ranked active plaques decide, gate against bow.",
    ]
    assert out["settings"] == {
        "combination_table": OPERATOR_TABLE,
        "combinations_sha256": OPERATOR_SHA256,
    }
    assert out["ruling_id"] == 4
    assert [r[1] for r in rulings_in(approved)] == ["compare", "compare"]


def test_an_operator_combination_and_the_environment_variable(
    approved: Path | str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DEALER_EMPIRE_COMBINATIONS", str(OPERATOR))
    out = json.loads(run("empire", "rank", "red-gate red-tower red-crown", "--json").stdout)
    assert out["category"] == "citadel" and out["table"]["name"] == "test-house"
    assert PROVISIONAL not in out["explanation"]


def test_a_split_between_tableaux(db: Path | str) -> None:
    out = json.loads(run("empire", "compare", "red-sword", "red-bow", "--json").stdout)
    assert out["winners"] == [0]
    out = json.loads(run("empire", "compare", "dragon", "dragon", "--json").stdout)
    assert out["winners"] == [0, 1] and out["split"] is True
    assert [h["category"] for h in out["hands"]] == ["no-combination", "no-combination"]
    assert (
        out["explanation"][2]
        == "Tableau 1 and Tableau 2 tie on no-combination: they split the pot."
    )


def test_other_tableaux_restrict_the_ranked_one(db: Path | str) -> None:
    result = run("empire", "rank", "red-gate", "dragon", "--other", "dwarf green-gate", "--json")
    out = json.loads(result.stdout)
    assert out["category"] == "no-combination"
    assert out["restrictions"] == {"no_emulating": ["gate"], "no_counting": []}
    assert (
        "Restricted: Other tableau 1's Dwarf with green-gate forbids emulating gate."
        in (out["explanation"])
    )
    assert rulings_in(db) == [
        ("empire", "rank", "red-gate dragon | others in play: dwarf green-gate")
    ]


def test_rank_for_people(db: Path | str) -> None:
    result = run("empire", "rank", "red-sword", "blue-sword", "dragon", "elf")
    assert result.exit_code == 0, result.output
    assert result.stdout == (
        "plaques                          combination      active\n"
        "-------------------------------  ---------------  -------------------------------"
        "--------\n"
        "red-sword blue-sword dragon elf  three-of-a-type  red-sword blue-sword dragon→green"
        "-sword\n"
        "  · three-of-a-type: 3 plaques of one type (combination 5 of 6 in table empire-attested"
        " v1).\n"
        "  · Active: red-sword; blue-sword; dragon as green-sword (emulated: a Dragon may be any"
        " plaque).\n"
        "  · Ties: highest-ranked active plaques, then true over emulated, then colour (red, blue,"
        " green, black, white); else split.\n"
        f"  · {PROVISIONAL}\n"
        "combination table empire-attested v1: PROVISIONAL\n"
        "ruling #1 recorded\n"
    )


def test_compare_for_people(approved: Path | str) -> None:
    result = run("empire", "compare", "red-gate blue-gate", "red-bow blue-bow",
                 "--combinations", str(OPERATOR))  # fmt: skip
    assert result.stdout.splitlines()[:4] == [
        "           plaques             combination    active",
        "---------  ------------------  -------------  ------------------  ----",
        "tableau 1  red-gate blue-gate  pair           red-gate blue-gate  wins",
        "tableau 2  red-bow blue-bow    pair           red-bow blue-bow",
    ]
    assert result.stdout.splitlines()[-2:] == [
        "combination table test-house v2024.1: operator table",
        "ruling #3 recorded",
    ]


BAD_TABLE = """\
name: t
version: 1
type_order: [sword, bow, spear, horse, sigil, coffer, crown, gate, tower]
combinations: [{name: pair, kind: same-type, count: 2}]
"""


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["rank", "red-swrod"], "Error: unknown plaque 'red-swrod': no type 'swrod'"),
        (["rank", "red-sword", "RED-SWORD"], "Error: duplicate plaque 'RED-SWORD'"),
        (["rank", "dragon dragon dragon"], "Error: a third dragon 'dragon'"),
        (
            ["rank", "red-sword red-bow red-spear red-horse red-sigil red-gate red-tower elf"],
            "Error: wrong number of plaques for the tableau: expected 1-7, got 8",
        ),
        (["rank", "elf", "--other", "elf"], "Error: duplicate plaque elf"),
        (["compare", "red-sword"], "Error: compare needs two or more tableaux"),
        (["compare", "red-sword", "red-sword"], "Error: duplicate plaque red-sword: in tableau 1"),
        (["compare", "dragon dragon", "dragon"], "Error: a third dragon in tableau 2"),
        (["rank", "elf", "--combinations", "{bad}"], "Error: combination table {bad}: provisional"),
        (["rank", "elf", "--combinations", "/no/such.yaml"], "Error: combination table /no/such"),
        (
            ["hand", "--players", "2", "--ante", "5", "--stack", "3"],
            "Error: seat 1's stack 3 must be a whole number of at least the ante (5)",
        ),
        (
            ["hand", "--players", "2", "--ante", "1000000000"],
            "Error: ante 1000000000 must be a whole number of chips, 0 to 999,999,999",
        ),
        (
            ["hand", "--players", "2", "--stack", "1" + "0" * 30],
            f"Error: seat 1's stack 1{'0' * 30} is more than 999,999,999 chips",
        ),
    ],
)
def test_bad_input_is_one_error_line_exit_1_and_nothing_recorded(
    db: Path | str, tmp_path: Path, args: list[str], message: str
) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text(BAD_TABLE)
    result = run("empire", *(a.replace("{bad}", str(bad)) for a in args), stdin="yield\n")
    assert result.exit_code == 1
    assert result.stderr.startswith(message.replace("{bad}", str(bad)))
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.output
    assert rulings_in(db) == []


@pytest.mark.parametrize(
    "args",
    [
        ["rank", "--bogus"],
        ["hand"],
        ["hand", "--players", "8"],
        ["hand", "--players", "1"],
        ["hand", "--players", "2", "--ante", "-1"],
        ["hand", "--players", "2", "--stack", "0"],
        ["compare", "--combinations"],
        ["nothing"],
    ],
)
def test_bad_usage_exits_2(db: Path | str, args: list[str]) -> None:
    assert run("empire", *args, stdin="yield\n").exit_code == 2
    assert rulings_in(db) == []


def test_batch_rank_with_a_bad_line_in_the_middle(db: Path | str) -> None:
    lines = "red-sword blue-sword\nred-sword blue-sowrd\n# a comment\nred-bow blue-bow green-bow\n"
    result = run("empire", "rank", "--batch", "-", "--json", stdin=lines)
    assert result.exit_code == 1
    outs = [json.loads(line) for line in result.stdout.splitlines()]
    assert [o.get("category") for o in outs] == ["pair", None, "three-of-a-type"]
    assert [o.get("provisional") for o in outs] == [True, None, True]
    assert outs[1] == {"line": 2, "input": "red-sword blue-sowrd", "error": outs[1]["error"]}
    assert result.stderr.startswith("Error: line 2: unknown plaque 'blue-sowrd'")
    assert len(rulings_in(db)) == 2


def test_batch_compare_with_an_operator_table(approved: Path | str) -> None:
    lines = "red-gate blue-gate | red-bow blue-bow\nred-sword | blue-sword | green-sword\n"
    result = run("empire", "compare", "--batch", "-", "--json", "--combinations", str(OPERATOR),
                 stdin=lines)  # fmt: skip
    assert result.exit_code == 0, result.output
    outs = [json.loads(x) for x in result.stdout.splitlines()]
    assert [o["winners"] for o in outs] == [[0], [0]]
    assert all(o["provisional"] is False for o in outs)


# Seed 5, two players, ante 1, stacks 20: seat 1 shows blue-spear blue-sword and turns black-bow,
# white-crown, dragon; seat 2 shows green-sword white-bow and turns green-tower, dwarf,
# white-spear.
HAND_SCRIPT = """\
turn
bet ten
bet 2
seat 1 see
see
turn
turn
turn
turn
bet 1
seat 2: see
turn
turn
turn
bet 30
bet 1
see
"""


def test_numbers_are_ascii_digits_and_at_most_nine_of_them(db: Path | str) -> None:
    """A superscript passes `str.isdigit` and breaks `int`; 4,000 digits (as many as a line of
    a live session can hold with the move) are refused, not converted."""
    many = "9" * 4000
    moves = ["bet \u00b2", f"bet {many}", "bet 1000000000", "seat \u00b2 bet 1",
             "seat \u0663 bet 1", f"seat {many} bet 1"]  # fmt: skip
    result = run("empire", "hand", "--players", "2", "--seed", "5", stdin="\n".join(moves))
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        "Error: line 1: bet amount '\u00b2' is not a whole number of chips",
        f"Error: line 2: bet amount {many} is more than 999,999,999 chips",
        "Error: line 3: bet amount 1000000000 is more than 999,999,999 chips",
        "Error: line 4: seat '\u00b2' is not a seat number",
        "Error: line 5: seat '\u0663' is not a seat number",
        f"Error: line 6: seat '{many}' is not a seat number",
        "Error: the moves ended before the hand was over: seat 1 to act; nothing recorded",
    ]
    assert rulings_in(db) == []


def test_a_scripted_hand_with_illegal_moves_refused_then_corrected(db: Path | str) -> None:
    result = run("empire", "hand", "--players", "2", "--seed", "5", "--ante", "1",
                 "--stack", "20", "--json", stdin=HAND_SCRIPT)  # fmt: skip
    assert result.exit_code == 1, result.output  # a piped session with refused lines
    assert result.stderr.splitlines() == [
        "Error: line 1: seat 1 cannot turn now (it may bet or yield)",
        "Error: line 2: bet amount 'ten' is not a whole number of chips",
        "Error: line 4: it is seat 2's move, not seat 1's",
        "Error: line 9: seat 1 cannot turn now: two plaques remain unturned, so it must bet or "
        "yield (it may bet or yield)",
        "Error: line 15: seat 2 cannot bet 30: it has 16 chips",
    ]
    outs = [json.loads(line) for line in result.stdout.splitlines()]
    events = [o["event"] for o in outs]
    assert events[0] == "deal" and events[-1] == "result"
    assert events.count("error") == 5 and events.count("move") == 12
    deal = outs[0]
    assert deal["seed"] == 5 and deal["pot"] == 2 and deal["to_act"] == 1
    assert [s["tableau"] for s in deal["seats"]] == [
        ["blue-spear", "blue-sword"],
        ["green-sword", "white-bow"],
    ]
    assert deal["provisional"] is True and deal["legal"] == ["bet", "yield"]
    first_move = outs[3]
    assert (first_move["seat"], first_move["move"], first_move["log"]) == (1, "bet 2", [
        "Seat 1 bets 2."
    ])  # fmt: skip
    final = outs[-1]
    assert final["phase"] == "over" and final["winners"] == [1] and final["shares"] == [10, 0]
    assert final["pot"] == 10 and [s["stack"] for s in final["seats"]] == [15, 15]
    assert final["showdown"]["winners"] == [0] and final["provisional"] is True
    assert final["explanation"][-1] == PROVISIONAL
    assert final["settings"] == {
        "combination_table": SHIPPED,
        "combinations_sha256": SHIPPED_SHA256,
        "players": 2,
        "seed": 5,
        "ante": 1,
        "stack": 20,
    }
    ((game, action, typed),) = rulings_in(db)
    assert (game, action) == ("empire", "hand")
    assert typed.startswith("players 2, seed 5, ante 1, stack 20 | seat 1: bet 2 | seat 2: see")
    assert typed.endswith("seat 2: bet 1 | seat 1: see")


def test_a_hand_for_people_ending_in_a_yield(db: Path | str) -> None:
    result = run("empire", "hand", "--players", "2", "--seed", "5", "--ante", "1",
                 stdin="bet 2\nyield\n")  # fmt: skip
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == [
        "Empire hand: 2 players, seed 5, ante 1. Combination table empire-attested v1, "
        "PROVISIONAL (docs/rules.md, Empire): every value rests on it. Moves: 'bet N', 'see', "
        "'raise N', 'yield' or 'turn'.",
        "Seat 1 shows blue-spear blue-sword.",
        "Seat 2 shows green-sword white-bow.",
        "The opening betting round: seat 1 must bet or yield.",
        "Seat 1 to act: bet or yield (pot 2).",
        "Seat 1 bets 2.",
        "Seat 2 to act: see or raise or yield (pot 4; the bet is 2, seat 2 owes 2).",
        "Seat 2 yields.",
        "All but seat 1 have yielded: seat 1 takes the pot of 4.",
        "        tableau                combination     put in    pot 4",
        "------  ---------------------  --------------  --------  -------",
        "seat 1  blue-spear blue-sword  no-combination  3         wins 4",
        "seat 2  green-sword white-bow  yielded         1",
        "  · Seat 1 shows blue-spear blue-sword.",
        "  · Seat 2 shows green-sword white-bow.",
        "  · The opening betting round: seat 1 must bet or yield.",
        "  · Seat 1 bets 2.",
        "  · Seat 2 yields.",
        "  · All but seat 1 have yielded: seat 1 takes the pot of 4.",
        f"  · {PROVISIONAL}",
        "combination table empire-attested v1: PROVISIONAL",
        "ruling #1 recorded",
    ]
    assert rulings_in(db) == [
        ("empire", "hand", "players 2, seed 5, ante 1 | seat 1: bet 2 | seat 2: yield")
    ]


def test_a_hand_that_ends_early_records_nothing(db: Path | str) -> None:
    result = run("empire", "hand", "--players", "3", "--seed", "5", stdin="bet 1\nsee\n")
    assert result.exit_code == 1
    assert result.stderr == (
        "Error: the moves ended before the hand was over: seat 3 to act; nothing recorded\n"
    )
    assert rulings_in(db) == []


@given(
    st.one_of(st.none(), st.integers(0, 6)),
    st.sampled_from(ACTIONS),
    st.integers(1, 10**6),
)
def test_read_move_reads_what_it_prints(seat: int | None, action: str, chips: int) -> None:
    amount = chips if action in ("bet", "raise") else None
    move = session.Move(seat, action, amount)
    typed = str(move) if seat is None else f"SEAT {seat} {str(move).upper()}"
    assert session.read_move(typed) == move


def test_refused_moves_are_move_errors_and_unreadable_ones_are_not() -> None:
    start = deal_hand(2, random.Random(5), ante=1, stacks=[20, 20])
    for move in ("turn", "see", "seat 2 bet 2", "seat 0 bet 2", "bet 30", "seat 9 yield"):
        with pytest.raises(MoveError):
            session.act(start, move)
    for move in ("fold", "bet", "bet two", "yield now", "seat x bet 2"):
        with pytest.raises(DealerError) as caught:
            session.act(start, move)
        assert not isinstance(caught.value, MoveError)
