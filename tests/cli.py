"""`dealer …` run in this process through typer's CliRunner: the one way the tests run a command
without a subprocess.

Which app takes the words: by default the one holding only the group named by the first word
(`build_app(args[0])`, as `main()` mounts a command line's group); with `whole=True` the root
app with every group (what `dealer --help` or an unknown command shows). `group` puts a group's
name before the words, for a file that runs one group's commands. Each app is built once per
process: a built app holds no state between invocations (typer makes its click command afresh
at each)."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

import typer
from typer.testing import CliRunner, Result

from dealer.cli.app import build_app


@functools.cache
def _app(only: str | None) -> typer.Typer:
    return build_app(only)


def run(
    *args: str,
    group: str | None = None,
    whole: bool = False,
    stdin: str | bytes | None = None,
    env: Mapping[str, str | None] | None = None,
    prog_name: str | None = None,
) -> Result:
    """`dealer [GROUP] ARGS`, reading `stdin`, with `env` set for the run (None unsets a
    variable); `prog_name` is the program's name in usage lines (typer's runner names it by the
    app otherwise)."""
    words = [group, *args] if group is not None else list(args)
    app = _app(None if whole else words[0])
    return CliRunner().invoke(app, words, input=stdin, env=env, prog_name=prog_name)


def ok(*args: str, **options: Any) -> Result:
    """`run`, which must succeed: its output is shown if it does not."""
    result = run(*args, **options)
    assert result.exit_code == 0, result.output
    return result
