"""Two or more hands ranked together: the one `Comparison` every game's compare returns.

Each game ranks a hand its own way — a `key` that compares as the hands do, and the hand's JSON
— and words its own explanation; what is the same everywhere is here: the hands whose key is
best win (indices from 0), several winners share the win (a tie; at a showdown, a split pot),
and each hand has a name for people (`Hand 1`, `Seat 3`, `Tableau 2`). The JSON is one of two
forms: the `winners` of two or more hands with the game's word for a shared win (`split` or
`tie`), or the one `winner` of two hands, null for a copy (Pai Gow).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Generic, Protocol, TypeVar

from dealer.kernel.errors import DealerError
from dealer.kernel.tuples import NamedTuple


class Ranked(Protocol):
    """A hand as its game ranks it."""

    @property
    def key(self) -> Any:
        """Compares as the hands do."""
        ...

    def to_dict(self) -> dict[str, Any]:
        """The hand's JSON."""
        ...


H = TypeVar("H", bound=Ranked)


class Comparison(NamedTuple, Generic[H]):
    """The hands as given, the winners (indices from 0; several share the win), the names."""

    hands: tuple[H, ...]
    winners: tuple[int, ...]
    names: tuple[str, ...]

    @property
    def tie(self) -> bool:
        """True when several hands share the best key."""
        return len(self.winners) > 1

    @property
    def best(self) -> H:
        """The (first) winning hand."""
        return self.hands[self.winners[0]]

    def losers(self) -> list[H]:
        """The hands that do not win, in the order given."""
        return [h for i, h in enumerate(self.hands) if i not in self.winners]

    def to_dict(self, tie: str = "split") -> dict[str, Any]:
        """JSON-ready: `{"winners": [INDEX, …], TIE: BOOL, "hands": [each hand's JSON]}`, the
        shared win under the game's word for it: a split pot (Genpoker, Empire), a `tie`
        (Burosh)."""
        return {
            "winners": list(self.winners),
            tie: self.tie,
            "hands": [h.to_dict() for h in self.hands],
        }

    def winner_dict(self) -> dict[str, Any]:
        """JSON-ready, for two hands: `{"winner": INDEX|null, "hands": [...]}`, null when
        neither wins (a copy)."""
        return {
            "winner": None if self.tie else self.winners[0],
            "hands": [h.to_dict() for h in self.hands],
        }


def rank_together(
    hands: Sequence[H], names: Sequence[str], *, lower_wins: bool = False
) -> Comparison[H]:
    """The comparison of ranked `hands`, named `names`: the highest key wins (the lowest with
    `lower_wins`)."""
    best = (min if lower_wins else max)(h.key for h in hands)
    winners = tuple(i for i, h in enumerate(hands) if h.key == best)
    return Comparison(tuple(hands), winners, tuple(names))


def hand_names(count: int, names: Sequence[str] | None, word: str, plural: str) -> tuple[str, ...]:
    """`names` for `count` hands, one each (else `WORD 1`, `WORD 2`, …); `plural` words the
    refusal of a wrong count."""
    labels = (
        tuple(names) if names is not None else tuple(f"{word} {i}" for i in range(1, count + 1))
    )
    if len(labels) != count:
        raise DealerError(f"{len(labels)} names for {count} {plural}")
    return labels
