"""Valuing and comparing Burosh hands (seed 000, RULINGS §2): 30 categories, trump, wilds.

The deck is the 52 standard cards plus three wild cards: the Emperor (`EM`), the Magician (`MG`)
and the Hermit (`HM`). The trump suit is an input of every ruling. A hand of 1 to 5 cards scores
the best category any legal assignment of its wild cards gives (every assignment is searched);
cards outside the category are ignored (no kickers).

Values, high to low: the Emperor as itself (15), A (14), K … 2, and the low "1" that an ace (or
the Magician) plays at the bottom of a sequence (A-2-3-4-5). No wrap-around.

Decided where the documents are silent:
* The Emperor breaks a tie only when it is one of the cards that make the category (cards
  outside the category are ignored); an Emperor left outside counts for nothing.
* The Emperor played as an ace is an ace: it may play low in A-2-3-4(-5) of the trump suit.
* The Magician's low "1" is not an ace: it only ends a sequence and never pairs with an ace.
* A copy counts at its value everywhere, so a Hermit copying the A♥ of a heart flush gives
  A-A-… and beats A-K-…, and two K♠ (the K♠ and the Emperor as K♠) are a pair.
* Among equal ways to make the best hand, the engine takes the first in a fixed order (the
  hand's canonical order), so the same cards always get the same ruling.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations, product
from typing import Any

from dealer.games.burosh.deck import BUROSH, SUIT_NAMES, BuroshCard, Wild, check_hand
from dealer.kernel.cards import (
    ACE,
    RANK_CHARS,
    RANK_NAMES,
    RANK_PLURALS,
    SUIT_CHARS,
    SUIT_SYMBOLS,
    Card,
    distinct,
    rank_text,
    symbols,
)
from dealer.kernel.comparison import Comparison, hand_names, rank_together
from dealer.kernel.errors import DealerError

EMPEROR_VALUE = 15
"""The Emperor played as itself: one rank above the ace."""
LOW_ONE = 1
"""The low "1" at the bottom of a sequence (an ace played low, or the Magician)."""
TIE_LINE = "tie: all challenging dice stay"

# --- categories ---------------------------------------------------------------------------------

RUN, GROUP, FLUSH, SINGLE = "run", "group", "flush", "single"


@dataclass(frozen=True, slots=True)
class Category:
    """One row of the seed's ranking table; `position` 1 is the best."""

    position: int
    title: str
    size: int
    kind: str  # run, group, flush or single: how equal categories are broken
    rule: str

    @property
    def name(self) -> str:
        """Lower-case kebab-case: `emperors-court`, `trump-short-straight-flush`."""
        return self.title.lower().replace("'", "").replace(" ", "-")


_TABLE = (
    ("Emperor's Court", 5, RUN, "Emperor, Ace, King, Queen, Jack, all in trump"),
    ("Five of a Kind", 5, GROUP, "any five cards of the same value"),
    ("Imperial Flush", 5, RUN, "Ace, King, Queen, Jack, 10, all in trump"),
    ("Royal Flush", 5, RUN, "Ace, King, Queen, Jack, 10, in one suit"),
    ("Trump Straight Flush", 5, RUN, "any five cards in sequence, all in trump"),
    ("Straight Flush", 5, RUN, "any five cards in sequence, in one suit"),
    ("Trump Four of a Kind", 4, GROUP, "any four cards of the same value, at least one in trump"),
    ("Four of a Kind", 4, GROUP, "any four cards of the same value, no trumps"),
    ("High Bastion", 5, GROUP, "trio and a pair, both in trump"),
    ("Low Bastion", 5, GROUP, "trio and a pair, one in trump"),
    ("Full House", 5, GROUP, "trio and a pair, no trumps"),
    ("Trump Flush", 5, FLUSH, "any five cards, all in trump"),
    ("Flush", 5, FLUSH, "any five cards, in one suit"),
    ("Trump Straight", 5, RUN, "any five cards in sequence, at least one in trump"),
    ("Straight", 5, RUN, "any five cards in sequence, no trumps"),
    ("Trump Three of a Kind", 3, GROUP, "any three cards of the same value, at least one in trump"),
    ("Three of a Kind", 3, GROUP, "any three cards of the same value, no trumps"),
    ("Trump Short Straight Flush", 4, RUN, "any four cards in sequence, all in trump"),
    ("Short Straight Flush", 4, RUN, "any four cards in sequence, in one suit"),
    ("Trump Short Flush", 4, FLUSH, "any four cards, all in trump"),
    ("Short Flush", 4, FLUSH, "any four cards, all in one suit"),
    ("Trump Short Straight", 4, RUN, "any four cards in sequence, at least one in trump"),
    ("Short Straight", 4, RUN, "any four cards in sequence, no trumps"),
    ("High Gate", 4, GROUP, "two pairs, both in trump"),
    ("Low Gate", 4, GROUP, "two pairs, one in trump"),
    ("Two Pair", 4, GROUP, "two pairs, neither in trump"),
    ("Trump Pair", 2, GROUP, "any two cards of the same value, at least one in trump"),
    ("Pair", 2, GROUP, "any two cards of the same value, no trumps"),
    ("Trump", 1, SINGLE, "highest card in trump"),
    ("High Card", 1, SINGLE, "highest card, not in trump"),
)

CATEGORIES: tuple[Category, ...] = tuple(
    Category(position, title, size, kind, rule)
    for position, (title, size, kind, rule) in enumerate(_TABLE, start=1)
)
"""The 30 categories in the seed's order, best first."""
CATEGORY_BY_NAME: dict[str, Category] = {c.name: c for c in CATEGORIES}

# --- cards as played ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, order=True)
class PlayedCard:
    """What a card counts as: `value` 1-15 (1 the low one, 14 the ace, 15 the Emperor itself)
    and `suit` 0-3 (c d h s). The Emperor as itself counts as a trump card."""

    value: int
    suit: int

    def __str__(self) -> str:
        if self.value == EMPEROR_VALUE:
            return "EM"
        if self.value == LOW_ONE:
            return "1" + SUIT_CHARS[self.suit]
        return RANK_CHARS[self.value - 2] + SUIT_CHARS[self.suit]

    def symbol(self) -> str:
        """For people: `K♠`, `10♥`, `1♠` (the low one), `Emperor` (itself)."""
        if self.value == EMPEROR_VALUE:
            return "Emperor"
        return _value_char(self.value) + SUIT_SYMBOLS[self.suit]


def _value_char(value: int) -> str:
    if value == EMPEROR_VALUE:
        return "E"
    if value == LOW_ONE:
        return "1"
    return rank_text(value)


def _value_name(value: int, plural: bool = False) -> str:
    if value == EMPEROR_VALUE:
        return "Emperor"
    if value == LOW_ONE:
        return "ones" if plural else "one"
    return RANK_PLURALS[value] if plural else RANK_NAMES[value]


def wild_options(wild: Wild, trump: int) -> tuple[PlayedCard, ...]:
    """Every card a wild card may be played as under this trump (RULINGS §2).

    Emperor: itself or A, K, Q, J, always of the trump suit. Magician: 10 … 2 or the low 1, of
    the trump suit. Hermit: any card of any non-trump suit (an ace may still play low).
    """
    if wild is Wild.EMPEROR:
        return tuple(PlayedCard(v, trump) for v in (EMPEROR_VALUE, ACE, 13, 12, 11))
    if wild is Wild.MAGICIAN:
        return tuple(PlayedCard(v, trump) for v in (*range(10, 1, -1), LOW_ONE))
    return tuple(
        PlayedCard(v, s) for v in range(ACE, 1, -1) for s in range(3, -1, -1) if s != trump
    )


def _options(card: BuroshCard, trump: int) -> tuple[PlayedCard, ...]:
    if isinstance(card, Wild):
        return wild_options(card, trump)
    return (PlayedCard(card.rank, card.suit),)


def _check_trump(trump: int) -> int:
    if trump not in range(4):
        raise DealerError(f"trump suit must be 0-3 (c d h s), got {trump!r}")
    return trump


# --- classifying one assignment -----------------------------------------------------------------

_Found = tuple[int, tuple[int, ...], tuple[int, ...]]
"""(category position, comparison values, indices of the cards that make it, in display order)"""

_POS = {c.name: c.position for c in CATEGORIES}


def _run(played: Sequence[PlayedCard], idxs: Sequence[int]) -> tuple[int, tuple[int, ...]] | None:
    """(top value, indices top-down) if the cards are in sequence (an ace high or low)."""
    has_ace = any(played[i].value == ACE for i in idxs)
    for low in (False, True) if has_ace else (False,):
        seq = sorted(
            ((LOW_ONE if low and played[i].value == ACE else played[i].value, i) for i in idxs),
            reverse=True,
        )
        if all(a[0] - b[0] == 1 for a, b in zip(seq, seq[1:], strict=False)):
            return seq[0][0], tuple(i for _, i in seq)
    return None


def _high_first(played: Sequence[PlayedCard], idxs: Iterable[int]) -> tuple[int, ...]:
    return tuple(sorted(idxs, key=lambda i: (played[i].value, played[i].suit), reverse=True))


def _short(played: Sequence[PlayedCard], is_trump: Sequence[bool], emperor: int) -> _Found | None:
    """The best four-card sequence/flush category (positions 18-23) among four-card subsets."""
    subsets = []
    for idxs in combinations(range(len(played)), 4):
        trumps = sum(is_trump[i] for i in idxs)
        one_suit = trumps == 0 and len({played[i].suit for i in idxs}) == 1
        subsets.append((idxs, _run(played, idxs), trumps, one_suit))
    rules = (
        ("trump-short-straight-flush", True, lambda t, o: t == 4),
        ("short-straight-flush", True, lambda t, o: o),
        ("trump-short-flush", False, lambda t, o: t == 4),
        ("short-flush", False, lambda t, o: o),
        ("trump-short-straight", True, lambda t, o: t > 0),
        ("short-straight", True, lambda t, o: t == 0),
    )
    for name, needs_run, suits_ok in rules:
        best: tuple[tuple[tuple[int, ...], bool], tuple[int, ...]] | None = None
        for idxs, run, trumps, one_suit in subsets:
            if not suits_ok(trumps, one_suit):
                continue
            values: tuple[int, ...]
            if needs_run:
                if run is None:
                    continue
                values, order = (run[0],), run[1]
            else:
                order = _high_first(played, idxs)
                values = tuple(played[i].value for i in order)
            score = (values, emperor in idxs)
            if best is None or score > best[0]:
                best = (score, order)
        if best is not None:
            return _POS[name], best[0][0], best[1]
    return None


def _classify(played: Sequence[PlayedCard], trump: int, emperor: int) -> _Found:
    """The best category of one fully assigned hand. `emperor` is the Emperor's index or -1;
    among equal ways to make a category, the one holding the Emperor is chosen."""
    n = len(played)
    is_trump = [p.suit == trump for p in played]
    groups: dict[int, list[int]] = {}
    for i in sorted(range(n), key=lambda i: (i == emperor, is_trump[i], played[i].suit)):
        groups.setdefault(played[i].value, []).insert(0, i)
    sizes = sorted(((len(g), v) for v, g in groups.items()), reverse=True)
    top_size, top_value = sizes[0]

    def trumped(idxs: Iterable[int]) -> bool:
        return any(is_trump[i] for i in idxs)

    if n == 5:
        whole = tuple(range(n))
        run = _run(played, whole)
        all_trump = all(is_trump)
        one_suit = not any(is_trump) and len({p.suit for p in played}) == 1
        if run and all_trump and run[0] == EMPEROR_VALUE:
            return _POS["emperors-court"], (run[0],), run[1]
        if top_size == 5:
            return _POS["five-of-a-kind"], (top_value,), tuple(groups[top_value])
        for name, suits_ok, top_ok in (
            ("imperial-flush", all_trump, run and run[0] == ACE),
            ("royal-flush", one_suit, run and run[0] == ACE),
            ("trump-straight-flush", all_trump, run),
            ("straight-flush", one_suit, run),
        ):
            if run and suits_ok and top_ok:
                return _POS[name], (run[0],), run[1]
    if top_size == 4:
        quad = tuple(groups[top_value])
        name = "trump-four-of-a-kind" if trumped(quad) else "four-of-a-kind"
        return _POS[name], (top_value,), quad
    if n == 5:
        if top_size == 3 and sizes[1][0] == 2:
            trio, pair = groups[top_value], groups[sizes[1][1]]
            name = ("full-house", "low-bastion", "high-bastion")[trumped(trio) + trumped(pair)]
            return _POS[name], (top_value, sizes[1][1]), (*trio, *pair)
        if all_trump or one_suit:
            order = _high_first(played, whole)
            values = tuple(played[i].value for i in order)
            return _POS["trump-flush" if all_trump else "flush"], values, order
        if run:
            name = "trump-straight" if any(is_trump) else "straight"
            return _POS[name], (run[0],), run[1]
    if top_size == 3:
        three = tuple(groups[top_value])
        name = "trump-three-of-a-kind" if trumped(three) else "three-of-a-kind"
        return _POS[name], (top_value,), three
    if n >= 4:
        short = _short(played, is_trump, emperor)
        if short is not None:
            return short
    pairs = [v for size, v in sizes if size == 2]
    if len(pairs) == 2:
        high, low = groups[pairs[0]], groups[pairs[1]]
        name = ("two-pair", "low-gate", "high-gate")[trumped(high) + trumped(low)]
        return _POS[name], (pairs[0], pairs[1]), (*high, *low)
    if pairs:
        two = tuple(groups[pairs[0]])
        return _POS["trump-pair" if trumped(two) else "pair"], (pairs[0],), two
    trumps = [i for i in range(n) if is_trump[i]]
    if trumps:
        best = max(trumps, key=lambda i: (played[i].value, i == emperor))
        return _POS["trump"], (played[best].value,), (best,)
    best = max(range(n), key=lambda i: (played[i].value, played[i].suit))
    return _POS["high-card"], (played[best].value,), (best,)


# --- results ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class BuroshHand:
    """A ranked Burosh hand: its category, the cards that make it and what each wild played as."""

    hand: tuple[BuroshCard, ...]  # every card, canonical order
    trump: int
    category: Category
    cards: tuple[BuroshCard, ...]  # the cards that make the category, display order
    played: tuple[PlayedCard, ...]  # what each of `cards` counts as
    wilds: tuple[tuple[Wild, PlayedCard | None], ...]  # None: outside the category (ignored)
    values: tuple[int, ...]  # group ranks / top card / flush cards, for ties in a category
    emperor: bool  # the Emperor is among the cards that make the category

    @property
    def key(self) -> tuple[int, tuple[int, ...], bool]:
        """Comparison key, larger is better: category, then values, then the Emperor."""
        return (-self.category.position, self.values, self.emperor)

    @property
    def ignored(self) -> tuple[BuroshCard, ...]:
        """The cards outside the category (no kickers)."""
        return tuple(c for c in self.hand if c not in self.cards)

    def describe(self) -> str:
        """The category with its values, as a person says it: `Trump Pair of kings`."""
        title, kind, v = self.category.title, self.category.kind, self.values
        if self.category.name in ("emperors-court", "imperial-flush", "royal-flush"):
            return title
        if kind == RUN:
            return f"{title}, {_value_name(v[0])} high"
        if kind == FLUSH:
            return f"{title} {'-'.join(_value_char(x) for x in v)}"
        if kind == SINGLE:
            return f"{title}: {self.played[0].symbol()}"
        if len(v) == 2 and self.category.size == 5:
            return f"{title}: three {_value_name(v[0], True)} and two {_value_name(v[1], True)}"
        if len(v) == 2:
            return f"{title}: {_value_name(v[0], True)} and {_value_name(v[1], True)}"
        return f"{title} of {_value_name(v[0], True)}"

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: `{"category": NAME, "cards": [...], "wilds": {...}, ...}`."""
        return {
            "category": self.category.name,
            "title": self.category.title,
            "position": self.category.position,
            "trump": SUIT_CHARS[self.trump],
            "hand": [str(c) for c in self.hand],
            "cards": [str(c) for c in self.cards],
            "played": [str(p) for p in self.played],
            "wilds": {str(w): None if p is None else str(p) for w, p in self.wilds},
            "emperor": self.emperor,
        }

    def explanation(self) -> list[str]:
        """Why the hand ranks where it does: category, wild cards, ignored cards."""
        lines = [
            f"Trump {SUIT_SYMBOLS[self.trump]} ({SUIT_NAMES[self.trump]}).",
            f"{self.describe()} (category {self.category.position} of {len(CATEGORIES)}: "
            f"{self.category.rule}): {symbols(self.played)}.",
        ]
        for wild, played in self.wilds:
            if played is None:
                lines.append(f"The {wild.title} is outside the category (ignored).")
            elif played.value == EMPEROR_VALUE:
                lines.append("The Emperor plays as itself, one rank above the ace (trump).")
            elif wild is Wild.HERMIT:
                lines.append(f"The Hermit plays as {played.symbol()} (never trump).")
            elif played.value == LOW_ONE:
                lines.append(f"The Magician plays as the low one {played.symbol()} (trump).")
            else:
                lines.append(f"The {wild.title} plays as {played.symbol()} (always trump).")
        naturals = [c for c in self.ignored if isinstance(c, Card)]
        if naturals:
            shown = " ".join(c.symbol() for c in naturals)
            lines.append(f"Outside the category, ignored (no kickers): {shown}.")
        return lines


def rank_hand(cards: Sequence[BuroshCard], trump: int) -> BuroshHand:
    """Rank a 1-5 card hand: the best category over every legal wild assignment, then the best
    values in it, then (all else equal) a way that includes the Emperor."""
    hand = check_hand(cards)
    trump = _check_trump(trump)
    emperor = hand.index(Wild.EMPEROR) if Wild.EMPEROR in hand else -1
    best: tuple[tuple[int, tuple[int, ...], bool], tuple[PlayedCard, ...], tuple[int, ...]]
    best = ((-len(CATEGORIES) - 1, (), False), (), ())
    for played in product(*(_options(c, trump) for c in hand)):
        position, values, used = _classify(played, trump, emperor)
        key = (-position, values, emperor in used)
        if key > best[0]:
            best = (key, played, used)
    (neg_position, values, has_emperor), played, used = best
    wilds = tuple(
        (card, played[i] if i in used else None)
        for i, card in enumerate(hand)
        if isinstance(card, Wild)
    )
    return BuroshHand(
        hand=hand,
        trump=trump,
        category=CATEGORIES[-neg_position - 1],
        cards=tuple(hand[i] for i in used),
        played=tuple(played[i] for i in used),
        wilds=wilds,
        values=values,
        emperor=has_emperor,
    )


def explain(challenge: Comparison[BuroshHand]) -> list[str]:
    """Each hand's category, then which rule decided the challenge (a tie: all challenging dice
    stay)."""
    hands = challenge.hands
    lines = [f"Trump {SUIT_SYMBOLS[hands[0].trump]} ({SUIT_NAMES[hands[0].trump]})."]
    for name, hand in zip(challenge.names, hands, strict=True):
        cards = "" if hand.category.kind == SINGLE else f" ({symbols(hand.played)})"
        lines.append(f"{name}: {hand.describe()}{cards}.")
    return lines + [_decision(challenge)]


def _decision(challenge: Comparison[BuroshHand]) -> str:
    best = challenge.best
    if challenge.tie:
        names = ", ".join(str(i + 1) for i in challenge.winners)
        copies = any(
            w is not Wild.EMPEROR and p is not None for h in challenge.hands for w, p in h.wilds
        )
        why = "; the Magician and the Hermit count as the cards they copy" if copies else ""
        return f"Hands {names}: same category and values{why}; {TIE_LINE}."
    second = max(challenge.losers(), key=lambda h: h.key)
    head = f"Hand {challenge.winners[0] + 1} wins"
    if best.category != second.category:
        trump_note = ""
        if best.category.name.replace("trump-", "") == second.category.name.replace("trump-", ""):
            trump_note = "; the same hand with trump wins whatever the values"
        return (
            f"{head}: {best.category.title} ranks above {second.category.title} "
            f"(category {best.category.position} vs {second.category.position}){trump_note}."
        )
    if best.values != second.values:
        rule = {
            GROUP: "group ranks, trio before pair, higher pair first",
            RUN: "the higher top card",
            FLUSH: "card by card from the top",
            SINGLE: "the higher card",
        }[best.category.kind]
        return f"{head}: both {best.category.title}; decided by {rule}."
    return (
        f"{head}: both {best.category.title} with equal values; all else equal, the Emperor wins."
    )


def compare(hands: Sequence[Sequence[BuroshCard]], trump: int) -> Comparison[BuroshHand]:
    """Rank two or more hands (cards from one 55-card deck) and find the winner(s)."""
    if len(hands) < 2:
        raise DealerError(f"a challenge needs at least two hands, got {len(hands)}")
    for i, cards in enumerate(hands, start=1):
        check_hand(cards, f"hand {i}")
    distinct(BUROSH, ((f"hand {i}", cards) for i, cards in enumerate(hands, start=1)))
    ranked = [rank_hand(cards, trump) for cards in hands]
    return rank_together(ranked, hand_names(len(ranked), None, "Hand", "hands"))
