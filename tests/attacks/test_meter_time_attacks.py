"""Attacks on the progressive meters and on the log's time, as an insider would make them: a
meter move written into the log by hand (attack 10), a record dated in the future (attack 12),
and a rewrite that also deletes the log's own checkpoints (attack 14, caught by the line the
shift close keeps outside). The clock is injected where a test depends on it: the records'
times and the verifier's clock are set, never read from today's date."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from cli import run
from log_reads import head, records, use
from pg_server import PgServer
from sqlite_file import rechain, resum
from typer.testing import Result

import dealer.audit.chain
from dealer.audit import open_log, staff
from dealer.audit.chain import Checkpoint, record_hash, seal
from dealer.audit.postgres import PostgresStorage
from dealer.audit.records import Entry, canonical_json
from dealer.audit.verify import verify

PIN = "lantern-2468"
DEALER = "Ah Kh 9c 7h 5c 4c 2c"
PLAIN = "Js Jd Ac Qh 8s 5d 3h"
"""A player's hand with no progressive event: the wager contributes only."""
STRAIGHT_FLUSH = "8s 9s Ts Js Qs Ks As"
"""A seven-card straight flush: 100% of the progressive treasure meter."""
FORGED = "250000.00"


def settle(player: str, table: str = "PG-1") -> Result:
    return run(
        "paigow",
        "settle",
        "--dealer",
        DEALER,
        "--player",
        player,
        "--wager",
        "10",
        "--progressive-treasure",
        "1",
        "--table",
        table,
        "--user",
        "d-104",
    )


def forge_row(path: Path, row: dict[str, object]) -> None:
    """Put `row` at the end of the SQLite log as someone with the file would: a plain
    connection, an INSERT (the row carries its own hash and links to the head)."""
    conn = sqlite3.connect(path, isolation_level=None)
    columns = ", ".join(row)
    conn.execute(
        f"INSERT INTO records ({columns}) VALUES ({', '.join('?' * len(row))})", list(row.values())
    )
    conn.close()


def forged_move(where: Path | str) -> Entry:
    """A `meter`/`move` record in the dealer's own name setting the progressive treasure meter
    of PG-1 to $250,000, linked to the newest ruling as a genuine move is."""
    ruling = records(where, kind="ruling")[-1]
    moves = records(where, kind="meter")
    now = [m for m in moves if m.result["meter"] == "progressive_treasure"][-1].result["value"]
    return Entry(
        kind="meter",
        user_id="d-104",
        role="dealer",
        table_id="PG-1",
        game="paigow",
        action="move",
        result={
            "meter": "progressive_treasure",
            "previous": now,
            "value": FORGED,
            "delta": "239999.75",
        },
        explanation=[f"Meter progressive_treasure at table PG-1: {now} -> {FORGED} (ruling)"],
        links_to=ruling.id,
        reason=f"ruling #{ruling.id}",
    )


@pytest.fixture
def meter_log(log_at: Path | str, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path | str]:
    """A log with a supervisor and one settle at PG-1 that contributed to its progressive
    treasure meter ($10,000.25), on each backend, named in DEALER_DB."""
    use(log_at, monkeypatch)
    with open_log(log_at) as log:
        staff.add_user(log, "S1", "supervisor", pin=PIN)
    assert settle(PLAIN).exit_code == 0
    yield log_at


def refused_without_writing(result: Result, before: Checkpoint, where: Path | str) -> str:
    """The one `Error:` line a refused command printed, the log unchanged."""
    assert result.exit_code == 1, result.output
    (line,) = result.stderr.splitlines()
    assert line.startswith("Error: ")
    assert head(where) == before
    return line


def test_a_meter_move_written_into_the_file_is_never_paid_and_fails_verify(
    meter_log: Path | str, request: pytest.FixtureRequest
) -> None:
    """Attack 10: an unsigned `meter`/`move` record setting the progressive to $250,000,
    written into the SQLite file by hand (or appended by a terminal login on PostgreSQL,
    through the server's own append function), then a straight flush settled: the settle
    refuses to pay from it (one line, nothing written) and verify fails, naming the record.
    Once a supervisor sets the meter (signed), the table pays from that value again."""
    where = meter_log
    entry = forged_move(where)
    if isinstance(where, Path):
        with open_log(where) as log:
            row = seal(entry, log.head())
        forge_row(where, row)
        forged = int(str(row["id"]))
    else:
        server: PgServer = request.getfixturevalue("pg_server")
        with PostgresStorage.open(server.login(where, "d-104")) as log, log.transaction() as tx:
            forged = tx.append(entry)
    before = head(where)
    assert before.records == forged
    line = refused_without_writing(settle(STRAIGHT_FLUSH), before, where)
    assert line == (
        f"Error: meter progressive_treasure at table PG-1 was last moved by record {forged}, "
        "which nothing explains (the ruling left it at $10,000.25): no ruling pays from it "
        "until a supervisor sets the meter (dealer audit meter adjust) and dealer audit verify "
        "is run"
    )
    checked = run("audit", "verify")
    assert checked.exit_code == 1
    assert f"first bad record: {forged}" in checked.stdout
    assert (
        f"record {forged} (meter): at that point meter progressive_treasure at table PG-1 was "
        f"moved twice by ruling {forged - 3}"
    ) in checked.stdout
    assert adjust("12000").exit_code == 0  # the recovery: a supervisor sets the meter, signed
    paid = settle(STRAIGHT_FLUSH)
    assert paid.exit_code == 0, paid.output
    assert records(where, kind="ruling")[-1].result["progressive_hits"][0]["before"] == 12000.25


def adjust(value: str) -> Result:
    """Supervisor S1 sets PG-1's progressive treasure meter by hand (a signed adjustment)."""
    return run(
        "audit", "meter", "adjust", "progressive_treasure", value, "--reason", "reseed",
        "--table", "PG-1", "--supervisor", "S1", "--pin", PIN,
    )  # fmt: skip


def test_a_supervisors_signed_adjustment_is_paid_from_and_verifies(
    meter_log: Path | str,
) -> None:
    """Attack 10's counterpart: the same value set by a supervisor's signed adjustment is
    explained; the straight flush pays it, and the log verifies."""
    adjusted = adjust(FORGED)
    assert adjusted.exit_code == 0, adjusted.output
    paid = settle(STRAIGHT_FLUSH)
    assert paid.exit_code == 0, paid.output
    assert records(meter_log, kind="ruling")[-1].result["progressive_hits"][0]["before"] == 250000
    assert run("audit", "verify").exit_code == 0


class Clock:
    """The clock of the records and of the verifier (`dealer.audit.chain.utc_now`), set by
    the test."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.now = "2026-05-09T14:00:00.000000Z"
        monkeypatch.setattr(dealer.audit.chain, "utc_now", lambda: self.now)

    def at(self, stamp: str) -> None:
        self.now = stamp


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    return Clock(monkeypatch)


def test_a_record_dated_2099_fails_verify_and_drags_no_genuine_ruling(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, clock: Clock
) -> None:
    """Attack 12 on SQLite: a record dated 2099 written into the file. Verify fails, naming it;
    the next settle is refused in one line (nothing written) rather than dated 2099; the
    genuine ruling before it stays in its day's shift summary."""
    where = use(tmp_path / "audit.sqlite", monkeypatch)
    clock.at("2026-05-09T14:00:00.000000Z")
    genuine = settle(PLAIN)
    assert genuine.exit_code == 0, genuine.output
    (ruling,) = records(where, kind="ruling")
    assert ruling.recorded_at == "2026-05-09T14:00:00.000000Z"
    with open_log(where) as log:
        row = seal(ruling_entry(), log.head())
    row["recorded_at"] = "2099-01-01T00:00:00.000000Z"
    forge_row(where, row | {"hash": record_hash(row)})
    forged = int(str(row["id"]))

    clock.at("2026-05-09T14:10:00.000000Z")
    before = head(where)
    line = refused_without_writing(settle(PLAIN), before, where)
    assert line == (
        f"Error: cannot write to the audit log: record {forged} is dated "
        "2099-01-01T00:00:00.000000Z, more than 5 minutes after this clock "
        "(2026-05-09T14:10:00.000000Z): a record from the future (dealer audit verify names "
        "it), and a record is never dated before the one before it: nothing was written"
    )
    day = run(
        "shift", "summary", "--table", "PG-1", "--since", "2026-05-09", "--until", "2026-05-09",
        "--json",
    )  # fmt: skip
    assert json.loads(day.stdout)["rulings"]["settles"] == [ruling.id]
    checked = run("audit", "verify")
    assert checked.exit_code == 1
    assert checked.stdout.splitlines()[1:] == [
        f"  · record {forged} is dated 2099-01-01T00:00:00.000000Z, more than 5 minutes after "
        "this clock (2026-05-09T14:10:00.000000Z): a record from the future"
    ]


def ruling_entry() -> Entry:
    return Entry(
        kind="ruling",
        user_id="d-104",
        role="dealer",
        table_id="PG-1",
        game="paigow",
        action="rank",
        input_text="As Ks",
        cards=["As", "Ks"],
        result={"category": "ace-high"},
    )


def test_the_tolerance_is_five_minutes_by_the_verifiers_clock(tmp_path: Path, clock: Clock) -> None:
    """Attack 12: a record dated exactly `FUTURE_TOLERANCE` after the verifier's clock passes
    (a terminal's clock a little ahead); a microsecond more fails."""
    where = tmp_path / "audit.sqlite"
    clock.at("2026-05-09T14:00:00.000000Z")
    with open_log(where) as log:
        staff.add_user(log, "S1", "supervisor", pin=PIN)
        clock.at("2026-05-09T13:55:00.000000Z")
        assert verify(log).ok
        clock.at("2026-05-09T13:54:59.999999Z")
        late = verify(log)
    assert (late.ok, late.first_bad) == (False, 1)
    assert late.problem == (
        "record 1 is dated 2026-05-09T14:00:00.000000Z, more than 5 minutes after this clock "
        "(2026-05-09T13:54:59.999999Z): a record from the future"
    )


def test_the_owner_dating_a_record_in_2099_fails_verify_on_postgresql(
    pg_server: PgServer, clock: Clock
) -> None:
    """Attack 12 on PostgreSQL: the append function dates every record itself, so only the
    database's owner can date one: by lifting the protection, dating the newest record 2099 and
    hashing it again, then putting the protection back. Verify names the record."""
    with PostgresStorage.open(pg_server.fresh_url()) as log:
        with log.transaction() as tx:
            tx.append(ruling_entry())
            tx.append(ruling_entry())
        log.conn.execute("ALTER TABLE dealer.records DISABLE TRIGGER records_no_update")
        row = next(log.rows(newest_first=True, limit=1))
        row["recorded_at"] = "2099-01-01T00:00:00.000000Z"
        log.conn.execute(
            "UPDATE dealer.records SET recorded_at = %s, hash = %s WHERE id = 2",
            [row["recorded_at"], record_hash(row)],
        )
        log.conn.execute("ALTER TABLE dealer.records ENABLE TRIGGER records_no_update")
        now = str(next(log.rows(limit=1))["recorded_at"])  # the verifier's clock: record 1's
        clock.at(now)
        found = verify(log)
    assert (found.ok, found.first_bad) == (False, 2)
    assert found.problems == (
        "record 2 is dated 2099-01-01T00:00:00.000000Z, more than 5 minutes after this clock "
        f"({now}): a record from the future",
    )


def test_a_rewrite_deleting_the_logs_checkpoint_is_caught_by_the_shift_close_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Attack 14: someone with the SQLite file changes a settle's pay, deletes the checkpoint
    recorded in the log after it and computes the chain again: the log verifies on its own
    (expected: nothing inside a file its holder rewrites can vouch for it), but not against the
    checkpoint line the shift close printed to keep outside the log."""
    where = use(tmp_path / "audit.sqlite", monkeypatch)
    with open_log(where) as log:
        staff.add_user(log, "S1", "supervisor", pin=PIN)
    assert settle(PLAIN).exit_code == 0
    made = run("audit", "checkpoint", "--user", "S1", "--pin", PIN)
    assert made.exit_code == 0, made.output
    closed = run("shift", "summary", "--table", "PG-1")
    assert closed.exit_code == 0, closed.output
    prefix = "Shift close: keep this checkpoint outside the log: "
    (kept,) = [
        line[len(prefix) :] for line in closed.stdout.splitlines() if line.startswith(prefix)
    ]
    assert kept == str(head(where))

    rewrite_without_the_checkpoint(where)
    assert [r.kind for r in records(where)][-1] != "checkpoint"
    alone = run("audit", "verify")
    assert alone.exit_code == 0, alone.output
    against = run("audit", "verify", "--checkpoint", kept)
    assert against.exit_code == 1
    assert "FAILED" in against.stdout and "checkpoint" in against.stdout


def rewrite_without_the_checkpoint(path: Path) -> None:
    """The settle's base pay changed, the checkpoint record (the newest) deleted, the chain
    computed again from the settle on and the floor's sums from the records, the protection
    triggers put back as they were."""
    conn = sqlite3.connect(path, isolation_level=None)
    conn.row_factory = sqlite3.Row
    triggers = {
        name: sql
        for name, sql in conn.execute("SELECT name, sql FROM sqlite_master WHERE type = 'trigger'")
    }
    for name in triggers:
        conn.execute(f'DROP TRIGGER "{name}"')
    (ruling,) = conn.execute("SELECT id, result FROM records WHERE kind = 'ruling'").fetchall()
    result = json.loads(ruling["result"])
    result["base"]["net"] = 10
    conn.execute(
        "UPDATE records SET result = ? WHERE id = ?",
        [canonical_json(result), ruling["id"]],
    )
    conn.execute("DELETE FROM records WHERE kind = 'checkpoint'")
    rechain(conn)
    resum(conn)
    for sql in triggers.values():
        conn.execute(sql)
    conn.close()
