"""The audit log: one SQLite database (through sqlite-utils) shared by every process at the floor.

Every write is one `BEGIN IMMEDIATE` transaction: the writer takes the database's write lock
before it reads the chain head, so processes ruling at once queue up instead of failing with
SQLITE_BUSY_SNAPSHOT, and a killed process leaves no partial record. WAL journal,
`synchronous=FULL` (a committed record survives a power cut) and a busy timeout.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, TypeVar

import dealer
from dealer.audit import users
from dealer.audit.chain import GENESIS_HASH, ChainCheck, Checkpoint, VerifyResult, record_hash
from dealer.audit.records import (
    ACCESS_DENIED,
    CHECKPOINT,
    DEALER,
    METER,
    SUPERVISOR,
    UNKNOWN_ROLE,
    USER,
    Entry,
    Record,
    RecordFilter,
    utc_now,
)
from dealer.audit.schema import LATEST, PROTECTION_TRIGGERS, migrate, schema_version
from dealer.audit.users import User
from dealer.kernel.errors import AccessError, AuditError

if TYPE_CHECKING:
    from sqlite_utils import Database

    from dealer.audit.disputes import Dispute

BUSY_TIMEOUT_SECONDS = 15.0
"""How long a writer waits for another process's write to finish before giving up."""

T = TypeVar("T")


def default_db_path() -> Path:
    """The audit database path: env `DEALER_DB`, else `logs/dealer.sqlite` under the current
    directory."""
    configured = os.environ.get("DEALER_DB", "").strip()
    return Path(configured) if configured else Path("logs") / "dealer.sqlite"


def _describe(exc: sqlite3.Error) -> str:
    text = str(exc)
    if "full" in text:
        return "the disk (or the database size limit) is full"
    if "locked" in text or "busy" in text:
        return (
            f"the database stayed busy for more than {BUSY_TIMEOUT_SECONDS:g} s "
            "(another process is writing)"
        )
    return text


def _decimal(value: Decimal | int | float | str, what: str) -> Decimal:
    if isinstance(value, bool):
        raise AuditError(f"{what} must be a number, not {value!r}")
    try:
        number = Decimal(str(value)) if isinstance(value, float) else Decimal(value)
    except (InvalidOperation, TypeError, ValueError):
        raise AuditError(f"{what} must be a number, not {value!r}") from None
    if not number.is_finite():
        raise AuditError(f"{what} must be a finite number, not {value!r}")
    return number


def _meter(db: Database | sqlite3.Connection, table_id: str, name: str) -> Decimal | None:
    """The newest `meter` record's value for (table, meter name): the index records_meters."""
    row = db.execute(
        "SELECT json_extract(result, '$.value') FROM records "
        "WHERE kind = 'meter' AND table_id = ? AND json_extract(result, '$.meter') = ? "
        "ORDER BY id DESC LIMIT 1",
        [table_id, name],
    ).fetchone()
    return None if row is None or row[0] is None else Decimal(row[0])


class Transaction:
    """Several writes that land together or not at all (one BEGIN IMMEDIATE … COMMIT), with the
    progressive meters read and moved under the same lock. Use through `AuditLog.transaction()`.

    `db` is for reads inside the transaction."""

    def __init__(self, log: AuditLog) -> None:
        self._log = log
        self._closed = False
        head = log.conn.execute("SELECT id, hash FROM records ORDER BY id DESC LIMIT 1").fetchone()
        self._head_id: int = head[0] if head else 0
        self._head_hash: str = head[1] if head else GENESIS_HASH
        self._last: tuple[int, Entry] | None = None

    def append(self, entry: Entry) -> int:
        """Put `entry` on the record; return its id (the ruling id). Registered users must act
        in their own role (`AuditLog.role_of`); ids never registered act as dealers."""
        self._check_actor(entry.user_id, entry.role, entry.kind)
        return self.write(entry)

    def write(self, entry: Entry) -> int:
        """Put `entry` on the record without checking who made it (for entries the audit
        package has already authorized)."""
        if self._closed:
            raise AuditError("this audit transaction is already finished")
        row = entry.stored()
        if entry.links_to is not None and not 1 <= entry.links_to <= self._head_id:
            raise AuditError(f"there is no audit record {entry.links_to} to refer to")
        row.update(
            id=self._head_id + 1,
            recorded_at=utc_now(),
            software_version=dealer.__version__,
            prev_hash=self._head_hash,
        )
        row["hash"] = record_hash(row)
        columns = ", ".join(row)
        marks = ", ".join(f":{name}" for name in row)
        with self._log.errors("write the record", writing=True):
            self._log.conn.execute(f"INSERT INTO records ({columns}) VALUES ({marks})", row)
        self._head_id, self._head_hash = row["id"], row["hash"]
        if entry.kind != METER:  # a meter move links to the ruling that moved it
            self._last = (row["id"], entry)
        return self._head_id

    def head(self) -> Checkpoint:
        """The record count and newest hash as this transaction sees them."""
        return Checkpoint(self._head_id, self._head_hash)

    def record(self, record_id: int) -> Record | None:
        """Record `record_id` as this transaction sees it, or None."""
        rows = list(self.db.query("SELECT * FROM records WHERE id = ?", [record_id]))
        return Record.from_row(rows[0]) if rows else None

    def linked(self, record_id: int, kind: str) -> list[Record]:
        """Records of `kind` that link to `record_id`, oldest first."""
        rows = self.db.query(
            "SELECT * FROM records WHERE links_to = ? AND kind = ? ORDER BY id", [record_id, kind]
        )
        return [Record.from_row(row) for row in rows]

    def meter(self, table_id: str, name: str) -> Decimal | None:
        """The current value of progressive meter `name` at `table_id`, or None if never set."""
        return _meter(self._log.conn, table_id, name)

    def set_meter(
        self,
        table_id: str,
        name: str,
        value: Decimal | int | float | str,
        reason: str,
        *,
        user_id: str | None = None,
        role: str | None = None,
        game: str | None = None,
        links_to: int | None = None,
        action: str = "move",
    ) -> int:
        """Move meter `name` at `table_id` to `value`: a `meter` record (previous value, new
        value, delta, reason). Who, game and link default to the last record appended in this
        transaction (the ruling that moved it). Returns the record id."""
        if not isinstance(name, str) or not name.strip():
            raise AuditError("a meter needs a name")
        if not isinstance(reason, str) or not reason.strip():
            raise AuditError(f"moving meter {name} needs a reason")
        new = _decimal(value, f"meter {name}")
        last_id, last = self._last if self._last else (None, None)
        if user_id is None:
            if last is None:
                raise AuditError(f"moving meter {name} needs the id of the user who moved it")
            user_id, role = last.user_id, last.role
        else:
            role = role or self._log.role_of(user_id)
            self._check_actor(user_id, role, METER)
        previous = self.meter(table_id, name)
        delta = new - (previous or Decimal(0))
        shown = "unset" if previous is None else str(previous)
        entry = Entry(
            kind=METER,
            user_id=user_id,
            role=role or DEALER,
            table_id=table_id,
            game=game if game is not None else (last.game if last else ""),
            action=action,
            result={
                "meter": name,
                "previous": None if previous is None else str(previous),
                "value": str(new),
                "delta": str(delta),
            },
            explanation=[f"Meter {name} at table {table_id}: {shown} -> {new} ({reason})"],
            links_to=links_to if links_to is not None else last_id,
            reason=reason,
        )
        return self.write(entry)

    def _check_actor(self, user_id: str, role: str, kind: str) -> None:
        row = users.current_row(self._log.conn, user_id) if isinstance(user_id, str) else None
        problem = users.actor_problem(row, user_id, role, kind)
        if problem:
            raise AccessError(problem)

    def close(self) -> None:
        """Refuse further writes (the log calls this at COMMIT or ROLLBACK)."""
        self._closed = True

    @property
    def db(self) -> Database:
        """sqlite-utils over the transaction's connection, for reads inside it."""
        return self._log.db


class AuditLog:
    """The audit database. Open with `AuditLog.open(path)`; close with `close()` or `with`."""

    def __init__(self, conn: sqlite3.Connection, path: Path) -> None:
        self.conn = conn
        self.path = path
        self._in_transaction = False
        self._db: Database | None = None

    @property
    def db(self) -> Database:
        """sqlite-utils over the connection, built on first use: a ruling's write path (open,
        role, append, meters) runs on the plain connection and never loads it."""
        if self._db is None:
            from sqlite_utils import Database

            self._db = Database(self.conn, execute_plugins=False)
        return self._db

    @classmethod
    def open(
        cls, path: str | Path | None = None, *, busy_timeout: float = BUSY_TIMEOUT_SECONDS
    ) -> AuditLog:
        """Open (creating it and its folder on first use) and migrate the audit database at
        `path` (default `default_db_path()`)."""
        where = Path(path) if path is not None else default_db_path()
        try:
            where.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise AuditError(f"cannot create the folder of the audit log {where}: {exc}") from None
        conn: sqlite3.Connection | None = None
        try:
            conn = sqlite3.connect(str(where), timeout=busy_timeout, isolation_level=None)
            conn.execute(f"PRAGMA busy_timeout = {int(busy_timeout * 1000)}")
            mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
            if str(mode).lower() != "wal":
                raise AuditError(f"the audit log {where} cannot use WAL journaling (got {mode})")
            conn.execute("PRAGMA synchronous = FULL")
            conn.execute("PRAGMA foreign_keys = ON")
            log = cls(conn, where)
            if schema_version(conn) != LATEST:
                migrate(log.db)
        except sqlite3.Error as exc:
            if conn is not None:
                conn.close()
            raise AuditError(f"cannot open the audit log {where}: {_describe(exc)}") from None
        except AuditError:
            if conn is not None:
                conn.close()
            raise
        return log

    def close(self) -> None:
        """Close the database."""
        self.conn.close()

    def __enter__(self) -> AuditLog:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def errors(self, doing: str, *, writing: bool = False) -> Iterator[None]:
        """Turn SQLite errors met while doing something into AuditError naming the file (for a
        write: saying that nothing was saved)."""
        try:
            yield
        except sqlite3.Error as exc:
            outcome = ": nothing was saved" if writing else ""
            raise AuditError(
                f"could not {doing} in the audit log {self.path} ({_describe(exc)}){outcome}"
            ) from None

    @contextmanager
    def transaction(self) -> Iterator[Transaction]:
        """BEGIN IMMEDIATE … COMMIT; rolled back on any exception. Nothing written inside is
        saved unless the block ends normally and the COMMIT succeeds (else AuditError)."""
        if self._in_transaction:
            raise AuditError("an audit transaction is already open on this connection")
        with self.errors("start writing", writing=True):
            self.conn.execute("BEGIN IMMEDIATE")
        self._in_transaction = True
        tx: Transaction | None = None
        try:
            tx = Transaction(self)
            yield tx
            tx.close()
            with self.errors("save the record", writing=True):
                self.conn.execute("COMMIT")
        except sqlite3.Error as exc:
            if self.conn.in_transaction:
                self.conn.execute("ROLLBACK")
            raise AuditError(
                f"could not write to the audit log {self.path} ({_describe(exc)}): "
                "nothing was saved"
            ) from None
        except BaseException:
            if self.conn.in_transaction:
                self.conn.execute("ROLLBACK")
            raise
        finally:
            if tx is not None:
                tx.close()
            self._in_transaction = False

    @contextmanager
    def _snapshot(self) -> Iterator[None]:
        """A read transaction: every query inside sees the same state."""
        with self.errors("read"):
            self.db.execute("BEGIN")
            try:
                yield
            finally:
                if self.db.conn.in_transaction:
                    self.db.conn.execute("COMMIT")

    # -- writing ------------------------------------------------------------------------

    def append(self, entry: Entry) -> int:
        """Put one entry on the record in its own transaction; return its id."""
        with self.transaction() as tx:
            return tx.append(entry)

    def meter(self, table_id: str, name: str) -> Decimal | None:
        """The current value of progressive meter `name` at `table_id` (None if never set)."""
        with self.errors("read the meter"):
            return _meter(self.conn, table_id, name)

    def checkpoint(self, user_id: str, *, table_id: str = "") -> Checkpoint:
        """Record a checkpoint and return the count and head hash *including* that record, to
        keep outside the database (e.g. at shift close)."""
        role = self.role_of(user_id)
        with self.transaction() as tx:
            before = tx.head()
            tx.append(
                Entry(
                    kind=CHECKPOINT,
                    user_id=user_id,
                    role=role,
                    table_id=table_id,
                    result={"records": before.records, "head_hash": before.head_hash},
                    explanation=[f"Checkpoint after record {before.records}"],
                )
            )
            return tx.head()

    # -- reading ------------------------------------------------------------------------

    def get(self, record_id: int) -> Record:
        """Record `record_id`; AuditError if there is none."""
        with self.errors("read"):
            rows = list(self.db.query("SELECT * FROM records WHERE id = ?", [record_id]))
        if not rows:
            raise AuditError(f"there is no audit record {record_id}")
        return Record.from_row(rows[0])

    def links(self, record_id: int) -> list[Record]:
        """Records that refer to `record_id` (overrides, voids, disputes, meter movements…)."""
        return self.search(RecordFilter(links_to=record_id))

    def rows(
        self,
        flt: RecordFilter | None = None,
        *,
        limit: int | None = None,
        newest_first: bool = False,
    ) -> Iterator[dict[str, Any]]:
        """Stored rows (JSON columns as their stored text) matching `flt`, by id."""
        where, params = (flt or RecordFilter()).where()
        order = "DESC" if newest_first else "ASC"
        sql = f"SELECT * FROM records WHERE {where} ORDER BY id {order}"
        if limit is not None:
            sql += f" LIMIT {int(limit)}"
        with self.errors("read"):
            yield from self.db.query(sql, params)

    def search(
        self,
        flt: RecordFilter | None = None,
        *,
        limit: int | None = None,
        newest_first: bool = False,
    ) -> list[Record]:
        """Records matching `flt`, oldest first (newest first with `newest_first`)."""
        return [
            Record.from_row(row) for row in self.rows(flt, limit=limit, newest_first=newest_first)
        ]

    def head(self) -> Checkpoint:
        """The record count and newest hash now (without recording a checkpoint)."""
        with self.errors("read"):
            row = self.db.execute(
                "SELECT id, hash FROM records ORDER BY id DESC LIMIT 1"
            ).fetchone()
        return Checkpoint(row[0], row[1]) if row else Checkpoint(0, GENESIS_HASH)

    def export(self, out: IO[str], fmt: str, flt: RecordFilter | None = None) -> int:
        """Write the matching records, hashes included, as `csv` or `jsonl`; return how many."""
        from dealer.audit.export import write_export

        return write_export(self.rows(flt), out, fmt)

    # -- verifying ----------------------------------------------------------------------

    def verify(self, checkpoint: Checkpoint | Sequence[Checkpoint] | None = None) -> VerifyResult:
        """Recompute the whole chain; check the protection triggers, the users table against its
        records, SQLite's own quick check, and the log against checkpoints kept outside."""
        if checkpoint is None:
            wanted: list[Checkpoint] = []
        elif isinstance(checkpoint, Checkpoint):
            wanted = [checkpoint]
        else:
            wanted = list(checkpoint)
        check = ChainCheck(wanted)
        problems: list[str] = []
        with self._snapshot():
            check.feed(self.db.query("SELECT * FROM records ORDER BY id"))
            first_bad = check.first_bad
            if check.problem:
                problems.append(check.problem)
            against = check.checkpoint_problem()
            if against:
                first_bad = first_bad if first_bad is not None else against[0]
                problems.append(against[1])
            present = {t.name for t in self.db.triggers}
            problems.extend(
                f"the protection trigger {name} is missing: someone removed it"
                for name in PROTECTION_TRIGGERS
                if name not in present
            )
            problems.extend(self._user_problems())
            quick = [row[0] for row in self.db.execute("PRAGMA quick_check").fetchall()]
            if quick != ["ok"]:
                problems.append(f"SQLite quick_check: {'; '.join(quick)}")
        return VerifyResult(
            ok=not problems,
            records=check.rows,
            first_bad=first_bad,
            problem=problems[0] if problems else None,
            problems=tuple(problems),
        )

    def _user_problems(self) -> Iterator[str]:
        rows = self.db.query(
            "SELECT u.*, r.kind, r.result FROM users u LEFT JOIN records r ON r.id = u.record_id "
            "ORDER BY u.record_id"
        )
        for row in rows:
            record = row["result"]
            expected = users.user_record_result(
                row["user_id"], row["role"], bool(row["active"]), row["pin_hash"]
            )
            if row["kind"] != USER or record is None or users.parse_result(record) != expected:
                yield (
                    f"the users table row of {row['user_id']} does not match record "
                    f"{row['record_id']}: it was changed outside the tool"
                )

    # -- users and supervisor actions ----------------------------------------------------

    def user(self, user_id: str) -> User | None:
        """The registered user `user_id` now, or None."""
        with self.errors("read"):
            row = users.current_row(self.conn, user_id)
        return row.user if row else None

    def users(self) -> list[User]:
        """Every registered user, by id."""
        with self.errors("read"):
            return users.all_users(self.db)

    def has_supervisor(self) -> bool:
        """Whether a supervisor was ever registered (until then the first one bootstraps)."""
        with self.errors("read"):
            return users.supervisor_ever_registered(self.db)

    def role_of(self, user_id: str) -> str:
        """The role `user_id` acts in: their registered role, else dealer."""
        found = self.user(user_id)
        return found.role if found else DEALER

    def authenticate(self, user_id: str, pin: str, action: str) -> User:
        """The supervisor `user_id` if `pin` is theirs and they may do `action`; otherwise the
        refusal is recorded (an `access-denied` record) and AccessError raised."""
        return self._supervised(user_id, pin, action, lambda tx, user: user)

    def append_supervised(self, entry: Entry, pin: str) -> int:
        """Append `entry` (e.g. a profile-change or paytable-change) made by the supervisor
        `entry.user_id`, after checking their PIN (a refusal is recorded)."""
        if entry.role != SUPERVISOR:
            raise AccessError(f"a {entry.kind} is made by a supervisor, not a {entry.role}")
        return self._supervised(
            entry.user_id,
            pin,
            entry.kind,
            lambda tx, user: tx.write(entry),
            table_id=entry.table_id,
        )

    def _supervised(
        self,
        supervisor_id: str | None,
        pin: str | None,
        action: str,
        work: Callable[[Transaction, User], T],
        *,
        table_id: str = "",
    ) -> T:
        """Run `work` in one transaction if `supervisor_id` is an active supervisor and `pin`
        is theirs; else record the refusal and raise AccessError."""
        if not supervisor_id or not isinstance(supervisor_id, str):
            raise AccessError(f"{action} needs a supervisor id and PIN")
        users.check_user_id(supervisor_id)
        typed = pin if isinstance(pin, str) else ""
        with self.errors("read"):
            seen = users.current_row(self.db, supervisor_id)
        seen_ok = seen is not None and users.pin_matches(typed, seen.pin_hash)
        with self.transaction() as tx:
            row = users.current_row(tx.db, supervisor_id)
            if row is not None and seen is not None and row.pin_hash == seen.pin_hash:
                pin_ok = seen_ok
            else:
                pin_ok = row is not None and users.pin_matches(typed, row.pin_hash)
            refused = users.refusal(row, supervisor_id, pin_ok, action)
            if refused is None and row is not None:
                return work(tx, row.user)
            code, sentence = refused or ("unknown-user", f"{action} refused")
            tx.write(
                Entry(
                    kind=ACCESS_DENIED,
                    user_id=supervisor_id,
                    role=row.user.role if row else UNKNOWN_ROLE,
                    table_id=table_id,
                    action=action,
                    result={"refused": action, "why": code},
                    explanation=[sentence],
                    reason=sentence,
                )
            )
        raise AccessError(sentence)

    def add_user(
        self,
        user_id: str,
        role: str,
        *,
        pin: str | None = None,
        supervisor_id: str | None = None,
        supervisor_pin: str | None = None,
    ) -> int:
        """Register `user_id` with `role` (supervisors need a PIN); return the record id.

        Needs a supervisor's id and PIN — except on a database where no supervisor was ever
        registered: then, with no supervisor id given, the first user is created by
        bootstrapping, and must be a supervisor with a PIN (recorded as `user`/`bootstrap`)."""
        users.check_user_id(user_id)
        users.check_role(role)
        if role == SUPERVISOR and pin is None:
            raise AuditError("a supervisor needs a PIN")
        pin_hash = users.hash_pin(pin) if pin is not None else None
        if supervisor_id is None:
            with self.transaction() as tx:
                if users.supervisor_ever_registered(tx.db):
                    raise AccessError("adding a user needs a supervisor id and PIN")
                if role != SUPERVISOR:
                    raise AccessError(
                        "the first user of an audit database must be a supervisor (with a PIN)"
                    )
                return users.write_user(
                    tx, user_id, SUPERVISOR, "bootstrap", user_id, SUPERVISOR, True, pin_hash
                )
        return self._supervised(
            supervisor_id,
            supervisor_pin,
            "user-add",
            lambda tx, sup: users.write_user(
                tx, sup.user_id, SUPERVISOR, "add", user_id, role, True, pin_hash
            ),
        )

    def change_user(
        self,
        user_id: str,
        *,
        role: str | None = None,
        pin: str | None = None,
        active: bool | None = None,
        supervisor_id: str,
        supervisor_pin: str,
    ) -> int:
        """Change a registered user's role, PIN or active flag (a supervisor action)."""
        users.check_user_id(user_id)
        if role is None and pin is None and active is None:
            raise AuditError("nothing to change: give a role, a PIN or active/disabled")
        if role is not None:
            users.check_role(role)
        pin_hash = users.hash_pin(pin) if pin is not None else None
        return self._supervised(
            supervisor_id,
            supervisor_pin,
            "user-change",
            lambda tx, sup: users.change_user(tx, sup.user_id, user_id, role, pin_hash, active),
        )

    def adjust_meter(
        self,
        table_id: str,
        name: str,
        value: Decimal | int | float | str,
        reason: str,
        *,
        supervisor_id: str,
        pin: str,
    ) -> int:
        """Set meter `name` at `table_id` by hand (a supervisor action); return the record id."""
        return self._supervised(
            supervisor_id,
            pin,
            "meter-adjust",
            lambda tx, sup: tx.set_meter(
                table_id, name, value, reason, user_id=sup.user_id, role=SUPERVISOR, action="adjust"
            ),
            table_id=table_id,
        )

    def override(
        self,
        record_id: int,
        *,
        decision: str,
        reason: str,
        supervisor_id: str,
        pin: str,
        result: Mapping[str, Any] | None = None,
    ) -> int:
        """Override ruling `record_id` with the supervisor's `decision` (a new record linked to
        it; the ruling itself stays as it was). Returns the override's id."""
        from dealer.audit import corrections

        return self._supervised(
            supervisor_id,
            pin,
            "override",
            lambda tx, sup: corrections.override(tx, sup, record_id, decision, reason, result),
        )

    def void(self, record_id: int, *, reason: str, supervisor_id: str, pin: str) -> int:
        """Void ruling (or override) `record_id`: a new record linked to it. Returns its id."""
        from dealer.audit import corrections

        return self._supervised(
            supervisor_id,
            pin,
            "void",
            lambda tx, sup: corrections.void(tx, sup, record_id, reason),
        )

    # -- disputes -------------------------------------------------------------------------

    def open_dispute(
        self,
        *,
        user_id: str,
        table_id: str,
        description: str,
        seat: int | None = None,
        occurred_at: str | None = None,
        parties: Sequence[str] = (),
        video: str = "",
        rulings: Sequence[int] = (),
    ) -> int:
        """Open a dispute (any dealer or supervisor may); return its id. `occurred_at` is the
        stored UTC form (see `records.parse_time`), default now."""
        from dealer.audit import disputes

        role = self.role_of(user_id)
        with self.transaction() as tx:
            return disputes.open_dispute(
                tx,
                user_id=user_id,
                role=role,
                table_id=table_id,
                description=description,
                seat=seat,
                occurred_at=occurred_at or utc_now(),
                parties=parties,
                video=video,
                rulings=rulings,
            )

    def resolve_dispute(
        self,
        dispute_id: int,
        *,
        outcome: str,
        amount_adjusted: Decimal | int | float | str,
        second_reviewer: str,
        reason: str,
        supervisor_id: str,
        pin: str,
    ) -> int:
        """Resolve open dispute `dispute_id`: outcome `no-error`, `patron-error` or
        `dealer-error`, the amount adjusted (+ paid to the patron, − taken back), a second
        reviewer (another registered supervisor or auditor). Returns the resolution's id."""
        from dealer.audit import disputes

        amount = _decimal(amount_adjusted, "the amount adjusted")
        return self._supervised(
            supervisor_id,
            pin,
            "dispute-resolve",
            lambda tx, sup: disputes.resolve_dispute(
                tx, sup, dispute_id, outcome, amount, second_reviewer, reason
            ),
        )

    def dispute(self, dispute_id: int) -> Dispute:
        """Dispute `dispute_id` with its resolution if any; AuditError if there is none."""
        from dealer.audit import disputes

        with self.errors("read"):
            return disputes.load_dispute(self.db, dispute_id)

    def disputes(self, *, open_only: bool = False, table_id: str | None = None) -> list[Dispute]:
        """Disputes, oldest first; `open_only` for the unresolved ones (list at shift start)."""
        from dealer.audit import disputes

        with self.errors("read"):
            return disputes.list_disputes(self.db, open_only=open_only, table_id=table_id)

    def open_disputes(self, table_id: str | None = None) -> list[Dispute]:
        """The unresolved disputes (to list at shift start)."""
        return self.disputes(open_only=True, table_id=table_id)
