"""`dealer audit copy`: what verify found sound, nothing a terminal appended in between; into an
SQLite file a copy for reading (every PIN withheld); from an SQLite file into PostgreSQL only up
to a supervisor's signed checkpoint kept outside, which the floor's own supervisors or its
signer in person vouch for (the attacks themselves: tests/attacks/test_floor_copy_attacks.py and
tests/attacks/test_secrets_attacks.py)."""

from __future__ import annotations

import functools
import json
import shutil
import sqlite3
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import cli
import pytest
from pg_server import PgServer
from sqlite_file import rechain

from dealer.audit import copy, entries, keys, open_log, staff
from dealer.audit.chain import Checkpoint, VerifyResult
from dealer.audit.records import Entry, RecordFilter, RecordKind
from dealer.audit.storage import Storage
from dealer.audit.verify import FloorSums, verify
from dealer.kernel.errors import AuditError

run = functools.partial(cli.run, whole=True)
PIN = "lantern-2468"
AUDITOR_PIN = "ledger-86420"


def ruling(text: str, user_id: str = "D1") -> Entry:
    return Entry(kind="ruling", user_id=user_id, role="dealer", table_id="PG-1", input_text=text)


def test_a_record_appended_after_verify_is_left_for_the_next_copy(
    log_at: Path | str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with open_log(log_at) as source:
        for text in ("a", "b"):
            entries.append(source, ruling(text))
        verified = source.head()

        def verified_then_appended(
            storage: Storage,
            checkpoints: Sequence[Checkpoint],
            sums: FloorSums | None,
            **checks: Any,
        ) -> VerifyResult:
            checked = verify(storage, checkpoints, sums=sums, **checks)
            entries.append(storage, ruling("after verify"))
            return checked

        monkeypatch.setattr(copy, "verify", verified_then_appended)
        with open_log(tmp_path / "copy.sqlite") as target:
            assert copy.copy_log(source, target) == (2, verified, 0, 2)
            assert [r.input_text for r in target.records()] == ["a", "b"]
            monkeypatch.setattr(copy, "verify", verify)
            assert source.head().records == 3
            assert copy.copy_log(source, target) == (1, source.head(), 0, 3)
            assert [r.input_text for r in target.records()] == ["a", "b", "after verify"]
            assert verify(target).ok and target.head() == source.head()


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A table's SQLite log: supervisors sup-7 (bootstrap) and sup-8, dealer d-104, auditor a-3
    (records 1-4), rulings 5-6, sup-7's checkpoint 7 (its line in `shift.chk` beside the log),
    a-3's checkpoint 8, ruling 9."""
    path = tmp_path_factory.mktemp("table") / "dealer.sqlite"
    with open_log(path) as log:
        staff.add_user(log, "sup-7", "supervisor", pin=PIN)
        staff.add_user(
            log, "sup-8", "supervisor", supervisor_id="sup-7", supervisor_pin=PIN, pin="harbor-1357"
        )
        staff.add_user(log, "d-104", "dealer", supervisor_id="sup-7", supervisor_pin=PIN)
        staff.add_user(
            log, "a-3", "auditor", supervisor_id="sup-7", supervisor_pin=PIN, pin=AUDITOR_PIN
        )
        for text in ("as ks", "qs qd"):
            entries.append(log, ruling(text, "d-104"))
        closed = entries.checkpoint(log, "sup-7", PIN)
        entries.checkpoint(log, "a-3", AUDITOR_PIN)
        entries.append(log, ruling("2c 2d", "d-104"))
    (path.parent / "shift.chk").write_text(f"{closed}\n", encoding="utf-8")
    return path


def line(where: Path, record: int) -> str:
    """`N:HASH` of record `record` of the log at `where`."""
    with open_log(where, read_only=True) as log:
        (found,) = log.rows(RecordFilter(ids=(record,)))
    return f"{record}:{found['hash']}"


def test_a_copy_into_a_file_is_for_reading(table: Path, tmp_path: Path) -> None:
    """SQLite to SQLite: every record as it is, every users row with its secret withheld; the
    copy verifies with the same head, and a supervisor's PIN asked there is refused in one
    line, nothing written."""
    target = tmp_path / "archive.sqlite"
    copied = run("audit", "copy", str(table), str(target), "--json")
    assert copied.exit_code == 0, copied.output
    with open_log(table, read_only=True) as log:
        head, rows, kept = log.head(), list(log.rows()), log.user_history()
    assert json.loads(copied.stdout) == head.to_dict() | {"copied": 9, "not_copied": 0}
    with open_log(target, read_only=True) as log:
        assert verify(log).ok and log.head() == head and list(log.rows()) == rows
        assert [row.pin_hash for row in log.user_history()] == [
            None if row.pin_hash is None else keys.withheld(row.pin_hash) for row in kept
        ]
    void = run(
        "audit",
        "void",
        "5",
        "--reason",
        "misdeal",
        "--supervisor",
        "sup-7",
        "--pin",
        PIN,
        "--db",
        str(target),
    )
    assert (void.exit_code, void.stdout, void.stderr) == (
        1,
        "",
        f"Error: the PIN of sup-7 is withheld in {target}, a copy for reading (dealer audit "
        "copy): a supervisor acts on the log it was copied from\n",
    )
    with open_log(target, read_only=True) as log:
        assert log.head() == head


def test_any_copy_stops_at_the_newest_checkpoint_given(table: Path, tmp_path: Path) -> None:
    """A checkpoint given to a copy between SQLite files is checked and ends the copy there,
    with the line saying what it left."""
    target = tmp_path / "archive.sqlite"
    given = (str(table.parent / "shift.chk"), line(table, 5))
    copied = run(
        "audit", "copy", str(table), str(target), "--checkpoint", given[0], "--checkpoint", given[1]
    )
    seven = line(table, 7)
    assert (copied.exit_code, copied.stderr) == (0, "")
    assert copied.stdout == (
        f"copied 7 records: 7 records, head hash {seven[2:]}\n"
        "records 8-9 of the log to copy come after checkpoint 7, not copied: copy them with a "
        "newer checkpoint (dealer audit checkpoint -o FILE)\n"
    )


def test_a_file_rewritten_while_it_is_copied_is_refused(
    table: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Rewritten between verify and the copy (a ruling changed, the chain computed again): the
    records read no longer end at the checkpoint verify held them to, and nothing is copied."""
    source = Path(shutil.copy(table, tmp_path / "dealer.sqlite"))
    seven = line(source, 7)

    def verified_then_rewritten(
        storage: Storage,
        checkpoints: Sequence[Checkpoint],
        sums: FloorSums | None,
        **checks: Any,
    ) -> VerifyResult:
        checked = verify(storage, checkpoints, sums=sums, **checks)
        conn = sqlite3.connect(source, isolation_level=None)
        triggers = conn.execute("SELECT name, sql FROM sqlite_master WHERE type = 'trigger'")
        made = triggers.fetchall()
        for name, _ in made:
            conn.execute(f'DROP TRIGGER "{name}"')
        conn.execute("UPDATE records SET input_text = 'as kd' WHERE id = 5")
        rechain(conn, 5)
        for _, sql in made:
            conn.execute(sql)
        conn.close()
        return checked

    monkeypatch.setattr(copy, "verify", verified_then_rewritten)
    target = tmp_path / "archive.sqlite"
    refused = run("audit", "copy", str(source), str(target), "--checkpoint", seven)
    assert (refused.exit_code, refused.stdout, refused.stderr) == (
        1,
        "",
        f"Error: the log to copy changed while it was copied: it no longer ends at checkpoint "
        f"{seven}; nothing copied\n",
    )
    with open_log(target, read_only=True) as log:
        assert log.head().records == 0


@pytest.fixture
def floor(pg_server: PgServer) -> str:
    """An empty floor's log, as its owner."""
    return pg_server.fresh_url()


def refusals(table: Path) -> list[tuple[str, list[str], str]]:
    """Each copy of `table` into an empty floor that is refused: its name, the options, the
    line."""
    seven, eight, six = line(table, 7), line(table, 8), line(table, 6)
    return [
        ("a bare hash", ["--checkpoint", seven[2:]], copy.NEEDS_CHECKPOINT),
        (
            "a ruling's line (the shift summary's)",
            ["--checkpoint", six],
            f"checkpoint {six}: record 6 of the log to copy is not a checkpoint signed by a "
            "supervisor (ruling by d-104, dealer): nothing copied",
        ),
        (
            "an auditor's checkpoint",
            ["--checkpoint", eight, "--supervisor", "a-3", "--pin", AUDITOR_PIN],
            f"checkpoint {eight}: record 8 of the log to copy is not a checkpoint signed by a "
            "supervisor (checkpoint by a-3, auditor): nothing copied",
        ),
        (
            "another supervisor vouching",
            ["--checkpoint", seven, "--supervisor", "sup-8", "--pin", "harbor-1357"],
            f"checkpoint {seven} was signed by sup-7, not by sup-8: sup-7 vouches for it in "
            "person (--supervisor sup-7 and their PIN); nothing copied",
        ),
    ]


def test_a_copy_into_the_floor_is_refused_in_one_line(
    table: Path, floor: str, pg_server: PgServer
) -> None:
    """From an SQLite file into PostgreSQL: each copy that lacks a supervisor's checkpoint
    vouched for is refused in one line, exit 1, nothing written."""
    said = {}
    for name, options, _ in refusals(table):
        refused = run("audit", "copy", str(table), floor, *options)
        said[name] = (refused.exit_code, refused.stdout, refused.stderr)
    assert said == {name: (1, "", f"Error: {text}\n") for name, _, text in refusals(table)}
    with open_log(floor, read_only=True) as log:
        assert log.head().records == 0
    pg_server.drop(floor)


def test_a_copy_for_reading_cannot_become_the_floor(
    table: Path, floor: str, tmp_path: Path, pg_server: PgServer
) -> None:
    """A copy for reading holds no PIN: into PostgreSQL, which keeps them, it is refused."""
    archive = tmp_path / "archive.sqlite"
    assert run("audit", "copy", str(table), str(archive)).exit_code == 0
    shutil.copyfile(table.parent / "shift.chk", tmp_path / "shift.chk")
    refused = run(
        "audit",
        "copy",
        str(archive),
        floor,
        "--checkpoint",
        str(tmp_path / "shift.chk"),
        "--supervisor",
        "sup-7",
        "--pin",
        PIN,
    )
    assert (refused.exit_code, refused.stdout) == (1, "")
    assert refused.stderr == (
        "Error: the PINs of the log to copy are withheld (a copy for reading, or a PostgreSQL "
        "log read by a login other than its owner's), and PostgreSQL keeps them: copy the log "
        "itself, as its owner; nothing copied\n"
    )
    pg_server.drop(floor)


def test_the_signer_vouches_with_the_pin_asked(
    table: Path, floor: str, pg_server: PgServer
) -> None:
    """On an empty floor the checkpoint's signer types their PIN (asked, hidden) and the copy
    takes the records up to it; JSON says how many it left."""
    copied = run(
        "audit",
        "copy",
        str(table),
        floor,
        "--checkpoint",
        str(table.parent / "shift.chk"),
        "--supervisor",
        "sup-7",
        "--json",
        stdin=PIN + "\n",
    )
    assert copied.exit_code == 0, copied.output
    assert copied.stdout.splitlines()[0] == "PIN for sup-7: "
    seven = line(table, 7)
    assert json.loads(copied.stdout.splitlines()[1]) == {
        "records": 7,
        "head_hash": seven[2:],
        "checkpoint": seven,
        "copied": 7,
        "not_copied": 2,
    }
    with open_log(floor, read_only=True) as log:
        assert [row.user_id for row in log.user_history()] == ["sup-7", "sup-8", "d-104", "a-3"]
        assert keys.parse_blob(log.user_history()[0].pin_hash) is not None
        assert [r.kind for r in log.records()][-1] == RecordKind.CHECKPOINT
    pg_server.drop(floor)


def test_the_withheld_form_is_the_servers(pg_server: PgServer) -> None:
    """`keys.withheld` gives a key blob as the server's `dealer.withheld` does (verify's
    fingerprint, the cost, the salt, the public key), keeps a withheld form, drops the salt of
    a PIN hash from before signing keys (with the fingerprint it would test a PIN) and refuses
    a secret in no form it reads."""
    blob, _ = keys.make_key(PIN)
    legacy = "scrypt$1024$8$1$" + "ab" * 16 + "$" + "cd" * 32
    url = pg_server.fresh_url()
    with open_log(url) as log, log.snapshot():
        conn = log.conn
        (server,) = conn.execute("SELECT dealer.withheld(%s)", [blob]).fetchone()
        (old,) = conn.execute("SELECT dealer.withheld(%s)", [legacy]).fetchone()
    pg_server.drop(url)
    assert keys.withheld(blob) == server and keys.withheld(server) == server
    assert keys.withheld(legacy) == keys.withheld(old) == old.replace("ab" * 16, "")
    assert keys.parse_withheld(keys.withheld(legacy)) is not None
    with pytest.raises(AuditError, match="in no form this release reads"):
        keys.withheld("scrypt$pin")
