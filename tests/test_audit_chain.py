"""The hash recipe, checkpoints, and the chain check."""

from __future__ import annotations

import hashlib
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dealer.audit.chain import (
    GENESIS_HASH,
    HASHED_FIELDS,
    ChainCheck,
    Checkpoint,
    VerifyResult,
    parse_checkpoints,
    record_hash,
)
from dealer.kernel.errors import AuditError

ROW: dict[str, Any] = {
    "id": 1,
    "recorded_at": "2026-05-09T14:05:00.000000Z",
    "kind": "ruling",
    "game": "paigow",
    "action": "rank",
    "table_id": "PG-3",
    "seat": 2,
    "user_id": "D7",
    "role": "dealer",
    "input_text": "as ks",
    "cards": '["As","Ks"]',
    "result": '{"category":"one-pair"}',
    "explanation": '["Pair of aces"]',
    "settings": "{}",
    "links_to": None,
    "reason": None,
    "software_version": "0.1.0",
    "prev_hash": GENESIS_HASH,
}
# The canonical JSON of ROW written out by hand: the recipe an auditor follows.
ROW_CANONICAL = (
    '{"action":"rank","cards":"[\\"As\\",\\"Ks\\"]","explanation":"[\\"Pair of aces\\"]",'
    '"game":"paigow","id":1,"input_text":"as ks","kind":"ruling","links_to":null,'
    f'"prev_hash":"{"0" * 64}","reason":null,"recorded_at":"2026-05-09T14:05:00.000000Z",'
    '"result":"{\\"category\\":\\"one-pair\\"}","role":"dealer","seat":2,"settings":"{}",'
    '"software_version":"0.1.0","table_id":"PG-3","user_id":"D7"}'
)
ROW_HASH = "21837032d3d79ff4910defa5ef50b87da052554e83f0470aa7c7acff43a6f175"


def test_recipe_matches_the_documented_canonical_json() -> None:
    assert hashlib.sha256(ROW_CANONICAL.encode("utf-8")).hexdigest() == ROW_HASH
    assert record_hash(ROW) == ROW_HASH


def test_recipe_keeps_non_ascii_as_utf8() -> None:
    row = dict(ROW, input_text="A♠ K♥ é")
    expected = ROW_CANONICAL.replace('"as ks"', '"A♠ K♥ é"')
    assert record_hash(row) == hashlib.sha256(expected.encode("utf-8")).hexdigest()


def test_hash_ignores_the_stored_hash_itself() -> None:
    assert record_hash(dict(ROW, hash="anything")) == ROW_HASH
    assert "hash" not in HASHED_FIELDS and len(HASHED_FIELDS) == 18


@given(name=st.sampled_from(HASHED_FIELDS), data=st.data())
def test_every_field_is_covered(name: str, data: st.DataObject) -> None:
    value = ROW[name]
    if isinstance(value, int) and not isinstance(value, bool):
        changed: Any = value + data.draw(st.integers(min_value=1, max_value=10**6))
    elif value is None:
        changed = data.draw(st.one_of(st.integers(), st.text(min_size=1)))
    else:
        changed = value + data.draw(st.text(min_size=1, max_size=3))
    assert record_hash(dict(ROW, **{name: changed})) != ROW_HASH


def chain(count: int) -> list[dict[str, Any]]:
    rows, prev = [], GENESIS_HASH
    for number in range(1, count + 1):
        row = dict(ROW, id=number, prev_hash=prev, input_text=f"hand {number}")
        row["hash"] = prev = record_hash(row)
        rows.append(row)
    return rows


def checked(rows: list[dict[str, Any]], *checkpoints: Checkpoint) -> ChainCheck:
    check = ChainCheck(checkpoints)
    check.feed(rows)
    return check


def test_good_chain() -> None:
    rows = chain(5)
    check = checked(rows, Checkpoint(3, rows[2]["hash"]), Checkpoint(None, rows[4]["hash"]))
    assert (check.first_bad, check.problem, check.rows) == (None, None, 5)
    assert check.head_hash == rows[4]["hash"]
    assert check.checkpoint_problem() is None


def test_changed_content_named() -> None:
    rows = chain(5)
    rows[2]["result"] = '{"category":"two-pair"}'
    check = checked(rows)
    assert check.first_bad == 3
    assert check.problem == "record 3 was changed after it was written"


def test_broken_link_named() -> None:
    rows = chain(5)
    rows[3]["prev_hash"] = "f" * 64
    assert checked(rows).first_bad == 4
    assert checked(rows).problem == "record 4 does not link to record 3"


def test_gap_named() -> None:
    rows = chain(5)
    del rows[1]
    check = checked(rows)
    assert (check.first_bad, check.rows) == (2, 4)
    assert check.problem == "record 2 is missing (the next record is 3)"


def test_only_the_first_problem_is_named() -> None:
    rows = chain(6)
    rows[4]["input_text"] = "x"
    rows[1]["input_text"] = "y"
    assert checked(rows).first_bad == 2


def test_truncation_against_checkpoint() -> None:
    rows = chain(8)
    check = checked(rows[:6], Checkpoint(8, rows[7]["hash"]))
    assert check.first_bad is None
    found = check.checkpoint_problem()
    assert found is not None and found[0] == 7
    assert "records 7-8 are missing" in found[1]


def test_rechain_against_checkpoints() -> None:
    rows = chain(8)
    good = Checkpoint(3, rows[2]["hash"])
    later = Checkpoint(8, rows[7]["hash"])
    forged = chain(8)
    for row in forged[4:]:
        row["input_text"] += "!"
    prev = forged[3]["hash"]
    for row in forged[4:]:
        row["prev_hash"] = prev
        row["hash"] = prev = record_hash(row)
    check = checked(forged, good, later)
    assert check.first_bad is None
    assert check.checkpoint_problem() == (
        4,
        f"record 8 does not match checkpoint {later}: the log was changed and re-chained "
        "somewhere in records 4-8",
    )


def test_bare_hash_checkpoint() -> None:
    rows = chain(4)
    assert checked(rows, Checkpoint(None, rows[1]["hash"])).checkpoint_problem() is None
    found = checked(rows, Checkpoint(None, "a" * 64)).checkpoint_problem()
    assert found == (
        None,
        f"no record has the checkpoint hash {'a' * 64}: the log was cut or re-chained",
    )


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (f"12:{'ab' * 32}", [Checkpoint(12, "ab" * 32)]),
        (
            f"shift close 3:{'AB' * 32}\nnext 9:{'cd' * 32}",
            [Checkpoint(3, "ab" * 32), Checkpoint(9, "cd" * 32)],
        ),
        ("ef" * 32, [Checkpoint(None, "ef" * 32)]),
        (
            f'{{"records": 7, "head_hash": "{"01" * 32}", "checkpoint": "x"}}',
            [Checkpoint(7, "01" * 32)],
        ),
    ],
)
def test_parse_checkpoints(text: str, expected: list[Checkpoint]) -> None:
    assert parse_checkpoints(text) == expected


@pytest.mark.parametrize(
    "text", ["", "12:abc", "a" * 65, '{"records": "7", "head_hash": "' + "0" * 64 + '"}']
)
def test_parse_checkpoints_refuses(text: str) -> None:
    with pytest.raises(AuditError):
        parse_checkpoints(text)


def test_checkpoint_text_round_trips() -> None:
    cp = Checkpoint(42, "9" * 64)
    assert str(cp) == f"42:{'9' * 64}"
    assert parse_checkpoints(str(cp)) == [cp]
    assert cp.to_dict() == {"records": 42, "head_hash": "9" * 64, "checkpoint": str(cp)}


def test_verify_result_dict() -> None:
    result = VerifyResult(False, 10, 4, "record 4 was changed", ("record 4 was changed",))
    assert result.to_dict() == {
        "ok": False,
        "records": 10,
        "first_bad": 4,
        "problem": "record 4 was changed",
        "problems": ["record 4 was changed"],
    }
