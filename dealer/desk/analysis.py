"""What an operator asks of the analysis: a pay table's exact return, the base game's house edge
by simulation, the report of every table. Analyses rule on no hand: they are made under the
house rules (recorded in their settings) but not put on the audit record."""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING, Any

from dealer.desk.context import HouseRules
from dealer.kernel.ruling import Ruling, RulingAction
from dealer.kernel.tuples import NamedTuple

if TYPE_CHECKING:
    from dealer.analysis.report import OperatorReport
    from dealer.games.paigow.profile import Profile

Progress = Callable[[int, int], None]


class Report(NamedTuple):
    """The operator's report, and the same as a ruling value for JSON."""

    report: OperatorReport
    ruling: Ruling


def _units(profile: Profile, wager_type: str, amount: Decimal) -> int:
    """How many of the profile's units a progressive wager of `amount` is (any other wager is
    one unit); refused unless a whole number."""
    from dealer.games.paigow.pay import Wager, units_of
    from dealer.kernel.errors import DealerError
    from dealer.kernel.money import fmt_money

    wager = Wager(wager_type)
    if not wager.progressive:
        return 1
    unit = profile.unit(wager)
    units = units_of(amount, unit)
    if units is None:
        raise DealerError(
            f"wager {fmt_money(amount)}: a {wager.words} wager is a whole number of "
            f"{fmt_money(unit)} units"
        )
    return units


def _profile_settings(profile: Profile) -> dict[str, Any]:
    return {
        "profile": profile.name,
        "profile_source": profile.source,
        "profile_sha256": profile.sha256,
        "overrides": list(profile.overrides),
    }


def paytable_return(
    house: HouseRules,
    table_id: str,
    wager: Decimal,
    meter: Decimal | None,
    paytables: Sequence[Path] = (),
    progress: Progress | None = None,
) -> Ruling:
    """The exact return of one pay table over every seven-card hand; a share-of-meter row is
    figured at `meter`, else at the profile's meter seed; a progressive wager is counted in the
    profile's units."""
    from dealer.analysis.paytable_return import analyze_paytable
    from dealer.games.paigow.paytables import load_paytables

    profile = house.load()
    table = load_paytables(paytables).get(table_id)
    meter_from = "--meter"
    if meter is None and table.wager in profile.meters:
        meter, meter_from = profile.meters[table.wager].seed, "the profile's meter seed"
    units = _units(profile, table.wager, wager) if table.has_wager else 1
    analysis = analyze_paytable(table, wager, meter, progress=progress, units=units)
    result = analysis.to_dict()
    settings = {
        **_profile_settings(profile),
        "wager": result["wager"],
        "units": result["units"],
        "meter": result["meter"],
        "meter_from": meter_from if analysis.meter is not None else None,
        "paytables": [str(p) for p in paytables],
    }
    ruling = Ruling(
        "paigow",
        RulingAction.ANALYZE_PAYTABLE,
        analysis.table.id,
        (),
        result,
        tuple(analysis.explanation()),
        settings,
    )
    return ruling


def house_edge(
    house: HouseRules,
    rounds: int,
    seed: int,
    house_ways: Sequence[str] = (),
    players: Sequence[str] = (),
    workers: int | None = None,
    progress: Progress | None = None,
) -> Ruling:
    """Simulate the base game's house edge under every dealer-pai-gow option, for each House Way
    (default: the shipped ways and the profile's) and player mode (default: both)."""
    from dealer.analysis.house_edge import (
        DEALER_PAI_GOW_OPTIONS,
        MAX_WORKERS,
        PLAYER_MODES,
        simulate,
    )
    from dealer.games.paigow.house_way import SHIPPED, load_house_way

    profile = house.load()
    names = list(house_ways or dict.fromkeys([*SHIPPED, profile.house_way]))
    ways = [load_house_way(n) for n in names]
    modes = list(players or PLAYER_MODES)
    count = workers if workers is not None else min(os.cpu_count() or 1, MAX_WORKERS)
    report = simulate(rounds, seed, ways, modes, profile.wheel, count, progress)
    settings = {
        **_profile_settings(profile),
        "wheel": profile.wheel,
        "house_ways": [{"name": w.name, "version": w.version} for w in ways],
        "players": modes,
        "dealer_pai_gow_options": list(DEALER_PAI_GOW_OPTIONS),
        "rounds": rounds,
        "seed": seed,
        "workers": count,
    }
    ruling = Ruling(
        "paigow",
        RulingAction.ANALYZE_HOUSE_EDGE,
        f"--rounds {rounds} --seed {seed}",
        (),
        report.to_dict(),
        tuple(report.explanation()),
        settings,
    )
    return ruling


def report(
    house: HouseRules,
    fmt: str,
    wager: Decimal,
    meters: Mapping[str, Decimal | None],
    paytables: Sequence[Path] = (),
    progress: Progress | None = None,
) -> Report:
    """Every pay table side by side with its exact return; share-of-meter rows at the meters
    given, else at the profile's seeds; a progressive wager in the profile's units."""
    from dealer.analysis.report import operator_report
    from dealer.games.paigow.pay import PROGRESSIVES
    from dealer.games.paigow.paytables import load_paytables

    profile = house.load()
    at = {name: m.seed for name, m in profile.meters.items()}
    at.update({name: amount for name, amount in meters.items() if amount is not None})
    units: dict[str, int] = {name: _units(profile, name, wager) for name in PROGRESSIVES}
    result = operator_report(
        load_paytables(paytables), wager, at, profile.envy_minimum, progress=progress, units=units
    )
    settings = {**_profile_settings(profile), "paytables": [str(p) for p in paytables]}
    ruling = Ruling(
        "paigow",
        RulingAction.ANALYZE_REPORT,
        fmt,
        (),
        result.to_dict(),
        tuple(result.notes()),
        settings,
    )
    return Report(result, ruling)
