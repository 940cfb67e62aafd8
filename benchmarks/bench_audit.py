"""Rulings recorded per second: terminals settling hands at once into one audit log.

A ruling here is what `dealer paigow settle` does after parsing its options, through the same
desk function: open the log, read the table's progressive meter, set the player's hand by the
House Way, settle the base wager, a bonus and a progressive wager, record the ruling and the
meter's move in one transaction (committed durably), close the log. Each terminal is its own
process at its own table, under its own user id; they start together.

SQLite: a fresh file in a temporary folder under the current directory (WAL,
synchronous=FULL), 1 terminal and then 4 at once.

PostgreSQL: 4 terminals at once, each logged in to the server as its own database user (a
member of `dealer_app`, made here as `bench-1` … `bench-4` if missing: the URL's user must be
the log's owner, who ran `dealer db init`), so every record goes through the server's
`append_record` as on a floor. `--db postgresql://OWNER@HOST/DB` measures an existing server;
`--postgresql` starts a throwaway one from the installed server binaries (initdb and pg_ctl, as
the tests do) with the server's default durable commits: fsync on, full page writes on,
synchronous_commit on. Either way the log is verified afterwards.

`--floor` measures the floor's path: a supervisor assigns each terminal's table the shipped
default (`dealer floor assign`) and each terminal's dealer signs in at it with their PIN, so
every ruling reads the table's assignment and its sign-in, and the server checks both.

Run: .venv/bin/python benchmarks/bench_audit.py [--rulings N] [--db URL | --postgresql] [--floor]
     (N rulings per terminal)
"""

from __future__ import annotations

import argparse
import multiprocessing
import multiprocessing.synchronize
import sys
import tempfile
import time
from decimal import Decimal
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from dealer.audit import open_log
from dealer.audit.verify import verify
from dealer.desk import paigow
from dealer.desk.context import Desk, HouseRules
from dealer.games.paigow.pay import Wager

DEALER = "Ks Kd 4c 4h As 9d 2c"
PLAYER = "Qs Qh Jc Jd 8s 3h 2d"


def _terminal(db: str, number: int, count: int, start: multiprocessing.synchronize.Event) -> None:
    """One terminal: `count` settles at table BT-`number` as user bench-`number`."""
    desk = Desk(db, f"bench-{number}", f"BT-{number}")  # as `measure` names them
    house = HouseRules()
    wagers = paigow.seat_wagers(
        {
            Wager.BASE: Decimal(25),
            Wager.TREASURE: Decimal(5),
            Wager.PROGRESSIVE_TREASURE: Decimal(1),
        },
        (),
    )
    start.wait()
    for i in range(count):
        paigow.settle(desk, house, DEALER, wagers, player=PLAYER, seat=1 + i % 6)


def _as_user(url: str, user: str) -> str:
    """`url` logged in as `user` (no password: a local server's trust or peer login)."""
    parts = urlsplit(url)
    host = parts.netloc.rpartition("@")[2]
    return urlunsplit(parts._replace(netloc=f"{user}@{host}"))


PIN = "lantern-2468"
"""The PIN of the supervisor and the dealers of `--floor`."""


def _floor(db: str, terminals: int) -> None:
    """Each terminal's table assigned the shipped default, its dealer signed in at it."""
    from dealer.audit import sign_ins, staff
    from dealer.desk.assignments import assign

    with open_log(db) as log:
        staff.add_user(log, "bench-sup", "supervisor", pin=PIN)
        for n in range(1, terminals + 1):
            staff.add_user(
                log, f"bench-{n}", "dealer", pin=PIN, supervisor_id="bench-sup", supervisor_pin=PIN
            )
    for n in range(1, terminals + 1):
        assign(db, f"BT-{n}", "default", "bench", supervisor="bench-sup", pin=PIN)
        with open_log(db) as log:
            sign_ins.sign_in(log, f"bench-{n}", PIN, f"BT-{n}")


def measure(terminals: int, count: int, db: str, floor: bool = False) -> float:
    """Rulings per second with `terminals` processes each settling `count` hands into `db` (an
    SQLite path, or a PostgreSQL URL of the log's owner); with `floor`, at tables assigned their
    profile, each terminal's dealer signed in (`_floor`)."""
    tables = [f"BT-{n}" for n in range(1, terminals + 1)]
    if floor:
        _floor(db, terminals)
    with open_log(db) as log:
        before = log.head().records or 0
        # a table's first ruling also sets its untouched insurance meter at its seed
        unset = sum(log.meter(table, "progressive_insurance") is None for table in tables)
    if db.startswith("postgresql://"):
        _make_logins(db, terminals)
        places = [_as_user(db, f"bench-{n}") for n in range(1, terminals + 1)]
    else:
        places = [db] * terminals
    context = multiprocessing.get_context("spawn")
    start = context.Event()
    workers = [
        context.Process(target=_terminal, args=(place, n, count, start))
        for n, place in enumerate(places, 1)
    ]
    for worker in workers:
        worker.start()
    time.sleep(2.0)  # let every terminal import the program before the clock starts
    began = time.perf_counter()
    start.set()
    for worker in workers:
        worker.join()
    elapsed = time.perf_counter() - began
    if any(worker.exitcode != 0 for worker in workers):
        raise SystemExit("a benchmark terminal failed")
    with open_log(db) as log:
        result = verify(log)
    # each settle records the ruling and the progressive meter's move
    if not result.ok or result.records != before + 2 * terminals * count + unset:
        raise SystemExit(f"benchmark log does not verify: {result}")
    return terminals * count / elapsed


def _make_logins(url: str, terminals: int) -> None:
    """The terminals' database logins, members of the application role."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        for n in range(1, terminals + 1):
            name = f"bench-{n}"
            if conn.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", [name]).fetchone():
                continue
            conn.execute(f'CREATE ROLE "{name}" LOGIN IN ROLE dealer_app')


def _postgresql(args: argparse.Namespace) -> None:
    if args.postgresql:
        sys.path.insert(0, str(Path(__file__).parents[1] / "tests"))
        from pg_server import PgServer

        server = PgServer.start(durable=True)
        if server is None:
            raise SystemExit("no PostgreSQL server binaries (initdb, pg_ctl) on this machine")
        try:
            url = server.fresh_url()
            _report_postgresql(url, args.rulings, "a throwaway local server", args.floor)
        finally:
            server.stop()
    else:
        _report_postgresql(args.db, args.rulings, "the server at --db", args.floor)


def _report_postgresql(url: str, count: int, where: str, floor: bool) -> None:
    rate = measure(4, count, url, floor)
    at = ", assigned tables, dealers signed in" if floor else ""
    print(
        f"PostgreSQL ({where}{at}), 4 terminals x {count} rulings: {rate:,.0f} rulings/s (verified)"
    )


def main() -> None:
    """Print rulings per second for 1 and 4 SQLite terminals, or 4 PostgreSQL terminals."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rulings", type=int, default=300, help="rulings per terminal")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--db", help="a PostgreSQL log (postgresql://OWNER@…) instead of SQLite")
    where.add_argument(
        "--postgresql", action="store_true", help="start a throwaway durable PostgreSQL server"
    )
    parser.add_argument(
        "--floor", action="store_true", help="at assigned tables, each dealer signed in"
    )
    args = parser.parse_args()
    if args.db or args.postgresql:
        _postgresql(args)
        return
    with tempfile.TemporaryDirectory(dir=".") as folder:
        for terminals in (1, 4):
            path = str(Path(folder) / f"bench-{terminals}.sqlite")
            rate = measure(terminals, args.rulings, path, args.floor)
            at = ", assigned tables, dealers signed in" if args.floor else ""
            print(
                f"SQLite{at}, {terminals} terminal{'s' if terminals > 1 else ''} x "
                f"{args.rulings} rulings: {rate:,.0f} rulings/s (verified)"
            )


if __name__ == "__main__":
    main()
