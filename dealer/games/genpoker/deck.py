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

from dealer.kernel.cards import Deck, card_of, distinct, parse

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


def _typed() -> dict[str, GenCard]:
    typed = {str(card).lower(): card for card in DECK}
    for generation, per_colour in PER_COLOUR.items():
        if per_colour == 1:  # `1R` is `1R1`
            typed.update({f"{generation}{c}".lower(): GenCard(generation, c, 1) for c in COLOURS})
    return typed


def _unknown(token: str) -> str:
    """Why a token is not a card: not the notation, or a number the generation has not."""
    match = _TOKEN.fullmatch(token.strip())
    if match is None:
        return (
            f"unknown card {token!r}: a Genpoker card is a generation 1-6, a colour R or B and "
            "its number, e.g. 1R, 3B2, 6R16"
        )
    generation = int(match.group(1))
    limit = PER_COLOUR[generation]
    if match.group(3) is None:
        return f"unknown card {token!r}: generation {generation} needs a number 1-{limit}"
    allowed = "1" if limit == 1 else f"1-{limit}"
    return f"unknown card {token!r}: generation {generation} has number {allowed} per colour"


GENPOKER: Deck[GenCard] = Deck(name="Genpoker", cards=DECK, typed=_typed(), unknown=_unknown)
"""Genpoker's vocabulary for the one card parser (no run-together cards: ambiguous)."""


def parse_card(token: str) -> GenCard:
    """Parse one card token; raise `CardError` naming the token and why it is not a card."""
    return card_of(GENPOKER, token)


def parse_cards(
    text: str | Iterable[str], counts: Iterable[int] | None = None, what: str = "hand"
) -> tuple[GenCard, ...]:
    """Parse typed cards in the order typed.

    Raises `CardError` for an unknown token, a duplicate card, or a count not in `counts`
    (`what` names the cards in that message).
    """
    return parse(GENPOKER, text, counts, what)


def parse_hand(text: str | Iterable[str]) -> tuple[GenCard, ...]:
    """Parse a Genpoker hand: exactly five distinct cards."""
    return parse_cards(text, counts=(5,), what="hand")


def check_distinct(hands: Iterable[Iterable[GenCard]], what: str = "hand") -> None:
    """Raise `CardError` if a card is in more than one hand (hands numbered from 1)."""
    named = ((f"{what} {number}", cards) for number, cards in enumerate(hands, start=1))
    distinct(GENPOKER, named)
