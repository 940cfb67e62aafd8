"""The browser's test bench: a demo log with every kind of record a supervisor looks at, the
`dealer audit browse` server on a free port (started and stopped here, nothing left behind), and
Debian's headless Chromium driven by Playwright.

Run as a script it regenerates the README's screenshots (a demo log in a temporary folder):
`.venv/bin/python tests/browser.py docs/browse.png`, and the statistics pages'
`.venv/bin/python tests/browser.py stats docs/browse-stats.png docs/browse-flags.png`."""

from __future__ import annotations

import os
import random
import re
import signal
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, NamedTuple
from unittest import mock

from cli import ok

import dealer.audit.chain
from dealer.kernel.cards import DECK

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PIN = "lantern-2468"
SUPERVISOR = ("--supervisor", "sup-7", "--pin", PIN)
SETTLE = ("--dealer", "As Kd 9c 7h 5s 3d 2c", "--player", "Js Jd Jc Jh 8s 5d 3h")
ADDRESS = re.compile(r"(http://127\.0\.0\.1:\d+)/-/dealer ")


def _ok(*args: str) -> None:
    ok(*args, whole=True)


def demo_log(path: Path | str) -> None:
    """Records 1-2 users; 3 a settled ruling at PG-3 seat 2, patron P-123 (4-5 its meters); 6 a
    ranking at the table; 7 its void; 8 the override of 3; 9 an open dispute naming 3; 10 a meter
    adjusted by hand; 11 a $5,000 pay at PG-4 (over the sign-off line, 12-13 its meters), 14 its
    sign-off; 15 a checkpoint."""
    db = ("--db", str(path))
    _ok("audit", "user", "add", "sup-7", "--role", "supervisor", "--new-pin", PIN, *db)
    dealer_pin = ("--new-pin", "harbor-1357")
    _ok("audit", "user", "add", "d-104", "--role", "dealer", *dealer_pin, *SUPERVISOR, *db)
    at = ("--user", "d-104", "--table", "PG-3", "--seat", "2", *db)
    _ok("paigow", "settle", *SETTLE, "--wager", "25", "--progressive-treasure", "1", *at,
        "--patron", "P-123")  # fmt: skip
    _ok("paigow", "rank", "Ah Kh Qh Jh Th", "--user", "d-104", "--table", "PG-3", *db)
    _ok("audit", "void", "6", "--reason", "ranked the wrong hand", *SUPERVISOR, *db)
    _ok("audit", "override", "3", "--decision", "push", "--reason", "low hand misread",
        *SUPERVISOR, *db)  # fmt: skip
    _ok("audit", "dispute", "open", "patron says the low hand was set wrong", "--table", "PG-3",
        "--seat", "2", "--ruling", "3", "--user", "d-104", *db)  # fmt: skip
    _ok("audit", "meter", "adjust", "progressive_treasure", "10000",
        "--reason", "reseed after audit", "--table", "PG-3", *SUPERVISOR, *db)  # fmt: skip
    _ok("paigow", "settle", "--dealer", "2s 2d 4c 6h 8s 9d Jc", "--player", "Ks Kd Kc Kh As Ad 3h",
        "--wager", "5000", "--user", "d-104", "--table", "PG-4", "--seat", "1", *db)  # fmt: skip
    _ok("audit", "signoff", "11", *SUPERVISOR, *db)
    _ok("audit", "checkpoint", "--user", "sup-7", "--pin", PIN, "--table", "PG-3", *db)


class Served(NamedTuple):
    """A running `dealer audit browse`: its base address, its process, and once stopped what it
    printed after the address (stdout, stderr)."""

    address: str
    process: subprocess.Popen[str]
    stopped: list[str]


@contextmanager
def serving(db: Path, *more: str) -> Iterator[Served]:
    """`dealer audit browse` (with options `more`) on a free port of 127.0.0.1 in its own
    process; yields the address it prints (`http://127.0.0.1:PORT`); stopped with Ctrl-C
    (SIGINT) on the way out, and killed if it does not stop."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("DEALER_")}
    server = subprocess.Popen(
        [sys.executable, "-m", "dealer", "audit", "browse", "--db", str(db), "--no-open", *more],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    stopped: list[str] = []
    try:
        assert server.stdout is not None
        line = server.stdout.readline()
        found = ADDRESS.search(line)
        assert found, line
        yield Served(found.group(1), server, stopped)
    finally:
        server.send_signal(signal.SIGINT)
        try:
            stopped += server.communicate(timeout=30)
        finally:
            if server.poll() is None:
                server.kill()
                server.communicate()


@contextmanager
def chromium() -> Iterator[Any]:
    """A Playwright browser on Debian's Chromium with a fresh profile (removed afterwards)."""
    from playwright.sync_api import sync_playwright

    with (
        tempfile.TemporaryDirectory(prefix="dealer-chromium-") as profile,
        sync_playwright() as driver,
    ):
        context = driver.chromium.launch_persistent_context(
            profile,
            executable_path=str(CHROMIUM),
            args=CHROMIUM_ARGS,
            headless=True,
            viewport={"width": 1000, "height": 700},
        )
        try:
            yield context
        finally:
            context.close()


def screenshot(target: Path) -> None:
    """The overridden, disputed ruling's page of the demo log, saved as `target`."""
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "audit.sqlite"
        demo_log(db)
        with serving(db) as served, chromium() as browser:
            page = browser.new_page()
            page.goto(f"{served.address}/-/dealer/record/3")
            page.screenshot(path=str(target))  # the first screen: the chain, status, cards


STATS_ROUNDS = ("--rounds", "5000")
"""The statistics pages' simulated rounds in the tests (about half a second, then cached)."""
HOT_HANDS = (
    ("Tc 8s Ts Kd 5h 2h 9d", "Qh Td Th 7d 3c", "6h Ac"),
    ("Td 8s 2s 9h 7c 2c Ah", "4c 2h Kh Ad Kc", "3s 3c"),
    ("8h 8c 7c Ts Jd 6s Qc", "9s Qs 9h 2d Jh", "Td Ks"),
)
"""Dealer hands and a player's best setting against each: every one wins $10 at a $10 wager."""
STATS_HOURS = ((3, (10, 11)), (4, (14,)), (5, (9, 10)))
"""The days of March 2025 and the hours (UTC) of the statistics log's play."""


def _fair_round(deal: random.Random) -> str:
    """A round of six seats at PG#FAIR dealt from `deal`, set by the House Way (seat 1: P-7)."""
    cards = [str(c) for c in deal.sample(DECK, 49)]
    seats = "\n".join(
        f"  - {{seat: {s + 1}, cards: {' '.join(cards[7 + 7 * s : 14 + 7 * s])}, "
        f"wagers: {{base: 10, treasure: 5}}{', patron: P-7' if s == 0 else ''}}}"
        for s in range(6)
    )
    return f"table: PG#FAIR\ndealer: {' '.join(cards[:7])}\nseats:\n{seats}\n"


def stats_log(path: Path) -> None:
    """A log of play on three days of March 2025 (`STATS_HOURS`), dated by a clock set for it:
    supervisor sup-1 and the dealers d-2 and d-4 registered; in each hour each dealer signs in
    at their table, then 6 rulings at PG-HOT by d-2 for P-LUCKY, each won by the player (a
    planted run, flagged), and 6 fair rounds of six seats at PG#FAIR by d-4 (P-7 at seat 1), 40
    seconds apart."""
    now = [datetime(2025, 3, 1, tzinfo=UTC)]

    def clock() -> str:
        now[0] += timedelta(seconds=40)
        return now[0].strftime("%Y-%m-%dT%H:%M:%S.%fZ")

    db = ("--db", str(path))
    deal = random.Random(7)
    pin, sup = "lantern-2468", ("--supervisor", "sup-1", "--pin", "lantern-2468")
    with mock.patch.object(dealer.audit.chain, "utc_now", clock):
        _ok("audit", "user", "add", "sup-1", "--role", "supervisor", "--new-pin", pin, *db)
        for dealer_id in ("d-2", "d-4"):
            _ok("audit", "user", "add", dealer_id, "--role", "dealer", "--new-pin", pin, *sup, *db)
        for day, hours in STATS_HOURS:
            for hour in hours:
                now[0] = datetime(2025, 3, day, hour, tzinfo=UTC)
                for dealer_id, table in (("d-2", "PG-HOT"), ("d-4", "PG#FAIR")):
                    _ok("sign-in", "--table", table, "--user", dealer_id, "--pin", pin, *db)
                for i in range(6):
                    hand, high, low = HOT_HANDS[i % 3]
                    _ok("paigow", "settle", "--dealer", hand, "--high", high, "--low", low,
                        "--wager", "10", "--patron", "P-LUCKY", "--table", "PG-HOT",
                        "--user", "d-2", *db)  # fmt: skip
                for _ in range(6):
                    ok("round", "-", "--user", "d-4", *db, stdin=_fair_round(deal), whole=True)


def stats_screenshots(table: Path, flags: Path) -> None:
    """PG-HOT's statistics page and the flags page of the statistics log, saved as `table` and
    `flags`."""
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "audit.sqlite"
        stats_log(db)
        with serving(db, *STATS_ROUNDS) as served, chromium() as browser:
            page = browser.new_page()
            page.goto(f"{served.address}/-/dealer/stats/table/PG-HOT")
            page.screenshot(path=str(table), full_page=True)
            page.goto(f"{served.address}/-/dealer/stats/flags")
            page.screenshot(path=str(flags), full_page=True)


if __name__ == "__main__":
    if sys.argv[1] == "stats":
        stats_screenshots(Path(sys.argv[2]), Path(sys.argv[3]))
    else:
        screenshot(Path(sys.argv[1]))
