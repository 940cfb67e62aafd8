"""Pay tables of the Emperor's Challenge Exposed bonus wagers as YAML data: load, check, look up.

A pay-table file (schema 1) holds one or more tables:

    schema: 1
    source: "Emperor's Challenge Exposed, Appendix A (Pai Gow Insurance)"
    notes: ["All pays are \\"to 1.\\"", ...]          # optional
    tables:
      - id: PT-FLT-EC-PGI-01
        wager: insurance          # a bonus wager (`dealer.games.paigow.pay.BONUSES`):
                                  # insurance | treasure | envy | progressive_insurance | …
        name: "Pai Gow Insurance" # optional
        basis: to-1               # the table's note: to-1 | for-1 (a wager) or fixed (Envy)
        rows:
          - {event: 9-high-pai-gow, label: "9-High Pai Gow", kind: to-1, value: 400}

Row kinds: `to-1` (win value × wager, the wager returned), `for-1` (value × wager returned, the
wager included), `fixed` (an amount), `percent-of-meter` (that share of the progressive meter),
`push`, `loss`, `not-offered` (the seed's N/A: no row). In a `for-1` table a fixed or
percent-of-meter pay is paid for the wager (the wager is not returned); in a `to-1` table it is
paid on top of the wager; Envy (`fixed`) has no wager of its own.

The shipped tables live in `paytables/` at the project root (in an installed wheel, in the
package `dealer.shipped_paytables` if the build maps it there); an operator adds tables by
dropping files into a directory passed to `load_paytables`. Every problem names the file, the
table, the row and what is wrong.
"""

from __future__ import annotations

import functools
import importlib.util
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from decimal import Decimal
from pathlib import Path
from types import MappingProxyType
from typing import Any

from dealer.games.paigow.events import EVENT_ORDER, LABELS
from dealer.games.paigow.pay import BONUSES, Basis, Pay, PayKind, Settled, Wager
from dealer.inputs import beyond_ascii, decimal_number, document, money, text, text_file
from dealer.kernel.digest import sha256_hex
from dealer.kernel.documents import DocumentSyntaxError
from dealer.kernel.errors import DealerError, PayTableError
from dealer.kernel.money import money_json
from dealer.kernel.text import quoted

SCHEMA = 1


@dataclass(frozen=True, slots=True)
class WagerKind:
    """What a table for one bonus wager may hold."""

    wager: Wager
    events: tuple[str, ...]
    bases: tuple[Basis, ...]
    kinds: frozenset[PayKind]

    @property
    def name(self) -> str:
        """The wager's name: `Pai Gow Insurance`."""
        return self.wager.full_name


_KINDS = tuple(PayKind)
_ODDS = (Basis.TO_ONE, Basis.FOR_ONE)


def _kind(wager: Wager) -> WagerKind:
    """What a table for `wager` may hold, by how it is settled: Envy's kind (across the table)
    fixed amounts only; a progressive one any kind, shares of the meter too; any other odds,
    fixed amounts, pushes and losses."""
    match wager.settled:
        case Settled.ACROSS_THE_TABLE:
            fixed = frozenset({PayKind.FIXED, PayKind.NOT_OFFERED})
            return WagerKind(wager, wager.terms.events, (Basis.FIXED,), fixed)
        case Settled.FROM_A_METER:
            return WagerKind(wager, wager.terms.events, _ODDS, frozenset(PayKind))
    return WagerKind(wager, wager.terms.events, _ODDS, frozenset(PayKind) - {PayKind.PERCENT})


WAGERS: Mapping[str, WagerKind] = MappingProxyType({w: _kind(w) for w in BONUSES})
"""What each bonus wager's tables may hold (the events its registry entry names), in the order
of `Wager`."""

_FILE_KEYS = frozenset({"schema", "source", "notes", "tables"})
_TABLE_KEYS = frozenset({"id", "wager", "name", "basis", "notes", "rows"})
_ROW_KEYS = frozenset({"event", "label", "kind", "value"})
_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")


@dataclass(frozen=True, slots=True)
class PayRow:
    """A row of a table: the event it pays, the seed's label, the pay. `number` counts from 1."""

    number: int
    event: str
    label: str
    pay: Pay

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "row": self.number,
            "event": self.event,
            "label": self.label,
            "kind": self.pay.kind,
            "value": None if self.pay.value is None else money_json(self.pay.value),
            "pays": self.pay.text(),
        }


@dataclass(frozen=True, slots=True)
class PayTable:
    """A validated pay table."""

    id: str
    wager: Wager
    name: str
    basis: Basis
    rows: tuple[PayRow, ...]
    notes: tuple[str, ...]
    source: str
    path: str
    sha256: str = ""
    """SHA-256 of the text of the file the table was read from, as every ruling that pays by it
    records it (`paytables_sha256`): the file's content, never a cached copy, names the table."""

    def row(self, event: str) -> PayRow | None:
        """The table's row for `event` (N/A rows included), or None."""
        return next((r for r in self.rows if r.event == event), None)

    def row_for(self, events: Sequence[str]) -> PayRow | None:
        """The row that settles a hand whose events are `events` (highest first): the first
        one the table offers. None when the table offers none of them."""
        for event in events:
            row = self.row(event)
            if row is not None and row.pay.kind != PayKind.NOT_OFFERED:
                return row
        return None

    @property
    def has_wager(self) -> bool:
        """False for Envy tables, which pay without a wager of their own."""
        return self.basis != Basis.FIXED

    def to_dict(self) -> dict[str, Any]:
        """JSON form (`dealer paytables show`)."""
        return {
            "id": self.id,
            "wager": self.wager,
            "name": self.name,
            "basis": self.basis,
            "source": self.source,
            "file": self.path,
            "notes": list(self.notes),
            "rows": [r.to_dict() for r in self.rows],
        }


@dataclass(frozen=True)
class PayTables:
    """The pay tables a table may use, by id."""

    tables: Mapping[str, PayTable]

    def get(self, table_id: str, wager: str | None = None) -> PayTable:
        """The table `table_id`; with `wager`, it must be a table for that wager."""
        table = self.tables.get(table_id)
        if table is None:
            known = ", ".join(sorted(self.tables))
            raise PayTableError(f"unknown pay table {table_id!r} (known: {known})")
        if wager is not None and table.wager != wager:
            raise PayTableError(
                f"pay table {table_id} is for {WAGERS[table.wager].name}, "
                f"not for {WAGERS[wager].name}"
            )
        return table

    def __iter__(self) -> Iterator[PayTable]:
        return iter(sorted(self.tables.values(), key=lambda t: (list(Wager).index(t.wager), t.id)))

    def __len__(self) -> int:
        return len(self.tables)


class _Problems:
    """Collects every problem of one file, each naming the place."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.lines: list[str] = []

    def add(self, where: str, problem: str) -> None:
        self.lines.append(f"{self.path}: {where + ': ' if where else ''}{problem}")


TEXT_LIMIT = 500
"""The most characters of a text a pay-table file shows (a source, a note, a name, a label)."""
ODDS_LIMIT = Decimal(100_000)
"""The largest odds a row may pay (`to-1`, `for-1`): 100,000 to 1 (the shipped tables' largest
is 8,000); the bound keeps every pay exact and finite."""
ODDS_PLACES = 2
"""The most decimals of odds or of a percentage of the meter (`7.5`, `12.25`)."""


def _shown(value: Any, what: str) -> str | None:
    """The problem with a text the file shows (a source, a note, a name, a label): it must be
    one line without control characters, at most `TEXT_LIMIT` characters; None when it is."""
    try:
        text(value, what, limit=TEXT_LIMIT)
    except DealerError as exc:
        return str(exc)
    return None


def _notes(raw: Any, where: str, problems: _Problems) -> tuple[str, ...]:
    if raw is None:
        return ()
    if not isinstance(raw, list):
        problems.add(where, "notes must be a list of texts")
        return ()
    found = [problem for note in raw if (problem := _shown(note, "a note")) is not None]
    for problem in found:
        problems.add(where, problem)
    return () if found else tuple(note.strip() for note in raw)


def _value(raw: Any, kind: PayKind) -> tuple[Decimal | None, str | None]:
    """The row's value, or the problem with it: a fixed pay an amount (`dealer.inputs.money`),
    odds up to `ODDS_LIMIT` and a share of the meter up to 100 (%) in decimal with at most
    `ODDS_PLACES` decimals (`dealer.inputs.decimal_number`: `7,50` is refused, never guessed);
    each above zero."""
    if not kind.valued:
        return None, (None if raw is None else f"a {kind} row has no value (got {quoted(raw)})")
    if raw is None:
        return None, f"a {kind} row needs a value"
    try:
        if kind == PayKind.FIXED:
            value = money(raw, "value")
        else:
            most = Decimal(100) if kind == PayKind.PERCENT else ODDS_LIMIT
            value = decimal_number(raw, "value", places=ODDS_PLACES, most=most)
    except DealerError as exc:
        return None, str(exc)
    if value <= 0:
        return None, f"value {raw} must be a number above zero"  # digits: read above
    return value, None


def _row(
    raw: Any, number: int, table: str, spec: WagerKind | None, problems: _Problems
) -> PayRow | None:
    if not isinstance(raw, Mapping):
        problems.add(f"table {table}, row {number}", "a row must be a mapping with event and kind")
        return None
    event = raw.get("event")
    where = f"table {table}, row {number}" + (f" ({event})" if isinstance(event, str) else "")
    bad = len(problems.lines)
    for key in sorted(set(raw) - _ROW_KEYS, key=str):
        problems.add(where, f"unknown field {key!r} (a row has {', '.join(sorted(_ROW_KEYS))})")
    if not isinstance(event, str):
        problems.add(where, "missing event")
    elif event not in EVENT_ORDER:
        problems.add(where, f"unknown event {event!r} (known: {', '.join(EVENT_ORDER)})")
    elif spec is not None and event not in spec.events:
        problems.add(where, f"event {event} is not paid by {spec.name} tables")
    kind = raw.get("kind")
    if kind not in _KINDS:
        problems.add(where, f"kind {kind!r} is not one of {', '.join(_KINDS)}")
    elif spec is not None and kind not in spec.kinds:
        allowed = ", ".join(k for k in _KINDS if k in spec.kinds)
        problems.add(where, f"kind {kind} is not allowed in {spec.name} tables ({allowed})")
    value, value_problem = (
        _value(raw.get("value"), PayKind(kind)) if kind in _KINDS else (None, None)
    )
    if value_problem:
        problems.add(where, value_problem)
    label = raw.get("label")
    if label is not None and (problem := _shown(label, "label")) is not None:
        problems.add(where, problem)
    if len(problems.lines) > bad:
        return None
    assert isinstance(event, str) and isinstance(kind, str)
    return PayRow(number, event, str(label or LABELS[event]).strip(), Pay(PayKind(kind), value))


def _table(
    raw: Any, index: int, source: str, file_notes: tuple[str, ...], problems: _Problems
) -> PayTable | None:
    if not isinstance(raw, Mapping):
        problems.add(f"table #{index}", "a table must be a mapping with id, wager, basis and rows")
        return None
    table_id = raw.get("id")
    name_ok = isinstance(table_id, str) and bool(_ID.fullmatch(table_id))
    label = str(table_id) if name_ok else f"#{index}"
    where = f"table {label}"
    bad = len(problems.lines)
    if not name_ok:
        found = beyond_ascii(table_id)
        problems.add(
            where,
            f"id {quoted(table_id)} must be a name of letters, digits, '.', '_', '-' (up to 64)"
            + (f", in ASCII: {found}" if found else ""),
        )
    for key in sorted(set(raw) - _TABLE_KEYS, key=str):
        problems.add(where, f"unknown field {key!r} (a table has {', '.join(sorted(_TABLE_KEYS))})")
    wager = raw.get("wager")
    spec = WAGERS.get(wager) if isinstance(wager, str) else None
    if spec is None:
        problems.add(where, f"wager {wager!r} is not one of {', '.join(WAGERS)}")
    basis = raw.get("basis")
    if spec is not None and basis not in spec.bases:
        problems.add(
            where, f"basis {basis!r} is not allowed for {spec.name} ({', '.join(spec.bases)})"
        )
    name = raw.get("name")
    if name is not None and (problem := _shown(name, "name")) is not None:
        problems.add(where, problem)
    notes = _notes(raw.get("notes"), where, problems)
    rows_raw = raw.get("rows")
    rows: list[PayRow] = []
    if not isinstance(rows_raw, list) or not rows_raw:
        problems.add(where, "rows must be a list of at least one row")
        rows_raw = []
    seen: dict[str, int] = {}
    for number, row_raw in enumerate(rows_raw, 1):
        row = _row(row_raw, number, label, spec, problems)
        if row is None:
            continue
        if row.event in seen:
            problems.add(
                f"{where}, row {number} ({row.event})",
                f"event {row.event} is already row {seen[row.event]}",
            )
            continue
        seen[row.event] = number
        rows.append(row)
    if (
        rows
        and len(problems.lines) == bad
        and all(r.pay.kind in (PayKind.LOSS, PayKind.NOT_OFFERED) for r in rows)
    ):
        problems.add(where, "no row pays anything")
    if len(problems.lines) > bad:
        return None
    assert isinstance(table_id, str) and isinstance(wager, str) and isinstance(basis, str)
    return PayTable(
        table_id,
        Wager(wager),
        str(name or WAGERS[wager].name).strip(),
        Basis(basis),
        tuple(rows),
        file_notes + notes,
        source,
        problems.path,
    )


def _read(path: Path) -> tuple[tuple[PayTable, ...], list[str]]:
    """The tables of one file and every problem found in it. A file that cannot be read (none
    there, a directory, too large, not UTF-8) has nothing to check: it is refused as every input
    file is (`InputFileError`), not listed as a problem of its content."""
    return parse_tables(text_file(path, "pay-table file"), str(path), path.name)


def parse_tables(text: str, origin: str, name: str) -> tuple[tuple[PayTable, ...], list[str]]:
    """The tables of a pay-table file's `text` (`origin` names it in problems, `name` is its
    source when it names none) and every problem found in it: a file as read, or as a
    supervisor's approval keeps it on the record."""
    problems = _Problems(origin)
    try:
        raw = document(text, problems.path)
    except DocumentSyntaxError as exc:
        return (), [str(exc)]  # the reader's one line: the file, the place, the problem
    if not isinstance(raw, Mapping):
        problems.add("", "must be a mapping with schema and tables")
        return (), problems.lines
    for key in sorted(set(raw) - _FILE_KEYS, key=str):
        problems.add(
            "", f"unknown field {key!r} (a pay-table file has {', '.join(sorted(_FILE_KEYS))})"
        )
    if raw.get("schema") != str(SCHEMA):  # as written: `schema: 01` is not schema 1
        problems.add(
            "", f"schema {quoted(raw.get('schema'))} is not supported (expected schema: {SCHEMA})"
        )
    source = raw.get("source", name)
    if (problem := _shown(source, "source")) is not None:
        problems.add("", problem)
        source = name
    file_notes = _notes(raw.get("notes"), "", problems)
    tables_raw = raw.get("tables")
    if not isinstance(tables_raw, list) or not tables_raw:
        problems.add("", "tables must be a list of at least one table")
        return (), problems.lines
    tables: list[PayTable] = []
    seen: set[str] = set()
    for index, table_raw in enumerate(tables_raw, 1):
        table = _table(table_raw, index, str(source).strip(), file_notes, problems)
        if table is None:
            continue
        if table.id in seen:
            problems.add(f"table {table.id}", "the id is used twice in this file")
            continue
        seen.add(table.id)
        tables.append(table)
    digest = sha256_hex(text)
    return tuple(replace(t, sha256=digest) for t in tables), problems.lines


def read_file(path: str | Path) -> tuple[tuple[PayTable, ...], list[str]]:
    """The tables of one file and every problem found in it (no tables when its schema has
    problems); `InputFileError` when the file cannot be read. A file outside the shipped tables'
    folder may not give a table a shipped table's id (a copy of it or not): a property's table
    has an id of its own, so an id in a ruling, an approval or a summary names one table."""
    place = Path(path)
    tables, problems = _read(place)
    if problems:
        return (), problems
    if place.resolve().parent == shipped_dir().resolve():
        return tables, problems
    shipped = shipped_paytables().tables
    for table in tables:
        if (original := shipped.get(table.id)) is not None:
            problems.append(
                f"{place}: table {table.id}: the id is already defined in {original.path}"
            )
    return tables, problems


def check_file(path: str | Path) -> list[str]:
    """Every problem of a pay-table file (`read_file`; empty when it is valid)."""
    return read_file(path)[1]


def load_file(path: str | Path) -> tuple[PayTable, ...]:
    """The tables of one file (`read_file`); raise `PayTableError` naming the first problem (and
    how many)."""
    return _raise_first(*read_file(path))


def _raise_first(tables: tuple[PayTable, ...], problems: list[str]) -> tuple[PayTable, ...]:
    if problems:
        others = len(problems) - 1
        more = f" (and {others} more problem{'s' * (others > 1)})" if others else ""
        raise PayTableError(problems[0] + more)
    return tables


def shipped_dir() -> Path:
    """The directory of the shipped pay tables: the package `dealer.shipped_paytables` when the
    build maps `paytables/` there (wheels), else `paytables/` beside the package (source tree,
    editable install)."""
    spec = importlib.util.find_spec("dealer.shipped_paytables")
    if spec is not None and spec.submodule_search_locations:
        return Path(next(iter(spec.submodule_search_locations)))
    here = Path(__file__).resolve().parents[3] / "paytables"
    if here.is_dir():
        return here
    raise PayTableError(f"the shipped pay tables are missing (looked in {here})")


def _files(place: Path) -> list[Path]:
    if place.is_file():
        return [place]
    if not place.is_dir():
        raise PayTableError(f"pay-table directory {place} does not exist")
    return sorted([*place.glob("*.yaml"), *place.glob("*.yml")])


def load_paytables(places: Sequence[str | Path] = (), shipped: bool = True) -> PayTables:
    """The shipped tables (unless `shipped` is False) and those of every file in `places`
    (directories of `*.yaml`/`*.yml` files, or single files). An id defined twice is an error."""
    dirs = ([shipped_dir()] if shipped else []) + [Path(p) for p in places]
    tables: dict[str, PayTable] = {}
    for place in dirs:
        for path in _files(place):
            for table in _raise_first(*_read(path)):
                if table.id in tables:
                    raise PayTableError(
                        f"{path}: table {table.id}: the id is already defined in "
                        f"{tables[table.id].path}"
                    )
                tables[table.id] = table
    return PayTables(MappingProxyType(tables))


@functools.cache
def shipped_paytables() -> PayTables:
    """The shipped tables (read once)."""
    return load_paytables()
