"""The floor benchmark's bulk load (`benchmarks/bench_floor_log.py`): a log built through
sqlite-utils' `insert_all` from copies of real rulings is one the software accepts whole."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

from dealer.audit import open_log
from dealer.audit.records import RecordFilter, seats_of
from dealer.audit.verify import verify

BENCH = Path(__file__).resolve().parents[1] / "benchmarks" / "bench_floor_log.py"


def bench(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    """The benchmark as a module, importing its neighbours as it does when run as a script."""
    monkeypatch.syspath_prepend(str(BENCH.parent))
    spec = importlib.util.spec_from_file_location("bench_floor_log", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_bulk_built_log_verifies_with_its_seats_indexed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    floor = bench(monkeypatch)
    sample = floor.sample(tmp_path / "sample.sqlite")
    rulings = [r for r in sample if r.links_to is None]
    assert len(rulings) == len(floor.SAMPLE) and len(sample) > len(rulings)  # meter moves too
    built = floor.build(tmp_path / "floor.sqlite", sample, rulings=10, tables=3)
    with open_log(tmp_path / "floor.sqlite", read_only=True) as log:
        found = verify(log)
        assert (found.ok, found.records, found.problems) == (True, built["records"], ())
        records = log.records()
        copies = [r for r in records if r.links_to is None]
        assert [r.table_id for r in copies] == [f"T-0{n % 3 + 1}" for n in range(10)]
        assert [r.input_text for r in copies] == [r.input_text for r in (rulings * 3)[:10]]
        moves = [r for r in records if r.links_to is not None]
        assert moves  # each linked to the copy of its own ruling, just before it
        assert [r.links_to for r in moves] == [
            max(c.id for c in copies if c.id < r.id) for r in moves
        ]
        for seat in (1, 3, 4):  # the index is filled from each copy's content
            involved = [r.id for r in records if seat in dict(seats_of(r))]
            assert involved and [r.id for r in log.records(RecordFilter(seat=seat))] == involved
