"""Bonus settlement: every pay-table row of the seed, Insurance on the dealer's hand, Envy
across the table, progressive meters, caps, errors and the JSON form."""

import csv
import json
from dataclasses import replace
from decimal import ROUND_DOWN, Decimal
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dealer.games.paigow.bonus import (
    BonusSettings,
    Meters,
    RoundHands,
    across_the_table,
    apply_caps,
    check_placed,
    classify_hands,
    contributions,
    group_by_seat,
    return_to_meters,
    settle_bonuses,
    settle_seat,
    settle_wager,
)
from dealer.games.paigow.deck import parse_cards
from dealer.games.paigow.events import classify
from dealer.games.paigow.pay import BONUSES, Wager, share
from dealer.games.paigow.paytables import load_paytables, shipped_paytables
from dealer.games.paigow.profile import Cap, MeterConfig, load_profile
from dealer.games.paigow.round_input import SeatInput, SeatWagers
from dealer.kernel.errors import CardError, ConfigError, DealerError, PayTableError

DATA = Path(__file__).parent / "data"
D = Decimal


def _rows(name: str) -> list[list[str]]:
    with open(DATA / name, encoding="utf-8") as f:
        rows = [r for r in csv.reader(f, delimiter="\t") if r and not r[0].startswith("#")]
    return rows[1:]


HANDS = {event: parse_cards(cards) for event, cards in _rows("event_hands.tsv")}

# The seed's row labels (all their spellings) and the event each names.
SEED_LABELS = {
    "9-High Pai Gow": "9-high-pai-gow",
    "10-High Pai Gow": "10-high-pai-gow",
    "Jack-High Pai Gow": "jack-high-pai-gow",
    "Queen-High Pai Gow": "queen-high-pai-gow",
    "King-High Pai Gow": "king-high-pai-gow",
    "Ace-High Pai Gow": "ace-high-pai-gow",
    "7-Card Straight Flush, No Joker": "seven-card-straight-flush",
    "5-Card Royal Flush w/ A-K Suited": "royal-flush-with-suited-ak",
    "5-Card Royal Flush w/A-K Suited": "royal-flush-with-suited-ak",
    "7-Card Straight Flush w/Joker": "seven-card-straight-flush-with-joker",
    "7-Card Straight Flush w/ Joker": "seven-card-straight-flush-with-joker",
    "5 Aces": "five-aces",
    "Five Aces": "five-aces",
    "5-Card Royal Flush": "royal-flush",
    "5-Card Straight Flush": "straight-flush",
    "Four-of-a-Kind": "four-of-a-kind",
    "4-of-a-Kind": "four-of-a-kind",
    "Full House": "full-house",
    "5-Card Flush": "flush",
    "3-of-a-Kind": "three-of-a-kind",
    "5-Card Straight": "straight",
    "3 Pair": "three-pair",
    "9-High one color": "9-high-pai-gow-one-color",
    "9-High two-tone": "9-high-pai-gow-two-tone",
    "10-High": "10-high-pai-gow",
    "Jack-High": "jack-high-pai-gow",
    "Queen-High": "queen-high-pai-gow",
}
# The appendices' notes: bare numbers are "to 1" (A, B), "for 1" (C, D); Envy pays are fixed.
WAGER_OF = {"PT-FLT-EC-PGI": "insurance", "PT-FLT-EC-ET": "treasure", "E": "envy"}
WAGER_OF |= {"PT-BJS-EC-PGI": "progressive_insurance", "PT-BJS-EC-ET": "progressive_treasure"}
AMOUNT = {"insurance": D(10), "treasure": D(10), "envy": D(0)}
AMOUNT |= {"progressive_insurance": D(5), "progressive_treasure": D(5)}
METER = D("12345.67")
SEED = D(10000)


def _wager(table_id: str) -> str:
    return WAGER_OF[table_id.rsplit("-", 1)[0] if "-" in table_id else "E"]


def _expected_net(cell: str, wager: str) -> Decimal:
    """The player's net for a seed cell, worked out from the seed's words alone."""
    w = AMOUNT[wager]
    if cell == "Push":
        return D(0)
    if cell == "Loss":
        return -w
    if cell.endswith("%"):
        return (METER * D(cell[:-1]) / 100).quantize(D("0.01"), ROUND_DOWN) - w
    if cell.startswith("$"):
        return D(cell[1:].replace(",", "")) - w
    n = D(cell.replace(",", ""))
    return n * w if wager in ("insurance", "treasure") else (n - 1) * w


def _seed_rows() -> list[tuple[str, str, str, str, str]]:
    """(table, label, cell, paying label, paying cell): a hand whose highest event's row is N/A
    is paid by the table's next row for an event the hand also makes."""
    rows = _rows("paytables_seed.tsv")
    out = []
    for i, (table_id, label, cell) in enumerate(rows):
        events = classify(HANDS[SEED_LABELS[label]]).events
        j = i
        while rows[j][2] == "N/A" or SEED_LABELS[rows[j][1]] not in events:
            j += 1
        assert rows[j][0] == table_id
        out.append((table_id, label, cell, rows[j][1], rows[j][2]))
    return out


@pytest.mark.parametrize("row", _seed_rows(), ids=lambda r: f"{r[0]}:{r[1]}")
def test_every_pay_table_row(row: tuple[str, str, str, str, str]) -> None:
    """The row's event, on a hand whose highest event it is, pays what the seed says."""
    table_id, label, cell, paying_label, paying_cell = row
    wager = _wager(table_id)
    table = shipped_paytables().get(table_id, wager)
    hand = classify(HANDS[SEED_LABELS[label]])
    result = settle_wager(wager, AMOUNT[wager], hand, table, meter=METER, seed=SEED)
    assert result.row is not None and result.row.label == paying_label
    assert result.event == SEED_LABELS[paying_label]
    assert result.net == result.uncapped_net == _expected_net(paying_cell, wager)
    assert result.skipped == ((SEED_LABELS[label],) if cell == "N/A" else ())
    if cell.endswith("%"):
        assert result.meter is not None and result.meter.before == METER
        assert result.meter.after == (SEED if cell == "100%" else METER - result.meter.paid)
    else:
        assert result.meter is None


def test_a_hand_with_no_row_loses_the_wager() -> None:
    table = shipped_paytables().get("PT-FLT-EC-ET-01")
    result = settle_wager("treasure", D(10), classify(HANDS["king-high-pai-gow"]), table)
    assert (result.row, result.event, result.net, result.kind) == (None, None, D(-10), "no-event")
    assert result.explanation() == [
        "Emperor's Treasure PT-FLT-EC-ET-01, this table pays none of the hand's events "
        "(King-High Pai Gow): the $10 wager loses = -$10"
    ]


@pytest.mark.parametrize(
    ("table_id", "event", "amount", "line"),
    [
        (
            "PT-FLT-EC-ET-01",
            "full-house",
            "10",
            "Emperor's Treasure PT-FLT-EC-ET-01, row Full House: 5 to 1 × $10 = +$50",
        ),
        (
            "PT-FLT-EC-ET-01",
            "three-pair",
            "10",
            "Emperor's Treasure PT-FLT-EC-ET-01, row 3 Pair: Push, the $10 wager is returned = $0",
        ),
        (
            "PT-FLT-EC-ET-02",
            "three-pair",
            "10",
            "Emperor's Treasure PT-FLT-EC-ET-02, row 3 Pair: Loss, the $10 wager loses = -$10",
        ),
        (
            "PT-BJS-EC-PGI-03",
            "9-high-pai-gow-two-tone",
            "1",
            "Pai Gow Insurance Progressive PT-BJS-EC-PGI-03, row 9-High two-tone: "
            "250 for 1 × $1 = $250 for the $1 wager: +$249",
        ),
        (
            "PT-BJS-EC-PGI-01",
            "10-high-pai-gow",
            "1",
            "Pai Gow Insurance Progressive PT-BJS-EC-PGI-01, row 10-High: "
            "$125 fixed for the $1 wager = +$124",
        ),
        (
            "PT-BJS-EC-PGI-01",
            "9-high-pai-gow-two-tone",
            "1",
            "Pai Gow Insurance Progressive PT-BJS-EC-PGI-01, row 9-High two-tone: "
            "10% of the meter $12,345.67 = $1,234.56 for the $1 wager = +$1,233.56; "
            "the meter goes to $11,111.11",
        ),
    ],
)
def test_explanation_gives_the_arithmetic(
    table_id: str, event: str, amount: str, line: str
) -> None:
    table = shipped_paytables().get(table_id)
    hand = classify(HANDS[event])
    result = settle_wager(table.wager, D(amount), hand, table, meter=METER, seed=SEED)
    assert result.explanation() == [line]


def test_not_offered_row_is_explained() -> None:
    table = shipped_paytables().get("PT-BJS-EC-ET-03")
    result = settle_wager(
        "progressive_treasure", D(1), classify(HANDS["royal-flush-with-suited-ak"]), table
    )
    assert result.explanation() == [
        "Emperor's Treasure Progressive PT-BJS-EC-ET-03: row 5-Card Royal Flush w/ A-K Suited "
        "is N/A in this table; the hand's next event decides",
        "Emperor's Treasure Progressive PT-BJS-EC-ET-03, row 5-Card Royal Flush: "
        "$500 fixed for the $1 wager = +$499",
    ]
    assert result.to_dict()["not_offered"] == ["royal-flush-with-suited-ak"]


def test_a_meter_pay_needs_the_meter() -> None:
    table = shipped_paytables().get("PT-BJS-EC-ET-01")
    with pytest.raises(DealerError, match="pays from a meter"):
        settle_wager(
            "progressive_treasure", D(1), classify(HANDS["seven-card-straight-flush"]), table
        )


# ------------------------------------------------------------------ rounds

DEALER = parse_cards("2c 3h 5h 6c Tc Th Jh")  # a pair of tens: no pai gow, no event


def _seat(seat: int, cards: str, insurance_on_dealer: bool = False, **wagers: object) -> SeatInput:
    """A seat as the round's input hands it to the bonus engine (wagers as read: Decimals)."""
    amounts = {Wager(name): D(str(amount)) for name, amount in wagers.items()}
    declared = frozenset({Wager.INSURANCE}) if insurance_on_dealer else frozenset()
    return SeatInput(seat, parse_cards(cards), None, None, SeatWagers(amounts, declared))


def _posting(**tables: str) -> dict[str, str]:
    """The shipped profile's pay tables, with `tables` (by wager) posted instead."""
    return {**BonusSettings().tables, **tables}


def test_insurance_on_the_dealers_hand() -> None:
    dealer = parse_cards("9s 8h 7d 6c 4h 3d 2h")  # a 9-high pai gow
    seats = [
        _seat(1, "As Ad Kc Qd 9c 5s 3s", insurance=5, insurance_on_dealer=True),
        _seat(2, "Ks Qs 9d 8c 6h 4c 2c", insurance=5),  # its own king-high pai gow
        _seat(3, "Jh Jd Tc 8s 7c 5d 3c", insurance=5),  # its own hand: a pair
    ]
    by_seat = {s.seat: s.results[0] for s in settle_bonuses(seats, dealer).seats}
    assert by_seat[1].hand == "dealer" and by_seat[1].event == "9-high-pai-gow"
    assert by_seat[1].net == 2000
    assert by_seat[1].explanation() == [
        "Pai Gow Insurance PT-FLT-EC-PGI-01 on the dealer's hand (lammer), row 9-High Pai Gow: "
        "400 to 1 × $5 = +$2,000"
    ]
    assert (by_seat[2].hand, by_seat[2].event, by_seat[2].net) == ("own", "king-high-pai-gow", 15)
    assert (by_seat[3].event, by_seat[3].net) == (None, -5)


def test_envy_across_four_seats() -> None:
    seats = [
        _seat(1, "7s 7d 7h 7c Kd 9h 2c", treasure=5),  # four of a kind; exactly the minimum
        _seat(2, "9s 8s 6s 5s 4s Kh 3h", treasure=10),  # a flush: no Envy for anyone
        _seat(3, "Qs Qd Jd 4c 4d 3d 2s", treasure=25),  # two pair: no event
        _seat(4, "Ac Kc Qc Jc Tc 5d 3c", treasure=4),  # royal flush; below the Envy minimum
    ]
    dealer = parse_cards("As Ah Ad JK 8d 6h 2h")  # five aces: the dealer never pays Envy
    result = settle_bonuses(seats, dealer)
    envy = {
        s.seat: [(r.from_seat, r.event, r.net) for r in s.results if r.wager == "envy"]
        for s in result.seats
    }
    assert envy == {
        1: [(4, "royal-flush", D(25))],
        2: [(1, "four-of-a-kind", D(5)), (4, "royal-flush", D(25))],
        3: [(1, "four-of-a-kind", D(5)), (4, "royal-flush", D(25))],
        4: [],
    }
    line = result.seat(3).results[1].explanation()[0]
    assert line == "Envy Bonus E01 on seat 1's hand, row Four-of-a-Kind: $5 fixed = +$5"
    assert result.seat(3).results[1].to_dict()["from_seat"] == 1
    assert result.seat(3).net == D(-25 + 5 + 25)


def test_envy_pays_every_other_qualifying_hand_at_its_highest_event() -> None:
    seats = [
        _seat(1, "8s 9s Ts Js Qs Ks As"),  # seven-card straight flush (no wager of its own)
        _seat(2, "3d 4d 5d JK 7d 8d 9d"),  # seven-card straight flush with the joker
        _seat(3, "Kd Kh Qh 4c 4h 3c 2h", treasure=5),
    ]
    result = settle_bonuses(seats, DEALER, BonusSettings(tables=_posting(envy="E02")))
    assert [(r.from_seat, r.event, r.net) for r in result.seat(3).results if r.wager == "envy"] == [
        (1, "seven-card-straight-flush", D(5000)),
        (2, "seven-card-straight-flush-with-joker", D(500)),
    ]
    assert result.seat(1).results == () and result.seat(2).results == ()


def test_two_progressive_hits_in_one_round() -> None:
    seats = [
        _seat(3, "3d 4d 5d JK 7d 8d 9d", progressive_treasure=5),  # 25% of the meter
        _seat(2, "Ac Jc 8c 5c 3c Kh 9h", progressive_treasure=1),  # a flush: loses
        _seat(1, "8s 9s Ts Js Qs Ks As", progressive_treasure=5),  # 100% of the meter
    ]
    meters = Meters(progressive_insurance=D(700), progressive_treasure=D(20000))
    result = settle_bonuses(seats, DEALER, meters=meters)
    one, two, three = (result.seat(n).results[0] for n in (1, 2, 3))
    # contributions 25% of 5 + 1 + 5 = 2.75 go in before any hand is paid
    assert result.contributions.get("progressive_treasure") == D("2.75")
    assert one.meter is not None and one.meter.before == D("20002.75") and one.meter.reset
    assert one.net == D("20002.75") - 5
    assert three.meter is not None and three.meter.before == D(10000)  # the seed, after seat 1
    assert three.meter.paid == D(2500) and three.net == D(2495)
    assert two.net == D(-1) and two.meter is None
    assert result.meters_after == Meters(progressive_insurance=D(700), progressive_treasure=D(7500))
    hits = result.to_dict()["progressive_hits"]
    assert [(h["seat"], h["before"], h["paid"], h["after"]) for h in hits] == [
        (1, 20002.75, 20002.75, 10000),
        (3, 10000, 2500, 7500),
    ]


def test_progressive_insurance_one_colour_and_contribution_rounding() -> None:
    settings = BonusSettings(
        meters={
            "progressive_insurance": MeterConfig(D(1000), D("0.15"), D(100000)),
            "progressive_treasure": MeterConfig(D(1000), D("0.15"), D(100000)),
        },
        units={"progressive_insurance": D("0.10"), "progressive_treasure": D(1)},
    )
    seats = [_seat(1, "9h 8h 7d 6d 4h 3d 2h", progressive_insurance=D("0.10"))]
    result = settle_bonuses(seats, DEALER, settings, Meters(progressive_insurance=D(3000)))
    # 15% of 10 cents is 1.5 cents: 1 cent goes to the meter
    assert result.contributions.get("progressive_insurance") == D("0.01")
    hit = result.seat(1).results[0]
    assert hit.event == "9-high-pai-gow-one-color" and hit.net == D("3000.01") - D("0.10")
    assert result.meters_after.get("progressive_insurance") == D(1000)


def test_contributions_stop_at_the_meter_cap() -> None:
    settings = BonusSettings(
        meters={
            "progressive_insurance": MeterConfig(D(1000), D("0.25"), D(5000)),
            "progressive_treasure": MeterConfig(D(1000), D("0.25"), D(5000)),
        }
    )
    seats = [
        _seat(1, "Ks Kh 9d 8c 7s 4d 2s", progressive_treasure=5),  # a pair: no event
        _seat(2, "Qs Qd 9c 7d 5c 4c 3s", progressive_treasure=5),  # a pair: no event
    ]
    # 25% of 5 + 5 is 2.50, but the meter holds at most 5,000: 1 cent fits
    result = settle_bonuses(
        seats,
        DEALER,
        settings,
        Meters(progressive_insurance=D(1000), progressive_treasure=D("4999.99")),
    )
    assert result.contributions.get("progressive_treasure") == D("0.01")
    assert result.meters_after.get("progressive_treasure") == D(5000)
    assert result.explanation()[-1] == (
        "Emperor's Treasure Progressive meter: $4,999.99 + contributions $0.01 → $5,000 "
        "(at its cap $5,000: contributions stop there)"
    )
    full = settle_bonuses(
        seats, DEALER, settings, Meters(progressive_insurance=D(1000), progressive_treasure=D(5000))
    )
    assert full.contributions.get("progressive_treasure") == 0
    assert full.meters_after.get("progressive_treasure") == D(5000)


def test_a_meter_cap_below_its_seed_is_refused() -> None:
    with pytest.raises(ConfigError, match="progressive_treasure cap 500 is below its seed 1000"):
        BonusSettings(
            meters={
                "progressive_insurance": MeterConfig(D(1000), D("0.25"), D(5000)),
                "progressive_treasure": MeterConfig(D(1000), D("0.25"), D(500)),
            }
        )


def test_capped_round_per_hand_then_per_round() -> None:
    settings = BonusSettings(caps={"treasure": Cap(D(1000), D(1500))})
    seats = [
        _seat(1, "9h 8h 7h 6h 5h Kd 2c", treasure=100),  # straight flush 50 to 1: 5,000
        _seat(2, "Qs Qd Qh 4c 4d 9s 2s", treasure=100),  # full house 5 to 1: 500
        _seat(3, "Ad Jd 8d 5d 3d Kc 9c", treasure=50),  # flush 4 to 1: 200
        _seat(4, "Ks Kh 7s 7c 4s 3s 2h", treasure=10),  # two pair: loses, never capped
    ]
    result = settle_bonuses(seats, parse_cards("As Ac Th Tc 6s 6c 3h"), settings)
    paid = [(r.uncapped_net, r.net) for r in result.results if r.wager == "treasure"]
    # per hand: 5,000 → 1,000; per round: 1,700 → 1,500 shared 1000:500:200 to the cent,
    # the odd cent to the largest remainder (441.176…)
    assert paid == [
        (D(5000), D("882.35")),
        (D(500), D("441.18")),
        (D(200), D("176.47")),
        (D(-10), D(-10)),
    ]
    assert sum(n for _, n in paid[:3]) == 1500
    lines = result.seat(1).results[0].explanation()
    assert lines[1] == (
        "capped at the Emperor's Treasure maximum of $1,000 per hand (seat 1 won +$5,000 in all)"
    )
    assert lines[2].startswith("capped at the Emperor's Treasure maximum of $1,500 per round")
    assert lines[3] == "paid +$882.35 of +$5,000"
    d = result.seat(1).results[0].to_dict()
    assert (d["net"], d["uncapped_net"], d["capped"]) == (882.35, 5000, True)


def test_envy_cap_per_hand_shares_a_seats_envy_pays() -> None:
    settings = BonusSettings(caps={"envy": Cap(D(20), None)})
    seats = [
        _seat(1, "7s 7d 7h 7c Kd 9h 2c"),  # four of a kind: $5
        _seat(2, "9s 8s 6s 5s 4s Kh 3h"),  # flush: nothing
        _seat(3, "Ac Kc Qc Jc Tc 5d 3c"),  # royal: $25
        _seat(4, "Qs Qd Jd 4c 4d 3d 2s", treasure=5),
    ]
    result = settle_bonuses(seats, parse_cards("2h 5h 6h 8h 9c 8d Td"), settings)
    assert [(r.uncapped_net, r.net) for r in result.seat(4).results if r.wager == "envy"] == [
        (D(5), D("3.33")),
        (D(25), D("16.67")),
    ]


def test_a_capped_meter_pay_leaves_the_cut_in_the_meter() -> None:
    settings = BonusSettings(caps={"progressive_treasure": Cap(D(1000), None)})
    seats = [_seat(1, "8s 9s Ts Js Qs Ks As", progressive_treasure=4)]
    result = settle_bonuses(seats, DEALER, settings, Meters(progressive_treasure=D(20000)))
    hit = result.seat(1).results[0]
    # 20,001 in the meter (the wager added 1); the 100% pay would net 19,997
    assert (hit.uncapped_net, hit.net) == (D(19997), D(1000))
    assert hit.meter is not None and hit.meter.returned == D(18997)
    assert result.meters_after.get("progressive_treasure") == D(10000) + D(18997)
    assert hit.explanation()[-1] == "the $18,997 the cap kept stays in the meter"


@given(
    st.lists(st.integers(min_value=0, max_value=10**7), min_size=1, max_size=8),
    st.integers(min_value=0, max_value=10**7),
)
def test_share_is_proportional_to_the_cent(cents: list[int], cap_cents: int) -> None:
    amounts = [D(c) / 100 for c in cents]
    cap = D(cap_cents) / 100
    out = share(amounts, cap)
    total = sum(amounts, D(0))
    if total <= cap:
        assert out == amounts
        return
    assert sum(out, D(0)) == cap
    for a, s in zip(amounts, out, strict=True):
        exact = a * cap / total
        assert 0 <= s <= a and exact - D("0.01") < s < exact + D("0.01")


def test_round_json_and_totals() -> None:
    seats = [
        _seat(1, "Qs Qd Qh 4c 4d 9s 2s", treasure=10, insurance=5, progressive_treasure=1),
        _seat(2, "Ks Kd 7h 7c 4h 4s 2h", treasure="12.50"),
    ]
    result = settle_bonuses(seats, DEALER)
    d = json.loads(json.dumps(result.to_dict()))
    first = d["seats"][0]
    assert [b["wager"] for b in first["bonuses"]] == [
        "insurance",
        "treasure",
        "progressive_treasure",
    ]
    treasure = first["bonuses"][1]
    assert {k: treasure[k] for k in ("wager", "amount", "event", "paytable", "row", "pays")} == {
        "wager": "treasure",
        "amount": 10,
        "event": "full-house",
        "paytable": "PT-FLT-EC-ET-01",
        "row": "Full House",
        "pays": "5 to 1",
    }
    assert (treasure["kind"], treasure["net"], treasure["uncapped_net"]) == ("to-1", 50, 50)
    assert isinstance(result.seat(1).to_dict()["net"], int)
    assert first["net"] == -5 + 50 + 4
    assert first["bonuses"][2]["event_cards"] == ["Qs", "Qh", "Qd", "4d", "4c"]
    assert d["seats"][1]["bonuses"][0]["kind"] == "push" and d["seats"][1]["net"] == 0
    assert d["meters"]["after"]["progressive_treasure"] == 0.25
    assert d["settings"]["treasure_table"] == "PT-FLT-EC-ET-01"
    assert result.explanation()[-1] == (
        "Emperor's Treasure Progressive meter: $0 + contributions $0.25 → $0.25"
    )


def test_settings_from_the_profile() -> None:
    assert BonusSettings.from_profile(load_profile()).to_dict() == BonusSettings().to_dict()
    profile = load_profile(rules=["treasure_table=PT-FLT-EC-ET-02", "envy_minimum=10"])
    settings = BonusSettings.from_profile(profile)
    assert settings.table_id(Wager.TREASURE) == "PT-FLT-EC-ET-02" and settings.envy_minimum == 10


def test_an_operator_table_settles() -> None:
    tables = load_paytables([DATA / "paytables_operator"])
    settings = BonusSettings(tables=_posting(treasure="HOUSE-ET-01"))
    seats = [_seat(1, "Ad Jd 8d 5d 3d Kc 9c", treasure=10)]
    result = settle_bonuses(seats, DEALER, settings, paytables=tables)
    assert result.seat(1).results[0].net == 40  # 5 for 1 on $10


@pytest.mark.parametrize(
    ("settings", "error", "message"),
    [
        (BonusSettings(tables=_posting(treasure="E01")), PayTableError, "E01 is for Envy Bonus"),
        (
            BonusSettings(tables=_posting(insurance="PT-NONE")),
            PayTableError,
            "unknown pay table 'PT-NONE'",
        ),
    ],
)
def test_bad_table_settings(settings: BonusSettings, error: type, message: str) -> None:
    with pytest.raises(error, match=message):
        settle_bonuses([_seat(1, "Ad Jd 8d 5d 3d Kc 9c", treasure=10)], DEALER, settings)


def test_a_malformed_operator_file_settles_nothing() -> None:
    with pytest.raises(PayTableError, match=r"unknown_event.yaml: table T1, row 2 \(full-hose\)"):
        tables = load_paytables([DATA / "paytables_bad" / "unknown_event.yaml"])
        settle_bonuses([_seat(1, "Ad Jd 8d 5d 3d Kc 9c", treasure=10)], DEALER, paytables=tables)


def test_bad_rounds() -> None:
    hand = "Ad Jd 8d 5d 3d Kc 9c"
    with pytest.raises(
        CardError, match="duplicate card Ad: in the hand of seat 1 and the hand of seat 2"
    ):
        settle_bonuses([_seat(1, hand), _seat(2, "Ad Ks Qs Js 9s 8s 7s")], DEALER)
    with pytest.raises(CardError, match="duplicate card 2c: in the dealer's hand and the hand"):
        settle_bonuses([_seat(1, "2c Ks Qs Js 9s 8s 7s")], DEALER)
    with pytest.raises(DealerError, match="seat 1 is listed twice"):
        settle_bonuses([_seat(1, hand), _seat(1, "As Ks Qs Js 9s 8s 7s")], DEALER)
    with pytest.raises(CardError, match="expected 7, got 6"):
        settle_bonuses([_seat(1, "Ad Jd 8d 5d 3d Kc")], DEALER)
    with pytest.raises(DealerError, match="caps are set for"):
        BonusSettings(caps={"base": Cap(D(1), None)})


# ------------------------------------------------------------------ the steps, each on its own
# `settle_bonuses` is `check_placed`, `classify_hands`, `contributions`, `settle_seat` (by way
# of `across_the_table` for Envy), `apply_caps`, `return_to_meters` and `group_by_seat`.

SEVEN_SF = "8s 9s Ts Js Qs Ks As"  # 100% of a Treasure progressive's meter; $1,000 Envy (E01)
FOUR_SEVENS = "7s 7d 7h 7c Kd 9h 3d"  # four of a kind: $5 Envy (E01)
FULL_HOUSE = "Qd Qh Qc 4c 4d 8h 2d"  # 5 to 1 on PT-FLT-EC-ET-01


def _round_hands(seats: list[SeatInput], settings: BonusSettings | None = None) -> RoundHands:
    settings = settings or BonusSettings()
    hands, dealer = classify_hands(seats, DEALER)
    library = shipped_paytables()
    tables = {w: library.get(settings.table_id(w), w) for w in BONUSES if w in settings.offered}
    return RoundHands(seats, hands, dealer, tables, settings)


def test_check_placed_counts_units_and_refuses_what_the_table_does_not_take() -> None:
    units = {"progressive_insurance": D(1), "progressive_treasure": D(5)}
    settings = BonusSettings(units=units)
    seats = [
        _seat(1, FULL_HOUSE, treasure=5, progressive_treasure=15),
        _seat(2, SEVEN_SF, progressive_insurance=2, progressive_treasure=0),
    ]
    assert check_placed(seats, settings) == {
        (1, "progressive_treasure"): 3,
        (2, "progressive_insurance"): 2,
    }
    with pytest.raises(DealerError, match=r"^seat 1: the progressive treasure wager \$7 is not"):
        check_placed([_seat(1, FULL_HOUSE, progressive_treasure=7)], settings)
    no_treasure = BonusSettings(offered=frozenset(BONUSES) - {Wager.TREASURE})
    with pytest.raises(DealerError, match="^seat 2: the treasure wager is not offered"):
        check_placed([_seat(2, FULL_HOUSE, treasure=5)], no_treasure)
    assert check_placed([_seat(2, FULL_HOUSE, treasure=0)], no_treasure) == {}


def test_classify_hands_gives_each_seat_s_events_and_the_dealer_s() -> None:
    hands, dealer = classify_hands([_seat(2, FULL_HOUSE), _seat(1, FOUR_SEVENS)], DEALER)
    assert {seat: events.events[0] for seat, events in hands.items()} == {
        2: "full-house",
        1: "four-of-a-kind",
    }
    assert dealer.events == ()


def test_contributions_go_in_before_any_pay_up_to_the_cap() -> None:
    seats = [
        _seat(1, SEVEN_SF, progressive_treasure=1, progressive_insurance=1),
        _seat(2, FULL_HOUSE, progressive_treasure=1),
    ]
    before = Meters(progressive_insurance=D(5000), progressive_treasure=D("249999.75"))
    added, now = contributions(seats, BonusSettings(), before)
    # 25% of each wager: 0.25 to insurance; 0.50 to treasure, of which its cap takes 0.25
    assert added == Meters(progressive_insurance=D("0.25"), progressive_treasure=D("0.25"))
    assert now == {"progressive_insurance": D("5000.25"), "progressive_treasure": D(250000)}


def test_settle_seat_settles_each_wager_as_the_registry_says() -> None:
    seats = [
        _seat(1, SEVEN_SF, insurance=5, insurance_on_dealer=True, progressive_treasure=1),
        _seat(2, FULL_HOUSE, treasure=10, insurance=5),
        _seat(3, FOUR_SEVENS, treasure=4),  # below the Envy minimum
    ]
    round_hands = _round_hands(seats)
    meters = {"progressive_insurance": D(5000), "progressive_treasure": D(12000)}
    units = {(1, "progressive_treasure"): 1}
    first = settle_seat(seats[0], round_hands, meters, units)
    assert [(r.wager, r.hand, r.event) for r in first] == [
        ("insurance", "dealer", None),  # declared on the dealer's hand: no pai gow there
        ("progressive_treasure", "own", "seven-card-straight-flush"),
    ]
    assert first[1].meter is not None and first[1].meter.before == D(12000)
    assert meters == {"progressive_insurance": D(5000), "progressive_treasure": D(10000)}
    second = settle_seat(seats[1], round_hands, meters, units)
    assert [(r.wager, r.hand, r.event, r.from_seat) for r in second] == [
        ("insurance", "own", None, None),
        ("treasure", "own", "full-house", None),
        ("envy", "seat 1", "seven-card-straight-flush", 1),
        ("envy", "seat 3", "four-of-a-kind", 3),
    ]
    assert [r.wager for r in settle_seat(seats[2], round_hands, meters, units)] == ["treasure"]


def test_across_the_table_pays_for_each_other_hand_its_table_lists() -> None:
    seats = [_seat(1, SEVEN_SF), _seat(2, FULL_HOUSE, treasure=5), _seat(3, FOUR_SEVENS)]
    round_hands = _round_hands(seats)
    table = round_hands.tables[Wager.ENVY]
    paid = across_the_table(Wager.ENVY, seats[1], round_hands, table)
    assert [(r.from_seat, r.net) for r in paid] == [(1, D(1000)), (3, D(5))]
    assert across_the_table(Wager.ENVY, seats[0], round_hands, table) == []  # no Treasure
    higher = _round_hands(seats, BonusSettings(envy_minimum=D(10)))
    assert across_the_table(Wager.ENVY, seats[1], higher, table) == []


def test_apply_caps_cuts_each_wager_type_s_winnings() -> None:
    seats = [_seat(1, FULL_HOUSE, treasure=100), _seat(2, FOUR_SEVENS, treasure=10)]
    round_hands = _round_hands(seats)
    results = [r for s in seats for r in settle_seat(s, round_hands, {}, {})]
    assert [(r.wager, r.net) for r in results] == [
        ("treasure", D(500)),
        ("envy", D(5)),
        ("treasure", D(200)),  # four of a kind: 20 to 1
    ]
    caps = {"treasure": Cap(None, D(350)), "envy": Cap(D(1), None)}
    capped = apply_caps(results, BonusSettings(caps=caps))
    assert [r.net for r in capped] == [D(250), D(1), D(100)]
    assert capped[1].caps[0].startswith("capped at the Envy Bonus maximum of $1 per hand")
    assert apply_caps(results, BonusSettings()) == results


def test_return_to_meters_puts_back_what_a_cap_kept_from_a_meter_pay() -> None:
    seats = [_seat(1, SEVEN_SF, progressive_treasure=1), _seat(2, FULL_HOUSE, treasure=10)]
    meters = {"progressive_insurance": D(5000), "progressive_treasure": D(20000)}
    results = settle_seat(seats[0], _round_hands(seats), meters, {(1, "progressive_treasure"): 1})
    assert meters["progressive_treasure"] == D(10000) and results[0].net == D(19999)
    cut = [replace(results[0], net=D(1000))]
    back, after = return_to_meters(cut, meters)
    assert after == {"progressive_insurance": D(5000), "progressive_treasure": D(28999)}
    assert back[0].meter is not None and back[0].meter.returned == D(18999)
    assert return_to_meters(results, meters) == (results, meters)


def test_group_by_seat_lists_each_seat_s_rulings_in_the_order_of_wager() -> None:
    seats = [_seat(2, FULL_HOUSE, treasure=10, insurance=5), _seat(1, FOUR_SEVENS, treasure=5)]
    round_hands = _round_hands(seats)
    results = [r for s in seats for r in settle_seat(s, round_hands, {}, {})]
    shuffled = results[::-1]
    grouped = group_by_seat(shuffled, sorted(seats, key=lambda s: s.seat), round_hands.hands)
    assert [(g.seat, [r.wager for r in g.results]) for g in grouped] == [
        (1, ["treasure"]),
        (2, ["insurance", "treasure", "envy"]),
    ]
    assert grouped[0].events == round_hands.hands[1]
