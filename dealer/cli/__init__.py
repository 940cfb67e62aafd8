"""The command line (layer 6 of `docs/architecture.md`).

The command framework is imported here with Python's cyclic garbage collector paused, and the
objects it made are then left out of every later collection (`gc.freeze`): they live as long as
the process, and scanning them again and again was a tenth of a ruling's start-up. The
collector then runs as it did (for a live session's objects, a server's). `app.main` builds the
command the same way (`collector_paused`)."""

import gc
from collections.abc import Iterator
from contextlib import contextmanager


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


with collector_paused():
    import typer  # noqa: F401 - every command module needs it
