"""What each Emperor's Challenge ruling adds to the floor's sums (`dealer.audit.sums`): per hour,
its table's, its dealer's and each of its patrons' numbers, so `dealer stats` reads a month from
a few thousand rows. The same function reads the records where the sums do not reach (a range
cut inside an hour, a log's rulings from before the sums) and recomputes them for `verify`.

This module is the one reference of what a ruling adds: SQLite's transactions, verify, a copy
and the statistics' replay use it, and a PostgreSQL server computes the same in SQL
(`floor_sums_sql`, held to this by tests/test_floor_sums_server.py). A stored value is read
through `shift.stored_money`, `stored_mapping` and `stored_items`: a record holding anything
the tool does not write (a login's own making) is summed, never a cause of failure.

Decisions:
* A ruling adds its numbers as recorded, in the transaction that records it. An override or a
  void does not change the sums: the statistics take each corrected ruling's numbers out and put
  its result in effect back in (`shift.in_effect`) when they read them, so the sums are a
  function of the rulings alone and `verify` can recompute them hour by hour.
* Rounds and game pace are the deal's: a round ruling is a round; single-seat settles at a table
  in a row with the same dealer cards are one. Each round starts a gap from the table's (and the
  dealer's) last round, a hand from the patron's last hand; gaps up to `BREAK_SECONDS` are the
  time dealing (`analysis.stats.Pace`). A voided round was still dealt: it counts in the pace.
  The state a ruling reads (the member's last round and the table's dealer cards) is kept in the
  member's row of the hour, or of the hour before.
* The rows (`Numbers`), by source: the member's own ('': rulings, rounds, seats, wagered, house
  result, gaps; seconds dealing); each base wager by the documents and player mode it is
  expected under (`base`: wagers, amount; the amount's square); each bonus wager by pay table,
  units and amount (`bonus`: wagers, the meters' sum; their squares); Envy's other seats
  (`envy`); at the table, each pay-table row hit (`hit`); a patron's hands against the best
  setting and the House Way's (`play`).
* A dealer's numbers are those of the rulings made under their sign-in (`sign_ins.signed_in`:
  who typed a ruling is on the record only then); every other ruling is summed under the one
  member `UNSIGNED` of the dealers' group, which the statistics report as left out, so a run
  typed in a dealer's name at a table never assigned lands on no one.
"""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Callable, Iterable, Mapping
from datetime import datetime, timedelta
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from dealer.audit.records import Record, RecordFilter, RecordKind
from dealer.audit.sign_ins import signed_in
from dealer.audit.sums import INTS, REALS, SumKey, SumRow, hour_of
from dealer.desk.shift import (
    MONEY_ACTIONS,
    WAGER_TYPES,
    seat_net,
    seat_results,
    stored_items,
    stored_mapping,
    stored_money,
)
from dealer.games.paigow.pay import Wager
from dealer.games.paigow.settle import BaseRules
from dealer.kernel.errors import AuditError
from dealer.kernel.money import CENT
from dealer.kernel.ruling import RulingAction

if TYPE_CHECKING:
    from dealer.audit.storage import Reads, WriteTransaction

TABLE, DEALER, PATRON = "table", "dealer", "patron"
UNSIGNED = ""
"""The dealers' group's member summing the rulings no sign-in vouches for (a user id is never
empty): the statistics by dealer leave it out and count it."""
GROUPS = (TABLE, DEALER, PATRON)
"""Whose numbers: a table's, a dealer's (who ruled), a patron's (by patron id)."""
OWN, BASE, BONUS, ENVY, HIT, PLAY = "", "base", "bonus", "envy", "hit", "play"
"""The sources of a row: the member's own numbers, then each kind of wager's."""
BREAK_SECONDS = 15 * 60
"""Two rounds further apart than this are a break: the gap is not time dealing."""

# The columns of each source (the rest are 0).
RULINGS, ROUNDS, SEATS, WAGERED, HOUSE, GAPS = range(6)
SECONDS = INTS
COUNT, AMOUNT = 0, 1
SQUARES = INTS
METERS = 1
HANDS, OWN_HANDS, BEST_HANDS, PLAY_WAGERED, COST, AGAINST_HOUSE_WAY = range(6)
COSTS_SQUARED, COST_WAGER, WAGERS_SQUARED = INTS, INTS + 1, INTS + 2

Judge = Callable[["Record", Mapping[str, Any], Mapping[str, Any]], tuple[int, int] | None]
"""Judges a hand whose result does not say what the best setting and the House Way's would
have netted: (record, its seat's base, the player's hand) → (best net, House Way net) in cents,
None to leave it out."""
State = Callable[[str, str], SumRow | None]
"""The member's row of its own numbers its next ruling reads (`(grp, member)` → the row of the
hour, else of the hour before; None: nothing within an hour)."""


def counts(record: Record) -> bool:
    """Whether a record adds to the sums: an Emperor's Challenge round or settle ruling (the
    write path asks the same of an entry, `recording`)."""
    return (
        record.kind == RecordKind.RULING
        and record.game == "paigow"
        and record.action in MONEY_ACTIONS
    )


def cents(value: Decimal) -> int:
    """An amount in whole cents."""
    return int(value / CENT)


@functools.lru_cache(maxsize=4096, typed=True)
def source_key(*parts: object) -> str:
    """A source's name: its parts as a JSON list (ids and names cannot break it). Kept by type
    (`typed`): `True` and `1`, equal to the cache, are two names."""
    return json.dumps([str(part) for part in parts], separators=(",", ":"))


def source_parts(source: str) -> list[str]:
    """The parts of a source's name (`source_key`)."""
    parts = json.loads(source)
    return [str(part) for part in parts]


class Numbers:
    """Rows of sums being made: each (group, member, source) with its `INTS` + `REALS` values
    and its last time and mark."""

    def __init__(self) -> None:
        self.rows: dict[tuple[str, str, str], list[int | float]] = {}
        self.marks: dict[tuple[str, str], tuple[str | None, str | None]] = {}

    def add(self, grp: str, member: str, source: str, column: int, value: int | float) -> None:
        """Add `value` to one column of a row (made on first use)."""
        row = self.rows.get((grp, member, source))
        if row is None:
            row = self.rows[grp, member, source] = [0] * INTS + [0.0] * REALS
        row[column] += value

    def add_pairs(
        self, grp: str, member: str, source: str, pairs: Iterable[tuple[int, int | float]]
    ) -> None:
        """Add each (column, value) of `pairs` to a row (made on first use)."""
        row = self.rows.get((grp, member, source))
        if row is None:
            row = self.rows[grp, member, source] = [0] * INTS + [0.0] * REALS
        for column, value in pairs:
            row[column] += value

    def merge(self, other: Numbers, sign: int = 1) -> None:
        """Add (`sign` −1: take out) `other`'s values; each of its marks given replaces this
        one (as the log keeps them: `coalesce`)."""
        for key, values in other.rows.items():
            row = self.rows.get(key)
            if row is None:
                self.rows[key] = [sign * value for value in values]
            elif sign == 1:
                self.rows[key] = [a + b for a, b in zip(row, values, strict=True)]
            else:
                self.rows[key] = [a - b for a, b in zip(row, values, strict=True)]
        for member, (at, mark) in other.marks.items():
            old_at, old_mark = self.marks.get(member, (None, None))
            self.marks[member] = (old_at if at is None else at, old_mark if mark is None else mark)

    def add_values(self, grp: str, member: str, source: str, values: Iterable[int | float]) -> None:
        """Add a row's values (as the log sums them); a row of zeros (a member's state only)
        makes no row."""
        for column, value in enumerate(values):
            if value:
                self.add(grp, member, source, column, value)

    def sum_rows(self, hour: str) -> list[SumRow]:
        """The rows as the log keeps them, in the hour `hour`."""
        made = []
        for grp, member in self.marks:  # a member's state is kept even when nothing adds up
            if (grp, member, OWN) not in self.rows:
                self.rows[grp, member, OWN] = [0] * INTS + [0.0] * REALS
        for (grp, member, source), values in sorted(self.rows.items()):
            last_at, last_mark = self.marks.get((grp, member), (None, None))
            if source != OWN:
                last_at = last_mark = None
            made.append(
                SumRow(SumKey(hour, grp, member, source), tuple(values), last_at, last_mark)
            )
        return made


@functools.lru_cache(maxsize=256)
def _previous_hour(hour: str) -> str:
    moment = datetime.strptime(hour, "%Y-%m-%dT%H") - timedelta(hours=1)
    return moment.strftime("%Y-%m-%dT%H")


@functools.lru_cache(maxsize=256)
def next_hour(hour: str) -> str:
    """The hour after `hour` (`sums.hour_of`'s form)."""
    moment = datetime.strptime(hour, "%Y-%m-%dT%H") + timedelta(hours=1)
    return moment.strftime("%Y-%m-%dT%H")


def _seconds_between(before: str, after: str) -> float:
    start = datetime.fromisoformat(before.replace("Z", "+00:00"))
    return (datetime.fromisoformat(after.replace("Z", "+00:00")) - start).total_seconds()


def deal_numbers(record: Record, result: Mapping[str, Any], state: State) -> Numbers:
    """What a ruling adds of the deal: a round (`module docstring`) and its gap at the table and
    the dealer, each patron's hand and gap. `state` gives each member's last round."""
    numbers = Numbers()
    at, cards = record.recorded_at, _mark(record)
    before = state(TABLE, record.table_id)
    new_round = record.action != RulingAction.SETTLE or before is None or before.last_mark != cards
    members = [(TABLE, record.table_id), (DEALER, dealer_of(record))]
    for grp, member in members:
        previous = before if grp == TABLE else state(grp, member)
        last_at = previous.last_at if previous is not None else None
        if new_round:
            numbers.add(grp, member, OWN, ROUNDS, 1)
            _gap(numbers, grp, member, last_at, at)
            last_at = at
        numbers.marks[grp, member] = (last_at, cards if grp == TABLE else None)
    for patron in _patrons(record, result):
        previous = state(PATRON, patron)
        _gap(numbers, PATRON, patron, previous.last_at if previous is not None else None, at)
        numbers.marks[PATRON, patron] = (at, None)
    return numbers


def _mark(record: Record) -> str:
    """The mark a ruling leaves at its table: its first seven cards (the dealer's), each a
    text."""
    return " ".join(card for card in record.cards[:7] if isinstance(card, str))


def _gap(numbers: Numbers, grp: str, member: str, last_at: str | None, at: str) -> None:
    if last_at is None:
        return
    gap = _seconds_between(last_at, at)
    if 0 <= gap <= BREAK_SECONDS:
        numbers.add(grp, member, OWN, GAPS, 1)
        numbers.add(grp, member, OWN, SECONDS, gap)


def _patrons(record: Record, result: Mapping[str, Any]) -> list[str]:
    """The patrons of a ruling's seats, once each, in seat order."""
    found = []
    for seat in seat_results(record.action, result):
        patron = seat.get("patron")
        if isinstance(patron, str) and patron and patron not in found:
            found.append(patron)
    return found


def money_numbers(record: Record, result: Mapping[str, Any], play: Judge | None = None) -> Numbers:
    """What a ruling's result adds of the money: per seat its wagers, house result, expectations
    and (a patron's) play; at the table the rows its bonus wagers hit. `play` judges a hand
    whose result does not say what the best setting and the House Way's would have netted (a
    ruling recorded before they were; an override's figures): (best net, House Way net) in
    cents, or None to leave it out (`stats`)."""
    numbers = Numbers()
    settings = stored_mapping(record.settings)
    seats = seat_results(record.action, result)
    counted: set[tuple[str, str]] = set()
    for seat in seats:
        members = [(TABLE, record.table_id), (DEALER, dealer_of(record))]
        patron = seat.get("patron")
        if isinstance(patron, str) and patron:
            members.append((PATRON, patron))
        for grp, member in members:
            if (grp, member) not in counted:
                counted.add((grp, member))
                numbers.add(grp, member, OWN, RULINGS, 1)
        _seat(numbers, record, settings, result, seat, len(seats), members, play)
    return numbers


def _seat(
    numbers: Numbers,
    record: Record,
    settings: Mapping[str, Any],
    result: Mapping[str, Any],
    seat: Mapping[str, Any],
    seated: int,
    members: list[tuple[str, str]],
    play: Judge | None,
) -> None:
    base = stored_mapping(seat.get("base"))
    stake = cents(stored_money(base.get("wager")))
    bonuses = [b for b in stored_items(seat.get("bonuses")) if b.get("wager") in WAGER_TYPES]
    wagered = stake + sum(cents(stored_money(b.get("amount"))) for b in bonuses)
    house = -cents(seat_net(seat))
    player = stored_mapping(base.get("player"))
    own = player.get("set_by") == "player"
    rules = BaseRules.of(settings)
    way = (
        str(settings.get("house_way_source", "")),
        str(settings.get("house_way_sha256", "")),
        rules.wheel,
        rules.dealer_pai_gow,
    )
    added = [
        (OWN, ((SEATS, 1), (WAGERED, wagered), (HOUSE, house))),
        (
            source_key(BASE, *way, "best" if own else "house-way"),
            ((COUNT, 1), (AMOUNT, stake), (SQUARES, float(stake) ** 2)),
        ),
        *_bonus_sources(record, settings, result, seat, bonuses, seated),
    ]
    for grp, member in members:
        for source, pairs in added:
            numbers.add_pairs(grp, member, source, pairs)
    for source, hits in _hits(seat, bonuses, settings):
        numbers.add(TABLE, record.table_id, source, COUNT, hits)
    if members[-1][0] == PATRON:
        judged = _judged(player, cents(stored_money(base.get("net"))))
        if judged is None and play is not None:
            judged = play(record, base, player)
        if judged is not None:
            _play(numbers, members[-1][1], source_key(PLAY, *way), own, stake, base, judged)


def _judged(player: Mapping[str, Any], played: int) -> tuple[int, int] | None:
    """The best setting's and the House Way's nets as the result records them (a hand the
    House Way set is the House Way's: its own net); None when it does not say the best's."""
    best, house_way = player.get("best_net"), player.get("house_way_net")
    if best is None:
        return None
    if house_way is None:
        if player.get("set_by") == "player":
            return None
        return cents(stored_money(best)), played
    return cents(stored_money(best)), cents(stored_money(house_way))


def _play(
    numbers: Numbers,
    patron: str,
    source: str,
    own: bool,
    stake: int,
    base: Mapping[str, Any],
    judged: tuple[int, int],
) -> None:
    played = cents(stored_money(base.get("net")))
    best, house_way = judged
    cost = best - played
    numbers.add(PATRON, patron, source, HANDS, 1)
    numbers.add(PATRON, patron, source, OWN_HANDS, int(own))
    numbers.add(PATRON, patron, source, BEST_HANDS, int(played == best))
    numbers.add(PATRON, patron, source, PLAY_WAGERED, stake)
    numbers.add(PATRON, patron, source, COST, cost)
    numbers.add(PATRON, patron, source, AGAINST_HOUSE_WAY, played - house_way)
    numbers.add(PATRON, patron, source, COSTS_SQUARED, float(cost) ** 2)
    numbers.add(PATRON, patron, source, COST_WAGER, float(cost) * stake)
    numbers.add(PATRON, patron, source, WAGERS_SQUARED, float(stake) ** 2)


def _bonus_sources(
    record: Record,
    settings: Mapping[str, Any],
    result: Mapping[str, Any],
    seat: Mapping[str, Any],
    bonuses: Iterable[Mapping[str, Any]],
    seated: int,
) -> list[tuple[str, tuple[tuple[int, int | float], ...]]]:
    """Each bonus wager placed by its pay table, units and amount (the meter it was placed at),
    and Envy's other seats when the seat's Treasure reaches the Envy minimum."""
    digests = stored_mapping(settings.get("paytables_sha256"))
    posted = stored_mapping(settings.get("paytables"))
    before = stored_mapping(stored_mapping(result.get("meters")).get("before"))
    made: list[tuple[str, tuple[tuple[int, int | float], ...]]] = []
    treasure = Decimal(0)
    for bonus in bonuses:
        wager = Wager(str(bonus.get("wager")))
        if not wager.placed:
            continue
        amount = stored_money(bonus.get("amount"))
        treasure += amount if wager == Wager.TREASURE else 0
        table_id = str(bonus.get("paytable") or posted.get(wager.value, ""))
        counted = bonus.get("units")
        units = counted if isinstance(counted, int) else 1
        meter = cents(stored_money(before.get(wager.value))) if wager.progressive else 0
        source = source_key(BONUS, table_id, digests.get(table_id, ""), units, cents(amount))
        made.append((source, ((COUNT, 1), (METERS, meter), (SQUARES, float(meter) ** 2))))
    offered = stored_mapping(settings.get("offered"))
    minimum = stored_money(settings.get("envy_minimum"))
    envy_id = str(posted.get(Wager.ENVY.value, ""))
    envy = offered.get(Wager.ENVY.value) and envy_id and treasure > 0 and minimum <= treasure
    if envy and seated > 1:
        made.append((source_key(ENVY, envy_id, digests.get(envy_id, "")), ((COUNT, seated - 1),)))
    return made


def _hits(
    seat: Mapping[str, Any], bonuses: Iterable[Mapping[str, Any]], settings: Mapping[str, Any]
) -> list[tuple[str, int]]:
    """Each pay-table row a seat's bonus wagers won on."""
    digests = stored_mapping(settings.get("paytables_sha256"))
    posted = stored_mapping(settings.get("paytables"))
    found = []
    for bonus in bonuses:
        wager = Wager(str(bonus.get("wager")))
        row = bonus.get("row_number")
        if wager.placed and isinstance(row, int) and stored_money(bonus.get("net")) > 0:
            table_id = str(bonus.get("paytable") or posted.get(wager.value, ""))
            found.append((source_key(HIT, table_id, digests.get(table_id, ""), row), 1))
    return found


def ruling_numbers(record: Record, state: State) -> Numbers:
    """Everything a ruling adds as recorded: its deal and its money."""
    result = stored_mapping(record.result)
    numbers = deal_numbers(record, result, state)
    numbers.merge(money_numbers(record, result))
    return numbers


def dealer_of(record: Record) -> str:
    """The dealers' group's member a ruling adds to: its maker, when it names the sign-in it was
    made under (verify checks that it stood), else `UNSIGNED`."""
    return record.user_id if signed_in(record.settings) else UNSIGNED


def _members(record: Record) -> list[tuple[str, str]]:
    """Whose numbers a ruling adds to: its table, its dealer (`dealer_of`) and each of its
    patrons."""
    members = [(TABLE, record.table_id), (DEALER, dealer_of(record))]
    return members + [
        (PATRON, patron) for patron in _patrons(record, stored_mapping(record.result))
    ]


def _stored_states(reads: Reads, hour: str, members: list[tuple[str, str]]) -> list[SumRow]:
    """The rows of `members` that hold a state in the log's sums, of `hour` and the hour
    before, read in one query."""
    rows = reads.member_rows((hour, _previous_hour(hour)), members) if members else []
    return [row for row in rows if row.last_at is not None]


def stored_state(reads: Reads, hour: str, record: Record) -> State:
    """The state of the members of `record` as the log's sums hold it (the hour's row, else the
    hour before's)."""
    found: dict[tuple[str, str], dict[str, SumRow]] = {}
    for row in _stored_states(reads, hour, _members(record)):
        found.setdefault((row.key.grp, row.key.member), {})[row.key.hour] = row
    earlier = _previous_hour(hour)

    def state(grp: str, member: str) -> SumRow | None:
        rows = found.get((grp, member), {})
        return rows.get(hour) or rows.get(earlier)

    return state


def add_ruling(tx: WriteTransaction, record_id: int) -> None:
    """Add ruling `record_id`, just appended in `tx`, to the floor's sums (nothing for a ruling
    that does not count). A backend that takes the rows from the tool (SQLite) asks for them:
    made here as appended (`appended_record`), no read under the log's lock but the members'
    state. A PostgreSQL server computes them itself as it appends the record
    (`floor_sums_sql`) and never asks."""

    def rows() -> list[SumRow]:
        record = tx.appended_record(record_id)
        if record is None:
            raise AuditError(f"audit record {record_id} was not appended in this transaction")
        if not counts(record):
            return []
        hour = hour_of(record.recorded_at)
        return ruling_numbers(record, stored_state(tx, hour, record)).sum_rows(hour)

    tx.add_sums(record_id, rows)


class CopiedSums:
    """The floor's sums of the rulings a copy adds to a log (`dealer audit copy`): made as
    `verify` recomputes them (`Replay`), an hour's rows added at once when the hour is done
    (`WriteTransaction.copy_sums`), never a read per ruling. The state a ruling reads is taken
    from the log once per member when the log held records before the copy (a copy onto an
    empty log reads nothing); the first hour's rows are added to what the log holds of it."""

    def __init__(self, tx: WriteTransaction) -> None:
        self._tx = tx
        self._replay = Replay()
        self._ids: list[int] = []
        self._seen: set[tuple[str, str]] | None = set() if tx.head().records else None

    def add(self, row: Mapping[str, Any]) -> None:
        """Add the record just copied, `row` as stored, when it is a ruling that counts."""
        record = Record.from_row(row)
        if not counts(record):
            return
        hour = hour_of(record.recorded_at)
        if self._seen is not None:
            unseen = [member for member in _members(record) if member not in self._seen]
            self._seen.update(unseen)
            for stored in _stored_states(self._tx, hour, unseen):
                self._replay.remember(stored)
        self._write(self._replay.add(record))
        self._ids.append(record.id)

    def finish(self) -> None:
        """Add the last hour's rows (after the last record copied)."""
        self._write(self._replay.finish())

    def _write(self, finished: list[SumRow] | None) -> None:
        if finished is not None:
            self._tx.copy_sums(self._ids, finished)
            self._ids = []


class Replay:
    """The sums recomputed from the records, in order, one hour at a time (for `verify`, and
    for the records the sums do not cover), with the state each ruling reads kept as the sums
    keep it."""

    def __init__(self) -> None:
        self.hour: str | None = None
        self.hours: list[str] = []
        """The hours finished, in order."""
        self.numbers = Numbers()
        self._kept: dict[tuple[str, str], dict[str, tuple[str | None, str | None]]] = {}

    def state(self, grp: str, member: str) -> SumRow | None:
        """The member's row as the log would hold it when the next ruling is added."""
        kept = self._kept.get((grp, member), {})
        if self.hour is None:
            return None
        for when in (self.hour, _previous_hour(self.hour)):
            last_at, last_mark = kept.get(when, (None, None))
            if last_at is not None:
                return SumRow(SumKey(when, grp, member, OWN), (), last_at, last_mark)
        return None

    def start(self, record: Record) -> list[SumRow] | None:
        """Move to the hour of `record`: the rows of the hour just finished, when it starts a
        new one."""
        hour = hour_of(record.recorded_at)
        if hour == self.hour:
            return None
        finished = self.finish()
        self.hour = hour
        return finished

    def remember(self, row: SumRow) -> None:
        """Take a member's state from its row of an hour as a log holds it."""
        kept = self._kept.setdefault((row.key.grp, row.key.member), {})
        kept[row.key.hour] = (row.last_at, row.last_mark)

    def keep(self, numbers: Numbers) -> None:
        """Keep the state `numbers` leave (as the log's rows of the hour would hold it)."""
        assert self.hour is not None
        for member, (at, mark) in numbers.marks.items():
            kept = self._kept.setdefault(member, {})
            old_at, old_mark = kept.get(self.hour, (None, None))
            kept[self.hour] = (old_at if at is None else at, old_mark if mark is None else mark)
            for hour in [h for h in kept if h < _previous_hour(self.hour)]:
                del kept[hour]

    def add(self, record: Record) -> list[SumRow] | None:
        """Add a ruling as recorded; the rows of the hour just finished, when it starts a new
        one."""
        finished = self.start(record)
        numbers = ruling_numbers(record, self.state)
        self.numbers.merge(numbers)
        self.keep(numbers)
        return finished

    def finish(self) -> list[SumRow] | None:
        """The rows of the hour in progress (None before the first ruling); a new hour starts
        empty."""
        if self.hour is None:
            return None
        made = self.numbers.sum_rows(self.hour)
        self.hours.append(self.hour)
        self.numbers = Numbers()
        return made


def problems(storage: Reads) -> list[str]:
    """The first hour whose floor sums differ from what its rulings add (recomputed from the
    records, `Replay`), or sums kept for an hour in which no ruling counts (`verify`)."""
    replay = Replay()
    start = storage.sums_from()
    for row in storage.rows(RecordFilter(kind=RecordKind.RULING, game="paigow")):
        try:
            record = Record.from_row(row)
        except (TypeError, ValueError, KeyError):
            continue  # a damaged record: the chain's check names it
        if record.id < start or not counts(record):
            continue
        finished = replay.add(record)
        if finished is not None:
            problem = _differs(storage, replay.hours[-1], finished)
            if problem:
                return [problem]
    finished = replay.finish()
    if finished is not None:
        problem = _differs(storage, replay.hours[-1], finished)
        if problem:
            return [problem]
    seen = set(replay.hours)
    extra = [hour for hour in storage.sum_hours() if hour not in seen]
    if extra:
        return [
            f"the floor's sums hold figures for {extra[0]}:00 UTC, when no ruling adds to "
            "them: they were changed outside the tool"
        ]
    return []


def _differs(storage: Reads, hour: str, made: list[SumRow]) -> str | None:
    """What is wrong with the stored sums of `hour` (`made`: recomputed)."""
    stored = storage.sum_rows(hour)
    mine = {row.key: row for row in made}
    theirs = {row.key: row for row in stored}
    for key in sorted(set(mine) | set(theirs)):
        a, b = mine.get(key), theirs.get(key)
        if a is None or b is None or not _same(a, b):
            who = f"{key.grp} {key.member}"
            return (
                f"the floor's sums of {who} for {hour}:00 UTC differ from what its rulings add: "
                "they were changed outside the tool (dealer stats reads them)"
            )
    return None


def _same(a: SumRow, b: SumRow) -> bool:
    """Two rows of sums alike: whole numbers exactly, real ones but for rounding."""
    if (a.last_at, a.last_mark) != (b.last_at, b.last_mark):
        return False
    whole = all(int(x) == int(y) for x, y in zip(a.values[:INTS], b.values[:INTS], strict=True))
    return whole and all(
        math.isclose(float(x), float(y), rel_tol=1e-9, abs_tol=1e-6)
        for x, y in zip(a.values[INTS:], b.values[INTS:], strict=True)
    )
