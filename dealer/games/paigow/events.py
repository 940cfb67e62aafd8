"""Seven-card bonus events of Emperor's Challenge Exposed (RULINGS §1.5).

A hand *contains* every event some of its cards make, the joker playing as whatever makes that
event (an ace, or the card that completes a straight or flush): a royal flush is also a straight
flush, a flush and a straight; five aces are also four of a kind. `classify` lists them all,
highest first, with the cards that make each. A pay table pays the first event of that list it
has a row for (a row marked N/A is no row), so "only the highest qualifying hand is paid" and a
hand whose top event a table does not offer falls through to its next event the table does pay.

Order, highest first: the seven-card straight flush without the joker; a royal flush plus a
suited A-K (natural, outside the royal); the seven-card straight flush with the joker; five
aces; royal flush; straight flush; four of a kind; full house; flush; three of a kind; straight
(trips rank above a straight in these tables); three pair; then the pai gows, best (9-high)
first. A 9-high pai gow is also one-colour (all seven cards red, or all black) or two-tone.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from dealer.games.paigow.ranking import pai_gow_high
from dealer.kernel.cards import ACE, KING, RANK_CHARS, Card, by_rank
from dealer.kernel.errors import CardError

SEVEN_CARD_STRAIGHT_FLUSH = "seven-card-straight-flush"
ROYAL_FLUSH_WITH_SUITED_AK = "royal-flush-with-suited-ak"
SEVEN_CARD_STRAIGHT_FLUSH_WITH_JOKER = "seven-card-straight-flush-with-joker"
FIVE_ACES = "five-aces"
ROYAL_FLUSH = "royal-flush"
STRAIGHT_FLUSH = "straight-flush"
FOUR_OF_A_KIND = "four-of-a-kind"
FULL_HOUSE = "full-house"
FLUSH = "flush"
THREE_OF_A_KIND = "three-of-a-kind"
STRAIGHT = "straight"
THREE_PAIR = "three-pair"
NINE_HIGH_ONE_COLOR = "9-high-pai-gow-one-color"
NINE_HIGH_TWO_TONE = "9-high-pai-gow-two-tone"
NINE_HIGH = "9-high-pai-gow"

PAI_GOW_BY_HIGH: Mapping[int, str] = MappingProxyType(
    {
        9: NINE_HIGH,
        10: "10-high-pai-gow",
        11: "jack-high-pai-gow",
        12: "queen-high-pai-gow",
        13: "king-high-pai-gow",
        14: "ace-high-pai-gow",
    }
)
"""Pai gow event by the rank of its highest card. Lower pai gows cannot happen: seven distinct
ranks from 2 to 8 are a straight."""

POKER_EVENTS: tuple[str, ...] = (
    SEVEN_CARD_STRAIGHT_FLUSH,
    ROYAL_FLUSH_WITH_SUITED_AK,
    SEVEN_CARD_STRAIGHT_FLUSH_WITH_JOKER,
    FIVE_ACES,
    ROYAL_FLUSH,
    STRAIGHT_FLUSH,
    FOUR_OF_A_KIND,
    FULL_HOUSE,
    FLUSH,
    THREE_OF_A_KIND,
    STRAIGHT,
    THREE_PAIR,
)
PAI_GOW_EVENTS: tuple[str, ...] = (
    NINE_HIGH_ONE_COLOR,
    NINE_HIGH_TWO_TONE,
    *PAI_GOW_BY_HIGH.values(),
)
EVENT_ORDER: tuple[str, ...] = POKER_EVENTS + PAI_GOW_EVENTS
"""Every event id, highest first."""

LABELS: Mapping[str, str] = MappingProxyType(
    {
        SEVEN_CARD_STRAIGHT_FLUSH: "7-Card Straight Flush, No Joker",
        ROYAL_FLUSH_WITH_SUITED_AK: "5-Card Royal Flush w/ A-K Suited",
        SEVEN_CARD_STRAIGHT_FLUSH_WITH_JOKER: "7-Card Straight Flush w/ Joker",
        FIVE_ACES: "5 Aces",
        ROYAL_FLUSH: "5-Card Royal Flush",
        STRAIGHT_FLUSH: "5-Card Straight Flush",
        FOUR_OF_A_KIND: "Four-of-a-Kind",
        FULL_HOUSE: "Full House",
        FLUSH: "5-Card Flush",
        THREE_OF_A_KIND: "3-of-a-Kind",
        STRAIGHT: "5-Card Straight",
        THREE_PAIR: "3 Pair",
        NINE_HIGH_ONE_COLOR: "9-High one color",
        NINE_HIGH_TWO_TONE: "9-High two-tone",
        NINE_HIGH: "9-High Pai Gow",
        "10-high-pai-gow": "10-High Pai Gow",
        "jack-high-pai-gow": "Jack-High Pai Gow",
        "queen-high-pai-gow": "Queen-High Pai Gow",
        "king-high-pai-gow": "King-High Pai Gow",
        "ace-high-pai-gow": "Ace-High Pai Gow",
    }
)
"""The seed's wording of each event (the default row label of a pay table)."""

TREASURE_EVENTS = POKER_EVENTS
"""Events the Emperor's Treasure tables (Appendix B) name."""
PROGRESSIVE_TREASURE_EVENTS = POKER_EVENTS[: POKER_EVENTS.index(FULL_HOUSE) + 1]
"""Events the Emperor's Treasure Progressive tables (Appendix D) name."""
ENVY_EVENTS = POKER_EVENTS[: POKER_EVENTS.index(FOUR_OF_A_KIND) + 1]
"""Events the Envy Bonus tables (Appendix B) name."""
INSURANCE_EVENTS: tuple[str, ...] = tuple(PAI_GOW_BY_HIGH.values())
"""Events the Pai Gow Insurance tables (Appendix A) name."""
PROGRESSIVE_INSURANCE_EVENTS: tuple[str, ...] = (
    NINE_HIGH_ONE_COLOR,
    NINE_HIGH_TWO_TONE,
    "10-high-pai-gow",
    "jack-high-pai-gow",
    "queen-high-pai-gow",
)
"""Events the Pai Gow Insurance Progressive tables (Appendix C) name."""

_RED_SUITS = frozenset({1, 2})  # diamonds, hearts
_ROYAL_RANKS = frozenset(range(10, 15))


def _window(top: int, length: int) -> frozenset[int]:
    """`length` consecutive ranks ending at `top`; the ace (14) plays low below the 2."""
    return frozenset(ACE if r == 1 else r for r in range(top - length + 1, top + 1))


_WINDOWS_5 = tuple(_window(top, 5) for top in range(14, 4, -1))  # royal … wheel
_WINDOWS_7 = tuple(_window(top, 7) for top in range(14, 6, -1))  # 8-A … A-7


@dataclass(frozen=True, slots=True)
class SevenCardEvents:
    """The bonus events of one seven-card hand, highest first, and the cards making each."""

    cards: tuple[Card, ...]
    events: tuple[str, ...]
    event_cards: Mapping[str, tuple[Card, ...]]
    pai_gow_high: int | None
    one_color: bool

    def highest(self, ladder: Sequence[str]) -> str | None:
        """The hand's highest event among `ladder` (a wager family's events), or None."""
        return next((e for e in self.events if e in ladder), None)

    @property
    def emperors_treasure(self) -> str | None:
        """Highest event of the Emperor's Treasure ladder."""
        return self.highest(TREASURE_EVENTS)

    @property
    def pai_gow_insurance(self) -> str | None:
        """The N-high pai gow, if the hand is one."""
        return self.highest(INSURANCE_EVENTS)

    @property
    def progressive_treasure(self) -> str | None:
        """Highest event of the Emperor's Treasure Progressive ladder."""
        return self.highest(PROGRESSIVE_TREASURE_EVENTS)

    @property
    def progressive_insurance(self) -> str | None:
        """Highest event of the Pai Gow Insurance Progressive ladder."""
        return self.highest(PROGRESSIVE_INSURANCE_EVENTS)

    @property
    def envy(self) -> str | None:
        """Highest event of the Envy Bonus ladder."""
        return self.highest(ENVY_EVENTS)

    def to_dict(self) -> dict[str, Any]:
        """JSON form (`dealer paigow bonus`): the highest event of each wager family, every
        event the hand contains, highest first, and the cards that make each."""
        pai_gow = None
        if self.pai_gow_high is not None:
            pai_gow = {"high": RANK_CHARS[self.pai_gow_high - 2], "one_color": self.one_color}
        return {
            "cards": [str(c) for c in self.cards],
            "emperors_treasure": self.emperors_treasure,
            "pai_gow_insurance": self.pai_gow_insurance,
            "progressive_treasure": self.progressive_treasure,
            "progressive_insurance": self.progressive_insurance,
            "envy": self.envy,
            "events": list(self.events),
            "event_cards": {e: [str(c) for c in self.event_cards[e]] for e in self.events},
            "pai_gow": pai_gow,
        }

    def explanation(self) -> list[str]:
        """One line per event the hand contains, or why it has none."""
        if not self.events:
            return ["no bonus event: no pai gow (a pair), and nothing from three pair up"]
        lines = []
        for event in self.events:
            cards = " ".join(c.symbol() for c in self.event_cards[event])
            lines.append(f"{LABELS[event]}: {cards}")
        if self.pai_gow_high is not None:
            lines.append(
                "pai gow: no pair, no straight, no flush (the joker is an ace and may complete "
                "a straight or flush)"
            )
        return lines


def classify(cards: Sequence[Card]) -> SevenCardEvents:
    """The bonus events of seven cards, in any order; raises `CardError` for a wrong count or
    a repeated card."""
    hand = tuple(cards)
    if len(hand) != 7:
        raise CardError(
            f"wrong number of cards for the seven-card hand: expected 7, got {len(hand)}"
        )
    if len(set(hand)) != 7:
        raise CardError("duplicate card in the seven-card hand")
    return _classify(hand)


def _classify(hand: tuple[Card, ...]) -> SevenCardEvents:
    joker = next((c for c in hand if c.is_joker), None)
    naturals = by_rank(c for c in hand if not c.is_joker)
    by_suit: dict[int, list[Card]] = {}
    by_value: dict[int, list[Card]] = {}
    for c in naturals:
        by_suit.setdefault(c.suit, []).append(c)
        by_value.setdefault(c.rank, []).append(c)
    # The joker as an ace, for pairs, trips, quads and five aces.
    groups = {r: list(cs) for r, cs in by_value.items()}
    if joker is not None:
        groups.setdefault(ACE, []).append(joker)
    found: dict[str, tuple[Card, ...]] = {}

    for suited in by_suit.values():
        _suited_events(suited, joker, found)

    if joker is not None and len(by_value.get(ACE, ())) == 4:
        found[FIVE_ACES] = (*by_value[ACE], joker)
    royal_ak = _royal_with_suited_ak(hand, by_value)
    if royal_ak is not None:
        found[ROYAL_FLUSH_WITH_SUITED_AK] = royal_ak

    most = max(len(cs) for cs in groups.values())
    if most >= 4:
        found[FOUR_OF_A_KIND] = _quad(groups)
    if most >= 3:
        trips_rank = max(r for r, cs in groups.items() if len(cs) >= 3)
        found[THREE_OF_A_KIND] = tuple(groups[trips_rank][:3])
        pairs = [r for r, cs in groups.items() if len(cs) >= 2 and r != trips_rank]
        if pairs:
            found[FULL_HOUSE] = (*groups[trips_rank][:3], *groups[max(pairs)][:2])
    pair_ranks = sorted((r for r, cs in groups.items() if len(cs) >= 2), reverse=True)
    if len(pair_ranks) >= 3:
        found[THREE_PAIR] = tuple(c for r in pair_ranks[:3] for c in groups[r][:2])

    straight = _straight(by_value, joker)
    if straight is not None:
        found[STRAIGHT] = straight

    high = pai_gow_high(hand)
    one_color = False
    if high is not None:
        pai_gow_cards = tuple(by_rank(hand))
        found[PAI_GOW_BY_HIGH[high]] = pai_gow_cards
        if high == 9:
            one_color = len({c.suit in _RED_SUITS for c in hand}) == 1
            found[NINE_HIGH_ONE_COLOR if one_color else NINE_HIGH_TWO_TONE] = pai_gow_cards
    events = tuple(e for e in EVENT_ORDER if e in found)
    return SevenCardEvents(hand, events, MappingProxyType(found), high, one_color)


def _quad(groups: dict[int, list[Card]]) -> tuple[Card, ...]:
    """Four cards of the highest rank held four times (the joker may be the fourth ace)."""
    rank = max(r for r, cs in groups.items() if len(cs) >= 4)
    cards = groups[rank]
    naturals = [c for c in cards if not c.is_joker]
    return tuple(naturals[:4]) if len(naturals) >= 4 else tuple(cards[:4])


def _suited_events(
    suited: list[Card], joker: Card | None, found: dict[str, tuple[Card, ...]]
) -> None:
    """Events made by the cards of one suit (and the joker): seven-card straight flushes,
    royal flush, straight flush, flush. `suited` is sorted high to low."""
    wild = joker is not None
    if len(suited) + wild < 5:
        return
    ranks = {c.rank: c for c in suited}
    rank_set = frozenset(ranks)
    found[FLUSH] = tuple(suited[:5]) if len(suited) >= 5 else (*suited, *([joker] if joker else []))
    if len(suited) == 7 and rank_set in _WINDOWS_7:
        found[SEVEN_CARD_STRAIGHT_FLUSH] = _in_window_order(ranks, None, rank_set)
    elif joker is not None and len(suited) == 6:
        window = next((w for w in _WINDOWS_7 if rank_set <= w), None)
        if window is not None:
            found[SEVEN_CARD_STRAIGHT_FLUSH_WITH_JOKER] = _in_window_order(ranks, joker, window)
    for window in _WINDOWS_5:
        if len(window - rank_set) <= wild:
            straight_flush = _in_window_order(ranks, joker, window)
            found.setdefault(STRAIGHT_FLUSH, straight_flush)
            if window == _ROYAL_RANKS:
                found.setdefault(ROYAL_FLUSH, straight_flush)
            break


def _in_window_order(
    ranks: Mapping[int, Card], joker: Card | None, window: frozenset[int]
) -> tuple[Card, ...]:
    """The cards of a run, top card first, the joker in the place it fills."""
    low_ace = 2 in window and ACE in window
    order = sorted(window, key=lambda r: 1 if (r == ACE and low_ace) else r, reverse=True)
    out = []
    for r in order:
        card = ranks.get(r)
        if card is None:
            assert joker is not None
            card = joker
        out.append(card)
    return tuple(out)


def _straight(by_value: Mapping[int, list[Card]], joker: Card | None) -> tuple[Card, ...] | None:
    """The highest five-card straight (the joker may fill one gap), or None."""
    rank_set = frozenset(by_value)
    wild = joker is not None
    for window in _WINDOWS_5:
        if len(window - rank_set) <= wild:
            return _in_window_order({r: by_value[r][0] for r in window & rank_set}, joker, window)
    return None


def _royal_with_suited_ak(
    hand: tuple[Card, ...], by_value: Mapping[int, list[Card]]
) -> tuple[Card, ...] | None:
    """A royal flush (the joker allowed) whose two other cards are a natural A and K of one
    suit, or None. That A-K is never of the royal's suit: the royal would lack two cards."""
    kings = {c.suit: c for c in by_value.get(KING, ())}
    for ace in by_value.get(ACE, ()):
        king = kings.get(ace.suit)
        if king is None:
            continue
        rest = [c for c in hand if c != ace and c != king]
        naturals = [c for c in rest if not c.is_joker]
        if (
            len({c.suit for c in naturals}) == 1
            and len({c.rank for c in naturals}) == len(naturals)
            and all(c.rank in _ROYAL_RANKS for c in naturals)
        ):
            ranks = {c.rank: c for c in naturals}
            joker = next((c for c in rest if c.is_joker), None)
            return (*_in_window_order(ranks, joker, _ROYAL_RANKS), ace, king)
    return None
