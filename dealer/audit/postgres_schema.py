"""The PostgreSQL schema of the audit log and its roles (used only by `dealer.audit.postgres`).

Everything lives in the schema `dealer`, owned by the login that ran `dealer db init` (the
floor's database owner). What a record is, the server decides:

* `dealer_app`, the role every terminal login is a member of, holds SELECT and EXECUTE only:
  no INSERT, UPDATE, DELETE or TRUNCATE on any table. Records are appended only through
  `dealer.append_record`, a SECURITY DEFINER function that takes the log's lock
  (`dealer.lock_log`: appends are serialised, so terminals at once can never fork the chain),
  numbers the record, stamps its time (never before the head's, in `utc_now`'s format) and
  computes its hash in the server by the recipe of `dealer.audit.chain`.
* Every function runs with `search_path = pg_catalog, dealer, pg_temp` and names each table
  qualified, and no check passes on NULL (`FUNCTIONS`): nothing a login makes (a temporary
  `pg_namespace`) steers them. PUBLIC may neither connect to the database nor make temporary
  tables in it (`role_statements`).
* The record is made in the name of the authenticated database user: `append_record` refuses
  a record whose `user_id` is not `session_user` (terminals log in as `d-104`, `sup-7`). Only
  the owner may append in another name (it owns the tables anyway; `dealer audit copy` and
  the set-up use it, terminals never do). Whoever appends, the maker must hold the role the
  record is made in, and a supervisor action is a registered supervisor's, as verify has it.
* A record is at most `records.RECORD_LIMIT` bytes (an approval's document besides, at most
  `inputs.DOCUMENT_LIMIT`), for every writer, and its JSON is canonical
  (`dealer.check_canonical`: `append_record` calls it before it takes the lock, a copy for each
  record it copies).
* The seat index `record_seats` (the seats each record involved, `records.seats_of`, computed
  by the client) is written only by `append_record`, with the record, and a trigger refuses a
  row for any record but the newest or for a seat (or patron) its content does not name.
* The users table is written only through `dealer.add_user`, which accepts a users row only for
  the `user` record just appended by the same session, matching what that record says.
* The floor's sums (`floor_sums`) are the server's: `append_record` adds the rows of each ruling
  it appends (`dealer.add_sums`), as the desk's `dealer.record_sums` computes them from the
  record and the members' state in the sums (its SQL handed over by `dealer db init`:
  `record_sums`; this layer knows no game). A terminal sends none, and may execute neither.
* Triggers refuse UPDATE, DELETE and TRUNCATE for everyone and check each inserted row's
  number, link and hash (a row given none is given its own: `append_record` leaves the hash to
  the trigger, so a record's hash is made once), so even the owner cannot insert a record the
  chain does not vouch for.
* `dealer_auditor` reads (SELECT) and nothing else; it cannot take the log's lock.
* `verify` compares the server's triggers (`TRIGGERS`), functions (`FUNCTIONS`) and grants
  (`granted`) with these definitions, not their names.

Canonical JSON in SQL: `to_json(text)` escapes exactly the characters Python's `json.dumps`
escapes (quote, backslash, controls below U+0020 in the same forms), and the object is built by
concatenation with its keys in sorted order, so the same record hashes alike on both backends.
A record's own JSON is checked against the same form (`dealer.check_canonical`, each column
whole, in C functions only; a settings text already kept once was checked as it was kept):
`json_strip_nulls` writes a `json` value again as parsed, its keys in their order and each as
often as given, escaping as `to_json` does, numbers as written, with no space (every `:null`
first made `:0`, which it would drop), and the text must come back unchanged; then no key may
come twice at any depth: `jsonb` keeps a key's last value only, so a text giving one twice holds
more colons (each key's, and those inside its strings, escaped alike) than its `jsonb` text
does (a text with no object has no key to give twice). Decided: the order of keys and a
number's spelling are left to verify. A key out of order reads alike to every reader (none
takes another value for it), and a walk of every object to check the order (a statement an
object) cost the server about 1 ms of CPU a settle, a tenth of a ruling's, where these checks
cost about 0.2 ms.
"""

from __future__ import annotations

from collections.abc import Iterable

from dealer.audit import assignments
from dealer.audit.canonical import JSON_COLUMNS
from dealer.audit.chain import FUTURE_TOLERANCE, GENESIS_HASH
from dealer.audit.keys import SCHEME, WITHHELD
from dealer.audit.meters import MeterAction
from dealer.audit.records import APPROVAL_KINDS, RECORD_LIMIT, SIZED_FIELDS, RecordKind, Role
from dealer.audit.sign_ins import SIGN_IN_HOURS, SIGNED_IN, SignInAction
from dealer.audit.sql_reads import SETTINGS_KEPT_OVER
from dealer.audit.sums import INTS, KEY_COLUMNS, REALS, SUM_COLUMNS
from dealer.audit.users import (
    LOCKOUT_AFTER,
    LOCKOUT_FIRST_SECONDS,
    LOCKOUT_MAX_SECONDS,
    UserAction,
)
from dealer.audit.verify import SUPERVISOR_ACTIONS
from dealer.inputs import DOCUMENT_LIMIT
from dealer.kernel.tuples import NamedTuple

SCHEMA = "dealer"
APP_ROLE = "dealer_app"
AUDITOR_ROLE = "dealer_auditor"
LOCK_KEY = 0x6465616C6572
"""The advisory lock (per database) `dealer db init` takes, so that two set-ups at once run one
after the other: `dealer` in ASCII. Writers take the log's own lock (`dealer.lock_log`), which
no login outside `dealer_app` can."""

FIRST = "records, users, their protection and write functions"
"""What version 1 of the schema (`SCHEMA_STATEMENTS`) holds."""


def _append_only(table: str, changed: str, deleted: str) -> tuple[str, str, str]:
    """The triggers that keep dealer.`table` append-only, whoever writes (the owner too):
    `TABLE_no_update` refuses an UPDATE saying `changed`, `TABLE_no_delete` and
    `TABLE_no_truncate` refuse a DELETE or TRUNCATE saying `deleted`."""
    refuse = "EXECUTE FUNCTION dealer.refuse"
    return (
        f"CREATE TRIGGER {table}_no_update BEFORE UPDATE ON dealer.{table} FOR EACH ROW "
        f"{refuse}('{changed}')",
        f"CREATE TRIGGER {table}_no_delete BEFORE DELETE ON dealer.{table} FOR EACH ROW "
        f"{refuse}('{deleted}')",
        f"CREATE TRIGGER {table}_no_truncate BEFORE TRUNCATE ON dealer.{table} "
        f"FOR EACH STATEMENT {refuse}('{deleted}')",
    )


_SUM_DECLARATIONS = ", ".join(
    [f"n{i} bigint NOT NULL DEFAULT 0" for i in range(INTS)]
    + [f"x{i} double precision NOT NULL DEFAULT 0" for i in range(REALS)]
)
"""The columns of the floor's sums (`dealer.audit.sums`)."""

MIGRATIONS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (
        "indexes: a linked progressive meter's newest records",
        (
            """
            CREATE INDEX records_linked_meters
            ON dealer.records(((result::json) ->> 'link'), id) WHERE kind = 'meter'
            """,
        ),
    ),
    (
        "the writers' lock: a row only the append functions lock",
        (
            "CREATE TABLE dealer.log_lock (held boolean PRIMARY KEY DEFAULT true CHECK (held))",
            "INSERT INTO dealer.log_lock DEFAULT VALUES",
        ),
    ),
    (
        "secrets withheld: the secret checks the server counts",
        (
            """
            CREATE TABLE dealer.secret_attempts (
                id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                user_id text NOT NULL,
                record_id bigint NOT NULL REFERENCES dealer.records(id),
                made_by text NOT NULL,
                made_at timestamptz NOT NULL,
                xact xid8 NOT NULL,
                ok boolean NOT NULL
            )
            """,
            "CREATE INDEX secret_attempts_by_user ON dealer.secret_attempts(user_id, id)",
        ),
    ),
    (
        "settings_texts: a record's long settings kept once, by their SHA-256",
        (
            "CREATE TABLE dealer.settings_texts (ref text PRIMARY KEY, text text NOT NULL)",
            *_append_only(
                "settings_texts",
                "kept settings cannot be changed",
                "kept settings cannot be deleted",
            ),
        ),
    ),
    (
        "floor_sums: the floor's numbers per hour, added to by each ruling's transaction",
        (
            f"""
            CREATE TABLE dealer.floor_sums (
                hour text NOT NULL,
                grp text NOT NULL,
                member text NOT NULL,
                source text NOT NULL,
                {_SUM_DECLARATIONS},
                last_at text,
                last_mark text,
                PRIMARY KEY (grp, hour, member, source)
            )
            """,
            *_append_only("floor_sums", "", "the floor sums cannot be deleted from")[1:],
            "CREATE TABLE dealer.floor_sums_from (from_id bigint NOT NULL)",
            "INSERT INTO dealer.floor_sums_from "
            "SELECT coalesce(max(id), 0) + 1 FROM dealer.records",
            *_append_only(
                "floor_sums_from",
                "where the floor sums start cannot be changed",
                "where the floor sums start cannot be changed",
            ),
            "CREATE TABLE dealer.floor_sums_of (record_id bigint PRIMARY KEY "
            "REFERENCES dealer.records(id))",
            *_append_only(
                "floor_sums_of",
                "the records summed cannot be changed",
                "the records summed cannot be deleted",
            ),
        ),
    ),
    (
        "PIN checks throttled by guesser: one check at a time per login and user",
        (
            "CREATE TABLE dealer.secret_guessers (made_by text NOT NULL, user_id text NOT NULL, "
            "PRIMARY KEY (made_by, user_id))",
            "CREATE INDEX secret_attempts_by_guesser "
            "ON dealer.secret_attempts(user_id, made_by, id)",
            "CREATE INDEX secret_attempts_by_transaction ON dealer.secret_attempts(xact)",
        ),
    ),
    (
        "the floor's sums computed by the server: the terminals' add_sums(record, rows) gone",
        ("DROP FUNCTION IF EXISTS dealer.add_sums(bigint, text)",),
    ),
)
"""The changes after version 1, in order: version 2 is the first (`dealer db init` applies
the ones a log lacks, each in the transaction that records it)."""

LATEST = 1 + len(MIGRATIONS)
"""The schema version this software writes (`dealer.schema_migrations`)."""

PROTECTION_TRIGGERS = (
    "records_no_update",
    "records_no_delete",
    "records_no_truncate",
    "records_in_order",
    "users_no_update",
    "users_no_delete",
    "users_no_truncate",
    "record_seats_no_update",
    "record_seats_no_delete",
    "record_seats_no_truncate",
    "record_seats_of_the_newest",
    "settings_texts_no_update",
    "settings_texts_no_delete",
    "settings_texts_no_truncate",
    "floor_sums_no_delete",
    "floor_sums_no_truncate",
    "floor_sums_from_no_update",
    "floor_sums_from_no_delete",
    "floor_sums_from_no_truncate",
    "floor_sums_of_no_update",
    "floor_sums_of_no_delete",
    "floor_sums_of_no_truncate",
)
"""Triggers that keep the record append-only; `verify` reports any that are missing."""

_HASHED = (
    ("action", "text"),
    ("cards", "text"),
    ("explanation", "text"),
    ("game", "text"),
    ("id", "number"),
    ("input_text", "text"),
    ("kind", "text"),
    ("links_to", "number"),
    ("prev_hash", "text"),
    ("reason", "text"),
    ("recorded_at", "text"),
    ("result", "text"),
    ("role", "text"),
    ("seat", "number"),
    ("settings", "text"),
    ("software_version", "text"),
    ("table_id", "text"),
    ("user_id", "text"),
)
"""The 18 hashed columns in sorted key order, as JSON strings or numbers (`null` when empty)."""


def _canonical_sql() -> str:
    parts = []
    for number, (name, kind) in enumerate(_HASHED):
        key = ("{" if number == 0 else ",") + f'"{name}":'
        value = f"r.{name}::text" if kind == "number" else f"to_json(r.{name})::text"
        parts.append(f"'{key}' || coalesce({value}, 'null')")
    return " || ".join(parts) + " || '}'"


_TIME = (
    "pg_catalog.to_char(pg_catalog.clock_timestamp() AT TIME ZONE 'UTC', "
    """'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')"""
)


SEARCH_PATH = "pg_catalog, dealer, pg_temp"
"""Every function's `search_path`: the catalog first and the caller's temporary schema last,
so that no table or function a login makes can stand in for one a function names (each name
is qualified besides)."""


class Function(NamedTuple):
    """One of the log's functions as this software makes it (`CREATE OR REPLACE`, by every
    `dealer db init`) and as `verify` compares the server's with it (`pg_proc`)."""

    identity: str
    """`dealer.name(type,type)`, as `regprocedure` prints it (no spaces)."""
    statement: str
    body: str
    """The source between the dollar quotes (`prosrc`)."""
    definer: bool
    """SECURITY DEFINER (`prosecdef`)."""


def _function(
    name: str, params: str, returns: str, body: str, *, language: str = "plpgsql", more: str = ""
) -> Function:
    """The function `dealer.name(params)`, run with `SEARCH_PATH`; `more` adds its options
    (SECURITY DEFINER, IMMUTABLE STRICT)."""
    types = ",".join(param.split()[-1] for param in params.split(",")) if params else ""
    statement = (
        f"CREATE OR REPLACE FUNCTION dealer.{name}({params}) RETURNS {returns} "
        f"LANGUAGE {language} {more} SET search_path = {SEARCH_PATH} AS $${body}$$"
    )
    return Function(f"dealer.{name}({types})", statement, body, "SECURITY DEFINER" in more)


def _sql_list(values: Iterable[str]) -> str:
    """`values` as an SQL list of literals (names of this software's, never a person's)."""
    return ", ".join(f"'{value}'" for value in sorted(values))


_OWNER = f"""
        SELECT pg_catalog.pg_get_userbyid(n.nspowner)::text INTO log_owner
        FROM pg_catalog.pg_namespace n WHERE n.nspname = '{SCHEMA}';"""
"""Reads the login that owns the log (the only one that may append in another's name)."""

SERVER_LOCKOUT_AFTER = 2 * LOCKOUT_AFTER
"""Wrong PINs of one user's in a row from one login after which the server itself checks no
more of that user's PINs from that login for a while (`dealer.submit_attempt`, then doubling as
`users.lockout_seconds` does up to an hour): a backstop for a login calling the functions
around the tool, whose own lockout (recorded on the chain) comes first. The user, and every
other login, go on."""

_TOLERANCE = int(FUTURE_TOLERANCE.total_seconds())
_FUTURE = f"""pg_catalog.to_char(
            (pg_catalog.clock_timestamp() + interval '{_TOLERANCE} seconds')
            AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')"""
"""The server's clock `FUTURE_TOLERANCE` ahead, as records are dated."""

_SIZE = " + ".join(f"coalesce(pg_catalog.octet_length(whole.{name}), 0)" for name in SIZED_FIELDS)
"""The bytes of a new record's `records.SIZED_FIELDS` (its settings' whole text)."""

_SUM_NAMES = ", ".join((*KEY_COLUMNS, *SUM_COLUMNS, "last_at", "last_mark"))
_KEYS = ", ".join(KEY_COLUMNS)
_SUM_TYPES = ", ".join(
    [f"{name} text" for name in KEY_COLUMNS]
    + [f"n{i} bigint" for i in range(INTS)]
    + [f"x{i} double precision" for i in range(REALS)]
    + ["last_at text", "last_mark text"]
)
_SUM_ADDED = ", ".join(
    [f"{name} = f.{name} + excluded.{name}" for name in SUM_COLUMNS]
    + [f"{name} = coalesce(excluded.{name}, f.{name})" for name in ("last_at", "last_mark")]
)


def _sums_added(rows: str) -> str:
    """The statement adding the rows of sums `rows` (an SQL source of the sums' columns, aliased
    `s`) to the floor's sums: each row's numbers added to the hour's, its mark kept."""
    return f"""INSERT INTO dealer.floor_sums AS f ({_SUM_NAMES})
            SELECT {_SUM_NAMES} FROM {rows}
            ON CONFLICT (grp, hour, member, source) DO UPDATE SET {_SUM_ADDED}"""


_PARTS_SUMMED = ", ".join(
    [*KEY_COLUMNS]
    + [f"sum(n{i})::bigint AS n{i}" for i in range(INTS)]
    + [f"sum(x{i})::float8 AS x{i}" for i in range(REALS)]
    + [f"max({name}) AS {name}" for name in ("last_at", "last_mark")]
)
"""A record's parts of rows (`dealer.record_sums`) summed by key; of a key's parts one at most
holds a mark."""


def sums_upsert(rows: str) -> str:
    """The statement adding rows of sums given as JSON (`rows`: the SQL expression of the
    text) to the floor's sums: a copy's, the owner's (`dealer.add_sums` adds the server's)."""
    return _sums_added(f"pg_catalog.jsonb_to_recordset({rows}::jsonb) AS s({_SUM_TYPES})")


def record_rows(record: str) -> str:
    """The query of the rows of sums `record` (an SQL expression of a `dealer.records` row)
    adds: `dealer.record_sums`' parts summed by key (`dealer.add_sums` adds these)."""
    return f"SELECT {_PARTS_SUMMED} FROM dealer.record_sums({record}) GROUP BY {_KEYS}"


RECORD_SUMS = "dealer.record_sums(dealer.records)"
"""The function `dealer.add_sums` reads a record's rows from: the desk's (`record_sums`)."""


def record_sums(body: str) -> Function:
    """`dealer.record_sums(r)`, what record `r` adds to the floor's sums (nothing for a record
    that adds nothing), in parts of rows of `dealer.floor_sums` that `dealer.add_sums` sums by
    key: `body`, its PL/pgSQL, is the desk's (`verify.FloorSums.server`), made by `dealer db
    init` beside `FUNCTIONS` and compared by verify as they are (`protection_problems`). Only
    the owner executes it, and `dealer.add_sums` in `append_record`."""
    return _function("record_sums", "r dealer.records", "SETOF dealer.floor_sums", body)


def _object(value: str) -> str:
    """The JSON `value` (an SQL expression of jsonb) if it is an object, else an empty one: so
    that `jsonb_each` never fails on what a record holds."""
    return (
        f"CASE WHEN pg_catalog.jsonb_typeof({value}) = 'object' THEN {value} ELSE '{{}}'::jsonb END"
    )


def _amount(text: str) -> str:
    """The amount `text` (an SQL expression of text: decimal digits, at most two decimals)
    as a number, NULL if it is none: a record's terms never fail the append that reads them."""
    return f"(CASE WHEN {text} ~ '^[0-9]{{1,16}}([.][0-9]{{1,2}})?$' THEN ({text})::numeric END)"


_ASSIGNED_METERS = _object("a.result::jsonb -> 'settings' -> 'meters'")
"""The meters an assignment record `a` holds (their settings by name)."""

FUNCTIONS: tuple[Function, ...] = (
    _function(
        "record_hash",
        "r dealer.records",
        "text",
        " SELECT pg_catalog.encode(pg_catalog.sha256(pg_catalog.convert_to("
        f"{_canonical_sql()}, 'UTF8')), 'hex') ",
        language="sql",
        more="IMMUTABLE STRICT",
    ),
    _function(
        "refuse",
        "",
        "trigger",
        """
    BEGIN
        RAISE EXCEPTION '%', TG_ARGV[0];
    END """,
    ),
    _function(
        "check_order",
        "",
        "trigger",
        f"""
    DECLARE
        last dealer.records;
        whole dealer.records := NEW;
        document bigint := 0;
        size bigint;
    BEGIN
        SELECT * INTO last FROM dealer.records ORDER BY id DESC LIMIT 1;
        IF NEW.id IS DISTINCT FROM coalesce(last.id, 0) + 1
           OR NEW.prev_hash IS DISTINCT FROM coalesce(last.hash, '{GENESIS_HASH}') THEN
            RAISE EXCEPTION 'audit records are appended in order, each linked to the last';
        END IF;
        IF coalesce(pg_catalog.starts_with(NEW.settings, 'sha256:'), false) THEN
            whole.settings := (SELECT s.text FROM dealer.settings_texts s
                              WHERE s.ref = NEW.settings);
        END IF;
        IF NEW.hash IS NULL THEN  -- append_record's: the hash made once, here
            NEW.hash := dealer.record_hash(whole);
        ELSIF NEW.hash IS DISTINCT FROM dealer.record_hash(whole) THEN
            RAISE EXCEPTION 'audit record % does not carry its own hash', NEW.id;
        END IF;
        IF NOT coalesce(NEW.recorded_at >= coalesce(last.recorded_at, ''), false) THEN
            RAISE EXCEPTION 'audit record % is dated before the record before it', NEW.id;
        END IF;
        size := {_SIZE};
        IF NEW.kind IN ({_sql_list(APPROVAL_KINDS)}) THEN
            document := coalesce(pg_catalog.octet_length(NEW.input_text), 0);
            size := size - document;
        END IF;
        IF document > {DOCUMENT_LIMIT} OR size > {RECORD_LIMIT} THEN
            RAISE EXCEPTION 'audit record % is % bytes: a record is at most {RECORD_LIMIT} bytes, '
                'besides the document of at most {DOCUMENT_LIMIT} bytes an approval holds',
                NEW.id, size + document USING ERRCODE = 'program_limit_exceeded';
        END IF;
        RETURN NEW;
    END """,
    ),
    _function(
        "check_canonical",
        "p_cards text, p_result text, p_explanation text, p_settings text",
        "void",
        f"""
    DECLARE
        name text;
        stored text;
        minified text;
        parsed text;
    BEGIN
        FOR name, stored IN VALUES {", ".join(f"('{c}', p_{c})" for c in JSON_COLUMNS)} LOOP
            CONTINUE WHEN name = 'settings'
                AND pg_catalog.octet_length(stored) > {SETTINGS_KEPT_OVER}
                AND EXISTS (SELECT 1 FROM dealer.settings_texts s
                    WHERE s.ref = 'sha256:' || pg_catalog.encode(pg_catalog.sha256(
                        pg_catalog.convert_to(stored, 'UTF8')), 'hex'));
            minified := pg_catalog.replace(stored, ':null', ':0');
            parsed := CASE WHEN pg_catalog.strpos(stored, '{{') > 0 THEN stored::jsonb::text END;
            IF NOT coalesce(pg_catalog.json_strip_nulls(minified::json)::text = minified
                    AND (parsed IS NULL OR pg_catalog.octet_length(stored)
                        - pg_catalog.octet_length(pg_catalog.replace(stored, ':', ''))
                        = pg_catalog.octet_length(parsed)
                        - pg_catalog.octet_length(pg_catalog.replace(parsed, ':', ''))),
                    false) THEN
                RAISE EXCEPTION 'an audit record''s % column is not canonical JSON (the hash '
                    'recipe''s: each key once, no spaces, characters as themselves)', name
                    USING ERRCODE = 'invalid_text_representation';
            END IF;
        END LOOP;
    END """,
    ),
    _function(
        "check_seat",
        "",
        "trigger",
        """
    DECLARE
        r dealer.records;
        listed jsonb;
    BEGIN
        SELECT * INTO r FROM dealer.records ORDER BY id DESC LIMIT 1;
        IF NEW.record_id IS DISTINCT FROM r.id THEN
            RAISE EXCEPTION 'the seat index is written with its record, and only then';
        END IF;
        listed := r.result::jsonb -> 'seats';
        IF NOT coalesce(
            (NEW.seat = r.seat
             AND (NEW.patron IS NULL OR NEW.patron = r.result::jsonb ->> 'patron'))
            OR (pg_catalog.jsonb_typeof(listed) = 'array' AND EXISTS (
                SELECT 1 FROM pg_catalog.jsonb_array_elements(listed) item
                WHERE item = pg_catalog.to_jsonb(NEW.seat)
                   OR (item -> 'seat' = pg_catalog.to_jsonb(NEW.seat)
                       AND (NEW.patron IS NULL OR item ->> 'patron' = NEW.patron)))),
            false
        ) THEN
            RAISE EXCEPTION 'seat % is not one record % involved', NEW.seat, r.id;
        END IF;
        RETURN NEW;
    END """,
    ),
    _function(
        "lock_log",
        "",
        "void",
        """
    BEGIN
        PERFORM 1 FROM dealer.log_lock FOR UPDATE;
        IF NOT FOUND THEN
            RAISE EXCEPTION 'the log''s lock is missing: '
                'run dealer db init as the database''s owner';
        END IF;
    END """,
        more="SECURITY DEFINER",
    ),
    _function(
        "check_sign_in",
        "p_kind text, p_user_id text, p_settings text",
        "void",
        f"""
    BEGIN
        IF p_kind IS DISTINCT FROM '{RecordKind.SIGN_IN}' THEN
            RETURN;
        END IF;
        IF NOT EXISTS (SELECT 1 FROM dealer.users u WHERE u.user_id = p_user_id
                       AND u.pin_hash IS NOT NULL
                       AND u.record_id = (SELECT pg_catalog.max(v.record_id) FROM dealer.users v
                                          WHERE v.user_id = p_user_id))
           OR pg_catalog.json_typeof(p_settings::json -> 'signature') IS DISTINCT FROM 'object'
        THEN
            RAISE EXCEPTION '% signs in only with their own PIN: a sign-in carries their '
                'signature', p_user_id USING ERRCODE = 'insufficient_privilege';
        END IF;
    END """,
    ),
    _function(
        "append_record",
        "p_kind text, p_game text, p_action text, p_table_id text, p_seat integer, "
        "p_user_id text, p_role text, p_input_text text, p_cards text, p_result text, "
        "p_explanation text, p_settings text, p_links_to bigint, p_reason text, "
        "p_software_version text, p_seats integer[], p_patrons text[]",
        "dealer.records",
        f"""
    DECLARE
        log_owner text;
        last dealer.records;
        maker dealer.users;
        r dealer.records;
        bootstrap boolean;
        supervising boolean;
    BEGIN
        IF pg_catalog.current_setting('transaction_isolation') IS DISTINCT FROM 'read committed'
        THEN
            RAISE EXCEPTION 'audit records are appended in READ COMMITTED transactions';
        END IF;{_OWNER}
        IF p_user_id IS DISTINCT FROM session_user::text
           AND session_user::text IS DISTINCT FROM log_owner THEN
            RAISE EXCEPTION 'the record is in the name of %, but this terminal is logged in as %',
                p_user_id, session_user USING ERRCODE = 'insufficient_privilege';
        END IF;
        PERFORM dealer.check_canonical(p_cards, p_result, p_explanation, p_settings);
        PERFORM dealer.lock_log();
        SELECT * INTO last FROM dealer.records ORDER BY id DESC LIMIT 1;
        IF coalesce(last.recorded_at > {_FUTURE}, false) THEN
            RAISE EXCEPTION 'the newest audit record, %, is dated %, more than {_TOLERANCE // 60} '
                'minutes after this server''s clock: nothing is recorded after a record from '
                'the future (check the server''s clock)', last.id, last.recorded_at;
        END IF;
        bootstrap := coalesce(p_kind = '{RecordKind.USER}'
            AND NOT EXISTS (SELECT 1 FROM dealer.records x WHERE x.kind = '{RecordKind.USER}')
            AND p_result::jsonb ->> 'user' = p_user_id, false)
            OR coalesce(p_kind = '{RecordKind.USER}' AND p_action = '{UserAction.RECOVER}'
                AND session_user::text = log_owner AND p_result::jsonb ->> 'user' = p_user_id,
                false);
        supervising := coalesce(
            p_kind IN ({_sql_list(SUPERVISOR_ACTIONS)})
            OR (p_kind = '{RecordKind.METER}' AND p_action IS DISTINCT FROM '{MeterAction.MOVE}'),
            true);
        IF p_kind IS DISTINCT FROM '{RecordKind.ACCESS_DENIED}' AND NOT bootstrap THEN
            SELECT * INTO maker FROM dealer.users u WHERE u.user_id = p_user_id
                ORDER BY u.record_id DESC LIMIT 1;
            IF NOT FOUND THEN
                IF p_role IS DISTINCT FROM '{Role.DEALER}' THEN
                    RAISE EXCEPTION '% is not a registered %: unregistered ids act as dealers',
                        p_user_id, p_role USING ERRCODE = 'insufficient_privilege';
                END IF;
            ELSIF maker.active IS DISTINCT FROM true THEN
                RAISE EXCEPTION '% is disabled', p_user_id USING ERRCODE = 'insufficient_privilege';
            ELSIF p_role IS DISTINCT FROM maker.role THEN
                RAISE EXCEPTION '% is registered as %, not %', p_user_id, maker.role, p_role
                    USING ERRCODE = 'insufficient_privilege';
            ELSIF maker.role = '{Role.AUDITOR}'
                  AND p_kind IS DISTINCT FROM '{RecordKind.CHECKPOINT}' THEN
                RAISE EXCEPTION '% is an auditor: auditors take checkpoints only', p_user_id
                    USING ERRCODE = 'insufficient_privilege';
            END IF;
            IF supervising AND maker.role IS DISTINCT FROM '{Role.SUPERVISOR}' THEN
                RAISE EXCEPTION '% is not a registered supervisor: a % record is a supervisor''s',
                    p_user_id, p_kind USING ERRCODE = 'insufficient_privilege';
            END IF;
        END IF;
        IF p_kind = '{RecordKind.USER}' AND p_action = '{UserAction.LOCK}' THEN
            RAISE EXCEPTION 'a lock record is written by no release since 0.2.0: a lockout is '
                'the refusals themselves' USING ERRCODE = 'insufficient_privilege';
        END IF;
        PERFORM dealer.check_sign_in(p_kind, p_user_id, p_settings);
        PERFORM dealer.check_assignment(p_kind, p_game, p_table_id, p_settings);
        PERFORM dealer.check_sitting(p_kind, p_table_id, p_user_id, p_settings);
        PERFORM dealer.check_link_terms(p_kind, p_result);
        r.id := coalesce(last.id, 0) + 1;
        r.recorded_at := greatest({_TIME}, last.recorded_at);
        r.kind := p_kind; r.game := p_game; r.action := p_action; r.table_id := p_table_id;
        r.seat := p_seat; r.user_id := p_user_id; r.role := p_role;
        r.input_text := p_input_text; r.cards := p_cards; r.result := p_result;
        r.explanation := p_explanation; r.settings := p_settings; r.links_to := p_links_to;
        r.reason := p_reason; r.software_version := p_software_version;
        r.prev_hash := coalesce(last.hash, '{GENESIS_HASH}');
        IF pg_catalog.octet_length(p_settings) > {SETTINGS_KEPT_OVER} THEN
            r.settings := 'sha256:' || pg_catalog.encode(pg_catalog.sha256(
                pg_catalog.convert_to(p_settings, 'UTF8')), 'hex');
            INSERT INTO dealer.settings_texts (ref, text) VALUES (r.settings, p_settings)
                ON CONFLICT (ref) DO NOTHING;
        END IF;
        INSERT INTO dealer.records SELECT r.* RETURNING hash INTO r.hash;
        r.settings := p_settings;
        INSERT INTO dealer.record_seats
            SELECT r.id, s.seat, s.patron
            FROM unnest(p_seats, p_patrons) s(seat, patron);
        IF p_kind = '{RecordKind.RULING}' THEN  -- only a ruling adds to the floor's sums
            PERFORM dealer.add_sums(r);
        END IF;
        RETURN r;
    END """,
        more="SECURITY DEFINER",
    ),
    _function(
        "check_sitting",
        "p_kind text, p_table_id text, p_user_id text, p_settings text",
        "void",
        f"""
    DECLARE
        s dealer.records;
        theirs bigint;
        named jsonb;
    BEGIN
        IF p_kind IS DISTINCT FROM '{RecordKind.RULING}' THEN
            RETURN;
        END IF;
        named := p_settings::jsonb -> '{SIGNED_IN}';
        IF named IS NULL AND NOT EXISTS (
            SELECT 1 FROM dealer.records a
            WHERE a.kind = '{RecordKind.ASSIGNMENT}' AND a.table_id = p_table_id) THEN
            RETURN;
        END IF;
        SELECT * INTO s FROM dealer.records x
            WHERE x.kind = '{RecordKind.SIGN_IN}' AND x.table_id = p_table_id
            ORDER BY x.id DESC LIMIT 1;
        SELECT pg_catalog.max(y.id) INTO theirs FROM dealer.records y
            WHERE y.kind = '{RecordKind.SIGN_IN}' AND y.user_id = p_user_id;
        IF NOT coalesce(
            s.action = '{SignInAction.IN}' AND s.user_id = p_user_id AND theirs = s.id
            AND pg_catalog.jsonb_typeof(named) = 'number' AND named = pg_catalog.to_jsonb(s.id)
            AND s.recorded_at::timestamptz + interval '{SIGN_IN_HOURS} hours'
                > pg_catalog.clock_timestamp(), false) THEN
            RAISE EXCEPTION 'a ruling at table % names no sign-in of %''s standing there: at an '
                'assigned table only the dealer signed in there rules, and a ruling names only '
                'its maker''s own sign-in (dealer sign-in --table %)', p_table_id, p_user_id,
                p_table_id USING ERRCODE = 'insufficient_privilege';
        END IF;
    END """,
    ),
    _function(
        "check_assignment",
        "p_kind text, p_game text, p_table_id text, p_settings text",
        "void",
        f"""
    DECLARE
        a dealer.records;
        assigned jsonb;
        given jsonb;
        differs text;
    BEGIN
        IF p_kind IS DISTINCT FROM '{RecordKind.RULING}' THEN
            RETURN;
        END IF;
        SELECT * INTO a FROM dealer.records x
            WHERE x.kind = '{RecordKind.ASSIGNMENT}' AND x.table_id = p_table_id
            ORDER BY x.id DESC LIMIT 1;
        IF NOT FOUND OR a.game IS DISTINCT FROM p_game THEN
            RETURN;
        END IF;
        assigned := a.result::jsonb -> 'settings';
        given := p_settings::jsonb;
        SELECT pg_catalog.min(k.key COLLATE "C") INTO differs
            FROM pg_catalog.jsonb_each(CASE WHEN pg_catalog.jsonb_typeof(assigned) = 'object'
                                            THEN assigned ELSE '{{}}'::jsonb END) k
            WHERE k.key NOT IN ({_sql_list(assignments.EXEMPT)})
              AND NOT (k.key IN ({_sql_list(assignments.OPTIONAL)})
                       AND NOT coalesce(given ? k.key, false))
              AND (given -> k.key) IS DISTINCT FROM k.value;
        IF differs IS NULL THEN
            RETURN;
        END IF;
        IF assigned ->> 'rule_changes' = '{assignments.FORBIDDEN}' THEN
            RAISE EXCEPTION 'table % is assigned the profile % (record %), and this ruling is '
                'not made under it: its settings.% differ from the assignment''s, a rule change '
                'the profile forbids (rules.rule_changes: forbidden)', p_table_id,
                a.result::jsonb ->> 'profile', a.id, differs
                USING ERRCODE = 'insufficient_privilege';
        END IF;
        IF NOT coalesce((SELECT u.role = '{Role.SUPERVISOR}' AND u.active FROM dealer.users u
                         WHERE u.user_id = given ->> '{assignments.APPROVER}'
                         ORDER BY u.record_id DESC LIMIT 1), false) THEN
            RAISE EXCEPTION 'table % is assigned the profile % (record %), and this ruling is '
                'not made under it: its settings.% differ from the assignment''s, a rule change '
                'no active supervisor approved', p_table_id, a.result::jsonb ->> 'profile', a.id,
                differs USING ERRCODE = 'insufficient_privilege';
        END IF;
    END """,
    ),
    _function(
        "check_link_terms",
        "p_kind text, p_result text",
        "void",
        f"""
    DECLARE
        link text;
        seed text;
        cap text;
        setter bigint;
    BEGIN
        IF p_kind IS DISTINCT FROM '{RecordKind.METER}' THEN
            RETURN;
        END IF;
        link := p_result::json ->> 'link';
        IF link IS NULL THEN
            RETURN;
        END IF;
        SELECT m.value ->> 'seed', m.value ->> 'cap', a.id INTO seed, cap, setter
            FROM dealer.records a, LATERAL pg_catalog.jsonb_each({_ASSIGNED_METERS}) m
            WHERE a.kind = '{RecordKind.ASSIGNMENT}' AND m.value ->> 'link' = link
            ORDER BY a.id DESC LIMIT 1;
        IF NOT FOUND THEN
            SELECT x.result::json ->> 'seed', x.result::json ->> 'cap', x.id
                INTO seed, cap, setter
                FROM dealer.records x
                WHERE x.kind = '{RecordKind.METER}' AND (x.result::json ->> 'link') = link
                ORDER BY x.id LIMIT 1;
            IF NOT FOUND THEN
                RETURN;
            END IF;
        END IF;
        IF {_amount("seed")} IS DISTINCT FROM {_amount("p_result::json ->> 'seed'")}
           OR {_amount("cap")} IS DISTINCT FROM {_amount("p_result::json ->> 'cap'")} THEN
            RAISE EXCEPTION 'meter % of link % is recorded at the terms %/%, but the link''s are '
                '%/% (record %): a link''s terms change only by a supervisor''s assignment',
                p_result::json ->> 'meter', link, p_result::json ->> 'seed',
                p_result::json ->> 'cap', seed, cap, setter
                USING ERRCODE = 'insufficient_privilege';
        END IF;
    END """,
    ),
    _function(
        "add_user",
        "p_record_id bigint, p_user_id text, p_role text, p_active boolean, p_pin_hash text",
        "void",
        f"""
    DECLARE
        log_owner text;
        r dealer.records;
        kept text;
    BEGIN
        PERFORM dealer.lock_log();
        SELECT * INTO r FROM dealer.records ORDER BY id DESC LIMIT 1;
        IF p_record_id IS NULL OR r.id IS DISTINCT FROM p_record_id
           OR r.kind IS DISTINCT FROM '{RecordKind.USER}'
           OR (r.result::json ->> 'user') IS DISTINCT FROM p_user_id
           OR (r.result::json ->> 'role') IS DISTINCT FROM p_role
           OR (r.result::json ->> 'active')::boolean IS DISTINCT FROM p_active THEN
            RAISE EXCEPTION 'a users row goes with the user record just appended, as it says'
                USING ERRCODE = 'insufficient_privilege';
        END IF;{_OWNER}
        IF r.user_id IS DISTINCT FROM session_user::text
           AND session_user::text IS DISTINCT FROM log_owner THEN
            RAISE EXCEPTION 'user record % was not made by %', r.id, session_user
                USING ERRCODE = 'insufficient_privilege';
        END IF;
        IF coalesce(pg_catalog.starts_with(p_pin_hash, '{WITHHELD}$'), false) THEN
            SELECT u.pin_hash INTO kept FROM dealer.users u WHERE u.user_id = p_user_id
                ORDER BY u.record_id DESC LIMIT 1;
            IF kept IS NULL OR dealer.withheld(kept) IS DISTINCT FROM p_pin_hash THEN
                RAISE EXCEPTION 'a PIN kept by a users change is the one % has now', p_user_id
                    USING ERRCODE = 'insufficient_privilege';
            END IF;
            p_pin_hash := kept;
        END IF;
        INSERT INTO dealer.users VALUES (p_record_id, p_user_id, p_role, p_active, p_pin_hash);
    END """,
        more="SECURITY DEFINER",
    ),
    _function(
        "add_sums",
        "r dealer.records",
        "void",
        f"""
    BEGIN
        {_sums_added(f"({record_rows('r')}) AS s")};
        IF FOUND THEN
            INSERT INTO dealer.floor_sums_of VALUES (r.id);
        END IF;
    END """,
    ),
    _function(
        "withheld",
        "p_secret text",
        "text",
        f""" SELECT '{WITHHELD}$' || pg_catalog.encode(pg_catalog.sha256(
            pg_catalog.convert_to(p_secret, 'UTF8')), 'hex')
        || '$' || pg_catalog.array_to_string((pg_catalog.string_to_array(p_secret, '$'))[1:5], '$')
        || '$' || CASE WHEN pg_catalog.split_part(p_secret, '$', 1) = '{SCHEME}'
                       THEN pg_catalog.split_part(p_secret, '$', 8) ELSE '' END """,
        language="sql",
        more="IMMUTABLE STRICT",
    ),
    _function(
        "user_rows",
        "",
        "TABLE (record_id bigint, user_id text, role text, active boolean, pin_hash text)",
        """ SELECT u.record_id, u.user_id, u.role, u.active, dealer.withheld(u.pin_hash)
        FROM dealer.users u """,
        language="sql",
        more="STABLE SECURITY DEFINER",
    ),
    _function(
        "submit_attempt",
        "p_user_id text, p_proof text",
        "bigint",
        f"""
    DECLARE
        log_owner text;
        secret dealer.users;
        failures bigint;
        latest timestamptz;
        verifier text;
        passed boolean;
        attempt bigint;
    BEGIN
        IF pg_catalog.current_setting('transaction_isolation') IS DISTINCT FROM 'read committed'
        THEN
            RAISE EXCEPTION 'a PIN is checked in a READ COMMITTED transaction'
                USING ERRCODE = 'insufficient_privilege';
        END IF;
        IF EXISTS (SELECT 1 FROM dealer.secret_attempts a
                   WHERE a.xact = pg_catalog.pg_current_xact_id()) THEN
            RAISE EXCEPTION 'one PIN check a transaction: commit it, then check another'
                USING ERRCODE = 'insufficient_privilege';
        END IF;
        SELECT * INTO secret FROM dealer.users u WHERE u.user_id = p_user_id
            ORDER BY u.record_id DESC LIMIT 1;
        IF secret.pin_hash IS NULL THEN
            RAISE EXCEPTION '% has no PIN on this log', p_user_id
                USING ERRCODE = 'insufficient_privilege';
        END IF;
        INSERT INTO dealer.secret_guessers VALUES (session_user::text, p_user_id)
            ON CONFLICT DO NOTHING;
        PERFORM 1 FROM dealer.secret_guessers g
            WHERE g.made_by = session_user::text AND g.user_id = p_user_id
            FOR UPDATE SKIP LOCKED;
        IF NOT FOUND THEN
            RAISE EXCEPTION 'a check of a PIN of % from % is already under way', p_user_id,
                session_user USING ERRCODE = 'insufficient_privilege';
        END IF;
        SELECT pg_catalog.count(*), pg_catalog.max(a.made_at) INTO failures, latest
            FROM dealer.secret_attempts a
            WHERE a.user_id = p_user_id AND a.made_by = session_user::text
              AND a.record_id = secret.record_id AND NOT a.ok
              AND a.id > coalesce(
                (SELECT pg_catalog.max(b.id) FROM dealer.secret_attempts b
                 WHERE b.user_id = p_user_id AND b.made_by = session_user::text AND b.ok), 0);
        IF failures >= {SERVER_LOCKOUT_AFTER} AND latest + pg_catalog.make_interval(secs =>
               least({LOCKOUT_FIRST_SECONDS} * 2 ^ least(failures - {SERVER_LOCKOUT_AFTER}, 12),
                     {LOCKOUT_MAX_SECONDS})) > pg_catalog.clock_timestamp() THEN
            RAISE EXCEPTION 'the server checks no PIN of % from the login % for a while, after % '
                'wrong in a row (at most {LOCKOUT_MAX_SECONDS // 60} minutes; the PIN was not '
                'checked)', p_user_id, session_user, failures
                USING ERRCODE = 'insufficient_privilege';
        END IF;
        verifier := pg_catalog.split_part(secret.pin_hash, '$', 9);{_OWNER}
        IF verifier = '' THEN
            IF session_user::text IS DISTINCT FROM log_owner THEN
                RAISE EXCEPTION 'the PIN of % was set by an earlier release, which the server '
                    'cannot check: the database''s owner sets a new one', p_user_id
                    USING ERRCODE = 'insufficient_privilege';
            END IF;
            passed := true;
        ELSE
            passed := coalesce(pg_catalog.encode(pg_catalog.sha256(
                pg_catalog.convert_to(p_proof, 'UTF8')), 'hex') = verifier, false);
        END IF;
        INSERT INTO dealer.secret_attempts (user_id, record_id, made_by, made_at, xact, ok)
            VALUES (p_user_id, secret.record_id, session_user::text,
                    pg_catalog.clock_timestamp(), pg_catalog.pg_current_xact_id(), passed)
            RETURNING id INTO attempt;
        RETURN attempt;
    END """,
        more="SECURITY DEFINER",
    ),
    _function(
        "open_secret",
        "p_attempt bigint",
        "text",
        """
    DECLARE
        a dealer.secret_attempts;
        secret dealer.users;
    BEGIN
        SELECT * INTO a FROM dealer.secret_attempts x WHERE x.id = p_attempt;
        SELECT * INTO secret FROM dealer.users u WHERE u.user_id = a.user_id
            ORDER BY u.record_id DESC LIMIT 1;
        IF NOT coalesce(a.ok AND a.made_by = session_user::text
                        AND pg_catalog.pg_xact_status(a.xact) = 'committed'
                        AND a.made_at > pg_catalog.clock_timestamp() - interval '1 minute'
                        AND secret.record_id = a.record_id, false) THEN
            RETURN NULL;
        END IF;
        RETURN secret.pin_hash;
    END """,
        more="SECURITY DEFINER",
    ),
)
"""The log's functions. Each runs with `SEARCH_PATH` and names every table qualified; a check
is written so that NULL never passes it (`IS DISTINCT FROM`, `coalesce(…, false)`).

* `check_order` (the trigger `records_in_order`) also bounds a record's size
  (`records.RECORD_LIMIT`, the text an approval holds by `inputs.DOCUMENT_LIMIT`), for every
  writer, the owner's copies too.
* `check_canonical` refuses a record's JSON with a key given twice or in another encoding
  than the hash recipe's (`dealer.audit.canonical`), for `append_record` (before the lock:
  the floor's appends do not wait on it) and for each record a copy writes (`postgres.copy`,
  the owner's path). A settings text kept before this release, or by the owner's hand, is
  verify's to check.
* `lock_log` takes the log's lock: the one row of `dealer.log_lock`, FOR UPDATE. Only
  `dealer_app` may execute it, and a row lock needs UPDATE on the table, which no login but the
  owner holds: an auditor, or a login of no role, cannot hold up the floor's writes (an
  advisory lock, which any login can take, could).
* `append_record` refuses, besides a record in another's name, what verify would fail at the
  maker's standing (`users.actor_problem`: disabled, another role, an auditor's non-checkpoint,
  an unregistered id in a role above a dealer's) and a supervisor action
  (`verify.SUPERVISOR_ACTIONS`, a meter adjustment: a users change and an approval are ones) by
  anyone but a registered supervisor — the maker as the log's users table says now; an
  access-denied record and the bootstrap are made whoever tries, as verify has them, and a
  recovery (`user`/`recover`, its maker the supervisor it registers) by the database owner
  only: the server cannot check the recovery key's signature, verify does. It also
  refuses to append after a head dated more than `chain.FUTURE_TOLERANCE` after the server's
  clock: no record is dragged into the future. Further checks are functions of their own,
  called from it by one line each:
* `check_canonical` refuses a record whose JSON is not the hash recipe's own (a key given
  twice, another encoding: `dealer.audit.canonical`), before the log's lock.
* `check_sign_in` refuses a sign-in by anyone with no PIN on the log, or carrying no
  signature (verify checks the signature itself).
* `check_sitting` refuses a ruling at an assigned table that names no sign-in standing there
  for its maker, and a ruling anywhere naming another (`sign_ins.sitting`'s rule: the table's
  newest sign-in record, its maker's newest, within `sign_ins.SIGN_IN_HOURS`).
* `check_assignment` refuses a ruling at a table assigned a profile (the newest `assignment`
  record there, of the ruling's game) whose settings differ from the assignment's
  (`assignments.difference`, compared as JSON: the server reads no profile) where the
  assignment forbids rule changes, or with no active supervisor named as approving the change
  (verify checks the approver's countersignature).
* `check_link_terms` refuses a meter record of a link that states other terms (seed, cap) than
  the link's (`meters.link_terms`: the newest assignment linking the meter, else the link's
  first record).
* `add_sums` adds to the floor's sums the rows `dealer.record_sums` (the desk's,
  `record_sums`) computes for the record `append_record` just appended, and marks it summed
  (`floor_sums_of`); no login but the owner may execute either: the terminals' only way to
  the sums is the record they append."""

_FUNCTION = {function.identity.split("(")[0]: function for function in FUNCTIONS}

SCHEMA_STATEMENTS: tuple[str, ...] = (
    f"CREATE SCHEMA {SCHEMA}",
    """
    CREATE TABLE dealer.schema_migrations (
        version integer PRIMARY KEY, name text NOT NULL, applied_at text NOT NULL
    )
    """,
    """
    CREATE TABLE dealer.records (
        id bigint PRIMARY KEY CHECK (id > 0),
        recorded_at text NOT NULL,
        kind text NOT NULL,
        game text NOT NULL,
        action text NOT NULL,
        table_id text NOT NULL,
        seat integer,
        user_id text NOT NULL,
        role text NOT NULL,
        input_text text NOT NULL,
        cards text NOT NULL,
        result text NOT NULL,
        explanation text NOT NULL,
        settings text NOT NULL,
        links_to bigint REFERENCES dealer.records(id),
        reason text,
        software_version text NOT NULL,
        prev_hash text NOT NULL,
        hash text NOT NULL
    )
    """,
    """
    CREATE TABLE dealer.users (
        record_id bigint PRIMARY KEY REFERENCES dealer.records(id),
        user_id text NOT NULL,
        role text NOT NULL CHECK (role IN ('dealer', 'supervisor', 'auditor')),
        active boolean NOT NULL,
        pin_hash text
    )
    """,
    """
    CREATE TABLE dealer.record_seats (
        record_id bigint NOT NULL REFERENCES dealer.records(id),
        seat integer NOT NULL,
        patron text,
        PRIMARY KEY (record_id, seat)
    )
    """,
    "CREATE INDEX record_seats_by_seat ON dealer.record_seats(seat, record_id)",
    """
    CREATE INDEX record_seats_by_patron ON dealer.record_seats(patron, record_id)
    WHERE patron IS NOT NULL
    """,
    "CREATE INDEX users_by_user ON dealer.users(user_id, record_id)",
    "CREATE INDEX records_by_table ON dealer.records(table_id, seat, id)",
    "CREATE INDEX records_by_time ON dealer.records(recorded_at)",
    "CREATE INDEX records_by_user ON dealer.records(user_id, id)",
    "CREATE INDEX records_by_kind ON dealer.records(kind, id)",
    "CREATE INDEX records_by_link ON dealer.records(links_to) WHERE links_to IS NOT NULL",
    """
    CREATE INDEX records_meters ON dealer.records(table_id, ((result::json) ->> 'meter'), id)
    WHERE kind = 'meter'
    """,
    _FUNCTION["dealer.record_hash"].statement,
    _FUNCTION["dealer.refuse"].statement,
    _FUNCTION["dealer.check_order"].statement,
    _FUNCTION["dealer.check_seat"].statement,
    *_append_only(
        "records",
        "audit records cannot be changed: record an override or void",
        "audit records cannot be deleted",
    ),
    """
    CREATE TRIGGER records_in_order BEFORE INSERT ON dealer.records FOR EACH ROW
    EXECUTE FUNCTION dealer.check_order()
    """,
    *_append_only(
        "users",
        "user history cannot be changed: record a new user change",
        "user history cannot be deleted",
    ),
    *_append_only(
        "record_seats", "the seat index cannot be changed", "the seat index cannot be deleted from"
    ),
    """
    CREATE TRIGGER record_seats_of_the_newest BEFORE INSERT ON dealer.record_seats
    FOR EACH ROW EXECUTE FUNCTION dealer.check_seat()
    """,
)
"""The schema and its protection, created by `dealer db init` (the functions the triggers run
first; every function is made again by each `dealer db init`, after the migrations). The seat
index is part of schema version 1: the PostgreSQL backend had no release without it. Each
trigger is written as the server prints it (`pg_get_triggerdef`), which `verify` compares."""

TRIGGERS = tuple(
    " ".join(statement.split())
    for statement in (*SCHEMA_STATEMENTS, *(made for _, steps in MIGRATIONS for made in steps))
    if "CREATE TRIGGER" in statement
)
"""Every trigger of the log, as the server prints it (`pg_get_triggerdef`)."""

APPEND_FUNCTION = (
    "dealer.append_record(text, text, text, text, integer, text, text, text, text, text, "
    "text, text, bigint, text, text, integer[], text[])"
)
"""The one function every write goes through: a login that may not execute it only reads."""
_FUNCTIONS = (
    APPEND_FUNCTION,
    "dealer.add_user(bigint, text, text, boolean, text)",
    "dealer.lock_log()",
    "dealer.submit_attempt(text, text)",
    "dealer.open_secret(bigint)",
    "dealer.check_canonical(text, text, text, text)",
)
TABLES = (
    "schema_migrations",
    "records",
    "record_seats",
    "log_lock",
    "settings_texts",
    "floor_sums",
    "floor_sums_from",
    "floor_sums_of",
)
"""The log's tables both roles read. The users table is read through `dealer.user_rows()`,
which withholds the secrets; `dealer.secret_attempts` is read by no one but the functions."""


def granted() -> frozenset[tuple[str, str, str]]:
    """Every grant on the log's objects this software makes, as (object, privilege, grantee):
    `verify` reports any other (the owner's own privileges aside)."""
    both = (APP_ROLE, AUDITOR_ROLE)
    grants = {(f"SCHEMA {SCHEMA}", "USAGE", role) for role in both}
    grants |= {(f"TABLE dealer.{table}", "SELECT", role) for table in TABLES for role in both}
    grants |= {
        (f"FUNCTION {function}", "EXECUTE", role)
        for function in ("dealer.record_hash(dealer.records)", "dealer.user_rows()")
        for role in both
    }
    grants |= {(f"FUNCTION {function}", "EXECUTE", APP_ROLE) for function in _FUNCTIONS}
    return frozenset(grants)


def role_statements() -> tuple[str, ...]:
    """The two roles (made if missing: roles belong to the whole server) and their grants
    (`granted`), after every right on the log's objects is taken from them and from PUBLIC
    (functions are executable by all unless revoked); and the database's: PUBLIC may neither
    connect nor make temporary tables, the two roles may connect."""
    make = (
        "DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '{0}') THEN "
        "CREATE ROLE {0} NOLOGIN; END IF; END $$"
    )
    statements = [make.format(APP_ROLE), make.format(AUDITOR_ROLE)]
    everyone = f"PUBLIC, {APP_ROLE}, {AUDITOR_ROLE}"
    statements.extend(
        f"REVOKE ALL ON {objects} FROM {everyone}"
        for objects in (
            f"SCHEMA {SCHEMA}",
            f"ALL TABLES IN SCHEMA {SCHEMA}",
            f"ALL FUNCTIONS IN SCHEMA {SCHEMA}",
        )
    )
    statements.append(
        "DO $$ BEGIN EXECUTE pg_catalog.format("
        "'REVOKE CONNECT, TEMPORARY ON DATABASE %I FROM PUBLIC; "
        f"GRANT CONNECT ON DATABASE %I TO {APP_ROLE}, {AUDITOR_ROLE}', "
        "pg_catalog.current_database(), pg_catalog.current_database()); END $$"
    )
    statements.extend(
        f"GRANT {privilege} ON {target} TO {grantee}"
        for target, privilege, grantee in sorted(granted())
    )
    return tuple(statements)
