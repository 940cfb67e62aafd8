"""One command run as a whole process and measured: what the benchmarks that time `dealer`
commands share.

The peak resident memory is the process's own, read from `os.wait4` when it ends: Linux
carries a process's peak across `exec`, so the measuring process must stay small itself
(it imports the standard library only); a caller that is large itself measures through a small
process of its own (`measured_apart`)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from typing import NamedTuple


class Run(NamedTuple):
    """A finished command: wall and CPU (user and system) seconds, peak resident memory in MB,
    what it printed, and whether it was killed at its timeout (its figures then up to then)."""

    wall: float
    cpu: float
    peak_mb: float
    out: str
    killed: bool = False


def measured(
    command: list[str], timeout: float | None = None, env: dict[str, str] | None = None
) -> Run:
    """Run `command` (in `env`, default this process's) to its end and measure it; killed
    after `timeout` seconds if it is still running (`Run.killed`); SystemExit naming it if it
    fails."""
    began = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True, env=env)
    assert process.stdout is not None
    timer = threading.Timer(timeout or 0, process.kill)
    if timeout is not None:
        timer.start()
    out = process.stdout.read()
    _, status, usage = os.wait4(process.pid, 0)
    timer.cancel()
    wall = time.perf_counter() - began
    code = os.waitstatus_to_exitcode(status)
    killed = timeout is not None and code == -signal.SIGKILL
    if code and not killed:
        raise SystemExit(f"{' '.join(command)} failed with exit status {code}")
    return Run(wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, out, killed)


def measured_apart(
    command: list[str], timeout: float | None = None, env: dict[str, str] | None = None
) -> Run:
    """`measured`, by this module run as a small process of its own: for a caller whose own
    peak memory a child would start from (one that imported the program)."""
    asked = json.dumps({"command": command, "timeout": timeout})
    done = subprocess.run(
        [sys.executable, "-S", __file__, asked], env=env, capture_output=True, text=True
    )
    if done.returncode:
        raise SystemExit(done.stderr.strip() or f"{' '.join(command)} could not be measured")
    return Run(**json.loads(done.stdout))


if __name__ == "__main__":
    asked = json.loads(sys.argv[1])
    json.dump(measured(asked["command"], asked["timeout"])._asdict(), sys.stdout)
