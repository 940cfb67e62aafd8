"""Exact counts of the seven-card bonus events of Emperor's Challenge Exposed (RULINGS §1.5).

Every seven-card hand of a deck (the 53-card Pai Gow deck unless told otherwise) is counted by its
highest bonus event, without dealing the hands one by one. Hands are grouped by their multiset of
ranks and whether they hold the joker: pairs, trips, straights and pai gows depend on the ranks
alone. Seven cards hold at most one suit with a flush (five naturals, or four with the joker), so
the suit assignments of a rank multiset are split by the set of ranks lying in that suit (the
flush set): the flush, straight flush, royal and seven-card events depend only on it, the suited
A-K outside a royal and the one-colour 9-high pai gow are counted in closed form.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations
from math import comb

from dealer.kernel.cards import ACE, KING
from dealer.kernel.errors import DealerError

HAND_SIZE = 7

PAYTABLE_ORDER: tuple[str, ...] = (
    "seven-card-straight-flush",
    "royal-flush-with-suited-ak",
    "seven-card-straight-flush-with-joker",
    "five-aces",
    "royal-flush",
    "straight-flush",
    "four-of-a-kind",
    "full-house",
    "flush",
    "three-of-a-kind",
    "straight",
    "three-pair",
    "ace-high-pai-gow",
    "king-high-pai-gow",
    "queen-high-pai-gow",
    "jack-high-pai-gow",
    "10-high-pai-gow",
    "9-high-pai-gow-one-color",
    "9-high-pai-gow-two-tone",
    "nothing",
)
"""Event ids, highest first, with three of a kind above the straight (the pay tables' order)."""

POKER_ORDER: tuple[str, ...] = tuple(
    "straight" if e == "three-of-a-kind" else "three-of-a-kind" if e == "straight" else e
    for e in PAYTABLE_ORDER
)
"""The same ids with the straight above three of a kind (poker's order)."""

ORDERS: dict[str, tuple[str, ...]] = {"paytable": PAYTABLE_ORDER, "poker": POKER_ORDER}

_TRIPS_AND_STRAIGHT = "trips-and-straight"
"""Internal class for hands whose best events are three of a kind and a straight: the order
decides which one they count as, so one enumeration serves both orders."""

_CLASSES: tuple[str, ...] = (
    PAYTABLE_ORDER[: PAYTABLE_ORDER.index("three-of-a-kind")]
    + (_TRIPS_AND_STRAIGHT,)
    + PAYTABLE_ORDER[PAYTABLE_ORDER.index("three-of-a-kind") :]
)
"""Internal classes, best first (index 0 is the best: a hand takes the minimum index)."""

_CODE = {name: i for i, name in enumerate(_CLASSES)}
_SF7 = _CODE["seven-card-straight-flush"]
_ROYAL_AK = _CODE["royal-flush-with-suited-ak"]
_SF7_JOKER = _CODE["seven-card-straight-flush-with-joker"]
_FIVE_ACES = _CODE["five-aces"]
_ROYAL = _CODE["royal-flush"]
_STRAIGHT_FLUSH = _CODE["straight-flush"]
_QUADS = _CODE["four-of-a-kind"]
_FULL_HOUSE = _CODE["full-house"]
_FLUSH = _CODE["flush"]
_TS = _CODE[_TRIPS_AND_STRAIGHT]
_TRIPS = _CODE["three-of-a-kind"]
_STRAIGHT = _CODE["straight"]
_THREE_PAIR = _CODE["three-pair"]
_NOTHING = _CODE["nothing"]
_NINE_ONE_COLOR = _CODE["9-high-pai-gow-one-color"]
_NINE_TWO_TONE = _CODE["9-high-pai-gow-two-tone"]
_PAI_GOW_BY_HIGH = {
    14: _CODE["ace-high-pai-gow"],
    13: _CODE["king-high-pai-gow"],
    12: _CODE["queen-high-pai-gow"],
    11: _CODE["jack-high-pai-gow"],
    10: _CODE["10-high-pai-gow"],
    9: _NINE_TWO_TONE,
}
"""Pai gow class by highest rank; 9-high hands start as two-tone and the one-colour ones are
moved over. Lower pai gows cannot happen: seven distinct ranks of 2-8 are a straight."""

_BLACK_SUITS = frozenset({0, 3})  # clubs, spades (dealer.kernel.cards suit indices)

# Ranks as bits: rank r (2-14) is bit r - 2, so the ace is bit 12.
_ACE_BIT = 1 << (ACE - 2)
_KING_BIT = 1 << (KING - 2)


def _run_mask(low: int, length: int) -> int:
    """Bits of `length` consecutive ranks from `low` (1 is the ace played low)."""
    return sum(1 << ((ACE if r == 1 else r) - 2) for r in range(low, low + length))


_WINDOWS_5 = tuple(_run_mask(low, 5) for low in range(1, 11))  # A-2-3-4-5 … T-J-Q-K-A
_WINDOWS_7 = tuple(_run_mask(low, 7) for low in range(1, 9))  # A-…-7 … 8-…-A
_ROYAL_MASK = _WINDOWS_5[-1]


@dataclass(frozen=True, slots=True)
class DeckComposition:
    """What a deck to count over holds: some ranks (2-14) in some suits (0-3, c d h s), with or
    without the joker (the cards themselves are a game's `dealer.kernel.cards.Deck`). The full
    Pai Gow deck is `DeckComposition()`; smaller decks check the method by brute force.
    Straights and flushes are judged on the full rank line, so the joker may stand for a card
    the deck lacks."""

    ranks: tuple[int, ...] = tuple(range(2, 15))
    suits: tuple[int, ...] = (0, 1, 2, 3)
    joker: bool = True

    def __post_init__(self) -> None:
        object.__setattr__(self, "ranks", tuple(self.ranks))
        object.__setattr__(self, "suits", tuple(self.suits))
        if len(set(self.ranks)) != len(self.ranks) or not set(self.ranks) <= set(range(2, 15)):
            raise DealerError(f"deck ranks must be distinct values 2-14, got {self.ranks}")
        if len(set(self.suits)) != len(self.suits) or not set(self.suits) <= {0, 1, 2, 3}:
            raise DealerError(f"deck suits must be distinct values 0-3, got {self.suits}")
        if self.size < HAND_SIZE:
            raise DealerError(f"a deck of {self.size} cards cannot deal a {HAND_SIZE}-card hand")

    @property
    def size(self) -> int:
        """Number of cards in the deck."""
        return len(self.ranks) * len(self.suits) + int(self.joker)

    @property
    def hands(self) -> int:
        """Number of distinct seven-card hands."""
        return comb(self.size, HAND_SIZE)


FULL_DECK = DeckComposition()

Progress = Callable[[int, int], None]


def event_order(order: str = "paytable") -> tuple[str, ...]:
    """The event ids, highest first, for `order` "paytable" or "poker"."""
    try:
        return ORDERS[order]
    except KeyError:
        raise DealerError(
            f"unknown event order {order!r}: expected one of {', '.join(ORDERS)}"
        ) from None


_CACHE: dict[DeckComposition, tuple[int, ...]] = {}


def count_events(order: str = "paytable", progress: Progress | None = None) -> dict[str, int]:
    """Exact number of the 154,143,080 seven-card hands of the 53-card deck whose highest event is
    each id of `event_order(order)` (ids in that order; the counts sum to all hands).

    `progress(done, total)` is called now and then during the first count; the result is
    cached in-process.
    """
    return count_deck_events(FULL_DECK, order, progress)


def count_deck_events(
    deck: DeckComposition, order: str = "paytable", progress: Progress | None = None
) -> dict[str, int]:
    """Exact number of seven-card hands of `deck` whose highest event is each id, as
    `count_events` does for the full deck."""
    ids = event_order(order)
    classes = _CACHE.get(deck)
    if classes is None:
        classes = _count_classes(deck, progress)
        _CACHE[deck] = classes
    elif progress is not None:
        progress(1, 1)
    counts = dict.fromkeys(ids, 0)
    for name, n in zip(_CLASSES, classes, strict=True):
        if name == _TRIPS_AND_STRAIGHT:
            name = "three-of-a-kind" if order == "paytable" else "straight"
        counts[name] += n
    return counts


def clear_cache() -> None:
    """Forget the counts cached by `count_events` and `count_deck_events` (for benchmarks)."""
    _CACHE.clear()


def _suit_class(flush_set: int, joker: int) -> int:
    """Best flush-family class of a suit holding the ranks `flush_set` (enough for a flush)."""
    need = 5 - joker
    if not joker and any(flush_set == w for w in _WINDOWS_7):
        return _SF7
    if joker and flush_set.bit_count() == 6 and any(flush_set & w == flush_set for w in _WINDOWS_7):
        return _SF7_JOKER
    if (flush_set & _ROYAL_MASK).bit_count() >= need:
        return _ROYAL
    if any((flush_set & w).bit_count() >= need for w in _WINDOWS_5):
        return _STRAIGHT_FLUSH
    return _FLUSH


def _has_straight(ranks: int, joker: int) -> bool:
    """Whether ranks `ranks` (bits), with the joker filling one gap if held, hold a straight."""
    need = 5 - joker
    return any((ranks & w).bit_count() >= need for w in _WINDOWS_5)


def _rank_class(counts: Sequence[tuple[int, int]], ranks: int, joker: int) -> int:
    """Class of a hand from its ranks alone: `counts` are (rank bit, count) pairs, `ranks` their
    bits; the joker counts as an ace (or fills a straight)."""
    aces = joker + sum(c for bit, c in counts if bit == _ACE_BIT)
    effective = [c for bit, c in counts if bit != _ACE_BIT] + [aces]
    top = max(effective)
    pairs = sum(1 for c in effective if c >= 2)
    if top == 5:
        return _FIVE_ACES
    if top == 4:
        return _QUADS
    if top == 3:
        if pairs >= 2:
            return _FULL_HOUSE
        return _TS if _has_straight(ranks, joker) else _TRIPS
    if _has_straight(ranks, joker):
        return _STRAIGHT
    if pairs >= 3:
        return _THREE_PAIR
    if pairs:
        return _NOTHING
    return _PAI_GOW_BY_HIGH[ACE if joker else ranks.bit_length() + 1]


def _multisets(rank_bits: Sequence[int], suits: int, cards: int) -> Iterator[list[tuple[int, int]]]:
    """Every multiset of `cards` ranks from `rank_bits`, each rank at most `suits` times, as
    (rank bit, count) pairs of the ranks present."""
    if cards == 0:
        yield []
        return
    if not rank_bits:
        return
    bit, rest = rank_bits[0], rank_bits[1:]
    for c in range(min(suits, cards), -1, -1):
        for tail in _multisets(rest, suits, cards - c):
            yield [(bit, c), *tail] if c else tail


def _flush_sets(
    counts: Sequence[tuple[int, int]], need: int, others: int
) -> Iterator[tuple[int, int, int, int]]:
    """Each way one given suit can hold a flush (at least `need` cards) within a rank multiset:
    (rank bits of the ranks in that suit, number of ways to place the remaining cards in the
    `others` other suits, number of those remaining cards that are aces, and that are kings)."""
    k = len(counts)
    for size in range(need, k + 1):
        for chosen in combinations(range(k), size):
            ways = 1
            flush_set = 0
            outside = {_ACE_BIT: 0, _KING_BIT: 0}
            for i, (bit, c) in enumerate(counts):
                if i in chosen:
                    flush_set |= bit
                    c -= 1
                ways *= comb(others, c)
                if bit in outside:
                    outside[bit] = c
            if ways:
                yield flush_set, ways, outside[_ACE_BIT], outside[_KING_BIT]


def _one_color_without_flush(counts: Sequence[tuple[int, int]], deck: DeckComposition) -> int:
    """Suit assignments of a jokerless rank multiset using suits of one colour only, no flush."""
    total = 0
    for color in (_BLACK_SUITS, frozenset({1, 2})):
        g = sum(1 for s in deck.suits if s in color)
        if not g:
            continue
        ways = 1
        for _, c in counts:
            ways *= comb(g, c)
        flushes = sum(f[1] for f in _flush_sets(counts, 5, g - 1))
        total += ways - g * flushes
    return total


def _count_classes(deck: DeckComposition, progress: Progress | None) -> tuple[int, ...]:
    """Number of hands of `deck` in each internal class (index as `_CLASSES`)."""
    n_suits = len(deck.suits)
    others = n_suits - 1
    rank_bits = [1 << (r - 2) for r in sorted(deck.ranks)]
    jokers = (0, 1) if deck.joker else (0,)
    groups = [(j, list(_multisets(rank_bits, n_suits, HAND_SIZE - j))) for j in jokers]
    total = sum(len(g) for _, g in groups)
    done = 0
    tally = [0] * len(_CLASSES)
    suit_class_cache: dict[tuple[int, int], int] = {}
    for joker, multisets in groups:
        need = 5 - joker
        for counts in multisets:
            ranks = 0
            hands = 1
            for bit, c in counts:
                ranks |= bit
                hands *= comb(n_suits, c)
            base = _rank_class(counts, ranks, joker)
            tally[base] += hands
            if len(counts) >= need:
                for flush_set, ways, aces, kings in _flush_sets(counts, need, others):
                    key = (flush_set, joker)
                    suited = suit_class_cache.get(key)
                    if suited is None:
                        suited = suit_class_cache[key] = _suit_class(flush_set, joker)
                    ways *= n_suits  # which suit holds the flush
                    tally[base] -= ways
                    if suited == _ROYAL and aces and kings:
                        # the outside A and K share a suit in all but `apart` of `placed` ways
                        placed = comb(others, aces) * comb(others, kings)
                        apart = comb(others, aces) * comb(others - aces, kings)
                        with_ak = ways // placed * (placed - apart)
                        tally[_ROYAL_AK] += with_ak
                        ways -= with_ak
                    tally[min(base, suited)] += ways
            if base == _NINE_TWO_TONE:
                one_color = _one_color_without_flush(counts, deck)
                tally[_NINE_TWO_TONE] -= one_color
                tally[_NINE_ONE_COLOR] += one_color
            done += 1
            if progress is not None and (done % 4096 == 0 or done == total):
                progress(done, total)
    return tuple(tally)
