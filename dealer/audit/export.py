"""Export of records, hashes included, for auditors who re-verify outside the tool.

Both formats carry the 19 stored columns in the order of `records.STORED_FIELDS`, with
`cards`, `result`, `explanation` and `settings` as the JSON text stored (the exact strings that
were hashed). The hash recipe is in `dealer.audit.chain`.
* `csv`: a header row, then one row per record; an empty `seat`, `links_to` or `reason` cell
  means null. So that a spreadsheet never runs a cell as a formula, a cell whose text begins
  with `=`, `+`, `-`, `@`, a tab, a carriage return or `'` is written with one `'` in front;
  to re-verify from CSV, drop the first character of every cell that begins with `'` (the
  escape is reversible), or re-verify from JSON Lines, which carry the text as it is.
* `jsonl`: one JSON object per line.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Iterable, Mapping
from typing import IO, TYPE_CHECKING, Any

from dealer.audit.records import STORED_FIELDS, RecordFilter
from dealer.kernel.errors import AuditError

if TYPE_CHECKING:
    from dealer.audit.storage import Storage

FORMATS = ("csv", "jsonl")
_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r", "'")
"""What a spreadsheet may read as the start of a formula (and the escape itself)."""


def csv_cell(value: Any) -> str:
    """One CSV cell: null as empty, text that could start a formula behind one `'`."""
    if value is None:
        return ""
    text = str(value)
    return "'" + text if text.startswith(_FORMULA_STARTS) else text


def write_export(rows: Iterable[Mapping[str, Any]], out: IO[str], fmt: str) -> int:
    """Write `rows` (stored records) to `out` as `csv` or `jsonl`; return how many."""
    if fmt not in FORMATS:
        raise AuditError(f"export format {fmt!r} is not one of {', '.join(FORMATS)}")
    count = 0
    if fmt == "csv":
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(STORED_FIELDS)
        for row in rows:
            writer.writerow([csv_cell(row[name]) for name in STORED_FIELDS])
            count += 1
    else:
        for row in rows:
            out.write(json.dumps({name: row[name] for name in STORED_FIELDS}, ensure_ascii=False))
            out.write("\n")
            count += 1
    return count


def export(storage: Storage, out: IO[str], fmt: str, flt: RecordFilter | None = None) -> int:
    """Write the records matching `flt`, hashes included, as `csv` or `jsonl`; return how
    many."""
    return write_export(storage.rows(flt), out, fmt)
