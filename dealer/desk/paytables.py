"""What an operator does with pay tables: list them, look one up, check a file before posting."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from dealer.games.paigow.paytables import (
    PayTable,
    PayTables,
    load_paytables,
    read_file,
    shipped_paytables,
)
from dealer.kernel.tuples import NamedTuple


class Validation(NamedTuple):
    """What checking a pay-table file found: the ids of its tables and every problem."""

    file: Path
    tables: tuple[str, ...]
    problems: tuple[str, ...]

    @property
    def valid(self) -> bool:
        """True when the file has no problem."""
        return not self.problems


def library(dirs: Sequence[Path] | None = None) -> PayTables:
    """The shipped pay tables, and those of the operator's directories or files."""
    return load_paytables(dirs) if dirs else shipped_paytables()


def paytable(table_id: str, dirs: Sequence[Path] | None = None) -> PayTable:
    """One pay table by id."""
    return library(dirs).get(table_id)


def validate(file: Path) -> Validation:
    """Check a pay-table file against the schema, and its ids against the shipped tables'
    (`read_file`)."""
    tables, problems = read_file(file)
    return Validation(file, tuple(t.id for t in tables), tuple(problems))
