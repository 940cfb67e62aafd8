"""The boundary, attacked: bad input to every command that takes input, each refused by the
standard.

The standard: a bad value, file, database or environment variable ends in exit status 1, a
mistake in the command line in 2; stderr is exactly one line, `Error: …` (with `--json`, one
JSON object `{"error": …, "exit": …}`), naming the input; no traceback; nothing on stdout for
a refused ruling; the audit log byte for byte as it was (or, where there was none, still none);
a file named as the log that is not ours left as it was; in bounded time and memory (each
process runs under a 1 GiB address-space limit, with a hang guard: see tests/boundary.py).

Tabled cases run `python -m dealer` as a person does, each in its own folder with a copy of a
prepared log (three users, a settled seat, its meters, an open dispute), a few at a time. Live
sessions are fed only refused lines on a pipe: each is an `Error:` line and the session exits
1, recording nothing. One refusal is written by design: a supervisor's wrong PIN is put on the
record as an access-denied record (and nothing else is). Generated bad values (amounts, cards,
record ids, ids and a reason with control characters) run in the test process against
`build_app()`, derandomized so a run never fails by chance."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sqlite3
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

import pytest
from boundary import (
    LogBytes,
    Ran,
    dealer_env,
    error_lines,
    refusal,
    run_dealer,
    session_refusals,
)
from cli import run
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from typer.testing import Result

DEALER = "As Kd 9c 7h 5s 3d 2c"
PLAYER = "Js Jd Ac Qh 8s 5d 3h"
SEVEN = "As Kd 9c 7h 5s 3d JK"
FIVE = "As Kd Qh Js Tc"
SUP = ("--supervisor", "sup-1", "--pin", "signal-9876")
REVIEWER = ("--reviewer", "sup-2", "--reviewer-pin", "tundra-5555")
RULING, DISPUTE, RECORDS = "4", "7", 7
"""The prepared log's settled seat, its open dispute, and how many records it holds (1-3 are its
users, 5-6 the meters the seat moved)."""
PWNED = "\x1b]0;pwned\x07"
"""A terminal escape that retitles the window: control characters in an id or free text."""
HUGE = "9" * 31
"""10**31 - 1: more than any amount, any record id, SQLite's integers."""

Make = Callable[[Path], None]


def text(content: str | bytes) -> Make:
    """A file holding `content` (text as UTF-8)."""
    data = content.encode("utf-8") if isinstance(content, str) else content
    return lambda path: path.write_bytes(data)


def sparse(size: int) -> Make:
    """A file of `size` bytes that takes no room on disk (its size is refused before reading)."""

    def make(path: Path) -> None:
        with path.open("wb") as out:
            out.truncate(size)

    return make


def folder(**inside: Make) -> Make:
    """A directory, with the files `inside` it."""

    def make(path: Path) -> None:
        path.mkdir()
        for name, content in inside.items():
            content(path / name)

    return make


def other_sqlite(path: Path) -> None:
    """An SQLite database that is not an audit log: someone's inventory."""
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE chips (colour TEXT, value INTEGER)")
        conn.execute("INSERT INTO chips VALUES ('red', 5), ('green', 25)")
    conn.close()


def _bomb(levels: int = 9, width: int = 9) -> str:
    """A "billion laughs" YAML document: each level a list of `width` aliases of the one below."""
    lines = [f"l0: &l0 [{', '.join(['lol'] * width)}]"]
    for level in range(1, levels):
        lines.append(f"l{level}: &l{level} [{', '.join([f'*l{level - 1}'] * width)}]")
    return "\n".join(lines) + "\n"


BOMB = text(_bomb())
LATIN1 = text("name: caf\u00e9\n".encode("latin-1"))
BINARY = text(bytes(range(256)) * 8)
MB50 = sparse(50 * 1024 * 1024)
DIR = folder()
NOT_SQLITE = text("this is my shift report, not a database\n")
BROKEN_SQLITE = text(b"SQLite format 3\x00" + b"\x00" * 84 + b"\xde\xad" * 2000)
ROUND = "table: PG-1\ndealer: As Kd 9c 7h 5s 3d 2c\nseats:\n"
SEAT = "  - seat: {seat}\n    cards: Js Jd Ac Qh 8s 5d 3h\n    wagers: {{base: {base}}}\n"


def round_with(seat: str = "1", base: str = "25", head: str = ROUND) -> Make:
    """A round file of one seat (its number and base wager as written in YAML)."""
    return text(head + SEAT.format(seat=seat, base=base))


@dataclass(frozen=True)
class Case:
    """One bad input: the command line (`{tmp}` is the case's folder), what the one error
    line must name (case aside), the exit status, the files made first, the environment
    changed, standard input."""

    name: str
    args: tuple[str, ...]
    says: str
    status: int = 1
    files: dict[str, Make] = field(default_factory=dict)
    env: dict[str, str | None] = field(default_factory=dict)
    stdin: bytes = b""
    as_json: bool = False
    quiet: bool = True
    """Nothing on stdout (a refused ruling); False where a command lists problems there."""
    log: bool = True
    """A prepared log at {tmp}/log.sqlite; False: none, and none may be created."""
    session: bool = False
    """A live session fed refused lines: an `Error:` line each, exit 1."""
    denied: bool = False
    """A supervisor refused for a wrong PIN: the refusal is itself put on the record (one
    access-denied record, by design), and nothing else is written."""


def case(name: str, *args: str, says: str, **how: Any) -> Case:
    return Case(name, args, says, **how)


def usage(name: str, *args: str, says: str, **how: Any) -> Case:
    return case(name, *args, says=says, status=2, **how)


def settle(*extra: str, wager: str = "25") -> tuple[str, ...]:
    return ("paigow", "settle", "--dealer", DEALER, "--player", PLAYER, f"--wager={wager}", *extra)


def lines(*typed: str) -> bytes:
    return "".join(f"{line}\n" for line in typed).encode("utf-8")


def money_cases() -> Iterator[Case]:
    """Every bad amount, as the base wager of a seat."""
    for label, amount in [
        ("1e400", "1e400"),
        ("negative", "-5"),
        ("a tenth of a cent", "0.001"),
        ("nan", "nan"),
        ("inf", "inf"),
        ("thousands comma", "1,000"),
        ("two currency signs", "$$25"),
        ("fullwidth digit", "\uff15"),
        ("hexadecimal", "0x10"),
        ("10**30", "1" + "0" * 30),
        ("empty", ""),
    ]:
        yield case(f"settle wager {label}", *settle(wager=amount), says="wager")


NO_LOG = {"log": False}
NOT_A_RULING = {"quiet": False}

# fmt: off
CASES: list[Case] = [
    # --- the command line (exit status 2) --------------------------------------------------
    usage("unknown command", "nosuch", says="nosuch"),
    usage("unknown subcommand", "paigow", "nosuch", says="nosuch"),
    usage("unknown root option", "--bogus", says="--bogus"),
    usage("unknown option", "paigow", "rank", "--bogus", FIVE, says="--bogus"),
    usage("unknown option with --json", "paigow", "rank", "--json", "--bogus", FIVE,
          says="--bogus", as_json=True),
    usage("missing option", "paigow", "settle", "--wager", "5", says="--dealer"),
    usage("missing wager", "paigow", "settle", "--dealer", DEALER, "--player", PLAYER,
          says="--wager"),
    usage("neither player nor high and low", "paigow", "settle", "--dealer", DEALER,
          "--wager", "5", says="--player"),
    usage("player and high and low", *settle("--high", "Js Jd Ac Qh 8s", "--low", "5d 3h"),
          says="--player"),
    # the same mistake (inputs that go together given wrongly, or none given) exits 2 in
    # every command that can make it
    usage("high without low", "paigow", "settle", "--dealer", DEALER, "--wager", "5",
          "--high", "Js Jd Ac Qh 8s", says="--player"),
    usage("low without high", "paigow", "settle", "--dealer", DEALER, "--wager", "5",
          "--low", "5d 3h", says="--player"),
    usage("player and high", *settle("--high", "Js Jd Ac Qh 8s"), says="--player"),
    usage("player and low", *settle("--low", "5d 3h"), says="--player"),
    usage("no cards given", "paigow", "rank", says="no cards given"),
    usage("no cards given to hyrule", "hyrule", "turn", says="no cards given"),
    usage("genpoker cards and --batch", "genpoker", "rank", "1R", "--batch", "-",
          says="give cards or --batch, not both"),
    usage("hands and --batch", "burosh", "compare", "Ks", "Kh", "--batch", "-", "--trump", "s",
          says="give hands or --batch, not both"),
    usage("surplus argument", *settle("surplus"), says="surplus"),
    usage("seat 7", *settle("--seat", "7"), says="--seat"),
    usage("seat 0", *settle("--seat", "0"), says="--seat"),
    usage("seat -1", *settle("--seat=-1"), says="--seat"),
    usage("seat 1.5", *settle("--seat", "1.5"), says="--seat"),
    usage("demo seed not a number", "demo", "--seed", "abc", says="--seed"),
    usage("record id not a number", "audit", "show", "abc", says="abc"),
    usage("record id not a number with --json", "audit", "show", "abc", "--json",
          says="abc", as_json=True),
    usage("missing record id", "audit", "show", says="record_id"),
    usage("list limit not a number", "audit", "list", "--limit", "ten", says="--limit"),
    usage("list seat not a number", "audit", "list", "--seat", "x", says="--seat"),
    usage("export without a format", "audit", "export", says="--format"),
    usage("dispute without a description", "audit", "dispute", "open", says="description"),
    usage("resolve without a reviewer", "audit", "dispute", "resolve", DISPUTE,
          "--outcome", "no-error", "--reason", "checked", *SUP, says="--reviewer"),
    usage("meter adjust without a value", "audit", "meter", "adjust", "progressive_treasure",
          "--reason", "x", *SUP, says="value"),
    usage("hyrule players 9", "hyrule", "game", "--players", "9", says="--players"),
    usage("hyrule rules unknown", "hyrule", "game", "--players", "2", "--rules", "luck",
          says="--rules"),
    usage("hyrule seed and deck", "hyrule", "game", "--players", "2", "--seed", "1",
          "--deck", "JK", says="--deck"),
    usage("genpoker players 1", "genpoker", "draw", "--players", "1", says="--players"),
    usage("genpoker seed -1", "genpoker", "draw", "--players", "2", "--seed=-1", says="--seed"),
    usage("genpoker pot not a number", "genpoker", "draw", "--players", "2", "--pot", "lots",
          says="--pot"),
    usage("empire ante -1", "empire", "hand", "--players", "3", "--ante=-1", says="--ante"),
    usage("empire stack 0", "empire", "hand", "--players", "3", "--stack", "0", says="--stack"),
    usage("house-edge rounds not a number", "analyze", "house-edge", "--rounds", "many",
          says="--rounds", **NO_LOG),
    usage("report format pdf", "analyze", "report", "--format", "pdf", says="--format", **NO_LOG),
    usage("shift summary without a table", "shift", "summary", says="--table",
          env={"DEALER_TABLE": None}),
    # --- cards ---------------------------------------------------------------------------
    case("unknown card", "paigow", "rank", "Zz", "Kd", "Qh", "Js", "Tc", says="Zz"),
    usage("no cards", "paigow", "rank", "", says="cards"),
    case("duplicate card", "paigow", "rank", "As", "As", "Kd", "Qd", "Jd", says="As"),
    case("four cards to rank", "paigow", "rank", "As Kd Qd Jd", says="got 4"),
    case("two jokers", "paigow", "rank", "JK JK 2c 3d 4h", says="joker"),
    case("fullwidth lookalike", "paigow", "rank", "\uff21s Kd Qh Js Tc", says="\uff21s"),
    case("cyrillic lookalike", "paigow", "rank", "\u0410s Kd Qh Js Tc", says="\u0410s"),
    case("a 10 KB token", "paigow", "rank", "A" * 10_000, says="card"),
    case("control characters in a card", "paigow", "set", f"As Kd 9c 7h 5s 3d 2c{PWNED}",
         says="card"),
    case("six cards to set", "paigow", "set", "As Kd Qd Jd 9c 8c", says="got 6"),
    case("eight cards to set", "paigow", "set", SEVEN + " 2c", says="got 8"),
    case("six cards for the bonus", "paigow", "bonus", "As Kd Qd Jd 9c 8c", says="got 6"),
    case("hands of two sizes", "paigow", "compare", "As Ks", "Ad Kd Qd Jd Td", says="second"),
    case("one hand to compare", "paigow", "compare", "As Ks", says="two hands"),
    usage("cards and --batch", "paigow", "rank", FIVE, "--batch", "-", says="--batch"),
    case("unknown card with --json", "paigow", "rank", "Zz Kd Qh Js Tc", "--json", says="Zz",
         as_json=True),
    case("unknown House Way", "paigow", "set", SEVEN, "--house-way", "nosuch", says="nosuch"),
    case("House Way alias bomb", "paigow", "set", SEVEN, "--house-way", "{tmp}/w.yaml",
         says="w.yaml", files={"w.yaml": BOMB}),
    case("House Way not UTF-8", "paigow", "set", SEVEN, "--house-way", "{tmp}/w.yaml",
         says="w.yaml", files={"w.yaml": LATIN1}),
    case("House Way directory", "paigow", "set", SEVEN, "--house-way", "{tmp}/w.yaml",
         says="w.yaml", files={"w.yaml": DIR}),
    case("House Way wrong types", "paigow", "set", SEVEN, "--house-way", "{tmp}/w.yaml",
         says="w.yaml", files={"w.yaml": text("name: 5\nversion: [1]\nclauses: hello\n")}),
    case("House Way too large", "paigow", "set", SEVEN, "--house-way", "{tmp}/w.yaml",
         says="w.yaml", files={"w.yaml": MB50}),
    # --- one seat: cards and money ------------------------------------------------------
    case("dealer's unknown card", "paigow", "settle", "--dealer", "Zz Kd 9c 7h 5s 3d 2c",
         "--player", PLAYER, "--wager", "25", says="Zz"),
    case("player's six cards", "paigow", "settle", "--dealer", DEALER, "--player",
         "Js Jd Ac Qh 8s 5d", "--wager", "25", says="got 6"),
    case("a card in both hands", "paigow", "settle", "--dealer", DEALER, "--player",
         "As Jd Ac Qh 8s 5d 3h", "--wager", "25", says="As"),
    case("high hand of four", "paigow", "settle", "--dealer", DEALER, "--high", "Js Jd Ac Qh",
         "--low", "8s 5d 3h", "--wager", "25", says="got 4"),
    *money_cases(),
    case("treasure 1e400", *settle("--treasure", "1e400"), says="treasure"),
    case("insurance nan", *settle("--insurance", "nan"), says="insurance"),
    case("progressive treasure -1", *settle("--progressive-treasure=-1"), says="treasure"),
    case("progressive insurance a tenth of a cent", *settle("--progressive-insurance", "0.001"),
         says="insurance"),
    case("wager over the table limit", *settle(wager="5001"), says="limit"),
    case("insurance on the dealer without insurance", *settle("--insurance-on-dealer"),
         says="insurance"),
    case("wager nan with --json", *settle("--json", wager="nan"), says="wager", as_json=True),
    # --- house rules ----------------------------------------------------------------------
    case("profile missing", "paigow", "set", SEVEN, "--profile", "{tmp}/nowhere/p.yaml",
         says="p.yaml"),
    case("profile directory", "paigow", "set", SEVEN, "--profile", "{tmp}/p.yaml",
         says="p.yaml", files={"p.yaml": DIR}),
    case("profile not UTF-8", "paigow", "set", SEVEN, "--profile", "{tmp}/p.yaml",
         says="p.yaml", files={"p.yaml": LATIN1}),
    case("profile too large", "paigow", "set", SEVEN, "--profile", "{tmp}/p.yaml",
         says="p.yaml", files={"p.yaml": MB50}),
    case("profile /dev/zero", "paigow", "set", SEVEN, "--profile", "/dev/zero",
         says="/dev/zero"),
    case("profile alias bomb", "paigow", "set", SEVEN, "--profile", "{tmp}/p.yaml",
         says="p.yaml", files={"p.yaml": BOMB}),
    case("profile duplicate key", "paigow", "set", SEVEN, "--profile", "{tmp}/p.yaml",
         says="foul", files={"p.yaml": text("rules:\n  foul: reset\n  foul: push\n")}),
    case("profile wrong types", "paigow", "set", SEVEN, "--profile", "{tmp}/p.yaml",
         says="p.yaml", files={"p.yaml": text("name: [1]\nrules: 5\n")}),
    case("profile unknown setting", "paigow", "set", SEVEN, "--profile", "{tmp}/p.yaml",
         says="bogus", files={"p.yaml": text("rules:\n  bogus: 1\n")}),
    case("profile limit 1e400", *settle("--profile", "{tmp}/p.yaml"), says="p.yaml",
         files={"p.yaml": text("limits:\n  base: {min: 5, max: 1e400}\n")}),
    case("rule unknown key", "paigow", "set", SEVEN, "--rule", "bogus=1", says="bogus"),
    case("rule bad value", "paigow", "set", SEVEN, "--rule", "foul=maybe", says="foul"),
    case("rule wager=1e400", "paigow", "set", SEVEN, "--rule", "wager=1e400", says="wager"),
    case("rule without =", "paigow", "set", SEVEN, "--rule", "foul", says="--rule"),
    case("rule limit 1e400", *settle("--rule", "limits.base.max=1e400"), says="limits.base"),
    case("rule cap negative", *settle("--rule", "caps.treasure.per_hand=-5"), says="caps"),
    case("rule meter seed nan", *settle("--rule", "meters.progressive_treasure.seed=nan"),
         says="meters"),
    case("rule value of 5,000 digits", "paigow", "set", SEVEN, "--rule",
         "envy_minimum=" + "9" * 5000, says="envy_minimum"),
    case("rule duplicate keys", "paigow", "set", SEVEN, "--rule",
         "rules={foul: reset, foul: push}", says="foul"),
    case("rule alias bomb", "paigow", "set", SEVEN, "--rule", "rules=" + _bomb(4, 200),
         says="--rule"),
    case("demo bad rule", "demo", "--seed", "1", "--rule", "foul=maybe", says="foul"),
    case("table bad profile", "table", "--profile", "{tmp}/p.yaml", says="p.yaml",
         files={"p.yaml": BOMB}),
    # --- batch files ----------------------------------------------------------------------
    case("batch missing", "paigow", "rank", "--batch", "{tmp}/nowhere/b.txt", says="b.txt"),
    case("batch directory", "paigow", "rank", "--batch", "{tmp}/b.txt", says="b.txt",
         files={"b.txt": DIR}),
    case("batch not UTF-8", "paigow", "rank", "--batch", "{tmp}/b.txt", says="b.txt",
         files={"b.txt": BINARY}),
    case("batch /dev/zero", "genpoker", "rank", "--batch", "/dev/zero", says="/dev/zero"),
    case("batch 50 MB", "paigow", "rank", "--batch", "{tmp}/b.txt", says="b.txt",
         files={"b.txt": MB50}),
    case("batch line of 10 MB on stdin", "paigow", "rank", "--batch", "-", says="line 1",
         stdin=b"A" * (10 * 1024 * 1024) + b"\n"),
    case("batch of one bad line", "paigow", "rank", "--batch", "{tmp}/b.txt", says="Zz",
         files={"b.txt": text("Zz Kd Qh Js Tc\n")}),
    case("batch not UTF-8 on stdin", "burosh", "rank", "--trump", "h", "--batch", "-",
         says="stdin", stdin=b"\xff\xfe Ah\n"),
    # --- round files ----------------------------------------------------------------------
    case("round missing", "round", "{tmp}/nowhere/r.yaml", says="r.yaml"),
    case("round directory", "round", "{tmp}/r.yaml", says="r.yaml", files={"r.yaml": DIR}),
    case("round not UTF-8", "round", "{tmp}/r.yaml", says="r.yaml", files={"r.yaml": BINARY}),
    case("round 50 MB", "round", "{tmp}/r.yaml", says="r.yaml", files={"r.yaml": MB50}),
    case("round /dev/urandom", "round", "/dev/urandom", says="/dev/urandom"),
    case("round seat of 5,000 digits", "round", "{tmp}/r.yaml", says="5,000 characters",
         files={"r.yaml": round_with("9" * 5000)}),
    case("round alias bomb", "round", "{tmp}/r.yaml", says="r.yaml", files={"r.yaml": BOMB}),
    case("round duplicate key", "round", "{tmp}/r.yaml", says="dealer",
         files={"r.yaml": round_with(head=ROUND.replace("seats:", "dealer: 2c\nseats:"))}),
    case("round empty", "round", "{tmp}/r.yaml", says="r.yaml", files={"r.yaml": text("")}),
    case("round a list", "round", "{tmp}/r.yaml", says="r.yaml",
         files={"r.yaml": text("- 1\n- 2\n")}),
    case("round wrong types", "round", "{tmp}/r.yaml", says="dealer",
         files={"r.yaml": text("dealer: 5\nseats: hello\n")}),
    case("round seat 7", "round", "{tmp}/r.yaml", says="seat 7", files={"r.yaml": round_with("7")}),
    case("round seat 0", "round", "{tmp}/r.yaml", says="seat 0", files={"r.yaml": round_with("0")}),
    case("round seat -1", "round", "{tmp}/r.yaml", says="seat -1",
         files={"r.yaml": round_with("-1")}),
    case("round seat 1.5", "round", "{tmp}/r.yaml", says="seat 1.5",
         files={"r.yaml": round_with("1.5")}),
    case("round seat 10**30", "round", "{tmp}/r.yaml", says="seat",
         files={"r.yaml": round_with("1" + "0" * 30)}),
    case("round wager 1e400", "round", "{tmp}/r.yaml", says="1e400",
         files={"r.yaml": round_with(base="1e400")}),
    case("round wager .nan", "round", "{tmp}/r.yaml", says="base wager",
         files={"r.yaml": round_with(base=".nan")}),
    case("round wager -5", "round", "{tmp}/r.yaml", says="-5",
         files={"r.yaml": round_with(base="-5")}),
    case("round wager 0.001", "round", "{tmp}/r.yaml", says="0.001",
         files={"r.yaml": round_with(base="0.001")}),
    case("round wager true", "round", "{tmp}/r.yaml", says="base wager",
         files={"r.yaml": round_with(base="true")}),
    case("round wager '1,000'", "round", "{tmp}/r.yaml", says="1,000",
         files={"r.yaml": round_with(base="'1,000'")}),
    case("round wager 10**30", "round", "{tmp}/r.yaml", says="base wager",
         files={"r.yaml": round_with(base="1" + "0" * 30)}),
    case("round table with control characters", "round", "{tmp}/r.yaml", says="table",
         files={"r.yaml": round_with(head=ROUND.replace("PG-1", '"PG\\e]0;pwned\\a"'))}),
    case("round table of 100 KB", "round", "{tmp}/r.yaml", says="table",
         files={"r.yaml": round_with(head=ROUND.replace("PG-1", "T" * 100_000))}),
    case("round table a mapping", "round", "{tmp}/r.yaml", says="table",
         files={"r.yaml": round_with(head=ROUND.replace("PG-1", "{a: 1}"))}),
    case("round from stdin of 50 MB", "round", "-", says="stdin",
         stdin=b"#" * (50 * 1024 * 1024)),
    case("round from stdin alias bomb", "round", "-", says="stdin",
         stdin=_bomb().encode("utf-8")),
    case("round from stdin not UTF-8", "round", "-", says="stdin", stdin=b"table: PG-\xff\n"),
    case("round with --json", "round", "{tmp}/r.yaml", "--json", says="seat 7", as_json=True,
         files={"r.yaml": round_with("7")}),
    # --- the audit log named with --db or DEALER_DB -----------------------------------------
    case("db not SQLite", "paigow", "rank", FIVE, "--db", "{tmp}/x.db", says="x.db",
         files={"x.db": NOT_SQLITE}),
    case("db an unrelated SQLite database", "paigow", "rank", FIVE, "--db", "{tmp}/x.db",
         says="x.db", files={"x.db": other_sqlite}),
    case("db a broken SQLite file", "paigow", "rank", FIVE, "--db", "{tmp}/x.db",
         says="x.db", files={"x.db": BROKEN_SQLITE}),
    case("db a directory", "paigow", "rank", FIVE, "--db", "{tmp}/x.db", says="x.db",
         files={"x.db": DIR}),
    case("db in a missing folder", "paigow", "rank", FIVE, "--db", "{tmp}/nowhere/x.db",
         says="nowhere"),
    case("db not SQLite, reading", "audit", "list", "--db", "{tmp}/x.db", says="x.db",
         files={"x.db": NOT_SQLITE}),
    case("db unrelated SQLite, verifying", "audit", "verify", "--db", "{tmp}/x.db",
         says="x.db", files={"x.db": other_sqlite}),
    case("db unrelated SQLite, a session", "table", "--db", "{tmp}/x.db", says="x.db",
         files={"x.db": other_sqlite}),
    case("db missing, reading", "audit", "show", "1", "--db", "{tmp}/none.sqlite",
         says="none.sqlite"),
    case("db not SQLite, shift", "shift", "summary", "--db", "{tmp}/x.db", says="x.db",
         files={"x.db": NOT_SQLITE}),
    case("DEALER_DB not SQLite", "paigow", "rank", FIVE, says="x.db",
         files={"x.db": NOT_SQLITE}, env={"DEALER_DB": "{tmp}/x.db"}),
    case("DEALER_DB a directory", "audit", "dispute", "list", says="x.db",
         files={"x.db": DIR}, env={"DEALER_DB": "{tmp}/x.db"}),
    case("DEALER_DB in a missing folder", "hyrule", "turn", "Jh 3d", says="nowhere",
         env={"DEALER_DB": "{tmp}/nowhere/x.db"}),
    case("DEALER_DB unrelated SQLite, a supervisor action", "audit", "void", RULING,
         "--reason", "misdeal", *SUP, says="x.db", files={"x.db": other_sqlite},
         env={"DEALER_DB": "{tmp}/x.db"}),
    # --- who and where: ids and environment variables ------------------------------------
    case("DEALER_USER with spaces", "paigow", "rank", FIVE, says="user",
         env={"DEALER_USER": "d 1"}),
    case("DEALER_USER control characters", "paigow", "rank", FIVE, says="user",
         env={"DEALER_USER": f"d-1{PWNED}"}),
    case("DEALER_USER of 100 KB", "paigow", "rank", FIVE, says="user",
         env={"DEALER_USER": "d" * 100_000}),
    case("--user with a newline", "paigow", "rank", FIVE, "--user", "d-1\nsup-1", says="user"),
    case("DEALER_TABLE control characters", "paigow", "rank", FIVE, says="table",
         env={"DEALER_TABLE": f"PG{PWNED}"}),
    case("DEALER_TABLE with a newline", "paigow", "rank", FIVE, says="table",
         env={"DEALER_TABLE": "PG-1\nPG-2"}),
    case("DEALER_TABLE of 100 KB", "paigow", "rank", FIVE, says="table",
         env={"DEALER_TABLE": "T" * 100_000}),
    case("--table control characters", "burosh", "rank", "Ah", "--trump", "h", "--table",
         f"B{PWNED}", says="table"),
    case("--table blank", "genpoker", "rank", "1R 2B 3R1 4R1 5R1", "--table", " ",
         says="table"),
    case("DEALER_PIN wrong", "audit", "void", RULING, "--reason", "misdeal",
         "--supervisor", "sup-1", says="PIN", env={"DEALER_PIN": "0000"}, denied=True),
    case("DEALER_EMPIRE_COMBINATIONS missing", "empire", "rank", "red-sword", says="c.yaml",
         env={"DEALER_EMPIRE_COMBINATIONS": "{tmp}/nowhere/c.yaml"}),
    # --- the other games ------------------------------------------------------------------
    case("burosh unknown trump", "burosh", "rank", "EM", "Ah", "--trump", "x", says="x"),
    case("burosh trump control characters", "burosh", "rank", "Ah", "--trump", f"h{PWNED}",
         says="trump"),
    case("burosh empty trump", "burosh", "rank", "Ah", "--trump", "", says="trump"),
    usage("burosh no cards", "burosh", "rank", "--trump", "h", says="cards"),
    case("burosh unknown card", "burosh", "rank", "Zz", "--trump", "h", says="Zz"),
    case("burosh duplicate", "burosh", "rank", "Ah Ah", "--trump", "h", says="Ah"),
    case("burosh six cards", "burosh", "rank", "Ah Kh Qh Jh Th 9h", "--trump", "h",
         says="1 to 5"),
    case("burosh one hand", "burosh", "compare", "Ks Kh", "--trump", "s", says="two"),
    case("burosh a card in two hands", "burosh", "compare", "Ks Kh", "Ks Kd", "--trump", "s",
         says="Ks"),
    case("burosh unknown card with --json", "burosh", "compare", "Ks Zz", "Kd", "--trump", "s",
         "--json", says="Zz", as_json=True),
    case("hyrule unknown card", "hyrule", "turn", "Zz", "3d", says="Zz"),
    case("hyrule one card", "hyrule", "turn", "Jh", says="got 1"),
    case("hyrule eight cards", "hyrule", "turn", "2h 3h 4h 5h 6h 7h 8h 9h", says="got 8"),
    case("hyrule duplicate", "hyrule", "turn", "Jh Jh", says="Jh"),
    case("hyrule three jokers", "hyrule", "turn", "JK JK JK", says="joker"),
    case("hyrule deck too short", "hyrule", "game", "--players", "2", "--deck", "Jh 3d",
         says="deck"),
    case("hyrule deck of 10 KB", "hyrule", "game", "--players", "2", "--deck", "Q" * 10_000,
         says="deck"),
    case("genpoker unknown card", "genpoker", "rank", "7R 2B 3R1 4R1 5R1", says="7R"),
    case("genpoker four cards", "genpoker", "rank", "1R 2B 3R1 4R1", says="got 4"),
    case("genpoker duplicate", "genpoker", "rank", "1R 1R 3R1 4R1 5R1", says="1R"),
    case("genpoker one hand", "genpoker", "compare", "1R 2B 3R1 4R1 5R1", says="two"),
    case("genpoker a card in two hands", "genpoker", "compare", "1R 2B 3R1 4R1 5R1",
         "1R 2R 3B1 4B1 5B1", says="1R"),
    case("genpoker an empty hand", "genpoker", "compare", "1R 2B 3R1 4R1 5R1 | | 2R 3B1 4R2",
         says="hand"),
    case("empire unknown plaque", "empire", "rank", "bogus", says="bogus"),
    case("empire eight plaques", "empire", "rank", "red-sword blue-sword green-sword "
         "black-sword white-sword red-bow blue-bow green-bow", says="8"),
    usage("empire no plaques", "empire", "rank", "", says="plaques"),
    case("empire one tableau", "empire", "compare", "red-sword", says="two"),
    case("empire unknown other", "empire", "rank", "red-sword", "--other", "bogus",
         says="bogus"),
    case("empire combinations missing", "empire", "rank", "red-sword", "--combinations",
         "{tmp}/nowhere/c.yaml", says="c.yaml"),
    case("empire combinations directory", "empire", "compare", "red-sword", "dragon",
         "--combinations", "{tmp}/c.yaml", says="c.yaml", files={"c.yaml": DIR}),
    case("empire combinations not UTF-8", "empire", "rank", "red-sword", "--combinations",
         "{tmp}/c.yaml", says="c.yaml", files={"c.yaml": LATIN1}),
    case("empire combinations alias bomb", "empire", "rank", "red-sword", "--combinations",
         "{tmp}/c.yaml", says="c.yaml", files={"c.yaml": BOMB}),
    case("empire combinations 50 MB", "empire", "rank", "red-sword", "--combinations",
         "{tmp}/c.yaml", says="c.yaml", files={"c.yaml": MB50}),
    case("empire combinations wrong types", "empire", "rank", "red-sword", "--combinations",
         "{tmp}/c.yaml", says="c.yaml", files={"c.yaml": text("name: 5\ncombinations: x\n")}),
    case("empire combinations duplicate key", "empire", "rank", "red-sword",
         "--combinations", "{tmp}/c.yaml", says="name",
         files={"c.yaml": text("name: a\nname: b\n")}),
    # --- pay tables and analysis (they never open the log) -----------------------------------
    case("pay table unknown", "paytables", "show", "NOSUCH", says="NOSUCH", **NO_LOG),
    case("pay table id with control characters", "paytables", "show", f"E01{PWNED}",
         says="pay table", **NO_LOG),
    case("pay table unknown with --json", "paytables", "show", "NOSUCH", "--json",
         says="NOSUCH", as_json=True, **NO_LOG),
    case("pay-table file missing", "paytables", "validate", "{tmp}/nowhere/t.yaml",
         says="t.yaml", **NO_LOG),
    case("pay-table file directory", "paytables", "validate", "{tmp}/t.yaml", says="t.yaml",
         files={"t.yaml": DIR}, **NO_LOG),
    case("pay-table file not UTF-8", "paytables", "validate", "{tmp}/t.yaml", says="t.yaml",
         files={"t.yaml": BINARY}, **NO_LOG),
    case("pay-table file alias bomb", "paytables", "validate", "{tmp}/t.yaml", says="t.yaml",
         files={"t.yaml": BOMB}, **NO_LOG, **NOT_A_RULING),
    case("pay-table file 50 MB", "paytables", "validate", "{tmp}/t.yaml", says="t.yaml",
         files={"t.yaml": MB50}, **NO_LOG),
    case("pay-table file wrong types", "paytables", "validate", "{tmp}/t.yaml", says="t.yaml",
         files={"t.yaml": text("schema: one\ntables: 5\n")}, **NO_LOG, **NOT_A_RULING),
    case("pay-table folder missing", "paytables", "list", "--tables", "{tmp}/nowhere",
         says="nowhere", **NO_LOG),
    case("pay-table folder a file", "paytables", "list", "--tables", "{tmp}/t.yaml",
         says="t.yaml", files={"t.yaml": text("schema: 1\n")}, **NO_LOG),
    case("pay-table folder with a bomb", "paytables", "list", "--tables", "{tmp}/tables",
         says="t.yaml", files={"tables": folder(**{"t.yaml": BOMB})}, **NO_LOG),
    case("pay-table folder with a binary file", "paytables", "show", "E01", "--tables",
         "{tmp}/tables", says="t.yaml", files={"tables": folder(**{"t.yaml": BINARY})},
         **NO_LOG),
    case("analyze unknown pay table", "analyze", "paytable", "NOSUCH", says="NOSUCH", **NO_LOG),
    case("analyze wager 1e400", "analyze", "paytable", "E01", "--wager", "1e400",
         says="wager", **NO_LOG),
    case("analyze wager nan", "analyze", "paytable", "E01", "--wager", "nan", says="wager",
         **NO_LOG),
    case("analyze meter -5", "analyze", "paytable", "PT-BJS-EC-ET-01", "--meter=-5",
         says="meter", **NO_LOG),
    case("analyze meter 10**31", "analyze", "paytable", "PT-BJS-EC-ET-01", "--meter", HUGE,
         says="meter", **NO_LOG),
    case("analyze pay tables missing", "analyze", "paytable", "E01", "--paytables",
         "{tmp}/nowhere.yaml", says="nowhere.yaml", **NO_LOG),
    case("analyze bad rule", "analyze", "paytable", "E01", "--rule", "bogus=1", says="bogus",
         **NO_LOG),
    case("house-edge rounds 0", "analyze", "house-edge", "--rounds", "0", says="rounds",
         **NO_LOG),
    case("house-edge rounds 10**31", "analyze", "house-edge", "--rounds", HUGE,
         "--workers", "1", says="rounds", **NO_LOG),
    case("house-edge workers 0", "analyze", "house-edge", "--rounds", "10", "--workers", "0",
         says="workers", **NO_LOG),
    case("house-edge workers 10**6", "analyze", "house-edge", "--rounds", "10000000",
         "--workers", "1000000", says="workers", **NO_LOG),
    case("house-edge unknown player", "analyze", "house-edge", "--rounds", "10", "--player",
         "nobody", says="nobody", **NO_LOG),
    case("house-edge unknown House Way", "analyze", "house-edge", "--rounds", "10",
         "--house-way", "nosuch", says="nosuch", **NO_LOG),
    case("report wager nan", "analyze", "report", "--wager", "nan", says="wager", **NO_LOG),
    case("report meter 1e400", "analyze", "report", "--treasure-meter", "1e400",
         says="meter", **NO_LOG),
    case("report pay tables alias bomb", "analyze", "report", "--paytables", "{tmp}/t.yaml",
         says="t.yaml", files={"t.yaml": BOMB}, **NO_LOG),
    # --- the audit commands -------------------------------------------------------------------
    case("show record 0", "audit", "show", "0", says="0"),
    case("show record -1", "audit", "show", "--", "-1", says="-1"),
    case("show record 10**31", "audit", "show", HUGE, says=HUGE),
    case("show record not there", "audit", "show", "999", says="999"),
    case("list since yesterday", "audit", "list", "--since", "yesterday", says="yesterday"),
    case("list until 2026-13-45", "audit", "list", "--until", "2026-13-45", says="2026-13-45"),
    case("list since year 0", "audit", "list", "--since", "0001-01-01T00:00+01:00",
         says="0001-01-01T00:00+01:00"),
    case("list id 0", "audit", "list", "--id", "0", says="0"),
    case("list links to 10**31", "audit", "list", "--links-to", HUGE, says=HUGE),
    case("search seat 9", "audit", "search", "--seat", "9", says="seat"),
    case("list limit -1", "audit", "list", "--limit=-1", says="limit"),
    case("export format xml", "audit", "export", "--format", "xml", says="xml"),
    case("export into a missing folder", "audit", "export", "--format", "csv", "-o",
         "{tmp}/nowhere/x.csv", says="nowhere"),
    case("export onto a directory", "audit", "export", "--format", "jsonl", "-o",
         "{tmp}/out", says="out", files={"out": DIR}),
    case("verify checkpoint garbage", "audit", "verify", "--checkpoint", "garbage",
         says="garbage"),
    case("verify checkpoint file not UTF-8", "audit", "verify", "--checkpoint",
         "{tmp}/c.chk", says="c.chk", files={"c.chk": BINARY}),
    case("verify checkpoint file 50 MB", "audit", "verify", "--checkpoint", "{tmp}/c.chk",
         says="c.chk", files={"c.chk": MB50}),
    case("verify checkpoint 0:hash", "audit", "verify", "--checkpoint", "0:" + "0" * 64,
         says="0:"),
    case("checkpoint into a missing folder", "audit", "checkpoint", "-o",
         "{tmp}/nowhere/x.chk", "--user", "sup-1", "--pin", "signal-9876", says="nowhere"),
    case("checkpoint by an unregistered id", "audit", "checkpoint", "--user", "nobody-9",
         "--pin", "signal-9876", says="nobody-9"),
    case("checkpoint by a dealer", "audit", "checkpoint", "--user", "d-1", "--pin",
         "ledger-4817", says="d-1", denied=True),
    case("checkpoint wrong PIN", "audit", "checkpoint", "--user", "sup-1", "--pin", "0000",
         says="PIN", denied=True),
    case("override record 0", "audit", "override", "0", "--decision", "push", "--reason",
         "misdeal", *SUP, says="0"),
    case("override record not there", "audit", "override", "999", "--decision", "push",
         "--reason", "misdeal", *SUP, says="999"),
    case("override reason with control characters", "audit", "override", RULING,
         "--decision", "push", "--reason", f"misdeal{PWNED}", *SUP, says="reason"),
    case("override blank reason", "audit", "override", RULING, "--decision", "push",
         "--reason", " ", *SUP, says="reason"),
    case("override reason of 100 KB", "audit", "override", RULING, "--decision", "push",
         "--reason", "x" * 100_000, *SUP, says="reason"),
    case("override result not JSON", "audit", "override", RULING, "--decision", "push",
         "--reason", "misdeal", "--result", "{not json", *SUP, says="--result"),
    case("override result a list", "audit", "override", RULING, "--decision", "push",
         "--reason", "misdeal", "--result", "[1, 2]", *SUP, says="--result"),
    case("override decision with a newline", "audit", "override", RULING, "--decision",
         "push\nwin", "--reason", "misdeal", *SUP, says="decision"),
    case("void record -1", "audit", "void", "--reason", "x", *SUP, "--", "-1", says="-1"),
    case("void wrong PIN", "audit", "void", RULING, "--reason", "misdeal", "--supervisor",
         "sup-1", "--pin", "0000", says="PIN", denied=True),
    case("void supervisor id with control characters", "audit", "void", RULING, "--reason",
         "misdeal", "--supervisor", f"sup-1{PWNED}", "--pin", "signal-9876", says="sup-1"),
    case("approve a missing profile", "audit", "approve-profile", "{tmp}/nowhere/p.yaml",
         "--reason", "new rules", *SUP, says="p.yaml"),
    case("approve a profile alias bomb", "audit", "approve-profile", "{tmp}/p.yaml",
         "--reason", "new rules", *SUP, says="p.yaml", files={"p.yaml": BOMB}),
    case("approve a profile of wrong types", "audit", "approve-profile", "{tmp}/p.yaml",
         "--reason", "new rules", *SUP, says="p.yaml", files={"p.yaml": text("rules: 5\n")}),
    case("approve a 50 MB pay-table file", "audit", "approve-paytables", "{tmp}/t.yaml",
         "--reason", "new tables", *SUP, says="t.yaml", files={"t.yaml": MB50}),
    case("approve pay tables of wrong types", "audit", "approve-paytables", "{tmp}/t.yaml",
         "--reason", "new tables", *SUP, says="t.yaml",
         files={"t.yaml": text("schema: one\n")}),
    case("dispute blank description", "audit", "dispute", "open", " ", says="description"),
    case("dispute description with control characters", "audit", "dispute", "open",
         f"patron{PWNED}", says="description"),
    case("dispute description of 100 KB", "audit", "dispute", "open", "d" * 100_000,
         says="description"),
    case("dispute time after year 9999", "audit", "dispute", "open", "misdeal", "--time",
         "9999-12-31T23:00-05:00", says="9999-12-31T23:00-05:00"),
    case("dispute seat 9", "audit", "dispute", "open", "misdeal", "--seat", "9", says="seat"),
    case("dispute time tomorrow", "audit", "dispute", "open", "misdeal", "--time", "tomorrow",
         says="tomorrow"),
    case("dispute ruling 0", "audit", "dispute", "open", "misdeal", "--ruling", "0",
         says="0"),
    case("dispute ruling not there", "audit", "dispute", "open", "misdeal", "--ruling", "999",
         says="999"),
    case("dispute ruling 10**31", "audit", "dispute", "open", "misdeal", "--ruling", HUGE,
         says=HUGE),
    case("dispute party with control characters", "audit", "dispute", "open", "misdeal",
         "--party", f"seat 1{PWNED}", says="party"),
    case("dispute video with a newline", "audit", "dispute", "open", "misdeal", "--video",
         "CAM-1\nCAM-2", says="video"),
    case("resolve a ruling, not a dispute", "audit", "dispute", "resolve", RULING, "--outcome",
         "no-error", *REVIEWER, "--reason", "checked", *SUP, says=RULING),
    case("resolve outcome unknown", "audit", "dispute", "resolve", DISPUTE, "--outcome",
         "maybe", *REVIEWER, "--reason", "checked", *SUP, says="maybe"),
    *[
        case(f"resolve amount {label}", "audit", "dispute", "resolve", DISPUTE, "--outcome",
             "dealer-error", *REVIEWER, "--reason", "short paid", "--amount", amount,
             *SUP, says="amount")
        for label, amount in [("1e400", "1e400"), ("nan", "nan"), ("0.001", "0.001"),
                              ("1,000", "1,000"), ("10**31", HUGE)]
    ],
    case("resolve reviewer with control characters", "audit", "dispute", "resolve", DISPUTE,
         "--outcome", "no-error", "--reviewer", f"aud{PWNED}", "--reason", "checked", *SUP,
         says="reviewer"),
    case("user id with a space", "audit", "user", "add", "d 2", "--role", "dealer",
         "--new-pin", "4321", *SUP, says="d 2"),
    case("user id with control characters", "audit", "user", "add", f"d-2{PWNED}", "--role",
         "dealer", "--new-pin", "4321", *SUP, says="user id"),
    case("user id of 100 KB", "audit", "user", "add", "d" * 100_000, "--role", "dealer",
         "--new-pin", "4321", *SUP, says="user id"),
    case("user role unknown", "audit", "user", "add", "d-2", "--role", "king", "--new-pin",
         "4321", *SUP, says="king"),
    case("user set someone unknown", "audit", "user", "set", "nobody", "--role", "dealer",
         *SUP, says="nobody"),
    case("user set role unknown", "audit", "user", "set", "d-1", "--role", "king", *SUP,
         says="king"),
    case("meter unknown", "audit", "meter", "show", "bogus", says="bogus"),
    case("meter name with control characters", "audit", "meter", "show", f"treasure{PWNED}",
         says="meter"),
    *[
        case(f"meter adjust {label}", "audit", "meter", "adjust", "progressive_treasure",
             value, "--reason", "new meter", *SUP, says=value)
        for label, value in [("1e400", "1e400"), ("nan", "nan"), ("0.001", "0.001"),
                             ("10**31", HUGE)]
    ],
    case("meter adjust -5", "audit", "meter", "adjust", "--reason", "new meter", *SUP,
         "--", "progressive_treasure", "-5", says="-5"),
    case("meter adjust unknown meter", "audit", "meter", "adjust", "bogus", "100",
         "--reason", "x", *SUP, says="bogus"),
    # --- shift reports ----------------------------------------------------------------------
    case("shift since yesterday", "shift", "summary", "--since", "yesterday",
         says="yesterday"),
    case("shift until February 30", "shift", "summary", "--until", "2026-02-30",
         says="2026-02-30"),
    case("shift hour 25", "shift", "summary", "--since", "2026-05-09T25:00",
         says="2026-05-09T25:00"),
    case("shift until after the last day", "shift", "summary", "--until", "10000-01-01",
         says="10000-01-01"),
    case("shift since after until", "shift", "summary", "--since", "2026-05-10", "--until",
         "2026-05-09", says="--since"),
    case("shift table with control characters", "shift", "summary", "--table", f"PG{PWNED}",
         says="table"),
    case("shift no log", "shift", "summary", "--db", "{tmp}/none.sqlite", says="none.sqlite",
         **NO_LOG),
    case("shift since with --json", "shift", "summary", "--since", "soon", "--json",
         says="soon", as_json=True),
    # --- live sessions on a pipe, fed only refused lines --------------------------------------
    case("table unknown dealer card", "table", says="Zz", session=True,
         stdin=lines("Zz Kd 9c 7h 5s 3d 2c")),
    *[
        case(f"table seat {seat}", "table", says=says, session=True,
             stdin=lines(DEALER, f"{seat} {PLAYER} base 25"))
        for seat, says in (("7", "seat 7"), ("0", "seat 0"), ("-1", "'-1'"), ("1.5", "'1.5'"))
    ],
    *[
        case(f"table base {label}", "table", says=amount, session=True,
             stdin=lines(DEALER, f"1 {PLAYER} base {amount}"))
        for label, amount in [("1e400", "1e400"), ("-5", "-5"), ("0.001", "0.001"),
                              ("nan", "nan"), ("10**31", HUGE)]
    ],
    case("table settle with no seat", "table", says="settle", session=True,
         stdin=lines(DEALER, "settle")),
    case("table control characters", "table", says="line 1", session=True,
         stdin=lines(f"As Kd{PWNED}")),
    case("table not UTF-8", "table", says="line 1", session=True, stdin=b"\xff\xfe As\n"),
    case("table line of 3 MB", "table", says="line 1", session=True,
         stdin=b"As " * (1024 * 1024) + b"\n"),
    case("hyrule bad moves", "hyrule", "game", "--players", "2", "--seed", "1", says="9",
         session=True, stdin=lines("play Zz", "leader 9", "swap")),
    case("hyrule control characters", "hyrule", "game", "--players", "2", "--seed", "1",
         says="line 1", session=True, stdin=lines(f"leader 1{PWNED}")),
    case("genpoker bad moves", "genpoker", "draw", "--players", "2", "--seed", "1", says="ZZ",
         session=True, stdin=lines("discard ZZ", "seat 9 stand", "discard 1R 2R 3R 4R")),
    case("genpoker not UTF-8", "genpoker", "draw", "--players", "2", "--seed", "1",
         says="line 1", session=True, stdin=b"discard \xff\n"),
    case("empire bad moves", "empire", "hand", "--players", "2", "--seed", "1", says="1e400",
         session=True, stdin=lines("bet 1e400", "raise -1", "fly", f"bet 1{'0' * 30}")),
    case("empire digits that are not 0-9", "empire", "hand", "--players", "2", "--seed", "1",
         says="\u00b2", session=True,
         stdin=lines("bet \u00b2", "seat \u00b2 bet 1", "seat \u0663 bet 1", "bet " + "9" * 5000)),
    case("hyrule digits that are not 0-9", "hyrule", "game", "--players", "2", "--seed", "1",
         says="\u00b2", session=True, stdin=lines("leader \u00b2", "leader " + "9" * 5000)),
    case("genpoker digits that are not 0-9", "genpoker", "draw", "--players", "2", "--seed", "1",
         says="\u0663", session=True, stdin=lines("seat \u0663 stand", "seat \u00b2 stand")),
    case("empire seat 9", "empire", "hand", "--players", "2", "--seed", "1", says="9",
         session=True, stdin=lines("seat 9 bet 1")),
]
# fmt: on


def _records(log: Path) -> list[tuple[int, str]]:
    """The id and kind of every record of a log, in order."""
    with sqlite3.connect(log) as conn:
        rows = conn.execute("SELECT id, kind FROM records ORDER BY id").fetchall()
    conn.close()
    return [(int(i), str(k)) for i, k in rows]


def _seen(path: Path) -> str:
    """A file's SHA-256; a file over 1 MiB (made sparse, to be refused for its size) by its size."""
    if path.stat().st_size > 1024 * 1024:
        return f"{path.stat().st_size} bytes"
    with path.open("rb") as data:
        return hashlib.file_digest(data, "sha256").hexdigest()


def _made(place: Path) -> dict[Path, str]:
    """Every regular file under `place`, as `_seen` (a file named as a log stays as it was)."""
    return {p: _seen(p) for p in place.rglob("*") if p.is_file()}


@pytest.fixture(scope="module")
def prepared(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An audit log: supervisors sup-1 (PIN signal-9876) and sup-2 (PIN tundra-5555), dealer d-1,
    a settled seat (record 4, with its meters, 5 and 6) and an open dispute of it (7)."""
    place = tmp_path_factory.mktemp("prepared")
    opened = "patron says the low hand was set wrong"
    bootstrap = [
        "audit",
        "user",
        "add",
        "sup-1",
        "--role",
        "supervisor",
        "--new-pin",
        "signal-9876",
    ]
    ran = run_dealer(bootstrap, cwd=place, env=dealer_env(place, {"DEALER_USER": None}))
    assert ran.status == 0, ran
    for args in (
        ["audit", "user", "add", "d-1", "--role", "dealer", "--new-pin", "ledger-4817", *SUP],
        ["audit", "user", "add", "sup-2", "--role", "supervisor", "--new-pin", "tundra-5555", *SUP],
        list(settle()),
        ["audit", "dispute", "open", opened, "--seat", "1", "--ruling", RULING],
    ):
        ran = run_dealer(args, cwd=place, env=dealer_env(place))
        assert ran.status == 0, ran
    log = place / "log.sqlite"
    assert not LogBytes.of(log).pending
    assert [r[0] for r in _records(log)] == list(range(1, RECORDS + 1))
    return log


class Outcome(NamedTuple):
    """What one tabled case did: the process, the files made for it before and after, and its
    log (the records after, the bytes) or whether one appeared."""

    ran: Ran
    made: dict[Path, str]
    after: dict[Path, str]
    records: list[tuple[int, str]] | None
    log: LogBytes | None
    log_created: bool
    default_folder: bool


def _attack(bad: Case, place: Path, prepared: Path) -> Outcome:
    """Run one case in its own folder `place` (a copy of the prepared log in it, if the case
    has a log)."""
    for name, make in bad.files.items():
        make(place / name)
    made = _made(place)
    log = place / "log.sqlite"
    if bad.log:
        shutil.copyfile(prepared, log)
    here = str(place)
    env = dealer_env(
        place, {k: None if v is None else v.replace("{tmp}", here) for k, v in bad.env.items()}
    )
    args = [a.replace("{tmp}", here) for a in bad.args]
    ran = run_dealer(args, cwd=place, env=env, stdin=bad.stdin)
    after = {p: _seen(p) for p in made if p.is_file()}
    return Outcome(
        ran,
        made,
        after,
        _records(log) if bad.log else None,
        LogBytes.of(log) if bad.log else None,
        log.exists(),
        (place / "logs").exists(),
    )


@pytest.fixture(scope="module")
def outcomes(
    request: pytest.FixtureRequest, prepared: Path, tmp_path_factory: pytest.TempPathFactory
) -> dict[str, Outcome]:
    """Every selected case, run a few processes at a time (each case in its own folder; the
    processes share nothing), so the table takes its time once per core, not once in all."""
    wanted = [getattr(item, "callspec", None) for item in request.session.items]
    chosen = [c for c in CASES if any(w is not None and w.params.get("bad") is c for w in wanted)]
    places = [tmp_path_factory.mktemp("case") for _ in chosen]
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        done = pool.map(lambda c, p: _attack(c, p, prepared), chosen, places)
        return {c.name: outcome for c, outcome in zip(chosen, done, strict=True)}


@pytest.mark.parametrize("bad", CASES, ids=[c.name for c in CASES])
def test_bad_input_is_refused_by_the_standard(
    bad: Case, outcomes: dict[str, Outcome], prepared: Path
) -> None:
    """The one refusal, naming the input; no file given rewritten; the log as it was."""
    did = outcomes[bad.name]
    if bad.session:
        said = "\n".join(session_refusals(did.ran))
    else:
        said = refusal(did.ran, bad.status, as_json=bad.as_json, quiet=bad.quiet)
    assert bad.says.casefold() in said.casefold(), said
    assert did.after == did.made  # no file given as input rewritten, not even a log not ours
    if bad.denied:
        assert did.records is not None
        assert [kind for _, kind in did.records[RECORDS:]] == ["access-denied"]
    elif bad.log:
        assert did.log == LogBytes.of(prepared)
    else:
        assert not did.log_created
    assert not did.default_folder  # the default log (logs/ here) was never reached for


def test_the_table_attacks_every_command_that_takes_input() -> None:
    """At least a hundred cases, and every command with an argument or option among them."""
    assert len(CASES) >= 100
    assert len({c.name for c in CASES}) == len(CASES)
    attacked = {" ".join(a for a in c.args[:3] if not a.startswith("-")) for c in CASES}
    for command in [
        "paigow rank",
        "paigow set",
        "paigow bonus",
        "paigow compare",
        "paigow settle",
        "round",
        "demo",
        "table",
        "paytables show",
        "paytables validate",
        "paytables list",
        "analyze paytable",
        "analyze house-edge",
        "analyze report",
        "audit show",
        "audit list",
        "audit search",
        "audit export",
        "audit verify",
        "audit checkpoint",
        "audit override",
        "audit void",
        "audit approve-profile",
        "audit approve-paytables",
        "audit dispute open",
        "audit dispute resolve",
        "audit dispute list",
        "audit user add",
        "audit user set",
        "audit meter show",
        "audit meter adjust",
        "burosh rank",
        "burosh compare",
        "hyrule turn",
        "hyrule game",
        "genpoker rank",
        "genpoker compare",
        "genpoker draw",
        "empire rank",
        "empire compare",
        "empire hand",
        "shift summary",
    ]:
        assert any(a == command or a.startswith(command + " ") for a in attacked), command


# --- generated bad values, in this process ---------------------------------------------------


@pytest.fixture()
def log(prepared: Path, tmp_path: Path) -> Path:
    path = tmp_path / "log.sqlite"
    shutil.copyfile(prepared, path)
    return path


def invoke(log: Path, *args: str) -> Result:
    """`dealer ARGS` in this process (as `main()` mounts it), at the log `log`."""
    env = {k: v for k, v in dealer_env(log.parent).items() if k.startswith("DEALER_")}
    return run(*args, env=env)


def refused(result: Result, says: str, status: int = 1) -> None:
    """The standard, for a command run in this process."""
    shown = f"exit {result.exit_code}\nstdout: {result.stdout!r}\nstderr: {result.stderr!r}"
    assert isinstance(result.exception, SystemExit), shown  # nothing escaped the CLI
    assert result.exit_code == status, shown
    assert result.stdout == "", shown
    lines = error_lines(result.stderr, shown)
    assert len(lines) == 1 and lines[0].startswith("Error: "), shown
    assert says.casefold() in lines[0].casefold(), shown


GENERATED = settings(
    max_examples=40,
    deadline=None,
    derandomize=True,
    database=None,
    phases=[Phase.explicit, Phase.generate],
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
"""The same 40 values on every run (derandomized, no example database), so a run never fails
by chance; a failure is reported as first generated, not shrunk (each accepted bad value is a
ruling written and synced to the log: shrinking through hundreds of them would take minutes).
The log is shared by a test's examples: each is checked against the log as it was before it."""
DIGITS = st.text("0123456789", min_size=1, max_size=12)
JUNK = st.sampled_from([*"xyz#%&*!?;:/\\|~^`'\"<>()[]{}", "\x00", "\x07", "\x1b", "\u200b"])
"""Characters that are in no amount and no card, and separate neither (no space, no comma)."""

BAD_AMOUNTS = st.one_of(
    DIGITS.filter(lambda d: d.strip("0")).map(lambda d: f"-{d}"),  # below zero
    st.tuples(DIGITS, st.integers(1, 9), st.integers(0, 99)).map(
        lambda t: f"{t[0]}.{t[2]:02d}{t[1]}"  # fractions of a cent
    ),
    st.tuples(DIGITS, st.sampled_from([",", " ", "\u00a0"]) | JUNK, DIGITS).map("".join),
    st.integers(31, 5000).map(lambda e: f"1e{e}"),  # more than anything
    st.integers(31, 400).map(lambda n: "9" * n),
    st.sampled_from(["nan", "NaN", "-nan", "snan", "inf", "-inf", "Infinity", "-0.001"]),
)


@given(amount=BAD_AMOUNTS)
@GENERATED
def test_a_generated_bad_amount_is_refused(log: Path, amount: str) -> None:
    before = LogBytes.of(log)
    refused(invoke(log, *settle(wager=amount)), "wager")
    assert LogBytes.of(log) == before


CARDS = [f"{r}{s}" for r in "23456789TJQKA" for s in "shdc"] + ["JK"]
NOT_A_CARD = st.one_of(
    st.tuples(st.sampled_from(CARDS), JUNK).map("".join),
    st.tuples(JUNK, st.sampled_from(CARDS)).map("".join),
    st.text(min_size=3).filter(
        lambda t: t.split() == [t] and "," not in t and t.lower() != "joker" and t[:2] != "10"
    ),
)


@given(
    hand=st.lists(st.sampled_from(CARDS), min_size=5, max_size=5, unique=True),
    bad=NOT_A_CARD,
    at=st.integers(0, 4),
)
@GENERATED
def test_a_generated_bad_card_is_refused(log: Path, hand: list[str], bad: str, at: int) -> None:
    hand[at] = bad
    before = LogBytes.of(log)
    refused(invoke(log, "paigow", "rank", " ".join(hand)), "card")
    assert LogBytes.of(log) == before


@given(hand=st.lists(st.sampled_from(CARDS), min_size=1, max_size=9))
@GENERATED
def test_a_generated_hand_of_the_wrong_size_or_with_a_repeat_is_refused(
    log: Path, hand: list[str]
) -> None:
    if len(set(hand)) == len(hand) and len(hand) in (2, 5):
        hand = hand + hand[:1]
    before = LogBytes.of(log)
    refused(invoke(log, "paigow", "rank", " ".join(hand)), "")  # the count, a card or the joker
    assert LogBytes.of(log) == before


@given(number=st.one_of(st.integers(max_value=0), st.integers(min_value=RECORDS + 1)))
@GENERATED
def test_a_generated_record_id_that_is_not_there_is_refused(log: Path, number: int) -> None:
    refused(invoke(log, "audit", "show", "--", str(number)), str(number))
    before = LogBytes.of(log)
    dispute = invoke(log, "audit", "dispute", "open", "misdeal", "--ruling", str(number))
    refused(dispute, str(number))
    assert LogBytes.of(log) == before


CONTROL = st.characters(codec="utf-8", categories=("Cc",))
WITH_CONTROL = st.tuples(
    st.text("ABCdef-123", min_size=1, max_size=8),
    CONTROL,
    st.text("ABCdef-123", min_size=1, max_size=8),
).map("".join)
"""A control character inside a value (at either end, one that counts as white space is trimmed
as spaces are, so it would not be in the value at all)."""


@given(table=WITH_CONTROL)
@GENERATED
def test_a_generated_table_id_with_control_characters_is_refused(log: Path, table: str) -> None:
    before = LogBytes.of(log)
    refused(invoke(log, "paigow", "rank", FIVE, "--table", table), "table")
    assert LogBytes.of(log) == before


@given(user=WITH_CONTROL)
@GENERATED
def test_a_generated_user_id_with_control_characters_is_refused(log: Path, user: str) -> None:
    before = LogBytes.of(log)
    refused(invoke(log, "hyrule", "turn", "Jh 3d", "--user", user), "user")
    assert LogBytes.of(log) == before


@given(reason=WITH_CONTROL)
@GENERATED
def test_a_generated_reason_with_control_characters_is_refused(log: Path, reason: str) -> None:
    before = LogBytes.of(log)
    refused(invoke(log, "audit", "void", RULING, "--reason", reason, *SUP), "reason")
    assert LogBytes.of(log) == before


# Documents, YAML scalars and stored money (findings 2, 3, 7)

YAML_NUMBERS = [
    "025",  # YAML 1.1: octal 21
    "010000",  # octal 4096
    "0x19",
    "0b11001",
    "1_000",
    "1:05",  # sexagesimal 65
    "2.5e+1",
    "+25",
    "25.000000000000001",
    "5.0e+0",
    "1e400",
    "1e-400",
    "'7,50'",
]
"""Numbers YAML 1.1 (or a float) reads as another amount; each is refused where money is meant."""


def _file(tmp_path: Path, name: str, content: str) -> Path:
    path = tmp_path / name
    path.write_text(content, encoding="utf-8")
    return path


@pytest.mark.parametrize("amount", YAML_NUMBERS)
def test_a_round_file_amount_yaml_would_read_as_a_number_is_refused(
    log: Path, tmp_path: Path, amount: str
) -> None:
    """Finding 2: `base: 025` was settled as $21, `0x19` as $25, `1:05` as $65."""
    path = _file(tmp_path, "r.yaml", ROUND + SEAT.format(seat="1", base=amount))
    before = LogBytes.of(log)
    refused(invoke(log, "round", str(path)), "base wager")
    assert LogBytes.of(log) == before


def test_a_round_file_id_is_kept_as_written(log: Path, tmp_path: Path) -> None:
    """Finding 2: `table: 012` was recorded at table 10 and `patron: 0012345` as 5349."""
    seat = SEAT.format(seat="1", base="25") + "    patron: 0012345\n"
    path = _file(tmp_path, "r.yaml", ROUND.replace("PG-1", "012") + seat)
    result = invoke(log, "round", str(path), "--json")
    assert result.exit_code == 0, result.output
    made = json.loads(result.stdout)
    assert made["table"] == "012"
    assert made["seats"][0]["patron"] == "0012345"
    path = _file(tmp_path, "s.yaml", ROUND + SEAT.format(seat="01", base="25"))
    before = LogBytes.of(log)
    refused(invoke(log, "round", str(path)), "seats are numbered 1 to 6")
    assert LogBytes.of(log) == before


@pytest.mark.parametrize(
    ("setting", "value", "says"),
    [
        ("limits:\n  base: {min: 5, max: %s}\n", "0x1388", "0x1388"),
        ("rules:\n  signoff_over: %s\n", "1:00:00", "1:00:00"),
        ("meters:\n  progressive_treasure: {seed: %s}\n", "0x2710", "0x2710"),
        ("caps:\n  treasure: {per_hand: %s}\n", "1_000", "1_000"),
        ("meters:\n  progressive_treasure: {contribution: %s}\n", "2.5e-1", "2.5e-1"),
        ("offered:\n  envy: %s\n", "yes", "offered.envy: must be true or false"),
    ],
)
def test_a_profile_setting_yaml_would_read_as_a_number_is_not_approved(
    log: Path, tmp_path: Path, setting: str, value: str, says: str
) -> None:
    """Finding 2: `approve-profile` recorded `max: 0x1388`, `signoff_over: 1:00:00`, `seed:
    0x2710`; a `--rule` value is read by the same rule."""
    path = _file(tmp_path, "p.yaml", "name: room\n" + setting % value)
    before = LogBytes.of(log)
    refused(invoke(log, "audit", "approve-profile", str(path), "--reason", "r", *SUP), says)
    key = "".join(part.split(":")[0].strip() + "." for part in setting.split("\n")[:2])
    name = key + setting.split("{")[-1].split(":")[0] if "{" in setting else key.rstrip(".")
    refused(invoke(log, "paigow", "rank", FIVE, "--rule", f"{name}={value}", *SUP), says)
    assert LogBytes.of(log) == before


PAY_TABLE = (
    "schema: 1\ntables:\n  - id: HOUSE-1\n    wager: treasure\n    basis: to-1\n    rows:\n"
    "      - {event: full-house, kind: %s, value: %s}\n"
)


@pytest.mark.parametrize(
    ("kind", "value"),
    [("fixed", "'7,50'"), ("to-1", "1e400"), ("to-1", "1e-400"), ("to-1", "0x19")]
    + [("to-1", "100001"), ("to-1", "7.125"), ("fixed", "1000000.01")],
)
def test_a_pay_that_is_not_a_decimal_number_is_not_approved(
    log: Path, tmp_path: Path, kind: str, value: str
) -> None:
    """Finding 2: a fixed pay `'7,50'` was read as 750; `to-1 value: 1e400` was approved, then
    analysis failed; `1e-400` was a pay. Every pay is bounded."""
    path = _file(tmp_path, "t.yaml", PAY_TABLE % (kind, value))
    before = LogBytes.of(log)
    refused(invoke(log, "audit", "approve-paytables", str(path), "--reason", "r", *SUP), "value")
    assert LogBytes.of(log) == before


def test_a_pay_table_under_a_shipped_table_s_id_is_not_approved(log: Path, tmp_path: Path) -> None:
    """Finding 15: a pay table redefining a shipped table's id was approved."""
    path = _file(tmp_path, "t.yaml", PAY_TABLE.replace("HOUSE-1", "PT-FLT-EC-ET-01") % ("to-1", 6))
    before = LogBytes.of(log)
    refused(
        invoke(log, "audit", "approve-paytables", str(path), "--reason", "r", *SUP),
        "PT-FLT-EC-ET-01: the id is already defined",
    )
    assert LogBytes.of(log) == before


@pytest.mark.parametrize(
    ("result", "says"),
    [
        ('{"base": {"wager": 25, "net": "lots"}}', "base.net"),
        ('{"base": {"wager": 25, "net": 1e300}}', "base.net"),
        ('{"base": {"wager": 25, "net": -0.001}}', "base.net"),
        ('{"base": {"wager": 25, "net": NaN}}', "NaN"),
        ('{"base": {"wager": -25, "net": 0}}', "base.wager"),
        ('{"base": {"wager": 25}}', "base.net"),
        ('{"base": "lots"}', "base"),
        ('{"base": {"wager": 25, "net": 0}, "bonuses": [{"wager": "x", "net": 1}]}', "bonuses"),
        ('{"decision": {"paid": 1e300}}', "decision.paid"),
    ],
)
def test_an_override_result_not_in_the_ruling_s_form_is_refused(
    log: Path, result: str, says: str
) -> None:
    """Finding 3: `"net": "lots"` was recorded and every later shift summary at the table
    failed; `1e300` showed "+$1E+300", `-0.001` "-$0.00"."""
    before = LogBytes.of(log)
    override = ("audit", "override", RULING, "--decision", "d", "--reason", "r")
    refused(invoke(log, *override, "--result", result, *SUP), says)
    assert LogBytes.of(log) == before


WAY = (
    "name: {name}\nversion: '1'\nclauses:\n"
    "  - {{id: '{first}', says: '{says}', when: {{pattern: no-pair}}, low: highest-singles}}\n"
    "  - {{id: '2', says: Any other hand, when: {{pattern: [{others}]}}, low: best, "
    "high: straight-or-flush}}\n"
)
OTHERS = ", ".join(p for p in ("one-pair", "two-pair", "three-pair", "three-of-a-kind"))


@pytest.mark.parametrize(
    ("name", "first", "says", "refusal"),
    [
        ('"room\\e]0;pwned\\a"', "1", "No pair", "name"),
        ("room", "1", '"\\e[2J\\nFORGED: approved"', "says"),
        ("room", '"1\\n2"', "No pair", "id"),
        ("room", "2", "Any other hand", "says what an earlier clause of this id says"),
        ("trump-plaza", "1", "No pair", "a shipped way's name"),
    ],
)
def test_a_house_way_that_shows_control_characters_or_claims_another_is_refused(
    log: Path, tmp_path: Path, name: str, first: str, says: str, refusal: str
) -> None:
    """Finding 7: a House Way's name retitled the terminal, its `says` cleared it and printed a
    forged line, a clause id held a newline, two clauses shared an id, and a file calling
    itself trump-plaza v1 with other clauses ruled as the shipped way."""
    text = WAY.format(name=name, first=first, says=says, others=OTHERS).replace("'\"", '"')
    path = _file(tmp_path, "way.yaml", text.replace("\"'", '"'))
    before = LogBytes.of(log)
    approve = ("audit", "approve-house-way", str(path), "--reason", "r", *SUP)
    refused(invoke(log, *approve), refusal)
    refused(invoke(log, "paigow", "set", DEALER, "--house-way", str(path), *SUP), refusal)
    assert LogBytes.of(log) == before


# Streams, sessions, servers and the rest (findings 1, 4-6, 8-15)
#
# Each as the attacker ran it: `python -m dealer` in a folder of its own with a copy of the
# prepared log, by the standard of `refusal` (one line, the right status, nothing on stdout).


def _place(prepared: Path, tmp_path: Path) -> Path:
    """`tmp_path`, holding a copy of the prepared log (log.sqlite, as `dealer_env` names it)."""
    shutil.copyfile(prepared, tmp_path / "log.sqlite")
    return tmp_path


def _dealer(place: Path, *args: str, stdin: bytes = b"", **env: str | None) -> Ran:
    """`dealer ARGS` in `place`, at its log, with `env` changed (None removes a variable)."""
    return run_dealer(list(args), cwd=place, env=dealer_env(place, env), stdin=stdin)


def _unchanged(place: Path, prepared: Path) -> bool:
    return LogBytes.of(place / "log.sqlite") == LogBytes.of(prepared)


@pytest.mark.parametrize("source", ["file", "stdin"])
def test_16_mib_of_blank_batch_lines_are_refused_by_their_count(
    prepared: Path, tmp_path: Path, source: str
) -> None:
    """Finding 6: 16 MiB of blank lines took 1.85 GB to number (now under the 1 GiB limit)."""
    place = _place(prepared, tmp_path)
    blank = b"\n" * (16 * 1024 * 1024)
    (place / "blank.txt").write_bytes(blank)
    if source == "file":
        ran = _dealer(place, "paigow", "rank", "--batch", "blank.txt")
    else:
        ran = _dealer(place, "paigow", "rank", "--batch", "-", stdin=blank)
    assert "more than 200,000 lines" in refusal(ran, 1)
    assert _unchanged(place, prepared)


NO_TERMINAL_ASKS = [
    (("audit", "checkpoint", "--user", "sup-1"), "--pin"),
    (("audit", "void", RULING, "--reason", "misdealt", "--supervisor", "sup-1"), "--pin"),
    (settle("--rule", "limits.base.max=5000", "--supervisor", "sup-1"), "--pin"),
    (("audit", "dispute", "resolve", DISPUTE, "--outcome", "no-error", "--reason", "seen on tape",
      *SUP, "--reviewer", "sup-2"), "--reviewer-pin"),
    (("audit", "user", "add", "sup-9", "--role", "supervisor", *SUP), "--new-pin"),
    (("audit", "user", "recover", "sup-9", "--new-pin", "granite-4431"), "--recovery-key"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("args", "give"), NO_TERMINAL_ASKS, ids=[" ".join(a[:3]) for a, _ in NO_TERMINAL_ASKS]
)
def test_a_pin_needed_where_there_is_no_terminal_is_one_line_saying_how_to_give_it(
    prepared: Path, tmp_path: Path, args: tuple[str, ...], give: str
) -> None:
    """Finding 15: with no terminal the prompt went to stdout, then two GetPassWarning lines
    and "Error: stopped". Now nothing on stdout and one line naming the option to give."""
    place = _place(prepared, tmp_path)
    said = refusal(_dealer(place, *args, DEALER_PIN=None), 1)
    assert "no terminal" in said and give in said, said
    assert _unchanged(place, prepared)


@pytest.mark.parametrize("mark", ["\u2028", "\u2029"], ids=["LS", "PS"])
def test_a_unicode_line_or_paragraph_separator_in_free_text_is_refused(
    prepared: Path, tmp_path: Path, mark: str
) -> None:
    """Finding 15: U+2028/U+2029 were accepted in a reason or a dispute's description (a line
    break to an editor, a browser or a JSON reader: a forged second line)."""
    place = _place(prepared, tmp_path)
    for args in (
        ("audit", "void", RULING, "--reason", f"misdealt{mark}FORGED: approved", *SUP),
        ("audit", "dispute", "open", f"low hand{mark}FORGED: paid", "--ruling", RULING),
    ):
        assert "control character" in refusal(_dealer(place, *args), 1)
    assert _unchanged(place, prepared)


SEPARATORS = {"FS": "\x1c", "GS": "\x1d", "RS": "\x1e", "US": "\x1f", "VT": "\x0b", "FF": "\x0c"}


@pytest.mark.parametrize("separator", SEPARATORS.values(), ids=SEPARATORS.keys())
def test_a_control_character_between_cards_separates_nothing(
    prepared: Path, tmp_path: Path, separator: str
) -> None:
    """Finding 15: FS, GS, RS, US, VT and FF separated cards as a space does (Python counts them
    as white space). Typed, in a batch line and in a live session, each is refused."""
    place = _place(prepared, tmp_path)
    hand = separator.join(FIVE.split())
    assert "unknown card" in refusal(_dealer(place, "paigow", "rank", hand), 1)
    (place / "batch.txt").write_text(f"{hand}\n", encoding="utf-8")
    batch = _dealer(place, "paigow", "rank", "--batch", "batch.txt")
    assert "unknown card" in refusal(batch, 1)
    dealt = separator.join(DEALER.split())
    assert "control character" in session_refusals(_dealer(place, "table", stdin=lines(dealt)))[0]
    move = lines(f"leader{separator}1")
    game = _dealer(place, "hyrule", "game", "--players", "2", "--seed", "1", stdin=move)
    assert "control character" in session_refusals(game)[0]
    assert _unchanged(place, prepared)


def test_a_refused_line_of_a_json_table_is_answered_in_json(prepared: Path, tmp_path: Path) -> None:
    """Finding 15: `table --json` answered a refused line in text only; now also by a JSON
    line on stdout, as a batch and `hyrule game --json` do (and a line over the bound by its
    first 40 characters)."""
    place = _place(prepared, tmp_path)
    ran = _dealer(place, "table", "--json", stdin=lines("bogus", "x" * 5000))
    said = session_refusals(ran)
    answered = [json.loads(line) for line in ran.stdout.splitlines()]
    assert [(a["line"], a["input"], a["error"]) for a in answered] == [
        (1, "bogus", said[0].removeprefix("line 1: ")),
        (2, "x" * 40 + "…", said[1].removeprefix("line 2: ")),
    ]


@pytest.mark.parametrize("digits", [5000, 4040])
def test_a_seat_or_wager_of_thousands_of_digits_leaves_the_table_going(
    prepared: Path, tmp_path: Path, digits: int
) -> None:
    """Finding 13: a seat or wager of 5,000 digits ended a live table with "unexpected failure
    (ValueError…)". Now each is one Error line quoting 40 characters of it, and the next good
    round is ruled (5,000 digits pass the line bound; 4,040 fit in a line)."""
    place = _place(prepared, tmp_path)
    many = "9" * digits
    typed = lines(
        DEALER,
        f"{many} {PLAYER} base 25",
        f"seat {many} {PLAYER} base 25",
        f"1 {PLAYER} base {many}",
        f"1 {PLAYER} base 25",
        "settle",
    )
    ran = _dealer(place, "table", stdin=typed)
    said = session_refusals(ran)
    assert len(said) == 3 and all(len(line) < 200 for line in said), said
    assert "unexpected failure" not in ran.stderr
    kinds = [kind for _, kind in _records(place / "log.sqlite")[RECORDS:]]
    assert kinds[0] == "ruling", kinds


@pytest.fixture()
def silent_server() -> Iterator[int]:
    """A local TCP port whose connections are accepted (by the system, into the backlog) and
    never answered: a server that hung, or a firewall that swallows."""
    import socket

    with socket.socket() as listening:
        listening.bind(("127.0.0.1", 0))
        listening.listen(16)
        yield int(listening.getsockname()[1])


def test_a_silent_server_is_given_up_within_the_bound_naming_only_host_and_database(
    prepared: Path, tmp_path: Path, silent_server: int
) -> None:
    """Findings 12: a server that accepts and never answers held a command 15.8 s (one host),
    45.9 s (three); the whole connect is now bounded (`postgres.CONNECT_SECONDS`), and the
    message names the hosts and the database only: no user, password or other parameter."""
    from dealer.audit.postgres import ATTEMPT_SECONDS, CONNECT_SECONDS

    place = _place(prepared, tmp_path)
    host = f"127.0.0.1:{silent_server}"
    url = f"postgresql://alice:s3cret@{host},{host},{host}/audit?password=hunter2&sslmode=disable"
    said = refusal(_dealer(place, "audit", "list", "--db", url), 1)
    assert said == (
        f"cannot connect to the audit log postgresql://{host},{host},{host}/audit: no server "
        f"answered in time (at most {ATTEMPT_SECONDS} s a host, {CONNECT_SECONDS:g} s in all)"
    )
    assert ATTEMPT_SECONDS < CONNECT_SECONDS <= 6  # a second host is tried; start-up fits in 10 s


@pytest.mark.parametrize(
    "url",
    [
        "postgresql://alice:s3cret@127.0.0.1:1/audit?password=hunter2",
        "postgresql://alice:s3%ZZcret@127.0.0.1:1/audit?password=hunter2",
        "postgresql://alice@127.0.0.1:1/audit?password=hunter2&sslmode=bogus",
        "postgresql://alice@127.0.0.1:1/audit?sslpassword=hunter2&bogus=1",
    ],
)
def test_a_url_s_secrets_are_never_echoed(prepared: Path, tmp_path: Path, url: str) -> None:
    """Finding 12: `?password=…` in a `--db` URL was echoed in the error."""
    place = _place(prepared, tmp_path)
    said = refusal(_dealer(place, "paigow", "rank", FIVE, "--db", url), 1)
    assert "cannot connect to the audit log" in said
    for secret in ("hunter2", "s3cret", "s3%ZZcret", "alice"):
        assert secret not in said, said
    assert _unchanged(place, prepared)


def test_a_log_never_ends_with_no_supervisor_able_to_act(
    log: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Finding 4: five wrong PINs on `audit void` locked the last supervisor for good. Now the
    terminal typing wrong PINs of every supervisor again and again is locked out of their PINs
    (each lockout longer, at most `LOCKOUT_MAX_SECONDS`), the right PIN is refused there while
    it holds, and once the clock (set, never waited for) passes it a supervisor acts;
    disabling the last supervisor is refused."""
    from datetime import UTC, datetime, timedelta

    from dealer.audit import users

    def ended() -> datetime:  # every lockout has ended, however long
        return datetime.now(UTC) + timedelta(seconds=users.LOCKOUT_MAX_SECONDS + 60)

    monkeypatch.setattr(users, "now", ended)
    for attempt in range(users.LOCKOUT_AFTER + 8):
        for who in ("sup-1", "sup-2"):
            void = ("audit", "void", RULING, "--reason", "misdealt", "--supervisor", who)
            refused(invoke(log, *void, "--pin", f"guess-{attempt}-{who}"), "wrong PIN")
    monkeypatch.setattr(users, "now", lambda: datetime.now(UTC))
    for pins in (SUP, ("--supervisor", "sup-2", "--pin", "tundra-5555")):
        refused(invoke(log, "audit", "void", RULING, "--reason", "misdealt", *pins), "in a row")
    monkeypatch.setattr(users, "now", ended)
    acted = invoke(log, "audit", "void", RULING, "--reason", "misdealt", *SUP)
    assert acted.exit_code == 0, acted.output
    assert invoke(log, "audit", "user", "set", "sup-2", "--disable", *SUP).exit_code == 0
    last = invoke(log, "audit", "user", "set", "sup-1", "--disable", *SUP)
    refused(last, "last active supervisor")


def _fifo(path: Path) -> None:
    os.mkfifo(path)


SETTLED = ("--dealer", DEALER, "--player", PLAYER, "--wager=25")
CHECKPOINT = ("audit", "checkpoint", "--user", "sup-1", "--pin", "signal-9876")
REST: list[Case] = [
    # finding 1: an output onto the log
    case("export jsonl onto the log", "audit", "export", "--format", "jsonl", "-o", "log.sqlite",
         "--db", "log.sqlite", says="audit log"),
    case("export csv onto DEALER_DB", "audit", "export", "--format", "csv", "-o", "log.sqlite",
         says="audit log"),
    case("packet page onto the log", "audit", "dispute", "packet", DISPUTE, "--html",
         "log.sqlite", says="audit log"),
    case("checkpoint onto the log", *CHECKPOINT, "-o", "log.sqlite", says="audit log"),
    case("checkpoint onto the wal", *CHECKPOINT, "-o", "log.sqlite-wal", says="wal"),
    # finding 8: a checkpoint line that cannot be written
    case("checkpoint to /dev/full", *CHECKPOINT, "-o", "/dev/full", says="not a regular file"),
    case("checkpoint to a fifo", *CHECKPOINT, "-o", "fifo", says="not a regular file",
         files={"fifo": _fifo}),
    # finding 9: a FIFO nobody writes, where a file is read
    case("profile fifo", "paigow", "settle", *SETTLED, "--profile", "fifo", says="regular file",
         files={"fifo": _fifo}),
    case("round file fifo", "round", "fifo", says="regular file", files={"fifo": _fifo}),
    case("batch fifo", "paigow", "rank", "--batch", "fifo", says="regular file",
         files={"fifo": _fifo}),
    case("house way fifo", "paigow", "set", DEALER, "--house-way", "fifo", says="regular file",
         files={"fifo": _fifo}),
    case("combinations fifo", "empire", "rank", "--combinations", "fifo", "As Kd Qh Js Tc",
         says="regular file", files={"fifo": _fifo}),
    case("pay tables fifo", "paytables", "validate", "fifo", says="regular file",
         files={"fifo": _fifo}),
    case("approve profile fifo", "audit", "approve-profile", "fifo", *SUP, "--reason", "new",
         says="regular file", files={"fifo": _fifo}),
    # finding 10: a dispute of what is not a ruling
    case("dispute of a user record", "audit", "dispute", "open", "x", "--ruling", "1",
         says="not a ruling"),
    case("dispute of a dispute", "audit", "dispute", "open", "x", "--ruling", DISPUTE,
         says="not a ruling"),
    # finding 15: the rest
    case("dispute in the year 9000", "audit", "dispute", "open", "x", "--ruling", RULING,
         "--time", "9000-01-01", says="after this clock"),
    case("log in memory", "audit", "list", "--db", ":memory:", says=":memory:", log=False),
    case("list since after until", "audit", "list", "--since", "2026-05-10", "--until",
         "2026-05-09", says="--since"),
    case("search since after until", "audit", "search", "--since", "2026-05-10", "--until",
         "2026-05-09", says="--since"),
]  # fmt: skip


@pytest.mark.parametrize("bad", REST, ids=[c.name for c in REST])
def test_the_rest_of_the_list_is_refused_by_the_standard(
    bad: Case, prepared: Path, tmp_path: Path
) -> None:
    """Findings 1, 8, 9, 10 and 15 as the attacker ran them: one line, the log as it was (and
    no file made, for `:memory:`), in bounded time (a FIFO once held these for ever)."""
    did = _attack(bad, tmp_path, prepared)
    said = refusal(did.ran, bad.status)
    assert bad.says.casefold() in said.casefold(), said
    assert did.after == did.made
    if bad.log:
        assert did.log == LogBytes.of(prepared)
    else:
        assert not did.log_created and not (tmp_path / ":memory:").exists()


def _redirected(place: Path, redirect: str, *args: str) -> Ran:
    """`python -m dealer ARGS` with a shell's `redirect` (`>&-`, `<&-`, `>/dev/full`)."""
    import subprocess
    import sys

    done = subprocess.run(
        ["sh", "-c", f'exec "$0" -m dealer "$@" {redirect}', sys.executable, *args],
        cwd=place,
        env=dealer_env(place),
        stdin=subprocess.DEVNULL,
        stdout=None if ">" in redirect else subprocess.PIPE,
        stderr=subprocess.PIPE,
        timeout=60,
        check=False,
    )
    out = "" if done.stdout is None else done.stdout.decode("utf-8", "backslashreplace")
    return Ran(done.returncode, out, done.stderr.decode("utf-8", "backslashreplace"))


@pytest.mark.parametrize(
    ("redirect", "args", "status", "says"),
    [
        (">&-", ("paigow", "set", "Zz"), 1, "unknown card"),
        (">&-", ("paigow", "set", "--bogus"), 2, "--bogus"),
        ("<&-", ("table",), 1, "standard input is closed"),
        ("<&-", ("paigow", "rank", "--batch", "-"), 1, "standard input is closed"),
        ("<&-", ("round", "-"), 1, "standard input is closed"),
    ],
)
def test_closed_standard_streams_are_one_line_and_the_right_status(
    prepared: Path, tmp_path: Path, redirect: str, args: tuple[str, ...], status: int, says: str
) -> None:
    """Finding 5: a closed stdout made every refusal a 45-77-line traceback and usage errors
    exit 1; a closed stdin was "unexpected failure (AttributeError…)"."""
    place = _place(prepared, tmp_path)
    assert says in refusal(_redirected(place, redirect, *args), status)
    assert _unchanged(place, prepared)


def test_a_ruling_recorded_before_stdout_failed_says_so(prepared: Path, tmp_path: Path) -> None:
    """Finding 5: a good ruling with stdout at /dev/full was recorded, then "unexpected failure
    (OSError…)"; now the one line says it was recorded and where to read it."""
    place = _place(prepared, tmp_path)
    said = refusal(_redirected(place, ">/dev/full", "paigow", "settle", *SETTLED), 1)
    made = _records(place / "log.sqlite")[RECORDS][0]
    assert f"ruling #{made} was recorded" in said and f"audit show {made}" in said


def test_a_huge_columns_is_bounded(prepared: Path, tmp_path: Path) -> None:
    """Finding 14: `COLUMNS=10000000` made `paigow settle --help` take 11.7 s and 1.07 GB (the
    1 GiB limit here); the help is drawn at most `WIDTH_LIMIT` wide."""
    from dealer.cli.streams import WIDTH_LIMIT

    place = _place(prepared, tmp_path)
    ran = _dealer(place, "paigow", "settle", "--help", COLUMNS="10000000")
    assert ran.status == 0 and ran.stderr == ""
    assert max(len(line) for line in ran.stdout.splitlines()) <= WIDTH_LIMIT


def test_no_input_of_the_list_is_an_unexpected_failure(prepared: Path, tmp_path: Path) -> None:
    """Finding 15: seven refusals said "Error: unexpected failure … please report it". Those of
    this part (closed streams, /dev/full, a 5,000-digit seat or wager, 16 MiB of blank batch
    lines) are each tested above by the words they say instead; here the live table fed all of
    its bad lines at once."""
    place = _place(prepared, tmp_path)
    many = "9" * 5000
    typed = lines(DEALER, f"{many} {PLAYER}", f"1 {PLAYER} base {many}", "\x1c", "bogus")
    ran = _dealer(place, "table", stdin=typed)
    assert not [r for r in session_refusals(ran) if "unexpected failure" in r]
