"""A full six-seat round with every bonus wager: as a whole process, and inside a live session.

    .venv/bin/python benchmarks/bench_round.py [--runs N] [--dir DIR] [--postgresql]

Prints
* `dealer round FILE --json` as a whole process (start, rule, record, print): median and worst
  wall time over N runs (target: well under a second);
* in-process, as `dealer table` does it: ms per seat line checked (read and checked against
  the cards already taken), ms per round ruled (no database), ms per round ruled and recorded
  (meters read, ruling and meter moves written in one transaction, `synchronous=FULL`; with
  `--postgresql`, into a throwaway durable server started from the installed binaries, as
  `bench_audit.py --postgresql` does, the log's owner recording).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from decimal import Decimal
from pathlib import Path
from typing import Any

import yaml

from dealer.desk.context import Desk
from dealer.desk.paigow import record_round
from dealer.games.paigow import seat_rulings
from dealer.games.paigow.bonus import Meters
from dealer.games.paigow.profile import load_profile
from dealer.games.paigow.session import TableSession
from dealer.kernel.cards import DECK, format_cards

ALL_WAGERS = (
    "base 25 insurance 5 dealer-insurance treasure 10 progressive-insurance 1 "
    "progressive-treasure 1"
)


def _round(offset: int) -> tuple[dict[str, Any], list[str]]:
    """Six seats and the dealer from a rotated deck, every bonus wager on every seat: the
    round file's content and the lines a dealer would type for it."""
    deck = DECK[offset:] + DECK[:offset]
    hands = [format_cards(deck[i * 7 : i * 7 + 7]) for i in range(7)]
    seats = [
        {
            "seat": n,
            "cards": hands[n - 1],
            "wagers": {
                "base": 25,
                "insurance": 5,
                "insurance_on_dealer": n % 2 == 0,
                "treasure": 10,
                "progressive_insurance": 1,
                "progressive_treasure": 1,
            },
        }
        for n in range(1, 7)
    ]
    lines = [hands[6]] + [
        f"{n} {hands[n - 1]} "
        + (ALL_WAGERS if n % 2 == 0 else ALL_WAGERS.replace(" dealer-insurance", ""))
        for n in range(1, 7)
    ]
    return {"table": "BENCH", "dealer": hands[6], "seats": seats}, lines


def _process(runs: int, tmp: Path) -> list[float]:
    raw, _ = _round(0)
    path = tmp / "round.yaml"
    path.write_text(yaml.safe_dump(raw, sort_keys=False), encoding="utf-8")
    env = {**os.environ, "DEALER_DB": str(tmp / "process.sqlite")}
    dealer = str(Path(sys.executable).with_name("dealer"))
    cmd = [dealer, "round", str(path), "--json"]
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, env=env)  # creates the database
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, env=env)
        times.append(time.perf_counter() - start)
    return times


def _seat_checks(rounds: int) -> float:
    profile = load_profile(None, ())
    typed = [_round(i)[1] for i in range(rounds)]
    count, spent = 0, 0.0
    for lines in typed:
        session, _ = TableSession(profile, "BENCH").step(lines[0])
        for line in lines[1:]:
            start = time.perf_counter()
            session, reply = session.step(line)
            spent += time.perf_counter() - start
            count += 1
            assert reply.kind == "entered", reply.lines
    return spent / count


@contextmanager
def _log(tmp: Path, postgresql: bool) -> Iterator[Path | str]:
    """Where the rounds are recorded: a file in `tmp`, or a new log on a throwaway durable
    PostgreSQL server (stopped after)."""
    if not postgresql:
        yield tmp / "session.sqlite"
        return
    sys.path.insert(0, str(Path(__file__).parents[1] / "tests"))
    from pg_server import PgServer

    server = PgServer.start(durable=True)
    if server is None:
        raise SystemExit("no PostgreSQL server binaries (initdb, pg_ctl) on this machine")
    try:
        yield server.fresh_url()
    finally:
        server.stop()


def _rulings(rounds: int, where: Path | str) -> tuple[float, float]:
    profile = load_profile(None, ())
    raws = [_round(i)[0] for i in range(rounds)]
    meters = Meters(progressive_insurance=Decimal(5000), progressive_treasure=Decimal(10000))
    start = time.perf_counter()
    for raw in raws:
        seat_rulings.round_ruling(raw, "", profile, meters)
    ruled = (time.perf_counter() - start) / rounds
    desk = Desk(where, "bench", "BENCH")
    record_round(desk, profile, raws[0], "")  # creates the database
    start = time.perf_counter()
    for raw in raws:
        record_round(desk, profile, raw, "")
    recorded = (time.perf_counter() - start) / rounds
    return ruled, recorded


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=11, help="Whole-process runs.")
    parser.add_argument("--rounds", type=int, default=50, help="In-process rounds.")
    parser.add_argument(
        "--dir", default=None, help="Where the audit databases go (e.g. /dev/shm for tmpfs)."
    )
    parser.add_argument(
        "--postgresql",
        action="store_true",
        help="Record the in-process rounds on a throwaway durable PostgreSQL server.",
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(dir=args.dir) as name:
        tmp = Path(name)
        process = _process(args.runs, tmp)
        seat = _seat_checks(args.rounds)
        with _log(tmp, args.postgresql) as where:
            ruled, recorded = _rulings(args.rounds, where)
    print(
        f"dealer round FILE --json (6 seats, every bonus wager), whole process: "
        f"median {statistics.median(process) * 1000:.0f} ms, worst {max(process) * 1000:.0f} ms "
        f"over {args.runs} runs"
    )
    print(f"dealer table, one seat line read and checked:      {seat * 1000:7.3f} ms")
    print(f"dealer table, one six-seat round ruled:            {ruled * 1000:7.3f} ms")
    into = " (PostgreSQL)" if args.postgresql else ""
    print(f"dealer table, one six-seat round ruled + recorded{into}: {recorded * 1000:7.3f} ms")


if __name__ == "__main__":
    main()
