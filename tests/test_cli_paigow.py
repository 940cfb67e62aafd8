"""`dealer paigow …` through the CLI runner: exact output, JSON keys, exit codes, the record."""

import json
from pathlib import Path

import pytest
from cli import run
from log_reads import records as logged


@pytest.fixture()
def db(dealer_db: Path | str, monkeypatch: pytest.MonkeyPatch) -> Path | str:
    """An empty log on each backend; the commands run as d-104 at PG-3."""
    monkeypatch.setenv("DEALER_USER", "d-104")
    monkeypatch.setenv("DEALER_TABLE", "PG-3")
    return dealer_db


SUPERVISOR_PIN = "signal-9876"
APPROVED = ("--supervisor", "sup-1", "--pin", SUPERVISOR_PIN)
"""A supervisor's approval of a `--rule` change to the house rules."""


def register_supervisor(db: Path | str) -> None:
    """Register supervisor sup-1 in the log at `db` (who approves `--rule` changes)."""
    from dealer.audit import open_log, staff

    with open_log(db) as log:
        staff.add_user(log, "sup-1", "supervisor", pin=SUPERVISOR_PIN)


def records(db: Path | str) -> int:
    return len(logged(db, kind="ruling"))


def test_set_json_keys(db: Path | str) -> None:
    result = run("paigow", "set", "Ks Kd 4c 4h As 9d 2c", "--json")
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["high"] == ["Ks", "Kd", "4h", "4c", "2c"]
    assert out["low"] == ["As", "9d"]
    assert out["house_way"] == {"name": "trump-plaza", "version": "1"}
    assert out["rule"].startswith("trump-plaza v1 §3c:")
    assert out["ruling_id"] == 1
    assert out["settings"]["dealer_pai_gow"] == "half-pay"
    assert records(db) == 1


def test_set_with_foxwoods_for_people(db: Path | str) -> None:
    """Another House Way than the table profile's is a rule change: a supervisor approves it."""
    register_supervisor(db)
    result = run("paigow", "set", "Ks Kd 4c 4h As 9d 2c", "--house-way", "foxwoods", *APPROVED)
    assert result.exit_code == 0, result.output
    assert result.stdout == (
        "high (5 cards)                low (2 cards)\n"
        "----------------------------  ---------------\n"
        "K♠ K♦ A♠ 9♦ 2♣                4♥ 4♣\n"
        "pair of kings, A-9-2 kickers  pair of fours\n"
        "  foxwoods v1 §3a: Two pair, the higher aces, kings, queens or jacks — split them, the"
        " small pair low.\n"
        "ruling #2 recorded\n"
    )


def test_rank_and_compare(db: Path | str) -> None:
    out = json.loads(run("paigow", "rank", "JK", "Kd", "Qh", "Js", "Tc", "--json").stdout)
    assert (out["category"], out["cards"]) == ("straight", ["JK", "Kd", "Qh", "Js", "Tc"])
    out = json.loads(run("paigow", "rank", "2c 2d", "--json").stdout)
    assert out["category"] == "pair"
    out = json.loads(run("paigow", "compare", "As Ks", "Ad Kd", "--json").stdout)
    assert out["winner"] is None
    out = json.loads(run("paigow", "compare", "2c 3d 4h 5s Ac", "Kc Qd Jh Ts 9s", "--json").stdout)
    assert out["winner"] == 0
    register_supervisor(db)
    wheel_low = run(
        "paigow", "compare", "2c 3d 4h 5s Ac", "Kc Qd Jh Ts 9s", "--json", "--rule", "wheel=lowest",
        *APPROVED,
    )  # fmt: skip
    assert json.loads(wheel_low.stdout)["winner"] == 1


def test_settle_json(db: Path | str) -> None:
    register_supervisor(db)
    result = run(
        "paigow",
        "settle",
        "--dealer",
        "As Kd 9c 7h 5s 3d 2c",
        "--player",
        "Js Jd Ac Qh 8s 5d 3h",
        "--wager",
        "10",
        "--json",
    )
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["base"]["outcome"] == "win"
    assert out["base"]["net"] == 5 and out["base"]["foul"] is False
    assert out["total_net"] == 5 and out["bonuses"] == []
    assert set(out["base"]["player"]) == {"set_by", "high", "low", "best_net"}  # House Way's
    push = run(
        "paigow",
        "settle",
        "--dealer",
        "As Kd 9c 7h 5s 3d 2c",
        "--high",
        "Js Jd 8s 5d 3h",
        "--low",
        "Ac Qh",
        "--wager",
        "10",
        "--json",
        "--rule",
        "dealer_pai_gow=push-ace-high",
        *APPROVED,
    )
    pushed = json.loads(push.stdout)["base"]
    assert pushed["outcome"] == "push"
    assert pushed["player"]["set_by"] == "player"
    assert (pushed["player"]["best_net"], pushed["player"]["house_way_net"]) == (0, 0)


def test_settle_of_an_own_setting_short_of_the_best(db: Path | str) -> None:
    """A setting that loses where the best setting of the same cards wins and the House Way's
    pushes: one line says so, and the JSON records both nets."""
    args = (
        "paigow", "settle", "--dealer", "Tc 8s Ts Kd 5h 2h 9d", "--high", "Qh Td 7d Ac 3c",
        "--low", "6h Th", "--wager", "10",
    )  # fmt: skip
    result = run(*args)
    assert result.exit_code == 0, result.output
    assert result.stdout == (
        "        high                         low\n"
        "------  ---------------------------  ---------\n"
        "dealer  10♠ 10♣ 8♠ 5♥ 2♥             K♦ 9♦\n"
        "        pair of tens, 8-5-2 kickers  king-nine\n"
        "player  A♣ Q♥ 10♦ 7♦ 3♣              10♥ 6♥\n"
        "        ace high, A-Q-10-7-3         ten-six\n"
        "  · dealer set by trump-plaza v1 §2: One pair — the pair high, the two highest other "
        "cards low.\n"
        "  · high: dealer pair of tens, 8-5-2 kickers beats player ace high, A-Q-10-7-3\n"
        "  · low: dealer king-nine beats player ten-six\n"
        "  · base wager $10: lose, both hands lose: -$10\n"
        "  · player's own setting: the best setting would have won $10 (House Way: push)\n"
        "wager    amount    result    pays             net\n"
        "-------  --------  --------  ---------------  -----\n"
        "base     $10       lose      both hands lose  -$10\n"
        "total                                         -$10\n"
        "ruling #1 recorded\n"
    )
    player = json.loads(run(*args, "--json").stdout)["base"]["player"]
    assert (player["best_net"], player["house_way_net"]) == (10, 0)
    (first, _) = logged(db, kind="ruling")
    assert first.explanation[-1].startswith("player's own setting: ")
    assert first.result["base"]["player"]["best_net"] == 10


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["paigow", "rank", "As", "Zx"], "Error: unknown card 'Zx'"),
        (["paigow", "rank", "As", "Kd", "As", "2c", "3c"], "Error: duplicate card 'As'"),
        (["paigow", "set", "JK As Kd Qc joker 3c 2d"], "Error: a second joker 'joker'"),
        (["paigow", "set", "As Kd Qc"], "Error: wrong number of cards for the seven-card hand"),
        (["paigow", "compare", "As Ks", "As Kd"], "Error: duplicate card As"),
        (
            ["paigow", "set", "As Kd 9c 7h 5s 3d 2c", "--house-way", "bellagio"],
            "Error: unknown House Way 'bellagio'",
        ),
        (["paigow", "rank", "As Kd", "--rule", "wheel=sideways"], "Error: profile --rule"),
        (
            [
                "paigow",
                "settle",
                "--dealer",
                "As Kd 9c 7h 5s 3d 2c",
                "--player",
                "As Jd Ac Qh 8s 5d 3h",
                "--wager",
                "10",
            ],
            "Error: seat 1: duplicate card As (also in the dealer's hand)",
        ),
        (
            [
                "paigow",
                "settle",
                "--dealer",
                "As Kd 9c 7h 5s 3d 2c",
                "--player",
                "Js Jd Ac Qh 8s 5d 3h",
                "--wager",
                "ten",
            ],
            "Error: wager 'ten' is not an amount",
        ),
    ],
)
def test_bad_input_is_one_error_line_exit_1_and_nothing_recorded(
    db: Path | str, args: list[str], message: str
) -> None:
    result = run(*args)
    assert result.exit_code == 1
    assert result.stderr.startswith(message)
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.output
    assert records(db) == 0


@pytest.mark.parametrize(
    "args",
    [
        ["paigow", "rank", "--bogus"],
        ["paigow", "settle", "--wager", "10"],
        ["paigow", "settle", "--dealer", "As Kd 9c 7h 5s 3d 2c", "--wager", "10"],
        ["paigow", "nothing"],
    ],
)
def test_bad_usage_exits_2(db: Path | str, args: list[str]) -> None:
    assert run(*args).exit_code == 2
    assert records(db) == 0


def test_batch_rules_and_logs_each_line(db: Path | str) -> None:
    lines = "As Kd 9c 7h 5s 3d 2c\n# a comment\n\nKs Kd 4c 4h As 9d 2c\nAs Zx\n"
    result = run("paigow", "set", "--batch", "-", "--json", stdin=lines)
    assert result.exit_code == 1
    outs = [json.loads(line) for line in result.stdout.splitlines()]
    assert [o.get("ruling_id") for o in outs] == [1, 2, None]
    assert outs[2] == {"line": 5, "input": "As Zx", "error": outs[2]["error"]}
    assert "Error: line 5: unknown card 'Zx'" in result.stderr
    assert records(db) == 2


def test_batch_compare(db: Path | str) -> None:
    result = run(
        "paigow", "compare", "--batch", "-", "--json", stdin="As Ks | Ad Qd\n2c 2d | Ac Kc\n"
    )
    assert result.exit_code == 0
    assert [json.loads(x)["winner"] for x in result.stdout.splitlines()] == [0, 0]


def test_bonus_json_keys_and_rows(db: Path | str) -> None:
    result = run("paigow", "bonus", "As Ks Qs Js JK Ah Kh", "--json")
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["emperors_treasure"] == "royal-flush-with-suited-ak"
    assert out["pai_gow_insurance"] is None
    assert out["paytable_rows"]["treasure"] == {
        "paytable": "PT-FLT-EC-ET-01",
        "row": "5-Card Royal Flush w/ A-K Suited",
        "pays": "1,000 to 1",
    }
    pai_gow = json.loads(run("paigow", "bonus", "9s 8d 7h 5s 4c 3d 2c", "--json").stdout)
    assert pai_gow["pai_gow_insurance"] == "9-high-pai-gow"
    assert pai_gow["progressive_insurance"] == "9-high-pai-gow-two-tone"
    assert records(db) == 2


def test_bonus_batch_and_bad_input(db: Path | str) -> None:
    result = run("paigow", "bonus", "--batch", "-", "--json", stdin="9s 8d 7h 5s 4c 3d 2c\nAs Ks\n")
    assert result.exit_code == 1
    assert "Error: line 2: wrong number of cards for the seven-card hand" in result.stderr
    assert records(db) == 1


def test_a_real_process_mounts_only_the_command_it_runs(db: Path | str) -> None:
    import subprocess
    import sys

    def dealer(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "dealer", *args], capture_output=True, text=True, check=False
        )

    ruled = dealer("paigow", "set", "Ks Kd 4c 4h As 9d 2c", "--json")
    assert ruled.returncode == 0 and json.loads(ruled.stdout)["low"] == ["As", "9d"]
    bad = dealer("paigow", "set", "Ks Kd 4c")
    assert bad.returncode == 1 and bad.stderr.startswith("Error: wrong number of cards")
    assert dealer("paigow", "nothing").returncode == 2
    assert "settle" in dealer("paigow", "--help").stdout


def test_a_settles_pays_are_fitted_to_the_screen(db: Path | str) -> None:
    """The wagers are the last block: a table where it fits the width (`COLUMNS`; 80 into a
    file), else a line a wager with its net first, broken between its parts."""
    settle = (
        "paigow", "settle", "--dealer", "Kd Qd 4c 4h 9h 8d 3c", "--player",
        "JK Ks Qs Js Ts 9s 8s", "--wager", "25", "--treasure", "5", "--progressive-treasure", "1",
        "--table", "PG-1",
    )  # fmt: skip
    narrow = run(*settle).stdout.splitlines()
    assert narrow[-7:] == [
        "base $25: +$25 · win · 1 to 1",
        "treasure $5: +$3,750 · seven-card-straight-flush-with-joker · 750 to 1",
        "progressive_treasure $1: +$2,499.06 · seven-card-straight-flush-with-joker",
        "    25% of the meter",
        "total +$6,274.06",
        "ruling #1 recorded",
        "awaiting sign-off: dealer audit signoff 1",
    ]
    wide = run(*settle, env={"COLUMNS": "120"}).stdout.splitlines()
    assert wide[-8].split() == ["wager", "amount", "result", "pays", "net"]
    assert max(len(line) for line in wide[-8:]) <= 120
    assert wide[-5].split() == [
        "treasure", "$5", "seven-card-straight-flush-with-joker", "750", "to", "1", "+$3,750",
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("hand", "named"),
    [
        ("Kh Kd Tc 8s 3h", "pair of kings, 10-8-3 kickers"),
        ("As Qd Tc 7h 3s", "ace high, A-Q-10-7-3"),
        ("9s 9d 9c Th 3s", "three nines, 10-3 kickers"),
    ],
)
def test_a_hands_name_writes_a_ten_as_its_cards_do(hand: str, named: str) -> None:
    """A hand's name writes its ranks as its cards print them: `10`, never `T`."""
    from dealer.games.paigow.deck import parse_cards
    from dealer.games.paigow.ranking import rank_high

    assert rank_high(parse_cards(hand)).description == named
