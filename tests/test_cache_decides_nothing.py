"""The parsed-document cache decides no pay: it serves only shipped documents, each entry checked
against the parsed form's SHA-256 the package lists, so an edited entry is ignored even with its
own digests recomputed; and each ruling names the pay tables it used by the SHA-256 of their
files' text."""

import hashlib
import json
from collections.abc import Iterator
from pathlib import Path

import cli
import pytest

from dealer.games.paigow.paytables import shipped_dir, shipped_paytables
from dealer.kernel.digest import sha256_hex
from dealer.kernel.documents import CACHE_FORMAT, SHIPPED_MANIFEST, load_yaml
from dealer.kernel.manifest import COMMAND, manifest_text

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
    result = cli.run(*args)
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
    assert FOUR_OF_A_KIND + '"20"}' in written
    entry.write_text(written.replace(FOUR_OF_A_KIND + '"20"}', FOUR_OF_A_KIND + '"1000"}'), "utf-8")
    shipped_paytables.cache_clear()  # a new process: the tables are read again
    second = run(*SETTLE)
    assert _treasure(second)["net"] == 100  # the source's pay, not the cache's $5,000
    assert second["settings"] == first["settings"]
    assert entry.read_text(encoding="utf-8") == written  # parsed again and rewritten
    verify = run("audit", "verify", "--json")
    assert verify["ok"] is True


def test_an_entry_edited_with_its_digests_recomputed_is_still_ignored(cache: Path) -> None:
    first = run(*SETTLE)
    entry = cache / (_sha256(shipped_dir() / "emperors-treasure.yaml") + ".json")
    header, _, stored = entry.read_text(encoding="utf-8").partition("\n")
    forged = stored.replace(FOUR_OF_A_KIND + '"20"}', FOUR_OF_A_KIND + '"1000"}')
    assert forged != stored
    source = header.split(" ")[0]
    entry.write_text(f"{source} {sha256_hex(forged)}\n{forged}", encoding="utf-8")
    shipped_paytables.cache_clear()
    second = run(*SETTLE)
    assert _treasure(second)["net"] == _treasure(first)["net"] == 100
    assert entry.read_text(encoding="utf-8") == f"{header}\n{stored}"  # rewritten from source


def test_a_document_the_package_does_not_ship_is_never_cached(cache: Path, tmp_path: Path) -> None:
    text = "a: 1\nb: [2, 3]\n"
    assert load_yaml(text) == {"a": "1", "b": ["2", "3"]}
    assert not cache.exists() or not any(cache.iterdir())


def _shipped_files() -> list[tuple[str, Path]]:
    package = Path(SHIPPED_MANIFEST).parent
    own = sorted((str(p.relative_to(package)), p) for p in package.rglob("*.yaml"))
    return own + sorted((f"paytables/{p.name}", p) for p in shipped_dir().glob("*.yaml"))


def test_the_manifest_lists_exactly_the_shipped_documents() -> None:
    expected = [
        f"{_sha256(path)} {sha256_hex(json.dumps(load_yaml(path.read_text('utf-8'), cache=False)))}"
        f" {name}"
        for name, path in _shipped_files()
    ]
    listed = [
        line
        for line in SHIPPED_MANIFEST.read_text(encoding="utf-8").splitlines()
        if not line.startswith("#")
    ]
    assert listed == expected, (
        f"dealer/shipped-documents.txt is out of date: run {COMMAND}; it should read:\n"
        + "\n".join(expected)
    )


def test_the_manifest_is_what_its_command_writes() -> None:
    """`python -m dealer.kernel.manifest` writes the list as the test above expects it."""
    package = Path(SHIPPED_MANIFEST).parent
    written = manifest_text(package, shipped_dir())
    assert written == SHIPPED_MANIFEST.read_text(encoding="utf-8"), f"run {COMMAND}"


def test_the_command_lists_an_edited_document_anew(tmp_path: Path) -> None:
    """An edited default profile is listed by the SHA-256 of its new text (so the next ruling
    under it is a shipped profile's, not refused as "not approved")."""
    package, paytables = tmp_path / "dealer", tmp_path / "paytables"
    profile = package / "games" / "paigow" / "default_profile.yaml"
    profile.parent.mkdir(parents=True)
    paytables.mkdir()
    shipped = Path(SHIPPED_MANIFEST).parent / "games" / "paigow" / "default_profile.yaml"
    edited = shipped.read_text(encoding="utf-8").replace("envy_minimum: 5", "envy_minimum: 10")
    profile.write_text(edited, encoding="utf-8")
    (paytables / "envy-bonus.yaml").write_text("schema: 1\n", encoding="utf-8")
    lines = manifest_text(package, paytables).splitlines()
    assert lines[2:] == [
        f"{sha256_hex(edited)} {sha256_hex(json.dumps(load_yaml(edited, cache=False)))} "
        "games/paigow/default_profile.yaml",
        f"{sha256_hex('schema: 1' + chr(10))} {sha256_hex(json.dumps({'schema': '1'}))} "
        "paytables/envy-bonus.yaml",
    ]
    assert lines[0].startswith("# Documents the package ships")


def test_a_ruling_records_the_pay_tables_content_hashes(cache: Path) -> None:
    out = run(*SETTLE)
    files = {t.id: Path(t.path) for t in shipped_paytables().tables.values()}
    posted = out["settings"]["paytables"]
    assert out["settings"]["paytables_sha256"] == {
        table_id: _sha256(files[table_id]) for table_id in posted.values()
    }
    bonus = run("paigow", "bonus", "Js Jd Jc Jh 8s 5d 3h", "--json")
    assert bonus["settings"]["paytables_sha256"] == out["settings"]["paytables_sha256"]
