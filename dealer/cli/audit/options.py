"""The options, prompts and answers the `dealer audit` commands share: record filters,
supervisor and reviewer credentials (`--supervisor ID` and a PIN from `--pin`, env `DEALER_PIN`,
or asked with hidden input), a JSON answer or a sentence."""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer

from dealer import inputs
from dealer.cli.common import (
    Composite,
    PinOption,
    ask_hidden,
    option,
    pin_or_ask,
)
from dealer.desk.supervision import Review
from dealer.kernel.errors import DealerError
from dealer.kernel.tuples import NamedTuple

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
MakerPinOption = Annotated[
    str | None,
    typer.Option(
        "--pin", envvar="DEALER_PIN", help="Your PIN, a supervisor's or an auditor's (else asked)."
    ),
]
NewPinOption = Annotated[
    str | None,
    typer.Option(
        "--new-pin",
        envvar="DEALER_NEW_PIN",
        help=(
            "The user's own PIN (else asked, hidden): at least 10 characters, of which at "
            "least 6 are not a common PIN or word, a run or repeat (1234, 9876, aaaa, abab, "
            "qwerty), a date or the user's own id. A short phrase is easiest to remember."
        ),
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


def echo_json(value: Any) -> None:
    typer.echo(json.dumps(value, ensure_ascii=False))


def answer(as_json: bool, data: Any, text: str) -> None:
    """What a command did: its JSON object, or its sentence for a person."""
    if as_json:
        echo_json(data)
    else:
        typer.echo(text)


def supervisor_id(supervisor: str | None) -> str:
    if not supervisor:
        raise DealerError("this needs a supervisor: --supervisor ID (or DEALER_USER)")
    return inputs.user_id(supervisor)


def review(who: Supervisor, reviewer: str, reviewer_pin: str | None, reason: str) -> Review:
    """Who decides on a dispute and why: the supervisor, the second reviewer with their own PIN
    (asked with hidden input if not given), and the reason; built here once, passed whole
    through the desk to the audit layer."""
    said = inputs.text(reason, "--reason")
    second = inputs.user_id(reviewer, "--reviewer")
    asked = f"PIN for second reviewer {second}"
    give = "--reviewer-pin (or DEALER_REVIEWER_PIN)"
    secret = reviewer_pin if reviewer_pin is not None else ask_hidden(asked, give)
    return Review(
        supervisor_id=who.user_id,
        pin=who.pin,
        second_reviewer=second,
        reviewer_pin=secret,
        reason=said,
    )


def new_pin_or_ask(new_pin: str | None, user_id: str) -> str:
    if new_pin is not None:
        return new_pin
    return ask_hidden(f"New PIN for {user_id}", "--new-pin (or DEALER_NEW_PIN)", confirm=True)


class Supervisor(NamedTuple):
    """Who signs a supervisor action: their id and PIN (asked with hidden input if not given)."""

    user_id: str
    pin: str


def signer(supervisor: str | None, pin: str | None) -> Supervisor:
    """The supervisor named by `--supervisor`, with their PIN (asked if not given)."""
    who = supervisor_id(supervisor)
    return Supervisor(who, pin_or_ask(pin, who))


SUPERVISOR = Composite((option("supervisor", SupervisorOption), option("pin", PinOption)), signer)
"""`--supervisor ID` and `--pin` (or `DEALER_USER`, `DEALER_PIN`, or asked)."""


def utc_time(stamp: str) -> str:
    """A stored UTC time to the second, marked Z (`dealer.cli.packet.when` adds the local time)."""
    return stamp[:19] + "Z"
