"""Text for people: cards with suit symbols, hands side by side, the reasons underneath."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from dealer.kernel.cards import symbol
from dealer.kernel.money import fmt_money, fmt_terms
from dealer.kernel.ruling import Ruling

if TYPE_CHECKING:
    from dealer.desk.supervision import MeterMove


def pretty(cards: Iterable[str]) -> str:
    """Canonical card strings as a person reads them: `A♠ 10♦ JK`."""
    return " ".join(symbol(c) for c in cards)


SCREEN_LIMIT = 1000
"""The widest screen a table is fitted to (a `COLUMNS` of ten million is read as this)."""


def screen_width(default: int) -> int:
    """The columns a screen is fitted to: `COLUMNS` when it is a whole number, else the
    terminal's when standard output is one, else `default` (a file, a pipe); at most
    `SCREEN_LIMIT`."""
    import os
    import sys

    given = os.environ.get("COLUMNS", "")
    if given.isdecimal() and given.isascii() and 0 < len(given) <= 7 and int(given) > 0:
        return min(int(given), SCREEN_LIMIT)
    try:
        if sys.stdout.isatty():
            return min(os.get_terminal_size(sys.stdout.fileno()).columns, SCREEN_LIMIT)
    except (OSError, ValueError, AttributeError):
        pass
    return default


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
    out = [table(settle_hands(ruling.result), ["", "high", "low"]), reasons(ruling)]
    if "patron" in ruling.result:
        out.insert(0, f"seat {ruling.seat}, patron {ruling.result['patron']}")
    out.append(fitted_wagers(settle_wagers(ruling.result), screen_width(PAYS_WIDTH)))
    return "\n".join(out)


def fitted_wagers(rows: list[list[str]], width: int) -> str:
    """A settled seat's wagers (`WAGER_HEADERS` rows), the last block a dealer pays from: the
    table where it fits `width` columns, else a line a wager, its net first (`treasure $5:
    +$100 · four-of-a-kind · 20 to 1`), and the total, each broken between its parts."""
    drawn = _fitted(table(rows, WAGER_HEADERS), width)
    if drawn is not None:
        return drawn
    lines = []
    for wager, amount, result, pays, net in rows:
        if wager == "total":
            lines.append(f"total {net}")
            continue
        lines += _wrapped(f"{wager} {amount}: ", [p for p in (net, result, pays) if p], width)
    return "\n".join(lines)


WAGER_HEADERS = ["wager", "amount", "result", "pays", "net"]
PAYTABLE_HEADERS = [*WAGER_HEADERS[:3], "pay table, row", *WAGER_HEADERS[3:]]


def settle_hands(result: Mapping[str, Any]) -> list[list[str]]:
    """A settled seat's hands as set: the dealer's and the player's, high and low, with names."""
    base = result["base"]
    return [
        ["dealer", pretty(base["dealer"]["high"]["cards"]), pretty(base["dealer"]["low"]["cards"])],
        ["", base["dealer"]["high"]["description"], base["dealer"]["low"]["description"]],
        ["player", pretty(base["player"]["high"]["cards"]), pretty(base["player"]["low"]["cards"])],
        ["", base["player"]["high"]["description"], base["player"]["low"]["description"]],
    ]


def settle_wagers(result: Mapping[str, Any], paytables: bool = False) -> list[list[str]]:
    """A settled seat's wagers (`WAGER_HEADERS`): each wager, its pay and net, the total; with
    `paytables` (`PAYTABLE_HEADERS`) also the pay table and row each bonus was paid on."""
    base = result["base"]
    where: list[str] = [""] if paytables else []
    rows = [
        [
            "base",
            _amount(base["wager"]),
            base["outcome"],
            *where,
            base["odds"],
            _signed(base["net"]),
        ]
    ]
    for bonus in result["bonuses"]:
        row = f"{bonus.get('paytable', '')}, {bonus['row']}" if bonus.get("row") else "-"
        rows.append(
            [
                bonus["wager"],
                _amount(bonus.get("amount", "")),
                bonus.get("event") or "no event",
                *([row] if paytables else []),
                bonus.get("pays", ""),
                _signed(bonus["net"]),
            ]
        )
    rows.append(["total", "", "", *where, "", _signed(result["total_net"])])
    return rows


def _signed(value: float | int) -> str:
    """A JSON net as money: `+$10`, `-$12.50`, `$0` (the display every command uses)."""
    return fmt_money(Decimal(str(value)), signed=True)


def _amount(value: float | int | str) -> str:
    """A JSON amount as money: `$25`, `$7.35`; empty where there is none."""
    return "" if value == "" else fmt_money(Decimal(str(value)))


PAYS_WIDTH = 80
"""The width a round's pays are fitted to where the output is no terminal (a file, a pipe)."""


def round_text(ruling: Ruling) -> str:
    """`dealer round`, `dealer demo` and a round settled at the live table: the dealer's hand,
    the reasons, each seat's hands and base result, and last what to pay (`round_pays`),
    fitted to the screen: the block the dealer pays from is the one left in view."""
    result = ruling.result
    hands = [
        [
            str(seat["seat"]),
            pretty(seat["base"]["player"]["high"]["cards"]),
            pretty(seat["base"]["player"]["low"]["cards"]),
            f"{seat['base']['outcome']} ({seat['base']['odds']})",
        ]
        for seat in result["seats"]
    ]
    return "\n".join(
        [
            round_dealer(result),
            reasons(ruling),
            table(hands, ["seat", "high", "low", "base wager"]),
            *round_pays(result, screen_width(PAYS_WIDTH)),
        ]
    )


def round_pays(result: Mapping[str, Any], width: int) -> list[str]:
    """What to pay each seat of a round, within `width` columns: a table of seat (and patron,
    where a seat has one), the net of each wager a seat placed (the columns no seat used left
    out) and the seat's total, then the players' total; where even that table is wider than
    the screen, one line a seat (`seat 1 P-123: base +$12.50 · treasure -$5 · total +$7.50`),
    broken between wagers."""
    from dealer.desk.paigow import wagers

    seats = result["seats"]
    nets = [seat_nets(seat) for seat in seats]
    used = [w for w in wagers() if any(w in owed for owed in nets)]
    labels = [w.terms.column for w in used]
    patrons = any("patron" in seat for seat in seats)
    headers = ["seat", *(["patron"] if patrons else []), *labels, "total"]
    rows = [
        [
            str(seat["seat"]),
            *([str(seat.get("patron", ""))] if patrons else []),
            *[_signed(owed[w]) if w in owed else "" for w in used],
            _signed(seat["total_net"]),
        ]
        for seat, owed in zip(seats, nets, strict=True)
    ]
    fitted = _fitted(table(rows, headers), width)
    if fitted is None:
        fitted = "\n".join(
            line
            for seat, owed in zip(seats, nets, strict=True)
            for line in _seat_pays(
                seat, [(w.terms.column, owed[w]) for w in used if w in owed], width
            )
        )
    return [fitted, round_total(result)]


def _seat_pays(seat: Mapping[str, Any], nets: list[tuple[str, float]], width: int) -> list[str]:
    """One seat's pays as lines within `width`: `seat 1 P-123: base +$12.50 · total +$12.50`."""
    who = " ".join(["seat", str(seat["seat"]), *([seat["patron"]] if "patron" in seat else [])])
    paid = [f"{label} {_signed(net)}" for label, net in nets]
    return _wrapped(f"{who}: ", [*paid, f"total {_signed(seat['total_net'])}"], width)


def _fitted(drawn: str, width: int) -> str | None:
    """`drawn` (a table) when every line of it fits `width` columns, else None."""
    return drawn if max(len(line) for line in drawn.splitlines()) <= width else None


def _wrapped(lead: str, parts: Sequence[str], width: int) -> list[str]:
    """`lead` then `parts` joined by ` · `, broken between parts within `width` (indented)."""
    lines, line = [], lead + parts[0]
    for part in parts[1:]:
        if len(line) + 3 + len(part) > width:
            lines.append(line)
            line = " " * 4 + part
        else:
            line += " · " + part
    return [*lines, line]


def round_dealer(result: Mapping[str, Any]) -> str:
    """A round's first line: its table and the dealer's hand as set."""
    dealer = result["dealer"]
    return (
        f"table {result['table'] or '-'}   dealer: {pretty(dealer['high']['cards'])} / "
        f"{pretty(dealer['low']['cards'])}   ({dealer['high']['description']}; "
        f"{dealer['low']['description']})"
    )


def round_total(result: Mapping[str, Any]) -> str:
    """`players' total +$16.50`."""
    return f"players' total {_signed(result['total_net'])}"


def seat_nets(seat: Mapping[str, Any]) -> dict[str, float]:
    """A round's seat's net by each wager it placed (keyed by the wager's name, `base` the base
    wager's), an Envy paid on several seats' hands summed."""
    nets: dict[str, float] = {"base": seat["base"]["net"]}
    for bonus in seat["bonuses"]:
        nets[bonus["wager"]] = nets.get(bonus["wager"], 0) + bonus["net"]
    return nets


def round_seats(result: Mapping[str, Any]) -> tuple[list[str], list[list[str]]]:
    """A round's table of seats (headers, rows): one row per seat, its hands as set, a column
    for the base wager's result and net, then one for each bonus wager (the registry's,
    `dealer.games.paigow.pay.Wager`, by its column label), then the seat's total."""
    from dealer.desk.paigow import wagers

    base_wager, *bonuses = wagers()
    rows = []
    for seat in result["seats"]:
        base = seat["base"]
        nets = seat_nets(seat)
        rows.append(
            [
                f"{seat['seat']} {seat['patron']}" if "patron" in seat else str(seat["seat"]),
                pretty(base["player"]["high"]["cards"]),
                pretty(base["player"]["low"]["cards"]),
                f"{base['outcome']} ({base['odds']})",
                _signed(base["net"]),
                *[_signed(nets[w]) if w in nets else "" for w in bonuses],
                _signed(seat["total_net"]),
            ]
        )
    columns = [w.terms.column for w in bonuses]
    return ["seat", "high", "low", base_wager.terms.column, "net", *columns, "total"], rows


_MONEY_FIELDS = frozenset(
    {"wager", "amount", "value", "previous", "seed", "over", "signoff_over"}
    | {"min", "max", "unit", "cap", "per_hand", "per_round"}
)
"""Keys whose values are amounts (a profile's limits and caps among them); a meter's
`contribution` is a share of the wager, not money, and is shown as the number it is."""
_SIGNED_FIELDS = frozenset({"net", "total_net", "delta", "amount_adjusted", "uncapped_net"})
HASH_SHOWN = 12
"""How many hex digits of a SHA-256 a page shows (the full value is in `--json`)."""


def short_hash(value: str) -> str:
    """`5e5dfc5ecb34…`: a hash shortened for people; the full value stays in `--json`."""
    return value if len(value) <= HASH_SHOWN else value[:HASH_SHOWN] + "…"


def field_text(key: str, value: Any) -> str:
    """One stored value as a person reads it: money as money, cards with suit symbols, a hash
    shortened, a list joined, nothing as `-`."""
    if value is None or value == "" or value == [] or value == {}:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int | float | str) and (key in _MONEY_FIELDS or key in _SIGNED_FIELDS):
        try:
            return fmt_money(Decimal(str(value)), signed=key in _SIGNED_FIELDS)
        except ArithmeticError:
            return str(value)
    if isinstance(value, str) and (key.endswith("sha256") or key in ("hash", "prev_hash")):
        return short_hash(value)
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return pretty(value) if "cards" in key else ", ".join(value)
    return str(value)


def _nested(value: Mapping[str, Any]) -> bool:
    return any(isinstance(item, Mapping | list) for item in value.values())


def _one_line(value: Mapping[str, Any]) -> str:
    """`max 5000, min 5`; `-` when nothing in it is set."""
    shown = [(key.replace("_", " "), field_text(key, item)) for key, item in value.items()]
    if all(text == "-" for _, text in shown):
        return "-"
    return ", ".join(f"{key} {text}" for key, text in shown)


def fields(value: Mapping[str, Any], prefix: str = "") -> list[tuple[str, str]]:
    """A stored mapping as named lines, `(name, text)`: nested names joined by spaces
    (`limits base`), the innermost mapping of plain values on one line (`max 5000, min 5`), a
    list of mappings numbered (`bonuses 1 wager`); no JSON."""
    found: list[tuple[str, str]] = []
    for key, item in value.items():
        name = f"{prefix}{key.replace('_', ' ')}"
        if isinstance(item, Mapping) and item and prefix and not _nested(item):
            found.append((name, _one_line(item)))
        elif isinstance(item, Mapping) and item:
            found += fields(item, f"{name} ")
        elif isinstance(item, list) and item and all(isinstance(i, Mapping) for i in item):
            for number, each in enumerate(item, 1):
                found += fields(each, f"{name} {number} ")
        else:
            found.append((name, field_text(key, item)))
    return found


def _named(name: str, hashed: Any, *notes: Any) -> str:
    extra = [str(n) for n in notes if n]
    if isinstance(hashed, str) and hashed:
        extra.append(f"sha256 {short_hash(hashed)}")
    return name + (f" ({', '.join(extra)})" if extra else "")


def setting_fields(settings: Mapping[str, Any]) -> list[tuple[str, str]]:
    """A ruling's settings as named lines: the House Way (name and version, its file when not
    the shipped one of that name, its hash), the profile (its source, its hash), each pay table
    with its hash, then every other setting as `fields` shows it."""
    rest = dict(settings)
    lines: list[tuple[str, str]] = []
    way, way_sha, way_from = (
        rest.pop(k, None) for k in ("house_way", "house_way_sha256", "house_way_source")
    )
    if isinstance(way, Mapping):
        name = f"{way.get('name')} v{way.get('version')}"
        lines.append(("House Way", _named(name, way_sha, way_from != way.get("name") and way_from)))
    elif way is not None:
        lines.append(("House Way", _named(str(way), way_sha)))
    profile, profile_sha, profile_from = (
        rest.pop(k, None) for k in ("profile", "profile_sha256", "profile_source")
    )
    if profile is not None:
        lines.append(
            ("profile", _named(str(profile), profile_sha, profile_from != profile and profile_from))
        )
    tables, hashes = rest.pop("paytables", None), rest.pop("paytables_sha256", None)
    if isinstance(tables, Mapping):
        known = hashes if isinstance(hashes, Mapping) else {}
        for wager, table_id in tables.items():
            rest.pop(f"{wager}_table", None)
            lines.append(
                (f"pay table {wager.replace('_', ' ')}", _named(str(table_id), known.get(table_id)))
            )
    return lines + fields(rest)


def meter_movement(move: MeterMove) -> str:
    """What moved a meter from its value before to its value after, as signed named terms, so
    that a row of from, moved and to adds up: a first value is the meter's seed (`the
    profile's seed $5,000`, then what the ruling added), a ruling's move its contributions,
    what its hits paid, the reseed after a 100% pay, what a cap gave back and what the meter's
    cap held back; a supervisor's its adjustment (`− adjustment $0.25`)."""
    from dealer.desk.supervision import MoveKind

    zero = Decimal(0)
    if move.kind == MoveKind.ADJUSTMENT:
        delta = (move.value or zero) - (move.previous or zero)
        return fmt_terms([("adjustment", delta)]) or "no change"
    if move.kind == MoveKind.SEED and move.ruling is None:
        return f"seed {_money(move.seed)}, set by hand"
    terms = fmt_terms(
        [
            ("contributions", move.contributions),
            ("hits", -move.paid),
            ("reseed", move.reseed),
            ("back from the cap", move.returned),
            ("held back at the cap", move.capped),
        ]
    )
    if move.kind == MoveKind.SEED:
        return " ".join(part for part in (f"the profile's seed {_money(move.seed)}", terms) if part)
    return terms or "no change"


def meter_mover(move: MeterMove) -> str:
    """Who moved a meter: `ruling #12 (d-104 at PG-3)`, or `supervisor s-1` by hand."""
    record = move.record
    if move.ruling is None:
        return f"{record.role} {record.user_id}"
    return f"ruling #{move.ruling} ({record.user_id} at {record.table_id})"


def _money(value: Decimal | None) -> str:
    return "-" if value is None else fmt_money(value)
