"""What a supervisor does at the floor: override or void a ruling, sign off a large pay, open
and resolve disputes (and correct a resolved dispute's amount), register and change users, show
and adjust the progressive meters, approve a table profile, a pay-table file, a House Way file
or an Empire combination table. Each function opens the log, does one thing, closes it; every
supervisor action is checked against the supervisor's id and PIN (a registered user's refusal
is on the record), and typed values are checked first, so a refused value writes nothing."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING, Any

from dealer.audit import corrections, disputes, meters, signoffs, staff, users
from dealer.audit.authority import append_supervised
from dealer.audit.disputes import AMOUNT_LIMIT, Dispute, DisputeOutcome, Review
from dealer.audit.meters import MeterAction, MeterMove, MoveKind
from dealer.audit.records import Entry, RecordFilter, RecordKind, Role
from dealer.audit.users import User
from dealer.desk.context import Desk, HouseRules, LogLocation, log_location, open_desk_log
from dealer.inputs import money, signed_money, text_file
from dealer.kernel.digest import sha256_hex
from dealer.kernel.errors import AccessError, DealerError
from dealer.kernel.text import quoted
from dealer.kernel.tuples import NamedTuple

if TYPE_CHECKING:
    from dealer.audit.storage import Storage

__all__ = [
    "AMOUNT_LIMIT",
    "Approval",
    "Dispute",
    "DisputeOutcome",
    "MeterAction",
    "MeterMove",
    "MeterSet",
    "MoveKind",
    "RecordKind",
    "User",
    "Review",
    "Role",
    "UserChange",
    "add_user",
    "adjust_meter",
    "approve",
    "change_user",
    "correct_dispute",
    "list_disputes",
    "list_users",
    "meter",
    "meter_book",
    "new_recovery_key",
    "open_dispute",
    "override",
    "recover",
    "resolve_dispute",
    "sign_off",
    "void",
]


class UserChange(NamedTuple):
    """A user registered or changed: the record that did it, the user's standing now, whether
    it was the bootstrap of the first supervisor, and the operator's recovery key it made (the
    bootstrap's, a recovery's: to be shown once)."""

    record_id: int
    user: User | None
    bootstrap: bool = False
    recovery_key: str | None = None


class MeterSet(NamedTuple):
    """A meter set by hand: the record and the meter's value now."""

    record_id: int
    value: Decimal
    link: str | None = None


class Approval(NamedTuple):
    """A rules file approved: the record, the SHA-256 of its text, and what it holds (the
    profile's name, the ids of the pay tables, or the House Way's or combination table's name
    and version)."""

    record_id: int
    sha256: str
    names: tuple[str, ...]


def override(
    db: LogLocation | None,
    record_id: int,
    *,
    decision: str,
    reason: str,
    result: Mapping[str, Any] | None,
    supervisor: str,
    pin: str,
) -> int:
    """Override ruling `record_id` with the supervisor's decision (and ruling, if given): a new
    record linked to it. Returns the override's id. A replacement result for a Pai Gow settle
    or round that gives figures gives them in the ruling's form, each amount passing the money
    type (`dealer.games.paigow.figures`), so no summary of the table can fail on them."""
    with open_desk_log(db, existing=True) as log:
        ruling = None if result is None else log.record(record_id)
        if result is not None and ruling is not None and ruling.game == "paigow":
            from dealer.games.paigow.figures import check_figures

            check_figures(ruling.action, result)
        return corrections.override(
            log,
            record_id,
            decision=decision,
            reason=reason,
            result=result,
            supervisor_id=supervisor,
            pin=pin,
        )


def void(db: LogLocation | None, record_id: int, *, reason: str, supervisor: str, pin: str) -> int:
    """Void a ruling or an override: a new record linked to it. Returns its id."""
    with open_desk_log(db, existing=True) as log:
        return corrections.void(log, record_id, reason=reason, supervisor_id=supervisor, pin=pin)


def sign_off(db: LogLocation | None, record_id: int, *, supervisor: str, pin: str) -> int:
    """Sign off a ruling's large pay: a new record linked to it. Returns its id."""
    with open_desk_log(db, existing=True) as log:
        return signoffs.sign_off(log, record_id, supervisor_id=supervisor, pin=pin)


def open_dispute(
    desk: Desk,
    description: str,
    *,
    seat: int | None = None,
    occurred_at: str | None = None,
    parties: Sequence[str] = (),
    video: str = "",
    rulings: Sequence[int] = (),
) -> int:
    """Open a dispute at the desk's table, by the desk's user (any dealer or supervisor);
    `occurred_at` in the stored UTC form, default now. Returns the dispute's id."""
    with open_desk_log(desk.db, existing=True) as log:
        return disputes.open_dispute(
            log,
            user_id=desk.user,
            table_id=desk.table,
            description=description,
            seat=seat,
            occurred_at=occurred_at,
            parties=parties,
            video=video,
            rulings=rulings,
        )


def resolve_dispute(
    db: LogLocation | None, dispute_id: int, *, outcome: str, amount: str, review: Review
) -> tuple[int, Dispute]:
    """Resolve a dispute (outcome, amount adjusted as typed: + paid to the patron, − taken
    back) under `review`; the resolution's record id and the dispute as it now stands."""
    return _reviewed(
        db,
        dispute_id,
        amount,
        lambda log, adjusted: disputes.resolve_dispute(
            log, dispute_id, outcome=outcome, amount_adjusted=adjusted, review=review
        ),
    )


def correct_dispute(
    db: LogLocation | None, dispute_id: int, *, amount: str, review: Review
) -> tuple[int, Dispute]:
    """Correct a resolved dispute's amount adjusted (as typed) under `review`: a record linked
    to the dispute. The correction's record id and the dispute as it now stands."""
    return _reviewed(
        db,
        dispute_id,
        amount,
        lambda log, adjusted: disputes.correct_amount(
            log, dispute_id, amount_adjusted=adjusted, review=review
        ),
    )


def _reviewed(
    db: LogLocation | None,
    dispute_id: int,
    amount: str,
    decide: Callable[[Storage, Decimal], int],
) -> tuple[int, Dispute]:
    """The amount adjusted read as typed (signed, bounded), the reviewed decision made on the
    log, and the dispute as it then stands."""
    adjusted = signed_money(amount, "the amount adjusted", limit=AMOUNT_LIMIT)
    with open_desk_log(db, existing=True) as log:
        return decide(log, adjusted), disputes.dispute(log, dispute_id)


def list_disputes(
    db: LogLocation | None, *, open_only: bool = True, table_id: str | None = None
) -> list[Dispute]:
    """The open disputes (every dispute without `open_only`), oldest first."""
    with open_desk_log(db, read_only=True) as log:
        return disputes.disputes(log, open_only=open_only, table_id=table_id)


def list_users(db: LogLocation | None) -> list[User]:
    """Every registered user and their standing (never their PINs), by id."""
    with open_desk_log(db, read_only=True) as log:
        return users.all_users(log)


def add_user(
    db: LogLocation | None,
    user_id: str,
    role: str,
    *,
    pin: str | None,
    supervisor: str | None,
    credentials: Callable[[], tuple[str, str]],
) -> UserChange:
    """Register `user_id` with `role` (and their own PIN).

    The first supervisor of a log bootstraps: while no supervisor was ever registered, and no
    supervisor other than the new user is named, the user registers themself (and must be a
    supervisor with a PIN). Otherwise `credentials()` is asked for the supervisor's id and PIN
    (only then, so a bootstrap asks for no PIN but the new one). The role and the new PIN are
    checked before the log is opened, and a log that is not there yet is made only for its
    first supervisor: a refused first user leaves no log behind."""
    from dealer.audit import keys

    users.check_role(role)
    if pin is not None:
        keys.check_secret(pin, user_id)
    path = log_location(db)
    if isinstance(path, Path) and not path.exists() and (role != Role.SUPERVISOR or pin is None):
        raise AccessError(staff.FIRST_USER)
    with open_desk_log(db) as log:
        bootstrap = not log.supervisor_ever_registered() and supervisor in (None, user_id)
        if bootstrap:
            first = staff.bootstrap(log, user_id, role, pin)
            return UserChange(first.record_id, users.user(log, user_id), True, first.recovery_key)
        who, secret = credentials()
        made = staff.add_user(log, user_id, role, pin=pin, supervisor_id=who, supervisor_pin=secret)
        return UserChange(made, users.user(log, user_id))


def recover(db: LogLocation | None, user_id: str, *, pin: str, recovery_key: str) -> UserChange:
    """Register `user_id` as an active supervisor with `pin` (or make them one again),
    authorised by the operator's recovery key; the change carries the new recovery key."""
    with open_desk_log(db, existing=True) as log:
        made = staff.recover(log, user_id, pin, recovery_key)
        return UserChange(made.record_id, users.user(log, user_id), False, made.recovery_key)


def new_recovery_key(db: LogLocation | None, *, supervisor: str, supervisor_pin: str) -> UserChange:
    """Replace the operator's recovery key (a supervisor action)."""
    with open_desk_log(db, existing=True) as log:
        made = staff.new_recovery_key(log, supervisor, supervisor_pin)
        return UserChange(made.record_id, None, False, made.recovery_key)


def change_user(
    db: LogLocation | None,
    user_id: str,
    *,
    role: str | None = None,
    pin: str | None = None,
    active: bool | None = None,
    supervisor: str,
    supervisor_pin: str,
) -> UserChange:
    """Change a user's role, PIN or active flag (a supervisor action)."""
    with open_desk_log(db, existing=True) as log:
        made = staff.change_user(
            log,
            user_id,
            role=role,
            pin=pin,
            active=active,
            supervisor_id=supervisor,
            supervisor_pin=supervisor_pin,
        )
        return UserChange(made, users.user(log, user_id))


RECENT_MOVES = 50
"""How many of a linked meter's newest records `meter` looks at for the tables that moved it."""


class MeterShown(NamedTuple):
    """A progressive meter's value at a table (None: never set); for a meter the table's profile
    links, its link and the tables that moved it lately (newest first, among its newest
    `RECENT_MOVES` records)."""

    value: Decimal | None
    link: str | None = None
    tables: tuple[str, ...] = ()


def meter(db: LogLocation | None, table_id: str, name: str, house: HouseRules) -> MeterShown:
    """A progressive meter at a table: the table's own, or the link's where the table's profile
    (its assignment's, else `house`'s: `assignments.table_profile`) links the meter (its terms
    checked as a ruling checks them); the meter named is one of the progressive wagers'."""
    from dealer.desk.assignments import table_profile
    from dealer.desk.paigow import meter_link
    from dealer.games.paigow.pay import PROGRESSIVES

    if name not in PROGRESSIVES:
        raise DealerError(
            f"there is no meter {quoted(name)}: the meters are {', '.join(PROGRESSIVES)}"
        )
    link = meter_link(table_profile(db, table_id, house), name)
    with open_desk_log(db, read_only=True) as log:
        value = meters.current(log, table_id, name, link)
        if link is None:
            return MeterShown(value)
        recent = log.link_records(link.link, RECENT_MOVES)
    tables = tuple(dict.fromkeys(r.table_id for r in recent))
    return MeterShown(value, link.link, tables)


def meter_book(db: LogLocation | None, flt: RecordFilter) -> list[MeterMove]:
    """The meter records matching `flt` (oldest first), each read with the ruling it follows
    (`meters.movement`): a meter's seed, a ruling's contributions and hits, a supervisor's
    adjustments."""
    with open_desk_log(db, read_only=True) as log, log.snapshot():
        found = log.records(flt._replace(kind=RecordKind.METER))
        wanted = {r.links_to for r in found if r.action == MeterAction.MOVE}
        rulings = {i: log.record(i) for i in wanted if i is not None}
    return [
        meters.movement(r, None if r.links_to is None else rulings.get(r.links_to)) for r in found
    ]


def adjust_meter(
    db: LogLocation | None,
    house: HouseRules,
    table_id: str,
    name: str,
    value: str,
    reason: str,
    *,
    supervisor: str,
    pin: str,
) -> MeterSet:
    """Set a progressive meter by hand (a supervisor action, on the record): a meter of the
    table profile (its assignment's, else `house`'s: `assignments.table_profile`), to whole
    cents from its seed to its cap. A meter the profile links is the link's, set from any of
    its tables, within the link's terms (the profile's must be the link's). A refused value
    writes nothing."""
    from dealer.desk.assignments import table_profile
    from dealer.desk.paigow import meter_ranges

    ranges = meter_ranges(table_profile(db, table_id, house))
    meters.range_of(ranges, name)
    amount = money(value, f"meter {name}")
    with open_desk_log(db, existing=True) as log:
        made = meters.adjust(
            log, table_id, name, amount, reason, ranges=ranges, supervisor_id=supervisor, pin=pin
        )
    return MeterSet(made, amount, ranges[name].link)


def approve(
    db: LogLocation | None,
    kind: RecordKind,
    file: Path,
    reason: str,
    *,
    supervisor: str,
    pin: str,
    table_id: str = "",
) -> Approval:
    """Approve a rules file for use, by the approval record `kind` — a table profile, a pay-table
    file, a House Way file (`--house-way FILE`, `rules.house_way`), an Empire combination table
    (`--combinations FILE`): checked as a ruling would load it (`_CHECKED`), then recorded with
    its text and SHA-256, which every ruling it decides carries (settings.profile_sha256,
    paytables_sha256, house_way_sha256, combinations_sha256). A House Way file a profile names
    is read and checked with it, and its SHA-256 recorded (`house_way_file`): the profile's
    approval covers that file as it is now, not as it is edited later."""
    what, summary, names = _CHECKED[kind](file)
    entry, digest = _approval(kind, file, what, summary, reason, supervisor, table_id)
    with open_desk_log(db, existing=True) as log:
        return Approval(append_supervised(log, entry, pin), digest, names)


Checked = tuple[str, dict[str, Any], tuple[str, ...]]
"""A rules file checked for approval: what it is (for an error naming it), what its approval
record says it holds, and the names an answer gives it."""


def _profile(file: Path) -> Checked:
    from dealer.games.paigow.house_way import SHIPPED, load_house_way
    from dealer.games.paigow.profile import load_profile

    profile = load_profile(file)
    way = load_house_way(profile.house_way)
    named = (
        {}
        if profile.house_way in SHIPPED
        else {"house_way_file": {"file": way.origin, "sha256": way.sha256}}
    )
    summary = {"profile": profile.name, "settings": profile.settings(), **named}
    return "profile", summary, (profile.name,)


def _paytables(file: Path) -> Checked:
    from dealer.games.paigow.paytables import load_file

    ids = tuple(t.id for t in load_file(file))
    return "pay-table file", {"paytables": list(ids)}, ids


def _house_way(file: Path) -> Checked:
    from dealer.games.paigow.house_way import load_house_way

    way = load_house_way(str(file))
    named = {"name": way.name, "version": way.version}
    return "House Way file", {"house_way": named}, (f"{way.name} v{way.version}",)


def _combinations(file: Path) -> Checked:
    from dealer.games.empire.combinations import load_table

    table = load_table(file)
    named = {"name": table.name, "version": table.version}
    return "combination table", {"combinations": named}, (f"{table.name} v{table.version}",)


_CHECKED: dict[RecordKind, Callable[[Path], Checked]] = {
    RecordKind.PROFILE_CHANGE: _profile,
    RecordKind.PAYTABLE_CHANGE: _paytables,
    RecordKind.HOUSE_WAY_CHANGE: _house_way,
    RecordKind.COMBINATIONS_CHANGE: _combinations,
}


def _approval(
    kind: RecordKind,
    file: Path,
    what: str,
    summary: dict[str, Any],
    reason: str,
    supervisor: str,
    table_id: str,
) -> tuple[Entry, str]:
    """The record of a supervisor's approval of a rules file (its text, its SHA-256, what it
    holds), and that SHA-256: the text recorded and hashed is read here, once."""
    text = text_file(file, what)
    digest = sha256_hex(text)
    entry = Entry(
        kind=kind,
        user_id=supervisor,
        role=Role.SUPERVISOR,
        table_id=table_id,
        action="approve",
        input_text=text,
        result={"file": str(file), "sha256": digest, **summary},
        explanation=[f"{kind} approved: {file} (sha256 {digest})", f"reason: {reason}"],
        reason=reason,
    )
    return entry, digest
