"""Linked progressives: one meter shared by several tables whose profiles name the same link.

The heart is the proof with real concurrent processes, on both backends: terminals at
different tables settle progressive wagers against one link at once, and the log shows one
unbroken sequence of the link's values (no value paid twice, no contribution lost) that the
rulings themselves explain. Every assertion is an invariant of every interleaving."""

from __future__ import annotations

import os
import subprocess
import sys
from decimal import Decimal
from pathlib import Path

import pytest

from dealer.audit import meters, open_log, staff
from dealer.audit.meters import MeterLink
from dealer.audit.records import Record, RecordFilter, RecordKind
from dealer.audit.verify import verify
from dealer.desk import supervision

LINK = "FLOOR-ET-1"
PIN = "harbor-2468"
SEED = Decimal(10000)
TERMS = MeterLink(LINK, SEED, Decimal(250000))
PROFILE = f"""name: floor
meters:
  progressive_treasure: {{seed: 10000, contribution: 0.25, cap: 250000, link: {LINK}}}
"""
DEALER = "Ah Kh 9c 7h 5c 4c 2c"
HANDS = (
    "Js Jd Ac Qh 8s 5d 3h",  # no progressive event: contributes only
    "3d 4d 5d JK 7d 8d 9d",  # 7-card straight flush with the joker: 25% of the meter
    "Js Jd Ac Qh 8s 5d 3h",
    "8s 9s Ts Js Qs Ks As",  # 7-card straight flush: 100% of the meter, which resets
    "Js Jd Ac Qh 8s 5d 3h",
)
"""The player's hand of each round, in turn (deterministic: round n plays HANDS[n % 5])."""

WORKER = """
import sys, time
from decimal import Decimal
from pathlib import Path
from dealer.desk import paigow
from dealer.desk.context import Desk, HouseRules
from dealer.games.paigow.pay import Wager
from test_linked_meters import DEALER, HANDS

db, user, table, rounds = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
profile, go = Path(sys.argv[5]), Path(sys.argv[6])
desk, house = Desk(db, user, table), HouseRules(profile)
while not go.exists():  # every worker starts at once
    time.sleep(0.005)
for n in range(rounds):
    wagers = {Wager.BASE: Decimal(10), Wager.PROGRESSIVE_TREASURE: Decimal(1)}
    paigow.settle(
        desk, house, DEALER, paigow.seat_wagers(wagers, ()), player=HANDS[n % len(HANDS)]
    )
"""


def approved_profile(db: Path | str, folder: Path) -> Path:
    """The floor's profile, approved for every table by supervisor S1."""
    profile = folder / "floor.yaml"
    profile.write_text(PROFILE, encoding="utf-8")
    with open_log(db) as log:
        staff.add_user(log, "S1", "supervisor", pin=PIN)
    supervision.approve(
        db, RecordKind.PROFILE_CHANGE, profile, "the floor's link", supervisor="S1", pin=PIN
    )
    return profile


def money(value: object) -> Decimal:
    return Decimal(str(value))


def replay(records: list[Record]) -> tuple[Decimal, int, int]:
    """Walk the rulings and the link's meter records in record order, checking that each ruling
    started from the link's value as the records before it left it and that each meter record
    moved it from that value to the ruling's; return the final value, the number of
    contributions and the number of meter records."""
    value: Decimal | None = None
    contributions = moves = 0
    expected: dict[int, Decimal] = {}
    for record in records:
        if record.kind == "ruling":
            meters = record.result["meters"]
            before = money(meters["before"]["progressive_treasure"])
            assert before == (SEED if value is None else value), record.id
            contributed = money(meters["contributions"]["progressive_treasure"])
            contributions += contributed > 0
            after = before + contributed
            for hit in record.result.get("progressive_hits", []):
                assert money(hit["before"]) == after
                after = money(hit["after"])
            assert after == money(meters["after"]["progressive_treasure"])
            expected[record.id] = after
            if after == before and value is not None:
                continue  # nothing moved: no meter record (a reset to the value it had)
            value = after
        elif record.kind == "meter":
            assert record.result["link"] == LINK
            assert record.links_to is not None
            assert money(record.result["value"]) == expected[record.links_to]
            moves += 1
    assert value is not None
    return value, contributions, moves


def test_terminals_at_once_settle_one_link_without_forking_it(
    log_at: Path | str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    workers, rounds = 4, 20
    profile = approved_profile(log_at, tmp_path)
    script, go = tmp_path / "worker.py", tmp_path / "go"
    script.write_text(WORKER, encoding="utf-8")
    urls = [str(log_at)] * workers
    if isinstance(log_at, str):  # each terminal logs in as its own dealer
        server = request.getfixturevalue("pg_server")
        urls = [server.login(log_at, f"d-{w}") for w in range(workers)]
    procs = [
        subprocess.Popen(
            [sys.executable, str(script), urls[w], f"d-{w}", f"PG-{w}", str(rounds)]
            + [str(profile), str(go)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env={**os.environ, "PYTHONPATH": str(Path(__file__).parent)},
        )
        for w in range(workers)
    ]
    go.touch()
    for proc in procs:
        _, err = proc.communicate(timeout=600)
        assert proc.returncode == 0, err

    with open_log(log_at, read_only=True) as log:
        assert verify(log).ok
        rulings = log.records(RecordFilter(kind="ruling"))
        moves = [
            m
            for m in log.records(RecordFilter(kind="meter"))
            if m.result["meter"] == "progressive_treasure"
        ]
        links = log.link_records(LINK, len(moves) + 1)
        final = meters.current(log, "PG-0", "progressive_treasure", TERMS)
    assert len(rulings) == workers * rounds
    assert {r.table_id for r in rulings} == {f"PG-{w}" for w in range(workers)}
    assert [m.id for m in reversed(links)] == [m.id for m in moves]  # every move is the link's
    # One unbroken sequence: each record moves the link from the value the one before left.
    assert moves[0].result["previous"] is None
    for earlier, later in zip(moves, moves[1:], strict=False):
        assert later.result["previous"] == earlier.result["value"]
    value, contributions, counted = replay(sorted([*rulings, *moves], key=lambda r: r.id))
    assert counted == len(moves)
    assert contributions == workers * rounds  # one per progressive wager settled
    assert final == value == money(moves[-1].result["value"])
    # The final value is the seed plus every contribution, less every pay, plus every reset.
    paid = resets = Decimal(0)
    for ruling in rulings:
        for hit in ruling.result.get("progressive_hits", []):
            taken = money(hit["paid"]) - money(hit["returned_by_cap"])
            paid += taken
            if hit["reset"]:
                resets += money(hit["after"]) - money(hit["before"]) + taken
    contributed = sum(
        (money(r.result["meters"]["contributions"]["progressive_treasure"]) for r in rulings),
        Decimal(0),
    )
    assert final == SEED + contributed - paid + resets
    hits = [h for r in rulings for h in r.result.get("progressive_hits", [])]
    assert sorted({h["percent"] for h in hits}) == [25, 100]
