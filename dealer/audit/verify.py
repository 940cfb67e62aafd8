"""Verifying the log: the whole hash chain recomputed, checked against checkpoints kept outside,
the history replayed (who could make each record then, and its signature), the users table
checked against the records behind it, and the backend's own checks.

The log is streamed twice in id order, a row at a time; the history pass keeps its replay (the
users, each record's hash, the signatures spent), never the records. The checks, in the order
their problems are reported (the history's in the log's order; of the checks from the maker's
standing to copies, a record reports the first it fails):

check                 what it catches                                 step
--------------------  ----------------------------------------------  -----------------------------
chain                 a record missing, one not linking to the        ChainCheck.feed
                      record before, one changed after it was
                      written (its hash), one dated before the
                      record before it, one dated more than
                      `FUTURE_TOLERANCE` after the verifier's clock
outside checkpoints   a log ending before a checkpoint's record, a    ChainCheck.checkpoint_problem
                      record no longer matching its checkpoint
                      (changed and chained again), a bare checkpoint
                      hash no record has
canonical JSON        a record whose cards, result, explanation or    _json_problems
                      settings are not canonical JSON (`canonical`):
                      not JSON, a key given twice, another spelling
                      than the hash recipe's; each column named
log checkpoints       a checkpoint record whose counted record no     _rewritten_problem
                      longer has the hash it recorded: the history
                      before it rewritten and chained again
maker's standing      a record whose maker was disabled then, or      _standing_problem
                      registered in another role, an id never
                      registered claiming more than a dealer's role,
                      an auditor making anything but a checkpoint
supervisor actions    a supervisor action (`SUPERVISOR_ACTIONS`, a    _supervisor_problem
                      meter adjustment) whose maker was not a
                      registered supervisor then
checkpoint takers     a checkpoint by a maker with a key, not a       _checkpoint_taker_problem
                      supervisor or auditor then, from the first
                      record of a release that signs them
                      (`SIGNED_CHECKPOINTS_SINCE`)
lock records          a lock record (release 0.2.0's) disabling       _lock_problem
                      someone else, changing their role or key, not
                      earned by `LOCKOUT_AFTER` wrong PINs in a row,
                      or written after the log's first user record
                      signed in format 2 (it counts for nothing)
meters                a meter record not moving its meter from the    _meter_problem
                      value the records before left, a linked one
                      not at the link's terms, a ruling's move its
                      ruling does not explain from the seed its
                      documents give (`meters.MeterBook`)
recoveries            a `user`/`recover` record not signed by the     _recovery_problem
                      operator's recovery key then
signatures            a record to be signed (a supervisor action, a   _signature_problem
                      signed checkpoint, the bootstrap, a sign-in,
                      any record carrying a signature) not validly
                      signed by its maker's key then, for its
                      content and its place; a signature in
                      another encoding than the one written; one of
                      format 1 (not bound to its place) after the
                      log's first format-2 signature (`keys`)
rule-change approver  a ruling naming as approver of its rule         _approver_problem
                      changes someone not an active supervisor then,
                      or (from the log's first format-2 signature)
                      one who did not countersign it with their key
second reviewer       a dispute's resolution or correction naming     _reviewer_problem
                      as second reviewer its maker or someone not
                      an active supervisor then, or (from the log's
                      first format-2 signature) one who did not
                      countersign it with their key
table assignment      a ruling at a table assigned a profile          _assignment_problem
                      (`assignments`) whose settings differ from
                      the assignment's, with no supervisor named as
                      approving the change or where it forbids rule
                      changes
ruling documents      a ruling whose settings are not what the        _documents_problem
                      documents it names give (the desk's check,
                      `rulings`: the profile by its SHA-256 as the
                      package or an approval holds it, its approved
                      changes, House Way and pay tables by SHA-256)
sign-ins              a sign-in by someone with no key on the chain   _sign_in_problem
                      (it must carry its maker's signature); a
                      ruling at a table assigned then naming no
                      sign-in, or naming one (`sign_ins.SIGNED_IN`)
                      that did not stand for its maker at its table
                      then (`sign_ins.SignInBook`)
copies                a signature an earlier record already used      _copy_problem
                      (compared as decoded bytes)
protection            the backend's protection removed or replaced:   Storage.protection_problems
                      a trigger missing, or unlike the one shipped
                      (its definition, not its name); on
                      PostgreSQL, a write right of the terminals'
                      role, a function unlike the one shipped (body,
                      settings, security, owner; the server's
                      floor sums, `sums.server`, too), a grant
                      beyond the shipped ones (PUBLIC's too), a
                      rule or row security on a table
users table           a users row whose `user` record is missing or   _user_problems
                      says otherwise
integrity             SQLite's `quick_check`; a seat index that       Storage.integrity_problems
                      differs from the seats of the records
floor sums            an hour whose sums differ from what its         `sums.problems` (the
                      rulings add, or sums of an hour without any     desk's `floor_sums`)
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from dealer.audit import assignments, canonical, keys, users
from dealer.audit.approvals import ApprovalBook
from dealer.audit.assignments import Assignment
from dealer.audit.chain import ChainCheck, Checkpoint, VerifyResult
from dealer.audit.entries import CHECKPOINT_ROLES
from dealer.audit.meters import MeterAction, MeterBook
from dealer.audit.records import Record, RecordFilter, RecordKind, Role, UserRow
from dealer.audit.sign_ins import SIGNED_IN, SignInBook
from dealer.audit.users import (
    LOCKOUT_AFTER,
    UserAction,
    actor_problem,
    roles_said,
    user_record_result,
)
from dealer.kernel.tuples import NamedTuple

if TYPE_CHECKING:
    from dealer.audit.storage import Storage


class FloorSums(NamedTuple):
    """The floor's sums as the desk defines them, handed to this layer, which knows no game
    (`dealer.desk.floor_sums_sql.FLOOR_SUMS`): `problems`, what a log's sums hold that its
    records do not give (verify's check, the records recomputed); `server`, the body of the
    function by which a PostgreSQL log computes each record's rows itself
    (`postgres_schema.record_sums`), which `dealer db init` makes and verify compares."""

    problems: Callable[[Storage], list[str]]
    server: str


class Documented(NamedTuple):
    """What the desk's check says of a ruling (`RulingsCheck`): why its settings are not what
    the documents it names give (None: they are), and the settings those documents give, which
    the meter book reads (a meter's seed, a link's terms): none when they are not known."""

    problem: str | None
    settings: Mapping[str, Any]


RulingsCheck = Callable[[Mapping[str, Any], Mapping[str, Any], ApprovalBook], Documented]
"""The desk's check of a ruling (its stored row and parsed settings) against the documents it
names, with the approvals the log held before it (this layer reads no profile)."""


def verify(
    storage: Storage,
    checkpoints: Sequence[Checkpoint] = (),
    sums: FloorSums | None = None,
    rulings: RulingsCheck | None = None,
) -> VerifyResult:
    """Recompute the whole chain; check the backend's append-only protection, the users table
    against its records, the backend's integrity check, the floor's sums against the records
    and the server's function that computes them (`sums`, the desk's; None: neither checked),
    each ruling against the documents it names (`rulings`, the desk's; None: not checked, and
    the meter book reads each ruling's own settings), and the log against `checkpoints`."""
    check = ChainCheck(list(checkpoints))
    problems: list[str] = []
    with storage.snapshot():
        check.feed(storage.rows())
        first_bad = check.first_bad
        if check.problem:
            problems.append(check.problem)
        against = check.checkpoint_problem()
        if against:
            first_bad = first_bad if first_bad is not None else against[0]
            problems.append(against[1])
        history = list(
            _history_problems(storage.rows(), lambda n: _stored_hash(storage, n), rulings)
        )
        if history:
            first_bad = first_bad if first_bad is not None else history[0][0]
            problems.extend(problem for _, problem in history)
        problems.extend(storage.protection_problems(None if sums is None else sums.server))
        problems.extend(_user_problems(storage))
        problems.extend(storage.integrity_problems())
        if sums is not None and not problems:
            problems.extend(sums.problems(storage))
    return VerifyResult(
        ok=not problems,
        records=check.rows,
        first_bad=first_bad,
        problem=problems[0] if problems else None,
        problems=tuple(problems),
    )


SUPERVISOR_ACTIONS = frozenset(
    {
        RecordKind.OVERRIDE,
        RecordKind.VOID,
        RecordKind.DISPUTE_RESOLUTION,
        RecordKind.DISPUTE_CORRECTION,
        RecordKind.PROFILE_CHANGE,
        RecordKind.PAYTABLE_CHANGE,
        RecordKind.HOUSE_WAY_CHANGE,
        RecordKind.COMBINATIONS_CHANGE,
        RecordKind.USER,
        RecordKind.SIGNOFF,
        RecordKind.CERTIFICATE,
        RecordKind.ASSIGNMENT,
    }
)
"""Kinds of record only an active supervisor makes (and a meter record other than a ruling's
`move`: an adjustment); each is signed by its maker's key (`dealer.audit.keys`)."""


APPROVER = "rule_changes_approved_by"
"""The setting of a ruling naming who approved its rule changes (and countersigned it)."""
REVIEWER = "second_reviewer"
"""The result field of a dispute's resolution or correction naming its second reviewer (who
countersigned it)."""


SIGNED_CHECKPOINTS_SINCE = (0, 2, 0)
"""The release from which a checkpoint is taken by a supervisor or an auditor, signed with
their key (`entries.checkpoint`); verify holds checkpoints to that from the first record such a
release wrote, so that a log kept by an earlier release still verifies."""


def release(version: object) -> tuple[int, ...]:
    """A record's `software_version` as numbers to compare (`0.2.0` is (0, 2, 0)); text that is
    not dotted numbers counts as the newest release, held to every rule."""
    parts = str(version).split(".")
    if all(part.isascii() and part.isdigit() and len(part) <= 9 for part in parts):
        return tuple(int(part) for part in parts)
    return (10**9,)


def _supervising(row: Mapping[str, Any]) -> bool:
    """Whether the record `row` is a supervisor action (a lock is made without a secret)."""
    kind, action = row["kind"], row["action"]
    if kind == RecordKind.USER and action == UserAction.LOCK:
        return False
    return kind in SUPERVISOR_ACTIONS or (kind == RecordKind.METER and action != MeterAction.MOVE)


class _Read(NamedTuple):
    """One stored record as the history steps read it: its JSON columns parsed once, and what
    it is taken for at its point of the log (`_Replay.read`)."""

    id: int
    maker: str
    kind: str
    action: str
    role: str
    result: dict[str, Any]
    settings: Any
    signature: Mapping[str, Any] | None
    countersignature: Mapping[str, Any] | None
    supervising: bool
    """A supervisor action (`_supervising`)."""
    signed_checkpoint: bool
    """A checkpoint from the first record a signing release wrote on."""
    bootstrap: bool
    """The first user record of the log, registering its own maker, or a recovery (a
    supervisor registering themself with the operator's recovery key, `_recovery_problem`)."""
    answerable: bool
    """Whether its maker's standing is asked: not for an access-denied record (a refusal is
    recorded whoever tried) nor for the bootstrap (its maker registers themselves)."""
    signed: bool
    """Whether it is to carry its maker's signature: a supervisor action, a signed checkpoint,
    the bootstrap, and any record that carries a signature."""
    row: Mapping[str, Any]


SETTINGS_REMEMBERED = 64
"""The most settings texts verify remembers as checked (memory stays flat at any size of log)."""

StoredHash = Callable[[int], "str | None"]
"""The hash the log stores for a record, by id (None: no such record)."""


def _stored_hash(storage: Storage, record_id: int) -> str | None:
    found = next(storage.rows(RecordFilter(ids=(record_id,))), None)
    return None if found is None else str(found["hash"])


class _Replay:
    """What the records read so far say, as the history steps need it: each user's standing
    (from the `user` records), public key and wrong PINs in a row, the signatures spent, the
    hashes of the records read (for the checkpoints recorded in the log: `hash_of`), the
    meters (`meters.MeterBook`), the documents approved and the tables assigned by the sound
    records (`approvals.ApprovalBook`, `assigned`), what the desk's check says of the ruling
    being read (`documented`), whether a release that signs checkpoints has written yet, and
    the first record carrying a format-2 signature (from which every signature is bound to its
    place), and what the settings texts read last say of their JSON (`_json_problems`)."""

    def __init__(self, stored_hash: StoredHash, rulings: RulingsCheck | None = None) -> None:
        self.rulings = rulings
        self.approvals = ApprovalBook()
        self.assigned: dict[str, Assignment] = {}
        self._documented: tuple[int, Documented] | None = None
        self.standing: dict[str, UserRow] = {}
        self.public: dict[str, str] = {}
        self.wrong: dict[str, int] = {}
        self.recovery: str | None = None
        self.spent: set[bytes] = set()
        self.bound_since: int | None = None
        self.users_bound: int | None = None
        """The first sound user record signed in format 2: a lock after it counts for nothing
        (`authority.chain_users` reads the log's users so)."""
        self.signing_checkpoints = False
        self.meters = MeterBook()
        self.sign_ins = SignInBook()
        self.settings_read: dict[str, str | None] = {}
        self._stored_hash = stored_hash
        self._current: tuple[int, str] = (0, "")
        self._previous: tuple[int, str] = (0, "")

    def hash_of(self, record_id: int) -> str | None:
        """The hash of record `record_id` if it was read (None for one after the record being
        read): the last two records' kept, an older one's read from the log (a checkpoint
        counts the record before it: memory stays flat at any size of log)."""
        for number, found in (self._current, self._previous):
            if number == record_id:
                return found
        if 0 < record_id < self._current[0]:
            return self._stored_hash(record_id)
        return None

    def read(self, row: Mapping[str, Any]) -> _Read:
        """`row` as the steps read it, its hash and its release noted first."""
        record_id, maker, kind = int(row["id"]), str(row["user_id"]), str(row["kind"])
        self._previous, self._current = self._current, (record_id, str(row["hash"]))
        self.signing_checkpoints = self.signing_checkpoints or (
            release(row["software_version"]) >= SIGNED_CHECKPOINTS_SINCE
        )
        result = _json(row["result"])
        result = result if isinstance(result, dict) else {}
        settings = _json(row["settings"])
        signature = keys.signature_in(settings)
        countersignature = keys.signature_in(settings, keys.COUNTERSIGNATURE)
        if self.bound_since is None and any(
            found is not None and keys.signature_format(found) == keys.FORMAT
            for found in (signature, countersignature)
        ):
            self.bound_since = record_id
        supervising = _supervising(row)
        signed_checkpoint = kind == RecordKind.CHECKPOINT and self.signing_checkpoints
        bootstrap = (
            kind == RecordKind.USER
            and (not self.standing or row["action"] == UserAction.RECOVER)
            and result.get("user") == maker
        )
        return _Read(
            record_id,
            maker,
            kind,
            str(row["action"]),
            str(row["role"]),
            result,
            settings,
            signature,
            countersignature,
            supervising,
            signed_checkpoint,
            bootstrap,
            kind != RecordKind.ACCESS_DENIED and not bootstrap,
            supervising
            or signed_checkpoint
            or bootstrap
            or kind == RecordKind.SIGN_IN
            or signature is not None,
            row,
        )

    def documented(self, record: _Read) -> Documented:
        """What the desk's check says of ruling `record` (`rulings`, asked once a record); of
        any other record, or without the check, its own settings stand."""
        own = record.settings if isinstance(record.settings, Mapping) else {}
        if self.rulings is None or record.kind != RecordKind.RULING:
            return Documented(None, own)
        if self._documented is None or self._documented[0] != record.id:
            self._documented = (record.id, self.rulings(record.row, own, self.approvals))
        return self._documented[1]

    def spend(self, record: _Read) -> None:
        """A sound record's signatures: spent (seen again, as decoded bytes, it is a copy), and
        its maker's proof that they knew their PIN (their wrong PINs in a row start again)."""
        for found in (record.signature, record.countersignature):
            value = keys.signature_bytes(found) if found is not None else None
            if value is not None:
                self.spent.add(value)
        if record.signature is not None:
            self.wrong[record.maker] = 0
            first = self.users_bound is None and record.kind == RecordKind.USER
            if first and keys.signature_format(record.signature) == keys.FORMAT:
                self.users_bound = record.id

    def replay(self, record: _Read) -> None:
        """What `record` changes once checked: a wrong PIN of its maker's own counts against
        them (what a lock of release 0.2.0 is earned by); a `user` record sets the standing and
        the public key (or none) of the user it names, whose wrong PINs start again — but a lock
        after `users_bound`, which changes nothing."""
        result = record.result
        self.meters.replay(record.row, result, self.documented(record).settings)
        self.sign_ins.replay(record.row)
        wrong = result.get("why") == "wrong-pin"
        own = users.refused_target(record.maker, result) == record.maker
        if record.kind == RecordKind.ACCESS_DENIED and wrong and own:
            self.wrong[record.maker] = self.wrong.get(record.maker, 0) + 1
        self.recovery = _recovery_key(record, self.recovery)
        late_lock = record.action == UserAction.LOCK and self.users_bound is not None
        if record.kind == RecordKind.USER and isinstance(result.get("user"), str) and not late_lock:
            who = result["user"]
            self.standing[who] = UserRow(
                record.id, who, str(result.get("role")), bool(result.get("active")), None
            )
            self.wrong[who] = 0
            if isinstance(result.get("key"), str):
                self.public[who] = result["key"]
            else:
                self.public.pop(who, None)

    def sound(self, record: _Read) -> None:
        """What `record`, found sound, changes besides: an approval approves its document from
        now on, an assignment assigns its table (and sets the terms of the links it names)."""
        row = record.row
        self.approvals.add(record.kind, str(row["table_id"]), record.result, str(row["input_text"]))
        if record.kind == RecordKind.ASSIGNMENT:
            made = Assignment.of(Record.from_row(row))
            if made is not None:
                self.assigned[made.table_id] = made
                self.meters.assigned(made.record_id, made.settings)


def _history_problems(
    rows: Iterable[Mapping[str, Any]],
    stored_hash: StoredHash,
    rulings: RulingsCheck | None = None,
) -> Iterator[tuple[int, str]]:
    """The history's problems as (record id, problem), in the log's order: the users replayed
    from the `user` records, each record read once (`rows` streams; what is kept is `_Replay`,
    an older record's hash read again by `stored_hash`), its JSON checked
    (`_json_problems`), checked against the checkpoints recorded before it
    (`_rewritten_problem`), then by
    `_RECORD_CHECKS` and `_copy_problem` (the first problem found is reported), then replayed.
    The table in the module's docstring says what each step catches."""
    seen = _Replay(stored_hash, rulings)
    for row in rows:
        record = seen.read(row)
        for not_canonical in _json_problems(record, seen):
            yield record.id, not_canonical
        rewritten = _rewritten_problem(record, seen)
        if rewritten is not None:
            yield record.id, rewritten
        problem = None
        for check in _RECORD_CHECKS:
            problem = check(record, seen)
            if problem is not None:
                break
        if problem is None and (record.signature or record.countersignature) is not None:
            problem = _copy_problem(record, seen)
            seen.spend(record)
        if problem is not None:
            yield record.id, f"record {record.id} ({record.kind}): at that point {problem}"
        if problem is None:
            seen.sound(record)
        seen.replay(record)


def _json_problems(record: _Read, seen: _Replay) -> Iterator[str]:
    """Each JSON column of the record that is not canonical, with why (`canonical.problem`):
    written around the tool. A settings text is checked once however many records share it
    (the few a table's rulings use, `SETTINGS_REMEMBERED` at most)."""
    for column in canonical.JSON_COLUMNS:
        text = record.row[column]
        if column != "settings" or not isinstance(text, str):
            why = canonical.problem(text)
        elif text in seen.settings_read:
            why = seen.settings_read[text]
        else:
            if len(seen.settings_read) >= SETTINGS_REMEMBERED:
                seen.settings_read.clear()
            why = seen.settings_read[text] = canonical.problem(text)
        if why is not None:
            yield (
                f"record {record.id} ({record.kind}): the {column} column is not canonical "
                f"JSON: {why}"
            )


def _rewritten_problem(record: _Read, seen: _Replay) -> str | None:
    """Why a checkpoint recorded in the log no longer holds: the record it counted has another
    hash now. The chain of a history rewritten and re-chained links again; the checkpoints on
    the log, taken before, do not. A checkpoint of an empty log vouches for nothing."""
    counted = record.result.get("records")
    if record.kind != RecordKind.CHECKPOINT or not isinstance(counted, int) or not counted:
        return None
    if seen.hash_of(counted) == record.result.get("head_hash"):
        return None
    return (
        f"the chain no longer matches checkpoint #{record.id} at record {counted}: "
        "the history before it was rewritten"
    )


def _standing_problem(record: _Read, seen: _Replay) -> str | None:
    """Why the maker could not put the record on the log in the role it names then
    (`users.actor_problem`): disabled, registered in another role, an id never registered
    claiming more than a dealer's role, an auditor making anything but a checkpoint — a record
    written in under someone's name or a role they did not hold."""
    if not record.answerable:
        return None
    return actor_problem(seen.standing.get(record.maker), record.maker, record.role, record.kind)


def _supervisor_problem(record: _Read, seen: _Replay) -> str | None:
    """Why a supervisor action's maker could not make it: not a registered supervisor then. A
    void or an override recorded in a dealer's own role, or by an id never registered, passes
    the standing check; only a supervisor may make one."""
    if not record.answerable or not record.supervising:
        return None
    now = seen.standing.get(record.maker)
    if now is None or now.role != Role.SUPERVISOR:
        return f"{record.maker} was not a registered supervisor"
    return None


def _checkpoint_taker_problem(record: _Read, seen: _Replay) -> str | None:
    """Why a signed checkpoint's maker could not take it: they hold a key but were not a
    supervisor or an auditor then. From the first record a release from
    `SIGNED_CHECKPOINTS_SINCE` on wrote, checkpoints are theirs (before, anyone took one); a
    maker with no key could not sign, so the rule is not asked of them."""
    if not (record.answerable and record.signed_checkpoint and record.maker in seen.public):
        return None
    now = seen.standing.get(record.maker)
    if now is None or now.role not in CHECKPOINT_ROLES:
        return f"{record.maker} was not a registered {roles_said(CHECKPOINT_ROLES)}"
    return None


def _approver_problem(record: _Read, seen: _Replay) -> str | None:
    """Why the supervisor a ruling names as approving its rule changes could not approve them
    at that point (not a registered, active supervisor, or no countersignature of theirs:
    `_countersigned_problem`), or None. The approver signs the ruling they approve when it is
    made; this catches a name written in afterwards or a disabled one."""
    settings = record.settings
    approver = settings.get(APPROVER) if isinstance(settings, dict) else None
    if approver is None:
        return None
    now = seen.standing.get(str(approver))
    if now is None or now.role != Role.SUPERVISOR or not now.active:
        return f"{approver}, named as approving its rule changes, was not an active supervisor"
    return _countersigned_problem(record, seen, str(approver), APPROVER)


def _reviewer_problem(record: _Read, seen: _Replay) -> str | None:
    """Why the second reviewer a dispute's resolution or correction names could not confirm it
    at that point: none named but its maker, not another registered, active supervisor, or no
    countersignature of theirs (`_countersigned_problem`); or None."""
    if record.kind not in (RecordKind.DISPUTE_RESOLUTION, RecordKind.DISPUTE_CORRECTION):
        return None
    reviewer = record.result.get(REVIEWER)
    if not isinstance(reviewer, str) or reviewer == record.maker:
        return "it names no second reviewer other than its maker"
    now = seen.standing.get(reviewer)
    if now is None or now.role != Role.SUPERVISOR or not now.active:
        return f"{reviewer}, named as its second reviewer, was not an active supervisor"
    return _countersigned_problem(record, seen, reviewer, REVIEWER)


def _countersigned_problem(record: _Read, seen: _Replay, who: str, signer: str) -> str | None:
    """Why `who`, named by the record's field `signer` as approving it, did not countersign it
    with their key then, for its content and place. A name alone passes only before the log's
    first format-2 signature (a log 0.2.0 wrote before approvers signed); a person with no key
    on the chain (a PIN from before signing keys) could not sign."""
    key = seen.public.get(who)
    if not isinstance(key, str) or (record.countersignature is None and seen.bound_since is None):
        return None
    why = keys.signature_problem(record.row, key, slot=keys.COUNTERSIGNATURE, signer=signer)
    return f"{why} of {who}" if why else None


def _lock_problem(record: _Read, seen: _Replay) -> str | None:
    """Why a `user`/`lock` record is not a lockout its maker earned: it came after the log's
    first user record signed in format 2 (from there on a lock counts for nothing), it disables
    someone else, or does not disable, or came before `LOCKOUT_AFTER` wrong PINs of its maker's
    own in a row. A lock is made without a secret (and so unsigned): only the log's own
    access-denied records justify it."""
    if record.kind != RecordKind.USER or record.action != UserAction.LOCK:
        return None
    result, maker = record.result, record.maker
    if seen.users_bound is not None:
        return (
            f"a lock record after record {seen.users_bound}, the log's first signature bound to "
            "its place, counts for nothing: this release never writes one"
        )
    if result.get("user") != maker or result.get("active") is not False:
        return "a lock record may only disable its own maker"
    was = seen.standing.get(maker)
    if was is None or result.get("role") != was.role or result.get("key") != seen.public.get(maker):
        return "a lock record may change nothing of its maker but disable them"
    wrong = seen.wrong.get(maker, 0)
    if wrong < LOCKOUT_AFTER:
        return f"{maker} was locked after {wrong} wrong PINs, not {LOCKOUT_AFTER}"
    return None


def _meter_problem(record: _Read, seen: _Replay) -> str | None:
    """Why a meter record is a move nothing explains (`meters.MeterBook.problem`): not from
    the value the meter's records before left, or a ruling's move its ruling does not explain
    (a value written in by hand, unsigned)."""
    return seen.meters.problem(record.row, record.result)


def _sign_in_problem(record: _Read, seen: _Replay) -> str | None:
    """Why a sign-in could not be its maker's own (they have no key on the chain to sign it
    with: no PIN, or an id never registered), why a ruling at a table assigned then names no
    sign-in, or why a ruling naming a sign-in was not made under it
    (`sign_ins.SignInBook.problem`); None otherwise. The sign-in's signature itself is the
    signature step's."""
    if record.kind == RecordKind.SIGN_IN and record.maker not in seen.public:
        return f"a sign-in by {record.maker}, who has no PIN to sign in with"
    if record.kind != RecordKind.RULING:
        return None
    named = record.settings.get(SIGNED_IN) if isinstance(record.settings, dict) else None
    table, when = str(record.row["table_id"]), str(record.row["recorded_at"])
    if named is None:
        if table in seen.assigned:
            return f"table {table} was assigned, and the ruling names no sign-in of its maker's"
        return None
    return seen.sign_ins.problem(record.maker, table, named, when)


def _recovery_key(record: _Read, current: str | None) -> str | None:
    """The operator's recovery key after `record` (`users.recovery_key_named`; each record
    naming one is checked by the steps), else `current`."""
    named = users.recovery_key_named(record.kind, record.action, record.settings)
    return named if named is not None else current


def _recovery_problem(record: _Read, seen: _Replay) -> str | None:
    """Why a `user`/`recover` record is not authorised: no recovery key was on the log then, or
    its `recovery` signature is not that key's. (Its own signature, by the key it records, is
    asked like a bootstrap's.)"""
    if record.kind != RecordKind.USER or record.action != UserAction.RECOVER:
        return None
    if seen.recovery is None:
        return "a recovery with no recovery key on the log"
    why = users.recovery_signature_problem(record.row, seen.recovery)
    return f"a recovery not made with the operator's recovery key then ({why})" if why else None


def _signature_problem(record: _Read, seen: _Replay) -> str | None:
    """Why a record to be signed (`_Read.signed`) is not signed by its maker's key then (the
    bootstrap's: the key it records): no signature, a malformed one, another key's, content
    or place changed since — a record forged into the database, edited or copied, even with the
    chain computed again. A maker with no key on the chain (a PIN from before signing keys)
    could not sign: such records are not asked to be. Any signature a record carries is in the
    one encoding written, and of format 2 after the log's first (`_Replay.bound_since`)."""
    for noun, found in (
        ("signature", record.signature),
        ("countersignature", record.countersignature),
    ):
        if found is None:
            continue
        malformed = keys.encoding_problem(found)
        if malformed is not None:
            return malformed.replace("signature", noun)
        if keys.signature_format(found) == 1 and seen.bound_since is not None:
            return (
                f"its {noun} is of format 1, not bound to its place, after record "
                f"{seen.bound_since} bound the log's signatures to theirs"
            )
    key = record.result.get("key") if record.bootstrap else seen.public.get(record.maker)
    if not record.signed or not isinstance(key, str):
        return None
    why = keys.signature_problem(record.row, key)
    return f"{why} of {record.maker}" if why else None


def _copy_problem(record: _Read, seen: _Replay) -> str | None:
    """Why a signed record is a copy: an earlier record spent its signature or
    countersignature, compared as decoded bytes (a supervisor's signed action put on the log
    again). Asked last, of a record whose every other check passed; its signatures are then
    spent (`_Replay.spend`)."""
    for found in (record.signature, record.countersignature):
        value = keys.signature_bytes(found) if found is not None else None
        if value is not None and value in seen.spent:
            return "its signature was already used by an earlier record: it is a copy"
    return None


def _assignment_problem(record: _Read, seen: _Replay) -> str | None:
    """Why a ruling at a table assigned a profile then (`assignments`) may not be there: its
    settings differ from the assignment's where it forbids rule changes, or with no supervisor
    named as approving the change (whose countersignature `_approver_problem` asks for)."""
    if record.kind != RecordKind.RULING:
        return None
    assignment = seen.assigned.get(str(record.row["table_id"]))
    if assignment is None or assignment.game != record.row["game"]:
        return None
    settings = record.settings if isinstance(record.settings, Mapping) else {}
    why = assignments.ruling_problem(assignment, settings)
    return None if why is None else f"{assignment.said()}: {why}"


def _documents_problem(record: _Read, seen: _Replay) -> str | None:
    """Why a ruling's settings are not what the documents it names give (the desk's check,
    `_Replay.documented`)."""
    return seen.documented(record).problem


_RECORD_CHECKS = (
    _standing_problem,
    _supervisor_problem,
    _checkpoint_taker_problem,
    _lock_problem,
    _meter_problem,
    _recovery_problem,
    _signature_problem,
    _approver_problem,
    _reviewer_problem,
    _assignment_problem,
    _documents_problem,
    _sign_in_problem,
)
"""The checks of one record, in order; its first problem is the one reported."""


def _user_problems(storage: Storage) -> Iterator[str]:
    """Each users row whose record is missing, is not a `user` record, or says otherwise."""
    history = storage.user_history()
    ids = tuple(sorted({row.record_id for row in history}))
    behind = {row["id"]: row for row in storage.rows(RecordFilter(ids=ids))} if ids else {}
    for user_row in history:
        record = behind.get(user_row.record_id)
        expected = user_record_result(
            user_row.user_id, user_row.role, user_row.active, user_row.pin_hash
        )
        if (
            record is None
            or record["kind"] != RecordKind.USER
            or _json(record["result"]) != expected
        ):
            yield (
                f"the users table row of {user_row.user_id} does not match record "
                f"{user_row.record_id}: it was changed outside the tool"
            )


def _json(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return None
