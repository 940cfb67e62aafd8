"""How fast Ctrl-C stops a long command: `dealer analyze house-edge` on worker processes.

    .venv/bin/python benchmarks/interrupt_latency.py [--runs N] [--workers W] [--after S]

Each run starts a simulation far too long to finish, waits until its workers are started and
then `--after` seconds more (so that every worker is busy with a chunk), sends SIGINT and times
how long until the command has exited (its workers are stopped before it exits). Three ways of
sending it, in turn: to the process group (Ctrl-C at a terminal), to the command alone when a
script started it with SIGINT ignored (`kill -INT PID`), and twice 5 ms apart to the group (a
second Ctrl-C while stopping). Prints the median and the slowest stop of each, and any run
that did not end with exit status 130, `Error: interrupted` alone on stderr and no worker left.
"""

from __future__ import annotations

import argparse
import os
import select
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HOUSE_EDGE = ["analyze", "house-edge", "--rounds", "100000000", "--player", "house-way"]


def _children(pid: int) -> set[int]:
    """The live child processes of `pid` (from /proc)."""
    found = set()
    for entry in Path("/proc").iterdir():
        try:
            text = (entry / "stat").read_text()
        except (OSError, ValueError):
            continue
        fields = text[text.rindex(")") + 2 :].split()
        if fields[1] == str(pid) and fields[0] != "Z":
            found.add(int(entry.name))
    return found


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def _run(how: str, workers: int, after: float, folder: str) -> tuple[float, str | None]:
    """One interrupted simulation: seconds from SIGINT to exit, and what was wrong, if anything."""
    command = [sys.executable, "-m", "dealer", *HOUSE_EDGE, "--workers", str(workers)]
    if how == "kill -INT":
        command = ["sh", "-c", "trap '' INT; exec \"$@\"", "sh", *command]
    proc = subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=folder,
        start_new_session=True,
    )
    while len(started := _children(proc.pid)) < workers:
        if proc.poll() is not None:
            return 0.0, f"ended first: {proc.communicate()}"
        time.sleep(0.01)
    time.sleep(after)
    exited = os.pidfd_open(proc.pid)
    start = time.perf_counter()
    if how == "kill -INT":
        os.kill(proc.pid, signal.SIGINT)
    else:
        os.killpg(proc.pid, signal.SIGINT)
        if how == "Ctrl-C twice":
            time.sleep(0.005)
            os.killpg(proc.pid, signal.SIGINT)
    ended, _, _ = select.select([exited], [], [], 60)  # readable once the command has exited
    elapsed = time.perf_counter() - start
    os.close(exited)
    if not ended:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        return elapsed, "did not stop within 60 s"
    out, err = proc.communicate()
    left = sorted(pid for pid in started if _alive(pid))
    if (proc.returncode, out, err) != (130, "", "Error: interrupted\n") or left:
        return elapsed, f"exit {proc.returncode}, stdout {out!r}, stderr {err!r}, left {left}"
    return elapsed, None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--after", type=float, default=1.0)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        for how in ("Ctrl-C", "kill -INT", "Ctrl-C twice"):
            times, wrong = [], []
            for _ in range(args.runs):
                elapsed, problem = _run(how, args.workers, args.after, folder)
                times.append(elapsed)
                if problem is not None:
                    wrong.append(problem)
            print(
                f"{how:12} {args.runs} runs, {args.workers} workers: stopped in median "
                f"{statistics.median(times) * 1000:.0f} ms, slowest {max(times) * 1000:.0f} ms"
                + (f"; {len(wrong)} wrong" if wrong else "; every run exit 130, one line")
            )
            for problem in wrong:
                print(f"    {problem}")


if __name__ == "__main__":
    main()
