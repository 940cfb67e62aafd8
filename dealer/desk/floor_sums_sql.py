"""The floor's sums in SQL: the body of `dealer.record_sums(r)`, by which a PostgreSQL log
computes the rows each ruling adds, from the record `append_record` appends and the members'
state in the sums (`dealer.audit.postgres_schema`: a terminal sends no rows). It is made here
from the constants and registries `floor_sums` reads a ruling with — the groups, the sources
and their columns, `BREAK_SECONDS`, the wagers of `Wager` by how each is settled, the rulings
that count, `BaseRules`' defaults, `shift.STORED_AMOUNT` and `FIGURE_LIMIT` — and handed to the
schema by `dealer db init` and to verify (`FLOOR_SUMS`), which compares the server's function
with it. `floor_sums` stays the one reference: SQLite, verify, a copy and the statistics'
replay use it; tests/test_floor_sums_server.py holds this to it.

Decisions:
* One PL/pgSQL function of simple expressions: a record that does not count returns at once
  (its JSON never parsed); one that does is parsed once (`jsonb`) and read seat by seat and
  bonus by bonus, each part of a row returned as it is made (`RETURN NEXT`), and
  `dealer.add_sums` sums the parts of a key in the one statement that adds them. A simple
  expression is made ready once a transaction, and only where it is reached: a settle's rows
  take the server about 0.45 ms of CPU, a round of three seats' 0.55 ms, less than the
  terminal spent reckoning them and sending them. Measured before: one set-based query doing
  it all took 12 ms to plan in each new session and 1.3 ms to start and run a settle (every
  expression of its plan made ready at each call). No helper function: one with its own
  `search_path`, as every one of the log's has, is never inlined, a call each value.
* A stored value is read as `floor_sums` reads it: an amount as `shift.stored_money` (a JSON
  number or the text of a plain decimal, within `FIGURE_LIMIT`, else 0; cents truncated), a
  mapping and a list of mappings as `shift.stored_mapping` and `stored_items` (anything else
  empty), a name as `str` does (text as it is; a number, true, false and null as Python writes
  them), a whole number as `isinstance(value, int)` (true and false are), truth as Python's,
  a source's name as `floor_sums.source_key` (`json.dumps`, its ASCII escapes). The server
  reads a JSON number exactly (`numeric`), Python through a binary float: they agree on every
  number as Python writes one (`repr`) and on any other of up to 15 significant digits, but
  for a count or a name that is a float written with an exponent (below 0.0001, or from
  1e16), which `jsonb` keeps without it. A name that is a list or an object may be read
  otherwise too. No record of the tool holds one of these, only a login's own making: verify
  then names the hour. A ruling that counts holding JSON `jsonb` cannot take (a `\\u0000`, a
  lone surrogate) is not appended at all.
* Nothing a session sets changes the rows: no float or time is turned into text (amounts are
  `numeric`, the hour before is `to_char` of a timestamp), times are read as timestamps
  without a zone, and a literal with a backslash is an `E''` string (a session's
  `standard_conforming_strings` does not move it).
"""

from __future__ import annotations

import json
from collections.abc import Iterable

from dealer.audit.records import RecordKind
from dealer.audit.sign_ins import SIGNED_IN
from dealer.audit.sums import INTS, REALS
from dealer.audit.verify import FloorSums
from dealer.desk import floor_sums
from dealer.desk.floor_sums import (
    AGAINST_HOUSE_WAY,
    AMOUNT,
    BASE,
    BEST_HANDS,
    BONUS,
    BREAK_SECONDS,
    COST,
    COST_WAGER,
    COSTS_SQUARED,
    COUNT,
    DEALER,
    ENVY,
    GAPS,
    HANDS,
    HIT,
    HOUSE,
    METERS,
    OWN,
    OWN_HANDS,
    PATRON,
    PLAY,
    PLAY_WAGERED,
    ROUNDS,
    RULINGS,
    SEATS,
    SECONDS,
    SQUARES,
    TABLE,
    UNSIGNED,
    WAGERED,
    WAGERS_SQUARED,
)
from dealer.desk.shift import MONEY_ACTIONS, STORED_AMOUNT, WAGER_TYPES
from dealer.games.paigow.pay import PLACED, PROGRESSIVES, Wager
from dealer.games.paigow.settle import BaseRules
from dealer.inputs import FIGURE_LIMIT
from dealer.kernel.ruling import RulingAction


def _literal(text: str) -> str:
    """`text` as an SQL string literal: an `E''` string when it holds a backslash, which then
    means the same whatever a session's `standard_conforming_strings`."""
    escaped = text.replace("'", "''")
    return f"E'{escaped.replace(chr(92), chr(92) * 2)}'" if "\\" in text else f"'{escaped}'"


def _among(values: Iterable[str]) -> str:
    """An SQL list of text literals (`x IN (...)`)."""
    return ", ".join(_literal(value) for value in values)


def _mapping(value: str) -> str:
    """`shift.stored_mapping` of jsonb `value`: an object as it is, else `{}`."""
    return f"CASE WHEN jsonb_typeof({value}) = 'object' THEN {value} ELSE '{{}}'::jsonb END"


def _list(value: str) -> str:
    """jsonb `value` when it is an array, else `[]` (its items are filtered where read, as
    `shift.stored_items` keeps the mappings)."""
    return f"CASE WHEN jsonb_typeof({value}) = 'array' THEN {value} ELSE '[]'::jsonb END"


_PATTERN = _literal(f"^{STORED_AMOUNT.pattern}$")


def _checked(text: str) -> str:
    """The amount SQL text `text` holds, as `shift.stored_money` reads text: a plain decimal
    (`STORED_AMOUNT`) within `FIGURE_LIMIT`, else 0."""
    limit = int(FIGURE_LIMIT)
    return (
        f"CASE WHEN {text} ~ {_PATTERN} THEN (CASE WHEN abs(({text})::numeric) <= {limit} "
        f"THEN ({text})::numeric ELSE 0 END) ELSE 0 END"
    )


def _money(value: str) -> str:
    """`shift.stored_money` of jsonb `value` (a variable or a key of one), as numeric: text as
    it is (`_checked`); a number as Python reads the float it writes (`repr`): a plain decimal
    of at most 12 places (`min_scale`), from 0.0001 (below, with an exponent: no plain
    decimal), within `FIGURE_LIMIT`, else 0."""
    number = f"({value})::numeric"
    text = f"({value} #>> '{{}}')"
    limit = int(FIGURE_LIMIT)
    return (
        f"(CASE jsonb_typeof({value}) WHEN 'number' THEN (CASE WHEN {number} = 0 "
        f"OR abs({number}) < 0.0001 OR abs({number}) > {limit} OR min_scale({number}) > 12 "
        f"THEN 0 ELSE {number} END) WHEN 'string' THEN {_checked(text)} ELSE 0 END)"
    )


def _cents(value: str) -> str:
    """`floor_sums.cents` of `_money(value)`: whole cents, truncated towards zero."""
    return f"trunc({_money(value)} * 100)::bigint"


def _text(value: str) -> str:
    """`str` of jsonb `value`: SQL NULL for none (the caller gives the default `.get` has)."""
    return (
        f"(CASE jsonb_typeof({value}) WHEN 'string' THEN {value} #>> '{{}}' "
        f"WHEN 'boolean' THEN (CASE WHEN {value} = 'true'::jsonb THEN 'True' ELSE 'False' END) "
        f"WHEN 'null' THEN 'None' ELSE ({value})::text END)"
    )


def _truthy(value: str) -> str:
    """Python's truth of jsonb `value` (false for none)."""
    return (
        f"coalesce(CASE jsonb_typeof({value}) WHEN 'boolean' THEN {value} = 'true'::jsonb "
        f"WHEN 'number' THEN ({value})::numeric <> 0 "
        f"WHEN 'string' THEN {value} <> '\"\"'::jsonb "
        f"WHEN 'array' THEN {value} <> '[]'::jsonb "
        f"WHEN 'object' THEN {value} <> '{{}}'::jsonb END, false)"
    )


def _whole(value: str) -> str:
    """`isinstance(value, int)` of jsonb `value`: a number without a fraction, or true/false."""
    return (
        f"coalesce(jsonb_typeof({value}) = 'boolean' OR (jsonb_typeof({value}) = 'number' "
        f"AND strpos(({value})::text, '.') = 0), false)"
    )


def _json(target: str, text: str) -> str:
    """Statements setting `target` to the JSON string of SQL text `text` as `json.dumps`
    writes it: `to_json`'s escapes (the same as Python's), then, only for text that has one,
    each character outside printable ASCII as `\\uXXXX` (a surrogate pair beyond the first
    plane)."""
    u = "chr(92) || 'u'"
    point = "ascii(ch.c)"
    escaped = (
        f"CASE WHEN {point} BETWEEN 32 AND 126 THEN ch.c "
        f"WHEN {point} < 65536 THEN {u} || lpad(to_hex({point}), 4, '0') "
        f"ELSE {u} || to_hex(55296 + (({point} - 65536) >> 10)) "
        f"|| {u} || to_hex(56320 + (({point} - 65536) & 1023)) END"
    )
    return f"""{target} := to_json({text})::text;
            IF octet_length({target}) <> length({target}) OR strpos({target}, chr(127)) > 0 THEN
                {target} := (SELECT string_agg({escaped}, '' ORDER BY ch.n)
                             FROM regexp_split_to_table({target}, '') WITH ORDINALITY ch(c, n));
            END IF;"""


def _key(kind: str, *parts: str) -> str:
    """`floor_sums.source_key(kind, *parts)`: `parts` are SQL texts already JSON strings."""
    inner = " || ',' || ".join((_literal(json.dumps(kind)), *parts))
    return f"'[' || {inner} || ']'"


def _quoted(text: str) -> str:
    """The JSON string of SQL text `text` known to hold only digits, `-` or letters."""
    return f"'\"' || {text} || '\"'"


def _columns(columns: dict[int, str]) -> str:
    """A row's `INTS` whole numbers and `REALS` reals: `columns` by `floor_sums`' column
    constants (`RULINGS`, `SECONDS` …), the rest 0."""
    whole = [f"({columns.get(i, '0')})::bigint" for i in range(INTS)]
    real = [f"({columns.get(INTS + i, '0')})::float8" for i in range(REALS)]
    return ", ".join(whole + real)


def _emit(
    grp: str, member: str, source: str, columns: dict[int, str], mark: str = "NULL, NULL"
) -> str:
    """The statement returning a part of a row of sums of the ruling's hour (`_columns`; `mark`:
    last_at, last_mark): `dealer.add_sums` sums the parts of one key."""
    values = _columns(columns)
    return (
        f"RETURN NEXT ROW(s_hour, {grp}, {member}, {source}, {values}, {mark})::dealer.floor_sums;"
    )


def _every(source: str, columns: dict[int, str]) -> str:
    """The statements returning a part for every member of the seat: its table, its dealer and
    its patron if it has one (`floor_sums._seat`'s `members`)."""
    return f"""{_emit(_literal(TABLE), "r.table_id", source, columns)}
            {_emit(_literal(DEALER), "s_dealer_id", source, columns)}
            IF s_patron IS NOT NULL THEN
                {_emit(_literal(PATRON), "s_patron", source, columns)}
            END IF;"""


def _state(grp: str, member: str) -> str:
    """Where the member's state is, as `floor_sums.stored_state` reads it: its own row of the
    hour, else of the hour before, holding a time (`FROM …`: the caller selects)."""
    return (
        f"FROM dealer.floor_sums f WHERE f.grp = {_literal(grp)} AND f.member = {member} "
        f"AND f.source = {_literal(OWN)} AND f.hour IN (s_hour, s_earlier) "
        "AND f.last_at IS NOT NULL ORDER BY f.hour DESC LIMIT 1"
    )


def _setting(key: str, default: str) -> str:
    """`str(settings.get(key, default))` of the ruling's settings."""
    return f"coalesce({_text(f's_settings -> {_literal(key)}')}, {_literal(default)})"


def _given(key: str) -> str:
    """A value of the player's hand is there and not null (`is not None`)."""
    return f"coalesce(jsonb_typeof(s_player -> {_literal(key)}) <> 'null', false)"


def _dealt(grp: str, member: str, since: str, rounds: str, mark: str) -> str:
    """The statements returning a member's part of the deal (`floor_sums.deal_numbers`): its
    rulings (`money_numbers`: one, when the ruling settled a seat), its round (`rounds`), the
    gap since its last round (`since`) when it is time dealing, and its mark."""
    gap = f"coalesce(s_seconds BETWEEN 0 AND {BREAK_SECONDS}, false)"
    columns = {
        RULINGS: "(s_seated > 0)::int",
        ROUNDS: rounds,
        GAPS: f"{gap}::int",
        SECONDS: f"CASE WHEN {gap} THEN s_seconds ELSE 0 END",
    }
    return f"""s_seconds := extract(epoch FROM (r.recorded_at::timestamp - ({since})::timestamp));
            {_emit(_literal(grp), member, _literal(OWN), columns, mark)}"""


_DEFAULTS = BaseRules()
_BEST, _HOUSE_WAY = (_literal(json.dumps(player)) for player in ("best", "house-way"))
_UNITS, _ROW = "(s_bonus -> 'units')", "(s_bonus -> 'row_number')"
_COST = "(s_best - s_net)"

BODY = f"""
    DECLARE
        s_result jsonb;
        s_settings jsonb;
        s_seats jsonb;
        s_hour text;
        s_earlier text;
        s_mark text;
        s_table dealer.floor_sums;
        s_dealer dealer.floor_sums;
        s_dealer_id text;
        s_new boolean;
        s_part text;
        s_way text;
        s_posted jsonb;
        s_digests jsonb;
        s_before jsonb;
        s_minimum numeric;
        s_envy text;
        s_envy_key text;
        s_offer jsonb;
        s_offered boolean;
        s_seated integer;
        s_seat jsonb;
        s_base jsonb;
        s_player jsonb;
        s_bonus jsonb;
        s_wager text;
        s_patron text;
        s_patrons text[] := '{{}}';
        s_own boolean;
        s_stake bigint;
        s_net bigint;
        s_wagered bigint;
        s_seat_net numeric;
        s_treasure numeric;
        s_amount numeric;
        s_won numeric;
        s_paytable text;
        s_paytable_key text;
        s_digest_key text;
        s_meter bigint;
        s_best bigint;
        s_house_way bigint;
        s_since text;
        s_seconds numeric;
    BEGIN
        IF NOT coalesce(r.kind = {_literal(RecordKind.RULING)} AND r.game = 'paigow'
                        AND r.action IN ({_among(MONEY_ACTIONS)}), false) THEN
            RETURN;
        END IF;
        s_result := r.result::jsonb;
        s_result := {_mapping("s_result")};
        s_settings := r.settings::jsonb;
        s_settings := {_mapping("s_settings")};
        s_seats := CASE WHEN r.action = {_literal(RulingAction.SETTLE)}
                        THEN jsonb_build_array(s_result) ELSE {_list("(s_result -> 'seats')")} END;
        s_hour := left(r.recorded_at, 13);
        s_earlier := to_char((s_hour || ':00:00')::timestamp - interval '1 hour',
                             'YYYY-MM-DD"T"HH24');
        s_mark := coalesce((SELECT string_agg(c.card #>> '{{}}', ' ' ORDER BY c.n)
                            FROM jsonb_array_elements({_list("r.cards::jsonb")})
                                 WITH ORDINALITY c(card, n)
                            WHERE c.n <= 7 AND jsonb_typeof(c.card) = 'string'), '');
        SELECT * INTO s_table {_state(TABLE, "r.table_id")};
        s_dealer_id := CASE WHEN jsonb_typeof(s_settings -> {_literal(SIGNED_IN)}) = 'number'
                                 AND (s_settings ->> {_literal(SIGNED_IN)}) ~ '^-?[0-9]+$'
                            THEN r.user_id ELSE {_literal(UNSIGNED)} END;
        SELECT * INTO s_dealer {_state(DEALER, "s_dealer_id")};
        s_new := r.action IS DISTINCT FROM {_literal(RulingAction.SETTLE)}
                 OR s_table.last_at IS NULL OR s_table.last_mark IS DISTINCT FROM s_mark;
        {_json("s_part", _setting("house_way_source", ""))}
        s_way := s_part;
        {_json("s_part", _setting("house_way_sha256", ""))}
        s_way := s_way || ',' || s_part;
        {_json("s_part", _setting("wheel", _DEFAULTS.wheel))}
        s_way := s_way || ',' || s_part;
        {_json("s_part", _setting("dealer_pai_gow", _DEFAULTS.dealer_pai_gow))}
        s_way := s_way || ',' || s_part;
        s_posted := {_mapping("(s_settings -> 'paytables')")};
        s_digests := {_mapping("(s_settings -> 'paytables_sha256')")};
        s_before := {_mapping("(s_result -> 'meters')")};
        s_before := {_mapping("(s_before -> 'before')")};
        s_minimum := {_money("(s_settings -> 'envy_minimum')")};
        s_envy := coalesce({_text(f"(s_posted -> {_literal(Wager.ENVY)})")}, '');
        {_json("s_envy_key", "s_envy")}
        {_json("s_part", f"coalesce({_text('(s_digests -> s_envy)')}, '')")}
        s_envy_key := {_key(ENVY, "s_envy_key", "s_part")};
        s_offer := {_mapping("(s_settings -> 'offered')")};
        s_offer := s_offer -> {_literal(Wager.ENVY)};
        s_offered := {_truthy("s_offer")} AND s_envy <> '';
        s_seated := (SELECT count(*) FROM jsonb_array_elements(s_seats) x(s)
                     WHERE jsonb_typeof(x.s) = 'object');
        FOR s_seat IN SELECT x.s FROM jsonb_array_elements(s_seats) x(s)
                      WHERE jsonb_typeof(x.s) = 'object' LOOP
            s_patron := CASE WHEN jsonb_typeof(s_seat -> 'patron') = 'string'
                             AND s_seat ->> 'patron' <> '' THEN s_seat ->> 'patron' END;
            IF s_patron IS NOT NULL AND NOT s_patron = ANY (s_patrons) THEN
                s_patrons := s_patrons || s_patron;
            END IF;
            s_base := {_mapping("(s_seat -> 'base')")};
            s_player := {_mapping("(s_base -> 'player')")};
            s_own := coalesce(s_player -> 'set_by' = '"player"'::jsonb, false);
            s_stake := {_cents("(s_base -> 'wager')")};
            s_net := {_cents("(s_base -> 'net')")};
            s_wagered := s_stake;
            s_seat_net := {_money("(s_base -> 'net')")};
            s_treasure := 0;
            {
    _every(
        _key(BASE, "s_way", f"CASE WHEN s_own THEN {_BEST} ELSE {_HOUSE_WAY} END"),
        {COUNT: "1", AMOUNT: "s_stake", SQUARES: "power(s_stake::float8, 2)"},
    )
}
            FOR s_bonus IN SELECT b.b FROM jsonb_array_elements({
    _list("(s_seat -> 'bonuses')")
}) b(b)
                           WHERE jsonb_typeof(b.b) = 'object'
                             AND jsonb_typeof(b.b -> 'wager') = 'string'
                             AND b.b ->> 'wager' IN ({_among(WAGER_TYPES)}) LOOP
                s_wager := s_bonus ->> 'wager';
                s_amount := {_money("(s_bonus -> 'amount')")};
                s_won := {_money("(s_bonus -> 'net')")};
                s_wagered := s_wagered + trunc(s_amount * 100);
                s_seat_net := s_seat_net + s_won;
                CONTINUE WHEN s_wager NOT IN ({_among(PLACED)});
                IF s_wager = {_literal(Wager.TREASURE)} THEN
                    s_treasure := s_treasure + s_amount;
                END IF;
                s_paytable := CASE WHEN {_truthy("(s_bonus -> 'paytable')")}
                                   THEN {_text("(s_bonus -> 'paytable')")}
                                   ELSE coalesce({_text("(s_posted -> s_wager)")}, '') END;
                {_json("s_paytable_key", "s_paytable")}
                {_json("s_digest_key", f"coalesce({_text('(s_digests -> s_paytable)')}, '')")}
                s_meter := CASE WHEN s_wager IN ({_among(PROGRESSIVES)})
                                THEN {_cents("(s_before -> s_wager)")} ELSE 0 END;
                {
    _every(
        _key(
            BONUS,
            "s_paytable_key",
            "s_digest_key",
            _quoted(f"CASE WHEN {_whole(_UNITS)} THEN {_text(_UNITS)} ELSE '1' END"),
            _quoted("trunc(s_amount * 100)::bigint::text"),
        ),
        {COUNT: "1", METERS: "s_meter", SQUARES: "power(s_meter::float8, 2)"},
    )
}
                IF {_whole(_ROW)} AND s_won > 0 THEN
                    {
    _emit(
        _literal(TABLE),
        "r.table_id",
        _key(HIT, "s_paytable_key", "s_digest_key", _quoted(_text(_ROW))),
        {COUNT: "1"},
    )
}
                END IF;
            END LOOP;
            {
    _every(
        _literal(OWN),
        {SEATS: "1", WAGERED: "s_wagered", HOUSE: "-trunc(s_seat_net * 100)"},
    )
}
            IF s_offered AND s_treasure > 0 AND s_minimum <= s_treasure AND s_seated > 1 THEN
                {_every("s_envy_key", {COUNT: "s_seated - 1"})}
            END IF;
            IF s_patron IS NOT NULL AND {_given("best_net")}
               AND ({_given("house_way_net")} OR NOT s_own) THEN
                s_best := {_cents("(s_player -> 'best_net')")};
                s_house_way := CASE WHEN {_given("house_way_net")}
                                    THEN {_cents("(s_player -> 'house_way_net')")} ELSE s_net END;
                {
    _emit(
        _literal(PATRON),
        "s_patron",
        _key(PLAY, "s_way"),
        {
            HANDS: "1",
            OWN_HANDS: "s_own::int",
            BEST_HANDS: "(s_net = s_best)::int",
            PLAY_WAGERED: "s_stake",
            COST: _COST,
            AGAINST_HOUSE_WAY: "s_net - s_house_way",
            COSTS_SQUARED: f"power({_COST}::float8, 2)",
            COST_WAGER: f"{_COST}::float8 * s_stake::float8",
            WAGERS_SQUARED: "power(s_stake::float8, 2)",
        },
    )
}
            END IF;
        END LOOP;
        {
    _dealt(
        TABLE,
        "r.table_id",
        "CASE WHEN s_new THEN s_table.last_at END",
        "s_new::int",
        "CASE WHEN s_new THEN r.recorded_at ELSE s_table.last_at END, s_mark",
    )
}
        {
    _dealt(
        DEALER,
        "s_dealer_id",
        "CASE WHEN s_new THEN s_dealer.last_at END",
        "s_new::int",
        "CASE WHEN s_new THEN r.recorded_at ELSE s_dealer.last_at END, NULL",
    )
}
        FOREACH s_patron IN ARRAY s_patrons LOOP
            s_since := (SELECT f.last_at {_state(PATRON, "s_patron")});
            {_dealt(PATRON, "s_patron", "s_since", "0", "r.recorded_at, NULL")}
        END LOOP;
        RETURN;
    END """
"""The body of `dealer.record_sums(r)` (`postgres_schema.record_sums`)."""

FLOOR_SUMS = FloorSums(floor_sums.problems, BODY)
"""The floor's sums as the desk hands them to the audit layer: verify's check of them, and the
server's function that computes them."""
