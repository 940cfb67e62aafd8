"""The dealer's trainer (`dealer train`): drills judged by the engines the rulings use, taken
through a pipe by a program answering from `dealer paigow set` and `settle`; misses shown with
the clause that decides them; the weighting by past misses; training records and certificates
on both backends."""

from __future__ import annotations

import functools
import json
import os
import random
import signal
import subprocess
import sys
from collections import Counter
from decimal import Decimal
from pathlib import Path
from typing import Any

import cli
import pytest

from dealer.games.paigow.drills import (
    MISS_WEIGHT,
    HouseWayDrill,
    PayoutDrill,
    kept,
    weight,
)
from dealer.games.paigow.house_way import load_house_way, set_hand
from dealer.games.paigow.pay import Wager
from dealer.games.paigow.profile import load_profile
from dealer.kernel.errors import DealerError

run = functools.partial(cli.run, whole=True)
ok = functools.partial(cli.ok, whole=True)
PIN = "lantern-2468"
SUP = ("--supervisor", "sup-7", "--pin", PIN)
TRAINEE_PIN = "harbor-8642"
"""The PIN of the trainees t-1 and t-2 (`trainees`)."""
WAY = load_house_way("trump-plaza")


def lines(text: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def right_setting(drill: HouseWayDrill) -> str:
    return " ".join(str(c) for c in drill.hand.setting.low)


# --- the pipe: a program takes the drill, answering from the rulings -------------------------


def _drive(command: list[str], answer: Any, tmp_path: Path) -> list[dict[str, Any]]:
    """Run a drill as a subprocess through a pipe, answering each dealt hand with `answer`."""
    env = {**os.environ, "DEALER_DB": str(tmp_path / "drill.sqlite"), "DEALER_USER": "d-104"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "dealer", "train", *command, "--json"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    assert proc.stdin is not None and proc.stdout is not None
    seen: list[dict[str, Any]] = []
    for line in proc.stdout:
        item = json.loads(line)
        seen.append(item)
        if "score" in item:
            break
        if "correct" not in item:
            proc.stdin.write(answer(item) + "\n")
            proc.stdin.flush()
    proc.stdin.close()
    assert proc.wait(timeout=60) == 0, proc.stderr.read() if proc.stderr else ""
    return seen


def test_a_program_answering_from_paigow_set_scores_every_hand(tmp_path: Path) -> None:
    def answer(item: dict[str, Any]) -> str:
        ruled = json.loads(
            cli.ok(
                "paigow", "set", *item["cards"], "--json", "--db", str(tmp_path / "r.sqlite")
            ).stdout
        )
        return " ".join(ruled["low"])

    seen = _drive(["house-way", "--hands", "8", "--seed", "11"], answer, tmp_path)
    summary = seen[-1]
    assert summary["score"] == summary["hands"] == 8
    assert summary["missed_clauses"] == {}
    assert [s["hand"] for s in seen if "cards" in s] == list(range(1, 9))


def test_a_program_answering_from_paigow_settle_scores_every_hand(tmp_path: Path) -> None:
    wagers = "base,insurance,treasure,progressive_treasure"

    def answer(item: dict[str, Any]) -> str:
        placed = [
            w
            for name, amount in item["wagers"].items()
            for w in (f"--{'wager' if name == 'base' else name.replace('_', '-')}", str(amount))
        ]
        ruled = json.loads(
            cli.ok(
                "paigow", "settle", "--dealer", " ".join(item["dealer"]),
                "--high", " ".join(item["player"]["high"]),
                "--low", " ".join(item["player"]["low"]),
                *placed, "--table", f"T-{item['hand']}", "--json",
                "--db", str(tmp_path / "r.sqlite"),
            ).stdout
        )  # fmt: skip
        nets = {"base": ruled["base"]["net"]}
        for paid in ruled["bonuses"]:
            nets[paid["wager"]] = paid["net"]
        return " ".join(f"{nets[name]:+}" for name in item["order"])

    seen = _drive(["payouts", "--wagers", wagers, "--hands", "6", "--seed", "3"], answer, tmp_path)
    assert seen[-1]["score"] == seen[-1]["hands"] == 6
    assert all(s["correct"] for s in seen if "correct" in s)


def test_a_program_answering_envy_from_the_round_settlement_scores_every_hand(
    tmp_path: Path,
) -> None:
    """Envy pays on the other seats' hands: the program files the table as it is shown (each
    hand as set) as a round and answers the seat's nets from `dealer round`."""
    paid: list[str] = []

    def answer(item: dict[str, Any]) -> str:
        def seat(n: int, hands: dict[str, list[str]], wagers: dict[str, Any]) -> dict[str, Any]:
            return {"seat": n, "high": " ".join(hands["high"]), "low": " ".join(hands["low"]),
                    "wagers": wagers}  # fmt: skip

        table = [seat(o["seat"], o, {"base": 5}) for o in item["others"]]
        round_file = tmp_path / f"round-{item['hand']}.json"
        round_file.write_text(json.dumps({
            "table": f"T-{item['hand']}", "dealer": " ".join(item["dealer"]),
            "seats": [seat(item["seat"], item["player"], item["wagers"]), *table],
        }))  # fmt: skip
        ruled = json.loads(
            cli.ok("round", str(round_file), "--json", "--db", str(tmp_path / "r.sqlite")).stdout
        )
        mine = next(s for s in ruled["seats"] if s["seat"] == item["seat"])
        nets = {"base": Decimal(str(mine["base"]["net"])), "envy": Decimal(0)}
        for bonus in mine["bonuses"]:
            nets[bonus["wager"]] = nets.get(bonus["wager"], Decimal(0)) + Decimal(str(bonus["net"]))
        paid.extend(str(b["from_seat"]) for b in mine["bonuses"] if b["wager"] == "envy")
        return " ".join(f"{nets[name]:+}" for name in item["order"])

    command = ["payouts", "--wagers", "envy", "--hands", "6", "--seed", "3"]
    seen = _drive([*command, "--event", "four-of-a-kind,full-house"], answer, tmp_path)
    assert seen[-1]["score"] == seen[-1]["hands"] == 6
    dealt = [s for s in seen if "order" in s]
    assert all(s["order"] == ["base", "treasure", "envy"] for s in dealt)
    assert all(1 <= len(s["others"]) <= 3 for s in dealt)
    assert paid  # some hand paid an Envy, judged to the cent like the rest


# --- judging: misses shown with their clause ------------------------------------------------


def test_a_deliberate_miss_is_scored_a_miss_and_shown_with_the_deciding_clause() -> None:
    drill = HouseWayDrill(WAY, random.Random(5), 2)
    cards = drill.hand.cards
    right = set_hand(cards, WAY)
    wrong = next(
        (a, b)
        for a in cards
        for b in cards
        if a != b and {a, b} != set(right.low) and a.rank != b.rank
    )
    judged, _ = drill.step(f"{wrong[0]} {wrong[1]}")
    assert not judged.correct
    assert judged.missed == (right.clause,)
    assert judged.to_json()["clause"] == right.clause
    assert right.rule in judged.lines
    judged, _ = drill.step(right_setting(drill))
    assert judged.correct
    summary = drill.summary()
    assert (summary.score, summary.hands, dict(summary.missed)) == (1, 2, {right.clause: 1})


def test_high_slash_low_is_an_answer_and_a_malformed_one_is_never_scored() -> None:
    drill = HouseWayDrill(WAY, random.Random(8), 1)
    setting = drill.hand.setting
    high = " ".join(map(str, setting.high))
    for bad in ("Kd", f"high {high} / low", "Xx Yy", f"low {high}", f"{high} / {high}"):
        with pytest.raises(DealerError):
            drill.step(bad)
    assert drill.summary().hands == 0
    judged, following = drill.step(f"high {high} / low {' '.join(map(str, setting.low))}")
    assert judged.correct and following is None and drill.over


def test_ctrl_c_ends_the_drill_with_the_summary_so_far(tmp_path: Path) -> None:
    drill = HouseWayDrill(WAY, random.Random(3), 3)
    proc = subprocess.Popen(
        [sys.executable, "-m", "dealer", "train", "house-way", "--hands", "3", "--seed", "3",
         "--json", "--db", str(tmp_path / "c.sqlite")],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert proc.stdin is not None and proc.stdout is not None
    assert json.loads(proc.stdout.readline())["hand"] == 1
    proc.stdin.write(right_setting(drill) + "\n")
    proc.stdin.flush()
    assert json.loads(proc.stdout.readline())["correct"] is True
    assert json.loads(proc.stdout.readline())["hand"] == 2  # the drill now waits for a line
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert (proc.returncode, err) == (0, "")
    assert json.loads(out)["score"] == json.loads(out)["hands"] == 1


def test_a_malformed_answer_is_asked_again_through_the_cli(tmp_path: Path) -> None:
    drill = HouseWayDrill(WAY, random.Random(2), 1)
    said = run(
        "train", "house-way", "--hands", "1", "--seed", "2", "--json",
        "--db", str(tmp_path / "a.sqlite"),
        stdin=f"nonsense\n{right_setting(drill)}\n",
    )  # fmt: skip
    assert said.exit_code == 1  # a refused line from a pipe: never taken for a clean run
    assert "Error: line 1: unknown card 'nonsense'" in said.stderr
    assert lines(said.stdout)[-1]["score"] == 1


def test_end_of_input_ends_the_drill_with_the_summary_so_far(tmp_path: Path) -> None:
    drill = HouseWayDrill(WAY, random.Random(4), 5)
    said = ok(
        "train", "house-way", "--hands", "5", "--seed", "4",
        "--db", str(tmp_path / "a.sqlite"), stdin=right_setting(drill) + "\n",
    )  # fmt: skip
    assert "Right." in said.stdout
    assert "Score: 1 of 1 (100.0%)" in said.stdout


def test_a_missed_payout_shows_the_rulings_arithmetic() -> None:
    drill = PayoutDrill(load_profile(), random.Random(7), 1, [Wager.BASE, Wager.TREASURE])
    hand = drill.hand
    judged, _ = drill.step(f"{hand.total + 1:+}")
    assert not judged.correct
    assert set(judged.to_json()["wrong"]) == {"base", "treasure"}
    assert all(line in judged.lines for line in hand.ruling.explanation)


def test_a_payout_is_judged_to_the_cent_against_the_settlement() -> None:
    drill = PayoutDrill(load_profile(), random.Random(9), 2, [Wager.BASE, Wager.INSURANCE])
    hand = drill.hand
    assert hand.nets["base"] == hand.ruling.result["base"]["net"]
    judged, _ = drill.step(" ".join(f"{v:+}" for v in hand.nets.values()))
    assert judged.correct
    hand = drill.hand
    judged, _ = drill.step(f"{hand.total + Decimal('0.01'):+}")
    assert not judged.correct


def _envy_hand(paid: bool) -> PayoutDrill:
    """A one-hand Envy drill whose Envy pays (or pays nothing), from the first seed that deals
    one."""
    for seed in range(100):
        drill = PayoutDrill(
            load_profile(), random.Random(seed), 1, [Wager.ENVY], events=("four-of-a-kind",)
        )
        if (drill.hand.nets["envy"] > 0) == paid:
            return drill
    raise AssertionError("no such hand in 100 seeds")


def test_a_missed_envy_is_scored_a_miss_and_shows_the_envy_arithmetic() -> None:
    drill = _envy_hand(paid=True)
    hand = drill.hand
    assert list(hand.nets) == ["base", "treasure", "envy"]
    assert hand.wagers[Wager.TREASURE] >= load_profile().envy_minimum
    assert {o["seat"] for o in hand.to_json()["others"]} == {n for n, _ in hand.others}
    pays = [b for b in hand.ruling.result["bonuses"] if b["wager"] == "envy"]
    typed = {**hand.nets, "envy": Decimal(0)}
    judged, _ = drill.step(" ".join(f"{v:+}" for v in typed.values()))
    assert not judged.correct
    assert judged.to_json()["wrong"] == ["envy"]
    assert judged.missed == tuple(k for k in hand.keys if k.startswith("envy:"))
    assert all(k != "envy:no-event" for k in judged.missed)
    arithmetic = [line for line in judged.lines if "Envy Bonus" in line]
    assert pays and len(arithmetic) == len(pays)
    for pay, line in zip(pays, arithmetic, strict=True):
        assert f"on seat {pay['from_seat']}'s hand" in line


def test_an_envy_no_other_hand_pays_is_judged_as_zero_and_says_why() -> None:
    drill = _envy_hand(paid=False)
    hand = drill.hand
    assert "envy:no-event" in hand.keys and hand.nets["envy"] == 0
    judged, _ = drill.step(
        " ".join(f"{v + (1 if n == 'envy' else 0):+}" for n, v in hand.nets.items())
    )
    assert not judged.correct and judged.missed == ("envy:no-event",)
    assert any("no other seat's hand" in line for line in judged.lines)


def test_an_envy_drill_replays_from_its_seed_and_is_refused_where_envy_is_not_offered(
    tmp_path: Path,
) -> None:
    def dealt(misses: dict[str, int]) -> list[dict[str, Any]]:
        drill = PayoutDrill(load_profile(), random.Random(4), 5, [Wager.ENVY], misses)
        shown = []
        while not drill.over:
            shown.append(drill.hand.to_json())
            drill.step(f"{drill.hand.total:+}")
        return shown

    assert dealt({}) == dealt({}) != dealt({"envy:four-of-a-kind": 9})
    profile = tmp_path / "no-envy.yaml"
    profile.write_text("offered: {envy: false}\n", encoding="utf-8")
    said = run("train", "payouts", "--wagers", "envy", "--profile", str(profile), stdin="")
    assert said.exit_code == 1
    assert said.stderr == "Error: --wagers: the envy wager is not offered at this table\n"


# --- drills that teach ----------------------------------------------------------------------


def test_the_weight_of_a_hand_grows_with_its_misses_up_to_a_bound() -> None:
    assert weight(("3a",), {}) == 1
    assert weight(("3a", "5a"), {"5a": 3}) == 4
    assert weight(("5a",), {"5a": 1000}) == 1 + MISS_WEIGHT
    always = random.Random(0)
    assert all(kept(always, ("5a",), {"5a": 4}) for _ in range(100))


def test_missed_clauses_are_dealt_more_often_and_the_seed_replays_the_drill() -> None:
    def clauses(misses: dict[str, int]) -> Counter[str]:
        drill = HouseWayDrill(WAY, random.Random(21), 200, misses)
        dealt: Counter[str] = Counter()
        while not drill.over:
            dealt[drill.hand.setting.clause] += 1
            drill.step(right_setting(drill))
        return dealt

    plain, taught = clauses({}), clauses({"5a": 9})
    assert taught["5a"] >= 3 * max(plain["5a"], 1)
    assert clauses({"5a": 9}) == taught


def test_a_drill_limited_to_clauses_deals_only_those_and_names_an_unknown_one() -> None:
    drill = HouseWayDrill(WAY, random.Random(1), 5, clauses=("5a", "1"))
    while not drill.over:
        assert drill.hand.setting.clause in ("5a", "1")
        drill.step(right_setting(drill))
    said = run("train", "house-way", "--clause", "99z", "--hands", "1", stdin="")
    assert said.exit_code == 1
    assert said.stderr.startswith("Error: --clause 99z: House Way trump-plaza v1 has no such")


def test_a_payout_drill_limited_to_events_deals_only_hands_with_them() -> None:
    drill = PayoutDrill(load_profile(), random.Random(1), 3, [Wager.TREASURE], events=("flush",))
    while not drill.over:
        assert any(k.endswith(":flush") or "flush" in k for k in drill.hand.keys)
        drill.step(f"{drill.hand.total:+}")


# --- on the record: reports and certificates, on both backends ------------------------------


@pytest.fixture
def db(dealer_db: Path | str, tmp_path: Path) -> Path | str:
    """Supervisors sup-7 and sup-8, and the trainees t-1 and t-2 (dealers), on each backend."""
    ok("audit", "user", "add", "sup-7", "--role", "supervisor", "--new-pin", PIN)
    ok("audit", "user", "add", "sup-8", "--role", "supervisor", "--new-pin", "harbor-13579", *SUP)
    trainees()
    return dealer_db


def trainees() -> None:
    """The trainees t-1 and t-2, dealers with the PIN `TRAINEE_PIN` (sup-7 registers them)."""
    for who in ("t-1", "t-2"):
        ok("audit", "user", "add", who, "--role", "dealer", "--new-pin", TRAINEE_PIN, *SUP)


def take(
    hands: int, seed: int, trainee: str, *, miss: int = 0, pin: str | None = TRAINEE_PIN
) -> dict[str, Any]:
    """A House Way drill taken by `trainee` through the CLI, `miss` of its hands answered wrong
    (in their own session with `pin`, else a practice drill run by d-104): the answers worked
    out from the same seed and the trainee's misses on the record."""
    found = json.loads(ok("train", "report", "--trainee", trainee, "--json").stdout)["trainees"]
    keys = found[0]["by_key"].get("house-way", {}) if found else {}
    misses = {key: v["missed"] for key, v in keys.items() if v["missed"]}
    drill = HouseWayDrill(WAY, random.Random(seed), hands, misses)
    typed = []
    while not drill.over:
        hand = drill.hand
        answer = right_setting(drill)
        if len(typed) < miss:
            answer = " ".join(str(c) for c in hand.setting.high[-2:])
        typed.append(answer)
        drill.step(answer)
    session = () if pin is None else ("--pin", pin)
    said = ok(
        "train", "house-way", "--hands", str(hands), "--seed", str(seed),
        "--trainee", trainee, "--json", "--user", "d-104", *session,
        stdin="\n".join(typed) + "\n",
    )  # fmt: skip
    return lines(said.stdout)[-1]


def test_a_drill_is_kept_as_a_training_record_never_a_ruling(db: Path | str) -> None:
    summary = take(3, 1, "t-1")
    record = json.loads(ok("audit", "show", str(summary["record_id"]), "--json").stdout)
    stored = record.get("record", record)
    assert stored["kind"] == "training"
    assert (stored["table_id"], stored["seat"]) == ("", None)
    assert stored["result"]["trainee"] == "t-1"
    assert json.loads(ok("audit", "list", "--kind", "ruling", "--json").stdout)["count"] == 0
    assert json.loads(ok("audit", "verify", "--json").stdout)["ok"]


def test_the_report_shows_accuracy_by_clause_over_time(db: Path | str) -> None:
    take(4, 2, "t-1", miss=1)
    take(4, 3, "t-1")
    take(2, 4, "t-2")
    found = json.loads(ok("train", "report", "--trainee", "t-1", "--json").stdout)["trainees"]
    assert [t["trainee"] for t in found] == ["t-1"]
    drills = found[0]["drills"]
    assert [(d["score"], d["hands"]) for d in drills] == [(3, 4), (4, 4)]
    by_clause = found[0]["by_key"]["house-way"]
    assert sum(v["asked"] for v in by_clause.values()) == 8
    assert sum(v["missed"] for v in by_clause.values()) == 1
    everyone = json.loads(ok("train", "report", "--json").stdout)["trainees"]
    assert [t["trainee"] for t in everyone] == ["t-1", "t-2"]
    assert "Trainee t-1" in ok("train", "report").stdout


def test_a_certificate_is_refused_saying_why_below_the_standard(db: Path | str) -> None:
    said = run("train", "certify", "t-1", *SUP)
    assert said.exit_code == 1
    assert said.stderr == "Error: t-1 has no house-way drill on the record to certify\n"
    take(5, 6, "t-1")
    said = run("train", "certify", "t-1", *SUP)
    assert said.exit_code == 1
    assert "5 hands answered, fewer than the standard's 50" in said.stderr


def test_a_certificate_is_signed_by_the_supervisor_and_verified(
    db: Path | str, tmp_path: Path
) -> None:
    profile = tmp_path / "training.yaml"
    profile.write_text("training: {pass_percent: 80, min_hands: 5}\n", encoding="utf-8")
    take(5, 7, "t-1", miss=2)
    said = run("train", "certify", "t-1", "--profile", str(profile), *SUP)
    assert said.exit_code == 1
    assert "3 of 5 right (60.0%), below the standard's 80%" in said.stderr
    take(5, 8, "t-1", miss=1)
    made = json.loads(
        ok("train", "certify", "t-1", "--profile", str(profile), *SUP, "--json").stdout
    )
    record = json.loads(ok("audit", "show", str(made["record_id"]), "--json").stdout)
    stored = record.get("record", record)
    assert stored["kind"] == "certificate" and stored["user_id"] == "sup-7"
    assert "signature" in stored["settings"]
    assert json.loads(ok("audit", "verify", "--json").stdout)["ok"]
    report = json.loads(ok("train", "report", "--json").stdout)["trainees"][0]
    assert [(c["supervisor"], c["problem"]) for c in report["certificates"]] == [("sup-7", None)]
    dealer = run("train", "certify", "t-1", "--supervisor", "d-104", "--pin", PIN)
    assert dealer.exit_code == 1
    own = run("train", "certify", "sup-8", "--supervisor", "sup-8", "--pin", "harbor-13579")
    assert own.exit_code == 1


def test_the_browser_shows_trainees_and_certificates(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import urllib.request

    from browser import serving
    from log_reads import use

    path = use(tmp_path / "browse.sqlite", monkeypatch)
    ok("audit", "user", "add", "sup-7", "--role", "supervisor", "--new-pin", PIN)
    trainees()
    profile = tmp_path / "training.yaml"
    profile.write_text("training: {pass_percent: 80, min_hands: 3}\n", encoding="utf-8")
    take(3, 5, "t-1")
    take(3, 6, "t-2", miss=2)
    ok("train", "certify", "t-1", "--profile", str(profile), *SUP)
    assert isinstance(path, Path)
    with serving(path) as served:
        address = f"{served.address}/-/dealer/training"
        html = urllib.request.urlopen(address, timeout=30).read().decode()
    assert "<h2>t-1</h2>" in html and "<h2>t-2</h2>" in html
    assert html.count('<tr class="certificate">') == 1 and "Not certified." in html
    assert html.count('<tr class="drill">') == 2 and "1/3" in html


def test_verify_refuses_a_certificate_its_supervisor_did_not_sign(db: Path | str) -> None:
    from dealer.audit import open_log
    from dealer.audit.records import Entry, RecordKind, Role

    take(3, 9, "t-1")
    with open_log(db) as log, log.transaction() as tx:
        forged = tx.append(
            Entry(
                kind=RecordKind.CERTIFICATE,
                user_id="sup-7",
                role=Role.SUPERVISOR,
                game="paigow",
                action="house-way",
                result={"trainee": "t-1", "drill": "house-way", "training": 3},
                links_to=3,
            )
        )
    said = run("audit", "verify")
    assert said.exit_code == 1
    assert f"record {forged} (certificate): at that point" in said.stdout + said.stderr
    report = json.loads(ok("train", "report", "--json").stdout)["trainees"][0]
    assert report["certificates"][0]["problem"] is not None
