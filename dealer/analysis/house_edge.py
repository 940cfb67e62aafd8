"""House edge of the base wager of Emperor's Challenge Exposed, by simulating rounds.

Each round deals the dealer and one player seven cards each from a fresh 53-card deck. The
dealer sets by the House Way. The player sets either by the same House Way (`house-way`) or,
seeing the exposed dealer hand, takes the setting with the best outcome against the dealer's
setting (`best`, found by `dealer.games.paigow.best_reply`, which a settle also records):
every legal split of the 21 is tried, and a win beats a push beats a loss. Ties between
settings with the same outcome go to the House Way's own setting; failing that, to the
strongest high hand, then the strongest low hand. The ordering win > push > loss is the same
under every `dealer_pai_gow` option (a half-paid win still beats a push, and a pushing dealer
pai gow pushes every legal setting), so one best reply serves all three options.

A round is tallied by the hand outcome (how many of the player's hands beat the dealer's: a
copy goes to the dealer) and by the dealer's pai gow (none, ace-high, king-high or less); the
net of each option follows exactly from that tally. All House Ways and player modes are
settled on the same deals.

Reproducibility: the rounds are cut into fixed chunks of `CHUNK_ROUNDS`; chunk `i` draws from
its own generator seeded from (`seed`, `i`) by SHA-256. Chunks may run in any worker in any
order; the tallies are integer sums, so the result depends only on `rounds` and `seed`.
Interrupts: the worker processes ignore SIGINT (Ctrl-C reaches a terminal's whole process
group) and die by SIGTERM without a word; the parent takes SIGINT or SIGTERM, terminates the
workers at once and lets the exception go on, so no worker prints a traceback. A parent killed
outright (SIGKILL) runs no clean-up: its workers notice by themselves — on Linux the kernel
kills them (`prctl(PR_SET_PDEATHSIG)`), elsewhere a watchdog thread sees they were given to
another parent — so no worker outlives the command however it ends.
"""

from __future__ import annotations

import hashlib
import math
import os
import random
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from multiprocessing.pool import Pool
from typing import Any

from dealer.games.paigow.best_reply import (
    DEALER_PAI_GOW_OPTIONS,
    PAI_GOW_CLASSES,
    Frontier,
    cached_high_key,
    frontier,
    net_halves,
    pai_gow_class,
    reply_outcome,
)
from dealer.games.paigow.house_way import HouseWay, set_hand
from dealer.games.paigow.ranking import WHEEL_SETTINGS, Key, low_key
from dealer.games.paigow.settle import Outcome
from dealer.kernel.cards import DECK, Card
from dealer.kernel.errors import DealerError

PLAYER_MODES = ("house-way", "best")
OUTCOMES = tuple(Outcome)
"""Hand outcome by index: the number of player hands strictly better than the dealer's."""
CHUNK_ROUNDS = 5_000
MAX_ROUNDS = 100_000_000
"""The most rounds one simulation deals: 25 times the 4,000,000 the published figures are
checked at (about 1.5 hours on 2 cores); a number beyond it is a slip of the keyboard, refused
before a chunk is planned (the plan of a 10**30-round run alone would not fit in memory)."""
MAX_WORKERS = 64
"""The most processes one simulation starts (never more than its chunks): more is a typo, not a
machine, and each worker is a whole Python process."""
Z95 = 1.959963984540054
"""The two-sided 95% normal quantile."""

Progress = Callable[[int, int], None]


def _chunk_seed(seed: int, chunk: int) -> int:
    digest = hashlib.sha256(f"dealer.analysis.house_edge:{seed}:{chunk}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def _house_keys(cards: Sequence[Card], way: HouseWay, wheel_second: bool) -> tuple[Key, Key]:
    """The high and low keys of the House Way's setting of seven cards."""
    setting = set_hand(cards, way)
    return cached_high_key(setting.high, wheel_second), low_key(setting.low)


# --- a worker's round -----------------------------------------------------------------------
#
# A round deals two hands of seven, and most of its work is what the ranks alone decide: a
# hand that cannot hold a flush (no five cards of one suit, the joker counted in every suit)
# has the keys of its House Way setting, its dealer pai gow and its frontier fixed by its ranks
# (the suits only choose between cards of equal rank, which changes no key). A worker keeps
# them by the hand's ranks; there are 67,600 rank multisets (the joker apart from the
# aces), most met early: a worker's first 5,000 rounds cost five to six times its 100th 5,000,
# and it grows to about 180 MB with two House Ways. A hand that can hold a flush (about one
# in 24) is set and its frontier found card by card.

_SUIT_SHIFT = 42
"""Bits of a hand's code below its suit counts: 3 bits for each of 14 ranks (the joker apart)."""
_RANKS = (1 << _SUIT_SHIFT) - 1
_CODES: tuple[int, ...] = tuple(
    1 << 3 * (i >> 2) | (0o1111 if i == 52 else 1 << 3 * (i & 3)) << _SUIT_SHIFT
    for i in range(len(DECK))
)
"""A card's code by deck index; a hand's code is the sum of its cards'. Its low 42 bits count
the cards of each rank (equal for hands with the same ranks); above, the cards of each suit,
3 bits a suit, the joker counted in every suit."""
_CARD_OF_CODE = dict(zip(_CODES, DECK, strict=True))
_FIVE_BITS = 0o4444 << _SUIT_SHIFT
"""The top bit of each suit's count: a count of 5 to 7 also has one of the two bits below."""


def _may_flush(code: int) -> int:
    """Non-zero when the hand holds five cards of one suit (the joker counted in every suit)."""
    return code & (code << 1 | code << 2) & _FIVE_BITS


def _deal(getrandbits: Callable[[int], int], dealt: list[int]) -> None:
    """Fill `dealt` with 14 card codes: the cards `Random.sample(DECK, 14)` draws from a
    generator with this `getrandbits` (the same draws, without its generality: every pool
    size from 53 down to 40 takes 6 random bits)."""
    pool = list(_CODES)
    n = len(pool)
    for i in range(14):
        j = getrandbits(6)
        while j >= n:
            j = getrandbits(6)
        dealt[i] = pool[j]
        n -= 1
        pool[j] = pool[n]


class _Memo:
    """What a worker has found of hands that cannot hold a flush, by their ranks: the keys of
    each House Way's setting, the dealer pai gow class, the frontier."""

    def __init__(self) -> None:
        self.ways: dict[HouseWay, dict[int, tuple[Key, Key]]] = {}
        self.pai_gow: dict[int, int] = {}
        self.frontier: dict[int, Frontier] = {}


_MEMOS = {True: _Memo(), False: _Memo()}
"""By wheel setting (wheel second or not)."""
_SEEN_WAYS: dict[HouseWay, HouseWay] = {}
"""Each House Way a worker was given, by value: a chunk's ways arrive as new copies, and the
first copy seen keeps its compiled plan (found by identity) warm from chunk to chunk."""


def _cards(codes: Sequence[int]) -> list[Card]:
    return [_CARD_OF_CODE[c] for c in codes]


def run_chunk(
    ways: Sequence[HouseWay],
    players: Sequence[str],
    wheel_second: bool,
    seed: int,
    chunk: int,
    rounds: int = CHUNK_ROUNDS,
) -> list[int]:
    """Deal `rounds` rounds of chunk `chunk` of a simulation seeded `seed` and tally them: a
    flat list indexed [way][player mode][outcome][dealer pai gow class] (3 x 3 per way and
    mode)."""
    ways = [_SEEN_WAYS.setdefault(way, way) for way in ways]
    getrandbits = random.Random(_chunk_seed(seed, chunk)).getrandbits
    want_house = "house-way" in players
    want_best = "best" in players
    width = len(players) * 9
    tally = [0] * (len(ways) * width)
    memo = _MEMOS[wheel_second]
    settings = [memo.ways.setdefault(way, {}) for way in ways]
    pai_gows, frontiers = memo.pai_gow, memo.frontier
    dealt = [0] * 14
    for _ in range(rounds):
        _deal(getrandbits, dealt)
        d_code, p_code = sum(dealt[:7]), sum(dealt[7:])
        dealer = None if not _may_flush(d_code) else _cards(dealt[:7])
        player = None if not _may_flush(p_code) else _cards(dealt[7:])
        d_code &= _RANKS
        p_code &= _RANKS
        if dealer is None:
            pg = pai_gows.get(d_code)
            if pg is None:
                pg = pai_gows[d_code] = pai_gow_class(_cards(dealt[:7]))
        else:
            pg = pai_gow_class(dealer)
        for w, known in enumerate(settings):
            if dealer is None:
                dk = known.get(d_code)
                if dk is None:
                    dk = known[d_code] = _house_keys(_cards(dealt[:7]), ways[w], wheel_second)
            else:
                dk = _house_keys(dealer, ways[w], wheel_second)
            dh, dl = dk
            if player is None:
                pk = known.get(p_code)
                if pk is None:
                    pk = known[p_code] = _house_keys(_cards(dealt[7:]), ways[w], wheel_second)
            else:
                pk = _house_keys(player, ways[w], wheel_second)
            outcome = (pk[0] > dh) + (pk[1] > dl)
            if want_best:
                if player is None:
                    front = frontiers.get(p_code)
                    if front is None:
                        front = frontiers[p_code] = frontier(_cards(dealt[7:]), wheel_second)
                else:
                    front = frontier(player, wheel_second)
                best = reply_outcome(front, dh, dl)
            base = w * width + pg
            if want_house:
                tally[base + outcome * 3] += 1
                base += 9
            if want_best:
                tally[base + best * 3] += 1
    return tally


Task = tuple[tuple[HouseWay, ...], tuple[str, ...], bool, int, int, int]
"""`run_chunk`'s arguments: ways, player modes, wheel second, seed, chunk, rounds."""


def _chunk_task(args: Task) -> tuple[list[int], int]:
    """A chunk's tally and its number of rounds."""
    return run_chunk(*args), args[-1]


_PR_SET_PDEATHSIG = 1
"""Linux prctl option: the signal a process gets when its parent dies."""
WATCH_SECONDS = 0.5
"""How often a worker's watchdog looks whether its parent is still there."""
_STOPS = {signal.SIGINT, signal.SIGTERM}


def _watch(parent: int) -> None:
    """Leave at once when the process was given to another parent (its own has died)."""
    while os.getppid() == parent:
        time.sleep(WATCH_SECONDS)
    os._exit(1)


def _worker_start(parent: int) -> None:
    """A worker leaves SIGINT to the parent, which stops the pool; SIGTERM (the pool stopping
    it) ends it without clean-up; and it dies with `parent`, even one killed by SIGKILL: by the
    kernel's parent-death signal on Linux, and by a watchdog thread anywhere (which also covers
    a parent that died before the worker got here)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM})
    if sys.platform == "linux":
        import ctypes

        ctypes.CDLL(None).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    threading.Thread(target=_watch, args=(parent,), daemon=True).start()


@contextmanager
def _pool(workers: int) -> Iterator[Pool]:
    """`workers` processes, terminated on the way out whatever happened (never waiting for
    queued chunks). SIGINT and SIGTERM are held back while they start, so that none is born
    before it has set its own signal handling; one that came meanwhile is raised here right
    after."""
    signal.pthread_sigmask(signal.SIG_BLOCK, _STOPS)
    try:
        pool = Pool(workers, initializer=_worker_start, initargs=(os.getpid(),))
    except BaseException:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _STOPS)
        raise
    try:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _STOPS)
        yield pool
    finally:
        pool.terminate()


@dataclass(frozen=True)
class OptionEdge:
    """The base wager under one `dealer_pai_gow` option: wager outcome probabilities and the
    house edge (minus the mean net per unit wagered) with its standard error."""

    dealer_pai_gow: str
    win: float
    push: float
    lose: float
    house_edge: float
    standard_error: float

    @property
    def ci95(self) -> tuple[float, float]:
        """The 95% confidence interval of the house edge."""
        half = Z95 * self.standard_error
        return self.house_edge - half, self.house_edge + half

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        lo, hi = self.ci95
        return {
            "dealer_pai_gow": self.dealer_pai_gow,
            "win": self.win,
            "push": self.push,
            "lose": self.lose,
            "house_edge": self.house_edge,
            "standard_error": self.standard_error,
            "ci95": [lo, hi],
        }


@dataclass(frozen=True)
class StrategyEdge:
    """The tally of one House Way and one player mode: `counts[outcome][pai gow class]`."""

    house_way: str
    version: str
    player: str
    counts: tuple[tuple[int, int, int], ...]

    @property
    def rounds(self) -> int:
        """Rounds tallied."""
        return sum(map(sum, self.counts))

    def hand_outcomes(self) -> dict[str, float]:
        """Probability of each hand outcome (before any dealer-pai-gow push)."""
        n = self.rounds
        return {OUTCOMES[i]: sum(self.counts[i]) / n for i in (2, 1, 0)}

    def hand_standard_errors(self) -> dict[str, float]:
        """Standard error of each hand-outcome probability."""
        n = self.rounds
        return {name: math.sqrt(p * (1 - p) / n) for name, p in self.hand_outcomes().items()}

    def option(self, option: str) -> OptionEdge:
        """The wager's figures under one `dealer_pai_gow` option."""
        n = self.rounds
        by_net: dict[int, int] = {}
        for outcome in range(3):
            for pg in range(3):
                halves = net_halves(option, outcome, pg)
                by_net[halves] = by_net.get(halves, 0) + self.counts[outcome][pg]
        total = sum(h * c for h, c in by_net.items())
        squares = sum(h * h * c for h, c in by_net.items())
        mean = total / (2 * n)
        # sample variance of the net per round, from exact integer sums of half units
        spread = (n * squares - total * total) / (4 * n * n)  # population variance
        se = math.sqrt(max(spread, 0.0) / (n - 1)) if n > 1 else math.inf
        return OptionEdge(
            option,
            sum(c for h, c in by_net.items() if h > 0) / n,
            by_net.get(0, 0) / n,
            sum(c for h, c in by_net.items() if h < 0) / n,
            -mean,
            se,
        )

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        ses = self.hand_standard_errors()
        return {
            "house_way": {"name": self.house_way, "version": self.version},
            "player": self.player,
            "rounds": self.rounds,
            "hands": {
                name: {"probability": p, "standard_error": ses[name]}
                for name, p in self.hand_outcomes().items()
            },
            "counts": {
                OUTCOMES[o]: dict(zip(PAI_GOW_CLASSES, self.counts[o], strict=True))
                for o in range(3)
            },
            "options": [self.option(opt).to_dict() for opt in DEALER_PAI_GOW_OPTIONS],
        }


PLAYER_WORDS = {
    "house-way": "player sets by the House Way",
    "best": "player sets their best reply to the exposed dealer hand",
}


@dataclass(frozen=True)
class HouseEdgeReport:
    """A whole simulation: its inputs and one StrategyEdge per House Way and player mode."""

    rounds: int
    seed: int
    wheel: str
    strategies: tuple[StrategyEdge, ...]

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "rounds": self.rounds,
            "seed": self.seed,
            "wheel": self.wheel,
            "chunk_rounds": CHUNK_ROUNDS,
            "strategies": [s.to_dict() for s in self.strategies],
        }

    def explanation(self) -> list[str]:
        """How the figures were made, for a person."""
        lines = [
            f"{self.rounds:,} rounds from seed {self.seed}: the dealer and one player get "
            "seven cards each from a fresh 53-card deck; the dealer sets by the House Way",
            "hand outcome: both player hands better wins, one pushes, none loses; a copy goes "
            "to the dealer",
            "house edge: minus the mean net per unit wagered, with a 95% confidence interval "
            f"of ±{Z95:.2f} standard errors",
        ]
        if any(s.player == "best" for s in self.strategies):
            lines.insert(
                2,
                "best reply: every legal split against the exposed dealer setting; ties go to the "
                "House Way's setting, then the strongest high hand, then the strongest low hand",
            )
        for s in self.strategies:
            hands = s.hand_outcomes()
            lines.append(
                f"{s.house_way} v{s.version}, {PLAYER_WORDS[s.player]}: win {hands['win']:.2%}, "
                f"push {hands['push']:.2%}, lose {hands['lose']:.2%}"
            )
        return lines


def simulate(
    rounds: int,
    seed: int,
    ways: Sequence[HouseWay],
    players: Sequence[str] = PLAYER_MODES,
    wheel: str = "second-highest",
    workers: int = 1,
    progress: Progress | None = None,
) -> HouseEdgeReport:
    """Simulate `rounds` rounds for each House Way and player mode, on `workers` processes;
    `progress(rounds done, rounds)` after each chunk."""
    if rounds < 1:
        raise DealerError(f"rounds must be at least 1, got {rounds}")
    if rounds > MAX_ROUNDS:
        raise DealerError(f"rounds must be at most {MAX_ROUNDS:,}, got {rounds}")
    if workers < 1:
        raise DealerError(f"workers must be at least 1, got {workers}")
    if workers > MAX_WORKERS:
        raise DealerError(f"workers must be at most {MAX_WORKERS}, got {workers}")
    if not ways:
        raise DealerError("no House Way to simulate")
    unknown = [p for p in players if p not in PLAYER_MODES]
    if unknown or not players:
        raise DealerError(
            f"player mode {unknown[0] if unknown else ''!r} is not one of {', '.join(PLAYER_MODES)}"
        )
    if wheel not in WHEEL_SETTINGS:
        raise DealerError(f"wheel {wheel!r} is not one of {', '.join(WHEEL_SETTINGS)}")
    modes = tuple(p for p in PLAYER_MODES if p in players)
    chunks = math.ceil(rounds / CHUNK_ROUNDS)
    second = wheel == "second-highest"
    tasks: list[Task] = [
        (tuple(ways), modes, second, seed, i, min(CHUNK_ROUNDS, rounds - i * CHUNK_ROUNDS))
        for i in range(chunks)
    ]
    tally = [0] * (len(ways) * len(modes) * 9)
    done = 0

    def add(part: list[int], size: int) -> None:
        nonlocal done
        for i, n in enumerate(part):
            tally[i] += n
        done += size
        if progress is not None:
            progress(done, rounds)

    if workers == 1 or chunks == 1:
        for task in tasks:
            add(*_chunk_task(task))
    else:
        with _pool(min(workers, chunks)) as pool:
            for part, size in pool.imap_unordered(_chunk_task, tasks):
                add(part, size)
    strategies = []
    for w, way in enumerate(ways):
        for m, mode in enumerate(modes):
            start = (w * len(modes) + m) * 9
            flat = tally[start : start + 9]
            counts = tuple((flat[o * 3], flat[o * 3 + 1], flat[o * 3 + 2]) for o in range(3))
            strategies.append(StrategyEdge(way.name, way.version, mode, counts))
    return HouseEdgeReport(rounds, seed, wheel, tuple(strategies))
