"""What goes on the audit record: the entry a caller builds, the record the log keeps, filters.

A caller builds an `Entry` (who, where, which game, the input as typed, the ruling and why);
the log turns it into a `Record` by adding its number, the time, the software version and the
two hashes that chain it to the record before.
"""

from __future__ import annotations

import gc
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, datetime
from decimal import Decimal, InvalidOperation
from enum import StrEnum
from typing import Any

from dealer import inputs
from dealer.kernel.errors import AuditError
from dealer.kernel.text import has_control
from dealer.kernel.tuples import NamedTuple


class RecordKind(StrEnum):
    """What a record is: the `kind` column. A member is its text, so it is stored, hashed and
    compared as that text (a record read back holds the plain string).

    A record's `action` says what it did, by kind: a ruling's is its `RulingAction`, a meter's
    a `MeterAction`, a user's a `UserAction`, a dispute-resolution's its `DisputeOutcome`; an
    override, a void or a sign-off keeps the action of the record it is about; an
    access-denied names the act refused; a dispute's is `open`, a dispute-correction's
    `amount`, an approval's (profile-change, paytable-change, house-way-change,
    combinations-change) `approve`; a training record's and a certificate's the drill
    (`house-way`, `payouts`); a sign-in's its `SignInAction` (a dealer signing in at a table,
    `in`, or out of it, `out`: `dealer.audit.sign_ins`); an assignment's (a supervisor's record
    of the profile a table is assigned, `dealer.audit.assignments`) `assign`; a checkpoint has
    none. A training record (a trainee's drill) and a certificate (a supervisor's, that the
    trainee passed the standard) are never rulings.
    """

    RULING = "ruling"
    OVERRIDE = "override"
    VOID = "void"
    DISPUTE = "dispute"
    DISPUTE_RESOLUTION = "dispute-resolution"
    DISPUTE_CORRECTION = "dispute-correction"
    CHECKPOINT = "checkpoint"
    ACCESS_DENIED = "access-denied"
    USER = "user"
    METER = "meter"
    PROFILE_CHANGE = "profile-change"
    PAYTABLE_CHANGE = "paytable-change"
    HOUSE_WAY_CHANGE = "house-way-change"
    COMBINATIONS_CHANGE = "combinations-change"
    SIGNOFF = "signoff"
    TRAINING = "training"
    CERTIFICATE = "certificate"
    SIGN_IN = "sign-in"
    ASSIGNMENT = "assignment"


class Role(StrEnum):
    """The role a record is made in (the `role` column), and a registered user's role."""

    DEALER = "dealer"
    SUPERVISOR = "supervisor"
    AUDITOR = "auditor"


STORED_FIELDS = (
    "id",
    "recorded_at",
    "kind",
    "game",
    "action",
    "table_id",
    "seat",
    "user_id",
    "role",
    "input_text",
    "cards",
    "result",
    "explanation",
    "settings",
    "links_to",
    "reason",
    "software_version",
    "prev_hash",
    "hash",
)
"""The columns of a record as stored and exported, in order."""

_KIND = re.compile(r"[a-z][a-z0-9-]*")


def canonical_json(value: Any) -> str:
    """`value` as canonical JSON: keys sorted, no spaces, UTF-8 kept, no NaN or infinity."""
    return json.dumps(
        value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
    )


def utc_now() -> str:
    """The current time as stored on records: UTC ISO-8601 with microseconds and `Z`."""
    return datetime.now(UTC).strftime(inputs.TIME_FORMAT)


def amount(value: Decimal | int | float | str, what: str) -> Decimal:
    """`value` as a finite Decimal for a record's result (a meter value, an amount adjusted);
    AuditError naming `what` otherwise. Floats go through their shortest text form."""
    if isinstance(value, bool):
        raise AuditError(f"{what} must be a number, not {value!r}")
    try:
        number = Decimal(str(value)) if isinstance(value, float) else Decimal(value)
    except (InvalidOperation, TypeError, ValueError):
        raise AuditError(f"{what} must be a number, not {value!r}") from None
    if not number.is_finite():
        raise AuditError(f"{what} must be a finite number, not {value!r}")
    return number


def meter_value(record_id: int, result: str, meter: str) -> Decimal | None:
    """The `value` in a meter record's stored result (the JSON text), for `meter` as a message
    names it ("meter treasure at table PG-1"): read here rather than by a database's JSON
    functions, so both backends and a linked meter's records are read alike: a number, as text
    or as a JSON number, keeps every digit (SQLite's JSON functions read a JSON number as a
    binary float, and true as 1); no value is None; anything else (true, a list) is a damaged
    record."""
    try:
        value = json.loads(result, parse_float=str, parse_int=str).get("value")
    except (AttributeError, ValueError):
        value = shown = result  # not a JSON object
    else:
        if value is None:
            return None
        shown = value if isinstance(value, str) else _compact(json.loads(result)["value"])
    if isinstance(value, str):
        try:
            return Decimal(value)
        except InvalidOperation:
            pass
    raise AuditError(
        f"audit record {record_id} is damaged: {meter} holds {shown!r}, which is not a number"
    )


def _compact(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


class Entry(NamedTuple):
    """One thing to put on the record, as the caller knows it (built by keyword).

    `kind` says what it is (`RecordKind`: a ruling, an override, a meter move …); `role` is a
    `Role`.
    `input_text` is the input exactly as typed; `cards` the canonical cards; `result` and
    `settings` JSON-ready dicts (settings: profile, House Way name and version, pay table ids).
    """

    kind: RecordKind
    user_id: str
    role: str
    table_id: str = ""
    game: str = ""
    action: str = ""
    input_text: str = ""
    cards: Sequence[str] = ()
    result: Mapping[str, Any] = {}
    explanation: Sequence[str] = ()
    settings: Mapping[str, Any] = {}
    seat: int | None = None
    links_to: int | None = None
    reason: str | None = None

    def stored(self) -> dict[str, Any]:
        """The entry's columns as stored (JSON fields as canonical JSON text); checks each one."""
        if not _KIND.fullmatch(self.kind):
            raise AuditError(f"record kind {self.kind!r} is not a lower-case kebab-case name")
        if not isinstance(self.user_id, str) or not self.user_id.strip():
            raise AuditError("every record needs the id of the user who made it")
        if self.role not in tuple(Role):
            raise AuditError(f"role {self.role!r} is not one of {', '.join(Role)}")
        for name in ("table_id", "game", "action", "input_text"):
            if not isinstance(getattr(self, name), str):
                raise AuditError(f"record field {name} must be text")
        if isinstance(self.cards, str) or not all(isinstance(c, str) for c in self.cards):
            raise AuditError("record cards must be a list of canonical card strings")
        if isinstance(self.explanation, str) or not all(
            isinstance(line, str) for line in self.explanation
        ):
            raise AuditError("a record's explanation must be a list of lines")
        for name in ("seat", "links_to"):
            value = getattr(self, name)
            if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
                raise AuditError(f"record field {name} must be a whole number or empty")
        for name in ("user_id", "table_id"):
            if has_control(getattr(self, name)):
                raise AuditError(f"record field {name} has a control character")
        if self.reason is not None and not isinstance(self.reason, str):
            raise AuditError("a record's reason must be text")
        reason = inputs.text(self.reason, "reason") if self.reason else None
        stored: dict[str, Any] = {
            "kind": self.kind,
            "game": self.game,
            "action": self.action,
            "table_id": self.table_id,
            "seat": self.seat,
            "user_id": self.user_id,
            "role": self.role,
            "input_text": self.input_text,
            "links_to": self.links_to,
            "reason": reason,
        }
        for name, value in (
            ("cards", list(self.cards)),
            ("result", self.result),
            ("explanation", list(self.explanation)),
            ("settings", self.settings),
        ):
            if name in ("result", "settings") and not isinstance(value, Mapping):
                raise AuditError(f"a record's {name} must be a JSON object")
            try:
                stored[name] = canonical_json(value)
            except (TypeError, ValueError) as exc:
                raise AuditError(
                    f"the {name} of this {self.kind} is not JSON-ready: {exc}"
                ) from None
        problem = size_problem(stored)
        if problem is not None:
            raise AuditError(problem)
        return stored


RECORD_LIMIT = 64 * inputs.KiB
"""The most bytes (UTF-8) a record's `SIZED_FIELDS` may hold together: a ruling, a dispute or
any other record; an approval's document (its `input_text`) is bounded on its own, by
`inputs.DOCUMENT_LIMIT`, the file's own limit. The PostgreSQL server (`dealer.check_order`)
and the SQLite file (the trigger `records_bounded`) refuse a larger record too."""

APPROVAL_KINDS = (
    RecordKind.PROFILE_CHANGE,
    RecordKind.PAYTABLE_CHANGE,
    RecordKind.HOUSE_WAY_CHANGE,
    RecordKind.COMBINATIONS_CHANGE,
)
"""Records holding the text of the document a supervisor approved (in `input_text`)."""

_FIXED_SIZE = ("id", "recorded_at", "seat", "links_to", "software_version", "prev_hash", "hash")
SIZED_FIELDS = tuple(name for name in STORED_FIELDS if name not in _FIXED_SIZE)
"""The text fields a record's maker gives, which `RECORD_LIMIT` bounds (the number, time,
software version and hashes have their own fixed size)."""


def size_problem(row: Mapping[str, Any]) -> str | None:
    """Why the stored `row` is too large to be a record, or None (`RECORD_LIMIT`)."""
    sizes = {name: len((row.get(name) or "").encode()) for name in SIZED_FIELDS}
    kind = row.get("kind")
    if kind in APPROVAL_KINDS:
        document = sizes.pop("input_text")
        if document > inputs.DOCUMENT_LIMIT:
            return (
                f"the document of this {kind} record is {document:,} bytes: an approved "
                f"document is at most {inputs.DOCUMENT_LIMIT:,} bytes"
            )
    total = sum(sizes.values())
    if total > RECORD_LIMIT:
        return (
            f"this {kind} record would be {total:,} bytes: a record is at most "
            f"{RECORD_LIMIT:,} bytes (besides the document an approval holds)"
        )
    return None


class Record(NamedTuple):
    """A record as the log keeps it: the entry plus its number (`id`, the ruling id shown to
    people), time, software version and hashes."""

    id: int
    recorded_at: str
    kind: str
    game: str
    action: str
    table_id: str
    seat: int | None
    user_id: str
    role: str
    input_text: str
    cards: tuple[str, ...]
    result: dict[str, Any]
    explanation: tuple[str, ...]
    settings: Mapping[str, Any]
    links_to: int | None
    reason: str | None
    software_version: str
    prev_hash: str
    hash: str

    @classmethod
    def from_row(
        cls, row: Mapping[str, Any], settings_read: dict[str, Mapping[str, Any]] | None = None
    ) -> Record:
        """A record from a stored row (JSON columns parsed); a settings text already in
        `settings_read` is not parsed again: the records share it (settings are read-only)."""
        values = {name: row[name] for name in STORED_FIELDS}
        try:
            for name in ("cards", "explanation"):
                values[name] = tuple(json.loads(row[name]))
            values["result"] = json.loads(row["result"])
            text = row["settings"]
            if settings_read is None:
                values["settings"] = json.loads(text)
            elif (settings := settings_read.get(text)) is not None:
                values["settings"] = settings
            else:
                values["settings"] = settings_read[text] = json.loads(text)
        except (TypeError, ValueError):
            raise AuditError(
                f"audit record {row['id']} is damaged: its stored JSON cannot be read"
            ) from None
        return cls(**values)

    @property
    def rule_changes(self) -> tuple[str, ...]:
        """The house rules this record was made under that differ from the profile as loaded:
        its settings' `overrides` (each `--rule KEY=VALUE` given), empty when there were none.
        Every `--rule` counts as a change, even one restating the profile's value: the floor
        reviews what was typed."""
        changes = self.settings.get("overrides")
        return tuple(str(c) for c in changes) if isinstance(changes, list) else ()

    def to_dict(self) -> dict[str, Any]:
        """The record as a JSON-ready dict (keys as the stored columns)."""
        values = {name: getattr(self, name) for name in STORED_FIELDS}
        values["cards"] = list(self.cards)
        values["explanation"] = list(self.explanation)
        return values


def records_of(rows: Iterable[Mapping[str, Any]]) -> list[Record]:
    """The records of stored rows (`Record.from_row`), read in bulk: each settings text parsed
    once (a table's rulings share a few), and Python's cyclic garbage collector paused while
    they are built (parsed JSON holds no cycles: its passes over the growing list are wasted).
    Both together: a patron's month of rulings searched in 17% fewer instructions."""
    settings_read: dict[str, Mapping[str, Any]] = {}
    collecting = gc.isenabled()
    gc.disable()
    try:
        return [Record.from_row(row, settings_read) for row in rows]
    finally:
        if collecting:
            gc.enable()


def supervisor_entry(record: Record, kind: RecordKind, supervisor: str, **fields: Any) -> Entry:
    """Supervisor `supervisor`'s record of `kind` on `record` (an override, a void, a
    sign-off, a dispute's resolution or correction): at the record's table, seat, game and
    action unless `fields` say otherwise, and linked to it."""
    about = {
        "table_id": record.table_id,
        "seat": record.seat,
        "game": record.game,
        "action": record.action,
    }
    return Entry(
        kind=kind,
        user_id=supervisor,
        role=Role.SUPERVISOR,
        links_to=record.id,
        **{**about, **fields},
    )


SEAT_MOST = 2**31 - 1
"""The largest seat number the seat index holds (the databases' `integer`): a record naming a
larger one (never the tool's) names no seat there."""


def _seat_number(value: object) -> int | None:
    if isinstance(value, bool) or not isinstance(value, int):
        return None
    return value if 0 <= value <= SEAT_MOST else None


def _patron(value: object) -> str | None:
    return value if isinstance(value, str) and value else None


def seats_in(seat: int | None, result: object) -> list[tuple[int, str | None]]:
    """The seats a record with this `seat` column and `result` involved, each with its patron
    id (None: not given), by seat: the record's own `seat` (its patron: the result's `patron`),
    and every seat its result lists in `seats` (a round's settled seats, each a mapping with its
    `seat` and optional `patron`; or bare seat numbers, as a trick's). A seat listed twice keeps
    the first patron given."""
    found: dict[int, str | None] = {}

    def add(number: int | None, patron: str | None) -> None:
        if number is not None and found.get(number) is None:
            found[number] = patron

    content = result if isinstance(result, Mapping) else {}
    add(_seat_number(seat), _patron(content.get("patron")))
    listed = content.get("seats")
    for item in listed if isinstance(listed, list) else ():
        if isinstance(item, Mapping):
            add(_seat_number(item.get("seat")), _patron(item.get("patron")))
        else:
            add(_seat_number(item), None)
    return sorted(found.items())


def seats_of(entry: Entry | Record) -> list[tuple[int, str | None]]:
    """The seats (and patron ids) `entry` involved (`seats_in`). Derived from the record's own
    content only, so every backend indexes a record alike: in the transaction that appends it,
    and for an older log when migrating."""
    return seats_in(entry.seat, entry.result)


class RecordFilter(NamedTuple):
    """Which records to list, search or export. Empty fields match everything; times are the
    stored UTC form (`utc_now`); `since` is inclusive, `until` exclusive. `seat` and `patron`
    match the seats a record involved (`seats_of`): a round matches each seat it settled."""

    ids: tuple[int, ...] = ()
    table_id: str | None = None
    seat: int | None = None
    game: str | None = None
    user_id: str | None = None
    kind: str | None = None
    action: str | None = None
    links_to: int | None = None
    since: str | None = None
    until: str | None = None
    patron: str | None = None
    before_id: int | None = None
    """Only records numbered below this."""


class Reference(NamedTuple):
    """A record that refers to another (its `links_to`), by number and kind only: what a list
    of records names beside each (an override, a void, a dispute, a meter move)."""

    id: int
    kind: str


class UserRow(NamedTuple):
    """One row of the users table: a person's standing as set by record `record_id` (the PIN
    hash included: it never leaves the audit package)."""

    record_id: int
    user_id: str
    role: str
    active: bool
    pin_hash: str | None
