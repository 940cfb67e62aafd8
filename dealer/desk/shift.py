"""A table's shift summary from its audit records: what was played, wagered and won, how the
progressive meters moved, and what is still open or was corrected. `shift_summary` reads the
records; `summarize` is pure: records in, a value out.

Floor decisions (the rule documents are silent):
* Counted: Emperor's Challenge table rounds (`paigow round`) and single-seat settles
  (`paigow settle`) recorded at the table in the time range. A ruling voided by a supervisor
  (whenever the void was recorded) is left out of the money figures and listed as voided.
* Overrides: the figures are those of the rulings in effect. An override that carries a
  replacement result (`audit override --result`, the ruling's result in the same form: a
  round's `seats`, a settle's `base` and `bonuses`) replaces the ruling's figures; the newest
  such override that is not voided wins. An override without a result states a decision, not
  new figures: the ruling counts as it was ruled and the override is listed to reconcile.
* Large pays: a seat whose net win on one ruling in effect is more than the table profile's
  `signoff_over` (default $2,500; the table's assigned profile's, else `--profile`/`--rule`
  give the table's own), the one line the sign-off of a large pay uses. Sign-offs: the
  rulings in the range whose large pay still awaits a supervisor's sign-off (not voided), and
  those signed off (whenever signed), as each ruling recorded its need (`signoff_required`)
  when it was made.
* Meters: the contributions and hits of every ruling in the range count, voided or not (a
  void does not move a meter back; a supervisor adjusts it by hand, and that adjustment shows).
  A linked meter (one the ruling's profile shares with other tables under a link) is shown
  once, as the link: this table's contributions, hits and adjustments to it, with no start or
  end (the other tables move it too; `dealer audit meter show` gives its value), so its value
  is never shown as this table's.
* Shift close: the log's record count and head hash as the summary read it (`head`), the
  checkpoint line to keep outside the log. A rewrite of the log that also deletes the
  checkpoints recorded in it (possible to whoever holds an SQLite file) verifies again; only a
  line kept outside catches it (`dealer audit verify --checkpoint N:HASH`).
* Overrides and voids listed: those recorded in the range, and those (recorded at any time) of
  rulings in the range. Open disputes: every unresolved dispute of the table, whenever opened;
  resolved disputes: those resolved in the range. Meter adjustments: the hand adjustments and
  reseeds (every meter record but a ruling's own move) recorded in the range. Rule changes:
  every ruling in the range (of any game) made with `--rule` settings or another House Way
  than its profile's (`--house-way`), voided or not.
* Documents not shipped: every document a ruling in the range (of any game, voided or not) was
  decided by — its profile, pay tables, House Way, combination table, as the ruling names them
  by SHA-256 (`audit.approvals.documents`) — whose text is not one the program ships (a
  property's own, approved; or a shipped one edited, whatever its name and version say), each
  with the rulings made with it.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from decimal import Decimal
from typing import Any

from dealer.audit.approvals import documents
from dealer.audit.chain import Checkpoint
from dealer.audit.disputes import Dispute, disputes
from dealer.audit.meters import MeterAction
from dealer.audit.records import Record, RecordFilter, RecordKind
from dealer.audit.storage import Reads
from dealer.desk.context import HouseRules, LogLocation, open_desk_log
from dealer.games.paigow.figures import has_figures
from dealer.games.paigow.pay import PROGRESSIVES, Wager
from dealer.inputs import FIGURE_LIMIT, PAIGOW_SEATS
from dealer.kernel.documents import shipped_documents
from dealer.kernel.money import money_json
from dealer.kernel.ruling import RulingAction

WAGER_TYPES = tuple(Wager)
"""The wagers totalled, and counted in a seat's net for the large-pay check: every wager of the
registry (`dealer.games.paigow.pay.Wager`), in its order."""
METERS = PROGRESSIVES
MONEY_ACTIONS = (RulingAction.ROUND, RulingAction.SETTLE)
ZERO = Decimal(0)


STORED_AMOUNT = re.compile(r"-?[0-9]{1,13}(?:\.[0-9]{1,12})?")
"""A stored amount's text: a plain decimal, no exponent (`stored_money`)."""


def stored_money(value: Any) -> Decimal:
    """A stored amount (a JSON number, or text as a meter record keeps its value): a plain
    decimal within `FIGURE_LIMIT` either way. Anything else a log may hold (text that is no
    number, `1e300`, a list; a value altered around the tool, which `dealer audit verify`
    finds) counts as $0, so no stored value stops a summary."""
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        return ZERO
    if isinstance(value, int) and abs(value) > FIGURE_LIMIT:
        return ZERO
    return _stored_text(str(value))


@functools.lru_cache(maxsize=4096)
def _stored_text(text: str) -> Decimal:
    """`stored_money` of a value's text (a log repeats a few thousand amounts: kept)."""
    if not STORED_AMOUNT.fullmatch(text) or abs(amount := Decimal(text)) > FIGURE_LIMIT:
        return ZERO
    return amount


def stored_mapping(value: Any) -> Mapping[str, Any]:
    """A stored mapping (empty for anything else)."""
    return value if isinstance(value, Mapping) else {}


def stored_items(value: Any) -> list[Mapping[str, Any]]:
    """The mappings of a stored list (none for anything else)."""
    return [item for item in value if isinstance(item, Mapping)] if isinstance(value, list) else []


def _in_range(stamp: str, since: str | None, until: str | None) -> bool:
    return (since is None or stamp >= since) and (until is None or stamp < until)


@dataclass(frozen=True)
class WagerTotals:
    """One wager type: how many were placed (for Envy: how many pays), the amount wagered, and
    the players' net on it."""

    count: int = 0
    wagered: Decimal = ZERO
    net: Decimal = ZERO

    def add(self, wagered: Decimal, net: Decimal) -> WagerTotals:
        """These totals with one more wager."""
        return WagerTotals(self.count + 1, self.wagered + wagered, self.net + net)

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "count": self.count,
            "wagered": money_json(self.wagered),
            "net": money_json(self.net),
        }


@dataclass(frozen=True)
class MeterMovement:
    """How one progressive meter moved: start + contributions − paid + reseeds + adjustments
    = end (`unexplained` is what that leaves over, zero on a sound log)."""

    meter: str
    start: Decimal | None
    contributions: Decimal
    hits: int
    paid: Decimal
    reseeds: Decimal
    adjustments: Decimal
    end: Decimal | None
    link: str | None = None
    """The link of a linked meter: this table's part of its movement (no start or end)."""

    @property
    def unexplained(self) -> Decimal:
        """The end value less what the movements explain (zero for a linked meter, which other
        tables move too)."""
        if self.link is not None:
            return ZERO
        moved = self.contributions - self.paid + self.reseeds + self.adjustments
        return (self.end or ZERO) - ((self.start or ZERO) + moved)

    def to_dict(self) -> dict[str, Any]:
        """JSON form (start/end null: the meter was never set at this table, or is linked; a
        linked meter's names its `meter`)."""
        return ({} if self.link is None else {"meter": self.meter}) | {
            "start": None if self.start is None else money_json(self.start),
            "contributions": money_json(self.contributions),
            "hits": self.hits,
            "paid": money_json(self.paid),
            "reseeds": money_json(self.reseeds),
            "adjustments": money_json(self.adjustments),
            "end": None if self.end is None else money_json(self.end),
            "unexplained": money_json(self.unexplained),
        }


@dataclass(frozen=True)
class Correction:
    """A supervisor's override or void."""

    id: int
    kind: str
    recorded_at: str
    user_id: str
    target: int | None
    reason: str
    decision: str | None

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return dict(self.__dict__)


@dataclass(frozen=True)
class MeterAdjustment:
    """A meter moved by hand (an adjustment or a reseed), not by a ruling."""

    id: int
    recorded_at: str
    user_id: str
    meter: str
    delta: Decimal
    value: Decimal
    reason: str

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return dict(self.__dict__) | {
            "delta": money_json(self.delta),
            "value": money_json(self.value),
        }


@dataclass(frozen=True)
class LargePay:
    """One seat's net win of more than the sign-off line on one ruling in effect."""

    ruling: int
    seat: int | None
    net: Decimal

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {"ruling": self.ruling, "seat": self.seat, "net": money_json(self.net)}


@dataclass(frozen=True)
class SignedOff:
    """A ruling's large pay signed off: the ruling, the sign-off record and its supervisor."""

    ruling: int
    record: int
    by: str

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {"ruling": self.ruling, "record": self.record, "by": self.by}


@dataclass(frozen=True)
class OwnDocument:
    """A document rulings were decided by that the program does not ship: what it is (as the
    rulings name it: `House Way FILE`, `table profile FILE`, …), the SHA-256 of its text, and
    the rulings in the range made with it."""

    what: str
    sha256: str
    rulings: tuple[int, ...]

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {"document": self.what, "sha256": self.sha256, "rulings": list(self.rulings)}


@dataclass(frozen=True)
class ShiftSummary:
    """The figures of one table over a time range."""

    table: str
    since: str | None
    until: str | None
    rounds: tuple[int, ...]
    settles: tuple[int, ...]
    voided: tuple[int, ...]
    other_rulings: int
    seats: int
    wagers: Mapping[Wager, WagerTotals]
    meters: tuple[MeterMovement, ...]
    open_disputes: tuple[Dispute, ...]
    overrides: tuple[Correction, ...]
    voids: tuple[Correction, ...]
    signoff_over: Decimal
    replaced: Mapping[int, int] = field(default_factory=dict)
    resolved_disputes: tuple[Dispute, ...] = ()
    meter_adjustments: tuple[MeterAdjustment, ...] = ()
    large_pays: tuple[LargePay, ...] = ()
    rule_changes: Mapping[int, tuple[str, ...]] = field(default_factory=dict)
    awaiting_signoff: tuple[int, ...] = ()
    signed_off: tuple[SignedOff, ...] = ()
    own_documents: tuple[OwnDocument, ...] = ()
    head: Checkpoint | None = None
    """The log's record count and head hash as the summary read it: the shift close's line to
    keep outside the log (None: a summary not read from a log)."""

    @property
    def total_wagered(self) -> Decimal:
        """Every wager's amount (Envy has none of its own)."""
        return sum((t.wagered for t in self.wagers.values()), ZERO)

    @property
    def players_net(self) -> Decimal:
        """The players' gain (+) or loss (−) over every wager."""
        return sum((t.net for t in self.wagers.values()), ZERO)

    @property
    def house_result(self) -> Decimal:
        """The house's result: the players' net with the sign turned."""
        return -self.players_net

    def _linked_meters(self) -> dict[str, Any]:
        """`linked_meters`, by link, only when the table moved a linked meter in the range (so
        a summary without one reads as it always did)."""
        linked = {m.link: m.to_dict() for m in self.meters if m.link is not None}
        return {"linked_meters": linked} if linked else {}

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "table": self.table,
            "since": self.since,
            "until": self.until,
            "rounds": len(self.rounds),
            "settles": len(self.settles),
            "seats": self.seats,
            "rulings": {
                "rounds": list(self.rounds),
                "settles": list(self.settles),
                "voided": list(self.voided),
                "replaced": {str(ruling): by for ruling, by in self.replaced.items()},
            },
            "other_rulings": self.other_rulings,
            "wagers": {name: totals.to_dict() for name, totals in self.wagers.items()},
            "total_wagered": money_json(self.total_wagered),
            "players_net": money_json(self.players_net),
            "house_result": money_json(self.house_result),
            "meters": {m.meter: m.to_dict() for m in self.meters if m.link is None},
            **self._linked_meters(),
            "open_disputes": [d.to_dict() for d in self.open_disputes],
            "resolved_disputes": [d.to_dict() for d in self.resolved_disputes],
            "meter_adjustments": [m.to_dict() for m in self.meter_adjustments],
            "large_pays": {
                "threshold": money_json(self.signoff_over),
                "pays": [p.to_dict() for p in self.large_pays],
            },
            "signoffs": {
                "awaiting": list(self.awaiting_signoff),
                "signed": [s.to_dict() for s in self.signed_off],
            },
            "rule_changes": [
                {"ruling": ruling, "changes": list(changes)}
                for ruling, changes in self.rule_changes.items()
            ],
            "documents_not_shipped": [d.to_dict() for d in self.own_documents],
            "overrides": [c.to_dict() for c in self.overrides],
            "voids": [c.to_dict() for c in self.voids],
            "shift_close": None if self.head is None else self.head.to_dict(),
        }


def seat_results(action: str, result: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The seats a money ruling's result settled: a settle's one, a round's `seats`."""
    if action == RulingAction.SETTLE:
        return [result]
    return stored_items(result.get("seats"))


def _replacement(override: Record) -> Mapping[str, Any] | None:
    """An override's replacement result when it has figures in a ruling's form, each amount an
    amount (`figures.has_figures`, as an override is checked when made), else None."""
    result = override.result.get("result")
    return result if has_figures(override.action, result) else None


@dataclass(frozen=True)
class InEffect:
    """What the overrides and voids make of the rulings: those voided, and for each ruling an
    override replaced, the override and its figures (the newest that is not voided)."""

    voided: frozenset[int | None]
    replaced: Mapping[int, int]
    figures: Mapping[int, Mapping[str, Any]]

    def result(self, ruling: Record) -> Mapping[str, Any] | None:
        """The result in effect of `ruling`: the replacement's, else its own; None if voided."""
        if ruling.id in self.voided:
            return None
        return self.figures.get(ruling.id, ruling.result)


def every_correction(log: Reads) -> list[Record]:
    """Every override and void of the log (few: read whole), for `in_effect`."""
    return log.records(RecordFilter(kind=RecordKind.OVERRIDE)) + log.records(
        RecordFilter(kind=RecordKind.VOID)
    )


def in_effect(corrections: Sequence[Record]) -> InEffect:
    """The rulings' state from their overrides and voids (`corrections`, at any time)."""
    voided = frozenset(c.links_to for c in corrections if c.kind == RecordKind.VOID)
    replaced: dict[int, int] = {}
    newest: dict[int, Mapping[str, Any]] = {}
    for c in sorted(corrections, key=lambda c: c.id):
        figures = _replacement(c) if c.kind == RecordKind.OVERRIDE and c.id not in voided else None
        if figures is not None and c.links_to is not None:
            replaced[c.links_to], newest[c.links_to] = c.id, figures
    return InEffect(voided, replaced, newest)


def _in_effect(
    rulings: Sequence[Record], corrections: Sequence[Record]
) -> tuple[list[tuple[Record, Mapping[str, Any]]], dict[int, int]]:
    """The rulings not voided, each with the result in effect (the newest override's
    replacement that is not voided, else its own), and which override replaced which ruling."""
    state = in_effect(corrections)
    counted = [(r, result) for r in rulings if (result := state.result(r)) is not None]
    return counted, {r.id: state.replaced[r.id] for r, _ in counted if r.id in state.replaced}


def seat_net(seat: Mapping[str, Any]) -> Decimal:
    """A seat's net over every wager of the registry (the player's gain + or loss −)."""
    bonuses = stored_items(seat.get("bonuses"))
    return stored_money(stored_mapping(seat.get("base")).get("net")) + sum(
        (stored_money(b.get("net")) for b in bonuses if b.get("wager") in WAGER_TYPES), ZERO
    )


def _wager_totals(
    rulings: Sequence[tuple[Record, Mapping[str, Any]]], signoff_over: Decimal
) -> tuple[dict[Wager, WagerTotals], int, list[LargePay]]:
    totals = {name: WagerTotals() for name in WAGER_TYPES}
    seats = 0
    large = []
    for ruling, result in rulings:
        for seat in seat_results(ruling.action, result):
            seats += 1
            base = stored_mapping(seat.get("base"))
            totals[Wager.BASE] = totals[Wager.BASE].add(
                stored_money(base.get("wager")), stored_money(base.get("net"))
            )
            for bonus in stored_items(seat.get("bonuses")):
                name = bonus.get("wager")
                if isinstance(name, str) and name in totals:
                    name = Wager(name)
                    totals[name] = totals[name].add(
                        stored_money(bonus.get("amount")), stored_money(bonus.get("net"))
                    )
            if (net := seat_net(seat)) > signoff_over:
                number = seat.get("seat", ruling.seat)
                seated = isinstance(number, int) and not isinstance(number, bool)
                seat_no = number if seated and number in PAIGOW_SEATS else None
                large.append(LargePay(ruling.id, seat_no, net))
    return totals, seats, large


def _adjustment(record: Record) -> MeterAdjustment:
    return MeterAdjustment(
        record.id,
        record.recorded_at,
        record.user_id,
        str(record.result.get("meter", "")),
        stored_money(record.result.get("delta")),
        stored_money(record.result.get("value")),
        record.reason or "",
    )


def _moved_by(move: Record, rulings: Sequence[Record]) -> Record | None:
    """The ruling whose transaction moved the meter: the one of `rulings` `move` links to."""
    return next((r for r in rulings if r.id == move.links_to), None)


def _link(record: Record, name: str) -> str | None:
    """The link of meter `name` a ruling's profile named, or a meter record's link."""
    if record.kind == RecordKind.METER:
        found = record.result.get("link")
    else:
        meters = record.settings.get("meters")
        meter = meters.get(name) if isinstance(meters, Mapping) else None
        found = meter.get("link") if isinstance(meter, Mapping) else None
    return found if isinstance(found, str) else None


def _meter_movements(
    name: str,
    rulings: Sequence[Record],
    moves: Sequence[Record],
    before: Decimal | None,
) -> Iterator[MeterMovement]:
    """The table's own meter `name` (if it was ever set), then each link it was linked to in
    the range (what this table's rulings and supervisors moved it by; no start or end, which
    are the link's, moved by other tables too)."""
    moves = [m for m in moves if m.result.get("meter") == name]
    own = _meter_movement(
        name,
        [r for r in rulings if _link(r, name) is None],
        [m for m in moves if _link(m, name) is None],
        before,
    )
    if own.start is not None or own.end is not None:
        yield own
    for link in dict.fromkeys(
        found for r in (*rulings, *moves) if (found := _link(r, name)) is not None
    ):
        linked = _meter_movement(
            name,
            [r for r in rulings if _link(r, name) == link],
            [m for m in moves if _link(m, name) == link],
            ZERO,
        )
        yield replace(linked, start=None, end=None, link=link)


def _meter_movement(
    name: str, rulings: Sequence[Record], mine: Sequence[Record], before: Decimal | None
) -> MeterMovement:
    """Meter `name` moved by `rulings` and by its own meter records `mine`, from `before` (None:
    the value before the first move, if a ruling moved it)."""
    start = before
    if start is None and mine and mine[0].action == MeterAction.MOVE:
        first = _moved_by(mine[0], rulings)
        if first is not None:
            start = stored_money(
                stored_mapping(stored_mapping(first.result.get("meters")).get("before")).get(name)
            )
    contributions = paid = reseeds = ZERO
    hits = 0
    for ruling in rulings:
        meters = stored_mapping(ruling.result.get("meters"))
        contributions += stored_money(stored_mapping(meters.get("contributions")).get(name))
        for hit in stored_items(ruling.result.get("progressive_hits")):
            if hit.get("meter") != name:
                continue
            hits += 1
            taken, back = stored_money(hit.get("paid")), stored_money(hit.get("returned_by_cap"))
            paid += taken - back
            if hit.get("reset"):
                reseeds += stored_money(hit.get("after")) - stored_money(hit.get("before")) + taken
    adjustments = sum(
        (stored_money(m.result.get("delta")) for m in mine if m.action != MeterAction.MOVE), ZERO
    )
    end = stored_money(mine[-1].result.get("value")) if mine else start
    return MeterMovement(name, start, contributions, hits, paid, reseeds, adjustments, end)


def _own_documents(records: Sequence[Record]) -> tuple[OwnDocument, ...]:
    """Each document the rulings of `records` name whose SHA-256 is not a shipped document's,
    with its rulings, in the order first used."""
    shipped = shipped_documents()
    used: dict[tuple[str, str], list[int]] = {}
    for record in records:
        if record.kind != RecordKind.RULING:
            continue
        for _, what, digest in documents(record.settings):
            if digest not in shipped:
                used.setdefault((what, digest), []).append(record.id)
    return tuple(OwnDocument(what, digest, tuple(ids)) for (what, digest), ids in used.items())


def _correction(record: Record) -> Correction:
    decision = record.result.get("decision") if record.kind == RecordKind.OVERRIDE else None
    return Correction(
        record.id,
        record.kind,
        record.recorded_at,
        record.user_id,
        record.links_to,
        record.reason or "",
        decision if isinstance(decision, str) else None,
    )


def summarize(
    table: str,
    since: str | None,
    until: str | None,
    records: Sequence[Record],
    meters_before: Sequence[Record],
    corrections: Sequence[Record],
    table_disputes: Sequence[Dispute],
    signoff_over: Decimal,
    signoffs: Sequence[Record] = (),
    head: Checkpoint | None = None,
) -> ShiftSummary:
    """The shift summary of `table` from `records` (the table's records in the range, by id),
    `meters_before` (the newest record of each of its own meters before the range),
    `corrections` (its overrides and voids, at any time), its disputes (at any time), the
    profile's sign-off line and its sign-off records (at any time), and the log's head as read
    (`head`, the shift close's checkpoint). Times are the stored UTC form; `since` inclusive,
    `until` exclusive."""
    rulings = [
        r
        for r in records
        if r.kind == RecordKind.RULING and r.game == "paigow" and r.action in MONEY_ACTIONS
    ]
    ids = {r.id for r in rulings}
    listed = [c for c in corrections if _in_range(c.recorded_at, since, until) or c.links_to in ids]
    listed.sort(key=lambda c: c.id)
    voided = {c.links_to for c in corrections if c.kind == RecordKind.VOID}
    counted, replaced = _in_effect(rulings, corrections)
    totals, seats, large = _wager_totals(counted, signoff_over)
    signed = {r.links_to: r for r in signoffs}
    needing = [r for r in rulings if isinstance(r.result.get("signoff_required"), dict)]
    moves = [r for r in records if r.kind == RecordKind.METER]
    last_before: dict[str, Decimal] = {}
    for move in meters_before:
        if move.result.get("link") is None:
            last_before[str(move.result.get("meter"))] = stored_money(move.result.get("value"))
    meters = tuple(
        movement
        for name in METERS
        for movement in _meter_movements(name, rulings, moves, last_before.get(name))
    )
    return ShiftSummary(
        table=table,
        since=since,
        until=until,
        rounds=tuple(r.id for r, _ in counted if r.action == RulingAction.ROUND),
        settles=tuple(r.id for r, _ in counted if r.action == RulingAction.SETTLE),
        voided=tuple(r.id for r in rulings if r.id in voided),
        other_rulings=sum(1 for r in records if r.kind == RecordKind.RULING) - len(rulings),
        seats=seats,
        wagers=totals,
        meters=meters,
        open_disputes=tuple(d for d in table_disputes if d.resolution is None),
        overrides=tuple(_correction(c) for c in listed if c.kind == RecordKind.OVERRIDE),
        voids=tuple(_correction(c) for c in listed if c.kind == RecordKind.VOID),
        replaced=replaced,
        resolved_disputes=tuple(
            d
            for d in table_disputes
            if d.resolution is not None and _in_range(d.resolution.resolved_at, since, until)
        ),
        meter_adjustments=tuple(_adjustment(m) for m in moves if m.action != MeterAction.MOVE),
        large_pays=tuple(large),
        signoff_over=signoff_over,
        awaiting_signoff=tuple(r.id for r in needing if r.id not in signed and r.id not in voided),
        signed_off=tuple(
            SignedOff(r.id, signed[r.id].id, signed[r.id].user_id)
            for r in needing
            if r.id in signed
        ),
        rule_changes={
            r.id: r.rule_changes for r in records if r.kind == RecordKind.RULING and r.rule_changes
        },
        own_documents=_own_documents(records),
        head=head,
    )


def shift_summary(
    db: LogLocation | None,
    table: str,
    *,
    since: str | None = None,
    until: str | None = None,
    house: HouseRules | None = None,
) -> ShiftSummary:
    """The shift summary of `table` from the audit log at `db` (which must exist), over
    [`since`, `until`) in the stored UTC form (None: from the first record / until now); large
    pays by the sign-off line of the table's assigned profile, else of the one `house` makes
    (None: the default profile)."""
    from dealer.desk.assignments import table_profile

    signoff_over = table_profile(db, table, house or HouseRules()).signoff_over
    with open_desk_log(db, read_only=True) as log:
        head = log.head()
        records = log.records(RecordFilter(table_id=table, since=since, until=until))
        before = (
            [m for name in METERS for m in log.meter_records(table, name, 1, until=since)]
            if since is not None
            else []
        )
        corrections = log.records(
            RecordFilter(table_id=table, kind=RecordKind.OVERRIDE)
        ) + log.records(RecordFilter(table_id=table, kind=RecordKind.VOID))
        table_disputes = disputes(log, table_id=table)
        signoffs = log.records(RecordFilter(table_id=table, kind=RecordKind.SIGNOFF))
    return summarize(
        table,
        since,
        until,
        records,
        before,
        corrections,
        table_disputes,
        signoff_over,
        signoffs,
        head,
    )
