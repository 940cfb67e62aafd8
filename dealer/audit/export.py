"""Export of records, hashes included, for auditors who re-verify outside the tool.

Both formats carry the 19 stored columns in the order of `records.STORED_FIELDS`, with
`cards`, `result`, `explanation` and `settings` as the JSON text stored (the exact strings that
were hashed). The hash recipe is in `dealer.audit.chain`.
* `csv`: a header row, then one row per record; an empty `seat`, `links_to` or `reason` cell
  means null.
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


def write_export(rows: Iterable[Mapping[str, Any]], out: IO[str], fmt: str) -> int:
    """Write `rows` (stored records) to `out` as `csv` or `jsonl`; return how many."""
    if fmt not in FORMATS:
        raise AuditError(f"export format {fmt!r} is not one of {', '.join(FORMATS)}")
    count = 0
    if fmt == "csv":
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(STORED_FIELDS)
        for row in rows:
            writer.writerow(["" if row[name] is None else row[name] for name in STORED_FIELDS])
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
