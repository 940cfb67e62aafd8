"""Exact pay-table returns: the published 2006 Emperor's Challenge analysis, the shipped tables
against the settlement's own per-hand rulings (random hands of the full deck, and every hand of
small decks), the fall-through of rows a table does not offer, and the money of each pay kind."""

from __future__ import annotations

import csv
import itertools
import random
from collections import Counter
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import pytest
import yaml

from dealer.analysis.exact import PAYTABLE_ORDER, DeckComposition, count_deck_events, count_events
from dealer.analysis.paytable_return import (
    NOTHING,
    analyze_paytable,
    holds,
    row_net,
    settling_row,
)
from dealer.games.paigow.bonus import settle_wager
from dealer.games.paigow.events import SevenCardEvents, classify
from dealer.games.paigow.pay import PROGRESSIVES, Pay
from dealer.games.paigow.paytables import PayRow, PayTable, shipped_paytables
from dealer.games.paigow.profile import load_profile
from dealer.kernel.cards import DECK, JOKER, Card
from dealer.kernel.errors import DealerError, PayTableError

DATA = Path(__file__).parent / "data"
HANDS = 154_143_080
METERS = {name: load_profile().meters[name].seed for name in PROGRESSIVES}
"""Each meter at its seed in the shipped profile."""


def table_from_yaml(path: Path) -> PayTable:
    """A schema-1 pay-table file's first table, built without the wager-type checks (the 2006
    table pays poker events and pai gows together, which no shipped wager type allows)."""
    raw = yaml.safe_load(path.read_text(encoding="utf-8"))["tables"][0]
    rows = tuple(
        PayRow(
            i,
            r["event"],
            r["label"],
            Pay(r["kind"], None if r.get("value") is None else Decimal(str(r["value"]))),
        )
        for i, r in enumerate(raw["rows"], 1)
    )
    return PayTable(raw["id"], raw["wager"], raw["name"], raw["basis"], rows, (), "", str(path))


def synthetic(
    table_id: str, wager: str, basis: str, rows: list[tuple[str, str, int | str | None]]
) -> PayTable:
    """A pay table from (event, kind, value) triples."""
    return PayTable(
        table_id,
        wager,
        table_id,
        basis,
        tuple(
            PayRow(i, e, e, Pay(k, None if v is None else Decimal(v)))
            for i, (e, k, v) in enumerate(rows, 1)
        ),
        (),
        "",
        "",
    )


EC_2006 = table_from_yaml(DATA / "emperors_challenge_2006.yaml")


def published_2006() -> list[list[str]]:
    with open(DATA / "emperors_challenge_2006_published.tsv", encoding="utf-8") as f:
        rows = [r for r in csv.reader(f, delimiter="\t") if r and not r[0].startswith("#")]
    return rows[1:]


# ------------------------------------------------------------------ the published 2006 table


def test_2006_table_reproduces_the_published_analysis() -> None:
    analysis = analyze_paytable(EC_2006)
    got = {(line.row.event if line.row else "no-pay"): line for line in analysis.lines}
    for event, combinations, share in published_2006():
        if event == "total":
            assert analysis.hands == int(combinations) == HANDS
            assert round(float(analysis.return_), 6) == float(share)
            continue
        assert got[event].combinations == int(combinations), event
        assert round(float(analysis.contribution(got[event])), 6) == float(share), event


def test_2006_table_return_is_exact() -> None:
    analysis = analyze_paytable(EC_2006)
    # 5000*32 + 1000*196 + 500*1128 + 150*26092 + 50*184644 + 25*307472 + 5*4188528
    # + 4*6172088 + 3*7672500 + 2*11034204 + 40*31080 + 5*248640 + 2*963480 - 123312996
    assert analysis.return_ == Fraction(-6_429_936, HANDS) == Fraction(-803742, 19267885)
    assert analysis.house_edge == -analysis.return_


def test_2006_table_folds_suited_ak_into_the_royal_and_both_nines_into_9_high() -> None:
    lines = {
        line.row.event: dict(line.classes) for line in analyze_paytable(EC_2006).lines if line.row
    }
    assert lines["royal-flush"] == {"royal-flush-with-suited-ak": 72, "royal-flush": 26020}
    assert lines["9-high-pai-gow"] == {
        "9-high-pai-gow-one-color": 280,
        "9-high-pai-gow-two-tone": 30800,
    }


def test_trips_rank_above_the_straight_in_the_tables() -> None:
    lines = {line.row.event: line for line in analyze_paytable(EC_2006).lines if line.row}
    assert lines["three-of-a-kind"].combinations == 7_672_500
    assert lines["straight"].combinations == 11_034_204
    poker = count_events("poker")
    assert (poker["three-of-a-kind"], poker["straight"]) == (7_470_676, 11_236_028)


# ------------------------------------------------------------------ the shipped tables


SHIPPED = list(shipped_paytables())


@pytest.mark.parametrize("table", SHIPPED, ids=lambda t: t.id)
def test_every_shipped_table_accounts_for_every_hand(table: PayTable) -> None:
    analysis = analyze_paytable(table, meter=METERS.get(table.wager))
    assert sum(line.combinations for line in analysis.lines) == HANDS
    assert analysis.return_ == sum(analysis.contribution(line) for line in analysis.lines)
    assert 0 < analysis.hit_frequency < 1


def test_treasure_02_house_edge_is_the_contract_example() -> None:
    analysis = analyze_paytable(shipped_paytables().get("PT-FLT-EC-ET-02"))
    assert round(float(analysis.house_edge), 6) == 0.077656


def direct_return(table: PayTable, meter: Decimal | None) -> Fraction:
    """Return of a table offering every class of its hands directly: pay × count, summed."""
    counts = count_events("paytable")
    total = Fraction(0)
    paid = 0
    for row in table.rows:
        n = counts.get(row.event, 0)
        if row.event == "9-high-pai-gow":
            n = counts["9-high-pai-gow-one-color"] + counts["9-high-pai-gow-two-tone"]
        value = Fraction(row.pay.value) if row.pay.value is not None else Fraction(0)
        if row.pay.kind == "percent-of-meter":
            assert meter is not None
            value = Fraction(meter) * value / 100
        net = {
            "to-1": value,
            "for-1": value - 1,
            "push": Fraction(0),
            "loss": Fraction(-1),
        }.get(row.pay.kind, value - 1 if table.basis == "for-1" else value)
        if table.wager == "envy":
            net = value
        total += net * n
        paid += n
    if table.wager != "envy":
        total -= HANDS - paid
    return total / HANDS


@pytest.mark.parametrize(
    "table",
    [t for t in SHIPPED if t.id != "PT-BJS-EC-ET-03"],
    ids=lambda t: t.id,
)
def test_tables_without_fall_through_match_pay_times_count(table: PayTable) -> None:
    meter = METERS.get(table.wager)
    assert analyze_paytable(table, meter=meter).return_ == direct_return(table, meter)


def test_progressive_treasure_03_pays_suited_ak_hands_as_royal_flushes() -> None:
    table = shipped_paytables().get("PT-BJS-EC-ET-03")
    analysis = analyze_paytable(table, meter=Decimal(10000))
    royal = next(line for line in analysis.lines if line.row and line.row.event == "royal-flush")
    assert dict(royal.classes) == {"royal-flush-with-suited-ak": 72, "royal-flush": 26020}
    assert royal.net == Decimal(499)  # $500 for the $1 wager, "for 1"
    na = next(line for line in analysis.lines if line.row and line.row.pay.kind == "not-offered")
    assert na.combinations == 0
    assert any("royal-flush-with-suited-ak" in line for line in analysis.explanation())


def test_meter_moves_the_return_of_a_progressive() -> None:
    table = shipped_paytables().get("PT-BJS-EC-PGI-01")
    low = analyze_paytable(table, meter=Decimal(5000)).return_
    high = analyze_paytable(table, meter=Decimal(25000)).return_
    # one-colour 9-high hands take 100%, two-tone 10% of the meter: 280 + 30800/10 per $1
    assert high - low == Fraction(20000 * (280 + 3080), HANDS)


def test_envy_is_the_pay_per_other_players_hand() -> None:
    table = shipped_paytables().get("E01")
    analysis = analyze_paytable(table, wager=Decimal(5))
    counts = count_events("paytable")
    expected = (
        1000 * counts["seven-card-straight-flush"]
        + 250 * counts["royal-flush-with-suited-ak"]
        + 100 * counts["seven-card-straight-flush-with-joker"]
        + 50 * counts["five-aces"]
        + 25 * counts["royal-flush"]
        + 10 * counts["straight-flush"]
        + 5 * counts["four-of-a-kind"]
    )
    assert analysis.return_ == Fraction(expected, HANDS)  # the wager plays no part
    assert analysis.to_dict()["wager"] is None
    assert analysis.lines[-1].net == 0  # no Envy is no loss: there is no wager


# ------------------------------------------------------------------ against the per-hand rulings


def hand_class(events: SevenCardEvents) -> str:
    """The class `dealer.analysis.exact` counts a hand under: its highest event."""
    return next((e for e in events.events if e in PAYTABLE_ORDER), NOTHING)


def ruled_net(table: PayTable, events: SevenCardEvents, wager: Decimal) -> Decimal:
    """What the settlement pays one hand."""
    amount = wager if table.has_wager else Decimal(0)
    meter = METERS.get(table.wager)
    return settle_wager(table.wager, amount, events, table, meter=meter, seed=meter).net


def royal_with_suited_ak_hands() -> list[tuple[Card, ...]]:
    """All 72: a royal (natural, or the joker for one card) and a natural A-K of another suit."""
    hands = []
    for suit in range(4):
        royal = [Card(r, suit) for r in range(10, 15)]
        for other in (s for s in range(4) if s != suit):
            ak = [Card(14, other), Card(13, other)]
            hands.append((*royal, *ak))
            for i in range(5):
                hands.append((*royal[:i], JOKER, *royal[i + 1 :], *ak))
    return hands


def test_there_are_72_royal_flushes_with_suited_ak() -> None:
    hands = royal_with_suited_ak_hands()
    assert len(set(map(frozenset, hands))) == 72 == count_events()["royal-flush-with-suited-ak"]
    assert {hand_class(classify(h)) for h in hands} == {"royal-flush-with-suited-ak"}


@pytest.mark.slow
@pytest.mark.parametrize("wager", [Decimal(1), Decimal("2.50")])
def test_analysis_nets_match_the_settlement_hand_by_hand(wager: Decimal) -> None:
    rnd = random.Random(7)
    hands = [tuple(rnd.sample(DECK, 7)) for _ in range(1500)] + royal_with_suited_ak_hands()
    tables = [*SHIPPED, EC_2006]
    by_class: dict[str, int] = {}
    for hand in hands:
        events = classify(hand)
        klass = hand_class(events)
        for table in tables:
            row = settling_row(table, klass)
            net = row_net(
                row, table, wager if table.has_wager else Decimal(0), METERS.get(table.wager)
            )
            assert net == ruled_net(table, events, wager), (table.id, hand)
        by_class[klass] = by_class.get(klass, 0) + 1
    assert len(by_class) >= 12  # the sample reaches the common classes and the rare one


@pytest.mark.slow
def test_sample_frequencies_agree_with_the_exact_counts() -> None:
    rnd = random.Random(11)
    n = 20_000
    seen = Counter(hand_class(classify(rnd.sample(DECK, 7))) for _ in range(n))
    counts = count_events("paytable")
    for klass, exact in counts.items():
        p = exact / HANDS
        sd = (p * (1 - p) / n) ** 0.5
        assert abs(seen[klass] / n - p) <= 5 * sd + 1 / n, klass


SMALL_DECKS = [
    DeckComposition(
        ranks=(10, 11, 12, 13, 14), suits=(0, 1, 2, 3), joker=True
    ),  # five aces, quads, A-K
    DeckComposition(
        ranks=(14, 2, 3, 4, 5, 6, 7, 8, 9), suits=(0, 3), joker=True
    ),  # 7-card SF, one colour
    DeckComposition(ranks=(2, 3, 4, 5, 6, 7, 8, 9), suits=(0, 2), joker=True),  # two-tone 9-high
    DeckComposition(
        ranks=(8, 9, 10, 11, 12, 13, 14), suits=(0, 1), joker=True
    ),  # 8-A runs, suited A-K
]


def deck_hand_events(deck: DeckComposition) -> Counter[tuple[str, ...]]:
    cards = [Card(r, s) for r in deck.ranks for s in deck.suits] + ([JOKER] if deck.joker else [])
    found: Counter[tuple[str, ...]] = Counter()
    for hand in itertools.combinations(cards, 7):
        found[classify(hand).events] += 1
    return found


ROYAL_NOT_OFFERED = synthetic(
    "ROYAL-NA",
    "treasure",
    "to-1",
    [
        ("seven-card-straight-flush", "to-1", 1000),
        ("royal-flush", "not-offered", None),
        ("straight-flush", "to-1", 40),
        ("four-of-a-kind", "to-1", 20),
        ("full-house", "for-1", 6),
        ("flush", "to-1", 4),
        ("three-of-a-kind", "to-1", 3),
        ("straight", "to-1", 2),
        ("three-pair", "push", None),
    ],
)


@pytest.mark.slow
@pytest.mark.parametrize("deck", SMALL_DECKS, ids=lambda d: f"{len(d.ranks)}x{len(d.suits)}")
def test_every_hand_of_small_decks_matches_the_settlement(deck: DeckComposition) -> None:
    found = deck_hand_events(deck)
    counts = count_deck_events(deck, "paytable")
    tables = [*SHIPPED, EC_2006, ROYAL_NOT_OFFERED]
    for table in tables:
        analysis = analyze_paytable(table, Decimal(1), METERS.get(table.wager), counts)
        ruled = Fraction(0)
        for events, n in found.items():
            hand = SevenCardEvents((), events, {e: () for e in events}, None, False)
            ruled += Fraction(ruled_net(table, hand, Decimal(1))) * n
        assert analysis.expected_net * deck.hands == ruled, table.id


# ------------------------------------------------------------------ fall-through rules


@pytest.mark.parametrize(
    ("klass", "event", "held"),
    [
        ("royal-flush-with-suited-ak", "royal-flush", True),
        ("royal-flush-with-suited-ak", "five-aces", False),
        ("royal-flush-with-suited-ak", "seven-card-straight-flush-with-joker", False),
        ("royal-flush-with-suited-ak", "full-house", None),
        ("seven-card-straight-flush", "royal-flush", None),
        ("seven-card-straight-flush", "straight-flush", True),
        ("royal-flush", "straight-flush", True),
        ("royal-flush", "four-of-a-kind", None),
        ("five-aces", "four-of-a-kind", True),
        ("five-aces", "flush", False),
        ("full-house", "flush", None),
        ("flush", "royal-flush", False),
        ("9-high-pai-gow-one-color", "9-high-pai-gow", True),
        ("9-high-pai-gow-two-tone", "9-high-pai-gow-one-color", False),
        ("ace-high-pai-gow", "king-high-pai-gow", False),
        ("three-pair", "ace-high-pai-gow", False),
        ("ace-high-pai-gow", "three-pair", False),
        ("nothing", "three-pair", False),
    ],
)
def test_holds(klass: str, event: str, held: bool | None) -> None:
    assert holds(klass, event) is held


def test_a_class_settling_on_different_rows_is_refused() -> None:
    table = synthetic(
        "SF7-NA",
        "treasure",
        "to-1",
        [("seven-card-straight-flush", "not-offered", None), ("royal-flush", "to-1", 100)],
    )
    with pytest.raises(PayTableError, match="only some seven-card-straight-flush hands"):
        analyze_paytable(table)


# ------------------------------------------------------------------ money of each pay kind


@pytest.mark.parametrize(
    ("basis", "kind", "value", "wager", "meter", "net"),
    [
        ("to-1", "to-1", "5", "1", None, "5"),
        ("to-1", "to-1", "5", "2.50", None, "12.50"),
        ("to-1", "to-1", "1.5", "0.05", None, "0.07"),  # rounded down to the cent
        ("for-1", "for-1", "250", "1", None, "249"),
        ("for-1", "fixed", "125", "1", None, "124"),
        ("to-1", "fixed", "125", "1", None, "125"),
        ("for-1", "percent-of-meter", "10", "1", "25000", "2499"),
        ("for-1", "percent-of-meter", "10", "1", "1234.56", "122.45"),
        ("to-1", "push", None, "5", None, "0"),
        ("to-1", "loss", None, "5", None, "-5"),
        ("fixed", "fixed", "250", "0", None, "250"),
    ],
)
def test_row_net(
    basis: str, kind: str, value: str | None, wager: str, meter: str | None, net: str
) -> None:
    table = synthetic("T", "treasure", basis, [("full-house", kind, value)])
    row = table.rows[0]
    got = row_net(row, table, Decimal(wager), None if meter is None else Decimal(meter))
    assert got == Decimal(net)


def test_no_row_loses_the_wager() -> None:
    table = synthetic("T", "treasure", "to-1", [("full-house", "to-1", 5)])
    assert row_net(None, table, Decimal(3), None) == Decimal(-3)


def test_a_meter_row_needs_the_meter() -> None:
    table = shipped_paytables().get("PT-BJS-EC-ET-01")
    with pytest.raises(DealerError, match="give the meter"):
        analyze_paytable(table)


def test_wager_must_be_positive() -> None:
    with pytest.raises(DealerError, match="above zero"):
        analyze_paytable(EC_2006, wager=Decimal(0))


def test_json_carries_the_contract_keys() -> None:
    out = analyze_paytable(shipped_paytables().get("PT-FLT-EC-ET-01")).to_dict()
    assert out["paytable"] == "PT-FLT-EC-ET-01"
    assert out["hands"] == HANDS
    assert isinstance(out["house_edge"], float)
    first = out["events"][0]
    assert set(first) >= {"event", "combinations", "pays", "return"}
    assert first == {
        **first,
        "event": "seven-card-straight-flush",
        "combinations": 32,
        "pays": "5,000 to 1",
        "net": 5000,
    }
    push = next(e for e in out["events"] if e["event"] == "three-pair")
    assert (push["pays"], push["return"], push["combinations"]) == ("Push", 0.0, 2_862_000)
    assert out["events"][-1]["event"] is None
