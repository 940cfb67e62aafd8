"""What counts as a record's canonical JSON (`dealer.audit.canonical`): the hash recipe's own
encoding, and why any other text is not it, in the words verify reports."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dealer.audit.canonical import problem
from dealer.audit.records import Entry

SPELLING = (
    "it is not written as the hash recipe writes JSON (keys sorted, no spaces, characters as "
    "themselves)"
)


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ('{"a":1,"b":[true,null,"x"]}', None),
        ('{"a":"caf\u00e9 \\"q\\" \\\\ \\n \\u001f \u2028 😀"}', None),
        ('{"n":12.5,"m":-0.0,"big":100000000000000000000}', SPELLING),
        ('{"big":100000000000000000000,"m":-0.0,"n":12.5}', None),
        ("[]", None),
        ('{"total_net":12.5,"total_net":5000}', "the key total_net is given twice"),
        ('{"a":{"x\\u001b":1,"x\\u001b":2}}', "the key x\\x1b is given twice"),
        ('{"a": 1}', SPELLING),
        ('{"b":1,"a":2}', SPELLING),
        ('{"a":"caf\\u00e9"}', SPELLING),
        ('{"a":"\\/"}', SPELLING),
        ('{"a":"\\u001F"}', SPELLING),
        ('{"a":1.50}', SPELLING),
        ('{"a":1E2}', SPELLING),
        ('{"a":NaN}', "it holds a number JSON cannot (NaN, an infinity)"),
        ('{"a":1e400}', "it holds a number JSON cannot (NaN, an infinity)"),
        ("{'a':1}", "it is not JSON"),
        ("sha256:" + "0" * 64, "it is not JSON"),
        (b"[]", SPELLING),
    ],
)
def test_what_is_canonical_and_why_not(text: str | bytes, why: str | None) -> None:
    assert problem(text) == why


JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=20,
)


@given(result=st.dictionaries(st.text(), JSON, max_size=4), lines=st.lists(st.text(), max_size=3))
def test_the_tool_writes_nothing_else(result: dict[str, object], lines: list[str]) -> None:
    """Every JSON column an entry is stored with (`Entry.stored`) is canonical, whatever its
    keys and values hold."""
    stored = Entry(
        kind="ruling", user_id="d-1", role="dealer", result=result, explanation=lines,
        settings={"profile": "default", "overrides": lines},
    ).stored()  # fmt: skip
    assert [problem(stored[c]) for c in ("cards", "result", "explanation", "settings")] == [
        None
    ] * 4
