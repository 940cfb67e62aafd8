"""`dealer analyze …`: exact pay-table returns, the base game's house edge, the operator's report.

Analyses rule on no hand, so they are not written to the audit log: their JSON carries
`"ruling_id": null` with the settings they used. A progress bar goes to stderr, only when it is
a terminal.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, TextIO

import typer

from dealer.cli import render
from dealer.cli.common import JsonFlag, at_desk, emit
from dealer.desk import analysis as desk_analysis
from dealer.desk.context import HouseRules
from dealer.inputs import money, optional_money
from dealer.kernel.ruling import Ruling

app = typer.Typer(
    help="Analysis for operators: pay-table returns, the base game's house edge, a report.",
    no_args_is_help=True,
)

PaytablesOption = Annotated[
    list[Path] | None,
    typer.Option("--paytables", help="Also load the pay tables of this file or directory."),
]
WagerOption = Annotated[
    str,
    typer.Option(
        "--wager",
        help="The wager the figures are for (a progressive table's fixed pays are per unit).",
    ),
]


class ProgressBar:
    """A one-line progress bar on a terminal stream; silent when the stream is not a TTY."""

    def __init__(self, label: str, stream: TextIO | None = None, width: int = 30) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.label = label
        self.width = width
        self.enabled = self.stream.isatty()
        self.drawn = False

    def __call__(self, done: int, total: int) -> None:
        """Redraw for `done` of `total`."""
        if not self.enabled or total <= 0:
            return
        filled = self.width * done // total
        bar = "#" * filled + "-" * (self.width - filled)
        self.drawn = True  # first: a Ctrl-C while drawing still gets the line ended
        self.stream.write(f"\r{self.label} [{bar}] {100 * done // total:3d}%")
        self.stream.flush()

    def close(self) -> None:
        """End the line the bar was drawn on."""
        if self.drawn:
            self.stream.write("\n")
            self.stream.flush()
            self.drawn = False


def paytable_text(ruling: Ruling) -> str:
    """`dealer analyze paytable` for people."""
    r = ruling.result
    rows = [
        [
            e["label"],
            f"{e['combinations']:,}",
            f"{e['probability']:.8f}",
            e["pays"],
            f"{e['return']:+.6f}",
        ]
        for e in r["events"]
    ]
    rows.append(["total", f"{r['hands']:,}", "1", "", f"{r['return']:+.6f}"])
    body = render.table(rows, ["event", "combinations", "probability", "pays", "return"])
    if r["wager"] is None:
        summary = (
            f"Envy paid per other player's hand: ${r['return']:.6f}; "
            f"hit frequency {r['hit_frequency']:.6f}"
        )
    else:
        summary = (
            f"house edge {r['house_edge']:.6f} ({r['house_edge']:.4%}); "
            f"hit frequency {r['hit_frequency']:.6f}"
        )
    return f"{r['paytable']}: {r['name']}\n{body}\n{summary}\n{render.reasons(ruling)}"


@app.command("paytable")
@at_desk(analysis=True)
def paytable(
    house: HouseRules,
    table_id: Annotated[str, typer.Argument(help="Pay table id, e.g. PT-FLT-EC-ET-02 or E01.")],
    wager: WagerOption = "1",
    meter: Annotated[
        str | None,
        typer.Option(
            "--meter", help="Progressive meter for %-of-meter rows.", show_default="its seed"
        ),
    ] = None,
    paytables: PaytablesOption = None,
    as_json: JsonFlag = False,
) -> None:
    """Exact return of a pay table over all 154,143,080 seven-card hands."""
    amount, at = money(wager), optional_money(meter, "meter")
    bar = ProgressBar("counting hands")
    try:
        ruling = desk_analysis.paytable_return(house, table_id, amount, at, paytables or [], bar)
    finally:
        bar.close()
    emit(ruling, None, as_json, paytable_text)


def house_edge_text(ruling: Ruling) -> str:
    """`dealer analyze house-edge` for people."""
    out = []
    for s in ruling.result["strategies"]:
        hands = s["hands"]
        way = s["house_way"]
        out.append(
            f"{way['name']} v{way['version']}, player {s['player']}: {s['rounds']:,} rounds; "
            + ", ".join(
                f"{k} {v['probability']:.2%} ±{v['standard_error']:.2%}" for k, v in hands.items()
            )
        )
        rows = [
            [
                o["dealer_pai_gow"],
                f"{o['win']:.4f}",
                f"{o['push']:.4f}",
                f"{o['lose']:.4f}",
                f"{o['house_edge']:.4%}",
                f"{o['ci95'][0]:.4%} to {o['ci95'][1]:.4%}",
            ]
            for o in s["options"]
        ]
        out.append(
            render.table(rows, ["dealer pai gow", "win", "push", "lose", "house edge", "95% CI"])
        )
    return "\n".join(out) + "\n" + render.reasons(ruling)


@app.command("house-edge")
@at_desk(analysis=True)
def house_edge(
    house: HouseRules,
    rounds: Annotated[int, typer.Option("--rounds", help="Rounds to deal.")] = 500_000,
    seed: Annotated[int, typer.Option("--seed", help="Seed: the same seed, the same figures.")] = 1,
    house_way: Annotated[
        list[str] | None,
        typer.Option(
            "--house-way",
            help="House Way (name or file), repeatable.",
            show_default="the shipped ways and the profile's",
        ),
    ] = None,
    player: Annotated[
        list[str] | None,
        typer.Option("--player", help="house-way or best, repeatable.", show_default="both"),
    ] = None,
    workers: Annotated[
        int | None,
        typer.Option("--workers", help="Processes to deal on.", show_default="every core"),
    ] = None,
    as_json: JsonFlag = False,
) -> None:
    """Simulate the base game's house edge under every dealer-pai-gow option."""
    bar = ProgressBar("dealing rounds")
    try:
        ruling = desk_analysis.house_edge(
            house,
            rounds,
            seed,
            house_way or [],
            player or [],
            workers,
            bar,
        )
    finally:
        bar.close()
    emit(ruling, None, as_json, house_edge_text)


@app.command("report")
@at_desk(analysis=True)
def report(
    house: HouseRules,
    fmt: Annotated[str, typer.Option("--format", help="markdown, text or json.")] = "markdown",
    wager: WagerOption = "1",
    insurance_meter: Annotated[
        str | None,
        typer.Option("--insurance-meter", help="Pai Gow Insurance Progressive meter."),
    ] = None,
    treasure_meter: Annotated[
        str | None,
        typer.Option("--treasure-meter", help="Emperor's Treasure Progressive meter."),
    ] = None,
    paytables: PaytablesOption = None,
    as_json: JsonFlag = False,
) -> None:
    """Every pay table side by side: pays, return, house edge, hit frequency."""
    if fmt not in ("markdown", "text", "json"):
        raise typer.BadParameter(f"{fmt!r} is not markdown, text or json", param_hint="--format")
    meters = {
        "progressive_insurance": optional_money(insurance_meter, "progressive_insurance meter"),
        "progressive_treasure": optional_money(treasure_meter, "progressive_treasure meter"),
    }
    amount = money(wager)
    bar = ProgressBar("counting hands")
    try:
        made = desk_analysis.report(house, fmt, amount, meters, paytables or [], bar)
    finally:
        bar.close()
    result = made.report
    if as_json or fmt == "json":
        typer.echo(json.dumps(made.ruling.to_json(None), ensure_ascii=False))
    elif fmt == "markdown":
        typer.echo(result.markdown(), nl=False)
    else:
        parts = [f"- {line}" for line in result.notes()]
        for section in result.sections:
            headers, rows = section.grid(result.envy_minimum)
            parts += ["", section.title, render.table(rows, headers)]
        typer.echo("\n".join(parts))
