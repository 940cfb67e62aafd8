"""Attack 6 of issue 23, as a dealer with no file access to the package and no PIN makes it: a
document that is not the one approved decides a pay. Each is refused with one `Error:` line and
nothing is written, on both backends, until a supervisor approves what is used; what is then
used is named on the record by the SHA-256 of its text and listed by the shift summary."""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

import cli
import pytest
from log_reads import records
from typer.testing import Result

from dealer.games.paigow import house_way
from dealer.kernel.digest import sha256_hex
from dealer.kernel.documents import shipped_documents

run = functools.partial(cli.run, whole=True)
ok = functools.partial(cli.ok, whole=True)
PIN = "signal-9876"
SUP = ("--supervisor", "sup-1", "--pin", PIN)
SHIPPED_WAY = Path(house_way.__file__).parent / "house_ways" / "trump-plaza.yaml"
CLAUSE_2 = (
    '  - id: "2"\n'
    "    says: One pair — the pair high, the two highest other cards low.\n"
    "    when: {pattern: one-pair}\n"
    "    low: highest-singles\n"
)
PAIR = "Ks Kd 9c 7h 5s 3d 2c"
"""One pair: trump-plaza's clause 2 plays 9-7 low; the copy's, 7-5."""
SETTLE = ("paigow", "settle", "--dealer", "As Qd Tc 8h 6s 4d 3c", "--player", PAIR, "--wager", "25")
AT = ("--user", "d-104", "--table", "PG-1")


def refused(result: Result) -> str:
    """The one `Error:` line of a refused command (nothing on standard output)."""
    assert (result.exit_code, result.stdout) == (1, ""), result.output
    (line,) = result.stderr.splitlines()
    assert line.startswith("Error: ")
    return line


def rulings(db: Path | str) -> list[Any]:
    return records(db, kind="ruling")


@pytest.fixture
def db(dealer_db: Path | str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path | str:
    """A log on each backend with supervisor sup-1 (record 1), the commands run in `tmp_path`."""
    monkeypatch.chdir(tmp_path)
    ok("audit", "user", "add", "sup-1", "--role", "supervisor", "--new-pin", PIN)
    return dealer_db


def _edited_way(tmp_path: Path, name: str) -> Path:
    """`trump-plaza.yaml` copied under the way's name `name`, with one action of clause 2 changed
    (the second and third singles low, not the two highest)."""
    text = SHIPPED_WAY.read_text(encoding="utf-8")
    assert text.count(CLAUSE_2) == 1 and text.count("name: trump-plaza\n") == 1
    edited = text.replace(CLAUSE_2, CLAUSE_2.replace("highest-singles", "second-and-third-singles"))
    path = tmp_path / "trump-plaza.yaml"
    path.write_text(edited.replace("name: trump-plaza\n", f"name: {name}\n"), encoding="utf-8")
    return path


@pytest.fixture
def copy(tmp_path: Path) -> Path:
    """A way of the property's own: trump-plaza with one action of clause 2 changed, named
    `room-2`."""
    return _edited_way(tmp_path, "room-2")


def test_a_copy_under_a_shipped_way_s_name_is_refused(db: Path | str, tmp_path: Path) -> None:
    """Issue 24, finding 7: a copy of trump-plaza.yaml with the same name, version and clause
    text and one action changed would rule as if it were the shipped way: it is refused, at a
    ruling and at its approval, in one line; nothing is written."""
    same = _edited_way(tmp_path, "trump-plaza")
    expected = (
        f"Error: House Way {same}: it is named trump-plaza, a shipped way's name, with other "
        "content than the shipped trump-plaza: give the property's way a name of its own"
    )
    assert refused(run(*SETTLE, "--house-way", str(same), *AT, *SUP)) == expected
    assert refused(run("audit", "approve-house-way", str(same), "--reason", "x", *SUP)) == expected
    assert [r.kind for r in records(db)] == ["user"]
    exact = tmp_path / "exact.yaml"  # the shipped text, another file: the same way
    exact.write_text(SHIPPED_WAY.read_text(encoding="utf-8"), encoding="utf-8")
    ok("audit", "approve-house-way", str(exact), "--reason", "the shipped way, filed", *SUP)


def test_a_house_way_copy_is_refused_until_approved_then_named_and_listed(
    db: Path | str, copy: Path
) -> None:
    """Attack 6: a copy of trump-plaza.yaml under a name of its own with one action of clause 2
    changed, given as `--house-way FILE`, is refused without a supervisor and, with one, until
    its file is approved; once approved, its ruling carries the copy's own SHA-256 and name,
    and the shift summary lists it."""
    digest = sha256_hex(copy.read_text(encoding="utf-8"))
    assert digest not in shipped_documents()
    alone = refused(run(*SETTLE, "--house-way", str(copy), *AT))
    assert alone == (
        f"Error: --house-way {copy} changes the table profile default: a supervisor approves "
        "the change with --supervisor ID and --pin"
    )
    unapproved = refused(run(*SETTLE, "--house-way", str(copy), *AT, *SUP))
    assert unapproved == (
        f"Error: the House Way {copy} (sha256 {digest[:12]}…) is not approved for table PG-1: "
        "a supervisor approves its file with 'dealer audit approve-house-way FILE'"
    )
    assert rulings(db) == []

    ok("audit", "approve-house-way", str(copy), "--reason", "room 2's way", *SUP)
    shipped = json.loads(ok("paigow", "set", PAIR, *AT, "--json").stdout)
    made = json.loads(
        ok("paigow", "set", PAIR, "--house-way", str(copy), *AT, *SUP, "--json").stdout
    )
    assert made["low"] == ["7h", "5s"] and shipped["low"] == ["9c", "7h"]
    assert made["rule"] == shipped["rule"].replace("trump-plaza", "room-2", 1)
    assert made["settings"]["house_way_sha256"] == digest
    assert shipped["settings"]["house_way_sha256"] == sha256_hex(
        SHIPPED_WAY.read_text(encoding="utf-8")
    )
    assert made["settings"]["overrides"] == [f"house_way={copy}"]
    summary = json.loads(ok("shift", "summary", "--table", "PG-1", "--json").stdout)
    assert summary["documents_not_shipped"] == [
        {"document": f"House Way {copy}", "sha256": digest, "rulings": [made["ruling_id"]]}
    ]
    text = ok("shift", "summary", "--table", "PG-1").stdout
    assert f"House Way {copy}  {digest[:12]}…  #{made['ruling_id']}" in text
    assert json.loads(ok("audit", "verify", "--json").stdout)["ok"] is True  # the signed approval


def test_another_shipped_house_way_is_a_rule_change_a_supervisor_approves(
    db: Path | str, tmp_path: Path
) -> None:
    """Attack 6: `--house-way foxwoods` at a table whose profile plays trump-plaza is refused
    without a supervisor (and with a wrong PIN, and at a table forbidding rule changes); with
    one, the ruling is flagged as a rule change and names its approver."""
    foxwoods = ("paigow", "set", PAIR, "--house-way", "foxwoods", *AT)
    assert refused(run(*foxwoods)) == (
        "Error: --house-way foxwoods changes the table profile default: a supervisor approves "
        "the change with --supervisor ID and --pin"
    )
    wrong = refused(run(*foxwoods, "--supervisor", "sup-1", "--pin", "not-the-pin-1"))
    assert "sup-1" in wrong
    strict = tmp_path / "strict.yaml"
    strict.write_text("name: strict\nrules:\n  rule_changes: forbidden\n", encoding="utf-8")
    ok("audit", "approve-profile", str(strict), "--reason", "no changes", *SUP)
    assert refused(run(*foxwoods, "--profile", str(strict), *SUP)) == (
        "Error: --house-way: the table profile strict forbids rule changes "
        "(rules.rule_changes: forbidden); rule without --house-way"
    )
    assert rulings(db) == []
    same = json.loads(ok("paigow", "set", PAIR, "--house-way", "trump-plaza", *AT, "--json").stdout)
    assert same["settings"]["overrides"] == []  # the profile's own way is no change
    made = json.loads(ok(*foxwoods, *SUP, "--json").stdout)
    assert made["settings"]["overrides"] == ["house_way=foxwoods"]
    assert made["settings"]["rule_changes_approved_by"] == "sup-1"
    summary = json.loads(ok("shift", "summary", "--table", "PG-1", "--json").stdout)
    assert summary["rule_changes"] == [
        {"ruling": made["ruling_id"], "changes": ["house_way=foxwoods"]}
    ]
    assert summary["documents_not_shipped"] == []  # foxwoods is shipped: only the change shows


def test_a_house_way_file_edited_after_its_profile_s_approval_is_refused(
    db: Path | str, copy: Path, tmp_path: Path
) -> None:
    """Attack 6: a House Way file named by an approved profile, edited after the approval, is
    refused in one line naming the file (the approval holds the file's SHA-256); nothing is
    recorded, at a settle or at the start of a live table."""
    room = tmp_path / "room.yaml"
    room.write_text(f"name: room-2\nrules:\n  house_way: {copy}\n", encoding="utf-8")
    approved = ok("audit", "approve-profile", str(room), "--reason", "room 2", *SUP)
    assert "approved as record 2" in approved.stdout
    ruled = json.loads(ok(*SETTLE, "--profile", str(room), *AT, "--json").stdout)
    before = sha256_hex(copy.read_text(encoding="utf-8"))
    assert ruled["settings"]["house_way_sha256"] == before
    assert ruled["settings"]["overrides"] == []

    with copy.open("a", encoding="utf-8") as edit:
        edit.write("# edited after the approval\n")
    now = sha256_hex(copy.read_text(encoding="utf-8"))
    expected = (
        f"Error: the House Way file {copy} named by the table profile {room} was edited after "
        f"the profile's approval (sha256 {now[:12]}…, approved {before[:12]}…): a supervisor "
        "approves the profile again with 'dealer audit approve-profile FILE'"
    )
    assert refused(run(*SETTLE, "--profile", str(room), *AT)) == expected
    live = run("table", "--profile", str(room), *AT, stdin="quit\n")
    assert refused(live) == expected
    assert [r.id for r in rulings(db)] == [ruled["ruling_id"]]


def test_an_unapproved_combination_table_is_refused(db: Path | str, tmp_path: Path) -> None:
    """Attack 6: Empire's `--combinations FILE` neither shipped nor approved is refused (a hand
    before it is dealt); approved, its rulings carry its SHA-256."""
    table = tmp_path / "house.yaml"
    table.write_text(
        "name: house\nversion: '1'\nprovisional: false\n"
        "type_order: [sword, bow, spear, horse, sigil, coffer, crown, gate, tower]\n"
        "combinations: [{name: pair, kind: same-type, count: 2}]\n",
        encoding="utf-8",
    )
    digest = sha256_hex(table.read_text(encoding="utf-8"))
    expected = (
        f"Error: the combination table {table} (sha256 {digest[:12]}…) is not approved for "
        "table EM-1: a supervisor approves its file with 'dealer audit approve-combinations FILE'"
    )
    at = ("--user", "d-104", "--table", "EM-1", "--combinations", str(table))
    assert refused(run("empire", "rank", "red-sword blue-sword", *at)) == expected
    hand = run("empire", "hand", "--players", "2", "--seed", "5", *at, stdin="")
    assert refused(hand) == expected
    assert rulings(db) == []
    ok("audit", "approve-combinations", str(table), "--reason", "the house's table", *SUP)
    made = json.loads(ok("empire", "rank", "red-sword blue-sword", *at, "--json").stdout)
    assert made["settings"]["combinations_sha256"] == digest
