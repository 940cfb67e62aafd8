"""The one input boundary: every value that comes from a person or a file becomes a domain value
here, before any game engine or the audit log sees it.

Money, seats, table ids, record ids, user ids, times, cards (through the kernel's one card
parser and the deck's vocabulary), text files and YAML documents. Each function raises a
`DealerError` whose message names the input and says what is allowed; nothing else in the
package parses what a person typed. (Structured readers — a round file, a table profile, a
House Way, a pay-table file — walk their documents and hand every leaf value to these.)
"""

from __future__ import annotations

import itertools
import os
import re
import stat
import sys
from collections.abc import Iterable
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any, BinaryIO

from dealer.kernel.errors import DealerError
from dealer.kernel.money import whole_cents

SEATS = range(1, 7)
"""The seats of a Pai Gow table (1-6)."""

_USER_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._@-]{0,63}")
_TIME_FORMAT = "%Y-%m-%dT%H:%M:%S.%fZ"


def money(value: object, what: str = "wager") -> Decimal:
    """An amount (a number, or text such as `25`, `12.50`, `$5`) as a Decimal of whole cents,
    zero or more."""
    if isinstance(value, bool):
        raise DealerError(f"{what} {value!r} is not an amount")
    try:
        amount = Decimal(str(value).strip().lstrip("$"))
    except InvalidOperation:
        raise DealerError(f"{what} {value!r} is not an amount") from None
    if not amount.is_finite() or amount < 0:
        raise DealerError(f"{what} {value!r} must be zero or more")
    if not whole_cents(amount):
        raise DealerError(f"{what} {value!r} has fractions of a cent")
    return amount


def optional_money(value: object | None, what: str) -> Decimal | None:
    """`money(value, what)`, or None where nothing was given."""
    return None if value is None else money(value, what)


def seat(value: object, seats: range = SEATS, what: str = "seat") -> int:
    """A seat number as people count them (from 1), within `seats`."""
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise DealerError(f"{what} {value!r}: seats are numbered {seats.start}-{seats.stop - 1}")
    text = str(value).strip()
    if not text.isdigit() or int(text) not in seats:
        raise DealerError(f"{what} {value!r}: seats are numbered {seats.start}-{seats.stop - 1}")
    return int(text)


def user_id(text: object) -> str:
    """A user id: letters, digits and `._@-`, up to 64 characters."""
    if not isinstance(text, str) or not _USER_ID.fullmatch(text):
        raise DealerError(
            f"user id {text!r} is not valid: use letters, digits and . _ @ - (up to 64)"
        )
    return text


def record_id(value: object, what: str = "record") -> int:
    """An audit record id: a whole number from 1."""
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise DealerError(f"{what} id {value!r} is not a record number")
    text = str(value).strip()
    if not text.isdigit() or int(text) < 1:
        raise DealerError(f"{what} id {value!r} is not a record number (1, 2, 3 …)")
    return int(text)


def signed_money(value: object, what: str) -> Decimal:
    """An amount with its direction: `money` after an optional `+` or `-` (`-25`, `+$12.50`),
    negative for `-`."""
    text = str(value).strip()
    negative = text.startswith("-")
    amount = money(text[1:] if text[:1] in ("+", "-") else text, what)
    return -amount if negative and amount else amount


def format_time(moment: datetime) -> str:
    """`moment` (aware) in the stored form, e.g. `2026-05-09T14:05:00.000000Z`."""
    return moment.astimezone(UTC).strftime(_TIME_FORMAT)


def time(text: str, *, end_of_day: bool = False) -> str:
    """A typed time as the stored UTC form. Times without an offset are UTC.

    A date alone (`2026-05-09`) means its start, or with `end_of_day` the start of the next day
    (so an `until` bound of a date covers the whole day).
    """
    typed = text.strip()
    try:
        if re.fullmatch(r"\d{4}-\d{2}-\d{2}", typed):
            day = date.fromisoformat(typed) + timedelta(days=1 if end_of_day else 0)
            return format_time(datetime(day.year, day.month, day.day, tzinfo=UTC))
        moment = datetime.fromisoformat(typed.replace("z", "Z"))
    except ValueError:
        raise DealerError(
            f"cannot read the time {text!r}: use YYYY-MM-DD or YYYY-MM-DDTHH:MM[:SS] "
            "(UTC unless followed by Z or an offset such as +02:00)"
        ) from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return format_time(moment)


KiB = 1024
MiB = 1024 * KiB

DOCUMENT_LIMIT = 1 * MiB
"""The largest YAML document or rules file read from a file: a table profile, a House Way, a
pay-table file, an Empire combination table, a file a supervisor approves, a checkpoint file.
(The largest shipped document is under 10 KiB.)"""

ROUND_FILE_LIMIT = 256 * KiB
"""The largest round file (from a file or standard input): six seats take under 2 KiB."""

BATCH_FILE_LIMIT = 16 * MiB
"""The largest batch file (`--batch FILE`, or standard input): about 200,000 rulings."""

BATCH_LINE_LIMIT = 4 * KiB
"""The longest line of a batch file."""


class InputFileError(DealerError):
    """A file (or standard input) that cannot be read: `what` it is, `where`, and the `reason`,
    one line that says what is allowed."""

    def __init__(self, what: str, where: str | Path, reason: str) -> None:
        super().__init__(f"cannot read {what} {where}: {reason}")
        self.what = what
        self.where = str(where)
        self.reason = reason


def _size(count: int) -> str:
    """A limit as people read it: `1 MiB`, `256 KiB`, `900 bytes`."""
    for unit, name in ((MiB, "MiB"), (KiB, "KiB")):
        if count >= unit and count % unit == 0:
            return f"{count // unit} {name}"
    return f"{count:,} bytes"


def _too_large(what: str, where: str | Path, limit: int) -> InputFileError:
    return InputFileError(
        what, where, f"it is larger than {_size(limit)}, the most a {what} may be"
    )


def _decoded(data: bytes, what: str, where: str | Path) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise InputFileError(
            what,
            where,
            f"it is not UTF-8 text (line {line}: byte 0x{data[exc.start]:02x}); save it as UTF-8",
        ) from None


def _open_file(path: str | Path, what: str, limit: int) -> BinaryIO:
    """The file at `path` opened to read bytes, once it is known to be a file within `limit`."""
    try:
        found = os.stat(path)
    except FileNotFoundError:
        raise InputFileError(what, path, "there is no such file") from None
    except OSError as exc:
        raise InputFileError(what, path, exc.strerror or str(exc)) from None
    if stat.S_ISDIR(found.st_mode):
        raise InputFileError(what, path, "it is a directory, not a file")
    if stat.S_ISREG(found.st_mode) and found.st_size > limit:
        raise _too_large(what, path, limit)
    try:
        return open(path, "rb")  # noqa: SIM115 - the caller closes it
    except OSError as exc:
        raise InputFileError(what, path, exc.strerror or str(exc)) from None


def _read_at_most(stream: Any, limit: int, what: str, where: str | Path) -> bytes:
    """At most `limit` bytes of `stream` (bytes, or text as UTF-8), refused when there are more."""
    data = stream.read(limit + 1)
    if isinstance(data, str):
        data = data.encode("utf-8", "surrogateescape")
    if len(data) > limit:
        raise _too_large(what, where, limit)
    return bytes(data)


def _stdin() -> Any:
    """Standard input as bytes where it has them (its text stream otherwise)."""
    return getattr(sys.stdin, "buffer", None) or sys.stdin


def text_file(path: str | Path, what: str, limit: int = DOCUMENT_LIMIT) -> str:
    """The UTF-8 text of the file at `path` (`what` names it in an error, e.g. `round file`),
    of at most `limit` bytes: its size is checked before it is read, and no more than
    `limit` + 1 bytes are ever read. Refused as an `InputFileError`: no such file, a directory,
    too large, not UTF-8."""
    with _open_file(path, what, limit) as stream:
        try:
            data = _read_at_most(stream, limit, what, path)
        except OSError as exc:
            raise InputFileError(what, path, exc.strerror or str(exc)) from None
    return _decoded(data, what, path)


def text_or_stdin(source: str, what: str, limit: int = DOCUMENT_LIMIT) -> tuple[str, str]:
    """The text of a file, or of standard input for `-` (both at most `limit` bytes); and where
    it came from."""
    if source == "-":
        return _decoded(_read_at_most(_stdin(), limit, what, "stdin"), what, "stdin"), "stdin"
    return text_file(source, what, limit), source


def document(text: str, origin: str) -> Any:
    """A YAML (or JSON) document's content, parsed safely; errors name `origin` and the line."""
    from dealer.kernel.documents import DocumentSyntaxError, load_yaml

    try:
        return load_yaml(text)
    except DocumentSyntaxError as exc:
        where = f" line {exc.line}" if exc.line else ""
        raise DealerError(f"{origin}{where} is not valid YAML: {exc.problem}") from None


def lines(
    source: str,
    what: str = "batch file",
    limit: int = BATCH_FILE_LIMIT,
    line_limit: int = BATCH_LINE_LIMIT,
) -> Iterable[tuple[int, str]]:
    """Numbered non-blank, non-comment lines of a file, or of standard input for `-`.

    A file is read and checked whole (at most `limit` bytes, UTF-8, no line over `line_limit`
    bytes) before its first line is given, so a bad file is refused before anything is ruled.
    Standard input is read a line at a time as it comes (at most `line_limit` bytes of a line
    and `limit` in all), each line checked as it is read."""
    if source != "-":
        text = text_file(source, what, limit)
        numbered = list(enumerate(text.splitlines(), 1))
        for number, line in numbered:
            if len(line.encode("utf-8")) > line_limit:
                raise _long_line(what, source, number, line_limit)
        for number, line in numbered:
            if (kept := _kept(line)) is not None:
                yield number, kept
        return
    stream, total = _stdin(), 0
    for number in itertools.count(1):
        raw = stream.readline(line_limit + 1)
        if not raw:
            return
        data = raw.encode("utf-8", "surrogateescape") if isinstance(raw, str) else bytes(raw)
        total += len(data)
        if total > limit:
            raise _too_large(what, "stdin", limit)
        if len(data.rstrip(b"\r\n")) > line_limit:
            raise _long_line(what, "stdin", number, line_limit)
        try:
            line = data.decode("utf-8")
        except UnicodeDecodeError:
            raise InputFileError(
                what, "stdin", f"line {number} is not UTF-8 text; send UTF-8"
            ) from None
        if (kept := _kept(line)) is not None:
            yield number, kept


def _kept(line: str) -> str | None:
    text = line.strip()
    return text if text and not text.startswith("#") else None


def _long_line(what: str, where: str | Path, number: int, line_limit: int) -> InputFileError:
    return InputFileError(
        what, where, f"line {number} is longer than {_size(line_limit)}, the most a line may be"
    )
