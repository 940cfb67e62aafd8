"""The 64-card Six Generations deck of Genpoker and its typed notation (RULINGS §0).

A card is `<generation><colour><n>`: generation 1-6 (lower is better), colour `R` (red, women)
or `B` (black, men), and `n` the card's number within its generation and colour: 1 for
generations 1 and 2 (and it may be left out: `1R` is Emily, `1B` is Jacob), 1-2 for generation
3, 1-4 for 4, 1-8 for 5, and 1-16 for 6, where `n` is the nation, so `6R7` and `6B7` are a
couple. Any case on input; the canonical form always writes the number: `1R1`, `6B16`.

Cards must be separated by spaces or commas: run together they would be ambiguous
(`6R11B1` could be `6R1 1B1` or `6R11 B1`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from dealer.kernel.cards import split_tokens
from dealer.kernel.errors import CardError

GENERATIONS = (1, 2, 3, 4, 5, 6)
COLOURS = ("R", "B")
COLOUR_NAMES = {"R": "red", "B": "black"}
PER_COLOUR = {1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 6: 16}
"""How many cards of each colour a generation has (so 2, 2, 4, 8, 16 and 32 in all)."""


@dataclass(frozen=True, slots=True)
class GenCard:
    """One card: `generation` 1-6, `colour` `R` or `B`, `number` within generation and colour."""

    generation: int
    colour: str
    number: int

    @property
    def index(self) -> int:
        """A dense index 0-63 in deck order (generation, then red before black, then number)."""
        return (
            _OFFSET[self.generation]
            + COLOURS.index(self.colour) * PER_COLOUR[self.generation]
            + (self.number - 1)
        )

    @property
    def sort_key(self) -> tuple[int, int, int]:
        """Best first: generation, then red before black, then number."""
        return (self.generation, COLOURS.index(self.colour), self.number)

    def partner(self) -> GenCard | None:
        """The other half of a generation-6 couple (same nation, other colour), else None."""
        if self.generation != 6:
            return None
        return GenCard(6, "B" if self.colour == "R" else "R", self.number)

    def __str__(self) -> str:
        return f"{self.generation}{self.colour}{self.number}"


_OFFSET: dict[int, int] = {}
_running = 0
for _g in GENERATIONS:
    _OFFSET[_g] = _running
    _running += 2 * PER_COLOUR[_g]

DECK: tuple[GenCard, ...] = tuple(
    GenCard(g, c, n) for g in GENERATIONS for c in COLOURS for n in range(1, PER_COLOUR[g] + 1)
)
"""The 64 cards in index order."""

_TOKEN = re.compile(r"([1-6])([RB])(\d{1,2})?", re.IGNORECASE)


def parse_card(token: str) -> GenCard:
    """Parse one card token; raise `CardError` naming the token and why it is not a card."""
    text = token.strip()
    match = _TOKEN.fullmatch(text)
    if match is None:
        raise CardError(
            f"unknown card {token!r}: a Genpoker card is a generation 1-6, a colour R or B and "
            "its number, e.g. 1R, 3B2, 6R16"
        )
    generation = int(match.group(1))
    colour = match.group(2).upper()
    limit = PER_COLOUR[generation]
    if match.group(3) is None:
        if limit != 1:
            raise CardError(
                f"unknown card {token!r}: generation {generation} needs a number 1-{limit}"
            )
        number = 1
    else:
        number = int(match.group(3))
        if not 1 <= number <= limit:
            allowed = "1" if limit == 1 else f"1-{limit}"
            raise CardError(
                f"unknown card {token!r}: generation {generation} has number {allowed} per colour"
            )
    return GenCard(generation, colour, number)


def parse_cards(
    text: str | Iterable[str], counts: Iterable[int] | None = None, what: str = "hand"
) -> tuple[GenCard, ...]:
    """Parse typed cards in the order typed.

    Raises `CardError` for an unknown token, a duplicate card, or a count not in `counts`
    (`what` names the cards in that message).
    """
    cards: list[GenCard] = []
    for token in split_tokens(text):
        card = parse_card(token)
        if card in cards:
            raise CardError(f"duplicate card {token!r}: {card} is already in the {what}")
        cards.append(card)
    if counts is not None:
        allowed = sorted(set(counts))
        if len(cards) not in allowed:
            want = " or ".join(str(n) for n in allowed)
            raise CardError(
                f"wrong number of cards for the {what}: expected {want}, got {len(cards)}"
            )
    return tuple(cards)


def parse_hand(text: str | Iterable[str]) -> tuple[GenCard, ...]:
    """Parse a Genpoker hand: exactly five distinct cards."""
    return parse_cards(text, counts=(5,), what="hand")


def format_cards(cards: Iterable[GenCard]) -> str:
    """Canonical form, space-separated: `1R1 3B2 6R7`."""
    return " ".join(str(c) for c in cards)


def check_distinct(hands: Iterable[Iterable[GenCard]], what: str = "hand") -> None:
    """Raise `CardError` if a card is in more than one hand (hands numbered from 0, as in JSON)."""
    owner: dict[GenCard, int] = {}
    for number, cards in enumerate(hands):
        for card in cards:
            if card in owner:
                raise CardError(
                    f"duplicate card {card}: in {what} {owner[card]} and {what} {number}"
                )
            owner[card] = number
