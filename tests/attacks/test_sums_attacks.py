"""Attacks on the floor's sums, the numbers per hour `dealer stats` reads, as a terminal's own
PostgreSQL login would make them: rows for any member, any hour, sent with a ruling the login
appends (Trust III). The server computes each ruling's rows itself, from the record it appends;
no terminal hands it any."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import cli
import psycopg
import pytest
from pg_server import PgServer

from dealer.audit import open_log, sign_ins, staff
from dealer.audit.records import RecordFilter, RecordKind, canonical_json, seats_of
from dealer.audit.sums import INTS, REALS, SumKey, SumRow, fields
from dealer.desk.floor_sums import DEALER, HOUSE, PATRON, RULINGS, TABLE, problems

PIN = "lantern-2468"
DEALER_CARDS = "Ks Kd 4c 4h As 9d 2c"
PLAYER = "Qs Qh Jc Jd 8s 3h 2d"
ROUNDS = "200"
"""Rounds of the base wager's simulated edge: `dealer stats` needs one; the figures compared
here do not depend on it."""

APPEND = (
    "SELECT id FROM dealer.append_record('ruling', 'paigow', 'settle', 'PG-1', %(seat)s, "
    "'d-104', 'dealer', %(input_text)s, %(cards)s, %(result)s, %(explanation)s, %(settings)s, "
    "NULL, NULL, %(software_version)s, %(seats)s, %(patrons)s)"
)
"""d-104's own ruling, sent straight to the server's append function."""

TERMINAL_FUNCTIONS = [
    "dealer.add_user(bigint,text,text,boolean,text)",
    "dealer.append_record(text,text,text,text,integer,text,text,text,text,text,text,text,"
    "bigint,text,text,integer[],text[])",
    "dealer.check_canonical(text,text,text,text)",
    "dealer.lock_log()",
    "dealer.open_secret(bigint)",
    "dealer.record_hash(dealer.records)",
    "dealer.submit_attempt(text,text)",
    "dealer.user_rows()",
]
"""Every function of the log a terminal's login may execute: none takes rows of sums."""


def forged(hour: str, grp: str, member: str, rulings: int, house: int) -> dict[str, Any]:
    """A row of sums as a caller would send it: `rulings` rulings and a house result of
    `house` cents for `member` of `grp` in `hour`."""
    values = [0] * INTS + [0.0] * REALS
    values[RULINGS], values[HOUSE] = rulings, house
    return fields(SumRow(SumKey(hour, grp, member, ""), tuple(values)))


@pytest.fixture
def floor(pg_server: PgServer) -> Iterator[str]:
    """A floor's log (its owner's URL): supervisor S1, dealers d-104 and d-105, d-105 signed in
    at PG-2, and one settle by d-105 there for patron P-1, made through the tool at d-105's own
    login."""
    url = pg_server.fresh_url()
    with open_log(url) as log:
        staff.add_user(log, "S1", "supervisor", pin=PIN)
        for dealer in ("d-104", "d-105"):
            staff.add_user(log, dealer, "dealer", pin=PIN, supervisor_id="S1", supervisor_pin=PIN)
        sign_ins.sign_in(log, "d-105", PIN, "PG-2")
    settled = cli.run(
        "paigow", "settle", "--dealer", DEALER_CARDS, "--player", PLAYER, "--wager", "25",
        "--treasure", "5", "--patron", "P-1", "--table", "PG-2", "--user", "d-105",
        "--db", pg_server.login(url, "d-105"),
    )  # fmt: skip
    assert settled.exit_code == 0, settled.output
    yield url
    pg_server.drop(url)


def stats(url: str, group: str, key: str) -> list[tuple[Any, ...]]:
    """`dealer stats GROUP --json`: each row's member, rulings, amount wagered and house
    result."""
    shown = cli.run("stats", group, "--rounds", ROUNDS, "--json", "--db", url)
    assert shown.exit_code == 0, shown.output
    rows = json.loads(shown.stdout)[group]
    return [(row[key], row["rulings"], row["wagered"], row["house_result"]) for row in rows]


def test_a_terminal_adds_no_row_the_server_did_not_compute(floor: str, pg_server: PgServer) -> None:
    """Trust III, "`dealer.add_sums` takes any rows for any member": d-104's own login appends
    a ruling (d-105's settle restated at PG-1) and sends rows with it: a $50,000 loss for
    d-105, a ruling and a loss for patron P-1, a table's result in another hour. Before the
    server computed the sums it checked only that the record was the login's newest, and
    `dealer stats` showed the rows at once (d-105 at -$49,995, d-104's ruling nowhere). Now no
    function a terminal may execute takes rows (those that write the sums are the server's,
    called by `append_record` alone), and the floor's sums and `dealer stats` are the
    records' own: both rulings as recorded, nothing else (d-104's made under no sign-in, so
    left out of the dealers' figures)."""
    with open_log(floor, read_only=True) as log:
        (genuine,) = log.records(RecordFilter(kind=RecordKind.RULING))
    seats = seats_of(genuine)
    made = {
        "seat": genuine.seat,
        "seats": [seat for seat, _ in seats],
        "patrons": [patron for _, patron in seats],
        "input_text": genuine.input_text,
        "cards": canonical_json(list(genuine.cards)),
        "result": canonical_json(genuine.result),
        "explanation": canonical_json(list(genuine.explanation)),
        "settings": canonical_json(
            {k: v for k, v in genuine.settings.items() if k != "sign_in"}  # d-104's: no sign-in
        ),
        "software_version": genuine.software_version,
    }
    hour = genuine.recorded_at[:13]
    rows = json.dumps(
        [
            forged(hour, DEALER, "d-105", 0, -5_000_000),
            forged(hour, PATRON, "P-1", 3, -1_200_000),
            forged("2026-01-01T10", TABLE, "PG-2", 40, 900_000),
        ]
    )
    added = []
    with psycopg.connect(pg_server.login(floor, "d-104"), autocommit=True) as conn:
        found = conn.execute(APPEND, made).fetchone()
        assert found is not None
        for sql, args in (
            ("SELECT dealer.add_sums(%s, %s)", [found[0], rows]),  # what terminals called before
            ("SELECT dealer.add_sums(r) FROM dealer.records r WHERE r.id = %s", [found[0]]),
            ("SELECT * FROM dealer.record_sums((SELECT r FROM dealer.records r LIMIT 1))", []),
        ):
            try:
                conn.execute(sql, args)  # type: ignore[arg-type]
                added.append(sql)
            except psycopg.errors.Error:
                pass
        executable = conn.execute(
            "SELECT p.oid::regprocedure::text FROM pg_proc p "
            "JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = 'dealer' "
            "AND has_function_privilege(p.oid, 'EXECUTE') ORDER BY 1"
        ).fetchall()
    assert stats(floor, "dealers", "user") == [("d-105", 1, 30, 5)]  # d-104's: no sign-in
    assert stats(floor, "patrons", "patron") == [("P-1", 2, 60, 10)]
    assert stats(floor, "tables", "table") == [("PG-1", 1, 30, 5), ("PG-2", 1, 30, 5)]
    with open_log(floor, read_only=True) as log:
        assert problems(log) == []
    assert added == []
    assert [name for (name,) in executable] == TERMINAL_FUNCTIONS
