"""Progressive wagers as a whole number of units, and bonus wagers a table does not offer.

A fixed pay of a progressive table is paid once per unit, a share of the meter once per hit;
a wager that is not a whole number of units, or that the table does not offer, is refused with
one line naming the seat, the wager and what is allowed, and nothing is recorded."""

from __future__ import annotations

import csv
import json
from decimal import Decimal
from pathlib import Path

import pytest
from cli import run
from log_reads import records as logged
from log_reads import use

from dealer.games.paigow.bonus import (
    BonusSettings,
    Meters,
    settle_bonuses,
    settle_wager,
)
from dealer.games.paigow.deck import parse_cards
from dealer.games.paigow.demo import deal_demo_round
from dealer.games.paigow.events import classify
from dealer.games.paigow.pay import BONUSES, Basis, Pay, PayKind, Wager, row_net, units_of
from dealer.games.paigow.paytables import shipped_paytables
from dealer.games.paigow.profile import Limit, load_profile
from dealer.games.paigow.round_input import RoundError, SeatInput, SeatWagers, read_round
from dealer.games.paigow.rulings import bonus_ruling
from dealer.games.paigow.session import TableSession
from dealer.kernel.errors import ConfigError, DealerError
from dealer.kernel.replies import ReplyKind

DATA = Path(__file__).parent / "data"
D = Decimal
DEALER = "8h 3h 5c 6s 9c 9d Jh"  # a pair of nines: no pai gow, no event
ROYAL = "Ac Kc Qc Jc Tc 4d 2h"  # a five-card royal flush: $500 fixed in PT-BJS-EC-ET-03
SEVEN_CARD_SF = "8s 9s Ts Js Qs Ks As"  # 100% of the meter in every Treasure progressive


def _seat(seat: int, cards: str, **wagers: Decimal) -> SeatInput:
    """A seat as the round's input hands it to the bonus engine."""
    amounts = {Wager(name): amount for name, amount in wagers.items()}
    return SeatInput(seat, parse_cards(cards), None, None, SeatWagers(amounts))


def _hand(event: str) -> str:
    with open(DATA / "event_hands.tsv", encoding="utf-8") as f:
        rows = [r for r in csv.reader(f, delimiter="\t") if r and not r[0].startswith("#")]
    return dict(rows[1:])[event]


# -- the arithmetic: pay.row_net ------------------------------------------------------------


@pytest.mark.parametrize(
    ("units", "amount", "paid", "net"),
    [(1, D(1), D(500), D(499)), (3, D(3), D(1500), D(1497)), (5, D(5), D(2500), D(2495))],
)
def test_a_fixed_pay_is_paid_once_per_unit(
    units: int, amount: Decimal, paid: Decimal, net: Decimal
) -> None:
    payout = row_net(Pay(PayKind.FIXED, D(500)), Basis.FOR_ONE, amount, units=units)
    assert (payout.paid, payout.net, payout.units) == (paid, net, units)


@pytest.mark.parametrize(("units", "amount"), [(1, D(1)), (3, D(3)), (5, D(5))])
def test_a_share_of_the_meter_is_paid_once_per_hit(units: int, amount: Decimal) -> None:
    payout = row_net(Pay(PayKind.PERCENT, D(10)), Basis.FOR_ONE, amount, D("12345.67"), units)
    assert (payout.paid, payout.net) == (D("1234.56"), D("1234.56") - amount)


@pytest.mark.parametrize("units", [1, 3, 5])
def test_odds_pays_are_in_proportion_to_the_amount_whatever_the_units(units: int) -> None:
    amount = D(units)
    assert row_net(Pay(PayKind.FOR_ONE, D(50)), Basis.FOR_ONE, amount, units=units).net == (
        49 * amount
    )
    assert row_net(Pay(PayKind.TO_ONE, D(50)), Basis.TO_ONE, amount, units=units).net == (
        50 * amount
    )


def test_a_fixed_pay_in_a_to_one_table_is_paid_on_top_of_the_wager_per_unit() -> None:
    payout = row_net(Pay(PayKind.FIXED, D(100)), Basis.TO_ONE, D(6), units=3)
    assert (payout.paid, payout.net) == (D(300), D(300))


def test_a_wager_of_no_units_is_a_mistake() -> None:
    with pytest.raises(ValueError, match="a wager of 0 units"):
        row_net(Pay(PayKind.FIXED, D(500)), Basis.FOR_ONE, D(0), units=0)


@pytest.mark.parametrize(
    ("amount", "unit", "units"),
    [
        (D(1), D(1), 1),
        (D(5), D(1), 5),
        (D(15), D(5), 3),
        (D("2.50"), D(1), None),
        (D(7), D(5), None),
    ],
)
def test_units_of(amount: Decimal, unit: Decimal, units: int | None) -> None:
    assert units_of(amount, unit) == units


@pytest.mark.parametrize(
    ("pay", "units", "line"),
    [
        (
            Pay(PayKind.FIXED, D(500)),
            3,
            "row R: $500 fixed × 3 units = $1,500 for the $3 wager = +$1,497",
        ),
        (Pay(PayKind.FIXED, D(500)), 1, "row R: $500 fixed for the $1 wager = +$499"),
        (
            Pay(PayKind.PERCENT, D(10)),
            3,
            "row R: 10% of the meter $12,345.67 = $1,234.56, paid once for the 3 units, for "
            "the $3 wager = +$1,231.56; the meter goes to $11,111.11",
        ),
    ],
)
def test_the_arithmetic_line_names_the_units(pay: Pay, units: int, line: str) -> None:
    payout = row_net(pay, Basis.FOR_ONE, D(units), D("12345.67"), units)
    after = payout.meter_after(D(5000)) if payout.meter is not None else None
    assert payout.arithmetic("row R", after) == line


# -- settlement ------------------------------------------------------------------------------


def test_settlement_pays_a_three_unit_wager_on_a_500_row() -> None:
    table = shipped_paytables().get("PT-BJS-EC-ET-03")
    result = settle_wager(
        Wager.PROGRESSIVE_TREASURE, D(3), classify(parse_cards(ROYAL)), table, units=3
    )
    assert (result.payout.paid, result.net) == (D(1500), D(1497))
    assert result.to_dict()["units"] == 3
    assert result.explanation() == [
        "Emperor's Treasure Progressive PT-BJS-EC-ET-03, row 5-Card Royal Flush: "
        "$500 fixed × 3 units = $1,500 for the $3 wager = +$1,497"
    ]


def test_a_round_counts_units_of_the_tables_unit() -> None:
    settings = BonusSettings(
        tables={**BonusSettings().tables, "progressive_treasure": "PT-BJS-EC-ET-03"},
        units={"progressive_insurance": D(1), "progressive_treasure": D(5)},
    )
    seats = [
        _seat(1, ROYAL, progressive_treasure=D(15)),  # 3 units of $5
        _seat(2, SEVEN_CARD_SF, progressive_treasure=D(10)),  # 2 units
    ]
    result = settle_bonuses(
        seats, parse_cards(DEALER), settings, Meters(progressive_treasure=D(20000))
    )
    royal, jackpot = result.seat(1).results[0], result.seat(2).results[0]
    assert (royal.payout.units, royal.net) == (3, D(1500) - 15)
    # the contribution is a share of the amount: 25% of $25; the jackpot is paid once
    assert result.contributions.get("progressive_treasure") == D("6.25")
    assert (jackpot.payout.units, jackpot.net) == (2, D("20006.25") - 10)
    assert result.meters_after.get("progressive_treasure") == D(10000)
    assert result.to_dict()["settings"]["units"] == {
        "progressive_insurance": 1,
        "progressive_treasure": 5,
    }


def test_settings_need_a_unit_for_each_progressive() -> None:
    with pytest.raises(ConfigError, match="the progressive_treasure wager needs a unit above zero"):
        BonusSettings(units={"progressive_insurance": D(1), "progressive_treasure": D(0)})


def test_settlement_refuses_a_wager_that_is_not_whole_units() -> None:
    seats = [_seat(1, ROYAL, progressive_treasure=D("2.50"))]
    with pytest.raises(DealerError) as err:
        settle_bonuses(seats, parse_cards(DEALER))
    assert str(err.value) == (
        "seat 1: the progressive treasure wager $2.50 is not a whole number of $1 units"
    )


def test_settlement_refuses_a_wager_the_table_does_not_offer() -> None:
    settings = BonusSettings(offered=frozenset(BONUSES) - {Wager.PROGRESSIVE_INSURANCE})
    seats = [_seat(4, ROYAL, progressive_insurance=D(1))]
    with pytest.raises(DealerError) as err:
        settle_bonuses(seats, parse_cards(DEALER), settings)
    assert str(err.value) == "seat 4: the progressive insurance wager is not offered at this table"


def test_envy_not_offered_is_not_paid() -> None:
    seats = [
        _seat(1, "7s 7d 7h 7c Kd 9h 2c"),  # four of a kind: $5 Envy
        _seat(2, "Qs Qd Jd 4c 4d 3d 2s", treasure=D(5)),
    ]
    offered = settle_bonuses(seats, parse_cards(DEALER))
    assert [r.wager for r in offered.seat(2).results] == ["treasure", "envy"]
    settings = BonusSettings(offered=frozenset(BONUSES) - {Wager.ENVY})
    not_offered = settle_bonuses(seats, parse_cards(DEALER), settings)
    assert [r.wager for r in not_offered.seat(2).results] == ["treasure"]


# -- the profile -----------------------------------------------------------------------------


def test_the_default_is_one_unit_of_one_dollar_and_every_wager_offered() -> None:
    p = load_profile()
    for wager in ("progressive_insurance", "progressive_treasure"):
        assert p.limits[wager] == Limit(D(1), D(1), D(1))
        assert p.unit(wager) == D(1)
        assert p.settings()["limits"][wager] == {"min": 1, "max": 1, "unit": 1}
    assert p.limits["treasure"] == Limit(D(1), D(500))
    assert all(p.offers(w) for w in BONUSES)
    assert p.settings()["offered"] == dict.fromkeys(BONUSES, True)
    settings = BonusSettings.from_profile(p)
    assert settings.units == {"progressive_insurance": D(1), "progressive_treasure": D(1)}
    assert settings.offered == frozenset(BONUSES)


def test_units_and_offers_from_a_file_and_rules(tmp_path: Path) -> None:
    f = tmp_path / "table-9.yaml"
    f.write_text(
        "limits:\n  progressive_treasure: {min: 5, max: 25, unit: 5}\noffered:\n  envy: false\n",
        encoding="utf-8",
    )
    p = load_profile(f, ["limits.progressive_insurance.max=5", "offered.insurance=false"])
    assert p.limits["progressive_treasure"] == Limit(D(5), D(25), D(5))
    assert p.limits["progressive_insurance"] == Limit(D(1), D(5), D(1))
    assert [w for w in BONUSES if not p.offers(w)] == [Wager.INSURANCE, Wager.ENVY]
    settings = BonusSettings.from_profile(p)
    assert settings.units["progressive_treasure"] == D(5)
    assert settings.offered == frozenset(BONUSES) - {Wager.INSURANCE, Wager.ENVY}


@pytest.mark.parametrize(
    ("text", "rules", "message"),
    [
        (
            "limits:\n  progressive_treasure: {unit: 0}\n",
            [],
            "limits.progressive_treasure.unit: must be above zero",
        ),
        (
            "limits:\n  progressive_treasure: {unit: -1}\n",
            [],
            "limits.progressive_treasure.unit '-1' is not an amount: an amount is zero or more",
        ),
        (
            "limits:\n  progressive_treasure: {unit: five}\n",
            [],
            "limits.progressive_treasure.unit 'five' is not an amount: use digits with at most "
            "one decimal point and two decimals, e.g. 25, 12.50 or $25",
        ),
        (
            "limits:\n  progressive_treasure: {unit: 5}\n",
            [],
            "limits.progressive_treasure.min: $1 is not a whole number of units of $5",
        ),
        (
            "limits:\n  progressive_insurance: {max: 2.5}\n",
            [],
            "limits.progressive_insurance.max: $2.50 is not a whole number of units of $1",
        ),
        (
            "limits:\n  treasure: {unit: 5}\n",
            [],
            "limits.treasure.unit: unknown setting (known: min, max)",
        ),
        ("offered:\n  envy: no thanks\n", [], "offered.envy: must be true or false"),
        (
            "offered:\n  craps: false\n",
            [],
            f"offered.craps: unknown setting (known: {', '.join(BONUSES)})",
        ),
        (
            "",
            ["offered.envy=maybe"],
            "--rule offered.envy=maybe: offered.envy: must be true or false",
        ),
        (
            "",
            ["limits.progressive_treasure.unit=2"],
            "--rule limits.progressive_treasure.unit=2: limits.progressive_treasure.min: $1 is "
            "not a whole number of units of $2",
        ),
    ],
)
def test_bad_unit_and_offer_settings_are_refused(
    tmp_path: Path, text: str, rules: list[str], message: str
) -> None:
    f = tmp_path / "bad.yaml"
    f.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError) as err:
        load_profile(f, rules)
    assert str(err.value) == f"profile {message if rules else f'{f}: {message}'}"


# -- round files, the live session, the demo, the bonus ruling ------------------------------


def _seat_round(**wagers: object) -> dict[str, object]:
    return {
        "dealer": DEALER,
        "seats": [{"seat": 2, "cards": ROYAL, "wagers": {"base": 10, **wagers}}],
    }


@pytest.mark.parametrize(
    ("rules", "wagers", "problems"),
    [
        (
            [],
            {"progressive_treasure": 3},
            [
                "seat 2: progressive_treasure wager $3 is outside the table limits $1-$1 "
                "(units of $1)"
            ],
        ),
        (
            ["limits.progressive_treasure.max=5"],
            {"progressive_treasure": "2.50"},
            [
                "seat 2: progressive_treasure wager $2.50 is not a whole number of units of $1 "
                "(table limits $1-$5)"
            ],
        ),
        (
            ["offered.progressive_treasure=false", "offered.treasure=false"],
            {"treasure": 5, "progressive_treasure": 1},
            [
                "seat 2: the treasure wager is not offered at this table",
                "seat 2: the progressive treasure wager is not offered at this table",
            ],
        ),
        (
            ["offered.insurance=false"],
            {"insurance": 5, "insurance_on_dealer": True},
            ["seat 2: the insurance wager is not offered at this table"],
        ),
    ],
)
def test_a_round_file_is_refused(
    rules: list[str], wagers: dict[str, object], problems: list[str]
) -> None:
    with pytest.raises(RoundError) as err:
        read_round(_seat_round(**wagers), load_profile(None, rules))
    assert err.value.problems == problems


def test_a_wager_of_nothing_is_not_placed_even_where_not_offered() -> None:
    profile = load_profile(None, ["offered.progressive_treasure=false"])
    rnd = read_round(_seat_round(progressive_treasure=0), profile)
    assert rnd.seats[0].wagers.amount(Wager.PROGRESSIVE_TREASURE) == 0


def test_the_live_session_refuses_a_wager_not_offered() -> None:
    session = TableSession(load_profile(None, ["offered.progressive_insurance=false"]), "PG-1")
    session, _ = session.step(DEALER)
    after, reply = session.step(f"1 {ROYAL} base 10 pi 1")
    assert reply.kind == ReplyKind.ERROR
    assert reply.lines == ("seat 1: the progressive insurance wager is not offered at this table",)
    assert after == session


def test_the_demo_places_only_what_the_table_offers_in_its_units() -> None:
    full = deal_demo_round(2, "T", load_profile())
    rules = ["offered.progressive_treasure=false", "offered.insurance=false"]
    rules += ["limits.progressive_insurance={min: 5, max: 10, unit: 5}"]
    less = deal_demo_round(2, "T", load_profile(None, rules))
    assert less["dealer"] == full["dealer"]
    left_out = {"progressive_treasure", "insurance", "insurance_on_dealer"}
    for seat, same in zip(less["seats"], full["seats"], strict=True):
        assert seat["cards"] == same["cards"]
        expected = {k: v for k, v in same["wagers"].items() if k not in left_out}
        if "progressive_insurance" in expected:
            expected["progressive_insurance"] = D(5)
        assert seat["wagers"] == expected
    placed = [w for s in full["seats"] for w in s["wagers"]]
    assert {"progressive_insurance", "progressive_treasure", "insurance"} <= set(placed)


def test_the_bonus_ruling_names_a_wager_not_offered() -> None:
    ruling = bonus_ruling(ROYAL, load_profile(None, ["offered.envy=false"]))
    assert "envy" not in ruling.result["paytable_rows"]
    assert "envy: not offered at this table" in ruling.explanation
    assert list(ruling.result["paytable_rows"]) == [w for w in BONUSES if w != Wager.ENVY]


# -- through the CLI -------------------------------------------------------------------------


@pytest.fixture()
def db(dealer_db: Path | str, monkeypatch: pytest.MonkeyPatch) -> Path | str:
    """An empty log on each backend; the commands run as d-104 at PG-3."""
    monkeypatch.setenv("DEALER_USER", "d-104")
    monkeypatch.setenv("DEALER_TABLE", "PG-3")
    return dealer_db


@pytest.fixture()
def no_log(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Where a log would be made, for an analysis, which never records (no backend to vary)."""
    return Path(use(tmp_path / "audit.sqlite", monkeypatch))


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


SETTLE = ("paigow", "settle", "--dealer", DEALER, "--player", ROYAL, "--wager", "10")


def test_cli_refuses_a_wager_not_offered(db: Path | str) -> None:
    register_supervisor(db)
    offered = ("--rule", "offered.progressive_treasure=false")
    result = run(*SETTLE, "--progressive-treasure", "1", *offered, *APPROVED)
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == (
        "Error: seat 1: the progressive treasure wager is not offered at this table\n"
    )
    assert records(db) == 0


def test_cli_refuses_an_amount_that_is_not_whole_units(db: Path | str) -> None:
    register_supervisor(db)
    five = ("--rule", "limits.progressive_treasure.max=5")
    result = run(*SETTLE, "--progressive-treasure", "2.50", *five, *APPROVED)
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == (
        "Error: seat 1: progressive_treasure wager $2.50 is not a whole number of units of $1 "
        "(table limits $1-$5)\n"
    )
    assert records(db) == 0


def test_cli_refuses_a_profile_with_a_bad_unit(db: Path | str, tmp_path: Path) -> None:
    profile = tmp_path / "room.yaml"
    profile.write_text("limits:\n  progressive_treasure: {max: 5, unit: 2}\n", encoding="utf-8")
    result = run(*SETTLE, "--progressive-treasure", "2", "--profile", str(profile))
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == (
        f"Error: profile {profile}: limits.progressive_treasure.min: $1 is not a whole number "
        "of units of $2\n"
    )
    assert records(db) == 0


def test_cli_settles_three_units(db: Path | str) -> None:
    register_supervisor(db)
    result = run(
        *SETTLE,
        "--progressive-treasure",
        "3",
        "--rule",
        "limits.progressive_treasure.max=5",
        "--rule",
        "progressive_treasure_table=PT-BJS-EC-ET-03",
        "--json",
        *APPROVED,
    )
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    (bonus,) = out["bonuses"]
    assert (bonus["wager"], bonus["amount"], bonus["units"], bonus["net"]) == (
        "progressive_treasure",
        3,
        3,
        1497,
    )
    assert (
        "seat 1: Emperor's Treasure Progressive PT-BJS-EC-ET-03, row 5-Card Royal Flush: "
        "$500 fixed × 3 units = $1,500 for the $3 wager = +$1,497"
    ) in out["explanation"]
    assert out["settings"]["limits"]["progressive_treasure"] == {"min": 1, "max": 5, "unit": 1}


def test_a_round_file_with_a_multi_unit_progressive(
    db: Path | str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    profile = tmp_path / "room.yaml"
    profile.write_text(
        "rules:\n  progressive_treasure_table: PT-BJS-EC-ET-03\n"
        "limits:\n  progressive_treasure: {max: 5}\n",
        encoding="utf-8",
    )
    rnd = DATA / "rounds" / "multi_unit_progressive.yaml"
    refused = run("round", str(rnd), "--profile", str(profile), "--json")
    assert refused.exit_code == 1 and "is not approved for table PG-12" in refused.stderr
    assert records(db) == 0
    monkeypatch.delenv("DEALER_USER")  # the first supervisor registers themselves
    add = ["audit", "user", "add", "sup-1", "--role", "supervisor", "--new-pin", "signal-9876"]
    assert run(*add).exit_code == 0
    approve = ["audit", "approve-profile", str(profile), "--reason", "room 2", "--table", "PG-12"]
    assert run(*approve, "--supervisor", "sup-1", "--pin", "signal-9876").exit_code == 0
    result = run("round", str(rnd), "--profile", str(profile), "--json")
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    nets = {
        (s["seat"], b["wager"]): (b["amount"], b["units"], b["event"], b["net"])
        for s in out["seats"]
        for b in s["bonuses"]
        if b["wager"].startswith("progressive")
    }
    assert nets == {
        (1, "progressive_treasure"): (3, 3, "royal-flush", 1497),  # $500 × 3 for $3
        (2, "progressive_treasure"): (1, 1, "royal-flush", 499),  # $500 for $1
        (3, "progressive_treasure"): (5, 5, "four-of-a-kind", 370),  # $75 × 5 for $5
    }
    assert out["meters"]["contributions"]["progressive_treasure"] == 2.25  # 25% of $9
    assert records(db) == 1


# -- analysis in units -----------------------------------------------------------------------


def test_the_exact_return_of_a_multi_unit_wager(no_log: Path) -> None:
    one = json.loads(run("analyze", "paytable", "PT-BJS-EC-ET-03", "--json").stdout)
    three = json.loads(
        run("analyze", "paytable", "PT-BJS-EC-ET-03", "--wager", "3", "--json").stdout
    )
    assert (one["units"], three["units"], three["settings"]["units"]) == (1, 3, 3)
    for a, b in zip(one["events"], three["events"], strict=True):
        if a["pays"].startswith("$"):  # a fixed pay per unit: the same return per $ wagered
            assert b["return"] == pytest.approx(a["return"]), a["label"]
    meter = {e["label"]: e["net"] for e in three["events"]}["7-Card Straight Flush, No Joker"]
    assert meter == 10000 - 3  # the meter at its seed, paid once for the three units
    assert (
        "3 units of $1: a fixed pay is paid once per unit, a share of the meter once per hit"
        in (three["explanation"])
    )
    assert not no_log.exists()


def test_analysis_refuses_a_wager_that_is_not_whole_units(no_log: Path) -> None:
    result = run("analyze", "paytable", "PT-BJS-EC-PGI-01", "--wager", "2.50")
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == (
        "Error: wager $2.50: a progressive insurance wager is a whole number of $1 units\n"
    )
    result = run(
        "analyze",
        "paytable",
        "PT-BJS-EC-PGI-01",
        "--wager",
        "10",
        "--rule",
        "limits.progressive_insurance={min: 5, max: 5, unit: 5}",
        "--json",
    )
    assert json.loads(result.stdout)["units"] == 2
    report = run("analyze", "report", "--wager", "2.50", "--format", "json")
    assert (report.exit_code, report.stdout) == (1, "")
    assert report.stderr == (
        "Error: wager $2.50: a progressive insurance wager is a whole number of $1 units\n"
    )


def test_the_report_counts_progressive_wagers_in_units(no_log: Path) -> None:
    out = json.loads(run("analyze", "report", "--wager", "5", "--format", "json").stdout)
    assert out["units"] == {"progressive_insurance": 5, "progressive_treasure": 5}
    assert (
        "Emperor's Treasure Progressive: the $5 wager is 5 units of $1; a share of the meter is "
        "paid once per hit." in out["notes"]
    )
    section = next(s for s in out["sections"] if s["wager"] == "progressive_treasure")
    assert {t["units"] for t in section["tables"]} == {5}
    treasure = next(s for s in out["sections"] if s["wager"] == "treasure")
    assert {t["units"] for t in treasure["tables"]} == {None}
