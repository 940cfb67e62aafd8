"""Reading the YAML documents casinos write (profiles, House Ways, pay tables).

A parsed document is kept as JSON in a cache keyed by the SHA-256 of its text, so a ruling
process reads a document it has seen before without loading PyYAML (about 15 ms of start-up).
The key is the content, so the cache can never serve a stale document; a cache that cannot be
written is simply not used. Where: `DEALER_CACHE`, else `$XDG_CACHE_HOME/dealer`, else
`~/.cache/dealer`.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from dealer.kernel.digest import sha256_hex
from dealer.kernel.errors import ConfigError


class DocumentSyntaxError(ConfigError):
    """A document that is not valid YAML: the parser's message, and where (1-based) and what
    the problem is when the parser says."""

    def __init__(self, message: str, line: int | None, column: int | None, problem: str) -> None:
        super().__init__(message)
        self.line = line
        self.column = column
        self.problem = problem


def _cache_dir() -> Path:
    chosen = os.environ.get("DEALER_CACHE")
    if chosen:
        return Path(chosen)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "dealer"


def _parse(text: str) -> Any:
    import yaml

    loader: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml when present
    try:
        return yaml.load(text, Loader=loader)  # noqa: S506 - a safe loader
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line, column = (mark.line + 1, mark.column + 1) if mark is not None else (None, None)
        problem = getattr(exc, "problem", None) or "cannot be parsed"
        raise DocumentSyntaxError(str(exc), line, column, problem) from None


def load_yaml(text: str, cache: bool = True) -> Any:
    """Parse one YAML document safely (no Python objects). Raises DocumentSyntaxError."""
    if not cache:
        return _parse(text)
    entry = _cache_dir() / (sha256_hex(text) + ".json")
    try:
        return json.loads(entry.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        pass
    value = _parse(text)
    try:
        stored = json.dumps(value)
        if json.loads(stored) == value:  # only what JSON keeps exactly (no int keys, dates)
            entry.parent.mkdir(parents=True, exist_ok=True)
            partial = entry.with_suffix(f".{os.getpid()}.tmp")
            partial.write_text(stored, encoding="utf-8")
            os.replace(partial, entry)
    except (OSError, TypeError, ValueError):
        pass
    return value
