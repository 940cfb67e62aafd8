"""The browser's statistics pages: a table's, dealer's or patron's `dealer stats` row, its house
result over time against the expected line and its band, its game pace by hour of the day, and
the tables, dealers and patrons it played with. Read-only.

Decisions:
* One computation: the row is `stats.statistics()` over the range, and the series is the same
  function over consecutive buckets (a day; an hour when the range is at most a day), each
  bucket's row giving its house result and the expectation it was figured from
  (`Row.expectation`). They are cumulated: results add, and so do the expectations' sums
  (`Expectation.merge`: the hands' variances add, a simulated source's error grows with the
  amount wagered under it), so the last point is the range's own row — for a patron, as long as
  the source of their theo is the same in every bucket as over the range (it is chosen per row:
  `stats.Group.theo`). Only the buckets in which the group has a ruling are computed; the line
  stays flat across the others.
* Pace by hour of the day (UTC): the group's rounds (a patron's hands), counted by the floor's
  sums' own functions (`floor_sums.deal_numbers`, `money_numbers`: a ruling in effect; settles
  in a row at a table with the same dealer cards one round), over the group's rulings of the
  range read one at a time (`Storage.rows`); each hour's rounds per day that hour saw play. The
  money is never read here: it comes from `statistics()`.
"""

from __future__ import annotations

from collections import Counter
from datetime import date, datetime, timedelta
from decimal import Decimal

from dealer.analysis.stats import Expectation, z_critical
from dealer.audit.records import Record, RecordFilter, RecordKind
from dealer.desk import floor_sums
from dealer.desk.context import LogLocation, open_desk_log
from dealer.desk.shift import every_correction, in_effect
from dealer.desk.stats import (
    GROUPS,
    MEMBERS,
    STATS_ROUNDS,
    STATS_SEED,
    Row,
    Statistics,
    statistics,
)
from dealer.inputs import format_time
from dealer.kernel.errors import DealerError
from dealer.kernel.tuples import NamedTuple

HOUR = timedelta(hours=1)
DAY = timedelta(days=1)
NAMES = {"tables": "table", "dealers": "dealer", "patrons": "patron"}
NAMES_OF = {member: name for name, member in MEMBERS.items()}


class Point(NamedTuple):
    """The cumulative figures at the end of a bucket: the rulings so far, the house result, the
    expected house result and the standard error of their difference."""

    end: datetime
    rulings: int
    house_result: Decimal
    expected: Decimal
    standard_error: float


class HourPace(NamedTuple):
    """An hour of the day (UTC): the rounds dealt in it (a patron's hands) and the days it saw
    play."""

    hour: int
    rounds: int
    days: int

    @property
    def per_hour(self) -> float:
        """Rounds per hour in this hour, on the days it saw play."""
        return self.rounds / self.days if self.days else 0.0


class GroupPage(NamedTuple):
    """A group's page: the statistics of the range (its row among them), the bucket step
    (`hour` or `day`), the series from `start` to `stop` (start at zero), the pace by hour and
    the other groups it played with (by group name: key and rulings together)."""

    group: str
    key: str
    statistics: Statistics
    row: Row
    critical: float
    step: str
    start: datetime
    stop: datetime
    series: list[Point]
    pace: list[HourPace]
    related: dict[str, list[tuple[str, int]]]


class Activity(NamedTuple):
    """What the pass over a group's rulings found: the buckets with a ruling, the pace by hour,
    the others it played with."""

    buckets: list[datetime]
    pace: list[HourPace]
    related: dict[str, list[tuple[str, int]]]


def _moment(stamp: str) -> datetime:
    return datetime.fromisoformat(stamp.replace("Z", "+00:00"))


def _floor(moment: datetime, step: timedelta) -> datetime:
    hour = moment.replace(minute=0, second=0, microsecond=0)
    return hour if step == HOUR else hour.replace(hour=0)


def _activity(
    db: LogLocation | None,
    group: str,
    key: str,
    since: str | None,
    until: str | None,
    step: timedelta,
) -> Activity:
    """One pass over the group's rulings in the range (module docstring)."""
    flt = RecordFilter(
        kind=RecordKind.RULING,
        game="paigow",
        since=since,
        until=until,
        table_id=key if group == "tables" else None,
        user_id=key if group == "dealers" else None,
        patron=key if group == "patrons" else None,
    )
    rounds: Counter[int] = Counter()
    days: dict[int, set[date]] = {}
    related: dict[str, Counter[str]] = {name: Counter() for name in GROUPS if name != group}
    buckets: set[datetime] = set()
    member = (MEMBERS[group], key, floor_sums.OWN)
    replay = floor_sums.Replay()
    with open_desk_log(db, existing=True, read_only=True) as log, log.snapshot():
        state = in_effect(every_correction(log))
        for stored in log.rows(flt):
            record = Record.from_row(stored)
            if not floor_sums.counts(record):
                continue
            replay.start(record)
            deal = floor_sums.deal_numbers(record, record.result, replay.state)
            replay.keep(deal)
            result = state.result(record)
            if result is None:
                continue
            money = floor_sums.money_numbers(record, result)
            counted = (
                money.rows.get(member, [0] * floor_sums.INTS)[floor_sums.SEATS]
                if group == "patrons"
                else deal.rows.get(member, [0] * floor_sums.INTS)[floor_sums.ROUNDS]
            )
            moment = _moment(record.recorded_at)
            if counted:
                rounds[moment.hour] += int(counted)
                days.setdefault(moment.hour, set()).add(moment.date())
            buckets.add(_floor(moment, step))
            for grp, other, source in money.rows:
                name = NAMES_OF[grp]
                if source == floor_sums.OWN and name in related:
                    related[name][other] += 1
    pace = [HourPace(hour, rounds[hour], len(days.get(hour, ()))) for hour in range(24)]
    return Activity(
        sorted(buckets),
        pace,
        {name: sorted(counter.items()) for name, counter in related.items()},
    )


def _row(result: Statistics, group: str, key: str) -> Row | None:
    return next((row for row in result.groups[group] if row.key == key), None)


def group_page(
    db: LogLocation | None,
    group: str,
    key: str,
    *,
    since: str | None = None,
    until: str | None = None,
    confidence: float = 0.95,
    rounds: int = STATS_ROUNDS,
    seed: int = STATS_SEED,
) -> GroupPage:
    """The page of `key` among `group` (`tables`, `dealers`, `patrons`) over [`since`, `until`)
    (stored UTC forms, None: open), at `confidence`; DealerError when it has no row there."""
    whole = statistics(
        db, since=since, until=until, confidence=confidence, rounds=rounds, seed=seed, group=group
    )
    row = _row(whole, group, key)
    if row is None:
        span = f"from {since or 'the first record'} to {until or 'now'}"
        raise DealerError(f"there is no {NAMES[group]} {key} in the statistics {span}")
    short = since is not None and until is not None and _moment(until) - _moment(since) <= DAY
    step = HOUR if short else DAY
    found = _activity(db, group, key, since, until, step)
    start = _moment(since) if since else found.buckets[0]
    stop = _moment(until) if until else found.buckets[-1] + step
    series = [Point(start, 0, Decimal(0), Decimal(0), 0.0)]
    summed, result, rulings = Expectation(), Decimal(0), 0
    for bucket in found.buckets:
        low, high = max(bucket, start), min(bucket + step, stop)
        part = statistics(
            db,
            since=format_time(low),
            until=format_time(high),
            confidence=confidence,
            rounds=rounds,
            seed=seed,
            group=group,
        )
        counted = _row(part, group, key)
        if counted is None:
            continue
        summed.merge(counted.expectation)
        result += Decimal(str(counted.figures["house_result"]))
        rulings += counted.figures["rulings"]
        series.append(Point(high, rulings, result, summed.expected, summed.standard_error))
    return GroupPage(
        group,
        key,
        whole,
        row,
        z_critical(confidence),
        "hour" if short else "day",
        start,
        stop,
        series,
        found.pace,
        found.related,
    )
