"""Rulings per second into one audit database, from 1 process and from 4 at once.

Each ruling is one `entries.append` (its own BEGIN IMMEDIATE transaction, WAL,
synchronous=FULL: one fsync per ruling), with a settle-sized entry. The database is a fresh
file in a temporary folder on the same disk as the current directory.

On PostgreSQL (`--db postgresql://OWNER@HOST/DB`, a log set up by `dealer db init`, on a
server with its default durable commits: fsync on, synchronous_commit on), 4 processes at
once append through the server's function, each ruling its own transaction; the log's new
records are then verified.

Run: .venv/bin/python benchmarks/bench_audit.py [--rulings N] [--db URL]   (N per process)
"""

from __future__ import annotations

import argparse
import multiprocessing
import tempfile
import time
from pathlib import Path

from dealer.audit import entries, open_log
from dealer.audit.records import Entry
from dealer.audit.verify import verify

ENTRY = Entry(
    kind="ruling",
    user_id="D104",
    role="dealer",
    table_id="PG-3",
    game="paigow",
    action="settle",
    input_text="--dealer 'Ks Kd 4c 4h As 9d 2c' --player 'Qs Qh Jc Jd 8s 3h 2d' --wager 25",
    cards=["Ks", "Kd", "4c", "4h", "As", "9d", "2c", "Qs", "Qh", "Jc", "Jd", "8s", "3h", "2d"],
    result={
        "base": {"outcome": "lose", "net": -25, "foul": False},
        "bonuses": [{"wager": "treasure", "event": None, "paytable": "PT-FLT-EC-ET-02", "net": -5}],
        "total_net": -30,
    },
    explanation=[
        "Dealer high: two pair, kings and fours; player high: two pair, queens and jacks",
        "Dealer wins the high hand; dealer low ace-nine beats player low",
        "Treasure: no event",
    ],
    settings={
        "profile": "house.yaml",
        "house_way": {"name": "trump-plaza", "version": "1"},
        "paytables": {"treasure": "PT-FLT-EC-ET-02"},
    },
    seat=4,
)


def _rule(path: str, count: int, start: multiprocessing.synchronize.Event) -> None:
    with open_log(path) as log:
        start.wait()
        for _ in range(count):
            entries.append(log, ENTRY)


def measure(processes: int, count: int, path: str) -> float:
    """Rulings per second with `processes` writers each appending `count` to the log at `path`."""
    with open_log(path) as log:
        before = log.head().records or 0
    context = multiprocessing.get_context("spawn")
    start = context.Event()
    workers = [context.Process(target=_rule, args=(path, count, start)) for _ in range(processes)]
    for worker in workers:
        worker.start()
    time.sleep(1.0)  # let every worker import and open the database
    began = time.perf_counter()
    start.set()
    for worker in workers:
        worker.join()
    elapsed = time.perf_counter() - began
    if any(worker.exitcode != 0 for worker in workers):
        raise SystemExit("a benchmark worker failed")
    with open_log(path) as log:
        result = verify(log)
    if not result.ok or result.records != before + processes * count:
        raise SystemExit(f"benchmark log does not verify: {result}")
    return processes * count / elapsed


def main() -> None:
    """Print rulings per second for 1 and 4 concurrent processes."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rulings", type=int, default=1000, help="rulings per process")
    parser.add_argument("--db", help="a PostgreSQL log (postgresql://…) instead of SQLite")
    args = parser.parse_args()
    if args.db:
        rate = measure(4, args.rulings, args.db)
        print(f"PostgreSQL, 4 processes x {args.rulings} rulings: {rate:,.0f} rulings/s (verified)")
        return
    with tempfile.TemporaryDirectory(dir=".") as folder:
        for processes in (1, 4):
            rate = measure(processes, args.rulings, str(Path(folder) / f"bench-{processes}.sqlite"))
            print(
                f"{processes} process{'es' if processes > 1 else ''} x {args.rulings} rulings: "
                f"{rate:,.0f} rulings/s (verified)"
            )


if __name__ == "__main__":
    main()
