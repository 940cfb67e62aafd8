"""Trust III, principle 3 — who is at the table is on the record: at a table a supervisor
assigned, only the dealer signed in there with their own PIN rules, each ruling naming that
sign-in; the tool refuses any other (a dealer typing `--user` of another), the PostgreSQL server
refuses it from any login, and verify fails one written around both. Each attack was seen to
succeed on the release before these fixes."""

from __future__ import annotations

import json
from pathlib import Path

import psycopg
import pytest
from cli import run
from log_reads import head, records, use
from pg_server import PgServer

from dealer.audit import open_log, staff
from dealer.audit.chain import seal
from dealer.audit.records import RecordKind, canonical_json
from dealer.desk.recording import ruling_entry
from dealer.games.paigow.profile import load_profile
from dealer.games.paigow.rulings import rank_ruling

PIN = "lantern-2468"
SUP = ("--supervisor", "S1", "--pin", PIN)
PINS = {"d-104": "harbor-1357", "d-105": "tundra-8642"}
ROYAL = "As Ks Qs Js Ts"
SETTLE = (
    "paigow", "settle", "--dealer", "Ah Kh 9c 7h 5c 4c 2c", "--player", "Js Jd Ac Qh 8s 5d 3h",
    "--wager", "10", "--table", "PG-3", "--json",
)  # fmt: skip


@pytest.fixture
def floor(log_at: Path | str, monkeypatch: pytest.MonkeyPatch) -> Path | str:
    """Supervisor S1, dealers d-104 and d-105 with their PINs (records 1-3); table PG-3
    assigned the shipped default (4) and d-104 signed in at it (5)."""
    use(log_at, monkeypatch)
    with open_log(log_at) as log:
        staff.add_user(log, "S1", "supervisor", pin=PIN)
        for who, pin in PINS.items():
            staff.add_user(log, who, "dealer", pin=pin, supervisor_id="S1", supervisor_pin=PIN)
    assert run("floor", "assign", "PG-3", "--profile", "default", *SUP).exit_code == 0
    signed = run("sign-in", "--table", "PG-3", "--user", "d-104", "--pin", PINS["d-104"])
    assert signed.exit_code == 0, signed.output
    return log_at


def test_no_one_rules_in_another_dealers_name_at_an_assigned_table(floor: Path | str) -> None:
    """Medium: a run typed at PG-3 as `--user d-105` by another dealer was recorded as d-105's,
    and the statistics flagged d-105. Only the dealer signed in at an assigned table rules
    there: d-105 is refused in one line, nothing written; a ruling naming no user is d-104's,
    under their sign-in."""
    before = head(floor)
    refused = run(*SETTLE, "--user", "d-105")
    assert (refused.exit_code, refused.stdout) == (1, "")
    assert json.loads(refused.stderr) == {
        "error": "table PG-3 is assigned and d-104 is signed in at it, not d-105: only the "
        "dealer signed in at a table rules there (the dealer signs in there first: dealer "
        "sign-in --table PG-3)",
        "exit": 1,
    }
    assert head(floor) == before
    ruled = run(*SETTLE)
    assert ruled.exit_code == 0, ruled.output
    (made,) = records(floor, kind=RecordKind.RULING)
    assert (made.user_id, made.settings["sign_in"]) == ("d-104", 5)
    assert run("audit", "verify").exit_code == 0


def test_an_assigned_table_with_no_one_signed_in_takes_no_ruling(floor: Path | str) -> None:
    out = run("sign-out", "--table", "PG-3", "--user", "d-104", "--pin", PINS["d-104"])
    assert out.exit_code == 0, out.output
    before = head(floor)
    refused = run(*SETTLE, "--user", "d-104")
    assert json.loads(refused.stderr)["error"] == (
        "table PG-3 is assigned and no one is signed in at it: the dealer signs in there first: "
        "dealer sign-in --table PG-3"
    )
    assert head(floor) == before


def rank_at(table: str, **settings: object) -> tuple[str, str]:
    """A rank at `table` as the tool would make it under the shipped default, `settings` added:
    its result and settings as JSON."""
    ruling = rank_ruling(ROYAL, load_profile())
    entry = ruling_entry(ruling, "d-105", "dealer", table)
    return canonical_json(entry.result), canonical_json({**entry.settings, **settings})


@pytest.mark.parametrize("log_at", ["postgresql"], indirect=True)
def test_a_dealers_own_login_rules_at_an_assigned_table_only_signed_in(
    pg_server: PgServer, floor: str
) -> None:
    """Medium: d-105's own database login appended rulings at PG-3 in their own name, the tool
    left out, with d-104 signed in there. The server refuses a ruling at an assigned table
    unless it names its maker's standing sign-in there (none named, or d-104's), and a ruling
    anywhere naming a sign-in not its maker's (d-104's, at PG-9, to be counted a dealer's)."""
    before = head(floor)
    with psycopg.connect(pg_server.login(floor, "d-105"), autocommit=True) as conn:
        for table, named in (("PG-3", {}), ("PG-3", {"sign_in": 5}), ("PG-9", {"sign_in": 5})):
            result, settings = rank_at(table, **named)
            with pytest.raises(psycopg.errors.InsufficientPrivilege, match="sign-in of d-105's"):
                conn.execute(
                    "SELECT dealer.append_record('ruling', 'paigow', 'rank', %s, NULL, "
                    "'d-105', 'dealer', 'as ks qs js ts', '[]', %s, '[]', %s, NULL, NULL, "
                    "'0.2.0', '{}', '{}')",
                    [table, result, settings],
                )
    assert head(floor) == before


@pytest.mark.parametrize("log_at", ["sqlite"], indirect=True)
def test_a_ruling_outside_a_sign_in_written_into_the_file_fails_verify(floor: Path) -> None:
    """The SQLite file's holder writes rankings at PG-3 in d-105's name, past the tool: one
    naming no sign-in, one naming d-104's. Verify names both."""
    made = []
    for named in ({}, {"sign_in": 5}):
        ruling = rank_ruling(ROYAL, load_profile())
        entry = ruling_entry(ruling, "d-105", "dealer", "PG-3")
        entry = entry._replace(settings={**entry.settings, **named})
        with open_log(floor) as log, log.transaction() as tx:
            sealed = seal(entry, tx.head())
            tx.copy(sealed)
            made.append(int(sealed["id"]))
    with open_log(floor) as log:
        from dealer.desk.records import verified

        checked = verified(log)
    assert checked.problems == (
        f"record {made[0]} (ruling): at that point table PG-3 was assigned, and the ruling names "
        "no sign-in of its maker's",
        f"record {made[1]} (ruling): at that point it names sign-in 5, which is d-104's, not "
        "d-105's",
    )


WIN = ("--dealer", "2s 2d 4c 6h 8s 9d Jc", "--player", "Ks Kd Kc Kh As Ad 3h", "--wager", "10")
"""A player's four kings against the dealer's pair: the player wins every time."""


def test_stats_by_dealer_count_only_signed_in_rulings(
    floor: Path | str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Medium: another dealer typed a planted run at a table never assigned as `--user d-105`,
    and `dealer stats flags` flagged d-105, who dealt none of it. A dealer's figures are the
    rulings their sign-in puts on the record as theirs: the run is left out of every dealer's
    figures (and counted as left out), d-105 is neither listed nor flagged; d-104's rulings at
    PG-3, under their sign-in, are theirs."""
    for _ in range(20):
        typed = run("paigow", "settle", *WIN, "--table", "PG-9", "--user", "d-105")
        assert typed.exit_code == 0, typed.output
    signed = run("paigow", "settle", *WIN, "--table", "PG-3")
    assert signed.exit_code == 0, signed.output
    stats = ("--rounds", "2000", "--json")
    dealers = json.loads(run("stats", "dealers", *stats).stdout)
    assert [(row["user"], row["rulings"]) for row in dealers["dealers"]] == [("d-104", 1)]
    assert dealers["left_out"] == 20
    flags = json.loads(run("stats", "flags", *stats).stdout)["flags"]
    assert not [flag for flag in flags if flag.get("user") == "d-105"]
    tables = {row["table"] for row in json.loads(run("stats", "tables", *stats).stdout)["tables"]}
    assert tables == {"PG-3", "PG-9"}  # the table's figures keep every ruling


def settled(table: str, *user: str) -> int:
    """A settle at `table` (by `user`, else whoever is signed in there); its ruling's number."""
    made = run(*SETTLE[:-3], "--table", table, "--json", *user)
    assert made.exit_code == 0, made.output
    return int(json.loads(made.stdout)["ruling_id"])


def corrections_flagged(floor: Path | str, voided: list[int]) -> set[tuple[str, int, int]]:
    """The correction flags once `voided` are voided: (dealer, rulings, corrected) each."""
    from dealer.audit import corrections

    with open_log(floor) as log:
        for ruling in voided:
            corrections.void(log, ruling, reason="misdealt", supervisor_id="S1", pin=PIN)
    flags = json.loads(run("stats", "flags", "--rounds", "2000", "--json").stdout)["flags"]
    return {
        (f["user"], f["figures"]["rulings"], f["figures"]["corrected"])
        for f in flags
        if f["kind"] == "corrections"
    }


def test_correction_flags_count_only_signed_in_rulings(floor: Path | str) -> None:
    """The same class, by the correction flags: rulings typed as `--user d-105` at a table
    never assigned, every one voided by a supervisor, flagged d-105 as a dealer whose rulings
    are corrected too often, though d-105's own, at PG-4 under their sign-in, were never
    corrected. Only rulings made under a sign-in count: no one is flagged."""
    assert (
        run("sign-in", "--table", "PG-4", "--user", "d-105", "--pin", PINS["d-105"]).exit_code == 0
    )
    for _ in range(30):
        settled("PG-3")
    for _ in range(10):
        settled("PG-4", "--user", "d-105")
    typed = [settled("PG-9", "--user", "d-105") for _ in range(10)]
    assert corrections_flagged(floor, typed) == set()


def test_a_dealer_whose_signed_in_rulings_are_corrected_too_often_is_flagged(
    floor: Path | str,
) -> None:
    assert (
        run("sign-in", "--table", "PG-4", "--user", "d-105", "--pin", PINS["d-105"]).exit_code == 0
    )
    voided = [settled("PG-3") for _ in range(10)][:8]
    for _ in range(10):
        settled("PG-4", "--user", "d-105")
    assert corrections_flagged(floor, voided) == {("d-104", 10, 8)}
