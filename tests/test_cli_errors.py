"""The one error boundary: one `Error: …` line (or one JSON object with `--json`) on stderr,
exit 1 for a refused value, 2 for a command line that cannot be parsed; nothing recorded."""

from __future__ import annotations

import functools
import json
from pathlib import Path

import cli
import pytest
from log_reads import head, use

from dealer.audit import open_log
from dealer.audit.chain import record_hash, seal
from dealer.audit.records import Entry

SETTLE = (
    "paigow",
    "settle",
    "--dealer",
    "As Ks Qs Js Ts 9s 8s",
    "--player",
    "2c 3d 4h 5s 7c 9d JK",
)


def settled(where: Path | str, monkeypatch: pytest.MonkeyPatch) -> Path | str:
    """The log at `where` named in DEALER_DB, holding one settle by d-104 (record 1)."""
    use(where, monkeypatch)
    monkeypatch.setenv("DEALER_USER", "d-104")
    assert run(*SETTLE, "--wager", "25").exit_code == 0
    return where


@pytest.fixture()
def db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path | str:
    """A log with one settle, for what is refused before any log is read (one backend)."""
    return settled(tmp_path / "audit.sqlite", monkeypatch)


@pytest.fixture()
def each_db(log_at: Path | str, monkeypatch: pytest.MonkeyPatch) -> Path | str:
    """A log with one settle, on each backend."""
    return settled(log_at, monkeypatch)


run = functools.partial(cli.run, prog_name="dealer")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ("--wager", "1e400"),
            "wager '1e400' is not an amount: use digits with at most one decimal point and two "
            "decimals, e.g. 25, 12.50 or $25",
        ),
        (
            ("--wager", "1,000"),
            "wager '1,000' is not an amount: write it without thousands separators "
            "(1000, not 1,000)",
        ),
        (("--wager", "0"), "seat 1: base wager $0 is outside the table limits $5-$5,000"),
        (
            ("--wager", "5", "--treasure", "0.001"),
            "treasure wager '0.001' is not an amount: amounts are whole cents (at most two "
            "decimals)",
        ),
        (
            ("--wager", "5", "--table", "\x1b]0;pwned\x07"),
            "table id '\\x1b]0;pwned\\x07' is not valid: use letters, digits and . _ @ # - "
            "(up to 64)",
        ),
        (
            ("--wager", "5", "--user", "sup 7\n"),
            "user id 'sup 7\\n' is not valid: use letters, digits and . _ @ - (up to 64)",
        ),
    ],
)
def test_a_refused_value_is_one_line_and_nothing_is_recorded(
    db: Path | str, args: tuple[str, ...], message: str
) -> None:
    before = head(db)
    result = run(*SETTLE, *args)
    assert (result.exit_code, result.stdout, result.stderr) == (1, "", f"Error: {message}\n")
    as_json = run(*SETTLE, *args, "--json")
    assert (as_json.exit_code, as_json.stdout) == (1, "")
    assert json.loads(as_json.stderr) == {"error": message, "exit": 1}
    assert as_json.stderr.count("\n") == 1
    assert head(db) == before


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ("paigow", "rank", "--bogus"),
            "No such option: --bogus (Possible options: --user) (see 'dealer paigow rank --help')",
        ),
        (("paigow", "nothing"), "No such command 'nothing' (see 'dealer paigow --help')"),
        (
            ("paigow", "settle", "--wager", "5"),
            "Missing option '--dealer' (see 'dealer paigow settle --help')",
        ),
        (
            ("demo", "--seed", "abc"),
            "Invalid value for '--seed': 'abc' is not a valid int (see 'dealer demo --help')",
        ),
    ],
)
def test_a_command_line_that_cannot_be_parsed_is_one_line_exit_2(
    db: Path | str, args: tuple[str, ...], message: str
) -> None:
    before = head(db)
    result = run(*args)
    assert (result.exit_code, result.stdout, result.stderr) == (2, "", f"Error: {message}\n")
    as_json = run(*args, "--json")
    assert json.loads(as_json.stderr) == {"error": message, "exit": 2}
    assert head(db) == before


@pytest.mark.parametrize("args", [(), ("paigow",), ("audit",), ("audit", "dispute")])
def test_a_group_without_a_command_shows_its_help_exit_2(args: tuple[str, ...]) -> None:
    """The framework's own usage error for a group run bare is its help, not an `Error:` line."""
    result = cli.run(*args, whole=not args, prog_name="dealer")
    shown = result.stdout + result.stderr
    assert result.exit_code == 2
    assert " ".join(("Usage: dealer", *args, "[OPTIONS] COMMAND [ARGS]...")) in shown
    assert "Error" not in shown


def test_a_long_token_is_not_echoed_back_whole(db: Path | str) -> None:
    result = run("paigow", "rank", "A" * 100_000)
    assert result.exit_code == 1
    assert len(result.stderr) < 400
    assert (
        result.stderr
        == f"Error: card '{'A' * 40}…' (100,000 characters) is too long to be a card\n"
    )
    assert result.stderr.count("\n") == 1


def test_a_control_character_in_an_error_is_shown_escaped(db: Path | str) -> None:
    result = run("paigow", "rank", "As", "\x1b]0;pwned\x07")
    assert result.exit_code == 1
    assert "\x1b" not in result.stderr and "\x07" not in result.stderr
    assert "'\\x1b]0;pwned\\x07'" in result.stderr


@pytest.mark.parametrize("record", ["0", "1000000000000000000000000000000"])
def test_a_record_number_out_of_range_is_refused(db: Path | str, record: str) -> None:
    result = run("audit", "show", record)
    assert result.exit_code == 1
    assert result.stderr.startswith(f"Error: record id '{record}' is ")
    assert result.stderr.count("\n") == 1


def test_an_unexpected_failure_is_still_one_line(
    db: Path | str, monkeypatch: pytest.MonkeyPatch
) -> None:
    import dealer.desk.records

    def broken(*args: object, **kwargs: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(dealer.desk.records, "show", broken)
    result = run("audit", "show", "1")
    assert (result.exit_code, result.stderr) == (
        1,
        "Error: unexpected failure (OSError: [Errno 28] No space left on device); "
        "please report it\n",
    )


def test_a_stored_control_character_is_shown_escaped(each_db: Path | str) -> None:
    """A record written around the tool (by whoever holds the SQLite file, or the PostgreSQL
    database's owner), with control characters no command would store."""
    with open_log(each_db) as log, log.transaction() as tx:
        row = seal(Entry(kind="ruling", user_id="d-104", role="dealer"), tx.head())
        row.update(table_id="T\x07", reason="ok\n  user       sup-7 (supervisor)\x1b[2J")
        tx.copy(row | {"hash": record_hash(row)})
    shown = run("audit", "show", str(row["id"]))
    assert shown.exit_code == 0
    assert "  reason     ok\\n  user       sup-7 (supervisor)\\x1b[2J\n" in shown.stdout
    assert "\x1b" not in shown.stdout
    listed = run("audit", "list")
    assert "T\\x07" in listed.stdout and "\x07" not in listed.stdout
