"""YAML documents and their content-addressed cache (for listed, shipped documents only)."""

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

from dealer.kernel import documents
from dealer.kernel.documents import CACHE_FORMAT, DocumentSyntaxError, load_yaml


@pytest.fixture()
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    place = tmp_path / "cache"
    monkeypatch.setenv("DEALER_CACHE", str(place))
    return place


def _ship(monkeypatch: pytest.MonkeyPatch, *texts: str) -> None:
    """List `texts` as shipped documents (their parsed form's digest as the package lists it)."""
    listed = {
        _sha256(t): _sha256(json.dumps(load_yaml(t, cache=False), default=str)) for t in texts
    }
    monkeypatch.setattr(documents, "shipped_documents", lambda: listed)


def _entry(cache: Path, text: str) -> Path:
    return cache / CACHE_FORMAT / (hashlib.sha256(text.encode("utf-8")).hexdigest() + ".json")


def _sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def test_a_shipped_document_is_cached_under_its_content(
    cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    text = "name: room\nrules: {wheel: lowest}\nlimits: [1, 2.5, null, true]\n"
    _ship(monkeypatch, text)
    expected = {"name": "room", "rules": {"wheel": "lowest"}, "limits": ["1", "2.5", None, True]}
    assert load_yaml(text) == expected
    header, stored = _entry(cache, text).read_text(encoding="utf-8").split("\n", 1)
    assert header == f"{_sha256(text)} {_sha256(stored)}"
    assert json.loads(stored) == expected
    monkeypatch.setattr(documents, "_parse", None)  # the second read cannot use PyYAML
    assert load_yaml(text) == expected


def test_a_document_not_shipped_is_parsed_every_time(
    cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    text = "rules: {wheel: lowest}\n"
    _ship(monkeypatch)
    assert load_yaml(text) == {"rules": {"wheel": "lowest"}}
    assert not _entry(cache, text).exists()


@pytest.mark.parametrize(
    "edit",
    [
        lambda header, stored: f"{header}\n{stored.replace('lowest', 'highest')}",
        lambda header, stored: stored,  # no digests
        lambda header, stored: f"{'0' * 64} {header.split()[1]}\n{stored}",  # another source's
        lambda header, stored: "",
        # the JSON edited and both digests recomputed: still not the listed parsed form
        lambda header, stored: (
            f"{header.split()[0]} {_sha256(stored.replace('lowest', 'highest'))}\n"
            + stored.replace("lowest", "highest")
        ),
    ],
)
def test_an_edited_cache_entry_is_ignored_and_rewritten(
    cache: Path, edit: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    text = "rules: {wheel: lowest}\n"
    _ship(monkeypatch, text)
    assert load_yaml(text) == {"rules": {"wheel": "lowest"}}
    entry = _entry(cache, text)
    written = entry.read_text(encoding="utf-8")
    entry.write_text(edit(*written.split("\n", 1)), encoding="utf-8")
    assert load_yaml(text) == {"rules": {"wheel": "lowest"}}  # parsed again from the source
    assert entry.read_text(encoding="utf-8") == written


def test_keys_numbers_and_dates_are_text_so_json_keeps_them(
    cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    text = "1: one\nwhen: 2026-11-22\n"
    _ship(monkeypatch, text)
    assert load_yaml(text) == {"1": "one", "when": "2026-11-22"}
    assert _entry(cache, text).exists()


def test_an_unwritable_cache_is_not_used(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder", encoding="utf-8")
    monkeypatch.setenv("DEALER_CACHE", str(blocker / "cache"))
    assert load_yaml("a: 1\n") == {"a": "1"}


def test_bad_yaml_is_a_document_error(cache: Path) -> None:
    with pytest.raises(DocumentSyntaxError, match="flow sequence"):
        load_yaml("a: [1, 2\n")
    with pytest.raises(DocumentSyntaxError):
        load_yaml("a: [1, 2\n", cache=False)
