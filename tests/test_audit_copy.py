"""Copying a log copies what verify found sound, nothing a terminal appended in between."""

from __future__ import annotations

from pathlib import Path

import pytest

from dealer.audit import copy, entries, open_log
from dealer.audit.chain import VerifyResult
from dealer.audit.records import Entry
from dealer.audit.storage import Storage
from dealer.audit.verify import FloorSums, verify


def ruling(text: str) -> Entry:
    return Entry(kind="ruling", user_id="D1", role="dealer", table_id="PG-1", input_text=text)


def test_a_record_appended_after_verify_is_left_for_the_next_copy(
    log_at: Path | str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with open_log(log_at) as source:
        for text in ("a", "b"):
            entries.append(source, ruling(text))
        verified = source.head()

        def verified_then_appended(storage: Storage, sums: FloorSums | None) -> VerifyResult:
            checked = verify(storage, sums=sums)
            entries.append(storage, ruling("after verify"))
            return checked

        monkeypatch.setattr(copy, "verify", verified_then_appended)
        with open_log(tmp_path / "copy.sqlite") as target:
            assert copy.copy_log(source, target) == (2, verified)
            assert [r.input_text for r in target.records()] == ["a", "b"]
            monkeypatch.setattr(copy, "verify", verify)
            assert source.head().records == 3
            assert copy.copy_log(source, target) == (1, source.head())
            assert [r.input_text for r in target.records()] == ["a", "b", "after verify"]
            assert verify(target).ok and target.head() == source.head()
