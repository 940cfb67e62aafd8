"""The audit log: opening, appending, transactions, meters, reading, failures."""

from __future__ import annotations

import re
import warnings
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import dealer
from dealer.audit import entries, meters, open_log, staff, users
from dealer.audit.chain import GENESIS_HASH, record_hash
from dealer.audit.records import Entry, RecordFilter
from dealer.audit.sqlite import SQLiteStorage
from dealer.audit.storage import Storage
from dealer.audit.verify import verify
from dealer.desk.context import DeskNotice, default_db, open_desk_log
from dealer.kernel.errors import AuditError


def ruling(n: int = 0, **changes: object) -> Entry:
    fields: dict[str, object] = dict(
        kind="ruling",
        user_id="D1",
        role="dealer",
        table_id="PG-1",
        game="paigow",
        action="set",
        input_text=f"hand {n}",
        cards=["As", "Ks"],
        result={"high": ["As"], "n": n},
        explanation=[f"line {n}"],
        settings={"house_way": {"name": "foxwoods", "version": "1"}},
        seat=n % 7,
    )
    fields.update(changes)
    return Entry(**fields)  # type: ignore[arg-type]


@pytest.fixture
def log(storage: Storage) -> Storage:
    """An empty log on each backend."""
    return storage


@pytest.fixture
def sqlite_log(tmp_path: Path) -> Iterator[SQLiteStorage]:
    """An empty SQLite log, for what is SQLite's own (its pragmas, its file filling up, any
    text: PostgreSQL holds no NUL, and its hashing of any other text is
    tests/test_audit_postgres.py's)."""
    (tmp_path / "logs").mkdir()
    with SQLiteStorage.open(tmp_path / "logs" / "dealer.sqlite") as opened:
        yield opened


def test_default_path(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("DEALER_DB", raising=False)
    assert default_db() == Path("logs/dealer.sqlite")
    monkeypatch.setenv("DEALER_DB", str(tmp_path / "x.sqlite"))
    assert default_db() == tmp_path / "x.sqlite"


def test_open_default_creates_folder_under_cwd(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("DEALER_DB", raising=False)
    monkeypatch.chdir(tmp_path)
    with pytest.warns(DeskNotice) as said, open_desk_log(None) as opened:
        assert isinstance(opened, SQLiteStorage)
        assert opened.path == Path("logs/dealer.sqlite")
    assert (tmp_path / "logs" / "dealer.sqlite").is_file()
    assert [str(w.message) for w in said] == ["created the folder logs for the audit log"]
    assert capsys.readouterr().err == ""  # the desk never prints: the CLI shows the notice
    with warnings.catch_warnings(record=True) as again:
        warnings.simplefilter("always")
        open_desk_log(None).close()
    assert again == []  # said once, when it was created


def test_pragmas(sqlite_log: SQLiteStorage) -> None:
    log = sqlite_log
    assert log.conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert log.conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    assert log.conn.execute("PRAGMA busy_timeout").fetchone()[0] == 15000
    assert log.conn.execute("PRAGMA foreign_keys").fetchone()[0] == 1


def test_not_a_database(tmp_path: Path) -> None:
    path = tmp_path / "notes.sqlite"
    path.write_text("this is not SQLite, just some notes " * 40)
    with pytest.raises(AuditError, match=r"notes.sqlite is not an SQLite database: refusing"):
        open_log(path)


def test_folder_cannot_be_created(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x")
    with pytest.raises(AuditError, match="file is not a folder: it cannot hold the audit log"):
        open_log(tmp_path / "file" / "dealer.sqlite")


def test_missing_folder_is_not_created(tmp_path: Path) -> None:
    with pytest.raises(AuditError, match="the folder .*missing of the audit log .* does not exist"):
        open_log(tmp_path / "missing" / "dealer.sqlite")
    assert not (tmp_path / "missing").exists()


def test_append_numbers_and_chains(log: Storage) -> None:
    ids = [entries.append(log, ruling(n)) for n in range(5)]
    assert ids == [1, 2, 3, 4, 5]
    records = log.records()
    assert [r.id for r in records] == ids
    assert records[0].prev_hash == GENESIS_HASH
    for before, after in zip(records, records[1:], strict=False):
        assert after.prev_hash == before.hash
    rows = list(log.rows())
    assert all(record_hash(row) == row["hash"] for row in rows)


def test_get_returns_what_was_appended(log: Storage) -> None:
    entry = ruling(3, reason="second look", links_to=None, input_text="  as KS  jk ")
    record = entries.get(log, entries.append(log, entry))
    assert (record.kind, record.game, record.action, record.table_id) == (
        "ruling",
        "paigow",
        "set",
        "PG-1",
    )
    assert (record.user_id, record.role, record.seat) == ("D1", "dealer", 3)
    assert record.input_text == "  as KS  jk "
    assert record.cards == ("As", "Ks")
    assert record.result == {"high": ["As"], "n": 3}
    assert record.explanation == ("line 3",)
    assert record.settings == {"house_way": {"name": "foxwoods", "version": "1"}}
    assert record.reason == "second look"
    assert record.software_version == dealer.__version__
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z", record.recorded_at)
    assert record.to_dict()["cards"] == ["As", "Ks"]


def test_get_missing(log: Storage) -> None:
    with pytest.raises(AuditError, match="there is no audit record 4"):
        entries.get(log, 4)


def test_transaction_appends_together(log: Storage) -> None:
    with log.transaction() as tx:
        ids = [users.append_checked(tx, ruling(n)) for n in range(3)]
        assert log.head().records == 3  # visible inside the same connection
    assert ids == [1, 2, 3]
    assert verify(log).ok


def test_transaction_rolls_back_on_error(log: Storage) -> None:
    entries.append(log, ruling(0))
    with pytest.raises(RuntimeError, match="seat 4 blew up"), log.transaction() as tx:
        users.append_checked(tx, ruling(1))
        meters.move(tx, "PG-1", "treasure", 500, "contribution")
        raise RuntimeError("seat 4 blew up")
    assert log.head().records == 1
    assert log.meter("PG-1", "treasure") is None
    assert entries.append(log, ruling(2)) == 2  # no gap left behind


def test_bad_entry_in_transaction_saves_nothing(log: Storage) -> None:
    with pytest.raises(AuditError, match="not JSON-ready"), log.transaction() as tx:
        users.append_checked(tx, ruling(1))
        users.append_checked(tx, ruling(2, result={"net": Decimal("1.5")}))
    assert log.head().records == 0


def test_finished_transaction_refuses_writes(log: Storage) -> None:
    with log.transaction() as tx:
        users.append_checked(tx, ruling(1))
    with pytest.raises(AuditError, match="already finished"):
        users.append_checked(tx, ruling(2))


def test_nested_transaction_refused(log: Storage) -> None:
    with log.transaction(), pytest.raises(AuditError, match="already open"):
        entries.append(log, ruling(1))
    assert log.head().records == 0


def test_closed_log(log_at: Path | str) -> None:
    opened = open_log(log_at)
    opened.close()
    with pytest.raises(AuditError, match="nothing was saved"):
        entries.append(opened, ruling(1))
    with pytest.raises(AuditError, match="could not read"):
        opened.records()


def test_disk_full_fails_and_saves_nothing(sqlite_log: SQLiteStorage) -> None:
    log = sqlite_log
    entries.append(log, ruling(0))
    head = log.head()
    pages = log.conn.execute("PRAGMA page_count").fetchone()[0]
    log.conn.execute(f"PRAGMA max_page_count = {pages}")
    big = ruling(1, input_text="x" * 60_000)
    with pytest.raises(AuditError, match=r"is full\): nothing was saved"):
        entries.append(log, big)
    assert log.head() == head
    assert not log.conn.in_transaction
    log.conn.execute("PRAGMA max_page_count = 1073741823")
    assert entries.append(log, ruling(2)) == 2
    assert verify(log).ok


def test_meters(log: Storage) -> None:
    assert log.meter("PG-1", "treasure") is None
    with log.transaction() as tx:
        ruling_id = users.append_checked(tx, ruling(1))
        assert tx.meter("PG-1", "treasure") is None
        first = meters.move(tx, "PG-1", "treasure", "10000.00", "seed")
        assert tx.meter("PG-1", "treasure") == Decimal("10000.00")
        second = meters.move(
            tx, "PG-1", "treasure", Decimal("10000.00") + Decimal("0.30"), "contribution"
        )
        meters.move(tx, "PG-2", "treasure", 0.1, "other table")
    assert log.meter("PG-1", "treasure") == Decimal("10000.30")
    assert log.meter("PG-2", "treasure") == Decimal("0.1")
    assert log.meter("PG-1", "insurance") is None
    moved = entries.get(log, second)
    assert moved.kind == "meter" and moved.action == "move"
    assert moved.result == {
        "meter": "treasure",
        "previous": "10000.00",
        "value": "10000.30",
        "delta": "0.30",
    }
    assert (moved.user_id, moved.role, moved.game, moved.links_to) == (
        "D1",
        "dealer",
        "paigow",
        ruling_id,  # every meter move links to the ruling that moved it
    )
    assert entries.get(log, first).links_to == ruling_id
    assert entries.get(log, first).result["previous"] is None
    found = verify(log)  # the ruling states no meters: nothing explains the moves
    assert (found.ok, found.first_bad) == (False, first)


def test_meter_needs_a_user_and_a_number(log: Storage) -> None:
    with log.transaction() as tx:
        with pytest.raises(AuditError, match="needs the id of the user"):
            meters.move(tx, "PG-1", "treasure", 1, "seed")
        with pytest.raises(AuditError, match="must be a number"):
            meters.move(tx, "PG-1", "treasure", "lots", "seed", user_id="D1")
        with pytest.raises(AuditError, match="finite"):
            meters.move(tx, "PG-1", "treasure", float("inf"), "seed", user_id="D1")
        with pytest.raises(AuditError, match="needs a reason"):
            meters.move(tx, "PG-1", "treasure", 1, " ", user_id="D1")
        assert meters.move(tx, "PG-1", "treasure", 7, "seed", user_id="D1") == 1


def test_checkpoint_counts_itself(log: Storage) -> None:
    staff.add_user(log, "S1", "supervisor", pin="lantern-2468")
    entries.append(log, ruling(2))
    before = log.head()
    cp = entries.checkpoint(log, "S1", "lantern-2468")
    assert cp.records == 3 and cp == log.head()
    record = entries.get(log, 3)
    assert record.kind == "checkpoint"
    assert record.result == {"records": 2, "head_hash": before.head_hash}
    assert verify(log, [cp]).ok


def test_empty_log_verifies(log: Storage) -> None:
    result = verify(log)
    assert (result.ok, result.records, result.first_bad) == (True, 0, None)


def test_search_filters(log: Storage) -> None:
    entries.append(log, ruling(1, table_id="PG-1", seat=1))
    entries.append(log, ruling(2, table_id="PG-2", seat=1, user_id="D2"))
    entries.append(log, ruling(3, table_id="PG-1", seat=2, game="burosh", action="rank"))
    entries.append(log, ruling(4, table_id="PG-1", seat=1))

    def ids(flt: RecordFilter) -> list[int]:
        return [r.id for r in log.records(flt)]

    assert ids(RecordFilter(table_id="PG-1", seat=1)) == [1, 4]
    assert ids(RecordFilter(user_id="D2")) == [2]
    assert ids(RecordFilter(game="burosh")) == [3]
    assert ids(RecordFilter(action="set", table_id="PG-1")) == [1, 4]
    assert ids(RecordFilter(ids=(4, 2, 9))) == [2, 4]
    times = [r.recorded_at for r in log.records()]
    assert ids(RecordFilter(since=times[1], until=times[3])) == [2, 3]
    assert ids(RecordFilter(until="2000-01-01T00:00:00.000000Z")) == []
    assert [r.id for r in log.records(limit=2, newest_first=True)] == [4, 3]


@pytest.mark.parametrize("target", [0, 2, -1])
def test_link_to_a_missing_record(log: Storage, target: int) -> None:
    entries.append(log, ruling(1))
    with pytest.raises(AuditError, match=f"there is no audit record {target} to refer to"):
        entries.append(log, ruling(2, links_to=target))
    assert log.head().records == 1


def test_links(log: Storage) -> None:
    first = entries.append(log, ruling(1))
    with log.transaction() as tx:
        users.append_checked(tx, ruling(2))
        meters.move(tx, "PG-1", "envy", 5, "envy paid", links_to=first)
    assert [r.id for r in entries.links(log, first)] == [3]


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    texts=st.lists(st.text(max_size=30), min_size=1, max_size=5),
    seat=st.one_of(st.none(), st.integers(-5, 12)),
)
def test_any_text_verifies(sqlite_log: SQLiteStorage, texts: list[str], seat: int | None) -> None:
    log = sqlite_log
    start = log.head().records
    with log.transaction() as tx:
        for text in texts:
            users.append_checked(
                tx, ruling(0, input_text=text, explanation=[text], result={text: text}, seat=seat)
            )
    assert [
        r.input_text
        for r in log.records(RecordFilter(ids=tuple(range(start + 1, start + 1 + len(texts)))))
    ] == texts
    assert verify(log).ok
