"""`dealer table`: the seat-line notation, the session's state machine, and the live command
driven through a pipe, through a pseudo-terminal and through the CLI runner."""

from __future__ import annotations

import contextlib
import json
import os
import random
import select
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from cli import run
from hypothesis import given, settings
from hypothesis import strategies as st
from log_reads import records

from dealer.games.paigow.demo import deal_demo_round
from dealer.games.paigow.pay import PLACED
from dealer.games.paigow.profile import load_profile
from dealer.games.paigow.round_input import (
    RoundError,
    check_seat,
    read_dealer,
    read_round,
    read_seat,
)
from dealer.games.paigow.session import (
    SeatParts,
    TableSession,
    parse_seat_line,
)
from dealer.kernel.errors import DealerError
from dealer.kernel.replies import ReplyKind

ROOT = Path(__file__).resolve().parents[1]
PROFILE = load_profile(None, ())
DEALER = "As Kd 9c 7h 5s 3d 2c"

# -- the seat-line notation --------------------------------------------------------------------

LINES: list[tuple[str, bool, bool, SeatParts]] = [
    (
        "3 Js Jd Ac Qh 8s 5d 3h base 25 treasure 5",
        True,
        False,
        SeatParts(3, {"cards": "Js Jd Ac Qh 8s 5d 3h"}, {"base": 25, "treasure": 5}),
    ),
    (
        "seat 4: high Kc Kh 9d 6s 2h / low Qs Td b10 i5 lammer",
        True,
        False,
        SeatParts(
            4,
            {"high": "Kc Kh 9d 6s 2h", "low": "Qs Td"},
            {"base": 10, "insurance": 5, "insurance_on_dealer": True},
        ),
    ),
    (
        "s5 Kc,Kh,9d,6s,2h | Qs,Td base=10 PT=1 progressive_insurance:2",
        True,
        False,
        SeatParts(
            5,
            {"high": "Kc Kh 9d 6s 2h", "low": "Qs Td"},
            {"base": 10, "progressive_treasure": 1, "progressive_insurance": 2},
        ),
    ),
    (
        "2 house way JsJdAcQh8s5d3h 25 dealer-insurance 5",
        True,
        False,
        SeatParts(
            2,
            {"cards": "JsJdAcQh8s5d3h"},
            {"base": 25, "insurance": 5, "insurance_on_dealer": True},
        ),
    ),
    ("6", True, False, SeatParts(6)),
    ("seat 1", True, False, SeatParts(1)),
    ("As Kd 9c 7h 5s 3d 2c", False, False, SeatParts(None, {"cards": "As Kd 9c 7h 5s 3d 2c"})),
    ("$25 t 2.50", False, True, SeatParts(None, None, {"base": 25, "treasure": "2.50"})),
    (
        "insurance 5 on-dealer base 10",
        False,
        True,
        SeatParts(None, None, {"insurance": 5, "insurance_on_dealer": True, "base": 10}),
    ),
    ("1 Ah Kh 9d 6s 2h 4c 7c hw", True, False, SeatParts(1, {"cards": "Ah Kh 9d 6s 2h 4c 7c"})),
    ("1 aQ x 10", True, False, SeatParts(1, {"cards": "aQ x"}, {"base": 10})),
]


@pytest.mark.parametrize(("line", "with_number", "hand_known", "expected"), LINES)
def test_seat_line(line: str, with_number: bool, hand_known: bool, expected: SeatParts) -> None:
    assert parse_seat_line(line, with_number=with_number, hand_known=hand_known) == expected


BAD_LINES: list[tuple[str, bool, str]] = [
    ("As Kd 9c 7h 5s 3d 2c base 25", True, "start a seat with its number (1-6)"),
    ("3 25 As Kd 9c 7h 5s 3d 2c", True, "amount '25' before the hand"),
    ("3 As Kd 9c 7h 5s 3d 2c 25 10", True, "amount '10': say which wager, e.g. 'treasure 10'"),
    ("3 As Kd 9c 7h 5s 3d 2c base treasure 5", True, "give the base wager's amount"),
    ("3 As Kd 9c 7h 5s 3d 2c base 25 treasure", True, "give the treasure wager's amount"),
    ("3 As Kd 9c 7h 5s 3d 2c base 25 b 30", True, "the base wager is given twice"),
    ("3 As Kd 9c 7h 5s 3d 2c base 25 envy 5", True, "Envy has no wager of its own"),
    ("3 As Kd 9c 7h 5s 3d 2c base 25 tresure 5", True, "unknown word 'tresure'"),
    ("3 high As Kd 9c 7h 5s base 25", True, "the low hand is missing"),
    ("3 As Kd 9c 7h 5s / 3d 2c / 4d", True, "one '/' (or 'low') between"),
    ("3 As Kd 9c 7h 5s / 3d 2c hw", True, "high / low: not both"),
    ("3 As high Kd 9c 7h 5s / 3d 2c", True, "'high' comes before the five cards"),
    ("3 house way base 25", True, "the House Way sets seven cards: give them"),
]


@pytest.mark.parametrize(("line", "with_number", "message"), BAD_LINES)
def test_bad_seat_line(line: str, with_number: bool, message: str) -> None:
    with pytest.raises(DealerError, match=None) as caught:
        parse_seat_line(line, with_number=with_number)
    assert message in str(caught.value)


# -- the per-seat checks added to round_input ---------------------------------------------------


def test_read_seat_applies_the_round_file_rules() -> None:
    dealer = read_dealer(DEALER)
    first = read_seat(
        {"seat": 1, "cards": "Js Jd Ac Qh 8s 5d 3h", "wagers": {"base": 25}}, PROFILE, dealer
    )
    with pytest.raises(RoundError) as caught:
        read_seat(
            {"seat": 1, "cards": "Qs Jd Kh 4c 4d 6h 7d", "wagers": {"base": 6000}},
            PROFILE,
            dealer,
            [first],
        )
    assert caught.value.problems == [
        "seat 1: listed twice",
        "seat 1: duplicate card Jd (also in seat 1)",
        "seat 1: base wager $6,000 is outside the table limits $5-$5,000",
    ]
    with pytest.raises(RoundError) as caught:
        read_dealer("Ac 2d 3d 4d 6d 7d 8d", [first])
    assert caught.value.problems == ["dealer's hand: duplicate card Ac (also in seat 1)"]


def test_check_seat_takes_a_seat_in_parts() -> None:
    dealer = read_dealer(DEALER)
    check_seat({"seat": 2}, PROFILE, dealer)  # nothing else given yet: fine
    check_seat({"seat": 2, "wagers": {"base": 10}}, PROFILE, dealer)
    with pytest.raises(RoundError) as caught:
        check_seat({"seat": 7, "cards": "As Kh 9d 6s 2h 4c 7c"}, PROFILE, dealer)
    assert caught.value.problems == [
        "seat 7: seats are numbered 1 to 6",
        "seat 7: duplicate card As (also in the dealer's hand)",
    ]
    with pytest.raises(RoundError, match="wagers must be a mapping"):
        read_seat({"seat": 2, "cards": "Ah Kh 9d 6s 2h 4c 7c"}, PROFILE, dealer)


# -- the state machine -------------------------------------------------------------------------

SCRIPT: list[tuple[str, str, str, str]] = [
    # line, reply kind, first reply line (or a part of it), prompt afterwards
    ("", ReplyKind.NOTHING, "", "round 1, dealer's cards> "),
    ("# a comment", ReplyKind.NOTHING, "", "round 1, dealer's cards> "),
    (
        "settle",
        ReplyKind.ERROR,
        "nothing to settle: give the dealer's cards",
        "round 1, dealer's cards> ",
    ),
    (
        "As Kd 9c 7h 5s 3d",
        ReplyKind.ERROR,
        "dealer's hand: wrong number of cards",
        "round 1, dealer's cards> ",
    ),
    (
        DEALER,
        ReplyKind.ENTERED,
        "dealer: A♠ 7♥ 5♠ 3♦ 2♣ / K♦ 9♣ (ace high, A-7-5-3-2 / king-nine)",
        "seat (or settle)> ",
    ),
    ("settle", ReplyKind.ERROR, "nothing to settle: no seat is in yet", "seat (or settle)> "),
    (
        "1 Js Jd Ac Qh 8s 5d 3h base 25 treasure 5",
        ReplyKind.ENTERED,
        "seat 1: J♠ J♦ 8♠ 5♦ 3♥ / A♣ Q♥ (pair of jacks, 8-5-3 kickers / ace-queen) by the "
        "House Way; base $25, treasure $5",
        "seat (or settle)> ",
    ),
    (
        "2 Aq Kh 9d 6s 2h 4c 7c 10",
        ReplyKind.ERROR,
        "seat 2: unknown card 'Aq'",
        "seat (or settle)> ",
    ),
    (
        "2 Js Kh 9d 6s 2h 4c 7c 10",
        ReplyKind.ERROR,
        "seat 2: duplicate card Js (also in seat 1)",
        "seat (or settle)> ",
    ),
    (
        "2 Ah Kh 9d 6s 2h 4c 7c 1",
        ReplyKind.ERROR,
        "seat 2: base wager $1 is outside the table limits $5-$5,000",
        "seat (or settle)> ",
    ),
    ("4", ReplyKind.ENTERED, "seat 4: now its cards", "seat 4 cards> "),
    ("Kc Kh Ks 6s 2h / Qs Td", ReplyKind.ENTERED, "seat 4: now its wagers", "seat 4 wagers> "),
    (
        "Qc Qh 8d 8h 4s 4d JK",
        ReplyKind.ERROR,
        "seat 4: its cards are already given",
        "seat 4 wagers> ",
    ),
    ("treasure 5", ReplyKind.ERROR, "seat 4: the base wager is required", "seat 4 wagers> "),
    (
        "b10 i5 lammer",
        ReplyKind.ENTERED,
        "seat 4: K♠ K♥ K♣ 6♠ 2♥ / Q♠ 10♦ (three kings, 6-2 kickers / queen-ten) own setting; "
        "base $10, insurance $5 on the dealer's hand",
        "seat (or settle)> ",
    ),
    ("6 Qc Qd 8d 8h 4s 4d JK 25 pt 1", ReplyKind.ENTERED, "seat 6: ", "seat (or settle)> "),
    (
        "undo",
        ReplyKind.UNDONE,
        "undone: seat 6: 8♥ 8♦ 4♠ 4♦ JK / Q♦ Q♣ (two pair, eights and fours, ace kicker / pair "
        "of queens) by the House Way",
        "seat (or settle)> ",
    ),
    ("5", ReplyKind.ENTERED, "seat 5: now its cards", "seat 5 cards> "),
    (
        "settle",
        ReplyKind.ERROR,
        "seat 5 is not finished: give its cards, or undo it",
        "seat 5 cards> ",
    ),
    ("undo", ReplyKind.UNDONE, "undone: seat 5 (not finished)", "seat (or settle)> "),
    ("show", ReplyKind.SHOW, "round 1 at table PG-1", "seat (or settle)> "),
    ("history", ReplyKind.HISTORY, "no round settled yet in this session", "seat (or settle)> "),
    ("show me", ReplyKind.ERROR, "show takes nothing after it", "seat (or settle)> "),
    ("dealer", ReplyKind.ERROR, "give the dealer's seven cards", "seat (or settle)> "),
    (
        "dealer As Kd 9c 7h 5s 3d Kc",
        ReplyKind.ERROR,
        "dealer's hand: duplicate card Kc (also in seat 4)",
        "seat (or settle)> ",
    ),
    (
        "dealer As Kd 9c 7h 5s 3d 3c",
        ReplyKind.ENTERED,
        "dealer's cards corrected: 3♦ 3♣ 9♣ 7♥ 5♠ / A♠ K♦ (pair of threes, 9-7-5 kickers / "
        "ace-king)",
        "seat (or settle)> ",
    ),
    (
        "quit",
        ReplyKind.ERROR,
        "round 1 is not settled (the dealer's cards and 2 seats): settle it, or quit",
        "seat (or settle)> ",
    ),
    ("settle", ReplyKind.SETTLE, "", "seat (or settle)> "),
]


def test_the_state_machine_step_by_step() -> None:
    session = TableSession(PROFILE, "PG-1")
    for line, kind, first, prompt in SCRIPT:
        session, reply = session.step(line)
        assert reply.kind == kind, (line, reply)
        assert (reply.lines[0] if reply.lines else "").startswith(first), (line, reply)
        assert session.prompt == prompt, line
    assert reply.round == {
        "table": "PG-1",
        "dealer": "As Kd 9c 7h 5s 3d 3c",
        "seats": [
            {"seat": 1, "cards": "Js Jd Ac Qh 8s 5d 3h", "wagers": {"base": 25, "treasure": 5}},
            {
                "seat": 4,
                "high": "Kc Kh Ks 6s 2h",
                "low": "Qs Td",
                "wagers": {"base": 10, "insurance": 5, "insurance_on_dealer": True},
            },
        ],
    }
    assert reply.typed.startswith("table: PG-1\ndealer: As Kd 9c 7h 5s 3d 3c\nseats:\n")
    nxt = session.settled(41, {"total_net": -12.5})
    assert not nxt.in_progress and nxt.prompt == "round 2, dealer's cards> "
    _, history = nxt.step("history")
    assert history.lines == ("round 1: ruling #41, seats 1 4, players -$12.50, house +$12.50",)
    assert history.data == {
        "history": [
            {
                "round": 1,
                "ruling_id": 41,
                "seats": [1, 4],
                "total_net": -12.5,
                "house": 12.5,
                "signoff_seats": [],
            }
        ]
    }
    assert nxt.step("quit")[1].kind == ReplyKind.QUIT


def test_undo_walks_back_to_an_empty_round() -> None:
    session = TableSession(PROFILE, "PG-1")
    states = [session]
    for line in (DEALER, "1 Js Jd Ac Qh 8s 5d 3h base 25", "2"):
        session, reply = session.step(line)
        assert reply.kind == ReplyKind.ENTERED
        states.append(session)
    for expected in reversed(states[:-1]):
        session, reply = session.step("undo")
        assert reply.kind == ReplyKind.UNDONE and session == expected
    session, reply = session.step("undo")
    assert reply.kind == ReplyKind.ERROR and reply.lines[0].startswith(
        "nothing to undo in this round"
    )


def test_show_as_data() -> None:
    session = TableSession(PROFILE, "PG-2")
    for line in (DEALER, "3 high Kc Kh 9d 6s 2h / low Qs Td base 10", "5 hw Ah Jh 9h 6d 2d 4c 7c"):
        session, _ = session.step(line)
    _, reply = session.step("show")
    assert reply.data == {
        "round": 1,
        "table": "PG-2",
        "dealer": ["As", "Kd", "9c", "7h", "5s", "3d", "2c"],
        "dealer_set": {
            "high": {
                "category": "high-card",
                "cards": ["As", "7h", "5s", "3d", "2c"],
                "description": "ace high, A-7-5-3-2",
            },
            "low": {"category": "high-card", "cards": ["Kd", "9c"], "description": "king-nine"},
            "rule": "trump-plaza v1 §1: No pair — the highest card high, the second and third "
            "highest cards low.",
            "foul": False,
        },
        "seats": [
            {
                "seat": 3,
                "cards": ["Kc", "Kh", "9d", "6s", "2h", "Qs", "Td"],
                "high": ["Kc", "Kh", "9d", "6s", "2h"],
                "low": ["Qs", "Td"],
                "house_way": False,
                "set": {
                    "high": {
                        "category": "one-pair",
                        "cards": ["Kh", "Kc", "9d", "6s", "2h"],
                        "description": "pair of kings, 9-6-2 kickers",
                    },
                    "low": {
                        "category": "high-card",
                        "cards": ["Qs", "Td"],
                        "description": "queen-ten",
                    },
                    "rule": None,
                    "foul": False,
                },
                "wagers": {"base": 10},
            }
        ],
        "entering": {"seat": 5, "cards": "Ah Jh 9h 6d 2d 4c 7c"},
    }
    assert reply.lines[-1] == "seat 5: being entered, its wagers to come"


# -- the table follows the game: each setting as it is typed ----------------------------------


def _steps(*lines: str, session: TableSession | None = None) -> tuple[TableSession, list[Any]]:
    session = session or TableSession(PROFILE, "PG-1")
    replies = []
    for line in lines:
        session, reply = session.step(line)
        replies.append(reply)
    return session, replies


def test_the_dealers_line_answers_with_the_house_way_setting() -> None:
    _, (reply,) = _steps(DEALER)
    assert reply.lines == (
        "dealer: A♠ 7♥ 5♠ 3♦ 2♣ / K♦ 9♣ (ace high, A-7-5-3-2 / king-nine)",
        "  trump-plaza v1 §1: No pair — the highest card high, the second and third highest "
        "cards low.",
    )


def test_a_house_way_seat_answers_with_its_setting_and_clause() -> None:
    _, (_, seat) = _steps(DEALER, "1 Js Jd Ac Qh 8s 5d 3h base 25")
    assert seat.lines == (
        "seat 1: J♠ J♦ 8♠ 5♦ 3♥ / A♣ Q♥ (pair of jacks, 8-5-3 kickers / ace-queen) by the House "
        "Way; base $25",
        "  trump-plaza v1 §2: One pair — the pair high, the two highest other cards low.",
    )


@pytest.mark.parametrize(
    ("foul", "says"),
    [
        ("forfeit", "the table's foul rule forfeits the base wager"),
        ("reset", "the table's foul rule re-sets it by the House Way"),
    ],
)
def test_an_own_setting_answers_with_its_hands_and_whether_it_fouls(foul: str, says: str) -> None:
    session = TableSession(load_profile(None, (f"foul={foul}",)), "PG-1")
    _, (_, fair, fouled) = _steps(
        DEALER,
        "3 high Kc Kh 9d 6s 2h / low Qs Td base 10",
        "4 high 9s 8d 6c 4h 2s / low Ah Qh base 10",
        session=session,
    )
    assert fair.lines == (
        "seat 3: K♥ K♣ 9♦ 6♠ 2♥ / Q♠ 10♦ (pair of kings, 9-6-2 kickers / queen-ten) own "
        "setting; base $10",
    )
    assert fouled.lines == (
        "seat 4: 9♠ 8♦ 6♣ 4♥ 2♠ / A♥ Q♥ (nine high, 9-8-6-4-2 / ace-queen) own setting, FOULS "
        "(the high hand does not outrank the low); base $10",
        f"  {says}",
    )


def test_a_seat_typed_again_replaces_it_and_undo_restores_it() -> None:
    """Seat 5 retyped after a typo: one line saying it is replaced (never the old seat's cards
    read as duplicates of the new); undo puts the first one back where it was."""
    first = "5 Th 9h 8d 8h 4s 4d JK base 25"
    entered, _ = _steps(DEALER, first, "2 Qs Qd Qc 6h 3s 2d 8c b 10")
    session, (replaced,) = _steps("5 Tc 9h 8d 8h 4s 4d JK base 25", session=entered)
    assert replaced.kind == ReplyKind.ENTERED
    assert replaced.lines[0] == (
        "replaced seat 5: 8♥ 8♦ 4♠ 4♦ 9♥ / JK 10♣ (two pair, eights and fours, nine kicker / "
        "ace-ten) by the House Way; base $25 (undo puts the earlier one back)"
    )
    assert [s.seat.seat for s in session.seats] == [2, 5]
    assert session.round_raw()["seats"][1]["cards"] == "Tc 9h 8d 8h 4s 4d JK"
    undone, (reply,) = _steps("undo", session=session)
    assert reply.kind == ReplyKind.UNDONE
    assert reply.lines == (
        "undone: seat 5 as retyped; back: seat 5: 8♥ 8♦ 4♠ 4♦ 9♥ / JK 10♥ (two pair, eights "
        "and fours, nine kicker / ace-ten) by the House Way; base $25",
    )
    assert undone == entered
    # a seat retyped in parts replaces it too, once its wagers are in
    session, replies = _steps("5", "Tc 9h 8d 8h 4s 4d JK", "b 25", session=entered)
    assert replies[0].lines == ("seat 5: now its cards (it replaces seat 5 as entered)",)
    assert replies[2].lines[0].startswith("replaced seat 5: ")
    assert _steps("undo", session=session)[0] == entered


def test_a_seat_typed_again_wrongly_is_refused_for_its_one_cause() -> None:
    entered, _ = _steps(DEALER, "5 Th 9h 8d 8h 4s 4d JK base 25", "2 Qs Qd Qc 6h 3s 2d 8c b 10")
    for line, cause in (
        ("5 Tc 9h 8d 8h 4s 4d Zx base 25", "seat 5: unknown card 'Zx'"),
        ("5 Tc 9h 8d 8h 4s 4d Qs base 25", "seat 5: duplicate card Qs (also in seat 2)"),
        ("5 Tc 9h 8d 8h 4s 4d As base 25", "seat 5: duplicate card As (also in the dealer's hand)"),
    ):
        after, (reply,) = _steps(line, session=entered)
        assert reply.kind == ReplyKind.ERROR and len(reply.lines) == 1
        assert reply.lines[0].startswith(cause) and ";" not in reply.lines[0], line
        assert after == entered


@pytest.mark.parametrize("line", ["3 Js Jd Ac Qh 8s 5d 3h base 25", "seat 3 Js Jd", "s3", "4"])
def test_a_seat_line_where_the_dealers_cards_are_due_says_a_round_starts_with_them(
    line: str,
) -> None:
    _, (first,) = _steps(line)
    assert (first.kind, first.lines) == (
        ReplyKind.ERROR,
        ("a round starts with the dealer's cards: type them, then the seats",),
    )
    session, (_, _, settle) = _steps(DEALER, "1 Js Jd Ac Qh 8s 5d 3h base 25", "settle")
    assert settle.kind == ReplyKind.SETTLE
    after, (reply,) = _steps(line, session=session.settled(9, {"total_net": 25}))
    assert (reply.kind, reply.lines) == (
        ReplyKind.ERROR,
        ("round 2 is a new round: it starts with the dealer's cards (type them, then the seats)",),
    )
    assert after.dealer is None and not after.in_progress


# -- property: any typing style gives the round the dealer meant -------------------------------

ALIASES = {
    w.value: [w.typed, w.value, w.typed.upper(), w.typed.capitalize(), *w.terms.short]
    for w in PLACED
}
"""Each wager a seat places as a dealer may type it: its name (with `-` or `_`, in any case)
and each of its short forms (`dealer.games.paigow.pay.Wager`)."""


def _wager_words(rng: random.Random, wagers: dict[str, Any], bare_base: bool) -> list[str]:
    groups: list[list[str]] = []
    for name, amount in wagers.items():
        if name == "insurance_on_dealer" or (name == "base" and bare_base):
            continue
        alias = rng.choice(ALIASES[name])
        style = rng.randrange(3)
        if style == 0:
            groups.append([alias, str(amount)])
        elif style == 1:
            groups.append([f"{alias}={amount}"])
        else:
            groups.append([f"{alias}{amount}" if alias.isalpha() else f"{alias}:{amount}"])
    if wagers.get("insurance_on_dealer"):
        groups.append([rng.choice(["dealer-insurance", "lammer", "on-dealer"])])
    rng.shuffle(groups)
    first = [str(wagers["base"])] if bare_base else []
    return first + [word for group in groups for word in group]


def _typed_seat(rng: random.Random, seat: dict[str, Any]) -> tuple[list[str], dict[str, Any]]:
    """Lines typing `seat` in a random style, and the seat as the dealer meant it."""
    cards = seat["cards"].split()
    cased = [
        c.upper() if rng.random() < 0.3 else c.lower() if rng.random() < 0.3 else c for c in cards
    ]
    meant = {k: v for k, v in seat.items() if k != "cards"}
    meant["wagers"] = {k: v for k, v in seat["wagers"].items() if v is not False}
    if rng.random() < 0.3:
        hand = (
            ["high", *cased[:5], "/", "low", *cased[5:]]
            if rng.random() < 0.5
            else [*cased[:5], "|", *cased[5:]]
        )
        meant.update(high=" ".join(cards[:5]), low=" ".join(cards[5:]))
    else:
        sep = rng.choice([" ", ","])
        hand = [sep.join(cased)] + (["hw"] if rng.random() < 0.3 else [])
        meant["cards"] = seat["cards"]
    number = rng.choice(
        [str(seat["seat"]), f"seat {seat['seat']}", f"seat {seat['seat']}:", f"s{seat['seat']}"]
    )
    wagers = _wager_words(rng, meant["wagers"], bare_base=rng.random() < 0.5)
    if rng.random() < 0.3:  # in parts: the number, the hand, the wagers
        return [number, " ".join(hand), " ".join(wagers)], meant
    return [" ".join([number, *hand, *wagers])], meant


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), seats=st.integers(1, 6))
def test_any_typing_style_settles_the_meant_round(seed: int, seats: int) -> None:
    rng = random.Random(seed)
    demo = deal_demo_round(seed, "PG-H", PROFILE)
    chosen = rng.sample(demo["seats"], seats)
    session = TableSession(PROFILE, "PG-H")
    session, reply = session.step(demo["dealer"].lower())
    assert reply.kind == ReplyKind.ENTERED
    meant = []
    for seat in chosen:
        lines, wanted = _typed_seat(rng, seat)
        meant.append(wanted)
        for line in lines:
            session, reply = session.step(line)
            assert reply.kind == ReplyKind.ENTERED, (line, reply.lines)
    session, reply = session.step("settle")
    assert reply.kind == ReplyKind.SETTLE
    expected = {"table": "PG-H", "dealer": demo["dealer"], "seats": meant}
    assert read_round(reply.round, PROFILE) == read_round(expected, PROFILE)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), slot=st.integers(0, 6), bad=st.sampled_from(["Xs", "1h", "Zz"]))
def test_a_typo_changes_nothing(seed: int, slot: int, bad: str) -> None:
    demo = deal_demo_round(seed, "PG-H", PROFILE)
    session, _ = TableSession(PROFILE, "PG-H").step(demo["dealer"])
    session, _ = session.step(f"1 {demo['seats'][0]['cards']} base 25")
    cards = demo["seats"][1]["cards"].split()
    cards[slot] = bad
    after, reply = session.step(f"2 {' '.join(cards)} base 25")
    assert reply.kind == ReplyKind.ERROR and f"unknown card {bad!r}" in reply.lines[0]
    assert after == session
    taken = demo["seats"][0]["cards"].split()[slot]
    cards[slot] = taken
    after, reply = session.step(f"2 {' '.join(cards)} base 25")
    what = "a second joker" if taken == "JK" else f"duplicate card {taken}"
    assert reply.kind == ReplyKind.ERROR and f"{what} (also in seat 1)" in reply.lines[0]
    assert after == session


@settings(max_examples=200, deadline=None)
@given(lines=st.lists(st.text(max_size=40), max_size=6))
def test_any_text_gets_a_reply_never_a_crash(lines: list[str]) -> None:
    session, _ = TableSession(PROFILE, "PG-F").step(DEALER)
    for line in lines:
        session, reply = session.step(line)
        assert reply.kind in (
            ReplyKind.ENTERED,
            ReplyKind.ERROR,
            ReplyKind.NOTHING,
            ReplyKind.SHOW,
            ReplyKind.HISTORY,
            ReplyKind.UNDONE,
            ReplyKind.QUIT,
            ReplyKind.SETTLE,
            ReplyKind.HELP,
        )
        assert reply.kind != ReplyKind.ERROR or len(reply.lines) == 1


# -- the command, through a pipe, a pseudo-terminal and the CLI runner -------------------------

ROUNDS_TYPED = [
    "As Kd 9c 7h 5s 3d 2c",
    "1 Js Jd Ac Qh 8s 5d 3h base 25 treasure 5",
    "2 Aq Kh 9d 6s 2h 4c 7c 10",  # typo: refused, re-prompted
    "2 Js Kh 9d 6s 2h 4c 7c 10",  # Js is seat 1's: refused
    "2 Ah Kh 9d 6s 2h 4c 7c 10",
    "3 Qc Qd 8d 8h 4s 4d JK 25 pt 1",
    "undo",  # seat 3 taken back
    "settle",
    "2c 3d 5h 8s 9c Jd Kh",
    "1 Qs Qh Qd Qc 4s 6d 7h base 25 treasure 5 pt 1",
    "2 high As Ah Ad Ac 4c / low 6c 7c base 10 t5",
    "settle",
    "history",
]


def _env(db: Path | str) -> dict[str, str]:
    """The environment of a session on the log at `db` (an SQLite file or a PostgreSQL URL)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("DEALER_")}
    env.update(DEALER_DB=str(db), DEALER_USER="d-104", PYTHONPATH=str(ROOT))
    return env


def _rounds_recorded(db: Path | str) -> list[tuple[int, str | None, str]]:
    return [
        (record.id, record.table_id, record.input_text)
        for record in records(db, kind="ruling", action="round")
    ]


def _verify(env: dict[str, str]) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, "-m", "dealer", "audit", "verify", "--json"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_through_a_pipe(log_at: Path | str) -> None:
    env = _env(log_at)
    done = subprocess.run(
        [sys.executable, "-m", "dealer", "table", "--table", "PG-3"],
        input="\n".join(ROUNDS_TYPED) + "\n",
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 1, done.stderr  # a piped session with refused lines
    assert done.stderr.splitlines() == [
        "Error: line 3: seat 2: unknown card 'Aq': a card is a rank (2-9, T or 10, J, Q, K, A)"
        " and a suit (s h d c or ♠ ♥ ♦ ♣), or JK for the joker",
        "Error: line 4: seat 2: duplicate card Js (also in seat 1)",
        "undone: seat 3: 8♥ 8♦ 4♠ 4♦ JK / Q♦ Q♣ (two pair, eights and fours, ace kicker / pair "
        "of queens) by the House Way; base $25, progressive treasure $1",
    ]
    out = done.stdout.splitlines()
    assert "prompt" not in done.stdout and "> " not in done.stdout
    assert out.count("ruling #1 recorded") == 1 and out.count("ruling #4 recorded") == 1
    assert out[0].startswith("table PG-3   dealer: A♠ 7♥ 5♠ 3♦ 2♣ / K♦ 9♣")
    assert out[-2:] == [
        "round 1: ruling #1, seats 1 2, players +$7.50, house -$7.50",
        "round 2: ruling #4, seats 1 2, players +$296.50, house -$296.50",
    ]
    recorded = _rounds_recorded(log_at)
    assert [(r[0], r[1]) for r in recorded] == [(1, "PG-3"), (4, "PG-3")]
    verified = _verify(env)
    assert (verified["ok"], verified["records"], verified["first_bad"]) == (True, 5, None)


def test_json_lines_and_the_same_ruling_as_dealer_round(log_at: Path | str, tmp_path: Path) -> None:
    env = _env(log_at)
    done = subprocess.run(
        [sys.executable, "-m", "dealer", "table", "--table", "PG-3", "--json"],
        input="\n".join([*ROUNDS_TYPED, "show"]) + "\n",
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 1, done.stderr  # a piped session with refused lines
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    refused = [a for a in answers if set(a) == {"line", "input", "error"}]
    assert refused and len(refused) == done.stderr.count("Error: line ")
    objects = [a for a in answers if a not in refused]
    assert [o.get("ruling_id") for o in objects[:2]] == [1, 4]
    assert objects[2]["history"][1] == {
        "round": 2,
        "ruling_id": 4,
        "seats": [1, 2],
        "total_net": 296.5,
        "house": -296.5,
        "signoff_seats": [],
    }
    assert objects[3] == {
        "round": 3,
        "table": "PG-3",
        "dealer": None,
        "dealer_set": None,
        "seats": [],
        "entering": None,
    }
    second = objects[1]
    assert second["meters"]["after"]["progressive_treasure"] == 10000.25
    assert {b["wager"] for b in second["seats"][0]["bonuses"]} == {
        "treasure",
        "envy",
        "progressive_treasure",
    }
    # the recorded input is a round file: `dealer round` rules it the same way
    typed = _rounds_recorded(log_at)[1][2]
    again = subprocess.run(
        [sys.executable, "-m", "dealer", "round", "-", "--json"],
        input=typed,
        env={**env, "DEALER_DB": str(tmp_path / "other.sqlite")},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    replay = json.loads(again.stdout)
    assert replay["seats"] == second["seats"] and replay["dealer"] == second["dealer"]
    assert replay["total_net"] == second["total_net"] == 296.5


class Terminal:
    """A child process on a pseudo-terminal; every read has a deadline."""

    def __init__(self, args: list[str], env: dict[str, str]) -> None:
        import pty

        self.pid, self.fd = pty.fork()
        if self.pid == 0:  # the child
            os.execve(sys.executable, [sys.executable, *args], env)
        self.seen = b""

    def expect(self, marker: str, timeout: float = 20.0) -> str:
        wanted = marker.encode()
        deadline = time.monotonic() + timeout
        while wanted not in self.seen:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no {marker!r} within {timeout}s; seen: {self.seen[-400:]!r}")
            ready, _, _ = select.select([self.fd], [], [], left)
            if ready:
                try:
                    chunk = os.read(self.fd, 4096)
                except OSError:
                    chunk = b""
                if not chunk:
                    raise AssertionError(f"ended before {marker!r}; seen: {self.seen[-400:]!r}")
                self.seen += chunk
        text, _, self.seen = self.seen.partition(wanted)
        return text.decode(errors="replace").replace("\r", "")

    def send(self, line: str) -> None:
        os.write(self.fd, (line + "\n").encode())

    def end_input(self) -> None:
        """Ctrl-D at the start of a line: the end of input, as the terminal gives it."""
        os.write(self.fd, b"\x04")

    def wait(self, timeout: float = 20.0) -> int:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                return os.waitstatus_to_exitcode(status)
            ready, _, _ = select.select([self.fd], [], [], 0.05)
            if ready:
                with contextlib.suppress(OSError):
                    self.seen += os.read(self.fd, 4096)
        os.kill(self.pid, signal.SIGKILL)
        raise AssertionError("the session did not end")

    def close(self) -> None:
        os.close(self.fd)


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
def test_through_a_terminal(tmp_path: Path) -> None:
    env = _env(tmp_path / "audit.sqlite")
    term = Terminal(["-m", "dealer", "table", "--table", "PG-8"], env)
    try:
        banner = term.expect("round 1, dealer's cards> ")
        assert "dealer table: table PG-8" in banner
        steps = [
            ("As Kd 9c 7h 5s 3d 2c", "seat (or settle)> ", "dealer: A♠ 7♥ 5♠ 3♦ 2♣ / K♦ 9♣"),
            ("1 Js Jd Ac Qh 8s 5d 3h", "seat 1 wagers> ", "seat 1: now its wagers"),
            ("base 25 treasure 5", "seat (or settle)> ", "seat 1: J♠ J♦ 8♠ 5♦ 3♥ / A♣ Q♥"),
            ("2 Aq Kh 9d 6s 2h 4c 7c 10", "seat (or settle)> ", "Error: seat 2: unknown card 'Aq'"),
            (
                "2 Jd Kh 9d 6s 2h 4c 7c 10",
                "seat (or settle)> ",
                "Error: seat 2: duplicate card Jd (also in seat 1)",
            ),
            ("2 Ah Kh 9d 6s 2h 4c 7c 10", "seat (or settle)> ", "seat 2: A♥ 7♣ 6♠ 4♣ 2♥ / K♥ 9♦"),
            ("3 Qc Qd 8d 8h 4s 4d JK 25", "seat (or settle)> ", "seat 3: 8♥ 8♦ 4♠ 4♦ JK / Q♦ Q♣"),
            ("undo", "seat (or settle)> ", "undone: seat 3"),
            ("settle", "round 2, dealer's cards> ", "ruling #1 recorded"),
            ("2c 3d 5h 8s 9c Jd Kh", "seat (or settle)> ", "dealer: K♥ 8♠ 5♥ 3♦ 2♣ / J♦ 9♣"),
            ("4 Qs Qh Qd Qc 4s 6d 7h base 25 pt 1", "seat (or settle)> ", "seat 4: Q♠ Q♥"),
            ("settle", "round 3, dealer's cards> ", "ruling #4 recorded"),
            ("history", "round 3, dealer's cards> ", "round 2: ruling #4, seats 4"),
        ]
        for line, prompt, shown in steps:
            term.send(line)
            assert shown in term.expect(prompt), line
        term.send("quit")
        assert term.wait() == 0
    finally:
        term.close()
    recorded = _rounds_recorded(tmp_path / "audit.sqlite")
    assert [(r[0], r[1]) for r in recorded] == [(1, "PG-8"), (4, "PG-8")]
    assert _verify(env)["ok"] is True


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
@pytest.mark.parametrize("columns", [80, 120])
def test_the_last_thing_on_a_terminal_is_what_to_pay(tmp_path: Path, columns: int) -> None:
    """Settled at a real terminal of 80 or 120 columns, a round's pays are the last block
    before the prompt, every line of it within the terminal (a table at 120 columns; at 80,
    where the table of every wager is wider, a line a seat), the unplaced Envy left out."""
    import fcntl
    import struct
    import termios

    env = _env(tmp_path / "audit.sqlite")
    term = Terminal(["-m", "dealer", "table", "--table", "PG-8"], env)
    fcntl.ioctl(term.fd, termios.TIOCSWINSZ, struct.pack("HHHH", 40, columns, 0, 0))
    try:
        term.expect("round 1, dealer's cards> ")
        for line in (
            "As Kd 9c 7h 5s 3d 2c",
            "1 Js Jd Ac Qh 8s 5d 3h base 25 t 5 i 5 pi 1 pt 1 patron P-123",
            "2 Qs Qd Qc 6h 4s 2d 8c b 10 pt 1",
        ):
            term.send(line)
            term.expect("> ")
        term.send("settle")
        shown = term.expect("round 2, dealer's cards> ").splitlines()
        term.send("quit")
        assert term.wait() == 0
    finally:
        term.close()
    recorded = shown.index("ruling #1 recorded")
    total = shown.index("players' total -$0.50")
    assert recorded == total + 1
    if columns == 120:
        pays = shown[total - 4 : total]
        assert pays[0].split() == [
            "seat", "patron", "base", "insurance", "treasure", "prog.", "ins.", "prog.",
            "treas.", "total",
        ]  # fmt: skip
        assert pays[2].split() == ["1", "P-123", "+$12.50", "-$5", "-$5", "-$1", "-$1", "+$0.50"]
        assert pays[3].split() == ["2", "$0", "-$1", "-$1"]
    else:
        pays = shown[total - 3 : total]
        assert pays == [
            "seat 1 P-123: base +$12.50 · insurance -$5 · treasure -$5 · prog. ins. -$1",
            "    prog. treas. -$1 · total +$0.50",
            "seat 2: base $0 · prog. treas. -$1 · total -$1",
        ]
    assert all(len(line) <= columns for line in shown[total - 4 : recorded + 1])


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
def test_end_of_input_mid_round_at_a_terminal_asks(tmp_path: Path) -> None:
    """Ctrl-D with a round dealt asks; no (or Ctrl-D again) stays, yes leaves it unrecorded."""
    env = _env(tmp_path / "audit.sqlite")
    term = Terminal(["-m", "dealer", "table", "--table", "PG-8"], env)
    ended = (
        "the input ended with round {} not settled (the dealer's cards and 1 seat): "
        "nothing is recorded for it"
    )
    asked = "leave anyway? [y/N] "
    try:
        term.expect("round 1, dealer's cards> ")
        term.send(DEALER)
        term.expect("seat (or settle)> ")
        term.send("1 Js Jd Ac Qh 8s 5d 3h base 25")
        term.expect("seat (or settle)> ")
        term.end_input()
        assert term.expect(ended.format(1)) == "\n"
        assert term.expect(asked) == "\n"
        term.send("n")
        assert term.expect("seat (or settle)> ") == "n\n"
        term.end_input()
        term.expect(ended.format(1))
        term.expect(asked)
        term.end_input()  # no answer is no
        term.expect("seat (or settle)> ")
        term.send("settle")
        assert "ruling #1 recorded" in term.expect("round 2, dealer's cards> ")
        term.send("2c 3d 5h 8s 9c Jd Kh")
        term.expect("seat (or settle)> ")
        term.send("4 Qs Qh Qd Qc 4s 6d 7h base 25")
        term.expect("seat (or settle)> ")
        term.end_input()
        term.expect(ended.format(2))
        term.expect(asked)
        term.send("y")
        assert term.wait() == 0
    finally:
        term.close()
    assert [(r[0], r[1]) for r in _rounds_recorded(tmp_path / "audit.sqlite")] == [(1, "PG-8")]


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
def test_end_of_input_between_rounds_at_a_terminal_leaves(tmp_path: Path) -> None:
    term = Terminal(["-m", "dealer", "table", "--table", "PG-8"], _env(tmp_path / "audit.sqlite"))
    try:
        term.expect("round 1, dealer's cards> ")
        term.end_input()
        assert term.wait() == 0
        assert "leave anyway" not in term.seen.decode(errors="replace")
    finally:
        term.close()


@pytest.fixture()
def db(dealer_db: Path | str, monkeypatch: pytest.MonkeyPatch) -> Path | str:
    """An empty log on each backend; the session runs as d-104."""
    monkeypatch.setenv("DEALER_USER", "d-104")
    return dealer_db


def test_exit_codes(db: Path | str, tmp_path: Path) -> None:
    assert run("table", "--bogus").exit_code == 2
    assert run("table", "--rule").exit_code == 2
    result = run("table", "--profile", str(tmp_path / "none.yaml"), stdin="quit\n")
    assert result.exit_code == 1
    assert result.stderr.startswith("Error: ") and result.stderr.count("\n") == 1
    result = run("table", "--rule", "wheel=sideways", stdin="quit\n")
    assert result.exit_code == 1 and result.stderr.count("Error:") == 1
    result = run("table", "--table", "PG-4", stdin="quit\n")
    assert (result.exit_code, result.stdout, result.stderr) == (0, "", "")


def test_the_live_table_names_its_table(db: Path | str) -> None:
    """The live table settles at a table's meters: with no table named it is refused in one
    line saying how to name one, before anything is read or recorded."""
    result = run("table", stdin=f"{DEALER}\n1 Js Jd Ac Qh 8s 5d 3h base 25\nsettle\n")
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == (
        "Error: the live table settles its rounds at a table's progressive meters: name the "
        "table with --table ID (or DEALER_TABLE)\n"
    )
    assert _rounds_recorded(db) == []
    named = run("table", stdin="quit\n", env={"DEALER_TABLE": "PG-5"})
    assert (named.exit_code, named.stderr) == (0, "")


def test_end_of_input_mid_round_records_nothing(db: Path | str) -> None:
    result = run("table", "--table", "PG-4", stdin=f"{DEALER}\n1 Js Jd Ac Qh 8s 5d 3h base 25\n")
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == (
        "Error: the input ended with round 1 not settled (the dealer's cards and 1 seat): "
        "nothing is recorded for it\n"
    )
    assert _rounds_recorded(db) == []


def test_quit_twice_leaves_an_unsettled_round(db: Path | str) -> None:
    result = run("table", "--table", "PG-4", stdin=f"{DEALER}\nquit\nquit\n")
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        "Error: line 2: round 1 is not settled (the dealer's cards): settle it, or quit again "
        "to leave it unrecorded",
        "Error: round 1 was not settled (the dealer's cards): nothing is recorded for it",
    ]


def test_help_goes_to_stderr_with_json(db: Path | str) -> None:
    result = run("table", "--table", "PG-4", "--json", stdin="help\n")
    assert result.exit_code == 0 and result.stdout == ""
    assert "Commands:" in result.stderr
    assert "Commands:" in run("table", "--table", "PG-4", stdin="help\n").stdout


def test_a_round_over_the_sign_off_line_says_so_in_history() -> None:
    """The round's result names the seats whose pay awaits a sign-off; `history` says which
    and the command a supervisor signs it with."""
    session = TableSession(PROFILE, "PG-1")
    for line in ("2s 2d 4c 6h 8s 9d Jc", "4 Ks Kd Kc Kh As Ad 3h base 5000"):
        session, _ = session.step(line)
    settled = {"total_net": 5000, "signoff_required": {"over": 2500, "seats": [4]}}
    _, history = session.settled(7, settled).step("history")
    assert history.lines == (
        "round 1: ruling #7, seats 4, players +$5,000, house -$5,000; sign-off needed (seat 4): "
        "dealer audit signoff 7",
    )
    assert history.data == {
        "history": [
            {
                "round": 1,
                "ruling_id": 7,
                "seats": [4],
                "total_net": 5000,
                "house": -5000,
                "signoff_seats": [4],
            }
        ]
    }
