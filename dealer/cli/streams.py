"""The process's standard streams as a command may find them: closed (`>&-`, `<&-`), full
(`/dev/full`) or gone (a reader that left).

`guard()` runs once, at the start of the console script, before any command: a closed stdout
becomes one that refuses the first write, and a failing one one that says why — both as a
`StreamError`, a domain error, so the error boundary prints one `Error:` line on stderr and
leaves with status 1 (a usage error keeps its 2: nothing was written to stdout). After that
first failure the stream takes every later write and flush silently, so nothing is said twice
and the interpreter's last flush at exit is quiet. A closed stdin refuses every read the same
way. A closed stderr becomes the null device: where nothing can be said, the exit status still
tells. A reader that left (`BrokenPipeError`) is not an error of ours: it passes through to the
boundary, which leaves quietly."""

from __future__ import annotations

import io
import os
import sys
from typing import Any, NoReturn, TextIO

from dealer.kernel.errors import DealerError


class StreamError(DealerError):
    """A standard stream is closed or failed."""


class _Output(io.TextIOBase):
    """Standard output (or a stand-in for it, when closed) that fails once, in words."""

    def __init__(self, stream: TextIO | None) -> None:
        self._stream = stream
        self._failed = False

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return self._stream.encoding if self._stream is not None else "utf-8"

    @property
    def errors(self) -> str | None:  # type: ignore[override]
        return self._stream.errors if self._stream is not None else "strict"

    def writable(self) -> bool:
        return True

    def isatty(self) -> bool:
        return self._stream is not None and self._stream.isatty()

    def fileno(self) -> int:
        if self._stream is None:
            raise io.UnsupportedOperation("standard output is closed")
        return self._stream.fileno()

    def write(self, text: Any) -> int:
        if not isinstance(text, str):
            raise TypeError("standard output takes text")
        if self._failed or not text:  # nothing to write (the framework probes with "")
            return len(text)
        if self._stream is None:
            return self._fail("is closed")
        return self._guarded(self._stream.write, text)

    def flush(self) -> None:
        if self._stream is not None and not self._failed:
            self._guarded(self._stream.flush)

    def _guarded(self, call: Any, *args: Any) -> Any:
        assert self._stream is not None
        try:
            return call(*args)
        except BrokenPipeError:
            self._failed = True
            raise
        except OSError as exc:
            self._fail(f"failed ({exc.strerror or exc})")

    def _fail(self, how: str) -> NoReturn:
        self._failed = True
        raise StreamError(f"standard output {how}")


class _ClosedInput(io.TextIOBase):
    """Standard input when it is closed: every read refused in words."""

    def readable(self) -> bool:
        return True

    def isatty(self) -> bool:
        return False

    def read(self, size: int | None = -1) -> str:
        raise StreamError("standard input is closed")

    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        raise StreamError("standard input is closed")


WIDTH_LIMIT = 400
"""The widest a line of help or of a table is drawn, whatever `COLUMNS` says (a width of ten
million made one `--help` take 16 s and 330 MB of spaces)."""


def guard() -> None:
    """Put the stand-ins in place of the standard streams (see the module's docstring), and
    bound the terminal width the environment gives (`COLUMNS`: decimal digits, at most
    `WIDTH_LIMIT`; anything else, zero included, is dropped and the terminal asked)."""
    columns = os.environ.get("COLUMNS")
    if columns is not None:
        digits = columns.isascii() and columns.isdigit() and 0 < len(columns) <= 6
        if not digits or int(columns) == 0:
            del os.environ["COLUMNS"]
        elif int(columns) > WIDTH_LIMIT:
            os.environ["COLUMNS"] = str(WIDTH_LIMIT)
    if sys.stderr is None:
        sys.stderr = open(os.devnull, "w")  # noqa: SIM115 - lives as long as the process
    if sys.stdin is None:
        sys.stdin = _ClosedInput()
    sys.stdout = _Output(sys.stdout)
