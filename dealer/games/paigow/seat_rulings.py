"""Pai Gow rulings on whole seats and rounds: base and bonus wagers, Envy, progressive meters.
Pure: the meters come in and go out as values. (Kept apart from `rulings` so that ranking and
setting a hand never load the bonus machinery.)"""

from __future__ import annotations

from collections.abc import Sequence
from types import MappingProxyType
from typing import Any

from dealer.games.paigow.bonus import Meters
from dealer.games.paigow.house_way import HouseWay
from dealer.games.paigow.pay import BONUSES, Wager
from dealer.games.paigow.paytables import shipped_paytables
from dealer.games.paigow.profile import Profile
from dealer.games.paigow.round_input import RoundError, SeatWagers, read_round
from dealer.games.paigow.rulings import settings_of, way_of
from dealer.games.paigow.table_round import RoundResult, settle_round
from dealer.inputs import document
from dealer.kernel.errors import CardError
from dealer.kernel.money import fmt_money, money_json
from dealer.kernel.ruling import Ruling, RulingAction


def round_settings(profile: Profile, way: HouseWay) -> dict[str, Any]:
    """The settings of a seat or round: the posted pay tables' ids, and the SHA-256 of the file
    each offered wager's table was read from (`posted_digests`)."""
    settings = settings_of(profile, way)
    settings["paytables"] = {w.value: profile.table_id(w) for w in BONUSES}
    settings["paytables_sha256"] = posted_digests(profile)
    return settings


def posted_digests(profile: Profile) -> dict[str, str]:
    """The SHA-256 of the file each offered wager's posted table was read from, by the table's
    id (its content, as `profile_sha256` is the profile's)."""
    library = shipped_paytables()
    return {
        profile.table_id(w): library.get(profile.table_id(w), w).sha256
        for w in BONUSES
        if profile.offers(w)
    }


def _signoff(outcome: RoundResult, profile: Profile) -> tuple[dict[str, Any], tuple[str, ...]]:
    """The sign-off a ruling needs: each seat whose net win (its `total_net`, base and bonuses
    together) is more than the profile's `signoff_over`, as `signoff_required` for the result
    and one line each for the explanation; nothing when no seat is over.

    Per seat, not per round: the line is on what one patron is paid at once, and a round's
    total mixes patrons (one seat's loss would hide another's large win)."""
    limit = profile.signoff_over
    over = [s for s in outcome.seats if s.total_net > limit]
    if not over:
        return {}, ()
    required = {"over": money_json(limit), "seats": [s.seat for s in over]}
    lines = tuple(
        f"seat {s.seat} wins {fmt_money(s.total_net, signed=True)}, more than "
        f"{fmt_money(limit)}: the pay awaits a supervisor's sign-off"
        for s in over
    )
    return {"signoff_required": required}, lines


def settle_ruling(
    dealer: str,
    wagers: SeatWagers,
    profile: Profile,
    meters: Meters,
    player: str | None = None,
    high: str | None = None,
    low: str | None = None,
    seat: int = 1,
    patron: str | None = None,
    others: Sequence[tuple[int, str]] = (),
) -> tuple[Ruling, Meters]:
    """Settle one seat against the dealer: its `wagers`, the base and any bonus wagers (checked
    against the profile here, as a round file's seat is). The player's seven cards are set by
    the House Way (`player`), or the player set `high` and `low`; the player's `patron` id, if
    given, is kept in the result. Returns the ruling and the progressive meters it leaves.

    `others` are the other seats at the table (each its number and seven cards, set by the
    House Way, the table's smallest base wager placed): the hands the seat's Envy is paid on.
    The whole table is settled as a round is, and the ruling is the seat's, its result naming
    each other seat's setting (`others`); the other seats' own rulings are not in it."""
    seat_raw: dict[str, Any] = {"seat": seat, "wagers": wagers}
    if patron is not None:
        seat_raw["patron"] = patron
    if player is not None:
        seat_raw["cards"] = player
        typed = f"dealer {dealer} | player {player}"
    else:
        if high is None or low is None:
            raise CardError("give the player's seven cards, or both the high and the low hand")
        seat_raw.update(high=high, low=low)
        typed = f"dealer {dealer} | high {high} | low {low}"
    smallest = SeatWagers(MappingProxyType({Wager.BASE: profile.limits[Wager.BASE].min}))
    table = [{"seat": n, "cards": held, "wagers": smallest} for n, held in others]
    typed += "".join(f" | seat {n} {held}" for n, held in others)
    rnd = read_round({"dealer": dealer, "seats": [seat_raw, *table]}, profile)
    way = way_of(profile)
    outcome = settle_round(rnd, profile, way, meters)
    whole = outcome.to_dict()
    at = [s.seat for s in rnd.seats].index(seat)
    result = {
        **whole["seats"][at],
        "dealer": whole["dealer"],
        "meters": whole["meters"],
        "progressive_hits": whole["progressive_hits"],
    }
    if others:
        result["others"] = [
            {"seat": s["seat"], **{h: s["base"]["player"][h]["cards"] for h in ("high", "low")}}
            for s in whole["seats"]
            if s["seat"] != seat
        ]
    cards = tuple(str(c) for c in (*rnd.dealer, *(c for s in rnd.seats for c in s.cards)))
    signoff, awaits = _signoff(outcome, profile)
    result.update(signoff)
    explanation = (
        tuple(outcome.seats[at].base.explanation()) + tuple(outcome.bonuses.explanation()) + awaits
    )
    ruling = Ruling(
        "paigow",
        RulingAction.SETTLE,
        typed,
        cards,
        result,
        explanation,
        round_settings(profile, way),
        seat,
    )
    return ruling, outcome.meters_after


def round_ruling(raw: Any, typed: str, profile: Profile, meters: Meters) -> tuple[Ruling, Meters]:
    """Settle a whole table round (a round file's content); the ruling and the meters after."""
    rnd = read_round(raw, profile)
    way = way_of(profile)
    outcome = settle_round(rnd, profile, way, meters)
    cards = tuple(str(c) for c in rnd.dealer) + tuple(
        str(c) for seat in rnd.seats for c in seat.cards
    )
    signoff, awaits = _signoff(outcome, profile)
    ruling = Ruling(
        "paigow",
        RulingAction.ROUND,
        typed,
        cards,
        outcome.to_dict() | signoff,
        (*outcome.explanation(), *awaits),
        round_settings(profile, way),
    )
    return ruling, outcome.meters_after


def read_round_text(text: str, origin: str) -> Any:
    """A round file's content (YAML or JSON): a mapping, or refused naming the file."""
    raw = document(text, f"round file {origin}")
    if not isinstance(raw, dict):
        raise RoundError(
            [
                f"{origin} is not a round: a round file holds a mapping of its table, "
                "dealer and seats"
            ]
        )
    return raw
