"""Text for people: cards with suit symbols, hands side by side, the reasons underneath."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from decimal import Decimal
from typing import Any

from dealer.kernel.cards import symbol
from dealer.kernel.money import fmt_money
from dealer.kernel.ruling import Ruling


def pretty(cards: Iterable[str]) -> str:
    """Canonical card strings as a person reads them: `A♠ 10♦ JK`."""
    return " ".join(symbol(c) for c in cards)


def table(rows: Sequence[Sequence[Any]], headers: Sequence[str]) -> str:
    """One shared table style (tabulate loads only when a person is shown a table); a cell's
    control characters are shown escaped, so no stored text can act on the terminal or break
    a row."""
    from tabulate import tabulate

    from dealer.kernel.text import printable

    shown = [[printable(str(cell)) for cell in row] for row in rows]
    return tabulate(shown, headers=headers, tablefmt="simple", disable_numparse=True)


def reasons(ruling: Ruling) -> str:
    """The explanation, one reason a line."""
    return "\n".join(f"  · {line}" for line in ruling.explanation)


def verdict(winners: Sequence[int], shared: str = "splits") -> str:
    """What a winner's row says: `wins`, or `shared` when several win (`splits` the pot, a
    `tie`)."""
    return shared if len(winners) > 1 else "wins"


def hand_line(hand: Mapping[str, Any]) -> str:
    """`A♠ K♠ Q♠ J♠ 10♠  royal flush`."""
    return f"{pretty(hand['cards'])}  {hand['description']}"


def rank_text(ruling: Ruling) -> str:
    """`dealer paigow rank`."""
    return f"{hand_line(ruling.result)}\n{reasons(ruling)}"


def compare_text(ruling: Ruling) -> str:
    """`dealer paigow compare`."""
    hands = ruling.result["hands"]
    winner = ruling.result["winner"]
    rows = [
        [f"hand {i + 1}", pretty(h["cards"]), h["description"], "wins" if winner == i else ""]
        for i, h in enumerate(hands)
    ]
    return f"{table(rows, ['', 'cards', 'hand', ''])}\n{reasons(ruling)}"


def setting_rows(high: Mapping[str, Any], low: Mapping[str, Any]) -> list[list[str]]:
    """High and low hands side by side."""
    return [
        [pretty(high["cards"]), pretty(low["cards"])],
        [high["description"], low["description"]],
    ]


def set_text(ruling: Ruling) -> str:
    """`dealer paigow set`."""
    r = ruling.result
    body = table(setting_rows(r["high_hand"], r["low_hand"]), ["high (5 cards)", "low (2 cards)"])
    return f"{body}\n  {r['rule']}"


def bonus_text(ruling: Ruling) -> str:
    """`dealer paigow bonus`: the events and the row of each posted table."""
    r = ruling.result
    rows = [
        [wager.replace("_", " "), row["paytable"], row["row"] or "-", row["pays"] or "loses"]
        for wager, row in r["paytable_rows"].items()
    ]
    events = ", ".join(r["events"]) or "none"
    head = f"{pretty(r['cards'])}  events: {events}"
    return f"{head}\n{table(rows, ['wager', 'pay table', 'row', 'pays'])}"


def settle_text(ruling: Ruling) -> str:
    """`dealer paigow settle`."""
    base = ruling.result["base"]
    rows = [
        ["dealer", pretty(base["dealer"]["high"]["cards"]), pretty(base["dealer"]["low"]["cards"])],
        ["", base["dealer"]["high"]["description"], base["dealer"]["low"]["description"]],
        ["player", pretty(base["player"]["high"]["cards"]), pretty(base["player"]["low"]["cards"])],
        ["", base["player"]["high"]["description"], base["player"]["low"]["description"]],
    ]
    out = [table(rows, ["", "high", "low"]), reasons(ruling)]
    if "patron" in ruling.result:
        out.insert(0, f"seat {ruling.seat}, patron {ruling.result['patron']}")
    wagers = [["base", _amount(base["wager"]), base["outcome"], base["odds"], _signed(base["net"])]]
    for bonus in ruling.result["bonuses"]:
        wagers.append(
            [
                bonus["wager"],
                _amount(bonus.get("amount", "")),
                bonus.get("event") or "no event",
                bonus.get("pays", ""),
                _signed(bonus["net"]),
            ]
        )
    wagers.append(["total", "", "", "", _signed(ruling.result["total_net"])])
    out.append(table(wagers, ["wager", "amount", "result", "pays", "net"]))
    return "\n".join(out)


def _signed(value: float | int) -> str:
    """A JSON net as money: `+$10`, `-$12.50`, `$0` (the display every command uses)."""
    return fmt_money(Decimal(str(value)), signed=True)


def _amount(value: float | int | str) -> str:
    """A JSON amount as money: `$25`, `$7.35`; empty where there is none."""
    return "" if value == "" else fmt_money(Decimal(str(value)))


def round_text(ruling: Ruling) -> str:
    """`dealer round` and `dealer demo`: one line per seat, the dealer, then the reasons; a
    column for the base wager's result and net, then one for each bonus wager (the registry's,
    `dealer.games.paigow.pay.Wager`, by its column label)."""
    from dealer.desk.paigow import wagers

    base_wager, *bonuses = wagers()
    r = ruling.result
    dealer = r["dealer"]
    rows = []
    for seat in r["seats"]:
        base = seat["base"]
        nets: dict[str, float] = {}
        for bonus in seat["bonuses"]:
            nets[bonus["wager"]] = nets.get(bonus["wager"], 0) + bonus["net"]
        rows.append(
            [
                f"{seat['seat']} {seat['patron']}" if "patron" in seat else seat["seat"],
                pretty(base["player"]["high"]["cards"]),
                pretty(base["player"]["low"]["cards"]),
                f"{base['outcome']} ({base['odds']})",
                _signed(base["net"]),
                *[_signed(nets[w]) if w in nets else "" for w in bonuses],
                _signed(seat["total_net"]),
            ]
        )
    columns = [w.terms.column for w in bonuses]
    headers = ["seat", "high", "low", base_wager.terms.column, "net", *columns, "total"]
    lines = [
        f"table {r['table'] or '-'}   dealer: {pretty(dealer['high']['cards'])} / "
        f"{pretty(dealer['low']['cards'])}   ({dealer['high']['description']}; "
        f"{dealer['low']['description']})",
        table(rows, headers),
        f"players' total {_signed(r['total_net'])}",
        reasons(ruling),
    ]
    return "\n".join(lines)
