"""One hand of Empire, step by step: the deal, turning plaques, betting rounds, the winner.

Pure: every action returns a new `EmpireHand`; nothing is printed or stored. Seats are indexed
from 0, the first seat to the dealer's left (a person reads them from 1, as every text and JSON
field here does). Chips are whole numbers. The seed's sequence
(RULINGS §5), with the points it leaves open decided as follows:
* Each seat is dealt seven plaques; the first two it receives are face up and the rest are
  turned in the order dealt. A tableau is the face-up plaques; it is complete with five face
  up (two unturned), and the unturned two never count.
* The opening betting round starts with the first seat: it must bet or yield; if it yields, the next
  seat in play must bet or yield, and so on.
* In a betting round every other seat in play, in turn from the bettor's left, sees, raises or
  yields; a raise sends the round round again. A seat that cannot see the current bet from its
  stack must yield (no all-in). Without stacks, chips are not limited.
* Turning: the seat to act turns its next plaque. If its tableau's value went up, the turn ends
  and play passes to the next seat in play with fewer than five plaques face up; if not, it
  must turn again; once five are face up it must bet (opening a round) or yield, and then play
  passes. Before turning, and after a turn that did not raise the value, the seat may open a
  betting round or yield; after a round it opened mid-turn it goes on turning.
* A tableau's value is read under the restrictions of the other tableaux still in play, with
  the table in use (so it is provisional with the shipped table).
* When all but one seat have yielded, that seat takes the pot at once. When every seat in play
  is complete, the best tableau takes the pot; equal tableaux split it, an odd chip going to
  the winner nearest the dealer's left.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from dealer.games.empire import MAX_PLAYERS, MIN_PLAYERS
from dealer.games.empire.combinations import CombinationTable, default_table
from dealer.games.empire.deck import SET, Plaque, distinct_tableaux, format_plaques
from dealer.games.empire.ranking import (
    PROVISIONAL_LINE,
    RankedTableau,
    compare,
    comparison_dict,
    explain,
    restrictions_for,
    value_tableau,
)
from dealer.kernel.cards import deal_around
from dealer.kernel.comparison import Comparison
from dealer.kernel.errors import CardError, DealerError, MoveError

DEALT = 7
FACE_UP = 2
COMPLETE = 5
MAX_CHIPS = 999_999_999
"""The most chips an ante, a stack, a bet or a raise may be (whether stacks are tracked or
not): an amount beyond it is a slip, refused before it is counted."""
ACTIONS = ("bet", "see", "raise", "yield", "turn")


@dataclass(frozen=True)
class SeatState:
    """One seat: its seven plaques in deal order, how many are face up, whether it yielded, its
    stack (None: not tracked) and the chips it has put in the pot this hand."""

    plaques: tuple[Plaque, ...]
    face_up: int = FACE_UP
    yielded: bool = False
    stack: int | None = None
    put_in: int = 0

    @property
    def tableau(self) -> tuple[Plaque, ...]:
        """The face-up plaques."""
        return self.plaques[: self.face_up]

    @property
    def complete(self) -> bool:
        """Five plaques face up: nothing more to turn."""
        return self.face_up >= COMPLETE


@dataclass(frozen=True)
class BettingRound:
    """A betting round: who opened it, the current bet, each seat's chips in this round, the
    seats still to answer (the first answers next), and whether the opener has bet yet."""

    initiator: int
    bet: int
    paid: tuple[int, ...]
    waiting: tuple[int, ...]
    opened: bool


@dataclass(frozen=True)
class EmpireHand:
    """The state of one hand. `phase` is `betting`, `turning` or `over`."""

    table: CombinationTable
    seats: tuple[SeatState, ...]
    pot: int
    phase: str
    betting: BettingRound | None
    turn_seat: int | None = None
    must_decide: bool = False
    events: tuple[str, ...] = ()
    winners: tuple[int, ...] = ()
    shares: tuple[int, ...] = ()
    showdown: Comparison[RankedTableau] | None = None

    # --- reading the state ---------------------------------------------------------------

    @property
    def in_play(self) -> tuple[int, ...]:
        """Seats that have not yielded."""
        return tuple(i for i, s in enumerate(self.seats) if not s.yielded)

    @property
    def to_act(self) -> int | None:
        """The seat whose move it is (None when the hand is over)."""
        if self.phase == "over":
            return None
        if self.betting is not None:
            b = self.betting
            return b.waiting[0] if b.opened else b.initiator
        return self.turn_seat

    def legal_actions(self) -> tuple[str, ...]:
        """What the seat to act may do now."""
        seat = self.to_act
        if seat is None:
            return ()
        b = self.betting
        if b is not None:
            if not b.opened:
                return ("bet", "yield")
            stack = self.seats[seat].stack
            if stack is not None and stack < b.bet - b.paid[seat]:
                return ("yield",)
            return ("see", "raise", "yield")
        return ("bet", "yield") if self.must_decide else ("turn", "bet", "yield")

    def value(self, seat: int) -> RankedTableau:
        """The seat's face-up tableau, valued under the restrictions of the others in play."""
        tableaux = [() if s.yielded else s.tableau for s in self.seats]
        restrictions = restrictions_for(seat, tableaux, lambda n: f"Seat {n + 1}")
        return value_tableau(self.seats[seat].tableau, self.table, restrictions)

    # --- actions -------------------------------------------------------------------------

    def act(self, seat: int, action: str, amount: int | None = None) -> EmpireHand:
        """Apply one action by name: bet AMOUNT, see, raise AMOUNT, yield, turn."""
        if action == "bet":
            return self.bet(seat, _amount(amount, action))
        if action == "raise":
            return self.raise_(seat, _amount(amount, action))
        if amount is not None:
            raise DealerError(f"{action!r} takes no amount")
        if action == "see":
            return self.see(seat)
        if action == "yield":
            return self.yield_(seat)
        if action == "turn":
            return self.turn(seat)
        raise DealerError(f"unknown action {action!r}: actions are {', '.join(ACTIONS)}")

    def bet(self, seat: int, amount: int) -> EmpireHand:
        """Open a betting round with a bet (the opening round, or during one's turn)."""
        self._check(seat, "bet")
        amount = _amount(amount, "bet")
        state = self._pay(seat, amount, "bet")
        paid = [0] * len(self.seats)
        paid[seat] = amount
        round_ = BettingRound(seat, amount, tuple(paid), self._after(seat), True)
        state = replace(state, betting=round_, phase="betting")
        return state._log(f"Seat {seat + 1} bets {amount}.")._settle_round()

    def see(self, seat: int) -> EmpireHand:
        """Match the current bet."""
        self._check(seat, "see")
        b = _open(self.betting)
        owe = b.bet - b.paid[seat]
        state = self._pay(seat, owe, "see")
        paid = list(b.paid)
        paid[seat] += owe
        state = replace(state, betting=replace(b, paid=tuple(paid), waiting=b.waiting[1:]))
        return state._log(f"Seat {seat + 1} sees ({owe}).")._settle_round()

    def raise_(self, seat: int, amount: int) -> EmpireHand:
        """See the current bet and raise it by `amount`."""
        self._check(seat, "raise")
        amount = _amount(amount, "raise")
        b = _open(self.betting)
        owe = b.bet - b.paid[seat] + amount
        state = self._pay(seat, owe, "raise")
        paid = list(b.paid)
        paid[seat] += owe
        round_ = replace(b, bet=b.bet + amount, paid=tuple(paid), waiting=self._after(seat))
        state = replace(state, betting=round_)
        return state._log(
            f"Seat {seat + 1} raises by {amount} to {b.bet + amount}."
        )._settle_round()

    def yield_(self, seat: int) -> EmpireHand:
        """Yield: out of the hand, chips already in the pot stay there."""
        self._check(seat, "yield")
        seats = list(self.seats)
        seats[seat] = replace(seats[seat], yielded=True)
        state = replace(self, seats=tuple(seats))._log(f"Seat {seat + 1} yields.")
        if len(state.in_play) == 1:
            return state._finish_by_yield()
        b = self.betting
        if b is not None and not b.opened:
            nxt = state._next_in_play(seat)
            return replace(state, betting=replace(b, initiator=nxt))
        if b is not None:
            return replace(state, betting=replace(b, waiting=b.waiting[1:]))._settle_round()
        return state._pass_turn()

    def turn(self, seat: int) -> EmpireHand:
        """Turn the seat's next plaque; the turn goes on unless the tableau's value went up."""
        self._check(seat, "turn")
        before = self.value(seat)
        seats = list(self.seats)
        seats[seat] = replace(seats[seat], face_up=seats[seat].face_up + 1)
        state = replace(self, seats=tuple(seats))
        after = state.value(seat)
        plaque = state.seats[seat].tableau[-1]
        went_up = after.key > before.key
        change = "value up" if went_up else "no increase"
        state = state._log(f"Seat {seat + 1} turns {plaque}: {after.describe()}, {change}.")
        if state.seats[seat].complete:
            state = state._log(f"Seat {seat + 1} has two plaques unturned: it must bet or yield.")
            return replace(state, must_decide=True)
        if went_up:
            return state._pass_turn()
        return state

    # --- internals -----------------------------------------------------------------------

    def _log(self, line: str) -> EmpireHand:
        return replace(self, events=(*self.events, line))

    def _check(self, seat: int, action: str) -> None:
        if not isinstance(seat, int) or not 0 <= seat < len(self.seats):
            raise MoveError(f"there is no seat {_shown(seat)!r}: seats are 1-{len(self.seats)}")
        if self.phase == "over":
            raise MoveError("the hand is over")
        if seat != self.to_act:
            raise MoveError(f"it is seat {_shown(self.to_act)}'s move, not seat {seat + 1}'s")
        legal = self.legal_actions()
        if action not in legal:
            why = ""
            if action in ("see", "raise") and legal == ("yield",):
                b = _open(self.betting)
                why = (
                    f": it owes {b.bet - b.paid[seat]} and has {self.seats[seat].stack}; "
                    "a player who cannot see the current bet must yield"
                )
            elif action == "turn" and self.must_decide:
                why = ": two plaques remain unturned, so it must bet or yield"
            raise MoveError(
                f"seat {seat + 1} cannot {action} now{why} (it may {' or '.join(legal)})"
            )

    def _pay(self, seat: int, chips: int, action: str) -> EmpireHand:
        current = self.seats[seat]
        if current.stack is not None and chips > current.stack:
            raise MoveError(
                f"seat {seat + 1} cannot {action} {chips}: it has {current.stack} chips"
            )
        stack = None if current.stack is None else current.stack - chips
        seats = list(self.seats)
        seats[seat] = replace(current, stack=stack, put_in=current.put_in + chips)
        return replace(self, seats=tuple(seats), pot=self.pot + chips)

    def _after(self, seat: int) -> tuple[int, ...]:
        """The other seats in play, in turn from `seat`'s left."""
        n = len(self.seats)
        order = ((seat + k) % n for k in range(1, n))
        return tuple(i for i in order if not self.seats[i].yielded)

    def _next_in_play(self, seat: int) -> int:
        return next(i for i in self._after(seat))

    def _settle_round(self) -> EmpireHand:
        b = self.betting
        if b is None or b.waiting:
            return self
        state = replace(self, betting=None, phase="turning")._log("The betting round ends.")
        if self.turn_seat is None:  # the opening round: the first seat in play turns first
            first = next((i for i in range(len(self.seats)) if not self.seats[i].yielded), None)
            return replace(state, turn_seat=first)._start_turn()
        opener = self.seats[self.turn_seat]
        if self.must_decide or opener.yielded:
            return state._pass_turn()
        return state

    def _start_turn(self) -> EmpireHand:
        seat = self.turn_seat
        if seat is None or self.seats[seat].yielded or self.seats[seat].complete:
            return self._pass_turn()
        return replace(self, must_decide=False)

    def _pass_turn(self) -> EmpireHand:
        start = self.turn_seat if self.turn_seat is not None else -1
        n = len(self.seats)
        for k in range(1, n + 1):
            seat = (start + k) % n
            s = self.seats[seat]
            if not s.yielded and not s.complete:
                return replace(self, turn_seat=seat, must_decide=False, phase="turning")
        return self._finish_by_showdown()

    def _finish_by_yield(self) -> EmpireHand:
        (winner,) = self.in_play
        shares = tuple(self.pot if i == winner else 0 for i in range(len(self.seats)))
        return replace(
            self,
            phase="over",
            betting=None,
            winners=(winner,),
            shares=shares,
            must_decide=False,
        )._log(
            f"All but seat {winner + 1} have yielded: seat {winner + 1} takes the pot of "
            f"{self.pot}."
        )

    def _finish_by_showdown(self) -> EmpireHand:
        seats = self.in_play
        result = compare(
            [self.seats[i].tableau for i in seats], self.table, [f"Seat {i + 1}" for i in seats]
        )
        winners = tuple(seats[w] for w in result.winners)
        share, odd = divmod(self.pot, len(winners))
        shares = [0] * len(self.seats)
        for place, seat in enumerate(winners):
            shares[seat] = share + (1 if place < odd else 0)
        names = " and ".join(f"seat {w + 1}" for w in winners)
        verb = "split" if len(winners) > 1 else "takes"
        return replace(
            self,
            phase="over",
            betting=None,
            turn_seat=None,
            must_decide=False,
            winners=winners,
            shares=tuple(shares),
            showdown=result,
        )._log(f"Every tableau in play is complete: {names} {verb} the pot of {self.pot}.")

    # --- output --------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready state: phase, who acts and may do what, pot, seats (face-up plaques only),
        the betting round, and when over the winners, shares and showdown."""
        seats = []
        for i, s in enumerate(self.seats):
            seats.append(
                {
                    "seat": i + 1,
                    "tableau": [str(p) for p in s.tableau],
                    "unturned": len(s.plaques) - s.face_up,
                    "yielded": s.yielded,
                    "stack": s.stack,
                    "put_in": s.put_in,
                    "category": None if s.yielded else self.value(i).category,
                }
            )
        b = self.betting
        return {
            "phase": self.phase,
            "to_act": _shown(self.to_act),
            "legal": list(self.legal_actions()),
            "pot": self.pot,
            "seats": seats,
            "betting": None
            if b is None
            else {
                "initiator": b.initiator + 1,
                "bet": b.bet,
                "paid": list(b.paid),
                "waiting": [s + 1 for s in b.waiting],
                "opened": b.opened,
            },
            "winners": [s + 1 for s in self.winners],
            "shares": list(self.shares),
            "showdown": None if self.showdown is None else comparison_dict(self.showdown),
            "provisional": self.table.provisional,
            "table": self.table.to_dict(),
        }

    def explanation(self) -> list[str]:
        """The hand so far, then what happens next (or the showdown's reasons)."""
        lines = list(self.events)
        if self.showdown is not None:
            lines.extend(explain(self.showdown))
        elif self.phase != "over":
            lines.append(f"Seat {_shown(self.to_act)} to act: {' or '.join(self.legal_actions())}.")
            if self.table.provisional:
                lines.append(
                    PROVISIONAL_LINE.format(name=self.table.name, version=self.table.version)
                )
        return lines


def _shown(seat: object) -> object:
    """A seat index as people count seats (from 1); anything else as it is."""
    return seat + 1 if isinstance(seat, int) and not isinstance(seat, bool) else seat


def _open(round_: BettingRound | None) -> BettingRound:
    if round_ is None or not round_.opened:
        raise MoveError("no bet to see or raise: the betting round is not open")
    return round_


def _amount(amount: int | None, action: str) -> int:
    if isinstance(amount, bool) or not isinstance(amount, int) or amount <= 0:
        raise MoveError(f"{action} needs a whole number of chips above zero, not {amount!r}")
    if amount > MAX_CHIPS:
        raise MoveError(f"{action} of {amount} chips: at most {MAX_CHIPS:,} chips")
    return amount


def start_hand(
    deals: Sequence[Iterable[Plaque]],
    table: CombinationTable | None = None,
    ante: int = 0,
    stacks: Sequence[int] | None = None,
) -> EmpireHand:
    """Start a hand from given deals (seven plaques per seat, in deal order; the first two face
    up). Every seat pays the `ante`; `stacks` (optional) are the chips each seat holds before."""
    hands = distinct_tableaux(deals)
    if not MIN_PLAYERS <= len(hands) <= MAX_PLAYERS:
        raise DealerError(f"Empire is for {MIN_PLAYERS}-{MAX_PLAYERS} players, not {len(hands)}")
    for number, plaques in enumerate(hands):
        if len(plaques) != DEALT:
            raise CardError(
                f"wrong number of plaques for seat {number + 1}: expected {DEALT}, "
                f"got {len(plaques)}"
            )
    if isinstance(ante, bool) or not isinstance(ante, int) or not 0 <= ante <= MAX_CHIPS:
        raise DealerError(f"ante {ante!r} must be a whole number of chips, 0 to {MAX_CHIPS:,}")
    if stacks is not None:
        if len(stacks) != len(hands):
            raise DealerError(f"{len(stacks)} stacks for {len(hands)} seats")
        for number, stack in enumerate(stacks):
            if isinstance(stack, bool) or not isinstance(stack, int) or stack < ante:
                raise DealerError(
                    f"seat {number + 1}'s stack {stack!r} must be a whole number of at least the "
                    f"ante ({ante})"
                )
            if stack > MAX_CHIPS:
                raise DealerError(
                    f"seat {number + 1}'s stack {stack} is more than {MAX_CHIPS:,} chips"
                )
    seats = tuple(
        SeatState(p, stack=None if stacks is None else stacks[i] - ante, put_in=ante)
        for i, p in enumerate(hands)
    )
    opening = BettingRound(0, 0, (0,) * len(seats), (), False)
    table = table if table is not None else default_table()
    events = tuple(
        f"Seat {i + 1} shows {format_plaques(s.tableau)}." for i, s in enumerate(seats)
    ) + ("The opening betting round: seat 1 must bet or yield.",)
    return EmpireHand(table, seats, ante * len(seats), "betting", opening, events=events)


def deal_hand(
    players: int,
    rng: random.Random,
    table: CombinationTable | None = None,
    ante: int = 0,
    stacks: Sequence[int] | None = None,
) -> EmpireHand:
    """Shuffle the 50 plaques with `rng` and deal seven to each of 2-7 seats, one at a time."""
    if isinstance(players, bool) or not isinstance(players, int):
        raise DealerError(f"players {players!r} must be a whole number")
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise DealerError(f"Empire is for {MIN_PLAYERS}-{MAX_PLAYERS} players, not {players}")
    plaques = list(SET)
    rng.shuffle(plaques)
    deals, _ = deal_around(plaques, players, DEALT)
    return start_hand(deals, table, ante, stacks)
