"""The command line (layer 6 of `docs/architecture.md`).

The command framework is imported here with Python's cyclic garbage collector paused, and the
objects it made are then left out of every later collection (`gc.freeze`): they live as long as
the process, and scanning them again and again was a tenth of a ruling's start-up. The
collector then runs as it did (for a live session's objects, a server's)."""

import gc

_collecting = gc.isenabled()
gc.disable()
try:
    import typer  # noqa: F401 - every command module needs it
finally:
    gc.freeze()
    if _collecting:
        gc.enable()
