"""Test-wide settings and fixtures.

Hypothesis's per-example deadline and its too-slow health check are timing assertions; on a
shared 2-core machine they fail by load, not by defect (performance is measured in
benchmarks/, never asserted in tests), so both are off for every property test.

`storage` is an empty audit log on each storage backend: the contract tests of
`dealer.audit.storage.Storage` (tests/test_audit_storage.py) run once per entry of BACKENDS,
so a new backend is tested by adding its opener there.

A new signing key's scrypt cost (`dealer.audit.keys.KDF_N`, 128 MiB and about a third of a
second a key) is lowered for every in-process test, except those marked `shipped_kdf`: the cost
is stored in each key blob, so a cheap blob opens exactly as a shipped one does, and the shipped
cost itself is tested on its own. Commands run as subprocesses use the shipped cost."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from hypothesis import HealthCheck, settings

if TYPE_CHECKING:
    from dealer.audit.storage import Storage

settings.register_profile("dealer", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("dealer")


def _sqlite(folder: Path) -> Storage:
    from dealer.audit.sqlite import SQLiteStorage

    return SQLiteStorage.open(folder / "audit.sqlite")


BACKENDS: dict[str, Callable[[Path], Storage]] = {"sqlite": _sqlite}
"""Each storage backend by name: how to open an empty log in a fresh folder."""


@pytest.fixture(params=sorted(BACKENDS))
def storage(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Storage]:
    """An empty audit log, once per storage backend."""
    with BACKENDS[request.param](tmp_path) as opened:
        yield opened


@pytest.fixture(autouse=True)
def cheap_keys(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """New signing keys at a small scrypt cost, unless the test is marked `shipped_kdf`."""
    if request.node.get_closest_marker("shipped_kdf") is None:
        from dealer.audit import keys

        monkeypatch.setattr(keys, "KDF_N", 2**10)
