"""SHA-256 of text, as the audit chain and the document cache take it.

CPython's builtin SHA-256 module is used where there is one: `hashlib` loads OpenSSL first,
about 2.5 ms of every ruling's start-up. The digests are the same."""

from __future__ import annotations

import importlib
from typing import Any


def _builtin_sha256() -> Any:
    for module, name in (("_sha256", "sha256"), ("_sha2", "sha256")):  # CPython 3.11, 3.12+
        try:
            return getattr(importlib.import_module(module), name)
        except (ImportError, AttributeError):
            continue
    from hashlib import sha256

    return sha256


_sha256 = _builtin_sha256()


def sha256_hex(text: str) -> str:
    """Lower-case hex SHA-256 of the UTF-8 bytes of `text`."""
    return str(_sha256(text.encode("utf-8")).hexdigest())
