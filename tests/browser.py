"""The browser's test bench: a demo log with every kind of record a supervisor looks at, the
`dealer audit browse` server on a free port (started and stopped here, nothing left behind), and
Debian's headless Chromium driven by Playwright.

Run as a script it regenerates the README's screenshot:
`.venv/bin/python tests/browser.py docs/browse.png` (a demo log in a temporary folder)."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NamedTuple

from cli import ok

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
def serving(db: Path) -> Iterator[Served]:
    """`dealer audit browse` on a free port of 127.0.0.1 in its own process; yields the address
    it prints (`http://127.0.0.1:PORT`); stopped with Ctrl-C (SIGINT) on the way out, and
    killed if it does not stop."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("DEALER_")}
    server = subprocess.Popen(
        [sys.executable, "-m", "dealer", "audit", "browse", "--db", str(db), "--no-open"],
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


if __name__ == "__main__":
    screenshot(Path(sys.argv[1]))
