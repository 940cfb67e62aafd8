"""A live table session: the dealer types the dealer's cards, then seat by seat, then settles.

Pure: lines of typed text in, replies out; the caller reads the terminal (or a pipe), records
each round the session hands it (the round as a round file states it, so it is ruled by the
very code of `dealer round`) and tells the session the ruling id.

A seat is one line, or several when parts are left out (the session then asks for the rest):

    3 As Kd 9c 7h 5s 3d 2c base 25 treasure 5          seven cards: set by the House Way
    seat 4: high Kc Kh 9d 6s 2h / low Qs Td  b10 i5 lammer    the player's own setting
    5 Js Jd Ac Qh 8s 5d 3h house way 25 pt=1            a bare amount after the hand: base
    2 Qs Qh 9d 9c 4s 3h 2d base 10 patron P-123         the player's patron id, on the record

Wagers: each wager a seat places, by its name or a short form (`dealer.games.paigow.pay.Wager`:
`base`, `insurance`, `treasure`, `progressive-insurance`, `progressive-treasure`, …), each with
its amount (`treasure 5`, `treasure=5`, `t5`); `dealer-insurance` puts the insurance wager on
the dealer's hand (`dealer-insurance 5` is both at once).
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from decimal import Decimal
from typing import Any

from dealer.games.paigow.deck import parse_cards
from dealer.games.paigow.house_way import HouseWay, load_house_way, set_hand
from dealer.games.paigow.pay import DECLARABLE, PLACED, Settled, Wager
from dealer.games.paigow.profile import Profile
from dealer.games.paigow.ranking import HandValue, is_foul, rank_high, rank_low
from dealer.games.paigow.round_input import (
    RoundError,
    SeatInput,
    SeatWagers,
    check_seat,
    read_dealer,
    read_seat,
)
from dealer.inputs import PAIGOW_SEATS, money, patron_id
from dealer.kernel.cards import Card, split_tokens, symbols
from dealer.kernel.documents import dump_yaml
from dealer.kernel.errors import CardError, DealerError
from dealer.kernel.money import fmt_money, money_json
from dealer.kernel.replies import Reply, ReplyKind
from dealer.kernel.ruling import Ruling
from dealer.kernel.text import quoted

WAGER_NAMES: Mapping[str, Wager] = {word: w for w in PLACED for word in (w.typed, *w.terms.short)}
"""Typed wager names (lower case, `_` read as `-`) → the wager: each wager a seat places, by its
name and its short forms."""
ON_DEALER: Mapping[str, Wager] = {word: w for w in DECLARABLE for word in w.terms.on_dealer}
"""Words that put a wager on the dealer's hand (`lammer`: the insurance wager)."""
DECLARING = tuple(w.terms.on_dealer[0] for w in DECLARABLE)
"""The word that puts each wager on the dealer's hand, as the help and the errors name it."""
ACROSS: Mapping[str, Wager] = {w.typed: w for w in Wager if w.settled is Settled.ACROSS_THE_TABLE}
"""The wagers with no amount of their own, which a seat does not place (Envy), by name."""
HIGH = frozenset({"high", "hi"})
LOW = frozenset({"low", "lo", "/"})
HOUSE_WAY = frozenset({"house", "way", "house-way", "houseway", "hw"})
COMMANDS = frozenset({"help", "?", "quit", "exit", "history", "show", "undo", "settle", "dealer"})


def _wagers_help() -> tuple[str, ...]:
    """The help's lines on the wagers, from the registry: each wager a seat places with its
    shortest form, the words that declare one on the dealer's hand, how Envy is paid."""
    named = ", ".join(f"{w.typed} ({min(w.terms.short, key=len)})" for w in PLACED)
    amounts = "each with an amount: 'treasure 5', 'treasure=5' or 't5';"
    lines = textwrap.wrap(
        f"Wagers: {named}, {amounts}", 88, subsequent_indent="  ", break_on_hyphens=False
    )
    lines += [
        f"  {word} (or {w.terms.on_dealer[-1]}): the {w.words} wager rides on the dealer's hand."
        for word, w in zip(DECLARING, DECLARABLE, strict=True)
    ]
    across = [f"  {w.words.capitalize()} is {_paid(w)}." for w in ACROSS.values()]
    return (*lines, *across)


def _paid(wager: Wager) -> str:
    """How a wager across the table is paid: `paid on a Treasure wager of at least the table's
    Envy minimum`."""
    name, on = wager.words.capitalize(), wager.rides_on.words.capitalize()
    return f"paid on a {on} wager of at least the table's {name} minimum"


HELP = (
    "Type the dealer's seven cards, then one line per seat, then settle:",
    "  3 As Kd 9c 7h 5s 3d 2c base 25 treasure 5      seven cards, set by the House Way",
    "  4 high Kc Kh 9d 6s 2h / low Qs Td b10 i5 lammer   the player's own setting",
    "  5 Js Jd Ac Qh 8s 5d 3h house way 25 pt 1         a bare amount after the hand is the base",
    "  2 Qs Qh 9d 9c 4s 3h 2d base 10 patron P-123      the player's patron id, on the record",
    *_wagers_help(),
    "Leave parts out and you are asked for them ('3', then the cards, then the wagers).",
    "Type a seat again to replace it (undo puts the earlier one back).",
    "Commands:",
    "  show              the round so far",
    "  undo              take back the last entry (a seat, or the dealer's cards)",
    "  dealer CARDS      correct the dealer's cards",
    "  settle            settle, record and show the round, then start the next one",
    "  history           the rounds settled, their ruling ids and any sign-off needed",
    "  help              this text",
    "  quit              leave (end of input leaves too)",
)

_AMOUNT = re.compile(r"\$?([0-9]+(?:\.[0-9]+)?)")
_GLUED = re.compile(r"([a-z][a-z-]*?)\$?([0-9]+(?:\.[0-9]+)?)")
_SEAT = re.compile(r"(?:seat|s)?([0-9]{1,9})")
"""A typed seat number: at most nine digits (a longer run is not a seat, and is quoted as such;
its number was repeated whole in the error)."""


@dataclass(frozen=True)
class SeatParts:
    """What one typed line says about a seat; None where the line says nothing."""

    number: int | None = None
    hand: Mapping[str, str] | None = None
    wagers: Mapping[str, Any] | None = None
    patron: str | None = None


class _LineReader:
    """Reads the tokens of one seat line in order (see the module docstring)."""

    def __init__(self, with_number: bool, hand_known: bool) -> None:
        self.with_number = with_number
        self.hand_known = hand_known
        self.number: int | None = None
        self.groups: list[list[str]] = [[]]
        self.high = False
        self.house_way = False
        self.amounts: dict[Wager, int | str] = {}
        self.on_dealer: set[Wager] = set()
        self.pending: Wager | None = None
        self.soft = False  # a pending amount that may be left out (`dealer-insurance [N]`)
        self.patron: str | None = None
        self.patron_next = False  # the next token is the patron id

    def read(self, line: str) -> SeatParts:
        spaced = re.sub(r"[/|]", " / ", re.sub(r"[=:]", " ", line))
        tokens = split_tokens(spaced)
        if self.with_number:
            tokens = self._seat_number(tokens)
        for token in tokens:
            self._token(token, token.lower().replace("_", "-"))
        if self.pending is not None and not self.soft:
            raise DealerError(f"give the {self.pending.words} wager's amount")
        if self.patron_next:
            raise DealerError("give the patron id after 'patron', e.g. 'patron P-123'")
        return SeatParts(self.number, self._hand(), self._wagers(), self.patron)

    def _seat_number(self, tokens: list[str]) -> list[str]:
        words = [t.lower() for t in tokens[:2]]
        if len(words) == 2 and words[0] in ("seat", "s") and _SEAT.fullmatch(words[1]):
            self.number, rest = int(words[1]), tokens[2:]
        elif words and (found := _SEAT.fullmatch(words[0])):
            self.number, rest = int(found.group(1)), tokens[1:]
        else:
            named = tokens[1:2] if words[:1] in (["seat"], ["s"]) else tokens[:1]
            shown = f" ({quoted(named[0])} is not a seat)" if named else ""
            raise DealerError(
                f"start a seat with its number ({PAIGOW_SEATS.start}-{PAIGOW_SEATS.stop - 1})"
                f"{shown}, e.g. '3 As Kd 9c 7h 5s 3d 2c base 25'"
            )
        return rest

    def _token(self, token: str, word: str) -> None:
        if self.patron_next:
            self.patron, self.patron_next = patron_id(token), False
            return
        amount = _AMOUNT.fullmatch(word)
        if self.pending is not None and not amount:
            if not self.soft:
                if word not in WAGER_NAMES and word not in ON_DEALER:  # say what is wrong
                    money(token, f"{self.pending.words} wager")
                raise DealerError(f"give the {self.pending.words} wager's amount")
            self.pending = None
        if amount and self.pending is not None:
            self._amount(self.pending, amount.group(1))
        elif amount:
            if not (self.hand_known or any(self.groups)):
                raise DealerError(
                    f"amount {token!r} before the hand: give the cards first, or say which "
                    f"wager, e.g. 'base {token}'"
                )
            if Wager.BASE in self.amounts:
                raise DealerError(f"amount {token!r}: say which wager, e.g. 'treasure {token}'")
            self._amount(Wager.BASE, amount.group(1))
        elif word in WAGER_NAMES:
            self.pending, self.soft = WAGER_NAMES[word], False
        elif word in ON_DEALER:
            declared = ON_DEALER[word]
            self.on_dealer.add(declared)
            if declared not in self.amounts:
                self.pending, self.soft = declared, True
        elif (glued := _GLUED.fullmatch(word)) and glued.group(1) in WAGER_NAMES:
            self._amount(WAGER_NAMES[glued.group(1)], glued.group(2))
        elif (glued := _GLUED.fullmatch(word)) and glued.group(1) in ON_DEALER:
            declared = ON_DEALER[glued.group(1)]
            self.on_dealer.add(declared)
            self._amount(declared, glued.group(2))
        elif word in ACROSS:
            wager = ACROSS[word]
            raise DealerError(
                f"{wager.words.capitalize()} has no wager of its own: it is {_paid(wager)}"
            )
        elif word in HIGH:
            self._mark_high()
        elif word in LOW:
            if len(self.groups) > 1 and self.groups[-1]:
                raise DealerError("one '/' (or 'low') between the high and the low hand")
            if len(self.groups) == 1:
                self.groups.append([])
        elif word in HOUSE_WAY:
            self.house_way = True
        elif word == "patron":
            if self.patron is not None:
                raise DealerError("the patron id is given twice")
            self.patron_next = True
        else:
            self._card(token, word)

    def _amount(self, wager: Wager, amount: str) -> None:
        if wager in self.amounts:
            raise DealerError(f"the {wager.words} wager is given twice")
        self.amounts[wager] = amount if "." in amount else int(amount)
        self.pending = None

    def _mark_high(self) -> None:
        if any(self.groups) or len(self.groups) > 1:
            raise DealerError("'high' comes before the five cards of the high hand")
        self.high = True

    def _card(self, token: str, word: str) -> None:
        try:
            parse_cards(token)
        except CardError:
            if word.isalpha() and len(word) >= 3 and word != "joker":
                raise DealerError(
                    f"unknown word {token!r}: wagers are {', '.join(w.typed for w in PLACED)} "
                    f"(each with an amount) and {' and '.join(DECLARING)}; a hand is seven "
                    "cards, or high … / low …"
                ) from None
        self.groups[-1].append(token)

    def _hand(self) -> dict[str, str] | None:
        if len(self.groups) > 1 or self.high:
            if self.house_way:
                raise DealerError("give seven cards for the House Way, or high / low: not both")
            if len(self.groups) == 1:
                raise DealerError("the low hand is missing: high … / low …")
            return {"high": " ".join(self.groups[0]), "low": " ".join(self.groups[1])}
        if self.groups[0]:
            return {"cards": " ".join(self.groups[0])}
        if self.house_way:
            raise DealerError("the House Way sets seven cards: give them")
        return None

    def _wagers(self) -> dict[str, Any] | None:
        if not self.amounts and not self.on_dealer:
            return None
        wagers: dict[str, Any] = {w.value: a for w, a in self.amounts.items()}
        return wagers | {w.on_dealer_key: True for w in DECLARABLE if w in self.on_dealer}


def parse_seat_line(line: str, *, with_number: bool = True, hand_known: bool = False) -> SeatParts:
    """Read one typed seat line (or the rest of a seat being entered, `with_number=False`).
    A bare amount is the base wager only once the hand is known (`hand_known`, or given
    earlier on the line). Raises DealerError naming what is wrong; the cards themselves are
    checked later, by the round file's rules."""
    return _LineReader(with_number, hand_known).read(line)


def _wager_text(wagers: SeatWagers) -> str:
    parts = []
    for wager in PLACED:
        if amount := wagers.amount(wager):
            on = " on the dealer's hand" if wager in wagers.on_dealer else ""
            parts.append(f"{wager.words} {fmt_money(amount)}{on}")
    return ", ".join(parts)


def _cards(cards: tuple[Card, ...] | None) -> list[str] | None:
    return None if cards is None else [str(c) for c in cards]


FOUL_RULES = {
    "forfeit": "the table's foul rule forfeits the base wager",
    "reset": "the table's foul rule re-sets it by the House Way",
}
"""What each of the profile's `foul` rules does to a seat whose own setting fouls."""


@dataclass(frozen=True)
class HandsSet:
    """Seven cards as set on the layout: the high and the low hand (their cards in the order
    they compare, and their names), the House Way clause that set them (None: the player's own
    setting), and whether the player's own setting fouls."""

    high: HandValue
    low: HandValue
    rule: str | None = None
    foul: bool = False

    @classmethod
    def by_house_way(cls, cards: tuple[Card, ...], way: HouseWay, wheel: str) -> HandsSet:
        """Seven cards set by the House Way (the dealer's, or a seat that asks for it)."""
        setting = set_hand(cards, way)
        return cls(rank_high(setting.high, wheel), rank_low(setting.low), setting.rule)

    @classmethod
    def by_player(cls, high: tuple[Card, ...], low: tuple[Card, ...], wheel: str) -> HandsSet:
        """The player's own setting, and whether it fouls."""
        ranked_high, ranked_low = rank_high(high, wheel), rank_low(low)
        return cls(ranked_high, ranked_low, None, is_foul(ranked_high.key, ranked_low.key))

    def text(self) -> str:
        """`J♠ J♦ 8♠ 5♦ 3♥ / A♣ Q♥ (pair of jacks, 8-5-3 kickers / ace-queen)`."""
        return (
            f"{symbols(self.high.cards)} / {symbols(self.low.cards)} "
            f"({self.high.description} / {self.low.description})"
        )

    def to_dict(self) -> dict[str, Any]:
        """JSON form: `high` and `low` (each a ranked hand: category, cards, description), the
        House Way clause that set them (`rule`, null for the player's own) and `foul`."""
        return {
            "high": self.high.to_dict(),
            "low": self.low.to_dict(),
            "rule": self.rule,
            "foul": self.foul,
        }


@dataclass(frozen=True)
class EnteredSeat:
    """A seat checked and in the round: as a round file states it, as checked, and its hands
    as set; and where it replaced a seat of the same number, that seat and its place among
    the seats entered (`undo` puts it back)."""

    raw: Mapping[str, Any]
    seat: SeatInput
    hands: HandsSet
    replaced: tuple[int, EnteredSeat] | None = None

    def line(self) -> str:
        """`seat 3: J♠ J♦ 8♠ 5♦ 3♥ / A♣ Q♥ (pair of jacks, … / ace-queen) by the House Way;
        base $25, treasure $5` (`seat 3, patron P-123: …`); a foul said on the line."""
        who = f"seat {self.seat.seat}"
        if self.seat.patron is not None:
            who += f", patron {self.seat.patron}"
        how = "by the House Way" if self.hands.rule is not None else "own setting"
        if self.hands.foul:
            how += ", FOULS (the high hand does not outrank the low)"
        return f"{who}: {self.hands.text()} {how}; {_wager_text(self.seat.wagers)}"

    def entered(self, profile: Profile) -> tuple[str, ...]:
        """What the table answers when the seat is entered: its line, then the House Way clause
        that set it, or what the table's foul rule does to a foul."""
        if self.hands.rule is not None:
            return (self.line(), f"  {self.hands.rule}")
        if self.hands.foul:
            return (self.line(), f"  {FOUL_RULES.get(profile.foul, profile.foul)}")
        return (self.line(),)

    def to_dict(self) -> dict[str, Any]:
        """JSON form: seat, cards, own setting (high, low) or House Way, wagers; `patron` only
        when given (as in the round's result)."""
        patron = {} if self.seat.patron is None else {"patron": self.seat.patron}
        return {
            "seat": self.seat.seat,
            **patron,
            "cards": _cards(self.seat.cards),
            "high": _cards(self.seat.high),
            "low": _cards(self.seat.low),
            "house_way": self.seat.house_way,
            "set": self.hands.to_dict(),
            "wagers": self.seat.wagers.to_dict(),
        }


@dataclass(frozen=True)
class SeatDraft:
    """A seat being typed in over several lines: its number and the parts given so far."""

    number: int
    hand: Mapping[str, str] | None = None
    wagers: Mapping[str, Any] | None = None
    patron: str | None = None

    @property
    def raw(self) -> dict[str, Any]:
        """The parts given so far, as a round file's seat mapping."""
        raw: dict[str, Any] = {"seat": self.number, **(self.hand or {})}
        if self.wagers is not None:
            raw["wagers"] = dict(self.wagers)
        if self.patron is not None:
            raw["patron"] = self.patron
        return raw

    @property
    def complete(self) -> bool:
        """True once the hand and the wagers are given."""
        return self.hand is not None and self.wagers is not None

    def missing(self) -> str:
        """`cards` or `wagers`: what to ask for next."""
        return "cards" if self.hand is None else "wagers"


@dataclass(frozen=True)
class SettledRound:
    """A round settled in this session."""

    number: int
    ruling_id: int
    seats: tuple[int, ...]
    total_net: Decimal
    signoff_seats: tuple[int, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """JSON form: round, ruling_id, seats, total_net (the players'), house (its result),
        signoff_seats (the seats whose pay needs a supervisor's sign-off)."""
        return {
            "round": self.number,
            "ruling_id": self.ruling_id,
            "seats": list(self.seats),
            "total_net": money_json(self.total_net),
            "house": money_json(-self.total_net),
            "signoff_seats": list(self.signoff_seats),
        }

    def line(self) -> str:
        """One line of `history`: the round, its ruling, seats, the result, and any sign-off
        it needs (as the round was settled: a supervisor signs it at the audit log)."""
        line = (
            f"round {self.number}: ruling #{self.ruling_id}, seats "
            f"{' '.join(map(str, self.seats))}, players {fmt_money(self.total_net, signed=True)}, "
            f"house {fmt_money(-self.total_net, signed=True)}"
        )
        if not self.signoff_seats:
            return line
        seats = " ".join(map(str, self.signoff_seats))
        return f"{line}; sign-off needed (seat {seats}): dealer audit signoff {self.ruling_id}"


@dataclass(frozen=True)
class TableReply(Reply):
    """What the table answers to one line. `kind`: entered, error, undone, show, history, help,
    settle (a round to settle at the table's meters and record: `round`, typed as `typed`; the
    desk rules it, then calls `TableSession.recorded`), quit, or nothing (a blank or comment
    line). `data` is the JSON form of show and history."""

    data: Mapping[str, Any] | None = None
    round: Mapping[str, Any] | None = None
    typed: str = ""


@dataclass(frozen=True)
class TableSession:
    """The state of a live table: the round being entered and the rounds settled; the House
    Way the table sets hands by (the profile's, read once for the session)."""

    profile: Profile
    table: str
    dealer: tuple[Card, ...] | None = None
    dealer_text: str = ""
    dealer_set: HandsSet | None = None
    seats: tuple[EnteredSeat, ...] = ()
    draft: SeatDraft | None = None
    history: tuple[SettledRound, ...] = ()
    quitting: bool = False
    left: bool = False
    way: HouseWay = field(default=None, repr=False, compare=False)  # type: ignore[assignment]

    def __post_init__(self) -> None:
        if self.way is None:
            object.__setattr__(self, "way", load_house_way(self.profile.house_way))

    @property
    def round_number(self) -> int:
        """The number of the round being entered (1 for the session's first)."""
        return len(self.history) + 1

    @property
    def over(self) -> bool:
        """True once the table has quit."""
        return self.left

    @property
    def in_progress(self) -> bool:
        """True while a round has entries not yet settled."""
        return self.dealer is not None or bool(self.seats) or self.draft is not None

    @property
    def prompt(self) -> str:
        """What the session waits for."""
        if self.dealer is None:
            return f"round {self.round_number}, dealer's cards> "
        if self.draft is not None:
            return f"seat {self.draft.number} {self.draft.missing()}> "
        return "seat (or settle)> "

    def pending(self) -> str:
        """What an unsettled round holds: `the dealer's cards and 2 seats`."""
        parts = ["the dealer's cards"] if self.dealer is not None else []
        count = len(self.seats) + (self.draft is not None)
        if count:
            parts.append(f"{count} seat" + ("s" if count > 1 else ""))
        return " and ".join(parts)

    def round_raw(self) -> dict[str, Any]:
        """The round entered so far, as a round file states it (what `dealer round` reads)."""
        return {
            "table": self.table,
            "dealer": self.dealer_text,
            "seats": [dict(s.raw) for s in self.seats],
        }

    def step(self, line: str) -> tuple[TableSession, TableReply]:
        """Take one typed line; the next state and the reply."""
        text = line.strip()
        if not text or text.startswith("#"):
            return self, TableReply(ReplyKind.NOTHING)
        word, *rest_of_line = text.split(None, 1)
        command, rest = word.lower(), "".join(rest_of_line)
        if command in ("quit", "exit"):
            return self._quit()
        state = replace(self, quitting=False) if self.quitting else self
        try:
            if command in COMMANDS:
                return state._command(command, rest.strip())
            if state.dealer is None:
                if _SEAT.fullmatch(command) or command == "seat":
                    raise DealerError(state._dealer_first())
                return state._dealer(text)
            return state._seat(text)
        except DealerError as exc:
            problems = exc.problems if isinstance(exc, RoundError) else [str(exc)]
            return state, TableReply(ReplyKind.ERROR, ("; ".join(problems),))

    def recorded(self, ruling_id: int, ruling: Ruling) -> TableSession:
        """The round of the last reply was ruled and recorded as `ruling_id`; start the next."""
        return self.settled(ruling_id, ruling.result)

    def final(self) -> Ruling | None:
        """Nothing is left to record at the end; a round dealt and not settled is refused
        (`DealerError`: nothing is recorded for it), after quit as at the end of input."""
        if not self.in_progress:
            return None
        number, pending = self.round_number, self.pending()
        if self.left:
            raise DealerError(
                f"round {number} was not settled ({pending}): nothing is recorded for it"
            )
        raise DealerError(
            f"the input ended with round {number} not settled ({pending}): "
            "nothing is recorded for it"
        )

    def settled(self, ruling_id: int, result: Mapping[str, Any]) -> TableSession:
        """The round was ruled and recorded as `ruling_id` (`result`: its JSON); start the next."""
        needed = result.get("signoff_required")
        done = SettledRound(
            self.round_number,
            ruling_id,
            tuple(s.seat.seat for s in self.seats),
            Decimal(str(result.get("total_net", 0))),
            tuple(needed.get("seats", ())) if isinstance(needed, Mapping) else (),
        )
        return TableSession(self.profile, self.table, history=(*self.history, done), way=self.way)

    # -- the parts ----------------------------------------------------------------------

    def _quit(self) -> tuple[TableSession, TableReply]:
        if not self.in_progress or self.quitting:
            return replace(self, left=True), TableReply(ReplyKind.QUIT)
        return replace(self, quitting=True), TableReply(
            ReplyKind.ERROR,
            (
                f"round {self.round_number} is not settled ({self.pending()}): settle it, "
                "or quit again to leave it unrecorded",
            ),
        )

    def _command(self, command: str, rest: str) -> tuple[TableSession, TableReply]:
        if command == "dealer":
            if not rest:
                raise DealerError("give the dealer's seven cards: dealer As Kd 9c 7h 5s 3d 2c")
            return self._dealer(rest)
        if rest:
            raise DealerError(f"{command} takes nothing after it")
        if command in ("help", "?"):
            return self, TableReply(ReplyKind.HELP, HELP)
        if command == "show":
            return self, self._show()
        if command == "history":
            return self, self._history()
        if command == "undo":
            return self._undo()
        return self, self._settle()

    def _dealer_first(self) -> str:
        """Why a seat line is refused before the dealer's cards: every round starts with them
        (after a settle, the next round has begun)."""
        if self.history:
            return (
                f"round {self.round_number} is a new round: it starts with the dealer's cards "
                "(type them, then the seats)"
            )
        return "a round starts with the dealer's cards: type them, then the seats"

    def _dealer(self, text: str) -> tuple[TableSession, TableReply]:
        cards = read_dealer(text, [s.seat for s in self.seats])
        again = self.dealer is not None
        hands = HandsSet.by_house_way(cards, self.way, self.profile.wheel)
        state = replace(self, dealer=cards, dealer_text=text, dealer_set=hands)
        what = "dealer's cards corrected" if again else "dealer"
        return state, TableReply(ReplyKind.ENTERED, (f"{what}: {hands.text()}", f"  {hands.rule}"))

    def _seat(self, text: str) -> tuple[TableSession, TableReply]:
        draft = self.draft
        parts = parse_seat_line(
            text,
            with_number=draft is None,
            hand_known=draft is not None and draft.hand is not None,
        )
        if draft is None:
            assert parts.number is not None
            draft = SeatDraft(parts.number)
        for name in ("hand", "wagers", "patron"):
            if getattr(parts, name) is not None and getattr(draft, name) is not None:
                what = {"hand": "cards are", "wagers": "wagers are", "patron": "patron id is"}
                raise DealerError(
                    f"seat {draft.number}: its {what[name]} already given (undo to start the "
                    "seat again)"
                )
        draft = SeatDraft(
            draft.number,
            parts.hand if parts.hand is not None else draft.hand,
            parts.wagers if parts.wagers is not None else draft.wagers,
            parts.patron if parts.patron is not None else draft.patron,
        )
        assert self.dealer is not None
        # a seat typed again replaces the one entered: checked against the other seats only
        at = next((i for i, s in enumerate(self.seats) if s.seat.seat == draft.number), None)
        others = tuple(s for s in self.seats if s.seat.seat != draft.number)
        earlier = [s.seat for s in others]
        if not draft.complete:
            check_seat(draft.raw, self.profile, self.dealer, earlier)
            state = replace(self, draft=draft)
            again = "" if at is None else f" (it replaces seat {draft.number} as entered)"
            return state, TableReply(
                ReplyKind.ENTERED, (f"seat {draft.number}: now its {draft.missing()}{again}",)
            )
        seat = read_seat(draft.raw, self.profile, self.dealer, earlier)
        if seat.high is not None and seat.low is not None:
            hands = HandsSet.by_player(seat.high, seat.low, self.profile.wheel)
        else:
            hands = HandsSet.by_house_way(seat.cards, self.way, self.profile.wheel)
        replaced = None if at is None else (at, self.seats[at])
        entered = EnteredSeat(draft.raw, seat, hands, replaced)
        state = replace(self, seats=(*others, entered), draft=None)
        said = entered.entered(self.profile)
        if replaced is not None:
            said = (f"replaced {said[0]} (undo puts the earlier one back)", *said[1:])
        return state, TableReply(ReplyKind.ENTERED, said)

    def _undo(self) -> tuple[TableSession, TableReply]:
        if self.draft is not None:
            return replace(self, draft=None), TableReply(
                ReplyKind.UNDONE, (f"undone: seat {self.draft.number} (not finished)",)
            )
        if self.seats:
            last, seats = self.seats[-1], self.seats[:-1]
            if last.replaced is None:
                return replace(self, seats=seats), TableReply(
                    ReplyKind.UNDONE, (f"undone: {last.line()}",)
                )
            at, before = last.replaced
            seats = (*seats[:at], before, *seats[at:])
            return replace(self, seats=seats), TableReply(
                ReplyKind.UNDONE,
                (f"undone: seat {before.seat.seat} as retyped; back: {before.line()}",),
            )
        if self.dealer is not None:
            return replace(self, dealer=None, dealer_text="", dealer_set=None), TableReply(
                ReplyKind.UNDONE, (f"undone: dealer {symbols(self.dealer)}",)
            )
        raise DealerError(
            "nothing to undo in this round (a settled round is on the record: a supervisor "
            "voids it)"
        )

    def _settle(self) -> TableReply:
        if self.dealer is None:
            raise DealerError("nothing to settle: give the dealer's cards and the seats first")
        if self.draft is not None:
            raise DealerError(
                f"seat {self.draft.number} is not finished: give its {self.draft.missing()}, "
                "or undo it"
            )
        if not self.seats:
            raise DealerError("nothing to settle: no seat is in yet")
        raw = self.round_raw()
        typed = dump_yaml(raw)
        return TableReply(ReplyKind.SETTLE, round=raw, typed=typed)

    def _show(self) -> TableReply:
        lines = [f"round {self.round_number} at table {self.table}"]
        dealt = self.dealer_set
        lines.append(f"dealer: {dealt.text()}" if dealt is not None else "dealer: (not yet)")
        lines += [s.line() for s in self.seats]
        if self.draft is not None:
            lines.append(
                f"seat {self.draft.number}: being entered, its {self.draft.missing()} to come"
            )
        if self.dealer is not None and not self.seats and self.draft is None:
            lines.append("no seat yet")
        data = {
            "round": self.round_number,
            "table": self.table,
            "dealer": _cards(self.dealer),
            "dealer_set": None if dealt is None else dealt.to_dict(),
            "seats": [s.to_dict() for s in self.seats],
            "entering": self.draft.raw if self.draft is not None else None,
        }
        return TableReply(ReplyKind.SHOW, tuple(lines), data=data)

    def _history(self) -> TableReply:
        data = {"history": [r.to_dict() for r in self.history]}
        if not self.history:
            return TableReply(
                ReplyKind.HISTORY, ("no round settled yet in this session",), data=data
            )
        return TableReply(ReplyKind.HISTORY, tuple(r.line() for r in self.history), data=data)
