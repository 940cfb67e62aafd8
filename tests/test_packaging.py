"""The package list of `pyproject.toml` names every package of the source tree, so an installed
wheel holds the whole program (an editable install would hide a missing one)."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_every_package_is_listed() -> None:
    listed = set(
        tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]
    )
    found = {
        ".".join(init.parent.relative_to(ROOT).parts)
        for init in (ROOT / "dealer").rglob("__init__.py")
    }
    assert found - listed == set()
    assert listed - found == {"dealer.shipped_paytables"}
