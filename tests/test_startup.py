"""What a ruling command loads: the guard of start-up time.

Every ruling pays for every module it imports, so `dealer paigow set … --json` (run as the
console script does it, in a fresh process) must load no dependency of the package but typer
(read from pyproject.toml: no YAML parser — documents come from the parsed-document cache once
seen — no tables library, no sqlite-utils, no PostgreSQL driver, no OpenSSL, no browser), no
analysis, no other game, no other command group, and no Pai Gow module that setting a hand does
not need.
A refactor that puts something on this path fails here, not silently in every command.

What is loaded costs less when it is built cheaply: no value type on the path is a dataclass
(each compiles its methods at import) and none is a `typing.NamedTuple` (which compiles each
field's annotation: the package's `NamedTuple` is `dealer.kernel.tuples`'); start-up runs with
the garbage collector paused, and the command with it running again."""

from __future__ import annotations

import ast
import json
import os
import re
import subprocess
import sys
import tomllib
from importlib.metadata import packages_distributions
from pathlib import Path

import pytest

PROBE = """
import gc, json, sys
sys.argv = ["dealer", *json.loads(sys.argv[1])]
from dealer.cli import main
try:
    main()
except SystemExit as exc:
    code = exc.code
else:
    code = 0
sys.stdout.flush()
report = {"code": code, "modules": sorted(sys.modules), "collecting": gc.isenabled()}
print("\\nMODULES " + json.dumps(report))
"""

SET = ["paigow", "set", "As Kd 9c 7h 5s 3d JK", "--json", "--user", "d-1", "--table", "PG-1"]

ROOT = Path(__file__).resolve().parents[1]
RULING_DEPENDENCY = "typer"
"""The one dependency a ruling loads: the command line itself."""


def _distribution(requirement: str) -> str:
    """A requirement's distribution name, normalised: `psycopg[binary]>=3.1` → `psycopg`."""
    name = re.split(r"[\s\[<>=!~;]", requirement.strip(), maxsplit=1)[0]
    return re.sub(r"[-_.]+", "-", name).lower()


def dependency_modules() -> dict[str, str]:
    """Each top-level module of the package's dependencies (pyproject.toml: the required ones
    and the browser's extra), by the distribution that installs it: read from the project file
    and the installed metadata, so a dependency added tomorrow is guarded too."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    wanted = {
        _distribution(r)
        for r in [*project["dependencies"], *project["optional-dependencies"]["browse"]]
    }
    return {
        module: _distribution(dist)
        for module, dists in packages_distributions().items()
        for dist in dists
        if _distribution(dist) in wanted
    }


FORBIDDEN = (
    *sorted(m for m, dist in dependency_modules().items() if dist != RULING_DEPENDENCY),
    "_hashlib",
    "hashlib",
    "secrets",
    "getpass",
    "readline",
    "click.testing",
    "dataclasses",
    "termios",
)
"""Third-party and standard modules a ruling must not load: every dependency's but typer's
(YAML, tables, sqlite-utils, PostgreSQL, OpenSSL, the browser), and the standard library's
costly or needless ones."""

ALLOWED_DEALER = frozenset(
    {
        "dealer",
        "dealer.cli",
        "dealer.cli.app",
        "dealer.cli.common",
        "dealer.cli.paigow",
        "dealer.cli.render",
        "dealer.cli.signals",
        "dealer.cli.streams",
        "dealer.desk",
        "dealer.desk.assignments",
        "dealer.desk.context",
        "dealer.desk.paigow",
        "dealer.desk.recording",
        "dealer.kernel",
        "dealer.kernel.cards",
        "dealer.kernel.digest",
        "dealer.kernel.documents",
        "dealer.kernel.errors",
        "dealer.kernel.money",
        "dealer.kernel.names",
        "dealer.kernel.ruling",
        "dealer.kernel.text",
        "dealer.kernel.tuples",
        "dealer.inputs",
        "dealer.games",
        "dealer.games.paigow",
        "dealer.games.paigow.deck",
        "dealer.games.paigow.ranking",
        "dealer.games.paigow.house_way",
        "dealer.games.paigow.profile",
        "dealer.games.paigow.rulings",
        "dealer.audit",
        "dealer.audit.approvals",
        "dealer.audit.assignments",
        "dealer.audit.chain",
        "dealer.audit.glances",
        "dealer.audit.records",
        "dealer.audit.sign_ins",
        "dealer.audit.storage",
        "dealer.audit.sql_reads",
        "dealer.audit.sqlite",
        "dealer.audit.sqlite_schema",
        "dealer.audit.sums",
        "dealer.audit.users",
    }
)
"""The dealer modules a `paigow set` ruling may load: its command, the desk, the kernel, the
hand ranks, the House Way and the profile, and the audit log's write path."""


def _run(args: list[str], env: dict[str, str]) -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, "-c", PROBE, json.dumps(args)],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    marker = done.stdout.rfind("\nMODULES ")
    assert marker >= 0, done.stdout + done.stderr
    report: dict[str, object] = json.loads(done.stdout[marker + len("\nMODULES ") :])
    assert report["code"] == 0, done.stdout + done.stderr
    return report


@pytest.fixture(scope="module")
def probed(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    """The report of the second `paigow set` run (the first fills the document cache)."""
    tmp = tmp_path_factory.mktemp("startup")
    env = {
        **os.environ,
        "DEALER_DB": str(tmp / "audit.sqlite"),
        "DEALER_CACHE": str(tmp / "cache"),
        "PYTHONDONTWRITEBYTECODE": "1",
    }
    env.pop("DEALER_PROFILE", None)
    _run(SET, env)
    return _run(SET, env)


@pytest.fixture(scope="module")
def loaded(probed: dict[str, object]) -> set[str]:
    """The modules the ruling loaded."""
    modules = probed["modules"]
    assert isinstance(modules, list)
    return set(modules)


def test_a_ruling_loads_no_heavy_module(loaded: set[str]) -> None:
    heavy = sorted(
        name for name in loaded for bad in FORBIDDEN if name == bad or name.startswith(bad + ".")
    )
    assert heavy == []


def test_a_ruling_loads_only_its_own_dealer_modules(loaded: set[str]) -> None:
    ours = {name for name in loaded if name == "dealer" or name.startswith("dealer.")}
    assert sorted(ours - ALLOWED_DEALER) == []


def test_the_collector_runs_again_after_start_up(probed: dict[str, object]) -> None:
    """Start-up pauses the garbage collector (`dealer.cli.main`); the command, and a
    long live session with it, runs with it on."""
    assert probed["collecting"] is True


def test_every_named_tuple_is_the_kernel_s() -> None:
    """Every `NamedTuple` of the package is `dealer.kernel.tuples`' (typing's compiles each
    field's annotation at import; `dataclasses`, in `FORBIDDEN`, keeps dataclasses off the
    path)."""
    package = ROOT / "dealer"
    typing_tuples = sorted(
        str(path.relative_to(package))
        for path in package.rglob("*.py")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.ImportFrom)
        and node.module == "typing"
        and any(alias.name == "NamedTuple" for alias in node.names)
        and path.name != "tuples.py"
    )
    assert typing_tuples == []


def test_every_dependency_but_typer_is_forbidden() -> None:
    """The list is read from the project file: it names what the package depends on today."""
    guarded = {dependency_modules()[m] for m in FORBIDDEN if m in dependency_modules()}
    assert guarded == {"pyyaml", "tabulate", "sqlite-utils", "psycopg", "cryptography", "datasette"}
    assert RULING_DEPENDENCY not in guarded and "yaml" in FORBIDDEN and "sqlite_utils" in FORBIDDEN


def test_the_probe_sees_the_path_it_guards(loaded: set[str]) -> None:
    """The guard would pass vacuously if the probe ran nothing: the ruling's own path is there."""
    for name in ("dealer.cli.paigow", "dealer.desk.paigow", "dealer.games.paigow.house_way"):
        assert name in loaded


def test_the_cache_is_what_keeps_yaml_off(tmp_path: Path) -> None:
    """Without the parsed-document cache the same command does load PyYAML: the first test
    passes because of the cache, and would catch a document read that bypasses it."""
    env = {
        **os.environ,
        "DEALER_DB": str(tmp_path / "audit.sqlite"),
        "DEALER_CACHE": str(tmp_path / "cache"),
    }
    first = _run(SET, env)["modules"]
    assert isinstance(first, list) and "yaml" in first
