"""The floor's sums as the PostgreSQL server computes them (`dealer.desk.floor_sums_sql`) held to
the one reference, `dealer.desk.floor_sums`: for any ruling and any state of its members' rows
(a property), for a table of real rulings made through the desk at the terminals' own logins,
and for a floor's days with breaks and hours (an SQLite log replayed into the server record by
record, as its append would) — whole numbers exactly, reals to rounding — and verify compares
the server's function with the desk's."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from unittest import mock

import psycopg
import pytest
from cli import run
from hypothesis import given, settings
from hypothesis import strategies as st
from pg_server import PgServer
from test_floor_sums import PATRONS, Clock, a_round

from dealer.audit import open_log
from dealer.audit.postgres import PostgresStorage
from dealer.audit.postgres_schema import LATEST, record_rows
from dealer.audit.records import Record
from dealer.audit.sums import KEY_COLUMNS, SUM_COLUMNS, SumKey, SumRow, hour_of
from dealer.desk.floor_sums import (
    BASE,
    BONUS,
    DEALER,
    ENVY,
    GAPS,
    HIT,
    OWN,
    PATRON,
    PLAY,
    ROUNDS,
    TABLE,
    _same,
    problems,
    ruling_numbers,
    source_parts,
    stored_state,
)
from dealer.desk.records import verified
from dealer.games.paigow.pay import Wager
from dealer.kernel.cards import DECK

ROUND = Path(__file__).parent / "data" / "rounds" / "envy_and_progressives.yaml"
TABLES = ("PG-1", "PG-2")
DEALERS = ("d-1", "d-2")
SERVER_ROWS = record_rows("jsonb_populate_record(NULL::dealer.records, %s::jsonb)")
"""The rows the server computes for a record (`dealer.record_sums`' parts summed as
`dealer.add_sums` sums them), the record sent whole as JSON: only the owner may execute it."""
ADD_SUMS = "SELECT dealer.add_sums(jsonb_populate_record(NULL::dealer.records, %s::jsonb))"
"""What `append_record` does with the record it appended, for a record sent whole as JSON."""


def by_key(rows: list[SumRow]) -> dict[SumKey, SumRow]:
    return {row.key: row for row in rows}


def alike(mine: list[SumRow], theirs: list[SumRow]) -> bool:
    """The same rows: the same keys, whole numbers exactly, reals to rounding (`_same`)."""
    a, b = by_key(mine), by_key(theirs)
    return a.keys() == b.keys() and all(_same(a[key], b[key]) for key in a)


def stored(row: tuple[Any, ...]) -> SumRow:
    keys, values = len(KEY_COLUMNS), len(SUM_COLUMNS)
    return SumRow(SumKey(*row[:keys]), tuple(row[keys : keys + values]), row[-2], row[-1])


TEXT = st.text(
    st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00\x01"), max_size=8
)
"""Any text a JSON string and a PostgreSQL text can both hold."""
RAW = "\x01"
"""Marks a number's own text (`dumps` writes it unquoted): a number as a login may write one."""


def dumps(value: object) -> str:
    """`value` as JSON text, each `RAW`-marked text written as the number it spells."""
    return re.sub(r'"\\u0001([^"\\]*)\\u0001"', r"\1", json.dumps(value))


def often(common: st.SearchStrategy[Any], *rare: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """`common` three times in four, else one of `rare`."""
    return st.one_of(common, common, common, st.one_of(*rare))


NAME = often(
    st.sampled_from(["PT-FLT-EC-ET-01", "PT-BJS-EC-ET-01", "E01", "trump-plaza", "", "é ü 🂡"]),
    TEXT,
    st.integers(-(10**20), 10**20),
    st.floats(1e-4, 1e15) | st.floats(-1e15, -1e-4),
    st.booleans(),
    st.none(),
)
"""A name where a ruling holds one: text, or a value Python's `str` writes as the server does."""
MONEY = often(
    st.integers(-100, 10_000) | st.decimals(-100, 10_000, places=2).map(float),
    st.integers(-(10**10), 10**10),
    st.floats(allow_nan=False, allow_infinity=False),
    st.floats(-10_000, 10_000),
    st.sampled_from([1e-05, 5e-05, 9.5e-05, 0.0001, -1e-05, 1e-300, 1e16, 123456789012.5]),
    st.from_regex(r"-?(0|[1-9][0-9]{0,8})\.[0-9]{1,6}0{0,9}", fullmatch=True).map(
        lambda digits: f"{RAW}{digits}{RAW}"
    ),
    st.from_regex(r"-?[0-9]{1,14}(\.[0-9]{0,13})?", fullmatch=True),
    TEXT,
    st.booleans(),
    st.none(),
    st.just([5]),
)
"""An amount as a ruling may hold it: a number (as Python writes one, or its own digits), the
text of one or not, anything else."""
WHOLE = often(
    st.integers(0, 6), st.integers(-3, 10**20), st.booleans(), st.none(), st.floats(0.5, 1e15)
)
WAGERS = often(st.sampled_from(list(Wager)), st.just("junk"), st.just(3))


def maybe(values: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """A value, or none at all (the key left out: `absent`)."""
    return st.one_of(values, values, st.just(absent))


absent = object()


def mapping(**fields: st.SearchStrategy[Any]) -> st.SearchStrategy[dict[str, Any]]:
    """A JSON object of `fields`, each of which may be left out."""
    return st.fixed_dictionaries({k: maybe(v) for k, v in fields.items()}).map(
        lambda found: {k: v for k, v in found.items() if v is not absent}
    )


BONUS_WAGER = often(
    st.fixed_dictionaries(
        {
            "wager": often(
                st.just(Wager.TREASURE), st.sampled_from([w for w in Wager if w.placed])
            ),
            "amount": MONEY,
            "net": MONEY,
            "paytable": often(st.none(), NAME),
            "units": WHOLE,
            "row_number": WHOLE,
        }
    ),
    mapping(wager=WAGERS, amount=MONEY, net=MONEY, paytable=NAME, units=WHOLE, row_number=WHOLE),
)
PLAYER = often(
    st.fixed_dictionaries(
        {"set_by": st.sampled_from(["player", "house-way"]), "best_net": MONEY},
        optional={"house_way_net": often(MONEY, st.none())},
    ),
    mapping(
        set_by=st.sampled_from(["player", "house-way", 1]),
        best_net=often(MONEY, st.none()),
        house_way_net=often(MONEY, st.none()),
    ),
)
BASE_WAGER = mapping(wager=MONEY, net=MONEY, player=often(PLAYER, st.just([])))
SEAT = often(
    st.fixed_dictionaries(
        {
            "patron": often(st.sampled_from(PATRONS), st.none()),
            "base": BASE_WAGER,
            "bonuses": st.lists(BONUS_WAGER, min_size=1, max_size=4),
        }
    ),
    mapping(
        patron=often(st.sampled_from(PATRONS), TEXT, st.integers(0, 3)),
        base=often(BASE_WAGER, TEXT),
        bonuses=often(st.lists(often(BONUS_WAGER, st.integers()), max_size=4), TEXT),
    ),
)
PAYTABLES = st.fixed_dictionaries({w.value: NAME for w in Wager if w.bonus})
SETTINGS = often(
    st.fixed_dictionaries(
        {
            "house_way_source": NAME,
            "house_way_sha256": NAME,
            "paytables": PAYTABLES,
            "paytables_sha256": st.dictionaries(NAME.map(str), NAME, max_size=4),
            "offered": st.fixed_dictionaries({"envy": often(st.just(True), st.booleans())}),
            "envy_minimum": often(st.integers(0, 10), MONEY),
        },
        optional={"sign_in": st.integers(1, 10**6)},
    ),
    mapping(
        house_way_source=NAME,
        house_way_sha256=NAME,
        wheel=NAME,
        dealer_pai_gow=NAME,
        paytables=often(
            st.dictionaries(often(st.sampled_from(list(Wager)), st.just("x")), NAME, max_size=6),
            st.just(["E01"]),
        ),
        paytables_sha256=st.dictionaries(NAME.map(str), NAME, max_size=4),
        offered=mapping(envy=often(st.booleans(), st.integers(0, 2), TEXT)),
        envy_minimum=MONEY,
        sign_in=often(st.integers(-5, 10**6), st.booleans(), TEXT),
    ),
)
METERS = mapping(before=often(st.dictionaries(st.sampled_from(list(Wager)), MONEY), TEXT))
CARDS = st.lists(
    often(st.sampled_from([str(card) for card in DECK]), TEXT, st.integers()), max_size=9
)


@st.composite
def rulings(draw: st.DrawFn) -> dict[str, Any]:
    """A ruling that counts as a login may append one, as stored: any shape of result and
    settings."""
    action = draw(st.sampled_from(["round", "settle"]))
    seats = draw(
        often(st.lists(SEAT, min_size=1, max_size=5), st.lists(often(SEAT, st.integers())))
    )
    result = {"seats": seats} if action == "round" else draw(SEAT)
    result = {**result, **draw(mapping(meters=often(METERS, st.integers())))}
    at = draw(st.datetimes(datetime(2025, 3, 1), datetime(2025, 3, 3)))
    return {
        "id": 1,
        "recorded_at": at.strftime("%Y-%m-%dT%H:%M:%S.%fZ"),
        "kind": "ruling",
        "game": "paigow",
        "action": action,
        "table_id": draw(often(st.sampled_from(TABLES), TEXT)),
        "seat": None,
        "user_id": draw(often(st.sampled_from(DEALERS), TEXT)),
        "role": "dealer",
        "input_text": "",
        "cards": dumps(draw(CARDS)),
        "result": dumps(draw(often(st.just(result), st.just([1])))),
        "explanation": "[]",
        "settings": dumps(draw(SETTINGS)),
        "links_to": None,
        "reason": None,
        "software_version": "1.0",
        "prev_hash": "",
        "hash": "",
    }


@st.composite
def states(draw: st.DrawFn, record: Record) -> list[SumRow]:
    """Rows of the members' own sums a ruling may find: of its table (with its cards or others),
    its dealer and its patrons, each last dated a little before or after it, an hour or more
    before, or not at all."""
    at = datetime.strptime(record.recorded_at, "%Y-%m-%dT%H:%M:%S.%fZ")
    mark = " ".join(card for card in record.cards[:7] if isinstance(card, str))
    members = [(TABLE, record.table_id), (DEALER, record.user_id), *((PATRON, p) for p in PATRONS)]
    found: dict[SumKey, SumRow] = {}
    for grp, member in members:
        for seconds in draw(st.lists(st.integers(-120, 3 * 3600), max_size=2)):
            then = at - timedelta(seconds=seconds, microseconds=draw(st.integers(0, 999_999)))
            last = then.strftime("%Y-%m-%dT%H:%M:%S.%fZ")
            sign = draw(st.sampled_from([mark, "As Ks", None])) if grp == TABLE else None
            key = SumKey(hour_of(last), grp, member, OWN)
            found[key] = SumRow(key, (), last, sign)
    return list(found.values())


@pytest.fixture(scope="module")
def owner(pg_server: PgServer) -> Iterator[psycopg.Connection[Any]]:
    """The owner's connection to an empty floor log (each example rolls its rows back)."""
    url = pg_server.fresh_url()
    with psycopg.connect(url) as conn:
        yield conn
    pg_server.drop(url)


@settings(max_examples=250)
@given(data=st.data())
def test_the_server_sums_any_ruling_as_the_reference(
    owner: psycopg.Connection[Any], data: st.DataObject
) -> None:
    """Whatever a ruling holds and whatever its members' rows hold before it, the server's rows
    for it are the reference's (`floor_sums.ruling_numbers` over `stored_state`)."""
    sent = data.draw(rulings())
    record = Record.from_row(sent)
    before = data.draw(states(record))
    try:
        for row in before:
            owner.execute(
                "INSERT INTO dealer.floor_sums (hour, grp, member, source, last_at, last_mark) "
                "VALUES (%s, %s, %s, %s, %s, %s)",
                [*row.key, row.last_at, row.last_mark],
            )
        hour = hour_of(record.recorded_at)
        state = stored_state(PostgresStorage(owner, "postgresql://"), hour, record)
        mine = ruling_numbers(record, state).sum_rows(hour)
        theirs = [stored(row) for row in owner.execute(SERVER_ROWS, [json.dumps(sent)])]
    finally:
        owner.rollback()
    assert alike(mine, theirs), (mine, theirs)


def rule(db: str, *args: str, user: str, stdin: str | None = None) -> None:
    made = run(*args, "--user", user, "--db", db, stdin=stdin)
    assert made.exit_code == 0, made.output


def settle(db: str, user: str, table: str, dealer: str, *hand: str, patron: str = "P-1") -> None:
    rule(
        db, "paigow", "settle", "--dealer", dealer, *hand, "--wager", "25", "--treasure", "5",
        "--insurance", "5", "--progressive-treasure", "1", "--patron", patron, "--table", table,
        user=user,
    )  # fmt: skip


def test_rulings_at_the_terminals_are_summed_by_the_server_as_the_records_give(
    pg_server: PgServer, tmp_path: Path
) -> None:
    """Rounds (Envy paid across the table, Treasure and progressive hits, hands set by the
    House Way and by the players, several patrons) and settles (two of one deal, one round;
    the player's own setting, the House Way's; insurance and the progressive), by two dealers
    at two tables, each at their own login: the server's rows are those the reference replays
    from the records, and verify passes."""
    url = pg_server.fresh_url()
    logins = {user: pg_server.login(url, user) for user in DEALERS}
    envy = tmp_path / "envy.yaml"
    text = ROUND.read_text().replace("table: PG-9", "table: PG-1")
    for seat, patron in ((1, "P-1"), (3, "P-2")):
        text = text.replace(f"  - seat: {seat}\n", f"  - seat: {seat}\n    patron: {patron}\n")
    envy.write_text(text)
    rule(logins["d-1"], "round", str(envy), user="d-1")
    deal = random.Random(35)
    for seated in (3, 5):
        stdin = a_round(deal, "PG-2", seated)
        rule(logins["d-2"], "round", "-", stdin=stdin, user="d-2")
    dealer = "Ks Kd 4c 4h As 9d 2c"
    settle(logins["d-1"], "d-1", "PG-1", dealer, "--player", "Qs Qh Jc Jd 8s 3h 2d")
    settle(logins["d-1"], "d-1", "PG-1", dealer, "--high", "Qs Qh 8s 3h 2d", "--low", "Jc Jd")
    settle(
        logins["d-2"], "d-2", "PG-2", "2c 3d 5h 8s 9c Jd Kh",
        "--high", "Ts Th Td Tc 4h", "--low", "6s 7d", patron="P-3",
    )  # fmt: skip
    with open_log(url, read_only=True) as log:
        hours = log.sum_hours()
        rows = [row for hour in hours for row in log.sum_rows(hour)]
        assert problems(log) == [] and verified(log).ok
    kinds = {source_parts(row.key.source)[0] if row.key.source else OWN for row in rows}
    assert kinds == {OWN, BASE, BONUS, ENVY, HIT, PLAY}
    own = [row for row in rows if row.key.source == OWN and row.key.grp == TABLE]
    assert sum(int(row.values[ROUNDS]) for row in own) == 5  # the two settles of one deal: one
    assert sum(int(row.values[GAPS]) for row in own) == 3
    pg_server.drop(url)


def test_a_floor_s_days_are_summed_by_the_server_as_the_reference_sums_them(
    pg_server: PgServer, tmp_path: Path
) -> None:
    """A floor's play on SQLite (the log's clock set: rounds minutes apart, breaks longer than
    `BREAK_SECONDS`, hours crossed, an hour skipped) replayed into a PostgreSQL log, each record
    copied in order and its rows computed by the server as `append_record` has them
    (`dealer.add_sums`): every hour's rows are those the reference wrote, and verify passes."""
    db = tmp_path / "audit.sqlite"
    clock = Clock(datetime(2025, 3, 3, 9, tzinfo=UTC))
    deal = random.Random(3535)
    with mock.patch("dealer.audit.chain.utc_now", clock):
        for hour, minute in ((9, 50), (10, 3), (10, 40), (12, 59), (13, 1)):
            clock.at(datetime(2025, 3, 3, hour, minute, tzinfo=UTC))
            for n in range(3):
                table, user = (TABLES[n % 2], DEALERS[n % 2])
                rule(str(db), "round", "-", stdin=a_round(deal, table, 2 + n), user=user)
    url = pg_server.fresh_url()
    with open_log(db, read_only=True) as source, PostgresStorage.open(url) as log:
        with log.transaction() as tx:
            for row in source.rows():
                tx.copy(row)
                tx.conn.execute(ADD_SUMS, [json.dumps(row)])
        hours = source.sum_hours()
        assert log.sum_hours() == hours and len(hours) == 4
        assert all(alike(source.sum_rows(hour), log.sum_rows(hour)) for hour in hours)
        assert verified(log).ok
    pg_server.drop(url)


def test_verify_compares_the_server_s_sums_with_the_desk_s(pg_server: PgServer) -> None:
    """The owner (or whoever can change a function) makes the server count one ruling more per
    row than the record gives: verify names the function, as it names the log's own."""
    url = pg_server.fresh_url()
    with psycopg.connect(url, autocommit=True) as conn:
        (made,) = conn.execute(
            "SELECT pg_get_functiondef('dealer.record_sums(dealer.records)'::regprocedure)"
        ).fetchone() or ("",)
        conn.execute(
            str(made).replace("((s_seated > 0)::int)::bigint", "((s_seated > 0)::int + 1)::bigint")
        )  # type: ignore[arg-type]
    found = run("audit", "verify", "--db", url)
    assert (found.exit_code, found.stdout) == (
        1,
        "FAILED: 0 records, problems found\n  · the function dealer.record_sums(dealer.records) "
        "is not the one this software made (its body): someone changed it\n",
    )
    pg_server.drop(url)


def test_db_init_takes_the_terminals_add_sums_from_an_older_log(pg_server: PgServer) -> None:
    """A log of the schema before the server computed the sums holds the function a terminal
    sent its rows through: `dealer db init` removes it, and the log verifies."""
    url = pg_server.fresh_url()
    pg_server.sql(
        url.split("@/", 1)[1].split("?")[0],
        "CREATE FUNCTION dealer.add_sums(p_record_id bigint, p_rows text) RETURNS void "
        "LANGUAGE sql AS 'SELECT 1'",
        f"DELETE FROM dealer.schema_migrations WHERE version = {LATEST}",
    )
    assert run("db", "init", url).exit_code == 0
    checked = run("audit", "verify", "--db", url)
    assert (checked.exit_code, checked.stdout) == (0, "OK: 0 records, the hash chain verifies.\n")
    pg_server.drop(url)
