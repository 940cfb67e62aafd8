"""Pai Gow rulings: typed text in, a `Ruling` out. Pure: no printing, no database."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

import yaml

from dealer.cards import check_distinct, parse_cards
from dealer.documents import load_yaml
from dealer.errors import CardError
from dealer.paigow.bonus import Meters
from dealer.paigow.hands import rank_high, rank_low
from dealer.paigow.house_way import HouseWay, load_house_way, set_hand
from dealer.paigow.round_input import RoundError, read_round
from dealer.paigow.table_round import settle_round
from dealer.profile import Profile
from dealer.ruling import Ruling


def way_of(profile: Profile, override: str | None = None) -> HouseWay:
    """The House Way a ruling uses: the one named on the command, else the profile's."""
    return load_house_way(override or profile.house_way)


def _settings(profile: Profile, way: HouseWay | None = None) -> dict[str, Any]:
    settings = profile.settings()
    if way is not None:
        settings["house_way"] = {"name": way.name, "version": way.version}
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
        "rank",
        text,
        tuple(str(c) for c in cards),
        result,
        tuple(lines),
        _settings(profile),
    )


def compare_ruling(first: str, second: str, profile: Profile) -> Ruling:
    """Compare two hands of the same size: which is higher, or a copy."""
    a = parse_cards(first, (5, 2), "first hand")
    b = parse_cards(second, (len(a),), "second hand")
    check_distinct([("first hand", a), ("second hand", b)])
    rank = (lambda h: rank_high(h, profile.wheel)) if len(a) == 5 else rank_low
    va, vb = rank(a), rank(b)
    winner = 0 if va.key > vb.key else 1 if vb.key > va.key else None
    if winner is None:
        verdict = f"copy: both are {va.description}"
    else:
        win, lose = (va, vb) if winner == 0 else (vb, va)
        verdict = f"hand {winner + 1} wins: {win.description} beats {lose.description}"
    result = {"winner": winner, "hands": [va.to_dict(), vb.to_dict()]}
    cards = tuple(str(c) for c in (*a, *b))
    return Ruling(
        "paigow", "compare", f"{first} | {second}", cards, result, (verdict,), _settings(profile)
    )


def set_ruling(text: str, profile: Profile, house_way: str | None = None) -> Ruling:
    """Set seven cards by the House Way."""
    cards = parse_cards(text, (7,), "seven-card hand")
    way = way_of(profile, house_way)
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
        "paigow", "set", text, tuple(str(c) for c in cards), result, lines, _settings(profile, way)
    )


@dataclass(frozen=True)
class BonusWagers:
    """The optional wagers of one seat on the `settle` command."""

    treasure: Decimal | None = None
    insurance: Decimal | None = None
    insurance_on_dealer: bool = False
    progressive_treasure: Decimal | None = None
    progressive_insurance: Decimal | None = None

    def as_raw(self) -> dict[str, Any]:
        """The wagers as a round file states them."""
        raw: dict[str, Any] = {
            k: str(v)
            for k, v in (
                ("treasure", self.treasure),
                ("insurance", self.insurance),
                ("progressive_treasure", self.progressive_treasure),
                ("progressive_insurance", self.progressive_insurance),
            )
            if v is not None
        }
        if self.insurance_on_dealer:
            raw["insurance_on_dealer"] = True
        return raw


def _round_settings(profile: Profile, way: HouseWay) -> dict[str, Any]:
    settings = _settings(profile, way)
    settings["paytables"] = {
        "insurance": profile.insurance_table,
        "treasure": profile.treasure_table,
        "envy": profile.envy_table,
        "progressive_insurance": profile.progressive_insurance_table,
        "progressive_treasure": profile.progressive_treasure_table,
    }
    return settings


def settle_ruling(
    dealer: str,
    wager: Decimal,
    profile: Profile,
    meters: Meters,
    player: str | None = None,
    high: str | None = None,
    low: str | None = None,
    house_way: str | None = None,
    bonus: BonusWagers | None = None,
    seat: int = 1,
) -> tuple[Ruling, Meters]:
    """Settle one seat against the dealer: the base wager and any bonus wagers. The player's
    seven cards are set by the House Way (`player`), or the player set `high` and `low`.
    Returns the ruling and the progressive meters it leaves."""
    seat_raw: dict[str, Any] = {
        "seat": seat,
        "wagers": {"base": str(wager), **(bonus or BonusWagers()).as_raw()},
    }
    if player is not None:
        seat_raw["cards"] = player
        typed = f"dealer {dealer} | player {player}"
    else:
        if high is None or low is None:
            raise CardError("give the player's seven cards, or both the high and the low hand")
        seat_raw.update(high=high, low=low)
        typed = f"dealer {dealer} | high {high} | low {low}"
    rnd = read_round({"dealer": dealer, "seats": [seat_raw]}, profile)
    way = way_of(profile, house_way)
    outcome = settle_round(rnd, profile, way, meters)
    whole = outcome.to_dict()
    result = {
        **whole["seats"][0],
        "dealer": whole["dealer"],
        "meters": whole["meters"],
        "progressive_hits": whole["progressive_hits"],
    }
    cards = tuple(str(c) for c in (*rnd.dealer, *rnd.seats[0].cards))
    explanation = tuple(outcome.seats[0].base.explanation()) + tuple(outcome.bonuses.explanation())
    ruling = Ruling(
        "paigow", "settle", typed, cards, result, explanation, _round_settings(profile, way), seat
    )
    return ruling, outcome.meters_after


def round_ruling(
    raw: Any, typed: str, profile: Profile, meters: Meters, house_way: str | None = None
) -> tuple[Ruling, Meters]:
    """Settle a whole table round (a round file's content); the ruling and the meters after."""
    rnd = read_round(raw, profile)
    way = way_of(profile, house_way)
    outcome = settle_round(rnd, profile, way, meters)
    cards = tuple(str(c) for c in rnd.dealer) + tuple(
        str(c) for seat in rnd.seats for c in seat.cards
    )
    ruling = Ruling(
        "paigow",
        "round",
        typed,
        cards,
        outcome.to_dict(),
        tuple(outcome.explanation()),
        _round_settings(profile, way),
    )
    return ruling, outcome.meters_after


def read_round_text(text: str, origin: str) -> Any:
    """A round file's content (YAML or JSON)."""
    try:
        return load_yaml(text)
    except yaml.YAMLError as exc:
        raise RoundError([f"{origin} is not valid YAML or JSON: {exc}"]) from None


def batch_line_cards(line: str) -> Sequence[str]:
    """Split a batch line `A | B` into its hands (for compare)."""
    parts = [p.strip() for p in line.split("|")]
    if len(parts) != 2 or not all(parts):
        raise CardError("a compare line holds two hands separated by '|'")
    return parts
