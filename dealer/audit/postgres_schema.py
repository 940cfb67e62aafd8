"""The PostgreSQL schema of the audit log and its roles (used only by `dealer.audit.postgres`).

Everything lives in the schema `dealer`, owned by the login that ran `dealer db init` (the
floor's database owner). What a record is, the server decides:

* `dealer_app`, the role every terminal login is a member of, holds SELECT and EXECUTE only:
  no INSERT, UPDATE, DELETE or TRUNCATE on any table. Records are appended only through
  `dealer.append_record`, a SECURITY DEFINER function that takes the log's advisory lock
  (appends are serialised, so terminals at once can never fork the chain), numbers the record,
  stamps its time (never before the head's, in `utc_now`'s format) and computes its hash in
  the server by the recipe of `dealer.audit.chain`.
* The record is made in the name of the authenticated database user: `append_record` refuses
  a record whose `user_id` is not `session_user` (terminals log in as `d-104`, `sup-7`). Only
  the owner may append in another name (it owns the tables anyway; `dealer audit copy` and
  the set-up use it, terminals never do).
* The seat index `record_seats` (the seats each record involved, `records.seats_of`, computed
  by the client) is written only by `append_record`, with the record, and a trigger refuses a
  row for any record but the newest or for a seat (or patron) its content does not name.
* The users table is written only through `dealer.add_user`, which accepts a users row only for
  the `user` record just appended by the same session, matching what that record says.
* Triggers refuse UPDATE, DELETE and TRUNCATE for everyone and check each inserted row's
  number, link and hash, so even the owner cannot insert a record the chain does not vouch for.
* `dealer_auditor` reads (SELECT) and nothing else.

Canonical JSON in SQL: `to_json(text)` escapes exactly the characters Python's `json.dumps`
escapes (quote, backslash, controls below U+0020 in the same forms), and the object is built by
concatenation with its keys in sorted order, so the same record hashes alike on both backends.
"""

from __future__ import annotations

from dealer.audit.chain import GENESIS_HASH

SCHEMA = "dealer"
APP_ROLE = "dealer_app"
AUDITOR_ROLE = "dealer_auditor"
LOCK_KEY = 0x6465616C6572
"""The advisory lock (per database) every writer of the log takes first: `dealer` in ASCII."""

FIRST = "records, users, their protection and write functions"
"""What version 1 of the schema (`SCHEMA_STATEMENTS`) holds."""

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


_TIME = """to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')"""


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
        f"{refuse}('{deleted}')",
    )


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
    f"""
    CREATE FUNCTION dealer.record_hash(r dealer.records) RETURNS text
    LANGUAGE sql IMMUTABLE STRICT SET search_path = pg_catalog
    AS $$ SELECT encode(sha256(convert_to({_canonical_sql()}, 'UTF8')), 'hex') $$
    """,
    """
    CREATE FUNCTION dealer.refuse() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        RAISE EXCEPTION '%', TG_ARGV[0];
    END $$
    """,
    f"""
    CREATE FUNCTION dealer.check_order() RETURNS trigger
    LANGUAGE plpgsql SET search_path = dealer, pg_catalog AS $$
    DECLARE
        last dealer.records;
    BEGIN
        SELECT * INTO last FROM dealer.records ORDER BY id DESC LIMIT 1;
        IF NEW.id IS DISTINCT FROM coalesce(last.id, 0) + 1
           OR NEW.prev_hash IS DISTINCT FROM coalesce(last.hash, '{GENESIS_HASH}') THEN
            RAISE EXCEPTION 'audit records are appended in order, each linked to the last';
        END IF;
        IF NEW.hash IS DISTINCT FROM dealer.record_hash(NEW) THEN
            RAISE EXCEPTION 'audit record % does not carry its own hash', NEW.id;
        END IF;
        IF NEW.recorded_at < coalesce(last.recorded_at, '') THEN
            RAISE EXCEPTION 'audit record % is dated before the record before it', NEW.id;
        END IF;
        RETURN NEW;
    END $$
    """,
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
    """
    CREATE FUNCTION dealer.check_seat() RETURNS trigger
    LANGUAGE plpgsql SET search_path = dealer, pg_catalog AS $$
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
            OR (jsonb_typeof(listed) = 'array' AND EXISTS (
                SELECT 1 FROM jsonb_array_elements(listed) item
                WHERE item = to_jsonb(NEW.seat)
                   OR (item -> 'seat' = to_jsonb(NEW.seat)
                       AND (NEW.patron IS NULL OR item ->> 'patron' = NEW.patron)))),
            false
        ) THEN
            RAISE EXCEPTION 'seat % is not one record % involved', NEW.seat, r.id;
        END IF;
        RETURN NEW;
    END $$
    """,
    *_append_only(
        "record_seats", "the seat index cannot be changed", "the seat index cannot be deleted from"
    ),
    """
    CREATE TRIGGER record_seats_of_the_newest BEFORE INSERT ON dealer.record_seats
    FOR EACH ROW EXECUTE FUNCTION dealer.check_seat()
    """,
    f"""
    CREATE FUNCTION dealer.append_record(
        p_kind text, p_game text, p_action text, p_table_id text, p_seat integer,
        p_user_id text, p_role text, p_input_text text, p_cards text, p_result text,
        p_explanation text, p_settings text, p_links_to bigint, p_reason text,
        p_software_version text, p_seats integer[], p_patrons text[]
    ) RETURNS dealer.records
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = dealer, pg_catalog AS $$
    DECLARE
        last dealer.records;
        r dealer.records;
    BEGIN
        IF current_setting('transaction_isolation') <> 'read committed' THEN
            RAISE EXCEPTION 'audit records are appended in READ COMMITTED transactions';
        END IF;
        IF p_user_id IS DISTINCT FROM session_user::text AND session_user::text <> (
            SELECT nspowner::regrole::text FROM pg_namespace WHERE nspname = '{SCHEMA}'
        ) THEN
            RAISE EXCEPTION 'the record is in the name of %, but this terminal is logged in as %',
                p_user_id, session_user USING ERRCODE = 'insufficient_privilege';
        END IF;
        PERFORM p_cards::json, p_result::json, p_explanation::json, p_settings::json;
        PERFORM pg_advisory_xact_lock({LOCK_KEY});
        SELECT * INTO last FROM dealer.records ORDER BY id DESC LIMIT 1;
        r.id := coalesce(last.id, 0) + 1;
        r.recorded_at := greatest({_TIME}, last.recorded_at);
        r.kind := p_kind; r.game := p_game; r.action := p_action; r.table_id := p_table_id;
        r.seat := p_seat; r.user_id := p_user_id; r.role := p_role;
        r.input_text := p_input_text; r.cards := p_cards; r.result := p_result;
        r.explanation := p_explanation; r.settings := p_settings; r.links_to := p_links_to;
        r.reason := p_reason; r.software_version := p_software_version;
        r.prev_hash := coalesce(last.hash, '{GENESIS_HASH}');
        r.hash := dealer.record_hash(r);
        INSERT INTO dealer.records SELECT r.*;
        INSERT INTO dealer.record_seats
            SELECT r.id, s.seat, s.patron FROM unnest(p_seats, p_patrons) s(seat, patron);
        RETURN r;
    END $$
    """,
    f"""
    CREATE FUNCTION dealer.add_user(
        p_record_id bigint, p_user_id text, p_role text, p_active boolean, p_pin_hash text
    ) RETURNS void
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = dealer, pg_catalog AS $$
    DECLARE
        r dealer.records;
    BEGIN
        PERFORM pg_advisory_xact_lock({LOCK_KEY});
        SELECT * INTO r FROM dealer.records ORDER BY id DESC LIMIT 1;
        IF r.id IS DISTINCT FROM p_record_id OR r.kind <> 'user'
           OR (r.result::json ->> 'user') IS DISTINCT FROM p_user_id
           OR (r.result::json ->> 'role') IS DISTINCT FROM p_role
           OR (r.result::json ->> 'active')::boolean IS DISTINCT FROM p_active THEN
            RAISE EXCEPTION 'a users row goes with the user record just appended, as it says'
                USING ERRCODE = 'insufficient_privilege';
        END IF;
        IF r.user_id IS DISTINCT FROM session_user::text AND session_user::text <> (
            SELECT nspowner::regrole::text FROM pg_namespace WHERE nspname = '{SCHEMA}'
        ) THEN
            RAISE EXCEPTION 'user record % was not made by %', r.id, session_user
                USING ERRCODE = 'insufficient_privilege';
        END IF;
        INSERT INTO dealer.users VALUES (p_record_id, p_user_id, p_role, p_active, p_pin_hash);
    END $$
    """,
)
"""The schema, its protection and its two write functions, created by `dealer db init`. The
seat index is part of schema version 1: the PostgreSQL backend had no release without it."""

APPEND_FUNCTION = (
    "dealer.append_record(text, text, text, text, integer, text, text, text, text, text, "
    "text, text, bigint, text, text, integer[], text[])"
)
"""The one function every write goes through: a login that may not execute it only reads."""
_FUNCTIONS = (APPEND_FUNCTION, "dealer.add_user(bigint, text, text, boolean, text)")


def role_statements() -> tuple[str, ...]:
    """The two roles (made if missing: roles belong to the whole server) and their grants."""
    make = (
        "DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '{0}') THEN "
        "CREATE ROLE {0} NOLOGIN; END IF; END $$"
    )
    statements = [make.format(APP_ROLE), make.format(AUDITOR_ROLE)]
    for function in (*_FUNCTIONS, "dealer.record_hash(dealer.records)"):
        statements.append(f"REVOKE ALL ON FUNCTION {function} FROM PUBLIC")
    for role in (APP_ROLE, AUDITOR_ROLE):
        statements.append(f"GRANT USAGE ON SCHEMA {SCHEMA} TO {role}")
        statements.append(f"GRANT SELECT ON ALL TABLES IN SCHEMA {SCHEMA} TO {role}")
        statements.append(f"GRANT EXECUTE ON FUNCTION dealer.record_hash(dealer.records) TO {role}")
    statements.extend(f"GRANT EXECUTE ON FUNCTION {f} TO {APP_ROLE}" for f in _FUNCTIONS)
    return tuple(statements)
