"""The floor's statistics from the audit log: win against expectation per table, dealer and
patron, each patron's demonstrated play, and the flags (`dealer stats`). Read-only.

Decisions (the figures are defined in `dealer.analysis.stats` and docs/statistics.md):
* Counted: Emperor's Challenge rounds and single-seat settles recorded in the range, with the
  result in effect as the shift summary reads it (`shift.in_effect`: voids left out, an
  override's replacement figures applied). Rulings of every game count for the dealers'
  correction rates.
* A round: a round ruling is one; single-seat settles at a table in a row with the same dealer
  cards are one round (the seats of one deal). Game pace: `analysis.stats.Pace`.
* The expected figures come from the documents each ruling names by SHA-256: the House Way and
  pay tables shipped with the program, or the text a supervisor approved on the chain (a
  ruling whose document is neither cannot have been recorded). The base wager's edge is
  simulated once per House Way text and wheel (`STATS_ROUNDS` rounds from `STATS_SEED`, or
  `rounds`), the tally kept in the program's cache folder by what it was computed from
  (`kernel.documents.cache_folder`); the bonus wagers' are exact at each wager's amount (a
  progressive's at the meter the ruling read), Envy's for each other seat of the round when the
  seat's Treasure wager is at least the Envy minimum. Caps are not modelled (none by default).
* Tables and dealers: a base wager set by the House Way is expected at the House Way's edge,
  one a player set at the best reply's (the least the house can expect from that hand).
  Patrons: their `theo` is the demonstrated edge once they set `MIN_OWN_HANDS` hands
  themselves; else the best reply's edge when they set most of their hands, the House Way's
  otherwise (`theo_source`).
* Streaming: the rulings are read one at a time (`Storage.rows`); only the overrides, voids,
  disputes and approvals (few) are read whole. Every figure is a sum per group, so a database
  can keep them the same way.
"""

from __future__ import annotations

import heapq
import json
import os
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from dealer.analysis.house_edge import MAX_WORKERS, PLAYER_MODES, StrategyEdge, simulate
from dealer.analysis.paytable_return import PaytableReturn, analyze_paytable
from dealer.analysis.stats import (
    MIN_OWN_HANDS,
    Expectation,
    HandPlay,
    Pace,
    PlayTally,
    UnitFigures,
    base_unit_figures,
    binomial_upper_tail,
    hand_play,
    paytable_figures,
    z_critical,
    z_score,
)
from dealer.audit.disputes import disputes
from dealer.audit.records import Record, RecordFilter, RecordKind
from dealer.desk.context import LogLocation, open_desk_log
from dealer.desk.shift import (
    MONEY_ACTIONS,
    WAGER_TYPES,
    in_effect,
    seat_net,
    seat_results,
    stored_money,
)
from dealer.games.paigow.deck import parse_cards
from dealer.games.paigow.house_way import SHIPPED, HouseWay, load_house_way, parse_house_way
from dealer.games.paigow.pay import Wager
from dealer.games.paigow.paytables import PayTable, parse_tables, shipped_paytables
from dealer.games.paigow.settle import BaseRules
from dealer.kernel.digest import sha256_hex
from dealer.kernel.documents import cache_folder
from dealer.kernel.errors import DealerError
from dealer.kernel.money import CENT, money_json
from dealer.kernel.ruling import RulingAction

if TYPE_CHECKING:
    from dealer.audit.storage import Storage

STATS_ROUNDS = 200_000
"""Rounds the base wager's edge is simulated over for the statistics (per House Way text and
wheel): about 20 seconds on one core, once, then read from the cache. Its standard error (about
0.0022 per unit) is carried into every interval."""
STATS_SEED = 26
"""The simulation's seed: the same tally on every machine (`dealer analyze house-edge --rounds
200000 --seed 26` shows it)."""
CACHE_NAME = "house-edge-1"
"""The cache folder of simulation tallies (one JSON file each, named by the SHA-256 of what it
was computed from)."""
GROUPS = {"tables": "table", "dealers": "user", "patrons": "patron"}
"""Each group of `dealer stats` and the key naming its rows."""
KINDS = {"tables": "table", "dealers": "dealer", "patrons": "patron"}
"""The `kind` of a group's flag."""
BEHIND = 10
"""The rulings a flag names: those that moved its figure most in its direction."""
EVENT_RULINGS = 20
"""The hits of an event a flag names (the first)."""

ZERO = Decimal(0)
Progress = Callable[[int, int], None]


def _cents(value: Decimal) -> int | float:
    return money_json(value.quantize(CENT))


def _rounded(value: float | None, places: int = 4) -> float | None:
    return None if value is None else round(value, places)


class Sources:
    """The documents the rulings name and the figures made from them, each made once: the
    House Ways and pay tables (shipped, or approved on the chain), the simulations' tallies,
    the exact analyses."""

    def __init__(self, approved: Mapping[str, str], rounds: int, seed: int) -> None:
        self.rounds, self.seed = rounds, seed
        self.approved = approved
        """The approved documents' texts by SHA-256 (`approved_texts`)."""
        self._ways: dict[str, HouseWay] = {}
        self._tables: dict[tuple[str, str], PayTable] = {}
        self._tallies: dict[tuple[str, str], dict[str, StrategyEdge]] = {}
        self._analyses: dict[tuple[str, str, Decimal, Decimal | None, int], PaytableReturn] = {}
        self._bases: dict[tuple[str, str, str], dict[str, tuple[UnitFigures, str]]] = {}
        self._figures: dict[tuple[str, str, Decimal, Decimal | None, int], tuple[Decimal, float]]
        self._figures = {}
        self.described: dict[str, dict[str, Any]] = {}

    def way(self, settings: Mapping[str, Any]) -> HouseWay:
        """The House Way a ruling names (`house_way_source`, `house_way_sha256`)."""
        digest = str(settings.get("house_way_sha256", ""))
        found = self._ways.get(digest)
        if found is not None:
            return found
        source = str(settings.get("house_way_source", ""))
        if source in SHIPPED and load_house_way(source).sha256 == digest:
            found = load_house_way(source)
        elif digest in self.approved:
            found = parse_house_way(self.approved[digest], source)
        else:
            raise DealerError(
                f"the House Way {source} (sha256 {digest}) is neither shipped nor approved on "
                "this log: its rulings cannot be rated"
            )
        self._ways[digest] = found
        return found

    def table(self, table_id: str, digest: str) -> PayTable:
        """Pay table `table_id` of the text with SHA-256 `digest`."""
        key = (table_id, digest)
        found = self._tables.get(key)
        if found is not None:
            return found
        shipped = shipped_paytables().tables.get(table_id)
        if shipped is not None and shipped.sha256 == digest:
            found = shipped
        elif digest in self.approved:
            tables, _ = parse_tables(self.approved[digest], f"approved pay tables {digest}", "")
            found = next((t for t in tables if t.id == table_id), None)
        if found is None:
            raise DealerError(
                f"the pay table {table_id} (sha256 {digest}) is neither shipped nor approved on "
                "this log: its rulings cannot be rated"
            )
        self._tables[key] = found
        return found

    def _tally(self, way: HouseWay, wheel: str) -> dict[str, StrategyEdge]:
        """The simulation of `way` at `wheel`: from the cache, else simulated and kept."""
        key = (way.sha256, wheel)
        found = self._tallies.get(key)
        if found is not None:
            return found
        made_of = f"{way.sha256}|{wheel}|{self.rounds}|{self.seed}"
        entry = cache_folder(CACHE_NAME) / f"{sha256_hex(made_of)}.json"
        found = _read_tally(entry, made_of, way)
        if found is None:
            workers = min(os.cpu_count() or 1, MAX_WORKERS)
            report = simulate(self.rounds, self.seed, [way], PLAYER_MODES, wheel, workers)
            found = {s.player: s for s in report.strategies}
            _write_tally(entry, made_of, found)
        self._tallies[key] = found
        return found

    def base(self, settings: Mapping[str, Any]) -> dict[str, tuple[UnitFigures, str]]:
        """The base wager's figures per unit under a ruling's settings, by player mode
        (`house-way`, `best`), each with its source's name (made once per House Way, wheel and
        option)."""
        wheel = str(settings.get("wheel", "second-highest"))
        option = str(settings.get("dealer_pai_gow", "half-pay"))
        key = (str(settings.get("house_way_sha256", "")), wheel, option)
        found = self._bases.get(key)
        if found is None:
            found = self._bases[key] = self._base(self.way(settings), wheel, option)
        return found

    def _base(self, way: HouseWay, wheel: str, option: str) -> dict[str, tuple[UnitFigures, str]]:
        tally = self._tally(way, wheel)
        out = {}
        for mode in PLAYER_MODES:
            name = f"base:{way.name}@{way.sha256[:12]}:{wheel}:{option}:{mode}"
            figures = base_unit_figures(tally[mode], option)
            out[mode] = (figures, name)
            if name not in self.described:
                self.described[name] = {
                    "source": name,
                    "wager": Wager.BASE.value,
                    "method": "simulation",
                    "house_way": {"name": way.name, "version": way.version},
                    "house_way_sha256": way.sha256,
                    "wheel": wheel,
                    "dealer_pai_gow": option,
                    "player": mode,
                    "rounds": self.rounds,
                    "seed": self.seed,
                    "house_edge": float(figures.edge),
                    "variance": figures.variance,
                    "standard_error": figures.edge_error,
                }
        return out

    def analysis(
        self, table: PayTable, amount: Decimal, meter: Decimal | None, units: int
    ) -> PaytableReturn:
        """The exact analysis of `table` at a wager of `amount` (`units` units; a meter pay at
        `meter`)."""
        key = (table.id, table.sha256, amount, meter, units)
        found = self._analyses.get(key)
        if found is None:
            found = analyze_paytable(
                table, amount if table.has_wager else Decimal(1), meter, units=units
            )
            self._analyses[key] = found
        name = self.name(table)
        if name not in self.described:
            self.described[name] = {
                "source": name,
                "wager": table.wager,
                "method": "exact",
                "paytable": table.id,
                "paytable_sha256": table.sha256,
                "house_edge": float(found.house_edge),
            }
        return found

    def figures(
        self, table: PayTable, amount: Decimal, meter: Decimal | None, units: int
    ) -> tuple[Decimal, float]:
        """`paytable_figures` of `analysis` (made once per table, amount, meter and units)."""
        key = (table.id, table.sha256, amount, meter, units)
        found = self._figures.get(key)
        if found is None:
            found = self._figures[key] = paytable_figures(
                self.analysis(table, amount, meter, units)
            )
        return found

    @staticmethod
    def name(table: PayTable) -> str:
        """A pay table's source name: `exact:TABLE@SHA`."""
        return f"exact:{table.id}@{table.sha256[:12]}"


def _read_tally(entry: Any, made_of: str, way: HouseWay) -> dict[str, StrategyEdge] | None:
    """A cached tally, when it is one of `made_of` in the expected shape; else None."""
    try:
        held = json.loads(entry.read_text(encoding="utf-8"))
        if held.get("made_of") != made_of:
            return None
        return {
            mode: StrategyEdge(
                way.name,
                way.version,
                mode,
                tuple((int(a), int(b), int(c)) for a, b, c in held["counts"][mode]),
            )
            for mode in PLAYER_MODES
        }
    except (OSError, ValueError, TypeError, KeyError, AttributeError):
        return None


def _write_tally(entry: Any, made_of: str, tally: Mapping[str, StrategyEdge]) -> None:
    """Keep a tally (a cache that cannot be written is not used)."""
    text = json.dumps({"made_of": made_of, "counts": {mode: s.counts for mode, s in tally.items()}})
    try:
        entry.parent.mkdir(parents=True, exist_ok=True)
        partial = entry.with_suffix(f".{os.getpid()}.tmp")
        partial.write_text(text, encoding="utf-8")
        os.replace(partial, entry)
    except OSError:
        pass


@dataclass
class Group:
    """The sums of one table, dealer or patron."""

    rulings: int = 0
    last_ruling: int = 0
    rounds: int = 0
    hands: int = 0
    wagered: Decimal = ZERO
    house_result: Decimal = ZERO
    base: Expectation = field(default_factory=Expectation)
    """Base wagers at the edge of whoever set the hand."""
    bonus: Expectation = field(default_factory=Expectation)
    pace: Pace = field(default_factory=Pace)
    lost: list[tuple[Decimal, int]] = field(default_factory=list)
    """The rulings the house lost most on (a min-heap of (−loss, id), at most `BEHIND`)."""
    won: list[tuple[Decimal, int]] = field(default_factory=list)
    # patrons only
    base_house_way: Expectation = field(default_factory=Expectation)
    base_best: Expectation = field(default_factory=Expectation)
    play: PlayTally = field(default_factory=PlayTally)

    def ruling(self, ruling_id: int) -> None:
        """Count ruling `ruling_id` once, however many seats of it the group has."""
        if ruling_id != self.last_ruling:
            self.rulings += 1
            self.last_ruling = ruling_id

    def keep(self, ruling_id: int, house: Decimal) -> None:
        """Remember the ruling among those the house won or lost most on."""
        for heap, value in ((self.lost, -house), (self.won, house)):
            if len(heap) < BEHIND:
                heapq.heappush(heap, (value, ruling_id))
            elif value > heap[0][0]:
                heapq.heapreplace(heap, (value, ruling_id))

    def behind(self, z: float | None) -> list[int]:
        """The rulings behind a result above (z > 0: won most) or below expectation."""
        heap = self.won if (z or 0) > 0 else self.lost
        return list(dict.fromkeys(i for _, i in sorted(heap, reverse=True)))

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
    behind: tuple[int, ...]

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
    rulings: dict[int, list[int]] = field(default_factory=dict)


@dataclass
class Floor:
    """Everything read: the groups, the events and the dealers' corrections."""

    groups: dict[str, dict[str, Group]] = field(
        default_factory=lambda: {name: {} for name in GROUPS}
    )
    events: dict[tuple[str, str, str], EventCount] = field(default_factory=dict)
    rulings_by: dict[str, int] = field(default_factory=dict)
    corrected_by: dict[str, list[int]] = field(default_factory=dict)
    corrected_count: dict[str, int] = field(default_factory=dict)
    last_dealer_cards: dict[str, tuple[str, ...]] = field(default_factory=dict)
    voided: int = 0

    def group(self, name: str, key: str) -> Group:
        """The group `key` of `name`, made on first use."""
        found = self.groups[name].get(key)
        if found is None:
            found = self.groups[name][key] = Group()
        return found


class Reader:
    """Reads the rulings one at a time into a `Floor`."""

    def __init__(self, sources: Sources, corrected: Mapping[int, str]) -> None:
        self.sources = sources
        self.corrected = corrected
        self.floor = Floor()

    def ruling(self, record: Record, result: Mapping[str, Any] | None) -> None:
        """One ruling of any game, with its result in effect (None: voided)."""
        floor = self.floor
        floor.rulings_by[record.user_id] = floor.rulings_by.get(record.user_id, 0) + 1
        if record.id in self.corrected:
            count = floor.corrected_count.get(record.user_id, 0)
            floor.corrected_count[record.user_id] = count + 1
            ids = floor.corrected_by.setdefault(record.user_id, [])
            if len(ids) < EVENT_RULINGS:
                ids.append(record.id)
        if record.game != "paigow" or record.action not in MONEY_ACTIONS:
            return
        if result is None:
            floor.voided += 1
            return
        dealer_cards = tuple(record.cards[:7])
        new_round = (
            record.action != RulingAction.SETTLE
            or floor.last_dealer_cards.get(record.table_id) != dealer_cards
        )
        floor.last_dealer_cards[record.table_id] = dealer_cards
        table = floor.group("tables", record.table_id)
        dealer = floor.group("dealers", record.user_id)
        if new_round:
            for group, where in ((table, record.table_id), (dealer, record.user_id)):
                group.rounds += 1
                group.pace.add(where, record.recorded_at)
        seats = seat_results(record.action, result)
        for seat in seats:
            self.seat(record, result, seat, len(seats), (table, dealer))

    def seat(
        self,
        record: Record,
        result: Mapping[str, Any],
        seat: Mapping[str, Any],
        seated: int,
        groups: tuple[Group, ...],
    ) -> None:
        """One seat of a ruling in effect: its money, its expectations and, for a patron, its
        play."""
        settings = record.settings
        base = seat.get("base") or {}
        stake = stored_money(base.get("wager"))
        bonuses = [b for b in seat.get("bonuses", []) if b.get("wager") in WAGER_TYPES]
        wagered = stake + sum((stored_money(b.get("amount")) for b in bonuses), ZERO)
        house = -seat_net(seat)
        figures = self.sources.base(settings)
        player = base.get("player") or {}
        own = player.get("set_by") == "player"
        bonus = self.bonus_expectation(record, result, seat, bonuses, seated)
        patron = seat.get("patron")
        members = list(groups)
        if isinstance(patron, str) and patron:
            members.append(self.floor.group("patrons", patron))
        for group in members:
            group.ruling(record.id)
            group.hands += 1
            group.wagered += wagered
            group.house_result += house
            group.keep(record.id, house)
            group.bonus.merge(bonus)
            unit, name = figures["best" if own else "house-way"]
            _add_base(group.base, unit, name, stake)
        if len(members) > len(groups):
            patron_group = members[-1]
            patron_group.pace.add(str(patron), record.recorded_at)
            _add_base(patron_group.base_house_way, *figures["house-way"], stake)
            _add_base(patron_group.base_best, *figures["best"], stake)
            self.play(record, base, player, own, stake, figures["best"][0], patron_group)

    def play(
        self,
        record: Record,
        base: Mapping[str, Any],
        player: Mapping[str, Any],
        own: bool,
        stake: Decimal,
        best: UnitFigures,
        group: Group,
    ) -> None:
        """A patron's hand against the exposed dealer hand: as its settle recorded it (a hand
        the player set), else found again from the cards (a hand the House Way set, a ruling
        recorded before the settle recorded it; one whose cards the result does not give, as
        an override's figures may not, is left out of their play)."""
        played = stored_money(base.get("net"))
        if "best_net" in player and "house_way_net" in player:
            recorded = (stored_money(player["best_net"]), stored_money(player["house_way_net"]))
            group.play.add(HandPlay(played, *recorded), stake, own, best)
            return
        settings = record.settings
        try:
            cards = [*player["high"]["cards"], *player["low"]["cards"]]
            hand = parse_cards(" ".join(cards), counts=(7,))
            dealer = parse_cards(" ".join(record.cards[:7]), counts=(7,))
        except (KeyError, TypeError, DealerError):
            return
        rules = BaseRules(
            str(settings.get("wheel", "second-highest")),
            str(settings.get("dealer_pai_gow", "half-pay")),
            str(settings.get("foul", "forfeit")),
        )
        way = self.sources.way(settings)
        group.play.add(hand_play(dealer, hand, played, stake, way, rules), stake, own, best)

    def bonus_expectation(
        self,
        record: Record,
        result: Mapping[str, Any],
        seat: Mapping[str, Any],
        bonuses: Iterable[Mapping[str, Any]],
        seated: int,
    ) -> Expectation:
        """The bonus wagers of one seat by the exact analysis; the events they hit counted."""
        settings = record.settings
        digests = settings.get("paytables_sha256") or {}
        posted = settings.get("paytables") or {}
        before = (result.get("meters") or {}).get("before") or {}
        out = Expectation()
        treasure = ZERO
        for bonus in bonuses:
            wager = Wager(str(bonus.get("wager")))
            if not wager.placed:
                continue
            amount = stored_money(bonus.get("amount"))
            treasure += amount if wager == Wager.TREASURE else ZERO
            table_id = str(bonus.get("paytable") or posted.get(wager.value, ""))
            table = self.sources.table(table_id, str(digests.get(table_id, "")))
            meter = stored_money(before.get(wager.value)) if wager.progressive else None
            counted = bonus.get("units")
            units = counted if isinstance(counted, int) else 1
            expected, variance = self.sources.figures(table, amount, meter, units)
            out.add(expected, variance, self.sources.name(table), amount, 0.0)
            self.count_event(record, table, bonus)
        offered = settings.get("offered") or {}
        minimum = stored_money(settings.get("envy_minimum"))
        envy_id = str(posted.get(Wager.ENVY.value, ""))
        if offered.get(Wager.ENVY.value) and envy_id and treasure > 0 and treasure >= minimum:
            others = seated - 1
            if others:
                table = self.sources.table(envy_id, str(digests.get(envy_id, "")))
                expected, variance = self.sources.figures(table, ZERO, None, 1)
                out.add(expected * others, variance * others, self.sources.name(table), ZERO, 0)
        return out

    def count_event(self, record: Record, table: PayTable, bonus: Mapping[str, Any]) -> None:
        """One bonus wager placed on `table` at the ruling's table, and the row it hit."""
        key = (record.table_id, table.id, table.sha256)
        count = self.floor.events.get(key)
        if count is None:
            count = self.floor.events[key] = EventCount(table, self.sources.name(table))
        count.trials += 1
        row = bonus.get("row_number")
        if isinstance(row, int) and stored_money(bonus.get("net")) > 0:
            count.hits[row] = count.hits.get(row, 0) + 1
            ids = count.rulings.setdefault(row, [])
            if len(ids) < EVENT_RULINGS:
                ids.append(record.id)


def _add_base(into: Expectation, unit: UnitFigures, name: str, stake: Decimal) -> None:
    into.add(stake * unit.edge, float(stake) ** 2 * unit.variance, name, stake, unit.edge_error)


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

    def to_dict(self, group: str | None) -> dict[str, Any]:
        """JSON form: `{GROUP: [rows]}` (or `{"flags": [...]}` with `group` None), with the
        range, the confidence and the sources."""
        body: dict[str, Any] = (
            {"flags": list(self.flags)}
            if group is None
            else {group: [row.to_dict() for row in self.groups[group]]}
        )
        return body | {
            "since": self.since,
            "until": self.until,
            "confidence": self.confidence,
            "voided": self.voided,
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
    return Row(key, figures, flag, z, tuple(sums.behind(z)))


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
    corrections = log.records(RecordFilter(kind=RecordKind.OVERRIDE)) + log.records(
        RecordFilter(kind=RecordKind.VOID)
    )
    marked: dict[int, str] = {}
    for c in corrections:
        if c.links_to is not None:
            marked.setdefault(c.links_to, c.kind)
    for dispute in disputes(log):
        for ruling in dispute.rulings:
            marked.setdefault(ruling, RecordKind.DISPUTE)
    return corrections, marked


def _event_flags(floor: Floor, alpha: float) -> list[dict[str, Any]]:
    """Each pay-table row hit at a table more often than its exact probability allows (one-sided
    binomial test at `alpha`)."""
    found = []
    for (table_id, _, _), count in sorted(floor.events.items()):
        analysis = None
        for row, hits in sorted(count.hits.items()):
            if analysis is None:
                analysis = analyze_paytable(count.table, Decimal(1), Decimal(1), units=1)
            line = next((x for x in analysis.lines if x.row and x.row.number == row), None)
            if line is None:
                continue
            probability = line.combinations / analysis.hands
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
                        "rulings": count.rulings.get(row, []),
                    }
                )
    return found


def _correction_flags(floor: Floor, alpha: float) -> list[dict[str, Any]]:
    """Each dealer whose rulings were overridden, voided or disputed more often than the
    floor's rate allows (one-sided binomial test at `alpha`; two dealers at least)."""
    total = sum(floor.rulings_by.values())
    marked = sum(floor.corrected_count.values())
    if len(floor.rulings_by) < 2 or not total:
        return []
    rate = marked / total
    found = []
    for user, rulings in sorted(floor.rulings_by.items()):
        corrected = floor.corrected_count.get(user, 0)
        tail = binomial_upper_tail(corrected, rulings, rate)
        if corrected and tail < alpha:
            found.append(
                {
                    "kind": "corrections",
                    "user": user,
                    "figures": {
                        "rulings": rulings,
                        "corrected": corrected,
                        "rate": round(corrected / rulings, 6),
                        "floor_rate": round(rate, 6),
                        "p_value": tail,
                    },
                    "rulings": floor.corrected_by.get(user, []),
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
) -> Statistics:
    """The statistics of the log at `db` over [`since`, `until`) (stored UTC forms, None: open),
    with intervals at `confidence`; the base wager's edge simulated over `rounds` rounds from
    `seed` (module docstring)."""
    z_critical(confidence)  # a confidence outside (0, 1) is refused before the log is read
    with open_desk_log(db, read_only=True) as log:
        corrections, corrected = _corrected(log)
        state = in_effect(corrections)
        reader = Reader(Sources(approved_texts(log), rounds, seed), corrected)
        for row in log.rows(RecordFilter(kind=RecordKind.RULING, since=since, until=until)):
            record = Record.from_row(row)
            reader.ruling(record, state.result(record))
    return summed(reader, since, until, confidence)


def summed(reader: Reader, since: str | None, until: str | None, confidence: float) -> Statistics:
    """The statistics of what `reader` read (pure: the sums become rows and flags)."""
    critical = z_critical(confidence)
    floor = reader.floor
    groups = {
        name: tuple(_row(name, key, sums, critical) for key, sums in sorted(members.items()))
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
            "rulings": list(row.behind),
        }
        for name, rows in groups.items()
        for row in rows
        if row.flag
    ]
    alpha = 1 - confidence
    flags += _event_flags(floor, alpha) + _correction_flags(floor, alpha)
    return Statistics(
        since,
        until,
        confidence,
        groups,
        tuple(flags),
        tuple(v for _, v in sorted(reader.sources.described.items())),
        floor.voided,
    )
