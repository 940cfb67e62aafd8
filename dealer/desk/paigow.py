"""What a Pai Gow dealer does: rank, compare, set by the House Way, read the bonus events,
settle a seat, settle a whole round, deal a demo round. Each is ruled under the table's house
rules and put on the record (with the table's progressive meters read and moved in the same
transaction where the ruling pays from them). A ruling's `--rule` changes go through
`rule_changes.changed_profile` first; the demo, dealt at its own table, only flags them."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from decimal import Decimal
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from dealer.desk.assignments import table_log
from dealer.desk.context import Desk, HouseRules, metered_table
from dealer.desk.recording import Recorded, record_one
from dealer.games.paigow import rulings
from dealer.kernel.errors import DealerError
from dealer.kernel.ruling import Ruling

if TYPE_CHECKING:
    from dealer.audit.meters import MeterLink, MeterRange
    from dealer.audit.storage import Storage
    from dealer.games.paigow.bonus import Meters
    from dealer.games.paigow.pay import Wager
    from dealer.games.paigow.profile import Profile
    from dealer.games.paigow.round_input import SeatWagers


def ruling_profile(desk: Desk, house: HouseRules, log: Storage | None) -> tuple[Desk, Profile]:
    """The desk to record at and the profile a ruling is made under: at a table assigned a
    profile (read from `log`, the desk's log the ruling holds open: `assignments.table_log`),
    the assigned one, else `house`'s; `--rule` changes, a `--house-way` other than the
    profile's, and another `--profile` than the one assigned go through
    `rule_changes.changed_profile` (loaded only then: a ruling without changes never loads
    it), whose desk carries their approver."""
    from dealer.desk.assignments import assigned

    found = None if log is None else assigned(log, desk.table)
    profile = house.load() if found is None else found.ruling(house)
    if not profile.overrides:
        return desk, profile
    from dealer.desk import rule_changes

    table = house._replace(rules=(), house_way=None).load() if found is None else found.profile
    return rule_changes.changed_profile(desk, house, table, profile)


def rank(desk: Desk, house: HouseRules, cards: str) -> Recorded:
    """Rank a five-card (high) or two-card (low) hand."""
    with table_log(desk) as log:
        desk, profile = ruling_profile(desk, house, log)
        return record_one(desk, rulings.rank_ruling(cards, profile), log)


def compare(desk: Desk, house: HouseRules, first: str, second: str) -> Recorded:
    """Compare two hands of the same size; a copy has no winner."""
    with table_log(desk) as log:
        desk, profile = ruling_profile(desk, house, log)
        return record_one(desk, rulings.compare_ruling(first, second, profile), log)


def compare_line(desk: Desk, house: HouseRules, line: str) -> Recorded:
    """Compare the two hands of a batch line `A | B`."""
    first, second = rulings.batch_line_cards(line)
    return compare(desk, house, first, second)


def set_hand(desk: Desk, house: HouseRules, cards: str, house_way: str | None) -> Recorded:
    """Set seven cards by the House Way (the table's, or the one named: a rule change where it
    is another)."""
    with table_log(desk) as log:
        desk, profile = ruling_profile(desk, house._replace(house_way=house_way), log)
        return record_one(desk, rulings.set_ruling(cards, profile), log)


def bonus(desk: Desk, house: HouseRules, cards: str) -> Recorded:
    """The seven-card bonus events of a hand and the row of each posted pay table."""
    with table_log(desk) as log:
        desk, profile = ruling_profile(desk, house, log)
        return record_one(desk, rulings.bonus_ruling(cards, profile), log)


def wagers() -> tuple[Wager, ...]:
    """Every wager a seat can have: the registry (`dealer.games.paigow.pay.Wager`) the command
    line builds `paigow settle`'s options and the round table's columns from (loaded only
    then)."""
    from dealer.games.paigow.pay import Wager

    return tuple(Wager)


def seat_wagers(amounts: Mapping[Wager, Decimal], on_dealer: Iterable[Wager]) -> SeatWagers:
    """One seat's wagers as typed: each amount already read (`dealer.inputs.money`), and the
    wagers declared on the dealer's hand; checked against the profile when settled."""
    from dealer.games.paigow.round_input import SeatWagers

    return SeatWagers(MappingProxyType(dict(amounts)), frozenset(on_dealer))


def settle(
    desk: Desk,
    house: HouseRules,
    dealer: str,
    wagers: SeatWagers,
    *,
    player: str | None = None,
    high: str | None = None,
    low: str | None = None,
    seat: int = 1,
    house_way: str | None = None,
    patron: str | None = None,
) -> Recorded:
    """Settle one seat against the dealer: its `wagers` (the base and any bonus wagers), the
    table's progressive meters moved in the same transaction. The player's seven cards are set
    by the House Way (`player`; the table's, or `house_way`: a rule change where it is
    another), or the player set `high` and `low`; `patron` is the player's patron id, kept
    with the ruling. A progressive wager is paid from the meters of the table named (refused
    when none is); a settle without one at no table named is ruled from the meters' seeds,
    which it never moves, and recorded with no table."""
    from dealer.games.paigow import seat_rulings
    from dealer.games.paigow.pay import PROGRESSIVES

    progressive = [w for w in PROGRESSIVES if wagers.amount(w)]
    if progressive:
        metered_table(desk, f"a {progressive[0].words} wager is paid")
    with table_log(desk) as log:
        desk, profile = ruling_profile(desk, house._replace(house_way=house_way), log)

        def rule(meters: Meters) -> tuple[Ruling, Meters]:
            return seat_rulings.settle_ruling(
                dealer,
                wagers,
                profile,
                meters,
                player=player,
                high=high,
                low=low,
                seat=seat,
                patron=patron,
            )

        if not desk.table:
            from dealer.games.paigow.table_round import starting_meters

            return record_one(desk, rule(starting_meters({}, profile, desk.table))[0], log)
        return _with_meters(desk, profile, rule, log)


def play_round(desk: Desk, house: HouseRules, text: str, origin: str) -> Recorded:
    """Settle a whole table round from a round file's text: every seat's wagers, Envy, the
    progressives. A table named in the file is the table it is recorded at, and ruled under
    that table's assignment."""
    from dealer.games.paigow import seat_rulings

    raw = seat_rulings.read_round_text(text, origin)
    table = raw.get("table") if isinstance(raw, dict) else None
    at = desk._replace(table=table) if isinstance(table, str) else desk
    with table_log(at) as log:
        return record_round(*ruling_profile(at, house, log), raw, text, log)


def demo(desk: Desk, house: HouseRules, seed: int) -> Recorded:
    """Deal, set and settle a random round of six seats with sample wagers (the same seed deals
    the same round; only the wagers the table offers) at the desk's table (the CLI's is always
    `context.DEMO_TABLE`). A profile that links a meter is refused: the demo never moves a real
    table's meters, nor a link shared by real tables."""
    from dealer.games.paigow.demo import deal_demo_round

    profile = house.load()
    for name, meter in profile.meters.items():
        if meter.link is not None:
            raise DealerError(
                f"the demo deals at its own table with its own meters, and profile "
                f"{profile.source} links {name} to {meter.link}: deal the demo without it"
            )
    raw = deal_demo_round(seed, desk.table, profile)
    return record_round(desk, profile, raw, f"dealer demo --seed {seed}")


def record_round(
    desk: Desk, profile: Profile, raw: Any, typed: str, log: Storage | None = None
) -> Recorded:
    """Rule and record one round as a round file states it (a file, the demo, a round of the
    live table): the table's meters read, the round ruled, the ruling and the meter moves
    written in one transaction (into `log` when the ruling holds it open). The table is the one
    the round names, else the desk's (which the ruling then names as the round's); a round at
    no table named is refused."""
    from dealer.games.paigow import seat_rulings

    table = raw.get("table") if isinstance(raw, dict) else None
    if table is not None:
        desk = desk._replace(table=str(table))
    metered_table(desk, "a round settles", ", or table: in the round file")
    if table is None and isinstance(raw, dict):
        raw = {**raw, "table": desk.table}

    def rule(meters: Meters) -> tuple[Ruling, Meters]:
        return seat_rulings.round_ruling(raw, typed, profile, meters)

    return _with_meters(desk, profile, rule, log)


def _with_meters(
    desk: Desk,
    profile: Profile,
    rule: Callable[[Meters], tuple[Ruling, Meters]],
    log: Storage | None,
) -> Recorded:
    """Rule with the table's progressive meters as stored (each at its seed the first time; a
    meter the profile links, the link's) and record the ruling and the meter moves in one
    transaction (into `log` when the ruling holds it open)."""
    from dealer.desk.recording import record_with_meters
    from dealer.games.paigow.table_round import PROGRESSIVE_METERS, starting_meters

    def ruled(stored: dict[str, Decimal | None]) -> tuple[Ruling, Meters]:
        return rule(starting_meters(stored, profile, desk.table))

    from dealer.desk.ruling_documents import seed_of

    links = {str(name): meter_link(profile, name) for name in PROGRESSIVE_METERS}
    ruling_id, ruling = record_with_meters(desk, links, ruled, seed_of(profile), log)
    return Recorded(ruling, ruling_id)


def meter_ranges(profile: Profile) -> dict[str, MeterRange]:
    """Each meter of the profile: the values it may hold (seed to cap) and the link it names."""
    from dealer.audit.meters import MeterRange

    return {name: MeterRange(m.seed, m.cap, m.link) for name, m in profile.meters.items()}


def meter_link(profile: Profile, name: str) -> MeterLink | None:
    """The link meter `name` of the profile names, with its terms (None: the table's own)."""
    return meter_ranges(profile)[name].linked()
