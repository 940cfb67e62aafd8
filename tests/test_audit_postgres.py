"""The PostgreSQL backend against a real server (the `pg_server` fixture): the server's hash is
the client's hash for any text, terminals can append only through the server's function and
only in their own name, concurrent terminals never fork the chain, and `dealer db init` and
`--db postgresql://…` through the CLI."""

from __future__ import annotations

import functools
import json
import threading
from pathlib import Path

import cli
import psycopg
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from log_reads import READING
from pg_server import PgServer

from dealer.audit import entries, keys, open_log, staff
from dealer.audit.chain import GENESIS_HASH, record_hash, seal
from dealer.audit.postgres import PostgresStorage, redact
from dealer.audit.postgres_schema import LATEST
from dealer.audit.records import STORED_FIELDS, Entry, RecordFilter, UserRow
from dealer.audit.storage import WriteTransaction
from dealer.audit.users import user_record_result
from dealer.audit.verify import verify
from dealer.kernel.errors import AuditError

TEXT = st.text(
    st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"), max_size=40
)
"""Any text PostgreSQL can hold in UTF-8 (everything but NUL and lone surrogates)."""


def ruling(user_id: str, n: int = 1, *, seat: int | None = None, **result: object) -> Entry:
    return Entry(
        kind="ruling",
        user_id=user_id,
        role="dealer",
        table_id="PG-1",
        seat=seat,
        game="paigow",
        action="rank",
        input_text=f"as ks {n}",
        cards=["As", "Ks"],
        result={"n": n, **result},
    )


@pytest.fixture(scope="module")
def hashing(pg_server: PgServer) -> psycopg.Connection[tuple[object, ...]]:
    with psycopg.connect(pg_server.fresh_url(), autocommit=True) as conn:
        yield conn


@settings(max_examples=300)
@given(
    texts=st.fixed_dictionaries({name: TEXT for name in STORED_FIELDS if name != "id"}),
    numbers=st.tuples(
        st.integers(1, 2**62), st.none() | st.integers(-(2**31), 2**31 - 1), st.none()
    ),
    no_reason=st.booleans(),
)
def test_the_server_hashes_as_the_client(
    hashing: psycopg.Connection[tuple[object, ...]],
    texts: dict[str, str],
    numbers: tuple[int, int | None, None],
    no_reason: bool,
) -> None:
    row: dict[str, object] = dict(texts, id=numbers[0], seat=numbers[1], links_to=numbers[2])
    if no_reason:
        row["reason"] = None
    marks = ", ".join(f"%({name})s" for name in STORED_FIELDS)
    found = hashing.execute(
        f"SELECT dealer.record_hash(ROW({marks})::dealer.records)", row
    ).fetchone()
    assert found is not None and found[0] == record_hash(row)


def test_records_appended_by_the_server_verify_on_the_client(pg_server: PgServer) -> None:
    with PostgresStorage.open(pg_server.fresh_url()) as log:
        with log.transaction() as tx:
            for text in ('quote " back \\ slash', "tab\there", "é ü 🂡", "\u2028"):
                tx.append(
                    Entry(
                        kind="ruling",
                        user_id="D1",
                        role="dealer",
                        input_text=text,
                        result={"t": text},
                    )
                )
        rows = list(log.rows())
        assert rows[0]["prev_hash"] == GENESIS_HASH
        assert all(record_hash(row) == row["hash"] for row in rows)
        assert verify(log).ok


def test_a_terminal_writes_only_through_the_server(pg_server: PgServer) -> None:
    url = pg_server.fresh_url()
    as_dealer = pg_server.login(url, "d-104")
    with PostgresStorage.open(as_dealer) as log:
        with log.transaction() as tx:
            assert tx.append(ruling("d-104")) == 1
        first = log.record(1)
        assert first is not None and first.user_id == "d-104"
        with (
            pytest.raises(
                AuditError, match="in the name of sup-7, but this terminal is logged in as d-104"
            ),
            log.transaction() as tx,
        ):
            tx.append(ruling("sup-7"))
        assert log.head().records == 1
        with (
            pytest.raises(AuditError, match="users row goes with the user record"),
            log.transaction() as tx,
        ):
            made = tx.append(ruling("d-104"))
            tx.add_user(UserRow(made, "d-104", "supervisor", True, None))
        for statement in (
            "INSERT INTO dealer.records SELECT * FROM dealer.records",
            "UPDATE dealer.records SET reason = 'x'",
            "DELETE FROM dealer.records",
            "TRUNCATE dealer.records",
            "INSERT INTO dealer.users VALUES (1, 'd-104', 'supervisor', true, NULL)",
            "INSERT INTO dealer.record_seats VALUES (1, 1, NULL)",
            "UPDATE dealer.record_seats SET patron = 'x'",
            "DELETE FROM dealer.record_seats",
            "TRUNCATE dealer.record_seats",
        ):
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                log.conn.execute(statement)
        assert verify(log).ok


def test_even_the_owner_cannot_change_or_forge(pg_server: PgServer) -> None:
    with PostgresStorage.open(pg_server.fresh_url()) as log:
        with log.transaction() as tx:
            tx.append(ruling("D1"))
        for statement, says in (
            ("UPDATE dealer.records SET reason = 'x'", "cannot be changed"),
            ("DELETE FROM dealer.records", "cannot be deleted"),
            ("TRUNCATE dealer.records CASCADE", "cannot be deleted"),
            (
                "INSERT INTO dealer.records SELECT id + 1, recorded_at, kind, game, action, "
                "table_id, seat, user_id, role, input_text, cards, result, explanation, settings, "
                "links_to, reason, software_version, hash, hash FROM dealer.records",
                "does not carry its own hash",
            ),
        ):
            with pytest.raises(psycopg.errors.RaiseException, match=says):
                log.conn.execute(statement)
        assert log.protection_problems() == []
        log.conn.execute("ALTER TABLE dealer.records DISABLE TRIGGER records_no_delete")
        log.conn.execute("GRANT DELETE ON dealer.users TO dealer_app")
        assert log.protection_problems() == [
            "the protection trigger records_no_delete is missing or disabled: someone removed it",
            "the role dealer_app may DELETE on users: terminals could write around the server's "
            "append function",
        ]


def test_the_seat_index_is_written_only_with_its_record(pg_server: PgServer) -> None:
    """The server takes a record's seats only in `append_record` and only as its content names
    them; even the owner cannot add, change or remove a row, and `verify` reports an index
    tampered with around the triggers."""
    with PostgresStorage.open(pg_server.fresh_url()) as log:
        with log.transaction() as tx:
            tx.append(ruling("D1", 1, seat=2, patron="P-1"))
            tx.append(ruling("D1", 2, seats=[{"seat": 4, "patron": "P-2"}, 5]))
        assert log.conn.execute("SELECT * FROM dealer.record_seats ORDER BY 1, 2").fetchall() == [
            (1, 2, "P-1"),
            (2, 4, "P-2"),
            (2, 5, None),
        ]
        for statement, says in (
            ("INSERT INTO dealer.record_seats VALUES (1, 3, NULL)", "written with its record"),
            ("INSERT INTO dealer.record_seats VALUES (2, 6, NULL)", "seat 6 is not one record 2"),
            ("INSERT INTO dealer.record_seats VALUES (2, 4, 'P-9')", "seat 4 is not one record 2"),
            ("UPDATE dealer.record_seats SET patron = 'x'", "cannot be changed"),
            ("DELETE FROM dealer.record_seats", "cannot be deleted from"),
            ("TRUNCATE dealer.record_seats", "cannot be deleted from"),
        ):
            with pytest.raises(psycopg.errors.RaiseException, match=says):
                log.conn.execute(statement)
        assert log.integrity_problems() == [] and verify(log).ok
        log.conn.execute("ALTER TABLE dealer.record_seats DISABLE TRIGGER record_seats_no_delete")
        log.conn.execute("DELETE FROM dealer.record_seats WHERE seat = 5")
        log.conn.execute("ALTER TABLE dealer.record_seats ENABLE TRIGGER record_seats_no_delete")
        assert log.integrity_problems() == [
            "the seat index does not match record 2: it was changed outside the tool"
        ]
        assert not verify(log).ok


PIN = "lantern-2468"


def test_a_terminal_cannot_rewrite_the_users_or_lift_the_protection(pg_server: PgServer) -> None:
    """The counterparts of editing an SQLite file (tests/test_audit_tamper.py): a terminal's
    login is refused every write around the server's two functions, and the users row of a
    user record made by someone else."""
    url = pg_server.fresh_url()
    with open_log(url) as log:
        staff.add_user(log, "S1", "supervisor", pin=PIN)  # record 1, by S1
    with PostgresStorage.open(pg_server.login(url, "d-104")) as log:
        for statement in (
            "UPDATE dealer.users SET role = 'dealer'",
            "DELETE FROM dealer.users",
            "TRUNCATE dealer.users",
            "UPDATE dealer.schema_migrations SET version = 0",
            "DELETE FROM dealer.schema_migrations",
            "ALTER TABLE dealer.records DISABLE TRIGGER records_no_update",
            "DROP TRIGGER records_no_delete ON dealer.records",
            "ALTER TABLE dealer.users DISABLE TRIGGER users_no_update",
        ):
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                log.conn.execute(statement)
        with pytest.raises(psycopg.errors.InsufficientPrivilege, match="was not made by d-104"):
            log.conn.execute("SELECT dealer.add_user(1, 'S1', 'supervisor', true, NULL)")
        assert log.protection_problems() == [] and verify(log).ok


def test_a_terminal_cannot_promote_itself(pg_server: PgServer) -> None:
    """A login may append user records in its own name only as a registered supervisor: one
    making itself a supervisor is refused by the server (`append_record` checks the maker's
    standing, as verify would), and nothing is written."""
    url = pg_server.fresh_url()
    with open_log(url) as log:
        staff.add_user(log, "S1", "supervisor", pin=PIN)
    with PostgresStorage.open(pg_server.login(url, "d-104")) as log:
        with (
            pytest.raises(AuditError, match="d-104 is not a registered supervisor"),
            log.transaction() as tx,
        ):
            supervisor_row(tx, "d-104", "add")
        assert log.head().records == 1 and verify(log).ok


def test_the_owner_who_lifts_the_protection_is_caught_by_verify(pg_server: PgServer) -> None:
    """The counterpart of dropping an SQLite file's triggers: the database's owner may disable
    them; verify then names the protection lifted, a record changed, and records deleted from
    the end against a checkpoint kept outside."""
    with PostgresStorage.open(pg_server.fresh_url()) as log:
        with log.transaction() as tx:
            for n in range(1, 5):
                tx.append(ruling("D1", n))
        kept = log.head()
        log.conn.execute("ALTER TABLE dealer.records DISABLE TRIGGER records_no_update")
        log.conn.execute("ALTER TABLE dealer.records DISABLE TRIGGER records_no_delete")
        log.conn.execute("""UPDATE dealer.records SET result = '{"n":9}' WHERE id = 2""")
        changed = verify(log)
        assert (changed.ok, changed.records, changed.first_bad) == (False, 4, 2)
        assert changed.problems == (
            "record 2 was changed after it was written",
            "the protection trigger records_no_update is missing or disabled: someone removed it",
            "the protection trigger records_no_delete is missing or disabled: someone removed it",
        )
        log.conn.execute("DELETE FROM dealer.records WHERE id >= 2")
        log.conn.execute("ALTER TABLE dealer.records ENABLE TRIGGER records_no_update")
        log.conn.execute("ALTER TABLE dealer.records ENABLE TRIGGER records_no_delete")
        assert verify(log).ok  # what is left is a whole chain: only a checkpoint knows more
        cut = verify(log, [kept])
        assert (cut.ok, cut.records, cut.first_bad) == (False, 1, 2)


def test_even_the_owner_cannot_back_date_a_record(pg_server: PgServer) -> None:
    with PostgresStorage.open(pg_server.fresh_url()) as log:
        with log.transaction() as tx:
            tx.append(ruling("D1", 1))
        with (
            pytest.raises(AuditError, match="audit record 2 is dated before the record before it"),
            log.transaction() as tx,
        ):
            row = seal(ruling("D1", 2), tx.head())
            row["recorded_at"] = "2000-01-01T00:00:00.000000Z"
            tx.copy(row | {"hash": record_hash(row)})
        assert log.head().records == 1


def test_concurrent_terminals_never_fork_the_chain(pg_server: PgServer) -> None:
    url = pg_server.fresh_url()
    logins = [pg_server.login(url, f"d-{n}") for n in range(4)]
    failures: list[BaseException] = []

    def rule(login_url: str, user: str) -> None:
        try:
            with PostgresStorage.open(login_url) as log:
                for n in range(15):
                    with log.transaction() as tx:
                        tx.append(ruling(user, n))
        except BaseException as exc:
            failures.append(exc)

    threads = [threading.Thread(target=rule, args=(u, f"d-{n}")) for n, u in enumerate(logins)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    with PostgresStorage.open(url) as log:
        rows = list(log.rows())
        assert [row["id"] for row in rows] == list(range(1, 61))
        assert verify(log).ok
        assert sorted(row["user_id"] for row in rows) == sorted(
            f"d-{n}" for n in range(4) for _ in range(15)
        )


def test_a_writer_gives_up_after_the_busy_timeout_as_on_sqlite(
    pg_server: PgServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another terminal holding the log's lock (stopped mid-write): a writer waits for it at
    most the busy timeout, then says so in SQLite's words, and nothing is saved."""
    from dealer.audit import postgres, sqlite

    assert postgres.BUSY_TIMEOUT_SECONDS == sqlite.BUSY_TIMEOUT_SECONDS == 15
    monkeypatch.setattr(postgres, "BUSY_TIMEOUT_SECONDS", 0.2)
    url = pg_server.fresh_url()
    with psycopg.connect(url) as holder, open_log(url) as log:
        holder.execute("SELECT dealer.lock_log()")
        with pytest.raises(AuditError) as waited, log.transaction() as tx:
            tx.append(ruling("D1"))
        assert str(waited.value) == (
            f"could not write in the audit log {redact(url)} (the database stayed busy for more "
            "than "
            "0.2 s (another process is writing)): nothing was saved"
        )
        holder.rollback()
        assert log.head().records == 0
        with log.transaction() as tx:
            assert tx.append(ruling("D1")) == 1


def supervisor_row(tx: WriteTransaction, user_id: str, action: str) -> UserRow:
    """A user record making `user_id` a supervisor (no PIN) and its users row, written as they
    are, past the checks of `dealer.audit.users` (the server's own checks are what is tested)."""
    made = tx.append(
        Entry(
            kind="user",
            user_id=user_id,
            role="supervisor",
            action=action,
            result=user_record_result(user_id, "supervisor", True, None),
        )
    )
    row = UserRow(made, user_id, "supervisor", True, None)
    tx.add_user(row)
    return row


def test_a_user_row_written_through_the_server(pg_server: PgServer) -> None:
    with PostgresStorage.open(pg_server.fresh_url()) as log, log.transaction() as tx:
        row = supervisor_row(tx, "S1", "bootstrap")
        assert tx.user("S1") == row == UserRow(1, "S1", "supervisor", True, None)


def test_the_password_is_never_shown() -> None:
    assert redact("postgresql://d-104:s3cret@floor/audit") == "postgresql://floor/audit"
    assert redact("postgresql://floor/audit") == "postgresql://floor/audit"
    assert redact("postgresql://d-104@/audit?host=/run/pg&password=s3cret&sslmode=require") == (
        "postgresql:///audit?host=/run/pg"
    )


run = functools.partial(cli.run, whole=True)


def test_a_read_only_login_reads_everything_and_writes_nothing(pg_server: PgServer) -> None:
    """The counterpart of an archived (read-only) SQLite file: an auditor's login runs every
    reading command and is refused any write in one line, before a PIN is checked."""
    url = pg_server.fresh_url()
    with open_log(url) as log:
        staff.add_user(log, "S1", "supervisor", pin=PIN)
        with log.transaction() as tx:
            tx.append(ruling("D1", seat=1))
        before = log.head()
    auditor = pg_server.login(url, "a-3", "dealer_auditor")
    for args in READING:
        result = run(*args, "--db", auditor)
        assert result.exit_code == 0, (args, result.output)
    refused = (
        f"Error: the audit log {redact(auditor)} is read-only for the login a-3: it can be read, "
    )
    for args in (
        ["audit", "checkpoint", "--user", "S1", "--pin", PIN],
        ["audit", "checkpoint", "--user", "S1", "--pin", "wrong-pin-0"],
        ["paigow", "rank", "As Ks", "--user", "D1"],
    ):
        result = run(*args, "--db", auditor)
        assert (result.exit_code, result.stdout, result.stderr) == (
            1,
            "",
            refused + "listed, verified and exported, not written\n",
        )
    with open_log(url, read_only=True) as log:
        assert log.head() == before


def test_db_init_through_the_cli(pg_server: PgServer) -> None:
    pg_server.sql("postgres", "CREATE DATABASE floor_a ENCODING 'UTF8'")
    url = pg_server.url("floor_a")
    made = run("db", "init", url)
    assert (made.exit_code, made.stdout) == (
        0,
        f"created the schema dealer (version {LATEST})\n"
        "granted dealer_app (terminals) and dealer_auditor (read-only)\n",
    )
    again = run("db", "init", url)
    assert (again.exit_code, again.stdout) == (
        0,
        f"the schema dealer is already there (version {LATEST})\n"
        "granted dealer_app (terminals) and dealer_auditor (read-only)\n",
    )
    added = run(
        "audit",
        "user",
        "add",
        "S1",
        "--role",
        "supervisor",
        "--new-pin",
        "harbor-2468",
        "--db",
        url,
    )
    assert added.exit_code == 0, added.output
    checked = run("audit", "verify", "--db", url)
    assert (checked.exit_code, checked.stdout) == (
        0,
        "OK: 1 records, the hash chain verifies.\n",
    )


def test_a_database_without_the_log_is_refused(pg_server: PgServer) -> None:
    pg_server.sql("postgres", "CREATE DATABASE floor_b ENCODING 'UTF8'")
    url = pg_server.url("floor_b")
    result = run("audit", "list", "--db", url)
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == (
        f"Error: the database {redact(url)} holds no audit log: set it up once with "
        f"dealer db init {redact(url)} (as the database's owner)\n"
    )


def test_an_unreachable_server_is_one_line_without_the_password(tmp_path: Path) -> None:
    url = f"postgresql://d-104:s3cret@/floor?host={tmp_path}"
    result = run("audit", "list", "--db", url)
    assert result.exit_code == 1 and result.stdout == ""
    assert result.stderr.startswith(
        f"Error: cannot connect to the audit log postgresql:///floor?host={tmp_path}: "
    )
    assert "s3cret" not in result.stderr and result.stderr.count("\n") == 1


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("postgresql://d-104:s3cret@[::1/floor", "the PostgreSQL URL given"),
        (
            "postgresql://d-104:s3%ZZcret@/floor?host=/nowhere",
            "postgresql:///floor?host=/nowhere",
        ),
    ],
)
def test_a_url_the_driver_cannot_read_is_one_line_without_the_password(
    url: str, shown: str
) -> None:
    """The driver's own words follow (they may quote the URL: never with its password)."""
    result = run("audit", "list", "--db", url)
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr.startswith(f"Error: cannot connect to the audit log {shown}: ")
    assert "s3" not in result.stderr and result.stderr.count("\n") == 1


def test_db_init_wants_a_url() -> None:
    result = run("db", "init", "logs/dealer.sqlite")
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == (
        "Error: URL: expected a postgresql:// URL, e.g. postgresql://owner@host/dbname "
        "(an SQLite log needs no set-up: it is made on first use)\n"
    )


def test_open_log_chooses_the_backend_by_url(pg_server: PgServer) -> None:
    with open_log(pg_server.fresh_url(), read_only=True) as log:
        assert isinstance(log, PostgresStorage) and log.head().records == 0


COPY_PIN = "harbor-2468"
VOUCHED = ("--supervisor", "S1", "--pin", COPY_PIN)
"""S1 vouching in person for the checkpoint of a table's log copied into an empty floor."""


def table_log(path: Path, *made: Entry) -> str:
    """A table's SQLite log at `path`: S1 (bootstrap) and D1 registered, the records `made`,
    and S1's signed checkpoint; its `N:HASH` line, to keep outside."""
    with open_log(path) as log:
        staff.add_user(log, "S1", "supervisor", pin=COPY_PIN)
        staff.add_user(log, "D1", "dealer", supervisor_id="S1", supervisor_pin=COPY_PIN)
        with log.transaction() as tx:
            for entry in made:
                tx.append(entry)
        return str(entries.checkpoint(log, "S1", COPY_PIN))


def test_audit_copy_there_and_back(pg_server: PgServer, tmp_path: Path) -> None:
    """A table's log into the floor up to S1's checkpoint (S1 vouching), again (nothing to add)
    and back into an SQLite file for reading: the same records and seat index everywhere, the
    same users, their PINs withheld in the file."""
    table = tmp_path / "table.sqlite"
    kept = table_log(table, ruling("D1", seats=[{"seat": 3, "patron": "P-7"}, 6]))
    with open_log(table, read_only=True) as log:
        head, rows = log.head(), list(log.rows())
    floor = pg_server.fresh_url()
    there = run("audit", "copy", str(table), floor, "--checkpoint", kept, *VOUCHED)
    assert (there.exit_code, there.stdout) == (
        0,
        f"copied 4 records: 4 records, head hash {head.head_hash}\n",
    )
    again = run("audit", "copy", str(table), floor, "--checkpoint", kept, "--json")
    assert json.loads(again.stdout) == head.to_dict() | {"copied": 0, "not_copied": 0}
    back = tmp_path / "back.sqlite"
    assert run("audit", "copy", floor, str(back)).exit_code == 0
    for place in (floor, back):
        with open_log(place, read_only=True) as copy:
            assert verify(copy).ok and copy.head() == head
            assert list(copy.rows()) == rows
            assert [row.user_id for row in copy.user_history()] == ["S1", "D1"]
            assert [r.id for r in copy.records(RecordFilter(seat=3, patron="P-7"))] == [3]
            assert [r.id for r in copy.records(RecordFilter(seat=6))] == [3]
    with open_log(back, read_only=True) as copy:
        assert keys.parse_withheld(copy.user_history()[0].pin_hash) is not None


def test_audit_copy_refuses_another_chain(pg_server: PgServer, tmp_path: Path) -> None:
    source = tmp_path / "a.sqlite"
    kept = table_log(source, ruling("D1", 1), ruling("D1", 2))
    floor = pg_server.fresh_url()
    with open_log(floor) as log, log.transaction() as tx:
        tx.append(ruling("D2", 1))
    refused = run("audit", "copy", str(source), floor, "--checkpoint", kept, *VOUCHED)
    assert (refused.exit_code, refused.stdout) == (1, "")
    assert refused.stderr == (
        "Error: the target log holds a different chain (its record 1 is not the same record): "
        "refusing to copy onto it\n"
    )
    with open_log(floor, read_only=True) as log:
        assert log.head().records == 1


def test_a_terminal_cannot_copy_records_in(pg_server: PgServer, tmp_path: Path) -> None:
    source = tmp_path / "a.sqlite"
    kept = table_log(source, ruling("d-104"))
    url = pg_server.fresh_url()
    refused = run(
        "audit",
        "copy",
        str(source),
        pg_server.login(url, "d-104"),
        "--checkpoint",
        kept,
        *VOUCHED,
    )
    assert refused.exit_code == 1
    assert refused.stderr.startswith("Error: could not write in the audit log ")
    assert "permission denied for table settings_texts" in refused.stderr


def test_browse_wants_an_sqlite_file() -> None:
    result = run("audit", "browse", "--db", "postgresql://sup-7:secret@floor-db/audit")
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == (
        "Error: --db postgresql://floor-db/audit: dealer audit browse reads an SQLite log "
        "file; copy the PostgreSQL log into one first (dealer audit copy)\n"
    )


def test_the_login_in_the_url_is_the_user(
    pg_server: PgServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A terminal whose URL names the dealer's login rules in that name with no --user (the
    server takes records only in its login's name); --user still says otherwise."""
    url = pg_server.fresh_url()
    as_dealer = pg_server.login(url, "d-104")
    monkeypatch.delenv("DEALER_USER", raising=False)
    made = cli.run("paigow", "set", "Ks Kd 4c 4h As 9d 2c", "--db", as_dealer, "--json")
    assert made.exit_code == 0, made.output
    with PostgresStorage.open(url) as log:
        first = log.record(1)
    assert first is not None and first.user_id == "d-104"
    other = cli.run("paigow", "set", "Ks Kd 4c 4h As 9d 2c", "--db", as_dealer, "--user", "d-9")
    assert other.exit_code == 1
    assert "in the name of d-9, but this terminal is logged in as d-104" in other.stderr
