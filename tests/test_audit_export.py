"""Export with hashes, re-verified here the way an outside auditor would: csv/json + hashlib only,
following the recipe in dealer.audit.chain."""

from __future__ import annotations

import csv
import hashlib
import io
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from dealer.audit import corrections, entries, open_log, staff
from dealer.audit.export import export
from dealer.audit.records import Entry, RecordFilter
from dealer.audit.storage import Storage
from dealer.kernel.errors import AuditError

COLUMNS = [
    "id",
    "recorded_at",
    "kind",
    "game",
    "action",
    "table_id",
    "seat",
    "user_id",
    "role",
    "input_text",
    "cards",
    "result",
    "explanation",
    "settings",
    "links_to",
    "reason",
    "software_version",
    "prev_hash",
    "hash",
]


@pytest.fixture
def log(log_at: Path | str) -> Iterator[Storage]:
    """S1, five rulings, a void of the second (record 7), on each backend."""
    with open_log(log_at) as opened:
        staff.add_user(opened, "S1", "supervisor", pin="lantern-2468")
        for n, text in enumerate(["as ks", "A♠ K♥, jk", 'quote " and\nnew line', "", "é, ü"]):
            entries.append(
                opened,
                Entry(
                    kind="ruling",
                    user_id="D1",
                    role="dealer",
                    table_id=f"PG-{n % 2}",
                    game="paigow",
                    action="rank",
                    input_text=text,
                    cards=["As"],
                    result={"category": "pair", "net": -1.5},
                    explanation=["a, b"],
                    settings={"profile": "ü.yaml"},
                    seat=n if n % 2 else None,
                    reason="checked" if n == 2 else None,
                ),
            )
        corrections.void(opened, 3, reason="misdeal", supervisor_id="S1", pin="lantern-2468")
        yield opened


def outside_hash(row: dict[str, Any]) -> str:
    """The documented recipe, written independently of the package."""
    body = {k: row[k] for k in COLUMNS if k != "hash"}
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def outside_verify(rows: list[dict[str, Any]]) -> None:
    for before, row in zip([None, *rows], rows, strict=False):
        assert outside_hash(row) == row["hash"], row["id"]
        if before is None:
            assert row["id"] == 1 and row["prev_hash"] == "0" * 64
        else:
            assert row["id"] == before["id"] + 1 and row["prev_hash"] == before["hash"]


def csv_rows(text: str) -> list[dict[str, Any]]:
    rows = []
    for raw in csv.DictReader(io.StringIO(text, newline="")):
        # the documented escape: a cell beginning with ' had one ' put in front
        row: dict[str, Any] = {k: v[1:] if v.startswith("'") else v for k, v in raw.items()}
        row["id"] = int(row["id"])
        for name in ("seat", "links_to"):
            row[name] = int(row[name]) if row[name] != "" else None
        row["reason"] = row["reason"] or None
        rows.append(row)
    return rows


def test_csv_reverifies_outside(log: Storage) -> None:
    out = io.StringIO()
    assert export(log, out, "csv") == 7
    text = out.getvalue()
    assert text.splitlines()[0] == ",".join(COLUMNS)
    rows = csv_rows(text)
    outside_verify(rows)
    assert rows[3]["input_text"] == 'quote " and\nnew line' and rows[3]["reason"] == "checked"
    assert rows[6]["links_to"] == 3 and rows[6]["kind"] == "void"


@pytest.mark.parametrize("text", ["=HYPERLINK(1)", "+1", "-2", "@SUM(A1)", "\tx", "'quoted", "ok"])
def test_csv_cells_never_start_a_formula_and_still_reverify(log_at: Path | str, text: str) -> None:
    with open_log(log_at) as opened:
        entries.append(
            opened,
            Entry(
                kind="ruling", user_id="D1", role="dealer", input_text=text, settings={"x": text}
            ),
        )
        out = io.StringIO()
        export(opened, out, "csv")
    cells = next(csv.DictReader(io.StringIO(out.getvalue(), newline="")))
    dangerous = text[0] in "=+-@\t'"
    assert cells["input_text"] == ("'" + text if dangerous else text)
    assert not any(v.startswith(("=", "+", "-", "@", "\t")) for v in cells.values())
    rows = csv_rows(out.getvalue())
    assert rows[0]["input_text"] == text
    outside_verify(rows)


def test_jsonl_reverifies_outside(log: Storage) -> None:
    out = io.StringIO()
    assert export(log, out, "jsonl") == 7
    rows = [json.loads(line) for line in out.getvalue().splitlines()]
    assert list(rows[0]) == COLUMNS
    assert rows[2]["result"] == '{"category":"pair","net":-1.5}'  # the stored text, as hashed
    outside_verify(rows)


def test_one_change_fails_outside(log: Storage) -> None:
    out = io.StringIO()
    export(log, out, "jsonl")
    rows = [json.loads(line) for line in out.getvalue().splitlines()]
    rows[4]["result"] = rows[4]["result"].replace("-1.5", "1.5")
    with pytest.raises(AssertionError):
        outside_verify(rows)


def test_filtered_export(log: Storage) -> None:
    out = io.StringIO()
    assert export(log, out, "jsonl", RecordFilter(table_id="PG-1")) == 3
    rows = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [r["id"] for r in rows] == [3, 5, 7]  # 7: the void of 3
    assert all(outside_hash(r) == r["hash"] for r in rows)


def test_empty_export(log: Storage) -> None:
    out = io.StringIO()
    assert export(log, out, "csv", RecordFilter(user_id="nobody")) == 0
    assert out.getvalue() == ",".join(COLUMNS) + "\n"


def test_bad_format(log: Storage) -> None:
    with pytest.raises(AuditError, match="export format 'xml' is not one of csv, jsonl"):
        export(log, io.StringIO(), "xml")
