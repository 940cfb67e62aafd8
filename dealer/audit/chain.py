"""The hash chain: how each record's hash is made, and how a chain of records is checked.

Hash recipe (the exact one, so an auditor can re-verify an export outside the tool)
-----------------------------------------------------------------------------------
Every record has 19 columns, exported in this order by `dealer audit export`:
`id, recorded_at, kind, game, action, table_id, seat, user_id, role, input_text, cards,
result, explanation, settings, links_to, reason, software_version, prev_hash, hash`.

* `hash` = lower-case hex SHA-256 of the UTF-8 bytes of the canonical JSON of an object holding
  the other 18 columns, named as above.
* Canonical JSON: keys sorted, no whitespace (separators `,` and `:`), non-ASCII characters
  written as themselves (not `\\u` escapes) — Python:
  `json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)`.
* Value types in that object: `id` an integer; `seat` and `links_to` an integer or `null`;
  `reason` a string or `null`; every other column a string. `cards`, `result`, `explanation`
  and `settings` hold JSON documents and go into the object as the *strings* exported, not as
  parsed values (in CSV an empty `seat`, `links_to` or `reason` cell is `null`). Each of those
  strings is itself canonical JSON, as above: a record holding another spelling of its JSON
  fails verify (`dealer.audit.canonical`).
* `prev_hash` is the `hash` of record `id - 1`; for record 1 it is 64 zeros. Records are
  numbered 1, 2, 3 … with no gaps.

So: each exported row can be re-hashed on its own, and consecutive rows must link. Deleting the
newest records, or changing a record and recomputing every hash after it, leaves a chain that
still links; only a checkpoint kept outside the database (`N:HASH`, the record count and the
head hash, printed by `dealer audit checkpoint`) shows it: record N must exist and have that hash.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any

import dealer
from dealer.audit.records import STORED_FIELDS, Entry, canonical_json, utc_now
from dealer.inputs import TIME_FORMAT
from dealer.kernel.digest import sha256_hex
from dealer.kernel.errors import AuditError
from dealer.kernel.tuples import NamedTuple

GENESIS_HASH = "0" * 64
"""The `prev_hash` of record 1."""

HASHED_FIELDS = STORED_FIELDS[:-1]

FUTURE_TOLERANCE = timedelta(minutes=5)
"""How far after the clock of whoever checks it a record may be dated (a terminal's clock a
little ahead of another's). A record dated later fails verify; and since a record is never dated
before the one before it, no record is appended after one from further ahead (SQLite: `seal`;
PostgreSQL: its append function, with the same tolerance): a date written into the log cannot
drag the times of the genuine records after it."""


def future_limit(now: str) -> str:
    """The latest time a record may be dated when the clock reads `now` (both in the stored
    form): `FUTURE_TOLERANCE` after it."""
    return (datetime.fromisoformat(now.removesuffix("Z")) + FUTURE_TOLERANCE).strftime(TIME_FORMAT)


def _from_the_future(record_id: int, recorded_at: str, now: str) -> str:
    minutes = int(FUTURE_TOLERANCE.total_seconds() // 60)
    return (
        f"record {record_id} is dated {recorded_at}, more than {minutes} minutes after this "
        f"clock ({now}): a record from the future"
    )


_CHECKPOINT = re.compile(r"(?<![0-9A-Za-z])(?:(\d+):)?([0-9a-fA-F]{64})(?![0-9A-Za-z])")


def record_hash(row: Mapping[str, Any]) -> str:
    """The SHA-256 (hex) of a stored record's content and its `prev_hash` (recipe above)."""
    payload = {name: row[name] for name in HASHED_FIELDS}
    return sha256_hex(canonical_json(payload))


class Checkpoint(NamedTuple):
    """The record count and the hash of the newest record, to keep outside the database.
    `records` is None for a bare hash (then any record may carry it)."""

    records: int | None
    head_hash: str

    def __str__(self) -> str:
        return self.head_hash if self.records is None else f"{self.records}:{self.head_hash}"

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: `{"records": N, "head_hash": HASH, "checkpoint": "N:HASH"}`."""
        return {"records": self.records, "head_hash": self.head_hash, "checkpoint": str(self)}


def parse_checkpoints(text: str) -> list[Checkpoint]:
    """Every checkpoint in `text`: `N:HASH` or bare `HASH` tokens, or JSON lines with `records`
    and `head_hash` (as `dealer audit checkpoint --json` prints)."""
    found: list[Checkpoint] = []
    for line in text.splitlines():
        try:
            value = json.loads(line)
        except ValueError:
            value = None
        if isinstance(value, dict) and isinstance(value.get("head_hash"), str):
            records = value.get("records")
            if records is not None and (isinstance(records, bool) or not isinstance(records, int)):
                raise AuditError(f"checkpoint line {line.strip()!r} has a bad record count")
            found.append(Checkpoint(records, value["head_hash"].lower()))
            continue
        for match in _CHECKPOINT.finditer(line):
            count = int(match.group(1)) if match.group(1) else None
            found.append(Checkpoint(count, match.group(2).lower()))
    if not found:
        raise AuditError("no checkpoint found: expected N:HASH (the record count and head hash)")
    return found


class VerifyResult(NamedTuple):
    """What `verify` found. `first_bad` is the first record that is missing, changed or not
    vouched for (None when the problem is not one record, e.g. a removed trigger)."""

    ok: bool
    records: int
    first_bad: int | None = None
    problem: str | None = None
    problems: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """`{"ok": BOOL, "records": N, "first_bad": ID|null, "problem": TEXT|null}`."""
        return {
            "ok": self.ok,
            "records": self.records,
            "first_bad": self.first_bad,
            "problem": self.problem,
            "problems": list(self.problems),
        }


class ChainCheck:
    """Walks stored rows in id order, keeping what the checkpoints need; no record may be
    dated more than `FUTURE_TOLERANCE` after the verifier's clock (`utc_now`, read once)."""

    def __init__(self, checkpoints: Sequence[Checkpoint] = ()) -> None:
        self.checkpoints = checkpoints
        self.now = utc_now()
        self.latest = future_limit(self.now)
        self.count = 0
        self.rows = 0
        self.head_hash = GENESIS_HASH
        self.head_time = ""
        self.first_bad: int | None = None
        self.problem: str | None = None
        self._wanted = {cp.records: "" for cp in checkpoints if cp.records is not None}
        self._bare = {cp.head_hash for cp in checkpoints if cp.records is None}

    def feed(self, rows: Iterable[Mapping[str, Any]]) -> None:
        """Check each row against its own hash and the row before it."""
        for row in rows:
            expected = self.count + 1
            if self.first_bad is None:
                if row["id"] != expected:
                    self._bad(
                        expected, f"record {expected} is missing (the next record is {row['id']})"
                    )
                elif row["prev_hash"] != self.head_hash:
                    self._bad(
                        row["id"], f"record {row['id']} does not link to record {expected - 1}"
                    )
                elif record_hash(row) != row["hash"]:
                    self._bad(row["id"], f"record {row['id']} was changed after it was written")
                elif row["recorded_at"] < self.head_time:
                    self._bad(
                        row["id"],
                        f"record {row['id']} is dated {row['recorded_at']}, before record "
                        f"{expected - 1} ({self.head_time}): the log's times run backwards",
                    )
                elif str(row["recorded_at"]) > self.latest:
                    self._bad(row["id"], _from_the_future(row["id"], row["recorded_at"], self.now))
            self.head_time = max(self.head_time, str(row["recorded_at"]))
            self.rows += 1
            self.count = row["id"]
            self.head_hash = row["hash"]
            if self.count in self._wanted:
                self._wanted[self.count] = row["hash"]
            self._bare.discard(row["hash"])

    def _bad(self, record_id: int, problem: str) -> None:
        self.first_bad = record_id
        self.problem = problem

    def checkpoint_problem(self) -> tuple[int | None, str] | None:
        """The first checkpoint the log fails, as (first bad record, problem), or None."""
        vouched = 0
        for cp in sorted((c for c in self.checkpoints if c.records is not None), key=_count):
            count = _count(cp)
            if count > self.count:
                return self.count + 1, (
                    f"the log ends at record {self.count} but checkpoint {cp} says it had "
                    f"{count}: records {self.count + 1}-{count} are missing"
                )
            if self._wanted[count] != cp.head_hash:
                return vouched + 1, (
                    f"record {count} does not match checkpoint {cp}: the log was changed and "
                    f"re-chained somewhere in records {vouched + 1}-{count}"
                )
            vouched = count
        if self._bare:
            head = min(self._bare)
            return None, f"no record has the checkpoint hash {head}: the log was cut or re-chained"
        return None


def _count(cp: Checkpoint) -> int:
    return cp.records or 0


def check_link(entry: Entry, records: int) -> None:
    """AuditError unless `entry` refers to no record or to one of the `records` in the log."""
    if entry.links_to is not None and not 1 <= entry.links_to <= records:
        raise AuditError(f"there is no audit record {entry.links_to} to refer to")


def seal(entry: Entry, head: Checkpoint, not_before: str = "") -> dict[str, Any]:
    """The stored row of `entry` as the record after `head`: its fields checked
    (`Entry.stored`), its link checked (`check_link`), and its number, time, software version,
    `prev_hash` and hash assigned by the recipe of `dealer.audit.chain`. The SQLite backend
    stores exactly this row; PostgreSQL's server function assigns the same fields by the same
    recipe. Its time is the clock's (`utc_now`), never before `not_before` (the head's time):
    a clock set back does not make the log's times run backwards, which verify refuses. A head
    dated more than `FUTURE_TOLERANCE` after the clock is refused (AuditError):
    the record would be dated after it, dragged into the future with every record after it."""
    row = entry.stored()
    count = head.records or 0
    check_link(entry, count)
    now = utc_now()
    if not_before > future_limit(now):
        raise AuditError(
            f"cannot write to the audit log: {_from_the_future(count, not_before, now)} "
            "(dealer audit verify names it), and a record is never dated before the one before "
            "it: nothing was written"
        )
    row.update(
        id=count + 1,
        recorded_at=max(now, not_before),
        software_version=dealer.__version__,
        prev_hash=head.head_hash,
    )
    row["hash"] = record_hash(row)
    return row
