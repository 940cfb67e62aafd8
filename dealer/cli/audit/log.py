"""Reading and keeping the record: `dealer audit list`, `search`, `show`, `export`, `verify`,
`copy`, `browse` and `checkpoint`."""

from __future__ import annotations

import sys
from decimal import Decimal
from pathlib import Path
from typing import Annotated

import typer

from dealer import inputs
from dealer.cli.audit.options import (
    ActionFilter,
    GameFilter,
    IdFilter,
    KindFilter,
    LinkFilter,
    MakerPinOption,
    PatronFilter,
    SeatFilter,
    SinceOption,
    TableFilter,
    UntilOption,
    UserFilter,
    echo_json,
    utc_time,
)
from dealer.cli.common import (
    Composite,
    DbOption,
    JsonFlag,
    PinOption,
    at_desk,
    composed,
    option,
    pin_or_ask,
)
from dealer.cli.render import (
    PAYTABLE_HEADERS,
    fields,
    meter_movement,
    meter_mover,
    pretty,
    round_dealer,
    round_seats,
    round_total,
    screen_width,
    setting_fields,
    settle_hands,
    settle_wagers,
    short_hash,
    table,
)
from dealer.desk import records, supervision
from dealer.desk.context import Desk
from dealer.desk.records import (
    ANY_GAME_SEATS,
    Glance,
    Record,
    RecordFilter,
    RecordKind,
    Reference,
    Shown,
    Status,
)
from dealer.desk.supervision import MeterAction, MeterMove
from dealer.kernel.errors import DealerError, VerificationError
from dealer.kernel.money import fmt_money
from dealer.kernel.ruling import RulingAction
from dealer.kernel.text import printable

app = typer.Typer(
    help="The audit log: every ruling on a tamper-evident record.", no_args_is_help=True
)
"""The group; its own commands are these, then the supervisor's decisions (`decisions`)."""


def _filter(
    ids: list[int] | None,
    table_id: str | None,
    seat: int | None,
    game: str | None,
    user: str | None,
    kind: str | None,
    action: str | None,
    links_to: int | None,
    since: str | None,
    until: str | None,
    patron: str | None,
) -> RecordFilter:
    start, end = inputs.time_range(since, until)
    return RecordFilter(
        ids=tuple(inputs.record_id(i) for i in ids or ()),
        table_id=inputs.table_id(table_id) if table_id else None,
        seat=inputs.seat(seat, ANY_GAME_SEATS) if seat is not None else None,
        game=game,
        user_id=inputs.user_id(user) if user else None,
        kind=kind,
        action=action,
        links_to=inputs.record_id(links_to, "--links-to record") if links_to is not None else None,
        since=start,
        until=end,
        patron=inputs.patron_id(patron) if patron is not None else None,
    )


FILTER = Composite(
    (
        option("table_id", TableFilter),
        option("seat", SeatFilter),
        option("patron", PatronFilter),
        option("since", SinceOption),
        option("until", UntilOption),
        option("game", GameFilter),
        option("user", UserFilter),
        option("kind", KindFilter),
        option("action", ActionFilter),
        option("ids", IdFilter),
        option("links_to", LinkFilter),
    ),
    _filter,
)
"""Which records: by table, seat, patron, time range, game, user, kind, action, id or link."""


def _what(record: Record | Glance) -> str:
    return " ".join(part for part in (record.kind, record.game, record.action) if part)


LIST_WIDTH = 120
"""`audit list` and `search` fit the terminal's width (`COLUMNS`, else the terminal's), this
many columns where there is no terminal: a summary's words are shortened to what is left,
never its money nor the status that leads a record not in effect."""


def _money(value: object, *, signed: bool = False) -> str | None:
    """A stored amount as money, None when it is none (or no number)."""
    try:
        return fmt_money(Decimal(str(value)), signed=signed)
    except ArithmeticError:
        return None


def _first_line(glance: Glance) -> str:
    return glance.first_line if glance.first_line is not None else glance.input_text


def _money_summary(glance: Glance) -> str | None:
    """What a record says at a glance when it is money: a settled seat's outcome and net, a
    round's seats and players' total, a meter's move; None for any other record (its first
    line of explanation, or its input, says what it is)."""
    paigow_ruling = glance.kind == RecordKind.RULING and glance.game == "paigow"
    total = _money(glance.total_net, signed=True) if paigow_ruling else None
    if total is not None and glance.action == RulingAction.ROUND and glance.seats:
        count = len(glance.seats)
        return f"{count} seat{'s' if count != 1 else ''}, players {total}"
    if total is not None and glance.outcome is not None:
        return f"{glance.outcome}, net {total}"
    if glance.kind == RecordKind.METER and glance.meter is not None:
        return _meter_summary(glance)
    return None


def _meter_summary(glance: Glance) -> str | None:
    """A meter record in a few words: `progressive_treasure starts $10,000` (its seed, and
    what its first ruling added), a ruling's `… +$0.25 → $10,000.25`, an adjustment's `… set
    to $12,000`; `audit show` tells the seed from the contributions. None when its values are
    no amounts."""
    value, delta = _money(glance.value), _money(glance.delta, signed=True)
    if value is None or delta is None:
        return None
    if glance.previous is None:
        return f"{glance.meter} starts {value}"
    if glance.action == MeterAction.ADJUST:
        return f"{glance.meter} set to {value}"
    return f"{glance.meter} {delta} → {value}"


def _fit(line: str, width: int) -> str:
    return line if len(line) <= width else line[: width - 1] + "…"


def _seats(seats: tuple[int, ...]) -> str:
    """The seats a record involved: `4`, a round's `1-6` (each seat from 1 to 6) or `1,3,5`."""
    if len(seats) > 2 and seats == tuple(range(seats[0], seats[-1] + 1)):
        return f"{seats[0]}-{seats[-1]}"
    return ",".join(map(str, seats))


def _notes(references: tuple[Reference, ...]) -> str:
    notes = ", ".join(f"{r.kind} #{r.id}" for r in references if r.kind != RecordKind.METER)
    return f" (see {notes})" if notes else ""


def _report(found: list[Glance]) -> None:
    if not found:
        typer.echo("No records.")
        return
    headers = ["#", "time (UTC)", "table", "seat", "user", "what", "summary"]
    rows = [
        [
            str(g.id),
            utc_time(g.recorded_at),
            g.table_id,
            _seats(g.seats),
            f"{g.user_id} ({g.role})",
            _what(g),
        ]
        for g in found
    ]
    used = sum(  # tabulate draws a column at least its header and 2 wide
        max(len(h) + 2, *(len(printable(r[i])) for r in rows)) for i, h in enumerate(headers[:-1])
    )
    width = screen_width(LIST_WIDTH)
    left = max(width - used - 2 * (len(headers) - 1), 24)
    for row, g in zip(rows, found, strict=True):
        row.append(_listed(g, left))
    typer.echo(table(rows, headers))


def _listed(glance: Glance, width: int) -> str:
    """A record's summary within `width` columns: led by its status when it is not in effect
    (`VOIDED #11:`, `overridden #10:`), then its summary, then what refers to it. Only words
    are shortened: a summary of money (a ruling's net, a meter's move) is kept whole, and the
    notes go first."""
    lead = ""
    if glance.not_in_effect is not None:
        by = glance.not_in_effect
        lead = f"{'VOIDED' if by.kind == RecordKind.VOID else 'overridden'} #{by.id}: "
    money = _money_summary(glance)
    notes = _notes(tuple(r for r in glance.references if r != glance.not_in_effect))
    if money is None:
        return _fit(lead + _first_line(glance) + notes, width)
    room = width - len(lead) - len(money)
    return lead + money + (_fit(notes, room) if room > 2 else "")


def _json_report(found: list[Record]) -> None:
    echo_json({"count": len(found), "records": [r.to_dict() for r in found]})


@app.command("list")
@composed(flt=FILTER)
def list_(
    flt: RecordFilter,
    limit: Annotated[int, typer.Option("--limit", help="How many of the newest.")] = 20,
    as_json: JsonFlag = False,
    db: DbOption = None,
) -> None:
    """The newest records (20 unless --limit), oldest first."""
    most = inputs.record_count(limit)
    if as_json:
        _json_report(records.search(db, flt, limit=most, newest=True))
    else:
        _report(records.glances(db, flt, limit=most, newest=True))


@app.command()
@composed(flt=FILTER)
def search(
    flt: RecordFilter,
    limit: Annotated[int | None, typer.Option("--limit", help="At most this many.")] = None,
    awaiting_signoff: Annotated[
        bool,
        typer.Option("--awaiting-signoff", help="Only rulings whose large pay awaits a sign-off."),
    ] = False,
    as_json: JsonFlag = False,
    db: DbOption = None,
) -> None:
    """Records by table, seat, patron, time range, game, user, kind or ruling id, oldest
    first (a seat or patron search finds the seats settled inside rounds too;
    `--awaiting-signoff`: only the large pays no supervisor has signed off yet)."""
    most = None if limit is None else inputs.record_count(limit)
    if as_json:
        _json_report(records.search(db, flt, limit=most, awaiting_signoff=awaiting_signoff))
    else:
        _report(records.glances(db, flt, limit=most, awaiting_signoff=awaiting_signoff))


def _status_lines(status: Status | None) -> list[str]:
    """The status, then the supervisor's decision and the result it puts in effect."""
    if status is None:
        return []
    lines = [f"  status     {status.text()}"]
    if status.decision is not None:
        lines.append(f"  decision   {status.decision}")
        if status.result:
            named = fields(status.result)
            lines.append("  in effect  " + "; ".join(f"{name} {text}" for name, text in named))
    return lines


def _named_lines(named: list[tuple[str, str]]) -> list[str]:
    width = max((len(name) for name, _ in named), default=0)
    return [f"  {name:<{width}}  {text}" for name, text in named]


def _indented(text: str) -> list[str]:
    return [f"  {line}" for line in text.splitlines()]


def _meter_lines(move: MeterMove) -> list[str]:
    """A meter record: the meter, its value before and after, what moved it (its seed, a
    ruling's contributions and hits, an adjustment) and who."""
    result = move.record.result
    link = result.get("link")
    return [
        "Meter:",
        *_named_lines(
            [
                ("meter", str(result.get("meter")) + (f" (link {link})" if link else "")),
                ("from", "- (never set)" if move.previous is None else fmt_money(move.previous)),
                ("moved", meter_movement(move)),
                ("to", "-" if move.value is None else fmt_money(move.value)),
                ("by", meter_mover(move)),
            ]
        ),
    ]


def _result_lines(record: Record, move: MeterMove | None = None) -> list[str]:
    """What was ruled: a settled seat's hands and wagers, a round's table of seats, a meter's
    move, else the result's named lines."""
    result = record.result
    if move is not None:
        return _meter_lines(move)
    if record.game == "paigow" and record.action == RulingAction.SETTLE and "base" in result:
        return [
            "Hands:",
            *_indented(table(settle_hands(result), ["", "high", "low"])),
            "Wagers:",
            *_indented(table(settle_wagers(result, paytables=True), PAYTABLE_HEADERS)),
        ]
    if record.game == "paigow" and record.action == RulingAction.ROUND and "seats" in result:
        headers, rows = round_seats(result)
        return [
            "Round:",
            f"  {round_dealer(result)}",
            *_indented(table(rows, headers)),
            f"  {round_total(result)}",
        ]
    named = fields(result)
    return ["Result:", *_named_lines(named)] if named else []


def page(shown: Shown, move: MeterMove | None = None) -> list[str]:
    """One record as a page for people (`audit show`): what and where it stands, who made it
    where and when, what was ruled (hands as set, wagers, pays and nets; a meter record's
    `move`), the settings as named lines, the record's hashes shortened, the reasons, the
    records referring to it. No JSON: `--json` keeps every field whole."""
    record, linked, status = shown
    seat = "" if record.seat is None else f"   seat {record.seat}"
    lines = [f"Record {record.id}: {_what(record)}", *_status_lines(status)]
    if record.rule_changes:  # near the top: a ruling made under rules the profile does not have
        approved = record.settings.get("rule_changes_approved_by")
        by = f" (approved by {approved})" if isinstance(approved, str) else ""
        lines.append(f"  rule changes: {', '.join(record.rule_changes)}{by}")
    lines += [
        f"  recorded   {utc_time(record.recorded_at)}",
        f"  table      {record.table_id or '-'}{seat}",
        f"  user       {record.user_id} ({record.role})",
    ]
    if "\n" in record.input_text.strip():
        count = len(record.input_text.strip().splitlines())
        lines.append(f"  input      {count} lines as filed or typed (whole in --json)")
    elif record.input_text:
        lines.append(f"  input      {record.input_text}")
    if record.cards and record.action not in (RulingAction.SETTLE, RulingAction.ROUND):
        lines.append(f"  cards      {pretty(record.cards)}")
    if record.reason:
        lines.append(f"  reason     {record.reason}")
    if record.links_to is not None:
        lines.append(f"  refers to  record {record.links_to}")
    lines += _result_lines(record, move)
    if record.settings:
        lines += ["Settings:", *_named_lines(setting_fields(record.settings))]
    lines += [
        "Record:",
        f"  software   {record.software_version}",
        f"  hash       {short_hash(record.hash)}",
        f"  prev hash  {short_hash(record.prev_hash)}",
    ]
    if record.explanation:
        lines.append("Why:")
        lines += [f"  · {line}" for line in record.explanation]
    if linked:
        lines.append("Referred to by:")
        lines += [
            f"  #{r.id} {_what(r)} by {r.user_id}, {utc_time(r.recorded_at)}"
            + (f": {r.reason}" if r.reason else "")
            for r in linked
        ]
    return lines


@app.command()
def show(
    record_id: Annotated[int, typer.Argument(help="The record (ruling) id.")],
    as_json: JsonFlag = False,
    db: DbOption = None,
) -> None:
    """One record as a page: status first (in effect, overridden, voided, disputed), the hands
    as set, the wagers and nets, the settings, and the records that refer to it (overrides,
    voids, disputes); `--json` keeps every field."""
    shown = records.show(db, inputs.record_id(record_id))
    record, linked, status = shown
    if as_json:
        echo_json(
            record.to_dict()
            | {
                "status": None if status is None else status.to_dict(),
                "linked": [r.to_dict() for r in linked],
            }
        )
        return
    move = None
    if record.kind == RecordKind.METER:
        move = supervision.meter_book(db, RecordFilter(ids=(record.id,)))[0]
    typer.echo("\n".join(printable(line) for line in page(shown, move)))


@app.command()
@composed(flt=FILTER)
def export(
    flt: RecordFilter,
    fmt: Annotated[str, typer.Option("--format", help="csv or jsonl.")],
    output: Annotated[
        Path | None, typer.Option("--output", "-o", help="Write to FILE (default: stdout).")
    ] = None,
    db: DbOption = None,
) -> None:
    """Records with their hashes, for re-verifying outside the tool (recipe: dealer.audit.chain)."""
    count = records.export(db, fmt, flt, sys.stdout if output is None else output)
    if output is not None:
        typer.echo(f"{count} records written to {output}", err=True)


@app.command()
def verify(
    checkpoint: Annotated[
        list[str] | None,
        typer.Option(
            "--checkpoint",
            help="A checkpoint kept outside: a file of N:HASH lines, or N:HASH / HASH itself "
            "(repeatable).",
        ),
    ] = None,
    as_json: JsonFlag = False,
    db: DbOption = None,
) -> None:
    """Recompute the hash chain and name the first bad record; exit 1 unless it verifies."""
    result, against_count = records.verify(db, checkpoint or ())
    if as_json:
        echo_json(result.to_dict())
    elif result.ok:
        plural = "s" if against_count > 1 else ""
        against = f" against {against_count} checkpoint{plural}" if against_count else ""
        typer.echo(f"OK: {result.records} records, the hash chain verifies{against}.")
    else:
        where = f"first bad record: {result.first_bad}" if result.first_bad else "problems found"
        typer.echo(f"FAILED: {result.records} records, {where}")
        typer.echo("\n".join(f"  · {problem}" for problem in result.problems))
    if not result.ok:
        raise VerificationError(f"the audit log does not verify: {result.problem}")


@app.command()
def copy(
    source: Annotated[str, typer.Argument(metavar="FROM", help="The log to copy (read only).")],
    target: Annotated[str, typer.Argument(metavar="TO", help="Where to copy it: a file or URL.")],
    checkpoint: Annotated[
        list[str] | None,
        typer.Option(
            "--checkpoint",
            help="A supervisor's checkpoint kept outside FROM: a file of N:HASH lines "
            "(dealer audit checkpoint -o FILE), or N:HASH itself (repeatable). The copy stops "
            "at the newest; needed to copy an SQLite file into PostgreSQL.",
        ),
    ] = None,
    supervisor: Annotated[
        str | None,
        typer.Option(
            "--supervisor",
            help="The supervisor who signed that checkpoint, vouching for it with their PIN "
            "where TO does not know them (an empty PostgreSQL log).",
        ),
    ] = None,
    pin: PinOption = None,
    as_json: JsonFlag = False,
) -> None:
    """Copy a log, every record and hash kept (SQLite to PostgreSQL and back).

    Into an SQLite file the copy is for reading: the users' PINs are withheld. From an SQLite
    file into PostgreSQL it goes up to a supervisor's signed checkpoint kept outside the file.
    Only the records TO lacks are added; a TO holding another chain is refused. Both then
    verify with the same head hash."""
    who = inputs.user_id(supervisor, "--supervisor") if supervisor is not None else None
    secret = pin_or_ask(pin, who) if who is not None else ""
    copied, head, left, until = records.copy(source, target, checkpoint or (), who, secret)
    if as_json:
        echo_json(head.to_dict() | {"copied": copied, "not_copied": left})
        return
    typer.echo(f"copied {copied} records: {head.records} records, head hash {head.head_hash}")
    if left:
        after = head.records or 0
        typer.echo(
            f"records {after + 1}-{after + left} of the log to copy come after checkpoint "
            f"{until}, not copied: copy them with a newer checkpoint (dealer audit checkpoint "
            "-o FILE)"
        )


@app.command()
def browse(
    host: Annotated[
        str,
        typer.Option(
            "--host",
            help="Listen on this address (a name or an address of this machine). Only requests "
            "for 127.0.0.1, localhost or this name are answered. 127.0.0.1 (default): this "
            "machine only; another lets anyone who reaches it read the whole log.",
        ),
    ] = "127.0.0.1",
    port: Annotated[
        int, typer.Option("--port", help="Listen on this port (default: a free one).")
    ] = 0,
    no_open: Annotated[
        bool, typer.Option("--no-open", help="Print the address only: open no browser.")
    ] = False,
    rounds: Annotated[
        int | None,
        typer.Option(
            "--rounds",
            min=1,
            help="Rounds the statistics pages simulate the base wager's edge over, as dealer "
            "stats --rounds (default: dealer stats' 200,000; kept in the cache).",
        ),
    ] = None,
    db: DbOption = None,
) -> None:
    """Browse the audit log read-only in a web browser (Datasette): records, a seat's history,
    open disputes and their packets, the meter book, the shift summary, the statistics and their
    flags, the chain's state. It serves a copy of the log taken and verified as it starts
    (restart it for later records). Nothing can be written through it. Ctrl-C stops it."""
    if not 0 <= port <= 65535:
        raise DealerError(f"--port {port}: a port is 1-65535, or 0 for a free one")
    from dealer.desk.browse import served_file
    from dealer.desk.stats import STATS_ROUNDS

    where = served_file(db)
    try:
        from dealer.cli.browse.server import serve  # Datasette loads for this command alone
    except ModuleNotFoundError as exc:
        if exc.name not in ("datasette", "uvicorn"):
            raise
        needed = "dealer audit browse needs Datasette: pip install 'dealer[browse]'"
        raise DealerError(needed) from None

    serve(
        where,
        host,
        port,
        open_browser=not no_open,
        announce=lambda url: typer.echo(
            f"Browsing the audit log read-only at {url} (Ctrl-C stops)"
        ),
        rounds=STATS_ROUNDS if rounds is None else rounds,
    )


@app.command("checkpoint")
@at_desk()
def checkpoint_(
    desk: Desk,
    output: Annotated[
        Path | None,
        typer.Option("--output", "-o", help="Also append the N:HASH line to FILE (kept outside)."),
    ] = None,
    pin: MakerPinOption = None,
    as_json: JsonFlag = False,
) -> None:
    """Record a checkpoint: the record count and head hash to keep outside (shift close).

    Made by a supervisor or an auditor (`--user`) with their PIN, and signed by them.
    `dealer audit verify --checkpoint` later checks the log against it: a log cut short or
    changed and re-chained since then fails."""
    made = records.checkpoint(desk, pin_or_ask(pin, desk.user), output)
    if as_json:
        echo_json(made.to_dict() | {"record_id": made.records})
        return
    typer.echo(f"records    {made.records}")
    typer.echo(f"head hash  {made.head_hash}")
    typer.echo(f"checkpoint {made}")
    typer.echo("Keep the checkpoint line outside this database (paper, another machine).")
