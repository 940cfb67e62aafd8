"""The browser's record page and a seat's history read money, not JSON: a round's record is
its table of seats as `dealer round` prints it (each seat's hands as set, results and nets,
the cards as suit and face to colour), and a seat's history gives each ruling's outcome and
net for that seat, a round's included; a disputed round's packet shows the same table. (The
pages themselves, in Chromium: test_browse.py.)"""

from __future__ import annotations

from pathlib import Path

import pytest
from cli import ok

from dealer.cli.browse import pages
from dealer.cli.packet import packet_text
from dealer.desk import browse, packet, records
from dealer.desk.records import RecordFilter

ROUND = str(Path(__file__).parent.parent / "examples" / "round.yaml")


@pytest.fixture
def db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A log holding one round of examples/round.yaml (record 1) at table PG-3."""
    path = tmp_path / "log.sqlite"
    for name in ("DEALER_USER", "DEALER_TABLE", "DEALER_PIN"):
        monkeypatch.delenv(name, raising=False)
    ok("round", ROUND, "--table", "PG-3", "--user", "d-104", "--db", str(path))
    return path


def test_a_rounds_record_page_is_its_table_of_seats(db: Path) -> None:
    page = pages.record_page(records.show(db, 1))
    shown = dict(page["shown"])
    assert shown["round"] == (
        "table PG-3   dealer: A♠ 7♥ 5♠ 3♦ 2♣ / K♦ 9♣   (ace high, A-7-5-3-2; king-nine)"
    )
    seats = shown["seats"]
    assert seats.headers == [
        "seat", "high", "low", "base", "net", "insurance", "treasure", "envy", "prog. ins.",
        "prog. treas.", "total",
    ]  # fmt: skip
    assert seats.rows == [
        ["1", [("s", "J♠"), ("d", "J♦"), ("s", "8♠"), ("d", "5♦"), ("h", "3♥")],
         [("c", "A♣"), ("h", "Q♥")], "win (1 to 2)", "+$12.50", "", "-$5", "", "", "-$1",
         "+$6.50"],
        ["4", [("h", "K♥"), ("c", "K♣"), ("d", "9♦"), ("s", "6♠"), ("h", "2♥")],
         [("s", "Q♠"), ("d", "10♦")], "push (one hand each)", "$0", "+$10", "", "", "", "",
         "+$10"],
    ]  # fmt: skip
    assert shown["total"] == "players' total +$16.50"
    assert "cards" not in shown and "result" not in page


def test_a_seats_history_has_each_rulings_net_for_that_seat(db: Path) -> None:
    found = browse.with_status(db, RecordFilter(table_id="PG-3", seat=4))
    (row,) = pages.record_rows(found, seat=4)
    assert (row["record"].id, row["outcome"], row["net"]) == (1, "push", pages.Amount("+$10", True))


def test_a_disputed_rounds_packet_shows_its_table_of_seats(db: Path) -> None:
    ok("audit", "dispute", "open", "seat 4 was a push", "--table", "PG-3", "--seat", "4",
       "--ruling", "1", "--user", "d-104", "--db", str(db))  # fmt: skip
    (dispute,) = records.search(db, RecordFilter(kind="dispute"))
    text = packet_text(packet.packet(db, dispute.id)).splitlines()
    start = text.index("Record 1: ruling paigow round")
    assert text[start + 2 : start + 10] == [
        "  table                           PG-3",
        "  input                           13 lines as filed (whole in --json)",
        "  round                           table PG-3   dealer: A♠ 7♥ 5♠ 3♦ 2♣ / K♦ 9♣   (ace "
        "high, A-7-5-3-2; king-nine)",
        "  seats",
        "    seat    high            low     base                  net      insurance    treasure"
        "    envy    prog. ins.    prog. treas.    total",
        "    ------  --------------  ------  --------------------  -------  -----------  ----------"
        "  ------  ------------  --------------  -------",
        "    1       J♠ J♦ 8♠ 5♦ 3♥  A♣ Q♥   win (1 to 2)          +$12.50               -$5"
        "                               -$1             +$6.50",
        "    4       K♥ K♣ 9♦ 6♠ 2♥  Q♠ 10♦  push (one hand each)  $0       +$10"
        "                                                           +$10",
    ]
    assert "  total                           players' total +$16.50" in text
