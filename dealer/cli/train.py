"""`dealer train …`: the dealer's trainer. House Way and payout drills taken at a terminal or
through a pipe (the one input loop, `dealer.cli.console`), a trainee's progress, and a
supervisor's certificate."""

from __future__ import annotations

import json
from decimal import Decimal
from typing import TYPE_CHECKING, Annotated, Any

import typer

from dealer import inputs
from dealer.cli.common import (
    DbOption,
    JsonFlag,
    PinOption,
    ProfileOption,
    SeedOption,
    at_desk,
    pin_or_ask,
)
from dealer.desk import training
from dealer.desk.context import Desk, HouseRules
from dealer.kernel.cards import symbol
from dealer.kernel.errors import DealerError
from dealer.kernel.money import fmt_money

if TYPE_CHECKING:
    from dealer.games.paigow.drills import PayHand, WayHand

app = typer.Typer(
    help="The dealer's trainer: House Way and payout drills, progress, certificates.",
    no_args_is_help=True,
)

HandsOption = Annotated[
    int | None,
    typer.Option(
        "--hands", min=1, max=200, help="Hands to deal (1-200; default: the standard's count)."
    ),
]
TraineeOption = Annotated[
    str | None,
    typer.Option("--trainee", help="The trainee's id: the drill is kept on the record."),
]
TraineePinOption = Annotated[
    str | None,
    typer.Option(
        "--pin",
        envvar="DEALER_TRAINEE_PIN",
        help="The trainee's own PIN: the drill is theirs, signed, and counts toward a "
        "certificate (without it, a practice drill) [env DEALER_TRAINEE_PIN].",
    ),
]


def _names(value: str | None, what: str) -> tuple[str, ...]:
    """A comma-separated list typed in an option (`3a,4`)."""
    if value is None:
        return ()
    names = tuple(part.strip() for part in inputs.text(value, what).split(",") if part.strip())
    if not names:
        raise DealerError(f"{what}: name at least one, separated by commas")
    return names


def _trainee(value: str | None, pin: str | None = None) -> str | None:
    if value is None and pin is not None:
        raise DealerError("--pin: the trainee's own PIN goes with --trainee ID")
    return None if value is None else inputs.user_id(value, "--trainee")


def _cards(cards: Any) -> str:
    return " ".join(symbol(str(c)) for c in cards)


def _echo(value: dict[str, Any]) -> None:
    typer.echo(json.dumps(value, ensure_ascii=False))


def _show_hand(hand: WayHand | PayHand, as_json: bool) -> None:
    shown = hand.to_json()
    if as_json:
        _echo(shown)
    elif "cards" in shown:  # a hand to set
        typer.echo(f"Hand {hand.number}: {_cards(shown['cards'])}")
    else:
        wagers = ", ".join(f"{w} {fmt_money(Decimal(str(a)))}" for w, a in shown["wagers"].items())
        others = "; ".join(
            f"seat {o['seat']} {_cards(o['high'])} / {_cards(o['low'])}" for o in shown["others"]
        )
        typer.echo(
            f"Hand {hand.number}: dealer {_cards(shown['dealer_set']['high'])} / "
            f"{_cards(shown['dealer_set']['low'])}; player "
            + (f"(seat {shown['seat']}) " if others else "")
            + f"{_cards(shown['player']['high'])} / {_cards(shown['player']['low'])}"
            + (f"\n  other seats: {others}" if others else "")
            + f"\n  wagers: {wagers}\n  answer: "
            f"{' '.join(shown['order'])} (each net, +12.50 or -10) or the total"
        )


def _run(drill: training.Drill, as_json: bool, header: str) -> None:
    from dealer.cli.console import Console

    if not as_json:
        typer.echo(header)
    _show_hand(drill.first, as_json)

    def show(said: training.Answered | training.Finished) -> None:
        if isinstance(said, training.Finished):
            _show_summary(said, as_json, drill.trainee)
            return
        judged = said.judged
        if as_json:
            _echo(judged.to_json())
        else:
            typer.echo("Right." if judged.correct else "Missed.")
            for line in judged.lines:
                typer.echo(f"  {line}")
        if said.next is not None:
            _show_hand(said.next, as_json)

    console: Console[training.Answered | training.Finished] = Console(as_json, interrupt_ends=True)
    try:
        console.run(drill, show)
    except KeyboardInterrupt:  # Ctrl-C between two reads: the drill ends all the same
        show(drill.finish())


def _show_summary(done: training.Finished, as_json: bool, trainee: str | None) -> None:
    if as_json:
        _echo(done.to_json())
        return
    summary = done.summary
    pace = "" if done.seconds_per_hand is None else f", {done.seconds_per_hand} s a hand"
    typer.echo(
        f"Score: {summary.score} of {summary.hands} ({summary.to_json()['accuracy']}%){pace}; "
        f"seed {done.seed}."
    )
    if summary.missed:
        way = summary.drill == "house-way"
        missed = ", ".join(
            f"{'§' if way else ''}{k} ×{n}" for k, n in sorted(summary.missed.items())
        )
        typer.echo(f"Missed {'clauses' if way else 'pay rows'}: {missed}")
    if done.record_id is not None:
        kind = "signed by" if done.own_session else "a practice drill, kept for"
        typer.echo(f"Training record {done.record_id} {kind} {trainee}.")


@app.command("house-way")
@at_desk(analysis=True)
def house_way(
    desk: Desk,
    house: HouseRules,
    house_way: Annotated[
        str | None,
        typer.Option("--house-way", help="trump-plaza, foxwoods or a House Way file."),
    ] = None,
    hands: HandsOption = None,
    seed: SeedOption = None,
    trainee: TraineeOption = None,
    pin: TraineePinOption = None,
    clause: Annotated[
        str | None, typer.Option("--clause", help="Only hands these clauses decide: 3a,4.")
    ] = None,
    as_json: JsonFlag = False,
) -> None:
    """Set seven-card hands by the House Way: type the two low cards (Kd 9c), or
    high … / low …; each answer judged at once. Ctrl-D or Ctrl-C ends with the score."""
    drill = training.house_way_drill(
        desk,
        house,
        hands=hands,
        seed=seed,
        trainee=_trainee(trainee, pin),
        house_way=house_way,
        clauses=_names(clause, "--clause"),
        pin=pin,
    )
    way = drill.settings["house_way"]
    _run(
        drill,
        as_json,
        f"House Way drill: {way['name']} v{way['version']}, {drill.drill.total} hands. Type "
        "the two low cards (Kd 9c), or high … / low ….",
    )


@app.command()
@at_desk(analysis=True)
def payouts(
    desk: Desk,
    house: HouseRules,
    wagers: Annotated[
        str,
        typer.Option(
            "--wagers",
            help="The wagers placed: base,insurance,treasure,envy,progressive_insurance,"
            "progressive_treasure (envy: with treasure, and one to three other seats).",
        ),
    ] = "base,insurance,treasure",
    hands: HandsOption = None,
    seed: SeedOption = None,
    trainee: TraineeOption = None,
    pin: TraineePinOption = None,
    event: Annotated[
        str | None,
        typer.Option("--event", help="Only hands with these bonus events: flush,straight."),
    ] = None,
    as_json: JsonFlag = False,
) -> None:
    """Pay settled seats: type each wager's net (+12.50 +100 -1) or the total; judged to the
    cent against the settlement. Ctrl-D or Ctrl-C ends with the score."""
    drill = training.payout_drill(
        desk,
        house,
        wagers=_names(wagers, "--wagers"),
        hands=hands,
        seed=seed,
        trainee=_trainee(trainee, pin),
        events=_names(event, "--event"),
        pin=pin,
    )
    _run(drill, as_json, f"Payout drill: {drill.drill.total} hands.")


@app.command()
def report(
    trainee: TraineeOption = None,
    as_json: JsonFlag = False,
    db: DbOption = None,
) -> None:
    """Each trainee's drills over time, accuracy by clause and pay row, and certificates."""
    reports = training.report(db, _trainee(trainee))
    if as_json:
        _echo({"trainees": [r.to_json() for r in reports]})
        return
    if not reports:
        typer.echo("No training on the record.")
        return
    from dealer.cli import render

    for r in reports:
        typer.echo(f"Trainee {r.trainee}")
        rows = [
            [
                d.record_id,
                d.recorded_at[:19] + "Z",
                d.drill,
                f"{d.score}/{d.hands}",
                f"{d.percent}%",
                "own PIN" if d.own_session else "practice",
                ",".join(d.limited),
            ]
            for d in r.drills
        ]
        headers = ["record", "at", "drill", "score", "%", "session", "limited to"]
        typer.echo(render.table(rows, headers))
        for drill, keys in r.by_key.items():
            lines = [
                [key, asked, missed, f"{100 * (asked - missed) / asked:.1f}%"]
                for key, (asked, missed) in sorted(keys.items())
            ]
            typer.echo(f"{drill}, by clause or pay row:")
            typer.echo(render.table(lines, ["key", "asked", "missed", "right"]))
        for c in r.certificates:
            standing = "" if c.problem is None else f" (does not count: {c.problem})"
            typer.echo(
                f"Certified on {c.drill} by {c.supervisor}, record {c.record_id} "
                f"(training record {c.training}){standing}"
            )
        typer.echo("")


@app.command()
def certify(
    trainee: Annotated[str, typer.Argument(help="The trainee's id.")],
    drill: Annotated[
        str, typer.Option("--drill", help="The drill passed: house-way or payouts.")
    ] = "house-way",
    supervisor: Annotated[
        str | None,
        typer.Option("--supervisor", envvar="DEALER_USER", help="The supervisor's id."),
    ] = None,
    pin: PinOption = None,
    profile: ProfileOption = None,
    as_json: JsonFlag = False,
    db: DbOption = None,
) -> None:
    """Certify that a trainee passed the table profile's standard (training.pass_percent over
    at least training.min_hands hands) on their latest whole drill: signed, or refused saying
    why."""
    if not supervisor:
        raise DealerError("this needs a supervisor: --supervisor ID (or DEALER_USER)")
    who = inputs.user_id(supervisor, "--supervisor")
    name = inputs.user_id(trainee, "trainee")
    made = training.certify(
        db, HouseRules(profile), name, drill, supervisor=who, pin=pin_or_ask(pin, who)
    )
    if as_json:
        _echo({"record_id": made, "trainee": name, "drill": drill})
    else:
        typer.echo(f"Certificate recorded as record {made}: {name} passed the {drill} drill.")
