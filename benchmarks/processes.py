"""One command run as a whole process and measured: what the benchmarks that time `dealer`
commands share.

The peak resident memory is the process's own, read from `os.wait4` when it ends: Linux
carries a process's peak across `exec`, so the measuring process must stay small itself
(it imports the standard library only)."""

from __future__ import annotations

import os
import subprocess
import time
from typing import NamedTuple


class Run(NamedTuple):
    """A finished command: wall and CPU (user and system) seconds, peak resident memory in MB,
    and what it printed."""

    wall: float
    cpu: float
    peak_mb: float
    out: str


def measured(command: list[str]) -> Run:
    """Run `command` to its end and measure it; SystemExit naming it if it fails."""
    began = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    assert process.stdout is not None
    out = process.stdout.read()
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - began
    code = os.waitstatus_to_exitcode(status)
    if code:
        raise SystemExit(f"{' '.join(command)} failed with exit status {code}")
    return Run(wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, out)
