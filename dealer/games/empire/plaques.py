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

from dealer.kernel.cards import split_tokens
from dealer.kernel.errors import CardError

COLOURS = ("red", "blue", "green", "black", "white")
"""Best first: the colour tie-break order."""
MILITARY = ("sword", "bow", "spear", "horse", "sigil")
CIVIC = ("coffer", "crown", "gate", "tower")
TYPES = MILITARY + CIVIC
UNIQUES = ("elf", "dwarf", "thief", "dragon")
ELF_EMULATORS = ("sword", "bow", "sigil")
"""The types an Elf lets emulate another plaque of their colour."""
DRAGONS = 2


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

_BY_TEXT = {str(p): p for p in SET if p.unique != "dragon"}


def parse_plaque(token: str) -> Plaque:
    """Parse one plaque token (a `dragon` token gives Dragon 1); `CardError` names a bad one."""
    text = token.strip().lower()
    if text == "dragon":
        return DRAGON_1
    plaque = _BY_TEXT.get(text)
    if plaque is None:
        raise CardError(f"unknown plaque {token!r}: {_why_unknown(text)}")
    return plaque


def _why_unknown(text: str) -> str:
    colour, dash, kind = text.partition("-")
    if dash and colour in COLOURS:
        return f"no type {kind!r}; types are {' '.join(TYPES)}"
    if dash and kind in TYPES:
        return f"no colour {colour!r}; colours are {' '.join(COLOURS)}"
    return (
        "a plaque is <colour>-<type> (colours "
        + " ".join(COLOURS)
        + "; types "
        + " ".join(TYPES)
        + ") or elf, dwarf, thief, dragon"
    )


def parse_plaques(
    text: str | Iterable[str], counts: Iterable[int] | None = None, what: str = "tableau"
) -> tuple[Plaque, ...]:
    """Parse typed plaques in the order typed (a second `dragon` is Dragon 2).

    Raises `CardError` for an unknown token, a duplicate plaque, a third dragon, or a count
    not in `counts` (`what` names the plaques in that message)."""
    plaques: list[Plaque] = []
    for token in split_tokens(text):
        plaque = parse_plaque(token)
        if plaque.unique == "dragon":
            dragons = sum(1 for p in plaques if p.unique == "dragon")
            if dragons >= DRAGONS:
                raise CardError(f"a third dragon {token!r}: the set has two Dragons")
            plaque = DRAGON_2 if dragons else DRAGON_1
        elif plaque in plaques:
            raise CardError(f"duplicate plaque {token!r}: {plaque} is already in the {what}")
        plaques.append(plaque)
    if counts is not None:
        allowed = sorted(set(counts))
        if len(plaques) not in allowed:
            want = (
                f"{allowed[0]}-{allowed[-1]}"
                if allowed == list(range(allowed[0], allowed[-1] + 1)) and len(allowed) > 2
                else " or ".join(str(n) for n in allowed)
            )
            raise CardError(
                f"wrong number of plaques for the {what}: expected {want}, got {len(plaques)}"
            )
    return tuple(plaques)


def format_plaques(plaques: Iterable[Plaque]) -> str:
    """Canonical form, space-separated: `red-sword elf dragon`."""
    return " ".join(str(p) for p in plaques)


def distinct_tableaux(tableaux: Iterable[Iterable[Plaque]]) -> tuple[tuple[Plaque, ...], ...]:
    """The tableaux with their Dragons numbered across the table (first seen is Dragon 1).

    Raises `CardError` if a plaque is in two tableaux or there are more than two Dragons
    (tableaux numbered from 0, as in JSON)."""
    owner: dict[Plaque, int] = {}
    dragons = 0
    result = []
    for number, plaques in enumerate(tableaux):
        renumbered = []
        for plaque in plaques:
            if plaque.unique == "dragon":
                dragons += 1
                if dragons > DRAGONS:
                    raise CardError(f"a third dragon in tableau {number}: the set has two Dragons")
                plaque = DRAGON_1 if dragons == 1 else DRAGON_2
            elif plaque in owner:
                raise CardError(
                    f"duplicate plaque {plaque}: in tableau {owner[plaque]} and tableau {number}"
                )
            owner[plaque] = number
            renumbered.append(plaque)
        result.append(tuple(renumbered))
    return tuple(result)
