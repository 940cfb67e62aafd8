"""`docs/architecture.md` held to the code: every module is named on the page, its layer table is
the one `tests/test_layers.py` enforces and every import keeps to its "may import" column, only
the modules it names write SQL, and each library is imported only where its table says."""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

import pytest
from test_layers import GRAPH, LAYERS, MODULES, _imports, _type_only

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "dealer"
DOC = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
PARTS = ("kernel", "inputs", "games", "audit", "analysis", "desk", "cli")


def _section(heading: str) -> str:
    """The text of the page's `## heading` section."""
    start = DOC.index(f"\n## {heading}\n")
    end = DOC.find("\n## ", start + 1)
    return DOC[start : end if end >= 0 else len(DOC)]


def _rows(heading: str) -> list[list[str]]:
    """The body rows of the first table in a section, cell by cell."""
    lines = [line for line in _section(heading).splitlines() if line.startswith("|")]
    return [[cell.strip() for cell in line.strip("|").split("|")] for line in lines[2:]]


def _named(text: str) -> set[str]:
    """The names in backticks in `text` (fenced blocks aside)."""
    return set(re.findall(r"`([^`\n]+)`", re.sub(r"```.*?```", "", text, flags=re.S)))


def test_every_module_is_named_on_the_page() -> None:
    named = _named(DOC)
    missing = sorted(
        path.relative_to(PACKAGE).as_posix()
        for path in PACKAGE.rglob("*.py")
        if path.name != "__init__.py" and path.relative_to(PACKAGE).as_posix() not in named
    )
    assert missing == []


def test_every_module_the_page_names_is_there() -> None:
    """A module renamed or removed does not stay on the page."""
    paths = {p.relative_to(PACKAGE).as_posix() for p in PACKAGE.rglob("*.py")}
    named = {
        n
        for n in _named(DOC)
        if re.fullmatch(r"[a-z_/]+\.py", n)
        and "/" in n
        and not n.startswith(("tests/", "benchmarks/"))
    }
    assert sorted(named - paths) == []


def test_the_layer_table_is_the_one_the_layer_test_enforces() -> None:
    table = {
        row[1].strip("`"): int(row[0].split()[0]) for row in _rows("The layers, bottom to top")
    }
    assert table == dict(LAYERS)


def _may_import(cell: str, layer: int) -> tuple[set[str], bool]:
    """The parts a layer's "may import" cell allows, and whether it allows a game's types."""
    if "everything below" in cell:
        return {p for p, n in LAYERS if n < layer}, False
    words = set(re.findall(r"[a-z]+", cell.split("(")[0]))
    allowed = {f"dealer.{w}" for w in words if w in PARTS}
    return allowed, "game's types" in cell


@pytest.mark.parametrize("row", _rows("The layers, bottom to top"), ids=lambda r: r[1])
def test_each_layer_imports_only_what_its_row_allows(row: list[str]) -> None:
    layer, part = int(row[0].split()[0]), row[1].strip("`")
    allowed, game_types = _may_import(row[2], layer)
    allowed.add(part)
    for name, path in MODULES.items():
        if name != part and not name.startswith(part + "."):
            continue
        run = set(_imports(name, path, types=False))
        typed = set(GRAPH[name]) - run
        for target in sorted(run | typed):
            ok = target == "dealer" or any(
                target == a or target.startswith(a + ".") for a in allowed
            )
            ok = ok or (game_types and target in typed and target.startswith("dealer.games"))
            assert ok, f"{name} imports {target}, which its layer's row does not allow"


def test_the_may_import_rows_are_read() -> None:
    """The check above would pass vacuously if a row allowed everything."""
    assert _may_import("kernel, inputs", 3) == ({"dealer.kernel", "dealer.inputs"}, False)
    assert _may_import("the standard library", 1) == (set(), False)


_SQL = re.compile(
    r"\b(SELECT\b[\s\S]*\bFROM|INSERT\s+INTO|UPDATE\s+[\w.]+\s+SET|DELETE\s+FROM|"
    r"CREATE\s+(OR\s+REPLACE\s+)?(TABLE|INDEX|UNIQUE|TRIGGER|FUNCTION|ROLE|SCHEMA|DATABASE)|"
    r"DROP\s+(TABLE|INDEX|TRIGGER|FUNCTION|ROLE|SCHEMA|DATABASE)|ALTER\s+(TABLE|ROLE)|"
    r"GRANT\s|REVOKE\s|PRAGMA\s)"
)


def writes_sql(source: str) -> bool:
    """Whether a module's code (its docstrings aside) holds an SQL statement."""
    tree = ast.parse(source)
    docs = {
        id(node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
    }
    return any(
        isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and id(node) not in docs
        and _SQL.search(node.value)
        for node in ast.walk(tree)
    )


def test_the_sql_detector() -> None:
    assert writes_sql('q = "SELECT id FROM records WHERE kind = ?"')
    assert writes_sql('conn.execute("PRAGMA busy_timeout = 100")')
    assert not writes_sql('"""SELECT nothing FROM a docstring."""\nx = "select a seat"')


def test_only_the_log_s_own_modules_write_sql() -> None:
    paragraph = next(p for p in DOC.split("\n\n") if p.startswith("Only the log's own modules"))
    allowed = {n for n in _named(paragraph) if n.endswith(".py")}
    writing = {
        path.relative_to(PACKAGE).as_posix()
        for path in PACKAGE.rglob("*.py")
        if writes_sql(path.read_text(encoding="utf-8"))
    }
    assert writing == allowed


def _third_party(path: Path) -> set[str]:
    """The top-level modules outside the package and the standard library that `path` imports
    at run time (imports for the type checker alone aside)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skipped = _type_only(tree)
    names: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            names |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            names.add(node.module.split(".")[0])
    return {n for n in names if n != "dealer" and n not in sys.stdlib_module_names}


def test_each_library_is_imported_only_where_the_page_says() -> None:
    where: dict[str, set[str]] = {}
    for library, places, _ in _rows("Where each library serves"):
        for name in re.findall(r"`([a-z_]+)`", library):
            where[name] = _named(places)
    assert {"typer", "yaml", "tabulate", "sqlite_utils", "psycopg", "cryptography"} <= set(where)
    for path in sorted(PACKAGE.rglob("*.py")):
        relative = path.relative_to(PACKAGE).as_posix()
        for library in _third_party(path):
            assert library in where, f"{relative} imports {library}, which the page does not list"
            ok = any(
                relative == p or (p.endswith("/") and relative.startswith(p))
                for p in where[library]
            )
            assert ok, f"{relative} imports {library}; the page says only {sorted(where[library])}"
