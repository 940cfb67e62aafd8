"""Where a ruling stands, read from the records that refer to it: in effect, overridden, voided,
and any disputes that name it.

Decisions: a void wins over everything (nothing of the record is in effect); otherwise the
newest override that is not itself voided is in effect (its decision and result); disputes are
shown beside that state, not instead of it, since a disputed ruling still stands until a
supervisor corrects it. A dispute names a ruling through its list of rulings (its `links_to`
is only the first), so every dispute is read. Only rulings and overrides have a status. An
override is voided only by a void of the override; otherwise it stands as its ruling does:
overridden by a newer override, or `ruling voided` (by the ruling's void: nothing of it is in
effect, yet the override itself was never voided).
A ruling that paid a seat over the sign-off line shows its sign-off after its state:
`awaiting sign-off` (not when voided: nothing is paid) or `signed off by sup-7 (#M)`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from dealer.audit import signoffs
from dealer.audit.disputes import disputes
from dealer.audit.entries import first_link
from dealer.audit.records import Record, RecordFilter, RecordKind

if TYPE_CHECKING:
    from dealer.audit.storage import Reads

IN_EFFECT = "in effect"
OVERRIDDEN = "overridden"
VOIDED = "voided"
RULING_VOIDED = "ruling voided"


@dataclass(frozen=True)
class DisputeMark:
    """A dispute naming the record: its id and, once resolved, the outcome."""

    dispute: int
    outcome: str | None

    def text(self) -> str:
        """`disputed (open, dispute #D)` or `disputed (resolved as OUTCOME, dispute #D)`."""
        how = "open" if self.outcome is None else f"resolved as {self.outcome}"
        return f"disputed ({how}, dispute #{self.dispute})"

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready."""
        return {"dispute": self.dispute, "open": self.outcome is None, "outcome": self.outcome}


@dataclass(frozen=True)
class SignoffMark:
    """A large pay's sign-off: the sign-off record and who made it (None: awaiting)."""

    record: int | None
    by: str | None

    def text(self) -> str:
        """`awaiting sign-off` or `signed off by SUP (#M)`."""
        return signoffs.AWAITING if self.by is None else f"signed off by {self.by} (#{self.record})"

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready."""
        return {"awaiting": self.by is None, "by": self.by, "record": self.record}


@dataclass(frozen=True)
class Status:
    """`state` (in effect, overridden, voided, an override's `ruling voided`), the record that
    made it so (`by`), what is in effect (an override's `decision` and `result`; None when
    voided) and the disputes."""

    state: str
    by: int | None
    decision: str | None
    result: dict[str, Any] | None
    disputes: tuple[DisputeMark, ...]
    signoff: SignoffMark | None = None

    @property
    def nothing_in_effect(self) -> bool:
        """True when the record or, for an override, its ruling is voided."""
        return self.state in (VOIDED, RULING_VOIDED)

    def text(self) -> str:
        """One line: the state, the sign-off, then each dispute, e.g. `overridden by #8;
        awaiting sign-off; disputed (open, dispute #9)`."""
        state = self.state if self.by is None else f"{self.state} by #{self.by}"
        signoff = [] if self.signoff is None else [self.signoff.text()]
        return "; ".join([state, *signoff, *(mark.text() for mark in self.disputes)])

    def standing(self) -> str:
        """Where the record stands, for a reader who must not take a corrected ruling's figures
        for what was paid: `in effect`, `overridden by #10: its decision (push) is in effect`,
        `voided by #11: nothing of it is in effect`; then its sign-off, if any."""
        if self.state == VOIDED:
            words = f"voided by #{self.by}: nothing of it is in effect"
        elif self.state == RULING_VOIDED:
            words = f"its ruling voided by #{self.by}: nothing of it is in effect"
        elif self.state == OVERRIDDEN:
            words = f"overridden by #{self.by}: its decision ({self.decision}) is in effect"
        else:
            words = self.state
        return "; ".join([words, *([] if self.signoff is None else [self.signoff.text()])])

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready."""
        return {
            "state": self.state,
            "by": self.by,
            "decision": self.decision,
            "result": self.result,
            "disputes": [mark.to_dict() for mark in self.disputes],
            "signoff": None if self.signoff is None else self.signoff.to_dict(),
        }


def _voided_by(reads: Reads, record_id: int) -> int | None:
    void = first_link(reads, record_id, RecordKind.VOID)
    return None if void is None else void.id


def _decided(override: Record) -> tuple[str, dict[str, Any]]:
    return str(override.result.get("decision", "")), dict(override.result.get("result") or {})


def _override_status(reads: Reads, record: Record, marks: tuple[DisputeMark, ...]) -> Status:
    """An override not voided itself stands as its ruling does: in effect while it is the
    ruling's newest standing override, else overridden by the newer one, or `ruling voided`."""
    ruling = reads.record(record.links_to) if record.links_to is not None else None
    over = status(reads, ruling) if ruling is not None else None
    if over is not None and over.state == VOIDED:
        return Status(RULING_VOIDED, over.by, None, None, marks)
    if over is not None and over.by not in (None, record.id):
        return Status(OVERRIDDEN, over.by, over.decision, over.result, marks)
    decision, result = _decided(record)
    return Status(IN_EFFECT, None, decision, result, marks)


def _signoff_mark(reads: Reads, record: Record, voided: bool) -> SignoffMark | None:
    if signoffs.required(record) is None:
        return None
    done = signoffs.signed(reads, record.id)
    if done is not None:
        return SignoffMark(done.id, done.user_id)
    return None if voided else SignoffMark(None, None)


def status(reads: Reads, record: Record) -> Status | None:
    """The status of `record`; None unless it is a ruling or an override."""
    found = _status(reads, record)
    if found is None:
        return None
    mark = _signoff_mark(reads, record, found.state == VOIDED)
    return found if mark is None else replace(found, signoff=mark)


def _status(reads: Reads, record: Record) -> Status | None:
    if record.kind not in (RecordKind.RULING, RecordKind.OVERRIDE):
        return None
    marks = tuple(
        DisputeMark(d.id, None if d.resolution is None else d.resolution.outcome)
        for d in disputes(reads)
        if record.id in d.rulings
    )
    voided = _voided_by(reads, record.id)
    if voided is not None:
        return Status(VOIDED, voided, None, None, marks)
    if record.kind == RecordKind.OVERRIDE:
        return _override_status(reads, record, marks)
    overrides = [
        o
        for o in reads.records(RecordFilter(links_to=record.id, kind=RecordKind.OVERRIDE))
        if _voided_by(reads, o.id) is None
    ]
    if overrides:
        decision, result = _decided(overrides[-1])
        return Status(OVERRIDDEN, overrides[-1].id, decision, result, marks)
    return Status(IN_EFFECT, None, None, dict(record.result), marks)
