"""The one input boundary: every value that comes from a person or a file becomes a domain value
here, before any game engine or the audit log sees it.

Money, seats, table ids, record ids, user ids, times, cards (through the kernel's one card
parser and the deck's vocabulary), text files and YAML documents. Each function raises a
`DealerError` whose message names the input and says what is allowed; nothing else in the
package parses what a person typed. (Structured readers — a round file, a table profile, a
House Way, a pay-table file — walk their documents and hand every leaf value to these.)
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any

from dealer.kernel.errors import DealerError
from dealer.kernel.money import CENT

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
    if amount != amount.quantize(CENT):
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


def text_file(path: str | Path, what: str) -> str:
    """The UTF-8 text of the file at `path` (`what` names it in an error, e.g. `round file`)."""
    try:
        return Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise DealerError(f"cannot read {what} {path}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise DealerError(f"{what} {path} is not UTF-8 text") from None


def text_or_stdin(source: str, what: str) -> tuple[str, str]:
    """The text of a file, or of standard input for `-`; and where it came from."""
    if source == "-":
        import sys

        return sys.stdin.read(), "stdin"
    return text_file(source, what), source


def document(text: str, origin: str) -> Any:
    """A YAML (or JSON) document's content, parsed safely; errors name `origin` and the line."""
    from dealer.kernel.documents import DocumentSyntaxError, load_yaml

    try:
        return load_yaml(text)
    except DocumentSyntaxError as exc:
        where = f" line {exc.line}" if exc.line else ""
        raise DealerError(f"{origin}{where} is not valid YAML: {exc.problem}") from None


def lines(source: str, what: str = "batch file") -> Iterable[tuple[int, str]]:
    """Numbered non-blank, non-comment lines of a file, or of standard input for `-`."""
    import sys

    if source == "-":
        stream: Any = sys.stdin
    else:
        try:
            stream = open(source, encoding="utf-8")  # noqa: SIM115 - closed below
        except OSError as exc:
            raise DealerError(f"cannot read {what} {source}: {exc.strerror}") from None
    try:
        for number, line in enumerate(stream, 1):
            text = line.strip()
            if text and not text.startswith("#"):
                yield number, text
    finally:
        if stream is not sys.stdin:
            stream.close()
