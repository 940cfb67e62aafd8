"""Wall time of the exact seven-card event count over all C(53,7) hands, for both orders.

Run: .venv/bin/python benchmarks/bench_exact.py
"""

from __future__ import annotations

import time

from dealer.analysis.exact import FULL_DECK, clear_cache, count_events, event_order


def main() -> None:
    """Time a cold count for each order, then a cached call, and print the counts."""
    results = {}
    for order in ("paytable", "poker"):
        clear_cache()
        start = time.perf_counter()
        results[order] = count_events(order)
        print(f"count_events({order!r}) cold: {time.perf_counter() - start:.2f} s")
    start = time.perf_counter()
    count_events("paytable")
    print(f"count_events('paytable') cached: {(time.perf_counter() - start) * 1e6:.0f} µs")
    print(f"{'event':40}{'paytable':>14}{'poker':>14}")
    for event in event_order("paytable"):
        print(f"{event:40}{results['paytable'][event]:>14,}{results['poker'][event]:>14,}")
    print(f"{'total':40}{sum(results['paytable'].values()):>14,}{FULL_DECK.hands:>14,}")


if __name__ == "__main__":
    main()
