"""Trust III, principle 4 (what a reader sees is what was signed), the attack as filed: "a list
line says +$12.50 where `audit show` says +$5,000". A dealer puts a settle on the log whose
result gives `total_net` twice, $12.50 first and $5,000 last: SQLite's JSON functions (which
`audit list`, `search` and the meters' indexes read) take the first, Python (`audit show`,
verify, the shift summary) the last, and verify said OK. A record's JSON is canonical, as
`records.canonical_json` writes it (keys sorted and each once, no spaces, characters as
themselves), or verify fails it, naming the record and the column; and what readers could read
apart is refused at the write — a key twice, and any other encoding, by the PostgreSQL server
for every login and the owner's copies. The SQLite file has no trigger for it (whoever holds
the file drops any trigger): a forgery written into it gets in and fails verify, named."""

from __future__ import annotations

import functools
import json
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path

import cli
import psycopg
import pytest
from log_reads import use
from pg_server import PgServer

from dealer.audit import open_log
from dealer.audit.chain import record_hash, seal
from dealer.audit.postgres import PostgresStorage
from dealer.audit.records import Entry, Record
from dealer.audit.verify import verify
from dealer.kernel.errors import AuditError

run = functools.partial(cli.run, whole=True)

TWICE = '{"base":{"net":12.5,"outcome":"win","wager":25},"total_net":12.5,"total_net":5000}'
"""A settle's result with `total_net` given twice: the list read +$12.50, `show` +$5,000."""

NOT_CANONICAL = {
    "cards": '["As", "Ks"]',
    "result": '{"rule":"trump-plaza \\/ v1","total_net":5}',
    "explanation": '["caf\\u00e9"]',
    "settings": '{"profile":"default","rules":{"wheel":"a","wheel":"b"}}',
}
"""One form of each JSON column the hash recipe never writes: a space, an escaped slash, an
escaped letter, a key twice in a nested object."""

OUT_OF_ORDER = '{"total_net":5,"base":{"net":5,"outcome":"win"}}'
"""A result whose keys are out of order: every reader takes the same values from it."""

NESTED_TWICE = '{"seats":[{"net":1,"net":2}],"total_net":3}'
"""A key twice deep in a result, where no database reads it."""

SETTLE = (
    "paigow", "settle", "--dealer", "Ks Kd 4c 4h As 9d 2c", "--player", "Qs Qh Jc Jd 8s 3h 2d",
    "--wager", "25", "--progressive-treasure", "1", "--table", "PG-1", "--user", "d-104",
)  # fmt: skip


def forged(where: Path | str, **columns: str) -> dict[str, object]:
    """A settle in d-104's name at PG-1 as whoever writes around the tool makes it: sealed by
    the published recipe as the record after the head, then its JSON `columns` put in as
    written and its hash computed again."""
    entry = Entry(
        kind="ruling", user_id="d-104", role="dealer", table_id="PG-1", game="paigow",
        action="settle", result={"total_net": 0},
    )  # fmt: skip
    with open_log(where) as log:
        row = seal(entry, log.head())
    row.update(columns)
    row["hash"] = record_hash(row)
    return row


def insert(path: Path, row: dict[str, object]) -> None:
    """`row` put into the SQLite file as its holder would: a plain connection, an INSERT."""
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        conn.execute(
            f"INSERT INTO records ({', '.join(row)}) VALUES ({', '.join('?' * len(row))})",
            list(row.values()),
        )
    finally:
        conn.close()


def written_around_the_tool(where: Path | str, row: dict[str, object]) -> None:
    """The SQLite file's holder's INSERT, or the PostgreSQL database owner's (its copy path)."""
    if isinstance(where, Path):
        insert(where, row)
        return
    with PostgresStorage.open(where) as log, log.transaction() as tx:
        tx.copy(row)


def records(where: Path | str) -> int:
    with open_log(where, read_only=True) as log:
        return log.head().records or 0


def read_alike(where: Path | str) -> Iterator[tuple[object, object]]:
    """Each value a list shows of every record (its glance: what the database takes out of the
    stored JSON), beside the same value as `audit show` reads it (the record parsed whole)."""
    with open_log(where, read_only=True) as log:
        whole = {record.id: record for record in log.records()}
        for glance in log.glances(sorted(whole)):
            record: Record = whole[glance.id]
            result, lines = record.result, record.explanation
            base = result.get("base")
            yield glance.total_net, result.get("total_net")
            yield glance.outcome, base.get("outcome") if isinstance(base, dict) else None
            for key in ("meter", "value", "delta", "previous"):
                yield getattr(glance, key), result.get(key)
            yield glance.first_line, lines[0] if lines else None


@pytest.fixture
def floor(pg_server: PgServer) -> Iterator[str]:
    """An empty floor log, as its owner."""
    url = pg_server.fresh_url()
    yield url
    pg_server.drop(url)


def test_a_dealer_login_cannot_append_a_record_whose_json_is_not_canonical(
    pg_server: PgServer, floor: str
) -> None:
    """The attack on the floor server: d-104's own login calls `dealer.append_record` with the
    settle whose result gives `total_net` twice, with each JSON column in a form the hash
    recipe never writes, and with a NUL escape or a lone surrogate (which no JSON function of
    the server reads). The server refuses every one; nothing is written."""
    append = (
        "SELECT id FROM dealer.append_record('ruling', 'paigow', 'settle', 'PG-1', NULL, "
        "'d-104', 'dealer', 'dealer Ks Kd 4c 4h As 9d 2c', %(cards)s, %(result)s, "
        "%(explanation)s, %(settings)s, NULL, NULL, '0.2.0', '{}', '{}')"
    )
    canonical = {"cards": "[]", "result": '{"total_net":0}', "explanation": "[]", "settings": "{}"}
    tried = [{**canonical, "result": TWICE}] + [
        {**canonical, column: text} for column, text in NOT_CANONICAL.items()
    ]
    unreadable = ('{"total_net":"\\u0000"}', '{"base":{"outcome":"\\ud800"}}')
    with psycopg.connect(pg_server.login(floor, "d-104"), autocommit=True) as conn:
        for columns in tried:
            with pytest.raises(psycopg.errors.InvalidTextRepresentation, match="not canonical"):
                conn.execute(append, columns)
        for text in unreadable:
            with pytest.raises(psycopg.DataError, match="Unicode"):
                conn.execute(append, {**canonical, "result": text})
        conn.execute(append, canonical)
    assert records(floor) == 1
    with open_log(floor, read_only=True) as log:
        assert verify(log).ok


def test_the_owners_copy_of_a_record_with_a_key_twice_is_refused(floor: str) -> None:
    """The attack by the PostgreSQL database's owner, copying the forged settle in (the path
    `audit copy` takes): the server refuses it, and every other form not canonical. Nothing is
    written."""
    with pytest.raises(AuditError, match="result column is not canonical"):
        written_around_the_tool(floor, forged(floor, result=TWICE))
    for column, text in NOT_CANONICAL.items():
        with pytest.raises(AuditError, match=f"{column} column is not canonical"):
            written_around_the_tool(floor, forged(floor, **{column: text}))
    assert records(floor) == 0


def test_a_forgery_written_into_the_file_fails_verify_naming_its_column(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The file's holder inserts the forged settle with a correct hash after a genuine one,
    and a key twice deep in a result: `audit verify` fails, naming each record and its
    column."""
    db = use(tmp_path / "audit.sqlite", monkeypatch)
    assert run(*SETTLE).exit_code == 0
    first = forged(db, result=TWICE)
    insert(db, first)
    second = forged(db, result=NESTED_TWICE)
    insert(db, second)
    checked = run("audit", "verify")
    assert checked.exit_code == 1
    assert checked.stdout.splitlines() == [
        f"FAILED: {second['id']} records, first bad record: {first['id']}",
        f"  · record {first['id']} (ruling): the result column is not canonical JSON: the key "
        "total_net is given twice",
        f"  · record {second['id']} (ruling): the result column is not canonical JSON: the key "
        "net is given twice",
    ]


def test_a_forgery_in_the_file_is_not_copied_anywhere(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The tool writes no record that is not canonical: `audit copy` from a file holding the
    forgery into another file is refused, as the source does not verify; nothing is copied."""
    db = use(tmp_path / "audit.sqlite", monkeypatch)
    assert run(*SETTLE).exit_code == 0
    insert(db, forged(db, result=TWICE))
    target = tmp_path / "copy.sqlite"
    copied = run("audit", "copy", str(db), str(target))
    assert copied.exit_code == 1
    assert copied.stdout == ""
    assert copied.stderr == (
        "Error: the log to copy does not verify (record 4 (ruling): the result column is not "
        "canonical JSON: the key total_net is given twice): nothing copied\n"
    )
    assert not target.exists() or records(target) == 0


def test_a_list_reads_every_record_that_gets_in_as_show_reads_it(
    log_at: Path | str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What the write lets in reads alike: after genuine rulings and meter moves, and (on
    SQLite) a forgery whose key twice sits deeper than any reader looks, every value a list
    shows of each record is the value `audit show` reads."""
    use(log_at, monkeypatch)
    assert run(*SETTLE).exit_code == 0
    if isinstance(log_at, Path):
        insert(log_at, forged(log_at, result=NESTED_TWICE))
    pairs = list(read_alike(log_at))
    assert pairs and all(listed == shown for listed, shown in pairs), pairs
    assert any(listed is not None for listed, _ in pairs)


def test_keys_out_of_order_read_alike_and_fail_verify(log_at: Path | str) -> None:
    """Decided: the write refuses what readers could read apart (a key twice) and every other
    encoding, but leaves the order of keys to verify (checking it at the write cost a tenth of
    a ruling): a result written around the tool with its keys out of order gets in, reads
    alike in a list and `show`, and fails verify, named."""
    row = forged(log_at, result=OUT_OF_ORDER)
    written_around_the_tool(log_at, row)
    pairs = list(read_alike(log_at))
    assert ("win", "win") in pairs and all(listed == shown for listed, shown in pairs)
    with open_log(log_at, read_only=True) as log:
        assert verify(log).problems == (
            f"record {row['id']} (ruling): the result column is not canonical JSON: it is not "
            "written as the hash recipe writes JSON (keys sorted, no spaces, characters as "
            "themselves)",
        )


@pytest.mark.parametrize("written", ["canonical", "spaced"])
def test_the_check_reads_json_as_the_hash_recipe_writes_it(
    written: str, new_log: Callable[[], Path | str]
) -> None:
    """The canonical form is the recipe's own encoding: every character a JSON text may hold
    written as Python writes it (a quote and a backslash escaped, control characters as
    `\\u001f`, the rest as themselves) is taken and verifies; the same with a space is refused
    by the server, and fails verify in a file."""
    value = {"a": '"\\\x1f/é\u2028😀', "b": None, "c": [1.5, -0.0, 10**20], "é": {}}
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    if written == "spaced":
        text = text.replace(",", ", ", 1)
    where = new_log()
    row = forged(where, result=text)
    if written == "spaced" and isinstance(where, str):
        with pytest.raises(AuditError, match="result column is not canonical"):
            written_around_the_tool(where, row)
        assert records(where) == 0
        return
    written_around_the_tool(where, row)
    with open_log(where, read_only=True) as log:
        assert verify(log).problems == (
            ()
            if written == "canonical"
            else (
                "record 1 (ruling): the result column is not canonical JSON: it is not written "
                "as the hash recipe writes JSON (keys sorted, no spaces, characters as "
                "themselves)",
            )
        )
