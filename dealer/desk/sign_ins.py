"""A dealer signing in at a table, or out of it, with their own PIN (`dealer sign-in`, `dealer
sign-out`): each opens the log, does the one thing, closes it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from dealer.desk.context import Desk, open_desk_log

if TYPE_CHECKING:
    from dealer.audit.sign_ins import Sitting


def sign_in(desk: Desk, pin: str) -> Sitting:
    """Sign the desk's user in at the desk's table with their PIN; the sitting it starts."""
    from dealer.audit import sign_ins

    with open_desk_log(desk.db) as log:
        return sign_ins.sign_in(log, desk.user, pin, desk.table, typer=desk.user)


def sign_out(desk: Desk, pin: str) -> int:
    """Sign the desk's user out of the desk's table with their PIN; the record's number."""
    from dealer.audit import sign_ins

    with open_desk_log(desk.db, existing=True) as log:
        return sign_ins.sign_out(log, desk.user, pin, desk.table, typer=desk.user)
