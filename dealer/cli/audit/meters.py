"""`dealer audit meter …`: a table's progressive meters (or their link's), shown and set by hand."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from dealer import inputs
from dealer.cli.audit.options import (
    SUPERVISOR,
    ReasonOption,
    Supervisor,
    answer,
)
from dealer.cli.common import (
    HOUSE,
    DbOption,
    JsonFlag,
    TableOption,
    composed,
)
from dealer.desk import supervision
from dealer.desk.context import HouseRules
from dealer.kernel.errors import DealerError
from dealer.kernel.money import fmt_money, money_json

app = typer.Typer(help="Progressive meters: show, adjust by hand.", no_args_is_help=True)


@app.command("show")
@composed(house=HOUSE)
def meter_show(
    house: HouseRules,
    name: Annotated[
        str, typer.Argument(help="The meter: progressive_insurance, progressive_treasure.")
    ],
    table_id: TableOption = None,
    as_json: JsonFlag = False,
    db: DbOption = None,
) -> None:
    """A progressive meter's current value (a meter the table's profile links: the link's, and
    the tables that moved it lately)."""
    if not table_id:
        raise DealerError("which table's meter? --table ID (or DEALER_TABLE)")
    shown = supervision.meter(db, inputs.table_id(table_id), name, house)
    value = None if shown.value is None else money_json(shown.value)
    data: dict[str, Any] = {"table": table_id, "meter": name, "value": value}
    text = f"{name} at {table_id}: {'not set' if shown.value is None else fmt_money(shown.value)}"
    if shown.link is not None:
        data |= {"link": shown.link, "tables": list(shown.tables)}
        lately = ", ".join(shown.tables) or "none yet"
        text += f" (linked: {shown.link}, shared by its tables; moved lately at {lately})"
    answer(as_json, data, text)


@app.command("adjust")
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
    made, now, link = supervision.adjust_meter(
        db, house, table_id, name, value, reason, supervisor=who.user_id, pin=who.pin
    )
    data = {"record_id": made, "table": table_id, "meter": name, "value": money_json(now)}
    linked = "" if link is None else f" (link {link}, shared by its tables)"
    answer(
        as_json,
        data | ({} if link is None else {"link": link}),
        f"{name} at {table_id}{linked} set to {fmt_money(now)} (record {made}).",
    )
