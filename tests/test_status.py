"""Where a ruling and an override stand, for every combination of override, void, dispute and
sign-off (`dealer.audit.status`): one log holds a ruling for each combination, built once per
backend, and each record's status is checked against the rule stated here, not against the
code's own reading of it.

The rule: a voided record is `voided` by its void; an override is voided only by a void of
the override — one whose ruling was voided is `ruling voided` (by the ruling's void), nothing
of it in effect; otherwise a ruling with a standing override is `overridden` by its newest, an
override with a newer standing one `overridden` by it, else `in effect`. Disputes naming the
record are listed beside the state; a ruling's large pay shows `awaiting sign-off` (nothing
when voided and unsigned) or who signed it; an override has no sign-off of its own."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, NamedTuple

import pytest

from dealer.audit import corrections, disputes, entries, open_log, signoffs, staff
from dealer.audit.disputes import Review
from dealer.audit.records import Entry
from dealer.audit.status import status
from dealer.audit.storage import Storage

PIN = "lantern-2468"
REVIEW = Review(
    supervisor_id="S1", pin=PIN, second_reviewer="S2", reviewer_pin="harbor-1357", reason="r"
)
DISPUTES = ("none", "open", "resolved")
NEWER = ("none", "standing", "voided")


class Case(NamedTuple):
    """One combination on one ruling: its override (`none`, `standing`, `voided`), a second,
    newer override (`none`, `standing`, `voided`), whether the ruling is voided and signed off,
    and a dispute (`none`, `open`, `resolved`) naming the ruling or its first override."""

    override: str
    newer: str
    ruling_voided: bool
    signed: bool
    dispute: str
    disputed: str  # "ruling" or "override"


class Made(NamedTuple):
    """The records one case made: None where the case made none."""

    ruling: int
    override: int | None
    override_void: int | None
    newer: int | None
    newer_void: int | None
    ruling_void: int | None
    signoff: int | None
    dispute: int | None


CASES = [
    Case(override, newer, voided, signed, dispute, disputed)
    for override, newer, voided, signed, dispute, disputed in itertools.product(
        ("none", "standing", "voided"),
        NEWER,
        (False, True),
        (False, True),
        DISPUTES,
        ("ruling", "override"),
    )  # fmt: skip
    if not (override == "none" and (newer != "none" or disputed == "override"))
]


def _void(log: Storage, record: int) -> int:
    return corrections.void(log, record, reason="misdeal", supervisor_id="S1", pin=PIN)


def _override(log: Storage, record: int, decision: str) -> int:
    return corrections.override(
        log,
        record,
        decision=decision,
        reason="misread",
        result={"winner": 1},
        supervisor_id="S1",
        pin=PIN,
    )


def _make(log: Storage, case: Case) -> Made:
    ruling = entries.append(
        log,
        Entry(
            kind="ruling",
            user_id="D1",
            role="dealer",
            table_id="PG-1",
            seat=1,
            game="paigow",
            action="settle",
            result={"net": "5000", "signoff_required": {"over": 2500, "seats": [1]}},
        ),
    )
    override = None if case.override == "none" else _override(log, ruling, "player wins")
    newer = None if case.newer == "none" else _override(log, ruling, "push")
    signoff = signoffs.sign_off(log, ruling, supervisor_id="S1", pin=PIN) if case.signed else None
    dispute = None
    if case.dispute != "none":
        named = override if case.disputed == "override" else ruling
        assert named is not None
        dispute = disputes.open_dispute(
            log, user_id="D1", table_id="PG-1", description="short pay", rulings=[named]
        )
        if case.dispute == "resolved":
            disputes.resolve_dispute(
                log, dispute, outcome="dealer-error", amount_adjusted="25", review=REVIEW
            )
    override_void = _void(log, override) if override and case.override == "voided" else None
    newer_void = _void(log, newer) if newer and case.newer == "voided" else None
    ruling_void = _void(log, ruling) if case.ruling_voided else None
    return Made(ruling, override, override_void, newer, newer_void, ruling_void, signoff, dispute)


@pytest.fixture(scope="module")
def built(new_log: Callable[[], Path | str]) -> Iterator[tuple[Storage, list[Made]]]:
    """Every case's records in one log, on each backend, built once."""
    with open_log(new_log()) as log:
        staff.add_user(log, "S1", "supervisor", pin=PIN)
        staff.add_user(
            log, "S2", "supervisor", pin="harbor-1357", supervisor_id="S1", supervisor_pin=PIN
        )
        yield log, [_make(log, case) for case in CASES]


def _dispute_marks(case: Case, made: Made, of: str) -> list[dict[str, Any]]:
    if case.dispute == "none" or case.disputed != of:
        return []
    resolved = case.dispute == "resolved"
    return [
        {
            "dispute": made.dispute,
            "open": not resolved,
            "outcome": "dealer-error" if resolved else None,
        }
    ]


def _standing(case_state: str, record: int | None) -> int | None:
    return record if case_state == "standing" else None


def expected_ruling(case: Case, made: Made) -> dict[str, Any]:
    """The ruling's status by the rule in the module's docstring."""
    newest = _standing(case.newer, made.newer) or _standing(case.override, made.override)
    decision = "push" if newest == made.newer else "player wins"
    if made.ruling_void is not None:
        state, by, decision_, result = "voided", made.ruling_void, None, None
    elif newest is not None:
        state, by, decision_, result = "overridden", newest, decision, {"winner": 1}
    else:
        state, by, decision_, result = "in effect", None, None, None
    signoff = (
        {"awaiting": False, "by": "S1", "record": made.signoff}
        if made.signoff is not None
        else (
            None if made.ruling_void is not None else {"awaiting": True, "by": None, "record": None}
        )
    )
    return {
        "state": state,
        "by": by,
        "decision": decision_,
        "result": result,
        "disputes": _dispute_marks(case, made, "ruling"),
        "signoff": signoff,
    }


def expected_override(case: Case, made: Made) -> dict[str, Any]:
    """The first override's status by the rule in the module's docstring."""
    newer = _standing(case.newer, made.newer)
    if made.override_void is not None:
        state, by, decision, result = "voided", made.override_void, None, None
    elif made.ruling_void is not None:
        state, by, decision, result = "ruling voided", made.ruling_void, None, None
    elif newer is not None:
        state, by, decision, result = "overridden", newer, "push", {"winner": 1}
    else:
        state, by, decision, result = "in effect", None, "player wins", {"winner": 1}
    return {
        "state": state,
        "by": by,
        "decision": decision,
        "result": result,
        "disputes": _dispute_marks(case, made, "override"),
        "signoff": None,
    }


def _status_of(log: Storage, record: int) -> dict[str, Any] | None:
    found = status(log, entries.get(log, record))
    return None if found is None else found.to_dict()


@pytest.mark.parametrize("index", range(len(CASES)), ids=[str(case) for case in CASES])
def test_every_combination_on_a_ruling_and_its_override(
    built: tuple[Storage, list[Made]], index: int
) -> None:
    log, made = built
    case, records = CASES[index], made[index]
    shown = _status_of(log, records.ruling)
    if shown is not None and shown["state"] == "in effect":
        shown["result"] = None  # the ruling's own result, checked below
    assert shown == expected_ruling(case, records)
    if records.override is not None:
        assert _status_of(log, records.override) == expected_override(case, records)


def test_an_override_whose_ruling_is_voided_says_so_not_voided(
    built: tuple[Storage, list[Made]],
) -> None:
    log, made = built
    index = CASES.index(Case("standing", "none", True, False, "none", "ruling"))
    records = made[index]
    assert records.override is not None and records.ruling_void is not None
    found = status(log, entries.get(log, records.override))
    assert found is not None
    assert found.text() == f"ruling voided by #{records.ruling_void}"
    assert found.nothing_in_effect
    ruling = status(log, entries.get(log, records.ruling))
    assert ruling is not None and ruling.text() == f"voided by #{records.ruling_void}"


def test_a_ruling_in_effect_shows_its_own_result(built: tuple[Storage, list[Made]]) -> None:
    log, made = built
    records = made[CASES.index(Case("none", "none", False, True, "none", "ruling"))]
    found = status(log, entries.get(log, records.ruling))
    assert found is not None and found.result == {
        "net": "5000",
        "signoff_required": {"over": 2500, "seats": [1]},
    }
    assert found.text() == f"in effect; signed off by S1 (#{records.signoff})"
