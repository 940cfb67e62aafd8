"""The one card parser, and the standard playing card with its notation (52 cards and the joker).

A deck declares its vocabulary as a `Deck`: its cards, every typed form of each, how many
copies of a card it holds, whether cards may be run together, and how its refusals are worded.
`parse` does what every game shares: split on spaces and commas, expand run-together tokens
where the deck allows it, map tokens through the vocabulary, refuse unknown tokens, duplicates,
too many copies and counts not allowed; `distinct` refuses a card held by two hands;
`deal_around` deals a deck to the seats one card at a time.

Standard notation (RULINGS §0): rank `2`-`9`, `T` or `10`, `J`, `Q`, `K`, `A`; suit `s h d c` or
`♠ ♥ ♦ ♣`; any case. The joker is `JK` or `joker`. Cards are separated by spaces and/or commas,
and may be run together (`AsKd`) where that is unambiguous.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from typing import Generic, Protocol, TypeVar

from dealer.kernel.errors import CardError
from dealer.kernel.text import quoted
from dealer.kernel.tuples import NamedTuple

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

C = TypeVar("C", bound=Hashable)


class Deck(NamedTuple, Generic[C]):
    """A deck's vocabulary for the one parser (a constant of the game that declares it).

    `typed`: every typed form (lower case) → its card. `copies`: the cards the deck holds more
    than one of, each as its copies in the order they are typed (equal values for Hyrule's
    jokers, numbered values for Empire's Dragons); every other card is unique. `run_together`:
    the pieces of a run-together token, or None where cards must be separated. The wording of
    the refusals (`str.format` fields: token, card, what, noun, first, second) is the deck's;
    `unknown` says why a token is not a card of this deck, naming the token and the notation;
    `duplicate_value` is the duplicate refusal for cards given as values (None: as for typing).
    """

    name: str
    cards: tuple[C, ...]
    typed: Mapping[str, C]
    unknown: Callable[[str], str]
    copies: tuple[tuple[C, ...], ...] = ()
    run_together: re.Pattern[str] | None = None
    noun: str = "card"
    duplicate: str = "duplicate {noun} {token!r}: {card} is already in the {what}"
    duplicate_value: str | None = None
    too_many_copies: str = "a second {card} {token!r}: the deck has one"
    shared: str = "duplicate {noun} {card}: in {first} and {second}"
    shared_copies: str = "a second {card} in {second}: it is in {first}"

    def copies_of(self, card: C) -> tuple[C, ...]:
        """The copies of `card` the deck holds (one for a unique card)."""
        return next((group for group in self.copies if card in group), (card,))

    def is_copied(self, card: C) -> bool:
        """True for a card whose copies the deck counts (a joker, a Dragon)."""
        return any(card in group for group in self.copies)


_SEPARATORS = re.compile(r"[\t\n\r ,\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000]+")
"""What separates typed cards: commas, spaces (every Unicode space: a no-break space pasted from
a document too), tabs and line ends. Not the other characters Python counts as white space: the
file, group, record and unit separators, vertical tab, form feed, NEL and U+2028/U+2029 stay in
the token, which is then refused as a card."""


def split_tokens(text: str | Iterable[str]) -> list[str]:
    """Split typed cards on spaces and commas (a list of words is split further)."""
    words = [text] if isinstance(text, str) else list(text)
    return [tok for word in words for tok in _SEPARATORS.split(word) if tok]


def tokens(deck: Deck[C], text: str | Iterable[str]) -> list[str]:
    """The card tokens of typed text: split, and run-together tokens (`AsKd`) expanded where
    the deck allows it and every piece is one of its cards."""
    found: list[str] = []
    for token in split_tokens(text):
        pieces = [] if deck.run_together is None else deck.run_together.findall(token)
        whole = token.lower() in deck.typed or len(pieces) < 2 or "".join(pieces) != token
        if whole or not all(p.lower() in deck.typed for p in pieces):
            found.append(token)
        else:
            found.extend(pieces)
    return found


def card_of(deck: Deck[C], token: str) -> C:
    """One token's card (the first copy of a card the deck holds several of)."""
    card = deck.typed.get(token.strip().lower())
    if card is None:
        if len(token) > TOKEN_LIMIT:  # not echoed back whole: no card is this long
            raise CardError(f"{deck.noun} {quoted(token)} is too long to be a {deck.noun}")
        raise CardError(deck.unknown(token))
    return card


TOKEN_LIMIT = 40
"""The longest typed token an error repeats whole (the longest card name is far shorter)."""


def _counted(deck: Deck[C], found: Sequence[C], card: C, token: str, what: str, template: str) -> C:
    """`card` as the next of `found`: its next copy; refused beyond the copies the deck holds."""
    group = deck.copies_of(card)
    held = sum(1 for c in found if c in group)
    if held < len(group):
        return group[held]
    if deck.is_copied(card):
        template = deck.too_many_copies
    raise CardError(template.format(token=token, card=card, what=what, noun=deck.noun))


def check(deck: Deck[C], cards: Iterable[C], what: str = "hand") -> tuple[C, ...]:
    """Cards given as values: refused for a duplicate or more copies than the deck holds."""
    template = deck.duplicate_value or deck.duplicate
    found: list[C] = []
    for card in cards:
        found.append(_counted(deck, found, card, str(card), what, template))
    return tuple(found)


def count_words(allowed: Sequence[int]) -> str:
    """`7`, `2 or 5`, `1-7` (three or more consecutive counts)."""
    if len(allowed) > 2 and list(allowed) == list(range(allowed[0], allowed[-1] + 1)):
        return f"{allowed[0]}-{allowed[-1]}"
    return " or ".join(str(n) for n in allowed)


def parse(
    deck: Deck[C],
    text: str | Iterable[str],
    counts: Iterable[int] | None = None,
    what: str = "hand",
) -> tuple[C, ...]:
    """Parse typed cards of `deck` into a tuple in the order typed.

    Raises `CardError` for an unknown token, a duplicate card, more copies of a card than the
    deck holds, or a count not in `counts` (`what` names the cards in these messages)."""
    found: list[C] = []
    for token in tokens(deck, text):
        found.append(_counted(deck, found, card_of(deck, token), token, what, deck.duplicate))
    if counts is not None:
        allowed = sorted(set(counts))
        if len(found) not in allowed:
            raise CardError(
                f"wrong number of {deck.noun}s for the {what}: expected {count_words(allowed)}, "
                f"got {len(found)}"
            )
    return tuple(found)


def distinct(deck: Deck[C], hands: Iterable[tuple[str, Iterable[C]]]) -> tuple[tuple[C, ...], ...]:
    """The named hands, refused if a card is in two of them (or the hands together hold more
    copies of a card than the deck); copies are numbered across the hands in order."""
    holders: dict[tuple[C, ...], list[str]] = {}
    result: list[tuple[C, ...]] = []
    for name, cards in hands:
        renumbered: list[C] = []
        for card in cards:
            group = deck.copies_of(card)
            held = holders.setdefault(group, [])
            if len(held) == len(group):
                copied = deck.is_copied(card)
                template = deck.shared_copies if copied else deck.shared
                first = held[-1] if copied else held[0]
                raise CardError(
                    template.format(card=card, noun=deck.noun, first=first, second=name)
                )
            renumbered.append(group[len(held)])
            held.append(name)
        result.append(tuple(renumbered))
    return tuple(result)


def deal_around(
    cards: Sequence[C], players: int, each: int
) -> tuple[tuple[tuple[C, ...], ...], tuple[C, ...]]:
    """`each` cards to each of `players` seats from the top of `cards` (first card first), one
    at a time round the table from seat 0; and the cards left over (a stock)."""
    dealt = players * each
    return tuple(tuple(cards[seat:dealt:players]) for seat in range(players)), tuple(cards[dealt:])


# --- the standard playing card and the 53-card deck ---------------------------------------------


class Card(NamedTuple):
    """One card. `rank` 2-14 (ace 14); `suit` 0-3 (c d h s). The joker is rank 14, suit 4:
    it counts as an ace wherever the rules do not play it as something else. Cards order by
    rank, then suit."""

    rank: int
    suit: int

    @property
    def is_joker(self) -> bool:
        """True for the joker (the bug)."""
        return self.suit == JOKER_SUIT

    @property
    def index(self) -> int:  # type: ignore[override]  # a card's number, not tuple.index
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
        return rank_text(self.rank) + SUIT_SYMBOLS[self.suit]


def rank_text(rank: int) -> str:
    """A rank as a person reads it, in a card (`10♥`) and in a hand's name (`10-8-3
    kickers`) alike: `2`-`9`, `10`, `J`, `Q`, `K`, `A`."""
    return "10" if rank == 10 else RANK_CHARS[rank - 2]


JOKER = Card(ACE, JOKER_SUIT)
STANDARD_52: tuple[Card, ...] = tuple(Card(r, s) for r in range(2, 15) for s in range(4))
"""The 52 standard cards in index order."""
DECK: tuple[Card, ...] = STANDARD_52 + (JOKER,)
"""The 53-card deck in index order (the joker last)."""


def _standard_typed() -> dict[str, Card]:
    typed: dict[str, Card] = {}
    for card in STANDARD_52:
        rank = RANK_CHARS[card.rank - 2]
        for suit in (SUIT_CHARS[card.suit], SUIT_SYMBOLS[card.suit]):
            typed[(rank + suit).lower()] = card
            if card.rank == 10:
                typed[("10" + suit).lower()] = card
    return typed


STANDARD_TYPED: Mapping[str, Card] = _standard_typed()
"""Every typed form of the 52 standard cards (lower case)."""
JOKER_TYPED: Mapping[str, Card] = {"jk": JOKER, "joker": JOKER}
"""The typed forms of the joker."""
STANDARD_RUN = re.compile(r"joker|jk|10.|[2-9tjqka].", re.IGNORECASE)
"""The pieces of run-together standard cards (`AsKdJK`)."""


def standard_unknown(token: str) -> str:
    """Why a token is not a card in the standard notation (with the joker)."""
    return (
        f"unknown card {token!r}: a card is a rank (2-9, T or 10, J, Q, K, A) and a suit "
        "(s h d c or ♠ ♥ ♦ ♣), or JK for the joker"
    )


def standard_deck(name: str, jokers: int) -> Deck[Card]:
    """A deck of the 52 standard cards and `jokers` jokers (equal values) in the standard
    notation, cards run together where unambiguous; its refusals worded as `Deck`'s, which a
    game rewords with `_replace`."""
    return Deck(
        name=name,
        cards=STANDARD_52 + (JOKER,) * jokers,
        typed={**STANDARD_TYPED, **JOKER_TYPED},
        unknown=standard_unknown,
        copies=((JOKER,) * jokers,),
        run_together=STANDARD_RUN,
    )


def symbol(token: str) -> str:
    """A canonical standard card or joker (`As`, `Td`, `JK`) as a person reads it (`A♠`, `10♦`,
    `JK`); any other token as it is."""
    card = STANDARD_TYPED.get(token.lower()) or JOKER_TYPED.get(token.lower())
    return token if card is None else card.symbol()


def format_cards(cards: Iterable[object]) -> str:
    """Canonical form, space-separated: `As Td JK`."""
    return " ".join(str(c) for c in cards)


class ReadableCard(Protocol):
    """A card of any game, as a person reads it."""

    def symbol(self) -> str:
        """`A♠`, `10♦`, `JK`; a game's own cards their own way (`Emperor`)."""
        ...


def symbols(cards: Iterable[ReadableCard]) -> str:
    """For people, any game's cards: `A♠ 10♦ JK`, `K♠ 10♥ Emperor`."""
    return " ".join(c.symbol() for c in cards)


def by_rank(cards: Iterable[Card]) -> list[Card]:
    """Cards sorted high to low (joker first, then by rank, then suit ♠ ♥ ♦ ♣)."""
    return sorted(cards, reverse=True)
