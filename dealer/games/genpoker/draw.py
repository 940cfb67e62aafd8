"""One round of Genpoker draw: deal five each, discard up to three and draw, showdown.

Pure: the caller hands in the `random.Random` that shuffles, and every step returns a new value.
Seats are indexed from 0, the first seat to the dealer's left (a person reads them from 1);
cards are dealt one at a time round the table, and seats draw in seat order from the top of the
stock. Eight players use 40
cards, and 24 are left: enough for every seat to draw three.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from dealer.games.genpoker import MAX_PLAYERS, MIN_PLAYERS
from dealer.games.genpoker.deck import DECK, GenCard, parse_cards
from dealer.games.genpoker.ranking import Category, GenHand, compare, explain, rank_hand
from dealer.kernel.cards import deal_around, format_cards
from dealer.kernel.comparison import Comparison
from dealer.kernel.errors import DealerError, MoveError

HAND_SIZE = 5
MAX_DISCARD = 3


@dataclass(frozen=True)
class Draw:
    """What one seat threw away and what it drew in their place."""

    seat: int
    discarded: tuple[GenCard, ...]
    drawn: tuple[GenCard, ...]


@dataclass(frozen=True)
class DrawRound:
    """The state of a round: the deal, the stock left (top first), the draws made so far."""

    dealt: tuple[tuple[GenCard, ...], ...]
    stock: tuple[GenCard, ...]
    draws: tuple[Draw, ...] = ()

    @property
    def players(self) -> int:
        """Number of seats dealt in."""
        return len(self.dealt)

    @property
    def to_act(self) -> int | None:
        """The seat that draws next, or None when every seat has drawn."""
        return len(self.draws) if len(self.draws) < self.players else None

    def hand(self, seat: int) -> tuple[GenCard, ...]:
        """The seat's five cards now (after its draw if it has drawn)."""
        if not 0 <= seat < self.players:
            raise DealerError(f"there is no seat {seat + 1}: seats are 1-{self.players}")
        cards = self.dealt[seat]
        if seat < len(self.draws):
            step = self.draws[seat]
            cards = tuple(c for c in cards if c not in step.discarded) + step.drawn
        return cards

    def draw(self, seat: int, discards: str | Iterable[GenCard]) -> DrawRound:
        """The seat discards 0-3 of its cards (typed or as cards) and draws as many.

        Raises `MoveError` when it is not that seat's turn, for more than three discards, or
        for a card that is not in the seat's hand."""
        if self.to_act is None:
            raise MoveError("every seat has drawn: the round is at the showdown")
        if seat != self.to_act:
            raise MoveError(
                f"seat {self.to_act + 1} draws now, not seat {seat + 1}: seats draw in order from "
                "the dealer's left"
            )
        if isinstance(discards, str):
            thrown = parse_cards(discards, what="discard")
        else:
            thrown = tuple(discards)
            if len(set(thrown)) != len(thrown):
                dup = next(c for c in thrown if thrown.count(c) > 1)
                raise MoveError(f"seat {seat + 1} discards {dup} twice")
        if len(thrown) > MAX_DISCARD:
            raise MoveError(
                f"seat {seat + 1} may discard at most {MAX_DISCARD} cards, not {len(thrown)}"
            )
        hand = self.dealt[seat]
        for card in thrown:
            if card not in hand:
                raise MoveError(
                    f"seat {seat + 1} cannot discard {card}: it is not in that hand "
                    f"({format_cards(hand)})"
                )
        drawn = self.stock[: len(thrown)]
        step = Draw(seat, thrown, drawn)
        return replace(self, stock=self.stock[len(thrown) :], draws=(*self.draws, step))

    def showdown(self, pot: int = 0) -> DrawResult:
        """Every seat shows its five cards: the best hand takes the pot, equal hands split it.

        An odd chip of a split pot goes to the winner nearest the dealer's left."""
        if self.to_act is not None:
            waiting = ", ".join(str(s + 1) for s in range(len(self.draws), self.players))
            raise MoveError(f"not every seat has drawn yet: seat(s) {waiting} still to draw")
        if isinstance(pot, bool) or not isinstance(pot, int) or pot < 0:
            raise DealerError(f"pot {pot!r} must be a whole number of chips, zero or more")
        seats = range(self.players)
        comparison = compare([self.hand(s) for s in seats], [f"Seat {s + 1}" for s in seats])
        share, odd = divmod(pot, len(comparison.winners))
        shares = [0] * self.players
        for place, seat in enumerate(comparison.winners):
            shares[seat] = share + (1 if place < odd else 0)
        return DrawResult(self, comparison, pot, tuple(shares))


@dataclass(frozen=True)
class DrawResult:
    """The showdown of a round: the round as played, the comparison, the pot and its shares."""

    round: DrawRound
    comparison: Comparison[GenHand]
    pot: int
    shares: tuple[int, ...]

    @property
    def winners(self) -> tuple[int, ...]:
        """Winning seats (several = split pot)."""
        return self.comparison.winners

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: the comparison's keys plus `seats` (deal and draw) and `pot`/`shares`."""
        seats = []
        for seat in range(self.round.players):
            step = self.round.draws[seat]
            seats.append(
                {
                    "seat": seat + 1,
                    "dealt": [str(c) for c in self.round.dealt[seat]],
                    "discarded": [str(c) for c in step.discarded],
                    "drawn": [str(c) for c in step.drawn],
                    "hand": [str(c) for c in self.round.hand(seat)],
                }
            )
        return {
            **self.comparison.to_dict(),
            "seats": seats,
            "pot": self.pot,
            "shares": list(self.shares),
        }

    def explanation(self) -> list[str]:
        """The draws, the showdown's reasons, and who is paid what."""
        lines = []
        for step in self.round.draws:
            if step.discarded:
                lines.append(
                    f"Seat {step.seat + 1} discarded {format_cards(step.discarded)} and drew "
                    f"{format_cards(step.drawn)}."
                )
            else:
                lines.append(f"Seat {step.seat + 1} stood pat.")
        lines.extend(explain(self.comparison))
        if self.pot:
            paid = ", ".join(f"seat {s + 1} {self.shares[s]}" for s in self.comparison.winners)
            lines.append(f"Pot {self.pot}: {paid}.")
        return lines


def deal(players: int, rng: random.Random) -> DrawRound:
    """Shuffle the 64 cards with `rng` and deal five to each of 2-8 seats, one at a time."""
    if isinstance(players, bool) or not isinstance(players, int):
        raise DealerError(f"players {players!r} must be a whole number 2-8")
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise DealerError(f"Genpoker is for {MIN_PLAYERS}-{MAX_PLAYERS} players, not {players}")
    deck = list(DECK)
    rng.shuffle(deck)
    return DrawRound(*deal_around(deck, players, HAND_SIZE))


_STAND_PAT = frozenset(
    {
        Category.AMERICA,
        Category.ANCESTORS,
        Category.STRAIGHT,
        Category.XX_CENTURY,
        Category.VICTORIAN,
        Category.EUROPE,
        Category.FULL_HOUSE,
        Category.FLUSH,
    }
)


def standard_discards(cards: Sequence[GenCard]) -> tuple[GenCard, ...]:
    """A plain demonstration rule, not a strategy claim: stand pat on a hand whose five cards
    all make it; otherwise keep the cards that make the category and generations 1-2, and
    discard up to three of the rest, highest generation numbers first."""
    hand = rank_hand(cards)
    if hand.category in _STAND_PAT:
        return ()
    keep = set(hand.active) if hand.category is not Category.HIGH_CARD else set()
    spare = [c for c in hand.cards if c not in keep and c.generation > 2]
    spare.sort(key=lambda c: c.sort_key, reverse=True)
    return tuple(spare[:MAX_DISCARD])


def play_draw(
    players: int,
    rng: random.Random,
    choose: Callable[[int, tuple[GenCard, ...]], Iterable[GenCard]] = (
        lambda _seat, cards: standard_discards(cards)
    ),
    pot: int = 0,
) -> DrawResult:
    """Deal, let `choose(seat, hand)` name each seat's discards in turn, and show down."""
    current = deal(players, rng)
    for seat in range(players):
        current = current.draw(seat, choose(seat, current.hand(seat)))
    return current.showdown(pot)
