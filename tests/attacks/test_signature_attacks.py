"""Attacks on what a signature covers and who signs (issue 23), run as the attacker would: a
signed record copied to another place of the log (SQLite file edits with Python's sqlite3, as a
dealer holding the file can), a dispute's second reviewer or a rule change's approver named
without their signature (through the command line, a patched copy of the tool, or a dealer's
own append on either backend). Each is refused, or `dealer audit verify` fails on it (with an
outside checkpoint where one was kept)."""

from __future__ import annotations

import functools
import json
import os
import shutil
import sqlite3
import types
from pathlib import Path
from typing import Any

import cli
import pytest
from cryptography.hazmat.primitives import serialization
from log_reads import records, rows, use
from typer.testing import Result

import dealer
from dealer.audit import disputes, entries, keys, open_log, users
from dealer.audit.chain import record_hash
from dealer.audit.records import Entry, UserRow, canonical_json, utc_now
from dealer.kernel.digest import sha256_hex
from dealer.kernel.errors import DealerError

run = functools.partial(cli.run, whole=True)
ok = functools.partial(cli.ok, whole=True)
PIN7 = "lantern-2468"
PIN9 = "harbor-1357"
SUP7 = ("--supervisor", "sup-7", "--pin", PIN7)
ROYAL = "As Ks Qs Js Ts"


def verified(*checkpoints: str) -> dict[str, Any]:
    """`dealer audit verify --json`, with each outside checkpoint given."""
    given = [word for line in checkpoints for word in ("--checkpoint", line)]
    out: dict[str, Any] = json.loads(run("audit", "verify", "--json", *given).stdout)
    return out


def checkpoint() -> str:
    """A checkpoint taken by sup-7 at shift close, its `N:HASH` line kept outside the log."""
    return str(json.loads(ok("audit", "checkpoint", "--user", "sup-7", "--pin", PIN7, "--json")
                          .stdout)["checkpoint"])  # fmt: skip


def staff() -> None:
    """sup-7 (the bootstrap, record 1) registers sup-9 (2) and the dealer d-1 (3); d-1 rules
    (4)."""
    ok("audit", "user", "add", "sup-7", "--role", "supervisor", "--new-pin", PIN7)
    ok("audit", "user", "add", "sup-9", "--role", "supervisor", "--new-pin", PIN9, *SUP7)
    ok("audit", "user", "add", "d-1", "--role", "dealer", *SUP7)
    rank()


def rank() -> None:
    ok("paigow", "rank", ROYAL, "--user", "d-1", "--table", "PG-1")


@pytest.fixture
def file_log(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An SQLite log in DEALER_DB (the file a dealer's OS user holds), staffed (`staff`)."""
    path = use(tmp_path / "audit.sqlite", monkeypatch)
    assert isinstance(path, Path)
    staff()
    return path


def append_to_file(path: Path, fields: dict[str, Any], user: tuple[Any, ...] = ()) -> int:
    """Append a record to the SQLite file as its holder can: `fields` (the stored columns of a
    record, JSON as text) numbered, dated, linked and hashed by the published recipe, and a
    users row (`user`: user id, role, active, PIN blob) going with it; its id."""
    with sqlite3.connect(path) as conn:
        last_id, last_hash = conn.execute(
            "SELECT id, hash FROM records ORDER BY id DESC LIMIT 1"
        ).fetchone()
        row = {
            **{name: fields[name] for name in keys.SIGNED_FIELDS},
            "settings": fields["settings"],
            "id": last_id + 1,
            "recorded_at": utc_now(),
            "software_version": dealer.__version__,
            "prev_hash": last_hash,
        }
        row["hash"] = record_hash(row)
        columns = ", ".join(row)
        conn.execute(
            f"INSERT INTO records ({columns}) VALUES ({', '.join('?' * len(row))})",
            list(row.values()),
        )
        if user:
            conn.execute("INSERT INTO users VALUES (?, ?, ?, ?, ?)", [row["id"], *user])
    return int(row["id"])


def pin_blob(path: Path, record_id: int) -> str:
    with sqlite3.connect(path) as conn:
        return str(conn.execute("SELECT pin_hash FROM users WHERE record_id = ?", [record_id])
                   .fetchone()[0])  # fmt: skip


def with_signature(row: dict[str, Any], change: Any, slot: str = "signature") -> dict[str, Any]:
    """`row` with its (counter)signature's hex parts passed through `change`."""
    settings = json.loads(row["settings"])
    settings[slot] = {
        name: change(part) if name in ("key", "nonce", "value") else part
        for name, part in settings[slot].items()
    }
    return {**row, "settings": canonical_json(settings)}


def spaced(text: str) -> str:
    return " ".join(text[i : i + 2] for i in range(0, len(text), 2))


@pytest.mark.parametrize("change", [str.upper, spaced], ids=["upper-case", "spaced"])
def test_a_registration_copied_in_another_encoding_fails_verify(
    file_log: Path, change: Any
) -> None:
    """Attack 8: the signed record "sup-7 registered sup-9", copied with its signature upper
    cased (or spaced: both decode to the same bytes), re-activates the disabled sup-9; verify,
    with the outside checkpoint, fails on it: one encoding is accepted, the copy is bound to
    the place it was made for, and a copy is found by its bytes."""
    ok("audit", "user", "set", "sup-9", "--disable", *SUP7)
    kept = checkpoint()
    registered = rows(file_log, ids=(2,))[0]
    copy = append_to_file(
        file_log,
        with_signature(registered, change),
        ("sup-9", "supervisor", 1, pin_blob(file_log, 2)),
    )
    run("audit", "void", "4", "--reason", "misdeal", "--supervisor", "sup-9", "--pin", PIN9)
    for given in ((), (kept,)):
        found = verified(*given)
        assert (found["ok"], found["first_bad"]) == (False, copy)
        assert found["problem"].startswith(f"record {copy} (user): at that point its signature is")


def test_a_signature_copied_from_a_copy_of_the_log_fails_verify(
    file_log: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Attack 8: a signed record copied byte for byte to another place: sup-7's void of ruling
    4, made on a copy of the log (a backup, a training copy), put on the live log, which moved
    on since the copy was made (where its signature was never spent). Verify, with the outside
    checkpoint, fails on it: the signature covers the place it was made for."""
    spare = Path(shutil.copy(file_log, tmp_path / "spare.sqlite"))
    use(spare, monkeypatch)
    ok("audit", "void", "4", "--reason", "misdeal", *SUP7)
    (void,) = rows(spare, kind="void")
    use(file_log, monkeypatch)
    rank()
    kept = checkpoint()
    copy = append_to_file(file_log, void)
    for given in ((), (kept,)):
        found = verified(*given)
        assert (found["ok"], found["first_bad"], found["problem"]) == (
            False,
            copy,
            f"record {copy} (void): at that point its signature does not match its content "
            "of sup-7",
        )


def sign_v1(entry: Entry, private: Any, prev_hash: str = "") -> Entry:
    """`entry` signed by the recipe 0.2.0 shipped before signatures were bound to their place
    (format 1: no `v`, no place, no signer): as that build wrote a log."""
    unsigned = {k: v for k, v in entry.settings.items() if k != "signature"}
    stored = entry._replace(settings=unsigned).stored()
    public = private.public_key().public_bytes(
        serialization.Encoding.Raw, serialization.PublicFormat.Raw
    )
    parts = {"key": public.hex(), "nonce": os.urandom(16).hex(), "signed_at": utc_now()}
    payload = {name: stored[name] for name in keys.SIGNED_FIELDS}
    payload.update(settings=stored["settings"], **parts)
    value = private.sign(b"dealer signature v1\n" + canonical_json(payload).encode()).hex()
    return entry._replace(settings={**unsigned, "signature": {**parts, "value": value}})


@pytest.fixture
def old_log(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A log written by 0.2.0's build before signatures were bound to their place (format 1),
    staffed (`staff`), sup-9 then disabled (5)."""
    path = use(tmp_path / "audit.sqlite", monkeypatch)
    assert isinstance(path, Path)
    with monkeypatch.context() as build:
        build.setattr(keys, "sign", sign_v1)
        staff()
        ok("audit", "user", "set", "sup-9", "--disable", *SUP7)
    assert "v" not in json.loads(rows(path, ids=(2,))[0]["settings"])["signature"]
    return path


def test_a_log_of_the_earlier_build_verifies_and_takes_no_old_copy(old_log: Path) -> None:
    """Attack 8 on a log the earlier build wrote: its format-1 signatures verify as they were
    written, before the log's first format-2 signature. An upper-cased copy of "sup-7
    registered sup-9" fails there; from the first record this build signs on, an exact copy
    of a format-1 record fails too (format 1 is not bound to its place)."""
    assert verified()["ok"]
    registered = rows(old_log, ids=(2,))[0]
    blob = ("sup-9", "supervisor", 1, pin_blob(old_log, 2))
    copied = Path(shutil.copy(old_log, old_log.with_name("copied.sqlite")))
    upper = append_to_file(copied, with_signature(registered, str.upper), blob)
    found = json.loads(run("audit", "verify", "--json", "--db", str(copied)).stdout)
    assert (found["ok"], found["first_bad"]) == (False, upper)
    assert "signature is malformed" in found["problem"]
    bound = int(checkpoint().split(":")[0])  # this build signs its first record
    assert verified()["ok"]
    copy = append_to_file(old_log, registered, blob)
    found = verified()
    assert (found["ok"], found["first_bad"], found["problem"]) == (
        False,
        copy,
        f"record {copy} (user): at that point its signature is of format 1, not bound to its "
        f"place, after record {bound} bound the log's signatures to theirs",
    )


def test_an_exact_copy_on_a_log_of_the_earlier_build_re_enables_no_one(old_log: Path) -> None:
    """Attack 8 on a log the earlier build wrote, before this build signed anything on it: an
    exact copy of "sup-7 registered sup-9" (format 1, valid anywhere) with its users row does
    not let the disabled sup-9 void (its signature is spent), and verify fails on it."""
    registered = rows(old_log, ids=(2,))[0]
    copy = append_to_file(old_log, registered, ("sup-9", "supervisor", 1, pin_blob(old_log, 2)))
    voided = run("audit", "void", "4", "--reason", "misdeal", "--supervisor", "sup-9",
                 "--pin", PIN9)  # fmt: skip
    assert voided.exit_code == 1 and records(old_log, kind="void") == []
    found = verified()
    assert (found["ok"], found["first_bad"], found["problem"]) == (
        False,
        copy,
        f"record {copy} (user): at that point its signature was already used by an earlier "
        "record: it is a copy",
    )


# --- attack 11: everyone named signs -------------------------------------------------------------


@pytest.fixture
def disputed(dealer_db: Path | str) -> Path | str:
    """On each backend: `staff`, and d-1's dispute of ruling 4 (record 5)."""
    staff()
    ok("audit", "dispute", "open", "patron says the pay was short", "--table", "PG-1",
       "--user", "d-1", "--ruling", "4")  # fmt: skip
    return dealer_db


def resolve(reviewer_pin: str) -> Result:
    return run(
        "audit", "dispute", "resolve", "5", "--outcome", "dealer-error", "--amount", "9999999",
        "--reviewer", "sup-9", "--reviewer-pin", reviewer_pin, "--reason", "camera shows it",
        *SUP7,
    )  # fmt: skip


def test_a_dispute_resolved_with_a_second_reviewers_signature_verifies(
    disputed: Path | str,
) -> None:
    """The reviewer countersigns the resolution with their own key (attack 11's fix, as the
    floor uses it)."""
    assert resolve(PIN9).exit_code == 0
    (resolution,) = records(disputed, kind="dispute-resolution")
    with open_log(disputed) as log:
        sup9 = entries.get(log, 2).result["key"]
    assert resolution.settings["countersignature"]["key"] == sup9
    assert verified()["ok"]


def test_a_second_reviewer_named_without_their_pin_is_refused(disputed: Path | str) -> None:
    """Attack 11 through the command line: sup-7 resolves for $9,999,999 naming sup-9, without
    sup-9's PIN: refused, and no resolution is recorded."""
    refused = resolve("not-sup-9s-pin")
    assert refused.exit_code == 1
    assert records(disputed, kind="dispute-resolution") == []


def test_a_second_reviewer_named_by_a_patched_tool_fails_verify(
    disputed: Path | str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Attack 11 by a supervisor writing around the check (a patched copy of the tool, as
    holding the SQLite file or a terminal login allows): sup-7 resolves for $9,999,999, the
    record signed by sup-7 and naming sup-9 as second reviewer, who never confirmed. Verify
    fails on it: the reviewer named did not sign."""
    monkeypatch.setattr(
        disputes,
        "_review",
        lambda storage, review, doing: types.SimpleNamespace(user_id="sup-9", private=None),
    )
    assert resolve("anything").exit_code == 0
    (resolution,) = records(disputed, kind="dispute-resolution")
    found = verified()
    assert (found["ok"], found["first_bad"], found["problem"]) == (
        False,
        resolution.id,
        f"record {resolution.id} (dispute-resolution): at that point it carries no "
        "countersignature of sup-9",
    )


def test_a_reviewers_countersignature_moved_to_another_resolution_fails_verify(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Attack 11 by file edit: sup-9's countersignature of a genuine $5 resolution pasted into
    a $9,999,999 resolution of another dispute, signed by sup-7 (a patched tool): verify fails
    on it (a countersignature covers its record's content and place)."""
    path = use(tmp_path / "audit.sqlite", monkeypatch)
    assert isinstance(path, Path)
    staff()
    for _ in range(2):
        ok("audit", "dispute", "open", "short pay", "--table", "PG-1", "--user", "d-1")
    ok("audit", "dispute", "resolve", "5", "--outcome", "dealer-error", "--amount", "5",
       "--reviewer", "sup-9", "--reviewer-pin", PIN9, "--reason", "camera", *SUP7)  # fmt: skip
    (genuine,) = rows(path, kind="dispute-resolution")
    monkeypatch.setattr(
        disputes,
        "_review",
        lambda storage, review, doing: types.SimpleNamespace(user_id="sup-9", private=None),
    )
    ok("audit", "dispute", "resolve", "6", "--outcome", "dealer-error", "--amount", "9999999",
       "--reviewer", "sup-9", "--reviewer-pin", "x", "--reason", "camera", *SUP7)  # fmt: skip
    forged = rows(path, kind="dispute-resolution")[-1]
    pasted = json.loads(forged["settings"])
    pasted["countersignature"] = json.loads(genuine["settings"])["countersignature"]
    # sup-7 signs the record with the pasted countersignature, as the patched tool would
    with open_log(path) as log:
        row = log.user("sup-7")
        assert row is not None
        private = keys.open_key(PIN7, row.pin_hash)
    assert private is not None
    entry = Entry(
        **{
            name: json.loads(forged[name]) if name in ("cards", "result", "explanation") else
            forged[name]
            for name in keys.SIGNED_FIELDS
        },
        settings=pasted,
    )  # fmt: skip
    with sqlite3.connect(path) as conn:
        head = str(conn.execute("SELECT hash FROM records ORDER BY id DESC LIMIT 1").fetchone()[0])
    copy = append_to_file(path, keys.sign(entry, private, head).stored())
    found = verified()
    problems = [p for p in found["problems"] if p.startswith(f"record {copy} ")]
    assert not found["ok"] and problems == [
        f"record {copy} (dispute-resolution): at that point its countersignature does not match "
        "its content of sup-9"
    ]


@pytest.fixture
def ruled_at(dealer_db: Path | str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """On each backend: `staff`, and a folder with the profile `house.yaml` approved."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "house.yaml").write_text("name: house\nrules:\n  wheel: lowest\n")
    staff()
    ok("audit", "approve-profile", "house.yaml", "--reason", "the floor's rules", *SUP7)
    return tmp_path


def test_a_rule_change_is_countersigned_by_its_approver(
    ruled_at: Path, dealer_db: Path | str
) -> None:
    """The approver of a ruling's `--rule` changes signs the ruling with their own key (attack
    11's fix, as the floor uses it)."""
    ok("paigow", "rank", ROYAL, "--profile", "house.yaml", "--user", "d-1", "--table", "PG-1",
       "--rule", "wheel=second-highest", *SUP7)  # fmt: skip
    ruling = records(dealer_db, kind="ruling")[-1]
    assert ruling.settings["rule_changes_approved_by"] == "sup-7"
    assert "countersignature" in ruling.settings
    assert verified()["ok"]


def test_a_rule_change_approver_named_without_a_signature_fails_verify(
    ruled_at: Path, dealer_db: Path | str
) -> None:
    """Attack 11: a dealer's own append (a terminal login on PostgreSQL, the file on SQLite) of
    a ruling naming sup-7 as approver of its rule changes, which sup-7 never signed: refused,
    or caught by verify."""
    ruling = Entry(
        kind="ruling",
        user_id="d-1",
        role="dealer",
        table_id="PG-1",
        game="paigow",
        action="rank",
        settings={"overrides": ["wheel=second-highest"], "rule_changes_approved_by": "sup-7"},
    )
    try:
        with open_log(dealer_db) as log:
            forged = entries.append(log, ruling)
    except DealerError:
        return  # refused
    found = verified()
    assert (found["ok"], found["first_bad"], found["problem"]) == (
        False,
        forged,
        f"record {forged} (ruling): at that point it carries no countersignature of sup-7",
    )


# --- attack 5, the tool's side: it never acts on a record verify would reject ---------------------


def own_append(where: Path | str, entry: Entry, user: UserRow | None = None) -> int | None:
    """`entry` appended through the backend's own write path, as a dealer can (a terminal login
    calling the append function on PostgreSQL; the holder of the SQLite file), with a users row
    going with it (`user`, its record id filled in); its id, or None when the backend refused
    it."""
    try:
        with open_log(where) as log, log.transaction() as tx:
            made = tx.append(entry)
            if user is not None:
                tx.add_user(user._replace(record_id=made))
    except DealerError:
        return None
    return made


def test_a_dealer_who_made_themself_a_supervisor_cannot_void(dealer_db: Path | str) -> None:
    """Attack 5: d-1 appends, in their own name, a user record and a users row making
    themself a supervisor with a key of their own, then voids ruling 4 with their PIN:
    refused, and nothing is voided (the tool reads the log's signed user records)."""
    staff()
    blob, _ = keys.make_key("d1-own-pin-0")
    forged = own_append(
        dealer_db,
        Entry(
            kind="user",
            user_id="d-1",
            role="dealer",
            action="add",
            result=users.user_record_result("d-1", "supervisor", True, blob),
        ),
        UserRow(0, "d-1", "supervisor", True, blob),
    )
    voided = run("audit", "void", "4", "--reason", "misdeal", "--supervisor", "d-1",
                 "--pin", "d1-own-pin-0")  # fmt: skip
    assert voided.exit_code == 1, voided.output
    assert records(dealer_db, kind="void") == []
    assert forged is None or not verified()["ok"]


def test_a_void_in_the_supervisor_role_by_a_dealer_is_not_acted_on(dealer_db: Path | str) -> None:
    """Attack 5: d-1 appends an (unsigned) void of ruling 4 in the supervisor role: it is not
    acted on (a supervisor's void of ruling 4 is still taken, not refused as already made),
    and verify fails on it."""
    staff()
    forged = own_append(
        dealer_db,
        Entry(kind="void", user_id="d-1", role="supervisor", links_to=4, reason="misdeal",
              result={"voids": 4}),
    )  # fmt: skip
    ok("audit", "void", "4", "--reason", "misdeal", *SUP7)
    assert [r.user_id for r in records(dealer_db, kind="void")][-1] == "sup-7"
    found = verified()
    assert forged is None or (found["ok"], found["first_bad"]) == (False, forged)


def test_a_self_approved_profile_decides_no_pay(
    dealer_db: Path | str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Attack 5: d-1 appends an approval of their own profile (sign-off line raised) in the
    supervisor role: a ruling with the profile is refused, nothing recorded."""
    monkeypatch.chdir(tmp_path)
    mine = tmp_path / "mine.yaml"
    mine.write_text("name: mine\nrules:\n  signoff_over: 1000000\n")
    staff()
    own_append(
        dealer_db,
        Entry(
            kind="profile-change",
            user_id="d-1",
            role="supervisor",
            action="approve",
            input_text=mine.read_text(),
            result={"file": "mine.yaml", "sha256": sha256_hex(mine.read_text()), "profile": "mine"},
            reason="mine",
        ),
    )
    before = len(records(dealer_db))
    refused = run("paigow", "rank", ROYAL, "--profile", "mine.yaml", "--user", "d-1",
                  "--table", "PG-1")  # fmt: skip
    assert refused.exit_code == 1 and "is not approved" in refused.stderr, refused.output
    assert len(records(dealer_db)) == before


def test_a_sign_off_a_dealer_wrote_is_not_accepted(dealer_db: Path | str) -> None:
    """Attack 5: d-1 settles a $5,000 pay, which awaits a supervisor's sign-off, and appends an
    (unsigned) sign-off of it in the supervisor role: the pay still awaits sign-off (`audit
    show`), a supervisor's sign-off is still taken, and verify fails on the forged one."""
    staff()
    settled = json.loads(ok(
        "paigow", "settle", "--dealer", "2s 2d 4c 6h 8s 9d Jc", "--player",
        "Ks Kd Kc Kh As Ad 3h", "--wager", "5000", "--table", "PG-1", "--user", "d-1", "--json",
    ).stdout)  # fmt: skip
    ruling = int(settled["ruling_id"])
    forged = own_append(
        dealer_db,
        Entry(kind="signoff", user_id="d-1", role="supervisor", links_to=ruling,
              table_id="PG-1", result={"ruling": ruling, "over": 2500, "seats": [1]}),
    )  # fmt: skip
    shown = json.loads(ok("audit", "show", str(ruling), "--json").stdout)
    assert shown["status"]["signoff"] == {"awaiting": True, "by": None, "record": None}
    ok("audit", "signoff", str(ruling), *SUP7)
    assert [r.user_id for r in records(dealer_db, kind="signoff")][-1] == "sup-7"
    found = verified()
    assert forged is None or (found["ok"], found["first_bad"]) == (False, forged)
