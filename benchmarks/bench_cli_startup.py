"""Whole-process cost of one ruling: `dealer paigow set … --json` vs `python -c "import typer"`.

    .venv/bin/python benchmarks/bench_cli_startup.py [--runs N]

Prints the median wall time of each and their ratio (the target is at most 1.5).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def _median_wall(cmd: list[str], runs: int, env: dict[str, str]) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, env=env)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=21)
    parser.add_argument(
        "--dir", default=None, help="Where the audit database goes (e.g. /dev/shm for tmpfs)."
    )
    args = parser.parse_args()
    dealer = str(Path(sys.executable).with_name("dealer"))
    subprocess.run(
        [sys.executable, "-m", "compileall", "-q", str(Path(__file__).parents[1] / "dealer")],
        check=True,
    )  # bytecode, as an installed package has it
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        env = {**os.environ, "DEALER_DB": str(Path(tmp) / "bench.sqlite")}
        cmd = [dealer, "paigow", "set", "As Kd 9c 7h 5s 3d JK", "--json"]
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, env=env)  # creates the db
        base = _median_wall([sys.executable, "-c", "import typer"], args.runs, env)
        ours = _median_wall(cmd, args.runs, env)
    print(f"python -c 'import typer'      median {base * 1000:6.1f} ms")
    print(f"dealer paigow set … --json    median {ours * 1000:6.1f} ms")
    print(f"ratio {ours / base:.2f} (target at most 1.5)")


if __name__ == "__main__":
    main()
