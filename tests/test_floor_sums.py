"""The floor's sums (`dealer.desk.floor_sums`): what each ruling adds per hour, kept in the
ruling's own transaction, read by `dealer stats` — the same figures as the records give, over
several days and hours, with overrides and voids, and for a range cut inside an hour; an older
log's rulings read from the records; and every change made to them outside the tool found by
`dealer audit verify`."""

from __future__ import annotations

import json
import random
import sqlite3
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from cli import run
from pg_server import PgServer
from sqlite_file import migration, set_back

from dealer.audit import corrections, entries, open_log, sign_ins, staff
from dealer.audit.records import Record, RecordFilter, RecordKind
from dealer.desk.records import verified
from dealer.desk.shift import in_effect
from dealer.desk.stats import (
    GROUPS,
    Judge,
    Read,
    Statistics,
    _corrected,
    approved_texts,
    floor_of,
    statistics,
    summed,
)
from dealer.desk.stats_sources import Sources
from dealer.kernel.cards import DECK

ROUNDS = 5000
"""Simulated rounds of the base wager's edge (one chunk, then cached)."""
PIN = "lantern-2468"
DEALER_PIN = "harbor-1357"
PATRONS = ("P-1", "P-2", "P-3", "P-4")


class Clock:
    """The audit log's clock, set by the test: each reading a little later than the last (a
    ruling at a table someone is signed in at reads it twice: its sign-in's time, its own)."""

    def __init__(self, start: datetime) -> None:
        self.now = start

    def at(self, moment: datetime) -> None:
        self.now = moment

    def __call__(self) -> str:
        self.now += timedelta(seconds=20)
        return self.now.strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def rule(db: Path | str, *args: str, stdin: str | None = None, user: str = "d-1") -> Any:
    result = run(*args, "--json", "--db", str(db), "--user", user, stdin=stdin)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def a_round(deal: random.Random, table: str, seated: int) -> str:
    """A round at `table` of `seated` seats dealt from `deal`: some set by the House Way, some
    set by the player (the first two cards low), patrons at most seats, bonus and progressive
    wagers."""
    cards = [str(c) for c in deal.sample(DECK, 7 + 7 * seated)]
    seats = []
    for s in range(seated):
        hand = cards[7 + 7 * s : 14 + 7 * s]
        how = (
            f"cards: {' '.join(hand)}"
            if deal.random() < 0.5
            else f"high: {' '.join(hand[2:])}, low: {' '.join(hand[:2])}"
        )
        wagers = f"base: {deal.choice((10, 25, 40))}, treasure: 5"
        if deal.random() < 0.4:
            wagers += ", progressive_treasure: 1"
        patron = f", patron: {PATRONS[(s + seated) % 4]}" if s < 3 else ""
        seats.append(f"  - {{seat: {s + 1}, {how}, wagers: {{{wagers}}}{patron}}}")
    return f"table: {table}\ndealer: {' '.join(cards[:7])}\nseats:\n" + "\n".join(seats) + "\n"


def settle(db: Path | str, deal: random.Random, table: str, patron: str, user: str) -> Any:
    cards = [str(c) for c in deal.sample(DECK, 14)]
    return rule(
        db,
        "paigow",
        "settle",
        "--dealer",
        " ".join(cards[:7]),
        "--high",
        " ".join(cards[9:]),
        "--low",
        " ".join(cards[7:9]),
        "--wager",
        "20",
        "--seat",
        "2",
        "--patron",
        patron,
        "--table",
        table,
        user=user,
    )


@pytest.fixture(scope="module")
def floor(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """A SQLite log of three days' play at two tables (hours 10 to 13 UTC, a break at 11:20),
    rounds and single-seat settles by the dealers signed in at them (d-1 at PG-1, d-2 at PG-2,
    each signing in at every block), a void and an override, made through the commands with the
    log's clock set."""
    db = tmp_path_factory.mktemp("floor") / "audit.sqlite"
    clock = Clock(datetime(2025, 3, 3, 9, tzinfo=UTC))
    deal = random.Random(2603)
    ids: list[int] = []
    with mock.patch("dealer.audit.chain.utc_now", clock):
        with open_log(db) as log:
            staff.add_user(log, "sup-1", "supervisor", pin=PIN)
            for dealer in ("d-1", "d-2"):
                staff.add_user(
                    log, dealer, "dealer", pin=DEALER_PIN, supervisor_id="sup-1", supervisor_pin=PIN
                )
        for day in (3, 4, 6):
            for hour, minute in ((10, 0), (11, 40), (12, 50), (13, 5)):
                clock.at(datetime(2025, 3, day, hour, minute, tzinfo=UTC))
                with open_log(db) as log:
                    for dealer, table in (("d-1", "PG-1"), ("d-2", "PG-2")):
                        sign_ins.sign_in(log, dealer, DEALER_PIN, table)
                for n in range(5):
                    table, user = ("PG-1", "d-1") if n % 2 else ("PG-2", "d-2")
                    made = rule(db, "round", "-", stdin=a_round(deal, table, 2 + n), user=user)
                    ids.append(made["ruling_id"])
                    ids.append(settle(db, deal, table, PATRONS[n % 4], user)["ruling_id"])
        clock.at(datetime(2025, 3, 7, 9, tzinfo=UTC))
        with open_log(db) as log:
            corrections.void(log, ids[3], reason="misdeal", supervisor_id="sup-1", pin=PIN)
            record = log.record(ids[6])
            assert record is not None
            figures = json.loads(json.dumps(record.result))
            for seat in figures["seats"]:
                seat["base"]["net"] = "0.00"
            corrections.override(
                log,
                ids[6],
                decision="every base wager pushed",
                reason="the dealer's hand was misread",
                supervisor_id="sup-1",
                pin=PIN,
                result=figures,
            )
    yield {"db": db, "ids": ids}


def from_records(db: Path | str, since: str | None, until: str | None) -> Statistics:
    """The statistics of the range read from the records alone (no sums)."""
    with open_log(db, read_only=True) as log:
        corrections_made, _ = _corrected(log)
        sources = Sources(approved_texts(log), ROUNDS, 26)
        read = Read()
        flt = RecordFilter(kind=RecordKind.RULING, since=since, until=until)
        records = [Record.from_row(row) for row in log.rows(flt)]
        read.records(records, in_effect(corrections_made), Judge(sources))
    return summed(floor_of(read.numbers, sources), since, until, 0.95, read.voided)


MONEY = ("rulings", "wagered", "house_result", "expected_house_result", "standard_error")


def figures(made: Statistics, group: str, names: tuple[str, ...]) -> dict[str, Any]:
    return {row.key: {n: row.figures[n] for n in names} for row in made.groups[group]}


@pytest.mark.parametrize("group", sorted(GROUPS))
def test_the_sums_give_what_the_records_give(floor: dict[str, Any], group: str) -> None:
    """Over the whole log every figure of every row is the records'; rounds and pace too."""
    made = statistics(floor["db"], rounds=ROUNDS, group=group)
    assert made.groups[group]
    expected = from_records(floor["db"], None, None)
    assert [r.figures for r in made.groups[group]] == [r.figures for r in expected.groups[group]]
    assert made.voided == expected.voided == 1


@pytest.mark.parametrize(
    ("since", "until"),
    [
        ("2025-03-03T11:00:00.000000Z", "2025-03-06T13:00:00.000000Z"),
        ("2025-03-03T11:30:00.000000Z", "2025-03-06T13:20:00.000000Z"),
        ("2025-03-04T12:55:00.000000Z", "2025-03-04T13:10:00.000000Z"),
    ],
)
def test_a_range_cut_inside_an_hour_gives_the_records_money(
    floor: dict[str, Any], since: str, until: str
) -> None:
    """A range of whole hours, one cut inside its first and last hours, one inside one hour:
    the money figures of every group are the records' (the rounds at a cut read the deal from
    the cut)."""
    for group in GROUPS:
        made = statistics(floor["db"], since=since, until=until, rounds=ROUNDS, group=group)
        expected = from_records(floor["db"], since, until)
        assert figures(made, group, MONEY) == figures(expected, group, MONEY)


def test_the_sums_are_kept_by_the_rulings_and_verify(floor: dict[str, Any]) -> None:
    with open_log(floor["db"], read_only=True) as log:
        assert log.sums_from() == 1
        hours = log.sum_hours()
        assert verified(log).ok
    assert hours[0] == "2025-03-03T10" and "2025-03-06T13" in hours and len(hours) == 12


def test_pace_leaves_out_the_breaks(floor: dict[str, Any]) -> None:
    """PG-2 deals six rounds in each of the twelve hour blocks (three rounds, three settles
    with dealer cards of their own); the blocks an hour and more apart are breaks, left out of
    the time dealing (under three hours of three days), so its pace is that of the blocks
    (over 20 rounds an hour)."""
    made = statistics(floor["db"], rounds=ROUNDS, group="tables")
    row = next(r for r in made.groups["tables"] if r.key == "PG-2")
    assert row.figures["rounds"] == 6 * 12
    assert row.figures["dealing_hours"] < 3 and row.figures["rounds_per_hour"] > 20


def _tampered(db: Path, tmp_path: Path, sql: str) -> str | None:
    copied = tmp_path / "audit.sqlite"
    copied.write_bytes(db.read_bytes())
    with sqlite3.connect(copied) as conn:
        conn.execute(sql)
    with open_log(copied, read_only=True) as log:
        return verified(log).problem


def test_a_changed_sum_is_found(floor: dict[str, Any], tmp_path: Path) -> None:
    """A dealer with the file raises their table's house result in the sums: verify names the
    hour."""
    problem = _tampered(
        floor["db"],
        tmp_path,
        "UPDATE floor_sums SET n4 = n4 + 50000 "
        "WHERE grp = 'table' AND member = 'PG-1' AND source = '' AND hour = '2025-03-04T12'",
    )
    assert problem == (
        "the floor's sums of table PG-1 for 2025-03-04T12:00 UTC differ from what its rulings "
        "add: they were changed outside the tool (dealer stats reads them)"
    )


def test_sums_added_for_an_empty_hour_are_found(floor: dict[str, Any], tmp_path: Path) -> None:
    problem = _tampered(
        floor["db"],
        tmp_path,
        "INSERT INTO floor_sums (hour, grp, member, source, n4) "
        "VALUES ('2025-03-05T10', 'table', 'PG-1', '', 90000)",
    )
    assert problem is not None and "2025-03-05T10:00 UTC, when no ruling adds" in problem


def test_sums_cannot_be_deleted(floor: dict[str, Any], tmp_path: Path) -> None:
    copied = tmp_path / "audit.sqlite"
    copied.write_bytes(floor["db"].read_bytes())
    with sqlite3.connect(copied) as conn, pytest.raises(sqlite3.IntegrityError, match="deleted"):
        conn.execute("DELETE FROM floor_sums WHERE grp = 'dealer'")


def vouched(path: Path) -> tuple[str, ...]:
    """What a copy of the SQLite log at `path` into PostgreSQL needs: sup-1's checkpoint of it
    as it stands, taken now (a record of its own), with sup-1 vouching for it."""
    with open_log(path) as log:
        kept = entries.checkpoint(log, "sup-1", PIN)
    return ("--checkpoint", str(kept), "--supervisor", "sup-1", "--pin", PIN)


def test_a_copy_to_postgresql_keeps_the_sums(
    floor: dict[str, Any], tmp_path: Path, pg_server: PgServer
) -> None:
    """`dealer audit copy` onto the floor's PostgreSQL log adds each copied ruling's numbers
    there as it copies it: the copy verifies and gives the same statistics, hour for hour."""
    path = tmp_path / "audit.sqlite"
    path.write_bytes(floor["db"].read_bytes())
    url = pg_server.fresh_url()
    copied = run("audit", "copy", str(path), url, *vouched(path))
    assert copied.exit_code == 0, copied.output
    with open_log(url, read_only=True) as log, open_log(path, read_only=True) as source:
        assert verified(log).ok
        assert log.sum_hours() == source.sum_hours()
        assert all(log.sum_rows(hour) == source.sum_rows(hour) for hour in source.sum_hours())
    for group in GROUPS:
        there = statistics(url, rounds=ROUNDS, group=group)
        here = statistics(path, rounds=ROUNDS, group=group)
        assert [r.figures for r in there.groups[group]] == [r.figures for r in here.groups[group]]
    pg_server.drop(url)


def test_an_older_logs_rulings_are_read_from_the_records(
    floor: dict[str, Any], tmp_path: Path
) -> None:
    """A log from before the sums (its tables dropped, its version set back): opened by this
    version, its sums start after its last record; its earlier rulings are read from the
    records, its new ones from the sums, and the statistics are the records' all the same."""
    path = tmp_path / "older.sqlite"
    path.write_bytes(floor["db"].read_bytes())
    conn = sqlite3.connect(path, isolation_level=None)
    set_back(conn, migration("floor_sums"))
    conn.close()
    deal = random.Random(5)
    before = settle(path, deal, "PG-1", "P-1", "d-1")["ruling_id"]
    rule(path, "round", "-", stdin=a_round(deal, "PG-2", 3), user="d-2")
    with open_log(path, read_only=True) as log:
        assert log.sums_from() == before
        assert verified(log).ok
    for group in GROUPS:
        made = statistics(path, rounds=ROUNDS, group=group)
        expected = from_records(path, None, None)
        assert figures(made, group, MONEY) == figures(expected, group, MONEY)


def test_a_copy_in_two_steps_keeps_the_sums(
    floor: dict[str, Any], tmp_path: Path, pg_server: PgServer
) -> None:
    """A log copied to PostgreSQL, then copied again after more rulings (the second copy adds
    only the new records, to an hour the first copy left rows in, at tables whose last round
    was in it) and back to a new SQLite file: every hour's rows are the source's, and each copy
    verifies."""
    path = tmp_path / "audit.sqlite"
    path.write_bytes(floor["db"].read_bytes())
    deal, clock = random.Random(11), Clock(datetime(2025, 3, 7, 10, tzinfo=UTC))
    url, back = pg_server.fresh_url(), tmp_path / "back.sqlite"

    def play(*moments: tuple[int, int]) -> tuple[str, ...]:
        """The rounds and settles at `moments`, then sup-1's checkpoint (`vouched`)."""
        with mock.patch("dealer.audit.chain.utc_now", clock):
            for hour, minute in moments:
                clock.at(datetime(2025, 3, 7, hour, minute, tzinfo=UTC))
                rule(path, "round", "-", stdin=a_round(deal, "PG-1", 3), user="d-1")
                settle(path, deal, "PG-2", "P-2", "d-2")
            return vouched(path)

    assert run("audit", "copy", str(path), url, *play((10, 0), (10, 5))).exit_code == 0
    second = run("audit", "copy", str(path), url, *play((10, 10), (10, 50), (11, 3)))
    assert second.exit_code == 0 and second.stdout.startswith("copied 10 records:"), second.output
    assert run("audit", "copy", url, str(back)).exit_code == 0
    with open_log(path, read_only=True) as source:
        hours = source.sum_hours()
        assert hours[-2:] == ["2025-03-07T10", "2025-03-07T11"]
        for target in (url, back):
            with open_log(target, read_only=True) as log:
                assert verified(log).ok
                assert log.sum_hours() == hours
                assert all(log.sum_rows(hour) == source.sum_rows(hour) for hour in hours)
    pg_server.drop(url)
