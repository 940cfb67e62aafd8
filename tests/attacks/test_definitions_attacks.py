"""Attacks on the log's own definitions, on both backends: records too large to keep (refused by
the tool, and by the database itself for whoever writes around the tool), and protection
replaced by something of the same name that does nothing (caught by `dealer audit verify`,
which compares definitions, not names)."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

import cli
import psycopg
import pytest
from pg_server import PgServer

from dealer.audit import open_log, staff
from dealer.audit.chain import record_hash, seal
from dealer.audit.postgres import PostgresStorage
from dealer.audit.postgres_schema import APPEND_FUNCTION
from dealer.audit.records import Entry
from dealer.inputs import DOCUMENT_LIMIT
from dealer.kernel.errors import AuditError

ROUND = Path(__file__).parents[1] / "data" / "rounds" / "envy_and_progressives.yaml"
PIN = "lantern-2468"


def count(log_at: Path | str) -> int:
    if isinstance(log_at, Path) and not log_at.exists():
        return 0
    with open_log(log_at, read_only=True) as log:
        return log.head().records or 0


def test_a_ruling_over_64_kib_is_refused_in_one_line(log_at: Path | str, tmp_path: Path) -> None:
    """Attack 4: a round file padded to 70 KB (a comment: the file is within the round file's
    own limit) would make a ruling record of over 64 KiB; the tool refuses it in one line and
    writes nothing, on both backends."""
    padded = tmp_path / "round.yaml"
    padded.write_text(ROUND.read_text() + "# " + "x" * 70_000 + "\n")
    result = cli.run("round", str(padded), "--db", str(log_at), "--user", "d-104")
    assert (result.exit_code, result.stdout) == (1, "")
    assert re.fullmatch(
        r"Error: this ruling record would be [78]\d,\d{3} bytes: a record is at most 65,536 "
        r"bytes \(besides the document an approval holds\)\n",
        result.stderr,
    )
    assert count(log_at) == 0


def around_the_tool(log_at: Path | str, **fields: object) -> None:
    """Put a record the tool would refuse straight into the database, as whoever writes around
    the tool can: the SQLite file's holder with sqlite3, the PostgreSQL database's owner with
    an INSERT (the owner's copy path); the record is sealed (numbered, linked, hashed) first."""
    entry = Entry(kind="ruling", user_id="d-104", role="dealer", table_id="PG-1")
    with open_log(log_at) as log:
        row = seal(entry, log.head())
    row.update(fields)
    row["hash"] = record_hash(row)
    if isinstance(log_at, Path):
        conn = sqlite3.connect(log_at, isolation_level=None)
        try:
            columns = ", ".join(row)
            conn.execute(
                f"INSERT INTO records ({columns}) VALUES ({', '.join('?' * len(row))})",
                list(row.values()),
            )
        finally:
            conn.close()
        return
    with PostgresStorage.open(log_at) as log, log.transaction() as tx:
        tx.copy(row)


@pytest.mark.parametrize(
    "fields",
    [
        {"input_text": "x" * 100_000},
        {"reason": "é" * 40_000},
        {"kind": "profile-change", "input_text": "x" * (DOCUMENT_LIMIT + 1)},
        {"kind": "paytable-change", "result": '{"x":"' + "y" * 70_000 + '"}'},
    ],
    ids=["ruling", "bytes-not-characters", "approved-document", "approval-envelope"],
)
def test_the_database_itself_refuses_a_record_too_large(
    log_at: Path | str, fields: dict[str, object]
) -> None:
    """Attack 4: three 100 MiB records went into the log (verify then took 26 s and 766 MB).
    Written around the tool, a record over 64 KiB (counted in UTF-8 bytes), or an approval
    whose document is over the file limit or whose envelope is over 64 KiB, is refused by the
    database: SQLite's trigger `records_bounded`, PostgreSQL's `dealer.check_order`."""
    with pytest.raises((sqlite3.IntegrityError, AuditError), match="65536 bytes"):
        around_the_tool(log_at, **fields)
    assert count(log_at) == 0
    around_the_tool(log_at, kind="profile-change", input_text="x" * DOCUMENT_LIMIT)
    assert count(log_at) == 1


def test_a_dealer_login_cannot_append_a_large_record_through_the_server(
    pg_server: PgServer,
) -> None:
    """Attack 4 on the floor server: a terminal's login calling the append function with a
    100 KiB input is refused by the server."""
    url = pg_server.fresh_url()
    with (
        psycopg.connect(pg_server.login(url, "d-104"), autocommit=True) as conn,
        pytest.raises(psycopg.errors.ProgramLimitExceeded, match="at most 65536 bytes"),
    ):
        conn.execute(
            "SELECT dealer.append_record('ruling', 'paigow', 'rank', 'PG-1', NULL, 'd-104', "
            "'dealer', %s, '[]', '{}', '[]', '{}', NULL, NULL, '0.2.0', '{}', '{}')",
            ["x" * 100_000],
        )
    assert count(url) == 0


def a_log_with_records(log_at: Path | str) -> None:
    with open_log(log_at) as log:
        staff.add_user(log, "S1", "supervisor", pin=PIN)
        with log.transaction() as tx:
            tx.append(Entry(kind="ruling", user_id="d-104", role="dealer", table_id="PG-1"))


def verified(log_at: Path | str) -> tuple[int, str]:
    result = cli.run("audit", "verify", "--db", str(log_at))
    return result.exit_code, result.stdout + result.stderr


def test_a_same_named_do_nothing_trigger_fails_verify_on_sqlite(tmp_path: Path) -> None:
    """Attack 13 on SQLite: the file's holder replaces `records_no_delete` by a trigger of the
    same name that never fires, deletes a record, and puts the genuine trigger back for
    nothing else; verify compares each trigger's SQL with the one the migrations make."""
    db = tmp_path / "audit.sqlite"
    a_log_with_records(db)
    conn = sqlite3.connect(db, isolation_level=None)
    conn.execute("DROP TRIGGER records_no_delete")
    conn.execute(
        "CREATE TRIGGER records_no_delete BEFORE DELETE ON records WHEN 0 "
        "BEGIN SELECT RAISE(ABORT, 'audit records cannot be deleted'); END"
    )
    conn.execute("DELETE FROM records WHERE id = 2")
    conn.close()
    code, output = verified(db)
    assert code == 1
    assert (
        "the protection trigger records_no_delete is not the one this software made: "
        "someone changed it"
    ) in output


def as_owner(url: str, *statements: str) -> None:
    """Run `statements` as the database's owner; `{add_user}` stands for the server's own
    definition of `dealer.add_user` with one more statement in its body."""
    with psycopg.connect(url, autocommit=True) as conn:
        found = conn.execute(
            "SELECT pg_get_functiondef('dealer.add_user(bigint,text,text,boolean,text)'"
            "::regprocedure)"
        ).fetchone()
        assert found is not None
        add_user = str(found[0]).replace("BEGIN", "BEGIN\n        PERFORM 1;", 1)
        for statement in statements:
            conn.execute(statement.replace("{add_user}", add_user))  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("statements", "says"),
    [
        (
            (
                "DROP TRIGGER records_no_delete ON dealer.records",
                "CREATE FUNCTION dealer.allow() RETURNS trigger LANGUAGE plpgsql "
                "AS $$ BEGIN RETURN OLD; END $$",
                "CREATE TRIGGER records_no_delete BEFORE DELETE ON dealer.records "
                "FOR EACH ROW EXECUTE FUNCTION dealer.allow()",
            ),
            [
                "the protection trigger records_no_delete is not the one this software made: "
                "someone changed it",
                "the function dealer.allow() is not this software's: someone added it",
            ],
        ),
        (
            (
                "CREATE OR REPLACE FUNCTION dealer.refuse() RETURNS trigger LANGUAGE plpgsql "
                "SET search_path = pg_catalog, dealer, pg_temp AS $$ BEGIN RETURN OLD; END $$",
            ),
            [
                "the function dealer.refuse() is not the one this software made (its body): "
                "someone changed it"
            ],
        ),
        (
            (
                "{add_user}",
                f"ALTER FUNCTION {APPEND_FUNCTION} SET search_path = dealer, pg_catalog",
                "ALTER FUNCTION dealer.check_order() SECURITY DEFINER",
                "ALTER FUNCTION dealer.check_seat() OWNER TO dealer_app",
            ),
            [
                "the function dealer.add_user(bigint,text,text,boolean,text) is not the one "
                "this software made (its body): someone changed it",
                "the function dealer.append_record(text,text,text,text,integer,text,text,text,"
                "text,text,text,text,bigint,text,text,integer[],text[]) is not the one this "
                "software made (its settings): someone changed it",
                "the function dealer.check_order() is not the one this software made (its "
                "security): someone changed it",
                "the function dealer.check_seat() is not the one this software made (its "
                "owner): someone changed it",
            ],
        ),
        (
            (
                "GRANT SELECT ON dealer.users TO PUBLIC",
                "GRANT EXECUTE ON FUNCTION dealer.lock_log() TO dealer_auditor",
                'GRANT UPDATE (reason) ON dealer.records TO "d-104"',
                "GRANT CREATE ON SCHEMA dealer TO dealer_app",
                "GRANT EXECUTE ON FUNCTION dealer.refuse() TO PUBLIC",
            ),
            [
                "d-104 may UPDATE on COLUMN dealer.records.reason: a grant this software does "
                "not make",
                "PUBLIC may EXECUTE on FUNCTION dealer.refuse(): a grant this software does not "
                "make",
                "dealer_auditor may EXECUTE on FUNCTION dealer.lock_log(): a grant this "
                "software does not make",
                "dealer_app may CREATE on SCHEMA dealer: a grant this software does not make",
                "PUBLIC may SELECT on TABLE dealer.users: a grant this software does not make",
            ],
        ),
        (
            (
                "CREATE RULE keep AS ON DELETE TO dealer.records DO INSTEAD NOTHING",
                "ALTER TABLE dealer.users ENABLE ROW LEVEL SECURITY",
            ),
            [
                "the rule keep on records is not this software's: someone added it",
                "the row security on users is not this software's: someone added it",
            ],
        ),
    ],
    ids=[
        "same-named-trigger",
        "do-nothing-trigger-function",
        "replaced-functions",
        "grants",
        "rule-and-row-security",
    ],
)
def test_changed_definitions_fail_verify_on_postgresql(
    pg_server: PgServer, statements: tuple[str, ...], says: list[str]
) -> None:
    """Attack 13 on PostgreSQL (and deliverable 1): the owner (or anyone holding its password)
    replaces a protection trigger by a same-named one that lets a delete through, makes the
    trigger function itself do nothing, replaces a function's body, settings, security or
    owner, grants more than this software does, or puts a rule (a delete done as nothing) or
    row security (rows hidden from some logins) on a table: verify reports each, through the
    CLI, for any reader (here the auditor's login)."""
    url = pg_server.fresh_url()
    pg_server.login(url, "d-104")
    a_log_with_records(url)
    assert verified(url) == (0, "OK: 2 records, the hash chain verifies.\n")
    as_owner(url, *statements)
    code, output = verified(pg_server.login(url, "a-3", "dealer_auditor"))
    assert code == 1
    for problem in says:
        assert problem in output
