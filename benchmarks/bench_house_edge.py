"""Base-game house-edge simulation: rounds per second on every core, and the figures.

A round is one deal (dealer and player, seven cards each) settled for each House Way asked for
and each player mode (the House Way's setting, and the best reply to the exposed dealer hand).

The target is a million rounds of one House Way in at most 30 s on 2 cores; the figures (each
with its standard error) depend only on the rounds and the seed, never on the workers.
Measured: 20.8 s and 35.7 s with the machine loaded by others (load 4-6 on 2 cores), against
116.5 s for the code before in the same minutes (37.4 s quiet). A worker keeps what a hand's
ranks decide, so its first rounds are the slowest: fewer rounds run at fewer rounds a second.

Run: .venv/bin/python benchmarks/bench_house_edge.py [--rounds N] [--seed S] [--workers W]
     [--house-way NAME ...] [--player house-way|best ...]
"""

from __future__ import annotations

import argparse
import os
import time

from dealer.analysis.house_edge import PLAYER_MODES, simulate
from dealer.games.paigow.house_way import load_house_way


def main() -> None:
    """Simulate, time it, and print the figures with their standard errors."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--house-way", action="append", dest="ways")
    parser.add_argument("--player", action="append", dest="players", choices=PLAYER_MODES)
    args = parser.parse_args()
    ways = [load_house_way(name) for name in args.ways or ["trump-plaza"]]
    players = args.players or list(PLAYER_MODES)
    start = time.perf_counter()
    report = simulate(args.rounds, args.seed, ways, players, workers=args.workers)
    elapsed = time.perf_counter() - start
    print(
        f"{args.rounds:,} rounds x {len(ways)} way(s) x {len(players)} mode(s) on "
        f"{args.workers} worker(s): {elapsed:.1f} s, {args.rounds / elapsed:,.0f} rounds/s"
    )
    for s in report.strategies:
        hands = s.hand_outcomes()
        ses = s.hand_standard_errors()
        print(
            f"{s.house_way} / {s.player}: "
            + ", ".join(f"{k} {hands[k]:.4%} (SE {ses[k]:.4%})" for k in hands)
        )
        for option in ("half-pay", "push-king-or-less", "push-ace-high"):
            o = s.option(option)
            lo, hi = o.ci95
            print(
                f"    {option:18} house edge {o.house_edge:.4%} (SE {o.standard_error:.4%}, "
                f"95% CI {lo:.4%} to {hi:.4%})"
            )


if __name__ == "__main__":
    main()
