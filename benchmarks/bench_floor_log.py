"""A floor's audit log, large and valid, built fast; `dealer audit verify` and `dealer shift
summary` measured on it.

    .venv/bin/python benchmarks/bench_floor_log.py [--rulings N] [--tables M] [--dir DIR]
                                                   [--keep PATH]

A sample is ruled by the real commands at one table (`dealer paigow settle` with bonus and
progressive wagers, `dealer round examples/round.yaml`, `dealer paigow set`), so its records
hold real settlement results and the meter moves that go with them. The log then gets N
rulings: the sample's rulings in turn, each with its meter moves, at M tables round robin
(`T-01` …, each ruled by its own dealer), every copy sealed by the log's own recipe
(`chain.seal`: number, time, software version, `prev_hash`, hash; a meter move linked to its
own ruling's copy) and loaded in batches by sqlite-utils' `insert_all`, in one transaction,
into a log made by the software's migrations up to the one before the seat index. Opening it
with the software applies the rest, which index every record's seats from its content, as for
an older log. Each table's meters are one history: a copy's meter values are the sample's
shifted to start from the value the table's meter holds (a reset still resets to the seed), so
every move is explained by its ruling's copy, as verify asks.

Prints the build (records a second through `insert_all`, the seat index's migration, the
file's size), then each command's wall and CPU time and peak memory (its maximum resident set,
from `os.wait4`) as a whole process. A command that fails stops the script.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from decimal import Decimal
from pathlib import Path
from typing import Any

import sqlite_utils
from processes import measured

from dealer.audit import open_log
from dealer.audit.chain import GENESIS_HASH, Checkpoint, seal
from dealer.audit.records import Entry, Record, RecordKind
from dealer.audit.sql_reads import settings_reference
from dealer.audit.sqlite import SQLiteStorage
from dealer.audit.sqlite_schema import MIGRATIONS, migrate
from dealer.kernel.money import money_json

ROOT = Path(__file__).resolve().parents[1]
DEALER = str(Path(sys.executable).with_name("dealer"))
SAMPLE_TABLE = "S-1"
SAMPLE = (
    [
        "paigow", "settle", "--dealer", "Ks Kd 4c 4h As 9d 2c", "--player",
        "Qs Qh Jc Jd 8s 3h 2d", "--wager", "25", "--treasure", "5",
        "--progressive-treasure", "1", "--seat", "3", "--patron", "P-7",
    ],
    [
        "paigow", "settle", "--dealer", "9s 9d 5c 5h Kc 7d 2s", "--player",
        "As Ah Ac Kd Kh 4c 3d", "--wager", "100", "--insurance", "10", "--seat", "5",
    ],
    ["round", str(ROOT / "examples" / "round.yaml")],
    ["paigow", "set", "As Kd 9c 7h 5s 3d JK"],
)  # fmt: skip
"""The commands that rule the sample (each at `SAMPLE_TABLE`, by user `d-sample`)."""


def sample(where: Path) -> list[Record]:
    """The records the `SAMPLE` commands make in a new log at `where`."""
    env = {**os.environ, "DEALER_DB": str(where), "DEALER_CACHE": str(where.parent / "cache")}
    env.pop("DEALER_PROFILE", None)
    for args in SAMPLE:
        command = [DEALER, *args, "--user", "d-sample", "--table", SAMPLE_TABLE, "--json"]
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL, env=env)
    with open_log(where, read_only=True) as log:
        return log.records()


def _groups(records: Sequence[Record]) -> list[list[Record]]:
    """Each ruling of `records` with the records linked to it (its meter moves), in order."""
    groups: dict[int, list[Record]] = {}
    for record in records:
        ruling = record.id if record.links_to is None else record.links_to
        groups.setdefault(ruling, []).append(record)
    return list(groups.values())


def _number(value: object) -> Decimal:
    return Decimal(str(value))


def _shifted(ruling: Record, name: str, held: Decimal | None) -> dict[str, Any]:
    """`ruling`'s result with meter `name`'s values shifted to start from `held` (None: the
    meter is unset at the table, and starts where the sample's did): its before, each hit's
    before and after (none after a reset, which resets to the seed) and its after."""
    result: dict[str, Any] = json.loads(json.dumps(ruling.result))
    meters = result["meters"]
    shift = Decimal(0) if held is None else held - _number(meters["before"][name])
    meters["before"][name] = money_json(_number(meters["before"][name]) + shift)
    for hit in result.get("progressive_hits", []):
        if hit["meter"] == name:
            hit["before"] = money_json(_number(hit["before"]) + shift)
            shift = Decimal(0) if hit["reset"] else shift
            hit["after"] = money_json(_number(hit["after"]) + shift)
    meters["after"][name] = money_json(_number(meters["after"][name]) + shift)
    return result


def _one_history(
    group: Sequence[Record], table: str, held: dict[tuple[str, str], Decimal]
) -> list[Record]:
    """`group` (a ruling and its meter moves) with each move starting from the value `held`
    for the table's meter (`_shifted`), and `held` moved on."""
    ruling, moves = group[0], group[1:]
    result = ruling.result
    copies = []
    for move in moves:
        name = str(move.result["meter"])
        before = held.get((table, name))
        result = _shifted(ruling._replace(result=result), name, before)
        value = _number(result["meters"]["after"][name])
        held[table, name] = value
        moved = {"previous": None if before is None else str(before), "value": str(value)}
        delta = value - (before or Decimal(0))
        copies.append(move._replace(result=move.result | moved | {"delta": str(delta)}))
    return [ruling._replace(result=result), *copies]


def rows(
    records: Sequence[Record], rulings: int, tables: int, kept: dict[str, str]
) -> Iterator[dict[str, Any]]:
    """The stored rows of `rulings` copies of the rulings of `records` (each with its linked
    records) over `tables` tables, sealed in order from the first record of a log; a long
    settings text is put in `kept` by its reference and the row holds the reference."""
    head, stamp = Checkpoint(0, GENESIS_HASH), ""
    held: dict[tuple[str, str], Decimal] = {}
    for n, group in zip(range(rulings), itertools.cycle(_groups(records))):
        table = f"T-{n % tables + 1:02d}"
        first = head.records or 0
        for record in _one_history(group, table, held):
            entry = Entry(
                kind=RecordKind(record.kind),
                user_id=f"d-{table}",
                role=record.role,
                table_id=table,
                game=record.game,
                action=record.action,
                input_text=record.input_text,
                cards=record.cards,
                result=record.result,
                explanation=record.explanation,
                settings=record.settings,
                seat=record.seat,
                links_to=None if record.links_to is None else first + 1,
                reason=record.reason,
            )
            row = seal(entry, head, not_before=stamp)
            head, stamp = Checkpoint(row["id"], row["hash"]), row["recorded_at"]
            reference = settings_reference(row["settings"])
            if reference is not None:  # kept once, as the backends keep it
                kept[reference] = row["settings"]
                row["settings"] = reference
            yield row


def build(where: Path, records: Sequence[Record], rulings: int, tables: int) -> dict[str, float]:
    """A log at `where` (a new file) of `rulings` copies of the rulings of `records` over
    `tables` tables (`rows`), sealed and loaded by `insert_all` (as many rows a statement as
    SQLite's 999 variables allow), then opened by the software (the seat index's migration):
    the records loaded, and the seconds (wall and CPU) each step took."""
    seat_index = next(n for n, (name, _) in enumerate(MIGRATIONS, 1) if "record_seats" in name)
    conn = sqlite3.connect(where, isolation_level=None)  # as `migrate` wants it
    migrate(conn, seat_index - 1)
    db = sqlite_utils.Database(conn, recursive_triggers=False, execute_plugins=False)
    start, cpu = time.perf_counter(), time.process_time()
    kept: dict[str, str] = {}
    with db.atomic():
        db.table("records").insert_all(rows(records, rulings, tables, kept))
    loaded, loaded_cpu = time.perf_counter(), time.process_time()
    count = db.table("records").count
    conn.close()
    with SQLiteStorage.open(where) as log:
        log.conn.executemany("INSERT INTO settings_texts (ref, text) VALUES (?, ?)", kept.items())
    return {
        "records": count,
        "load": loaded - start,
        "load_cpu": loaded_cpu - cpu,
        "index": time.perf_counter() - loaded,
        "index_cpu": time.process_time() - loaded_cpu,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rulings", type=int, default=100_000)
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--dir", default=None, help="Where the logs go (a temporary folder).")
    parser.add_argument("--keep", type=Path, default=None, help="Keep the built log here.")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        where = args.keep or Path(tmp) / "floor.sqlite"
        records = sample(Path(tmp) / "sample.sqlite")
        print(
            f"sample: {len(records)} records, {len(_groups(records))} rulings and their meter "
            f"moves, ruled by the commands at table {SAMPLE_TABLE}"
        )
        built = build(where, records, args.rulings, args.tables)
        print(
            f"built: {args.rulings:,} rulings at {args.tables} tables, {built['records']:,} "
            f"records, {where.stat().st_size / 2**20:,.0f} MB "
            f"({where.stat().st_size / built['records']:,.0f} bytes a record); sealed and loaded "
            "by insert_all "
            f"in {built['load']:.1f} s ({built['load_cpu']:.1f} s CPU, "
            f"{built['records'] / built['load']:,.0f} records/s); the seat index's migration "
            f"{built['index']:.1f} s ({built['index_cpu']:.1f} s CPU)"
        )
        for command in (["audit", "verify"], ["shift", "summary", "--table", "T-01"]):
            run = measured([DEALER, *command, "--db", str(where)])
            shown, said = " ".join(command), run.out.splitlines()[0] if run.out else ""
            print(
                f"dealer {shown:<28} {run.wall:6.1f} s ({run.cpu:.1f} s CPU)  "
                f"peak {run.peak_mb:4.0f} MB  {said}"
            )


if __name__ == "__main__":
    main()
