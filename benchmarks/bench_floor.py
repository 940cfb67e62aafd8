"""A month of a 50-table floor, built by the program's own write path and measured on both
backends: the statistics, the shift summary, a patron search and verify, each as a whole
process, against the bounds of the floor's statistics (issue 26).

    .venv/bin/python benchmarks/bench_floor.py [--rulings 720000] [--tables 50] [--days 30]
        [--patrons 5000] [--pool 5000] [--plain 20000] [--timeout 300] [--keep PATH | --from PATH]
        [--no-postgresql | --postgresql-url URL [--copied]] [--no-sqlite] [--no-verify]
        [--stats-rounds N] [--dir DIR]

The log. A pool of `--pool` distinct Emperor's Challenge rounds is dealt from shuffled decks
(seeded) and ruled by the game engine `dealer round` rules with (`seat_rulings.round_ruling`
under the shipped default profile): two to four seats a round, each with the base wager and the
bonus and progressive wagers the profile offers (the demo round's sample spread), one seat in
five setting its own hand (two cards low, at random: some foul). The month's `--rulings` rounds
are copies of the pool's, each at its table and time: `--tables` tables open every day of
`--days` at 25 rounds an hour (closer, if the rounds a day need it); each table dealt by three
shifts a day of dealers registered as dealers through the desk (a rotation, one table each);
each seat held by a patron (of `--patrons`) for a session of two to six hours; each copy's
input (the round file's text), table and patrons its own, and its meter values shifted to
start from the table's meter as it stands (a reset still resets to the seed), so each copy is
a valid ruling of its round at that table (a progressive hit pays what the pool's round paid
from the seed). Every `--correct-every` rulings (4,000) a supervisor overrides, voids or opens
(and resolves) a dispute on the last one, through the desk functions a supervisor's command
calls.

The write path. The copies are written as the desk writes a ruling, many to a transaction:
`open_log`, `log.transaction()`, the maker's role read under the lock (`users.acting_role`),
the desk's one append of a ruling (`recording.append_ruling`: the documents checked, the
record, the floor's sums) and the table's meters moved in the same transaction
(`meters.move`); so the seat index, the settings kept once and the floor's sums are built as in
production. The times come from a
simulated clock: the one function the seal reads (`dealer.audit.chain.utc_now`) is replaced in
this process while it builds; a month that ended before today, so verify's clock accepts it.
New signing keys (the two supervisors') are made at a small scrypt cost, as in the tests.

PostgreSQL: a throwaway server started here (initdb and pg_ctl, as the tests' `pg_server`
does, durable: fsync on), the SQLite log copied into it by `dealer audit copy` up to a
checkpoint the first supervisor takes just before and vouches for (the records' times are the
copied ones), then the same commands against it (`--postgresql-url`: an empty
log on a server of one's own, as its owner, instead, or with `--copied` one that already holds
the copy of `--from`, measured again without copying; `--no-postgresql`: SQLite only;
`--no-sqlite`: PostgreSQL only, the SQLite log built or given only copied).

Measured, each as a whole process (`processes.measured`: wall, CPU, peak resident memory; from
a small process of its own, so that no figure starts from this one's memory), a command still
running after `--timeout` seconds killed and reported OVER: `dealer stats tables --period
month` and `--period day`, `dealer shift summary` of one table's day, `dealer audit search
--patron`, `dealer audit verify` (`--no-verify`: left out); the file's size a ruling, and a
plain ruling's (a log of `--plain` `dealer paigow set --batch` rulings). Each printed with its
bound and OK or OVER. The statistics' simulated base-wager edge is computed once before the
measurements (in a cache folder of the run's own), as a floor's cache holds it. `--keep PATH`
keeps the built SQLite log; `--from PATH` measures one built before (its month, day, table and
patron read from it; one an earlier release built is upgraded first, as a terminal's write
would).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal
from pathlib import Path
from typing import Any, NamedTuple

from processes import Run, measured_apart

from dealer.audit import chain, entries, keys, open_log
from dealer.audit import meters as audit_meters
from dealer.audit.disputes import DisputeOutcome, Review
from dealer.audit.records import RecordFilter, RecordKind
from dealer.audit.storage import WriteTransaction
from dealer.audit.users import acting_role
from dealer.desk import supervision
from dealer.desk.context import Desk
from dealer.desk.recording import append_ruling, ruling_entry
from dealer.desk.records import glances
from dealer.games.paigow.demo import deal_demo_round
from dealer.games.paigow.profile import Profile, load_profile
from dealer.games.paigow.seat_rulings import round_ruling
from dealer.games.paigow.table_round import PROGRESSIVE_METERS, starting_meters
from dealer.inputs import TIME_FORMAT
from dealer.kernel.cards import DECK
from dealer.kernel.money import money_json
from dealer.kernel.ruling import Ruling

ROOT = Path(__file__).resolve().parents[1]
DEALER = str(Path(sys.executable).with_name("dealer"))
PACE = 25
"""Rounds an hour at an open table."""
SHIFTS = 3
"""Dealer shifts a table's day is dealt in."""
BATCH = 100
"""Rulings written in one transaction."""
SUPERVISORS = ("s-floor", "s-second")
PIN = "floor-2468"
SEED = 26


SEARCH_QUERY_SECONDS = 0.1
"""The patron search's bound, for the query in process (`search_in_process`)."""


class Bound(NamedTuple):
    """A figure's bound from the issue: seconds and MB (None: not bounded)."""

    seconds: float | None
    mb: float | None


BOUNDS = {
    "stats tables, month": Bound(5.0, 200.0),
    "stats tables, day": Bound(1.0, None),
    "shift summary, a day": Bound(1.0, 150.0),
    "audit search --patron": Bound(0.1, None),
    "audit verify": Bound(None, 100.0),
}
PLAIN_BOUND = 1536
"""Bytes on disk a plain ruling may take (1.5 KB)."""


class Floor(NamedTuple):
    """What the commands are asked about: the month (its first day), a day, a table, a
    patron."""

    month: date
    day: date
    table: str
    patron: str


# The pool: distinct rounds ruled by the engine.


def pool_round(seed: int, profile: Profile) -> dict[str, Any]:
    """A round file's content for pool round `seed`: a shuffled deck dealt as the demo deals
    it, two to four of its seats kept, one seat in five setting its own hand (two cards low,
    at random), every amount as a round file types it."""
    rnd = random.Random(seed)
    raw = deal_demo_round(seed, "T-00", profile)
    kept = sorted(rnd.sample(raw["seats"], rnd.randint(2, 4)), key=lambda s: s["seat"])
    for seat in kept:
        seat["wagers"] = {
            k: v if isinstance(v, bool) else str(v) for k, v in seat["wagers"].items()
        }
        seat["patron"] = "P-0"
        if rnd.random() < 0.2:
            cards = seat.pop("cards").split()
            rnd.shuffle(cards)
            seat["high"], seat["low"] = " ".join(cards[:5]), " ".join(cards[5:])
    raw["seats"] = kept
    return raw


def rule_pool(size: int, profile: Profile) -> list[tuple[dict[str, Any], Ruling]]:
    """`size` distinct rounds and their rulings, each ruled from the meters' seeds."""
    seeded = starting_meters({}, profile, "T-00")
    pool = []
    for seed in range(SEED, SEED + size):
        raw = pool_round(seed, profile)
        ruling, _ = round_ruling(raw, json.dumps(raw), profile, seeded)
        pool.append((raw, ruling))
    return pool


# A copy at its table: its own table, patrons, input and meter values.


def _number(value: object) -> Decimal:
    return Decimal(str(value))


def shifted(result: dict[str, Any], name: str, held: Decimal | None) -> dict[str, Any]:
    """`result` with meter `name`'s values shifted to start from `held` (None: the meter is
    unset at the table and starts at the seed, as the pool's did): its before, each hit's before
    and after (none after a reset, which resets to the seed) and its after."""
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


class Copy(NamedTuple):
    """One ruling of the month: its time, table, dealer, the pool round it copies and the
    patron at each of that round's seats."""

    at: datetime
    table: str
    dealer: str
    pooled: int
    patrons: tuple[str, ...]


def copied(
    copy: Copy, pool: Sequence[tuple[dict[str, Any], Ruling]], held: dict[tuple[str, str], Any]
) -> tuple[Ruling, dict[str, Decimal]]:
    """The ruling of `copy` (its round's at its table with its patrons, meters shifted from
    `held`) and the meters it moves to (each that changes, as the desk moves them)."""
    raw, ruling = pool[copy.pooled]
    raw = {**raw, "table": copy.table}
    raw["seats"] = [{**s, "patron": p} for s, p in zip(raw["seats"], copy.patrons, strict=True)]
    whole = ruling.result
    result = {**whole, "table": copy.table}  # what differs copied, the rest shared
    result["seats"] = [
        {**seat, "patron": patron}
        for seat, patron in zip(whole["seats"], copy.patrons, strict=True)
    ]
    result["meters"] = {k: dict(v) for k, v in whole["meters"].items()}
    result["progressive_hits"] = [dict(hit) for hit in whole["progressive_hits"]]
    moved: dict[str, Decimal] = {}
    for name in PROGRESSIVE_METERS:
        before = held.get((copy.table, str(name)))
        result = shifted(result, str(name), before)
        after = _number(result["meters"]["after"][str(name)])
        if after != before:
            moved[str(name)] = after
    return ruling._replace(input_text=json.dumps(raw), result=result), moved


# The month's schedule.


def month_start(days: int, today: date) -> date:
    """The first day of the latest month whose first `days` days ended before `today`."""
    start = today.replace(day=1)
    while start + timedelta(days=days) > today:
        start = (start - timedelta(days=1)).replace(day=1)
    return start


def schedule(
    rulings: int, tables: int, days: int, patrons: int, pool: Sequence[tuple[dict[str, Any], Any]]
) -> Iterator[Copy]:
    """The month's rulings in time order: each day the tables deal their share of the rounds
    at `PACE` an hour (faster if a day needs it), staggered, centred in the day; three dealer
    shifts a day; each seat's patron kept for a session of 50 to 150 rounds."""
    rnd = random.Random(SEED)
    start = datetime.combine(month_start(days, datetime.now(UTC).date()), datetime.min.time())
    per_day = -(-rulings // (tables * days))
    gap = min(3600 / PACE, 86400 / per_day)
    opens = (86400 - per_day * gap) / 2
    sessions: dict[tuple[int, int], list[Any]] = {}
    seated: set[str] = set()
    made = 0
    for day in range(days):
        for k in range(per_day):
            for t in range(tables):
                if made == rulings:
                    return
                shift = k * SHIFTS // per_day
                dealer = f"d-{(t * SHIFTS + shift + day) % (tables * SHIFTS) + 1:03d}"
                pooled = rnd.randrange(len(pool))
                at = start + timedelta(days=day, seconds=opens + k * gap + t * gap / tables)
                at_table = []
                for seat in (s["seat"] for s in pool[pooled][0]["seats"]):
                    session = sessions.get((t, seat))
                    if session is None:
                        patron = f"P-{rnd.randrange(patrons) + 1:05d}"
                        while patron in seated and len(seated) < patrons:
                            patron = f"P-{rnd.randrange(patrons) + 1:05d}"
                        session = sessions[t, seat] = [patron, rnd.randint(50, 150)]
                        seated.add(patron)
                    at_table.append(session[0])
                for key in [key for key in sessions if key[0] == t]:
                    sessions[key][1] -= 1
                    if sessions[key][1] <= 0:
                        seated.discard(sessions.pop(key)[0])
                yield Copy(at, f"T-{t + 1:02d}", dealer, pooled, tuple(at_table))
                made += 1


# The build, through the program's write path.


class Clock:
    """The simulated time the seal reads while the log is built (`chain.utc_now`)."""

    def __init__(self) -> None:
        self.now = datetime(2000, 1, 1, tzinfo=UTC)

    def read(self) -> str:
        return self.now.strftime(TIME_FORMAT)


def write(
    tx: WriteTransaction,
    copy: Copy,
    ruling: Ruling,
    moved: dict[str, Decimal],
    held: dict[Any, Any],
) -> int:
    """Write one ruling and its meter moves as the desk does (`recording.record_with_meters`)."""
    role = acting_role(tx, copy.dealer, RecordKind.RULING)
    entry = ruling_entry(ruling, copy.dealer, role, copy.table)
    ruling_id = append_ruling(tx, entry, None)
    for name, value in moved.items():
        previous = audit_meters.Previous(held.get((copy.table, name)))
        audit_meters.move(
            tx, copy.table, name, value, f"ruling #{ruling_id}", previous=previous
        )  # fmt: skip
        held[copy.table, name] = value
    return ruling_id


def correct(where: Path, turn: int, ruling_id: int, copy: Copy, at: str) -> None:
    """A supervisor's correction of ruling `ruling_id`, by turn: an override, a void, or a
    dispute opened by the dealer and resolved by two supervisors."""
    first, second = SUPERVISORS
    if turn % 3 == 0:
        supervision.override(
            where, ruling_id, decision="seat paid as ruled after review", reason="camera review",
            result=None, supervisor=first, pin=PIN,
        )  # fmt: skip
    elif turn % 3 == 1:
        supervision.void(where, ruling_id, reason="misdeal", supervisor=first, pin=PIN)
    else:
        desk = Desk(where, copy.dealer, copy.table)
        opened = supervision.open_dispute(
            desk, "patron disputes the setting", occurred_at=at, rulings=[ruling_id]
        )
        review = Review(first, PIN, second, PIN, "ruling stands on the video")
        supervision.resolve_dispute(
            where, opened, outcome=DisputeOutcome.NO_ERROR, amount="0", review=review
        )


def build(where: Path, args: argparse.Namespace) -> dict[str, float]:
    """The month's log at `where` (a new file): users registered, the pool ruled, the copies
    written `BATCH` to a transaction with their meter moves, corrections in between; the
    seconds each step took."""
    profile = load_profile()
    clock = Clock()
    real_clock, chain.utc_now = chain.utc_now, clock.read
    shipped_cost, keys.KDF_N = keys.KDF_N, 2**10
    try:
        began = time.perf_counter()
        pool = rule_pool(args.pool, profile)
        ruled = time.perf_counter()
        month = list(schedule(args.rulings, args.tables, args.days, args.patrons, pool))
        clock.now = month[0].at - timedelta(hours=1)

        def credentials() -> tuple[str, str]:
            return SUPERVISORS[0], PIN

        for n, supervisor in enumerate(SUPERVISORS):
            supervision.add_user(
                where, supervisor, "supervisor", pin=PIN,
                supervisor=None if n == 0 else SUPERVISORS[0], credentials=credentials,
            )  # fmt: skip
        for dealer in sorted({c.dealer for c in month}):
            supervision.add_user(
                where, dealer, "dealer", pin=None, supervisor=SUPERVISORS[0],
                credentials=credentials,
            )  # fmt: skip
        registered = time.perf_counter()
        held: dict[tuple[str, str], Decimal] = {}
        written = cpu = 0.0
        with open_log(where) as log:
            for first in range(0, len(month), BATCH):
                batch = month[first : first + BATCH]
                start, start_cpu = time.perf_counter(), time.process_time()
                with log.transaction() as tx:
                    ids = []
                    for copy in batch:
                        clock.now = copy.at
                        ruling, moved = copied(copy, pool, held)
                        ids.append(write(tx, copy, ruling, moved, held))
                written += time.perf_counter() - start
                cpu += time.process_time() - start_cpu
                every = args.correct_every
                for turn in range(first // every + 1, (first + len(batch)) // every + 1):
                    at = turn * every - 1 - first  # the turn's ruling, corrected now
                    correct(where, turn - 1, ids[at], batch[at], clock.read())
        return {
            "pool": ruled - began,
            "users": registered - ruled,
            "write": written,
            "write_cpu": cpu,
        }
    finally:
        chain.utc_now, keys.KDF_N = real_clock, shipped_cost


def floor_of(where: Path) -> Floor:
    """The month, a day in its middle, the first table and the first ruling's first patron of
    the log at `where`."""
    with open_log(where, read_only=True) as log:
        first = log.records(RecordFilter(kind=RecordKind.RULING), limit=1)[0]
        (last,) = log.records(RecordFilter(kind=RecordKind.RULING), limit=1, newest_first=True)
    begun = datetime.strptime(first.recorded_at, TIME_FORMAT).date()
    ended = datetime.strptime(last.recorded_at, TIME_FORMAT).date()
    patron = str(first.result["seats"][0]["patron"])
    return Floor(begun, begun + (ended - begun) // 2, first.table_id, patron)


# The measurements.


def size_of(where: Path) -> int:
    """The log's bytes on disk, its write-ahead file included."""
    wal = Path(f"{where}-wal")
    return where.stat().st_size + (wal.stat().st_size if wal.exists() else 0)


def plain_log(where: Path, count: int, env: dict[str, str]) -> Run:
    """A log of `count` plain rulings made by `dealer paigow set --batch` (seeded hands)."""
    rnd = random.Random(SEED)
    deck = [str(card) for card in DECK]
    hands = where.with_suffix(".hands")
    hands.write_text("".join(" ".join(rnd.sample(deck, 7)) + "\n" for _ in range(count)))
    command = [DEALER, "paigow", "set", "--batch", str(hands), "--db", str(where)]
    return measured_apart([*command, "--user", "d-plain", "--json"], env=env)


def verdict(run: Run, bound: Bound) -> str:
    """OK or OVER against `bound` (a run killed at its timeout is OVER)."""
    over = run.killed or (bound.seconds is not None and run.wall > bound.seconds)
    over = over or (bound.mb is not None and run.peak_mb > bound.mb)
    return "OVER" if over else "OK"


def bound_said(bound: Bound) -> str:
    parts = [f"≤ {bound.seconds * 1000:.0f} ms" if bound.seconds is not None and
             bound.seconds < 1 else f"≤ {bound.seconds:g} s" if bound.seconds else "",
             f"≤ {bound.mb:.0f} MB" if bound.mb else ""]  # fmt: skip
    return " & ".join(p for p in parts if p)


def commands(floor: Floor, stats_rounds: int) -> list[tuple[str, list[str]]]:
    """Each measured command by its figure's name."""
    day, rounds = floor.day.isoformat(), ["--rounds", str(stats_rounds)]
    return [
        (
            "stats tables, month",
            ["stats", "tables", "--period", "month", "--date", floor.month.isoformat(), *rounds],
        ),
        ("stats tables, day", ["stats", "tables", "--period", "day", "--date", day, *rounds]),
        (
            "shift summary, a day",
            ["shift", "summary", "--table", floor.table, "--since", day, "--until", day],
        ),
        ("audit search --patron", ["audit", "search", "--patron", floor.patron]),
        ("audit verify", ["audit", "verify"]),
    ]


def measure(
    backend: str, db: str, floor: Floor, args: argparse.Namespace, env: dict[str, str]
) -> None:
    """Run each command against `db` and print its figures against its bound."""
    for name, command in commands(floor, args.stats_rounds):
        if args.no_verify and name == "audit verify":
            continue
        try:
            run = measured_apart([DEALER, *command, "--db", db], timeout=args.timeout, env=env)
        except SystemExit as failed:
            print(f"{backend:<10} {name:<22} FAILED: {failed}", flush=True)
            continue
        said = f"killed after {args.timeout:g} s" if run.killed else first_line(run.out)
        print(
            f"{backend:<10} {name:<22} {run.wall:8.2f} s ({run.cpu:.2f} s CPU)  peak "
            f"{run.peak_mb:5.0f} MB   bound {bound_said(BOUNDS[name]):<17} "
            f"{verdict(run, BOUNDS[name]):<4}  {said}",
            flush=True,
        )
    query = search_in_process(db, floor.patron)
    print(
        f"{backend:<10} {'search, in process':<22} {query * 1000:8.1f} ms (the query: what "
        f"the patron's list shows of each record)  bound ≤ 100 ms "
        f"{'OK' if query <= SEARCH_QUERY_SECONDS else 'OVER'}",
        flush=True,
    )


def search_in_process(db: str, patron: str) -> float:
    """The median wall time, in seconds, of the patron search `dealer audit search --patron`
    makes (`records.glances`: what its list shows of each record), in this process after one
    run to warm it: the query without the start-up every `dealer` process pays."""
    flt = RecordFilter(patron=patron)
    glances(db, flt)
    times = []
    for _ in range(5):
        start = time.perf_counter()
        glances(db, flt)
        times.append(time.perf_counter() - start)
    return sorted(times)[2]


def first_line(out: str) -> str:
    line = out.splitlines()[0] if out else ""
    return line if len(line) <= 60 else line[:57] + "..."


def postgresql(where: Path, floor: Floor, args: argparse.Namespace, env: dict[str, str]) -> None:
    """Copy the log into PostgreSQL (`--postgresql-url`, else a throwaway durable server
    started here) by `dealer audit copy`, up to a checkpoint the first supervisor takes first
    and vouches for, and measure the commands there."""
    server = None
    url = args.postgresql_url
    if url is None:
        sys.path.insert(0, str(ROOT / "tests"))
        from pg_server import PgServer

        server = PgServer.start(durable=True)
        if server is None:
            print("PostgreSQL: no server binaries (initdb, pg_ctl) on this machine: not measured")
            return
        url = server.fresh_url()
    try:
        if not args.copied:
            with open_log(where) as log:  # the shift close the copy goes up to
                kept = entries.checkpoint(log, SUPERVISORS[0], PIN)
            vouched = ["--checkpoint", str(kept), "--supervisor", SUPERVISORS[0], "--pin", PIN]
            run = measured_apart([DEALER, "audit", "copy", str(where), url, *vouched], env=env)
            print(
                f"postgresql copied by dealer audit copy in {run.wall:.1f} s ({run.cpu:.1f} s "
                f"CPU, peak {run.peak_mb:.0f} MB): {first_line(run.out)}",
                flush=True,
            )
        measure("postgresql", url, floor, args, env)
    finally:
        if server is not None:
            server.stop()


def warm(db: str, floor: Floor, args: argparse.Namespace, env: dict[str, str]) -> None:
    """Simulate the base wager's edge into the run's cache before anything is measured (the
    statistics of the month's first day)."""
    command = [DEALER, "stats", "tables", "--period", "day", "--date", floor.month.isoformat()]
    run = measured_apart([*command, "--rounds", str(args.stats_rounds), "--db", db], env=env)
    print(f"the base wager's edge simulated into the cache in {run.wall:.1f} s", flush=True)


def parse(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rulings", type=int, default=720_000)
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--days", type=int, default=30)
    parser.add_argument("--patrons", type=int, default=5000)
    parser.add_argument("--pool", type=int, default=5000, help="Distinct rounds ruled.")
    parser.add_argument("--plain", type=int, default=20_000, help="Plain rulings (paigow set).")
    parser.add_argument(
        "--correct-every", type=int, default=4000, help="Rulings between two corrections."
    )
    parser.add_argument("--timeout", type=float, default=300.0, help="Seconds a command may run.")
    parser.add_argument("--stats-rounds", type=int, default=200_000, help="dealer stats --rounds")
    parser.add_argument("--dir", default=None, help="Where the logs go (a temporary folder).")
    built = parser.add_mutually_exclusive_group()
    built.add_argument("--keep", type=Path, default=None, help="Keep the built log here.")
    built.add_argument("--from", dest="source", type=Path, help="Measure a log built before.")
    pg = parser.add_mutually_exclusive_group()
    pg.add_argument("--no-postgresql", action="store_true", help="Measure SQLite only.")
    parser.add_argument(
        "--no-sqlite", action="store_true", help="Measure PostgreSQL only (the log copied there)."
    )
    parser.add_argument(
        "--no-verify", action="store_true", help="Leave out audit verify (it reads everything)."
    )
    pg.add_argument("--postgresql-url", help="An empty PostgreSQL log (as its owner) to copy to.")
    parser.add_argument(
        "--copied",
        action="store_true",
        help="The --postgresql-url log already holds the copy of --from: measure it, no copy.",
    )
    args = parser.parse_args(argv)
    if args.no_sqlite and args.no_postgresql:
        parser.error("--no-sqlite and --no-postgresql leave nothing to measure")
    if args.copied and (args.postgresql_url is None or args.source is None):
        parser.error("--copied measures the copy of --from at --postgresql-url: give both")
    return args


def main(argv: Sequence[str] | None = None) -> None:
    args = parse(argv)
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        env = {**os.environ, "DEALER_CACHE": str(Path(tmp) / "cache")}
        for name in ("DEALER_DB", "DEALER_PROFILE", "DEALER_TABLE", "DEALER_USER"):
            env.pop(name, None)
        where = args.source or args.keep or Path(tmp) / "floor.sqlite"
        if args.source is None:
            if where.exists():
                raise SystemExit(f"{where} exists: --keep names a new file")
            built = build(where, args)
            size = size_of(where)
            print(
                f"built: {args.rulings:,} rulings at {args.tables} tables over {args.days} days "
                f"({args.patrons:,} patrons, a pool of {args.pool:,} rounds ruled in "
                f"{built['pool']:.1f} s); written {BATCH} a transaction in {built['write']:.1f} s "
                f"({built['write_cpu']:.1f} s CPU, {args.rulings / built['write']:,.0f} "
                f"rulings/s); users registered in {built['users']:.1f} s",
                flush=True,
            )
        else:
            with open_log(where):  # a log an earlier release built: upgraded, as a write would
                pass
        size = size_of(where)
        floor = floor_of(where)
        with open_log(where, read_only=True) as log:
            records = log.head().records or 0
        per_ruling = "" if args.source else f", {size / args.rulings:,.0f} bytes a ruling"
        print(
            f"log: {records:,} records, {size / 2**20:,.0f} MB ({size / records:,.0f} bytes a "
            f"record{per_ruling}); month {floor.month:%Y-%m}, day {floor.day}, table "
            f"{floor.table}, patron {floor.patron}",
            flush=True,
        )
        if args.plain:
            plain = Path(tmp) / "plain.sqlite"
            run = plain_log(plain, args.plain, env)
            per = size_of(plain) / args.plain
            print(
                f"plain rulings: {args.plain:,} by paigow set --batch in {run.wall:.1f} s, "
                f"{per:,.0f} bytes a ruling  bound ≤ 1.5 KB "
                f"{'OK' if per <= PLAIN_BOUND else 'OVER'}",
                flush=True,
            )
        warm(str(where), floor, args, env)
        if not args.no_sqlite:
            measure("sqlite", str(where), floor, args, env)
        if not args.no_postgresql:
            postgresql(where, floor, args, env)


if __name__ == "__main__":
    main()
