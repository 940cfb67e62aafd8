"""Whole rounds: reading and checking round files, settling every seat, the demo."""

from decimal import Decimal
from pathlib import Path

import pytest

from dealer.games.paigow.bonus import Meters
from dealer.games.paigow.demo import deal_demo_round
from dealer.games.paigow.house_way import load_house_way
from dealer.games.paigow.pay import Wager
from dealer.games.paigow.profile import load_profile
from dealer.games.paigow.round_input import RoundError, SeatWagers, read_round, read_seat
from dealer.games.paigow.table_round import settle_round, starting_meters
from dealer.kernel.documents import load_yaml

ROUNDS = Path(__file__).parent / "data" / "rounds"
D = Decimal
PROFILE = load_profile()
WAY = load_house_way("trump-plaza")


def _round(name: str):
    return read_round(load_yaml((ROUNDS / name).read_text(encoding="utf-8")), PROFILE)


def test_every_problem_is_reported_at_once() -> None:
    with pytest.raises(RoundError) as err:
        _round("invalid.yaml")
    assert err.value.problems == [
        "seat 1: duplicate card As (also in the dealer's hand)",
        "seat 7: seats are numbered 1 to 6",
        "seat 7: a second joker (also in the dealer's hand)",
        "seat 7: base wager $10,000 is outside the table limits $5-$5,000",
    ]
    assert str(err.value).startswith("the round has 4 problems: seat 1: duplicate card As")


@pytest.mark.parametrize(
    ("raw", "problem"),
    [
        ({"dealer": "As Kd 9c 7h 5s 3d 2c"}, "seats: list at least one occupied seat"),
        (
            {
                "dealer": "As Kd 9c 7h 5s 3d 2c",
                "seats": [
                    {"seat": 1, "cards": "Qs Qd Qc Jh 8s 6d 4h", "wagers": {"base": 10}},
                    {"seat": 1, "cards": "2s 2d 2h 3h 3s 6c 4c", "wagers": {"base": 10}},
                ],
            },
            "seat 1: listed twice",
        ),
        (
            {
                "dealer": "As Kd 9c 7h 5s 3d 2c",
                "seats": [{"seat": 2, "high": "Qs Qd Qc Jh 8s", "wagers": {"base": 10}}],
            },
            "seat 2: give its seven cards, or its high and low hands",
        ),
        (
            {
                "dealer": "As Kd 9c 7h 5s 3d 2c",
                "seats": [{"seat": 2, "cards": "Qs Qd Qc Jh 8s 6d 4h", "wagers": {"treasure": 5}}],
            },
            "seat 2: the base wager is required",
        ),
        (
            {
                "dealer": "As Kd 9c 7h 5s 3d 2c",
                "seats": [
                    {
                        "seat": 2,
                        "cards": "Qs Qd Qc Jh 8s 6d 4h",
                        "wagers": {"base": 10, "insurance_on_dealer": True},
                    }
                ],
            },
            "seat 2: insurance_on_dealer without an insurance wager",
        ),
        (
            {
                "dealer": "As Kd 9c 7h 5s 3d 2c",
                "seats": [
                    {
                        "seat": 2,
                        "cards": "Qs Qd Qc Jh 8s 6d 4h",
                        "wagers": {"base": 10, "treasure": 1000},
                    }
                ],
            },
            "seat 2: treasure wager $1,000 is outside the table limits $1-$500",
        ),
        (
            {
                "dealer": "As Kd 9c 7h 5s 3d 2c",
                "seats": [{"seat": 0, "cards": "Qs Qd Qc Jh 8s 6d 4h", "wagers": {"base": 10}}],
            },
            "seat 0: seats are numbered 1 to 6",
        ),
        (
            {
                "dealer": "As Kd 9c 7h 5s 3d 2c",
                "seats": [
                    {
                        "seat": 2,
                        "cards": "Qs Qd Qc Jh 8s 6d 4h",
                        "wagers": {"base": 10, "treasure": -5},
                    }
                ],
            },
            "seat 2: treasure wager '-5' is not an amount: an amount is zero or more",
        ),
    ],
)
def test_round_problems(raw: dict, problem: str) -> None:
    with pytest.raises(RoundError) as err:
        read_round(raw, PROFILE)
    assert problem in err.value.problems


def test_wagers_read_elsewhere_are_checked_as_a_round_file_s() -> None:
    """`paigow settle` hands the seat its wagers read (`SeatWagers`): they are not read again,
    and are checked against the profile as a round file's are."""
    amounts = {Wager.BASE: D(10), Wager.TREASURE: D(1000), Wager.PROGRESSIVE_TREASURE: D(1)}
    raw = {"seat": 2, "cards": "Qs Qd Qc Jh 8s 6d 4h"}
    with pytest.raises(RoundError) as err:
        read_seat(raw | {"wagers": SeatWagers(amounts, frozenset({Wager.INSURANCE}))}, PROFILE)
    assert err.value.problems == [
        "seat 2: treasure wager $1,000 is outside the table limits $1-$500",
        "seat 2: insurance_on_dealer without an insurance wager",
    ]
    amounts[Wager.TREASURE] = D(5)
    seat = read_seat(raw | {"wagers": SeatWagers(amounts)}, PROFILE)
    assert seat.wagers == SeatWagers(amounts) and seat.wagers.base == 10
    assert seat.wagers.to_dict() == {"base": 10, "treasure": 5, "progressive_treasure": 1}
    profile = load_profile(rules=["offered.progressive_treasure=false"])
    with pytest.raises(RoundError, match="progressive treasure wager is not offered"):
        read_seat(raw | {"wagers": SeatWagers(amounts)}, profile)


def test_envy_across_seats_and_two_progressive_hits() -> None:
    rnd = _round("envy_and_progressives.yaml")
    meters = starting_meters({}, PROFILE, "PG-1")
    result = settle_round(rnd, PROFILE, WAY, meters).to_dict()
    by_seat = {s["seat"]: s for s in result["seats"]}
    envy = {seat: [b for b in by_seat[seat]["bonuses"] if b["wager"] == "envy"] for seat in by_seat}
    # Envy: each seat with Treasure ≥ $5 is paid for every OTHER hand of four of a kind or better
    assert [b["net"] for b in envy[1]] == [5, 5]  # for seats 2 and 3
    assert [b["net"] for b in envy[2]] == [5, 5]  # for seats 1 and 3
    assert [b["net"] for b in envy[3]] == [5, 5]  # for seats 1 and 2
    assert result["progressive_hits"] == []  # four of a kind is a fixed $75 row, not the meter
    treasure_prog = [
        b for s in (1, 3) for b in by_seat[s]["bonuses"] if b["wager"] == "progressive_treasure"
    ]
    assert [b["event"] for b in treasure_prog] == ["four-of-a-kind", "four-of-a-kind"]
    assert result["meters"]["after"]["progressive_treasure"] == 10000.5


def test_demo_is_reproducible_and_deals_all_seats() -> None:
    one, two = deal_demo_round(42, "T", PROFILE), deal_demo_round(42, "T", PROFILE)
    assert one == two and one != deal_demo_round(43, "T", PROFILE)
    cards = [one["dealer"], *(s["cards"] for s in one["seats"])]
    assert len(one["seats"]) == 6
    dealt = " ".join(cards).split()
    assert len(dealt) == 49 and len(set(dealt)) == 49
    rnd = read_round(one, PROFILE)
    outcome = settle_round(
        rnd,
        PROFILE,
        WAY,
        Meters(progressive_insurance=Decimal(5000), progressive_treasure=Decimal(10000)),
    )
    assert len(outcome.seats) == 6


def test_two_meter_hits_in_one_round_are_paid_in_seat_order() -> None:
    raw = {
        "dealer": "2c 3d 5h 8s 9c 4h 6s",
        "seats": [
            {
                "seat": 4,
                "cards": "Ad Kd Qd Jd Td Ac Kc",
                "wagers": {"base": 10, "progressive_treasure": 1},
            },
            {
                "seat": 2,
                "cards": "As Ks Qs Js Ts Ah Kh",
                "wagers": {"base": 10, "progressive_treasure": 1},
            },
        ],
    }
    meters = Meters(progressive_insurance=Decimal(5000), progressive_treasure=Decimal(10000))
    result = settle_round(read_round(raw, PROFILE), PROFILE, WAY, meters).to_dict()
    hits = result["progressive_hits"]
    assert [h["seat"] for h in hits] == [2, 4]
    # 10,000 + 2 x 0.25 contributions = 10,000.50; seat 2 takes 50% of it, seat 4 half the
    # rest; a share is rounded down to the cent and the remainder stays on the meter
    first, second = (
        next(b for b in s["bonuses"] if b["wager"] == "progressive_treasure")
        for s in sorted(result["seats"], key=lambda s: s["seat"])
    )
    assert first["event"] == "royal-flush-with-suited-ak"
    assert (first["net"], second["net"]) == (4999.25, 2499.12)  # "for 1": less the $1 wager
    assert result["meters"]["after"]["progressive_treasure"] == 2500.13
