"""Training on the record: a trainee's drill kept as a `training` record, and a supervisor's
`certificate` that the trainee passed the property's standard.

A training record is never a ruling: it is at no table and no seat, names no patron, moves no
meter and pays nothing, so the rulings, the shift summary, the meter books and a seat's or a
patron's history never see it. A certificate is a supervisor action (`verify.SUPERVISOR_ACTIONS`),
made through `authority.supervised` and signed by its maker's key; it links to the training
record it certifies, and is refused, saying why, unless that record is the trainee's latest
drill of its kind, taken in the trainee's own session (made in their name and signed with their
key: `own_session_problem`), whole (not limited to chosen clauses or events), its answers
judged again by the engine (`Judge`, the desk's: this layer knows no game) to the score it
states, and that score up to the standard. The record's own words (its score, its hands) are
never what is certified: the engine's judgement of its answers is.
"""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from dealer.audit.authority import signed_by_maker_problem, supervised, vouch_problem
from dealer.audit.records import Entry, Record, RecordFilter, RecordKind, Role
from dealer.kernel.errors import AuditError
from dealer.kernel.tuples import NamedTuple

if TYPE_CHECKING:
    from dealer.audit.storage import Reads, Storage, WriteTransaction
    from dealer.audit.users import User


class Standard(NamedTuple):
    """The property's standard: at least `percent` right over at least `hands` hands of the
    trainee's latest drill."""

    percent: Decimal
    hands: int

    def problem(self, score: int, hands: int) -> str | None:
        """Why `score` right of `hands` falls short of the standard, or None."""
        if hands < self.hands:
            return f"{hands} hands answered, fewer than the standard's {self.hands}"
        if Decimal(score) * 100 < self.percent * hands:
            shown = percent(score, hands)
            return f"{score} of {hands} right ({shown}%), below the standard's {self.percent}%"
        return None


def percent(score: int, hands: int) -> Decimal:
    """`score` of `hands` as a percentage to one decimal (0 with no hands)."""
    if not hands:
        return Decimal(0)
    return (Decimal(score) * 100 / hands).quantize(Decimal("0.1"))


def training_entry(
    user_id: str,
    role: str,
    drill: str,
    typed: str,
    result: dict[str, Any],
    settings: dict[str, Any],
) -> Entry:
    """The training record of one drill, made by `user_id` (who ran it) for the trainee its
    `result` names: at no table and no seat."""
    return Entry(
        kind=RecordKind.TRAINING,
        user_id=user_id,
        role=role,
        game="paigow",
        action=drill,
        input_text=typed,
        result=result,
        explanation=[
            f"training: {result['trainee']}, {drill} drill, {result['score']} of "
            f"{result['hands']} right"
        ],
        settings=settings,
    )


Judge = Callable[["Reads", Record], tuple[int, int]]
"""Judges a training record's answers again (the desk's: the engine): its (score, hands), or
AuditError saying why it earns nothing."""


def own_session_problem(reads: Reads, record: Record) -> str | None:
    """Why training record `record` was not taken in its trainee's own session (made in their
    name, signed with their key: their PIN at the drill's start), or None."""
    trainee = record.result.get("trainee")
    if record.user_id != trainee:
        return f"it was kept by {record.user_id}, not taken in {trainee}'s own session"
    row = next(reads.rows(RecordFilter(ids=(record.id,))), None)
    why = signed_by_maker_problem(reads, row) if row is not None else "it is not on the log"
    return None if why is None else f"it is not signed by {trainee} ({why})"


def _of(records: list[Record], trainee: str | None) -> list[Record]:
    return [r for r in records if trainee is None or r.result.get("trainee") == trainee]


def drills(reads: Reads, trainee: str | None = None) -> list[Record]:
    """The training records, oldest first (of one trainee, given `trainee`)."""
    return _of(reads.records(RecordFilter(kind=RecordKind.TRAINING)), trainee)


def certificates(reads: Reads, trainee: str | None = None) -> list[tuple[Record, str | None]]:
    """The certificates, oldest first (of one trainee, given `trainee`), each with why the tool
    may not count it (`authority.vouch_problem`: its maker was not an active supervisor then, or
    its signature fails), or None."""
    found = _of(reads.records(RecordFilter(kind=RecordKind.CERTIFICATE)), trainee)
    rows = (
        {int(row["id"]): row for row in reads.rows(RecordFilter(ids=tuple(r.id for r in found)))}
        if found
        else {}
    )
    return [(r, vouch_problem(reads, rows[r.id])) for r in found]


def certify(
    storage: Storage,
    trainee: str,
    drill: str,
    standard: Standard,
    *,
    judge: Judge,
    supervisor_id: str,
    pin: str,
) -> int:
    """Certify that `trainee` passed `standard` on their latest `drill`, its answers judged
    again by `judge`: a `certificate` record linked to that training record, signed by the
    supervisor whose id and PIN these are. Returns its id; AuditError, saying why, when the
    drill does not pass."""
    return supervised(
        storage,
        supervisor_id,
        pin,
        RecordKind.CERTIFICATE,
        lambda tx, sup: _certify(tx, sup, trainee, drill, standard, judge),
    )


def _certify(
    tx: WriteTransaction, sup: User, trainee: str, drill: str, standard: Standard, judge: Judge
) -> int:
    if sup.user_id == trainee:
        raise AuditError(f"{trainee} cannot certify their own training: another supervisor does")
    mine = [r for r in drills(tx, trainee) if r.action == drill]
    if not mine:
        raise AuditError(f"{trainee} has no {drill} drill on the record to certify")
    latest = mine[-1]
    result = latest.result
    practice = own_session_problem(tx, latest)
    if practice is not None:
        raise AuditError(
            f"{trainee}'s latest {drill} drill (record {latest.id}) is a practice drill: "
            f"{practice}; a certificate is earned on a drill taken with the trainee's own PIN"
        )
    limited = result.get("limited") or []
    if limited:
        raise AuditError(
            f"{trainee}'s latest {drill} drill (record {latest.id}) was limited to "
            f"{', '.join(str(x) for x in limited)}: a certificate is earned on a whole drill"
        )
    score, hands = judge(tx, latest)
    short = standard.problem(score, hands)
    if short is not None:
        raise AuditError(
            f"{trainee}'s latest {drill} drill (record {latest.id}) does not meet the standard: "
            f"{short}"
        )
    shown = percent(score, hands)
    return tx.append(
        Entry(
            kind=RecordKind.CERTIFICATE,
            user_id=sup.user_id,
            role=Role.SUPERVISOR,
            game="paigow",
            action=drill,
            links_to=latest.id,
            result={
                "trainee": trainee,
                "drill": drill,
                "training": latest.id,
                "score": score,
                "hands": hands,
                "percent": str(shown),
                "standard": {"percent": str(standard.percent), "hands": standard.hands},
            },
            explanation=[
                f"{trainee} certified on the {drill} drill by supervisor {sup.user_id}: {score} "
                f"of {hands} right ({shown}%) on training record {latest.id}; the standard is "
                f"{standard.percent}% over at least {standard.hands} hands"
            ],
        )
    )
