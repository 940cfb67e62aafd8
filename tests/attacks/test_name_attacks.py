"""Trust III, principle 4 (what a reader sees is what was signed), the attack as filed: "a
look-alike House Way name (a Cyrillic `р` in `trump-рlaza`) is approved like any other". A
supervisor shown `trump-рlaza` approves what looks like the shipped `trump-plaza`, and rulings
then name it. Names that identify documents, tables and people are refused when they mix
scripts or hold confusable characters (`dealer.kernel.names`): in one `Error:` line naming the
input and the character, with nothing written, on both backends."""

from __future__ import annotations

import functools
from pathlib import Path

import cli
import pytest
from log_reads import records
from typer.testing import Result

from dealer.games.paigow import house_way

run = functools.partial(cli.run, whole=True)
ok = functools.partial(cli.ok, whole=True)
PIN = "signal-9876"
SUP = ("--supervisor", "sup-1", "--pin", PIN)
SHIPPED_WAY = Path(house_way.__file__).parent / "house_ways" / "trump-plaza.yaml"
PAIR = "Ks Kd 9c 7h 5s 3d 2c"
AT = ("--user", "d-104", "--table", "PG-1")
ER = "U+0440 CYRILLIC SMALL LETTER ER is Cyrillic among Latin letters"


def refused(result: Result) -> str:
    """The one `Error:` line of a refused command (nothing on standard output)."""
    assert (result.exit_code, result.stdout) == (1, ""), result.output
    (line,) = result.stderr.splitlines()
    return line


@pytest.fixture
def db(dealer_db: Path | str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path | str:
    """A log on each backend with supervisor sup-1 (record 1), the commands run in `tmp_path`."""
    monkeypatch.chdir(tmp_path)
    ok("audit", "user", "add", "sup-1", "--role", "supervisor", "--new-pin", PIN)
    return dealer_db


def test_a_look_alike_house_way_is_refused_at_approval_and_at_a_ruling(
    db: Path | str, tmp_path: Path
) -> None:
    """The attack: the shipped trump-plaza.yaml, word for word, under the name `trump-рlaza`
    (its `р` Cyrillic). Its approval and a ruling naming it are refused in one line naming the
    character; nothing is written."""
    text = SHIPPED_WAY.read_text(encoding="utf-8")
    assert text.count("name: trump-plaza\n") == 1
    look_alike = tmp_path / "trump-plaza.yaml"
    look_alike.write_text(text.replace("name: trump-plaza\n", "name: trump-рlaza\n"), "utf-8")
    expected = (
        f"Error: House Way {look_alike}: name 'trump-рlaza' is not a name: {ER}: a name's "
        "letters and digits are of one script"
    )
    approve = ("audit", "approve-house-way", str(look_alike), "--reason", "the shipped way")
    assert refused(run(*approve, *SUP)) == expected
    assert (
        refused(run("paigow", "set", PAIR, "--house-way", str(look_alike), *AT, *SUP)) == expected
    )
    assert [r.kind for r in records(db)] == ["user"]


def test_a_look_alike_profile_is_refused_at_approval_and_at_a_ruling(
    db: Path | str, tmp_path: Path
) -> None:
    """The same attack on a profile: one named `dеfault` (its `е` Cyrillic) would be approved
    and then read as the shipped default on every ruling it decides. Its approval and a ruling
    under it are refused in one line; nothing is written."""
    profile = tmp_path / "default.yaml"
    profile.write_text("name: dеfault\n", encoding="utf-8")
    expected = (
        f"Error: profile {profile}: name 'dеfault' is not a name: U+0435 CYRILLIC SMALL LETTER "
        "IE is Cyrillic among Latin letters: a name's letters and digits are of one script"
    )
    approve = ("audit", "approve-profile", str(profile), "--reason", "the default")
    assert refused(run(*approve, *SUP)) == expected
    assert refused(run("paigow", "set", PAIR, "--profile", str(profile), *AT)) == expected
    assert [r.kind for r in records(db)] == ["user"]


@pytest.mark.parametrize(
    ("option", "typed", "expected"),
    [
        (
            "--table",
            "PG-З",
            "table id 'PG-З' is not valid: U+0417 CYRILLIC CAPITAL LETTER ZE is Cyrillic among "
            "Latin letters: use ASCII letters, digits and . _ @ # - (up to 64)",
        ),
        (
            "--user",
            "ԁ-104",
            "user id 'ԁ-104' is not valid: U+0501 CYRILLIC SMALL LETTER KOMI DE looks like 'd', "
            "as every letter of the name looks Latin: use ASCII letters, digits and . _ @ - (up "
            "to 64)",
        ),
        (
            "--user",
            "d-104\u200b",
            "user id 'd-104\\u200b' is not valid: U+200B ZERO WIDTH SPACE prints nothing of its "
            "own: use ASCII letters, digits and . _ @ - (up to 64)",
        ),
    ],
)
def test_a_look_alike_table_or_user_id_is_refused_at_the_cli(
    db: Path | str, option: str, typed: str, expected: str
) -> None:
    """A ruling at the look-alike of table PG-3 (a Cyrillic `З` for the 3), in the name of the
    look-alike of dealer d-104 (a Cyrillic `ԁ`), or of d-104 with a zero-width space (ids were
    ASCII before, now the refusal says which character is not): refused in one line naming the
    character; nothing is written."""
    at = {"--user": "d-104", "--table": "PG-3", option: typed}
    assert refused(run("paigow", "set", PAIR, *(w for o, v in at.items() for w in (o, v)))) == (
        f"Error: {expected}"
    )
    assert [r.kind for r in records(db)] == ["user"]
