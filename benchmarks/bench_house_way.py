"""In-process House Way setting speed: seven-card hands set per second on one core.

.venv/bin/python benchmarks/bench_house_way.py [--hands N] [--seed S]
"""

from __future__ import annotations

import argparse
import random
import time

from dealer.games.paigow.house_way import load_house_way, set_hand
from dealer.kernel.cards import DECK


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    rnd = random.Random(args.seed)
    hands = [rnd.sample(DECK, 7) for _ in range(args.hands)]
    for name in ("trump-plaza", "foxwoods"):
        way = load_house_way(name)
        start = time.perf_counter()
        for cards in hands:
            set_hand(cards, way)
        elapsed = time.perf_counter() - start
        rate = args.hands / elapsed
        print(f"{name:12} {args.hands:,} hands in {elapsed:.2f} s: {rate:,.0f} hands/s")


if __name__ == "__main__":
    main()
