"""Trust III, principle 2 — throttle the guesser, never the guessed: the attacks of that round on
supervisors' PINs, each made end to end as the insider would make it. A wrong PIN slows the
login or terminal that typed it, for that supervisor; the supervisor keeps working from their
own; every refusal is on the record in the name of who typed it, naming whose PIN it was; the
server's count takes only committed checks of earlier transactions, so nothing a caller's own
transaction does changes an answer; and lock records of release 0.2.0 written after a log's
first signature bound to its place count for nothing. Each was seen to succeed on the release
before these fixes."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import psycopg
import pytest
from cli import run
from log_reads import use
from pg_server import PgServer

from dealer.audit import corrections, keys, open_log, staff, users
from dealer.audit.chain import seal
from dealer.audit.postgres_schema import SERVER_LOCKOUT_AFTER
from dealer.audit.records import Entry, RecordFilter, RecordKind, UserRow
from dealer.audit.verify import verify
from dealer.kernel.errors import AccessError

PIN = "lantern-2468"
PIN8 = "harbor-1357"


@pytest.fixture
def floor(pg_server: PgServer) -> Iterator[str]:
    """A floor's log (as its owner): supervisors S1 (the bootstrap) and sup-8, dealers d-104
    and d-105, and a ruling of d-104's (record 5) to void."""
    url = pg_server.fresh_url()
    with open_log(url) as log:
        staff.add_user(log, "S1", "supervisor", pin=PIN)
        staff.add_user(log, "sup-8", "supervisor", supervisor_id="S1", supervisor_pin=PIN, pin=PIN8)
        for dealer in ("d-104", "d-105"):
            staff.add_user(log, dealer, "dealer", supervisor_id="S1", supervisor_pin=PIN)
    with open_log(pg_server.login(url, "d-104")) as log, log.transaction() as tx:
        tx.append(Entry(kind=RecordKind.RULING, user_id="d-104", role="dealer", game="paigow"))
    for login in ("S1", "sup-8", "d-105"):
        pg_server.login(url, login)
    yield url
    pg_server.drop(url)


def proof_of(url: str, user_id: str, pin: str) -> str:
    """What a terminal sends the server for `pin` as `user_id`'s (`keys.proof`)."""
    with open_log(url) as log:
        row = log.user(user_id)
    assert row is not None
    withheld = keys.parse_withheld(row.pin_hash)
    assert withheld is not None
    return keys.proof(pin, withheld)


def oracle(conn: psycopg.Connection[Any], target: str, guess: str) -> str:
    """The filed PIN oracle, in one transaction rolled back at the end: a check of `guess`,
    then wrong fillers up to the server's limit, then one more check in a savepoint — on the
    release before the fix the lockout came back only if the guess was wrong (a right one
    reset the count). What the caller saw, as text."""
    seen = []
    with conn.transaction(force_rollback=True):
        for number, proof in enumerate(
            [guess, *[f"{n:064x}" for n in range(SERVER_LOCKOUT_AFTER)]]
        ):
            try:
                with conn.transaction():
                    conn.execute("SELECT dealer.submit_attempt(%s, %s)", [target, proof])
                seen.append("checked")
            except psycopg.Error as exc:
                seen.append(f"{number}: {type(exc).__name__}")
    return ", ".join(seen)


def test_the_pin_oracle_answers_nothing(pg_server: PgServer, floor: str) -> None:
    """High: a dealer's own login told a right PIN from a wrong one at offline speed, with
    nothing counted or recorded (the README's example PIN fell on guess 21 in 27 s, and the
    dealer then countersigned their own rule change as S1). The server takes one check a
    transaction and counts only committed checks of earlier transactions: whatever the guess,
    the transaction sees the same, and nothing of it is left."""
    right, wrong = proof_of(floor, "S1", PIN), proof_of(floor, "S1", "lantern-2469")
    with psycopg.connect(pg_server.login(floor, "d-104")) as conn:
        said = {guess: oracle(conn, "S1", guess) for guess in (right, wrong, "0" * 64)}
    assert len(set(said.values())) == 1, said
    assert said[right].startswith("checked, 1: ")  # one check a transaction
    with open_log(floor) as log:
        assert log.head().records == 5  # nothing recorded, nothing counted


def test_a_dealer_locks_only_their_own_login_out_of_a_supervisors_pin(
    pg_server: PgServer, floor: str
) -> None:
    """High: ten wrong PINs of S1 and of sup-8 at d-104's terminal locked both server-side for
    everyone, the refusals were never recorded (the tool wrote them in the supervisor's name,
    which d-104's login may not), and one wrong PIN as each lock ended renewed it. Now the
    refusals are on the record in d-104's name, naming the supervisor; d-104 is stopped (the
    tool's lockout, then the server's); S1 and sup-8 act at once from their own logins."""
    dealer_url = pg_server.login(floor, "d-104")
    with open_log(dealer_url) as log:
        for number in range(users.LOCKOUT_AFTER + 1):
            for target in ("S1", "sup-8"):
                with pytest.raises(AccessError):
                    corrections.void(log, 5, reason="r", supervisor_id=target, pin=f"no-{number}")
    for target in ("S1", "sup-8"):
        with open_log(dealer_url) as log, pytest.raises(AccessError, match="^d-104 has typed 5"):
            corrections.void(log, 5, reason="r", supervisor_id=target, pin=PIN)
    with open_log(floor) as log:
        denied = log.records(RecordFilter(kind=RecordKind.ACCESS_DENIED))
    assert {(r.user_id, r.result["target"]) for r in denied} == {
        ("d-104", "S1"),
        ("d-104", "sup-8"),
    }
    assert [r.result["why"] for r in denied if r.result["target"] == "S1"] == ["wrong-pin"] * 5 + [
        "locked",
        "locked",
    ]
    with open_log(pg_server.login(floor, "S1")) as log:
        corrections.void(log, 5, reason="voided by S1", supervisor_id="S1", pin=PIN)
    with open_log(pg_server.login(floor, "sup-8")) as log:
        staff.add_user(log, "d-106", "dealer", supervisor_id="sup-8", supervisor_pin=PIN8)
    with open_log(floor, read_only=True) as log:
        assert verify(log).ok


def test_the_server_throttles_the_login_and_a_signed_change_resets_it(
    pg_server: PgServer, floor: str
) -> None:
    """High: a login calling the server's check around the tool is stopped after
    `SERVER_LOCKOUT_AFTER` wrong PINs of S1 — that login alone, for S1 alone — and the
    operator's recovery (a new users row of S1) ends it for every login."""
    right = proof_of(floor, "S1", PIN)
    with psycopg.connect(pg_server.login(floor, "d-104"), autocommit=True) as conn:
        for number in range(SERVER_LOCKOUT_AFTER):
            conn.execute("SELECT dealer.submit_attempt('S1', %s)", [f"{number:064x}"])
        with pytest.raises(psycopg.errors.InsufficientPrivilege, match="from the login d-104"):
            conn.execute("SELECT dealer.submit_attempt('S1', %s)", [right])
        conn.execute("SELECT dealer.submit_attempt('sup-8', %s)", [right])  # another target
    with psycopg.connect(pg_server.login(floor, "d-105"), autocommit=True) as conn:
        conn.execute("SELECT dealer.submit_attempt('S1', %s)", [right])  # another login
    with open_log(pg_server.login(floor, "S1")) as log:
        staff.change_user(log, "S1", pin="lantern-8642", supervisor_id="S1", supervisor_pin=PIN)
    again = proof_of(floor, "S1", "lantern-8642")
    with psycopg.connect(pg_server.login(floor, "d-104"), autocommit=True) as conn:
        attempt = conn.execute("SELECT dealer.submit_attempt('S1', %s)", [again]).fetchone()
        assert attempt is not None


def test_a_transaction_left_open_blocks_no_supervisors_check(
    pg_server: PgServer, floor: str
) -> None:
    """Medium: one transaction left open after `dealer.submit_attempt` held S1's users row and
    so blocked every check of S1's PIN, at every terminal. No check locks anything another
    login's check waits for: S1 voids from their own login while d-104's transaction stays
    open (run on a thread, so that a wait would show as a lock timeout, never a hang)."""
    with psycopg.connect(pg_server.login(floor, "d-104")) as held:
        held.execute("SELECT dealer.submit_attempt('S1', %s)", ["0" * 64])
        done: list[BaseException | int] = []

        def void() -> None:
            try:
                with open_log(pg_server.login(floor, "S1")) as log:
                    done.append(corrections.void(log, 5, reason="r", supervisor_id="S1", pin=PIN))
            except BaseException as exc:  # handed to the test
                done.append(exc)

        worker = threading.Thread(target=void)
        worker.start()
        worker.join(60)
        held.rollback()
    assert len(done) == 1 and isinstance(done[0], int), done


def test_the_refusal_at_a_dealers_terminal_is_one_line_on_the_record(
    pg_server: PgServer, floor: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """High: at a dealer's terminal (its login in DEALER_DB), a wrong PIN is one `Error:` line,
    and its refusal is recorded in the dealer's name naming the supervisor."""
    use(pg_server.login(floor, "d-104"), monkeypatch)
    void = ("audit", "void", "5", "--reason", "r", "--supervisor", "S1", "--pin", "no-1")
    refused = run(*void)
    assert (refused.exit_code, refused.stdout) == (1, "")
    assert refused.stderr == "Error: wrong PIN for S1: void refused\n"
    with open_log(floor) as log:
        newest = log.records(newest_first=True, limit=1)[0]
    assert (newest.kind, newest.user_id, newest.result) == (
        "access-denied",
        "d-104",
        {"refused": "void", "why": "wrong-pin", "target": "S1"},
    )


# SQLite: a terminal's refusals name it; its lock is its own.


@pytest.fixture
def terminal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Callable[[str], None]:
    """Names who types at this terminal (its login, as the desk reads it), for the next
    commands."""

    def at(login: str) -> None:
        monkeypatch.setenv("LOGNAME", login)

    return at


@pytest.fixture
def sqlite_log(tmp_path: Path) -> Path:
    """S1 and S2 (supervisors), d-104 (a dealer) and a ruling (record 4) to void."""
    path = tmp_path / "log.sqlite"
    with open_log(path) as log:
        staff.add_user(log, "S1", "supervisor", pin=PIN)
        staff.add_user(log, "S2", "supervisor", pin=PIN8, supervisor_id="S1", supervisor_pin=PIN)
        staff.add_user(log, "d-104", "dealer", supervisor_id="S1", supervisor_pin=PIN)
        with log.transaction() as tx:
            tx.append(Entry(kind=RecordKind.RULING, user_id="d-104", role="dealer", game="paigow"))
    return path


def test_a_terminals_wrong_pins_lock_that_terminal_alone(
    sqlite_log: Path, terminal: Callable[[str], None], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Medium (SQLite): one wrong PIN the moment each lock ended renewed it, keeping S1 out for
    good, and no refusal said who typed it. Now the refusals name the terminal's login and S1;
    d-104's renewals lock d-104 alone, each longer; S1 acts from their own terminal while
    d-104 is locked. The clock is set, never waited for."""
    clock = [datetime.now(UTC)]
    monkeypatch.setattr(users, "now", lambda: clock[0])

    def wrong(log: Any, times: int) -> str:
        """`times` wrong PINs of S1's at d-104's terminal; the clock then just after the last."""
        terminal("d-104")
        said = ""
        for number in range(times):
            with pytest.raises(AccessError, match="^wrong PIN for S1: void refused") as refused:
                corrections.void(log, 4, reason="r", supervisor_id="S1", pin=f"no-{number}")
            said = str(refused.value)
        latest = log.records(newest_first=True, limit=1)[0]
        last[0] = datetime.fromisoformat(latest.recorded_at)
        clock[0] = last[0] + timedelta(seconds=1)
        return said

    def locked(log: Any, failures: int) -> None:
        """d-104's right PIN refused unchecked; the clock then just past the lock's end."""
        terminal("d-104")
        with pytest.raises(AccessError, match=f"^d-104 has typed {failures} wrong PINs in a row"):
            corrections.void(log, 4, reason="r", supervisor_id="S1", pin=PIN)
        clock[0] = last[0] + timedelta(seconds=users.lockout_seconds(failures) + 1)

    last = [clock[0]]
    with open_log(sqlite_log) as log:
        assert "; d-104 has typed 5 wrong PINs in a row for S1" in wrong(log, users.LOCKOUT_AFTER)
        locked(log, users.LOCKOUT_AFTER)
        for renewal in range(1, 4):
            failures = users.LOCKOUT_AFTER + renewal
            assert f"; d-104 has typed {failures} wrong PINs in a row" in wrong(log, 1)
            terminal("S1")  # d-104 is locked; S1 is not, and S1's PIN clears no one else's
            staff.add_user(log, f"d-20{renewal}", "dealer", supervisor_id="S1", supervisor_pin=PIN)
            locked(log, failures)
        denied = log.records(RecordFilter(kind=RecordKind.ACCESS_DENIED))
    assert {(r.user_id, r.result["target"]) for r in denied} == {("d-104", "S1")}
    assert verify_ok(sqlite_log)


def verify_ok(path: Path | str) -> bool:
    with open_log(path, read_only=True) as log:
        return verify(log).ok


def forge(path: Path, entry: Entry, row: UserRow | None = None) -> int:
    """Append `entry` as the file's holder would: a correct chain hash, no key; with `row`
    (its record id filled in), a users row too."""
    with open_log(path) as log, log.transaction() as tx:
        sealed = seal(entry, tx.head())
        tx.copy(sealed)
        if row is not None:
            tx.add_user(row._replace(record_id=int(sealed["id"])))
    return int(sealed["id"])


def test_forged_lock_records_disable_no_supervisor(
    sqlite_log: Path, terminal: Callable[[str], None]
) -> None:
    """Medium (SQLite): the file's holder wrote release 0.2.0's lockout for every supervisor —
    five wrong-PIN refusals in each one's name, then a lock record and a users row disabling
    them — and every supervisor was disabled until the operator's recovery, with verify OK.
    Lock records after the log's first signature bound to its place count for nothing: both
    supervisors act (at the floor's desk: the forged refusals, in each supervisor's own name,
    hold up only that name's own attempts, for at most an hour), and verify names each forged
    lock."""
    locks = []
    with open_log(sqlite_log) as log:
        rows = {row.user_id: row for row in log.users()}
    for who in ("S1", "S2"):
        for _ in range(users.LOCKOUT_AFTER):
            forge(
                sqlite_log,
                Entry(
                    kind=RecordKind.ACCESS_DENIED,
                    user_id=who,
                    role="supervisor",
                    action="void",
                    result={"refused": "void", "why": "wrong-pin"},
                ),
            )
        row = rows[who]
        result = users.user_record_result(who, "supervisor", False, row.pin_hash)
        lock = Entry(
            kind=RecordKind.USER, user_id=who, role="supervisor", action="lock", result=result
        )
        locks.append(forge(sqlite_log, lock, row._replace(active=False)))
    terminal("floor-desk")
    with open_log(sqlite_log) as log:
        corrections.void(log, 4, reason="r", supervisor_id="S1", pin=PIN)
        staff.add_user(log, "d-105", "dealer", supervisor_id="S2", supervisor_pin=PIN8)
        checked = verify(log)
    assert [p for p in checked.problems] == [
        f"record {number} (user): at that point a lock record after record 1, the log's first "
        "signature bound to its place, counts for nothing: this release never writes one"
        for number in locks
    ]
