"""Where the statistics' expected figures come from (`dealer stats`): the House Ways and pay
tables the rulings name by SHA-256 (shipped with the program, or approved on the chain), the
simulated edge of each House Way's base wager (cached in the program's cache folder by what it
was computed from), and the exact analysis of each bonus wager; each made once, and named in
`described` as the statistics' JSON lists it."""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from decimal import Decimal
from math import comb
from pathlib import Path
from typing import Any

from dealer.analysis.exact import count_events, event_order
from dealer.analysis.house_edge import MAX_WORKERS, PLAYER_MODES, StrategyEdge, simulate
from dealer.analysis.paytable_return import PaytableReturn, analyze_paytable
from dealer.analysis.stats import (
    METER_REACH,
    MeterFigures,
    UnitFigures,
    base_unit_figures,
    paytable_figures,
)
from dealer.games.paigow.house_way import SHIPPED, HouseWay, load_house_way, parse_house_way
from dealer.games.paigow.pay import Wager
from dealer.games.paigow.paytables import PayTable, parse_tables, shipped_paytables
from dealer.games.paigow.settle import BaseRules
from dealer.kernel.digest import sha256_hex
from dealer.kernel.documents import cache_folder
from dealer.kernel.errors import DealerError
from dealer.kernel.money import CENT

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
ZERO = Decimal(0)


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
        self._meters: dict[tuple[str, str, Decimal, int], MeterFigures] = {}
        self.described: dict[str, dict[str, Any]] = {}
        self._counts: dict[str, int] | None = None

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
        rules = BaseRules.of(settings)
        wheel, option = rules.wheel, rules.dealer_pai_gow
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

    def counts(self) -> dict[str, int]:
        """The exact counts of every seven-card hand by event (`exact.count_events`): from the
        cache folder where kept and whole (every event, summing to every hand), else counted
        (about a second) and kept."""
        if self._counts is None:
            entry = cache_folder(CACHE_NAME) / "paytable-counts.json"
            self._counts = _read_counts(entry)
            if self._counts is None:
                self._counts = count_events("paytable")
                _keep(entry, json.dumps(self._counts))
        return self._counts

    def analysis(
        self, table: PayTable, amount: Decimal, meter: Decimal | None, units: int
    ) -> PaytableReturn:
        """The exact analysis of `table` at a wager of `amount` (`units` units; a meter pay at
        `meter`)."""
        key = (table.id, table.sha256, amount, meter, units)
        found = self._analyses.get(key)
        if found is None:
            found = analyze_paytable(
                table,
                amount if table.has_wager else Decimal(1),
                meter,
                counts=self.counts(),
                units=units,
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
        self,
        table: PayTable,
        amount: Decimal,
        units: int,
        wagers: int,
        meters: Decimal = ZERO,
        squares: Decimal = ZERO,
    ) -> tuple[Decimal, float]:
        """`paytable_figures` summed over `wagers` wagers of `amount` on `table` (`units`
        units; Envy: each other seat, amount 0): a progressive's at the meters they were placed
        at (their sum `meters`, of squares `squares`) from one `MeterFigures` for every meter;
        made once per table, amount and units."""
        if not any(row.pay.from_meter for row in table.rows):
            key = (table.id, table.sha256, amount, None, units)
            found = self._figures.get(key)
            if found is None:
                found = self._figures[key] = paytable_figures(
                    self.analysis(table, amount, None, units)
                )
            return found[0] * wagers, found[1] * wagers
        if self.name(table) not in self.described:  # described at the wagers' mean meter
            self.analysis(table, amount, (meters / wagers).quantize(CENT), units)
        line_key = (table.id, table.sha256, amount, units)
        lines = self._meters.get(line_key)
        if lines is None:
            lines = self._meters[line_key] = MeterFigures.of(
                self.analysis(table, amount, ZERO, units),
                self.analysis(table, amount, METER_REACH, units),
            )
        return lines.summed(wagers, meters, squares)

    @staticmethod
    def name(table: PayTable) -> str:
        """A pay table's source name: `exact:TABLE@SHA`."""
        return f"exact:{table.id}@{table.sha256[:12]}"


def _read_tally(entry: Path, made_of: str, way: HouseWay) -> dict[str, StrategyEdge] | None:
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


def _write_tally(entry: Path, made_of: str, tally: Mapping[str, StrategyEdge]) -> None:
    """Keep a tally."""
    text = json.dumps({"made_of": made_of, "counts": {mode: s.counts for mode, s in tally.items()}})
    _keep(entry, text)


def _read_counts(entry: Path) -> dict[str, int] | None:
    """The kept exact counts, when whole: every event of `event_order("paytable")`, each a
    whole number, summing to every seven-card hand of the deck; else None."""
    try:
        held = json.loads(entry.read_text(encoding="utf-8"))
        counts = {name: held[name] for name in event_order("paytable")}
    except (OSError, ValueError, TypeError, KeyError):
        return None
    whole = all(type(n) is int and n >= 0 for n in counts.values())
    if not whole or len(held) != len(counts) or sum(counts.values()) != comb(53, 7):
        return None
    return counts


def _keep(entry: Path, text: str) -> None:
    """Keep `text` in the cache file `entry` (a cache that cannot be written is not used)."""
    try:
        entry.parent.mkdir(parents=True, exist_ok=True)
        partial = entry.with_suffix(f".{os.getpid()}.tmp")
        partial.write_text(text, encoding="utf-8")
        os.replace(partial, entry)
    except OSError:
        pass
