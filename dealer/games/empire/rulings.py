"""Empire rulings: typed text in, a `Ruling` out. Pure: no printing, no database (the one file
read is the combination table the operator names).

Every ruling records the combination table it used (name, version, provisional, origin, and
the SHA-256 of its text: a table neither shipped nor approved rules nothing), and
when that table is provisional its JSON says `"provisional": true` and its explanation says so.
Tableaux and seats are numbered from 1 wherever a person reads them; the compare contract's
`winners` are 0-based indices into the tableaux given.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from dealer.games.empire.combinations import (
    MAX_TABLEAU,
    CombinationTable,
    default_table,
    load_table,
)
from dealer.games.empire.deck import Plaque, parse_plaques
from dealer.games.empire.hand import EmpireHand
from dealer.games.empire.ranking import (
    PROVISIONAL_LINE,
    compare,
    comparison_dict,
    explain,
    rank_tableau,
)
from dealer.kernel.errors import CardError, DealerError
from dealer.kernel.ruling import Ruling, RulingAction


def table_of(path: str | Path | None) -> CombinationTable:
    """The combination table a ruling uses: the operator's file, else the shipped one."""
    return default_table() if path is None else load_table(path)


def settings_of(table: CombinationTable, **more: Any) -> dict[str, Any]:
    """The settings a ruling under `table` records: the table, and the SHA-256 of its text."""
    return {"combination_table": table.to_dict(), "combinations_sha256": table.sha256, **more}


def _strs(plaques: Sequence[Plaque]) -> tuple[str, ...]:
    return tuple(str(p) for p in plaques)


def _flagged(lines: Sequence[str], table: CombinationTable) -> tuple[str, ...]:
    """The explanation, with the provisional-data line once when the table is provisional."""
    flag = PROVISIONAL_LINE.format(name=table.name, version=table.version)
    if table.provisional and flag not in lines:
        return (*lines, flag)
    return tuple(lines)


def rank_ruling(text: str, table: CombinationTable, others: Sequence[str] = ()) -> Ruling:
    """Value one tableau (1-7 plaques), restricted by the `others` still in play:
    `{"category", "plaques", "active", "ignored", "restrictions", "value", "provisional",
    "table"}`."""
    plaques = parse_plaques(text)
    rivals = [
        parse_plaques(o, range(1, MAX_TABLEAU + 1), f"other tableau {i}")
        for i, o in enumerate(others, start=1)
    ]
    ranked = rank_tableau(plaques, table, rivals)
    typed = text if not others else f"{text} | others in play: {' | '.join(others)}"
    return Ruling(
        "empire",
        RulingAction.RANK,
        typed,
        _strs(plaques),
        ranked.to_dict(),
        _flagged(ranked.explanation(), table),
        settings_of(table),
    )


def split_tableaux(text: str) -> list[str]:
    """Split `A | B | …` (a compare batch line, or tableaux given as arguments)."""
    parts = [p.strip() for p in text.split("|")]
    if len(parts) < 2 or not all(parts):
        raise CardError(
            "compare needs two or more tableaux, each quoted as its own argument or "
            "separated by '|'"
        )
    return parts


def compare_ruling(tableaux: Sequence[str], table: CombinationTable) -> Ruling:
    """Value every tableau still in play (two passes) and name the winner(s):
    `{"winners", "split", "hands", "provisional", "table"}`."""
    if len(tableaux) < 2:
        raise CardError(f"compare needs at least two tableaux, got {len(tableaux)}")
    parsed = [parse_plaques(t, what=f"tableau {i}") for i, t in enumerate(tableaux, start=1)]
    comparison = compare(parsed, table)
    return Ruling(
        "empire",
        RulingAction.COMPARE,
        " | ".join(tableaux),
        tuple(str(p) for tableau in parsed for p in tableau),
        comparison_dict(comparison),
        _flagged(explain(comparison), table),
        settings_of(table),
    )


def hand_ruling(
    hand: EmpireHand, seed: int, ante: int, stack: int | None, moves: Sequence[str]
) -> Ruling:
    """The result of a finished hand; `moves` are the accepted moves as typed."""
    if hand.phase != "over":
        raise DealerError(f"the hand is not over: seat {(hand.to_act or 0) + 1} to act")
    players = len(hand.seats)
    header = f"players {players}, seed {seed}, ante {ante}" + (
        f", stack {stack}" if stack is not None else ""
    )
    plaques = tuple(str(p) for seat in hand.seats for p in seat.tableau)
    settings = settings_of(hand.table, players=players, seed=seed, ante=ante, stack=stack)
    return Ruling(
        "empire",
        RulingAction.HAND,
        " | ".join([header, *moves]),
        plaques,
        hand.to_dict(),
        _flagged(hand.explanation(), hand.table),
        settings,
    )
