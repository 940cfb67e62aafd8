"""Attacks on `dealer audit browse` (issue 23, attacks 15 and 16), as an insider at a terminal
makes them: hostile text put on the record for a supervisor's browser to run, a log whose
WAL and main file disagree, a page asked for under another site's name (DNS rebinding), and
the server's own pages that name the log's path, versions and settings.

The script attacks run in Debian's headless Chromium, where a script would run: each asserts
that no dialog fired and that the hostile text shows as text. Without /usr/bin/chromium they
skip, except under CI (CI=true)."""

from __future__ import annotations

import json
import os
import sqlite3
import urllib.error
import urllib.request
from collections.abc import Iterator
from email.message import Message
from pathlib import Path
from typing import Any

import pytest
from browser import CHROMIUM, chromium, demo_log, serving
from cli import run

from dealer.audit import entries, open_log
from dealer.audit.records import Entry, RecordKind

needs_chromium = pytest.mark.skipif(
    not CHROMIUM.exists() and os.environ.get("CI") != "true",
    reason="no /usr/bin/chromium (Debian's chromium package; .ci/run installs it)",
)

SCRIPT = '"><script>alert("ruling")</script>'
JAVASCRIPT = "javascript:alert('link')"
IMAGE = "<img src=x onerror=\"alert('image')\">"
POLICY = (
    "default-src 'none'; script-src 'none'; style-src 'self'; img-src 'self' data:; "
    "form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
)
"""The Content-Security-Policy of every answer: no script at all, no inline style."""


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("demo") / "audit.sqlite"
    demo_log(path)
    return path


@pytest.fixture
def log(demo: Path, tmp_path: Path) -> Path:
    copy = tmp_path / "audit.sqlite"
    copy.write_bytes(demo.read_bytes())
    return copy


@pytest.fixture
def hostile(log_at: Path | str, tmp_path: Path) -> tuple[Path, int]:
    """The demo log on each backend with a hostile dispute appended, as an SQLite file to
    browse (a PostgreSQL log copied into one with `dealer audit copy`, as the browser needs)."""
    demo_log(log_at)
    dispute = hostile_dispute(log_at)
    if isinstance(log_at, Path):
        return log_at, dispute
    copy = tmp_path / "copied" / "audit.sqlite"
    copy.parent.mkdir()
    copied = run("audit", "copy", log_at, str(copy), whole=True)
    assert copied.exit_code == 0, copied.output
    return copy, dispute


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as context:
        yield context


def fetch(url: str, host: str | None = None) -> tuple[int, Message, str]:
    """The status, headers and body of a GET (`host`: the Host header sent instead)."""
    request = urllib.request.Request(url, headers={} if host is None else {"Host": host})
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, answer.headers, answer.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.headers, exc.read().decode()


def hostile_dispute(log: Path | str) -> int:
    """A dispute whose rulings list holds a script and a `javascript:` link, and whose claim is
    an image with an error handler, appended through the log's own append (`dealer.append_record`
    on PostgreSQL), as a dealer with the file or a terminal's login can."""
    with open_log(log) as storage:
        return entries.append(
            storage,
            Entry(
                kind=RecordKind.DISPUTE,
                user_id="d-104",
                role="dealer",
                table_id="PG-3",
                seat=2,
                action="open",
                input_text=IMAGE,
                result={
                    "occurred_at": "2026-11-22T10:00:00Z",
                    "parties": [SCRIPT],
                    "video": JAVASCRIPT,
                    "rulings": [SCRIPT, JAVASCRIPT, 3],
                    "description": IMAGE,
                },
                explanation=[f"Dispute at table PG-3: {IMAGE}", f"Rulings: {SCRIPT}"],
                links_to=3,
            ),
        )


@needs_chromium
def test_a_dispute_naming_a_script_runs_nothing_in_the_browser(
    hostile: tuple[Path, int], browser: Any
) -> None:
    """Attack 15, script injection: a dispute whose rulings list holds `"><script>…` and a
    `javascript:` link, whose claim is an `<img onerror>` (appended on either backend; a
    PostgreSQL log copied onto SQLite), shown on the open disputes, the dispute's record and
    packet, the seat's history and Datasette's own table view: no dialog fires in Chromium,
    the text shows as written, and no link leads to `javascript:`."""
    log, dispute = hostile
    fired: list[str] = []
    with serving(log) as served:
        page = browser.new_page()
        page.on("dialog", lambda dialog: (fired.append(dialog.message), dialog.dismiss()))
        shown: dict[str, str] = {}
        for path in (
            "/-/dealer/disputes",
            f"/-/dealer/record/{dispute}",
            f"/-/dealer/packet/{dispute}",
            "/-/dealer/seat?table=PG-3&seat=2",
            f"/audit/records/{dispute}",
            "/audit/records?_sort_desc=id",
        ):
            page.goto(f"{served.address}{path}")
            page.wait_for_load_state("load")
            assert page.locator("a[href^='javascript:' i]").count() == 0, path
            shown[path] = page.locator("body").inner_text()
        page.close()
    assert fired == []
    assert SCRIPT in shown["/-/dealer/disputes"] and JAVASCRIPT in shown["/-/dealer/disputes"]
    assert IMAGE in shown["/-/dealer/disputes"]
    assert IMAGE in shown[f"/-/dealer/record/{dispute}"]
    assert SCRIPT in shown[f"/-/dealer/record/{dispute}"]
    assert IMAGE in shown["/audit/records?_sort_desc=id"]


def split_log(log: Path, target: Path) -> None:
    """`target` (and its -wal): the genuine log in the WAL, a tampered one in the main file —
    record 8's reason rewritten and the $5,000 pay (record 11) put in another dealer's name.
    Built on a copy of `log`: the tampered rows written and checkpointed into the main file,
    then the genuine rows written back into a WAL that is never checkpointed."""
    work = target.parent / "work.sqlite"
    work.write_bytes(log.read_bytes())

    def rewrite(conn: sqlite3.Connection, reason: str, user: str) -> None:
        trigger = conn.execute(
            "SELECT sql FROM sqlite_master WHERE name = 'records_no_update'"
        ).fetchone()[0]
        conn.execute("DROP TRIGGER records_no_update")
        conn.execute("UPDATE records SET reason = ? WHERE id = 8", (reason,))
        conn.execute("UPDATE records SET user_id = ? WHERE id = 11", (user,))
        conn.execute(trigger)
        conn.commit()

    with sqlite3.connect(log) as genuine:
        reason, user = genuine.execute(
            "SELECT (SELECT reason FROM records WHERE id = 8),"
            " (SELECT user_id FROM records WHERE id = 11)"
        ).fetchone()
    tampered = sqlite3.connect(work)
    rewrite(tampered, "nothing happened", "d-999")
    tampered.close()  # the last connection checkpoints: the main file holds the tampering
    held = sqlite3.connect(work)
    held.execute("PRAGMA wal_autocheckpoint = 0")
    rewrite(held, reason, user)  # the genuine rows, in the WAL only
    target.write_bytes(work.read_bytes())
    Path(f"{target}-wal").write_bytes(Path(f"{work}-wal").read_bytes())
    held.close()


def test_the_browser_shows_the_log_verify_checked_not_the_main_file(
    log: Path, tmp_path: Path
) -> None:
    """Attack 16, a tampered log under a green banner: the genuine rows in the WAL (which
    verify reads, and passes), tampered ones in the main file. Every view of the browser —
    the dealer pages, Datasette's own table view and the large-pays query — shows the genuine
    rows under the green banner."""
    split = tmp_path / "split" / "audit.sqlite"
    split.parent.mkdir()
    split_log(log, split)
    with sqlite3.connect(f"file:{split}?immutable=1", uri=True) as main_file:
        assert main_file.execute("SELECT reason FROM records WHERE id = 8").fetchone() == (
            "nothing happened",
        )
    verified = run("audit", "verify", "--db", str(split), whole=True)
    assert (verified.exit_code, verified.output) == (
        0,
        "OK: 15 records, the hash chain verifies.\n",
    )
    with serving(split) as served:
        status, _, page = fetch(f"{served.address}/-/dealer/record/8")
        assert status == 200
        assert "low hand misread" in page and "nothing happened" not in page
        assert "Verified at start: 15 records" in page
        status, _, body = fetch(f"{served.address}/audit/records/8.json?_shape=array")
        assert (status, json.loads(body)[0]["reason"]) == (200, "low hand misread")
        status, _, body = fetch(f"{served.address}/audit/records.json?_shape=array&id=11")
        assert (status, json.loads(body)[0]["user_id"]) == (200, "d-104")
        status, _, body = fetch(
            f"{served.address}/audit/large_pays_by_user.json?_shape=array&user=d-104"
        )
        assert status == 200
        assert [(r["id"], r["ruled_by"]) for r in json.loads(body)] == [(11, "d-104")]
        status, _, table = fetch(f"{served.address}/audit/records")
        assert "nothing happened" not in table and "d-999" not in table


def test_a_page_asked_for_under_another_name_is_refused(log: Path) -> None:
    """Attack 16, DNS rebinding: a page asked for with `Host: evil.example` (a hostile site's
    name pointed at this machine) is refused with no data; 127.0.0.1 and localhost (with the
    port) are answered."""
    with serving(log) as served:
        port = served.address.rsplit(":", 1)[1]
        for host in ("evil.example", f"evil.example:{port}", "127.0.0.1.evil.example", ""):
            for path in ("/-/dealer/record/3", "/audit/records.json", "/"):
                status, headers, body = fetch(f"{served.address}{path}", host=host)
                assert status == 421, (host, path)
                assert body == "Error: this server answers only for its own address\n"
                assert headers["Content-Security-Policy"] == POLICY
        for host in (f"127.0.0.1:{port}", f"localhost:{port}", f"LOCALHOST:{port}"):
            assert fetch(f"{served.address}/-/dealer/record/3", host=host)[0] == 200


DATASETTE_PAGES = (
    "/-/databases.json", "/-/databases", "/-/versions", "/-/versions.json", "/-/settings",
    "/-/settings.json", "/-/metadata", "/-/metadata.json", "/-/plugins", "/-/plugins.json",
    "/-/config", "/-/config.json", "/-/actor", "/-/actor.json", "/-/threads", "/-/threads.json",
    "/-/permissions", "/-/allow-debug", "/-/messages", "/-/patterns", "/-/logout",
    "/-/auth-token", f"/-/static-plugins/dealer.cli.browse/{os.pardir}/templates/base.html",
)  # fmt: skip


def test_no_page_names_the_logs_path_versions_or_settings(log: Path) -> None:
    """Attack 16, disclosure: Datasette's pages of paths, versions, settings, plugins, the
    actor and threads are refused (404), and no page the browser serves names the log's file
    or its folder."""
    with serving(log) as served:
        for path in DATASETTE_PAGES:
            status, _, body = fetch(f"{served.address}{path}")
            assert status == 404, path
            assert str(log.parent) not in body and "0.65" not in body, path
        for path in (
            "/", "/.json", "/audit", "/audit.json", "/audit/records", "/audit/records.json",
            "/audit/records/3", "/-/dealer", "/-/dealer/record/3", "/-/dealer/disputes",
            "/-/dealer/packet/9", "/-/dealer/meters?table=PG-3", "/-/dealer/shift?table=PG-3",
            "/-/dealer/record/99", "/nowhere", "/audit/users",
        ):  # fmt: skip
            status, _, body = fetch(f"{served.address}{path}")
            assert status in (200, 403, 404), path
            assert str(log.parent) not in body and "dealer-browse" not in body, path


def test_every_answer_carries_the_content_security_policy(log: Path) -> None:
    """Attack 15's second line of defence: every answer (a page, Datasette's views, JSON, a
    static file, an error, a refused write) carries a Content-Security-Policy that allows no
    script at all and no inline style, and tells the browser not to guess content types."""
    with serving(log) as served:
        for path in (
            "/", "/audit", "/audit/records", "/audit/records.json", "/-/dealer",
            "/-/dealer/record/3", "/-/dealer/packet/9", "/-/dealer/record/99", "/nowhere",
            "/-/versions", "/-/static/app.css", "/-/static-plugins/dealer.cli.browse/dealer.css",
        ):  # fmt: skip
            status, headers, _ = fetch(f"{served.address}{path}")
            assert headers["Content-Security-Policy"] == POLICY, path
            assert headers["X-Content-Type-Options"] == "nosniff", path
            assert "unsafe" not in headers["Content-Security-Policy"]
        request = urllib.request.Request(f"{served.address}/-/dealer", data=b"", method="POST")
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(request, timeout=30)
        assert refused.value.code == 405
        assert refused.value.headers["Content-Security-Policy"] == POLICY
