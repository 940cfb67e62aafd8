"""docs/security.md names, for each promise, the test that holds the program to it: every test
it names is one the suite has, so a promise cannot outlive its proof."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).parents[1]
PAGE = (ROOT / "docs" / "security.md").read_text(encoding="utf-8")


def named() -> set[str]:
    """The tests the page names: `test_…` in backquotes, a parameter's id (`[…]`) left off."""
    return {match.group(1) for match in re.finditer(r"`(test_\w+)(?:\[[^`]*\])?`", PAGE)}


def defined() -> set[str]:
    """Every test function the suite defines."""
    return {
        match.group(1)
        for path in (ROOT / "tests").rglob("test_*.py")
        for match in re.finditer(r"^def (test_\w+)\(", path.read_text(encoding="utf-8"), re.M)
    }


def test_every_test_the_security_page_names_is_in_the_suite() -> None:
    assert sorted(named() - defined()) == []


def test_the_page_names_the_tests_of_every_trust_iii_attack() -> None:
    """Each attack file of the Trust III round is cited by at least one of its tests."""
    for name in ("pin", "assignment", "sign_in", "canonical", "name", "secrets", "floor_copy",
                 "sums", "training"):  # fmt: skip
        source = (ROOT / "tests" / "attacks" / f"test_{name}_attacks.py").read_text("utf-8")
        tests = set(re.findall(r"^def (test_\w+)\(", source, re.M))
        assert tests & named(), name


def test_the_guard_reads_a_name_and_its_parameters() -> None:
    assert re.findall(r"`(test_\w+)(?:\[[^`]*\])?`", "`test_a[x-y]` and `test_b`") == [
        "test_a",
        "test_b",
    ]
