"""Attacks on what a ruling may claim (Trust III, principle 1: a ruling may claim only what its
table was approved for), each made end to end as the threat model's people would make it: a
dealer at the CLI, a dealer with the SQLite file (who runs the tool's own code on the file), a
dealer with their own PostgreSQL login (a member of `dealer_app`, through the server's append
function: no bypass)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from contextlib import AbstractContextManager
from decimal import Decimal
from pathlib import Path

import pytest
from cli import run
from log_reads import head, records, use
from pg_server import PgServer
from typer.testing import Result

from dealer.audit import meters, open_log, staff
from dealer.audit.postgres import PostgresStorage
from dealer.audit.storage import Reads, Storage
from dealer.desk import floor_sums, paigow
from dealer.desk.recording import ruling_entry
from dealer.games.paigow import seat_rulings
from dealer.games.paigow.bonus import Meters
from dealer.games.paigow.pay import Wager
from dealer.games.paigow.profile import Profile, load_profile
from dealer.kernel.errors import AuditError

PIN = "lantern-2468"
SUP = ("--supervisor", "S1", "--pin", PIN)
PIN_104 = "harbor-1357"
DEALER = "Ah Kh 9c 7h 5c 4c 2c"
PLAIN = "Js Jd Ac Qh 8s 5d 3h"
"""A player's hand with no progressive event: the wager contributes only."""
STRAIGHT_FLUSH = "8s 9s Ts Js Qs Ks As"
"""A seven-card straight flush: 100% of the progressive treasure meter."""
TREASURE = "progressive_treasure"


def settle(player: str, table: str = "PG-1", *extra: str) -> Result:
    return run(
        "paigow", "settle", "--dealer", DEALER, "--player", player, "--wager", "10",
        "--progressive-treasure", "1", "--table", table, "--user", "d-104", *extra,
    )  # fmt: skip


def writer(where: Path | str, request: pytest.FixtureRequest) -> AbstractContextManager[Storage]:
    """The log as the attacker writes it: the SQLite file opened by the tool's own code (its
    holder can run any), or the PostgreSQL log through dealer d-104's own login."""
    if isinstance(where, Path):
        return open_log(where)
    server: PgServer = request.getfixturevalue("pg_server")
    return PostgresStorage.open(server.login(where, "d-104"))


def _value(tx: Reads, table: str, name: str, link: meters.MeterLink | None) -> Decimal | None:
    """A meter's value as its newest record states it, the table's own or the link's (read
    as the attacker reads it, checking nothing)."""
    if link is None:
        return tx.meter(table, name)
    newest = tx.link_records(link.link, 1)
    return Decimal(newest[0].result["value"]) if newest else None


def append_settle(log: Storage, table: str, profile: Profile, player: str) -> int:
    """A settle in d-104's name at `table` under `profile`, ruled by the engine from the table's
    meters and written with its floor's sums and its meter moves in one transaction, past the
    tool's own checks (the record appended as it is: through the server's append function on
    PostgreSQL); its record id."""
    wagers = paigow.seat_wagers(
        {Wager.BASE: Decimal(10), Wager.PROGRESSIVE_TREASURE: Decimal(1)}, ()
    )
    links = {name: paigow.meter_link(profile, name) for name in (TREASURE, "progressive_insurance")}
    with log.transaction() as tx:
        stored = {name: _value(tx, table, name, link) for name, link in links.items()}
        start = Meters(**{n: profile.meters[n].seed if v is None else v for n, v in stored.items()})
        ruling, after = seat_rulings.settle_ruling(DEALER, wagers, profile, start, player=player)
        made = tx.append(ruling_entry(ruling, "d-104", "dealer", table))
        floor_sums.add_ruling(tx, made)
        for name, link in links.items():
            if after.get(name) != stored[name]:
                meters.move(
                    tx, table, name, after.get(name), f"ruling #{made}", link=link,
                    previous=meters.Previous(stored[name]),
                )  # fmt: skip
    return made


@pytest.fixture
def meter_log(log_at: Path | str, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path | str]:
    """A log with supervisor S1, dealer d-104 and one settle at PG-1 that contributed to its
    progressive treasure meter ($10,000.25), on each backend, named in DEALER_DB."""
    use(log_at, monkeypatch)
    with open_log(log_at) as log:
        staff.add_user(log, "S1", "supervisor", pin=PIN)
        staff.add_user(log, "d-104", "dealer", supervisor_id="S1", supervisor_pin=PIN)
    assert settle(PLAIN).exit_code == 0
    yield log_at


def test_a_ruling_stating_its_own_seed_resets_no_meter(
    meter_log: Path | str, request: pytest.FixtureRequest
) -> None:
    """Attack "a meter set to $250,000 by a ruling's own words" (high): a fabricated settle
    naming the shipped profile by its hash, no rule change, but stating the treasure meter's
    seed as $250,000, hits a straight flush and "resets" the meter to that seed; written through
    a dealer's own PostgreSQL login (no bypass) or into the SQLite file. Before the fix verify
    said OK and the next straight flush paid +$249,999. Now verify fails on the ruling (its
    settings are not what the profile it names gives) and the tool pays nothing from the
    meter that ruling left (nothing explains a reset to a seed the profile does not give)."""
    forged = load_profile(rules=[f"meters.{TREASURE}.seed=250000"])._replace(overrides=())
    assert forged.sha256 == load_profile().sha256  # named as the shipped profile, unchanged
    with writer(meter_log, request) as log:
        made = append_settle(log, "PG-1", forged, STRAIGHT_FLUSH)
    (move,) = [m for m in records(meter_log, kind="meter") if m.links_to == made]
    assert move.result["value"] == "250000"
    checked = run("audit", "verify")
    assert checked.exit_code == 1, checked.output
    assert f"first bad record: {made}" in checked.stdout
    before = head(meter_log)
    paid = settle(STRAIGHT_FLUSH)
    assert (paid.exit_code, paid.stdout) == (1, "")
    assert paid.stderr == (
        f"Error: meter {TREASURE} at table PG-1 was last moved by record {made + 1}, which "
        "nothing explains (a hit of it takes the meter from $10,000.50 to $250,000 and returns "
        "$0 of $10,000.50 paid): no ruling pays from it until a supervisor sets the meter "
        "(dealer audit meter adjust) and dealer audit verify is run\n"
    )
    assert head(meter_log) == before


STRICT = """name: strict
rules:
  house_way: foxwoods
  signoff_over: 1000
  rule_changes: forbidden
"""
LOOSE = """name: loose
rules:
  signoff_over: 1000000
"""


@pytest.fixture
def floor(log_at: Path | str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A log with supervisor S1 and dealer d-104; strict.yaml (House Way foxwoods, sign-off
    over $1,000, rule changes forbidden) approved for table PG-3, loose.yaml (sign-off over
    $1,000,000) approved for every table; the folder they are in."""
    use(log_at, monkeypatch)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "strict.yaml").write_text(STRICT, encoding="utf-8")
    (tmp_path / "loose.yaml").write_text(LOOSE, encoding="utf-8")
    with open_log(log_at) as log:
        staff.add_user(log, "S1", "supervisor", pin=PIN)
        staff.add_user(log, "d-104", "dealer", pin=PIN_104, supervisor_id="S1", supervisor_pin=PIN)
    for name, where in (("strict.yaml", ("--table", "PG-3")), ("loose.yaml", ())):
        approved = run("audit", "approve-profile", name, "--reason", "the floor", *where, *SUP)
        assert approved.exit_code == 0, approved.output
    return tmp_path


BIG_PAY = ("--dealer", "9c 8d 6h 4s 3c 2d 7h", "--player", "As Ad Kc Kh Qs Jd 9s")
"""A player's hand that beats the dealer's pai gow: the base wager wins (half pay)."""


def settle_pg3(*extra: str) -> Result:
    return run(
        "paigow", "settle", *BIG_PAY, "--wager", "5000", "--table", "PG-3", "--user", "d-104",
        "--json", *extra,
    )  # fmt: skip


def test_a_dealer_cannot_pick_another_profile_at_an_assigned_table(
    floor: Path, log_at: Path | str
) -> None:
    """Attack "no table is bound to its profile" (medium), at the CLI: PG-3's approved profile
    is strict.yaml, but before the fix a dealer settled there under the shipped default (no
    --profile: trump-plaza, sign-off over $2,500), or under loose.yaml (sign-off over
    $1,000,000), and a $2,500 win awaited no sign-off. Now the table is assigned its profile by
    a supervisor's signed record: a ruling there is made under strict.yaml, and another
    profile or House Way is a rule change, refused where the profile forbids them."""
    made = run("floor", "assign", "PG-3", "--profile", "strict.yaml", *SUP)
    assert made.exit_code == 0, made.output
    signed = run("sign-in", "--table", "PG-3", "--user", "d-104", "--pin", PIN_104)
    assert signed.exit_code == 0, signed.output
    plain = settle_pg3()
    assert plain.exit_code == 0, plain.output
    settings = json.loads(plain.stdout)["settings"]
    assert (settings["profile"], settings["house_way"]["name"]) == ("strict", "foxwoods")
    assert json.loads(plain.stdout)["signoff_required"] == {"over": 1000, "seats": [1]}
    before = head(log_at)
    for change in (("--profile", "loose.yaml"), ("--house-way", "trump-plaza")):
        refused = settle_pg3(*change)
        assert refused.exit_code == 1, refused.output
        assert head(log_at) == before
    assert run("audit", "verify").exit_code == 0


@pytest.mark.parametrize("log_at", ["postgresql"], indirect=True)
def test_a_dealers_login_cannot_record_another_profile_at_an_assigned_table(
    floor: Path, log_at: Path | str, request: pytest.FixtureRequest
) -> None:
    """The same attack through d-104's own PostgreSQL login, the tool's checks left out: a
    settle at PG-3 under loose.yaml (approved for every table), and one under strict.yaml
    stating the treasure meter's seed as $250,000. Before the fix the server appended both.
    Now `dealer.check_assignment` refuses each (the profile forbids rule changes), whoever
    appends it; verify would fail one written into the SQLite file
    (tests/test_assignments.py)."""
    assert run("floor", "assign", "PG-3", "--profile", "strict.yaml", *SUP).exit_code == 0
    before = head(log_at)
    strict = load_profile(floor / "strict.yaml")
    seeded = strict._replace(
        meters={**strict.meters, TREASURE: strict.meters[TREASURE]._replace(seed=Decimal(250000))}
    )
    for profile, key in (
        (load_profile(floor / "loose.yaml"), "house_way_sha256"),
        (seeded, "meters"),
    ):
        refusal = (
            "table PG-3 is assigned the profile strict (record 5), and this ruling is not made "
            f"under it: its settings.{key} differ from the assignment's, a rule change the "
            "profile forbids (rules.rule_changes: forbidden)"
        )
        with pytest.raises(AuditError, match=re.escape(refusal)), writer(log_at, request) as log:
            append_settle(log, "PG-3", profile, PLAIN)
    assert head(log_at) == before


FLOOR = """name: floor
meters:
  progressive_treasure: {seed: 10000, contribution: 0.25, cap: 250000, link: FLOOR-ET-1}
"""
OTHER = """name: other
meters:
  progressive_treasure: {seed: 5000, contribution: 0.25, cap: 250000, link: FLOOR-ET-1}
"""


@pytest.fixture
def link(log_at: Path | str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A log with supervisor S1, dealer d-104, floor.yaml (link FLOOR-ET-1 at $10,000/$250,000)
    and other.yaml (the same link at $5,000/$250,000) approved for every table, and one settle
    at PG-1 under floor.yaml (the link's first record); the folder."""
    use(log_at, monkeypatch)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "floor.yaml").write_text(FLOOR, encoding="utf-8")
    (tmp_path / "other.yaml").write_text(OTHER, encoding="utf-8")
    with open_log(log_at) as log:
        staff.add_user(log, "S1", "supervisor", pin=PIN)
        staff.add_user(log, "d-104", "dealer", supervisor_id="S1", supervisor_pin=PIN)
    for name in ("floor.yaml", "other.yaml"):
        approved = run("audit", "approve-profile", name, "--reason", "the floor's link", *SUP)
        assert approved.exit_code == 0, approved.output
    assert settle(PLAIN, "PG-1", "--profile", "floor.yaml").exit_code == 0
    return tmp_path


def adjust_link(value: str) -> Result:
    return run(
        "audit", "meter", "adjust", TREASURE, value, "--reason", "count", "--table", "PG-2",
        "--profile", "floor.yaml", *SUP,
    )  # fmt: skip


@pytest.mark.parametrize("log_at", ["postgresql"], indirect=True)
def test_a_ruling_restating_a_links_terms_does_not_stop_the_link_on_postgresql(
    link: Path, log_at: Path | str, request: pytest.FixtureRequest
) -> None:
    """Attack "one dealer login stops a linked progressive on every member table" (medium):
    d-104's own login appends, through the server's append function, a settle at PG-2 under
    other.yaml (approved) and its move restating link FLOOR-ET-1 at $5,000/$250,000. Before
    the fix the server took both, and from then on every member table's settle under
    floor.yaml and every supervisor's adjustment were refused. Now the server refuses the move
    (a link's terms change only by a supervisor's signed assignment), and the floor plays on."""
    other = load_profile(link / "other.yaml")
    before = head(log_at)
    refusal = (
        "(meter progressive_treasure of link FLOOR-ET-1 is recorded at the terms 5000/250000, "
        "but the link's are 10000/250000 (record 7): a link's terms change only by a "
        "supervisor's assignment): nothing was saved"
    )
    with pytest.raises(AuditError, match=re.escape(refusal)), writer(log_at, request) as log:
        append_settle(log, "PG-2", other, PLAIN)
    assert head(log_at) == before
    paid = settle(PLAIN, "PG-2", "--profile", "floor.yaml")
    assert paid.exit_code == 0, paid.output
    assert adjust_link("12000").exit_code == 0
    assert run("audit", "verify").exit_code == 0


@pytest.mark.parametrize("log_at", ["sqlite"], indirect=True)
def test_a_move_restating_a_links_terms_in_the_sqlite_file_fails_verify_and_changes_nothing(
    link: Path, log_at: Path | str, request: pytest.FixtureRequest
) -> None:
    """The same attack by the SQLite file's holder (the tool's own code on the file): the
    settle under other.yaml and its move restating the link's terms are written. Before the
    fix every member table and every supervisor were refused from then on, and verify said OK.
    Now verify fails on the move, the link keeps its terms: a supervisor sets the meter from
    any member table under floor.yaml, and the tables are paid from that value again."""
    other = load_profile(link / "other.yaml")
    with writer(log_at, request) as log:
        made = append_settle(log, "PG-2", other, PLAIN)
    checked = run("audit", "verify")
    assert checked.exit_code == 1, checked.output
    assert f"first bad record: {made + 1}" in checked.stdout
    adjusted = adjust_link("12000")
    assert adjusted.exit_code == 0, adjusted.output
    paid = settle(PLAIN, "PG-1", "--profile", "floor.yaml")
    assert paid.exit_code == 0, paid.output
