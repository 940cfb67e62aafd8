"""Tampering with the stored record, each caught by verify (some only against a checkpoint)."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from sqlite_file import rechain

from dealer.audit import entries, open_log, staff
from dealer.audit.chain import Checkpoint, parse_checkpoints
from dealer.audit.keys import make_key
from dealer.audit.records import Entry
from dealer.audit.verify import verify as verify_log
from dealer.kernel.errors import AuditError

PIN = "lantern-2468"


def ruling(n: int) -> Entry:
    return Entry(
        kind="ruling",
        user_id="D1",
        role="dealer",
        table_id="PG-1",
        game="paigow",
        action="rank",
        input_text=f"hand {n}",
        cards=["As"],
        result={"category": f"pair-{n:03d}-marker"},
    )


@pytest.fixture
def path(tmp_path: Path) -> Iterator[Path]:
    where = tmp_path / "a.sqlite"
    with open_log(where) as log:
        staff.add_user(log, "S1", "supervisor", pin=PIN)  # record 1
        staff.add_user(log, "D1", "dealer", supervisor_id="S1", supervisor_pin=PIN)  # record 2
        for n in range(3, 11):
            entries.append(log, ruling(n))  # records 3-10
    yield where


def attacker(path: Path) -> sqlite3.Connection:
    """A plain connection, as someone with the file would use."""
    return sqlite3.connect(path, isolation_level=None)


def trigger_sql(conn: sqlite3.Connection, name: str) -> str:
    return str(conn.execute("SELECT sql FROM sqlite_master WHERE name = ?", [name]).fetchone()[0])


def verify(path: Path, *checkpoints: Checkpoint) -> tuple[bool, int, int | None, tuple[str, ...]]:
    with open_log(path) as log:
        result = verify_log(log, list(checkpoints))
    return result.ok, result.records, result.first_bad, result.problems


def test_untouched_log_verifies(path: Path) -> None:
    assert verify(path) == (True, 10, None, ())


def test_edit_a_byte_of_a_stored_result(path: Path) -> None:
    assert not Path(f"{path}-wal").exists() or Path(f"{path}-wal").stat().st_size == 0
    data = path.read_bytes()
    assert data.count(b"pair-006-marker") == 1
    path.write_bytes(data.replace(b"pair-006-marker", b"pair-006-markeR"))
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"  # SQLite sees nothing
    ok, records, first_bad, problems = verify(path)
    assert (ok, records, first_bad) == (False, 10, 6)
    assert problems == ("record 6 was changed after it was written",)


def test_drop_the_trigger_and_update(path: Path) -> None:
    conn = attacker(path)
    saved = trigger_sql(conn, "records_no_update")
    conn.execute("DROP TRIGGER records_no_update")
    conn.execute("""UPDATE records SET result = '{"category":"royal-flush"}' WHERE id = 4""")
    ok, _, first_bad, problems = verify(path)
    assert (ok, first_bad) == (False, 4)
    assert problems == (
        "record 4 was changed after it was written",
        "the protection trigger records_no_update is missing: someone removed it",
    )
    conn.execute(saved)  # put it back: the chain still shows the change
    conn.close()
    assert verify(path)[:3] == (False, 10, 4)


def test_delete_a_middle_record(path: Path) -> None:
    conn = attacker(path)
    saved = trigger_sql(conn, "records_no_delete")
    conn.execute("DROP TRIGGER records_no_delete")
    conn.execute("DELETE FROM records WHERE id = 7")
    conn.execute(saved)
    conn.close()
    ok, records, first_bad, problems = verify(path)
    assert (ok, records, first_bad) == (False, 9, 7)
    assert problems == ("record 7 is missing (the next record is 8)",)


def test_delete_the_last_records_caught_by_checkpoint(path: Path) -> None:
    with open_log(path) as log:
        kept = str(entries.checkpoint(log, "S1", PIN))  # record 11, kept outside at shift close
    conn = attacker(path)
    saved = trigger_sql(conn, "records_no_delete")
    conn.execute("DROP TRIGGER records_no_delete")
    conn.execute("DELETE FROM records WHERE id >= 9")
    conn.execute(saved)
    conn.close()
    assert verify(path) == (True, 8, None, ())  # the chain alone cannot tell
    ok, records, first_bad, problems = verify(path, *parse_checkpoints(kept))
    assert (ok, records, first_bad) == (False, 8, 9)
    assert problems == (
        f"the log ends at record 8 but checkpoint {kept} says it had 11: records 9-11 are missing",
    )


def test_rechain_after_an_edit_caught_by_checkpoint(path: Path) -> None:
    with open_log(path) as log:
        early = log.head()  # 10 records
        for n in range(11, 14):
            entries.append(log, ruling(n))
        late = entries.checkpoint(log, "S1", PIN)  # record 14
    conn = attacker(path)
    saved = trigger_sql(conn, "records_no_update")
    conn.execute("DROP TRIGGER records_no_update")
    conn.execute("""UPDATE records SET result = '{"category":"five-aces"}' WHERE id = 12""")
    rechain(conn, 12)
    conn.execute(saved)
    conn.close()
    moved = "record 14 (checkpoint): at that point its signature does not match its content of S1"
    assert verify(path) == (  # the checkpoint recorded in the log still names the old chain,
        False,  # and its signature the place it was signed for
        14,
        14,
        (
            "the chain no longer matches checkpoint #14 at record 13: the history before it "
            "was rewritten",
            moved,
        ),
    )
    ok, _, first_bad, problems = verify(path, early, late)
    assert (ok, first_bad) == (False, 11)
    assert problems == (
        f"record 14 does not match checkpoint {late}: the log was changed and re-chained "
        "somewhere in records 11-14",
        "the chain no longer matches checkpoint #14 at record 13: the history before it was "
        "rewritten",
        moved,
    )
    assert verify(path, late)[2] == 1  # with only the late checkpoint, nothing is vouched for
    assert verify(path, early)[2] == 14  # after the early one: the recorded checkpoint sees it
    assert not verify(path, Checkpoint(None, late.head_hash))[0]


def test_users_table_swapped(path: Path) -> None:
    conn = attacker(path)
    saved = trigger_sql(conn, "users_no_update")
    conn.execute("DROP TRIGGER users_no_update")
    conn.execute(
        "UPDATE users SET role = 'supervisor', pin_hash = ? WHERE user_id = 'D1'",
        [make_key("attacker-0000")[0]],
    )
    conn.execute(saved)
    conn.close()
    ok, _, first_bad, problems = verify(path)
    assert (ok, first_bad) == (False, None)
    assert problems == (
        "the users table row of D1 does not match record 2: it was changed outside the tool",
    )


def test_users_row_forged(path: Path) -> None:
    conn = attacker(path)
    conn.execute(
        "INSERT INTO users (record_id, user_id, role, active, pin_hash) "
        "VALUES (5, 'X1', 'supervisor', 1, ?)",
        [make_key("attacker-0000")[0]],
    )
    conn.close()
    assert verify(path)[3] == (
        "the users table row of X1 does not match record 5: it was changed outside the tool",
    )


def test_a_back_dated_record_is_caught_even_re_chained(path: Path) -> None:
    conn = attacker(path)
    saved = trigger_sql(conn, "records_no_update")
    conn.execute("DROP TRIGGER records_no_update")
    conn.execute("UPDATE records SET recorded_at = '2020-01-01T00:00:00.000000Z' WHERE id = 7")
    rechain(conn, 7)
    conn.execute(saved)
    before = conn.execute("SELECT recorded_at FROM records WHERE id = 6").fetchone()[0]
    conn.close()
    assert verify(path) == (
        False,
        10,
        7,
        (
            "record 7 is dated 2020-01-01T00:00:00.000000Z, before record 6 "
            f"({before}): the log's times run backwards",
        ),
    )


def test_a_clock_set_back_never_dates_a_record_before_the_last(
    path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A clock a minute behind the last record dates the new one as the last (the log's times
    never run backwards); one further behind than `FUTURE_TOLERANCE` writes nothing: the head
    is from its future (as a record dated far ahead is from everyone's)."""
    import dealer.audit.chain

    with open_log(path) as log:
        last = log.record(10)
    assert last is not None
    stamp = "%Y-%m-%dT%H:%M:%S.%fZ"
    behind = datetime.strptime(last.recorded_at, stamp) - timedelta(minutes=1)
    monkeypatch.setattr(dealer.audit.chain, "utc_now", lambda: behind.strftime(stamp))
    with open_log(path) as log:
        made = entries.append(log, ruling(11))
        assert log.record(made).recorded_at == last.recorded_at  # type: ignore[union-attr]
    monkeypatch.setattr(dealer.audit.chain, "utc_now", lambda: "2020-01-01T00:00:00.000000Z")
    with (
        open_log(path) as log,
        pytest.raises(AuditError, match="more than 5 minutes after this clock"),
    ):
        entries.append(log, ruling(12))
    monkeypatch.undo()  # verify by today's clock: by 2020's, every record is from the future
    assert verify(path)[:2] == (True, 11)


def forge(path: Path, entry: Entry) -> int:
    """Append `entry` as someone with the file would: a correct row by the published recipe,
    with no check of who made it."""
    from dealer.audit.chain import seal

    with open_log(path) as log:
        row = seal(entry, log.head())
    conn = attacker(path)
    columns = ", ".join(row)
    conn.execute(
        f"INSERT INTO records ({columns}) VALUES ({', '.join('?' * len(row))})", list(row.values())
    )
    conn.close()
    return int(row["id"])


@pytest.mark.parametrize(
    ("entry", "problem"),
    [
        (
            Entry(kind="void", user_id="sup-7", role="supervisor", links_to=4, reason="forged"),
            "record 11 (void): at that point sup-7 is not a registered supervisor: unregistered "
            "ids act as dealers",
        ),
        (
            Entry(kind="void", user_id="D1", role="supervisor", links_to=4, reason="forged"),
            "record 11 (void): at that point D1 is registered as a dealer, not a supervisor",
        ),
        (
            Entry(kind="override", user_id="D1", role="dealer", links_to=4, reason="forged"),
            "record 11 (override): at that point D1 was not a registered supervisor",
        ),
        (
            Entry(
                kind="user",
                user_id="X1",
                role="supervisor",
                action="add",
                result={"user": "X1", "role": "supervisor", "active": True},
            ),
            "record 11 (user): at that point X1 is not a registered supervisor: unregistered "
            "ids act as dealers",
        ),
        (
            Entry(kind="ruling", user_id="S1", role="dealer", input_text="As"),
            "record 11 (ruling): at that point S1 is registered as a supervisor, not a dealer",
        ),
    ],
)
def test_a_record_its_maker_could_not_make_then_fails_verify(
    path: Path, entry: Entry, problem: str
) -> None:
    made = forge(path, entry)
    ok, records, first_bad, problems = verify(path)
    assert (ok, records, first_bad, problems) == (False, 11, made, (problem,))


def test_a_supervisor_disabled_before_an_action_fails_verify(path: Path) -> None:
    with open_log(path) as log:
        staff.add_user(log, "S2", "supervisor", pin=PIN, supervisor_id="S1", supervisor_pin=PIN)
        staff.change_user(log, "S1", active=False, supervisor_id="S2", supervisor_pin=PIN)
    made = forge(path, Entry(kind="void", user_id="S1", role="supervisor", links_to=4))
    assert verify(path)[2:] == (made, (f"record {made} (void): at that point S1 is disabled",))
