"""`dealer audit …`: read, search, export and verify the record; checkpoints at shift close;
disputes, overrides and voids; users and meters. Each command parses its arguments, calls one
desk function and renders what it returns; supervisor actions take `--supervisor ID` and a PIN
(`--pin`, env `DEALER_PIN`, or asked with hidden input), and a dispute's second reviewer their
own (`--reviewer ID`, `--reviewer-pin`, env `DEALER_REVIEWER_PIN`, or asked); a checkpoint is
taken by the desk's user (`--user`), a supervisor or an auditor, with their `--pin`."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, NamedTuple

import typer

from dealer import inputs
from dealer.cli.common import (
    HOUSE,
    Composite,
    DbOption,
    JsonFlag,
    TableOption,
    at_desk,
    composed,
    option,
)
from dealer.cli.render import table
from dealer.desk import records, supervision
from dealer.desk.context import Desk, HouseRules, LogLocation, default_db, location, shown
from dealer.desk.records import Record, RecordFilter, Shown, Status
from dealer.desk.supervision import AMOUNT_LIMIT, OUTCOMES, ROLES, Dispute
from dealer.kernel.errors import DealerError, VerificationError
from dealer.kernel.money import fmt_money, money_json
from dealer.kernel.text import printable

app = typer.Typer(
    help="The audit log: every ruling on a tamper-evident record.", no_args_is_help=True
)
dispute_app = typer.Typer(
    help="Disputes: open, resolve, correct an amount, list the open ones.", no_args_is_help=True
)
user_app = typer.Typer(help="Users, roles and supervisor PINs.", no_args_is_help=True)
meter_app = typer.Typer(help="Progressive meters: show, adjust by hand.", no_args_is_help=True)
app.add_typer(dispute_app, name="dispute")
app.add_typer(user_app, name="user")
app.add_typer(meter_app, name="meter")

TableFilter = Annotated[str | None, typer.Option("--table", help="Only this table.")]
SeatFilter = Annotated[
    int | None,
    typer.Option("--seat", help="Only records involving this seat (a round: each seat settled)."),
]
PatronFilter = Annotated[
    str | None, typer.Option("--patron", help="Only records involving this patron id.")
]
GameFilter = Annotated[str | None, typer.Option("--game", help="Only this game (paigow, …).")]
UserFilter = Annotated[str | None, typer.Option("--user", help="Only records made by this user.")]
KindFilter = Annotated[
    str | None, typer.Option("--kind", help="Only this kind: ruling, override, void, dispute, …")
]
ActionFilter = Annotated[str | None, typer.Option("--action", help="Only this action (rank, …).")]
IdFilter = Annotated[list[int] | None, typer.Option("--id", help="Only this record (repeatable).")]
LinkFilter = Annotated[
    int | None, typer.Option("--links-to", help="Only records that refer to this record.")
]
SinceOption = Annotated[
    str | None,
    typer.Option(
        "--since", help="From this time, UTC: 2026-05-09 or 2026-05-09T14:00 (or +02:00)."
    ),
]
UntilOption = Annotated[
    str | None,
    typer.Option("--until", help="Before this time (a date alone: through that day), UTC."),
]
SupervisorOption = Annotated[
    str | None,
    typer.Option(
        "--supervisor", envvar="DEALER_USER", help="The supervisor's id [env DEALER_USER]."
    ),
]
PinOption = Annotated[
    str | None,
    typer.Option("--pin", envvar="DEALER_PIN", help="The supervisor's PIN (else asked, hidden)."),
]
MakerPinOption = Annotated[
    str | None,
    typer.Option(
        "--pin", envvar="DEALER_PIN", help="Your PIN, a supervisor's or an auditor's (else asked)."
    ),
]
NewPinOption = Annotated[
    str | None,
    typer.Option(
        "--new-pin", envvar="DEALER_NEW_PIN", help="The user's own PIN (else asked, hidden)."
    ),
]
ReasonOption = Annotated[str, typer.Option("--reason", help="Why (said on the record).")]
ReviewerOption = Annotated[
    str, typer.Option("--reviewer", help="Second reviewer: another supervisor's id.")
]
ReviewerPinOption = Annotated[
    str | None,
    typer.Option(
        "--reviewer-pin",
        envvar="DEALER_REVIEWER_PIN",
        help="The second reviewer's own PIN (else asked, hidden).",
    ),
]
SEATS = range(1, 9)
"""The seats of any game's table (Pai Gow 1-6, Genpoker up to 8), for filters and disputes."""
_DISPUTE_LIMIT = fmt_money(AMOUNT_LIMIT)


def _echo_json(value: Any) -> None:
    typer.echo(json.dumps(value, ensure_ascii=False))


def _answer(as_json: bool, data: Any, text: str) -> None:
    """What a command did: its JSON object, or its sentence for a person."""
    if as_json:
        _echo_json(data)
    else:
        typer.echo(text)


def _pin(pin: str | None, who: str) -> str:
    return pin if pin is not None else _ask(f"PIN for {who}")


def _ask(prompt: str) -> str:
    return str(typer.prompt(prompt, hide_input=True))


def _supervisor(supervisor: str | None) -> str:
    if not supervisor:
        raise DealerError("this needs a supervisor: --supervisor ID (or DEALER_USER)")
    return inputs.user_id(supervisor)


def _reviewed(reviewer: str, reviewer_pin: str | None) -> dict[str, str]:
    """The second reviewer's id and their own PIN (asked with hidden input if not given)."""
    who = inputs.user_id(reviewer, "--reviewer")
    secret = reviewer_pin if reviewer_pin is not None else _ask(f"PIN for second reviewer {who}")
    return {"reviewer": who, "reviewer_pin": secret}


def _new_pin(new_pin: str | None, user_id: str) -> str:
    if new_pin is not None:
        return new_pin
    return str(typer.prompt(f"New PIN for {user_id}", hide_input=True, confirmation_prompt=True))


class Supervisor(NamedTuple):
    """Who signs a supervisor action: their id and PIN (asked with hidden input if not given)."""

    user_id: str
    pin: str


def _signed(supervisor: str | None, pin: str | None) -> Supervisor:
    who = _supervisor(supervisor)
    return Supervisor(who, _pin(pin, who))


SUPERVISOR = Composite((option("supervisor", SupervisorOption), option("pin", PinOption)), _signed)
"""`--supervisor ID` and `--pin` (or `DEALER_USER`, `DEALER_PIN`, or asked)."""


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
    return RecordFilter(
        ids=tuple(inputs.record_id(i) for i in ids or ()),
        table_id=inputs.table_id(table_id) if table_id else None,
        seat=inputs.seat(seat, SEATS) if seat is not None else None,
        game=game,
        user_id=inputs.user_id(user) if user else None,
        kind=kind,
        action=action,
        links_to=inputs.record_id(links_to, "--links-to record") if links_to is not None else None,
        since=inputs.time(since) if since else None,
        until=inputs.time(until, end_of_day=True) if until else None,
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


def _when(stamp: str) -> str:
    return stamp[:19] + "Z"


def _what(record: Record) -> str:
    return " ".join(part for part in (record.kind, record.game, record.action) if part)


def _summary(record: Record, width: int = 72) -> str:
    line = record.explanation[0] if record.explanation else record.input_text
    return line if len(line) <= width else line[: width - 1] + "…"


def _notes(linked: list[Record]) -> str:
    return ", ".join(f"{r.kind} #{r.id}" for r in linked if r.kind != "meter")


def _report(found: list[Shown], as_json: bool) -> None:
    if as_json:
        _echo_json({"count": len(found), "records": [s.record.to_dict() for s in found]})
        return
    if not found:
        typer.echo("No records.")
        return
    rows = [
        [
            str(r.id),
            _when(r.recorded_at),
            r.table_id,
            "" if r.seat is None else str(r.seat),
            f"{r.user_id} ({r.role})",
            _what(r),
            _summary(r),
            _notes(linked),
        ]
        for r, linked, _ in found
    ]
    typer.echo(table(rows, ["#", "time (UTC)", "table", "seat", "user", "what", "summary", "see"]))


@app.command("list")
@composed(flt=FILTER)
def list_(
    flt: RecordFilter,
    limit: Annotated[int, typer.Option("--limit", help="How many of the newest.")] = 20,
    as_json: JsonFlag = False,
    db: DbOption = None,
) -> None:
    """The newest records (20 unless --limit), oldest first."""
    _at_least_one(limit)
    _report(records.latest(db, flt, limit=limit, linked=not as_json), as_json)


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
    if limit is not None:
        _at_least_one(limit)
    found = records.search(
        db, flt, limit=limit, linked=not as_json, awaiting_signoff=awaiting_signoff
    )
    _report(found, as_json)


MOST_RECORDS = 10**inputs.RECORD_ID_DIGITS - 1
"""The most records `--limit` may ask for: as many as a log numbers. A larger count would
overflow the backend's integers, and each backend fails differently."""


def _at_least_one(limit: int) -> None:
    if not 1 <= limit <= MOST_RECORDS:
        raise DealerError(f"--limit {limit}: give how many records, from 1 to {MOST_RECORDS:,}")


def _status_lines(status: Status | None) -> list[str]:
    """The status, then the supervisor's decision and the result in effect (none if voided)."""
    if status is None:
        return []
    lines = [f"  status     {status.text()}"]
    if status.decision is not None:
        lines.append(f"  decision   {status.decision}")
    if status.result:
        lines.append(f"  in effect  {json.dumps(status.result, ensure_ascii=False)}")
    return lines


@app.command()
def show(
    record_id: Annotated[int, typer.Argument(help="The record (ruling) id.")],
    as_json: JsonFlag = False,
    db: DbOption = None,
) -> None:
    """One record in full, status first (in effect, overridden, voided, disputed), with the
    records that refer to it (overrides, voids, disputes)."""
    record, linked, status = records.show(db, inputs.record_id(record_id))
    if as_json:
        _echo_json(
            record.to_dict()
            | {
                "status": None if status is None else status.to_dict(),
                "linked": [r.to_dict() for r in linked],
            }
        )
        return
    seat = "" if record.seat is None else f"   seat {record.seat}"
    lines = [f"Record {record.id}: {_what(record)}", *_status_lines(status)]
    if record.rule_changes:  # near the top: a ruling made under rules the profile does not have
        approved = record.settings.get("rule_changes_approved_by")
        by = f" (approved by {approved})" if isinstance(approved, str) else ""
        lines.append(f"  rule changes: {', '.join(record.rule_changes)}{by}")
    lines += [
        f"  recorded   {record.recorded_at}",
        f"  table      {record.table_id or '-'}{seat}",
        f"  user       {record.user_id} ({record.role})",
    ]
    if record.input_text:
        lines.append(f"  input      {record.input_text}")
    if record.cards:
        lines.append(f"  cards      {' '.join(record.cards)}")
    lines.append(f"  result     {json.dumps(record.result, ensure_ascii=False)}")
    if record.settings:
        lines.append(f"  settings   {json.dumps(record.settings, ensure_ascii=False)}")
    if record.reason:
        lines.append(f"  reason     {record.reason}")
    if record.links_to is not None:
        lines.append(f"  refers to  record {record.links_to}")
    lines += [
        f"  software   {record.software_version}",
        f"  hash       {record.hash}",
        f"  prev hash  {record.prev_hash}",
    ]
    if record.explanation:
        lines.append("Why:")
        lines += [f"  · {line}" for line in record.explanation]
    if linked:
        lines.append("Referred to by:")
        lines += [
            f"  #{r.id} {_what(r)} by {r.user_id}, {_when(r.recorded_at)}"
            + (f": {r.reason}" if r.reason else "")
            for r in linked
        ]
    typer.echo("\n".join(printable(line) for line in lines))


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
        _echo_json(result.to_dict())
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
    as_json: JsonFlag = False,
) -> None:
    """Copy a log, every record and hash kept (SQLite to PostgreSQL and back).

    Only the records TO lacks are added; a TO holding another chain is refused. Both then
    verify with the same head hash."""
    copied, head = records.copy(source, target)
    if as_json:
        _echo_json(head.to_dict() | {"copied": copied})
        return
    typer.echo(f"copied {copied} records: {head.records} records, head hash {head.head_hash}")


@app.command()
def browse(
    host: Annotated[
        str,
        typer.Option(
            "--host",
            help="Listen on this address. 127.0.0.1 (default): this machine only; another "
            "(0.0.0.0: every network) lets anyone who reaches it read the whole log.",
        ),
    ] = "127.0.0.1",
    port: Annotated[
        int, typer.Option("--port", help="Listen on this port (default: a free one).")
    ] = 0,
    no_open: Annotated[
        bool, typer.Option("--no-open", help="Print the address only: open no browser.")
    ] = False,
    db: DbOption = None,
) -> None:
    """Browse the audit log read-only in a web browser (Datasette): records, a seat's history,
    open disputes and their packets, the meter book, the shift summary, the chain's state.
    Nothing can be written through it. Ctrl-C stops it."""
    if not 0 <= port <= 65535:
        raise DealerError(f"--port {port}: a port is 1-65535, or 0 for a free one")
    where = location(db) if db is not None else default_db()
    if not isinstance(where, Path):  # Datasette reads SQLite files only
        raise DealerError(
            f"--db {shown(where)}: dealer audit browse reads an SQLite log file; copy the "
            "PostgreSQL log into one first (dealer audit copy)"
        )
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
    )


@app.command("checkpoint")
@at_desk(default_table="")
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
    made = records.checkpoint(desk, _pin(pin, desk.user), output)
    if as_json:
        _echo_json(made.to_dict() | {"record_id": made.records})
        return
    typer.echo(f"records    {made.records}")
    typer.echo(f"head hash  {made.head_hash}")
    typer.echo(f"checkpoint {made}")
    typer.echo("Keep the checkpoint line outside this database (paper, another machine).")


@app.command()
@composed(who=SUPERVISOR)
def override(
    who: Supervisor,
    record_id: Annotated[int, typer.Argument(help="The ruling to override.")],
    decision: Annotated[str, typer.Option("--decision", help="What the supervisor ruled.")],
    reason: ReasonOption,
    result: Annotated[
        str | None, typer.Option("--result", help="The ruling as a JSON object (optional).")
    ] = None,
    as_json: JsonFlag = False,
    db: DbOption = None,
) -> None:
    """Override a ruling: a new record linked to it (the ruling itself is never changed)."""
    replacement = None
    if result is not None:
        try:
            replacement = json.loads(result)
            json.dumps(replacement, ensure_ascii=False).encode()  # no lone surrogate (\ud800)
        except ValueError:
            replacement = None
        if not isinstance(replacement, dict):
            raise DealerError("--result must be a JSON object, e.g. '{\"winner\": 1}'")
    made = supervision.override(
        db,
        inputs.record_id(record_id),
        decision=inputs.text(decision, "--decision"),
        reason=inputs.text(reason, "--reason"),
        result=replacement,
        supervisor=who.user_id,
        pin=who.pin,
    )
    said = f"Override recorded as record {made} (overrides ruling {record_id})."
    _answer(as_json, {"record_id": made, "overrides": record_id}, said)


@app.command()
@composed(who=SUPERVISOR)
def void(
    who: Supervisor,
    record_id: Annotated[int, typer.Argument(help="The ruling (or override) to void.")],
    reason: ReasonOption,
    as_json: JsonFlag = False,
    db: DbOption = None,
) -> None:
    """Void a ruling or an override: a new record linked to it."""
    made = supervision.void(
        db,
        inputs.record_id(record_id),
        reason=inputs.text(reason, "--reason"),
        supervisor=who.user_id,
        pin=who.pin,
    )
    _answer(
        as_json,
        {"record_id": made, "voids": record_id},
        f"Void recorded as record {made} (voids record {record_id}).",
    )


@app.command()
@composed(who=SUPERVISOR)
def signoff(
    who: Supervisor,
    record_id: Annotated[int, typer.Argument(help="The ruling whose large pay to sign off.")],
    as_json: JsonFlag = False,
    db: DbOption = None,
) -> None:
    """Sign off a ruling that paid a seat more than the table's sign-off line (the profile's
    `signoff_over`): a `signoff` record linked to it."""
    made = supervision.sign_off(
        db, inputs.record_id(record_id), supervisor=who.user_id, pin=who.pin
    )
    _answer(
        as_json,
        {"record_id": made, "signs_off": record_id},
        f"Sign-off recorded as record {made} (signs off ruling {record_id}).",
    )


# -- disputes ----------------------------------------------------------------------------


def _dispute_rows(disputes: list[Dispute]) -> list[list[str]]:
    return [
        [
            str(d.id),
            _when(d.occurred_at) if d.occurred_at else "",
            d.table_id,
            "" if d.seat is None else str(d.seat),
            ", ".join(d.parties),
            d.video,
            " ".join(str(r) for r in d.rulings),
            d.description,
            d.resolution.outcome if d.resolution else "OPEN",
        ]
        for d in disputes
    ]


@dispute_app.command("open")
@at_desk(default_table="")
def dispute_open(
    desk: Desk,
    description: Annotated[str, typer.Argument(help="What is disputed, in a few words.")],
    seat: Annotated[int | None, typer.Option("--seat", help="The seat.")] = None,
    when: Annotated[
        str | None, typer.Option("--time", help="When it happened, UTC (default: now).")
    ] = None,
    party: Annotated[
        list[str] | None, typer.Option("--party", help="Someone involved (repeatable).")
    ] = None,
    video: Annotated[str, typer.Option("--video", help="Camera / video reference.")] = "",
    ruling: Annotated[
        list[int] | None, typer.Option("--ruling", help="A disputed ruling id (repeatable).")
    ] = None,
    as_json: JsonFlag = False,
) -> None:
    """Open a dispute (any dealer or supervisor)."""
    if not desk.table:
        raise DealerError("a dispute needs its table: --table ID (or DEALER_TABLE)")
    made = supervision.open_dispute(
        desk,
        inputs.text(description, "the dispute's description"),
        seat=None if seat is None else inputs.seat(seat, SEATS),
        occurred_at=inputs.time(when) if when else None,
        parties=tuple(inputs.text(p, "--party") for p in party or ()),
        video=inputs.text(video, "--video") if video else "",
        rulings=tuple(inputs.record_id(r, "--ruling record") for r in ruling or ()),
    )
    _answer(as_json, {"dispute_id": made}, f"Dispute {made} opened at table {desk.table}.")


@dispute_app.command("resolve")
@composed(who=SUPERVISOR)
def dispute_resolve(
    who: Supervisor,
    dispute_id: Annotated[int, typer.Argument(help="The dispute id.")],
    outcome: Annotated[str, typer.Option("--outcome", help=" | ".join(OUTCOMES))],
    reviewer: ReviewerOption,
    reason: ReasonOption,
    amount: Annotated[
        str,
        typer.Option(
            "--amount",
            help=f"Amount adjusted: + paid to the patron, - taken back (at most {_DISPUTE_LIMIT})",
        ),
    ] = "0",
    reviewer_pin: ReviewerPinOption = None,
    as_json: JsonFlag = False,
    db: DbOption = None,
) -> None:
    """Resolve a dispute: no-error, patron-error or dealer-error, with a second reviewer."""
    made, resolved = supervision.resolve_dispute(
        db,
        inputs.record_id(dispute_id, "dispute"),
        outcome=outcome,
        amount=amount,
        reason=inputs.text(reason, "--reason"),
        **_reviewed(reviewer, reviewer_pin),
        supervisor=who.user_id,
        pin=who.pin,
    )
    _answer(
        as_json,
        {"record_id": made} | resolved.to_dict(),
        f"Dispute {dispute_id} resolved ({outcome}) as record {made}.",
    )


@dispute_app.command("correct")
@composed(who=SUPERVISOR)
def dispute_correct(
    who: Supervisor,
    dispute_id: Annotated[int, typer.Argument(help="The dispute id (a resolved dispute).")],
    amount: Annotated[
        str,
        typer.Option(
            "--amount",
            help=f"The right amount: + paid to the patron, - taken back (at most {_DISPUTE_LIMIT})",
        ),
    ],
    reviewer: ReviewerOption,
    reason: ReasonOption,
    reviewer_pin: ReviewerPinOption = None,
    as_json: JsonFlag = False,
    db: DbOption = None,
) -> None:
    """Correct a resolved dispute's amount: a new record linked to the dispute (the resolution
    is never changed), with a second reviewer."""
    made, corrected = supervision.correct_dispute(
        db,
        inputs.record_id(dispute_id, "dispute"),
        amount=amount,
        reason=inputs.text(reason, "--reason"),
        **_reviewed(reviewer, reviewer_pin),
        supervisor=who.user_id,
        pin=who.pin,
    )
    _answer(
        as_json,
        {"record_id": made} | corrected.to_dict(),
        f"Dispute {dispute_id}: amount adjusted corrected as record {made}.",
    )


@dispute_app.command("list")
def dispute_list(
    all_: Annotated[bool, typer.Option("--all", help="Resolved ones too.")] = False,
    table_id: TableFilter = None,
    as_json: JsonFlag = False,
    db: DbOption = None,
) -> None:
    """The open disputes (to read at shift start); --all for every dispute."""
    found = supervision.list_disputes(db, open_only=not all_, table_id=table_id)
    if as_json:
        _echo_json({"count": len(found), "disputes": [d.to_dict() for d in found]})
        return
    if not found:
        typer.echo("No open disputes." if not all_ else "No disputes.")
        return
    headers = ["#", "when (UTC)", "table", "seat", "parties", "video", "rulings", "what", "status"]
    typer.echo(table(_dispute_rows(found), headers))


@dispute_app.command("packet")
def dispute_packet(
    dispute_id: Annotated[int, typer.Argument(help="The dispute id.")],
    html: Annotated[
        Path | None,
        typer.Option("--html", help="Also write the packet to FILE as a page to print."),
    ] = None,
    as_json: JsonFlag = False,
    db: DbOption = None,
) -> None:
    """Everything about a dispute: the claim, the rulings and what decided them, every linked
    record, and the proof that they are on the hash chain."""
    from dealer.cli.packet import packet_html, packet_text
    from dealer.desk import packet

    found = packet.packet(db, inputs.record_id(dispute_id, "dispute"))
    if html is not None:
        packet.save(html, packet_html(found))
    if as_json:
        _echo_json(found.to_dict())
    else:
        typer.echo(packet_text(found))
    if html is not None:
        typer.echo(f"Dispute {dispute_id} packet written to {html}", err=True)


# -- users ---------------------------------------------------------------------------------


@user_app.command("add")
def user_add(
    user_id: Annotated[str, typer.Argument(help="The new user's id.")],
    role: Annotated[str, typer.Option("--role", help=" | ".join(ROLES))],
    new_pin: NewPinOption = None,
    supervisor: SupervisorOption = None,
    pin: PinOption = None,
    as_json: JsonFlag = False,
    db: DbOption = None,
) -> None:
    """Register a user (a supervisor action; the very first user bootstraps).

    On a database that never had a supervisor, the first user must be a supervisor and is
    registered without authorisation (recorded as a bootstrap); after that a supervisor's id
    and PIN are needed."""
    new_id = inputs.user_id(user_id)
    own = _new_pin(new_pin, new_id) if role == "supervisor" or new_pin else None

    def credentials() -> tuple[str, str]:
        signed = _signed(supervisor, pin)
        return signed.user_id, signed.pin

    made, added, bootstrap = supervision.add_user(
        db, new_id, role, pin=own, supervisor=supervisor, credentials=credentials
    )
    said = (
        f"First supervisor {user_id} registered (bootstrap) as record {made}."
        if bootstrap
        else f"User {user_id} registered as {role} (record {made})."
    )
    data = {"record_id": made, "bootstrap": bootstrap} | (added.to_dict() if added else {})
    _answer(as_json, data, said)


@user_app.command("set")
@composed(who=SUPERVISOR)
def user_set(
    who: Supervisor,
    user_id: Annotated[str, typer.Argument(help="The user to change.")],
    role: Annotated[str | None, typer.Option("--role", help=" | ".join(ROLES))] = None,
    active: Annotated[
        bool | None, typer.Option("--enable/--disable", help="Let the user act, or not.")
    ] = None,
    set_pin: Annotated[bool, typer.Option("--set-pin", help="Give the user a new PIN.")] = False,
    new_pin: NewPinOption = None,
    as_json: JsonFlag = False,
    db: DbOption = None,
) -> None:
    """Change a user's role, PIN, or enable/disable them (a supervisor action)."""
    changing = inputs.user_id(user_id)
    own = _new_pin(new_pin, changing) if set_pin or new_pin else None
    made, changed, _ = supervision.change_user(
        db,
        changing,
        role=role,
        pin=own,
        active=active,
        supervisor=who.user_id,
        supervisor_pin=who.pin,
    )
    _answer(
        as_json,
        {"record_id": made} | (changed.to_dict() if changed else {}),
        f"User {user_id} changed (record {made}).",
    )


@user_app.command("list")
def user_list(as_json: JsonFlag = False, db: DbOption = None) -> None:
    """Registered users and their roles (never their PINs)."""
    found = supervision.list_users(db)
    if as_json:
        _echo_json({"users": [u.to_dict() for u in found]})
        return
    if not found:
        typer.echo("No users registered: the first one is a supervisor (dealer audit user add).")
        return
    rows = [
        [u.user_id, u.role, "active" if u.active else "disabled", "yes" if u.has_pin else "no"]
        for u in found
    ]
    typer.echo(table(rows, ["user", "role", "status", "PIN"]))


# -- meters --------------------------------------------------------------------------------


@meter_app.command("show")
def meter_show(
    name: Annotated[
        str, typer.Argument(help="The meter: progressive_insurance, progressive_treasure.")
    ],
    table_id: TableOption = None,
    as_json: JsonFlag = False,
    db: DbOption = None,
) -> None:
    """A progressive meter's current value."""
    if not table_id:
        raise DealerError("which table's meter? --table ID (or DEALER_TABLE)")
    value = supervision.meter(db, inputs.table_id(table_id), name)
    data = {"table": table_id, "meter": name, "value": None if value is None else money_json(value)}
    shown = "not set" if value is None else fmt_money(value)
    _answer(as_json, data, f"{name} at {table_id}: {shown}")


@meter_app.command("adjust")
@composed(who=SUPERVISOR, house=HOUSE)
def meter_adjust(
    who: Supervisor,
    house: HouseRules,
    name: Annotated[
        str, typer.Argument(help="The meter: progressive_insurance, progressive_treasure.")
    ],
    value: Annotated[str, typer.Argument(help="Its new value: from the meter's seed to its cap.")],
    reason: ReasonOption,
    table_id: TableOption = None,
    as_json: JsonFlag = False,
    db: DbOption = None,
) -> None:
    """Set a progressive meter by hand, between its seed and its cap in the table profile (a
    supervisor action, on the record); a reset or a reseed is an adjustment too."""
    if not table_id:
        raise DealerError("which table's meter? --table ID (or DEALER_TABLE)")
    made, now = supervision.adjust_meter(
        db, house, table_id, name, value, reason, supervisor=who.user_id, pin=who.pin
    )
    _answer(
        as_json,
        {"record_id": made, "table": table_id, "meter": name, "value": money_json(now)},
        f"{name} at {table_id} set to {fmt_money(now)} (record {made}).",
    )


# -- approving house rules ---------------------------------------------------------------


FileArgument = Annotated[Path, typer.Argument(help="The file to approve.")]


def _approve(
    approve: Callable[..., supervision.Approval],
    who: Supervisor,
    file: Path,
    reason: str,
    table_id: str | None,
    db: LogLocation | None,
) -> supervision.Approval:
    return approve(db, file, reason, supervisor=who.user_id, pin=who.pin, table_id=table_id or "")


@app.command("approve-profile")
@composed(who=SUPERVISOR)
def approve_profile(
    who: Supervisor,
    file: FileArgument,
    reason: ReasonOption,
    as_json: JsonFlag = False,
    db: DbOption = None,
    table_id: TableOption = None,
) -> None:
    """Approve a table profile (house rules) for use: checked, then recorded with its SHA-256,
    which every ruling made with it carries as settings.profile_sha256."""
    made, digest, (name,) = _approve(supervision.approve_profile, who, file, reason, table_id, db)
    said = f"Profile {name} approved as record {made} (sha256 {digest})."
    _answer(as_json, {"record_id": made, "sha256": digest, "profile": name}, said)


@app.command("approve-paytables")
@composed(who=SUPERVISOR)
def approve_paytables(
    who: Supervisor,
    file: FileArgument,
    reason: ReasonOption,
    as_json: JsonFlag = False,
    db: DbOption = None,
    table_id: TableOption = None,
) -> None:
    """Approve a pay-table file for use: checked, then recorded with its SHA-256."""
    made, digest, ids = _approve(supervision.approve_paytables, who, file, reason, table_id, db)
    said = f"Pay tables {', '.join(ids)} approved as record {made} (sha256 {digest})."
    _answer(as_json, {"record_id": made, "sha256": digest, "paytables": list(ids)}, said)
