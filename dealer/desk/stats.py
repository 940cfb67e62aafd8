"""The floor's statistics from the audit log: win against expectation per table, dealer and
patron, each patron's demonstrated play, and the flags (`dealer stats`). Read-only.

Decisions (the figures are defined in `dealer.analysis.stats` and docs/statistics.md):
* Counted: Emperor's Challenge rounds and single-seat settles recorded in the range, with the
  result in effect as the shift summary reads it (`shift.in_effect`: voids left out, an
  override's replacement figures applied). Rulings of every game count for the dealers'
  correction rates.
* Read from the floor's sums (`desk.floor_sums`): the whole hours of the range from the log's
  sums, each ruling an override or void corrected taken out as recorded and put back as in
  effect; the hours the range cuts, and the rulings a log holds from before it kept sums, from
  the records by the same function. A figure is a sum either way, so the two add up.
* The expected figures come from the documents each ruling names by SHA-256 (`stats_sources`).
  Tables and dealers: a base wager set by the House Way is expected at the House Way's edge,
  one a player set at the best reply's (the least the house can expect from that hand).
  Patrons: their `theo` is the demonstrated edge once they set `MIN_OWN_HANDS` hands
  themselves; else the best reply's edge when they set most of their hands, the House Way's
  otherwise (`theo_source`).
* The rulings behind a flag are read from the records of the flagged table, dealer or patron
  only (flags are few).
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from dealer.analysis.paytable_return import PaytableReturn, analyze_paytable
from dealer.analysis.stats import (
    MIN_OWN_HANDS,
    Expectation,
    Pace,
    PlaySums,
    PlayTally,
    binomial_upper_tail,
    z_critical,
    z_score,
)
from dealer.audit.disputes import disputes
from dealer.audit.records import Record, RecordFilter, RecordKind
from dealer.audit.sign_ins import signed_in
from dealer.desk import floor_sums
from dealer.desk.context import LogLocation, open_desk_log
from dealer.desk.floor_sums import (
    AMOUNT,
    BASE,
    BONUS,
    COUNT,
    DEALER,
    ENVY,
    HIT,
    METERS,
    OWN,
    PATRON,
    PLAY,
    SQUARES,
    TABLE,
    UNSIGNED,
    Numbers,
    Replay,
    source_key,
    source_parts,
)
from dealer.desk.shift import InEffect, every_correction, in_effect, stored_money
from dealer.desk.stats_sources import STATS_ROUNDS, STATS_SEED, Sources
from dealer.games.paigow.best_reply import reply_nets
from dealer.games.paigow.deck import parse_cards
from dealer.games.paigow.house_way import set_hand
from dealer.games.paigow.paytables import PayTable
from dealer.games.paigow.settle import BaseRules
from dealer.kernel.digest import sha256_hex
from dealer.kernel.errors import DealerError
from dealer.kernel.money import CENT, money_json

if TYPE_CHECKING:
    from dealer.audit.storage import Storage

__all__ = ["GROUPS", "STATS_ROUNDS", "STATS_SEED", "Statistics", "statistics"]

GROUPS = {"tables": "table", "dealers": "user", "patrons": "patron"}
"""Each group of `dealer stats` and the key naming its rows."""
KINDS = {"tables": "table", "dealers": "dealer", "patrons": "patron"}
"""The `kind` of a group's flag."""
MEMBERS = {"tables": TABLE, "dealers": DEALER, "patrons": PATRON}
"""Each group's members in the floor's sums."""
BEHIND = 10
"""The rulings a flag names: those that moved its figure most in its direction."""
EVENT_RULINGS = 20
"""The hits of an event a flag names (the first)."""
HUNDREDTH = Decimal("0.0001")
"""A cent squared, in currency squared."""

ZERO = Decimal(0)


def _cents(value: Decimal) -> int | float:
    return money_json(value.quantize(CENT))


def _rounded(value: float | None, places: int = 4) -> float | None:
    return None if value is None else round(value, places)


def _money(cents: int | float) -> Decimal:
    return Decimal(int(cents)) * CENT


@dataclass
class Group:
    """The sums of one table, dealer or patron."""

    rulings: int = 0
    rounds: int = 0
    hands: int = 0
    wagered: Decimal = ZERO
    house_result: Decimal = ZERO
    base: Expectation = field(default_factory=Expectation)
    """Base wagers at the edge of whoever set the hand."""
    bonus: Expectation = field(default_factory=Expectation)
    pace: Pace = field(default_factory=Pace)
    # patrons only
    base_house_way: Expectation = field(default_factory=Expectation)
    base_best: Expectation = field(default_factory=Expectation)
    play: PlayTally = field(default_factory=PlayTally)

    def theo(self) -> tuple[Expectation, str]:
        """A patron's expected house result and its source (module docstring)."""
        chosen = Expectation()
        chosen.merge(self.bonus)
        if self.play.own_hands >= MIN_OWN_HANDS:
            chosen.merge(self.base_best)
            chosen.add(self.play.cost, 0.0, "demonstrated-play", ZERO, 0.0)
            return chosen, "demonstrated"
        if self.play.own_hands * 2 > self.play.hands:
            chosen.merge(self.base_best)
            return chosen, "best-reply"
        chosen.merge(self.base_house_way)
        return chosen, "house-way"


@dataclass(frozen=True)
class Row:
    """One row of `dealer stats`: its key and figures, JSON-ready."""

    key: str
    figures: dict[str, Any]
    flag: bool
    z: float | None
    expectation: Expectation = field(default_factory=Expectation)
    """What the expected figure and its standard error were summed from (read-only)."""

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return self.figures


@dataclass
class EventCount:
    """A bonus pay table at one table: wagers placed on it, and hits by row."""

    table: PayTable
    source: str
    trials: int = 0
    hits: dict[int, int] = field(default_factory=dict)


@dataclass
class Floor:
    """The groups' sums and the events, as read."""

    groups: dict[str, dict[str, Group]] = field(
        default_factory=lambda: {name: {} for name in GROUPS}
    )
    events: dict[tuple[str, str, str], EventCount] = field(default_factory=dict)

    def group(self, name: str, key: str) -> Group:
        """The group `key` of `name`, made on first use."""
        found = self.groups[name].get(key)
        if found is None:
            found = self.groups[name][key] = Group()
        return found


_NAMES = {member: name for name, member in MEMBERS.items()}


def floor_of(numbers: Numbers, sources: Sources) -> Floor:
    """The groups' figures from the floor's sums (`desk.floor_sums`), each expected figure from
    its source (`stats_sources.Sources`)."""
    floor = Floor()
    for (grp, member, source), values in sorted(numbers.rows.items()):
        group = floor.group(_NAMES[grp], member)
        if source == OWN:
            _own(group, values)
            continue
        kind, *key = source_parts(source)
        if kind == BASE:
            _base(group, grp == PATRON, key, values, sources)
        elif kind == BONUS:
            table = sources.table(key[0], key[1])
            amount, units, wagers = _money(int(key[3])), int(key[2]), int(values[COUNT])
            meters, squares = _money(values[METERS]), Decimal(repr(values[SQUARES])) * HUNDREDTH
            expected, variance = sources.figures(table, amount, units, wagers, meters, squares)
            group.bonus.add(expected, variance, sources.name(table), amount * wagers, 0.0)
            if grp == TABLE:
                _event(floor, member, table, sources.name(table)).trials += wagers
        elif kind == ENVY:
            table = sources.table(key[0], key[1])
            expected, variance = sources.figures(table, ZERO, 1, int(values[COUNT]))
            group.bonus.add(expected, variance, sources.name(table), ZERO, 0.0)
        elif kind == HIT:
            table = sources.table(key[0], key[1])
            event = _event(floor, member, table, sources.name(table))
            event.hits[int(key[2])] = event.hits.get(int(key[2]), 0) + int(values[COUNT])
        elif kind == PLAY:
            best = sources.base(_settings(key))["best"][0]
            group.play.add(_play_sums(values), best)
    return floor


def _own(group: Group, values: Sequence[int | float]) -> None:
    rulings, rounds, seats, wagered, house, gaps = (int(v) for v in values[:6])
    group.rulings, group.rounds, group.hands = rulings, rounds, seats
    group.wagered, group.house_result = _money(wagered), _money(house)
    group.pace = Pace(gaps, float(values[floor_sums.SECONDS]))


def _settings(key: Sequence[str]) -> dict[str, str]:
    """The settings a base or play source names (House Way source and SHA-256, wheel, option)."""
    return {
        "house_way_source": key[0],
        "house_way_sha256": key[1],
        "wheel": key[2],
        "dealer_pai_gow": key[3],
    }


def _base(
    group: Group, patron: bool, key: Sequence[str], values: Sequence[int | float], sources: Sources
) -> None:
    figures = sources.base(_settings(key))
    stake, squares = _money(values[AMOUNT]), float(values[SQUARES]) / 10_000
    chosen = [(group.base, key[4])]
    if patron:
        chosen += [(group.base_house_way, "house-way"), (group.base_best, "best")]
    for into, mode in chosen:
        unit, name = figures[mode]
        into.add(stake * unit.edge, squares * unit.variance, name, stake, unit.edge_error)


def _play_sums(values: Sequence[int | float]) -> PlaySums:
    f = floor_sums
    return PlaySums(
        hands=int(values[f.HANDS]),
        own_hands=int(values[f.OWN_HANDS]),
        best_hands=int(values[f.BEST_HANDS]),
        wagered=_money(values[f.PLAY_WAGERED]),
        cost=_money(values[f.COST]),
        against_house_way=_money(values[f.AGAINST_HOUSE_WAY]),
        costs_squared=float(values[f.COSTS_SQUARED]) / 10_000,
        cost_wager=float(values[f.COST_WAGER]) / 10_000,
        wagers_squared=float(values[f.WAGERS_SQUARED]) / 10_000,
    )


def _event(floor: Floor, table_id: str, table: PayTable, name: str) -> EventCount:
    key = (table_id, table.id, table.sha256)
    found = floor.events.get(key)
    if found is None:
        found = floor.events[key] = EventCount(table, name)
    return found


class Judge:
    """A patron's hand whose result does not say what the best setting and the House Way's
    would have netted (a ruling recorded before it did, an override's figures), judged from its
    cards against the exposed dealer hand as the settle judges it (`best_reply.reply_nets`); a
    hand whose cards the
    result does not give is left out of their play."""

    def __init__(self, sources: Sources) -> None:
        self.sources = sources

    def __call__(
        self, record: Record, base: Mapping[str, Any], player: Mapping[str, Any]
    ) -> tuple[int, int] | None:
        settings = record.settings
        try:
            cards = [*player["high"]["cards"], *player["low"]["cards"]]
            hand = parse_cards(" ".join(cards), counts=(7,))
            dealer = parse_cards(" ".join(record.cards[:7]), counts=(7,))
        except (KeyError, TypeError, DealerError):
            return None
        rules = BaseRules.of(settings)
        way = self.sources.way(settings)
        stake = stored_money(base.get("wager"))
        nets = reply_nets(
            dealer, set_hand(dealer, way), hand, stake, way, rules.wheel, rules.dealer_pai_gow
        )
        return floor_sums.cents(nets.best), floor_sums.cents(nets.house_way)


class Read:
    """What the statistics read: the floor's sums of the range, and the money rulings voided in
    it."""

    def __init__(self) -> None:
        self.numbers = Numbers()
        self.voided = 0

    def records(
        self, records: Iterable[Record], state: InEffect, judge: floor_sums.Judge | None
    ) -> None:
        """Add rulings from their records: the deal as recorded, the money in effect."""
        replay = Replay()
        for record in records:
            if not floor_sums.counts(record):
                continue
            replay.start(record)
            deal = floor_sums.deal_numbers(record, record.result, replay.state)
            replay.keep(deal)
            self.numbers.merge(deal)
            result = state.result(record)
            if result is None:
                self.voided += 1
            else:
                self.numbers.merge(floor_sums.money_numbers(record, result, judge))


def _hour_start(hour: str) -> str:
    return f"{hour}:00:00.000000Z"


def _whole_hours(since: str | None, until: str | None) -> tuple[str | None, str | None]:
    """The whole hours of [`since`, `until`): the first (None: from the first) and the one
    after the last (None: to the last)."""
    first = None
    if since is not None:
        first = since[:13] if since == _hour_start(since[:13]) else floor_sums.next_hour(since[:13])
    return first, (None if until is None else until[:13])


def gather(
    log: Storage,
    since: str | None,
    until: str | None,
    state: InEffect,
    judge: floor_sums.Judge,
    members: Sequence[str],
) -> Read:
    """The floor's sums of `members` (`floor_sums` groups) over [`since`, `until`) (module
    docstring)."""
    read = Read()
    first, after = _whole_hours(since, until)
    start = log.sums_from()
    parts: list[tuple[str | None, str | None, int | None]]
    if first is not None and after is not None and first >= after:
        parts = [(since, until, None)]
    else:
        for grp in members:
            for total in log.sum_totals(grp, first, after):
                read.numbers.add_values(grp, total.member, total.source, total.values)
        _corrections(log, read, first, after, start, state, judge)
        low = None if first is None else _hour_start(first)
        high = None if after is None else _hour_start(after)
        parts = [(low, high, start)] if start > 1 else []
        if since is not None and low is not None and since < low:
            parts.append((since, low, None))
        if until is not None and high is not None and high < until:
            parts.append((high, until, None))
    for low_part, high_part, below in parts:
        flt = RecordFilter(
            kind=RecordKind.RULING, game="paigow", since=low_part, until=high_part, before_id=below
        )
        read.records((Record.from_row(row) for row in log.rows(flt)), state, judge)
    wanted = set(members)
    read.numbers.rows = {k: v for k, v in read.numbers.rows.items() if k[0] in wanted}
    return read


def _corrections(
    log: Storage,
    read: Read,
    first: str | None,
    after: str | None,
    start: int,
    state: InEffect,
    judge: floor_sums.Judge,
) -> None:
    """Each ruling in the sums' whole hours an override replaced or a void voided: its numbers
    as recorded taken out, its result in effect put back."""
    ids = sorted(i for i in {*state.voided, *state.replaced} if i is not None and i >= start)
    for chunk in range(0, len(ids), 500):
        for record in log.records(RecordFilter(ids=tuple(ids[chunk : chunk + 500]))):
            hour = record.recorded_at[:13]
            inside = (first is None or first <= hour) and (after is None or hour < after)
            if not inside or not floor_sums.counts(record):
                continue
            read.numbers.merge(floor_sums.money_numbers(record, record.result), -1)
            result = state.result(record)
            if result is None:
                read.voided += 1
            else:
                read.numbers.merge(floor_sums.money_numbers(record, result, judge))


@dataclass(frozen=True)
class Statistics:
    """`dealer stats`: the rows of each group asked for, the flags, and where every expected
    figure came from."""

    since: str | None
    until: str | None
    confidence: float
    groups: dict[str, tuple[Row, ...]]
    flags: tuple[dict[str, Any], ...]
    sources: tuple[dict[str, Any], ...]
    voided: int
    left_out: int = 0
    """Rulings in the range made under no sign-in (`floor_sums.UNSIGNED`): left out of every
    dealer's figures, whose rulings are only those a sign-in puts on the record as theirs."""

    def to_dict(self, group: str | None) -> dict[str, Any]:
        """JSON form: `{GROUP: [rows]}` (or `{"flags": [...]}` with `group` None), with the
        range, the confidence and the sources."""
        body: dict[str, Any] = (
            {"flags": list(self.flags)}
            if group is None
            else {group: [row.to_dict() for row in self.groups[group]]}
        )
        left_out = {"left_out": self.left_out} if group in (None, "dealers") else {}
        return body | {
            "since": self.since,
            "until": self.until,
            "confidence": self.confidence,
            "voided": self.voided,
            **left_out,
            "sources": list(self.sources),
        }


def _row(group: str, key: str, sums: Group, critical: float) -> Row:
    """A group's figures as its row."""
    expectation, source = sums.theo() if group == "patrons" else (_both(sums), "")
    se = expectation.standard_error
    z = z_score(sums.house_result, expectation.expected, se)
    flag = z is not None and abs(z) > critical
    figures: dict[str, Any] = {
        GROUPS[group]: key,
        "rulings": sums.rulings,
        "wagered": _cents(sums.wagered),
        "house_result": _cents(sums.house_result),
        "expected_house_result": _cents(expectation.expected),
        "standard_error": _cents(Decimal(repr(se))),
        "z": _rounded(z),
        "flag": flag,
        "interval": [
            _cents(expectation.expected - Decimal(repr(critical * se))),
            _cents(expectation.expected + Decimal(repr(critical * se))),
        ],
        "expected_by_source": {
            name: _cents(value) for name, value in sorted(expectation.by_source.items())
        },
    }
    if group == "patrons":
        figures |= _patron_figures(sums, expectation, source, critical)
    else:
        figures |= {
            "rounds": sums.rounds,
            "seats": sums.hands,
            "rounds_per_hour": _rounded(sums.pace.per_hour, 1),
            "dealing_hours": _rounded(sums.pace.hours, 2),
        }
    return Row(key, figures, flag, z, expectation)


def _both(sums: Group) -> Expectation:
    both = Expectation()
    both.merge(sums.base)
    both.merge(sums.bonus)
    return both


def _patron_figures(sums: Group, theo: Expectation, source: str, critical: float) -> dict[str, Any]:
    play = sums.play
    edge = play.demonstrated_edge
    error = play.demonstrated_error()
    interval = (
        None
        if edge is None or error is None
        else [round(float(edge) - critical * error, 6), round(float(edge) + critical * error, 6)]
    )
    return {
        "theo": _cents(theo.expected),
        "theo_source": source,
        "average_bet": _cents(sums.wagered / sums.hands) if sums.hands else None,
        "hands": sums.hands,
        "hands_per_hour": _rounded(sums.pace.per_hour, 1),
        "own_hands": play.own_hands,
        "played_hands": play.hands,
        "best_share": _rounded(play.best_share),
        "play_cost": _cents(play.cost),
        "against_house_way": _cents(play.against_house_way),
        "demonstrated_edge": None if edge is None else round(float(edge), 6),
        "demonstrated_edge_interval": interval,
    }


def approved_texts(log: Storage) -> dict[str, str]:
    """The House Ways and pay tables supervisors approved on the chain, by SHA-256 of their
    text (the ruling's own name for them)."""
    texts = {}
    for kind in (RecordKind.HOUSE_WAY_CHANGE, RecordKind.PAYTABLE_CHANGE):
        for record in log.records(RecordFilter(kind=kind)):
            texts[sha256_hex(record.input_text)] = record.input_text
    return texts


def _corrected(log: Storage) -> tuple[list[Record], dict[int, str]]:
    """The overrides and voids (at any time), and each ruling overridden, voided or disputed,
    with what happened to it."""
    corrections = every_correction(log)
    marked: dict[int, str] = {}
    for c in corrections:
        if c.links_to is not None:
            marked.setdefault(c.links_to, c.kind)
    for dispute in disputes(log):
        for ruling in dispute.rulings:
            marked.setdefault(ruling, RecordKind.DISPUTE)
    return corrections, marked


def _event_flags(
    floor: Floor, alpha: float, counts: Mapping[str, int] | None
) -> list[dict[str, Any]]:
    """Each pay-table row hit at a table more often than its exact probability allows (one-sided
    binomial test at `alpha`; the exact counts of every hand `counts`, None: counted)."""
    found: list[dict[str, Any]] = []
    analyses: dict[str, PaytableReturn] = {}
    for (table_id, _, _), count in sorted(floor.events.items()):
        if not count.hits:
            continue
        sha = count.table.sha256
        if sha not in analyses:  # one pay table, many tables
            analyses[sha] = analyze_paytable(count.table, Decimal(1), Decimal(1), counts, units=1)
        analysis = analyses[sha]
        for row, hits in sorted(count.hits.items()):
            line = next((x for x in analysis.lines if x.row and x.row.number == row), None)
            if line is None:
                continue
            probability = line.combinations / analysis.hands
            if alpha < 0.5 and hits <= count.trials * probability:
                continue  # at most the mean: the tail is at least a half (the median's)
            tail = binomial_upper_tail(hits, count.trials, probability)
            if tail < alpha:
                found.append(
                    {
                        "kind": "event",
                        "table": table_id,
                        "paytable": count.table.id,
                        "event": line.row.event if line.row else None,
                        "wager": count.table.wager,
                        "figures": {
                            "wagers": count.trials,
                            "hits": hits,
                            "expected_hits": round(count.trials * probability, 4),
                            "probability": probability,
                            "p_value": tail,
                            "source": count.source,
                        },
                        "rulings": [],
                        "paytable_sha256": count.table.sha256,
                        "row": row,
                    }
                )
    return found


def _correction_flags(
    log: Storage, made: Statistics, corrected: Mapping[int, str], alpha: float
) -> list[dict[str, Any]]:
    """Each dealer whose rulings (of every game, in the range, made under their sign-in: a
    dealer's figures are those) were overridden, voided or disputed more often than the floor's
    rate allows (one-sided binomial test at `alpha`; two dealers at least)."""
    rulings_by = log.count_by_user(
        RecordFilter(kind=RecordKind.RULING, since=made.since, until=made.until), signed_in=True
    )
    corrected_by: dict[str, list[int]] = {}
    ids = sorted(corrected)
    for chunk in range(0, len(ids), 500):
        flt = RecordFilter(
            ids=tuple(ids[chunk : chunk + 500]),
            kind=RecordKind.RULING,
            since=made.since,
            until=made.until,
        )
        for record in log.records(flt):
            if signed_in(record.settings):
                corrected_by.setdefault(record.user_id, []).append(record.id)
    total = sum(rulings_by.values())
    marked = sum(len(v) for v in corrected_by.values())
    if len(rulings_by) < 2 or not total:
        return []
    rate = marked / total
    found = []
    for user, rulings in sorted(rulings_by.items()):
        ruled = corrected_by.get(user, [])
        tail = binomial_upper_tail(len(ruled), rulings, rate)
        if ruled and tail < alpha:
            found.append(
                {
                    "kind": "corrections",
                    "user": user,
                    "figures": {
                        "rulings": rulings,
                        "corrected": len(ruled),
                        "rate": round(len(ruled) / rulings, 6),
                        "floor_rate": round(rate, 6),
                        "p_value": tail,
                    },
                    "rulings": ruled[:EVENT_RULINGS],
                }
            )
    return found


def statistics(
    db: LogLocation | None,
    *,
    since: str | None = None,
    until: str | None = None,
    confidence: float = 0.95,
    rounds: int = STATS_ROUNDS,
    seed: int = STATS_SEED,
    group: str | None = None,
) -> Statistics:
    """The statistics of the log at `db` over [`since`, `until`) (stored UTC forms, None: open),
    with intervals at `confidence`; the base wager's edge simulated over `rounds` rounds from
    `seed` (module docstring). `group` (`tables`, `dealers`, `patrons`) reads that group only;
    None reads every group and the flags."""
    z_critical(confidence)  # a confidence outside (0, 1) is refused before the log is read
    names = list(GROUPS) if group is None else [group]
    with open_desk_log(db, read_only=True) as log, log.snapshot():
        corrections, corrected = _corrected(log)
        state = in_effect(corrections)
        sources = Sources(approved_texts(log), rounds, seed)
        read = gather(log, since, until, state, Judge(sources), [MEMBERS[n] for n in names])
        floor = floor_of(read.numbers, sources)
        made = summed(floor, since, until, confidence, read.voided, sources.counts())
        made = replace(made, groups={name: made.groups[name] for name in names})
        if group is None:
            made = _with_flags(made, log, state, corrected)
    return replace(made, sources=tuple(v for _, v in sorted(sources.described.items())))


def summed(
    floor: Floor,
    since: str | None,
    until: str | None,
    confidence: float,
    voided: int,
    counts: Mapping[str, int] | None = None,
) -> Statistics:
    """The statistics of the groups' sums (pure: the sums become rows; flags of the rows and of
    the events, by the exact counts of every hand `counts`, None: counted)."""
    critical = z_critical(confidence)
    unsigned = floor.groups.get("dealers", {}).get(UNSIGNED)
    groups = {
        name: tuple(
            _row(name, key, sums, critical)
            for key, sums in sorted(members.items())
            if (name, key) != ("dealers", UNSIGNED)
        )
        for name, members in floor.groups.items()
    }
    flags: list[dict[str, Any]] = [
        {
            "kind": KINDS[name],
            GROUPS[name]: row.key,
            "figures": {
                k: row.figures[k]
                for k in ("house_result", "expected_house_result", "standard_error", "z")
            },
            "rulings": [],
        }
        for name, rows in groups.items()
        for row in rows
        if row.flag
    ]
    flags += _event_flags(floor, 1 - confidence, counts)
    left_out = unsigned.rulings if unsigned is not None else 0
    return Statistics(since, until, confidence, groups, tuple(flags), (), voided, left_out)


def _with_flags(
    made: Statistics, log: Storage, state: InEffect, corrected: Mapping[int, str]
) -> Statistics:
    """`made` with the rulings behind each flag (read from the flagged member's records) and
    the dealers' correction flags."""
    flags = []
    for flag in made.flags:
        if flag["kind"] == "event":
            flag["rulings"] = _event_rulings(log, made, flag, state)
        else:
            name = next(n for n, kind in KINDS.items() if kind == flag["kind"])
            key = flag[GROUPS[name]]
            flag["rulings"] = _behind(log, made, name, key, float(flag["figures"]["z"]), state)
        flags.append(flag)
    flags += _correction_flags(log, made, corrected, 1 - made.confidence)
    return replace(made, flags=tuple(flags))


def _member_records(log: Storage, made: Statistics, name: str, key: str) -> Iterator[Record]:
    """The Emperor's Challenge rulings of one table, dealer or patron in the range."""
    flt = RecordFilter(kind=RecordKind.RULING, game="paigow", since=made.since, until=made.until)
    if name == "tables":
        flt = flt._replace(table_id=key)
    elif name == "dealers":
        flt = flt._replace(user_id=key)
    else:
        flt = flt._replace(patron=key)
    return (r for row in log.rows(flt) if floor_sums.counts(r := Record.from_row(row)))


def _behind(
    log: Storage, made: Statistics, name: str, key: str, z: float, state: InEffect
) -> list[int]:
    """The rulings that moved a flagged member's house result most in the flag's direction."""
    heap: list[tuple[int, int]] = []
    own = (MEMBERS[name], key, OWN)
    for record in _member_records(log, made, name, key):
        result = state.result(record)
        if result is None:
            continue
        values = floor_sums.money_numbers(record, result).rows.get(own)
        if values is None:
            continue
        house = int(values[floor_sums.HOUSE])
        moved = (house if z > 0 else -house, -record.id)
        if len(heap) < BEHIND:
            heapq.heappush(heap, moved)
        elif moved > heap[0]:
            heapq.heapreplace(heap, moved)
    return [-ruling for _, ruling in sorted(heap, reverse=True)]


def _event_rulings(
    log: Storage,
    made: Statistics,
    flag: Mapping[str, Any],
    state: InEffect,
) -> list[int]:
    """The first rulings at a flagged event's table whose bonus wagers won on its row."""
    hit = source_key(HIT, flag["paytable"], flag["paytable_sha256"], flag["row"])
    found: list[int] = []
    for record in _member_records(log, made, "tables", flag["table"]):
        result = state.result(record)
        if (
            result is not None
            and (TABLE, flag["table"], hit) in floor_sums.money_numbers(record, result).rows
        ):
            found.append(record.id)
            if len(found) == EVENT_RULINGS:
                break
    return found
