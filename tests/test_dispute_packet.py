"""`dealer audit dispute packet`: a settled ruling, its override and the dispute's resolution,
as text (exact, times fixed and shown in a fixed local zone), as JSON, and as an HTML page."""

from __future__ import annotations

import functools
import json
import re
import stat
import time
from collections.abc import Callable, Iterator
from datetime import datetime, timedelta
from pathlib import Path

import cli
import pytest
from log_reads import use

from dealer.audit import open_log
from dealer.audit.records import RecordFilter
from dealer.games.paigow.house_way import load_house_way
from dealer.games.paigow.pay import BONUSES
from dealer.games.paigow.profile import load_profile

run = functools.partial(cli.run, whole=True)
ok = functools.partial(cli.ok, whole=True)
PIN = "lantern-2468"
SETTLE = ("--dealer", "As Kd 9c 7h 5s 3d 2c", "--player", "Js Jd Jc Jh 8s 5d 3h")


@pytest.fixture(scope="module")
def built(new_log: Callable[[], Path | str]) -> Path | str:
    """Records 1-3 users, 4 the ruling (5-6 its meters), 7 the dispute, 8 the resolution, 9 the
    override, on each backend, built once for the tests to copy. An SQLite log dates every
    record 2026-05-09T14:00:00Z (the client's clock, fixed); a PostgreSQL server dates them by
    its own clock."""
    with pytest.MonkeyPatch.context() as patch:
        path = use(new_log(), patch)
        patch.setattr("dealer.audit.chain.utc_now", lambda: "2026-05-09T14:00:00.000000Z")
        patch.setenv("TZ", "EST+5")
        time.tzset()
        sup = ("--supervisor", "sup-7", "--pin", PIN)
        ok("audit", "user", "add", "sup-7", "--role", "supervisor", "--new-pin", PIN)
        for user, role, pin in (
            ("d-104", "dealer", "harbor-1357"),
            ("sup-8", "supervisor", "meadow-9753"),
        ):
            ok("audit", "user", "add", user, "--role", role, "--new-pin", pin, *sup)
        ok("paigow", "settle", *SETTLE, "--wager", "25", "--user", "d-104", "--table", "PG-3")
        ok(
            "audit", "dispute", "open", "patron says <script>alert(1)</script> & the low hand",
            "--table", "PG-3", "--seat", "1", "--time", "2026-05-09T13:58",
            "--party", "seat 1 patron", "--video", "CAM-12 03:58", "--ruling", "4",
            "--user", "d-104",
        )  # fmt: skip
        ok(
            "audit", "dispute", "resolve", "7", "--outcome", "dealer-error", "--amount", "25",
            "--reviewer", "sup-8", "--reviewer-pin", "meadow-9753",
            "--reason", "low hand set against the House Way", *sup,
        )  # fmt: skip
        ok("audit", "override", "4", "--decision", "push", "--reason", "dispute 7", *sup)
    time.tzset()
    return path


@pytest.fixture
def log(
    built: Path | str,
    copy_log: Callable[[Path | str], Path | str],
    monkeypatch: pytest.MonkeyPatch,
) -> Iterator[Path | str]:
    """A copy of the `built` log named in DEALER_DB, shown in a local zone 5 hours behind UTC."""
    path = use(copy_log(built), monkeypatch)
    monkeypatch.setenv("TZ", "EST+5")
    time.tzset()
    yield path
    monkeypatch.undo()
    time.tzset()


def hashes(path: Path | str) -> dict[int, tuple[str, str]]:
    with open_log(path, read_only=True) as opened:
        return {r.id: (r.hash, r.prev_hash) for r in opened.records(RecordFilter())}


def at(stamp: str) -> str:
    """A stored time as the packet shows it, once, in the zone EST (5 hours behind UTC, no
    summer)."""
    local = datetime.fromisoformat(stamp[:19]) - timedelta(hours=5)
    return f"{local:%Y-%m-%d %H:%M:%S} EST"


def when(path: Path | str) -> dict[int, str]:
    """When each record was made, as the packet shows it."""
    with open_log(path, read_only=True) as opened:
        return {r.id: at(r.recorded_at) for r in opened.records(RecordFilter())}


def expected(path: Path | str, checkpoint: str) -> str:
    chain = hashes(path)
    with open_log(path, read_only=True) as opened:
        ruling = opened.record(4)
    assert ruling is not None
    made = when(path)
    posted, profile = ruling.settings["paytables"], ruling.settings["profile_sha256"]
    default = load_profile()  # the shipped profile: its tables and its text's SHA-256
    assert posted == {w: default.table_id(w) for w in BONUSES} and profile == default.sha256
    way = ruling.settings["house_way_sha256"]  # the shipped trump-plaza's text's SHA-256
    assert way == load_house_way("trump-plaza").sha256
    tables = "".join(
        f"  {f'pay table {w}'.replace('_', ' '):<31} {t} "
        f"(sha256 {ruling.settings['paytables_sha256'][t][:12]}…)\n"
        for w, t in posted.items()
    )
    proof = "".join(
        f"  #{n} hash        {chain[n][0]}\n  prev hash      {chain[n][1]}\n" for n in (4, 7, 8, 9)
    )
    return (
        "Where the rulings stand\n"
        "  ruling #4      overridden by #9: its decision (push) is in effect\n"
        "Dispute 7: the claim\n"
        f"  opened         {made[7]} by d-104\n"
        "  table          PG-3, seat 1\n"
        "  happened       2026-05-09 08:58:00 EST\n"
        "  parties        seat 1 patron\n"
        "  video          CAM-12 03:58\n"
        "  rulings        4\n"
        "  description    patron says <script>alert(1)</script> & the low hand\n"
        "  status         dealer-error, amount adjusted +$25\n"
        "Record 4: ruling paigow settle\n"
        f"  recorded                        {made[4]} by d-104 (dealer)\n"
        "  table                           PG-3, seat 1\n"
        "  input                           dealer As Kd 9c 7h 5s 3d 2c | player Js Jd Jc Jh 8s 5d "
        "3h\n"
        "  hands\n"
        "            high                          low\n"
        "    ------  ----------------------------  -------------\n"
        "    dealer  A♠ 7♥ 5♠ 3♦ 2♣                K♦ 9♣\n"
        "            ace high, A-7-5-3-2           king-nine\n"
        "    player  J♠ J♥ 8♠ 5♦ 3♥                J♦ J♣\n"
        "            pair of jacks, 8-5-3 kickers  pair of jacks\n"
        "  wagers\n"
        "    wager    amount    result    pay table, row    pays    net\n"
        "    -------  --------  --------  ----------------  ------  -------\n"
        "    base     $25       win                         1 to 2  +$12.50\n"
        "    total                                                  +$12.50\n"
        "  why                             dealer set by trump-plaza v1 §1: No pair — the highest "
        "card high, the second and third highest cards low.\n"
        "  why                             dealer has a pai gow, ace-high\n"
        "  why                             high: player pair of jacks, 8-5-3 kickers beats dealer "
        "ace high, A-7-5-3-2\n"
        "  why                             low: player pair of jacks beats dealer king-nine\n"
        "  why                             both hands win against a dealer pai gow: pays 1 to 2\n"
        "  why                             base wager $25: win, 1 to 2: +$12.50\n"
        f"  House Way                       trump-plaza v1 (sha256 {way[:12]}…)\n"
        f"  profile                         default (sha256 {profile[:12]}…)\n"
        f"{tables}"
        "Linked records\n"
        f"  #8             dispute-resolution dealer-error by sup-7 (supervisor), {made[8]}\n"
        "                 Dispute 7 resolved by sup-7: dealer-error, amount adjusted +$25, "
        "second reviewer sup-8\n"
        "                 low hand set against the House Way\n"
        f"  #9             override paigow settle by sup-7 (supervisor), {made[9]}\n"
        "                 Ruling 4 overridden by supervisor sup-7: push\n"
        "                 Reason: dispute 7\n"
        "Proof: the records on the hash chain\n"
        f"{proof}"
        f"  checkpoint     {checkpoint}\n"
        f"  verify         OK: {10 if 'record 10' in checkpoint else 9} records, "
        "the hash chain verifies\n"
    )


def test_the_packet_as_text(log: Path | str) -> None:
    result = run("audit", "dispute", "packet", "7")
    assert (result.exit_code, result.stdout) == (
        0,
        expected(log, "no checkpoint recorded after record 9 yet"),
    )
    ok("audit", "checkpoint", "--user", "sup-8", "--pin", "meadow-9753")
    after = run("audit", "dispute", "packet", "7")
    stamp = hashes(log)[10][0]
    assert (after.exit_code, after.stdout) == (
        0,
        expected(log, f"record 10, {when(log)[10]}, hash {stamp}"),
    )


def test_each_time_is_shown_once_in_the_local_zone(log: Path | str) -> None:
    """Every time in the packet is shown once, in the local zone (UTC is in `--json`). On
    SQLite, where the clock is fixed, the records' times are the one written out here; a
    PostgreSQL server dates its records by its own clock, and they are read from the records."""
    shown = run("audit", "dispute", "packet", "7").stdout
    found = set(re.findall(r"\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d\S*(?: \S+)?", shown))
    happened = "2026-05-09 08:58:00 EST"  # as typed with --time
    if isinstance(log, Path):
        assert found == {happened, "2026-05-09 09:00:00 EST"}
    else:
        assert happened in found and found - {happened} <= set(when(log).values())
    assert "UTC" not in shown


def test_the_packet_as_json(log: Path | str) -> None:
    result = run("audit", "dispute", "packet", "7", "--json")
    assert result.exit_code == 0
    packet = json.loads(result.stdout)
    assert packet["dispute"]["resolution"]["amount_adjusted"] == 25
    assert [r["id"] for r in packet["rulings"]] == [4]
    assert packet["rulings"][0]["deciding"]["house_way"] == {"name": "trump-plaza", "version": "1"}
    assert [(r["id"], r["kind"]) for r in packet["linked"]] == [
        (8, "dispute-resolution"),
        (9, "override"),
    ]
    assert (packet["claim"]["id"], packet["last_record"], packet["checkpoint"]) == (7, 9, None)
    assert packet["verify"]["ok"] is True
    assert (packet["rulings"][0]["status"]["state"], packet["rulings"][0]["status"]["by"]) == (
        "overridden",
        9,
    )


def test_the_packet_as_a_page(log: Path | str, tmp_path: Path) -> None:
    page = tmp_path / "dispute-7.html"
    result = run("audit", "dispute", "packet", "7", "--html", str(page))
    assert (result.exit_code, result.stdout) == (0, "")  # the page only: nothing on the screen
    assert result.stderr == f"Dispute 7 packet written to {page}\n"
    assert stat.S_IMODE(page.stat().st_mode) == 0o600
    html = page.read_text(encoding="utf-8")
    assert "<script" not in html
    assert "<td>patron says &lt;script&gt;alert(1)&lt;/script&gt; &amp; the low hand</td>" in html
    assert "<h2>Where the rulings stand</h2>" in html
    assert "<td>overridden by #9: its decision (push) is in effect</td>" in html
    assert html.startswith("<!DOCTYPE html>") and "<style>" in html
    assert list(tmp_path.glob(".dispute-7.html.*")) == []


def test_a_missing_dispute_is_one_error_line(log: Path | str) -> None:
    for given in ("99", "4"):
        result = run("audit", "dispute", "packet", given)
        assert (result.exit_code, result.stdout, result.stderr) == (
            1,
            "",
            f"Error: there is no dispute {given}\n",
        )


def test_a_page_that_cannot_be_written_is_one_error_line(log: Path | str, tmp_path: Path) -> None:
    page = tmp_path / "missing" / "dispute-7.html"
    result = run("audit", "dispute", "packet", "7", "--html", str(page))
    assert (result.exit_code, result.stdout, result.stderr) == (
        1,
        "",
        f"Error: cannot write {page}: No such file or directory\n",
    )


def test_a_voided_rulings_packet_says_nothing_of_it_is_in_effect(log: Path | str) -> None:
    """Voiding the ruling (over its override) leaves nothing of it in effect, and the packet's
    first lines say so."""
    sup = ("--supervisor", "sup-7", "--pin", PIN)
    ok("audit", "void", "4", "--reason", "misdeal on camera", *sup)
    lines = run("audit", "dispute", "packet", "7").stdout.splitlines()
    assert lines[:2] == [
        "Where the rulings stand",
        "  ruling #4      voided by #10: nothing of it is in effect",
    ]
