"""Progressive meters: a meter's value is the newest `meter` record of (table, meter name), or
for a linked meter the newest `meter` record of its link, whichever table moved it.

A ruling that moves a meter records the move in the same transaction, linked to the ruling
(read, rule, record, move: two tables' terminals never pay from the same meter value twice); a
supervisor sets a meter by hand with `adjust`, the one hand-made meter write (a reset or a
reseed is an adjustment too). Each `meter` record holds the previous value, the new value, the
delta and the reason; every value written is whole cents, zero or more.

An adjustment is checked before the supervisor's authority, so a refused one writes nothing:
the meter must be one the table has (`ranges`, from the table profile) and the value whole
cents from the meter's seed (its reset value) to its cap. A meter a ruling pays from is always
one a ruling can pay from, so no typed value can stop a table.

A linked meter (`MeterLink`: a profile meter naming a `link`) is one meter shared by every
table whose profile names the link: its records carry the link, its seed and its cap in the
result (`table_id` stays the table whose ruling or supervisor moved it), and its value is the
newest of them (one lookup in the index `records_linked_meters`). The seed and cap are the
link's terms, one thing on the floor (`link_terms`): those of the newest assignment whose
profile links the meter (`dealer.audit.assignments`, a supervisor's signed record), else those
of the link's first record. So they change only by a supervisor's signed assignment of a member
table (or under a new link id): a ruling or an adjustment whose profile states other terms is
refused, naming the link and both terms, and a meter record stating others explains nothing
(the PostgreSQL server refuses it, `dealer.check_link_terms`), whoever wrote it.

A meter moves only by what explains it: a ruling's `move` is the ruling's own (it follows the
ruling in its transaction, by its maker at its table, from the meter's value to the value the
ruling left, `ruling_problem`), and every other meter record is a supervisor's signed
adjustment. A hit raises a meter only by a reset to the meter's seed as the documents the ruling
names give it (the caller's `SeedOf`), never as the ruling's own settings say. `dealer audit
verify` replays every meter so (`MeterBook`) and fails on a move it cannot explain; a ruling
refuses to move a meter whose newest record it cannot explain (`check_explained`), so a value
written into the log by hand is never paid.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from decimal import Decimal, InvalidOperation
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from dealer.audit import keys, users
from dealer.audit.authority import supervised
from dealer.audit.records import Entry, Record, RecordKind, Role, amount, meter_value
from dealer.kernel.errors import AuditError
from dealer.kernel.money import fmt_money, whole_cents
from dealer.kernel.tuples import NamedTuple

if TYPE_CHECKING:
    from dealer.audit.storage import Reads, Storage, WriteTransaction


class MeterAction(StrEnum):
    """The action of a `meter` record: a ruling's `move` (its contributions and hits), or a
    supervisor's `adjust` (a value set by hand: a reset or a reseed too)."""

    MOVE = "move"
    ADJUST = "adjust"


class Previous(NamedTuple):
    """A meter's value (None: never set) as read under the write lock of the transaction that
    moves it."""

    value: Decimal | None


class MeterRange(NamedTuple):
    """The values a supervisor may set a meter to: from its seed (the value it resets to) to
    its cap (the most it holds); `link` names the link of a linked meter (whose terms the seed
    and cap are)."""

    seed: Decimal
    cap: Decimal
    link: str | None = None

    def linked(self) -> MeterLink | None:
        """The meter's link and terms, None for a table's own meter."""
        return None if self.link is None else MeterLink(self.link, self.seed, self.cap)


class MeterLink(NamedTuple):
    """A linked meter's link and its terms (seed and cap), as a table's profile states them."""

    link: str
    seed: Decimal
    cap: Decimal

    def result(self) -> dict[str, str]:
        """What a record of the linked meter carries besides the meter's name and values."""
        return {"link": self.link, "seed": str(self.seed), "cap": str(self.cap)}


class LinkTerms(NamedTuple):
    """A link's terms (seed and cap) and the record that set them: the newest assignment whose
    profile links the meter, else the link's first record."""

    seed: Decimal | None
    cap: Decimal | None
    record_id: int

    def said(self) -> str:
        """The terms as a message gives them: `$10,000/$250,000`."""
        return "/".join("?" if t is None else fmt_money(t) for t in (self.seed, self.cap))


def link_terms(reads: Reads, link: str, before: int | None = None) -> LinkTerms | None:
    """The terms of `link` (`LinkTerms`), from the records before record `before` (None: all);
    None when nothing set them yet (the link's first record sets them)."""
    from dealer.audit import assignments

    named = assignments.naming_link(reads, link, before)
    if named is not None:
        assignment, meter = named
        return LinkTerms(*_terms_of(meter), assignment.record_id)
    first = reads.link_records(link, 1, oldest_first=True)
    if not first or (before is not None and first[0].id >= before):
        return None
    return LinkTerms(*_terms_of(first[0].result), first[0].id)


def newest_of_link(reads: Reads, name: str, link: MeterLink) -> Record | None:
    """The newest meter record of `link` (None: never moved), the link's terms (`link_terms`)
    checked against those the table's profile states: AuditError naming the link and both
    terms when they differ, or when the link is another meter's."""
    found = reads.link_records(link.link, 1)
    if not found:
        return None
    newest = found[0]
    held = newest.result
    if held.get("meter") != name:
        raise AuditError(
            f"link {link.link} is the {held.get('meter')} meter (record {newest.id}), not "
            f"{name}: a link is one meter on the floor"
        )
    terms = link_terms(reads, link.link)
    if terms is not None and (terms.seed, terms.cap) != (link.seed, link.cap):
        raise AuditError(
            f"meter {name} is linked as {link.link}, whose seed/cap are {terms.said()} (record "
            f"{terms.record_id}), but this table's profile says {fmt_money(link.seed)}/"
            f"{fmt_money(link.cap)}: every table of a link states its terms alike"
        )
    return newest


def _number(text: object) -> Decimal | None:
    try:
        return Decimal(str(text)) if text is not None else None
    except InvalidOperation:
        return None


def current(
    reads: Reads, table_id: str, name: str, link: MeterLink | None = None
) -> Decimal | None:
    """Meter `name`'s value at `table_id` (None: never set): the table's own, or with `link`
    the link's (`newest_of_link`). A value that is no number is a damaged record."""
    if link is None:
        return reads.meter(table_id, name)
    newest = newest_of_link(reads, name, link)
    if newest is None:
        return None
    return meter_value(newest.id, json.dumps(newest.result), f"meter {name} of link {link.link}")


def _value(value: Decimal | int | float | str, name: str) -> Decimal:
    """A meter value for the record: whole cents, zero or more."""
    new = amount(value, f"meter {name}")
    if new < 0 or not whole_cents(new):
        raise AuditError(f"meter {name} must be whole cents, zero or more, not {value!r}")
    return new


def range_of(ranges: Mapping[str, MeterRange], name: str) -> MeterRange:
    """The range of meter `name`; AuditError naming the meters there are if it is not one."""
    if name not in ranges:
        raise AuditError(f"there is no meter {name!r}: the meters are {', '.join(sorted(ranges))}")
    return ranges[name]


def check_adjustment(
    ranges: Mapping[str, MeterRange],
    table_id: str,
    name: str,
    value: Decimal | int | float | str,
    reason: str,
) -> None:
    """AuditError unless meter `name` is one of `ranges`, `value` one a supervisor may set it
    to at `table_id` (whole cents from its seed to its cap), and a reason is given."""
    allowed = range_of(ranges, name)
    new = _value(value, name)
    if not allowed.seed <= new <= allowed.cap:
        where = f"at table {table_id}" if allowed.link is None else f"of link {allowed.link}"
        raise AuditError(
            f"meter {name} {where} cannot be set to {fmt_money(new)}: a supervisor "
            f"sets a meter between its seed and its cap, "
            f"{fmt_money(allowed.seed)}–{fmt_money(allowed.cap)}"
        )
    if not isinstance(reason, str) or not reason.strip():
        raise AuditError(f"adjusting meter {name} needs a reason")


def move(
    tx: WriteTransaction,
    table_id: str,
    name: str,
    value: Decimal | int | float | str,
    reason: str,
    *,
    user_id: str | None = None,
    role: str | None = None,
    game: str | None = None,
    links_to: int | None = None,
    action: MeterAction = MeterAction.MOVE,
    link: MeterLink | None = None,
    previous: Previous | None = None,
) -> int:
    """Move meter `name` at `table_id` to `value`: a `meter` record (previous value, new
    value, delta, reason; with `link`, the link's previous value and the link and its terms).
    Who, game and link default to the last record other than a meter move appended in this
    transaction (the ruling that moved it). The previous value is read here, unless the caller
    read it in this transaction (`previous`). Returns the record id."""
    if not isinstance(name, str) or not name.strip():
        raise AuditError("a meter needs a name")
    if not isinstance(reason, str) or not reason.strip():
        raise AuditError(f"moving meter {name} needs a reason")
    new = _value(value, name)
    mover = [
        (record_id, entry) for record_id, entry in tx.appended if entry.kind != RecordKind.METER
    ]
    last_id, last = mover[-1] if mover else (None, None)
    if user_id is None:
        if last is None:
            raise AuditError(f"moving meter {name} needs the id of the user who moved it")
        user_id, role = last.user_id, last.role
    else:
        role = users.acting_role(tx, user_id, RecordKind.METER, role)
    before = current(tx, table_id, name, link) if previous is None else previous.value
    delta = new - (before or Decimal(0))
    moved = (
        f"first value {fmt_money(new)}"
        if before is None
        else f"{fmt_money(before)} → {fmt_money(new)}"
    )
    linked = "" if link is None else f" (link {link.link})"
    return tx.append(
        Entry(
            kind=RecordKind.METER,
            user_id=user_id,
            role=role or Role.DEALER,
            table_id=table_id,
            game=game if game is not None else (last.game if last else ""),
            action=action,
            result={
                "meter": name,
                "previous": None if before is None else str(before),
                "value": str(new),
                "delta": str(delta),
                **({} if link is None else link.result()),
            },
            explanation=[f"Meter {name}{linked} at table {table_id}: {moved} ({reason})"],
            links_to=links_to if links_to is not None else last_id,
            reason=reason,
        )
    )


def adjust(
    storage: Storage,
    table_id: str,
    name: str,
    value: Decimal | int | float | str,
    reason: str,
    *,
    ranges: Mapping[str, MeterRange],
    supervisor_id: str,
    pin: str,
) -> int:
    """Set meter `name` at `table_id` by hand (a supervisor action); return the record id. The
    value is checked against `ranges` (`check_adjustment`) before anything else."""
    check_adjustment(ranges, table_id, name, value, reason)
    return supervised(
        storage,
        supervisor_id,
        pin,
        "meter-adjust",
        lambda tx, sup: move(
            tx,
            table_id,
            name,
            value,
            reason,
            user_id=sup.user_id,
            role=Role.SUPERVISOR,
            action=MeterAction.ADJUST,
            link=ranges[name].linked(),
        ),
        table_id=table_id,
    )


def _at(found: object, name: str) -> Decimal | None:
    """The amount under `name` of a parsed JSON object, None if there is none or no number."""
    return _number(found.get(name)) if isinstance(found, Mapping) else None


def _placed(result: Mapping[str, Any], name: str) -> Decimal:
    """What a ruling's `result` says was wagered on progressive `name`: the amounts of its
    bonus wagers of that name (a settle's own `bonuses`, or each seat's of a round)."""
    seats = result.get("seats")
    total = Decimal(0)
    for seat in seats if isinstance(seats, list) else [result]:
        bonuses = seat.get("bonuses") if isinstance(seat, Mapping) else None
        for bonus in bonuses if isinstance(bonuses, list) else []:
            if isinstance(bonus, Mapping) and bonus.get("wager") == name:
                total += _at(bonus, "amount") or Decimal(0)
    return total


def _hits_problem(
    result: Mapping[str, Any], name: str, seed: Decimal | None
) -> tuple[Decimal, str | None]:
    """What a ruling's hits of meter `name` moved it by (each from its value before to after,
    plus what a cap returned), or why a hit does not add up: a hit never raises its meter,
    except a reset to its seed (`seed`: as the documents the ruling names give it)."""
    hits = result.get("progressive_hits")
    moved = Decimal(0)
    for hit in hits if isinstance(hits, list) else []:
        if not isinstance(hit, Mapping) or hit.get("meter") != name:
            continue
        before, after, back = _at(hit, "before"), _at(hit, "after"), _at(hit, "returned_by_cap")
        paid = _at(hit, "paid")
        if before is None or after is None or back is None or paid is None:
            return moved, "a hit of it states no amounts"
        reset = hit.get("reset") is True and after == seed
        if (after > before and not reset) or not Decimal(0) <= back <= paid:
            return moved, (
                f"a hit of it takes the meter from {fmt_money(before)} to {fmt_money(after)} "
                f"and returns {fmt_money(back)} of {fmt_money(paid)} paid"
            )
        moved += after - before + back
    return moved, None


def ruling_problem(
    result: Mapping[str, Any],
    seed: Decimal | None,
    name: str,
    previous: Decimal | None,
    value: Decimal,
) -> str | None:
    """Why a ruling's `result` does not explain its move of meter `name` from `previous` (None:
    unset, the ruling started from the seed) to `value`, or None: the ruling ruled from the
    meter's value, left it at `value`, and its before + contributions (no more than the wagers
    on it) + hits (none raising it but a reset to `seed`, the meter's seed as the documents the
    ruling names give it: None, no reset explained) adds up to that."""
    meters = result.get("meters")
    meters = meters if isinstance(meters, Mapping) else {}
    before, added = _at(meters.get("before"), name), _at(meters.get("contributions"), name)
    after = _at(meters.get("after"), name)
    if before is None or added is None or after is None:
        return "the ruling states no such meter before and after"
    if after != value:
        return f"the ruling left it at {fmt_money(after)}"
    if previous is not None and before != previous:
        return f"the ruling ruled from {fmt_money(before)}, not from {fmt_money(previous)}"
    if not Decimal(0) <= added <= _placed(result, name):
        return f"the ruling's contribution {fmt_money(added)} is more than its wagers on it"
    moved, why = _hits_problem(result, name, seed)
    if why is not None:
        return why
    if before + added + moved != after:
        return (
            f"the ruling's {fmt_money(before)} + contributions {fmt_money(added)} and its hits "
            f"do not come to {fmt_money(after)}"
        )
    return None


def _in(found: object, name: str) -> object:
    return found.get(name) if isinstance(found, Mapping) else None


def _shown(value: Decimal | None) -> str:
    return "unset" if value is None else fmt_money(value)


def _where(table_id: str, name: str, link: object) -> str:
    return (
        f"meter {name} of link {link}"
        if isinstance(link, str)
        else f"meter {name} at table {table_id}"
    )


class _Mover(NamedTuple):
    """The record a meter move belongs to: the last record other than a meter record, with the
    settings its documents give (`MeterBook.replay`)."""

    id: int
    kind: str
    maker: str
    table_id: str
    result: Mapping[str, Any]
    settings: Mapping[str, Any]


def _meter_of(settings: Mapping[str, Any], name: str) -> Mapping[str, Any] | None:
    """The settings of meter `name` in a ruling's `settings` (None: it states no such meter)."""
    found = _in(settings.get("meters"), name)
    return found if isinstance(found, Mapping) else None


def _terms_of(held: Mapping[str, Any]) -> tuple[Decimal | None, Decimal | None]:
    return _number(held.get("seed")), _number(held.get("cap"))


class MeterBook:
    """Verify's replay of every meter (`dealer.audit.verify`): each meter's value as its
    records set it (a table's own by table and name, a linked one by its link), each link's
    terms (`link_terms`: set by the newest sound assignment linking the meter, else by the
    link's first record), and the record whose transaction the meter records being read belong
    to. Only that one record's result is kept, never the log."""

    def __init__(self) -> None:
        self.values: dict[tuple[str, ...], Decimal] = {}
        self.terms: dict[str, LinkTerms] = {}
        self.mover: _Mover | None = None
        self.moved: set[str] = set()

    @staticmethod
    def _key(row: Mapping[str, Any], result: Mapping[str, Any]) -> tuple[str, ...]:
        link = result.get("link")
        if isinstance(link, str):
            return ("link", link)
        return ("table", str(row["table_id"]), str(result.get("meter")))

    def problem(self, row: Mapping[str, Any], result: Mapping[str, Any]) -> str | None:
        """Why the stored `meter` record `row` (its parsed `result`) is a move nothing explains,
        or None (a record of another kind, too). Each meter record moves its meter from the
        value the records before set, and a linked one states the link's terms; a ruling's
        `move` is explained by that ruling (`ruling_problem`, from the seed its documents give)
        and states the link its documents give, with their terms; any other is an adjustment,
        whose supervisor's signature the signature step asks for."""
        if row["kind"] != RecordKind.METER:
            return None
        name, value = result.get("meter"), _number(result.get("value"))
        if not isinstance(name, str) or value is None:
            return "a meter record names no meter or holds no value"
        link = result.get("link")
        where = _where(str(row["table_id"]), name, link)
        said = result.get("previous")
        previous = None if said is None else _number(said)
        held = self.values.get(self._key(row, result))
        if (said is not None and previous is None) or previous != held:
            return (
                f"{where} was moved from {said if previous is None else _shown(previous)}, "
                f"but its value was {_shown(held)}: a meter record is missing or forged"
            )
        terms = self.terms.get(link) if isinstance(link, str) else None
        if terms is not None and _terms_of(result) != (terms.seed, terms.cap):
            stated = LinkTerms(*_terms_of(result), int(row["id"])).said()
            return (
                f"{where} is recorded at the terms {stated}, but the link's are {terms.said()} "
                f"(record {terms.record_id}): a link's terms change only by a supervisor's "
                "assignment"
            )
        if row["action"] != MeterAction.MOVE:
            return None
        mover = self.mover
        if (
            mover is None
            or row["links_to"] != mover.id
            or mover.kind != RecordKind.RULING
            or (mover.maker, mover.table_id) != (row["user_id"], row["table_id"])
        ):
            return (
                f"{where} was moved to {fmt_money(value)} by no ruling (a ruling's move follows "
                "it, by its maker at its table): a move nothing explains"
            )
        if name in self.moved:
            return f"{where} was moved twice by ruling {mover.id}"
        meter = _meter_of(mover.settings, name)
        seed = None if meter is None else _number(meter.get("seed"))
        why = ruling_problem(mover.result, seed, name, previous, value)
        if why is None and meter is not None:
            why = _link_problem(meter, result)
        if why is not None:
            return f"{where} was moved to {fmt_money(value)} by ruling {mover.id}, but {why}"
        return None

    def assigned(self, record_id: int, settings: Mapping[str, Any]) -> None:
        """A sound assignment (record `record_id`, its `settings`): each link its profile names
        has its meter's terms from now on."""
        meters = settings.get("meters")
        for meter in meters.values() if isinstance(meters, Mapping) else ():
            if isinstance(meter, Mapping) and isinstance(meter.get("link"), str):
                self.terms[meter["link"]] = LinkTerms(*_terms_of(meter), record_id)

    def replay(
        self, row: Mapping[str, Any], result: Mapping[str, Any], settings: Mapping[str, Any]
    ) -> None:
        """What the record `row` changes: a meter record sets its meter's value (even one that
        failed: the move after it is checked from there), and the first of a link its terms
        where no assignment set them; any other record is the one the meter moves after it
        belong to, made under `settings` (the settings its documents give)."""
        if row["kind"] != RecordKind.METER:
            self.mover = _Mover(
                int(row["id"]),
                str(row["kind"]),
                str(row["user_id"]),
                str(row["table_id"]),
                result,
                settings,
            )
            self.moved = set()
            return
        link = result.get("link")
        if isinstance(link, str) and link not in self.terms:
            self.terms[link] = LinkTerms(*_terms_of(result), int(row["id"]))
        value = _number(result.get("value"))
        if isinstance(result.get("meter"), str) and value is not None:
            self.values[self._key(row, result)] = value
            self.moved.add(str(result["meter"]))


def _which(link: object) -> str:
    return "the table's own meter" if link is None else f"link {link}"


def _link_problem(meter: Mapping[str, Any], result: Mapping[str, Any]) -> str | None:
    """Why a ruling's move (its `result`) is not of the link, with the terms, that the
    ruling's documents give its meter (`meter`, its settings), or None."""
    link, moved = meter.get("link"), result.get("link")
    if moved != link:
        return f"it moves {_which(moved)}, not {_which(link)} as its documents give"
    if link is not None and _terms_of(result) != _terms_of(meter):
        return (
            f"it states the link's terms as {LinkTerms(*_terms_of(result), 0).said()}, not "
            f"{LinkTerms(*_terms_of(meter), 0).said()} as its documents give them"
        )
    return None


class MoveKind(StrEnum):
    """What a meter record is to a person reading the meter book: the meter's `seed` (its first
    value: the profile's seed the first ruling at the table started from, or the first value a
    supervisor set), a ruling's move (its `contributions` and hits), or a supervisor's
    `adjustment` (a reset or a reseed too)."""

    SEED = "seed"
    RULING = "ruling"
    ADJUSTMENT = "adjustment"


class MeterMove(NamedTuple):
    """A meter record as the meter book reads it (`movement`): its kind, the value before
    (None: never set) and after, the seed it started from (a first value only), what the
    ruling's wagers contributed, what its hits paid from the meter, the seed a 100% pay put
    back (the reseed), what a cap kept from a pay and gave back, what the meter's cap held
    back of the contributions (negative, or 0), and the ruling it follows (a ruling's move
    only). Start + contributions − paid + reseed + returned + capped = value."""

    record: Record
    kind: MoveKind
    previous: Decimal | None
    value: Decimal | None
    seed: Decimal | None
    contributions: Decimal
    paid: Decimal
    reseed: Decimal
    returned: Decimal
    capped: Decimal
    ruling: int | None


def movement(record: Record, ruling: Record | None) -> MeterMove:
    """What meter record `record` did, read with the ruling it follows (`ruling`: the record it
    links to, None for an adjustment or when it is not there). A ruling's first move of a meter
    starts from the seed the ruling ruled from (its `meters.before`: the profile's seed), so
    that part is the seed, not money the dealer added; then come the ruling's contributions,
    what its hits paid (and the value a hit reset the meter to), and what the cap held back
    (the rest: before + contributions + the hits' moves + that = after). A supervisor's first
    value is the seed they set."""
    result = record.result
    name = str(result.get("meter", ""))
    previous, value = _number(result.get("previous")), _number(result.get("value"))
    zero = Decimal(0)
    if record.action != MeterAction.MOVE:
        kind = MoveKind.SEED if previous is None else MoveKind.ADJUSTMENT
        seed = value if previous is None else None
        return MeterMove(record, kind, previous, value, seed, zero, zero, zero, zero, zero, None)
    meters = ruling.result.get("meters") if ruling is not None else None
    meters = meters if isinstance(meters, Mapping) else {}
    seed = _at(meters.get("before"), name) if previous is None else None
    added = _at(meters.get("contributions"), name) or zero
    if previous is None and seed is None:
        seed, added = value, zero
    found = ruling.result.get("progressive_hits") if ruling is not None else None
    hits = (
        [h for h in found if isinstance(h, Mapping) and h.get("meter") == name]
        if isinstance(found, list)
        else []
    )
    paid, reseed, returned = zero, zero, zero
    for hit in hits:
        before, after, pay = _at(hit, "before"), _at(hit, "after"), _at(hit, "paid") or zero
        paid += pay
        reseed += (after or zero) - (before or zero) + pay
        returned += _at(hit, "returned_by_cap") or zero
    start = previous if previous is not None else seed
    moved = added - paid + reseed + returned
    capped = zero if value is None or start is None else value - start - moved
    kind = MoveKind.SEED if previous is None else MoveKind.RULING
    return MeterMove(
        record, kind, previous, value, seed, added, paid, reseed, returned, capped,
        record.links_to,
    )  # fmt: skip


SeedOf = Callable[["Reads", Record, str], "Decimal | None"]
"""The seed of meter `name` as the documents ruling `record` names give it (the table's
profile by its SHA-256, with the ruling's approved changes): the desk's (this layer reads no
profile), None when they give none."""


def check_explained(
    reads: Reads, table_id: str, name: str, link: MeterLink | None, seed_of: SeedOf
) -> None:
    """AuditError (naming the record) unless the newest record of meter `name` at `table_id`
    (or of `link`) is explained, before a ruling moves the meter from its value: a move from
    the value the record before it left, that the ruling just before it made at its table and
    explains (`ruling_problem`, a reset to the seed its documents give, `seed_of`), at the
    link's terms then, or an adjustment by a registered supervisor that carries a signature
    (unless their registration has no key: a PIN from before signing keys). Verify checks the
    signature itself and the whole history; this is the newest record, read under the write
    lock of the ruling that would pay from it."""
    newest = (
        reads.meter_records(table_id, name, 2) if link is None else reads.link_records(link.link, 2)
    )
    if not newest:
        return
    record = newest[0]
    before = newest[1].result.get("value") if len(newest) > 1 else None
    why = _newest_problem(reads, record, before, seed_of)
    if why is None and link is not None:
        terms = link_terms(reads, link.link, before=record.id)
        if terms is not None and _terms_of(record.result) != (terms.seed, terms.cap):
            why = f"it states other terms than the link's, {terms.said()}"
    if why is not None:
        where = _where(table_id, name, None if link is None else link.link)
        raise AuditError(
            f"{where} was last moved by record {record.id}, which nothing explains ({why}): "
            "no ruling pays from it until a supervisor sets the meter (dealer audit meter "
            "adjust) and dealer audit verify is run"
        )


def _newest_problem(reads: Reads, record: Record, before: object, seed_of: SeedOf) -> str | None:
    """Why the newest meter record `record` is not explained (see `check_explained`), given
    the value the meter record before it left (`before`: None if there is none)."""
    name, value = str(record.result.get("meter")), _number(record.result.get("value"))
    previous = record.result.get("previous")
    if value is None or _number(previous) != _number(before):
        return "it does not move the meter from the value the record before it left"
    if record.action != MeterAction.MOVE:
        maker = reads.user(record.user_id)
        if maker is None or maker.role != Role.SUPERVISOR:
            return "an adjustment by no registered supervisor"
        registered = reads.record(maker.record_id)
        keyed = registered is not None and isinstance(registered.result.get("key"), str)
        if keyed and keys.signature_in(record.settings) is None:
            return "an adjustment its supervisor did not sign"
        return None
    ruling = reads.record(record.links_to) if record.links_to is not None else None
    if ruling is None or ruling.kind != RecordKind.RULING or ruling.id >= record.id:
        return "a move that follows no ruling"
    if (ruling.user_id, ruling.table_id) != (record.user_id, record.table_id):
        return "a move by another user or table than its ruling's"
    between = reads.record(record.id - 1)
    while between is None or between.id != ruling.id:
        if between is None or between.kind != RecordKind.METER or between.links_to != ruling.id:
            return f"a move that does not follow its ruling {ruling.id}"
        between = reads.record(between.id - 1)
    seed = seed_of(reads, ruling, name)
    return ruling_problem(ruling.result, seed, name, _number(previous), value)
