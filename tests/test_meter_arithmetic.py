"""Every meter line adds up: over random rounds with progressive hits (100% pays that reseed,
percentage pays, fixed pays, caps that give back), the ruling's meter line and the meter book's
row of the move it records read start + each named term = end, and end is the meter after."""

from __future__ import annotations

import re
from decimal import Decimal

from hypothesis import given, settings
from hypothesis import strategies as st

from dealer.audit.meters import movement
from dealer.audit.records import Record
from dealer.cli.render import meter_movement
from dealer.games.paigow.bonus import BonusSettings, Meters, settle_bonuses
from dealer.games.paigow.deck import parse_cards
from dealer.games.paigow.pay import Wager
from dealer.games.paigow.profile import Cap
from dealer.games.paigow.round_input import SeatInput, SeatWagers

D = Decimal
DEALER = "2c 3d 4h 6c 7s 8h Jh"  # shares no card with a hand below
HANDS = (
    "As Ks Qs Js Ts 9s 8s",  # 7-card straight flush, no joker: 100% of the meter
    "JK Kd Qd Jd Td 9d 8d",  # 7-card straight flush with the joker: 25%
    "Ac Kc Qc Jc Tc Ah Kh",  # royal flush with A-K suited: 50%
    "JK As Ah Ad Ac 2s 3s",  # five aces: fixed
    "9c 9d 9h 9s 4c 5d 6s",  # four of a kind: fixed
    "Kc Kh Ks 5s 5d 7c 8d",  # full house: fixed
    "Kc Qh 9s 7d 5c 3s 2h",  # nothing
)
MONEY = re.compile(r"\$([0-9,]+(?:\.[0-9]{2})?)")
TERM = re.compile(r"([+−]) [a-z ]+ \$([0-9,]+(?:\.[0-9]{2})?)")


def _amount(text: str) -> Decimal:
    return D(text.replace(",", ""))


def _adds_up(start: Decimal, terms: str, end: Decimal) -> None:
    """`terms` (`+ contributions $0.25 − hit $10,000.25 …`, nothing else) take start to end."""
    found = TERM.findall(terms)
    assert TERM.sub("", terms).strip() == "", terms
    total = start + sum((_amount(a) * (1 if s == "+" else -1) for s, a in found), D(0))
    assert total == end, terms


cents = st.integers(min_value=0, max_value=99).map(lambda c: D(c) / 100)


@st.composite
def rounds(draw: st.DrawFn) -> tuple[list[SeatInput], BonusSettings, Meters]:
    hands = draw(st.lists(st.sampled_from(HANDS), min_size=1, max_size=3))
    cards = [c for h in hands for c in h.split()] + DEALER.split()
    if len(set(cards)) != len(cards):
        hands = hands[:1]
    seats = [
        SeatInput(
            n,
            parse_cards(hand),
            None,
            None,
            SeatWagers({Wager.PROGRESSIVE_TREASURE: D(draw(st.integers(1, 5)))}, frozenset()),
        )
        for n, hand in enumerate(hands, 1)
    ]
    cap = draw(st.none() | st.integers(100, 20_000).map(D))
    caps = {} if cap is None else {"progressive_treasure": Cap(cap, None)}
    treasure = D(draw(st.integers(10_000, 60_000))) + draw(cents)
    return seats, BonusSettings(caps=caps), Meters(progressive_treasure=treasure)


def _line(explanation: list[str]) -> str:
    (line,) = [x for x in explanation if x.startswith("Emperor's Treasure Progressive meter: ")]
    return line.removeprefix("Emperor's Treasure Progressive meter: ").split(" (at its cap")[0]


def _records(ruling: dict[str, object], before: Decimal, after: Decimal) -> tuple[Record, Record]:
    """The ruling's record and the meter move it makes, as the log keeps them."""
    common = dict(
        recorded_at="2026-12-03T08:00:00Z", game="paigow", table_id="PG-1", seat=None,
        user_id="d-1", role="dealer", input_text="", cards=(), explanation=(), settings={},
        reason=None, software_version="0", prev_hash="", hash="",
    )  # fmt: skip
    rule = Record(id=1, kind="ruling", action="round", result=ruling, links_to=None, **common)
    moved = {
        "meter": "progressive_treasure",
        "previous": str(before),
        "value": str(after),
        "delta": str(after - before),
    }
    move = Record(id=2, kind="meter", action="move", result=moved, links_to=1, **common)
    return rule, move


@settings(max_examples=300, deadline=None)
@given(rounds())
def test_every_meter_line_adds_up(round_: tuple[list[SeatInput], BonusSettings, Meters]) -> None:
    seats, bonus_settings, meters = round_
    result = settle_bonuses(seats, parse_cards(DEALER), bonus_settings, meters)
    before = meters.get("progressive_treasure")
    after = result.meters_after.get("progressive_treasure")
    line = _line(result.explanation())
    start, _, rest = line.partition(" ")
    terms, _, end = rest.rpartition(" → ")
    assert _amount(MONEY.fullmatch(start)[1]) == before  # type: ignore[index]
    assert _amount(MONEY.fullmatch(end)[1]) == after  # type: ignore[index]
    _adds_up(before, terms, after)
    assert ("reseed" in terms) == any(r.meter and r.meter.reset for r in result.results)

    rule, move = _records(result.to_dict(), before, after)
    book = meter_movement(movement(move, rule))
    _adds_up(before, book, after)
    assert "held back" not in book  # the remainder: nothing, when every part is read right
