"""One vocabulary: record kinds, roles, actions, outcomes and a live session's reply kinds are
StrEnums, each defined once; a record made with their members is stored and hashed as it was
with the plain strings, and no module spells one of their words again as a literal."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from enum import StrEnum
from pathlib import Path
from typing import Any

import pytest

from dealer.audit.chain import record_hash
from dealer.audit.disputes import DisputeOutcome
from dealer.audit.meters import MeterAction
from dealer.audit.records import Entry, RecordKind, Role
from dealer.audit.sign_ins import SignInAction
from dealer.audit.users import UserAction
from dealer.games.paigow.settle import Outcome
from dealer.kernel.replies import ReplyKind
from dealer.kernel.ruling import RulingAction

PACKAGE = Path(__file__).resolve().parents[1] / "dealer"
ENUMS: tuple[type[StrEnum], ...] = (
    RecordKind,
    Role,
    RulingAction,
    MeterAction,
    UserAction,
    SignInAction,
    DisputeOutcome,
    Outcome,
    ReplyKind,
)
VOCABULARY = frozenset(member.value for enum in ENUMS for member in enum)
FIELDS = frozenset({"kind", "action", "role", "outcome"})
"""The fields whose values are the vocabulary's words."""


def _sealed(entry: Entry) -> dict[str, Any]:
    """`entry` as the row the log would store as record 7 (fixed time, version and link)."""
    row = entry.stored()
    row.update(
        id=7,
        recorded_at="2026-05-09T14:05:07.250000Z",
        software_version="1.0.0",
        prev_hash="ab" * 32,
    )
    return row


@pytest.mark.parametrize(
    ("entry", "known"),
    [
        (
            Entry(
                kind=RecordKind.RULING,
                user_id="D7",
                role=Role.DEALER,
                table_id="PG-3",
                game="paigow",
                action=RulingAction.SETTLE,
                input_text="3 As Kd",
                cards=["As", "Kd"],
                result={"outcome": Outcome.WIN, "net": 25},
                explanation=["base wager: win"],
                settings={"profile": "house.yaml"},
                seat=3,
            ),
            "e518fa5bbaf5cfaa47a07f503601d8b513f131bc03b6d94a69d36cbe93b84e27",
        ),
        (
            Entry(
                kind=RecordKind.METER,
                user_id="S1",
                role=Role.SUPERVISOR,
                table_id="PG-3",
                game="paigow",
                action=MeterAction.ADJUST,
                result={"meter": "treasure", "value": "1000.00"},
                explanation=["Meter treasure"],
                links_to=6,
                reason="reseed",
            ),
            "c718f1375840893a2af63344a30e979f1ed43bc74d770bb4c36537e2941bccfa",
        ),
    ],
)
def test_a_record_made_with_the_enums_hashes_as_with_strings(entry: Entry, known: str) -> None:
    """`known`: the hash of the same record made with plain strings, before the vocabulary
    was enums (a log's stored hashes must not change)."""
    assert record_hash(_sealed(entry)) == known


@pytest.mark.parametrize("kind", list(RecordKind))
def test_every_kind_is_stored_as_its_text(kind: RecordKind) -> None:
    stored = Entry(kind=kind, user_id="S1", role=Role.SUPERVISOR).stored()
    assert (stored["kind"], stored["role"]) == (kind.value, "supervisor")


def _literals(tree: ast.AST) -> Iterator[tuple[int, str]]:
    """Each vocabulary word written as a literal where one of `FIELDS` is compared (`r.kind ==
    "void"`, `row["action"] in ("move", …)`) or given (`kind="meter"`), with its line."""

    def field(node: ast.expr) -> bool:
        if isinstance(node, ast.Attribute):
            return node.attr in FIELDS
        return (
            isinstance(node, ast.Subscript)
            and isinstance(node.slice, ast.Constant)
            and node.slice.value in FIELDS
        )

    def words(node: ast.expr) -> Iterator[ast.Constant]:
        for item in node.elts if isinstance(node, ast.Tuple | ast.List | ast.Set) else [node]:
            if isinstance(item, ast.Constant) and item.value in VOCABULARY:
                yield item

    for node in ast.walk(tree):
        if isinstance(node, ast.Compare) and any(map(field, [node.left, *node.comparators])):
            for side in [node.left, *node.comparators]:
                yield from ((word.lineno, word.value) for word in words(side))
        elif isinstance(node, ast.keyword) and node.arg in FIELDS:
            yield from ((word.lineno, word.value) for word in words(node.value))


def test_no_module_spells_a_vocabulary_word_as_a_literal() -> None:
    found = [
        f"{path.relative_to(PACKAGE.parent)}:{line}: {word!r}"
        for path in sorted(PACKAGE.rglob("*.py"))
        for line, word in _literals(ast.parse(path.read_text(encoding="utf-8")))
    ]
    assert found == []


def test_the_guard_sees_a_literal() -> None:
    code = (
        'r.kind == "void"\nrow["action"] in ("move", "x")\nEntry(kind="meter")\nm.kind == "leader"'
    )
    assert sorted(_literals(ast.parse(code))) == [(1, "void"), (2, "move"), (3, "meter")]
