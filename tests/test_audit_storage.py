"""The contract of `dealer.audit.storage.Storage`, run against every backend (the `storage`
fixture): appends chained atomically, reads by id, filter and range, meters read and moved in
one transaction, users rows, the head as a checkpoint, and a failed transaction leaving nothing."""

from __future__ import annotations

import json
import re
from decimal import Decimal

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import dealer
from dealer.audit import meters
from dealer.audit.chain import GENESIS_HASH, Checkpoint, record_hash
from dealer.audit.glances import METER_VALUES, VALUE_MAX, Glance
from dealer.audit.meters import MeterLink
from dealer.audit.records import (
    Entry,
    Record,
    RecordFilter,
    Reference,
    canonical_json,
    seats_of,
)
from dealer.audit.sql_reads import IDS_A_QUERY
from dealer.audit.storage import Storage, UserRow
from dealer.audit.users import user_record_result
from dealer.kernel.errors import AuditError


def ruling(n: int, **changes: object) -> Entry:
    fields: dict[str, object] = dict(
        kind="ruling",
        user_id=f"D{n % 2}",
        role="dealer",
        table_id=f"PG-{n % 3}",
        game="paigow" if n % 2 else "burosh",
        action="set" if n < 4 else "rank",
        input_text=f"hand {n}",
        cards=["As", "Ks"],
        result={"n": n, "é": "ü"},
        explanation=[f"line {n}"],
        settings={"house_way": "foxwoods"},
        seat=n,
    )
    fields.update(changes)
    return Entry(**fields)  # type: ignore[arg-type]


def meter_move(table_id: str, name: str, value: object, links_to: int) -> Entry:
    return Entry(
        kind="meter",
        user_id="D1",
        role="dealer",
        table_id=table_id,
        action="move",
        result={"meter": name, "value": value},
        links_to=links_to,
    )


def fill(storage: Storage, count: int) -> list[int]:
    with storage.transaction() as tx:
        return [tx.append(ruling(n)) for n in range(1, count + 1)]


def test_an_empty_log(storage: Storage) -> None:
    assert storage.head() == Checkpoint(0, GENESIS_HASH)
    assert storage.records() == [] and list(storage.rows()) == []
    assert storage.record(1) is None
    assert storage.meter("PG-1", "treasure") is None
    assert storage.users() == [] and storage.user_history() == []
    assert storage.user("S1") is None and not storage.supervisor_ever_registered()
    assert storage.protection_problems() == [] and storage.integrity_problems() == []


def test_appends_are_numbered_and_chained(storage: Storage) -> None:
    assert fill(storage, 5) == [1, 2, 3, 4, 5]
    rows = list(storage.rows())
    assert [row["id"] for row in rows] == [1, 2, 3, 4, 5]
    assert rows[0]["prev_hash"] == GENESIS_HASH
    for before, after in zip(rows, rows[1:], strict=False):
        assert after["prev_hash"] == before["hash"]
    assert all(record_hash(row) == row["hash"] for row in rows)
    assert storage.head() == Checkpoint(5, rows[-1]["hash"])
    assert {row["software_version"] for row in rows} == {dealer.__version__}
    stamps = [row["recorded_at"] for row in rows]
    assert stamps == sorted(stamps)
    assert all(re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z", s) for s in stamps)


def test_rows_keep_the_stored_text(storage: Storage) -> None:
    fill(storage, 1)
    (row,) = storage.rows()
    assert row["result"] == canonical_json({"n": 1, "é": "ü"}) == '{"n":1,"é":"ü"}'
    assert json.loads(row["cards"]) == ["As", "Ks"] and row["reason"] is None


def test_read_by_id(storage: Storage) -> None:
    fill(storage, 3)
    record = storage.record(2)
    assert record is not None
    assert (record.id, record.kind, record.user_id, record.table_id, record.seat) == (
        2,
        "ruling",
        "D0",
        "PG-2",
        2,
    )
    assert record.cards == ("As", "Ks") and record.result == {"n": 2, "é": "ü"}
    assert record.explanation == ("line 2",) and record.settings == {"house_way": "foxwoods"}
    assert storage.record(4) is None


def test_read_by_filter(storage: Storage) -> None:
    fill(storage, 6)

    def ids(flt: RecordFilter, **options: object) -> list[int]:
        return [r.id for r in storage.records(flt, **options)]  # type: ignore[arg-type]

    assert ids(RecordFilter(ids=(5, 2, 9))) == [2, 5]
    assert ids(RecordFilter(table_id="PG-1")) == [1, 4]
    assert ids(RecordFilter(seat=3)) == [3]
    assert ids(RecordFilter(game="paigow")) == [1, 3, 5]
    assert ids(RecordFilter(user_id="D0", action="rank")) == [4, 6]
    assert ids(RecordFilter(kind="ruling", table_id="PG-0", game="burosh")) == [6]
    assert ids(RecordFilter(kind="void")) == []
    assert ids(RecordFilter(), limit=2) == [1, 2]
    assert ids(RecordFilter(game="paigow"), limit=2, newest_first=True) == [5, 3]
    assert [row["id"] for row in storage.rows(RecordFilter(seat=4))] == [4]


def test_read_by_time_range(storage: Storage) -> None:
    fill(storage, 4)
    stamps = [r.recorded_at for r in storage.records()]
    assert [r.id for r in storage.records(RecordFilter(since=stamps[1], until=stamps[3]))] == [
        2,
        3,
    ]
    assert storage.records(RecordFilter(until="2000-01-01T00:00:00.000000Z")) == []
    assert len(storage.records(RecordFilter(since="2000-01-01T00:00:00.000000Z"))) == 4


def test_read_by_seat_and_patron(storage: Storage) -> None:
    """A seat search finds the seats a record involved (`seats_of`): its own seat, and each
    seat its result lists, as a round's settled seats; a patron search the same seats."""
    seats = [{"seat": 2, "patron": "P-1"}, {"seat": 5}]
    with storage.transaction() as tx:
        tx.append(ruling(1, seat=None, result={"seats": seats}))  # a round
        tx.append(ruling(2, seat=5, result={"patron": "P-1"}))  # a settle
        tx.append(ruling(3, seat=None, result={"seats": [2, 3]}))  # a trick's seats
        tx.append(ruling(4, seat=None))
        # the record just appended is found by seat inside its own transaction
        assert [r.id for r in tx.records(RecordFilter(seat=3))] == [3]

    def ids(**flt: object) -> list[int]:
        return [r.id for r in storage.records(RecordFilter(**flt))]  # type: ignore[arg-type]

    assert ids(seat=2) == [1, 3]
    assert ids(seat=5) == [1, 2]
    assert ids(seat=5, table_id="PG-1") == [1]
    assert ids(seat=4) == [] and ids(seat=1) == []
    assert ids(patron="P-1") == [1, 2]
    assert ids(patron="P-1", seat=2) == [1]  # the patron at that seat
    assert ids(patron="P-1", seat=3) == [] and ids(patron="P-2") == []
    assert [row["id"] for row in storage.rows(RecordFilter(seat=5), newest_first=True)] == [2, 1]


def test_a_failed_transaction_indexes_no_seat(storage: Storage) -> None:
    with pytest.raises(RuntimeError), storage.transaction() as tx:
        tx.append(ruling(1, result={"patron": "P-1"}))
        raise RuntimeError("stop")
    fill(storage, 1)
    assert storage.records(RecordFilter(patron="P-1")) == []
    assert [r.id for r in storage.records(RecordFilter(seat=1))] == [1]


def test_seats_of_reads_the_content() -> None:
    assert seats_of(ruling(3, result={"patron": "P-9", "seats": [{"seat": 1}, 3]})) == [
        (1, None),
        (3, "P-9"),
    ]
    assert seats_of(ruling(1, seat=None, result={"seats": "2"})) == []
    odd = {"seats": [{"seat": True}, {"seat": "4"}, None, {"seat": 4, "patron": 7}]}
    assert seats_of(ruling(1, seat=None, result=odd)) == [(4, None)]


def test_links(storage: Storage) -> None:
    fill(storage, 2)
    with storage.transaction() as tx:
        tx.append(ruling(3, links_to=1))
        with pytest.raises(AuditError, match="there is no audit record 5 to refer to"):
            tx.append(ruling(4, links_to=5))
        tx.append(ruling(4, links_to=3))  # the record just appended may be referred to
    assert [r.id for r in storage.records(RecordFilter(links_to=1))] == [3]
    assert [r.id for r in storage.records(RecordFilter(links_to=3))] == [4]


def test_glances_are_read_for_many_records_at_once(storage: Storage) -> None:
    """`glances` answers for more records than one query's list holds, in the order asked (a
    number no record has left out), each with its seats and what refers to it, by number and
    kind in record order."""
    count = IDS_A_QUERY + 3
    fill(storage, count)
    with storage.transaction() as tx:
        for target in (1, count, IDS_A_QUERY + 1):
            tx.append(meter_move("PG-1", "progressive", "10.00", target))
        tx.append(ruling(1, links_to=count))
    wanted = [count, *range(1, count), count + 99]
    found = storage.glances(wanted)
    assert [g.id for g in found] == wanted[:-1]
    assert [g.seats for g in found[:3]] == [(count,), (1,), (2,)]
    refs = {g.id: g.references for g in found if g.references}
    assert refs == {
        1: (Reference(count + 1, "meter"),),
        IDS_A_QUERY + 1: (Reference(count + 3, "meter"),),
        count: (Reference(count + 2, "meter"), Reference(count + 4, "ruling")),
    }
    assert storage.glances([]) == []
    newest = storage.record_ids(RecordFilter(kind="meter"), limit=2, newest_first=True)
    assert newest == [count + 3, count + 2]
    assert storage.record_ids(RecordFilter(table_id="PG-1"), limit=2) == [1, 4]


CHARACTERS = st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00")
"""Characters any backend takes apart (jsonb holds no NUL: `test_postgres_attacks`)."""
JSON_TEXT = st.text(CHARACTERS, max_size=12)
LONG_TEXT = st.text(CHARACTERS, min_size=195, max_size=205)
"""Text about `VALUE_MAX` long, as JSON."""
NUMBERS = st.integers(-(2**70), 2**70) | st.decimals(-(10**12), 10**12, places=2).map(float)
"""Numbers both backends write alike (PostgreSQL's jsonb writes `1e16` its own way)."""
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | NUMBERS | JSON_TEXT | LONG_TEXT,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(JSON_TEXT, inner, max_size=3),
    max_leaves=6,
)
GLANCED = st.fixed_dictionaries(
    {},
    optional={
        "total_net": JSON_VALUES,
        "seats": JSON_VALUES,
        "base": st.fixed_dictionaries({}, optional={"outcome": JSON_VALUES}) | JSON_VALUES,
        **{key: JSON_VALUES for key in METER_VALUES},
        "other": JSON_VALUES,
    },
)
"""A record's result with any of the keys a glance reads, holding anything."""


def held(value: object) -> object:
    """What a glance holds of `value`: a text or a number whose JSON is at most `VALUE_MAX`
    long, else nothing."""
    if isinstance(value, bool) or not isinstance(value, str | int | float):
        return None
    return value if len(json.dumps(value, ensure_ascii=False)) <= VALUE_MAX else None


def looked_at(record: Record) -> tuple[object, ...]:
    """The values a glance should hold, as Python reads them from the whole record: each key
    the result has (`held`), the first line of explanation."""
    result = record.result
    base = result.get("base")
    return (
        held(result.get("total_net")),
        held(base.get("outcome")) if isinstance(base, dict) else None,
        *(held(result.get(key)) for key in METER_VALUES),
        held(record.explanation[0]) if record.explanation else None,
    )


def glanced(glance: Glance) -> tuple[object, ...]:
    return (
        glance.total_net,
        glance.outcome,
        glance.meter,
        glance.value,
        glance.delta,
        glance.previous,
        glance.first_line,
    )


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(result=GLANCED, explanation=st.lists(JSON_TEXT | LONG_TEXT, max_size=2))
def test_a_glance_holds_what_the_record_says(
    storage: Storage, result: dict[str, object], explanation: list[str]
) -> None:
    """The values the database takes out of a record's JSON for a list are the ones Python
    reads from the whole record, whatever the record holds (the log is shared: each example
    appends its own record)."""
    with storage.transaction() as tx:
        made = tx.append(ruling(1, result=result, explanation=explanation))
    (glance,) = storage.glances([made])
    record = storage.record(made)
    assert record is not None
    assert glanced(glance) == looked_at(record)
    assert glance[:8] == (made, record.recorded_at, *record[2:6], "D1", "dealer")
    assert glance.seats == tuple(seat for seat, _ in seats_of(record))
    assert glance.input_text == "hand 1"


def test_meters_read_and_moved_in_one_transaction(storage: Storage) -> None:
    fill(storage, 1)
    with storage.transaction() as tx:
        assert tx.meter("PG-1", "treasure") is None
        tx.append(meter_move("PG-1", "treasure", "100.00", 1))
        assert tx.meter("PG-1", "treasure") == Decimal("100.00")
        tx.append(meter_move("PG-1", "treasure", "100.25", 1))
        tx.append(meter_move("PG-2", "treasure", "7", 1))
        tx.append(meter_move("PG-1", "insurance", "5000", 1))
        assert tx.meter("PG-1", "treasure") == Decimal("100.25")
    assert storage.meter("PG-1", "treasure") == Decimal("100.25")
    assert storage.meter("PG-2", "treasure") == Decimal(7)
    assert storage.meter("PG-1", "insurance") == Decimal(5000)
    assert storage.meter("PG-3", "treasure") is None


LINK = MeterLink("FLOOR-1", Decimal(10000), Decimal(250000))
"""A linked meter's terms, for reading a link's records as a table's own meter's."""


def _moved(storage: Storage, stored: object, link: MeterLink | None) -> None:
    fill(storage, 1)
    move = meter_move("PG-1", "treasure", stored, 1)
    if link is not None:
        move = move._replace(result={**move.result, **link.result()})
    with storage.transaction() as tx:
        tx.append(move)


@pytest.mark.parametrize("link", [None, LINK], ids=["own", "linked"])
@pytest.mark.parametrize(
    ("stored", "read"),
    [
        (0.1, Decimal("0.1")),
        (0.30000000000000004, Decimal("0.30000000000000004")),
        (10000, Decimal(10000)),
        ("10000.30", Decimal("10000.30")),
        (None, None),
    ],
)
def test_a_meter_value_stored_as_a_json_number_keeps_its_digits(
    storage: Storage, stored: object, read: Decimal | None, link: MeterLink | None
) -> None:
    """As a record from elsewhere (an older version, a copied log) may hold it: read alike on
    each backend, a table's own meter and a link's, never through a binary float."""
    _moved(storage, stored, link)
    found = meters.current(storage, "PG-1", "treasure", link)
    assert (found, str(found)) == (read, str(read))


@pytest.mark.parametrize(
    ("link", "meter"),
    [(None, "meter treasure at table PG-1"), (LINK, "meter treasure of link FLOOR-1")],
    ids=["own", "linked"],
)
@pytest.mark.parametrize(("stored", "shown"), [(True, "true"), ([1], "[1]"), ("lots", "lots")])
def test_a_meter_value_that_is_no_number_is_a_damaged_record(
    storage: Storage, stored: object, shown: str, link: MeterLink | None, meter: str
) -> None:
    _moved(storage, stored, link)
    with pytest.raises(AuditError) as damaged:
        meters.current(storage, "PG-1", "treasure", link)
    assert str(damaged.value) == (
        f"audit record 2 is damaged: {meter} holds {shown!r}, which is not a number"
    )


def test_appended_in_this_transaction(storage: Storage) -> None:
    fill(storage, 2)
    with storage.transaction() as tx:
        assert tx.appended == ()
        first, second = ruling(3), ruling(4)
        tx.append(first)
        tx.append(second)
        assert list(tx.appended) == [(3, first), (4, second)]


def user_record(user_id: str, role: str, active: bool, pin_hash: str | None) -> Entry:
    """A user record saying what its users row holds (a backend may check that they agree)."""
    result = user_record_result(user_id, role, active, pin_hash)
    return Entry(kind="user", user_id="S1", role="supervisor", action="add", result=result)


def shown(storage: Storage, stored: str) -> str:
    """`stored` as the backend's reads show a secret: itself, or withheld by the PostgreSQL
    server (`dealer.withheld`, asked as the log's owner)."""
    conn = getattr(storage, "conn", None)
    if conn is None or not hasattr(conn, "pgconn"):
        return stored
    row = conn.execute("SELECT dealer.withheld(%s)", [stored]).fetchone()
    assert row is not None and row[0].startswith("withheld$")
    return str(row[0])


def test_users_rows(storage: Storage) -> None:
    pin = shown(storage, "scrypt$pin")
    with storage.transaction() as tx:
        first = tx.append(user_record("S1", "supervisor", True, "scrypt$pin"))
        tx.add_user(UserRow(first, "S1", "supervisor", True, "scrypt$pin"))
        assert tx.user("S1") == UserRow(first, "S1", "supervisor", True, pin)
        assert tx.supervisor_ever_registered()
    with storage.transaction() as tx:
        second = tx.append(user_record("D1", "dealer", True, None))
        tx.add_user(UserRow(second, "D1", "dealer", True, None))
        third = tx.append(user_record("S1", "dealer", False, "scrypt$pin"))
        tx.add_user(UserRow(third, "S1", "dealer", False, "scrypt$pin"))
    assert storage.user("S1") == UserRow(third, "S1", "dealer", False, pin)
    assert storage.user("D9") is None
    assert storage.users() == [
        UserRow(second, "D1", "dealer", True, None),
        UserRow(third, "S1", "dealer", False, pin),
    ]
    assert [(row.record_id, row.user_id) for row in storage.user_history()] == [
        (first, "S1"),
        (second, "D1"),
        (third, "S1"),
    ]
    assert storage.supervisor_ever_registered()  # ever, not now


def test_head_is_a_checkpoint(storage: Storage) -> None:
    fill(storage, 3)
    with storage.transaction() as tx:
        before = tx.head()
        assert before == storage.head() == Checkpoint(3, storage.records()[-1].hash)
        made = tx.append(ruling(4))
        assert tx.head() == Checkpoint(made, storage.records()[-1].hash)
    assert str(storage.head()) == f"4:{storage.head().head_hash}"


def test_a_failed_transaction_leaves_nothing(storage: Storage) -> None:
    fill(storage, 2)
    head = storage.head()
    with pytest.raises(RuntimeError, match="power cut"), storage.transaction() as tx:
        made = tx.append(ruling(3))
        tx.append(meter_move("PG-1", "treasure", "10", made))
        added = tx.append(user_record("S1", "supervisor", True, "scrypt$pin"))
        tx.add_user(UserRow(added, "S1", "supervisor", True, "scrypt$pin"))
        raise RuntimeError("power cut")
    assert storage.head() == head and len(storage.records()) == 2
    assert storage.meter("PG-1", "treasure") is None
    assert storage.user("S1") is None and storage.user_history() == []
    with pytest.raises(AuditError, match="not JSON-ready"), storage.transaction() as tx:
        tx.append(ruling(3))
        tx.append(ruling(4, result={"net": Decimal("1.5")}))
    assert storage.head() == head
    assert fill(storage, 1) == [3]  # no gap left behind


def test_a_finished_transaction_refuses_writes(storage: Storage) -> None:
    with storage.transaction() as tx:
        tx.append(ruling(1))
    with pytest.raises(AuditError, match="already finished"):
        tx.append(ruling(2))
    with pytest.raises(AuditError, match="already finished"):
        tx.add_user(UserRow(1, "S1", "supervisor", True, None))
    with pytest.raises(AuditError, match="already finished"):
        tx.copy(next(storage.rows()))
    assert storage.head().records == 1


def test_one_write_transaction_at_a_time(storage: Storage) -> None:
    with (
        storage.transaction(),
        pytest.raises(AuditError, match="already open"),
        storage.transaction(),
    ):
        pass
    assert fill(storage, 1) == [1]


def test_a_snapshot_reads_one_state(storage: Storage) -> None:
    fill(storage, 3)
    with storage.snapshot():
        assert storage.head().records == 3
        assert [row["id"] for row in storage.rows()] == [1, 2, 3]
        assert storage.protection_problems() == [] and storage.integrity_problems() == []
    assert fill(storage, 1) == [4]
