"""`dealer paytables …`: list the pay tables, show one, validate a pay-table file."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer

from dealer.cli.common import JsonFlag
from dealer.cli.render import table as render_table
from dealer.desk import paytables as desk_paytables
from dealer.kernel.errors import PayTableError

app = typer.Typer(
    help="The bonus-wager pay tables: the seed's, and an operator's own.", no_args_is_help=True
)

TablesOption = Annotated[
    list[Path] | None,
    typer.Option("--tables", help="Also load the pay-table files of this directory (repeatable)."),
]


def _echo_json(value: dict[str, Any]) -> None:
    typer.echo(json.dumps(value, ensure_ascii=False))


@app.command("list")
def list_(as_json: JsonFlag = False, tables: TablesOption = None) -> None:
    """List every pay table: id, wager, rows, file."""
    library = desk_paytables.library(tables)
    if as_json:
        _echo_json(
            {
                "paytables": [
                    {
                        "id": t.id,
                        "wager": t.wager,
                        "name": t.name,
                        "basis": t.basis,
                        "rows": len(t.rows),
                        "file": t.path,
                    }
                    for t in library
                ]
            }
        )
        return
    rows = [[t.id, t.wager, t.name, str(len(t.rows)), Path(t.path).name] for t in library]
    typer.echo(render_table(rows, ["id", "wager", "name", "rows", "file"]))


@app.command()
def show(
    table_id: Annotated[str, typer.Argument(metavar="ID", help="A pay-table id: E01, PT-….")],
    as_json: JsonFlag = False,
    tables: TablesOption = None,
) -> None:
    """Show one pay table: every row, its event and its pay."""
    table = desk_paytables.paytable(table_id, tables)
    if as_json:
        _echo_json(table.to_dict())
        return
    rows = [[str(r.number), r.label, r.event, r.pay.text()] for r in table.rows]
    out = [
        f"{table.id}: {table.name} ({table.wager}, pays {table.basis})",
        f"source: {table.source} ({table.path})",
        render_table(rows, ["row", "triggering event", "event id", "pays"]),
    ]
    out += [f"  · {note}" for note in table.notes]
    typer.echo("\n".join(out))


@app.command()
def validate(
    file: Annotated[Path, typer.Argument(help="A pay-table YAML file.")],
    as_json: JsonFlag = False,
) -> None:
    """Check a pay-table file against the schema and the shipped ids; list every problem."""
    checked = desk_paytables.validate(file)
    problems, found = list(checked.problems), list(checked.tables)
    if as_json:
        _echo_json(
            {"file": str(file), "valid": checked.valid, "tables": found, "problems": problems}
        )
    elif checked.valid:
        typer.echo(f"{file}: valid: {len(found)} table(s): {', '.join(found)}")
    else:
        for problem in problems:
            typer.echo(problem)
    if not checked.valid:
        count = f"{len(problems)} problem" + ("s" if len(problems) > 1 else "")
        raise PayTableError(f"{file}: not valid ({count})")
