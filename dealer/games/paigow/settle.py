"""The base wager of Emperor's Challenge Exposed: copies, fouls and the dealer-pai-gow options.

RULINGS §1.3: high is compared with high and low with low; a copy (tie) goes to the dealer.
Both player hands better: win; one: push; none: lose. The table's `dealer_pai_gow` option
decides what a dealer pai gow does; its `foul` option what a fouled hand does.

Every hand is also judged against the exposed dealer hand: the ruling records what the best
setting of the same seven cards would have netted, and for a hand the player set themselves
the House Way's too (`best_reply`), and says so when their setting fell short of the best.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from dealer.games.paigow.house_way import HouseWay, Setting, set_hand
from dealer.games.paigow.ranking import HandValue, is_foul, pai_gow_high, rank_high, rank_low
from dealer.kernel.cards import RANK_NAMES, Card
from dealer.kernel.money import fmt_money, money_json

if TYPE_CHECKING:
    from dealer.games.paigow.best_reply import ReplyNets


class Outcome(StrEnum):
    """A base wager's outcome, in the order of the player hands that beat the dealer's: none
    (lose), one (push), both (win)."""

    LOSE = "lose"
    PUSH = "push"
    WIN = "win"


@dataclass(frozen=True)
class BaseRules:
    """The table settings the base wager depends on."""

    wheel: str = "second-highest"
    dealer_pai_gow: str = "half-pay"
    foul: str = "forfeit"

    @staticmethod
    def of(settings: Mapping[str, Any]) -> BaseRules:
        """The base wager's settings as a ruling recorded them (`wheel`, `dealer_pai_gow`,
        `foul`), each missing one at its default."""
        default = BaseRules()
        return BaseRules(
            str(settings.get("wheel", default.wheel)),
            str(settings.get("dealer_pai_gow", default.dealer_pai_gow)),
            str(settings.get("foul", default.foul)),
        )


@dataclass(frozen=True)
class SetHand:
    """A seven-card hand as set on the layout, and who set it."""

    high: tuple[Card, ...]
    low: tuple[Card, ...]
    set_by: str  # "player" or "house-way"
    setting: Setting | None = None

    @property
    def cards(self) -> tuple[Card, ...]:
        """All seven cards."""
        return self.high + self.low


def player_sets(high: Sequence[Card], low: Sequence[Card]) -> SetHand:
    """A hand the player set themselves."""
    return SetHand(tuple(high), tuple(low), "player")


def house_way_sets(cards: Sequence[Card], way: HouseWay) -> SetHand:
    """A hand set by the House Way (the dealer's, or a player's who asked for it)."""
    setting = set_hand(cards, way)
    return SetHand(setting.high, setting.low, "house-way", setting)


def _hand_word(side: str, player: HandValue, dealer: HandValue) -> tuple[bool, str]:
    if player.key > dealer.key:
        return True, f"{side}: player {player.description} beats dealer {dealer.description}"
    if player.key == dealer.key:
        return False, f"{side}: copy ({player.description}) — a copy goes to the dealer"
    return False, f"{side}: dealer {dealer.description} beats player {player.description}"


@dataclass(frozen=True)
class BaseSettlement:
    """The ruling on one base wager."""

    outcome: Outcome
    wager: Decimal
    net: Decimal
    odds: str
    foul: bool
    dealer: SetHand
    player: SetHand
    dealer_high: HandValue
    dealer_low: HandValue
    player_high: HandValue
    player_low: HandValue
    dealer_pai_gow: int | None
    reasons: tuple[str, ...]
    reply: ReplyNets | None = None
    """What the best setting and the House Way's would have netted (a hand the House Way set
    is its own House Way's: only the best's is recorded)."""

    def to_dict(self) -> dict[str, object]:
        """CONTRACT keys `outcome`, `net`, `foul`, with the hands and the arithmetic; the
        player's `best_net`, and `house_way_net` for a hand they set themselves."""
        reply: dict[str, object] = {}
        if self.reply is not None:
            reply["best_net"] = money_json(self.reply.best)
            if self.player.set_by == "player":
                reply["house_way_net"] = money_json(self.reply.house_way)
        return {
            "outcome": self.outcome,
            "net": money_json(self.net),
            "foul": self.foul,
            "wager": money_json(self.wager),
            "odds": self.odds,
            "dealer_pai_gow": RANK_NAMES[self.dealer_pai_gow] + "-high"
            if self.dealer_pai_gow
            else None,
            "player": {
                "set_by": self.player.set_by,
                "high": self.player_high.to_dict(),
                "low": self.player_low.to_dict(),
                **reply,
            },
            "dealer": {
                "high": self.dealer_high.to_dict(),
                "low": self.dealer_low.to_dict(),
                "rule": self.dealer.setting.rule if self.dealer.setting else None,
            },
        }

    def explanation(self) -> list[str]:
        """Why the wager won, pushed or lost, and the arithmetic."""
        return list(self.reasons)


def settle_base(
    dealer_cards: Sequence[Card],
    player: SetHand,
    wager: Decimal,
    way: HouseWay,
    rules: BaseRules,
) -> BaseSettlement:
    """Settle one base wager against the dealer's hand, set by the House Way."""
    d_setting = set_hand(dealer_cards, way)
    dealer = SetHand(d_setting.high, d_setting.low, "house-way", d_setting)
    reasons = [f"dealer set by {d_setting.rule}"]
    d_high, d_low = rank_high(dealer.high, rules.wheel), rank_low(dealer.low)
    pg = pai_gow_high(dealer_cards)
    if pg:
        reasons.append(f"dealer has a pai gow, {RANK_NAMES[pg]}-high")

    p_high, p_low = rank_high(player.high, rules.wheel), rank_low(player.low)
    fouled = is_foul(p_high.key, p_low.key)

    def done(outcome: Outcome, net: Decimal, odds: str) -> BaseSettlement:
        reasons.append(f"base wager {fmt_money(wager)}: {outcome}, {odds}: {fmt_money(net, True)}")
        from dealer.games.paigow.best_reply import reply_nets

        reply = reply_nets(
            dealer_cards, d_setting, player.cards, wager, way, rules.wheel, rules.dealer_pai_gow
        )
        if player.set_by == "player" and net < reply.best:
            reasons.append(reply.shortfall())
        return BaseSettlement(
            outcome,
            wager,
            net,
            odds,
            fouled,
            dealer,
            player,
            d_high,
            d_low,
            p_high,
            p_low,
            pg,
            tuple(reasons),
            reply,
        )

    if fouled:
        reasons.append(
            f"foul: the player's high hand ({p_high.description}) does not outrank the low "
            f"hand ({p_low.description})"
        )
        if rules.foul == "forfeit":
            reasons.append("foul procedure 'forfeit': the base wager loses")
            return done(Outcome.LOSE, -wager, "foul forfeits")
        player = house_way_sets(player.cards, way)
        assert player.setting is not None
        reasons.append(f"foul procedure 'reset': re-set by {player.setting.rule}")
        p_high, p_low = rank_high(player.high, rules.wheel), rank_low(player.low)

    high_won, high_line = _hand_word("high", p_high, d_high)
    low_won, low_line = _hand_word("low", p_low, d_low)
    reasons += [high_line, low_line]

    if rules.dealer_pai_gow == "push-king-or-less" and pg and pg <= 13:
        reasons.append("dealer pai gow king-high or less: every base wager pushes")
        return done(Outcome.PUSH, Decimal(0), "push (dealer pai gow)")
    if rules.dealer_pai_gow == "push-ace-high" and pg == 14:
        reasons.append("dealer ace-high pai gow: every base wager pushes")
        return done(Outcome.PUSH, Decimal(0), "push (dealer pai gow)")
    if high_won and low_won:
        if rules.dealer_pai_gow == "half-pay" and pg:
            reasons.append("both hands win against a dealer pai gow: pays 1 to 2")
            return done(Outcome.WIN, wager / 2, "1 to 2")
        return done(Outcome.WIN, wager, "1 to 1")
    if high_won or low_won:
        return done(Outcome.PUSH, Decimal(0), "one hand each")
    return done(Outcome.LOSE, -wager, "both hands lose")
