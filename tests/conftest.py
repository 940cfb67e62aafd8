"""Test-wide settings and fixtures.

Hypothesis's per-example deadline and its too-slow health check are timing assertions; on a
shared 2-core machine they fail by load, not by defect (performance is measured in
benchmarks/, never asserted in tests), so both are off for every property test.

`storage` is an empty audit log on each storage backend: the contract tests of
`dealer.audit.storage.Storage` (tests/test_audit_storage.py) run once per entry of BACKENDS,
so a new backend is tested by adding its opener there.

`pg_server` is one throwaway PostgreSQL server for the whole run (tests/pg_server.py), started
on first use and stopped at the end; each test gets a fresh database from its template. With no
server binaries the PostgreSQL tests skip, except under CI=true, where they fail."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from hypothesis import HealthCheck, settings
from pg_server import PgServer

if TYPE_CHECKING:
    from dealer.audit.storage import Storage

settings.register_profile("dealer", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("dealer")


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


def _sqlite(request: pytest.FixtureRequest, folder: Path) -> Storage:
    from dealer.audit.sqlite import SQLiteStorage

    return SQLiteStorage.open(folder / "audit.sqlite")


def _postgresql(request: pytest.FixtureRequest, folder: Path) -> Storage:
    from dealer.audit.postgres import PostgresStorage

    server: PgServer = request.getfixturevalue("pg_server")
    return PostgresStorage.open(server.fresh_url())


BACKENDS: dict[str, Callable[[pytest.FixtureRequest, Path], Storage]] = {
    "sqlite": _sqlite,
    "postgresql": _postgresql,
}
"""Each storage backend by name: how to open an empty log (in a fresh folder, or database)."""


@pytest.fixture(params=sorted(BACKENDS))
def storage(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Storage]:
    """An empty audit log, once per storage backend."""
    with BACKENDS[request.param](request, tmp_path) as opened:
        yield opened
