"""Trust III, principle 4's copies: "a forged SQLite history becomes floor history through the
documented `audit copy`". A dealer with the table's SQLite file rewrites it whole — their own
supervisor bootstrapped under the real one's id, a pay of their choosing, a checkpoint signed by
that supervisor — so that it verifies on its own and against its own checkpoint line; or keeps
the genuine file and adds rulings after the shift close. The floor's owner then copies the file
into the floor's PostgreSQL log.

The copy into PostgreSQL now takes a file's history only up to a supervisor's signed checkpoint
kept outside the file, and only from a supervisor the floor knows by the key that signed it, or
who vouches for it in person with their PIN (an empty floor knows no one). On the release
before this round the documented copy of the forged file succeeded and the floor verified."""

from __future__ import annotations

import functools
import shutil
from pathlib import Path

import cli
from pg_server import PgServer
from typer.testing import Result

from dealer.audit import open_log
from dealer.audit.chain import Checkpoint, parse_checkpoints
from dealer.audit.verify import verify

run = functools.partial(cli.run, whole=True)
ok = functools.partial(cli.ok, whole=True)
PIN = "lantern-2468"
"""The real sup-7's PIN."""
FORGER_PIN = "quarry-8642"
"""The PIN the forger gave the sup-7 of their own file."""
SETTLE = ("--dealer", "As Kd 9c 7h 5s 3d 2c", "--player", "Js Jd Jc Jh 8s 5d 3h")


def table_log(path: Path, pin: str, wager: str, kept: Path) -> Checkpoint:
    """A table's log at `path`: sup-7 (PIN `pin`) and dealer d-104 registered, a settle of
    `wager` at PG-3, and sup-7's signed checkpoint at shift close, its line appended to `kept`."""
    db = ("--db", str(path))
    ok("audit", "user", "add", "sup-7", "--role", "supervisor", "--new-pin", pin, *db)
    ok(
        "audit",
        "user",
        "add",
        "d-104",
        "--role",
        "dealer",
        "--supervisor",
        "sup-7",
        "--pin",
        pin,
        *db,
    )
    ok("paigow", "settle", *SETTLE, "--wager", wager, "--user", "d-104", "--table", "PG-3", *db)
    ok("audit", "checkpoint", "-o", str(kept), "--user", "sup-7", "--pin", pin, *db)
    return parse_checkpoints(kept.read_text(encoding="utf-8"))[-1]


def refused(result: Result, floor: str, line: str) -> None:
    """`result` is one `Error:` line, exit 1, and the floor holds no record."""
    assert (result.exit_code, result.stdout, result.stderr) == (1, "", f"Error: {line}\n")
    with open_log(floor, read_only=True) as log:
        assert log.head().records == 0


def test_a_forged_table_log_does_not_become_floor_history(
    tmp_path: Path, pg_server: PgServer
) -> None:
    """The whole file rewritten: a $5,000 pay where $25 was ruled, a sup-7 of the forger's own
    with a checkpoint of its own (its line in `forged.chk`), verifying on its own. The owner's
    copy is refused as docs/postgresql.md wrote it (no checkpoint), against the shift close's
    genuine line (the file does not match it), and against the forger's line with the real
    sup-7 vouching (their PIN does not open the key that signed it); nothing reaches the
    floor."""
    table = tmp_path / "dealer.sqlite"
    genuine = table_log(table, PIN, "25", tmp_path / "shift.chk")
    forged = table_log(tmp_path / "forged.sqlite", FORGER_PIN, "5000", tmp_path / "forged.chk")
    shutil.copyfile(tmp_path / "forged.sqlite", table)
    assert (
        run(
            "audit", "verify", "--checkpoint", str(tmp_path / "forged.chk"), "--db", str(table)
        ).exit_code
        == 0
    )
    floor = pg_server.fresh_url()

    documented = run("audit", "copy", str(table), floor)
    refused(
        documented,
        floor,
        "copying an SQLite file into PostgreSQL takes its history only up to a supervisor's "
        "signed checkpoint kept outside the file: give it with --checkpoint FILE (or N:HASH), "
        "as dealer audit checkpoint -o FILE wrote it; nothing copied",
    )
    vouched = ("--supervisor", "sup-7", "--pin", PIN)
    against_genuine = run(
        "audit", "copy", str(table), floor, "--checkpoint", str(tmp_path / "shift.chk"), *vouched
    )
    refused(
        against_genuine,
        floor,
        f"the log to copy does not verify (record {genuine.records} does not match checkpoint "
        f"{genuine}: the log was changed and re-chained somewhere in records "
        f"1-{genuine.records}): nothing copied",
    )
    forgers_line = ("--checkpoint", str(tmp_path / "forged.chk"))
    unvouched = run("audit", "copy", str(table), floor, *forgers_line)
    refused(
        unvouched,
        floor,
        f"checkpoint {forged} was signed by sup-7, whom the target log does not know by that "
        "key: sup-7 vouches for it in person (--supervisor sup-7 and their PIN); nothing copied",
    )
    against_forgers = run("audit", "copy", str(table), floor, *forgers_line, *vouched)
    refused(
        against_forgers,
        floor,
        f"the PIN given for sup-7 does not open the key that signed checkpoint {forged}: "
        "nothing copied",
    )


def test_rulings_after_the_shift_close_stay_off_the_floor(
    tmp_path: Path, pg_server: PgServer
) -> None:
    """The genuine file, with rulings added after the shift close's checkpoint: the copy takes
    the records up to the checkpoint, vouched for by sup-7 in person on the empty floor, and
    says in one line what it left; the floor verifies against the line kept outside. Copied
    again after a newer checkpoint, it takes the rest with no PIN: the floor knows sup-7 by the
    key that signed it."""
    table, kept = tmp_path / "dealer.sqlite", tmp_path / "shift.chk"
    closed = table_log(table, PIN, "25", kept)
    at = ("--user", "d-104", "--table", "PG-3", "--db", str(table))
    for wager in ("4000", "5000"):
        ok("paigow", "settle", *SETTLE, "--wager", wager, *at)
    after = closed.records + 1
    floor = pg_server.fresh_url()

    copied = run(
        "audit",
        "copy",
        str(table),
        floor,
        "--checkpoint",
        str(kept),
        "--supervisor",
        "sup-7",
        "--pin",
        PIN,
    )
    assert (copied.exit_code, copied.stderr) == (0, "")
    with open_log(table, read_only=True) as log:
        total = log.head().records or 0
    assert copied.stdout == (
        f"copied {closed.records} records: {closed.records} records, head hash "
        f"{closed.head_hash}\n"
        f"records {after}-{total} of the log to copy come after checkpoint {closed.records}, "
        "not copied: copy them with a newer checkpoint (dealer audit checkpoint -o FILE)\n"
    )
    with open_log(floor, read_only=True) as log:
        assert log.head() == closed
        assert verify(log, [closed]).ok

    ok("audit", "checkpoint", "-o", str(kept), "--user", "sup-7", "--pin", PIN, "--db", str(table))
    newer = parse_checkpoints(kept.read_text(encoding="utf-8"))[-1]
    again = run("audit", "copy", str(table), floor, "--checkpoint", str(kept))
    assert (again.exit_code, again.stderr) == (0, "")
    assert again.stdout == (
        f"copied {newer.records - closed.records} records: {newer.records} records, head hash "
        f"{newer.head_hash}\n"
    )
    with open_log(floor, read_only=True) as log:
        assert log.head() == newer
