"""The SHA-256 used by the audit chain and the document cache is plain SHA-256."""

import hashlib

from hypothesis import given
from hypothesis import strategies as st

from dealer.kernel.digest import sha256_hex


@given(st.text())
def test_sha256_hex_is_hashlibs(text: str) -> None:
    assert sha256_hex(text) == hashlib.sha256(text.encode("utf-8")).hexdigest()
