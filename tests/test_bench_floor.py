"""The floor benchmark (`benchmarks/bench_floor.py`): a month built through the program's write
path is a log the software accepts whole, with its dealers, patrons, meters and corrections;
and a tiny run prints every figure with its bound, on both backends."""

from __future__ import annotations

import importlib.util
from datetime import date, datetime
from pathlib import Path
from types import ModuleType

import pytest
from pg_server import PgServer

from dealer.audit import open_log
from dealer.audit.records import RecordFilter, RecordKind
from dealer.desk.records import verified
from dealer.inputs import TIME_FORMAT

BENCH = Path(__file__).resolve().parents[1] / "benchmarks" / "bench_floor.py"
TINY = ["--rulings", "40", "--tables", "3", "--days", "2", "--patrons", "12", "--pool", "10"]


def bench(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    """The benchmark as a module, importing its neighbours as it does when run as a script."""
    monkeypatch.syspath_prepend(str(BENCH.parent))
    spec = importlib.util.spec_from_file_location("bench_floor", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_built_month_verifies_with_its_dealers_patrons_meters_and_corrections(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    floor = bench(monkeypatch)
    where = tmp_path / "floor.sqlite"
    floor.build(where, floor.parse([*TINY, "--correct-every", "12"]))
    with open_log(where, read_only=True) as log:
        found = verified(log)
        assert (found.ok, found.problems) == (True, ())
        records = log.records()
        rulings = [r for r in records if r.kind == RecordKind.RULING]
        assert len(rulings) == 40
        assert {r.table_id for r in rulings} == {"T-01", "T-02", "T-03"}
        dealers = {r.user_id for r in rulings}
        assert dealers <= {u.user_id for u in log.users() if u.role == "dealer"}
        assert len(dealers) > 3  # shifts: more dealers than tables
        days = {datetime.strptime(r.recorded_at, TIME_FORMAT).date() for r in rulings}
        assert len(days) == 2 and max(days) < date.today()
        for ruling in rulings:  # each copy's input, table and patrons agree
            seats = ruling.result["seats"]
            assert ruling.result["table"] == ruling.table_id
            assert all(f'"patron": "{s["patron"]}"' in ruling.input_text for s in seats)
        patron = rulings[0].result["seats"][0]["patron"]
        holding = [r.id for r in rulings if patron in {s["patron"] for s in r.result["seats"]}]
        assert [r.id for r in log.records(RecordFilter(patron=patron))] == holding
        moves = [r for r in records if r.kind == RecordKind.METER]
        assert moves and all(log.record(m.links_to or 0) in rulings for m in moves)
        kinds = {r.kind for r in records}
        assert {RecordKind.OVERRIDE, RecordKind.VOID, RecordKind.DISPUTE} <= kinds


def test_a_tiny_run_prints_every_figure_with_its_bound_on_both_backends(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    pg_server: PgServer,
) -> None:
    floor = bench(monkeypatch)
    kept = tmp_path / "kept.sqlite"
    more = ["--stats-rounds", "2000", "--no-postgresql", "--plain", "20", "--keep", str(kept)]
    floor.main([*TINY, *more])
    built = capsys.readouterr().out.splitlines()
    assert built[0].startswith("built: 40 rulings at 3 tables over 2 days")
    assert any(line.startswith("plain rulings: 20 by paigow set --batch") for line in built)
    with open_log(kept, read_only=True) as log:
        assert verified(log).ok
    url = pg_server.fresh_url()
    floor.main(
        ["--from", str(kept), "--stats-rounds", "2000", "--plain", "0", "--postgresql-url", url]
    )
    again = capsys.readouterr().out.splitlines()
    assert again[0].startswith("log: 122 records") and not any("built" in x for x in again)
    assert any(line.startswith("postgresql copied by dealer audit copy") for line in again)
    for backend, lines in (("sqlite", built), ("sqlite", again), ("postgresql", again)):
        for name, bound in floor.BOUNDS.items():
            (line,) = [x for x in lines if x.startswith(f"{backend:<10} {name} ")]
            assert floor.bound_said(bound) in line and ("OK" in line or "OVER" in line)
        (checked,) = [x for x in lines if x.startswith(f"{backend:<10} audit verify")]
        assert "the hash chain verifies" in checked
        (query,) = [x for x in lines if x.startswith(f"{backend:<10} search, in process ")]
        assert "bound ≤ 100 ms" in query and ("OK" in query or "OVER" in query)
    copied = ["--no-sqlite", "--no-verify", "--copied", "--postgresql-url", url]
    floor.main(["--from", str(kept), "--stats-rounds", "2000", "--plain", "0", *copied])
    measured = capsys.readouterr().out.splitlines()
    assert not any("copied by" in line or line.startswith("sqlite") for line in measured)
    figures = [line.split("  ")[0].strip() for line in measured if line.startswith("postgresql")]
    assert figures == [f"postgresql {name}" for name in floor.BOUNDS if name != "audit verify"] + [
        "postgresql search, in process"
    ]
    pg_server.drop(url)
