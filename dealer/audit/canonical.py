"""Canonical JSON: the one form a record's JSON columns are stored in, and why a stored text is
not in it.

A record's `JSON_COLUMNS` are written by `records.canonical_json` (keys sorted, each once, no
spaces, every character as itself but what JSON escapes, numbers as Python writes them), and
the hash recipe (`dealer.audit.chain`) hashes the text as stored. A text is canonical when
writing again what it says gives the same text; settings are checked whole, also where their
text is kept once in `settings_texts`. Decided: nothing else is a record. A key given twice is
read as its last value by Python (`audit show`, verify, the shift summary) and as its first by
SQLite's JSON functions (a list, a search, the meters' indexes), so one record would say two
things; a text in another spelling says the same thing, and is refused all the same, so that
what a reader sees is exactly what the hash covers. The PostgreSQL server refuses a key given
twice and any other encoding from every writer (`dealer.check_canonical`); on SQLite the tool
is the only writer that keeps the log's rules, and whoever writes the file around it can drop
any trigger, so the file has none for this (decided: one cost a ruling 8% more, a trigger that
stops no one who holds the file). verify fails every text not canonical, from either backend
(keys out of order, a number's spelling, a key twice), naming the record and the column
(`problem`)."""

from __future__ import annotations

import json
from typing import Any

from dealer.audit.records import canonical_json
from dealer.kernel.text import printable

JSON_COLUMNS = ("cards", "result", "explanation", "settings")
"""A record's columns that hold a JSON document (the others are text, numbers or null)."""


class _Twice(ValueError):
    """A key an object gives twice (raised while reading, to name it)."""


def _once(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """An object's pairs as a dict; `_Twice` naming the first key given again."""
    found: dict[str, Any] = {}
    for key, value in pairs:
        if key in found:
            raise _Twice(key)
        found[key] = value
    return found


def problem(text: object) -> str | None:
    """Why the stored JSON `text` is not canonical, in words (None: it is): not JSON, a key
    given twice (named), a number JSON cannot hold, or another spelling than the recipe's."""
    try:
        if isinstance(text, str) and canonical_json(json.loads(text)) == text:
            return None
    except (TypeError, ValueError):
        pass
    try:
        json.loads(text, object_pairs_hook=_once)  # type: ignore[arg-type]
    except _Twice as twice:
        return f"the key {printable(str(twice))} is given twice"
    except (TypeError, ValueError):
        return "it is not JSON"
    try:
        canonical_json(json.loads(text))  # type: ignore[arg-type]
    except ValueError:
        return "it holds a number JSON cannot (NaN, an infinity)"
    return (
        "it is not written as the hash recipe writes JSON (keys sorted, no spaces, characters "
        "as themselves)"
    )
