"""A table's assigned profile (`dealer floor assign`), on both backends: assigned by a
supervisor's signed record from a shipped or approved profile, listed; every Pai Gow ruling at
the table made under it (a round file naming the table too), another profile a rule change; the
table's meters its profile's; a link's terms changed by an assignment; and verify failing a
ruling whose settings are not its table's assignment or not what its documents give."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from cli import run
from log_reads import head, records, use
from typer.testing import Result

from dealer.audit import assignments, open_log, staff
from dealer.audit.records import RecordKind
from dealer.desk import floor_sums
from dealer.desk.recording import ruling_entry
from dealer.games.paigow.profile import load_profile
from dealer.games.paigow.rulings import rank_ruling
from dealer.kernel.digest import sha256_hex
from dealer.kernel.errors import AuditError

PIN = "lantern-2468"
SUP = ("--supervisor", "S1", "--pin", PIN)
PIN_104 = "harbor-1357"
"""d-104's PIN: the dealer signs in at an assigned table before ruling there (`seat`)."""
ROYAL = "As Ks Qs Js Ts"
FILES = {
    "strict.yaml": "name: strict\nrules:\n  house_way: foxwoods\n  signoff_over: 1000\n"
    "  rule_changes: forbidden\n",
    "loose.yaml": "name: loose\nrules:\n  signoff_over: 1000000\n",
    "house.yaml": "name: house\nrules:\n  wheel: lowest\n",
    "floor.yaml": "name: floor\nmeters:\n  progressive_treasure: {seed: 10000, contribution: 0.25, "
    "cap: 250000, link: FLOOR-ET-1}\n",
    "other.yaml": "name: other\nmeters:\n  progressive_treasure: {seed: 5000, contribution: 0.25, "
    "cap: 250000, link: FLOOR-ET-1}\n",
}
"""The profiles of the module's log: strict.yaml approved for PG-3 (and assigned it, record 8),
the others for every table; loose.yaml assigned PG-5 (record 9)."""


def ok(*args: str) -> Result:
    result = run(*args)
    assert result.exit_code == 0, result.output
    return result


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    place = tmp_path_factory.mktemp("profiles")
    for name, text in FILES.items():
        (place / name).write_text(text, encoding="utf-8")
    return place


@pytest.fixture(scope="module")
def built(new_log: Callable[[], Path | str], folder: Path) -> Path | str:
    """Supervisor S1 and dealer d-104 (records 1-2), the profiles approved (3-7), PG-3 assigned
    strict.yaml (8) and PG-5 loose.yaml (9), on each backend, built once."""
    with pytest.MonkeyPatch.context() as patch:
        where = use(new_log(), patch)
        patch.chdir(folder)
        with open_log(where) as log:
            staff.add_user(log, "S1", "supervisor", pin=PIN)
            staff.add_user(
                log, "d-104", "dealer", pin=PIN_104, supervisor_id="S1", supervisor_pin=PIN
            )
        ok("audit", "approve-profile", "strict.yaml", "--reason", "PG-3", "--table", "PG-3", *SUP)
        for name in ("loose.yaml", "house.yaml", "floor.yaml", "other.yaml"):
            ok("audit", "approve-profile", name, "--reason", "the floor", *SUP)
        ok("floor", "assign", "PG-3", "--profile", "strict.yaml", *SUP)
        ok("floor", "assign", "PG-5", "--profile", "loose.yaml", "--reason", "high limit", *SUP)
    return where


@pytest.fixture
def floor(
    built: Path | str,
    folder: Path,
    copy_log: Callable[[Path | str], Path | str],
    monkeypatch: pytest.MonkeyPatch,
) -> Iterator[Path | str]:
    """A copy of the module's log named in DEALER_DB, run from the profiles' folder."""
    monkeypatch.chdir(folder)
    yield use(copy_log(built), monkeypatch)


def seat(table: str) -> None:
    """d-104 signs in at `table` (at an assigned table only the dealer signed in rules)."""
    ok("sign-in", "--table", table, "--user", "d-104", "--pin", PIN_104)


RANK = ("paigow", "rank", ROYAL, "--user", "d-104")
SETTLE = (
    "paigow", "settle", "--dealer", "Ah Kh 9c 7h 5c 4c 2c", "--player", "Js Jd Ac Qh 8s 5d 3h",
    "--wager", "10", "--user", "d-104",
)  # fmt: skip


def test_an_assignment_is_signed_and_listed(floor: Path | str) -> None:
    made = run("floor", "assign", "PG-7", "--profile", "default", *SUP)
    shipped = load_profile().sha256
    assert (made.exit_code, made.stdout) == (
        0,
        f"Table PG-7 assigned the profile default as record 10 (sha256 {shipped}).\n",
    )
    (record,) = records(floor, kind=RecordKind.ASSIGNMENT, table_id="PG-7")
    assert record.explanation == (
        f"table PG-7 assigned the profile default (default, sha256 {shipped})",
    )
    assert "signature" in record.settings
    answer = json.loads(ok("floor", "assignments", "--json").stdout)
    listed = answer["assignments"]
    assert answer["count"] == 3
    assert [(a["table"], a["profile"], a["record_id"]) for a in listed] == [
        ("PG-3", "strict", 8),
        ("PG-5", "loose", 9),
        ("PG-7", "default", 10),
    ]
    at = {r.id: r.recorded_at for r in records(floor, kind=RecordKind.ASSIGNMENT)}
    assert listed[1] == {
        "table": "PG-5",
        "profile": "loose",
        "profile_source": "loose.yaml",
        "sha256": records(floor, ids=(9,))[0].result["profile_sha256"],
        "record_id": 9,
        "assigned_by": "S1",
        "assigned_at": at[9],
    }
    one = ok("floor", "assignments", "--table", "PG-5").stdout.splitlines()
    assert one[0].split() == ["table", "profile", "sha256", "record", "by", "at"]
    assert one[2].split() == [
        "PG-5", "loose", listed[1]["sha256"][:12] + "…", "9", "S1", at[9][:19] + "Z"
    ]  # fmt: skip
    assert ok("audit", "verify").stdout.startswith("OK: 10 records")


def test_a_profile_not_approved_for_the_table_is_not_assigned(floor: Path | str) -> None:
    before = head(floor)
    for args, said in (
        (
            ("PG-4", "--profile", "strict.yaml"),
            f"the table profile strict.yaml (sha256 {STRICT}…) is not approved for table PG-4: "
            "a supervisor approves its file with 'dealer audit approve-profile FILE'",
        ),
        (
            ("DEMO", "--profile", "default"),
            "table DEMO is the demo's own: it is never assigned a profile",
        ),
    ):
        refused = run("floor", "assign", *args, *SUP)
        assert (refused.exit_code, refused.stdout, refused.stderr) == (1, "", f"Error: {said}\n")
    assert head(floor) == before


def test_another_profile_is_a_rule_change_a_supervisor_approves(floor: Path | str) -> None:
    """At PG-5 (loose.yaml, rule changes allowed): a --profile of the same text is no change;
    another profile is refused without a supervisor, and recorded with one as the change
    `profile=FILE`, countersigned; at PG-3 (strict.yaml) it is refused."""
    seat("PG-5")
    same = json.loads(ok(*RANK, "--table", "PG-5", "--profile", "loose.yaml", "--json").stdout)
    assert (same["settings"]["profile"], same["settings"]["overrides"]) == ("loose", [])
    before = head(floor)
    refused = run(*RANK, "--table", "PG-5", "--profile", "house.yaml")
    assert (refused.exit_code, refused.stderr) == (
        1,
        "Error: --profile house.yaml changes the table profile loose: a supervisor approves the "
        "change with --supervisor ID and --pin\n",
    )
    forbidden = run(*RANK, "--table", "PG-3", "--profile", "house.yaml", *SUP)
    assert (forbidden.exit_code, forbidden.stderr) == (
        1,
        "Error: --profile: the table profile strict forbids rule changes "
        "(rules.rule_changes: forbidden); rule without --profile\n",
    )
    assert head(floor) == before
    made = json.loads(
        ok(*RANK, "--table", "PG-5", "--profile", "house.yaml", *SUP, "--json").stdout
    )
    settings = made["settings"]
    assert (settings["profile"], settings["overrides"]) == ("house", ["profile=house.yaml"])
    assert settings["rule_changes_approved_by"] == "S1"
    assert ok("audit", "show", str(made["ruling_id"])).stdout.splitlines()[2] == (
        "  rule changes: profile=house.yaml (approved by S1)"
    )
    assert ok("audit", "verify").exit_code == 0


ROUND = """table: PG-3
dealer: 9c 8d 6h 4s 3c 2d 7h
seats:
  - seat: 1
    cards: As Ad Kc Kh Qs Jd 9s
    wagers: {base: 4000}
"""


def test_a_round_file_naming_an_assigned_table_is_ruled_under_its_assignment(
    floor: Path | str, tmp_path: Path
) -> None:
    (tmp_path / "round.yaml").write_text(ROUND, encoding="utf-8")
    seat("PG-3")
    ruled = json.loads(
        ok("round", str(tmp_path / "round.yaml"), "--user", "d-104", "--json").stdout
    )
    assert (ruled["settings"]["profile"], ruled["settings"]["house_way"]["name"]) == (
        "strict",
        "foxwoods",
    )
    assert ruled["signoff_required"] == {"over": 1000, "seats": [1]}


def test_an_assigned_tables_meters_are_its_profiles(floor: Path | str) -> None:
    adjust = ("audit", "meter", "adjust", "progressive_treasure", "12000", "--reason", "count")
    before = head(floor)
    refused = run(*adjust, "--table", "PG-3", "--profile", "loose.yaml", *SUP)
    assert (refused.exit_code, refused.stderr) == (
        1,
        "Error: --profile: table PG-3 is assigned the profile strict (record 8): the table is "
        "ruled under that profile (leave out --profile)\n",
    )
    ruled = run(
        *adjust, "--table", "PG-3", "--rule", "meters.progressive_treasure.cap=300000", *SUP
    )
    assert (ruled.exit_code, ruled.stderr) == (
        1,
        "Error: --rule: table PG-3 is assigned the profile strict (record 8): the table is ruled "
        "under that profile (leave out --rule)\n",
    )
    assert head(floor) == before
    made = ok(*adjust, "--table", "PG-3", *SUP)
    assert made.stdout == "progressive_treasure at PG-3 set to $12,000 (record 10).\n"
    summary = json.loads(ok("shift", "summary", "--table", "PG-3", "--json").stdout)
    assert summary["large_pays"]["threshold"] == 1000


def test_an_assignment_sets_the_terms_of_the_links_its_profile_names(floor: Path | str) -> None:
    """A link's terms change only by a supervisor's signed record: assigning PG-2 other.yaml
    (FLOOR-ET-1 at $5,000/$250,000) sets them for the link, whose first record (PG-1's, under
    floor.yaml) said $10,000/$250,000; PG-1's floor.yaml is refused from then on, PG-2 rules."""
    settle = (*SETTLE, "--progressive-treasure", "1")
    ok(*settle, "--table", "PG-1", "--profile", "floor.yaml")
    ok("floor", "assign", "PG-2", "--profile", "other.yaml", *SUP)
    seat("PG-2")
    before = head(floor)
    refused = run(*settle, "--table", "PG-1", "--profile", "floor.yaml")
    assert (refused.exit_code, refused.stderr) == (
        1,
        "Error: meter progressive_treasure is linked as FLOOR-ET-1, whose seed/cap are "
        "$5,000/$250,000 (record 13), but this table's profile says $10,000/$250,000: every "
        "table of a link states its terms alike\n",
    )
    assert head(floor) == before
    moved = json.loads(ok(*settle, "--table", "PG-2", "--json").stdout)["meters"]
    assert (moved["before"]["progressive_treasure"], moved["after"]["progressive_treasure"]) == (
        10000.25,
        10000.5,
    )
    assert ok("audit", "verify").exit_code == 0


def forge(where: Path | str, table: str, settings: dict[str, Any]) -> int:
    """A rank in d-104's name at `table` with `settings`, appended as the SQLite file's holder
    (or a login calling the append function) would, past the tool's own checks."""
    ruling = rank_ruling(ROYAL, load_profile())._replace(settings=settings)
    with open_log(where) as log, log.transaction() as tx:
        made = tx.append(ruling_entry(ruling, "d-104", "dealer", table))
        floor_sums.add_ruling(tx, made)
    return made


STRICT = sha256_hex(FILES["strict.yaml"])[:12]


@pytest.mark.parametrize(
    ("table", "made", "problem"),
    [
        (
            "PG-3",
            ("loose.yaml", (), {}),
            "table PG-3 is assigned the profile strict (record 8): its settings.profile differ "
            "from the assignment's, a rule change the profile forbids (rules.rule_changes: "
            "forbidden)",
        ),
        (
            "PG-5",
            ("loose.yaml", (), {"signoff_over": 5000000}),
            "table PG-5 is assigned the profile loose (record 9): its settings.signoff_over "
            "differ from the assignment's, a rule change no supervisor approved",
        ),
        (
            "PG-9",
            (None, (), {"signoff_over": 1000000}),
            "its settings.signoff_over are not what its documents give (the table profile "
            f"default, sha256 {load_profile().sha256[:12]}…)",
        ),
        (
            "PG-9",
            (None, (), {"profile_sha256": "ab" * 32}),
            "it names the table profile default (sha256 abababababab…), which the package does "
            "not ship and no approval for its table holds",
        ),
        (
            "PG-9",
            ("strict.yaml", (), {}),
            f"it names the table profile strict (sha256 {STRICT}…), which the package does not "
            "ship and no approval for its table holds",
        ),
        (
            "PG-9",
            (None, ("meters.progressive_treasure.seed=250000",), {}),
            "its rule changes (meters.progressive_treasure.seed=250000) name no supervisor "
            "approving them",
        ),
    ],
    ids=[
        "assigned-forbidden",
        "assigned-unapproved",
        "own-words",
        "unknown",
        "other-table",
        "unapproved",
    ],
)
def test_verify_fails_a_ruling_that_claims_more_than_it_was_approved_for(
    floor: Path | str,
    table: str,
    made: tuple[str | None, tuple[str, ...], dict[str, Any]],
    problem: str,
) -> None:
    """A rank under the profile, rule changes and settings `made`, written past the tool (the
    SQLite file's holder; on PostgreSQL the owner's login): verify names the ruling. At an
    assigned table on PostgreSQL the server refuses it first, whoever appends it."""
    path, rules, changed = made
    settings = dict(rank_ruling(ROYAL, load_profile(path, rules)).settings) | changed
    if not isinstance(floor, Path) and table in ("PG-3", "PG-5"):
        before = head(floor)
        said = problem.split(": ", 1)[1].split(", a rule change")[0]
        with pytest.raises(AuditError, match=re.escape(said)):
            forge(floor, table, settings)
        assert head(floor) == before
        return
    made_id = forge(floor, table, settings)
    checked = run("audit", "verify")
    assert checked.exit_code == 1
    assert checked.stdout.splitlines()[1:] == [
        f"  · record {made_id} (ruling): at that point {problem}"
    ]


def test_an_assignment_the_log_does_not_vouch_for_assigns_nothing(floor: Path | str) -> None:
    """An assignment of PG-8 in S1's name, unsigned, written past the tool (on PostgreSQL the
    owner's login: a dealer's is refused, tests/attacks/test_postgres_attacks.py): the tool
    rules PG-8 as a table never assigned, and verify names the record. The server, which
    checks no signature, holds PG-8 to it: only a supervisor's login or the owner appends one."""
    settings = dict(rank_ruling(ROYAL, load_profile(Path("loose.yaml"))).settings)
    made = assignments.entry(
        "PG-8", "paigow", ("loose", "loose.yaml", "ab" * 32), settings, "S1", None
    )
    with open_log(floor) as log, log.transaction() as tx:
        forged = tx.append(made)
    ruled = run(*RANK, "--table", "PG-8", "--json")
    if isinstance(floor, Path):
        assert json.loads(ruled.stdout)["settings"]["profile"] == "default"
    else:
        assert ruled.exit_code == 1
        assert "table PG-8 is assigned the profile loose (record 10), and this ruling is not " in (
            ruled.stderr
        )
    checked = run("audit", "verify")
    assert checked.exit_code == 1
    assert f"record {forged} (assignment): at that point it carries no signature of S1" in (
        checked.stdout
    )


def test_the_live_table_rules_under_the_assignment(floor: Path | str) -> None:
    typed = "9c 8d 6h 4s 3c 2d 7h\n1 As Ad Kc Kh Qs Jd 9s base 10\nsettle\n"
    ruled = run("table", "--table", "PG-3", "--user", "d-104", stdin=f"{PIN_104}\n{typed}")
    assert ruled.exit_code == 0, ruled.output
    (round_ruling,) = records(floor, kind=RecordKind.RULING)
    assert (round_ruling.settings["profile"], round_ruling.settings["house_way_source"]) == (
        "strict",
        "foxwoods",
    )
