"""Playing cards of the 53-card Pai Gow deck: the values, the typed notation, the canonical form.

Notation (RULINGS §0): rank `2`-`9`, `T` or `10`, `J`, `Q`, `K`, `A`; suit `s h d c` or
`♠ ♥ ♦ ♣`; any case. The joker is `JK` or `joker`. Cards are separated by spaces and/or commas,
and may be run together (`AsKd`) where that is unambiguous.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import total_ordering

from dealer.kernel.errors import CardError

RANK_CHARS = "23456789TJQKA"
SUIT_CHARS = "cdhs"  # index order: clubs 0, diamonds 1, hearts 2, spades 3 (joker 4)
SUIT_SYMBOLS = "♣♦♥♠"
JOKER_SUIT = 4
ACE = 14
KING = 13
RANK_NAMES = {
    2: "two",
    3: "three",
    4: "four",
    5: "five",
    6: "six",
    7: "seven",
    8: "eight",
    9: "nine",
    10: "ten",
    11: "jack",
    12: "queen",
    13: "king",
    14: "ace",
}
RANK_PLURALS = {r: (n + "es" if n == "six" else n + "s") for r, n in RANK_NAMES.items()}


@total_ordering
@dataclass(frozen=True, slots=True)
class Card:
    """One card. `rank` 2-14 (ace 14); `suit` 0-3 (c d h s). The joker is rank 14, suit 4:
    it counts as an ace wherever the rules do not play it as something else."""

    rank: int
    suit: int

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return (self.rank, self.suit) < (other.rank, other.suit)

    @property
    def is_joker(self) -> bool:
        """True for the joker (the bug)."""
        return self.suit == JOKER_SUIT

    @property
    def index(self) -> int:
        """A dense index 0-52 (the joker is 52)."""
        return 52 if self.suit == JOKER_SUIT else (self.rank - 2) * 4 + self.suit

    def __str__(self) -> str:
        if self.suit == JOKER_SUIT:
            return "JK"
        return RANK_CHARS[self.rank - 2] + SUIT_CHARS[self.suit]

    def symbol(self) -> str:
        """The card as a person reads it: `A♠`, `10♥`, and `JK` for the joker."""
        if self.suit == JOKER_SUIT:
            return "JK"
        rank = "10" if self.rank == 10 else RANK_CHARS[self.rank - 2]
        return rank + SUIT_SYMBOLS[self.suit]


JOKER = Card(ACE, JOKER_SUIT)
DECK: tuple[Card, ...] = tuple(Card(r, s) for r in range(2, 15) for s in range(4)) + (JOKER,)
"""The 53-card deck in index order (the joker last)."""

_BY_TEXT: dict[str, Card] = {}
for _card in DECK[:-1]:
    _r = RANK_CHARS[_card.rank - 2]
    for _s in (SUIT_CHARS[_card.suit], SUIT_SYMBOLS[_card.suit]):
        _BY_TEXT[(_r + _s).lower()] = _card
        if _card.rank == 10:
            _BY_TEXT[("10" + _s).lower()] = _card
_BY_TEXT["jk"] = JOKER
_BY_TEXT["joker"] = JOKER

_SEPARATORS = re.compile(r"[\s,]+")
_RUN = re.compile(r"joker|jk|10.|[2-9tjqka].", re.IGNORECASE)


def split_tokens(text: str | Iterable[str]) -> list[str]:
    """Split typed cards on spaces and commas (a list of words is split further)."""
    words = [text] if isinstance(text, str) else list(text)
    return [tok for word in words for tok in _SEPARATORS.split(word) if tok]


def _expand_run(token: str) -> list[str]:
    """Split a run-together token such as `AsKd` into card tokens, or keep it whole."""
    if token.lower() in _BY_TEXT:
        return [token]
    parts = _RUN.findall(token)
    if parts and "".join(parts) == token and all(p.lower() in _BY_TEXT for p in parts):
        return parts
    return [token]


def parse_card(token: str) -> Card:
    """Parse one card token; raise `CardError` naming the token if it is not a card."""
    card = _BY_TEXT.get(token.strip().lower())
    if card is None:
        raise CardError(
            f"unknown card {token!r}: a card is a rank (2-9, T or 10, J, Q, K, A) and a suit "
            "(s h d c or ♠ ♥ ♦ ♣), or JK for the joker"
        )
    return card


def parse_cards(
    text: str | Iterable[str], counts: Iterable[int] | None = None, what: str = "hand"
) -> tuple[Card, ...]:
    """Parse typed cards into a tuple in the order typed.

    Raises `CardError` for an unknown token, a duplicate card, a second joker, or a count not in
    `counts` (`what` names the hand in that message).
    """
    cards: list[Card] = []
    seen: set[Card] = set()
    for token in (t for tok in split_tokens(text) for t in _expand_run(tok)):
        card = parse_card(token)
        if card in seen:
            if card.is_joker:
                raise CardError(f"a second joker {token!r}: the deck has one joker")
            raise CardError(f"duplicate card {token!r}: {card} is already in the {what}")
        seen.add(card)
        cards.append(card)
    if counts is not None:
        allowed = sorted(set(counts))
        if len(cards) not in allowed:
            want = " or ".join(str(n) for n in allowed)
            raise CardError(
                f"wrong number of cards for the {what}: expected {want}, got {len(cards)}"
            )
    return tuple(cards)


def check_distinct(hands: Iterable[tuple[str, Iterable[Card]]]) -> None:
    """Raise `CardError` if a card (or the joker) appears in more than one named hand."""
    owner: dict[Card, str] = {}
    for name, cards in hands:
        for card in cards:
            if card in owner:
                if card.is_joker:
                    raise CardError(
                        f"a second joker in the {name}: the joker is in the {owner[card]}"
                    )
                raise CardError(f"duplicate card {card}: in the {owner[card]} and the {name}")
            owner[card] = name


def format_cards(cards: Iterable[Card]) -> str:
    """Canonical form, space-separated: `As Td JK`."""
    return " ".join(str(c) for c in cards)


def symbols(cards: Iterable[Card]) -> str:
    """For people: `A♠ 10♦ JK`."""
    return " ".join(c.symbol() for c in cards)


def by_rank(cards: Iterable[Card]) -> list[Card]:
    """Cards sorted high to low (joker first, then by rank, then suit ♠ ♥ ♦ ♣)."""
    return sorted(cards, reverse=True)
