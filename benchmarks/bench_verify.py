"""Time and memory of `dealer audit verify` on a log of a few thousand rulings.

The log is built through the desk and the audit package as a floor builds it: a supervisor
(the bootstrap) and an auditor registered with PINs, `paigow settle` rulings by four dealers
at four tables (each with its meter's move), and every 500 rulings a signed checkpoint by the
auditor and a signed void of the latest ruling by the supervisor — so verify replays users,
checks signatures and checkpoints as well as the chain. `dealer audit verify --db LOG` is then
run `--runs` times as its own process; the median wall time, the median CPU time (user and
system: less moved than the wall time by other work on the machine) and the largest peak
resident memory (the process's own, from `wait4`) are printed. The log is built in a process of
its own: Linux carries a process's peak memory across `exec`, so a verify started by the
builder (scrypt takes 128 MiB a PIN) would report the builder's peak; the measuring process
imports the standard library only.

Run: .venv/bin/python benchmarks/bench_verify.py [--rulings N] [--runs R] [--log PATH]
     (`--log` keeps the log at PATH and reuses it when it is there: the same log measured
     before and after a change)
"""

from __future__ import annotations

import argparse
import multiprocessing
import statistics
import sys
import tempfile
from pathlib import Path

from processes import measured

DEALER = "Ks Kd 4c 4h As 9d 2c"
PLAYER = "Qs Qh Jc Jd 8s 3h 2d"
SUPERVISOR, AUDITOR = "sup-1", "aud-1"
PIN = "bench-pin-2468"
EVERY = 500
"""Rulings between two signed checkpoints (and two signed voids)."""


def build(path: str, rulings: int) -> None:
    """A log at `path` with `rulings` settles and the signed records described above."""
    from decimal import Decimal

    from dealer.audit import corrections, entries, open_log, staff
    from dealer.desk import paigow
    from dealer.desk.context import Desk, HouseRules
    from dealer.games.paigow.pay import Wager

    with open_log(path) as log:
        staff.add_user(log, SUPERVISOR, "supervisor", pin=PIN)
        staff.add_user(
            log, AUDITOR, "auditor", pin=PIN, supervisor_id=SUPERVISOR, supervisor_pin=PIN
        )
    house = HouseRules()
    wagers = paigow.seat_wagers(
        {
            Wager.BASE: Decimal(25),
            Wager.TREASURE: Decimal(5),
            Wager.PROGRESSIVE_TREASURE: Decimal(1),
        },
        (),
    )
    for i in range(rulings):
        desk = Desk(path, f"d-{1 + i % 4}", f"BV-{1 + i % 4}")
        made = paigow.settle(desk, house, DEALER, wagers, player=PLAYER, seat=1 + i % 6)
        if (i + 1) % EVERY == 0:
            with open_log(path) as log:
                entries.checkpoint(log, AUDITOR, PIN)
                corrections.void(
                    log, made.ruling_id, reason="misdeal", supervisor_id=SUPERVISOR, pin=PIN
                )


def measure(path: str, runs: int) -> None:
    """Print the median wall time and the largest peak memory of `runs` verifies of `path`."""
    dealer = str(Path(sys.executable).with_name("dealer"))
    results = [measured([dealer, "audit", "verify", "--db", path]) for _ in range(runs)]
    wall = statistics.median(result.wall for result in results)
    cpu = statistics.median(result.cpu for result in results)
    peak = max(result.peak_mb for result in results)
    print(results[0].out.strip())
    print(
        f"over {runs} runs: median {wall:.2f} s wall, {cpu:.2f} s CPU; "
        f"peak resident memory {peak:.1f} MB"
    )


def build_apart(path: str, rulings: int) -> None:
    """`build` in a process of its own (see the module's docstring)."""
    builder = multiprocessing.get_context("spawn").Process(target=build, args=(path, rulings))
    builder.start()
    builder.join()
    if builder.exitcode != 0:
        raise SystemExit("building the log failed")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rulings", type=int, default=4000, help="settles in the built log")
    parser.add_argument("--runs", type=int, default=7, help="verifies measured")
    parser.add_argument("--log", help="keep the log here (reused when it exists)")
    args = parser.parse_args()
    if args.log:
        if not Path(args.log).exists():
            build_apart(args.log, args.rulings)
        measure(args.log, args.runs)
        return
    with tempfile.TemporaryDirectory(dir=".") as folder:
        path = str(Path(folder) / "verify.sqlite")
        build_apart(path, args.rulings)
        measure(path, args.runs)


if __name__ == "__main__":
    main()
