"""`dealer shift summary`: a table's figures from a real audit log (rounds, a single-seat
settle, meter hits, a void, an override, disputes), the arithmetic on its own, and the CLI."""

from __future__ import annotations

import json
from collections.abc import Callable
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from cli import run
from hypothesis import given, settings
from hypothesis import strategies as st
from log_reads import head, record

from dealer.audit import corrections, disputes, meters, open_log, staff
from dealer.audit.disputes import Review
from dealer.audit.meters import MeterRange
from dealer.audit.records import Record
from dealer.desk.shift import MeterMovement, summarize
from dealer.games.paigow.bonus import Meters
from dealer.games.paigow.demo import deal_demo_round
from dealer.games.paigow.pay import PROGRESSIVES, Wager
from dealer.games.paigow.profile import load_profile
from dealer.games.paigow.seat_rulings import round_ruling

PIN = "lantern-2468"
SIGNOFF_OVER = Decimal(2500)
ROUND_A = """table: PG-5
dealer: 2c 3d 5h 8s 9c Jd Kh
seats:
  - {seat: 1, cards: Qs Qh Qd Qc 4s 6d 7h, wagers: {base: 25, treasure: 5, progressive_treasure: 1}}
  - {seat: 2, cards: As Ah Ad Ac 4c 6c 7c, wagers: {base: 10, treasure: 5}}
"""
# seat 3: a 9-high two-tone pai gow (10% of the insurance meter), seat 4: 9-high all red (100%)
ROUND_B = """table: PG-5
dealer: Ac Ad Kc Kd Qc Qh Jh
seats:
  - {seat: 3, cards: 9s 8c 7s 6c 4s 3c 2d,
     wagers: {base: 10, insurance: 5, progressive_insurance: 4}}
  - {seat: 4, cards: 9h 8d 7h 6d 4h 3d 2h, wagers: {base: 10, progressive_insurance: 4}}
"""
ROUND_C = """table: PG-5
dealer: 2c 3d 5h 8s 9c Jd Kh
seats:
  - {seat: 6, high: As Ah Kd Kc 7s, low: Qd Js, wagers: {base: 50}}
"""


def rule(db: Path | str, *args: str, stdin: str | None = None) -> dict[str, Any]:
    result = run(*args, "--json", "--db", str(db), "--user", "d-7", stdin=stdin)
    assert result.exit_code == 0, result.output
    out: dict[str, Any] = json.loads(result.stdout)
    return out


@pytest.fixture(scope="module")
def shift(new_log: Callable[[], Path | str]) -> dict[str, Any]:
    """A shift at PG-5 (and a round at PG-6 that must not count): round A, round B with two
    insurance-meter hits, a single-seat settle, a rank ruling, round C voided, an override of
    round A, one open and one resolved dispute."""
    db = new_log()
    ids = {"a": rule(db, "round", "-", stdin=ROUND_A)["ruling_id"]}
    rule(db, "round", "-", stdin=ROUND_A.replace("PG-5", "PG-6"))
    with open_log(db) as log:
        staff.add_user(log, "sup-1", "supervisor", pin=PIN)
    four_units = "limits.progressive_insurance.max=4"  # the table takes up to four $1 units
    approved = ("--supervisor", "sup-1", "--pin", PIN)  # a change to the house rules
    ids["b"] = rule(db, "round", "-", "--rule", four_units, *approved, stdin=ROUND_B)["ruling_id"]
    ids["settle"] = rule(
        db,
        "paigow",
        "settle",
        "--dealer",
        "Ts 9d 8h 6c 4d 3s 2c",
        "--player",
        "Ah Kh Qh Jh 5s 5d 7c",
        "--wager",
        "20",
        "--treasure",
        "5",
        "--table",
        "PG-5",
    )["ruling_id"]
    ids["rank"] = rule(db, "paigow", "rank", "As Ks Qs Js Ts", "--table", "PG-5")["ruling_id"]
    ids["c"] = rule(db, "round", "-", stdin=ROUND_C)["ruling_id"]
    with open_log(db) as log:
        staff.add_user(
            log, "sup-2", "supervisor", pin="harbor-1357", supervisor_id="sup-1", supervisor_pin=PIN
        )
        ids["void"] = corrections.void(
            log, ids["c"], reason="misdeal", supervisor_id="sup-1", pin=PIN
        )
        ids["override"] = corrections.override(
            log,
            ids["a"],
            decision="seat 2 paid by hand",
            reason="chip error",
            supervisor_id="sup-1",
            pin=PIN,
        )
        ids["open"] = disputes.open_dispute(
            log,
            user_id="d-7",
            table_id="PG-5",
            description="insurance on the dealer?",
            seat=3,
            rulings=[ids["b"]],
        )
        ids["closed"] = disputes.open_dispute(
            log, user_id="d-7", table_id="PG-5", description="short paid", seat=1
        )
        disputes.resolve_dispute(
            log,
            ids["closed"],
            outcome="no-error",
            amount_adjusted=0,
            review=Review(
                supervisor_id="sup-1",
                pin=PIN,
                second_reviewer="sup-2",
                reviewer_pin="harbor-1357",
                reason="video",
            ),
        )
        disputes.open_dispute(log, user_id="d-7", table_id="PG-6", description="another table")
        stamps = {r.id: r.recorded_at for r in log.records()}
    return {"db": db, "ids": ids, "stamps": stamps}


def summary(shift: dict[str, Any], *args: str) -> dict[str, Any]:
    result = run("shift", "summary", "--table", "PG-5", "--db", str(shift["db"]), "--json", *args)
    assert result.exit_code == 0, result.output
    out: dict[str, Any] = json.loads(result.stdout)
    return out


def test_the_whole_shift(shift: dict[str, Any]) -> None:
    ids = shift["ids"]
    out = summary(shift)
    # round A: seat 1 +12.50 base, +100 treasure, +5 Envy, +74 progressive treasure; seat 2
    # +5 base, +100 treasure, +5 Envy. Round B: both bases lose 10; seat 3's insurance pays
    # 400 to 1 (+2000); the insurance meter 5000 + 2 contributions pays seat 3 10% (500.20,
    # net 496.20) then seat 4 100% (4501.80, net 4497.80) and reseeds at 5000. The settle:
    # base 20 wins at 1 to 2 (+10), treasure loses 5. Round C (base 50) is voided.
    lists = ("open_disputes", "resolved_disputes", "overrides", "voids")
    assert {k: v for k, v in out.items() if k not in lists} == {
        "table": "PG-5",
        "since": None,
        "until": None,
        "rounds": 2,
        "settles": 1,
        "seats": 5,
        "rulings": {
            "rounds": [ids["a"], ids["b"]],
            "settles": [ids["settle"]],
            "voided": [ids["c"]],
            "replaced": {},
        },
        "other_rulings": 1,
        "wagers": dict.fromkeys(Wager, {"count": 0, "wagered": 0, "net": 0})  # none placed
        | {
            "base": {"count": 5, "wagered": 75, "net": 7.5},
            "insurance": {"count": 1, "wagered": 5, "net": 2000},
            "treasure": {"count": 3, "wagered": 15, "net": 195},
            "envy": {"count": 2, "wagered": 0, "net": 10},
            "progressive_insurance": {"count": 2, "wagered": 8, "net": 4994},
            "progressive_treasure": {"count": 1, "wagered": 1, "net": 74},
        },
        "total_wagered": 104,
        "players_net": 7280.5,
        "house_result": -7280.5,
        "meters": {
            "progressive_insurance": {
                "start": 5000,
                "contributions": 2,
                "hits": 2,
                "paid": 5002,
                "reseeds": 5000,
                "adjustments": 0,
                "end": 5000,
                "unexplained": 0,
            },
            "progressive_treasure": {
                "start": 10000,
                "contributions": 0.25,
                "hits": 0,
                "paid": 0,
                "reseeds": 0,
                "adjustments": 0,
                "end": 10000.25,
                "unexplained": 0,
            },
        },
        "meter_adjustments": [],
        "large_pays": {"threshold": 2500, "pays": [{"ruling": ids["b"], "seat": 4, "net": 4487.8}]},
        "signoffs": {"awaiting": [ids["b"]], "signed": []},
        "rule_changes": [{"ruling": ids["b"], "changes": ["limits.progressive_insurance.max=4"]}],
        "documents_not_shipped": [],
        "shift_close": head(shift["db"]).to_dict(),  # the checkpoint line to keep outside
    }
    assert [(d["id"], d["seat"], d["rulings"]) for d in out["open_disputes"]] == [
        (ids["open"], 3, [ids["b"]])
    ]
    assert [(d["id"], d["resolution"]["outcome"]) for d in out["resolved_disputes"]] == [
        (ids["closed"], "no-error")
    ]
    assert [(c["id"], c["target"], c["decision"], c["reason"]) for c in out["overrides"]] == [
        (ids["override"], ids["a"], "seat 2 paid by hand", "chip error")
    ]
    assert [(c["id"], c["target"], c["user_id"], c["reason"]) for c in out["voids"]] == [
        (ids["void"], ids["c"], "sup-1", "misdeal")
    ]


def test_a_time_range(shift: dict[str, Any]) -> None:
    ids, stamps = shift["ids"], shift["stamps"]
    out = summary(shift, "--since", stamps[ids["b"]], "--until", stamps[ids["settle"]])
    assert (out["rounds"], out["settles"], out["seats"]) == (1, 0, 2)
    assert out["rulings"] == {"rounds": [ids["b"]], "settles": [], "voided": [], "replaced": {}}
    assert out["players_net"] == -20 + 2000 + 4994 and out["house_result"] == -6974
    assert out["meters"]["progressive_insurance"] == {
        "start": 5000,
        "contributions": 2,
        "hits": 2,
        "paid": 5002,
        "reseeds": 5000,
        "adjustments": 0,
        "end": 5000,
        "unexplained": 0,
    }
    assert out["meters"]["progressive_treasure"] == {
        "start": 10000.25,
        "contributions": 0,
        "hits": 0,
        "paid": 0,
        "reseeds": 0,
        "adjustments": 0,
        "end": 10000.25,
        "unexplained": 0,
    }
    assert out["overrides"] == [] and out["voids"] == []
    assert len(out["open_disputes"]) == 1  # open disputes are listed whatever the range
    later = summary(shift, "--since", stamps[ids["void"]])
    assert later["rounds"] == 0 and later["seats"] == 0 and later["players_net"] == 0
    assert [c["id"] for c in later["voids"] + later["overrides"]] == [ids["void"], ids["override"]]


def test_the_report_for_people(shift: dict[str, Any]) -> None:
    ids = shift["ids"]
    result = run("shift", "summary", "--table", "PG-5", "--db", str(shift["db"]))
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "Shift summary: table PG-5, the first record to now"
    assert lines[1] == (
        f"rounds 2 (#{ids['a']} #{ids['b']}); single-seat settles 1 (#{ids['settle']}); "
        "seats played 5"
    )
    assert lines[2] == f"voided, not counted: #{ids['c']}"
    assert "players' net +$7,280.50; house result -$7,280.50" in lines
    assert any(line.split()[:3] == ["progressive", "insurance", "2"] for line in lines)
    assert "Open disputes:" in lines and "Overrides and voids:" in lines


def test_a_missing_database_is_an_error_and_stays_missing(tmp_path: Path) -> None:
    missing = tmp_path / "nothing" / "audit.sqlite"
    result = run("shift", "summary", "--table", "PG-5", "--db", str(missing))
    assert result.exit_code == 1
    assert result.stderr == f"Error: there is no audit database at {missing}\n"
    assert not missing.exists() and not missing.parent.exists()


def test_usage_and_domain_errors(shift: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DEALER_TABLE", raising=False)
    db = str(shift["db"])
    assert run("shift", "summary", "--db", db).exit_code == 2  # --table is required
    assert run("shift", "summary", "--table", "PG-5", "--bogus").exit_code == 2
    bad = run("shift", "summary", "--table", "PG-5", "--db", db, "--since", "yesterday")
    assert bad.exit_code == 1 and bad.stderr.startswith("Error: cannot read the time 'yesterday'")
    assert bad.stderr.count("\n") == 1
    backwards = run(
        "shift",
        "summary",
        "--table",
        "PG-5",
        "--db",
        db,
        "--since",
        "2026-05-10",
        "--until",
        "2026-05-09",
    )
    assert backwards.exit_code == 1
    assert backwards.stderr == "Error: --since '2026-05-10' is not before --until '2026-05-09'\n"
    monkeypatch.setenv("DEALER_TABLE", "PG-6")
    other = json.loads(run("shift", "summary", "--db", db, "--json").stdout)
    assert (other["table"], other["rounds"], other["players_net"]) == ("PG-6", 1, 301.5)


# -- the arithmetic on its own -----------------------------------------------------------------


def test_an_empty_range() -> None:
    empty = summarize("PG-1", None, None, [], [], [], [], SIGNOFF_OVER)
    assert (empty.rounds, empty.settles, empty.seats, empty.meters) == ((), (), 0, ())
    assert empty.players_net == 0 and empty.total_wagered == 0


def test_a_hand_adjusted_meter() -> None:
    before = [record(1, "meter", "move", {"meter": "progressive_treasure", "value": "10000.00"})]
    moved = record(
        5, "meter", "adjust", {"meter": "progressive_treasure", "value": "12500", "delta": "2500"}
    )
    result = summarize(
        "PG-1", "2026-05-09T14:00:02.000000Z", None, [moved], before, [], [], SIGNOFF_OVER
    )
    (meter,) = result.meters
    assert meter == MeterMovement(
        "progressive_treasure",
        Decimal("10000.00"),
        Decimal(0),
        0,
        Decimal(0),
        Decimal(0),
        Decimal(2500),
        Decimal(12500),
    )
    assert meter.unexplained == 0


PROFILE = load_profile(None, ())


@settings(max_examples=15, deadline=None)
@given(seeds=st.lists(st.integers(0, 10**6), min_size=1, max_size=4), void=st.integers(0, 3))
def test_figures_add_up_to_the_rulings(seeds: list[int], void: int) -> None:
    """Rounds recorded as the log records them (a ruling, then a move of each meter that
    changed, each linked to the ruling): the money adds up to the rulings' own totals and the
    meters' movements explain their end values."""
    records: list[Record] = []
    seeds_of = {name: PROFILE.meters[name].seed for name in PROGRESSIVES}
    meters = Meters(**seeds_of)
    for seed in seeds:
        before = meters
        ruling, meters = round_ruling(deal_demo_round(seed, "PG-1", PROFILE), "", PROFILE, meters)
        records.append(record(len(records) + 1, "ruling", "round", dict(ruling.result)))
        link = len(records)
        for name in PROGRESSIVES:
            if meters.get(name) != before.get(name) or link == 1:
                value, previous = meters.get(name), before.get(name)
                moved = {"meter": name, "value": str(value), "delta": str(value - previous)}
                records.append(record(len(records) + 1, "meter", "move", moved, links_to=link))
    rulings = [r for r in records if r.kind == "ruling"]
    voided = rulings[void].id if void < len(rulings) else None
    voids = [record(90, "void", "round", {}, links_to=voided)] if voided else []
    out = summarize("PG-1", None, None, records, [], voids, [], PROFILE.signoff_over)
    counted = [r for r in rulings if r.id != voided]
    nets = sum((Decimal(str(r.result["total_net"])) for r in counted), Decimal(0))
    assert out.players_net == nets and out.house_result == -nets
    assert out.seats == 6 * len(counted) == out.wagers["base"].count
    assert (len(out.rounds), len(out.voided)) == (len(counted), len(rulings) - len(counted))
    stakes = sum(
        (
            Decimal(str(amount))
            for r in counted
            for seat in r.result["seats"]
            for amount in [
                seat["base"]["wager"],
                *(b["amount"] for b in seat["bonuses"] if Wager(b["wager"]).placed),
            ]
        ),
        Decimal(0),
    )
    assert out.total_wagered == stakes
    assert {m.meter: (m.start, m.end, m.unexplained) for m in out.meters} == {
        name: (seeds_of[name], meters.get(name), 0) for name in PROGRESSIVES
    }


# -- the rulings in effect ---------------------------------------------------------------------


def _paid_by_hand(result: dict[str, Any], extra: Decimal) -> dict[str, Any]:
    """`result` with seat 1's base net raised by `extra` (a supervisor's replacement)."""
    replaced = json.loads(json.dumps(result))
    seat = replaced["seats"][0]
    seat["base"]["net"] = float(Decimal(str(seat["base"]["net"])) + extra)
    seat["total_net"] = float(Decimal(str(seat["total_net"])) + extra)
    replaced["total_net"] = float(Decimal(str(replaced["total_net"])) + extra)
    return replaced


@pytest.fixture(scope="module")
def corrected(new_log: Callable[[], Path | str]) -> dict[str, Any]:
    """Table PG-8: round A overridden with new figures, round B overridden without, round C
    overridden with new figures and then that override voided, a settle voided, a meter
    adjusted by hand and a dispute resolved."""
    db = new_log()
    ids = {
        name: rule(db, "round", "-", "--table", "PG-8", stdin=text.replace("PG-5", "PG-8"))[
            "ruling_id"
        ]
        for name, text in (("a", ROUND_A), ("b", ROUND_A), ("c", ROUND_C))
    }
    ids["settle"] = rule(
        db,
        "paigow",
        "settle",
        "--dealer",
        "Ts 9d 8h 6c 4d 3s 2c",
        "--player",
        "Ah Kh Qh Jh 5s 5d 7c",
        "--wager",
        "20",
        "--table",
        "PG-8",
    )["ruling_id"]
    with open_log(db) as log:
        staff.add_user(log, "sup-1", "supervisor", pin=PIN)
        staff.add_user(
            log, "sup-2", "supervisor", pin="harbor-1357", supervisor_id="sup-1", supervisor_pin=PIN
        )
        sup = {"supervisor_id": "sup-1", "pin": PIN}
        results = {name: log.record(ids[name]).result for name in ("a", "c")}  # type: ignore[union-attr]
        ids["over_a"] = corrections.override(
            log,
            ids["a"],
            decision="seat 1 paid 1 to 1",
            reason="the table's sign",
            result=_paid_by_hand(dict(results["a"]), Decimal("12.50")),
            **sup,
        )
        ids["over_b"] = corrections.override(
            log, ids["b"], decision="seat 2 paid by hand", reason="chip error", **sup
        )
        ids["over_c"] = corrections.override(
            log,
            ids["c"],
            decision="seat 6 paid 2 to 1",
            reason="misread",
            result=_paid_by_hand(dict(results["c"]), Decimal(100)),
            **sup,
        )
        ids["void_over_c"] = corrections.void(
            log, ids["over_c"], reason="the sign was right", **sup
        )
        ids["void_settle"] = corrections.void(log, ids["settle"], reason="misdeal", **sup)
        ids["adjust"] = meters.adjust(
            log,
            "PG-8",
            "progressive_treasure",
            Decimal(12000),
            "count",
            ranges={"progressive_treasure": MeterRange(Decimal(10000), Decimal(250000))},
            **sup,
        )
        ids["dispute"] = disputes.open_dispute(
            log, user_id="d-7", table_id="PG-8", description="short paid", seat=1
        )
        disputes.resolve_dispute(
            log,
            ids["dispute"],
            outcome="dealer-error",
            amount_adjusted=Decimal("12.50"),
            review=Review(
                **sup, second_reviewer="sup-2", reviewer_pin="harbor-1357", reason="video"
            ),
        )
        raw = log.records()
    return {"db": db, "ids": ids, "raw": raw}


def _net_in_effect(raw: list[Record], table: str) -> Decimal:
    """The players' net of `table` straight from the records: each round or settle not voided,
    by the `total_net` of its newest override's result that is not voided, else its own."""
    voided = {r.links_to for r in raw if r.kind == "void"}
    total = Decimal(0)
    for ruling in raw:
        if ruling.kind != "ruling" or ruling.table_id != table or ruling.id in voided:
            continue
        if ruling.action not in ("round", "settle"):
            continue
        replacements = [
            o.result["result"]
            for o in raw
            if o.kind == "override" and o.links_to == ruling.id and o.id not in voided
            if o.result["result"]
        ]
        figures = replacements[-1] if replacements else ruling.result
        total += Decimal(str(figures["total_net"]))
    return total


def test_the_totals_are_those_of_the_rulings_in_effect(corrected: dict[str, Any]) -> None:
    ids = corrected["ids"]
    out = summary({"db": corrected["db"]}, "--table", "PG-8")
    expected = _net_in_effect(corrected["raw"], "PG-8")
    # A: +301.50 as ruled, +314 with seat 1's base raised by the override; B as ruled
    # (+301.50): its override has no figures; C as ruled (+25): its override is voided; the
    # settle is voided.
    assert expected == Decimal(314) + Decimal("301.50") + Decimal(25)
    assert Decimal(str(out["players_net"])) == expected == -Decimal(str(out["house_result"]))
    assert out["rulings"] == {
        "rounds": [ids["a"], ids["b"], ids["c"]],
        "settles": [],
        "voided": [ids["settle"]],
        "replaced": {str(ids["a"]): ids["over_a"]},
    }
    assert out["wagers"]["base"] == {"count": 5, "wagered": 120, "net": 72.5}
    assert [(c["id"], c["target"]) for c in out["overrides"]] == [
        (ids["over_a"], ids["a"]),
        (ids["over_b"], ids["b"]),
        (ids["over_c"], ids["c"]),
    ]
    assert [(m["id"], m["meter"], m["delta"], m["value"]) for m in out["meter_adjustments"]] == [
        (ids["adjust"], "progressive_treasure", 1999.5, 12000)
    ]
    assert [d["id"] for d in out["resolved_disputes"]] == [ids["dispute"]]
    assert out["large_pays"] == {"threshold": 2500, "pays": []}


def test_the_corrections_in_the_report_for_people(corrected: dict[str, Any]) -> None:
    ids = corrected["ids"]
    when = {r.id: r.recorded_at[:19] + "Z" for r in corrected["raw"]}
    result = run("shift", "summary", "--table", "PG-8", "--db", str(corrected["db"]))
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[2:4] == [
        f"voided, not counted: #{ids['settle']}",
        f"counted with an override's figures: #{ids['a']} by override #{ids['over_a']}",
    ]
    start = lines.index("Resolved disputes:")
    end = lines.index("Overrides and voids:")
    resolved, adjusted = when[ids["dispute"] + 1], when[ids["adjust"]]
    assert lines[start:end] == [
        "Resolved disputes:",
        "#    resolved              seat    outcome       adjusted    supervisor    what",
        "---  --------------------  ------  ------------  ----------  ------------  ----------",
        f"{ids['dispute']:<3}  {resolved}  1       dealer-error  +$12.50     sup-1         "
        "short paid",
        "",
        "Meter adjustments:",
        "#    when                  supervisor    meter                 change      to       "
        "reason",
        "---  --------------------  ------------  --------------------  ----------  -------  "
        "--------",
        f"{ids['adjust']:<3}  {adjusted}  sup-1         progressive treasure  +$1,999.50  "
        "$12,000  count",
        "",
        "No large pays (a seat's net win of more than $2,500).",
        "",
        "Awaiting sign-off: none",
        "Signed off: none",
        "",
        "No rulings made with rule changes.",
        "",
        "No rulings made with documents the program does not ship.",
        "",
    ]


def test_a_large_pay_in_the_report_for_people(shift: dict[str, Any]) -> None:
    result = run("shift", "summary", "--table", "PG-5", "--db", str(shift["db"]))
    lines = result.stdout.splitlines()
    start = lines.index("Large pays (a seat's net win of more than $2,500):")
    assert lines[start : start + 8] == [
        "Large pays (a seat's net win of more than $2,500):",
        "ruling    seat    net",
        "--------  ------  ----------",
        f"#{shift['ids']['b']:<7}  4       +$4,487.80",
        "",
        f"Awaiting sign-off: #{shift['ids']['b']}",
        "Signed off: none",
        "",
    ]


def test_rule_changes_flagged(shift: dict[str, Any]) -> None:
    """Round B was ruled with `--rule limits.progressive_insurance.max=4`: its record says so
    near the top of `audit show`, and the shift summary lists it."""
    ids, db = shift["ids"], str(shift["db"])
    shown = run("audit", "show", str(ids["b"]), "--db", db)
    assert shown.exit_code == 0, shown.output
    lines = shown.stdout.splitlines()
    assert lines[0] == f"Record {ids['b']}: ruling paigow round"
    assert lines[1].startswith("  status     in effect")  # the status first, then the changes
    assert lines[2] == "  rule changes: limits.progressive_insurance.max=4 (approved by sup-1)"
    plain = run("audit", "show", str(ids["a"]), "--db", db).stdout
    assert not [line for line in plain.splitlines() if line.startswith("  rule changes:")]
    lines = run("shift", "summary", "--table", "PG-5", "--db", db).stdout.splitlines()
    start = lines.index(
        "Rulings made with rule changes (--rule or --house-way, not as the profile has it):"
    )
    assert lines[start : start + 5] == [
        "Rulings made with rule changes (--rule or --house-way, not as the profile has it):",
        "ruling    changes",
        "--------  ----------------------------------",
        f"#{ids['b']:<7}  limits.progressive_insurance.max=4",
        "",
    ]
    other = run("shift", "summary", "--table", "PG-6", "--db", db).stdout.splitlines()
    assert "No rulings made with rule changes." in other
