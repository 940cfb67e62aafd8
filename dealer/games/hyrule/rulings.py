"""Hyrule rulings: a typed turn, a trick of a game, a game's score → a `Ruling`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from dealer.games.hyrule.game import HyruleGame, Swap, Trick, deck_order
from dealer.games.hyrule.ranking import parse_turn, turn
from dealer.kernel.errors import DealerError
from dealer.kernel.ruling import Ruling, RulingAction


def turn_ruling(text: str) -> Ruling:
    """Rule one typed turn (2-7 cards in play order). A lone turn uses no settings."""
    cards = parse_turn(text)
    result = turn(cards)
    return Ruling(
        "hyrule",
        RulingAction.TURN,
        text,
        tuple(str(c) for c in cards),
        result.to_dict(),
        tuple(result.explanation()),
        {},
    )


def game_settings(game: HyruleGame, seed: int | None) -> dict[str, Any]:
    """What every ruling of a game records: the rules, the players and the shuffle's seed
    (None when the deck order was given)."""
    return {"rules": str(game.rules), "players": game.players, "seed": seed}


def trick_ruling(game: HyruleGame, typed: str, settings: dict[str, Any]) -> Ruling:
    """The ruling on the last trick `game` completed (with the swaps made during it and the
    captured counts after it); `typed` is the moves that made the trick, as typed."""
    tricks = [e for e in game.history if isinstance(e, Trick)]
    if not tricks:
        raise DealerError("no trick has been completed yet")
    trick = tricks[-1]
    swaps = [e for e in game.history if isinstance(e, Swap) and e.trick == trick.number]
    result = {
        **trick.to_dict(),
        "swaps": [s.to_dict() for s in swaps],
        "captured": list(game.score().captured),
    }
    lines = [line for s in swaps for line in s.explanation()] + trick.explanation()
    return Ruling(
        "hyrule",
        RulingAction.TRICK,
        typed,
        tuple(str(c) for c in trick.result.cards),
        result,
        tuple(lines),
        settings,
    )


def game_ruling(
    dealt: HyruleGame,
    game: HyruleGame,
    typed: str,
    settings: dict[str, Any],
    trick_records: Sequence[int] = (),
) -> Ruling:
    """The score of a game, final once it is over (else the score when it was stopped).

    `dealt` is the game as dealt (its deck order is recorded for a replay), `typed` every move
    accepted, `trick_records` the audit record ids of its tricks."""
    tricks = [e for e in game.history if isinstance(e, Trick)]
    score = game.score()
    result = {
        "event": "game",
        **score.to_dict(),
        "tricks": len(tricks),
        "trick_records": list(trick_records),
        "deck": [str(c) for c in deck_order(dealt)],
    }
    lines = score.explanation()
    if not score.final:
        lines.append(
            f"The game was stopped during trick {game.trick_number}, before all seven cards "
            "each were played."
        )
    cards = tuple(str(c) for t in tricks for c in t.result.cards)
    return Ruling("hyrule", RulingAction.GAME, typed, cards, result, tuple(lines), settings)
