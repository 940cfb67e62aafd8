"""The Empire combination table: which plaques score, in what order, and the type ranks.

The rule documents lost the table (RULINGS §5), so it is data: the shipped
`combinations.yaml` is provisional and holds only the attested combinations; an operator loads
the real one with `load_table(path)`. The file's shape is described at the top of
`combinations.yaml`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from importlib import resources
from pathlib import Path
from typing import Any

from dealer.games.empire.deck import CIVIC, MILITARY, TYPES
from dealer.inputs import TEXT_LIMIT, beyond_ascii, document, text, whole_number
from dealer.kernel.digest import sha256_hex
from dealer.kernel.errors import ConfigError, DealerError
from dealer.kernel.text import quoted

KINDS = ("same-type", "same-colour", "set")
NO_COMBINATION = "no-combination"
MAX_TABLEAU = 7
_NAME = re.compile(r"[a-z0-9]+(-[a-z0-9]+)*")
_TOP_KEYS = {"name", "version", "provisional", "note", "type_order", "combinations"}
_ENTRY_KEYS = {"name", "kind", "count", "types", "same_colour", "description"}


def _not_a_name(name: object) -> str:
    """Why a combination's or a table's `name` is refused (a character beyond ASCII named)."""
    found = beyond_ascii(name)
    return f"{name!r} is not a lower-case kebab-case name" + (f" ({found})" if found else "")


@dataclass(frozen=True)
class Combination:
    """One scoring combination. `types` are the allowed types (same-type, same-colour) or the
    required ones (set)."""

    name: str
    kind: str
    count: int
    types: tuple[str, ...]
    same_colour: bool
    description: str

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready summary."""
        return {"name": self.name, "kind": self.kind, "count": self.count}


@dataclass(frozen=True)
class CombinationTable:
    """A loaded table: its name, version, whether it is provisional, where it came from, the
    type order (highest first) and the combinations (best first); and the SHA-256 of the
    file's text (empty for a table not read from text), which a ruling records
    (`combinations_sha256`) and a supervisor approves."""

    name: str
    version: str
    provisional: bool
    origin: str
    note: str
    type_order: tuple[str, ...]
    combinations: tuple[Combination, ...]
    sha256: str = ""

    def type_rank(self, kind: str) -> int:
        """The rank of a type: 9 for the highest, 1 for the lowest."""
        return len(self.type_order) - self.type_order.index(kind)

    def category_rank(self, name: str) -> int:
        """The rank of a combination: the best is the highest; `no-combination` is 0."""
        names = [c.name for c in self.combinations]
        return 0 if name == NO_COMBINATION else len(names) - names.index(name)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: what a ruling records about the table it used."""
        return {
            "name": self.name,
            "version": self.version,
            "provisional": self.provisional,
            "origin": self.origin,
        }


def _describe(kind: str, count: int, types: tuple[str, ...], same_colour: bool) -> str:
    if kind == "same-type":
        return f"{count} plaques of one type"
    if kind == "same-colour":
        group = {MILITARY: "Military ", CIVIC: "Civic ", TYPES: ""}.get(types)
        which = group if group is not None else f"({', '.join(types)}) "
        return f"{count} {which}plaques of one colour, all of different types"
    colour = ", all of one colour" if same_colour else ""
    return f"one each of {', '.join(types)}{colour}"


class _Reader:
    """Validates one table document; every error names the file, the place and the problem."""

    def __init__(self, origin: str) -> None:
        self.origin = origin

    def error(self, where: str, problem: str) -> ConfigError:
        return ConfigError(f"combination table {self.origin}: {where}: {problem}")

    def types(self, value: Any, where: str) -> tuple[str, ...]:
        if not isinstance(value, list) or not value:
            raise self.error(where, "must be a non-empty list of types")
        for i, item in enumerate(value):
            if item not in TYPES:
                raise self.error(
                    f"{where}[{i}]", f"unknown type {item!r} (types: {' '.join(TYPES)})"
                )
        if len(set(value)) != len(value):
            dup = next(t for t in value if value.count(t) > 1)
            raise self.error(where, f"type {dup!r} is listed twice")
        return tuple(value)

    def entry(self, raw: Any, where: str, order: tuple[str, ...]) -> Combination:
        if not isinstance(raw, dict):
            raise self.error(where, "must be a mapping with name and kind")
        unknown = sorted(set(raw) - _ENTRY_KEYS)
        if unknown:
            raise self.error(
                f"{where}.{unknown[0]}", f"unknown key (known: {', '.join(sorted(_ENTRY_KEYS))})"
            )
        name = raw.get("name")
        if not isinstance(name, str) or not _NAME.fullmatch(name):
            raise self.error(f"{where}.name", _not_a_name(name))
        if name == NO_COMBINATION:
            raise self.error(f"{where}.name", f"{NO_COMBINATION!r} is reserved for no combination")
        kind = raw.get("kind")
        if kind not in KINDS:
            raise self.error(f"{where}.kind", f"unknown kind {kind!r} (kinds: {', '.join(KINDS)})")
        types = self.types(raw["types"], f"{where}.types") if "types" in raw else TYPES
        types = tuple(t for t in order if t in types)  # highest first
        same_colour = raw.get("same_colour", kind == "same-colour")
        if not isinstance(same_colour, bool):
            raise self.error(f"{where}.same_colour", "must be true or false")
        if kind != "set" and "same_colour" in raw:
            raise self.error(f"{where}.same_colour", f"only a 'set' takes same_colour, not {kind}")
        if kind == "set":
            if "types" not in raw:
                raise self.error(f"{where}.types", "a 'set' must list its types")
            if "count" in raw and self.count(raw["count"], where) != len(types):
                raise self.error(
                    f"{where}.count", f"a 'set' of {len(types)} types has count {len(types)}"
                )
            count = len(types)
        else:
            count = self.count(raw.get("count"), where)
        least = 2
        most = {"same-type": 5, "same-colour": len(types), "set": MAX_TABLEAU}[kind]
        most = min(most, MAX_TABLEAU)
        if not least <= count <= most:
            why = {
                "same-type": "a type has five plaques, one per colour",
                "same-colour": f"{len(types)} types are allowed",
                "set": f"a tableau holds at most {MAX_TABLEAU} plaques",
            }[kind]
            raise self.error(f"{where}.count", f"{count} is not in {least}-{most} ({why})")
        description = self.shown(
            raw.get("description", _describe(kind, count, types, same_colour)),
            f"{where}.description",
        )
        return Combination(name, kind, count, types, same_colour, description)

    def count(self, given: Any, where: str) -> int:
        """A combination's count, in decimal as written (`dealer.inputs.whole_number`)."""
        try:
            return whole_number(given, "count", most=MAX_TABLEAU)
        except DealerError as exc:
            raise self.error(f"{where}.count", str(exc)) from None

    def shown(self, value: Any, where: str) -> str:
        """A text the table shows: one line without control characters (`dealer.inputs.text`)."""
        try:
            return text(value, where, limit=TEXT_LIMIT)
        except DealerError as exc:
            raise ConfigError(f"combination table {self.origin}: {exc}") from None

    def table(self, raw: Any) -> CombinationTable:
        if not isinstance(raw, dict):
            raise self.error("top level", "must be a mapping")
        unknown = sorted(set(raw) - _TOP_KEYS)
        if unknown:
            raise self.error(unknown[0], f"unknown key (known: {', '.join(sorted(_TOP_KEYS))})")
        for key in ("name", "version", "provisional", "type_order", "combinations"):
            if key not in raw:
                raise self.error(key, "missing")
        name = raw["name"]
        if not isinstance(name, str) or not _NAME.fullmatch(name):
            raise self.error("name", _not_a_name(name))
        version = self.shown(raw["version"], "version")
        provisional = raw["provisional"]
        if not isinstance(provisional, bool):
            raise self.error("provisional", f"must be true or false, not {quoted(provisional)}")
        note = raw.get("note")
        note = "" if note is None else self.shown(note, "note")
        order = self.types(raw["type_order"], "type_order")
        if len(order) != len(TYPES):
            missing = [t for t in TYPES if t not in order]
            raise self.error("type_order", f"must rank all nine types; missing {' '.join(missing)}")
        entries = raw["combinations"]
        if not isinstance(entries, list) or not entries:
            raise self.error("combinations", "must be a non-empty list, best first")
        combinations = tuple(
            self.entry(item, f"combinations[{i}]", order) for i, item in enumerate(entries)
        )
        seen: set[str] = set()
        for i, combination in enumerate(combinations):
            if combination.name in seen:
                raise self.error(f"combinations[{i}].name", f"{combination.name!r} is used twice")
            seen.add(combination.name)
        return CombinationTable(name, version, provisional, self.origin, note, order, combinations)


def parse_table(raw: Mapping[str, Any] | Any, origin: str) -> CombinationTable:
    """Validate an already-read table document (`origin` names it in errors)."""
    return _Reader(origin).table(raw)


def load_table(path: str | Path) -> CombinationTable:
    """Load and validate an operator's table file; `ConfigError` names file, place, problem."""
    origin = str(path)
    from dealer.inputs import InputFileError, text_file  # an operator's file only

    try:
        text = text_file(path, "combination table")
    except InputFileError as exc:
        raise ConfigError(f"combination table {origin}: cannot read it: {exc.reason}") from None
    return _parse_text(text, origin)


def _parse_text(text: str, origin: str) -> CombinationTable:
    table = parse_table(document(text, f"combination table {origin}"), origin)
    return replace(table, sha256=sha256_hex(text))


def default_table() -> CombinationTable:
    """The shipped provisional table (attested combinations only)."""
    text = resources.files("dealer.games.empire").joinpath("combinations.yaml").read_text("utf-8")
    return _parse_text(text, "shipped combinations.yaml")
