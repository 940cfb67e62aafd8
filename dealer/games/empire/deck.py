"""The 50 plaques of Empire and their typed notation (RULINGS §0, §5).

A coloured plaque is `<colour>-<type>`: colours `red blue green black white` (that is also the
tie-break order, red highest) and types `sword bow spear horse sigil` (Military) and
`coffer crown gate tower` (Civic), so 5 x 9 = 45. The unique plaques are `elf`, `dwarf`,
`thief` and `dragon`. The set holds two Dragons, alike in every way: `dragon` may be typed twice
(the first is Dragon 1, the second Dragon 2), and both print as `dragon`. Any case on input.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from dealer.kernel.cards import Deck, card_of, distinct, parse

COLOURS = ("red", "blue", "green", "black", "white")
"""Best first: the colour tie-break order."""
MILITARY = ("sword", "bow", "spear", "horse", "sigil")
CIVIC = ("coffer", "crown", "gate", "tower")
TYPES = MILITARY + CIVIC
UNIQUES = ("elf", "dwarf", "thief", "dragon")
ELF_EMULATORS = ("sword", "bow", "sigil")
"""The types an Elf lets emulate another plaque of their colour."""


@dataclass(frozen=True, slots=True)
class Plaque:
    """One plaque: `colour` and `type` for the 45 coloured plaques, `unique` for the five others
    (`copy` tells the two Dragons apart)."""

    colour: str | None = None
    type: str | None = None
    unique: str | None = None
    copy: int = 1

    @property
    def group(self) -> str:
        """`military`, `civic` or `unique`."""
        if self.type in MILITARY:
            return "military"
        return "civic" if self.type in CIVIC else "unique"

    @property
    def index(self) -> int:
        """A dense index 0-49: the coloured plaques by colour then type, then elf, dwarf,
        thief, Dragon 1, Dragon 2."""
        if self.colour is not None and self.type is not None:
            return COLOURS.index(self.colour) * len(TYPES) + TYPES.index(self.type)
        return len(COLOURS) * len(TYPES) + UNIQUES.index(str(self.unique)) + self.copy - 1

    def __str__(self) -> str:
        return self.unique if self.unique is not None else f"{self.colour}-{self.type}"


ELF = Plaque(unique="elf")
DWARF = Plaque(unique="dwarf")
THIEF = Plaque(unique="thief")
DRAGON_1 = Plaque(unique="dragon", copy=1)
DRAGON_2 = Plaque(unique="dragon", copy=2)

SET: tuple[Plaque, ...] = (
    *(Plaque(colour, kind) for colour in COLOURS for kind in TYPES),
    ELF,
    DWARF,
    THIEF,
    DRAGON_1,
    DRAGON_2,
)
"""The 50 plaques in index order."""


def _why_unknown(token: str) -> str:
    text = token.strip().lower()
    colour, dash, kind = text.partition("-")
    if dash and colour in COLOURS:
        why = f"no type {kind!r}; types are {' '.join(TYPES)}"
    elif dash and kind in TYPES:
        why = f"no colour {colour!r}; colours are {' '.join(COLOURS)}"
    else:
        why = (
            "a plaque is <colour>-<type> (colours "
            + " ".join(COLOURS)
            + "; types "
            + " ".join(TYPES)
            + ") or elf, dwarf, thief, dragon"
        )
    return f"unknown plaque {token!r}: {why}"


EMPIRE: Deck[Plaque] = Deck(
    name="Empire",
    cards=SET,
    typed={str(p): p for p in SET if p is not DRAGON_2},
    unknown=_why_unknown,
    copies=((DRAGON_1, DRAGON_2),),
    noun="plaque",
    too_many_copies="a third dragon {token!r}: the set has two Dragons",
    shared_copies="a third dragon in {second}: the set has two Dragons",
)
"""Empire's vocabulary for the one parser: a `dragon` typed twice is Dragon 1, then Dragon 2."""


def parse_plaque(token: str) -> Plaque:
    """Parse one plaque token (a `dragon` token gives Dragon 1); `CardError` names a bad one."""
    return card_of(EMPIRE, token)


def parse_plaques(
    text: str | Iterable[str], counts: Iterable[int] | None = None, what: str = "tableau"
) -> tuple[Plaque, ...]:
    """Parse typed plaques in the order typed (a second `dragon` is Dragon 2).

    Raises `CardError` for an unknown token, a duplicate plaque, a third dragon, or a count
    not in `counts` (`what` names the plaques in that message)."""
    return parse(EMPIRE, text, counts, what)


def format_plaques(plaques: Iterable[Plaque]) -> str:
    """Canonical form, space-separated: `red-sword elf dragon`."""
    return " ".join(str(p) for p in plaques)


def distinct_tableaux(tableaux: Iterable[Iterable[Plaque]]) -> tuple[tuple[Plaque, ...], ...]:
    """The tableaux with their Dragons numbered across the table (first seen is Dragon 1).

    Raises `CardError` if a plaque is in two tableaux or there are more than two Dragons
    (tableaux numbered from 1, as people count them)."""
    named = ((f"tableau {n}", plaques) for n, plaques in enumerate(tableaux, start=1))
    return distinct(EMPIRE, named)
