"""Every `dealer` command the README shows runs exactly as written: each block of commands in
the order written, in a new folder holding the shipped `examples/` (a block of `$ dealer …`
transcripts goes on in the folder of the block before it, and ends as it shows)."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

from dealer.cli.app import GROUPS

ROOT = Path(__file__).parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
SLOW = ("analyze",)
"""Commands of minutes (exact enumeration, simulation): their figures are tested elsewhere."""


def blocks() -> list[list[str]]:
    """The README's indented blocks, as their `dealer …` and `$ dealer …` lines and the output
    shown under a transcript (continuation lines joined)."""
    found: list[list[str]] = [[]]
    lines = iter(README.splitlines())
    for line in lines:
        if not line.startswith("    "):
            if line.strip() and found[-1]:
                found.append([])
            continue
        while line.endswith("\\"):
            line = line[:-1] + next(lines).strip()
        found[-1].append(line[4:])
    return [block for block in found if block]


def is_command(line: str) -> bool:
    """A `dealer …` line, or a transcript's `$ dealer …` or `$ printf '…' | dealer …`."""
    if line.startswith("$ printf ") and " | dealer " in line:
        line = "$ " + line.partition(" | ")[2]
    words = line.removeprefix("$ ").split()
    return len(words) > 1 and words[0] == "dealer" and words[1] in GROUPS


def dealer(line: str, folder: Path) -> subprocess.CompletedProcess[str]:
    words = shlex.split(line.removeprefix("$ "), comments=True)
    stdin = None
    if words[0] == "printf":
        stdin, words = words[1].replace("\\n", "\n"), words[words.index("|") + 1 :]
    if "<" in words:
        at = words.index("<")
        stdin, words = (folder / words[at + 1]).read_text(encoding="utf-8"), words[:at]
    env = {k: v for k, v in os.environ.items() if not k.startswith("DEALER_")}
    return subprocess.run(
        [sys.executable, "-m", "dealer", *words[1:]],
        cwd=folder,
        env=env | {"PYTHONPATH": str(ROOT)},
        input=stdin or "",
        capture_output=True,
        text=True,
        timeout=300,
    )


def new_folder(tmp_path: Path, number: int) -> Path:
    folder = tmp_path / f"block-{number}"
    shutil.copytree(ROOT / "examples", folder / "examples")
    return folder


def test_the_readme_shows_runnable_commands() -> None:
    commands = [line for block in blocks() for line in block if is_command(line)]
    assert len(commands) >= 40
    assert not [c for c in commands if "…" in c or "****" in c]


def test_every_block_runs_as_written(tmp_path: Path) -> None:
    folder = tmp_path
    for number, block in enumerate(blocks()):
        commands = [line for line in block if is_command(line)]
        if not commands:
            continue
        if not commands[0].startswith("$ "):
            folder = new_folder(tmp_path, number)
        for index, line in enumerate(block):
            if not is_command(line) or line.split()[1] in SLOW:
                continue
            result = dealer(line, folder)
            shown = []
            for after in block[index + 1 :] if line.startswith("$ ") else []:
                if after.startswith("$ "):
                    break
                shown.append(after)
            refused = [s for s in shown if s.startswith("Error: ")]
            if refused:
                assert (result.returncode, result.stderr.splitlines()) == (1, refused), line
            else:
                assert result.returncode == 0, (line, result.stderr)
                assert not [
                    s for s in result.stderr.splitlines() if s.startswith(("Error", "Traceback"))
                ], (line, result.stderr)
            printed = [s for s in shown if not s.startswith("Error: ")]
            if printed:
                assert shows(printed, result.stdout), (line, result.stdout)


def shows(shown: list[str], printed: str) -> bool:
    """True when `printed` is the output `shown`, line for line (trailing spaces aside): a line
    `…` or one ending in `…` stands, from its first `…`, for any text and lines that follow
    (`  · …the reasons…`); a `…` within a line for any text on that line (`ruling #… recorded`)."""
    pattern = "\n".join(
        re.escape(s[: s.index("…")]) + ".*?"
        if s.rstrip().endswith("…")
        else "[^\n]*?".join(map(re.escape, s.rstrip().split("…")))
        for s in shown
    )
    text = "\n".join(s.rstrip() for s in printed.splitlines())
    return re.fullmatch(pattern, text, re.DOTALL) is not None


def test_a_shown_output_is_compared_line_for_line() -> None:
    assert shows(["a  $5", "…", "c"], "a  $5  \nb\nb\nc\n")
    assert shows(["a", "  · …the reasons…", "d"], "a\n  · one\n  · two\nd")
    assert not shows(["a  $5"], "a  5\n")
    assert not shows(["a"], "a\nb\n")
    assert shows(["#… recorded"], "#14 recorded")
    assert not shows(["#… recorded"], "#1\n4 recorded")


HISTORY = re.compile(
    r"\b(?:issues? \d+|findings? \d+|(?:hostile-input|attack) (?:review|round)"
    r"|Trust (?:I|II|III)\b)",
    re.IGNORECASE,
)
"""How the project's own history reads (`issue 24`, `finding 3`, `the second review`)."""


def test_the_user_docs_tell_no_project_history() -> None:
    """The README and docs/ are written for dealers, supervisors and operators: what the
    program does and why, never which issue or review it came from."""
    found = [
        f"{page.relative_to(ROOT)}:{number}: {line.strip()}"
        for page in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
        for number, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1)
        if HISTORY.search(line)
    ]
    assert found == []
