"""The one input boundary: every value that comes from a person or a file becomes a domain value
here, before any game engine or the audit log sees it.

Money, seats, table ids, patron ids, record ids, user ids, times, cards (through the kernel's
one card parser and the deck's vocabulary), text files and YAML documents. Each function raises a
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
from decimal import Decimal
from pathlib import Path
from typing import Any, BinaryIO

from dealer.kernel import names
from dealer.kernel.errors import DealerError
from dealer.kernel.money import CENT, fmt_money, money_json
from dealer.kernel.text import has_control, quoted

PAIGOW_SEATS = range(1, 7)
"""The seats of a Pai Gow table (1-6): `seat`'s default, a round file's and the live table's
seats."""

_USER_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._@-]{0,63}")
_TABLE_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._@#-]{0,63}")
_WHOLE = re.compile(r"[0-9]+")
TIME_FORMAT = "%Y-%m-%dT%H:%M:%S.%fZ"
"""How a record's time is stored: UTC, to the microsecond, marked Z."""


WAGER_LIMIT = Decimal(1_000_000)
"""The largest amount typed or filed — a wager, a meter value, a profile's limit, cap, seed or
meter cap: $1,000,000 (a table's own limits are far below it; the bound keeps every sum exact
and finite). A dispute's amount adjusted has its own bound (`audit.disputes.AMOUNT_LIMIT`)."""
AMOUNT_FORM = "digits with at most one decimal point and two decimals, e.g. 25, 12.50 or $25"
"""What an amount may look like, as an error says it."""

_AMOUNT = re.compile(r"\$?(0|[1-9][0-9]{0,11})(?:\.([0-9]{1,2}))?")


def money(value: object, what: str = "wager", *, limit: Decimal = WAGER_LIMIT) -> Decimal:
    """An amount of money as a Decimal of whole cents, from 0 to `limit`.

    Typed or in a file as text: ASCII digits with at most one decimal point and at most two
    decimals, optionally after one `$` (`25`, `12.50`, `$25`, `0.50`). Refused: thousands
    separators (`1,000` — write `1000`), a decimal comma (`7,50`), signs (`+25`, `-5`), leading
    zeros (`025`, which YAML 1.1 and C read as octal 21: write `25`), exponents (`1e3`),
    `nan`/`inf`, other digits (`５`) and fractions of a cent. A document's values are text and
    read the same way (`dealer.kernel.documents`); a JSON number (`25`, `12.5`) too."""
    if isinstance(value, Decimal | int) and not isinstance(value, bool):
        amount = Decimal(value)
        text = str(value)
    elif isinstance(value, str | float) and not isinstance(value, bool):
        text = value.strip() if isinstance(value, str) else repr(value)
        found = _AMOUNT.fullmatch(text)
        if found is None:
            raise DealerError(f"{what} {quoted(text)} is not an amount: {_hint(text, limit)}")
        amount = Decimal(f"{found[1]}.{found[2] or '0'}")
    else:
        raise DealerError(f"{what} {quoted(value)} is not an amount: use {AMOUNT_FORM}")
    if not amount.is_finite():
        raise DealerError(f"{what} {quoted(text)} is not an amount: use {AMOUNT_FORM}")
    if amount < 0:
        raise DealerError(f"{what} {quoted(text)} is not an amount: an amount is zero or more")
    if amount > limit:
        raise DealerError(
            f"{what} {quoted(text)} is more than {fmt_money(limit)}, the most allowed"
        )
    if amount != amount.quantize(CENT):
        raise DealerError(f"{what} {quoted(text)} has fractions of a cent")
    return amount.quantize(CENT) if amount != amount.to_integral_value() else Decimal(int(amount))


def _hint(text: str, limit: Decimal) -> str:
    """What is wrong with a typed amount, in words."""
    if "," in text:
        return "write it without thousands separators (1000, not 1,000)"
    if text.startswith("-"):
        return "an amount is zero or more"
    if re.fullmatch(r"\$?0[0-9]+(\.[0-9]*)?", text):
        return "write it without leading zeros (25, not 025)"
    if re.fullmatch(r"\$?[0-9]+\.[0-9]{3,}", text):
        return "amounts are whole cents (at most two decimals)"
    if re.fullmatch(r"\$?[0-9]{13,}(\.[0-9]*)?", text):
        return f"the most allowed is {fmt_money(limit)}"
    return f"use {AMOUNT_FORM}"


def optional_money(
    value: object | None, what: str, *, limit: Decimal = WAGER_LIMIT
) -> Decimal | None:
    """`money(value, what)`, or None where nothing was given."""
    return None if value is None else money(value, what, limit=limit)


_DECIMAL = re.compile(r"(0|[1-9][0-9]*)(?:\.([0-9]+))?")
"""A number in decimal as the documents and `--rule` values write it: ASCII digits, no sign, no
leading zero, at most one decimal point (no `0x19`, `1_000`, `1:05`, `2.5e+1`, `+25`, `010000`)."""


def _decimal_text(value: object) -> str | None:
    """`value` as its decimal text: a document's text as written, an int (not a bool) as digits;
    None for anything else (a float, a list, a yes or no)."""
    if isinstance(value, str):
        return value.strip()
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    return None


def whole_number(value: object, what: str, *, least: int = 0, most: int) -> int:
    """A whole number from `least` to `most`, as a document or `--rule` writes it (text) or as
    an int: decimal digits only (`_DECIMAL` without a point). The one rule for every count,
    seat, rank and schema number a document holds."""
    if isinstance(value, int) and not isinstance(value, bool) and not least <= value <= most:
        raise DealerError(f"{what} is not from {least:,} to {most:,}")  # not shown: it may be huge
    text = _decimal_text(value)
    found = None if text is None else _DECIMAL.fullmatch(text)
    if text is None or found is None or found[2] is not None:
        raise DealerError(
            f"{what} {quoted(value)} is not a whole number: write it in decimal digits, "
            "without a sign, leading zeros or separators (e.g. 12)"
        )
    if len(text) > len(str(most)) or not least <= int(text) <= most:
        raise DealerError(f"{what} {quoted(value)} is not from {least:,} to {most:,}")
    return int(text)


def decimal_number(value: object, what: str, *, places: int, most: Decimal) -> Decimal:
    """A number from 0 to `most` with at most `places` decimals, as a document or `--rule`
    writes it (text) or as an int: a share (`0.25`), a pay's odds (`7.5`), a percentage. Written
    as `_DECIMAL` says; a comma is never read as a decimal point or a separator."""
    text = _decimal_text(value)
    found = None if text is None else _DECIMAL.fullmatch(text)
    if text is None or found is None:
        comma = text is not None and "," in text
        raise DealerError(
            f"{what} {quoted(value)} is not a number: write it in decimal digits with at most "
            f"one decimal point, without a sign, leading zeros or exponent (e.g. 7.5)"
            + (" — a comma is never read as a decimal point or a separator" if comma else "")
        )
    if len(found[2] or "") > places:
        raise DealerError(f"{what} {quoted(value)} has more than {places} decimals")
    if len(found[1]) > len(str(int(most))) or (number := Decimal(text)) > most:
        raise DealerError(f"{what} {quoted(value)} is more than {most:,}, the most allowed")
    return number


def seat(value: object, seats: range = PAIGOW_SEATS, what: str = "seat") -> int:
    """A seat number as people count them (from 1), within `seats`."""
    text = (
        str(value).strip() if isinstance(value, int | str) and not isinstance(value, bool) else ""
    )
    too_long = len(text.lstrip("0")) > len(str(seats.stop))  # never int() of 5,000 digits
    if not _WHOLE.fullmatch(text) or too_long or int(text) not in seats:
        raise DealerError(
            f"{what} {quoted(value)}: seats are numbered {seats.start}-{seats.stop - 1}"
        )
    return int(text)


_SEAT_FIRST = re.compile(r"seat\s+(\S+?)\s*:?(?:\s+(.*))?", re.IGNORECASE)
_SEAT_TYPED = re.compile(r"[0-9]{1,9}")
"""A seat as typed: ASCII digits (no lookalike digit, no superscript), at most nine."""


def seat_first(text: str) -> tuple[int | None, str]:
    """A live session's move, `seat N` (or `seat N:`) before it or not: the seat as people count
    seats (None: not named; the game decides whether it may move) and the move after it."""
    words = text.strip()
    named = _SEAT_FIRST.fullmatch(words)
    if named is None:
        return None, words
    if not _SEAT_TYPED.fullmatch(named.group(1)):
        raise DealerError(f"seat {named.group(1)!r} is not a seat number")
    return int(named.group(1)), named.group(2) or ""


ID_LIMIT = 64
"""The most characters of an id: a user's, a table's, a patron's, a pay table's."""


def beyond_ascii(text: object) -> str | None:
    """What an id refused for a character beyond ASCII holds, in words: the look-alike the rule
    of names finds (`kernel.names`: another script's letter among Latin ones, an invisible
    character …), else the first character that is not ASCII; None for ASCII (or a text longer
    than any id, whose length is what is refused)."""
    if not isinstance(text, str) or text.isascii() or len(text) > ID_LIMIT:
        return None
    refused = names.refusal(text)
    if refused is not None:
        return refused.found
    return f"{names.character(next(char for char in text if not char.isascii()))} is not ASCII"


def _identifier(text: object, what: str, pattern: re.Pattern[str], marks: str) -> str:
    """An id that `pattern` takes: letters and digits of ASCII and the `marks` given (`. _ @
    -`), up to `ID_LIMIT` characters. A character beyond ASCII is named (`beyond_ascii`)."""
    if isinstance(text, str) and pattern.fullmatch(text):
        return text
    found = beyond_ascii(text)
    if found is not None:
        raise DealerError(
            f"{what} {quoted(text)} is not valid: {found}: use ASCII letters, digits and "
            f"{marks} (up to {ID_LIMIT})"
        )
    raise DealerError(
        f"{what} {quoted(text)} is not valid: use letters, digits and {marks} (up to {ID_LIMIT})"
    )


def user_id(text: object, what: str = "user id") -> str:
    """A user id: letters, digits and `._@-`, up to 64 characters (`_identifier`)."""
    return _identifier(text, what, _USER_ID, ". _ @ -")


def login_name() -> str:
    """Who is at this terminal when a command names no user: the operating system's login name
    (`getpass.getuser`: LOGNAME, USER, … then the password database), where it is a valid user
    id; else `unknown`. A ruling names its maker by it, and a refusal of a typed PIN names it as
    who typed it."""
    import getpass  # only when no --user is given (it loads termios)

    try:
        return user_id(getpass.getuser())
    except (KeyError, OSError, DealerError):
        return "unknown"


def table_id(text: object) -> str:
    """A table id (`PG-3`, `main.7`): letters, digits and `._@#-`, up to 64 characters."""
    return _identifier(text, "table id", _TABLE_ID, ". _ @ # -")


def patron_id(text: object) -> str:
    """A patron id (`P-123`, `club#4471`): letters, digits and `._@#-`, up to 64 characters,
    as a table id. It names the player at a seat, kept with the ruling and searchable."""
    return _identifier(text, "patron id", _TABLE_ID, ". _ @ # -")


RECORD_ID_DIGITS = 18
"""The most digits of a record number (the log numbers records up to 999,999,999,999,999,999)."""


def record_id(value: object, what: str = "record") -> int:
    """An audit record id: a whole number from 1, of at most `RECORD_ID_DIGITS` digits."""
    text = (
        str(value).strip() if isinstance(value, int | str) and not isinstance(value, bool) else ""
    )
    if not _WHOLE.fullmatch(text) or not text.strip("0"):
        raise DealerError(f"{what} id {quoted(value)} is not a record number (1, 2, 3 …)")
    if len(text.lstrip("0")) > RECORD_ID_DIGITS:
        raise DealerError(f"{what} id {quoted(value)} is larger than any record number")
    return int(text)


MOST_RECORDS = 10**RECORD_ID_DIGITS - 1
"""The most records `--limit` may ask for: as many as a log numbers. A larger count would
overflow the backends' integers, and each backend fails differently."""


def record_count(value: int, what: str = "--limit") -> int:
    """How many records to show: from 1 to `MOST_RECORDS`."""
    if not 1 <= value <= MOST_RECORDS:
        raise DealerError(f"{what} {value}: give how many records, from 1 to {MOST_RECORDS:,}")
    return value


TEXT_LIMIT = 2000
"""The most characters of free text said on the record (a reason, a note, a claim)."""


def document_name(value: object, what: str, *, limit: int) -> str:
    """The name of a document (a profile's, a House Way's): one line of text (`text`, at most
    `limit` characters) that the rule of names takes (`kernel.names`: one script, no
    compatibility form, no invisible character, no look-alike of a Latin name)."""
    written = text(value, what, limit=limit)
    refused = names.refusal(written)
    if refused is not None:
        raise DealerError(f"{what} {quoted(written)} is not a name: {refused}")
    return written


def text(value: object, what: str, *, limit: int = TEXT_LIMIT) -> str:
    """Free text for the record (a reason, a note): one line, no control characters (ESC, BEL,
    newlines, bidirectional overrides), not blank, at most `limit` characters; trimmed."""
    if not isinstance(value, str):
        raise DealerError(f"{what} must be text")
    trimmed = value.strip()
    if not trimmed:
        raise DealerError(f"{what} is empty: say it in words")
    if has_control(trimmed):
        raise DealerError(
            f"{what} {quoted(trimmed)} has a control character (a newline, tab, ESC…): "
            "write it on one line in plain characters"
        )
    if len(trimmed) > limit:
        raise DealerError(f"{what} is {len(trimmed):,} characters long: at most {limit:,}")
    return trimmed


FIGURE_LIMIT = Decimal(1_000_000_000)
"""The most a figure typed in a JSON object may be either way ($1,000,000,000: more than any
round pays), so every sum of figures stays exact and is shown in plain digits."""


def json_object(value: str, what: str) -> dict[str, Any]:
    """A JSON object typed on the command line (an override's `--result`). Anything else is
    refused, and so is text holding a byte that was not UTF-8 (Python keeps it as a lone
    surrogate, which can be neither signed nor stored). Every number in it is an amount, read
    as typed by the money type (`signed_money`, within `FIGURE_LIMIT`, whole cents: no `1e300`,
    `-0.001`, `NaN` or `Infinity`), and kept in the stored form of amounts (`money_json`)."""
    import json

    def refuse_constant(name: str) -> None:
        raise DealerError(f"{what}: {name} is not an amount: write amounts as numbers, e.g. 12.5")

    try:
        parsed = json.loads(
            value, parse_float=_Number, parse_int=_Number, parse_constant=refuse_constant
        )
        json.dumps(parsed, ensure_ascii=False).encode()
    except ValueError:  # UnicodeEncodeError too
        parsed = None
    if not isinstance(parsed, dict):
        raise DealerError(f"{what} must be a JSON object, e.g. '{{\"winner\": 1}}'")
    return _amounts(parsed, what, "")


class _Number(str):
    """A number of a typed JSON object, as typed (read as an amount by `_amounts`)."""


def _amounts(value: Any, what: str, path: str) -> Any:
    """`value` (parsed JSON, each number still its text) with every number read as an amount;
    an error names the number's place (`--result seats[0].base.net`)."""
    if isinstance(value, dict):
        return {k: _amounts(v, what, f"{path}.{k}" if path else k) for k, v in value.items()}
    if isinstance(value, list):
        return [_amounts(v, what, f"{path}[{index}]") for index, v in enumerate(value)]
    if isinstance(value, _Number):
        return money_json(signed_money(str(value), f"{what} {path}", limit=FIGURE_LIMIT))
    return value


def signed_money(value: object, what: str, *, limit: Decimal = WAGER_LIMIT) -> Decimal:
    """An amount with its direction: `money` after an optional `+` or `-` (`-25`, `+$12.50`),
    negative for `-`; at most `limit` either way."""
    text = str(value).strip()
    negative = text.startswith("-")
    amount = money(text[1:] if text[:1] in ("+", "-") else text, what, limit=limit)
    return -amount if negative and amount else amount


def format_time(moment: datetime) -> str:
    """`moment` (aware) in the stored form, e.g. `2026-05-09T14:05:00.000000Z`."""
    return moment.astimezone(UTC).strftime(TIME_FORMAT)


def time(text: str, *, end_of_day: bool = False) -> str:
    """A typed time as the stored UTC form. Times without an offset are UTC.

    A date alone (`2026-05-09`) means its start, or with `end_of_day` the start of the next day
    (so an `until` bound of a date covers the whole day).
    """
    typed = text.strip()
    try:
        if re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", typed):
            day = date.fromisoformat(typed)
            if end_of_day and day == date.max:  # through the last day there is: to its end
                return format_time(datetime.max.replace(tzinfo=UTC))
            day += timedelta(days=1 if end_of_day else 0)
            return format_time(datetime(day.year, day.month, day.day, tzinfo=UTC))
        moment = datetime.fromisoformat(typed.replace("z", "Z"))
    except ValueError:
        raise DealerError(
            f"cannot read the time {quoted(text)}: use YYYY-MM-DD or YYYY-MM-DDTHH:MM[:SS] "
            "(UTC unless followed by Z or an offset such as +02:00)"
        ) from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    try:
        return format_time(moment)
    except OverflowError:  # 0001-01-01T00:00+01:00 is before the first UTC moment
        raise DealerError(
            f"the time {quoted(text)} is outside the years 0001-9999 in UTC"
        ) from None


def time_range(since: str | None, until: str | None) -> tuple[str | None, str | None]:
    """`--since` and `--until` as typed, as the stored UTC forms of the range [since, until)
    (`time`; a date alone as `until` covers that whole day), each None when not given; a
    range whose start is not before its end is refused, as every command reads one."""
    start = time(since) if since else None
    end = time(until, end_of_day=True) if until else None
    if start is not None and end is not None and start >= end:
        raise DealerError(f"--since {quoted(since)} is not before --until {quoted(until)}")
    return start, end


PERIODS = ("day", "month", "year")


def period_range(period: str, day: str | None, today: date) -> tuple[str, str]:
    """`--period day|month|year` and `--date YYYY-MM-DD` (None: `today`) as the stored UTC forms
    of the range [start, end): the UTC day, month or year holding that date."""
    if period not in PERIODS:
        raise DealerError(f"--period {quoted(period)} is not one of {', '.join(PERIODS)}")
    try:
        on = date.fromisoformat(day) if day is not None else today
    except ValueError:
        raise DealerError(f"--date {quoted(day)} is not a date: use YYYY-MM-DD") from None
    start = {"day": on, "month": on.replace(day=1), "year": on.replace(month=1, day=1)}[period]
    try:
        if period == "day":
            end = start + timedelta(days=1)
        elif period == "month":
            end = (start + timedelta(days=32)).replace(day=1)
        else:
            end = start.replace(year=start.year + 1)
    except (OverflowError, ValueError):
        raise DealerError(
            f"--date {quoted(day)}: the {period} after it is past the last date"
        ) from None
    return time(start.isoformat()), time(end.isoformat())


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

BATCH_LINE_COUNT = 200_000
"""The most lines a batch file (or a batch on standard input) may have, blank and comment lines
counted: a file of 16 MiB of blank lines, read whole, took 1.9 GB to number them."""


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
    """The file at `path` opened to read bytes, once it is known to be a regular file within
    `limit`. It is opened without waiting (a FIFO nobody writes would hold the command for
    ever) and checked as opened, so what is read is what was checked: a directory, a FIFO, a
    device or a socket is refused."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except FileNotFoundError:
        raise InputFileError(what, path, "there is no such file") from None
    except IsADirectoryError:
        raise InputFileError(what, path, "it is a directory, not a file") from None
    except OSError as exc:
        raise InputFileError(what, path, exc.strerror or str(exc)) from None
    found = os.fstat(fd)
    problem = None
    if stat.S_ISDIR(found.st_mode):
        problem = "it is a directory, not a file"
    elif not stat.S_ISREG(found.st_mode):
        problem = "it is not a regular file (a FIFO, a device or a socket); give a file"
    if problem is not None:
        os.close(fd)
        raise InputFileError(what, path, problem)
    if found.st_size > limit:
        os.close(fd)
        raise _too_large(what, path, limit)
    os.set_blocking(fd, True)
    return open(fd, "rb")  # noqa: SIM115 - the caller closes it


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


def document(text: str, origin: str, *, cache: bool = True) -> Any:
    """A YAML (or JSON) document's content, parsed safely (`load_yaml`: no key twice, aliases
    within limits; `cache` as there). The one reader of every document a person gives (profile,
    `--rule` value, House Way, pay tables, round file, combination table): a document that is
    not valid is refused in one wording, `ORIGIN: line L, column C: not valid YAML: PROBLEM`,
    a `DocumentSyntaxError` (a ConfigError) keeping the line, column and problem."""
    from dealer.kernel.documents import DocumentSyntaxError, load_yaml

    try:
        return load_yaml(text, cache)
    except DocumentSyntaxError as exc:
        raise DocumentSyntaxError(f"{origin}: {exc}", exc.line, exc.column, exc.problem) from None


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
    and `limit` in all), each line checked as it is read. Either has at most `BATCH_LINE_COUNT`
    lines, every line counted (the file's are counted before they are split)."""
    if source != "-":
        text = text_file(source, what, limit)
        if text.count("\n") + (not text.endswith("\n")) > BATCH_LINE_COUNT:
            raise _many_lines(what, source)
        numbered = list(enumerate(text.split("\n"), 1))  # lines end at \n only, as on stdin
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
        if number > BATCH_LINE_COUNT:
            raise _many_lines(what, "stdin")
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


def _many_lines(what: str, where: str | Path) -> InputFileError:
    return InputFileError(
        what, where, f"it has more than {BATCH_LINE_COUNT:,} lines, the most a {what} may have"
    )


def _long_line(what: str, where: str | Path, number: int, line_limit: int) -> InputFileError:
    return InputFileError(
        what, where, f"line {number} is longer than {_size(line_limit)}, the most a line may be"
    )
