"""Every command's help, at 80 and at 200 columns: drawn within the width, no option name cut,
no line broken where the next word would still fit (a sentence broken mid-way by a line break
in the source), every command's summary whole in its group's list, and no option named that
the command does not take (`--json` help naming `--batch` on a command without it), but as
another command's (`dealer audit verify --checkpoint`).

Help is drawn as plain text at most 80 columns wide (the framework's own limit; 78 for the
text once its margin is kept), so a wider terminal gives the same page."""

from __future__ import annotations

import inspect
import re
from collections.abc import Iterator
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from dealer.cli.app import build_app

DRAWN = 78
"""The widest line of help text: 80 columns less the framework's margin of 2."""
SECTIONS = ("Options:", "Commands:", "Arguments:")
OPTION = re.compile(r"(?<![\w-])--[a-z][a-z0-9-]*")

APP = build_app()
ROOT = typer.main.get_command(APP)


def _commands(command: Any, path: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], Any]]:
    yield path, command
    for name, sub in getattr(command, "commands", {}).items():
        yield from _commands(sub, (*path, name))


COMMANDS = dict(_commands(ROOT))


def help_of(path: tuple[str, ...], columns: int) -> str:
    shown = CliRunner().invoke(
        APP, [*path, "--help"], prog_name="dealer", env={"COLUMNS": str(columns)}
    )
    assert shown.exit_code == 0, shown.output
    return shown.stdout


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def early_breaks(text: str) -> list[str]:
    """Each line broken although the next line's first word would have fit on it."""
    found = []
    section = ""
    lines = text.splitlines()
    for line, after in zip(lines, lines[1:], strict=False):
        if line.rstrip(":") + ":" in SECTIONS or line in SECTIONS:
            section = line
        if not line.strip() or not after.strip() or line.startswith("Usage:"):
            continue
        new_row = section in SECTIONS and _indent(after) <= 2
        term_alone = section in SECTIONS and _indent(line) == 2 and "  " not in line.strip()
        if new_row or term_alone or _indent(after) < _indent(line):
            continue
        if len(line) + 1 + len(after.split()[0]) <= DRAWN:
            found.append(f"{line!r} / {after!r}")
    return found


def options_of(command: Any) -> set[str]:
    names = {"--help"}
    for param in command.params:
        names.update(o for o in (*param.opts, *param.secondary_opts) if o.startswith("--"))
    return names


@pytest.mark.parametrize("columns", [80, 200])
@pytest.mark.parametrize("path", list(COMMANDS), ids=lambda p: " ".join(p) or "dealer")
def test_help_is_whole_within_the_width_and_names_only_its_options(
    path: tuple[str, ...], columns: int
) -> None:
    command = COMMANDS[path]
    text = help_of(path, columns)
    assert max(len(line) for line in text.splitlines()) <= 80
    assert "..." not in re.sub(r"(\]|\b[a-z_]+)\.\.\.", "", text)  # only a repeatable argument's
    assert early_breaks(text) == []
    flat = " ".join(text.split())
    for name in options_of(command):
        assert re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text), name
    for sub in getattr(command, "commands", {}).values():
        summary = " ".join(inspect.cleandoc(sub.help or "").split("\n\n")[0].split())
        assert summary in flat, sub.name
    if getattr(command, "commands", None) is None:
        assert foreign_options(flat, command) == []


def foreign_options(flat: str, command: Any) -> list[str]:
    """The options `flat` names that the command does not take, except as another command's
    (`dealer audit verify --checkpoint`)."""
    own = options_of(command)
    return [
        found.group(0)
        for found in OPTION.finditer(flat)
        if found.group(0) not in own
        and not re.search(r"dealer( [a-z][a-z-]*)+ $", flat[: found.start()])
    ]


def test_a_wider_terminal_draws_the_same_help() -> None:
    assert help_of(("paigow", "settle"), 80) == help_of(("paigow", "settle"), 200)


def test_the_long_option_names_of_settle_are_whole_at_80_columns() -> None:
    text = help_of(("paigow", "settle"), 80)
    assert "--progressive-insurance <str>" in text
    assert "--progressive-treasure <str>" in text


def test_a_summary_over_two_source_lines_reads_as_one_paragraph() -> None:
    text = help_of((), 80)
    assert "wagers, at the demo's own table DEMO (never a real table's meters:" in text
