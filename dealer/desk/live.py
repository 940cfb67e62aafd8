"""Live sessions at a table: a game's pure session step, driven by one driver (`Live`) that
puts on the record what a step completes.

Each game's `session.py` takes one typed line to a new state and a reply (`kernel.replies.Reply`:
its kind, its lines, the ruling it completed); here the step also puts on the record what it
completes (a settled Pai Gow round, a Hyrule trick and the game's score, a Genpoker showdown, an
Empire hand) through `dealer.desk.recording`, before anything is shown as final. A step that
cannot be recorded changes nothing (the line can be typed again). One function per command
builds its session: `table_session`, `hyrule_game`, `genpoker_draw`, `empire_hand`. The games
are imported when their session is built, so a command loads only its own game.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

from dealer.desk.context import Desk, HouseRules, metered_table
from dealer.desk.recording import Recorded, check_log, record_one
from dealer.kernel.errors import DealerError
from dealer.kernel.replies import Reply, ReplyKind
from dealer.kernel.ruling import Ruling

if TYPE_CHECKING:
    from dealer.games.empire.session import HandReply, HandSession
    from dealer.games.genpoker.session import DrawReply, DrawSession
    from dealer.games.hyrule.session import GameReply, GameSession
    from dealer.games.paigow.session import TableReply, TableSession

R = TypeVar("R", bound=Reply)
R_co = TypeVar("R_co", bound=Reply, covariant=True)
S = TypeVar("S", bound="Step[Any]")


class Step(Protocol[R_co]):
    """A game's pure live session: a prompt, whether it is over, one line's step, and what is
    left to record at the end."""

    @property
    def prompt(self) -> str:
        """What the session waits for."""
        ...

    @property
    def over(self) -> bool:
        """True once nothing more is to be typed."""
        ...

    def step(self: S, line: str) -> tuple[S, R_co]:
        """One typed line: the next state and the reply (whose `ruling` is to be recorded);
        `DealerError`, or a reply of kind error, refuses the line."""
        ...

    def recorded(self: S, ruling_id: int, ruling: Ruling) -> S:
        """The last reply's ruling is on the record as `ruling_id`."""
        ...

    def final(self) -> Ruling | None:
        """What to record when the session ends (`DealerError` if it may not end now)."""
        ...


@dataclass(frozen=True)
class Said(Generic[R]):
    """A step's reply (None at the end of a session) and the ruling it recorded, if any."""

    reply: R | None
    ruling: Ruling | None = None
    ruling_id: int | None = None


Rules = Callable[[Desk, R], Recorded | None]
"""How a session's reply is ruled and recorded where its ruling is not in the reply (a Pai Gow
round is ruled at the table's meters, read in the transaction that records it)."""


class Live(Generic[S, R]):
    """A pure session driven at a desk: each step's ruling is recorded as it completes (the
    reply's `ruling`, or what `rules` makes of the reply)."""

    def __init__(self, desk: Desk, state: S, rules: Rules[R] | None = None) -> None:
        self.desk = desk
        self.state = state
        self.rules = rules

    @property
    def prompt(self) -> str:
        """What the session waits for."""
        return self.state.prompt

    @property
    def over(self) -> bool:
        """True once nothing more is to be typed."""
        return self.state.over

    def step(self, line: str) -> Said[R]:
        """Apply one typed line, recording what it completes; `DealerError` refuses the line (a
        reply of kind error keeps the state it brings: a quit to be typed again)."""
        state, reply = self.state.step(line)
        if reply.kind == ReplyKind.ERROR:
            self.state = state
            raise DealerError("; ".join(reply.lines))
        recorded = self._record(reply)
        if recorded is None:
            self.state = state
            return Said(reply)
        self.state = state.recorded(recorded.ruling_id, recorded.ruling)
        return Said(reply, recorded.ruling, recorded.ruling_id)

    def _record(self, reply: R) -> Recorded | None:
        if self.rules is not None:
            return self.rules(self.desk, reply)
        return None if reply.ruling is None else record_one(self.desk, reply.ruling)

    def finish(self) -> Said[R]:
        """End the session: record what is left (a Hyrule game's score), if anything; one that
        may not end now (a Pai Gow round not settled) is refused (`DealerError`)."""
        ruling = self.state.final()
        if ruling is None:
            return Said(None)
        recorded = record_one(self.desk, ruling)
        return Said(None, recorded.ruling, recorded.ruling_id)


# --- Pai Gow: the live table ---------------------------------------------------------------------


def table_session(desk: Desk, house: HouseRules) -> Live[TableSession, TableReply]:
    """`dealer table`: a live Pai Gow table at `desk` under the house rules (`--rule` changes
    approved once, for the session): the dealer's cards, each seat, settle; round after round,
    each settled round ruled and recorded exactly as `dealer round` does it. No table named, a
    log that cannot be written, or house rules not approved for the table, fail now, not at
    the first settle."""
    from dealer.desk.assignments import table_log
    from dealer.desk.paigow import record_round, ruling_profile
    from dealer.games.paigow.rulings import settings_of, way_of
    from dealer.games.paigow.session import TableSession

    metered_table(desk, "the live table settles its rounds")
    with table_log(desk) as log:
        desk, profile = ruling_profile(desk, house, log)
    way = way_of(profile)
    check_log(desk, settings_of(profile, way))

    def settle(desk: Desk, reply: TableReply) -> Recorded | None:
        """A round to settle is ruled and recorded (if that fails the round is kept)."""
        if reply.kind != ReplyKind.SETTLE:
            return None
        try:
            return record_round(desk, profile, reply.round, reply.typed)
        except DealerError as exc:
            raise DealerError(f"{exc} (the round is kept: settle again, or undo)") from None

    return Live(desk, TableSession(profile, desk.table, way=way), settle)


# --- the other games ------------------------------------------------------------------------------


def _seed(seed: int | None) -> int:
    if seed is not None:
        return seed
    import secrets  # only when a shuffle is not replayed

    return secrets.randbelow(2**32)


def hyrule_game(
    desk: Desk, players: int, rules: str, seed: int | None, deck: str | None
) -> Live[GameSession, GameReply]:
    """`dealer hyrule game`: deal from the typed `deck` (top card first), or shuffle with
    `seed` (a random one when None); each trick and the final score are recorded."""
    from dealer.games.hyrule.deck import parse_deck
    from dealer.games.hyrule.game import HyruleGame
    from dealer.games.hyrule.rulings import game_settings
    from dealer.games.hyrule.session import GameSession

    if deck is not None:
        dealt = HyruleGame.deal(players, rules, deck=parse_deck(deck))
    else:
        seed = _seed(seed)
        dealt = HyruleGame.deal(players, rules, rng=random.Random(seed))
    return Live(desk, GameSession.start(dealt, game_settings(dealt, seed)))


def genpoker_draw(
    desk: Desk, players: int, seed: int | None, pot: int
) -> Live[DrawSession, DrawReply]:
    """`dealer genpoker draw`: deal five each (a random seed when None); the showdown is
    recorded once every seat has drawn."""
    from dealer.games.genpoker.draw import deal
    from dealer.games.genpoker.session import DrawSession

    seed = _seed(seed)
    return Live(desk, DrawSession(deal(players, random.Random(seed)), seed, pot))


def empire_hand(
    desk: Desk,
    players: int,
    seed: int | None,
    ante: int,
    stack: int | None,
    combinations: Path | None,
) -> Live[HandSession, HandReply]:
    """`dealer empire hand`: deal seven plaques each (a random seed when None) with the
    operator's combination table (else the shipped one); the hand is recorded when it is over.
    A log that cannot be written, or a table not approved, fail now, not when the hand is
    over."""
    from dealer.games.empire.hand import deal_hand
    from dealer.games.empire.rulings import settings_of, table_of
    from dealer.games.empire.session import HandSession

    table = table_of(combinations)
    check_log(desk, settings_of(table))
    seed = _seed(seed)
    stacks = None if stack is None else [stack] * players
    hand = deal_hand(players, random.Random(seed), table, ante, stacks)
    return Live(desk, HandSession(hand, seed, ante, stack))
