"""Genpoker hand ranks: the seed's 18 categories and its tie rules (RULINGS §4).

A hand's value is a `key`: the category's seed number (1 America … 18 High Card) followed by the
tie-break values of that category. Lower is better everywhere, as in the game, where a lower
generation number always has more value; the best hand has the smallest key, and equal keys
split the pot.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import IntEnum
from typing import Any

from dealer.games.genpoker.deck import COLOUR_NAMES, GENPOKER, GenCard, check_distinct
from dealer.kernel.cards import check
from dealer.kernel.comparison import Comparison, hand_names, rank_together
from dealer.kernel.errors import CardError

Key = tuple[int, ...]


class Category(IntEnum):
    """The 18 categories, numbered as the seed numbers them (1 is the best)."""

    AMERICA = 1
    ANCESTORS = 2
    STRAIGHT = 3
    GRANDPARENTS = 4
    XX_CENTURY = 5
    TWO_COUNTRIES = 6
    VICTORIAN = 7
    EUROPE = 8
    CHILDREN = 9
    PARENTS = 10
    COUNTRY = 11
    FOUR_OF_A_KIND = 12
    FULL_HOUSE = 13
    FLUSH = 14
    THREE_OF_A_KIND = 15
    TWO_PAIR = 16
    PAIR = 17
    HIGH_CARD = 18

    @property
    def label(self) -> str:
        """The kebab-case name used in JSON: `xx-century`."""
        return self.name.lower().replace("_", "-")

    @property
    def title(self) -> str:
        """The seed's name as a person says it: `XX Century`, `Four of a Kind`."""
        words = self.name.split("_")
        small = {"OF", "A"}
        return " ".join(w if w == "XX" else w.lower() if w in small else w.title() for w in words)


DEFINITIONS: dict[Category, str] = {
    Category.AMERICA: "generations 1-2-3-4-5, all one colour",
    Category.ANCESTORS: "generations 2-3-4-5-6, all one colour",
    Category.STRAIGHT: "five generations in order (1-2-3-4-5 or 2-3-4-5-6), not one colour",
    Category.GRANDPARENTS: "all four generation-3 cards",
    Category.XX_CENTURY: "five generation-4 cards",
    Category.TWO_COUNTRIES: "two generation-6 couples (same nation, both colours)",
    Category.VICTORIAN: "five generation-5 cards",
    Category.EUROPE: "five generation-6 cards",
    Category.CHILDREN: "both generation-1 cards",
    Category.PARENTS: "both generation-2 cards",
    Category.COUNTRY: "one generation-6 couple (same nation, both colours)",
    Category.FOUR_OF_A_KIND: "four cards of one generation (4-6)",
    Category.FULL_HOUSE: "three cards of one generation and two of another",
    Category.FLUSH: "all five cards one colour",
    Category.THREE_OF_A_KIND: "three cards of one generation (3-6)",
    Category.TWO_PAIR: "two cards of one generation and two of another",
    Category.PAIR: "two cards of one generation",
    Category.HIGH_CARD: "none of the above",
}

TIE_RULES: dict[Category, tuple[str, ...]] = {
    Category.AMERICA: (),
    Category.ANCESTORS: (),
    Category.STRAIGHT: ("lowest card",),
    Category.GRANDPARENTS: (),
    Category.XX_CENTURY: (),
    Category.TWO_COUNTRIES: ("fifth card",),
    Category.VICTORIAN: ("cards of one colour",),
    Category.EUROPE: ("cards of one colour",),
    Category.CHILDREN: (),
    Category.PARENTS: (),
    Category.COUNTRY: ("lowest other card", "sum of all five"),
    Category.FOUR_OF_A_KIND: ("four of a kind", "fifth card"),
    Category.FULL_HOUSE: ("three of a kind", "pair"),
    Category.FLUSH: ("lowest card", "sum of all five"),
    Category.THREE_OF_A_KIND: ("three of a kind", "lowest other card", "sum of all five"),
    Category.TWO_PAIR: ("lower pair", "other pair", "fifth card"),
    Category.PAIR: ("pair", "lowest other card", "sum of all five"),
    Category.HIGH_CARD: (
        "lowest card",
        "second lowest card",
        "third lowest card",
        "fourth lowest card",
        "highest card",
    ),
}
"""The names of each category's tie-break values, in the order they are compared.

"cards of one colour" is stored negated (more is better); every other value is a generation
number or a sum of generation numbers, lower is better."""

_STRAIGHT_GENS = ([1, 2, 3, 4, 5], [2, 3, 4, 5, 6])


def hand_key(cards: Sequence[GenCard]) -> Key:
    """The comparison key of five cards: `(category number, *tie-break values)`, lower better.

    This is the fast core of `rank_hand`: it assumes five distinct cards."""
    counts = [0, 0, 0, 0, 0, 0, 0]
    gens: list[int] = []
    red = 0
    red_nations = 0
    black_nations = 0
    for card in cards:
        g = card.generation
        counts[g] += 1
        gens.append(g)
        if card.colour == "R":
            red += 1
            if g == 6:
                red_nations |= 1 << card.number
        elif g == 6:
            black_nations |= 1 << card.number
    gens.sort()
    total = sum(gens)
    one_colour = red in (0, 5)
    if gens in _STRAIGHT_GENS:
        if one_colour:
            return (Category.AMERICA,) if gens[0] == 1 else (Category.ANCESTORS,)
        return (Category.STRAIGHT, gens[0])
    if counts[3] == 4:
        return (Category.GRANDPARENTS,)
    if counts[4] == 5:
        return (Category.XX_CENTURY,)
    couples = (red_nations & black_nations).bit_count()
    if couples == 2:
        return (Category.TWO_COUNTRIES, total - 24)
    if counts[5] == 5:
        return (Category.VICTORIAN, -max(red, 5 - red))
    if counts[6] == 5:
        return (Category.EUROPE, -max(red, 5 - red))
    if counts[1] == 2:
        return (Category.CHILDREN,)
    if counts[2] == 2:
        return (Category.PARENTS,)
    if couples == 1:
        # The couple is two generation-6 cards, the highest number: the other three are the
        # three lowest cards of the hand.
        return (Category.COUNTRY, gens[0], total)
    trio = 0
    pairs: list[int] = []
    for g in (3, 4, 5, 6):
        n = counts[g]
        if n == 4:
            return (Category.FOUR_OF_A_KIND, g, total - 4 * g)
        if n == 3:
            trio = g
        elif n == 2:
            pairs.append(g)
    if trio and pairs:
        return (Category.FULL_HOUSE, trio, pairs[0])
    if one_colour:
        return (Category.FLUSH, gens[0], total)
    if trio:
        return (Category.THREE_OF_A_KIND, trio, min(g for g in gens if g != trio), total)
    if len(pairs) == 2:
        low, high = pairs
        return (Category.TWO_PAIR, low, high, total - 2 * low - 2 * high)
    if pairs:
        pair = pairs[0]
        return (Category.PAIR, pair, min(g for g in gens if g != pair), total)
    return (Category.HIGH_CARD, *gens)


def _active(category: Category, cards: Sequence[GenCard]) -> tuple[GenCard, ...]:
    """The cards that make the category (all five where the whole hand does)."""
    by_gen: dict[int, list[GenCard]] = {}
    for card in cards:
        by_gen.setdefault(card.generation, []).append(card)
    if category is Category.GRANDPARENTS:
        return tuple(by_gen[3])
    if category is Category.CHILDREN:
        return tuple(by_gen[1])
    if category is Category.PARENTS:
        return tuple(by_gen[2])
    if category in (Category.TWO_COUNTRIES, Category.COUNTRY):
        return tuple(c for c in cards if c.partner() in cards)
    if category is Category.FOUR_OF_A_KIND:
        return next(tuple(group) for group in by_gen.values() if len(group) == 4)
    if category is Category.THREE_OF_A_KIND:
        return next(tuple(group) for group in by_gen.values() if len(group) == 3)
    if category in (Category.TWO_PAIR, Category.PAIR):
        return tuple(c for group in by_gen.values() if len(group) == 2 for c in group)
    return tuple(cards)


@dataclass(frozen=True)
class GenHand:
    """A ranked five-card hand: its cards (best first), category, tie-break values, key."""

    cards: tuple[GenCard, ...]
    category: Category
    tiebreak: tuple[int, ...]
    active: tuple[GenCard, ...]

    @property
    def key(self) -> Key:
        """Compare keys: the smaller key is the better hand; equal keys split."""
        return (int(self.category), *self.tiebreak)

    def tiebreak_items(self) -> list[tuple[str, int]]:
        """The tie-break values as a person reads them: (name, value), compared in this order."""
        names = TIE_RULES[self.category]
        return [(name, abs(value)) for name, value in zip(names, self.tiebreak, strict=True)]

    def describe(self) -> str:
        """`Flush (lowest card 1, sum of all five 20)`."""
        items = ", ".join(f"{name} {value}" for name, value in self.tiebreak_items())
        return f"{self.category.title} ({items})" if items else self.category.title

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: `{"category", "rank", "cards", "active", "tiebreak"}`."""
        return {
            "category": self.category.label,
            "rank": int(self.category),
            "cards": [str(c) for c in self.cards],
            "active": [str(c) for c in self.active],
            "tiebreak": [{"name": n, "value": v} for n, v in self.tiebreak_items()],
        }

    def explanation(self) -> list[str]:
        """Why this category, and what breaks a tie within it."""
        lines = [
            f"{self.category.title}, rank {int(self.category)} of 18: {DEFINITIONS[self.category]}"
            + (f" ({_colour_word(self.cards)})" if self._is_one_colour_category() else "")
            + "."
        ]
        if self.category > Category.AMERICA:
            lines.append("No higher category applies (a hand takes its highest).")
        items = self.tiebreak_items()
        if items:
            rules = ", then ".join(_tie_phrase(name) for name, _ in items)
            values = ", ".join(f"{name} {value}" for name, value in items)
            lines.append(f"Ties: {rules}; else split. This hand: {values}.")
        else:
            lines.append(f"Two {self.category.title} hands split the pot.")
        return lines

    def _is_one_colour_category(self) -> bool:
        return self.category in (Category.AMERICA, Category.ANCESTORS, Category.FLUSH)


def _colour_word(cards: Sequence[GenCard]) -> str:
    return COLOUR_NAMES[cards[0].colour]


def _tie_phrase(name: str) -> str:
    if name == "cards of one colour":
        return "cards of one colour (more wins)"
    return f"{name} (lower wins)"


def rank_hand(cards: Iterable[GenCard]) -> GenHand:
    """Rank five distinct cards; raise `CardError` for a wrong count or a duplicate."""
    hand = tuple(cards)
    if len(hand) != 5:
        raise CardError(f"wrong number of cards for the hand: expected 5, got {len(hand)}")
    check(GENPOKER, hand)
    key = hand_key(hand)
    category = Category(key[0])
    ordered = tuple(sorted(hand, key=lambda c: c.sort_key))
    return GenHand(ordered, category, key[1:], _active(category, ordered))


def explain(comparison: Comparison[GenHand]) -> list[str]:
    """Each hand's category, who wins, and the rule that decided it."""
    names, best = comparison.names, comparison.best
    lines = [f"{names[i]}: {h.describe()}." for i, h in enumerate(comparison.hands)]
    if comparison.tie:
        tied = " and ".join(names[i] for i in comparison.winners)
        lines.append(f"{tied} tie on {best.describe()}: they split the pot.")
    else:
        lines.append(f"{names[comparison.winners[0]]} wins with {best.describe()}.")
    losers = comparison.losers()
    if losers:
        runner_up = min(losers, key=lambda h: h.key)
        lines.append(_decider(best, runner_up))
    return lines


def _decider(best: GenHand, other: GenHand) -> str:
    """The rule that puts `best` above `other`."""
    if best.category != other.category:
        return (
            f"{best.category.title} (rank {int(best.category)}) beats "
            f"{other.category.title} (rank {int(other.category)})."
        )
    differences = [
        (name, mine, theirs)
        for (name, mine), (_, theirs) in zip(
            best.tiebreak_items(), other.tiebreak_items(), strict=True
        )
        if mine != theirs
    ]
    name, mine, theirs = differences[0]
    return f"Both {best.category.title}: decided on {_tie_phrase(name)}: {mine} against {theirs}."


def compare(
    hands: Iterable[Iterable[GenCard]], names: Sequence[str] | None = None
) -> Comparison[GenHand]:
    """Rank several hands dealt from one deck and name the winner(s).

    `names` label the hands in the explanation (default `Hand 1`, `Hand 2`, …; winners are
    indices from 0 either way). Raises `CardError` for fewer than two hands, a bad hand, or a
    card in two hands."""
    cards = [tuple(h) for h in hands]
    if len(cards) < 2:
        raise CardError(f"compare needs at least two hands, got {len(cards)}")
    labels = hand_names(len(cards), names, "Hand", "hands")
    ranked = [rank_hand(h) for h in cards]
    check_distinct(cards)
    return rank_together(ranked, labels, lower_wins=True)
