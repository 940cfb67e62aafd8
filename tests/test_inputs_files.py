"""Files and YAML documents from a person, refused in one line, in bounded time and memory.

Through the real CLI: every bad file ends in exit status 1, one `Error:` line on stderr naming
the input, no traceback, and the audit log exactly as it was. Then the limits themselves, in
`dealer.inputs` and `dealer.kernel.documents`."""

from __future__ import annotations

import io
import os
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from cli import run
from log_reads import head

from dealer import inputs
from dealer.kernel.documents import (
    CACHE_FORMAT,
    MAX_ALIASES,
    MAX_NODES,
    DocumentSyntaxError,
    load_yaml,
)
from dealer.kernel.errors import DealerError

HAND = "As Kd 9c 7h 5s 3d JK"
ROUND = (
    "table: PG-3\ndealer: As Kd 9c 7h 5s 3d 2c\n"
    "seats:\n  - seat: 1\n    cards: Js Jd Ac Qh 8s 5d 3h\n    wagers: {base: 25}\n"
)


def _bomb(levels: int = 9, width: int = 9) -> str:
    """A "billion laughs" document: each level a list of `width` aliases of the level below."""
    lines = [f"l0: &l0 [{', '.join(['lol'] * width)}]"]
    for level in range(1, levels):
        lines.append(f"l{level}: &l{level} [{', '.join([f'*l{level - 1}'] * width)}]")
    return "\n".join(lines) + "\n"


BOMB = _bomb()
NOT_UTF8 = "name: caf\u00e9\n".encode("latin-1")


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A log with a supervisor, a dealer and one ruling already on it: one backend, as a file
    is refused before any log is opened; built once for the tests to copy."""
    folder = tmp_path_factory.mktemp("built")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("DEALER_DB", str(folder / "audit.sqlite"))
        patch.setenv("DEALER_CACHE", str(folder / "cache"))
        patch.delenv("DEALER_PROFILE", raising=False)
        for args in (
            ["audit", "user", "add", "sup-1", "--role", "supervisor", "--new-pin", "signal-9876"],
            ["audit", "user", "add", "d-1", "--role", "dealer", "--new-pin", "ledger-4817"]
            + ["--supervisor", "sup-1", "--pin", "signal-9876"],
            ["paigow", "set", HAND, "--user", "d-1", "--table", "PG-1"],
        ):
            assert run(*args).exit_code == 0, args
    return folder / "audit.sqlite"


@pytest.fixture()
def db(
    built: Path,
    copy_log: Callable[[Path | str], Path | str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> Path | str:
    """A copy of the `built` log, in DEALER_DB, with a cache of the test's own."""
    path = copy_log(built)
    monkeypatch.setenv("DEALER_DB", str(path))
    monkeypatch.setenv("DEALER_CACHE", str(tmp_path / "cache"))
    monkeypatch.delenv("DEALER_PROFILE", raising=False)
    return path


def records(db: Path) -> int:
    return head(db).records or 0


def write(folder: Path, name: str, content: str | bytes) -> Path:
    path = folder / name
    path.write_bytes(content.encode("utf-8") if isinstance(content, str) else content)
    return path


def too_large(folder: Path, name: str, limit: int) -> Path:
    """A file one byte over `limit` (sparse: its size is refused before it is read)."""
    path = folder / name
    with path.open("wb") as out:
        out.truncate(limit + 1)
    return path


def missing(folder: Path, name: str) -> Path:
    return folder / "nowhere" / name


def directory(folder: Path, name: str) -> Path:
    path = folder / name
    path.mkdir()
    return path


def profile(path: Path) -> list[str]:
    return ["paigow", "set", HAND, "--user", "d-1", "--table", "PG-1", "--profile", str(path)]


def round_file(path: Path) -> list[str]:
    return ["round", str(path), "--user", "d-1"]


def batch(path: Path) -> list[str]:
    return ["paigow", "set", "--batch", str(path), "--user", "d-1", "--table", "PG-1"]


def house_way(path: Path) -> list[str]:
    return ["paigow", "set", HAND, "--user", "d-1", "--table", "PG-1", "--house-way", str(path)]


def combinations(path: Path) -> list[str]:
    return ["empire", "rank", "red-sword", "--user", "d-1", "--combinations", str(path)]


def approve(kind: str) -> Callable[[Path], list[str]]:
    def args(path: Path) -> list[str]:
        return ["audit", f"approve-{kind}", str(path), "--reason", "new rules"] + [
            "--supervisor",
            "sup-1",
            "--pin",
            "signal-9876",
        ]

    return args


def paytables_dir(path: Path) -> list[str]:
    return ["paytables", "list", "--tables", str(path.parent)]


Make = Callable[[Path], Path]


def text(name: str, content: str | bytes) -> Make:
    return lambda folder: write(folder, name, content)


def big(name: str, limit: int) -> Make:
    return lambda folder: too_large(folder, name, limit)


def folder(name: str) -> Make:
    return lambda place: directory(place, name)


def gone(name: str) -> Make:
    return lambda place: missing(place, name)


def fifo(name: str) -> Make:
    """A FIFO nobody writes: opening it to read would wait for ever."""

    def make(place: Path) -> Path:
        os.mkfifo(place / name)
        return place / name

    return make


def in_folder(name: str, content: str) -> Make:
    return lambda place: write(directory(place, "tables"), name, content)


DUPLICATE_RULE = "rules:\n  foul: reset\n  foul: push\n"
DIRECTORY = "is a directory, not a file"
NOT_REGULAR = "is not a regular file (a FIFO, a device or a socket)"
PAYTABLES, PROFILE = approve("paytables"), approve("profile")
CASES: list[tuple[str, Callable[[Path], list[str]], Make, str]] = [
    # what, the command, the file, a part of the one error line
    ("profile alias bomb", profile, text("p.yaml", BOMB), "values"),
    ("profile duplicate key", profile, text("p.yaml", DUPLICATE_RULE), "duplicate key 'foul'"),
    ("profile not UTF-8", profile, text("p.yaml", NOT_UTF8), "not UTF-8"),
    ("profile too large", profile, big("p.yaml", inputs.DOCUMENT_LIMIT), "larger than 1 MiB"),
    ("profile directory", profile, folder("p.yaml"), DIRECTORY),
    ("profile missing", profile, gone("p.yaml"), "no such file"),
    ("round alias bomb", round_file, text("r.yaml", BOMB), "values"),
    ("round duplicate key", round_file, text("r.yaml", ROUND + "table: PG-4\n"), "key 'table'"),
    ("round not UTF-8", round_file, text("r.yaml", NOT_UTF8), "not UTF-8"),
    ("round too large", round_file, big("r.yaml", inputs.ROUND_FILE_LIMIT), "than 256 KiB"),
    ("round directory", round_file, folder("r.yaml"), DIRECTORY),
    ("round missing", round_file, gone("r.yaml"), "no such file"),
    ("batch not UTF-8", batch, text("b.txt", HAND.encode() + b"\n\xff\n"), "line 2: byte 0xff"),
    ("batch too large", batch, big("b.txt", inputs.BATCH_FILE_LIMIT), "larger than 16 MiB"),
    ("batch long line", batch, text("b.txt", f"{HAND}\n{'x' * 5000}\n"), "line 2 is longer"),
    ("batch directory", batch, folder("b.txt"), DIRECTORY),
    ("batch missing", batch, gone("b.txt"), "no such file"),
    ("House Way alias bomb", house_way, text("w.yaml", BOMB), "values"),
    ("House Way directory", house_way, folder("w.yaml"), DIRECTORY),
    ("combination table alias bomb", combinations, text("c.yaml", BOMB), "values"),
    ("combination table not UTF-8", combinations, text("c.yaml", NOT_UTF8), "not UTF-8"),
    ("pay-table alias bomb", PAYTABLES, text("t.yaml", BOMB), "values"),
    (
        "pay-table duplicate key",
        PAYTABLES,
        text("t.yaml", "schema: 1\nschema: 1\n"),
        "key 'schema'",
    ),
    ("pay-table directory", PAYTABLES, folder("t.yaml"), DIRECTORY),
    ("pay-table alias bomb in a folder", paytables_dir, in_folder("t.yaml", BOMB), "values"),
    ("approved profile not UTF-8", PROFILE, text("p.yaml", NOT_UTF8), "not UTF-8"),
    ("approved profile too large", PROFILE, big("p.yaml", inputs.DOCUMENT_LIMIT), "than 1 MiB"),
    ("profile FIFO", profile, fifo("p.yaml"), NOT_REGULAR),
    ("round FIFO", round_file, fifo("r.yaml"), NOT_REGULAR),
    ("batch FIFO", batch, fifo("b.txt"), NOT_REGULAR),
    ("House Way FIFO", house_way, fifo("w.yaml"), NOT_REGULAR),
    ("combination table FIFO", combinations, fifo("c.yaml"), NOT_REGULAR),
    ("pay-table FIFO", PAYTABLES, fifo("t.yaml"), NOT_REGULAR),
    ("approved profile FIFO", PROFILE, fifo("p.yaml"), NOT_REGULAR),
]


@pytest.mark.parametrize(("what", "command", "make", "message"), CASES, ids=[c[0] for c in CASES])
def test_a_bad_file_is_one_error_line_and_nothing_recorded(
    db: Path,
    tmp_path: Path,
    what: str,
    command: Callable[[Path], list[str]],
    make: Make,
    message: str,
) -> None:
    path = make(tmp_path)
    before = records(db)
    result = run(*command(path))
    assert result.exit_code == 1, result.output
    assert isinstance(result.exception, SystemExit)  # not an exception escaping the CLI
    assert "Traceback" not in result.output
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), result.stderr
    assert path.name in lines[0] and message in lines[0], lines[0]
    assert records(db) == before


@pytest.mark.parametrize(
    ("args", "stdin", "message"),
    [
        (["round", "-"], BOMB, "values"),
        (["round", "-"], b"table: PG-\xff\n", "cannot read round file stdin: it is not UTF-8"),
        (["round", "-"], "x" * (inputs.ROUND_FILE_LIMIT + 1), "larger than 256 KiB"),
        (["paigow", "set", "--batch", "-"], HAND.encode() + b"\n\xff\n", "line 2 is not UTF-8"),
        (["paigow", "set", "--batch", "-"], "x" * 5000 + "\n", "line 1 is longer than 4 KiB"),
    ],
)
def test_bad_standard_input_is_one_error_line(
    db: Path, args: list[str], stdin: str | bytes, message: str
) -> None:
    before = records(db)
    result = run(*args, "--user", "d-1", "--table", "PG-1", stdin=stdin)
    assert result.exit_code == 1
    assert isinstance(result.exception, SystemExit)
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: ") and message in lines[0], lines
    if args[0] == "round":
        assert records(db) == before


def test_a_rule_value_goes_through_the_same_checked_parser(db: Path) -> None:
    result = run(
        "paigow", "set", HAND, "--user", "d-1", "--rule", "rules={foul: reset, foul: push}"
    )
    assert result.exit_code == 1
    assert result.stderr.startswith("Error: --rule 'rules={foul: reset, foul: push}' value: ")
    assert "line 1, column 15: not valid YAML: duplicate key 'foul'" in result.stderr
    assert result.stderr.count("\n") == 1


# --- the limits in dealer.inputs ------------------------------------------------------------


def test_the_limits_are_as_documented() -> None:
    assert inputs.DOCUMENT_LIMIT == 1024 * 1024
    assert inputs.ROUND_FILE_LIMIT == 256 * 1024
    assert inputs.BATCH_FILE_LIMIT == 16 * 1024 * 1024
    assert inputs.BATCH_LINE_LIMIT == 4 * 1024
    readme = (Path(__file__).parents[1] / "README.md").read_text(encoding="utf-8")
    assert "Limits on input files" in readme
    for shown in ("1 MiB", "256 KiB", "16 MiB", "4 KiB", f"{MAX_ALIASES} aliases"):
        assert shown in readme


def test_a_file_at_the_limit_is_read_and_one_byte_more_is_not(tmp_path: Path) -> None:
    path = write(tmp_path, "f.txt", "é" * 50)  # 100 bytes
    assert inputs.text_file(path, "profile", limit=100) == "é" * 50
    with pytest.raises(
        inputs.InputFileError, match=r"profile .*f\.txt: it is larger than 99 bytes"
    ):
        inputs.text_file(path, "profile", limit=99)


def test_the_size_is_checked_before_reading(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = too_large(tmp_path, "big.yaml", inputs.DOCUMENT_LIMIT)

    def no_open(*args: object, **kwargs: object) -> None:
        raise AssertionError("opened a file over the limit")

    monkeypatch.setattr("builtins.open", no_open)
    with pytest.raises(inputs.InputFileError, match="larger than 1 MiB"):
        inputs.text_file(path, "profile")


def test_a_file_that_grows_is_read_only_to_the_limit(tmp_path: Path) -> None:
    """A named pipe or a file still being written: no size to check first, so the read itself
    stops at limit + 1 bytes."""

    class Endless(io.RawIOBase):
        asked: list[int] = []

        def readable(self) -> bool:
            return True

        def read(self, size: int = -1) -> bytes:
            self.asked.append(size)
            return b"x" * (size if size >= 0 else 10**9)

    with pytest.raises(inputs.InputFileError, match="larger than 1 KiB"):
        inputs._read_at_most(Endless(), 1024, "round file", "stdin")
    assert Endless.asked == [1025]


def test_refusals_name_the_file_and_the_reason(tmp_path: Path) -> None:
    with pytest.raises(inputs.InputFileError) as caught:
        inputs.text_file(tmp_path, "round file")
    assert str(caught.value) == f"cannot read round file {tmp_path}: it is a directory, not a file"
    assert caught.value.reason == "it is a directory, not a file"
    with pytest.raises(DealerError, match="there is no such file"):
        inputs.text_file(tmp_path / "none.yaml", "profile")
    bad = write(tmp_path, "bad.yaml", b"ok: 1\nname: \xe9\n")
    with pytest.raises(DealerError, match=r"bad\.yaml: it is not UTF-8 text \(line 2: byte 0xe9\)"):
        inputs.text_file(bad, "profile")


def test_standard_input_is_read_to_the_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"a: 1\n" * 10)))
    assert inputs.text_or_stdin("-", "round file", limit=50) == ("a: 1\n" * 10, "stdin")
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"a: 1\n" * 10)))
    with pytest.raises(inputs.InputFileError, match="round file stdin: it is larger than 49 bytes"):
        inputs.text_or_stdin("-", "round file", limit=49)


def test_batch_lines_are_checked_before_the_first_is_given(tmp_path: Path) -> None:
    path = write(tmp_path, "b.txt", "# c\n\nfirst\n" + "y" * 11 + "\n")
    given = inputs.lines(str(path), line_limit=10)
    with pytest.raises(inputs.InputFileError, match="line 4 is longer than 10 bytes"):
        next(iter(given))
    assert list(inputs.lines(str(path), line_limit=11)) == [(3, "first"), (4, "y" * 11)]


def test_batch_standard_input_stops_at_the_limits(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"one\ntwo\nthree\n")))
    assert list(inputs.lines("-", limit=14)) == [(1, "one"), (2, "two"), (3, "three")]
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"one\ntwo\nthree\n")))
    given = iter(inputs.lines("-", limit=13))
    assert next(given) == (1, "one") and next(given) == (2, "two")
    with pytest.raises(inputs.InputFileError, match="batch file stdin: it is larger than 13 bytes"):
        next(given)


# --- YAML documents: aliases, duplicate keys, the cache -------------------------------------


@pytest.fixture()
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    place = tmp_path / "cache"
    monkeypatch.setenv("DEALER_CACHE", str(place))
    return place


def test_an_alias_bomb_is_refused_before_it_is_built(cache: Path) -> None:
    # The refusal names the count of values the aliases would expand to: it was decided from the
    # parser's events, before anything was built (performance is measured in benchmarks/, never
    # timed here).
    with pytest.raises(DocumentSyntaxError, match=f"more than {MAX_NODES:,} values") as caught:
        load_yaml(BOMB)
    assert caught.value.line is not None and "\n" not in str(caught.value)
    assert not list(cache.rglob("*.json"))  # nothing cached


def test_aliases_within_the_limits_are_read() -> None:
    assert load_yaml("base: &b {min: 5}\nother: *b\n", cache=False) == {
        "base": {"min": "5"},
        "other": {"min": "5"},
    }
    assert load_yaml(_bomb(levels=4, width=9), cache=False)["l3"][0][0][0] == ["lol"] * 9
    text = "a: &a 1\nb: [" + ", ".join(["*a"] * MAX_ALIASES) + "]\n"
    assert len(load_yaml(text, cache=False)["b"]) == MAX_ALIASES
    too_many = "a: &a 1\nb: [" + ", ".join(["*a"] * (MAX_ALIASES + 1)) + "]\n"
    with pytest.raises(DocumentSyntaxError, match=f"at most {MAX_ALIASES}"):
        load_yaml(too_many, cache=False)


@pytest.mark.parametrize(
    ("text", "line", "key"),
    [
        ("a: 1\nb: 2\na: 3\n", 3, "'a'"),
        ("outer:\n  x: 1\n  x: 1\n", 3, "'x'"),
        ("{a: 1, a: 2}\n", 1, "'a'"),
        ("1: one\n1: uno\n", 2, "'1'"),
    ],
)
def test_a_key_given_twice_is_refused_with_its_line(text: str, line: int, key: str) -> None:
    with pytest.raises(DocumentSyntaxError, match=f"duplicate key {key}") as caught:
        load_yaml(text, cache=False)
    assert caught.value.line == line


def test_a_merge_key_may_be_overridden() -> None:
    text = "base: &b {min: 5, max: 500}\ntable:\n  <<: *b\n  max: 1000\n"
    assert load_yaml(text, cache=False)["table"] == {"min": "5", "max": "1000"}


def test_only_a_checked_parse_is_cached(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import hashlib
    import json

    from dealer.kernel import documents

    def sha(text: str) -> str:
        return hashlib.sha256(text.encode("utf-8")).hexdigest()

    bad = "a: 1\na: 2\n"
    listed = {
        sha(bad): sha('{"a": "2"}'),
        sha("a: 1\nb: 2\n"): sha(json.dumps({"a": "1", "b": "2"})),
    }
    monkeypatch.setattr(documents, "shipped_documents", lambda: listed)  # as if both shipped
    with pytest.raises(DocumentSyntaxError):
        load_yaml(bad)
    assert not list(cache.rglob("*.json"))
    good = "a: 1\nb: 2\n"
    assert load_yaml(good) == {"a": "1", "b": "2"}
    assert [p.parent.name for p in cache.rglob("*.json")] == [CACHE_FORMAT]
    # An entry an older, unchecked parser left beside it (without digests) is never read.
    digest = sha(bad)
    write(cache, f"{digest}.json", '{"a": 2}')
    with pytest.raises(DocumentSyntaxError, match="duplicate key"):
        load_yaml(bad)


# --- one reader, one wording ---------------------------------------------------------------

BROKEN = "name: [unclosed\n"
SAID = "line 2, column 1: not valid YAML: while parsing a flow sequence: did not find expected"


def _refusal(read: Callable[[], object]) -> str:
    with pytest.raises(DocumentSyntaxError) as caught:
        read()
    assert (caught.value.line, caught.value.column) == (2, 1)
    return str(caught.value)


def test_every_document_a_person_gives_is_refused_in_one_wording(tmp_path: Path) -> None:
    from dealer.games.empire.combinations import load_table
    from dealer.games.paigow.house_way import parse_house_way
    from dealer.games.paigow.paytables import check_file
    from dealer.games.paigow.profile import load_profile
    from dealer.games.paigow.seat_rulings import read_round_text

    path = write(tmp_path, "doc.yaml", BROKEN)
    assert _refusal(lambda: inputs.document(BROKEN, "a note")).startswith(f"a note: {SAID}")
    assert _refusal(lambda: parse_house_way(BROKEN, "w.yaml")).startswith(
        f"House Way w.yaml: {SAID}"
    )
    assert _refusal(lambda: load_profile(path)).startswith(f"profile {path}: {SAID}")
    assert _refusal(lambda: read_round_text(BROKEN, "r.yaml")).startswith(
        f"round file r.yaml: {SAID}"
    )
    assert _refusal(lambda: load_table(path)).startswith(f"combination table {path}: {SAID}")
    (problem,) = check_file(path)
    assert problem.startswith(f"{path}: {SAID}")
    rule = _refusal(lambda: load_profile(None, ["rules=[unclosed"]))
    assert rule.startswith(f"--rule 'rules=[unclosed' value: {SAID}")
