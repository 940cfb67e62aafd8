"""Test-wide settings and fixtures.

Hypothesis's per-example deadline and its too-slow health check are timing assertions; on a
shared 2-core machine they fail by load, not by defect (performance is measured in
benchmarks/, never asserted in tests), so both are off for every property test.

`storage` is an empty audit log on each storage backend: the contract tests of
`dealer.audit.storage.Storage` (tests/test_audit_storage.py) run once per entry of BACKENDS,
so a new backend is tested by adding where its new log is there; `log_at` gives that place
to the feature tests (users, disputes, meters, corrections), and `dealer_db` names it in
DEALER_DB to the CLI tests of everything a log records (tests/log_reads.py reads it on either).
A log that every test of a module starts from is built once per backend in a `new_log` by a
module fixture, and each test takes a copy of it (`copy_log`), cheaper than building it again.

The suite runs on every core (pytest-xdist: pyproject's addopts), each worker a process of its
own: `pg_server` is one throwaway PostgreSQL server for each worker (tests/pg_server.py), started
on first use and stopped at the end; each test gets a fresh database from its template (or a
copy of a module's log), dropped after it. With no server binaries the PostgreSQL tests skip,
except under CI=true, where they fail. Each worker's parsed-document cache (`XDG_CACHE_HOME`,
which the commands run as subprocesses keep too) is a folder of its own run, not the user's
`~/.cache/dealer`; the package is compiled once at the start (`compiled`) for the commands run
as subprocesses.

A new signing key's scrypt cost (`dealer.audit.keys.KDF_N`, 128 MiB and about a third of a
second a key) is lowered for the whole run in process, module fixtures included, except for
the tests marked `shipped_kdf`: the cost is stored in each key blob, so a cheap blob opens
exactly as a shipped one does, and the shipped cost itself is tested on its own. Commands run
as subprocesses use the shipped cost."""

from __future__ import annotations

import compileall
import os
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from hypothesis import HealthCheck, settings
from log_reads import use
from pg_server import PgServer

if TYPE_CHECKING:
    from dealer.audit.storage import Storage

settings.register_profile("dealer", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("dealer")


@pytest.fixture(scope="session", autouse=True)
def own_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """The parsed-document cache in this run's folder, not the user's `~/.cache/dealer`."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("cache")))
        yield


@pytest.fixture(scope="session", autouse=True)
def no_terminal_width() -> Iterator[None]:
    """No `COLUMNS` (pytest-xdist's workers set 80): a screen fitted to the terminal's width is
    fitted to no terminal's, as where the output is a file, whatever runs the tests; a test of
    a width sets `COLUMNS` itself."""
    with pytest.MonkeyPatch.context() as patch:
        patch.delenv("COLUMNS", raising=False)
        yield


@pytest.fixture(scope="session", autouse=True)
def compiled() -> None:
    """The package compiled once for the hundreds of `dealer` processes the tests start, as
    Python does on first import where bytecode is written: where it is not
    (`PYTHONDONTWRITEBYTECODE`), each would compile what it imports again, a third of its
    start-up. Up-to-date files are skipped; the bytecode stays in `__pycache__`, not committed."""
    package = Path(__file__).resolve().parents[1] / "dealer"
    compileall.compile_dir(package, quiet=1)


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PgServer]:
    """A PostgreSQL server for the whole test run."""
    server = PgServer.start()
    if server is None:
        message = "no PostgreSQL server binaries (initdb, pg_ctl) on this machine"
        if os.environ.get("CI") == "true":
            pytest.fail(message + ": CI must test the PostgreSQL backend")
        pytest.skip(message)
    yield server
    server.stop()


def _sqlite(request: pytest.FixtureRequest, folder: Path) -> Path:
    return folder / "audit.sqlite"


def _postgresql(request: pytest.FixtureRequest, folder: Path) -> str:
    server: PgServer = request.getfixturevalue("pg_server")
    url = server.fresh_url()
    request.addfinalizer(lambda: server.drop(url))
    return url


BACKENDS: dict[str, Callable[[pytest.FixtureRequest, Path], Path | str]] = {
    "sqlite": _sqlite,
    "postgresql": _postgresql,
}
"""Each storage backend by name: where a new, empty log is (in a fresh folder, or database),
for `dealer.audit.open_log` and `--db`."""


@pytest.fixture(params=sorted(BACKENDS))
def log_at(request: pytest.FixtureRequest, tmp_path: Path) -> Path | str:
    """Where an empty audit log is, once per storage backend: the audit, dispute, meter, user
    and correction tests run on both."""
    return BACKENDS[request.param](request, tmp_path)


@pytest.fixture(scope="module", params=sorted(BACKENDS))
def new_log(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Callable[[], Path | str]:
    """Makes empty audit logs, on each storage backend in turn: for a module's fixture that
    builds a log once for tests that only read it."""

    def make() -> Path | str:
        return BACKENDS[request.param](request, tmp_path_factory.mktemp(request.param))

    return make


@pytest.fixture
def copy_log(request: pytest.FixtureRequest, tmp_path: Path) -> Callable[[Path | str], Path | str]:
    """Copies, for one test, a log that a module's fixture built once in a `new_log`: the SQLite
    file into the test's folder, or a copy of the PostgreSQL database made by the server
    (dropped after the test). The test may write to its copy."""

    def copy(built: Path | str) -> Path | str:
        if isinstance(built, Path):
            return Path(shutil.copy(built, tmp_path / built.name))
        server: PgServer = request.getfixturevalue("pg_server")
        url = server.copy(built)
        request.addfinalizer(lambda: server.drop(url))
        return url

    return copy


@pytest.fixture
def dealer_db(log_at: Path | str, monkeypatch: pytest.MonkeyPatch) -> Path | str:
    """`log_at` named to the commands as an operator names it, in DEALER_DB (no other DEALER_
    setting from the shell): the CLI tests of the log's features run on both backends."""
    return use(log_at, monkeypatch)


@pytest.fixture
def storage(log_at: Path | str) -> Iterator[Storage]:
    """An empty audit log, once per storage backend."""
    from dealer.audit import open_log

    with open_log(log_at) as opened:
        yield opened


@pytest.fixture(scope="session", autouse=True)
def cheap_keys() -> Iterator[int]:
    """New signing keys at a small scrypt cost for the whole run (a module's fixture is set up
    before any test's own fixture); yields the shipped cost."""
    from dealer.audit import keys

    with pytest.MonkeyPatch.context() as patch:
        shipped = keys.KDF_N
        patch.setattr(keys, "KDF_N", 2**10)
        yield shipped


@pytest.fixture(autouse=True)
def shipped_kdf(
    request: pytest.FixtureRequest, cheap_keys: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The shipped scrypt cost again, for a test marked `shipped_kdf`."""
    if request.node.get_closest_marker("shipped_kdf") is not None:
        from dealer.audit import keys

        monkeypatch.setattr(keys, "KDF_N", cheap_keys)
