"""Nothing in the repository names a path outside it: the suite, the program, the benchmarks,
CI and the docs work in a fresh clone with nothing beside it (the suite once read its House Way
examples from a folder beside the checkout, and a fresh clone stopped at collection).

`outside` finds each path in a file's text that leaves the repository:
* one that climbs above the root with `..` (`../design`, `ROOT / ".."`): counted from the root
  in code and commands (they run there), from the file's own folder in Markdown (a link);
* one that climbs above the root from `__file__` (`Path(__file__).parents[2]` in `tests/`, or
  one `.parent` too many);
* an absolute path into a machine's own folders (`/work`, `/root`, `/home`, …); the system's
  paths a package installs (`/usr/bin/chromium`, `/usr/lib/postgresql`) are any Debian's;
* a relative path whose first folder the repository does not have, naming a file two folders
  down (`design/reference/notes.md`: a folder beside the checkout).

Every text file is read, except this one (its examples are the planted cases), what Python,
the tools and the program make (caches, virtual environments, `build/`, `logs/`) and `.git`."""

from __future__ import annotations

import contextlib
import os
import re
from pathlib import Path, PurePosixPath

import pytest

ROOT = Path(__file__).resolve().parents[1]
MACHINE = ("work", "root", "home", "Users", "mnt", "media", "srv", "opt")
"""A machine's own top folders: where a checkout, a home or a mounted disk is."""
MADE = {"__pycache__", "build", "dist", "logs"}
"""Folders of what is made from the repository, not part of it."""

_CLIMB = re.compile(r"(?<![\w.])((?:\.\./)+)")
_CLIMB_PART = re.compile(r"""(?<![\w.])["']\.\.["']""")
_FROM_FILE = re.compile(
    r"__file__\)(?:\.(?:resolve|absolute)\(\))?(?:\.parents\[(\d+)\]|((?:\.parent\b)+))"
)
_ABSOLUTE = re.compile(rf"(?<![\w.:/~$\-}})\]])/(?:{'|'.join(MACHINE)})(?![\w.-])")
_RELATIVE = re.compile(
    r"(?<![\w./:@~$%{}-])([A-Za-z_][\w.-]*)/(?:[\w.-]+/)+[\w.-]*\.[A-Za-z]\w{0,4}\b"
)


def outside(text: str, where: PurePosixPath, known: set[str]) -> list[str]:
    """The paths in `text`, the file at `where` (relative to the root), that leave the
    repository; `known` is the repository's folder names (`FOLDERS`)."""
    depth = len(where.parts) - 1  # how many folders the file is below the root
    climbable = depth if where.suffix == ".md" else 0
    found = [m.group(0) for m in _CLIMB.finditer(text) if m.group(1).count("../") > climbable]
    found += [m.group(0) for m in _CLIMB_PART.finditer(text)]
    for m in _FROM_FILE.finditer(text):
        up = int(m.group(1)) if m.group(1) is not None else m.group(2).count(".parent") - 1
        if up > depth:
            found.append(m.group(0))
    found += [m.group(0) for m in _ABSOLUTE.finditer(text)]
    found += [m.group(0) for m in _RELATIVE.finditer(text) if m.group(1) not in known]
    return found


def test_outside_finds_each_way_out_and_nothing_else() -> None:
    known = {"tests", "data", "dealer", "docs", "games", "paigow"}
    test, doc = PurePosixPath("tests/test_x.py"), PurePosixPath("docs/x.md")
    engine = PurePosixPath("dealer/games/paigow/x.py")
    planted = {
        'open("../design/reference/examples.tsv")': (test, ["../"]),
        'Path(__file__).parents[2] / "design"': (test, ["__file__).parents[2]"]),
        "Path(__file__).resolve().parent.parent.parent": (
            test,
            ["__file__).resolve().parent.parent.parent"],
        ),
        'ROOT / ".." / "design"': (test, ['".."']),
        "see [the notes](../../notes.md)": (doc, ["../../"]),
        'DATA = "/work/main/tests/data"': (test, ["/work"]),
        "cache under /root/.cache/dealer": (doc, ["/root"]),
        "(as the project reads it, design/reference/house-ways.md)": (
            engine,
            ["design/reference/house-ways.md"],
        ),
    }
    for text, (where, expected) in planted.items():
        assert outside(text, where, known) == expected, text
    legitimate = {
        'Path(__file__).resolve().parents[1] / "dealer"': test,
        "Path(__file__).parent.parent": test,
        'Path(__file__).resolve().parents[3] / "paytables"': engine,
        'DATA = Path(__file__).parent / "data" / "house_way_examples.tsv"': test,
        "[the README](../README.md), [rules](rules.md)": doc,
        'cd "$(dirname "$0")/.."': PurePosixPath(".ci/run"),
        'CHROMIUM = Path("/usr/bin/chromium")': test,
        'glob.glob("/usr/lib/postgresql/*/bin/initdb")': test,
        "https://example.org/home/work/x.html and `~/.cache/dealer`": doc,
        "win/push/lose, and/or, --high/--low, `place/log.sqlite`": doc,
        "tests/data/house_way_examples.tsv, games/paigow/default_profile.yaml": doc,
        "from ..kernel import cards; ranks 2..9 ...": engine,
    }
    for text, where in legitimate.items():
        assert outside(text, where, known) == [], text


def repository_texts() -> dict[PurePosixPath, str]:
    """Every text file of the repository this test reads, by its path from the root (an image
    or a database is no text)."""
    found = []
    for folder, subfolders, names in os.walk(ROOT):
        subfolders[:] = sorted(
            name
            for name in subfolders
            if name not in MADE
            and not name.endswith(".egg-info")
            and (not name.startswith(".") or name == ".ci")
            and not (Path(folder) / name / "pyvenv.cfg").exists()
        )
        inside = PurePosixPath(Path(folder).relative_to(ROOT).as_posix())
        found += [inside / name for name in sorted(names) if name != ".git"]  # a worktree's link
    texts = {}
    for path in found:
        data = (ROOT / path).read_bytes()
        if ROOT / path != Path(__file__).resolve() and b"\0" not in data:
            with contextlib.suppress(UnicodeDecodeError):
                texts[path] = data.decode("utf-8")
    return texts


TEXTS = repository_texts()
FOLDERS = {name for path in TEXTS for name in path.parts[:-1]}


@pytest.mark.parametrize("path", sorted(TEXTS), ids=str)
def test_no_file_names_a_path_outside_the_repository(path: PurePosixPath) -> None:
    assert outside(TEXTS[path], path, FOLDERS) == []
