"""`dealer audit show` reads as a page for people and `audit list` shows the money: a settled
seat's hands as set (suit symbols), each wager's row, pay and net, the settings as named lines
with hashes shortened (whole in `--json`), a round as its table of seats; no JSON in the text;
the list says each ruling's outcome and net (a round: its seats and the players' total) within
120 columns."""

from __future__ import annotations

import json
from pathlib import Path

import cli
import pytest

ok = cli.ok
DEALER_PAIR = "2s 2d 4c 6h 8s 9d Jc"
FOUR_KINGS = "Ks Kd Kc Kh As Ad 3h"
ROUND = """table: PG-3
dealer: As Kd 9c 7h 5s 3d 2c
seats:
  - seat: 1
    cards: Js Jd Ac Qh 8s 5d 3h
    wagers: {base: 25, treasure: 5}
  - seat: 4
    high: Kc Kh 9d 6s 2h
    low: Qs Td
    wagers: {base: 10}
"""


@pytest.fixture
def db(dealer_db: Path | str, tmp_path: Path) -> Path | str:
    """Record 1 a settle (four kings, $50 base and $25 treasure), record 2 a round of two
    seats, at PG-3."""
    ok(
        "paigow", "settle", "--dealer", DEALER_PAIR, "--player", FOUR_KINGS, "--wager", "50",
        "--treasure", "25", "--table", "PG-3", "--user", "d-104",
    )  # fmt: skip
    filed = tmp_path / "round.yaml"
    filed.write_text(ROUND)
    ok("round", str(filed), "--user", "d-104")
    return dealer_db


def record_ids(kind: str, action: str) -> list[int]:
    found = json.loads(ok("audit", "search", "--kind", kind, "--json").stdout)["records"]
    return [r["id"] for r in found if r["action"] == action]


def test_a_settle_reads_as_a_page_with_no_json(db: Path | str) -> None:
    (settle,) = record_ids("ruling", "settle")
    page = ok("audit", "show", str(settle)).stdout
    assert "{" not in page and '"' not in page
    lines = page.splitlines()
    hands = lines.index("Hands:")
    assert [line.split("  ")[1] for line in lines[hands + 1 : hands + 7]][2:] == [
        "dealer",
        "",
        "player",
        "",
    ]
    assert "pair of twos, 8-6-4 kickers  jack-nine" in page
    assert "four kings, three kicker     pair of aces" in page
    assert "  dealer  2♠ 2♦ 8♠ 6♥ 4♣" in page and "  player  K♠ K♥ K♦ K♣ 3♥" in page
    wagers = lines[lines.index("Wagers:") + 3 : lines.index("Wagers:") + 6]
    assert [row.split() for row in wagers] == [
        ["base", "$50", "win", "1", "to", "1", "+$50"],
        ["treasure", "$25", "four-of-a-kind", "PT-FLT-EC-ET-01,", "Four-of-a-Kind", "20", "to",
         "1", "+$500"],
        ["total", "+$550"],
    ]  # fmt: skip
    shown = json.loads(ok("audit", "show", str(settle), "--json").stdout)
    way_hash = shown["settings"]["house_way_sha256"]
    assert f"  House Way  trump-plaza v1 (sha256 {way_hash[:12]}…)" in _squeezed(page)
    assert way_hash not in page and shown["hash"] not in page
    assert f"  hash       {shown['hash'][:12]}…" in page
    assert "  pay table treasure  PT-FLT-EC-ET-01 (sha256 " in _squeezed(page)


def _squeezed(page: str) -> str:
    """The page with each run of spaces after a name cut to two (the names are aligned)."""
    return "\n".join("  " + "  ".join(part.strip() for part in line.split("  ") if part.strip())
                     for line in page.splitlines())  # fmt: skip


def test_a_round_reads_as_its_table_of_seats(db: Path | str) -> None:
    (rnd,) = record_ids("ruling", "round")
    page = ok("audit", "show", str(rnd)).stdout
    assert "{" not in page
    lines = page.splitlines()
    at = lines.index("Round:")
    assert lines[at + 1].startswith("  table PG-3   dealer: A♠ 7♥ 5♠ 3♦ 2♣ / K♦ 9♣")
    assert lines[at + 2].split()[:6] == ["seat", "high", "low", "base", "net", "insurance"]
    assert lines[at + 4].split()[:8] == ["1", "J♠", "J♦", "8♠", "5♦", "3♥", "A♣", "Q♥"]
    assert lines[at + 5].split()[:1] == ["4"]
    assert lines[at + 6] == "  players' total +$7.50"
    assert "  input      10 lines as filed or typed (whole in --json)" in lines
    shown = json.loads(ok("audit", "show", str(rnd), "--json").stdout)
    assert shown["input_text"] == ROUND


def test_the_list_shows_outcome_and_net_within_120_columns(db: Path | str) -> None:
    listed = ok("audit", "list").stdout.splitlines()
    assert max(len(line) for line in listed) <= 120
    assert listed[0].split()[-1] == "summary"
    (settle,) = record_ids("ruling", "settle")
    (rnd,) = record_ids("ruling", "round")
    rows = {line.split()[0]: line for line in listed[2:]}
    assert rows[str(settle)].endswith("ruling paigow settle  win, net +$550")
    assert rows[str(rnd)].endswith("ruling paigow round   2 seats, players +$7.50")
