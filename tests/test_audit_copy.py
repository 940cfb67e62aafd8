"""`dealer audit copy`: what verify found sound, nothing a terminal appended in between; into an
SQLite file a copy for reading, every PIN withheld (the attack itself:
tests/attacks/test_secrets_attacks.py)."""

from __future__ import annotations

import functools
import json
from pathlib import Path

import cli
import pytest
from pg_server import PgServer

from dealer.audit import copy, entries, keys, open_log, staff
from dealer.audit.chain import VerifyResult
from dealer.audit.records import Entry
from dealer.audit.storage import Storage
from dealer.audit.verify import SumsCheck, verify
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

        def verified_then_appended(storage: Storage, sums: SumsCheck | None) -> VerifyResult:
            checked = verify(storage, sums=sums)
            entries.append(storage, ruling("after verify"))
            return checked

        monkeypatch.setattr(copy, "verify", verified_then_appended)
        with open_log(tmp_path / "copy.sqlite") as target:
            assert copy.copy_log(source, target) == (2, verified)
            assert [r.input_text for r in target.records()] == ["a", "b"]
            monkeypatch.setattr(copy, "verify", verify)
            assert source.head().records == 3
            assert copy.copy_log(source, target) == (1, source.head())
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


def test_a_copy_into_a_file_is_for_reading(table: Path, tmp_path: Path) -> None:
    """SQLite to SQLite: every record as it is, every users row with its secret withheld; the
    copy verifies with the same head, and a supervisor's PIN asked there is refused in one
    line, nothing written."""
    target = tmp_path / "archive.sqlite"
    copied = run("audit", "copy", str(table), str(target), "--json")
    assert copied.exit_code == 0, copied.output
    with open_log(table, read_only=True) as log:
        head, rows, kept = log.head(), list(log.rows()), log.user_history()
    assert json.loads(copied.stdout) == head.to_dict() | {"copied": 9}
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


@pytest.fixture
def floor(pg_server: PgServer) -> str:
    """An empty floor's log, as its owner."""
    return pg_server.fresh_url()


def test_a_copy_for_reading_cannot_become_the_floor(
    table: Path, floor: str, tmp_path: Path, pg_server: PgServer
) -> None:
    """A copy for reading holds no PIN: into PostgreSQL, which keeps them, it is refused."""
    archive = tmp_path / "archive.sqlite"
    assert run("audit", "copy", str(table), str(archive)).exit_code == 0
    refused = run("audit", "copy", str(archive), floor)
    assert (refused.exit_code, refused.stdout) == (1, "")
    assert refused.stderr == (
        "Error: the PINs of the log to copy are withheld (a copy for reading, or a PostgreSQL "
        "log read by a login other than its owner's), and PostgreSQL keeps them: copy the log "
        "itself, as its owner; nothing copied\n"
    )
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
