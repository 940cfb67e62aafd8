"""Linked progressives at the command line, on both backends: two tables' rulings move one
meter; `audit meter show` and `adjust` handle the link from any member table; a table whose
profile states other terms for the link is refused in one line, writing nothing; the shift
summary shows the link once, as the link; a bad link in a profile is the usual profile error;
the link's value is one indexed lookup; a PostgreSQL log of schema version 1 is upgraded."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from cli import run
from sqlite_file import migration, set_back
from typer.testing import Result

from dealer.audit import open_log
from dealer.audit.chain import Checkpoint
from dealer.audit.postgres_schema import LATEST
from dealer.games.paigow.profile import load_profile
from dealer.kernel.errors import ConfigError

PIN = "harbor-2468"
DEALER = "Ah Kh 9c 7h 5c 4c 2c"
PLAIN = "Js Jd Ac Qh 8s 5d 3h"
ROYAL = "8s 9s Ts Js Qs Ks As"
FLOOR = """name: floor
meters:
  progressive_treasure: {seed: 10000, contribution: 0.25, cap: 250000, link: FLOOR-ET-1}
"""
OTHER = """name: other
meters:
  progressive_treasure: {seed: 5000, contribution: 0.25, cap: 250000, link: FLOOR-ET-1}
"""


@pytest.fixture
def floor(log_at: Path | str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A log with supervisor S1 and two approved profiles naming link FLOOR-ET-1 (floor.yaml
    with the terms $10,000/$250,000, other.yaml with $5,000/$250,000); the folder they are in."""
    for name in ("DEALER_USER", "DEALER_TABLE", "DEALER_PIN", "DEALER_NEW_PIN", "DEALER_DB"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("DEALER_DB", str(log_at))
    monkeypatch.chdir(tmp_path)
    (tmp_path / "floor.yaml").write_text(FLOOR, encoding="utf-8")
    (tmp_path / "other.yaml").write_text(OTHER, encoding="utf-8")
    made = run("audit", "user", "add", "S1", "--role", "supervisor", "--new-pin", PIN)
    assert made.exit_code == 0, made.output
    for name in ("floor.yaml", "other.yaml"):
        approved = run(
            "audit", "approve-profile", name, "--reason", "the floor's link", "--supervisor",
            "S1", "--pin", PIN,
        )  # fmt: skip
        assert approved.exit_code == 0, approved.output
    return tmp_path


def settle(table: str, player: str = PLAIN, profile: str = "floor.yaml") -> Result:
    return run(
        "paigow",
        "settle",
        *("--dealer", DEALER, "--player", player, "--wager", "10"),
        *("--progressive-treasure", "1", "--table", table, "--user", "d-104"),
        *("--profile", profile, "--json"),
    )


def treasure(result: Result) -> tuple[float, float]:
    """The progressive treasure meter before and after a settle."""
    assert result.exit_code == 0, result.output
    meters = json.loads(result.stdout)["meters"]
    return meters["before"]["progressive_treasure"], meters["after"]["progressive_treasure"]


def head(db: Path | str) -> Checkpoint:
    with open_log(db, read_only=True) as log:
        return log.head()


def test_two_tables_move_one_meter(floor: Path, log_at: Path | str) -> None:
    assert treasure(settle("PG-1")) == (10000, 10000.25)
    assert treasure(settle("PG-2")) == (10000.25, 10000.5)
    assert treasure(settle("PG-1", ROYAL)) == (10000.5, 10000)  # 100%: paid, reset for all
    assert treasure(settle("PG-2")) == (10000, 10000.25)
    shown = run("audit", "meter", "show", "progressive_treasure", "--table", "PG-1", "--profile")
    assert shown.exit_code == 2  # --profile needs its file
    shown = run(
        "audit", "meter", "show", "progressive_treasure", "--table", "PG-1", "--profile",
        "floor.yaml",
    )  # fmt: skip
    assert (shown.exit_code, shown.stdout) == (
        0,
        "progressive_treasure at PG-1: $10,000.25 (linked: FLOOR-ET-1, shared by its tables; "
        "moved lately at PG-2, PG-1)\n",
    )
    as_json = run(
        "audit", "meter", "show", "progressive_treasure", "--table", "PG-9", "--profile",
        "floor.yaml", "--json",
    )  # fmt: skip
    assert json.loads(as_json.stdout) == {
        "table": "PG-9",
        "meter": "progressive_treasure",
        "value": 10000.25,
        "link": "FLOOR-ET-1",
        "tables": ["PG-2", "PG-1"],
    }
    # The table's own meter is not the link's: never set at PG-1.
    own = run("audit", "meter", "show", "progressive_treasure", "--table", "PG-1")
    assert (own.exit_code, own.stdout) == (0, "progressive_treasure at PG-1: not set\n")
    unlinked = run("audit", "meter", "show", "progressive_insurance", "--table", "PG-1")
    assert (unlinked.exit_code, unlinked.stdout) == (0, "progressive_insurance at PG-1: $5,000\n")
    with open_log(log_at, read_only=True) as log:
        moves = log.link_records("FLOOR-ET-1", 10)
    assert [(m.table_id, m.result) for m in reversed(moves)][:2] == [
        (
            "PG-1",
            {
                "meter": "progressive_treasure",
                "previous": None,
                "value": "10000.25",
                "delta": "10000.25",
                "link": "FLOOR-ET-1",
                "seed": "10000",
                "cap": "250000",
            },
        ),
        (
            "PG-2",
            {
                "meter": "progressive_treasure",
                "previous": "10000.25",
                "value": "10000.50",
                "delta": "0.25",
                "link": "FLOOR-ET-1",
                "seed": "10000",
                "cap": "250000",
            },
        ),
    ]
    assert run("audit", "verify").exit_code == 0


def test_other_terms_for_the_link_are_refused_writing_nothing(
    floor: Path, log_at: Path | str
) -> None:
    settle("PG-1")
    before = head(log_at)
    refused = run(
        "paigow", "settle", "--dealer", DEALER, "--player", PLAIN, "--wager", "10",
        "--progressive-treasure", "1", "--table", "PG-3", "--user", "d-104", "--profile",
        "other.yaml",
    )  # fmt: skip
    assert (refused.exit_code, refused.stdout, refused.stderr) == (
        1,
        "",
        "Error: meter progressive_treasure is linked as FLOOR-ET-1, whose seed/cap are "
        "$10,000/$250,000 (record 6), but this table's profile says $5,000/$250,000: every "
        "table of a link states its terms alike\n",
    )
    adjusted = run(
        "audit", "meter", "adjust", "progressive_treasure", "6000", "--reason", "count",
        "--table", "PG-3", "--profile", "other.yaml", "--supervisor", "S1", "--pin", PIN,
    )  # fmt: skip
    assert (adjusted.exit_code, adjusted.stderr) == (1, refused.stderr)
    assert head(log_at) == before


def test_a_supervisor_adjusts_the_link_from_any_member_table(
    floor: Path, log_at: Path | str
) -> None:
    settle("PG-1")
    adjust = ("audit", "meter", "adjust", "progressive_treasure")
    who = ("--profile", "floor.yaml", "--supervisor", "S1", "--pin", PIN)
    made = run(*adjust, "12000", "--reason", "count", "--table", "PG-2", *who)
    assert (made.exit_code, made.stdout) == (
        0,
        "progressive_treasure at PG-2 (link FLOOR-ET-1, shared by its tables) set to $12,000 "
        "(record 7).\n",
    )
    as_json = run(*adjust, "12500", "--reason", "count", "--table", "PG-2", *who, "--json")
    assert json.loads(as_json.stdout) == {
        "record_id": 8,
        "table": "PG-2",
        "meter": "progressive_treasure",
        "value": 12500,
        "link": "FLOOR-ET-1",
    }
    assert treasure(settle("PG-1")) == (12500, 12500.25)
    before = head(log_at)
    over = run(*adjust, "250000.01", "--reason", "count", "--table", "PG-2", *who)
    assert (over.exit_code, over.stderr) == (
        1,
        "Error: meter progressive_treasure of link FLOOR-ET-1 cannot be set to $250,000.01: a "
        "supervisor sets a meter between its seed and its cap, $10,000–$250,000\n",
    )
    assert head(log_at) == before
    summary = run("shift", "summary", "--table", "PG-2", "--profile", "floor.yaml", "--json")
    assert summary.exit_code == 0, summary.output
    data = json.loads(summary.stdout)
    assert "progressive_treasure" not in data["meters"]
    assert data["linked_meters"] == {
        "FLOOR-ET-1": {
            "meter": "progressive_treasure",
            "start": None,
            "contributions": 0,
            "hits": 0,
            "paid": 0,
            "reseeds": 0,
            "adjustments": 2499.75,
            "end": None,
            "unexplained": 0,
        }
    }
    text = run("shift", "summary", "--table", "PG-1", "--profile", "floor.yaml").stdout
    assert (
        "progressive treasure (link FLOOR-ET-1)  linked   $0.50            0 ($0)         "
        "$0         $0          linked"
    ) in text.splitlines()
    assert "not explained" not in text
    assert run("audit", "verify").exit_code == 0


@pytest.mark.parametrize(
    ("link", "problem"),
    [
        (
            "'bad link'",
            "'bad link' is not a link: null, or an id of letters, digits and . _ @ # - (up to "
            "64), such as FLOOR-ET-1",
        ),
        (
            "[7]",
            "['7'] is not a link: null, or an id of letters, digits and . _ @ # - (up to 64), such "
            "as FLOOR-ET-1",
        ),
        (
            "{a: 1}",
            "{'a': '1'} is not a link: null, or an id of letters, digits and . _ @ # - (up to "
            "64), such as FLOOR-ET-1",
        ),
    ],
)
def test_a_bad_link_is_a_profile_error(tmp_path: Path, link: str, problem: str) -> None:
    path = tmp_path / "p.yaml"
    path.write_text(f"meters:\n  progressive_treasure: {{link: {link}}}\n", encoding="utf-8")
    with pytest.raises(ConfigError) as raised:
        load_profile(path)
    assert str(raised.value) == f"profile {path}: meters.progressive_treasure.link: {problem}"


def test_one_profile_cannot_give_two_meters_one_link(tmp_path: Path) -> None:
    path = tmp_path / "p.yaml"
    path.write_text(
        "meters:\n  progressive_insurance: {link: L-1}\n  progressive_treasure: {link: L-1}\n",
        encoding="utf-8",
    )
    with pytest.raises(ConfigError) as raised:
        load_profile(path)
    assert str(raised.value) == (
        f"profile {path}: meters.progressive_treasure.link: L-1 is already the link of "
        "meters.progressive_insurance: each linked meter has a link of its own"
    )


def test_an_unlinked_profile_records_its_settings_as_before() -> None:
    meters = load_profile().settings()["meters"]
    assert meters["progressive_treasure"] == {"seed": 10000, "contribution": 0.25, "cap": 250000}


def test_the_links_value_is_one_indexed_lookup(log_at: Path | str) -> None:
    with open_log(log_at) as log:
        conn = log.conn  # type: ignore[attr-defined]
        if isinstance(log_at, str):
            conn.execute("SET enable_seqscan = off")  # a tiny table: ask for the plan at size
            mark, table, link = "%s", "dealer.records", "(result::json) ->> 'link'"
        else:
            mark, table, link = "?", "records", "json_extract(result, '$.link')"
        explain = "EXPLAIN" if isinstance(log_at, str) else "EXPLAIN QUERY PLAN"
        plan = conn.execute(
            f"{explain} SELECT * FROM {table} WHERE kind = 'meter' AND {link} = {mark} "
            "ORDER BY id DESC LIMIT 1",
            ["FLOOR-ET-1"],
        ).fetchall()
    assert "records_linked_meters" in " ".join(str(row) for row in plan)


def test_a_version_1_postgresql_log_is_upgraded_by_db_init(pg_server: object) -> None:
    url = pg_server.fresh_url()  # type: ignore[attr-defined]
    pg_server.sql(  # type: ignore[attr-defined]
        url.split("@/", 1)[1].split("?")[0],
        "DROP INDEX dealer.records_linked_meters",
        "DROP TABLE dealer.log_lock",
        "DROP TABLE dealer.secret_attempts",
        "DROP TABLE dealer.secret_guessers",
        "DROP TABLE dealer.settings_texts",
        "DROP FUNCTION dealer.record_sums(dealer.records)",
        "DROP TABLE dealer.floor_sums",
        "DROP TABLE dealer.floor_sums_from",
        "DROP TABLE dealer.floor_sums_of",
        "DELETE FROM dealer.schema_migrations WHERE version >= 2",
    )
    refused = run("audit", "verify", "--db", url)
    assert refused.exit_code == 1
    assert f"has schema version 1, older than this software's ({LATEST})" in refused.stderr
    upgraded = run("db", "init", url)
    assert (upgraded.exit_code, upgraded.stdout) == (
        0,
        f"upgraded the schema dealer from version 1 to {LATEST}\n"
        "granted dealer_app (terminals) and dealer_auditor (read-only)\n",
    )
    assert run("audit", "verify", "--db", url).exit_code == 0


def test_an_sqlite_log_from_before_linked_meters_gains_their_index_when_opened(
    tmp_path: Path,
) -> None:
    from dealer.audit.sqlite_schema import LATEST
    from dealer.audit.verify import verify

    db = tmp_path / "a.sqlite"
    with open_log(db):
        pass
    with sqlite3.connect(db) as conn:  # as the release before linked meters left it
        set_back(conn, migration("indexes: a linked progressive meter"))
    with open_log(db) as log:
        assert verify(log).ok
    with sqlite3.connect(db) as conn:
        index = "SELECT name FROM sqlite_master WHERE type = 'index' AND name = ?"
        assert conn.execute(index, ["records_linked_meters"]).fetchone() is not None
        assert conn.execute("PRAGMA user_version").fetchone() == (LATEST,)


def test_the_meter_book_names_the_link(floor: Path, log_at: Path | str) -> None:
    from dealer.cli.browse import pages
    from dealer.desk.records import RecordFilter
    from dealer.desk.supervision import meter_book

    settle("PG-1")
    rows = pages.meter_rows(meter_book(log_at, RecordFilter(table_id="PG-1")))
    assert [(r["record"].table_id, r["meter"], r["moved"]) for r in rows] == [
        ("PG-1", "progressive_insurance", "the profile's seed $5,000"),
        (
            "PG-1",
            "progressive_treasure (link FLOOR-ET-1)",
            "the profile's seed $10,000 + contributions $0.25",
        ),
    ]


def test_the_demo_refuses_a_profile_that_links_a_meter(floor: Path, log_at: Path | str) -> None:
    before = head(log_at)
    refused = run("demo", "--seed", "7", "--profile", "floor.yaml")
    assert (refused.exit_code, refused.stdout, refused.stderr) == (
        1,
        "",
        "Error: the demo deals at its own table with its own meters, and profile floor.yaml "
        "links progressive_treasure to FLOOR-ET-1: deal the demo without it\n",
    )
    assert head(log_at) == before
