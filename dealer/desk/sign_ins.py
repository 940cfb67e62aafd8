"""A dealer signing in at a table, or out of it, with their own PIN (`dealer sign-in`, `dealer
sign-out`, and once at the start of a live table session at an assigned table: `seated`): each
opens the log, does the one thing, closes it."""

from __future__ import annotations

from collections.abc import Callable
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


def seated(desk: Desk, ask_pin: Callable[[str], str]) -> Desk:
    """The desk a live table session rules from: at a table a supervisor assigned, its dealer
    signed in there — the one signed in already (the desk's user, or whoever is when the desk
    names none), else the desk's user signed in now with the PIN `ask_pin` asks of them (once a
    session). At a table never assigned, `desk` as it is."""
    from dealer.audit import assignments, sign_ins

    if not desk.table:
        return desk
    with open_desk_log(desk.db) as log:
        if assignments.assigned(log, desk.table) is None:
            return desk
        standing = sign_ins.sitting(log, desk.table)
        if standing is not None and (not desk.named or standing.user_id == desk.user):
            return desk._replace(user=standing.user_id, named=True)
        made = sign_ins.sign_in(log, desk.user, ask_pin(desk.user), desk.table, typer=desk.user)
    return desk._replace(user=made.user_id, named=True)
