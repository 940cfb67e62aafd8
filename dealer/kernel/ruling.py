"""A ruling: the immutable value every command produces, the CLI shows and the audit log stores."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from dealer.kernel.tuples import NamedTuple


class Ruling(NamedTuple):
    """One ruling on one input, complete enough to be shown and stored as it is.

    `result` is JSON-ready and holds the CONTRACT keys; `settings` names every setting and
    version the ruling used; `explanation` is what a supervisor reads out."""

    game: str
    action: str
    input_text: str
    cards: tuple[str, ...]
    result: Mapping[str, Any]
    explanation: tuple[str, ...]
    settings: Mapping[str, Any]
    seat: int | None = None

    def to_json(self, ruling_id: int | None) -> dict[str, Any]:
        """The JSON object a script receives: the result, its record id and its settings."""
        return {
            **self.result,
            "ruling_id": ruling_id,
            "explanation": list(self.explanation),
            "settings": dict(self.settings),
        }
