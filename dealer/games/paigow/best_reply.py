"""The best reply to the exposed dealer hand: the best outcome any legal setting of a player's
seven cards reaches against the dealer's setting, and the net it and the House Way's setting
would have had. Pure, and light: a settle loads it only for a hand the player set themselves.

Every legal split of the 21 is tried, and a win beats a push beats a loss. The ordering win >
push > loss is the same under every `dealer_pai_gow` option (a half-paid win still beats a push,
and a pushing dealer pai gow pushes every legal setting), so one best reply serves all three
options. A copy goes to the dealer. The house-edge simulation (`dealer.analysis.house_edge`)
deals its rounds through the same functions; a settle records their nets in the ruling
(`ReplyNets`), so what a patron's own setting cost is a fact of the ruling, never computed
again from the cards.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from operator import itemgetter

from dealer.games.paigow.house_way import SPLITS, HouseWay, Setting, set_hand
from dealer.games.paigow.profile import CHOICES
from dealer.games.paigow.ranking import Key, high_key, low_key, pai_gow_high
from dealer.kernel.cards import JOKER_SUIT, Card
from dealer.kernel.errors import DealerError
from dealer.kernel.money import fmt_money
from dealer.kernel.tuples import NamedTuple

PAI_GOW_CLASSES = ("none", "ace-high", "king-high-or-less")
"""The dealer's hand: no pai gow, an ace-high pai gow, a king-high or lower pai gow."""
DEALER_PAI_GOW_OPTIONS: tuple[str, ...] = CHOICES["dealer_pai_gow"]
"""The table settings for a dealer pai gow (RULINGS §1.3)."""


def net_halves(option: str, outcome: int, pai_gow: int) -> int:
    """The net of a one-unit base wager, in half units, under a `dealer_pai_gow` option, for a
    hand outcome (how many of the player's hands beat the dealer's: 0 lose, 1 push, 2 win)
    against a dealer pai gow class (index into PAI_GOW_CLASSES). RULINGS §1.3."""
    if option not in DEALER_PAI_GOW_OPTIONS:
        raise DealerError(
            f"unknown dealer_pai_gow option {option!r}: expected one of "
            f"{', '.join(DEALER_PAI_GOW_OPTIONS)}"
        )
    if option == "push-king-or-less" and pai_gow == 2:
        return 0
    if option == "push-ace-high" and pai_gow == 1:
        return 0
    if outcome == 2:
        return 1 if option == "half-pay" and pai_gow else 2
    return 0 if outcome == 1 else -2


_JOKER_MARK = 15
"""The joker's place in a high-key signature: above the ace, so it sorts first."""
_HIGH_KEYS: dict[tuple[tuple[int, ...], bool, bool], Key] = {}


def _mark(card: Card) -> int:
    return _JOKER_MARK if card.suit == JOKER_SUIT else card.rank


def _suited(cards: Sequence[Card]) -> bool:
    return len({c.suit for c in cards if c.suit != JOKER_SUIT}) == 1


def cached_high_key(cards: Sequence[Card], wheel_second: bool = True) -> Key:
    """`high_key` of five cards, memoised on what it depends on: the ranks high to low (the
    joker marked apart), whether the natural cards share one suit, and the wheel setting."""
    signature = (tuple(sorted(map(_mark, cards), reverse=True)), _suited(cards), wheel_second)
    key = _HIGH_KEYS.get(signature)
    if key is None:
        key = _HIGH_KEYS[signature] = high_key(cards, wheel_second)
    return key


_SPLIT_READERS = tuple((itemgetter(*high), a, b) for high, (a, b) in SPLITS)
"""Per legal split of seven sorted cards: a reader of its five high cards' places, and the
places of its two low cards."""


def pai_gow_class(dealer: Sequence[Card]) -> int:
    """The dealer's seven cards as an index into PAI_GOW_CLASSES."""
    pg = pai_gow_high(dealer)
    return 0 if pg is None else (1 if pg == 14 else 2)


Frontier = tuple[tuple[Key, Key], ...]
"""The legal settings of seven cards that no other legal setting matches or beats in both
hands, as (low key, high key): low keys high to low, so high keys low to high."""


def frontier(cards: Sequence[Card], wheel_second: bool = True) -> Frontier:
    """The frontier of the legal settings of seven cards (each of the 21 splits ranked, its high
    key read off in place: any five of the cards sorted high to low, the joker first, read in
    order are sorted too, so their signature is `cached_high_key`'s)."""
    hand = sorted(cards, key=_mark, reverse=True)
    marks = tuple(map(_mark, hand))
    naturals = [c.suit for c in hand if c.suit != JOKER_SUIT]
    may_be_suited = max(map(naturals.count, set(naturals))) >= 4
    settings = set()
    for high, a, b in _SPLIT_READERS:
        lk = low_key((hand[a], hand[b]))
        signature = (high(marks), may_be_suited and _suited(high(hand)), wheel_second)
        hk = _HIGH_KEYS.get(signature)
        if hk is None:
            hk = _HIGH_KEYS[signature] = high_key(high(hand), wheel_second)
        if hk[: len(lk)] >= lk:  # not a foul
            settings.add((lk, hk))
    kept: list[tuple[Key, Key]] = []
    for lk, hk in sorted(settings, reverse=True):
        if not kept or hk > kept[-1][1]:
            kept.append((lk, hk))
    return tuple(kept)


def reply_outcome(settings: Frontier, dealer_high: Key, dealer_low: Key) -> int:
    """The outcome of the player's best reply to a dealer setting (its high and low keys) from
    the player's frontier: the best outcome of any legal setting, which some setting of the
    frontier reaches."""
    outcome = int(settings[-1][1] > dealer_high)  # the strongest high hand
    for lk, hk in settings:
        if lk <= dealer_low:
            break
        if hk > dealer_high:
            return 2
        outcome = 1
    return outcome


def _outcome_words(net: Decimal) -> str:
    if net > 0:
        return f"win {fmt_money(net)}"
    return "push" if net == 0 else f"lose {fmt_money(-net)}"


class ReplyNets(NamedTuple):
    """What two other settings of a player's seven cards would have netted on the same base
    wager against the same dealer setting, under the same rules: the best setting and the
    House Way's."""

    best: Decimal
    house_way: Decimal

    def shortfall(self) -> str:
        """The explanation's line for a setting played that fell short of the best (the best
        setting wins or pushes: a setting played below it lost or pushed)."""
        best = f"won {fmt_money(self.best)}" if self.best > 0 else "pushed"
        return (
            f"player's own setting: the best setting would have {best} "
            f"(House Way: {_outcome_words(self.house_way)})"
        )


def reply_nets(
    dealer_cards: Sequence[Card],
    dealer: Setting,
    cards: Sequence[Card],
    wager: Decimal,
    way: HouseWay,
    wheel: str,
    dealer_pai_gow: str,
) -> ReplyNets:
    """The nets of the best setting of `cards` (seven) and of the House Way's (by `way`) against
    the dealer's seven `dealer_cards` as set (`dealer`), at `wager`, under the table's `wheel`
    and `dealer_pai_gow` settings: each outcome's net as the settlement pays it (the House
    Way's setting never fouls)."""
    wheel_second = wheel == "second-highest"
    dealer_high, dealer_low = cached_high_key(dealer.high, wheel_second), low_key(dealer.low)
    pai_gow = pai_gow_class(dealer_cards)
    best = reply_outcome(frontier(cards, wheel_second), dealer_high, dealer_low)
    own = set_hand(cards, way)
    house = (cached_high_key(own.high, wheel_second) > dealer_high) + (
        low_key(own.low) > dealer_low
    )
    return ReplyNets(
        Decimal(net_halves(dealer_pai_gow, best, pai_gow)) * wager / 2,
        Decimal(net_halves(dealer_pai_gow, house, pai_gow)) * wager / 2,
    )
