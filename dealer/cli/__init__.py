"""The command line (layer 6 of `docs/architecture.md`), and its entry point.

`main` is the console script. It takes Ctrl-C (SIGINT) and SIGTERM before anything else is
imported, so that a signal in the first fraction of a second, while the framework loads, ends
the command with its one line (`Error: interrupted`, 130; `Error: terminated`, 143) rather than
a traceback or a silent death; and it ignores both once the command has finished, so that one
arriving while Python shuts down (which gives the signals back to the system) cannot kill a
process whose ruling is already recorded and shown.

The command framework is imported with Python's cyclic garbage collector paused, and the
objects it made are then left out of every later collection (`gc.freeze`): they live as long as
the process, and scanning them again and again was a tenth of a ruling's start-up. The
collector then runs as it did (for a live session's objects, a server's)."""

import gc
import sys
from collections.abc import Iterator
from contextlib import contextmanager

from dealer.cli import signals


@contextmanager
def collector_paused() -> Iterator[None]:
    """Run the block with the garbage collector paused, then freeze what it made (it lives to
    the end of the process) and let the collector run as it did before."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        if collecting:
            gc.enable()


def _stopped_loading(message: str, status: int) -> None:
    """A signal while the command was still loading: nothing was done; say so in one line."""
    if "--json" in sys.argv[1:]:
        import json

        line = json.dumps({"error": message, "exit": status})
    else:
        line = f"Error: {message}"
    if sys.stderr is not None:
        print(line, file=sys.stderr)
    sys.exit(status)


def main() -> None:
    """Console-script entry point: the signals taken first (`signals.take`), the command built,
    the standard streams guarded (`streams.guard`), the command run."""
    signals.take()
    try:
        with collector_paused():  # its modules live to the end
            from dealer.cli import app, streams

            command = app.for_command_line(sys.argv[1:])
        streams.guard()
    except KeyboardInterrupt:
        _stopped_loading("interrupted", 130)
    except signals.Terminated:
        _stopped_loading("terminated", 143)
    try:
        command()
    finally:
        signals.ignore()
