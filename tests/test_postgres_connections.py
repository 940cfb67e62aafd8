"""A process takes its PostgreSQL connection up again from one ruling to the next (a live
table, a batch file), and never one that is in a transaction, read-only for a writer, or gone."""

from __future__ import annotations

from urllib.parse import urlsplit

import psycopg
from pg_server import PgServer

from dealer.audit import entries, open_log
from dealer.audit.postgres import PostgresStorage
from dealer.audit.records import Entry

RULING = Entry(kind="ruling", user_id="floor_owner", role="dealer", table_id="PG-1", game="paigow")


def backend(log: PostgresStorage) -> int:
    row = log.conn.execute("SELECT pg_backend_pid()").fetchone()
    assert row is not None
    return int(row[0])


def test_the_next_open_takes_the_connection_up_again(pg_server: PgServer) -> None:
    url = pg_server.fresh_url()
    with open_log(url) as log:
        assert isinstance(log, PostgresStorage)
        first = backend(log)
        entries.append(log, RULING)
    with open_log(url) as log:
        assert isinstance(log, PostgresStorage)
        assert backend(log) == first
        assert log.head().records == 1


def test_a_reader_and_a_writer_never_share_a_connection(pg_server: PgServer) -> None:
    url = pg_server.fresh_url()
    with open_log(url, read_only=True) as log:
        assert isinstance(log, PostgresStorage)
        reading = backend(log)
    with open_log(url) as log:
        assert isinstance(log, PostgresStorage)
        assert backend(log) != reading
        entries.append(log, RULING)  # a writer's connection is never read-only


def test_another_log_gets_its_own_connection(pg_server: PgServer) -> None:
    one, other = pg_server.fresh_url(), pg_server.fresh_url()
    with open_log(one) as log:
        assert isinstance(log, PostgresStorage)
        first = backend(log)
    with open_log(other) as log:
        assert isinstance(log, PostgresStorage)
        assert backend(log) != first
        assert log.conn.info.dbname == urlsplit(other).path.lstrip("/")


def test_a_connection_the_server_dropped_is_replaced(pg_server: PgServer) -> None:
    url = pg_server.fresh_url()
    with open_log(url) as log:
        assert isinstance(log, PostgresStorage)
        dropped = backend(log)
    with psycopg.connect(url, autocommit=True) as admin:
        admin.execute("SELECT pg_terminate_backend(%s)", [dropped])
    with open_log(url) as log:
        assert isinstance(log, PostgresStorage)
        assert backend(log) != dropped
        entries.append(log, RULING)
        assert log.head().records == 1
