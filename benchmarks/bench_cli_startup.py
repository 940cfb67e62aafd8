"""Whole-process cost of one ruling: `dealer paigow set … --json` vs `python -c "import typer"`.

    .venv/bin/python benchmarks/bench_cli_startup.py [--runs N] [--dir /dev/shm]

Prints the median wall time of each and their ratio (the target is at most 1.3). A ruling's
durable write syncs the disk five times (the commit, the new write-ahead log's folder, and the
checkpoint when the process closes the log): nothing on a quiet machine, many milliseconds
while others load the disk. `--dir /dev/shm` keeps the database in memory to measure the rest;
`valgrind --tool=callgrind` counts each command's instructions, which the load does not move.
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


def _interleaved(commands: list[list[str]], runs: int, env: dict[str, str]) -> list[float]:
    """Median wall time of each command, the commands run in turn so that both see the same
    machine (its speed drifts from minute to minute)."""
    times: list[list[float]] = [[] for _ in commands]
    for _ in range(runs):
        for i, cmd in enumerate(commands):
            start = time.perf_counter()
            subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, env=env)
            times[i].append(time.perf_counter() - start)
    return [statistics.median(t) for t in times]


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
        base, ours = _interleaved([[sys.executable, "-c", "import typer"], cmd], args.runs, env)
    print(f"python -c 'import typer'      median {base * 1000:6.1f} ms")
    print(f"dealer paigow set … --json    median {ours * 1000:6.1f} ms")
    print(f"ratio {ours / base:.2f} (target at most 1.3)")


if __name__ == "__main__":
    main()
