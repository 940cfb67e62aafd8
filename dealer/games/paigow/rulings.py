"""Pai Gow rulings: typed text in, a `Ruling` out. Pure: no printing, no database."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from dealer.games.paigow.deck import check_distinct, parse_cards
from dealer.games.paigow.house_way import HouseWay, load_house_way, set_hand
from dealer.games.paigow.profile import Profile
from dealer.games.paigow.ranking import rank_high, rank_low
from dealer.kernel.errors import CardError
from dealer.kernel.ruling import Ruling, RulingAction


def way_of(profile: Profile) -> HouseWay:
    """The House Way a ruling uses: the profile's (a `--house-way` other than the profile's own
    is one of its rule changes, `load_profile`)."""
    return load_house_way(profile.house_way)


def settings_of(profile: Profile, way: HouseWay | None = None) -> dict[str, Any]:
    """The settings a ruling records: the profile's, with the House Way it set a hand by (its
    name and version, where it was read from and the SHA-256 of its text)."""
    settings = profile.settings()
    if way is not None:
        settings["house_way"] = {"name": way.name, "version": way.version}
        settings["house_way_source"] = way.origin
        settings["house_way_sha256"] = way.sha256
    return settings


def rank_ruling(text: str, profile: Profile) -> Ruling:
    """Rank a five-card or two-card hand."""
    cards = parse_cards(text, (5, 2), "hand to rank")
    value = rank_high(cards, profile.wheel) if len(cards) == 5 else rank_low(cards)
    result = value.to_dict()
    lines = [f"{len(cards)}-card hand: {value.description}"]
    if value.joker_plays_as:
        lines.append(f"the joker plays as {value.joker_plays_as}")
    return Ruling(
        "paigow",
        RulingAction.RANK,
        text,
        tuple(str(c) for c in cards),
        result,
        tuple(lines),
        settings_of(profile),
    )


def compare_ruling(first: str, second: str, profile: Profile) -> Ruling:
    """Compare two hands of the same size: which is higher, or a copy."""
    from dealer.kernel.comparison import rank_together  # compare's alone

    a = parse_cards(first, (5, 2), "first hand")
    b = parse_cards(second, (len(a),), "second hand")
    check_distinct([("first hand", a), ("second hand", b)])
    rank = (lambda h: rank_high(h, profile.wheel)) if len(a) == 5 else rank_low
    compared = rank_together((rank(a), rank(b)), ("hand 1", "hand 2"))
    best = compared.best
    if compared.tie:
        verdict = f"copy: both are {best.description}"
    else:
        (lose,) = compared.losers()
        winner = compared.names[compared.winners[0]]
        verdict = f"{winner} wins: {best.description} beats {lose.description}"
    result = compared.winner_dict()
    cards = tuple(str(c) for c in (*a, *b))
    return Ruling(
        "paigow",
        RulingAction.COMPARE,
        f"{first} | {second}",
        cards,
        result,
        (verdict,),
        settings_of(profile),
    )


def set_ruling(text: str, profile: Profile) -> Ruling:
    """Set seven cards by the profile's House Way."""
    cards = parse_cards(text, (7,), "seven-card hand")
    way = way_of(profile)
    setting = set_hand(cards, way)
    high, low = rank_high(setting.high, profile.wheel), rank_low(setting.low)
    result = {
        "high": [str(c) for c in high.cards],
        "low": [str(c) for c in low.cards],
        "house_way": {"name": way.name, "version": way.version},
        "rule": setting.rule,
        "clause": setting.clause,
        "high_hand": high.to_dict(),
        "low_hand": low.to_dict(),
    }
    lines = (setting.rule, f"high: {high.description}", f"low: {low.description}")
    return Ruling(
        "paigow",
        RulingAction.SET,
        text,
        tuple(str(c) for c in cards),
        result,
        lines,
        settings_of(profile, way),
    )


def bonus_ruling(text: str, profile: Profile) -> Ruling:
    """The seven-card bonus events of a hand, and the row each of the table's posted pay tables
    would settle it on. A wager the table does not offer has no posted table: it is named as
    not offered and has no entry in `paytable_rows`."""
    from dealer.games.paigow.events import classify
    from dealer.games.paigow.pay import BONUSES
    from dealer.games.paigow.paytables import shipped_paytables

    cards = parse_cards(text, (7,), "seven-card hand")
    events = classify(cards)
    library = shipped_paytables()
    rows: dict[str, Any] = {}
    digests: dict[str, str] = {}
    lines = list(events.explanation())
    for wager in BONUSES:
        if not profile.offers(wager):
            lines.append(f"{wager.words}: not offered at this table")
            continue
        table_id = profile.table_id(wager)
        table = library.get(table_id, wager)
        digests[table_id] = table.sha256
        row = table.row_for(events.events)
        rows[wager.value] = {
            "paytable": table_id,
            "row": row.label if row else None,
            "pays": row.pay.text() if row else None,
        }
        lines.append(
            f"{wager.words} {table_id}: "
            + (f"row {row.label}, pays {row.pay.text()}" if row else "no row: the wager loses")
        )
    result = {**events.to_dict(), "paytable_rows": rows}
    cards_typed = tuple(str(c) for c in cards)
    settings = settings_of(profile) | {"paytables_sha256": digests}
    return Ruling("paigow", RulingAction.BONUS, text, cards_typed, result, tuple(lines), settings)


def batch_line_cards(line: str) -> Sequence[str]:
    """Split a batch line `A | B` into its hands (for compare)."""
    parts = [p.strip() for p in line.split("|")]
    if len(parts) != 2 or not all(parts):
        raise CardError("a compare line holds two hands separated by '|'")
    return parts
