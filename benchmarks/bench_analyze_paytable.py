"""Wall time of the full exact analysis of pay tables over all C(53,7) = 154,143,080 hands.

Each table is timed cold (the hand counts computed afresh, as `dealer analyze paytable` does in
a new process) and then warm (counts cached: the pay-table arithmetic alone).

Run: .venv/bin/python benchmarks/bench_analyze_paytable.py [TABLE_ID ...]
"""

from __future__ import annotations

import sys
import time
from decimal import Decimal

from dealer.analysis.exact import clear_cache
from dealer.analysis.paytable_return import analyze_paytable
from dealer.games.paigow.paytables import shipped_paytables

METERS = {"progressive_insurance": Decimal(5000), "progressive_treasure": Decimal(10000)}


def main() -> None:
    """Time each named table (default: one of each wager), cold then warm."""
    tables = shipped_paytables()
    ids = sys.argv[1:] or [
        "PT-FLT-EC-PGI-01",
        "PT-FLT-EC-ET-02",
        "E01",
        "PT-BJS-EC-PGI-01",
        "PT-BJS-EC-ET-03",
    ]
    print(f"{'table':18}{'cold s':>9}{'warm ms':>10}{'house edge':>13}")
    for table_id in ids:
        table = tables.get(table_id)
        meter = METERS.get(table.wager)
        clear_cache()
        start = time.perf_counter()
        analysis = analyze_paytable(table, Decimal(1), meter)
        cold = time.perf_counter() - start
        start = time.perf_counter()
        analyze_paytable(table, Decimal(1), meter)
        warm = time.perf_counter() - start
        print(f"{table_id:18}{cold:9.2f}{warm * 1000:10.2f}{float(analysis.house_edge):13.6f}")
    start = time.perf_counter()
    for table in tables:
        analyze_paytable(table, Decimal(1), METERS.get(table.wager))
    print(f"all {len(tables)} shipped tables, counts cached: {time.perf_counter() - start:.3f} s")


if __name__ == "__main__":
    main()
