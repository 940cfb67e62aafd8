"""A Hyrule game at a table (seed 002, RULINGS §3): the deal, tricks, swaps, the score.

Seats are indexed 0 to n-1 going counter-clockwise round the table, so play passes from seat i
to seat i+1 (mod n); a person reads (and types) them as 1 to n.

Decided where the documents are silent:
* The deal is one card at a time, the first seat first, seven rounds; the rest is the stock.
* Strategy: the seat with the most captured cards leads. When the most is shared (all seats at
  the first trick) the leader is an input, "the tallest" of the seats tied for the most.
* Only the player who would start a trick may swap (the others place a card, as the seed says);
  after a swap the next seat must start the trick, so there is at most one swap per trick and
  the swapper plays later in that trick. A swap needs a card in the stock: with the stock empty
  swapping is refused (there is no reshuffle of the discard pile). Discards are out of play.
* Chance rules have no swap and no leader; the cards all flip together and are recorded in
  seat order.
* A two-joker tie waits for the house's run-off, given as an input (`settle_run_off`).
* Score: captured cards only; several seats with the most is a draw (reported, not played off).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

from dealer.games.hyrule import MAX_PLAYERS, MIN_PLAYERS
from dealer.games.hyrule.deck import HYRULE_DECK, check_cards
from dealer.games.hyrule.ranking import RULE_TEXT, TurnResult, turn
from dealer.kernel.cards import Card, deal_around
from dealer.kernel.errors import CardError, DealerError, MoveError

HAND_SIZE = 7


def _seats(seats: tuple[int, ...]) -> str:
    """Seats as a person counts them: `1, 3`."""
    return ", ".join(str(s + 1) for s in seats)


class Rules(StrEnum):
    """The seed's two ways of taking turns."""

    CHANCE = "chance"  # every player places a card face down; all flip together
    STRATEGY = "strategy"  # most captured leads, counter-clockwise, play or swap


class Phase(StrEnum):
    """What the game waits for."""

    LEADER = "leader"  # strategy: name the tallest of the players tied for most captured
    PLAY = "play"  # a card to be played (or, for the player starting a trick, a swap)
    RUN_OFF = "run-off"  # two jokers and no five: the house's run-off decides who takes
    OVER = "over"  # seven cards each have been played


@dataclass(frozen=True)
class Trick:
    """One completed turn of the game: who played what, the ruling, who took the cards."""

    number: int
    seats: tuple[int, ...]  # in play order
    result: TurnResult
    taker: int | None  # None only while a run-off is pending
    run_off: bool = False  # the taker was decided by the house's run-off

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready record of the trick."""
        return {
            "event": "trick",
            "trick": self.number,
            "seats": [s + 1 for s in self.seats],
            **self.result.to_dict(),
            "taker": None if self.taker is None else self.taker + 1,
            "run_off": self.run_off,
        }

    def explanation(self) -> list[str]:
        """The turn's ruling and who took the cards."""
        plays = ", ".join(
            f"seat {s + 1} {c.symbol()}" for s, c in zip(self.seats, self.result.cards, strict=True)
        )
        lines = [f"Trick {self.number}: {plays}.", f"Rule: {RULE_TEXT[self.result.rule]}."]
        if self.taker is None:
            tied = " and ".join(f"seat {self.seats[i] + 1}" for i in self.result.tied)
            lines.append(f"Tie between {tied}: waiting for the house's run-off.")
        else:
            how = " after the run-off" if self.run_off else ""
            lines.append(f"Seat {self.taker + 1} takes the {len(self.seats)} cards{how}.")
        return lines


@dataclass(frozen=True)
class Swap:
    """A strategy swap: a card discarded face up and one drawn from the stock."""

    trick: int
    seat: int
    discarded: Card
    drawn: Card

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready record of the swap (the drawn card is known to the tracker only)."""
        return {
            "event": "swap",
            "trick": self.trick,
            "seat": self.seat + 1,
            "discarded": str(self.discarded),
            "drawn": str(self.drawn),
        }

    def explanation(self) -> list[str]:
        """One line a supervisor can read out."""
        return [
            f"Trick {self.trick}: seat {self.seat + 1} swaps, discarding {self.discarded.symbol()} "
            "face up and drawing from the stock; the next player must play."
        ]


@dataclass(frozen=True)
class HyruleScore:
    """Captured cards per seat; the most wins, equal most is a draw."""

    captured: tuple[int, ...]
    final: bool

    @property
    def winners(self) -> tuple[int, ...]:
        """The seats with the most captured cards (several = a draw)."""
        most = max(self.captured)
        return tuple(s for s, n in enumerate(self.captured) if n == most)

    @property
    def draw(self) -> bool:
        """True when several seats share the most captured cards."""
        return len(self.winners) > 1

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: `{"captured": [...], "winners": [SEAT, ...], "draw": BOOL, "final": BOOL}`
        (`captured` in seat order; seats numbered from 1)."""
        return {
            "captured": list(self.captured),
            "winners": [s + 1 for s in self.winners],
            "draw": self.draw,
            "final": self.final,
        }

    def explanation(self) -> list[str]:
        """The counts and the result (face values do not count)."""
        counts = ", ".join(f"seat {s + 1} {n}" for s, n in enumerate(self.captured))
        state = "Final score" if self.final else "Score so far"
        most = max(self.captured)
        if self.draw:
            seats = " and ".join(f"seat {s + 1}" for s in self.winners)
            result = f"draw between {seats} with {most} cards each"
        else:
            result = (
                f"seat {self.winners[0] + 1} {'wins' if self.final else 'leads'} with {most} cards"
            )
        return [
            f"{state} (captured cards, face values not counted): {counts}.",
            f"Result: {result}.",
        ]


def _hand_text(cards: Iterable[Card]) -> list[str]:
    return [str(c) for c in cards]


@dataclass(frozen=True)
class HyruleGame:
    """The state of one Hyrule game; every move returns a new state (illegal ones raise
    `MoveError`). Build one with `HyruleGame.deal`."""

    rules: Rules
    hands: tuple[tuple[Card, ...], ...]
    stock: tuple[Card, ...]  # face down; the next card drawn first
    discard: tuple[Card, ...] = ()
    captured: tuple[tuple[Card, ...], ...] = ()
    leader: int | None = None  # strategy: the seat that leads the current trick
    starter: int | None = (
        None  # strategy: the seat that starts it (the leader's right after a swap)
    )
    table: tuple[tuple[int, Card], ...] = ()  # (seat, card) placed in the current trick
    last_swapped: bool = False  # the previous action was a swap
    pending: Trick | None = None  # a tied trick waiting for the run-off
    history: tuple[Trick | Swap, ...] = ()

    # -- building ------------------------------------------------------------------------------

    @classmethod
    def deal(
        cls,
        players: int,
        rules: Rules | str,
        rng: random.Random | None = None,
        deck: Sequence[Card] | None = None,
    ) -> HyruleGame:
        """Deal 7 cards each, one at a time from seat 0 round the table; the rest is the stock.

        Give exactly one of `rng` (the 54-card deck is shuffled with it) or `deck` (a full
        54-card deck in order, top card first).
        """
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise DealerError(
                f"Hyrule is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players}"
            )
        try:
            rules = Rules(rules)
        except ValueError:
            raise DealerError(f"unknown rules {rules!r}: choose chance or strategy") from None
        if (rng is None) == (deck is None):
            raise DealerError("give either a random generator or a deck order, not both or neither")
        if rng is not None:
            cards = list(HYRULE_DECK)
            rng.shuffle(cards)
        else:
            assert deck is not None
            cards = list(deck)
            check_cards(cards, "deck")
            if Counter(cards) != Counter(HYRULE_DECK):
                raise CardError(
                    "the deck must be the 54 Hyrule cards (52 and two jokers), "
                    f"got {len(cards)} cards"
                )
        hands, stock = deal_around(cards, players, HAND_SIZE)
        game = cls(
            rules=rules,
            hands=hands,
            stock=stock,
            captured=((),) * players,
        )
        return game._next_trick()

    # -- reading -------------------------------------------------------------------------------

    @property
    def players(self) -> int:
        """Number of players (seats 0 … n-1, counter-clockwise)."""
        return len(self.hands)

    @property
    def tricks(self) -> int:
        """The tricks of a game: one per card dealt to each seat."""
        return HAND_SIZE

    @property
    def trick_shown(self) -> int:
        """The trick being played as a person counts it (the last one once the game is over)."""
        return min(self.trick_number, HAND_SIZE)

    @property
    def trick_number(self) -> int:
        """The trick being played (1-7), or 8 once the game is over."""
        return sum(isinstance(e, Trick) for e in self.history) + 1

    @property
    def phase(self) -> Phase:
        """What the game waits for."""
        if self.pending is not None:
            return Phase.RUN_OFF
        if not any(self.hands) and not self.table:
            return Phase.OVER
        if self.rules is Rules.STRATEGY and self.leader is None:
            return Phase.LEADER
        return Phase.PLAY

    @property
    def awaiting(self) -> tuple[int, ...]:
        """The seats that may act now: leader candidates, the seat to move (strategy), seats that
        have not placed a card (chance), or the seats in the run-off."""
        phase = self.phase
        if phase is Phase.LEADER:
            return self._most_captured()
        if phase is Phase.RUN_OFF:
            assert self.pending is not None
            return tuple(self.pending.seats[i] for i in self.pending.result.tied)
        if phase is Phase.OVER:
            return ()
        if self.rules is Rules.CHANCE:
            placed = {s for s, _ in self.table}
            return tuple(s for s in range(self.players) if s not in placed)
        return (self._to_move(),)

    @property
    def may_swap(self) -> bool:
        """True when the seat to move may swap instead of playing."""
        return (
            self.rules is Rules.STRATEGY
            and self.phase is Phase.PLAY
            and not self.table
            and not self.last_swapped
            and bool(self.stock)
        )

    def score(self) -> HyruleScore:
        """Captured cards per seat, final once the game is over."""
        return HyruleScore(tuple(len(c) for c in self.captured), self.phase is Phase.OVER)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready state: hands, stock, discard, table, history and score."""
        return {
            "rules": str(self.rules),
            "players": self.players,
            "trick": self.trick_number,
            "phase": str(self.phase),
            "awaiting": [s + 1 for s in self.awaiting],
            "may_swap": self.may_swap,
            "leader": None if self.leader is None else self.leader + 1,
            "hands": [_hand_text(h) for h in self.hands],
            "stock": len(self.stock),
            "discard": _hand_text(self.discard),
            "table": [{"seat": s + 1, "card": str(c)} for s, c in self.table],
            "history": [e.to_dict() for e in self.history],
            "score": self.score().to_dict(),
        }

    def explanation(self) -> list[str]:
        """The history read out, then the score and what the game waits for."""
        lines = [line for event in self.history for line in event.explanation()]
        if self.pending is not None:
            lines += self.pending.explanation()
        lines += self.score().explanation()
        waits = {
            Phase.LEADER: "the tallest of seats {seats} (tied for most captured) leads",
            Phase.PLAY: "seat(s) {seats} to play",
            Phase.RUN_OFF: "the house's run-off between seats {seats}",
            Phase.OVER: "nothing: the game is over",
        }[self.phase]
        lines.append("Waiting for " + waits.format(seats=_seats(self.awaiting)) + ".")
        return lines

    # -- moves ---------------------------------------------------------------------------------

    def choose_leader(self, seat: int) -> HyruleGame:
        """Strategy: name the leader when several seats tie for most captured (the first trick
        included); it stands for "the tallest player" of those seats."""
        self._check_seat(seat)
        if self.phase is not Phase.LEADER:
            raise MoveError(f"no leader to choose now: {self._waiting()}")
        if seat not in self.awaiting:
            raise MoveError(
                f"seat {seat + 1} may not lead: the leader is the tallest of seats "
                f"{_seats(self.awaiting)} (tied for most captured)"
            )
        return replace(self, leader=seat, starter=seat)

    def play(self, seat: int, card: Card) -> HyruleGame:
        """Place a card: in strategy the seat to move plays face up; in chance every seat places
        one face down and the turn is ruled when all have."""
        self._check_move(seat, card)
        game = replace(
            self,
            hands=self._without(seat, card),
            table=(*self.table, (seat, card)),
            last_swapped=False,
        )
        return game._resolve() if len(game.table) == self.players else game

    def swap(self, seat: int, card: Card) -> HyruleGame:
        """Strategy: instead of starting the trick, discard a card face up and draw from the
        stock; the next seat counter-clockwise must then start the trick."""
        if self.rules is Rules.CHANCE:
            raise MoveError("no swapping under chance rules: every player places a card")
        self._check_move(seat, card)
        if self.table:
            raise MoveError(
                f"seat {seat + 1} may not swap: only the player starting a trick may swap, and "
                f"seat {(self.starter or 0) + 1} has started this one"
            )
        if self.last_swapped:
            raise MoveError(
                f"seat {seat + 1} may not swap: the previous player swapped, so seat "
                f"{seat + 1} must play"
            )
        if not self.stock:
            raise MoveError(f"seat {seat + 1} may not swap: the stock is empty")
        drawn = self.stock[0]
        hands = list(self._without(seat, card))
        hands[seat] = (*hands[seat], drawn)
        event = Swap(self.trick_number, seat, card, drawn)
        return replace(
            self,
            hands=tuple(hands),
            stock=self.stock[1:],
            discard=(*self.discard, card),
            starter=(seat + 1) % self.players,
            last_swapped=True,
            history=(*self.history, event),
        )

    def settle_run_off(self, seat: int) -> HyruleGame:
        """Record the house's run-off after a two-joker tie: `seat` takes the trick's cards."""
        self._check_seat(seat)
        if self.pending is None:
            raise MoveError(f"no run-off is pending: {self._waiting()}")
        if seat not in self.awaiting:
            raise MoveError(
                f"seat {seat + 1} is not in the run-off (seats {_seats(self.awaiting)})"
            )
        trick = replace(self.pending, taker=seat, run_off=True)
        return replace(self, pending=None)._take(trick)

    # -- internals -----------------------------------------------------------------------------

    def _most_captured(self) -> tuple[int, ...]:
        counts = [len(c) for c in self.captured]
        return tuple(s for s, n in enumerate(counts) if n == max(counts))

    def _to_move(self) -> int:
        assert self.starter is not None
        return (self.starter + len(self.table)) % self.players

    def _waiting(self) -> str:
        phase = self.phase
        if phase is Phase.OVER:
            return "the game is over"
        seats = _seats(self.awaiting)
        if phase is Phase.LEADER:
            return f"first name the leader, the tallest of seats {seats}"
        if phase is Phase.RUN_OFF:
            return f"first settle the run-off between seats {seats}"
        return f"waiting for seat(s) {seats} to play"

    def _check_seat(self, seat: int) -> None:
        if not isinstance(seat, int) or not 0 <= seat < self.players:
            raise MoveError(f"seat {seat + 1} is not at this table (seats 1 to {self.players})")

    def _check_move(self, seat: int, card: Card) -> None:
        self._check_seat(seat)
        if self.phase is not Phase.PLAY:
            raise MoveError(f"seat {seat + 1} may not move: {self._waiting()}")
        if seat not in self.awaiting:
            if self.rules is Rules.CHANCE:
                raise MoveError(f"seat {seat + 1} has already placed a card this turn")
            raise MoveError(f"it is seat {self._to_move() + 1}'s turn, not seat {seat + 1}'s")
        if card not in self.hands[seat]:
            raise MoveError(f"seat {seat + 1} does not hold {card.symbol()}")

    def _without(self, seat: int, card: Card) -> tuple[tuple[Card, ...], ...]:
        hand = list(self.hands[seat])
        hand.remove(card)
        return tuple(tuple(hand) if s == seat else h for s, h in enumerate(self.hands))

    def _resolve(self) -> HyruleGame:
        table = self.table
        if self.rules is Rules.CHANCE:  # all flip together: record the cards in seat order
            table = tuple(sorted(table))
        seats = tuple(s for s, _ in table)
        result = turn([c for _, c in table])
        taker = None if result.winner is None else seats[result.winner]
        trick = Trick(self.trick_number, seats, result, taker)
        if taker is None:
            return replace(self, table=(), pending=trick)
        return replace(self, table=())._take(trick)

    def _take(self, trick: Trick) -> HyruleGame:
        assert trick.taker is not None
        captured = list(self.captured)
        captured[trick.taker] = (*captured[trick.taker], *trick.result.cards)
        game = replace(self, captured=tuple(captured), history=(*self.history, trick))
        return game._next_trick()

    def _next_trick(self) -> HyruleGame:
        if self.rules is Rules.CHANCE or not any(self.hands):
            return replace(self, leader=None, starter=None, last_swapped=False)
        most = self._most_captured()
        leader = most[0] if len(most) == 1 else None
        return replace(self, leader=leader, starter=leader, last_swapped=False)


def deck_order(dealt: HyruleGame) -> tuple[Card, ...]:
    """The deck, top card first, that a game straight from `HyruleGame.deal` was dealt from
    (give it back to `deal(deck=…)` to replay the game)."""
    n = dealt.players
    return tuple(dealt.hands[s][k] for k in range(HAND_SIZE) for s in range(n)) + dealt.stock
