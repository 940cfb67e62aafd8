"""Five-card (high) and two-card (low) hand ranks of Pai Gow Poker with the joker as the bug.

A hand's value is a tuple `key` that compares the way the hands compare: the category first,
then the tie-break ranks. Straights carry a doubled top-card value so that the wheel
(A-2-3-4-5) can rank second-highest (27, between A-K-Q-J-T at 28 and K-Q-J-T-9 at 26) or
lowest (10), as the table's `wheel` setting says.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import IntEnum

from dealer.kernel.cards import ACE, RANK_NAMES, RANK_PLURALS, Card, rank_text
from dealer.kernel.errors import CardError
from dealer.kernel.tuples import NamedTuple

WHEEL_SETTINGS = ("second-highest", "lowest")


class Category(IntEnum):
    """Five-card categories, low to high."""

    HIGH_CARD = 0
    ONE_PAIR = 1
    TWO_PAIR = 2
    THREE_OF_A_KIND = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    FOUR_OF_A_KIND = 7
    STRAIGHT_FLUSH = 8
    ROYAL_FLUSH = 9
    FIVE_ACES = 10

    @property
    def label(self) -> str:
        """The kebab-case name used in JSON: `full-house`."""
        return self.name.lower().replace("_", "-")


MADE_BY_STRAIGHT_OR_FLUSH = frozenset(
    {Category.STRAIGHT, Category.FLUSH, Category.STRAIGHT_FLUSH, Category.ROYAL_FLUSH}
)
Key = tuple[int, ...]


def straight_value(top: int, wheel_second: bool) -> int:
    """The doubled comparison value of a straight by its top card (5 for the wheel)."""
    if top == 5:
        return 27 if wheel_second else 10
    return top * 2


_WINDOWS: tuple[tuple[int, frozenset[int]], ...] = tuple(
    (top, frozenset(range(top - 4, top + 1)) if top > 5 else frozenset({14, 2, 3, 4, 5}))
    for top in range(14, 4, -1)
)


def _natural_key(ranks: list[int], suits: list[int], wheel_second: bool) -> Key:
    """Key of five natural cards (ranks sorted high to low)."""
    counts: dict[int, int] = {}
    for r in ranks:
        counts[r] = counts.get(r, 0) + 1
    flush = suits.count(suits[0]) == 5
    if len(counts) == 5:
        top = 0
        if ranks[0] - ranks[4] == 4:
            top = ranks[0]
        elif ranks == [14, 5, 4, 3, 2]:
            top = 5
        if top:
            sv = straight_value(top, wheel_second)
            if flush:
                return (Category.ROYAL_FLUSH if top == 14 else Category.STRAIGHT_FLUSH, sv)
            return (Category.STRAIGHT, sv)
        if flush:
            return (Category.FLUSH, *ranks)
        return (Category.HIGH_CARD, *ranks)
    groups = sorted(counts.items(), key=lambda rc: (rc[1], rc[0]), reverse=True)
    shape = [c for _, c in groups]
    order = [r for r, _ in groups]
    if shape[0] == 4:
        return (Category.FOUR_OF_A_KIND, *order)
    if shape[0] == 3:
        return (Category.FULL_HOUSE if shape[1] == 2 else Category.THREE_OF_A_KIND, *order)
    if flush:
        return (Category.FLUSH, *ranks)
    if shape[1] == 2:
        return (Category.TWO_PAIR, *order)
    return (Category.ONE_PAIR, *order)


def _joker_key(others: Sequence[Card], wheel_second: bool) -> tuple[Key, int]:
    """Best key of four natural cards plus the joker, and the rank the joker plays as."""
    ranks = sorted((c.rank for c in others), reverse=True)
    if ranks.count(ACE) == 4:
        return (Category.FIVE_ACES,), ACE
    # The joker as an ace (no suit of its own, so no flush this way).
    best = _natural_key(sorted([*ranks, ACE], reverse=True), [0, 1, 2, 3, 4], wheel_second)
    joker_rank = ACE
    rank_set = set(ranks)
    suited = len({c.suit for c in others}) == 1
    if suited:
        missing = next(r for r in range(14, 1, -1) if r not in rank_set)
        flush_key: Key = (Category.FLUSH, *sorted([*ranks, missing], reverse=True))
        if flush_key > best:
            best, joker_rank = flush_key, missing
    if len(rank_set) == 4:
        for top, window in _WINDOWS:
            if rank_set <= window:
                sv = straight_value(top, wheel_second)
                if suited:
                    cat = Category.ROYAL_FLUSH if top == 14 else Category.STRAIGHT_FLUSH
                    cand: Key = (cat, sv)
                else:
                    cand = (Category.STRAIGHT, sv)
                if cand > best:
                    best, joker_rank = cand, next(iter(window - rank_set))
    return best, joker_rank


def high_key(cards: Sequence[Card], wheel_second: bool = True) -> Key:
    """Comparison key of a five-card hand (fast path, no explanation)."""
    for i, c in enumerate(cards):
        if c.is_joker:
            return _joker_key([*cards[:i], *cards[i + 1 :]], wheel_second)[0]
    return _natural_key(
        sorted((c.rank for c in cards), reverse=True), [c.suit for c in cards], wheel_second
    )


def low_key(cards: Sequence[Card]) -> Key:
    """Comparison key of a two-card hand: a pair beats any non-pair; then high, then second card.
    The joker is an ace."""
    a, b = cards[0].rank, cards[1].rank
    if a == b:
        return (Category.ONE_PAIR, a)
    return (Category.HIGH_CARD, a, b) if a > b else (Category.HIGH_CARD, b, a)


def is_foul(high: Key, low: Key) -> bool:
    """True when the five-card hand does not outrank the two-card hand.

    The two-card key is compared with the same-length prefix of the five-card key; an equal
    prefix is not a foul (the five-card hand holds more cards)."""
    return high[: len(low)] < low


class HandValue(NamedTuple):
    """A ranked hand: its category, its cards in the order they compare, and its key."""

    category: str
    cards: tuple[Card, ...]
    key: Key
    description: str
    joker_plays_as: str | None = None

    def to_dict(self) -> dict[str, object]:
        """JSON form: `{"category": ..., "cards": [...], "description": ...}`."""
        out: dict[str, object] = {
            "category": self.category,
            "cards": [str(c) for c in self.cards],
            "description": self.description,
        }
        if self.joker_plays_as is not None:
            out["joker_plays_as"] = self.joker_plays_as
        return out


def _rank_word(rank: int) -> str:
    return RANK_NAMES[rank]


def _describe_high(key: Key, played: list[int]) -> str:
    cat = Category(key[0])
    if cat in (Category.STRAIGHT, Category.STRAIGHT_FLUSH):
        top = max(played) if sorted(played) != [2, 3, 4, 5, 14] else 5
        label = "straight" if cat == Category.STRAIGHT else "straight flush"
        if top == 5:
            return f"{label}, five high (the wheel A-2-3-4-5)"
        return f"{label}, {_rank_word(top)} high"
    if cat == Category.ROYAL_FLUSH:
        return "royal flush"
    if cat == Category.FIVE_ACES:
        return "five aces"
    if cat == Category.FOUR_OF_A_KIND:
        return f"four {RANK_PLURALS[key[1]]}, {_rank_word(key[2])} kicker"
    if cat == Category.FULL_HOUSE:
        return f"full house, {RANK_PLURALS[key[1]]} over {RANK_PLURALS[key[2]]}"
    if cat == Category.FLUSH:
        return f"flush, {'-'.join(rank_text(r) for r in key[1:])}"
    if cat == Category.THREE_OF_A_KIND:
        return f"three {RANK_PLURALS[key[1]]}, {rank_text(key[2])}-{rank_text(key[3])} kickers"
    if cat == Category.TWO_PAIR:
        return (
            f"two pair, {RANK_PLURALS[key[1]]} and {RANK_PLURALS[key[2]]}, "
            f"{_rank_word(key[3])} kicker"
        )
    if cat == Category.ONE_PAIR:
        kick = "-".join(rank_text(r) for r in key[2:])
        return f"pair of {RANK_PLURALS[key[1]]}, {kick} kickers"
    return f"{_rank_word(key[1])} high, {'-'.join(rank_text(r) for r in key[1:])}"


def _check_size(cards: Sequence[Card], n: int, what: str) -> None:
    if len(cards) != n:
        raise CardError(f"wrong number of cards for the {what}: expected {n}, got {len(cards)}")
    if len(set(cards)) != n:
        raise CardError(f"duplicate card in the {what}")


def rank_high(cards: Sequence[Card], wheel: str = "second-highest") -> HandValue:
    """Rank a five-card hand, with its cards ordered the way they compare."""
    _check_size(cards, 5, "five-card hand")
    wheel_second = wheel == "second-highest"
    naturals = [c for c in cards if not c.is_joker]
    joker_rank: int | None = None
    if len(naturals) == 4:
        key, joker_rank = _joker_key(naturals, wheel_second)
    else:
        key = high_key(cards, wheel_second)
    played = {c: (joker_rank if c.is_joker and joker_rank else c.rank) for c in cards}
    counts: dict[int, int] = {}
    for r in played.values():
        counts[r] = counts.get(r, 0) + 1
    cat = Category(key[0])
    if cat in (Category.STRAIGHT, Category.STRAIGHT_FLUSH, Category.ROYAL_FLUSH) and key[1] in (
        27,
        10,
    ):
        order = sorted(cards, key=lambda c: (played[c] % 14, c.suit), reverse=True)
    else:
        order = sorted(cards, key=lambda c: (counts[played[c]], played[c], c.suit), reverse=True)
    plays_as = None
    if joker_rank is not None:
        article = "an" if joker_rank in (8, ACE) else "a"
        suited = cat in (Category.FLUSH, Category.STRAIGHT_FLUSH, Category.ROYAL_FLUSH)
        plays_as = f"{article} {_rank_word(joker_rank)}" + (" of the flush suit" if suited else "")
    description = _describe_high(key, list(played.values()))
    return HandValue(cat.label, tuple(order), key, description, plays_as)


def rank_low(cards: Sequence[Card]) -> HandValue:
    """Rank a two-card hand (the joker is an ace)."""
    _check_size(cards, 2, "two-card hand")
    key = low_key(cards)
    order = tuple(sorted(cards, reverse=True))
    if key[0] == Category.ONE_PAIR:
        return HandValue("pair", order, key, f"pair of {RANK_PLURALS[key[1]]}")
    return HandValue("high-card", order, key, f"{_rank_word(key[1])}-{_rank_word(key[2])}")


def pai_gow_high(cards: Sequence[Card]) -> int | None:
    """If the cards are a pai gow (no pair, no straight, no flush, the joker an ace that may
    complete a straight or flush), the rank of the highest card (14 with the joker); else None."""
    ranks = [c.rank for c in cards]
    if len(set(ranks)) != len(ranks) or has_straight_or_flush(cards):
        return None
    return max(ranks)


def has_straight_or_flush(cards: Sequence[Card]) -> bool:
    """True when some five of the cards make a straight or a flush (the joker may complete one)."""
    has_joker = False
    suit_counts = [0, 0, 0, 0]
    rank_set = set()
    for c in cards:
        if c.is_joker:
            has_joker = True
        else:
            suit_counts[c.suit] += 1
            rank_set.add(c.rank)
    if max(suit_counts) + has_joker >= 5:
        return True
    return any(len(window - rank_set) <= has_joker for _, window in _WINDOWS)
