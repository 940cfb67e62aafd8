"""Rulings on typed hands of Burosh, Hyrule, Genpoker and Empire: one function per command.

Each returns the ruler of that command at a desk: typed text (the arguments, or one line of a
batch) → the game's parser and rulings → a `Ruling`, put on the record. The games are imported
when their ruler is built, so a command loads only its own game.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from dealer.desk.context import Desk
from dealer.desk.recording import Recorded, record_one

Ruler = Callable[[str], Recorded]
"""Typed text → its ruling, recorded (a `DealerError` names what is wrong with the text)."""


def burosh_rank(desk: Desk, trump: str) -> Ruler:
    """`dealer burosh rank`: one hand of 1-5 cards under the typed trump suit."""
    from dealer.games.burosh.rulings import rank_ruling

    return lambda text: record_one(desk, rank_ruling(text, trump))


def burosh_compare(desk: Desk, trump: str) -> Ruler:
    """`dealer burosh compare`: hands `A | B | …` under the typed trump suit."""
    from dealer.games.burosh.rulings import batch_hands, compare_ruling

    return lambda line: record_one(desk, compare_ruling(batch_hands(line), trump))


def burosh_symbols(cards: Sequence[str]) -> str:
    """Canonical Burosh cards as a person reads them: `Emperor A♥ 10♦ Hermit`."""
    from dealer.games.burosh.deck import parse_hand
    from dealer.kernel.cards import symbols

    return symbols(parse_hand(cards))


def hyrule_turn(desk: Desk) -> Ruler:
    """`dealer hyrule turn`: the 2-7 cards of one turn in play order."""
    from dealer.games.hyrule.rulings import turn_ruling

    return lambda text: record_one(desk, turn_ruling(text))


def genpoker_rank(desk: Desk) -> Ruler:
    """`dealer genpoker rank`: one five-card hand."""
    from dealer.games.genpoker.rulings import rank_ruling

    return lambda text: record_one(desk, rank_ruling(text))


def genpoker_compare(desk: Desk) -> Ruler:
    """`dealer genpoker compare`: hands `A | B | …` from one deck."""
    from dealer.games.genpoker.rulings import compare_ruling, split_hands

    return lambda text: record_one(desk, compare_ruling(split_hands(text)))


def empire_rank(desk: Desk, combinations: Path | None, others: Sequence[str]) -> Ruler:
    """`dealer empire rank`: one tableau, restricted by the `others` still in play, under the
    operator's combination table (else the shipped one), read once."""
    from dealer.games.empire.rulings import rank_ruling, table_of

    table = table_of(combinations)
    return lambda text: record_one(desk, rank_ruling(text, table, others))


def empire_compare(desk: Desk, combinations: Path | None) -> Ruler:
    """`dealer empire compare`: tableaux `A | B | …` still in play, under the operator's
    combination table (else the shipped one), read once."""
    from dealer.games.empire.rulings import compare_ruling, split_tableaux, table_of

    table = table_of(combinations)
    return lambda text: record_one(desk, compare_ruling(split_tableaux(text), table))
