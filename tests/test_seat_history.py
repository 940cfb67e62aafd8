"""A seat's history and patron ids through the CLI: `audit search --seat` finds the seats
settled inside rounds (`dealer round`, `dealer demo`, the live `dealer table`) as well as a
`paigow settle`; a patron id given on a seat (`--patron`, a round file's `patron:`, the live
session's `patron ID`) is kept with the ruling and found with `audit search --patron`; a bad
patron id is refused in one line with nothing recorded."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from cli import run
from log_reads import kinds
from typer.testing import Result

from dealer.games.paigow.session import SeatParts, parse_seat_line
from dealer.kernel.errors import DealerError

DEALER = "As Kd 9c 7h 5s 3d 2c"
PATRON_RULE = "use letters, digits and . _ @ # - (up to 64)"
ROUND = """\
table: PG-1
dealer: As Kd 9c 7h 5s 3d 2c
seats:
  - seat: 2
    cards: Qs Qh 8d 8c 4c 3h 2h
    wagers: {base: 10}
    patron: P-123
  - seat: 4
    high: Kc Kh 9s 6s 2s
    low: Qd Td
    wagers: {base: 10}
"""


@pytest.fixture
def db(dealer_db: Path | str, monkeypatch: pytest.MonkeyPatch) -> Path | str:
    """An empty log on each backend; the commands run as D1."""
    monkeypatch.setenv("DEALER_USER", "D1")
    return dealer_db


def records(db: Path | str) -> int:
    return len(kinds(db))


def found(*filters: str) -> list[tuple[int, str, str]]:
    """The (id, table, action) of each record `audit search` finds."""
    result = run("audit", "search", *filters, "--json")
    assert result.exit_code == 0, result.output
    return [(r["id"], r["table_id"], r["action"]) for r in json.loads(result.stdout)["records"]]


def settle(*extra: str) -> Result:
    return run(
        "paigow",
        "settle",
        "--table",
        "PG-1",
        "--dealer",
        DEALER,
        "--wager",
        "25",
        "--player",
        "Js Jd Ac Qh 8s 5d 3h",
        *extra,
    )


def play_round(tmp_path: Path, text: str = ROUND) -> Result:
    path = tmp_path / "round.yaml"
    path.write_text(text)
    return run("round", str(path))


def test_settle_keeps_the_patron_id(db: Path | str) -> None:
    result = settle("--seat", "3", "--patron", "P-123")
    assert result.exit_code == 0, result.output
    assert result.stdout == (
        "seat 3, patron P-123\n"
        "        high                          low\n"
        "------  ----------------------------  ---------\n"
        "dealer  A♠ 7♥ 5♠ 3♦ 2♣                K♦ 9♣\n"
        "        ace high, A-7-5-3-2           king-nine\n"
        "player  J♠ J♦ 8♠ 5♦ 3♥                A♣ Q♥\n"
        "        pair of jacks, 8-5-3 kickers  ace-queen\n"
        "  · dealer set by trump-plaza v1 §1: No pair — the highest card high, the second and "
        "third highest cards low.\n"
        "  · dealer has a pai gow, ace-high\n"
        "  · high: player pair of jacks, 8-5-3 kickers beats dealer ace high, A-7-5-3-2\n"
        "  · low: player ace-queen beats dealer king-nine\n"
        "  · both hands win against a dealer pai gow: pays 1 to 2\n"
        "  · base wager $25: win, 1 to 2: +$12.50\n"
        "wager    amount    result    pays    net\n"
        "-------  --------  --------  ------  -------\n"
        "base     $25       win       1 to 2  +$12.50\n"
        "total                                +$12.50\n"
        "ruling #1 recorded\n"
    )
    as_json = json.loads(settle("--seat", "3", "--patron", "P-123", "--json").stdout)
    assert as_json["patron"] == "P-123" and as_json["seat"] == 3
    assert "patron" not in json.loads(settle("--json").stdout)  # none given: none kept
    second = as_json["ruling_id"]
    assert found("--patron", "P-123") == [(1, "PG-1", "settle"), (second, "PG-1", "settle")]
    assert found("--seat", "3", "--patron", "P-123") == found("--patron", "P-123")
    assert found("--seat", "1", "--patron", "P-123") == []


def test_a_seat_search_finds_the_seats_inside_a_round(db: Path | str, tmp_path: Path) -> None:
    assert play_round(tmp_path).exit_code == 0
    settled = json.loads(settle("--seat", "4", "--json").stdout)["ruling_id"]
    demo = json.loads(run("demo", "--seed", "7", "--json").stdout)["ruling_id"]
    rounds = [(1, "PG-1", "round")]
    assert found("--table", "PG-1", "--seat", "4") == [*rounds, (settled, "PG-1", "settle")]
    assert found("--table", "PG-1", "--seat", "2") == rounds
    assert found("--table", "PG-1", "--seat", "5") == []
    assert found("--table", "DEMO", "--seat", "5") == [(demo, "DEMO", "round")]
    assert found("--seat", "4", "--since", "2000-01-01", "--until", "2999-12-31") == [
        *rounds,
        (settled, "PG-1", "settle"),
        (demo, "DEMO", "round"),
    ]
    assert found("--seat", "4", "--until", "2000-01-01") == []
    assert found("--patron", "P-123") == rounds
    assert found("--seat", "4", "--patron", "P-123") == []  # P-123 sat at seat 2
    listed = run("audit", "search", "--table", "PG-1", "--seat", "2")
    assert listed.exit_code == 0
    at = re.sub(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", "YYYY-MM-DDThh:mm:ssZ", listed.stdout)
    assert at.splitlines() == [
        "#    time (UTC)            table    seat    user         what                 summary",
        "---  --------------------  -------  ------  -----------  -------------------  " + "-" * 20,
        "1    YYYY-MM-DDThh:mm:ssZ  PG-1     2,4     D1 (dealer)  ruling paigow round  "
        "2 seats, players +$5",
    ]


def test_the_round_shows_each_patron(db: Path | str, tmp_path: Path) -> None:
    result = play_round(tmp_path)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    pays = lines.index("players' total +$5") - 4  # the last block: what to pay each seat
    assert lines[pays:] == [
        "seat    patron    base    total",
        "------  --------  ------  -------",
        "2       P-123     +$5     +$5",
        "4                 $0      $0",
        "players' total +$5",
        "ruling #1 recorded",
    ]
    assert "2       Q♠ Q♥ 4♣ 3♥ 2♥  8♦ 8♣   win (1 to 2)" in lines
    shown = json.loads(run("audit", "show", "1", "--json").stdout)
    assert [s.get("patron") for s in shown["result"]["seats"]] == ["P-123", None]


def test_the_live_session_keeps_patrons(db: Path | str) -> None:
    typed = (
        f"{DEALER}\n"
        "2 Qs Qh 8d 8c 4c 3h 2h base 10 patron P-123\n"
        "4 high Kc Kh 9s 6s 2s / low Qd Td\n"
        "b10 patron club#9\n"
        "show\n"
        "settle\n"
        "quit\n"
    )
    result = run("table", "--table", "PG-7", stdin=typed)
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[:4] == [
        "round 1 at table PG-7",
        "dealer: A♠ 7♥ 5♠ 3♦ 2♣ / K♦ 9♣ (ace high, A-7-5-3-2 / king-nine)",
        "seat 2, patron P-123: Q♠ Q♥ 4♣ 3♥ 2♥ / 8♦ 8♣ (pair of queens, 4-3-2 kickers / pair of "
        "eights) by the House Way; base $10",
        "seat 4, patron club#9: K♥ K♣ 9♠ 6♠ 2♠ / Q♦ 10♦ (pair of kings, 9-6-2 kickers / "
        "queen-ten) own setting; base $10",
    ]
    assert found("--table", "PG-7", "--seat", "4") == [(1, "PG-7", "round")]
    assert found("--patron", "club#9") == [(1, "PG-7", "round")]
    assert found("--patron", "club#9", "--seat", "2") == []


@pytest.mark.parametrize(
    ("patron", "shown"),
    [
        ("P 1", "'P 1'"),
        ("-x", "'-x'"),
        ("a" * 65, f"'{'a' * 40}…' (65 characters)"),
        ("P\x1b[2J", "'P\\x1b[2J'"),
    ],
    ids=["space", "dash", "long", "escape"],
)
def test_a_bad_patron_id_is_refused_in_one_line(db: Path | str, patron: str, shown: str) -> None:
    line = f"Error: patron id {shown} is not valid: {PATRON_RULE}\n"
    for result in (settle("--patron", patron), run("audit", "search", "--patron", patron)):
        assert result.exit_code == 1
        assert result.stdout == "" and result.stderr == line
    as_json = settle("--patron", patron, "--json")
    assert as_json.exit_code == 1
    assert json.loads(as_json.stderr)["error"] == line[len("Error: ") : -1]
    assert records(db) == 0


def test_a_bad_patron_id_in_a_round_file_or_a_seat_line(db: Path | str, tmp_path: Path) -> None:
    result = play_round(tmp_path, ROUND.replace("P-123", "'P 123'"))
    assert result.exit_code == 1
    assert result.stderr == f"Error: seat 2: patron id 'P 123' is not valid: {PATRON_RULE}\n"
    typed = f"{DEALER}\n2 Qs Qh 8d 8c 4c 3h 2h base 10 patron P@1!\n3 Js patron\nquit\n"
    session = run("table", "--table", "PG-7", stdin=typed)
    assert session.stderr.splitlines() == [
        f"Error: line 2: patron id 'P@1!' is not valid: {PATRON_RULE}",
        "Error: line 3: give the patron id after 'patron', e.g. 'patron P-123'",
        "Error: line 4: round 1 is not settled (the dealer's cards): settle it, or quit again "
        "to leave it unrecorded",
        "Error: the input ended with round 1 not settled (the dealer's cards): nothing is "
        "recorded for it",
    ]
    assert records(db) == 0


@pytest.mark.parametrize(
    ("line", "parts"),
    [
        (
            "3 Js Jd Ac Qh 8s 5d 3h base 25 patron P-123",
            SeatParts(3, {"cards": "Js Jd Ac Qh 8s 5d 3h"}, {"base": 25}, "P-123"),
        ),
        ("seat 4 patron: club#9 b10", SeatParts(4, None, {"base": 10}, "club#9")),
        ("5 lammer patron=Ann.L", SeatParts(5, None, {"insurance_on_dealer": True}, "Ann.L")),
    ],
)
def test_the_seat_line_reads_a_patron_id(line: str, parts: SeatParts) -> None:
    assert parse_seat_line(line) == parts


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("3 patron P-1 patron P-2", "the patron id is given twice"),
        ("3 base patron P-1", "base wager 'patron' is not an amount"),
        ("3 patron", "give the patron id after 'patron', e.g. 'patron P-123'"),
    ],
)
def test_the_seat_line_refuses_a_bad_patron(line: str, message: str) -> None:
    with pytest.raises(DealerError, match=re.escape(message)):
        parse_seat_line(line)


def test_a_listed_round_shows_the_seats_it_settled(db: Path) -> None:
    assert run("demo", "--seed", "7").exit_code == 0
    listed = run("audit", "list", "--kind", "ruling")
    row = re.split(r"\s{2,}", listed.stdout.splitlines()[2])
    assert row[2:4] == ["DEMO", "1-6"]  # the demo seats six players
