"""Valuing Empire tableaux: special properties, the two-pass valuation, tie-breaks (RULINGS §5).

Pass one reads every tableau still in play for restrictions on the others: a Dwarf with a Gate
or Tower forbids every other player to emulate a type present in the Dwarf's tableau; a Thief
with a Coffer forbids every other player to count plaques of that Coffer's colour. Pass two
finds each tableau's best combination under the restrictions laid on it.

How the powers combine (the documents are silent; decided here, see the project notes):
* Powers belong to true plaques counted in the tableau: an emulated Coffer or Crown gives none,
  and a plaque its owner may not count gives none. Restrictions read the printed plaques.
* Crowns merge colours first (the colours of the Crowns as printed; with three or more Crowns
  any grouping of their colours, each group taking one of its Crowns' colours); then each
  Coffer may recolour one plaque of another colour to the Coffer's colour after the merge.
  Applying them the other way round reaches no colouring this order does not.
* A recoloured plaque is still a true plaque, and is compared by its new colour. Emulation
  keeps the colour the plaque is considered to have (an Elf's Sword, Bow or Sigil becomes a
  plaque of that colour).
* The set has one plaque of each colour and type, so the active plaques of a combination are
  all different plaques: no two may be considered the same colour and type.
* A tableau with no combination is valued by its single best plaque (`no-combination`).
The engine tries every choice the powers allow and keeps the best value.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from dealer.games.empire.combinations import (
    MAX_TABLEAU,
    NO_COMBINATION,
    Combination,
    CombinationTable,
    default_table,
)
from dealer.games.empire.deck import (
    COLOURS,
    DWARF,
    ELF,
    ELF_EMULATORS,
    THIEF,
    TYPES,
    Plaque,
    distinct_tableaux,
    format_plaques,
)
from dealer.kernel.comparison import Comparison, hand_names, rank_together
from dealer.kernel.errors import CardError

Identity = tuple[str, str, bool]
"""A plaque as it is considered: (colour, type, emulated)."""
Key = tuple[Any, ...]


@dataclass(frozen=True)
class Restrictions:
    """What other tableaux forbid this one: types it may not emulate, colours it may not count."""

    no_emulating: frozenset[str] = frozenset()
    no_counting: frozenset[str] = frozenset()
    reasons: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, list[str]]:
        """JSON-ready, in type and colour order."""
        return {
            "no_emulating": [t for t in TYPES if t in self.no_emulating],
            "no_counting": [c for c in COLOURS if c in self.no_counting],
        }


def restrictions_for(
    index: int,
    tableaux: Sequence[Sequence[Plaque]],
    label: Callable[[int], str] = lambda index: f"Tableau {index + 1}",
) -> Restrictions:
    """Pass one: the restrictions every other tableau still in play lays on tableau `index`
    (`label` names a tableau by its index in the reasons, as people count from 1)."""
    types: set[str] = set()
    colours: set[str] = set()
    reasons: list[str] = []
    for number, other in enumerate(tableaux):
        if number == index:
            continue
        present = [p for p in other if p.type is not None]
        walls = [p for p in present if p.type in ("gate", "tower")]
        if DWARF in other and walls:
            kinds = [t for t in TYPES if any(p.type == t for p in present)]
            types.update(kinds)
            reasons.append(
                f"{label(number)}'s Dwarf with {walls[0]} forbids emulating {', '.join(kinds)}"
            )
        coffers = [p for p in present if p.type == "coffer"]
        if THIEF in other and coffers:
            names = [c for c in COLOURS if any(p.colour == c for p in coffers)]
            colours.update(names)
            reasons.append(
                f"{label(number)}'s Thief with {', '.join(str(p) for p in coffers)} forbids "
                f"counting {', '.join(names)} plaques"
            )
    return Restrictions(frozenset(types), frozenset(colours), tuple(reasons))


@dataclass(frozen=True)
class Active:
    """A plaque that makes the combination, and what it is considered to be."""

    plaque: Plaque
    colour: str
    type: str
    emulated: bool
    recoloured_by: str | None = None

    @property
    def considered(self) -> str:
        """`red-sword`."""
        return f"{self.colour}-{self.type}"

    def describe(self) -> str:
        """`blue-bow as red-coffer (recoloured by red-coffer; emulated through the Elf)`."""
        if self.plaque.unique == "dragon":
            return f"dragon as {self.considered} (emulated: a Dragon may be any plaque)"
        notes = []
        if self.recoloured_by:
            notes.append(f"recoloured {self.recoloured_by}")
        if self.emulated:
            notes.append("emulated through the Elf")
        if not notes:
            return str(self.plaque)
        return f"{self.plaque} as {self.considered} ({'; '.join(notes)})"

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: the plaque, what it counts as, and how."""
        return {
            "plaque": str(self.plaque),
            "as": self.considered,
            "emulated": self.emulated,
            "recoloured": self.recoloured_by is not None,
        }


@dataclass(frozen=True)
class RankedTableau:
    """A valued tableau: its combination (or none), active plaques, and what restricted it."""

    plaques: tuple[Plaque, ...]
    category: str
    combination: Combination | None
    active: tuple[Active, ...]
    ignored: tuple[Plaque, ...]
    restrictions: Restrictions
    table: CombinationTable

    @property
    def key(self) -> Key:
        """Compare keys (greater is better): the combination's rank, then the active plaques'
        type ranks highest first, then true over emulated, then colours (red highest)."""
        return (
            self.table.category_rank(self.category),
            tuple(self.table.type_rank(a.type) for a in self.active),
            tuple(not a.emulated for a in self.active),
            tuple(len(COLOURS) - COLOURS.index(a.colour) for a in self.active),
        )

    @property
    def provisional(self) -> bool:
        """True when the ruling rests on a provisional combination table."""
        return self.table.provisional

    def describe(self) -> str:
        """`pair (red-sword, dragon as blue-sword)`."""
        if not self.active:
            return f"{self.category} (nothing counts)"
        return f"{self.category} ({', '.join(_short(a) for a in self.active)})"

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: `{"category", "plaques", "active", "ignored", "restrictions", "value",
        "provisional", "table"}`."""
        rank, ranks, trues, _ = self.key
        return {
            "category": self.category,
            "plaques": [str(p) for p in self.plaques],
            "active": [a.to_dict() for a in self.active],
            "ignored": [str(p) for p in self.ignored],
            "restrictions": self.restrictions.to_dict(),
            "value": {
                "combination_rank": rank,
                "type_ranks": list(ranks),
                "true": list(trues),
                "colours": [a.colour for a in self.active],
            },
            "provisional": self.provisional,
            "table": self.table.to_dict(),
        }

    def explanation(self) -> list[str]:
        """Which combination, made by which plaques and powers, under which restrictions."""
        lines = []
        if self.combination is not None:
            place = [c.name for c in self.table.combinations].index(self.category) + 1
            lines.append(
                f"{self.category}: {self.combination.description} (combination {place} of "
                f"{len(self.table.combinations)} in table {self.table.name} "
                f"v{self.table.version})."
            )
        elif self.active:
            lines.append(
                f"{NO_COMBINATION}: no combination of the table; valued by its best plaque."
            )
        else:
            lines.append(f"{NO_COMBINATION}: no plaque counts.")
        if self.active:
            lines.append("Active: " + "; ".join(a.describe() for a in self.active) + ".")
        if any(a.emulated and a.type in ("coffer", "crown") for a in self.active):
            lines.append("An emulated Coffer or Crown gives none of its power.")
        lines.extend(f"Restricted: {reason}." for reason in self.restrictions.reasons)
        if self.ignored:
            lines.append(f"Not counted: {format_plaques(self.ignored)}.")
        lines.append(
            "Ties: highest-ranked active plaques, then true over emulated, then colour "
            f"({', '.join(COLOURS)}); else split."
        )
        if self.provisional:
            lines.append(PROVISIONAL_LINE.format(name=self.table.name, version=self.table.version))
        return lines


PROVISIONAL_LINE = (
    "Provisional: this ruling rests on the combination table and type order, which the rule "
    "documents lost (see docs/rules.md, Empire); table {name} v{version} holds only the attested "
    "combinations. "
    "Load the real table to rule for certain."
)


def _short(active: Active) -> str:
    if active.plaque.unique == "dragon" or active.emulated or active.recoloured_by:
        return f"{active.plaque} as {active.considered}"
    return str(active.plaque)


# --- pass two: the best combination of one tableau ---------------------------------------


@dataclass(frozen=True)
class _Colouring:
    colours: tuple[str | None, ...]
    via: tuple[str | None, ...]


def _merges(crowns: list[str]) -> Iterator[dict[str, str]]:
    """Every way the Crowns' colours may be merged: group them, each group into one colour."""
    if len(crowns) < 2:
        yield {}
        return
    for blocks in _partitions(crowns):
        for reps in itertools.product(*blocks):
            yield {c: rep for block, rep in zip(blocks, reps, strict=True) for c in block}


def _partitions(items: list[str]) -> Iterator[list[list[str]]]:
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for blocks in _partitions(rest):
        yield [[first], *blocks]
        for i in range(len(blocks)):
            yield [*blocks[:i], [first, *blocks[i]], *blocks[i + 1 :]]


def _colourings(plaques: Sequence[Plaque]) -> Iterator[_Colouring]:
    """Every colouring the true Crowns and Coffers allow, the unchanged one first."""
    crowns = [c for c in COLOURS if any(p.type == "crown" and p.colour == c for p in plaques)]
    coffers = [i for i, p in enumerate(plaques) if p.type == "coffer"]
    seen: set[tuple[str | None, ...]] = set()
    merges = sorted(_merges(crowns), key=lambda m: sum(k != v for k, v in m.items()))
    for merge in merges:
        merged = [merge.get(p.colour, p.colour) if p.colour else None for p in plaques]
        base_via = [
            f"by the Crowns, {p.colour} merged into {merged[i]}"
            if p.colour and merged[i] != p.colour
            else None
            for i, p in enumerate(plaques)
        ]
        options = [[None, *(j for j, p in enumerate(plaques) if p.colour)] for _ in coffers]
        for targets in itertools.product(*options):
            chosen = [t for t in targets if t is not None]
            if len(set(chosen)) != len(chosen):
                continue
            colours = list(merged)
            via = list(base_via)
            valid = True
            for coffer, target in zip(coffers, targets, strict=True):
                if target is None:
                    continue
                colour = merged[coffer]
                if target == coffer or merged[target] == colour:
                    valid = False
                    break
                colours[target] = colour
                via[target] = f"by {plaques[coffer]}"
            key = tuple(colours)
            if valid and key not in seen:
                seen.add(key)
                yield _Colouring(key, tuple(via))


def _candidates(
    plaques: Sequence[Plaque], colouring: _Colouring, restrictions: Restrictions
) -> list[list[Identity]]:
    """What each plaque may be considered to be under one colouring."""
    has_elf = ELF in plaques
    free_types = [t for t in TYPES if t not in restrictions.no_emulating]
    free_colours = [c for c in COLOURS if c not in restrictions.no_counting]
    result: list[list[Identity]] = []
    for plaque, colour in zip(plaques, colouring.colours, strict=True):
        if plaque.unique == "dragon":
            result.append([(c, t, True) for t in free_types for c in free_colours])
        elif plaque.type is None or colour is None:
            result.append([])
        else:
            options: list[Identity] = [(colour, plaque.type, False)]
            if has_elf and plaque.type in ELF_EMULATORS:
                options += [(colour, t, True) for t in free_types if t != plaque.type]
            result.append(options)
    return result


def _targets(combination: Combination) -> Iterator[tuple[str | None, frozenset[str]]]:
    """The (colour or None, allowed types) each instance of a combination is searched under."""
    if combination.kind == "same-type":
        for kind in combination.types:
            yield None, frozenset({kind})
    elif combination.same_colour:
        for colour in COLOURS:
            yield colour, frozenset(combination.types)
    else:
        yield None, frozenset(combination.types)


def _selection_key(
    chosen: Sequence[tuple[int, Identity]], table: CombinationTable
) -> tuple[Key, list[tuple[int, Identity]]]:
    ordered = sorted(
        chosen,
        key=lambda item: (
            -table.type_rank(item[1][1]),
            item[1][2],
            COLOURS.index(item[1][0]),
        ),
    )
    idents = [ident for _, ident in ordered]
    key = (
        tuple(table.type_rank(t) for _, t, _ in idents),
        tuple(not e for _, _, e in idents),
        tuple(len(COLOURS) - COLOURS.index(c) for c, _, _ in idents),
    )
    return key, ordered


def _best_selection(
    candidates: list[list[Identity]], count: int, table: CombinationTable
) -> tuple[Key, list[tuple[int, Identity]]] | None:
    """The best way to pick `count` plaques as different identities from their candidates."""
    best: tuple[Key, list[tuple[int, Identity]]] | None = None
    chosen: list[tuple[int, Identity]] = []
    used: set[tuple[str, str]] = set()
    n = len(candidates)

    def search(i: int) -> None:
        nonlocal best
        if len(chosen) == count:
            found = _selection_key(chosen, table)
            if best is None or found[0] > best[0]:
                best = found
            return
        if n - i < count - len(chosen):
            return
        for ident in candidates[i]:
            if (ident[0], ident[1]) not in used:
                used.add((ident[0], ident[1]))
                chosen.append((i, ident))
                search(i + 1)
                chosen.pop()
                used.discard((ident[0], ident[1]))
        search(i + 1)

    search(0)
    return best


def _value(
    counted: Sequence[Plaque], table: CombinationTable, restrictions: Restrictions
) -> tuple[str, Combination | None, tuple[Active, ...]]:
    colourings = list(_colourings(counted))
    per_colouring = [(c, _candidates(counted, c, restrictions)) for c in colourings]
    searches: list[tuple[Combination | None, str | None, frozenset[str] | None, int]] = [
        (combination, colour, types, combination.count)
        for combination in table.combinations
        for colour, types in _targets(combination)
    ]
    searches.append((None, None, None, 1))  # no combination: the single best plaque
    found: tuple[Key, list[tuple[int, Identity]], _Colouring] | None = None
    current: Combination | None = None
    for combination, colour, types, count in searches:
        if found is not None and combination is not current:
            break
        current = combination
        for colouring, candidates in per_colouring:
            filtered = [
                [
                    ident
                    for ident in options
                    if (colour is None or ident[0] == colour)
                    and (types is None or ident[1] in types)
                ]
                for options in candidates
            ]
            best = _best_selection(filtered, count, table)
            if best is not None and (found is None or best[0] > found[0]):
                found = (best[0], best[1], colouring)
    if found is None:
        return NO_COMBINATION, None, ()
    _, selection, colouring = found
    active = tuple(
        Active(
            counted[i],
            colour,
            kind,
            emulated,
            colouring.via[i] if counted[i].unique is None and colour != counted[i].colour else None,
        )
        for i, (colour, kind, emulated) in selection
    )
    name = current.name if current is not None else NO_COMBINATION
    return name, current, active


def value_tableau(
    plaques: Sequence[Plaque], table: CombinationTable, restrictions: Restrictions
) -> RankedTableau:
    """Pass two for one tableau under given restrictions."""
    counted = tuple(p for p in plaques if p.colour not in restrictions.no_counting)
    ignored = tuple(p for p in plaques if p.colour in restrictions.no_counting)
    name, combination, active = _value(counted, table, restrictions)
    return RankedTableau(tuple(plaques), name, combination, active, ignored, restrictions, table)


def _check_size(plaques: Sequence[Plaque], number: int | None = None) -> None:
    if not 1 <= len(plaques) <= MAX_TABLEAU:
        which = "the tableau" if number is None else f"tableau {number}"
        raise CardError(
            f"wrong number of plaques for {which}: expected 1-{MAX_TABLEAU}, got {len(plaques)}"
        )


def rank_tableau(
    plaques: Iterable[Plaque],
    table: CombinationTable | None = None,
    others: Iterable[Iterable[Plaque]] = (),
) -> RankedTableau:
    """Value one tableau (1-7 plaques), restricted by the `others` still in play.

    `table` defaults to the shipped provisional table. Raises `CardError` for a plaque in two
    tableaux, a third Dragon or a wrong size."""
    tableaux = distinct_tableaux([tuple(plaques), *(tuple(o) for o in others)])
    _check_size(tableaux[0])
    table = table if table is not None else default_table()
    restrictions = restrictions_for(0, tableaux, lambda index: f"Other tableau {index}")
    return value_tableau(tableaux[0], table, restrictions)


def comparison_dict(comparison: Comparison[RankedTableau]) -> dict[str, Any]:
    """JSON-ready: `{"winners", "split", "hands", "provisional", "table"}`, the combination table
    the tableaux were valued with."""
    table = comparison.best.table
    return comparison.to_dict() | {"provisional": table.provisional, "table": table.to_dict()}


def explain(comparison: Comparison[RankedTableau]) -> list[str]:
    """Each tableau's value, the winner and the rule that decided."""
    names, best = comparison.names, comparison.best
    lines = [f"{names[i]}: {h.describe()}." for i, h in enumerate(comparison.hands)]
    for i, hand in enumerate(comparison.hands):
        lines.extend(f"{names[i]} restricted: {r}." for r in hand.restrictions.reasons)
    if comparison.tie:
        tied = " and ".join(names[i] for i in comparison.winners)
        lines.append(f"{tied} tie on {best.category}: they split the pot.")
    else:
        lines.append(f"{names[comparison.winners[0]]} wins with {best.describe()}.")
    losers = comparison.losers()
    if losers:
        runner_up = max(losers, key=lambda h: h.key)
        lines.append(_decider(best, runner_up))
    if best.table.provisional:
        lines.append(PROVISIONAL_LINE.format(name=best.table.name, version=best.table.version))
    return lines


def _decider(best: RankedTableau, other: RankedTableau) -> str:
    stage = next(i for i in range(4) if best.key[i] != other.key[i])
    if stage == 0:
        return f"{best.category} ranks above {other.category} in table {best.table.name}."
    pairs = list(zip(best.active, other.active, strict=False))
    if stage == 1:
        differ = next(((a, b) for a, b in pairs if a.type != b.type), None)
        if differ is None:
            return f"Both {best.category}: a tableau with a plaque that counts beats one without."
        return (
            f"Both {best.category}: the highest-ranked active plaques decide, "
            f"{differ[0].type} against {differ[1].type}."
        )
    if stage == 2:
        return f"Both {best.category} of equal rank: a true plaque beats an emulated one."
    mine, theirs = next((a, b) for a, b in pairs if a.colour != b.colour)
    return (
        f"Both {best.category} of equal rank: colour decides, {mine.colour} against "
        f"{theirs.colour} ({' > '.join(COLOURS)})."
    )


def compare(
    tableaux: Iterable[Iterable[Plaque]],
    table: CombinationTable | None = None,
    names: Sequence[str] | None = None,
) -> Comparison[RankedTableau]:
    """Value every tableau still in play (two passes) and name the winner(s).

    `names` label the tableaux in the explanation (default `Tableau 0`, `Tableau 1`, …; the
    winners are indices from 0 either way). Raises `CardError` for fewer than two tableaux, a
    wrong size, a plaque in two tableaux or a third Dragon."""
    checked = distinct_tableaux(tableaux)
    if len(checked) < 2:
        raise CardError(f"compare needs at least two tableaux, got {len(checked)}")
    for number, plaques in enumerate(checked, start=1):
        _check_size(plaques, number)
    table = table if table is not None else default_table()
    labels = hand_names(len(checked), names, "Tableau", "tableaux")
    ranked = [
        value_tableau(plaques, table, restrictions_for(i, checked, lambda n: labels[n]))
        for i, plaques in enumerate(checked)
    ]
    return rank_together(ranked, labels)
