"""`dealer audit …` through the CLI runner: exact output fragments, JSON keys, exit codes; `audit
show` opening with where a ruling stands (in effect, overridden, voided, disputed)."""

from __future__ import annotations

import functools
import json
import sqlite3
from collections.abc import Callable
from pathlib import Path

import cli
import pytest
from log_reads import head, kinds, use
from typer.testing import Result

from dealer.audit import entries, open_log
from dealer.audit.authority import guesser
from dealer.audit.glances import GLANCE_VALUES, Glance
from dealer.audit.records import Entry
from dealer.cli.audit.log import _listed
from dealer.desk.context import shown
from dealer.games.paigow.pay import PROGRESSIVES

PIN = "lantern-2468"


run = functools.partial(cli.run, group="audit")


@pytest.fixture
def db(dealer_db: Path | str) -> Path | str:
    """An empty log on each backend, named in DEALER_DB."""
    return dealer_db


@pytest.fixture
def sqlite_db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An SQLite log file, named in DEALER_DB, for what only a file can undergo: being missing,
    or being edited around the tool (PostgreSQL's counterparts: tests/test_audit_postgres.py)."""
    path = tmp_path / "audit.sqlite"
    use(path, monkeypatch)
    return path


def staff(db: Path | str) -> None:
    """S1 (bootstrap), S2, D1, A1 and three rulings at PG-1/PG-2 (records 5-7)."""
    assert run("user", "add", "S1", "--role", "supervisor", "--new-pin", PIN).exit_code == 0
    for user, role, extra in (
        ("S2", "supervisor", ["--new-pin", "harbor-1357"]),
        ("D1", "dealer", []),
        ("A1", "auditor", []),
    ):
        result = run(
            "user", "add", user, "--role", role, *extra, "--supervisor", "S1", "--pin", PIN
        )
        assert result.exit_code == 0, result.output
    with open_log(db) as log:
        for seat, table_id in ((1, "PG-1"), (2, "PG-1"), (3, "PG-2")):
            entries.append(
                log,
                Entry(
                    kind="ruling",
                    user_id="D1",
                    role="dealer",
                    table_id=table_id,
                    seat=seat,
                    game="paigow",
                    action="rank",
                    input_text="as ks",
                    cards=["As", "Ks"],
                    result={"category": "high-card"},
                    explanation=["Ace-king high"],
                    settings={"profile": "house"},
                ),
            )


@pytest.fixture(scope="module")
def staffed_once(new_log: Callable[[], Path | str]) -> Path | str:
    """The staffed log (`staff`) on each backend, built once for the module's tests to copy."""
    with pytest.MonkeyPatch.context() as patch:
        built = use(new_log(), patch)
        staff(built)
    return built


@pytest.fixture
def staffed(
    staffed_once: Path | str,
    copy_log: Callable[[Path | str], Path | str],
    monkeypatch: pytest.MonkeyPatch,
) -> Path | str:
    """A copy of the staffed log (`staff`) on each backend, named in DEALER_DB."""
    return use(copy_log(staffed_once), monkeypatch)


@pytest.fixture
def staffed_file(sqlite_db: Path) -> Path:
    """The staffed log (`staff`) in an SQLite file."""
    staff(sqlite_db)
    return sqlite_db


def test_reading_a_missing_database_fails(sqlite_db: Path) -> None:
    db = sqlite_db
    for args in (["list"], ["show", "1"], ["search"], ["verify"], ["export", "--format", "csv"]):
        result = run(*args)
        assert result.exit_code == 1
        assert result.stderr == f"Error: there is no audit database at {db}\n"
    assert not db.exists()


def from_a_newer_version(db: Path | str) -> int:
    """Mark the log at `db` as written by a newer version of dealer (as its owner would find
    it); return that version."""
    if isinstance(db, Path):
        from dealer.audit.sqlite_schema import LATEST

        with sqlite3.connect(db) as conn:
            conn.execute(f"PRAGMA user_version = {LATEST + 1}")
        conn.close()
        return LATEST + 1
    import psycopg

    from dealer.audit.postgres_schema import LATEST as PG_LATEST

    with psycopg.connect(db, autocommit=True) as conn:
        conn.execute(
            "INSERT INTO dealer.schema_migrations VALUES (%s, 'a newer dealer', 'then')",
            [PG_LATEST + 1],
        )
    return PG_LATEST + 1


def test_a_log_of_a_newer_version_is_refused_reading_or_writing(staffed: Path | str) -> None:
    newer = from_a_newer_version(staffed)
    said = (
        f"Error: the audit database {shown(staffed)} has schema version {newer}, newer than this "
        f"software knows ({newer - 1}): upgrade dealer\n"
    )
    for args in (["list"], ["verify"], ["checkpoint", "--user", "S1", "--pin", PIN]):
        result = run(*args)
        assert (result.exit_code, result.stdout, result.stderr) == (1, "", said)


def test_bootstrap_with_prompted_pin(db: Path | str) -> None:
    result = run("user", "add", "S1", "--role", "supervisor", stdin=f"{PIN}\n{PIN}\n")
    assert result.exit_code == 0, result.output
    assert "First supervisor S1 registered (bootstrap) as record 1." in result.stdout
    assert PIN not in result.stdout
    again = run("user", "add", "S9", "--role", "supervisor", "--new-pin", "harbor-1357")
    assert again.exit_code == 1
    assert again.stderr == "Error: this needs a supervisor: --supervisor ID (or DEALER_USER)\n"


def test_first_user_must_be_a_supervisor(db: Path | str) -> None:
    result = run("user", "add", "D1", "--role", "dealer")
    assert result.exit_code == 1
    assert (
        result.stderr
        == "Error: the first user of an audit database must be a supervisor (with a PIN)\n"
    )


def test_user_list_json(staffed: Path | str) -> None:
    result = run("user", "list", "--json")
    assert result.exit_code == 0
    listed = {u["user_id"]: (u["role"], u["has_pin"]) for u in json.loads(result.stdout)["users"]}
    assert listed == {
        "A1": ("auditor", False),
        "D1": ("dealer", False),
        "S1": ("supervisor", True),
        "S2": ("supervisor", True),
    }
    text = run("user", "list").stdout
    assert "S2      supervisor  active    yes" in text


def test_wrong_pin_refused_and_recorded(staffed: Path | str) -> None:
    result = run("void", "5", "--reason", "misdeal", "--supervisor", "S1", "--pin", "0000")
    assert (result.exit_code, result.stderr) == (1, "Error: wrong PIN for S1: void refused\n")
    assert kinds(staffed)[-1] == "access-denied"


def test_dealer_refused(staffed: Path | str) -> None:
    result = run(
        "override", "5", "--decision", "push", "--reason", "r", "--supervisor", "D1", "--pin", "1"
    )
    assert result.exit_code == 1
    assert result.stderr == "Error: D1 is a dealer: override needs a supervisor id and PIN\n"


def test_void_with_prompted_pin(staffed: Path | str) -> None:
    result = run("void", "5", "--reason", "misdeal", "--supervisor", "S1", stdin=f"{PIN}\n")
    assert result.exit_code == 0, result.output
    assert "Void recorded as record 8 (voids record 5)." in result.stdout
    shown = run("show", "5")
    assert "Referred to by:\n  #8 void paigow rank by S1, " in shown.stdout
    assert shown.stdout.rstrip().endswith(": misdeal")


def test_override_json_and_pin_from_env(
    staffed: Path | str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DEALER_PIN", "harbor-1357")
    monkeypatch.setenv("DEALER_USER", "S2")
    result = run(
        "override",
        "6",
        "--decision",
        "player wins",
        "--reason",
        "joker misread",
        "--result",
        '{"winner": 1}',
        "--json",
    )
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == {"record_id": 8, "overrides": 6}
    record = json.loads(run("show", "8", "--json").stdout)
    assert record["result"] == {"overrides": 6, "decision": "player wins", "result": {"winner": 1}}
    assert (record["user_id"], record["links_to"], record["linked"]) == ("S2", 6, [])


def test_override_result_must_be_an_object(staffed: Path | str) -> None:
    result = run(
        "override",
        "6",
        "--decision",
        "d",
        "--reason",
        "r",
        "--result",
        "[1]",
        "--supervisor",
        "S1",
        "--pin",
        PIN,
    )
    assert result.exit_code == 1
    assert result.stderr.startswith("Error: --result must be a JSON object")


def test_list_and_search(staffed: Path | str) -> None:
    listed = run("list", "--limit", "2")
    assert listed.exit_code == 0
    lines = listed.stdout.splitlines()
    assert lines[0].split() == [
        "#",
        "time",
        "(UTC)",
        "table",
        "seat",
        "user",
        "what",
        "summary",
    ]
    assert [line.split()[0] for line in lines[2:]] == ["6", "7"]
    assert "PG-2     3       D1 (dealer)  ruling paigow rank  Ace-king high" in listed.stdout
    found = json.loads(run("search", "--table", "PG-1", "--seat", "2", "--json").stdout)
    assert found["count"] == 1 and found["records"][0]["id"] == 6
    assert json.loads(run("search", "--id", "5", "--id", "7", "--json").stdout)["count"] == 2
    assert (
        json.loads(run("search", "--user", "S1", "--kind", "user", "--json").stdout)["count"] == 4
    )
    assert json.loads(run("search", "--until", "2000-01-01", "--json").stdout)["count"] == 0
    assert (
        json.loads(
            run("search", "--since", "2000-01-01T00:00Z", "--game", "paigow", "--json").stdout
        )["count"]
        == 3
    )
    assert run("search", "--game", "burosh").stdout == "No records.\n"
    bad = run("search", "--since", "last tuesday")
    assert bad.exit_code == 1 and bad.stderr.startswith(
        "Error: cannot read the time 'last tuesday'"
    )


def test_a_list_names_the_records_that_refer_to_each(staffed: Path | str) -> None:
    """Each record listed names the overrides, voids and disputes that refer to it (read for the
    whole list at once), not its meter moves: a meter record linked to the ruling is left out."""
    assert override_as_s1(6, "--result", '{"winner": 1}').exit_code == 0  # record 8
    assert dispute_about(5).exit_code == 0  # record 9
    with open_log(staffed) as log:
        meter = Entry(
            kind="meter",
            user_id="D1",
            role="dealer",
            table_id="PG-1",
            game="paigow",
            action="move",
            result={"meter": "progressive", "value": "1000.00"},
            links_to=5,
        )
        assert entries.append(log, meter) == 10
    rows = run("search", "--table", "PG-1").stdout.splitlines()[2:]
    assert [row.split()[0] for row in rows] == ["5", "6", "8", "9", "10"]
    assert rows[0].endswith("  Ace-king high (see dispute #9)")
    assert rows[1].endswith("  overridden #8: Ace-king high")  # the override leads it
    assert rows[4].endswith("  meter paigow move")


def test_a_list_leads_a_record_not_in_effect_with_its_status(staffed: Path | str) -> None:
    """A voided ruling reads `VOIDED #N:` first, an overridden one `overridden #N:`, one whose
    override was voided reads as in effect; an override voided itself reads `VOIDED`."""
    assert run("void", "5", "--reason", "misdeal", *SUPERVISED).exit_code == 0  # record 8
    assert override_as_s1(6).exit_code == 0  # record 9
    assert override_as_s1(7).exit_code == 0  # record 10
    assert run("void", "10", "--reason", "wrong record", *SUPERVISED).exit_code == 0  # 11
    ids = ("--id", "5", "--id", "6", "--id", "7", "--id", "10")
    rows = run("search", *ids, env={"COLUMNS": "200"}).stdout
    summaries = [row.split("  ")[-1] for row in rows.splitlines()[2:]]
    assert summaries == [
        "VOIDED #8: Ace-king high",
        "overridden #9: Ace-king high",
        "Ace-king high (see override #10)",
        "VOIDED #11: Ruling 7 overridden by supervisor S1: player wins",
    ]


def test_a_list_fits_the_terminal_and_never_cuts_money(staffed: Path | str) -> None:
    """`COLUMNS` sets the width: at 200 a long summary is whole; at 80 its words are cut, a
    net never is."""
    assert run("void", "5", "--reason", "misdeal", *SUPERVISED).exit_code == 0  # record 8
    wide = run("list", env={"COLUMNS": "200"}).stdout.splitlines()
    assert wide[-1].endswith("  Ruling 5 voided by supervisor S1")
    narrow = run("list", env={"COLUMNS": "80"}).stdout.splitlines()
    assert narrow[-1].endswith("…") and "Ruling 5 voided by supervisor S1" not in narrow[-1]
    with open_log(staffed) as log:
        entries.append(
            log,
            Entry(
                kind="ruling", user_id="D1", role="dealer", table_id="PG-1", seat=4,
                game="paigow", action="settle", input_text="", cards=[],
                result={"base": {"outcome": "win"}, "total_net": "1234567.25"},
                explanation=["a long line of reasons that will not fit in eighty columns"],
                settings={},
            ),
        )  # fmt: skip
    assert run("void", "9", "--reason", "misdeal", *SUPERVISED).exit_code == 0  # record 10
    shown = run("list", env={"COLUMNS": "80"}).stdout.splitlines()
    assert [line for line in shown if line.startswith("9 ")][0].endswith(
        "  VOIDED #10: win, net +$1,234,567.25"
    )


@pytest.mark.parametrize("limit", ["0", "-1", "1000000000000000000", "99999999999999999999"])
def test_a_limit_is_a_count_of_records(staffed: Path | str, limit: str) -> None:
    """A count no log can hold is refused before any read, the same on each backend."""
    for command in ("list", "search"):
        result = run(command, "--limit", limit)
        assert (result.exit_code, result.stdout, result.stderr) == (
            1,
            "",
            f"Error: --limit {limit}: give how many records, from 1 to 999,999,999,999,999,999\n",
        )
    assert run("list", "--limit", "999999999999999999").stdout.count("\n") == 9  # 7, 2 heads


def test_show(staffed: Path | str) -> None:
    result = run("show", "6")
    assert result.exit_code == 0
    assert result.stdout.startswith(
        "Record 6: ruling paigow rank\n  status     in effect\n  recorded   "
    )
    for fragment in (
        "  table      PG-1   seat 2\n",
        "  user       D1 (dealer)\n",
        "  input      as ks\n",
        "  cards      A♠ K♠\n",
        "Result:\n  category  high-card\n",
        "Why:\n  · Ace-king high\n",
    ):
        assert fragment in result.stdout
    assert "{" not in result.stdout
    missing = run("show", "99")
    assert (missing.exit_code, missing.stderr) == (1, "Error: there is no audit record 99\n")


def test_verify_json_ok(staffed: Path | str) -> None:
    result = run("verify", "--json")
    assert result.exit_code == 0
    out = json.loads(result.stdout)
    assert {k: out[k] for k in ("ok", "records", "first_bad")} == {
        "ok": True,
        "records": 7,
        "first_bad": None,
    }
    assert run("verify").stdout == "OK: 7 records, the hash chain verifies.\n"


def tamper(db: Path, sql: str) -> None:
    conn = sqlite3.connect(db, isolation_level=None)
    conn.execute("DROP TRIGGER records_no_update")
    conn.execute("DROP TRIGGER records_no_delete")
    conn.execute(sql)
    conn.close()


def test_verify_json_names_first_bad(staffed_file: Path) -> None:
    tamper(staffed_file, """UPDATE records SET result = '{"category":"five-aces"}' WHERE id = 6""")
    result = run("verify", "--json")
    assert result.exit_code == 1
    out = json.loads(result.stdout)
    assert (out["ok"], out["records"], out["first_bad"]) == (False, 7, 6)
    assert json.loads(result.stderr) == {
        "error": "the audit log does not verify: record 6 was changed after it was written",
        "exit": 1,
    }
    human = run("verify")
    assert human.stdout.startswith(
        "FAILED: 7 records, first bad record: 6\n  · record 6 was changed after it was written\n"
    )


@pytest.mark.parametrize("column", ["result", "explanation"])
def test_a_list_names_a_record_whose_json_cannot_be_read(staffed_file: Path, column: str) -> None:
    """A record changed outside the tool into text that is no JSON: a list that would show it
    stops at it with one line naming it (as `audit show` does); one without it answers."""
    tamper(staffed_file, f"UPDATE records SET {column} = '[broken' WHERE id = 6")
    listed = run("list")
    assert (listed.exit_code, listed.stdout) == (1, "")
    assert listed.stderr == "Error: audit record 6 is damaged: its stored JSON cannot be read\n"
    assert run("search", "--id", "7").exit_code == 0


def keep_checkpoint(kept: Path) -> str:
    """Take a checkpoint as S1 into the file `kept` (record 8); return its line."""
    made = run("checkpoint", "--user", "S1", "--pin", PIN, "-o", str(kept))
    assert made.exit_code == 0, made.output
    line = kept.read_text().strip()
    assert f"checkpoint {line}\n" in made.stdout and "records    8\n" in made.stdout
    return line


def test_a_checkpoint_kept_outside(staffed: Path | str, tmp_path: Path) -> None:
    kept = tmp_path / "shift-close.txt"
    line = keep_checkpoint(kept)
    assert line.startswith("8:") and len(line) == 66
    for given in (str(kept), line):
        assert (
            run("verify", "--checkpoint", given).stdout
            == "OK: 8 records, the hash chain verifies against 1 checkpoint.\n"
        )


def test_checkpoint_then_truncation(staffed_file: Path, tmp_path: Path) -> None:
    kept = tmp_path / "shift-close.txt"
    line = keep_checkpoint(kept)
    tamper(staffed_file, "DELETE FROM records WHERE id >= 7")
    assert run("verify").exit_code == 1  # triggers gone
    for given in (str(kept), line):
        result = run("verify", "--checkpoint", given, "--json")
        assert result.exit_code == 1
        out = json.loads(result.stdout)
        assert (out["ok"], out["records"], out["first_bad"]) == (False, 6, 7)


def test_an_auditors_checkpoint_is_signed(
    staffed: Path | str, monkeypatch: pytest.MonkeyPatch
) -> None:
    given = run(
        "user", "set", "A1", "--new-pin", "ledger-86420", "--supervisor", "S1", "--pin", PIN
    )
    assert given.exit_code == 0, given.output  # record 8: A1's key
    monkeypatch.setenv("DEALER_PIN", "ledger-86420")
    result = run("checkpoint", "--user", "A1", "--json")
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert (out["records"], out["record_id"]) == (9, 9)
    assert out["checkpoint"] == f"9:{out['head_hash']}"
    shown = json.loads(run("show", "9", "--json").stdout)
    key = json.loads(run("show", "8", "--json").stdout)["result"]["key"]
    assert (shown["user_id"], shown["role"]) == ("A1", "auditor")
    assert shown["settings"]["signature"]["key"] == key
    assert run("verify").stdout == "OK: 9 records, the hash chain verifies.\n"


def test_a_checkpoint_pin_is_asked_hidden(staffed: Path | str) -> None:
    result = run("checkpoint", "--user", "S1", stdin=PIN + "\n")
    assert (result.exit_code, result.stdout.splitlines()[:2]) == (
        0,
        ["PIN for S1: ", "records    8"],
    )


@pytest.mark.parametrize(
    ("maker", "pin", "said", "recorded"),
    [
        ("D1", PIN, "D1 is a dealer: checkpoint needs a supervisor or auditor id and PIN", True),
        (
            "bob",
            PIN,
            "user bob is not a registered supervisor or auditor: checkpoint needs the id and PIN "
            "of an active supervisor or auditor",
            False,
        ),
        ("S1", "wrong-pin!", "wrong PIN for S1: checkpoint refused", True),
    ],
)
def test_a_checkpoint_is_refused_in_one_line(
    staffed: Path, tmp_path: Path, maker: str, pin: str, said: str, recorded: bool
) -> None:
    kept = tmp_path / "shift.chk"
    result = run("checkpoint", "--user", maker, "--pin", pin, "-o", str(kept))
    assert (result.exit_code, result.stdout, result.stderr) == (1, "", f"Error: {said}\n")
    assert not kept.exists()
    assert kinds(staffed)[7:] == (["access-denied"] if recorded else [])


def test_bad_checkpoint_argument(staffed: Path | str) -> None:
    result = run("verify", "--checkpoint", "not-a-hash")
    assert result.exit_code == 1
    assert result.stderr.startswith("Error: checkpoint 'not-a-hash': no checkpoint found")


def test_export(staffed: Path | str, tmp_path: Path) -> None:
    out = run("export", "--format", "jsonl", "--table", "PG-1")
    assert out.exit_code == 0
    rows = [json.loads(line) for line in out.stdout.splitlines()]
    assert [r["id"] for r in rows] == [5, 6] and len(rows[0]["hash"]) == 64
    target = tmp_path / "audit.csv"
    written = run("export", "--format", "csv", "-o", str(target))
    assert written.stderr == f"7 records written to {target}\n"
    assert target.read_text().startswith("id,recorded_at,kind,")
    bad = run("export", "--format", "xml")
    assert (bad.exit_code, bad.stderr) == (
        1,
        "Error: export format 'xml' is not one of csv, jsonl\n",
    )


def test_dispute_flow(staffed: Path | str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DEALER_TABLE", "PG-1")
    opened = run(
        "dispute",
        "open",
        "short pay on the bonus",
        "--seat",
        "2",
        "--time",
        "2026-05-09T14:05",
        "--party",
        "patron seat 2",
        "--party",
        "D1",
        "--video",
        "cam 12",
        "--ruling",
        "6",
        "--user",
        "D1",
    )
    assert (opened.exit_code, opened.stdout) == (0, "Dispute 8 opened at table PG-1.\n")
    listed = run("dispute", "list")
    assert (
        "8    2026-05-09T14:05:00Z  PG-1     2       patron seat 2, D1  cam 12   6          "
        "short pay on the bonus  OPEN" in listed.stdout
    )
    resolved = run(
        "dispute",
        "resolve",
        "8",
        "--outcome",
        "dealer-error",
        "--amount",
        "25",
        "--reviewer",
        "S1",
        "--reviewer-pin",
        PIN,
        "--reason",
        "video confirms",
        "--supervisor",
        "S2",
        "--pin",
        "harbor-1357",
        "--json",
    )
    assert resolved.exit_code == 0, resolved.output
    out = json.loads(resolved.stdout)
    assert (out["record_id"], out["id"], out["open"]) == (9, 8, False)
    assert (
        out["resolution"]["outcome"] == "dealer-error"
        and out["resolution"]["amount_adjusted"] == 25
    )
    assert run("dispute", "list").stdout == "No open disputes.\n"
    assert json.loads(run("dispute", "list", "--all", "--json").stdout)["count"] == 1


def resolve(amount: str, *signed: str) -> Result:
    return run(
        "dispute",
        "resolve",
        "8",
        "--outcome",
        "dealer-error",
        "--amount",
        amount,
        "--reviewer",
        "S1",
        "--reviewer-pin",
        PIN,
        "--reason",
        "video confirms",
        *(signed or ("--supervisor", "S2", "--pin", "harbor-1357")),
    )


def correct(amount: str, *signed: str) -> Result:
    return run(
        "dispute",
        "correct",
        "8",
        "--amount",
        amount,
        "--reviewer",
        "S1",
        "--reviewer-pin",
        PIN,
        "--reason",
        "typed 2500 for 25",
        *(signed or ("--supervisor", "S2", "--pin", "harbor-1357")),
    )


FORM = "use digits with at most one decimal point and two decimals, e.g. 25, 12.50 or $25"


@pytest.mark.parametrize(
    ("amount", "signed", "message"),
    [
        ("1e400", (), "the amount adjusted '1e400' is not an amount: " + FORM),
        (
            "-10000000.01",
            (),
            "the amount adjusted '10000000.01' is more than $10,000,000, the most allowed",
        ),
        (
            "25.001",
            (),
            "the amount adjusted '25.001' is not an amount: amounts are whole cents (at most two "
            "decimals)",
        ),
        ("ten", (), "the amount adjusted 'ten' is not an amount: " + FORM),
        (
            "25",
            ("--supervisor", "sup-7", "--pin", PIN),
            "user sup-7 is not a registered supervisor: {action} needs the id and PIN of an "
            "active supervisor",
        ),
    ],
)
def test_dispute_amounts_are_bounded(
    staffed: Path, amount: str, signed: tuple[str, ...], message: str
) -> None:
    assert run("dispute", "open", "short pay", "--table", "PG-1", "--user", "D1").exit_code == 0
    before = head(staffed)
    refused = resolve(amount, *signed)
    assert (refused.exit_code, refused.stdout, refused.stderr) == (
        1,
        "",
        f"Error: {message.format(action='dispute-resolve')}\n",
    )
    assert head(staffed) == before
    assert resolve("2500").exit_code == 0
    before = head(staffed)
    refused = correct(amount, *signed)
    assert (refused.exit_code, refused.stdout, refused.stderr) == (
        1,
        "",
        f"Error: {message.format(action='dispute-correct')}\n",
    )
    assert head(staffed) == before


REVIEW = "second review of resolving a dispute"


@pytest.mark.parametrize(
    ("reviewer", "pin", "written"),
    [
        ("S1", "0000", "wrong PIN for S1: " + REVIEW + " refused"),
        ("A1", PIN, "A1 is an auditor: " + REVIEW + " needs a supervisor id and PIN"),
        ("D1", PIN, "D1 is a dealer: " + REVIEW + " needs a supervisor id and PIN"),
    ],
)
def test_a_reviewer_refused_is_on_the_record(
    staffed: Path, reviewer: str, pin: str, written: str
) -> None:
    """A registered reviewer who cannot confirm (a wrong PIN, not a supervisor) is refused in one
    line, an `access-denied` record in the name of who typed it naming them, and the dispute
    stays open."""
    assert run("dispute", "open", "short pay", "--table", "PG-1", "--user", "D1").exit_code == 0
    refused = run(
        "dispute", "resolve", "8", "--outcome", "no-error", "--reason", "video",
        "--reviewer", reviewer, "--reviewer-pin", pin, "--supervisor", "S2", "--pin", "harbor-1357",
    )  # fmt: skip
    assert (refused.exit_code, refused.stdout, refused.stderr) == (1, "", f"Error: {written}\n")
    denied = json.loads(run("show", "9", "--json").stdout)
    with open_log(staffed) as log:
        typed = guesser(log)
    assert (denied["kind"], denied["user_id"], denied["action"], denied["reason"]) == (
        "access-denied",
        typed,
        REVIEW,
        written,
    )
    assert denied["result"]["target"] == reviewer
    assert json.loads(run("dispute", "list", "--json").stdout)["count"] == 1


@pytest.mark.parametrize(
    ("reviewer", "written"),
    [
        ("S2", "the second reviewer must be someone other than the resolving supervisor"),
        (
            "sup-9",
            "user sup-9 is not a registered supervisor: " + REVIEW + " needs the id and PIN of "
            "an active supervisor",
        ),
    ],
)
def test_a_reviewer_who_is_no_one_else_writes_nothing(
    staffed: Path, reviewer: str, written: str
) -> None:
    assert run("dispute", "open", "short pay", "--table", "PG-1", "--user", "D1").exit_code == 0
    before = head(staffed)
    refused = run(
        "dispute", "resolve", "8", "--outcome", "no-error", "--reason", "video",
        "--reviewer", reviewer, "--reviewer-pin", "harbor-1357",
        "--supervisor", "S2", "--pin", "harbor-1357",
    )  # fmt: skip
    assert (refused.exit_code, refused.stdout, refused.stderr) == (1, "", f"Error: {written}\n")
    assert head(staffed) == before


def test_the_reviewer_pin_is_asked_hidden_or_read_from_the_environment(
    staffed: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert run("dispute", "open", "short pay", "--table", "PG-1", "--user", "D1").exit_code == 0
    args = ("--reviewer", "S1", "--reason", "video", "--supervisor", "S2", "--pin", "harbor-1357")
    asked = run("dispute", "resolve", "8", "--outcome", "no-error", *args, stdin=f"{PIN}\n")
    assert (asked.exit_code, asked.stdout) == (
        0,
        "PIN for second reviewer S1: \nDispute 8 resolved (no-error) as record 9.\n",
    )
    monkeypatch.setenv("DEALER_REVIEWER_PIN", PIN)
    corrected = run("dispute", "correct", "8", "--amount", "5", *args)
    assert (corrected.exit_code, corrected.stdout) == (
        0,
        "Dispute 8: amount adjusted corrected as record 10.\n",
    )


def test_dispute_amount_corrected_by_a_linked_record(staffed: Path | str) -> None:
    assert run("dispute", "open", "short pay", "--table", "PG-1", "--user", "D1").exit_code == 0
    assert resolve("2500").stdout == "Dispute 8 resolved (dealer-error) as record 9.\n"
    corrected = correct("-25")
    assert (corrected.exit_code, corrected.stdout) == (
        0,
        "Dispute 8: amount adjusted corrected as record 10.\n",
    )
    shown = run("show", "8").stdout.splitlines()
    assert shown[-3] == "Referred to by:"
    assert shown[-1].startswith("  #10 dispute-correction amount by S2, ")
    assert shown[-1].endswith("Z: typed 2500 for 25")
    listed = json.loads(run("dispute", "list", "--all", "--json").stdout)["disputes"][0]
    resolution = listed["resolution"]
    assert resolution["amount_adjusted"] == -25
    assert [
        (c["record_id"], c["previous"], c["amount_adjusted"]) for c in resolution["corrections"]
    ] == [(10, 2500, -25)]
    again = correct("-25", "--supervisor", "S2", "--pin", "harbor-1357", "--json")
    assert (again.exit_code, json.loads(again.stderr)) == (
        1,
        {"error": "the amount adjusted of dispute 8 is already -$25", "exit": 1},
    )
    assert kinds(staffed)[7:] == ["dispute", "dispute-resolution", "dispute-correction"]


SUPERVISED = ("--supervisor", "S1", "--pin", PIN)
NOT_UTF8 = "bad \udcff byte"
"""A command-line argument holding a byte that is not UTF-8, as Python receives it."""
CONTROL = "a newline, tab, ESC…): write it on one line in plain characters"


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (
            ("void", "5", "--reason", NOT_UTF8, *SUPERVISED),
            f"--reason 'bad \\udcff byte' has a control character ({CONTROL}",
        ),
        (
            ("dispute", "open", NOT_UTF8, "--table", "PG-1", "--user", "D1"),
            f"the dispute's description 'bad \\udcff byte' has a control character ({CONTROL}",
        ),
        (
            ("override", "5", "--decision", "d", "--reason", "r", "--result", '{"a": "\\ud800"}',
             *SUPERVISED),
            "--result must be a JSON object, e.g. '{\"winner\": 1}'",
        ),
    ],
)  # fmt: skip
def test_text_that_is_not_unicode_is_refused_in_one_line(
    staffed: Path | str, args: tuple[str, ...], said: str
) -> None:
    """It could be neither signed, hashed nor stored: it failed as an unexpected error."""
    before = head(staffed)
    result = run(*args)
    assert (result.exit_code, result.stdout, result.stderr) == (1, "", f"Error: {said}\n")
    assert head(staffed) == before


def test_dispute_needs_a_table(staffed: Path | str) -> None:
    result = run("dispute", "open", "x", "--user", "D1")
    assert (result.exit_code, result.stderr) == (
        1,
        "Error: a dispute needs its table: --table ID (or DEALER_TABLE)\n",
    )


def test_meter_adjust_and_show(staffed: Path | str) -> None:
    assert (
        run("meter", "show", "progressive_treasure", "--table", "PG-1").stdout
        == "progressive_treasure at PG-1: not set\n"
    )
    made = run(
        "meter",
        "adjust",
        "progressive_treasure",
        "10000.00",
        "--reason",
        "reseed",
        "--table",
        "PG-1",
        "--supervisor",
        "S1",
        "--pin",
        PIN,
    )
    assert (made.exit_code, made.stdout) == (
        0,
        "progressive_treasure at PG-1 set to $10,000 (record 8).\n",
    )
    shown = json.loads(
        run("meter", "show", "progressive_treasure", "--table", "PG-1", "--json").stdout
    )
    assert shown == {"table": "PG-1", "meter": "progressive_treasure", "value": 10000}
    assert run("meter", "show", "progressive_treasure", "--table", "PG-1").stdout == (
        "progressive_treasure at PG-1: $10,000\n"
    )
    bogus = run("meter", "show", "treasure", "--table", "PG-1")
    assert (bogus.exit_code, bogus.stderr) == (
        1,
        f"Error: there is no meter 'treasure': the meters are {', '.join(PROGRESSIVES)}\n",
    )
    refused = run(
        "meter",
        "adjust",
        "progressive_treasure",
        "10000",
        "--reason",
        "r",
        "--table",
        "PG-1",
        "--supervisor",
        "D1",
        "--pin",
        "x",
    )
    assert refused.stderr == "Error: D1 is a dealer: meter-adjust needs a supervisor id and PIN\n"


def test_user_set(staffed: Path | str) -> None:
    result = run("user", "set", "D1", "--disable", "--supervisor", "S1", "--pin", PIN, "--json")
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert (out["user_id"], out["active"], out["record_id"]) == ("D1", False, 8)
    pin = run(
        "user",
        "set",
        "S2",
        "--set-pin",
        "--supervisor",
        "S2",
        "--pin",
        "harbor-1357",
        stdin="copper-8642\ncopper-8642\n",
    )
    assert pin.stdout.endswith("User S2 changed (record 9).\n")
    voided = run("void", "5", "--reason", "r", "--supervisor", "S2", "--pin", "copper-8642")
    assert voided.exit_code == 0
    nothing = run("user", "set", "D1", "--supervisor", "S1", "--pin", PIN)
    assert nothing.stderr == "Error: nothing to change: give a role, a PIN or active/disabled\n"


def test_user_ids_are_checked(staffed: Path | str) -> None:
    bad = run("user", "add", "D 2", "--role", "dealer", "--supervisor", "S1", "--pin", PIN)
    assert (bad.exit_code, bad.stderr) == (
        1,
        "Error: user id 'D 2' is not valid: use letters, digits and . _ @ - (up to 64)\n",
    )
    assert "D 2" not in run("user", "list").stdout


def first(shown: Result, lines: int) -> list[str]:
    assert shown.exit_code == 0, shown.output
    return shown.stdout.splitlines()[:lines]


def status_of(record: int) -> dict[str, object]:
    return json.loads(run("show", str(record), "--json").stdout)["status"]


def override_as_s1(record: int, *result: str) -> Result:
    return run(
        "override",
        str(record),
        "--decision",
        "player wins",
        "--reason",
        "misread",
        *result,
        *SUPERVISED,
    )


def dispute_about(record: int) -> Result:
    return run(
        "dispute", "open", "short pay", "--table", "PG-1", "--ruling", str(record), "--user", "D1"
    )


def test_a_ruling_in_effect(staffed: Path | str) -> None:
    assert first(run("show", "6"), 3) == [
        "Record 6: ruling paigow rank",
        "  status     in effect",
        "  recorded   " + json.loads(run("show", "6", "--json").stdout)["recorded_at"][:19] + "Z",
    ]
    assert status_of(6) == {
        "state": "in effect",
        "by": None,
        "decision": None,
        "result": {"category": "high-card"},
        "disputes": [],
        "signoff": None,
    }


def test_an_overridden_ruling_shows_the_supervisors_decision(staffed: Path | str) -> None:
    assert override_as_s1(6, "--result", '{"winner": 1}').exit_code == 0
    assert first(run("show", "6"), 4) == [
        "Record 6: ruling paigow rank",
        "  status     overridden by #8",
        "  decision   player wins",
        "  in effect  winner 1",
    ]
    assert status_of(6) == {
        "state": "overridden",
        "by": 8,
        "decision": "player wins",
        "result": {"winner": 1},
        "disputes": [],
        "signoff": None,
    }
    assert first(run("show", "8"), 3) == [
        "Record 8: override paigow rank",
        "  status     in effect",
        "  decision   player wins",
    ]


def test_a_voided_override_puts_the_ruling_back_in_effect(staffed: Path | str) -> None:
    assert override_as_s1(6).exit_code == 0
    assert run("void", "8", "--reason", "wrong record", *SUPERVISED).exit_code == 0
    shown = first(run("show", "8"), 3)
    assert shown[:2] == ["Record 8: override paigow rank", "  status     voided by #9"]
    assert shown[2].startswith("  recorded   ")
    assert first(run("show", "6"), 2)[1] == "  status     in effect"


def test_a_voided_ruling_has_nothing_in_effect(staffed: Path | str) -> None:
    assert run("void", "5", "--reason", "misdeal", *SUPERVISED).exit_code == 0
    shown = first(run("show", "5"), 3)
    assert shown[:2] == ["Record 5: ruling paigow rank", "  status     voided by #8"]
    assert shown[2].startswith("  recorded   ")
    assert status_of(5) == {
        "state": "voided",
        "by": 8,
        "decision": None,
        "result": None,
        "disputes": [],
        "signoff": None,
    }


def test_an_open_then_resolved_dispute(staffed: Path | str) -> None:
    assert dispute_about(6).exit_code == 0
    assert first(run("show", "6"), 2)[1] == "  status     in effect; disputed (open, dispute #8)"
    assert status_of(6)["disputes"] == [{"dispute": 8, "open": True, "outcome": None}]
    resolved = run(
        "dispute",
        "resolve",
        "8",
        "--outcome",
        "dealer-error",
        "--amount",
        "25",
        "--reviewer",
        "S1",
        "--reviewer-pin",
        PIN,
        "--reason",
        "video confirms",
        "--supervisor",
        "S2",
        "--pin",
        "harbor-1357",
    )
    assert resolved.exit_code == 0, resolved.output
    assert first(run("show", "6"), 2)[1] == (
        "  status     in effect; disputed (resolved as dealer-error, dispute #8)"
    )
    assert status_of(6)["disputes"] == [{"dispute": 8, "open": False, "outcome": "dealer-error"}]


def test_a_dispute_names_every_ruling_it_lists(staffed: Path | str) -> None:
    opened = run(
        "dispute",
        "open",
        "short pay",
        "--table",
        "PG-1",
        "--ruling",
        "5",
        "--ruling",
        "6",
        "--user",
        "D1",
    )
    assert opened.exit_code == 0
    assert first(run("show", "6"), 2)[1] == "  status     in effect; disputed (open, dispute #8)"


def test_a_record_that_is_not_a_ruling_has_no_status(staffed: Path | str) -> None:
    assert first(run("show", "1"), 2)[1].startswith("  recorded   ")
    assert status_of(1) is None


def test_an_override_stands_as_its_ruling_does(staffed: Path | str) -> None:
    assert override_as_s1(6).exit_code == 0
    assert override_as_s1(6, "--result", '{"winner": 2}').exit_code == 0
    assert first(run("show", "8"), 4) == [
        "Record 8: override paigow rank",
        "  status     overridden by #9",
        "  decision   player wins",
        "  in effect  winner 2",
    ]
    assert run("void", "6", "--reason", "misdeal", *SUPERVISED).exit_code == 0
    assert first(run("show", "9"), 2)[1] == "  status     ruling voided by #10"
    assert status_of(9) == {
        "state": "ruling voided",
        "by": 10,
        "decision": None,
        "result": None,
        "disputes": [],
        "signoff": None,
    }


def glance(kind: str = "ruling", action: str = "round", **values: object) -> Glance:
    fields: dict[str, object] = dict.fromkeys(GLANCE_VALUES[1:-2])
    fields.update(first_line="first line", input_text="as typed", seats=(1, 3))
    fields.update(values)
    return Glance(9, "t", kind, "paigow", action, "PG-1", "d-104", "dealer", **fields)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("seen", "said"),
    [
        (glance(total_net=16.5), "2 seats, players +$16.50"),
        (glance(total_net="-4", seats=(2,)), "1 seat, players -$4"),
        (glance(action="settle", total_net=5500, outcome="win"), "win, net +$5,500"),
        (glance(action="settle", total_net=5500), "first line"),
        (glance(total_net="lots"), "first line"),
        (glance(total_net=16.5, seats=()), "first line"),
        (glance(kind="void", total_net=16.5), "first line"),
        (glance(total_net="lots", first_line=None), "as typed"),
        (
            glance(
                "meter", "move", meter="progressive", value="10.25", delta="0.25", previous="10"
            ),
            "progressive +$0.25 → $10.25",
        ),  # fmt: skip
        (
            glance("meter", "adjust", meter="progressive", value=12000, delta=2000, previous=10000),
            "progressive set to $12,000",
        ),  # fmt: skip
        (
            glance("meter", "move", meter="progressive", value=5000, delta=5000),
            "progressive starts $5,000",
        ),  # fmt: skip
        (glance("meter", "move", meter="progressive", value=None, delta=1), "first line"),
    ],
)
def test_a_lists_summary_says_what_the_glance_holds(seen: Glance, said: str) -> None:
    """A value that is none or no number never stops a list: the line falls back to the
    record's first line of explanation, then its input."""
    assert _listed(seen, 1000) == said


def test_a_refused_first_user_leaves_no_log_behind(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A weak PIN, an unknown role or a first user who is no supervisor is refused in one line
    before any log is made: neither the default folder nor its file is left."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("DEALER_DB", raising=False)
    for words, said in (
        (("sup-7", "--role", "supervisor", "--new-pin", "1234"), "Error: the new PIN needs"),
        (("sup-7", "--role", "boss", "--new-pin", PIN), "Error: role 'boss' is not one of"),
        (("d-1", "--role", "dealer"), "Error: the first user of an audit database must be"),
    ):
        result = run("user", "add", *words)
        assert (result.exit_code, result.stdout) == (1, "")
        assert result.stderr.startswith(said) and result.stderr.count("\n") == 1
        assert list(tmp_path.iterdir()) == []
