"""The dealer's trainer at a desk: a drill run once (its hands judged by the engines the rulings
use, `dealer.games.paigow.drills`), kept on the record as a training record when a trainee is
named; a trainee's progress read back; a supervisor's certificate.

A drill named for a trainee is dealt from the seed and the trainee's misses on the record
(their earlier drills of the same kind), so the same seed and the same history deal the same
hands; its record keeps every answer typed. Without a trainee nothing is read from or written to
the log.

Decisions (Trust III): a drill kept for a trainee is dealt only from documents the program
ships or a supervisor approved (its profile, House Way, pay tables), refused before the first
hand otherwise. It counts toward a certificate only when taken in the trainee's own session:
with their PIN at its start (`pin`), the record made in their name and signed with their key;
without it, it is a practice drill, kept in the name of whoever ran it. `train certify` deals
the latest drill again from its record and judges the recorded answers with the engine
(`rejudge`): the score that counts is the engine's, and a record whose answers do not give the
score it states, or whose documents are not the approved ones, earns nothing. What no record
can prove is who sat at the keyboard: a trainee answering with the engine's help is caught by
the supervisor watching, not by the log.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from dealer.desk.context import Desk, HouseRules, LogLocation, open_desk_log
from dealer.kernel.errors import DealerError

if TYPE_CHECKING:
    from dealer.audit.authority import Countersigner
    from dealer.audit.records import Record
    from dealer.audit.storage import Reads
    from dealer.games.paigow.drills import HouseWayDrill as WayDrill
    from dealer.games.paigow.drills import Judged, PayHand, PayoutDrill, Summary, WayHand


@dataclass(frozen=True)
class Answered:
    """One typed line's reply: the answer judged, and the next hand (None: the drill is over)."""

    judged: Judged
    next: WayHand | PayHand | None


@dataclass(frozen=True)
class Finished:
    """The end of a drill: the summary, the seed it was dealt from, the time per hand (seconds,
    None before any answer), the training record kept (None: no trainee, or no answer), and
    whether it was taken in the trainee's own session (their PIN: it counts toward a
    certificate)."""

    summary: Summary
    seed: int
    seconds_per_hand: float | None
    record_id: int | None
    own_session: bool = False

    def to_json(self) -> dict[str, Any]:
        """The summary's JSON, with `seed`, `seconds_per_hand`, `record_id` and
        `own_session`."""
        return {
            **self.summary.to_json(),
            "seed": self.seed,
            "seconds_per_hand": self.seconds_per_hand,
            "record_id": self.record_id,
            "own_session": self.own_session,
        }


class Drill:
    """A drill driven line by line (`dealer.cli.console.Console`): each line judged at once; at
    the end (every hand answered, end of input, Ctrl-C) the summary, and the training record
    when a trainee is named."""

    def __init__(
        self,
        desk: Desk,
        drill: WayDrill | PayoutDrill,
        *,
        trainee: str | None,
        seed: int,
        typed: str,
        settings: Mapping[str, Any],
        limited: Sequence[str] = (),
        clock: Callable[[], float] = time.monotonic,
        session: Countersigner | None = None,
    ) -> None:
        self.desk, self.drill, self.trainee, self.seed = desk, drill, trainee, seed
        self.typed, self.settings, self.limited, self.clock = typed, settings, limited, clock
        self.session = session
        """The trainee, their PIN checked at the start (None: a practice drill)."""
        self.started = clock()
        self.answers: list[str] = []
        self.finished: Finished | None = None

    @property
    def first(self) -> WayHand | PayHand:
        """The hand dealt first."""
        return self.drill.hand

    @property
    def prompt(self) -> str:
        """What the drill waits for."""
        return self.drill.prompt

    @property
    def over(self) -> bool:
        """True once every hand is answered."""
        return self.drill.over

    def step(self, line: str) -> Answered:
        """Judge one typed answer (`DealerError` refuses a malformed one: asked again, never
        scored)."""
        judged, following = self.drill.step(line)
        self.answers.append(line.strip())
        return Answered(judged, following)

    def finish(self) -> Finished:
        """The summary so far, kept on the record (once) for a named trainee who answered."""
        if self.finished is not None:
            return self.finished
        summary = self.drill.summary()
        spent = self.clock() - self.started
        per_hand = round(spent / summary.hands, 1) if summary.hands else None
        record_id = None
        if self.trainee is not None and summary.hands:
            record_id = self._record(summary, per_hand)
        own = record_id is not None and self.session is not None
        self.finished = Finished(summary, self.seed, per_hand, record_id, own)
        return self.finished

    def _record(self, summary: Summary, per_hand: float | None) -> int:
        from dealer.audit import users
        from dealer.audit.authority import append_signed
        from dealer.audit.records import RecordKind
        from dealer.audit.training import percent, training_entry

        assert self.trainee is not None
        result = {
            "trainee": self.trainee,
            "drill": summary.drill,
            "score": summary.score,
            "hands": summary.hands,
            "dealt": summary.dealt,
            "planned": self.drill.total,
            "percent": str(percent(summary.score, summary.hands)),
            "missed": dict(summary.missed),
            "asked": dict(summary.asked),
            "limited": list(self.limited),
            "seed": self.seed,
            "seconds_per_hand": per_hand,
            "answers": list(self.answers),
        }
        maker = self.desk.user if self.session is None else self.session.user_id
        with open_desk_log(self.desk.db) as log, log.transaction() as tx:
            role = users.acting_role(tx, maker, RecordKind.TRAINING)
            entry = training_entry(
                maker, role, summary.drill, self.typed, result, dict(self.settings)
            )
            if self.session is None:
                return tx.append(entry)
            return append_signed(tx, entry, self.session)


def _misses(desk: Desk, trainee: str | None, drill: str) -> dict[str, int]:
    """The trainee's misses by key over their earlier drills of this kind (none without one)."""
    if trainee is None:
        return {}
    with open_desk_log(desk.db) as log:
        return misses_before(log, trainee, drill)


def misses_before(
    reads: Reads, trainee: str, drill: str, before: int | None = None
) -> dict[str, int]:
    """The trainee's misses by key over their drills of this kind on the record (before record
    `before`, given it): what the next drill is dealt from."""
    from dealer.audit.training import drills

    misses: dict[str, int] = {}
    for record in drills(reads, trainee):
        missed = record.result.get("missed")
        if before is not None and record.id >= before:
            break
        if record.action != drill or not isinstance(missed, dict):
            continue
        for key, count in missed.items():
            if isinstance(count, int) and not isinstance(count, bool):
                misses[str(key)] = misses.get(str(key), 0) + count
    return misses


def _seed(seed: int | None) -> int:
    return random.SystemRandom().randrange(2**32) if seed is None else seed


def _typed(command: str, **options: object) -> str:
    words = [command]
    for name, value in options.items():
        if value not in (None, (), ""):
            shown = ",".join(str(v) for v in value) if isinstance(value, tuple) else str(value)
            words.append(f"--{name.replace('_', '-')} {shown}")
    return " ".join(words)


TRAINING_ROLES = ("dealer", "supervisor")
"""Who takes a drill in their own session: a dealer, or a supervisor keeping their hand in."""


def _session(
    desk: Desk, trainee: str | None, pin: str | None, settings: Mapping[str, Any]
) -> Countersigner | None:
    """Before a drill kept for `trainee` deals a hand: every document it is dealt from is one
    the program ships or a supervisor approved for every table (`approvals.check_documents`);
    and with the trainee's `pin`, the trainee whose PIN opened their key, to sign the record
    (their own session). None for a practice drill."""
    if trainee is None:
        return None
    from dealer.audit import approvals

    with open_desk_log(desk.db) as log:
        approvals.check_documents(log, "", settings)
        if pin is None:
            return None
        from dealer.audit.authority import signer
        from dealer.audit.records import Role

        roles = (Role.DEALER, Role.SUPERVISOR)
        return signer(log, trainee, pin, "training", roles=roles, typer=desk.user)


def rejudge(reads: Reads, record: Record) -> tuple[int, int]:
    """The score and hands the answers kept on training record `record` earn, dealt again from
    the record (its seed, its documents as the program ships them or as approved, the misses on
    the record before it) and judged by the engine; AuditError when the record holds no
    answers, its documents are no longer to be had as they were, an answer cannot be judged, or
    the engine's score is not the one the record states."""
    from dealer.audit.records import RecordKind
    from dealer.kernel.errors import AuditError

    result = record.result
    answers = result.get("answers")
    where = f"training record {record.id}"
    if record.kind != RecordKind.TRAINING or not isinstance(answers, list):
        raise AuditError(f"{where} keeps no answers to judge again: it earns no certificate")
    drill = _dealt_again(reads, record)
    for number, answer in enumerate(answers, 1):
        if drill.over or not isinstance(answer, str):
            raise AuditError(f"{where}: answer {number} was never asked for")
        try:
            drill.step(answer)
        except DealerError as exc:
            raise AuditError(f"{where}: answer {number} cannot be judged ({exc})") from None
    judged = drill.summary()
    stated = (result.get("score"), result.get("hands"))
    if (judged.score, judged.hands) != stated:
        raise AuditError(
            f"{where} says {stated[0]} of {stated[1]} right, but its answers judged again "
            f"are {judged.score} of {judged.hands}: it earns no certificate"
        )
    return judged.score, judged.hands


def _dealt_again(reads: Reads, record: Record) -> WayDrill | PayoutDrill:
    """The drill of training record `record`, dealt again as it was dealt."""
    from dealer.audit import approvals
    from dealer.games.paigow.drills import HOUSE_WAY, HouseWayDrill, PayoutDrill
    from dealer.games.paigow.house_way import load_house_way
    from dealer.games.paigow.pay import Wager
    from dealer.games.paigow.profile import load_profile
    from dealer.games.paigow.seat_rulings import posted_digests
    from dealer.kernel.errors import AuditError

    settings, result = record.settings, record.result
    where = f"training record {record.id}"
    approvals.check_documents(reads, "", settings)
    seed, planned = result.get("seed"), result.get("planned")
    if not isinstance(seed, int) or not isinstance(planned, int):
        raise AuditError(f"{where} names no seed and no number of hands to deal again")
    trainee = str(result.get("trainee"))
    misses = misses_before(reads, trainee, record.action, record.id)
    source = str(settings.get("profile_source", "default"))
    profile = load_profile(None if source == "default" else source)
    if profile.sha256 != settings.get("profile_sha256"):
        raise AuditError(f"{where}: the profile {source} is not the one it was dealt under")
    if record.action == HOUSE_WAY:
        way = load_house_way(str(settings.get("house_way_source")))
        if way.sha256 != settings.get("house_way_sha256"):
            raise AuditError(f"{where}: the House Way {way.origin} is not the one it was dealt by")
        return HouseWayDrill(way, random.Random(seed), planned, misses)
    if posted_digests(profile) != settings.get("paytables_sha256"):
        raise AuditError(f"{where}: the pay tables are not the ones it was dealt under")
    wagers = [Wager(str(w)) for w in settings.get("wagers") or () if w in set(Wager)]
    return PayoutDrill(profile, random.Random(seed), planned, wagers, misses)


def house_way_drill(
    desk: Desk,
    house: HouseRules,
    *,
    hands: int | None,
    seed: int | None,
    trainee: str | None,
    house_way: str | None = None,
    clauses: Sequence[str] = (),
    clock: Callable[[], float] = time.monotonic,
    pin: str | None = None,
) -> Drill:
    """A House Way drill: `hands` seven-card hands (None: the standard's `min_hands`; the
    table's House Way, or `house_way`), limited to `clauses` if given, dealt more often from
    the clauses the trainee missed; with the trainee's `pin`, taken in their own session."""
    from dealer.games.paigow.drills import HOUSE_WAY, HouseWayDrill
    from dealer.games.paigow.house_way import load_house_way

    profile = house.load()
    way = load_house_way(house_way or profile.house_way)
    hands = profile.min_hands if hands is None else hands
    settings = {
        "house_way": {"name": way.name, "version": way.version},
        "house_way_source": way.origin,
        "house_way_sha256": way.sha256,
        "profile": profile.name,
        "profile_source": profile.source,
        "profile_sha256": profile.sha256,
    }
    session = _session(desk, trainee, pin, settings)
    dealt = _seed(seed)
    drill = HouseWayDrill(
        way, random.Random(dealt), hands, _misses(desk, trainee, HOUSE_WAY), clauses
    )
    typed = _typed(
        "dealer train house-way",
        house_way=house_way,
        hands=hands,
        seed=dealt,
        trainee=trainee,
        clause=tuple(clauses),
    )
    return Drill(
        desk,
        drill,
        trainee=trainee,
        seed=dealt,
        typed=typed,
        settings=settings,
        limited=tuple(clauses),
        clock=clock,
        session=session,
    )


def payout_drill(
    desk: Desk,
    house: HouseRules,
    *,
    wagers: Sequence[str],
    hands: int | None,
    seed: int | None,
    trainee: str | None,
    events: Sequence[str] = (),
    clock: Callable[[], float] = time.monotonic,
    pin: str | None = None,
) -> Drill:
    """A payout drill: `hands` settled seats (None: the standard's `min_hands`) with `wagers`
    placed (the base always), limited to hands of `events` if given, dealt more often from the
    pay rows the trainee missed; with the trainee's `pin`, taken in their own session."""
    from dealer.games.paigow.drills import PAYOUTS, PayoutDrill
    from dealer.games.paigow.pay import Wager
    from dealer.games.paigow.seat_rulings import posted_digests

    names = {w.value: w for w in Wager}
    unknown = [w for w in wagers if w not in names]
    if unknown:
        raise DealerError(f"--wagers: {unknown[0]!r} is not a wager ({', '.join(names)})")
    profile = house.load()
    hands = profile.min_hands if hands is None else hands
    dealt = _seed(seed)
    drill = PayoutDrill(
        profile,
        random.Random(dealt),
        hands,
        [names[w] for w in wagers],
        _misses(desk, trainee, PAYOUTS),
        events,
    )
    settings = {
        "profile": profile.name,
        "profile_source": profile.source,
        "profile_sha256": profile.sha256,
        "wagers": [str(w) for w in drill.wagers],
        "paytables": {str(w): t for w, t in profile.tables.items()},
        "paytables_sha256": posted_digests(profile),
        "house_way": profile.house_way,
    }
    session = _session(desk, trainee, pin, settings)
    typed = _typed(
        "dealer train payouts",
        wagers=tuple(wagers),
        hands=hands,
        seed=dealt,
        trainee=trainee,
        event=tuple(events),
    )
    return Drill(
        desk,
        drill,
        trainee=trainee,
        seed=dealt,
        typed=typed,
        settings=settings,
        limited=tuple(events),
        clock=clock,
        session=session,
    )


@dataclass(frozen=True)
class DrillLine:
    """One drill on the record: its record, when, which drill, the score, and whether it was
    taken in the trainee's own session (`training.own_session_problem`: else practice)."""

    record_id: int
    recorded_at: str
    drill: str
    score: int
    hands: int
    percent: str
    limited: tuple[str, ...]
    own_session: bool = False


@dataclass(frozen=True)
class CertificateLine:
    """One certificate on the record, with why it does not count (None: it does)."""

    record_id: int
    recorded_at: str
    drill: str
    supervisor: str
    training: int | None
    problem: str | None


@dataclass(frozen=True)
class TraineeReport:
    """A trainee's progress: every drill in order, the hands asked and missed by clause or pay
    row (per drill), and the certificates."""

    trainee: str
    drills: tuple[DrillLine, ...]
    by_key: Mapping[str, Mapping[str, tuple[int, int]]]
    """Per drill, per key: (hands asked, hands missed)."""
    certificates: tuple[CertificateLine, ...] = field(default=())

    def to_json(self) -> dict[str, Any]:
        """`{"trainee", "drills": [...], "by_key": {drill: {key: {"asked", "missed"}}},
        "certificates": [...]}`."""
        return {
            "trainee": self.trainee,
            "drills": [vars(d) | {"limited": list(d.limited)} for d in self.drills],
            "by_key": {
                drill: {k: {"asked": a, "missed": m} for k, (a, m) in keys.items()}
                for drill, keys in self.by_key.items()
            },
            "certificates": [vars(c) for c in self.certificates],
        }


def report(db: LogLocation | None, trainee: str | None = None) -> list[TraineeReport]:
    """Each trainee's progress (one trainee, given `trainee`), by trainee id."""
    from dealer.audit import training

    with open_desk_log(db, existing=True, read_only=True) as log:
        records = training.drills(log, trainee)
        certified = training.certificates(log, trainee)
        own = {r.id: training.own_session_problem(log, r) is None for r in records}
    names = sorted(
        {str(r.result.get("trainee")) for r in records}
        | {str(r.result.get("trainee")) for r, _ in certified}
    )
    reports = []
    for name in names:
        mine = [r for r in records if r.result.get("trainee") == name]
        by_key: dict[str, dict[str, tuple[int, int]]] = {}
        for r in mine:
            keys = by_key.setdefault(r.action, {})
            asked, missed = r.result.get("asked") or {}, r.result.get("missed") or {}
            for key, count in asked.items():
                a, m = keys.get(key, (0, 0))
                keys[key] = (a + int(count), m + int(missed.get(key, 0)))
        reports.append(
            TraineeReport(
                name,
                tuple(
                    DrillLine(
                        r.id,
                        r.recorded_at,
                        r.action,
                        int(r.result.get("score", 0)),
                        int(r.result.get("hands", 0)),
                        str(r.result.get("percent", "")),
                        tuple(str(x) for x in r.result.get("limited") or ()),
                        own[r.id],
                    )
                    for r in mine
                ),
                by_key,
                tuple(
                    CertificateLine(
                        c.id,
                        c.recorded_at,
                        c.action,
                        c.user_id,
                        c.links_to,
                        problem,
                    )
                    for c, problem in certified
                    if c.result.get("trainee") == name
                ),
            )
        )
    return reports


def certify(
    db: LogLocation | None,
    house: HouseRules,
    trainee: str,
    drill: str,
    *,
    supervisor: str,
    pin: str,
) -> int:
    """Certify that `trainee` passed the table profile's standard on their latest `drill`: a
    signed certificate record. Returns its id."""
    from dealer.audit.training import Standard
    from dealer.audit.training import certify as certify_on_record
    from dealer.games.paigow.drills import DRILLS

    if drill not in DRILLS:
        raise DealerError(f"--drill {drill!r}: the drills are {', '.join(DRILLS)}")
    profile = house.load()
    standard = Standard(profile.pass_percent, profile.min_hands)
    with open_desk_log(db, existing=True) as log:
        return certify_on_record(
            log, trainee, drill, standard, judge=rejudge, supervisor_id=supervisor, pin=pin
        )
