"""`dealer paytables list|show|validate` through the CLI runner (mounted on a bare app)."""

import functools
import json
from pathlib import Path

import cli

from dealer.games.paigow.paytables import load_paytables, shipped_paytables

DATA = Path(__file__).parent / "data"
ROOT = Path(__file__).parent.parent

run = functools.partial(cli.run, group="paytables")


def test_list_json() -> None:
    result = run("list", "--json")
    assert result.exit_code == 0, result.output
    tables = json.loads(result.stdout)["paytables"]
    assert len(tables) == len(shipped_paytables())
    assert tables[0] == {
        "id": "PT-FLT-EC-PGI-01",
        "wager": "insurance",
        "name": "Pai Gow Insurance",
        "basis": "to-1",
        "rows": 6,
        "file": str(ROOT / "paytables" / "pai-gow-insurance.yaml"),
    }
    assert [t["id"] for t in tables if t["wager"] == "envy"] == [f"E0{i}" for i in range(1, 9)]


def test_list_text_and_operator_tables() -> None:
    result = run("list", "--tables", str(DATA / "paytables_operator"))
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].split() == ["id", "wager", "name", "rows", "file"]
    assert any(line.startswith("HOUSE-ET-01 ") for line in lines)
    assert len(lines) == 2 + len(load_paytables([DATA / "paytables_operator"]))


def test_show_text() -> None:
    result = run("show", "PT-BJS-EC-ET-03")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert out.startswith(
        "PT-BJS-EC-ET-03: Emperor's Treasure Progressive (progressive_treasure, pays for-1)"
    )
    assert "5-Card Royal Flush w/ A-K Suited  royal-flush-with-suited-ak" in out
    assert out.splitlines()[5].split()[-1] == "N/A"
    assert '  · All odds shown above are "for 1."' in out


def test_show_json() -> None:
    result = run("show", "E05", "--json")
    assert result.exit_code == 0, result.output
    table = json.loads(result.stdout)
    assert (table["id"], table["wager"], table["basis"]) == ("E05", "envy", "fixed")
    assert [(r["event"], r["value"]) for r in table["rows"]][-2:] == [
        ("straight-flush", 25),
        ("four-of-a-kind", 6),
    ]


def test_show_unknown_id() -> None:
    result = run("show", "PT-NOPE")
    assert result.exit_code == 1
    assert result.stdout == ""
    known = ", ".join(sorted(shipped_paytables().tables))
    assert result.stderr == f"Error: unknown pay table 'PT-NOPE' (known: {known})\n"


def test_validate_a_good_file() -> None:
    path = DATA / "paytables_operator" / "house-treasure.yaml"
    result = run("validate", str(path))
    assert result.exit_code == 0, result.output
    assert result.stdout == f"{path}: valid: 1 table(s): HOUSE-ET-01\n"
    shipped = ROOT / "paytables" / "emperors-treasure-progressive.yaml"
    result = run("validate", str(shipped), "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == {
        "file": str(shipped),
        "valid": True,
        "tables": ["PT-BJS-EC-ET-01", "PT-BJS-EC-ET-02", "PT-BJS-EC-ET-03"],
        "problems": [],
    }


def test_validate_lists_every_problem(tmp_path: Path) -> None:
    path = tmp_path / "two.yaml"
    path.write_text(
        "schema: 1\ntables:\n  - {id: T1, wager: treasure, basis: to-1, rows: "
        "[{event: flush, kind: to-1, value: 0}, {event: straight, kind: to-1}]}\n"
    )
    result = run("validate", str(path))
    assert result.exit_code == 1
    assert result.stdout.splitlines() == [
        f"{path}: table T1, row 1 (flush): value 0 must be a number above zero",
        f"{path}: table T1, row 2 (straight): a to-1 row needs a value",
    ]
    assert result.stderr == f"Error: {path}: not valid (2 problems)\n"


def test_validate_json_and_an_id_clash() -> None:
    path = DATA / "paytables_clash" / "again.yaml"
    result = run("validate", str(path), "--json")
    assert result.exit_code == 1
    out = json.loads(result.stdout)
    assert out["valid"] is False and out["tables"] == ["PT-FLT-EC-ET-01"]
    assert out["problems"] == [
        f"{path}: table PT-FLT-EC-ET-01: the id is already defined in "
        f"{ROOT / 'paytables' / 'emperors-treasure.yaml'}"
    ]
    assert json.loads(result.stderr) == {"error": f"{path}: not valid (1 problem)", "exit": 1}


def test_validate_refuses_a_file_it_cannot_read(tmp_path: Path) -> None:
    """A file that cannot be read has no problems to list: one `Error:` line, nothing on stdout."""
    latin1 = tmp_path / "latin1.yaml"
    latin1.write_bytes("schema: 1\nsource: caf\u00e9\n".encode("latin-1"))
    for path, reason in [
        (tmp_path / "missing.yaml", "there is no such file"),
        (tmp_path, "it is a directory, not a file"),
        (latin1, "it is not UTF-8 text (line 2: byte 0xe9); save it as UTF-8"),
    ]:
        result = run("validate", str(path))
        assert result.exit_code == 1, path
        assert result.stdout == ""
        assert result.stderr == f"Error: cannot read pay-table file {path}: {reason}\n"


def test_validate_each_bad_file_exits_1() -> None:
    for path in sorted((DATA / "paytables_bad").glob("*.yaml")):
        result = run("validate", str(path))
        assert result.exit_code == 1, path
        assert result.stdout.startswith(f"{path}: "), path
        assert "Traceback" not in result.output
