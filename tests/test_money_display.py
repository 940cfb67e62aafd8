"""One money display (`$1,234.50`; signed where it is a result: `+$12.50`, `-$5`, `$0`) on
every screen that shows money: a representative set of commands run on one log, and no amount
in their text output written another way (a bare number in a money column, or after a word that
names money)."""

from __future__ import annotations

import re
from pathlib import Path

import cli
import pytest
from log_reads import use

SUP = ("--supervisor", "sup-7", "--pin", "lantern-2468")
REVIEWER = ("--reviewer", "sup-8", "--reviewer-pin", "meadow-9753")
BONUSES = ("--treasure", "5", "--insurance", "5", "--insurance-on-dealer")
SETTLE = ("paigow", "settle", "--dealer", "As Kd 9c 7h 5s 3d 2c", "--table", "PG-3")
SETUP = (
    ("audit", "user", "add", "sup-7", "--role", "supervisor", "--new-pin", "lantern-2468"),
    ("audit", "user", "add", "d-104", "--role", "dealer", "--new-pin", "harbor-1357", *SUP),
    ("audit", "user", "add", "sup-8", "--role", "supervisor", "--new-pin", "meadow-9753", *SUP),
)
SHOWN = (
    (*SETTLE, "--player", "Js Jd Jc Jh 8s 5d 3h", "--wager", "25", *BONUSES,
     "--progressive-treasure", "1", "--user", "d-104", "--seat", "1", "--patron", "P-123"),
    ("audit", "dispute", "open", "the low hand was set wrong", "--table", "PG-3", "--seat", "1",
     "--ruling", "4", "--user", "d-104"),
    ("audit", "dispute", "resolve", "7", "--outcome", "dealer-error", "--amount", "25",
     *REVIEWER, "--reason", "low hand set against the House Way", *SUP),
    ("audit", "dispute", "correct", "7", "--amount", "50", *REVIEWER,
     "--reason", "the wager was 50, not 25", *SUP),
    ("audit", "override", "4", "--decision", "push", "--reason", "dispute", *SUP),
    ("audit", "meter", "adjust", "progressive_treasure", "12000.50", "--table", "PG-3",
     "--reason", "reseed", *SUP),
    (*SETTLE, "--player", "Kc Kh 9d 6s 2h Qs Td", "--wager", "12.50", "--user", "d-104"),
    (*SETTLE, "--player", "2s 2d 4c 6h 8s 9d Jc", "--wager", "1234.50", "--user", "d-104"),
    ("round", "examples/round.yaml", "--user", "d-104"),
    ("audit", "list"),
    ("audit", "search", "--table", "PG-3", "--seat", "1"),
    ("audit", "show", "4"),
    ("audit", "show", "7"),
    ("audit", "meter", "show", "progressive_treasure", "--table", "PG-3"),
    ("audit", "dispute", "list", "--all"),
    ("audit", "dispute", "packet", "7"),
    ("shift", "summary", "--table", "PG-3"),
    ("table", "--table", "PG-3"),
)  # fmt: skip
TABLE_SESSION = "dealer As Kd 9c 7h 5s 3d 2c\n1 Js Jd Ac Qh 8s 5d 3h base 25 t 5\nsettle\nquit\n"
MONEY_WORDS = (
    r"net|paid|pays?|adjusted|wager|amount|total|contributions|seed(?:ed)?|reseeds?|"
    r"value|from|over|limit|max|min|change|won|lost|cap"
)
UNSHOWN = [
    re.compile(
        rf"\b(?:{MONEY_WORDS})\b:?\s+[-+]?\d[\d,]*(?:\.\d+)?\b(?!\s*(?:to|units?|of|×|x)\b)"
    ),
    re.compile(r"(?<![\w$.,#§:/-])[-+]\d[\d,]*(?:\.\d+)?(?![\w:/])"),
    re.compile(r"(?<![\w$.,#§:/-])(?<!contribution )\d+\.\d\d?(?![\w:/.])"),
    re.compile(r"\$\d{4,}|\$-|\$\d+\.\d(?!\d)|\$\d+\.00(?!\d)"),
]
"""A bare amount after a word that names money (`net 12.50`, `adjusted 25`, `amount 5`, not
`pays 1 to 2`), a signed or decimal number without its `$` (`+12.50`), and a `$` form that is not
the one display (`$1234`, `$-5`, `$12.5`, `$10.00`). A meter's contribution is a share of the
wager (`contribution 0.25`), not an amount."""


def misprinted(text: str) -> list[str]:
    """The lines of `text` holding an amount written another way than `fmt_money` writes it."""
    return [line for line in text.splitlines() if any(p.search(line) for p in UNSHOWN)]


@pytest.mark.parametrize(
    "line",
    ["net 12.50", "+12.50", "adjusted 25", "total -5", "$1234.50", "$12.5", "$-5", "amount 25"],
)
def test_another_form_is_found(line: str) -> None:
    assert misprinted(line) == [line]


@pytest.mark.parametrize(
    "line",
    ["base wager $25: win, 1 to 2: +$12.50", "adjusted +$1,234.50", "pays 20 to 1", "$0", "-$5"],
)
def test_the_one_form_passes(line: str) -> None:
    assert misprinted(line) == []


def test_every_screen_shows_money_one_way(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    use(tmp_path / "dealer.sqlite", monkeypatch)
    monkeypatch.chdir(Path(__file__).parents[1])
    for words in SETUP:
        cli.ok(*words, whole=True)
    found, shown = {}, []
    for words in SHOWN:
        stdin = TABLE_SESSION if words[0] == "table" else None
        shown.append(output := cli.ok(*words, whole=True, stdin=stdin).output)
        if bad := misprinted(output):
            found[" ".join(words)] = bad
    assert found == {}
    every = "\n".join(shown)
    assert all(m in every for m in ("+$12.50", "$1,234.50", ": $0\n", "+$50", "$12,000.50")), every
