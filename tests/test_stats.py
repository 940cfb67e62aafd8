"""`dealer stats`: the figures against the records (a log on both backends, and random rounds),
a planted run flagged and a fair table not, the bonus expectation against the exact analysis,
z and the interval by hand, and each patron's play against hands whose best setting is known."""

from __future__ import annotations

import json
import math
import random
from collections.abc import Callable
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from cli import run
from hypothesis import given, settings
from hypothesis import strategies as st
from log_reads import ruling_record

from dealer.analysis.exact import count_events
from dealer.analysis.house_edge import StrategyEdge
from dealer.analysis.paytable_return import analyze_paytable
from dealer.analysis.stats import (
    METER_REACH,
    Expectation,
    MeterFigures,
    base_unit_figures,
    binomial_upper_tail,
    paytable_figures,
)
from dealer.audit import corrections, open_log, sign_ins, staff
from dealer.audit.records import Record
from dealer.desk.shift import InEffect, shift_summary
from dealer.desk.stats import Judge, Read, Statistics, floor_of, summed
from dealer.desk.stats_sources import Sources, _read_counts
from dealer.games.paigow.bonus import Meters
from dealer.games.paigow.demo import deal_demo_round
from dealer.games.paigow.paytables import shipped_paytables
from dealer.games.paigow.profile import load_profile
from dealer.games.paigow.seat_rulings import round_ruling
from dealer.kernel.cards import DECK

ROUNDS = "5000"
"""Simulated rounds in these tests (one chunk: about half a second, then cached)."""
PIN = "lantern-2468"

# Three hands where the House Way's setting pushes and another setting wins both hands (found by
# trying every setting; each best setting is settled below and wins $10 at a $10 wager).
HANDS = {
    "A": ("Tc 8s Ts Kd 5h 2h 9d", "Qh Td 6h Th 7d Ac 3c", "Qh Td Th 7d 3c", "6h Ac"),
    "B": ("Td 8s 2s 9h 7c 2c Ah", "4c 2h 3s Kh 3c Ad Kc", "4c 2h Kh Ad Kc", "3s 3c"),
    "C": ("8h 8c 7c Ts Jd 6s Qc", "9s Td Qs Ks 9h 2d Jh", "9s Qs 9h 2d Jh", "Td Ks"),
}
DEALER_PIN = "harbor-1357"
"""The PIN of the dealers d-1 to d-4, each signed in at the table they deal."""
FOUL_C = ("Td Jh Qs Ks 2d", "9s 9h")
"""Hand C set with its low hand above its high: a foul, forfeited (−$10)."""


def rule(db: Path | str, *args: str, stdin: str | None = None, user: str = "d-1") -> Any:
    result = run(*args, "--json", "--db", str(db), "--user", user, stdin=stdin)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def stats(db: Path | str, group: str, *more: str) -> dict[str, Any]:
    result = run("stats", group, "--json", "--db", str(db), "--rounds", ROUNDS, *more)
    assert result.exit_code == 0, result.output
    out: dict[str, Any] = json.loads(result.stdout)
    return out


def settle(db: Path | str, table: str, patron: str, hand: str, how: str, **kw: str) -> Any:
    dealer, cards, high, low = HANDS[hand]
    setting = {
        "best": ("--high", high, "--low", low),
        "house-way": ("--player", cards),
        "foul": ("--high", FOUL_C[0], "--low", FOUL_C[1]),
    }[how]
    return rule(
        db,
        "paigow",
        "settle",
        "--dealer",
        dealer,
        *setting,
        "--wager",
        "10",
        "--patron",
        patron,
        "--table",
        table,
        user=kw.get("user", "d-1"),
    )


def fair_round(deal: random.Random, table: str) -> str:
    """A round of six seats dealt from `deal`, every hand set by the House Way."""
    cards = [str(c) for c in deal.sample(DECK, 49)]
    seats = "\n".join(
        f"  - {{seat: {s + 1}, cards: {' '.join(cards[7 + 7 * s : 14 + 7 * s])}, "
        f"wagers: {{base: 10, treasure: 5}}}}"
        for s in range(6)
    )
    return f"table: {table}\ndealer: {' '.join(cards[:7])}\nseats:\n{seats}\n"


@pytest.fixture(scope="module")
def floor(new_log: Callable[[], Path | str]) -> dict[str, Any]:
    """A log: patrons' play at PG-P, a planted run of wins at PG-HOT (one of them voided), one
    House Way hand at PG-ONE, and 30 fair rounds of six seats at PG-FAIR, each table's rulings
    made by a dealer signed in there (the statistics by dealer count no other)."""
    db = new_log()
    ids: dict[str, int] = {}
    with open_log(db) as log:
        staff.add_user(log, "sup-1", "supervisor", pin=PIN)
        for number, table in enumerate(("PG-P", "PG-HOT", "PG-ONE", "PG-FAIR"), 1):
            dealer = f"d-{number}"
            staff.add_user(
                log, dealer, "dealer", pin=DEALER_PIN, supervisor_id="sup-1", supervisor_pin=PIN
            )
            sign_ins.sign_in(log, dealer, DEALER_PIN, table)
    for hand in "ABC":
        settle(db, "PG-P", "P-BEST", hand, "best")
    for hand in "AB":
        settle(db, "PG-P", "P-HW", hand, "house-way")
    settle(db, "PG-P", "P-MIX", "A", "best")
    settle(db, "PG-P", "P-MIX", "B", "house-way")
    settle(db, "PG-P", "P-MIX", "C", "foul")
    hot = [settle(db, "PG-HOT", "P-LUCKY", "ABC"[i % 3], "best", user="d-2") for i in range(24)]
    ids["one"] = settle(db, "PG-ONE", "P-ONE", "A", "house-way", user="d-3")["ruling_id"]
    deal = random.Random(7)
    for _ in range(30):
        rule(db, "round", "-", stdin=fair_round(deal, "PG-FAIR"), user="d-4")
    with open_log(db) as log:
        ids["voided"] = hot[0]["ruling_id"]
        corrections.void(log, ids["voided"], reason="misdeal", supervisor_id="sup-1", pin=PIN)
    return {"db": db, "ids": ids}


def _rows(out: dict[str, Any], group: str, key: str) -> dict[str, dict[str, Any]]:
    return {row[key]: row for row in out[group]}


def test_table_figures_are_the_shift_summarys(floor: dict[str, Any]) -> None:
    """Wagered and the house result of each table are the shift summary's (voids left out);
    rounds count the seats of one deal once."""
    tables = _rows(stats(floor["db"], "tables"), "tables", "table")
    assert set(tables) == {"PG-P", "PG-HOT", "PG-ONE", "PG-FAIR"}
    for table, row in tables.items():
        summary = shift_summary(floor["db"], table)
        assert Decimal(str(row["wagered"])) == summary.total_wagered
        assert Decimal(str(row["house_result"])) == summary.house_result
        assert row["rulings"] == len(summary.rounds) + len(summary.settles)
    assert tables["PG-HOT"]["rulings"] == 23  # the voided one left out
    assert tables["PG-HOT"]["house_result"] == -230
    assert tables["PG-FAIR"]["rounds"] == 30 and tables["PG-FAIR"]["seats"] == 180


def test_planted_run_flagged_fair_table_not(floor: dict[str, Any]) -> None:
    """23 wins in a row at PG-HOT are far outside the interval; 30 fair rounds at PG-FAIR are
    not; the flag names the figures and rulings behind it."""
    tables = _rows(stats(floor["db"], "tables"), "tables", "table")
    assert tables["PG-HOT"]["flag"] and tables["PG-HOT"]["z"] < -4
    assert not tables["PG-FAIR"]["flag"] and abs(tables["PG-FAIR"]["z"]) < 1.96
    flags = stats(floor["db"], "flags")["flags"]
    hot = [f for f in flags if f.get("table") == "PG-HOT" and f["kind"] == "table"]
    assert len(hot) == 1
    assert hot[0]["figures"]["house_result"] == -230
    assert floor["ids"]["voided"] not in hot[0]["rulings"] and hot[0]["rulings"]
    assert not any(f.get("table") == "PG-FAIR" and f["kind"] == "table" for f in flags)
    dealers = {f["user"] for f in flags if f["kind"] == "dealer"}
    assert "d-2" in dealers and "d-4" not in dealers


def test_z_and_standard_error_by_hand(floor: dict[str, Any]) -> None:
    """One $10 base wager set by the House Way: expected = 10 × the simulated edge, standard
    error = √(10² × variance + (10 × the edge's standard error)²), z = (result − expected) / SE,
    the interval expected ± 1.96 SE."""
    out = stats(floor["db"], "tables")
    row = _rows(out, "tables", "table")["PG-ONE"]
    (source,) = [s for s in out["sources"] if s["source"] in row["expected_by_source"]]
    assert source["method"] == "simulation" and source["player"] == "house-way"
    assert source["rounds"] == int(ROUNDS)
    expected = 10 * source["house_edge"]
    se = math.sqrt(100 * source["variance"] + (10 * source["standard_error"]) ** 2)
    assert row["expected_house_result"] == pytest.approx(expected, abs=0.005)
    assert row["standard_error"] == pytest.approx(se, abs=0.005)
    assert row["house_result"] == 0  # the House Way pushes hand A
    assert row["z"] == pytest.approx((0 - expected) / se, abs=1e-3)
    assert row["interval"] == pytest.approx([expected - 1.96 * se, expected + 1.96 * se], abs=0.02)


def test_patrons_play(floor: dict[str, Any]) -> None:
    """The patron who always sets the best outcome costs nothing; the one who asks for the House
    Way costs the House Way's shortfall ($10 a hand here); the mix costs exactly 0 + 10 + 20."""
    patrons = _rows(stats(floor["db"], "patrons"), "patrons", "patron")
    best, house, mix = patrons["P-BEST"], patrons["P-HW"], patrons["P-MIX"]
    assert (best["play_cost"], best["best_share"], best["own_hands"]) == (0, 1.0, 3)
    assert best["house_result"] == -30 and best["against_house_way"] == 30
    assert (house["play_cost"], house["best_share"], house["own_hands"]) == (20, 0.0, 0)
    assert house["theo_source"] == "house-way"
    assert (mix["play_cost"], mix["own_hands"], mix["hands"]) == (30, 2, 3)
    assert mix["best_share"] == pytest.approx(1 / 3, abs=1e-4)
    assert mix["against_house_way"] == 10 + 0 - 10  # A won where the House Way pushed; C lost
    assert mix["theo_source"] == "best-reply"
    assert mix["average_bet"] == 10
    best_edge = best["demonstrated_edge"]
    assert mix["demonstrated_edge"] == pytest.approx(best_edge + 30 / 30, abs=1e-6)


def test_period_and_usage(floor: dict[str, Any]) -> None:
    """--period with --since is a usage error; a year holding the rulings counts them; a
    confidence outside (0, 1) is refused."""
    both = run("stats", "tables", "--db", str(floor["db"]), "--period", "day", "--since", "2026")
    assert both.exit_code == 2
    bad = run("stats", "tables", "--db", str(floor["db"]), "--confidence", "1.5")
    assert bad.exit_code == 1 and "confidence" in bad.output
    past = stats(floor["db"], "tables", "--period", "year", "--date", "2001-06-01")
    assert past["tables"] == [] and past["since"] == "2001-01-01T00:00:00.000000Z"


def _records(rounds: list[Any]) -> list[Record]:
    """Rulings as the log keeps them (JSON as stored), ids from 1, a minute apart."""
    return [ruling_record(i, ruling) for i, ruling in enumerate(rounds, 1)]


def _read(records: list[Record], voided: frozenset[int] = frozenset()) -> Statistics:
    """The statistics of `records` (those of `voided` voided) read from the records, as the
    statistics read the rulings their log's sums do not cover."""
    sources = Sources({}, int(ROUNDS), 26)
    read = Read()
    read.records(records, InEffect(frozenset(voided), {}, {}), Judge(sources))
    return summed(floor_of(read.numbers, sources), None, None, 0.95, read.voided)


@settings(max_examples=8, deadline=None)
@given(seeds=st.lists(st.integers(0, 2**32), min_size=1, max_size=4), drop=st.integers(0, 3))
def test_sums_are_the_records(seeds: list[int], drop: int) -> None:
    """For random rounds (one voided), wagered and the house result are the sums over the
    records of every wager's amount and minus every net."""
    profile = load_profile()
    rulings = [
        round_ruling(deal_demo_round(s, "PG-9", profile), "demo", profile, Meters())[0]
        for s in seeds
    ]
    records = _records(rulings)
    voided = frozenset({drop + 1} if drop + 1 < len(records) else ())  # one counted at least
    row = _read(records, voided).groups["tables"][0].figures
    wagered = house = Decimal(0)
    for record in records:
        if record.id in voided:
            continue
        for seat in record.result["seats"]:
            wagered += Decimal(str(seat["base"]["wager"]))
            wagered += sum(Decimal(str(b["amount"])) for b in seat["bonuses"])
            house -= Decimal(str(seat["total_net"]))
    assert Decimal(str(row["wagered"])) == wagered
    assert Decimal(str(row["house_result"])) == house
    assert row["rulings"] == len(records) - len(voided)


def test_bonus_expectation_is_the_exact_analysis() -> None:
    """Treasure wagers of $5 and $7: their expected house result is minus the exact analysis's
    mean net at each amount, and their variance its own."""
    profile = load_profile()
    raw = {
        "dealer": "2c 3d 5h 8s 9c Jd Kh",
        "seats": [
            {"seat": 1, "cards": "Qs Qh 4d 4c 6s 7h 9d", "wagers": {"base": 10, "treasure": 5}},
            {"seat": 2, "cards": "As Ah 3c 6c 7c Td Jc", "wagers": {"base": 10, "treasure": 7}},
        ],
    }
    ruling, _ = round_ruling(raw, "round", profile, Meters())
    row = _read(_records([ruling])).groups["tables"][0].figures
    table = shipped_paytables().get(profile.table_id("treasure"))
    envy = shipped_paytables().get(profile.table_id("envy"))
    exact = -sum((analyze_paytable(table, Decimal(a)).expected_net for a in (5, 7)), Fraction(0))
    envy_each = -analyze_paytable(envy).expected_net  # each seat's Treasure is at the minimum
    name = f"exact:{table.id}@{table.sha256[:12]}"
    assert row["expected_by_source"][name] == float(round(exact, 2))
    envy_name = f"exact:{envy.id}@{envy.sha256[:12]}"
    assert row["expected_by_source"][envy_name] == float(round(2 * envy_each, 2))


@pytest.mark.parametrize("meter", ["0", "2500.37", "118004.99", "1000000"])
@pytest.mark.parametrize("units", [1, 3])
def test_a_progressive_wager_is_figured_at_any_meter_from_one_line(meter: str, units: int) -> None:
    """A progressive wager's figures at a meter, read off its `MeterFigures`, are the exact
    analysis at that meter but for the cent a share of the meter is rounded down to: equal at
    the two meters the line is drawn through, within a cent a hit elsewhere (the shipped
    tables' meter rows are hit in under one hand in a thousand, so the mean is within a
    thousandth of a cent of it), the variance to a ten-thousandth.
    """
    table = next(t for t in shipped_paytables() if any(r.pay.from_meter for r in t.rows))
    amount, at = Decimal(5), Decimal(meter)

    def exact(m: Decimal) -> tuple[Decimal, float]:
        return paytable_figures(analyze_paytable(table, amount, m, units=units))

    line = MeterFigures.of(
        exact_analysis(table, amount, Decimal(0), units),
        exact_analysis(table, amount, METER_REACH, units),
    )
    expected, variance = line.at(at)
    want_expected, want_variance = exact(at)
    if at in (Decimal(0), METER_REACH):
        assert (expected, variance) == (want_expected, pytest.approx(want_variance, rel=1e-12))
    else:
        assert abs(expected - want_expected) < Decimal("0.00001")
        assert variance == pytest.approx(want_variance, rel=1e-4)  # a cent on a meter pay
    assert line.at(at + 100)[0] < expected  # a bigger meter: the house expects less


def exact_analysis(table: Any, amount: Decimal, meter: Decimal, units: int) -> Any:
    """The exact analysis of `amount` (`units` units) on `table` at `meter`."""
    return analyze_paytable(table, amount, meter, units=units)


def test_base_figures_from_a_tally_by_hand() -> None:
    """A tally of 10 rounds: 3 wins (1 against an ace-high pai gow), 2 pushes, 5 losses; at
    half-pay the net per unit is (2 × 1 + 0.5 − 5) / 10 = −0.25: edge 0.25; the variance is
    E[net²] − mean² = (2 + 0.25 + 5) / 10 − 0.0625."""
    counts = ((5, 0, 0), (2, 0, 0), (2, 1, 0))  # [lose, push, win][no / ace-high / king pai gow]
    figures = base_unit_figures(StrategyEdge("w", "1", "house-way", counts), "half-pay")
    assert figures.edge == Decimal("0.25")
    assert figures.variance == pytest.approx(0.725 - 0.0625)


def test_expectation_and_binomial_by_hand() -> None:
    """Two wagers: variances add; a simulated source's error adds with the amount, once."""
    e = Expectation()
    e.add(Decimal("0.5"), 4.0, "sim", Decimal(10), 0.01)
    e.add(Decimal("0.3"), 5.0, "sim", Decimal(20), 0.01)
    e.add(Decimal("1"), 16.0, "exact", Decimal(5), 0.0)
    assert e.expected == Decimal("1.8")
    assert e.standard_error == pytest.approx(math.sqrt(25 + (30 * 0.01) ** 2))
    assert binomial_upper_tail(2, 4, 0.5) == pytest.approx(11 / 16)
    assert binomial_upper_tail(3, 4, 0.5) == pytest.approx(5 / 16)
    assert binomial_upper_tail(0, 4, 0.5) == 1.0


def test_the_kept_exact_counts_are_read_only_whole(tmp_path: Path) -> None:
    """The exact counts of every hand are kept in the cache folder after the first count; a
    kept file that is not whole (a count off, an event added, one not a whole number: a file cut
    short or garbled) is not used but counted again. (The cache folder is the operator's own,
    as the simulation's tallies are: docs/statistics.md.)"""
    entry = tmp_path / "paytable-counts.json"
    counts = count_events("paytable")
    entry.write_text(json.dumps(counts), encoding="utf-8")
    assert _read_counts(entry) == counts
    first, second = list(counts)[:2]
    for changed in (
        {**counts, first: counts[first] + 1},
        {**counts, first: counts[first] + 1, second: counts[second] - 1, "extra": 0},
        {**counts, first: float(counts[first])},
    ):
        entry.write_text(json.dumps(changed), encoding="utf-8")
        assert _read_counts(entry) is None
