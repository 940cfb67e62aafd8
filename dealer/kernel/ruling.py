"""A ruling: the immutable value every command produces, the CLI shows and the audit log stores."""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from typing import Any

from dealer.kernel.tuples import NamedTuple


class RulingAction(StrEnum):
    """What a ruling rules on: its `action`, stored as the action of its record (with its game).
    A member is its text, so a record stores and hashes that text."""

    RANK = "rank"
    COMPARE = "compare"
    SET = "set"
    BONUS = "bonus"
    SETTLE = "settle"
    ROUND = "round"
    TURN = "turn"
    TRICK = "trick"
    GAME = "game"
    DRAW = "draw"
    HAND = "hand"
    ANALYZE_PAYTABLE = "analyze-paytable"
    ANALYZE_HOUSE_EDGE = "analyze-house-edge"
    ANALYZE_REPORT = "analyze-report"


class Ruling(NamedTuple):
    """One ruling on one input, complete enough to be shown and stored as it is.

    `result` is JSON-ready and holds the CONTRACT keys; `settings` names every setting and
    version the ruling used; `explanation` is what a supervisor reads out."""

    game: str
    action: RulingAction
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
