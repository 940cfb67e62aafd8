"""The parsed-document cache decides no pay: an edited entry is ignored, and each ruling names
the pay tables it used by the SHA-256 of their files' text."""

import hashlib
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from dealer.cli.app import build_app
from dealer.games.paigow.paytables import shipped_dir, shipped_paytables
from dealer.kernel.documents import CACHE_FORMAT

SETTLE = [
    "paigow",
    "settle",
    "--dealer",
    "As Kd 9c 7h 5s 3d 2c",
    "--player",
    "Js Jd Jc Jh 8s 5d 3h",
    "--wager",
    "25",
    "--treasure",
    "5",
    "--json",
]
FOUR_OF_A_KIND = '"event": "four-of-a-kind", "label": "Four-of-a-Kind", "kind": "to-1", "value": '


@pytest.fixture()
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.setenv("DEALER_DB", str(tmp_path / "audit.sqlite"))
    monkeypatch.setenv("DEALER_USER", "d-104")
    monkeypatch.setenv("DEALER_CACHE", str(tmp_path / "cache"))
    shipped_paytables.cache_clear()  # read the shipped tables through this cache
    yield tmp_path / "cache" / CACHE_FORMAT
    shipped_paytables.cache_clear()


def run(*args: str) -> dict:
    result = CliRunner().invoke(build_app(args[0]), list(args))
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_text(encoding="utf-8").encode("utf-8")).hexdigest()


def _treasure(out: dict) -> dict:
    return next(b for b in out["bonuses"] if b["wager"] == "treasure")


def test_an_edited_cache_entry_does_not_change_a_pay(cache: Path) -> None:
    first = run(*SETTLE)
    assert (_treasure(first)["event"], _treasure(first)["net"]) == ("four-of-a-kind", 100)
    entry = cache / (_sha256(shipped_dir() / "emperors-treasure.yaml") + ".json")
    written = entry.read_text(encoding="utf-8")
    assert FOUR_OF_A_KIND + "20}" in written
    entry.write_text(written.replace(FOUR_OF_A_KIND + "20}", FOUR_OF_A_KIND + "1000}"), "utf-8")
    shipped_paytables.cache_clear()  # a new process: the tables are read again
    second = run(*SETTLE)
    assert _treasure(second)["net"] == 100  # the source's pay, not the cache's $5,000
    assert second["settings"] == first["settings"]
    assert entry.read_text(encoding="utf-8") == written  # parsed again and rewritten
    verify = run("audit", "verify", "--json")
    assert verify["ok"] is True


def test_a_ruling_records_the_pay_tables_content_hashes(cache: Path) -> None:
    out = run(*SETTLE)
    files = {t.id: Path(t.path) for t in shipped_paytables().tables.values()}
    posted = out["settings"]["paytables"]
    assert out["settings"]["paytables_sha256"] == {
        table_id: _sha256(files[table_id]) for table_id in posted.values()
    }
    bonus = run("paigow", "bonus", "Js Jd Jc Jh 8s 5d 3h", "--json")
    assert bonus["settings"]["paytables_sha256"] == out["settings"]["paytables_sha256"]
