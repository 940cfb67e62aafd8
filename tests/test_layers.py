"""The layers of `docs/architecture.md`, checked on every import in the package (at the top of a
module, inside a function or for the type checker alike): nothing imports a higher layer, no
two modules import each other in a circle, games stay apart, and the CLI reaches the audit log
and the engines only through the desk."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "dealer"

LAYERS = (
    ("dealer.kernel", 1),
    ("dealer.inputs", 2),
    ("dealer.games", 3),
    ("dealer.audit", 3),
    ("dealer.analysis", 4),
    ("dealer.desk", 5),
    ("dealer.cli", 6),
    ("dealer.__main__", 7),
)
"""Each part of the package and its layer, bottom (1) to top (7). The package itself (`dealer`,
its version) stands below everything."""


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules() -> dict[str, Path]:
    return {_module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


MODULES = _modules()


def _type_only(tree: ast.Module) -> set[int]:
    """The nodes inside `if TYPE_CHECKING:` blocks (imports the type checker alone runs)."""
    return {
        id(inner)
        for node in ast.walk(tree)
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)
        for statement in node.body
        for inner in ast.walk(statement)
    }


def _imports(name: str, path: Path, *, types: bool = True) -> Iterator[str]:
    """Every dealer module `name` imports (`from a import b` counts as `a.b` when that is a
    module), wherever the import stands: at the top, inside a function, or — unless `types` is
    False — for the type checker only (a type is a dependency too)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    skipped = set() if types else _type_only(tree)
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            yield from (a.name for a in node.names if a.name.startswith("dealer"))
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package.split(".")[: len(package.split(".")) - node.level + 1])
                base = f"{base}.{node.module}" if node.module else base
            if not base.startswith("dealer"):
                continue
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                yield sub if sub in MODULES else base


def _layer(name: str) -> int:
    for prefix, layer in LAYERS:
        if name == prefix or name.startswith(prefix + "."):
            return layer
    return 0


def _part(name: str) -> str:
    """The unit a rule speaks of: `dealer.games.hyrule`, `dealer.audit`, `dealer.cli`, …"""
    parts = name.split(".")
    return ".".join(parts[:3] if parts[1:2] == ["games"] else parts[:2])


GRAPH = {name: sorted(set(_imports(name, path)) - {name}) for name, path in MODULES.items()}


def test_the_graph_is_read() -> None:
    """The rules below would pass vacuously on an empty graph."""
    assert "dealer.kernel.cards" in GRAPH["dealer.games.paigow.ranking"]
    assert any(target.startswith("dealer.desk") for target in GRAPH["dealer.cli.paigow"])


@pytest.mark.parametrize("name", sorted(GRAPH))
def test_nothing_imports_upwards(name: str) -> None:
    upward = [t for t in GRAPH[name] if _layer(t) > _layer(name)]
    assert upward == [], f"{name} imports a higher layer"


@pytest.mark.parametrize("name", sorted(n for n in GRAPH if n.startswith("dealer.games.")))
def test_games_stay_apart(name: str) -> None:
    """A game, and the audit log, import no other game (the kernel holds what they share)."""
    others = [t for t in GRAPH[name] if t.startswith("dealer.games.") and _part(t) != _part(name)]
    assert others == []


@pytest.mark.parametrize("name", sorted(n for n in GRAPH if n.startswith("dealer.cli")))
def test_the_cli_reaches_the_log_and_the_engines_through_the_desk(name: str) -> None:
    """The CLI imports no database module and no analysis; a game's module it may name only as
    the type of a value the desk handed it to render, never to run it."""
    reached = [t for t in GRAPH[name] if t.startswith(("dealer.audit", "dealer.analysis"))]
    run = [t for t in _imports(name, MODULES[name], types=False) if t.startswith("dealer.games")]
    assert reached == []
    assert run == []


@pytest.mark.parametrize("name", sorted(n for n in GRAPH if n.startswith("dealer.audit")))
def test_the_audit_log_knows_no_game(name: str) -> None:
    assert [t for t in GRAPH[name] if _layer(t) == 3 and not t.startswith("dealer.audit")] == []


def test_no_import_circles() -> None:
    """No module reaches itself again through its imports (Tarjan's strongly connected
    components of the import graph)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    circles: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in GRAPH.get(node, []):
            if target not in GRAPH:
                continue
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                circles.append(sorted(component))

    for node in GRAPH:
        if node not in index:
            visit(node)
    assert circles == []
