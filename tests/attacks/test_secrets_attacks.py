"""Trust III, principle 4's secrets: "the browsing copy docs/postgresql.md prescribes carries
every sealed key (a PIN recovered offline in 22 s)". Whoever is handed a log to read — the
browsing copy of the floor, the browser's own copy of a table's file, an export, a dispute
packet — must find in it no sealed key, no PIN verifier and no PIN hash: nothing a guessed PIN
can be tested against. Each scan looks for every users row's stored secret whole and for each
of its secret parts (the sealed key, its nonce, the verifier), and shows that even the right
PIN opens nothing and derives nothing found in the file.

The copies failed on the release before this round (the browsing copy and the browser's copy
held every sealed key); the exports and packets held no secret then either, and are scanned
here so that every way a log leaves the tool is held to it."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from pathlib import Path

import cli
import pytest
from browser import PIN, demo_log
from pg_server import PgServer

from dealer.audit import keys, open_log, users
from dealer.audit.records import RecordFilter, RecordKind, UserRow
from dealer.audit.verify import verify
from dealer.desk.browse import verified_copy

run = functools.partial(cli.run, whole=True)
DEALER_PIN = "harbor-1357"
"""d-104's PIN in the demo log (`browser.demo_log`)."""
PINS = {"sup-7": PIN, "d-104": DEALER_PIN}


def stored_secrets(where: Path | str) -> list[UserRow]:
    """Every users row with a secret, as the log's owner reads it (the sealed keys themselves)."""
    with open_log(where) as log:
        found = [row for row in log.user_history() if row.pin_hash is not None]
    assert found and all(keys.parse_blob(row.pin_hash) is not None for row in found)
    return found


def secret_parts(stored: str) -> list[str]:
    """What of a stored secret no reader may hold: the whole text, the sealed key, its nonce and
    the verifier (the salt, the cost and the public key test no PIN)."""
    blob = keys.parse_blob(stored)
    assert blob is not None and blob.verifier
    return [stored, blob.sealed.hex(), blob.nonce.hex(), blob.verifier]


def leaked(text: str, rows: list[UserRow]) -> list[str]:
    """The secret parts of `rows` found in `text`, each named by its user."""
    return [
        f"{row.user_id}: {part[:16]}…"
        for row in rows
        if row.pin_hash is not None
        for part in secret_parts(row.pin_hash)
        if part in text
    ]


def file_text(path: Path) -> str:
    """Every byte of the file as text (a hex secret shows as itself in an SQLite page)."""
    return path.read_bytes().decode("latin-1")


def no_pin_opens(copy: Path, pins: dict[str, str]) -> None:
    """Every users row of the SQLite file `copy` is withheld: the right PIN opens no key there,
    and what it derives (the proof's verifier, the PostgreSQL server's only check) is nowhere in
    the file — an offline guesser has nothing to compare a guess with."""
    text = file_text(copy)
    with open_log(copy, read_only=True) as log:
        rows = [row for row in log.user_history() if row.pin_hash is not None]
        assert verify(log).ok
    assert rows
    for row in rows:
        withheld = keys.parse_withheld(row.pin_hash)
        assert withheld is not None and keys.parse_blob(row.pin_hash) is None
        assert users.unlock(pins[row.user_id], row.pin_hash) is None
        derived = keys.verifier_of(keys.proof(pins[row.user_id], withheld))
        assert derived not in text


@pytest.fixture(scope="module")
def floor(pg_server: PgServer) -> Iterator[str]:
    """The demo log on a PostgreSQL floor, as its owner made it."""
    url = pg_server.fresh_url()
    demo_log(url)
    yield url
    pg_server.drop(url)


def test_the_documented_browsing_copy_of_the_floor_holds_no_secret(
    floor: str, pg_server: PgServer, tmp_path: Path
) -> None:
    """The browsing copy made exactly as docs/postgresql.md said (`dealer audit copy
    postgresql://… archive.sqlite`, as the owner), then by an auditor's login as it says now:
    each file holds the users' secrets only withheld (the same rows either way), verifies, and
    no PIN can be checked against it."""
    secrets = stored_secrets(floor)
    auditor = pg_server.login(floor, "a-3", "dealer_auditor")
    made = []
    for login, name in ((floor, "archive.sqlite"), (auditor, "auditor.sqlite")):
        archive = tmp_path / name
        copied = run("audit", "copy", login, str(archive))
        assert copied.exit_code == 0, copied.output
        assert leaked(file_text(archive), secrets) == []
        no_pin_opens(archive, PINS)
        with open_log(archive, read_only=True) as log:
            made.append(log.user_history())
    assert made[0] == made[1]


def test_the_browsers_copy_of_a_table_log_holds_no_secret(tmp_path: Path) -> None:
    """`dealer audit browse` copies the SQLite log it serves into a temporary folder: that copy
    (and anything beside it) holds no secret, and still verifies."""
    log = tmp_path / "audit.sqlite"
    demo_log(log)
    secrets = stored_secrets(log)
    folder = tmp_path / "served"
    folder.mkdir()
    copy, chain = verified_copy(log, folder)
    assert chain.verified.ok
    for kept in folder.iterdir():
        assert leaked(file_text(kept), secrets) == []
    no_pin_opens(copy, PINS)


@pytest.fixture(scope="module")
def demo(new_log: Callable[[], Path | str]) -> Path | str:
    """The demo log, on each backend: users with PINs, a dispute (record 9), a checkpoint."""
    where = new_log()
    demo_log(where)
    return where


def outputs(where: Path | str, folder: Path) -> dict[str, str]:
    """What every reading command gives a person to keep or hand over, by command: the exports,
    the dispute packet (text, JSON, HTML page), the records and users as JSON."""
    db = ("--db", str(where))
    found: dict[str, str] = {}
    for words in (
        ("audit", "export", "--format", "csv"),
        ("audit", "export", "--format", "jsonl"),
        ("audit", "dispute", "packet", "9"),
        ("audit", "dispute", "packet", "9", "--json"),
        ("audit", "list", "--limit", "100", "--json"),
        ("audit", "search", "--kind", "user", "--json"),
        ("audit", "user", "list", "--json"),
        *(("audit", "show", str(n), "--json") for n in (1, 2)),
    ):
        result = run(*words, *db)
        assert result.exit_code == 0, result.output
        found[" ".join(words)] = result.stdout
    page = folder / "packet.html"
    assert run("audit", "dispute", "packet", "9", "--html", str(page), *db).exit_code == 0
    found["audit dispute packet 9 --html"] = page.read_text(encoding="utf-8")
    return found


def test_no_export_or_packet_holds_a_secret(demo: Path | str, tmp_path: Path) -> None:
    """Exports (CSV, JSON Lines), a dispute packet (text, JSON, its HTML page) and every `--json`
    that shows users or their records, on both backends: no secret part of any users row.
    What they do hold of a PIN — its fingerprint and public key, on its user record — tests
    none: the fingerprint is the SHA-256 of the whole sealed blob."""
    secrets = stored_secrets(demo)
    shown = outputs(demo, tmp_path)
    assert {command: leaked(text, secrets) for command, text in shown.items()} == {
        command: [] for command in shown
    }
    with open_log(demo, read_only=True) as log:
        made = log.records(RecordFilter(kind=RecordKind.USER))
    assert {r.result["pin_fingerprint"] for r in made} == {
        users.pin_fingerprint(row.pin_hash) for row in secrets
    }
