"""`verify`'s history pass, step by step: each step of the table in `dealer.audit.verify`'s
docstring is shown a small history of stored rows with exactly the problem it catches, and the
same history without it. Each test asks the step itself, at the point of the log where the
problem is, and the whole pass (`_history_problems`), so a step broken, or left out of the pass,
fails its own test."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

import dealer
from dealer.audit import keys, verify
from dealer.audit.chain import GENESIS_HASH, ChainCheck, Checkpoint, record_hash, seal
from dealer.audit.records import Entry, utc_now
from dealer.audit.storage import Storage
from dealer.audit.verify import (
    _RECORD_CHECKS,
    _approver_problem,
    _checkpoint_taker_problem,
    _copy_problem,
    _history_problems,
    _json_problems,
    _lock_problem,
    _Read,
    _Replay,
    _rewritten_problem,
    _signature_problem,
    _standing_problem,
    _supervisor_problem,
)

Step = Callable[[_Read, _Replay], str | None]
KEYS = {name: Ed25519PrivateKey.generate() for name in ("S1", "S2", "A1", "D2")}
"""The signing keys of the users who have one (D1 is a dealer without a PIN)."""


def public(name: str) -> str:
    """The public key (hex) of `name`'s key, as a `user` record carries it."""
    raw = (
        KEYS[name]
        .public_key()
        .public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    )
    return raw.hex()


class History:
    """A log's stored rows, built a record at a time (each sealed on the one before)."""

    def __init__(self, version: str = dealer.__version__) -> None:
        self.rows: list[dict[str, Any]] = []
        self.version = version

    def add(
        self,
        entry: Entry,
        signer: str | None = None,
        countersigner: tuple[str, str] | None = None,
        *,
        unbound: bool = False,
    ) -> int:
        """Append `entry`, signed by `signer`'s key if given (`unbound`: in format 1, as
        release 0.2.0 signed, not bound to its place), countersigned by the key of
        `countersigner` (a name, the field naming them) if given; its id."""
        head = Checkpoint(len(self.rows), self.rows[-1]["hash"] if self.rows else GENESIS_HASH)
        if countersigner is not None:
            name, field = countersigner
            entry = keys.countersign(entry, KEYS[name], head.head_hash, field)
        if signer is not None and unbound:
            entry = _format_one(entry, KEYS[signer])
        elif signer is not None:
            entry = keys.sign(entry, KEYS[signer], head.head_hash)
        row = seal(entry, head)
        row["software_version"] = self.version
        row["hash"] = record_hash(row)
        self.rows.append(row)
        return int(row["id"])

    def problems(self) -> list[tuple[int, str]]:
        """What the history pass finds."""
        return list(_history_problems(self.rows, self.stored_hash))

    def stored_hash(self, record_id: int) -> str | None:
        """The hash stored for record `record_id` (as verify reads an older one again)."""
        return str(self.rows[record_id - 1]["hash"]) if 0 < record_id <= len(self.rows) else None

    def step(self, check: Step) -> str | None:
        """What `check` finds in the last record, the records before it replayed sound."""
        seen = _Replay(self.stored_hash)
        for row in self.rows[:-1]:
            record = seen.read(row)
            if record.signature is not None:
                seen.spend(record)
            seen.replay(record)
        return check(seen.read(self.rows[-1]), seen)


def _format_one(entry: Entry, private: Ed25519PrivateKey) -> Entry:
    """`entry` signed by `private` as release 0.2.0 signed: format 1, not bound to a place."""
    parts = {"key": keys.public_hex(private), "nonce": "ab" * 16, "signed_at": utc_now()}
    message = keys._message(entry.stored(), parts, keys.MAKER, 1)
    signed = {**parts, "value": private.sign(message).hex()}
    return entry._replace(settings={**entry.settings, keys.SIGNATURE: signed})


def user(
    by: str, who: str, role: str, *, action: str = "add", active: bool = True, key: bool = True
) -> Entry:
    """The `user` record of `by` (a supervisor) setting `who` (with their key, if they have
    one and `key`)."""
    result: dict[str, Any] = {"user": who, "role": role, "active": active, "pin_fingerprint": None}
    if key and who in KEYS:
        result["key"] = public(who)
    return Entry(kind="user", user_id=by, role="supervisor", action=action, result=result)


def ruling(maker: str = "D1", role: str = "dealer", **settings: Any) -> Entry:
    return Entry(kind="ruling", user_id=maker, role=role, action="rank", settings=settings)


def void(maker: str = "S2", role: str = "supervisor") -> Entry:
    return Entry(kind="void", user_id=maker, role=role, links_to=1, reason="misdeal")


def checkpoint(maker: str, role: str, records: int, head_hash: str) -> Entry:
    return Entry(
        kind="checkpoint",
        user_id=maker,
        role=role,
        result={"records": records, "head_hash": head_hash},
    )


def wrong_pin(maker: str = "S2") -> Entry:
    return Entry(
        kind="access-denied",
        user_id=maker,
        role="supervisor",
        action="void",
        result={"refused": "void", "why": "wrong-pin"},
    )


def lock(maker: str = "S2", who: str = "S2") -> Entry:
    """`maker`'s lock record (made without a secret: unsigned) disabling `who`, their role and
    key as they were."""
    return user(maker, who, "supervisor", action="lock", active=False)


def staffed(version: str = dealer.__version__, *, unbound: bool = False) -> History:
    """S1 (the bootstrap, record 1) registers the dealer D1 without a key (2), the auditor A1
    (3) and the supervisor S2 (4): a clean history (`unbound`: signed as release 0.2.0
    signed)."""
    history = History(version)
    history.add(user("S1", "S1", "supervisor", action="bootstrap"), signer="S1", unbound=unbound)
    for who, role in (("D1", "dealer"), ("A1", "auditor"), ("S2", "supervisor")):
        history.add(user("S1", who, role), signer="S1", unbound=unbound)
    return history


def test_a_staffed_history_is_clean() -> None:
    history = staffed()
    assert history.problems() == []
    check = ChainCheck()
    check.feed(history.rows)  # the rows are a sound chain: only the history is under test
    assert check.problem is None and check.rows == 4


def test_rewritten_problem() -> None:
    """A checkpoint on the log holds while the record it counted keeps its hash; a history
    rewritten and chained again before it gives that record another hash."""
    history = staffed()
    history.add(checkpoint("A1", "auditor", 4, history.rows[3]["hash"]), signer="A1")
    assert history.step(_rewritten_problem) is None and history.problems() == []
    history.rows[3]["hash"] = "f" * 64  # record 4 rewritten (and the chain after it)
    said = "the chain no longer matches checkpoint #5 at record 4: the history before it was "
    assert history.step(_rewritten_problem) == said + "rewritten"
    assert history.problems() == [(5, said + "rewritten")]


def test_a_checkpoint_of_an_older_record_reads_its_hash_from_the_log() -> None:
    """Verify keeps only the last records' hashes (its memory is flat at any size): a
    checkpoint counting an older record has that record's stored hash read again."""
    history = staffed()
    history.add(ruling())
    history.add(checkpoint("A1", "auditor", 3, history.rows[2]["hash"]), signer="A1")
    assert history.problems() == []
    history.rows[2]["hash"] = "f" * 64
    said = "the chain no longer matches checkpoint #6 at record 3: the history before it was "
    assert history.problems() == [(6, said + "rewritten")]


def test_a_checkpoint_of_an_empty_log_vouches_for_nothing() -> None:
    history = staffed()
    history.add(checkpoint("A1", "auditor", 0, GENESIS_HASH), signer="A1")
    assert history.step(_rewritten_problem) is None and history.problems() == []


@pytest.mark.parametrize(
    ("entry", "problem"),
    [
        (ruling("D1", "supervisor"), "D1 is registered as a dealer, not a supervisor"),
        (
            ruling("X1", "supervisor"),
            "X1 is not a registered supervisor: unregistered ids act as dealers",
        ),
        (
            ruling("A1", "auditor"),
            "A1 is an auditor: auditors read the record and take checkpoints only",
        ),
    ],
)
def test_standing_problem(entry: Entry, problem: str) -> None:
    """A record its maker could not make in the role it names: another role than their own,
    a role an unregistered id cannot claim, an auditor's ruling."""
    history = staffed()
    history.add(entry)
    assert history.step(_standing_problem) == problem
    assert history.problems() == [(5, f"record 5 (ruling): at that point {problem}")]


def test_standing_problem_a_disabled_maker() -> None:
    history = staffed()
    history.add(user("S1", "D1", "dealer", action="change", active=False), signer="S1")
    history.add(ruling("D1"))
    assert history.step(_standing_problem) == "D1 is disabled"
    assert history.problems() == [(6, "record 6 (ruling): at that point D1 is disabled")]


@pytest.mark.parametrize(
    "entry",
    [
        ruling("D1"),
        ruling("X1"),  # an id nobody registered acts as a dealer
        Entry(kind="access-denied", user_id="D1", role="supervisor", result={"why": "role"}),
    ],
)
def test_standing_problem_accepts(entry: Entry) -> None:
    """A dealer's ruling, one by an unregistered id, and an access-denied record (a refusal is
    recorded whoever tried, in the role they tried) are sound."""
    history = staffed()
    history.add(entry)
    assert history.step(_standing_problem) is None and history.problems() == []


def test_supervisor_problem() -> None:
    """A void in a dealer's own role passes the standing check: only a supervisor may void."""
    history = staffed()
    history.add(void("D1", "dealer"))
    assert history.step(_standing_problem) is None
    assert history.step(_supervisor_problem) == "D1 was not a registered supervisor"
    assert history.problems() == [
        (5, "record 5 (void): at that point D1 was not a registered supervisor")
    ]


@pytest.mark.parametrize(("action", "supervising"), [("adjust", True), ("move", False)])
def test_supervisor_problem_a_meter_record(action: str, supervising: bool) -> None:
    """A meter adjusted by hand is a supervisor's action; a ruling's move of it is not (this
    one, following no ruling, is a move nothing explains: `_meter_problem`)."""
    history = staffed()
    moved = {"meter": "progressive_treasure", "previous": None, "value": "10000"}
    history.add(Entry(kind="meter", user_id="D1", role="dealer", action=action, result=moved))
    problem = "D1 was not a registered supervisor" if supervising else None
    assert history.step(_supervisor_problem) == problem
    unexplained = (
        "meter progressive_treasure at table  was moved to $10,000 by no ruling (a ruling's "
        "move follows it, by its maker at its table): a move nothing explains"
    )
    expected = problem if supervising else unexplained
    assert history.problems() == [(5, f"record 5 (meter): at that point {expected}")]


def test_supervisor_problem_accepts() -> None:
    history = staffed()
    history.add(void(), signer="S2")
    assert history.step(_supervisor_problem) is None and history.problems() == []


def taken_by(maker: str, role: str, version: str = dealer.__version__) -> History:
    """A staffed history, the dealer D2 registered with a key (record 5), and a checkpoint by
    `maker` in `role` (6), signed if they have a key."""
    history = staffed(version)
    history.add(user("S1", "D2", "dealer"), signer="S1")
    signer = maker if maker in KEYS else None
    history.add(checkpoint(maker, role, 5, history.rows[4]["hash"]), signer=signer)
    return history


def test_checkpoint_taker_problem() -> None:
    """A dealer with a key (a PIN) may not take a checkpoint from a release that signs them:
    only a supervisor or an auditor may."""
    history = taken_by("D2", "dealer")
    assert history.step(_standing_problem) is None
    assert history.step(_checkpoint_taker_problem) == (
        "D2 was not a registered supervisor or auditor"
    )
    assert history.problems() == [
        (6, "record 6 (checkpoint): at that point D2 was not a registered supervisor or auditor")
    ]


@pytest.mark.parametrize(
    "history",
    [
        taken_by("A1", "auditor"),
        taken_by("S2", "supervisor"),
        taken_by("D2", "dealer", version="0.1.0"),
        taken_by("D1", "dealer"),
    ],
    ids=["auditor", "supervisor", "before-signing-release", "maker-without-key"],
)
def test_checkpoint_taker_problem_accepts(history: History) -> None:
    """An auditor's or a supervisor's checkpoint; and the rule is not asked of a log's records
    before a release that signs checkpoints (anyone took one then), nor of a maker with no
    key (who could not sign)."""
    assert history.step(_checkpoint_taker_problem) is None and history.problems() == []


@pytest.mark.parametrize(("approver", "disabled"), [("D1", False), ("S9", False), ("S2", True)])
def test_approver_problem(approver: str, disabled: bool) -> None:
    """The approver a ruling names for its rule changes was not an active supervisor then: a
    dealer, an id nobody registered, a disabled supervisor."""
    history = staffed()
    if disabled:
        history.add(user("S1", "S2", "supervisor", action="change", active=False), signer="S1")
    ruled = history.add(ruling(rule_changes_approved_by=approver))
    problem = f"{approver}, named as approving its rule changes, was not an active supervisor"
    assert history.step(_approver_problem) == problem
    assert history.problems() == [(ruled, f"record {ruled} (ruling): at that point {problem}")]


def test_approver_problem_accepts() -> None:
    history = staffed()
    approved = ruling(rule_changes_approved_by="S2")
    history.add(approved, countersigner=("S2", "rule_changes_approved_by"))
    assert history.step(_approver_problem) is None and history.problems() == []


def test_lock_problem_not_earned() -> None:
    """A lock of release 0.2.0 after fewer than five wrong PINs in a row; a sound signed record
    by its maker starts the count again."""
    history = staffed(unbound=True)
    for _ in range(3):
        history.add(wrong_pin())
    history.add(void(), signer="S2", unbound=True)  # S2 knew their PIN
    for _ in range(4):
        history.add(wrong_pin())
    locked = history.add(lock())
    assert history.step(_lock_problem) == "S2 was locked after 4 wrong PINs, not 5"
    assert history.problems() == [
        (locked, f"record {locked} (user): at that point S2 was locked after 4 wrong PINs, not 5")
    ]


def test_lock_problem_of_someone_else() -> None:
    history = staffed(unbound=True)
    for _ in range(5):
        history.add(wrong_pin())
    history.add(lock("S2", "S1"))
    assert history.step(_lock_problem) == "a lock record may only disable its own maker"
    assert history.problems() == [
        (10, "record 10 (user): at that point a lock record may only disable its own maker")
    ]


def test_lock_problem_accepts() -> None:
    """A lock of release 0.2.0, earned by its maker's own five wrong PINs in a row; another
    login's refusals naming them (a later release's) count toward none."""
    history = staffed(unbound=True)
    for _ in range(5):
        history.add(wrong_pin())
    history.add(lock())
    assert history.step(_lock_problem) is None and history.problems() == []
    history = staffed(unbound=True)
    for _ in range(4):
        history.add(wrong_pin())
    history.add(
        wrong_pin("D1")._replace(result={"refused": "void", "why": "wrong-pin", "target": "S2"})
    )
    history.add(lock())
    assert history.step(_lock_problem) == "S2 was locked after 4 wrong PINs, not 5"


def test_lock_problem_after_the_first_bound_signature() -> None:
    """From the log's first user record signed in format 2 on, a lock counts for nothing, even
    one its maker's refusals would have earned: it fails, and S2 stays active."""
    history = staffed()
    for _ in range(5):
        history.add(wrong_pin())
    locked = history.add(lock())
    said = (
        "a lock record after record 1, the log's first signature bound to its place, counts "
        "for nothing: this release never writes one"
    )
    assert history.step(_lock_problem) == said
    history.add(void(), signer="S2")
    assert history.problems() == [(locked, f"record {locked} (user): at that point {said}")]


def _changed(history: History) -> None:
    """The last record's content changed after it was signed (and its hash made again)."""
    row = history.rows[-1]
    row["reason"] = "chip error"
    row["hash"] = record_hash(row)


@pytest.mark.parametrize(
    ("signer", "change", "problem"),
    [
        (None, None, "it carries no signature of S2"),
        ("S1", None, "it is signed with a key that was not its maker's then of S2"),
        ("S2", _changed, "its signature does not match its content of S2"),
    ],
)
def test_signature_problem(
    signer: str | None, change: Callable[[History], None] | None, problem: str
) -> None:
    """A supervisor action not signed by its maker's key: unsigned, another's key, changed."""
    history = staffed()
    history.add(void(), signer=signer)
    if change is not None:
        change(history)
    assert history.step(_signature_problem) == problem
    assert history.problems() == [(5, f"record 5 (void): at that point {problem}")]


@pytest.mark.parametrize(
    ("entry", "signer", "problem"),
    [
        (checkpoint("A1", "auditor", 0, GENESIS_HASH), None, "it carries no signature of A1"),
        (ruling("D2"), "S1", "it is signed with a key that was not its maker's then of D2"),
    ],
    ids=["checkpoint", "signed-ruling"],
)
def test_signature_problem_of_other_signed_records(
    entry: Entry, signer: str | None, problem: str
) -> None:
    """A checkpoint from a release that signs them, and any record that carries a signature,
    are held to their maker's key as a supervisor action is."""
    history = staffed()
    history.add(user("S1", "D2", "dealer"), signer="S1")
    history.add(entry, signer=signer)
    assert history.step(_signature_problem) == problem
    assert history.problems() == [(6, f"record 6 ({entry.kind}): at that point {problem}")]


def test_signature_problem_of_the_bootstrap() -> None:
    """The bootstrap is signed by the key it records."""
    history = History()
    history.add(user("S1", "S1", "supervisor", action="bootstrap"))
    assert history.step(_signature_problem) == "it carries no signature of S1"
    assert history.problems() == [
        (1, "record 1 (user): at that point it carries no signature of S1")
    ]


@pytest.mark.parametrize(
    ("entry", "signer"), [(void(), "S2"), (ruling("D1"), None), (ruling("D2"), "D2")]
)
def test_signature_problem_accepts(entry: Entry, signer: str | None) -> None:
    """A signed void; a dealer's unsigned ruling; a ruling its maker chose to sign."""
    history = staffed()
    history.add(user("S1", "D2", "dealer"), signer="S1")
    history.add(entry, signer=signer)
    assert history.step(_signature_problem) is None and history.problems() == []


@pytest.mark.parametrize("maker", ["S3", "S2"])
def test_signature_problem_a_maker_without_a_key(maker: str) -> None:
    """A supervisor with no key on the chain (a PIN from before signing keys; S3), or whose
    key a later user record took away (S2), could not sign: their action is not asked to be
    signed."""
    history = staffed()
    history.add(user("S1", maker, "supervisor", action="change", key=False), signer="S1")
    history.add(void(maker))
    assert history.step(_signature_problem) is None and history.problems() == []


def test_copy_problem() -> None:
    """A signed record put on the log again, signature and all: its signature is bound to the
    first place, and spent there (compared as bytes)."""
    history = staffed()
    history.add(void(), signer="S2")
    assert history.step(_copy_problem) is None and history.problems() == []
    signed = Entry(**{**void()._asdict(), "settings": json.loads(history.rows[-1]["settings"])})
    history.add(signed)
    moved = "its signature does not match its content of S2"
    assert history.step(_signature_problem) == moved
    problem = "its signature was already used by an earlier record: it is a copy"
    assert history.step(_copy_problem) == problem
    assert history.problems() == [(6, f"record 6 (void): at that point {moved}")]


def test_copy_problem_accepts_each_record_signed_anew() -> None:
    history = staffed()
    history.add(void(), signer="S2")
    history.add(void(), signer="S2")
    assert history.step(_copy_problem) is None and history.problems() == []


def test_a_record_reports_its_first_problem_only() -> None:
    """A dealer's unsigned void in a supervisor's role fails the standing check first; the
    steps after it are not asked."""
    history = staffed()
    history.add(void("D1", "supervisor"))
    assert history.step(_supervisor_problem) is not None
    assert history.problems() == [
        (5, "record 5 (void): at that point D1 is registered as a dealer, not a supervisor")
    ]


def test_the_history_pass_streams() -> None:
    """The pass reads a row only when it needs the next (a generator of rows is read once,
    lazily): verify streams the log rather than holding it."""
    history = staffed()
    history.add(ruling("D1", "supervisor"))
    history.add(ruling())
    read: list[int] = []

    def rows() -> Any:
        for row in history.rows:
            read.append(row["id"])
            yield row

    found = _history_problems(rows(), history.stored_hash)
    assert next(found)[0] == 5 and read == [1, 2, 3, 4, 5]
    assert list(found) == [] and read == [1, 2, 3, 4, 5, 6]


def test_the_table_of_checks_names_each_step_in_order() -> None:
    """The module's table lists the history pass's steps in the order the pass takes them,
    and every step it names exists."""
    doc = verify.__doc__ or ""
    steps = re.findall(r"^\S.*  (\S+)$", doc, flags=re.MULTILINE)[1:]  # below the header
    steps = [step for step in steps if not set(step) <= {"-"}]
    owners = {"ChainCheck": ChainCheck, "Storage": Storage}
    for step in steps:
        owner, _, name = step.rpartition(".")
        assert hasattr(owners[owner] if owner else verify, name), step
    history = [_json_problems, _rewritten_problem, *_RECORD_CHECKS, _copy_problem]
    first = steps.index("_json_problems")
    assert steps[first : first + len(history)] == [step.__name__ for step in history]
