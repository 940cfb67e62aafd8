"""Attacks on the PostgreSQL floor server, as a terminal's own database login would make them:
direct SQL through the login the terminal's `--db` URL names (or the auditor's), never the
owner's. Each must be refused by the server itself, whatever the tool does."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import cli
import psycopg
import pytest
from log_reads import secret
from pg_server import PgServer

from dealer.audit import keys, open_log, staff
from dealer.audit.chain import record_hash, seal
from dealer.audit.postgres import PostgresStorage
from dealer.audit.postgres_schema import LOCK_KEY, SERVER_LOCKOUT_AFTER
from dealer.audit.records import Entry, canonical_json
from dealer.audit.verify import verify
from dealer.kernel.errors import AuditError

PIN = "lantern-2468"

APPEND = (
    "SELECT id FROM dealer.append_record("
    "%(kind)s, 'paigow', %(action)s, 'PG-1', NULL, %(user_id)s, %(role)s, 'as ks', '[]', "
    "%(result)s, '[]', '{}', %(links_to)s, NULL, '0.2.0', '{}', '{}')"
)


def append_sql(
    conn: psycopg.Connection[Any],
    user_id: str,
    *,
    kind: str = "ruling",
    role: str = "dealer",
    action: str = "rank",
    result: dict[str, object] | str | None = None,
    links_to: int | None = None,
) -> int:
    """Call the server's append function as the login `conn` is, with the fields given (a
    result as JSON text is sent as it is, else in the canonical form the server takes)."""
    row = conn.execute(
        APPEND,
        {
            "kind": kind,
            "action": action,
            "user_id": user_id,
            "role": role,
            "result": result if isinstance(result, str) else canonical_json(result or {}),
            "links_to": links_to,
        },
    ).fetchone()
    assert row is not None
    return int(row[0])


@pytest.fixture
def floor(pg_server: PgServer) -> Iterator[str]:
    """A floor's log (as its owner): supervisors S1 and sup-8 and dealers d-104 and d-105
    registered, and one ruling by d-104."""
    url = pg_server.fresh_url()
    with open_log(url) as log:
        staff.add_user(log, "S1", "supervisor", pin=PIN)
        staff.add_user(log, "sup-8", "supervisor", supervisor_id="S1", supervisor_pin=PIN, pin=PIN)
        for dealer in ("d-104", "d-105"):
            staff.add_user(log, dealer, "dealer", supervisor_id="S1", supervisor_pin=PIN)
    with psycopg.connect(pg_server.login(url, "d-104"), autocommit=True) as conn:
        append_sql(conn, "d-104")
    yield url
    pg_server.drop(url)


def records(url: str) -> int:
    with open_log(url, read_only=True) as log:
        return log.head().records or 0


def test_a_temporary_pg_namespace_does_not_let_a_dealer_write_in_another_name(
    pg_server: PgServer, floor: str
) -> None:
    """Attack 1 (critical): a dealer's login makes a temporary table `pg_namespace` (which the
    append function's unqualified lookup found first, comparing with NULL) and appends records
    in another dealer's and a supervisor's names, and a users row: all refused, nothing
    written, verify still OK."""
    before = records(floor)
    with psycopg.connect(pg_server.login(floor, "d-104"), autocommit=True) as conn:
        conn.execute("CREATE TEMP TABLE pg_namespace (nspowner oid, nspname name)")
        conn.execute("GRANT SELECT ON pg_temp.pg_namespace TO PUBLIC")
        for user_id, role in (("d-105", "dealer"), ("sup-8", "supervisor")):
            with pytest.raises(psycopg.errors.InsufficientPrivilege, match="in the name of"):
                append_sql(conn, user_id, role=role)
        conn.execute("CREATE TEMP TABLE records (id bigint)")  # and a stand-in for the log
        with pytest.raises(psycopg.errors.InsufficientPrivilege, match="in the name of"):
            append_sql(conn, "sup-8", kind="void", role="supervisor", action="rank", links_to=5)
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute("SELECT dealer.add_user(5, 'd-104', 'supervisor', true, NULL)")
    assert records(floor) == before
    with open_log(floor, read_only=True) as log:
        assert verify(log).ok


def test_db_init_closes_the_database_to_every_other_login(pg_server: PgServer) -> None:
    """Attack 1: `dealer db init` takes TEMPORARY and CONNECT on the database from PUBLIC and
    gives CONNECT to the product's roles: a terminal's login cannot make a temporary table,
    and a login of no dealer role cannot connect at all."""
    pg_server.sql("postgres", "CREATE DATABASE floor_closed ENCODING 'UTF8'")
    url = pg_server.url("floor_closed")
    assert cli.run("db", "init", url).exit_code == 0
    pg_server.sql(
        "postgres",
        "DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'stranger') "
        'THEN CREATE ROLE "stranger" LOGIN; END IF; END $$',
    )
    with pytest.raises(psycopg.OperationalError, match="permission denied for database"):
        psycopg.connect(url.replace("floor_owner@", "stranger@")).close()
    for login, role in (("d-104", "dealer_app"), ("a-3", "dealer_auditor")):
        with (
            psycopg.connect(pg_server.login(url, login, role), autocommit=True) as conn,
            pytest.raises(psycopg.errors.InsufficientPrivilege),
        ):
            conn.execute("CREATE TEMP TABLE pg_namespace (nspowner oid, nspname name)")
    with open_log(pg_server.login(url, "d-104")) as log:
        assert verify(log).ok


def test_the_auditor_and_a_stranger_cannot_hold_up_the_floor(
    pg_server: PgServer, floor: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Attack 3: the auditor's login, or one of no dealer role, cannot take the log's lock: the
    lock function is refused, the lock row cannot be locked, and what they can take (the old
    advisory lock, a read lock on every table) does not stall a ruling (the busy timeout is
    made short, so a stalled ruling would fail here, not wait)."""
    from dealer.audit import postgres

    monkeypatch.setattr(postgres, "BUSY_TIMEOUT_SECONDS", 0.5)
    auditor = pg_server.login(floor, "a-3", "dealer_auditor")
    pg_server.sql(
        "postgres",
        "DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'stranger') "
        'THEN CREATE ROLE "stranger" LOGIN; END IF; END $$',
    )
    stranger = floor.replace("floor_owner@", "stranger@")
    for url in (auditor, stranger):
        with psycopg.connect(url) as holder:
            holder.execute("SELECT pg_advisory_lock(%s)", [LOCK_KEY])
            holder.execute("SELECT pg_advisory_xact_lock(%s)", [LOCK_KEY])
            if url == auditor:  # a read lock on every table
                holder.execute("LOCK TABLE dealer.records, dealer.log_lock IN ACCESS SHARE MODE")
            made = cli.run("paigow", "rank", "As Ks", "--user", "d-104", "--db", floor)
            assert made.exit_code == 0, made.output
            holder.rollback()
            for statement in (
                "SELECT dealer.lock_log()",
                "SELECT 1 FROM dealer.log_lock FOR UPDATE",
                "SELECT 1 FROM dealer.log_lock FOR KEY SHARE",
                "LOCK TABLE dealer.log_lock IN EXCLUSIVE MODE",
                "LOCK TABLE dealer.records IN SHARE ROW EXCLUSIVE MODE",
            ):
                with pytest.raises(psycopg.errors.InsufficientPrivilege):
                    holder.execute(statement)
                holder.rollback()
    assert records(floor) == 7


@pytest.mark.parametrize(
    ("kind", "role", "action", "result", "says"),
    [
        ("void", "dealer", "rank", {}, "d-104 is not a registered supervisor"),
        ("void", "supervisor", "rank", {}, "d-104 is registered as dealer, not supervisor"),
        ("ruling", "supervisor", "rank", {}, "d-104 is registered as dealer, not supervisor"),
        (
            "user",
            "dealer",
            "change",
            {"user": "d-104", "role": "supervisor", "active": True},
            "d-104 is not a registered supervisor",
        ),
        (
            "profile-change",
            "dealer",
            "approve",
            {"sha256": "0" * 64},
            "not a registered supervisor",
        ),
        ("paytable-change", "dealer", "approve", {"sha256": "0" * 64}, "not a registered super"),
        ("meter", "dealer", "adjust", {"meter": "treasure", "value": "250000"}, "not a registered"),
        ("signoff", "dealer", "rank", {}, "d-104 is not a registered supervisor"),
        ("assignment", "dealer", "assign", {"settings": {}}, "d-104 is not a registered super"),
        ("user", "dealer", "lock", {"user": "sup-8", "active": False}, "not a registered super"),
        ("user", "dealer", "lock", {"user": "d-104", "active": False}, "not a registered super"),
    ],
)
def test_the_server_refuses_what_verify_would_fail(
    pg_server: PgServer,
    floor: str,
    kind: str,
    role: str,
    action: str,
    result: dict[str, object],
    says: str,
) -> None:
    """Attack 5: a registered dealer appending, in their own name, a supervisor action (a void,
    a sign-off, a meter adjustment), a users change making themself a supervisor, a
    self-approved profile or pay table, a record in a role they do not hold, or a lock of
    someone else: the server refuses each (the maker's registered, active role as the log's
    users say), so the tool never reads one back."""
    with (
        psycopg.connect(pg_server.login(floor, "d-104"), autocommit=True) as conn,
        pytest.raises(psycopg.errors.InsufficientPrivilege, match=says),
    ):
        append_sql(conn, "d-104", kind=kind, role=role, action=action, result=result, links_to=5)
    assert records(floor) == 5


def test_the_server_takes_no_lock_record(pg_server: PgServer, floor: str) -> None:
    """Trust III: a lock record of release 0.2.0 disabled its maker until a supervisor enabled
    them; no release since writes one (a lockout is the refusals themselves), so the server
    refuses one from anyone, a supervisor locking themself included."""
    with (
        psycopg.connect(pg_server.login(floor, "sup-8"), autocommit=True) as conn,
        pytest.raises(psycopg.errors.InsufficientPrivilege, match="no release since 0.2.0"),
    ):
        lock = {"user": "sup-8", "role": "supervisor", "active": False}
        append_sql(conn, "sup-8", kind="user", role="supervisor", action="lock", result=lock)
    assert records(floor) == 5


def test_a_disabled_or_unregistered_maker_is_refused_by_the_server(
    pg_server: PgServer, floor: str
) -> None:
    """Attack 5: an id never registered acts only as a dealer; a disabled user not at all."""
    with open_log(floor) as log:
        staff.change_user(log, "d-105", supervisor_id="S1", supervisor_pin=PIN, active=False)
    with psycopg.connect(pg_server.login(floor, "d-777"), autocommit=True) as conn:
        with pytest.raises(psycopg.errors.InsufficientPrivilege, match="not a registered super"):
            append_sql(conn, "d-777", role="supervisor")
        assert append_sql(conn, "d-777") == 7
    with (
        psycopg.connect(pg_server.login(floor, "d-105"), autocommit=True) as conn,
        pytest.raises(psycopg.errors.InsufficientPrivilege, match="d-105 is disabled"),
    ):
        append_sql(conn, "d-105")


def test_the_server_appends_nothing_after_a_head_from_the_future(
    pg_server: PgServer, floor: str
) -> None:
    """Deliverable 11 (attack 12 on the floor server): a head dated 2099 (copied in by the
    owner) would drag every later record's time; the server refuses to append after a head
    more than 5 minutes after its clock, in one line, and writes nothing."""
    with PostgresStorage.open(floor) as log, log.transaction() as tx:
        row = seal(Entry(kind="ruling", user_id="d-104", role="dealer", table_id="PG-1"), tx.head())
        row["recorded_at"] = "2099-01-01T00:00:00.000000Z"
        tx.copy(row | {"hash": record_hash(row)})
    login = pg_server.login(floor, "d-104")
    refused = cli.run("paigow", "rank", "As Ks", "--user", "d-104", "--db", login)
    assert (refused.exit_code, refused.stdout) == (1, "")
    assert refused.stderr.startswith("Error: could not write in the audit log ")
    assert (
        "the newest audit record, 6, is dated 2099-01-01T00:00:00.000000Z, more than 5 minutes "
        "after this server's clock" in refused.stderr
    )
    assert refused.stderr.count("\n") == 1
    with (
        pytest.raises(AuditError, match="more than 5 minutes after this server's clock"),
        open_log(login) as log,
        log.transaction() as tx,
    ):
        tx.append(Entry(kind="ruling", user_id="d-104", role="dealer", table_id="PG-1"))
    assert records(floor) == 6


@pytest.mark.parametrize(("login", "role"), [("d-104", "dealer_app"), ("a-3", "dealer_auditor")])
def test_no_terminal_or_auditor_login_reads_a_pin_hash_or_a_sealed_key(
    pg_server: PgServer, floor: str, login: str, role: str
) -> None:
    """Attack 2: a terminal's login and the auditor read the users table to guess PINs offline.
    The table and the server's count of PIN checks are closed to them; what they read of the
    users (`dealer.user_rows()`) holds each secret's fingerprint, its derivation's salt and the
    public key, never the sealed key or its verifier."""
    with psycopg.connect(pg_server.login(floor, login, role), autocommit=True) as conn:
        for table in ("users", "secret_attempts"):
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                conn.execute(f"SELECT * FROM dealer.{table}")
        shown = [row[0] for row in conn.execute("SELECT pin_hash FROM dealer.user_rows()")]
    stored = secret(floor, "sup-8") or ""
    assert stored.startswith("ed25519-scrypt$") and len(stored.split("$")) == 9
    sealed, verifier = stored.split("$")[6], stored.split("$")[8]
    assert shown.count(None) == 2  # the dealers have no PIN
    held = [text for text in shown if text is not None]
    assert len(held) == 2 and all(text.startswith("withheld$") for text in held)
    assert not any(sealed in text or verifier in text for text in held)
    assert all(len(text.split("$")) == 8 for text in held)


def guess(conn: psycopg.Connection[Any], user_id: str, proof: str) -> str | None:
    """One PIN guess through the server's functions: the attempt, then its answer."""
    attempt = conn.execute("SELECT dealer.submit_attempt(%s, %s)", [user_id, proof]).fetchone()
    assert attempt is not None
    opened = conn.execute("SELECT dealer.open_secret(%s)", [attempt[0]]).fetchone()
    return None if opened is None else opened[0]


def proof_of(floor: str, user_id: str, pin: str) -> str:
    with open_log(floor) as log:
        row = log.user(user_id)
    assert row is not None
    withheld = keys.parse_withheld(row.pin_hash)
    assert withheld is not None
    return keys.proof(pin, withheld)


def test_guessing_a_pin_through_the_server_is_counted_and_stopped(
    pg_server: PgServer, floor: str
) -> None:
    """Attack 2: a dealer's login guesses sup-8's PIN by calling the server's check directly,
    around the tool (which would record each denial). Each wrong guess is counted by the
    server; after `SERVER_LOCKOUT_AFTER` in a row it checks no more, the right PIN included;
    a right guess before that releases the sealed key (the PIN is the secret), only to the
    login that made the check. (Trust III: that login alone is stopped, for sup-8 alone.)"""
    right = proof_of(floor, "sup-8", PIN)
    with psycopg.connect(pg_server.login(floor, "d-104"), autocommit=True) as conn:
        assert guess(conn, "sup-8", right) == secret(floor, "sup-8")
        for number in range(SERVER_LOCKOUT_AFTER):
            assert guess(conn, "sup-8", f"{number:064x}") is None
        with pytest.raises(psycopg.errors.InsufficientPrivilege, match="from the login d-104"):
            guess(conn, "sup-8", right)
    with psycopg.connect(pg_server.login(floor, "d-105"), autocommit=True) as conn:
        attempt = conn.execute("SELECT dealer.submit_attempt('S1', %s)", [right]).fetchone()
        assert attempt is not None
    with psycopg.connect(pg_server.login(floor, "d-104"), autocommit=True) as conn:
        stolen = conn.execute("SELECT dealer.open_secret(%s)", [attempt[0]]).fetchone()
        assert stolen == (None,)  # d-105's check opens nothing for d-104


def test_a_rolled_back_check_neither_answers_nor_escapes_the_count(
    pg_server: PgServer, floor: str
) -> None:
    """Attack 2: the caller rolls back a wrong guess so that the server forgets it. A check
    answers only once it is committed (never inside the transaction that made it), so a
    rolled-back check answers nothing — and every committed one counts."""
    right = proof_of(floor, "sup-8", PIN)
    with psycopg.connect(pg_server.login(floor, "d-104")) as conn:
        attempt = conn.execute("SELECT dealer.submit_attempt('sup-8', %s)", [right]).fetchone()
        assert attempt is not None
        opened = conn.execute("SELECT dealer.open_secret(%s)", [attempt[0]]).fetchone()
        assert opened == (None,)  # not before the check is committed
        conn.rollback()
    with psycopg.connect(pg_server.login(floor, "d-104"), autocommit=True) as conn:
        assert conn.execute("SELECT dealer.open_secret(%s)", [attempt[0]]).fetchone() == (None,)
        for number in range(SERVER_LOCKOUT_AFTER):
            conn.execute("BEGIN")
            conn.execute("SELECT dealer.submit_attempt('sup-8', %s)", [f"{number:064x}"])
            conn.execute("COMMIT")
        with pytest.raises(psycopg.errors.InsufficientPrivilege, match="from the login d-104"):
            guess(conn, "sup-8", right)


def test_a_terminal_keeps_a_users_pin_only_as_it_is(pg_server: PgServer, floor: str) -> None:
    """Attack 2: a change that keeps a user's PIN names it withheld; the server stores the
    secret it holds — and refuses a withheld form that is not the user's own (a dealer naming
    a supervisor's secret to take it over)."""
    with open_log(floor) as log:
        sup = log.user("sup-8")
    assert sup is not None and sup.pin_hash is not None
    with psycopg.connect(pg_server.login(floor, "S1", "dealer_app"), autocommit=True) as conn:
        made = append_sql(
            conn,
            "S1",
            kind="user",
            role="supervisor",
            action="change",
            result={"user": "d-104", "role": "dealer", "active": True},
        )
        with pytest.raises(psycopg.errors.InsufficientPrivilege, match="the one d-104 has now"):
            conn.execute(
                "SELECT dealer.add_user(%s, 'd-104', 'dealer', true, %s)", [made, sup.pin_hash]
            )


def test_a_pin_set_by_an_earlier_release_opens_only_for_the_owner(
    pg_server: PgServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Attack 2, the upgrade: a key sealed before the server kept verifiers (release 0.2.0)
    cannot be checked by the server, so it is released to no terminal — its supervisor is told
    that the database's owner sets a new PIN — while the owner, who holds the table anyway,
    still opens it and can set the new PIN, which every terminal then checks."""
    made = keys.make_key

    def earlier(secret: str, user_id: str = "") -> tuple[str, Any]:
        stored, private = made(secret, user_id)
        return stored.rsplit("$", 1)[0], private  # no verifier, as 0.2.0 sealed keys

    url = pg_server.fresh_url()
    with monkeypatch.context() as patch:
        patch.setattr(keys, "make_key", earlier)
        with open_log(url) as log:
            staff.add_user(log, "S1", "supervisor", pin=PIN)
    assert len((secret(url, "S1") or "").split("$")) == 8
    terminal = pg_server.login(url, "S1")
    refused = cli.run("audit", "checkpoint", "--user", "S1", "--pin", PIN, "--db", terminal)
    assert (refused.exit_code, refused.output) == (
        1,
        "Error: the PIN of S1 was set by an earlier release, which the server cannot check: "
        "the database's owner sets a new one\n",
    )
    new = "harbour-light-7"
    changed = cli.run(
        "audit", "user", "set", "S1", "--set-pin", "--supervisor", "S1", "--pin", PIN,
        "--db", url, env={"DEALER_NEW_PIN": new},
    )  # fmt: skip
    assert changed.exit_code == 0, changed.output
    done = cli.run("audit", "checkpoint", "--user", "S1", "--pin", new, "--db", terminal)
    assert done.exit_code == 0, done.output
    pg_server.drop(url)


SUMS = (
    '[{"hour": "2026-01-01T10", "grp": "table", "member": "PG-1", "source": "", '
    '"n0": 1, "n1": 1, "n2": 1, "n3": 5000, "n4": 900000, "n5": 0, "n6": 0, "n7": 0, "n8": 0, '
    '"n9": 0, "x0": 0, "x1": 0, "x2": 0, "x3": 0, "last_at": null, "last_mark": null}]'
)
"""A row of the floor's sums a dealer would like: a table's house result of $9,000."""


def test_a_terminal_writes_the_floors_sums_only_through_the_record_it_appends(
    floor: str, pg_server: PgServer
) -> None:
    """The floor's sums are the table `dealer stats` reads. A dealer's login can neither write
    the table as a copy does (the owner's), nor call the functions by which the server adds a
    record's rows (`dealer.add_sums` over `dealer.record_sums`, which `append_record` calls
    with the record it appended), nor send rows of its own: the `dealer.add_sums(record,
    rows)` terminals called before Trust III is gone (tests/attacks/test_sums_attacks.py)."""
    with psycopg.connect(pg_server.login(floor, "d-104"), autocommit=True) as conn:
        for sql in (
            "UPDATE dealer.floor_sums SET n4 = n4 + 1",
            "DELETE FROM dealer.floor_sums",
            "INSERT INTO dealer.floor_sums (hour, grp, member, source) VALUES ('x', 'y', 'z', '')",
            "INSERT INTO dealer.floor_sums_of VALUES (1)",  # as a copy marks the rulings summed
            "SELECT dealer.add_sums(r) FROM dealer.records r ORDER BY r.id DESC LIMIT 1",
            "SELECT * FROM dealer.record_sums((SELECT r FROM dealer.records r LIMIT 1))",
        ):
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                conn.execute(sql)
        with pytest.raises(psycopg.errors.UndefinedFunction):
            conn.execute("SELECT dealer.add_sums(%s, %s)", [records(floor), SUMS])
    assert cli.run("audit", "verify", "--db", floor).exit_code == 0


@pytest.mark.parametrize(
    "result",
    [
        '{"meter":"progressive","value":1e131071}',
        '["total_net",5]',
        '"total_net"',
    ],
)
def test_a_record_the_server_cannot_take_apart_does_not_stop_a_list(
    pg_server: PgServer, floor: str, result: str
) -> None:
    """JSON the server takes (canonical, a number as written) but cannot take apart as a
    record's result (a number beyond `numeric`, no object), appended by a dealer's own login:
    every list of the floor still answers, the other records as ever and that one by its input.
    (A NUL escape or a lone surrogate, which it took before Trust III, it refuses now:
    tests/attacks/test_canonical_attacks.py.)"""
    with psycopg.connect(pg_server.login(floor, "d-104"), autocommit=True) as conn:
        made = append_sql(conn, "d-104", result=result)
        append_sql(conn, "d-104")
    listed = cli.run("audit", "list", "--db", floor)
    assert listed.exit_code == 0, listed.output
    lines = {line.split()[0]: line for line in listed.stdout.splitlines()[2:]}
    assert lines[str(made)].endswith(" as ks") and lines[str(made + 1)].endswith(" as ks")
    found = cli.run("audit", "search", "--table", "PG-1", "--user", "d-104", "--db", floor)
    assert found.exit_code == 0, found.output
    assert [line.split()[0] for line in found.stdout.splitlines()[2:]] == [
        "5",
        str(made),
        str(made + 1),
    ]
