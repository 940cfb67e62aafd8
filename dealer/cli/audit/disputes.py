"""`dealer audit dispute …`: open, resolve, correct an amount, list, and the dispute packet."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from dealer import inputs
from dealer.cli.audit.options import (
    SUPERVISOR,
    ReasonOption,
    ReviewerOption,
    ReviewerPinOption,
    Supervisor,
    TableFilter,
    answer,
    echo_json,
    review,
    utc_time,
)
from dealer.cli.common import (
    DbOption,
    JsonFlag,
    at_desk,
    composed,
)
from dealer.cli.render import table
from dealer.desk import supervision
from dealer.desk.context import Desk
from dealer.desk.records import ANY_GAME_SEATS
from dealer.desk.supervision import AMOUNT_LIMIT, Dispute, DisputeOutcome
from dealer.kernel.errors import DealerError
from dealer.kernel.money import fmt_money

_DISPUTE_LIMIT = fmt_money(AMOUNT_LIMIT)

app = typer.Typer(
    help="Disputes: open, resolve, correct an amount, list the open ones.", no_args_is_help=True
)


def _dispute_rows(disputes: list[Dispute]) -> list[list[str]]:
    return [
        [
            str(d.id),
            utc_time(d.occurred_at) if d.occurred_at else "",
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


@app.command("open")
@at_desk()
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
        seat=None if seat is None else inputs.seat(seat, ANY_GAME_SEATS),
        occurred_at=inputs.time(when) if when else None,
        parties=tuple(inputs.text(p, "--party") for p in party or ()),
        video=inputs.text(video, "--video") if video else "",
        rulings=tuple(inputs.record_id(r, "--ruling record") for r in ruling or ()),
    )
    answer(as_json, {"dispute_id": made}, f"Dispute {made} opened at table {desk.table}.")


@app.command("resolve")
@composed(who=SUPERVISOR)
def dispute_resolve(
    who: Supervisor,
    dispute_id: Annotated[int, typer.Argument(help="The dispute id.")],
    outcome: Annotated[str, typer.Option("--outcome", help=" | ".join(DisputeOutcome))],
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
    dispute = inputs.record_id(dispute_id, "dispute")
    decided = review(who, reviewer, reviewer_pin, reason)
    made, resolved = supervision.resolve_dispute(
        db, dispute, outcome=outcome, amount=amount, review=decided
    )
    answer(
        as_json,
        {"record_id": made} | resolved.to_dict(),
        f"Dispute {dispute_id} resolved ({outcome}) as record {made}.",
    )


@app.command("correct")
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
    dispute = inputs.record_id(dispute_id, "dispute")
    decided = review(who, reviewer, reviewer_pin, reason)
    made, corrected = supervision.correct_dispute(db, dispute, amount=amount, review=decided)
    answer(
        as_json,
        {"record_id": made} | corrected.to_dict(),
        f"Dispute {dispute_id}: amount adjusted corrected as record {made}.",
    )


@app.command("list")
def dispute_list(
    all_: Annotated[bool, typer.Option("--all", help="Resolved ones too.")] = False,
    table_id: TableFilter = None,
    as_json: JsonFlag = False,
    db: DbOption = None,
) -> None:
    """The open disputes (to read at shift start); --all for every dispute."""
    found = supervision.list_disputes(db, open_only=not all_, table_id=table_id)
    if as_json:
        echo_json({"count": len(found), "disputes": [d.to_dict() for d in found]})
        return
    if not found:
        typer.echo("No open disputes." if not all_ else "No disputes.")
        return
    headers = ["#", "when (UTC)", "table", "seat", "parties", "video", "rulings", "what", "status"]
    typer.echo(table(_dispute_rows(found), headers))


@app.command("packet")
def dispute_packet(
    dispute_id: Annotated[int, typer.Argument(help="The dispute id.")],
    html: Annotated[
        Path | None,
        typer.Option(
            "--html", help="Write the packet to FILE as a page to print, not to the screen."
        ),
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
        packet.save(html, packet_html(found), db)
    if as_json:
        echo_json(found.to_dict())
    elif html is None:
        typer.echo(packet_text(found))
    if html is not None:
        typer.echo(f"Dispute {dispute_id} packet written to {html}", err=True)
