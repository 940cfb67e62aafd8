"""What the commands share in `dealer.cli.common`, each on its own."""

from __future__ import annotations

import pytest
import typer

from dealer.cli.common import pin_or_ask


def test_a_pin_given_is_used_and_none_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    def never(*args: object, **kwargs: object) -> str:
        raise AssertionError("asked")

    monkeypatch.setattr(typer, "prompt", never)
    assert pin_or_ask("0000 1111 22", "S1") == "0000 1111 22"
    assert pin_or_ask("", "S1") == ""


def test_a_pin_not_given_is_asked_of_whom_it_names_hidden(monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[tuple[str, bool]] = []

    def prompt(text: str, *, hide_input: bool = False) -> str:
        asked.append((text, hide_input))
        return "typed secret"

    monkeypatch.setattr(typer, "prompt", prompt)
    assert pin_or_ask(None, "sup-7") == "typed secret"
    assert asked == [("PIN for sup-7", True)]
