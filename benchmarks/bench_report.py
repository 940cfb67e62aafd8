"""Wall time of `dealer analyze report`: the exact report of every shipped pay table, counted
over all C(53,7) = 154,143,080 hands in a new process, as an operator runs it.

    .venv/bin/python benchmarks/bench_report.py [--runs N]

Prints each run's wall and CPU time and the median wall time (the target is at most 5 s).
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    dealer = str(Path(sys.executable).with_name("dealer"))
    walls = []
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "DEALER_DB": str(Path(tmp) / "bench.sqlite")}
        for run in range(1, args.runs + 1):
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            start = time.perf_counter()
            cmd = [dealer, "analyze", "report"]
            subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, env=env)
            wall = time.perf_counter() - start
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
            walls.append(wall)
            print(f"run {run}: {wall:.2f} s wall, {cpu:.2f} s CPU")
    print(
        f"dealer analyze report: median {statistics.median(walls):.2f} s wall (target at most 5 s)"
    )


if __name__ == "__main__":
    main()
