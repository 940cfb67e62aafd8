"""YAML documents and their content-addressed cache."""

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

from dealer.kernel.documents import CACHE_FORMAT, DocumentSyntaxError, load_yaml


@pytest.fixture()
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    place = tmp_path / "cache"
    monkeypatch.setenv("DEALER_CACHE", str(place))
    return place


def _entry(cache: Path, text: str) -> Path:
    return cache / CACHE_FORMAT / (hashlib.sha256(text.encode("utf-8")).hexdigest() + ".json")


def _sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def test_a_parsed_document_is_cached_under_its_content(cache: Path) -> None:
    text = "name: room\nrules: {wheel: lowest}\nlimits: [1, 2.5, null, true]\n"
    expected = {"name": "room", "rules": {"wheel": "lowest"}, "limits": [1, 2.5, None, True]}
    assert load_yaml(text) == expected
    header, stored = _entry(cache, text).read_text(encoding="utf-8").split("\n", 1)
    assert header == f"{_sha256(text)} {_sha256(stored)}"
    assert json.loads(stored) == expected
    served = '{"served": "from the cache"}'
    _entry(cache, text).write_text(f"{_sha256(text)} {_sha256(served)}\n{served}", "utf-8")
    assert load_yaml(text) == {"served": "from the cache"}  # the second read skips PyYAML
    assert load_yaml(text + "\n") == expected  # other text, other key


@pytest.mark.parametrize(
    "edit",
    [
        lambda header, stored: f"{header}\n{stored.replace('lowest', 'highest')}",
        lambda header, stored: stored,  # no digests
        lambda header, stored: f"{'0' * 64} {header.split()[1]}\n{stored}",  # another source's
        lambda header, stored: "",
    ],
)
def test_an_edited_cache_entry_is_ignored_and_rewritten(cache: Path, edit: Any) -> None:
    text = "rules: {wheel: lowest}\n"
    assert load_yaml(text) == {"rules": {"wheel": "lowest"}}
    entry = _entry(cache, text)
    written = entry.read_text(encoding="utf-8")
    entry.write_text(edit(*written.split("\n", 1)), encoding="utf-8")
    assert load_yaml(text) == {"rules": {"wheel": "lowest"}}  # parsed again from the source
    assert entry.read_text(encoding="utf-8") == written


def test_what_json_cannot_keep_is_not_cached(cache: Path) -> None:
    text = "1: one\nwhen: 2026-11-22\n"
    assert load_yaml(text)[1] == "one"
    assert not _entry(cache, text).exists()


def test_an_unwritable_cache_is_not_used(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder", encoding="utf-8")
    monkeypatch.setenv("DEALER_CACHE", str(blocker / "cache"))
    assert load_yaml("a: 1\n") == {"a": 1}


def test_bad_yaml_is_a_document_error(cache: Path) -> None:
    with pytest.raises(DocumentSyntaxError, match="flow sequence"):
        load_yaml("a: [1, 2\n")
    with pytest.raises(DocumentSyntaxError):
        load_yaml("a: [1, 2\n", cache=False)
