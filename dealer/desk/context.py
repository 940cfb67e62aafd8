"""Who is acting, at which table, into which audit log, under which house rules: decided
once, here; and the audit log opened for one thing a person does, then closed."""

from __future__ import annotations

import os
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from dealer.audit import is_postgres_url
from dealer.kernel.errors import AuditError, DealerError
from dealer.kernel.tuples import NamedTuple

if TYPE_CHECKING:
    from dealer.audit.authority import Countersigner
    from dealer.audit.storage import Storage
    from dealer.games.paigow.profile import Profile


class DeskNotice(UserWarning):
    """Something a person should hear that is not an error (a folder created for them): the desk
    says it as a warning, the CLI shows it as a `note:` line on stderr; it never prints."""


DEFAULT_DB = Path("logs") / "dealer.sqlite"
"""The audit log when neither `--db` nor `DEALER_DB` names one (under the current directory)."""


DEMO_TABLE = "DEMO"
"""The table every demo round is dealt at, with its own meters: a demo never touches a real
table (the command refuses `--table` and does not read `DEALER_TABLE`), and no supervisor
assigns it a profile."""


LogLocation = Path | str
"""Where the audit log is, as `--db` or `DEALER_DB` give it: an SQLite file (a path), or a
PostgreSQL database (a `postgresql://` URL: see `location`)."""


def location(db: LogLocation) -> LogLocation:
    """`db` as the log's place: a `postgresql://` (or `postgres://`) URL kept as text, anything
    else a file path; never SQLite's in-memory name (`:memory:`, or nothing), which would
    record into nothing."""
    if str(db).strip() in ("", ":memory:"):
        raise AuditError(
            f"the audit log {str(db)!r} would be SQLite's in-memory database, which keeps "
            "nothing: name the log's file (or a postgresql:// URL)"
        )
    text = str(db).strip() if isinstance(db, str) else db
    return text if is_postgres_url(text) else Path(db)


def shown(db: LogLocation) -> str:
    """`db` as a person may see it: a URL without its password."""
    if isinstance(db, str):
        from dealer.audit.postgres import redact

        return redact(db)
    return str(db)


class Desk(NamedTuple):
    """Who is acting (user id), at which table (`""` when none is named: a ruling that moves no
    meter is recorded with no table, and one that does is refused, `metered_table`), into which
    audit log; and the supervisor who approved the `--rule` changes the desk rules with
    (`rule_changes.changed_profile`), who countersigns each ruling made with them."""

    db: LogLocation
    user: str
    table: str
    approver: Countersigner | None = None
    named: bool = True
    """Whether the user was named (`--user`, `DEALER_USER`) rather than taken from the login:
    at a table a supervisor assigned, a ruling naming no user is the signed-in dealer's."""


def default_db() -> LogLocation:
    """The audit database: env `DEALER_DB`, else `logs/dealer.sqlite` under the current
    directory."""
    configured = os.environ.get("DEALER_DB", "").strip()
    return location(configured) if configured else DEFAULT_DB


def log_location(db: LogLocation | None) -> LogLocation:
    """Where the audit log is: `db` as given (`--db`, see `location`), else `default_db()`."""
    return location(db) if db is not None else default_db()


def desk_for(
    db: LogLocation | None = None,
    user: str | None = None,
    table: str | None = None,
) -> Desk:
    """The desk for one command: the database given (else `default_db()`), the user given (else
    the login a PostgreSQL URL names, which the server takes records in the name of, else the
    terminal's login name), the table given (else none, `""`: no table is ever made up). The
    user and table ids are checked here, once (letters, digits and a few marks): they go on the
    record and on screens."""
    from dealer import inputs

    place = log_location(db)
    login = url_login(place)
    return Desk(
        place,
        inputs.user_id(user or login) if user or login else inputs.login_name(),
        inputs.table_id(table) if table else "",
        named=bool(user),
    )


def url_login(place: LogLocation) -> str | None:
    """The login a PostgreSQL URL names (`postgresql://d-104@db.floor/dealer`: `d-104`), None
    for a file or a URL that names none."""
    if not isinstance(place, str):
        return None
    from urllib.parse import unquote, urlsplit

    try:
        name = urlsplit(place).username
    except ValueError:
        return None
    return unquote(name) if name else None


def metered_table(desk: Desk, what: str, where: str = "") -> Desk:
    """`desk`, for a ruling that reads and moves a table's progressive meters (`what`: `a round
    settles`); refused in one line saying how to name the table when it names none (`where`:
    one more place a table may be named, `, or table: in the round file`). A made-up table
    would keep meters of its own that no table pays from."""
    if not desk.table:
        raise DealerError(
            f"{what} at a table's progressive meters: name the table with --table ID "
            f"(or DEALER_TABLE){where}"
        )
    return desk


def own_table_desk(db: LogLocation | None, user: str | None, table: str, named: str | None) -> Desk:
    """The desk of the demo, dealt at its own table (`DEMO`) whatever the terminal's table, so it
    never reads or moves a real table's meters: a table named on the command (`named`) is
    refused; `DEALER_TABLE` is not read (the round shows its table, and `--help` says so; a
    note would make a refused demo's one `Error:` line two)."""
    if named is not None:
        raise DealerError(
            f"--table: the demo is dealt at its own table {table}, never at a real table "
            "(leave out --table)"
        )
    return desk_for(db, user, table)


class HouseRules(NamedTuple):
    """The house rules a command rules under: a table profile file (else the default profile)
    and `--rule KEY=VALUE` overrides, in order; on a ruling command, the supervisor (id and PIN)
    who approves those overrides where the table's profile is an approved one; and the House
    Way a setting command names (`--house-way`), one more change where it is not the
    profile's."""

    profile: Path | None = None
    rules: tuple[str, ...] = ()
    supervisor: str | None = None
    pin: str | None = None
    house_way: str | None = None

    @classmethod
    def of(
        cls,
        profile: Path | None,
        rules: Sequence[str] | None,
        supervisor: str | None = None,
        pin: str | None = None,
    ) -> HouseRules:
        """From the command's `--profile`, `--rule` (and `--supervisor`, `--pin`) options."""
        return cls(profile, tuple(rules or ()), supervisor, pin)

    def load(self) -> Profile:
        """The table profile these rules make."""
        from dealer.games.paigow.profile import load_profile

        return load_profile(self.profile, self.rules, self.house_way)


def open_desk_log(
    db: LogLocation | None, *, existing: bool = False, read_only: bool = False
) -> Storage:
    """The audit log at `db` as an operator names it (else `default_db()`), opened through
    `dealer.audit.open_log`, which opens the storage at an exact path.

    For writing, a new log is created on first use; the default folder `logs/` is created then
    (0700, with a `DeskNotice` the CLI shows), any other folder must exist. With `existing`, an
    AuditError instead of creating one (reading a log that is not there is a mistake). With
    `read_only` (the reading commands), the existing log is opened read-only: never migrated or
    changed."""
    from dealer.audit import open_log  # the log's modules load on first use

    path = log_location(db)
    if isinstance(path, str):
        return open_log(path, read_only=read_only)
    if (existing or read_only) and not path.exists():
        raise AuditError(f"there is no audit database at {path}")
    if not read_only and path == DEFAULT_DB:
        _make_default_folder(path.parent)
    return open_log(path, read_only=read_only)


def _make_default_folder(folder: Path) -> None:
    """Create the default log folder (0700) if it is missing, and say so (a `DeskNotice`)."""
    if folder.exists():
        return
    try:
        folder.mkdir(mode=0o700)
        os.chmod(folder, 0o700)  # exactly, whatever the umask
    except FileExistsError:
        return  # another process made it just now
    except OSError as exc:
        raise AuditError(f"cannot create the folder {folder} for the audit log: {exc}") from None
    warnings.warn(DeskNotice(f"created the folder {folder} for the audit log"), stacklevel=3)
