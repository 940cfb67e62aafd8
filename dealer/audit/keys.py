"""Personal signing keys: each secret (PIN) guards an Ed25519 key, and supervisor work is signed.

Setting a user's secret makes a new Ed25519 key pair. The private half is kept in the users row
(the `pin_hash` column, scheme `ed25519-scrypt`), sealed with ChaCha20-Poly1305 under a key
derived from the secret by scrypt at `KDF_N`/`KDF_R`/`KDF_P` (memory-hard: 128 MiB a guess);
the parameters are stored in each blob, so the cost can be raised later without breaking old
blobs. Opening the blob is the secret check: a wrong secret fails the AEAD tag. The blob also
keeps a verifier (`verifier_of`) through which a PostgreSQL server checks a secret's proof
(`proof`) and counts the failures before it releases the blob to a terminal, which never reads
it otherwise (`Withheld`). The public half
(hex) is in the blob in clear and on the `user` record that set it (`result.key`), which the
supervisor who set it signs.

A signature covers an entry's own fields (kind … reason, `settings` without the signatures), its
place in the log (`prev_hash`, the hash of the record it follows: a copy verifies nowhere else),
a random nonce, the signing time, the public key and who signs (`signer`: its maker, or the
person it names as approving it). It is signed inside the write transaction, whose head cannot
move, so the `prev_hash` signed is the one the backend assigns (the server's function too). It
is stored in the record's `settings` under `signature` (the maker's) or `countersignature` (a
dispute's second reviewer, a ruling's approver of its rule changes) as
`{"v": 2, "key", "nonce", "signed_at", "value"}`, inside the hashed record; the key, nonce and
value in exactly one encoding, lower-case hex of their exact length (`ENCODED`), refused in any
other. Format 1 (no `v`, no place, `dealer signature v1`) is what 0.2.0 wrote before signatures
were bound to their place: `verify` accepts it only before a log's first format-2 signature.
`cryptography` is imported only here and only when a key is used: a ruling never loads it.
"""

from __future__ import annotations

import functools
import hashlib
import json
import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from dealer.audit.records import Entry, canonical_json, utc_now
from dealer.kernel.digest import sha256_hex
from dealer.kernel.errors import AuditError
from dealer.kernel.tuples import NamedTuple

if TYPE_CHECKING:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

SCHEME = "ed25519-scrypt"
KDF_N = 2**17
"""scrypt cost of a new blob: 2^17 x r=8 = 128 MiB and about 0.35 s of one core a guess."""
KDF_R = 8
KDF_P = 1
KDF_MAX_N = 2**20
"""The largest cost a stored blob may ask for (1 GiB): a tampered row cannot exhaust memory."""
SECRET_MIN_LENGTH = 10
"""Characters a new secret needs (docs/security.md has the arithmetic)."""
SIGNATURE = "signature"
"""The key in a record's `settings` that holds its maker's signature."""
COUNTERSIGNATURE = "countersignature"
"""The key in a record's `settings` that holds the signature of the person it names as approving
it (a dispute's second reviewer, a ruling's `rule_changes_approved_by`)."""
MAKER = "maker"
"""The `signer` of a maker's signature (a countersignature's is the field naming its signer)."""
FORMAT = 2
"""The signature format written: bound to its place (`prev_hash`)."""
ENCODED = {"key": re.compile(r"[0-9a-f]{64}"), "nonce": re.compile(r"[0-9a-f]{32}"),
           "value": re.compile(r"[0-9a-f]{128}")}  # fmt: skip
"""The one encoding of each hex part of a signature (checked whole with `fullmatch` before it is
decoded: `bytes.fromhex` would take upper case and spaces too)."""

SIGNED_FIELDS = (
    "kind",
    "game",
    "action",
    "table_id",
    "seat",
    "user_id",
    "role",
    "input_text",
    "cards",
    "result",
    "explanation",
    "links_to",
    "reason",
)
"""The stored fields a signature covers, with `settings` less its signature: part of the
signature recipe (`_CONTEXT` v1), so spelled out, never derived from the stored columns (a
column added later must not change what every stored signature covers)."""
_CONTEXT_V1 = b"dealer signature v1\n"
_CONTEXT = b"dealer signature v2\n"


class Blob(NamedTuple):
    """A stored key blob, parsed (no secret needed). `verifier` is what lets a server check a
    secret without holding it (`verifier_of`): empty in a blob made before release 0.3."""

    n: int
    r: int
    p: int
    salt: bytes
    nonce: bytes
    sealed: bytes
    public: str
    verifier: str


WITHHELD = "withheld"
"""The scheme of a secret as a PostgreSQL terminal reads it (`parse_withheld`): the server
keeps the sealed key and its verifier to itself."""
_PROOF = b"dealer secret proof\n"


class Withheld(NamedTuple):
    """A stored secret as the PostgreSQL server shows it to a login that may not hold it:
    `withheld$FINGERPRINT$SCHEME$N$R$P$SALT$PUBLIC` — the SHA-256 of the stored text, what a
    secret is derived with, and the public key (empty for a PIN hash without one)."""

    fingerprint: str
    n: int
    r: int
    p: int
    salt: bytes
    public: str | None


SECRET_MIN_UNGUESSABLE = 6
"""Characters of a new PIN that no guessing pattern (`secret_weakness`) explains."""
SECRET_RULE = (
    f"at least {SECRET_MIN_LENGTH} characters, of which at least {SECRET_MIN_UNGUESSABLE} are "
    "not a common PIN or word, a run or repeat (1234, 9876, aaaa, abab, qwerty), a "
    "date or the user's own id; a short phrase of a few words is easiest to remember"
)
"""What a new PIN may be, said in a refusal (the commands' help says it too)."""
COMMON_WORDS = (
    "password", "passwort", "qwerty", "azerty", "qwertz", "letmein", "welcome", "iloveyou",
    "admin", "secret", "dragon", "monkey", "master", "shadow", "sunshine", "princess",
    "football", "baseball", "trustno1", "superman", "batman", "casino", "dealer", "poker",
    "blackjack", "supervisor", "changeme", "default", "pin", "pass", "login", "abc", "test",
    "1q2w3e4r", "q1w2e3r4", "1qaz2wsx", "zaq12wsx", "zaq1xsw2", "qazwsxedc", "a1b2c3d4e5",
    "123qweasd", "qweasdzxc",
)  # fmt: skip
"""Words every guesser tries first: they count as guessed wherever they stand in a PIN."""
_KEYBOARD_ROWS = ("`1234567890-=", "qwertyuiop[]\\", "asdfghjkl;'", "zxcvbnm,./", "azertyuiop",
                  "qwertzuiop", "yxcvbnm", "7894561230", "147258369", "741852963")  # fmt: skip
_REPEAT_MAX = 16
"""The longest repeat looked for: the check stays quick however long the PIN typed."""
_DATE = (
    r"(?:19|20)\d\d[-./ ]?(?:0[1-9]|1[0-2])[-./ ]?(?:0[1-9]|[12]\d|3[01])"
    r"|(?:0[1-9]|[12]\d|3[01])[-./ ]?(?:0[1-9]|1[0-2])[-./ ]?(?:19|20)?\d\d"
    r"|(?:0[1-9]|1[0-2])[-./ ]?(?:0[1-9]|[12]\d|3[01])[-./ ]?(?:19|20)?\d\d"
)
"""A date written as digits (year first, day first or month first; 2- or 4-digit year)."""


def check_secret(secret: object, user_id: str = "") -> str:
    """`secret` if it may be set as `user_id`'s PIN, else AuditError saying what is allowed:
    at least `SECRET_MIN_LENGTH` characters, of which `SECRET_MIN_UNGUESSABLE` no guessing
    pattern explains (`secret_weakness`). Pure Python and a word list of its own: no
    dependency, and never on a ruling's path (only setting a PIN asks it)."""
    if not isinstance(secret, str) or len(secret.strip()) < SECRET_MIN_LENGTH:
        raise AuditError(f"the new PIN needs {SECRET_RULE}")
    weakness = secret_weakness(secret, user_id)
    if weakness is not None:
        raise AuditError(f"the new PIN is too easy to guess ({weakness}): it needs {SECRET_RULE}")
    return secret


def secret_weakness(secret: str, user_id: str = "") -> str | None:
    """What makes `secret` easy to guess, or None. Case and spaces aside, the characters
    explained by a guessing pattern are marked — the user's own id, a common word
    (`COMMON_WORDS`), a date, a run of 3 or more whose steps are all 0, all +1 or all -1 (digits
    wrap: 890, 098) or that follows a keyboard row either way, a repeat of 3 to `_REPEAT_MAX`
    characters seen just before — and fewer than `SECRET_MIN_UNGUESSABLE` unmarked ones is weak;
    so is a PIN of fewer than 5 different characters."""
    import re  # PIN work only: kept off a ruling's start-up

    text = "".join(secret.lower().split())
    if len(set(text)) < 5:
        return "too few different characters"
    marked = [False] * len(text)

    def mark(start: int, end: int) -> None:
        marked[start:end] = [True] * (end - start)

    pieces = [word for word in (user_id.lower(), *COMMON_WORDS) if len(word) >= 3]
    for piece in pieces:
        for found in re.finditer(re.escape(piece), text):
            mark(found.start(), found.end())
    for found in re.finditer(_DATE, text):
        mark(found.start(), found.end())
    for start, end in _runs(text):
        mark(start, end)
    for size in range(3, min(len(text) // 2, _REPEAT_MAX) + 1):
        for start in range(size, len(text) - size + 1):
            if text[start : start + size] == text[start - size : start]:
                mark(start, start + size)
    if len(marked) - sum(marked) < SECRET_MIN_UNGUESSABLE:
        return "it is mostly a pattern every guesser tries"
    return None


def _step(a: str, b: str) -> set[int]:
    """The steps from `a` to `b` a guesser follows: the code point's (digits wrap), and each
    keyboard row's in which both stand."""
    steps = {ord(b) - ord(a)}
    if a.isdigit() and b.isdigit():
        steps.add((int(b) - int(a) + 5) % 10 - 5)
    for row in _KEYBOARD_ROWS:
        if a in row and b in row:
            steps.add(100 + row.index(b) - row.index(a))
    return steps


def _runs(text: str) -> list[tuple[int, int]]:
    """Spans of 3 or more characters of `text` stepping alike (`_step`: all 0, +1 or -1),
    each step's longest runs found in one pass."""
    found = []
    for step in (0, 1, -1, 101, 99):
        start = 0
        for end in range(1, len(text) + 1):
            if end == len(text) or step not in _step(text[end - 1], text[end]):
                if end - start >= 3:
                    found.append((start, end))
                start = end
    return found


def parse_blob(stored: str | None) -> Blob | None:
    """The key blob in a users row's `pin_hash`, or None when it holds none (or is damaged)."""
    if not stored or not stored.startswith(SCHEME + "$"):
        return None
    parts = stored.split("$")
    if len(parts) not in (8, 9) or (len(parts) == 9 and not _HEX64.fullmatch(parts[8])):
        return None
    _, n, r, p, salt, nonce, sealed, public = parts[:8]
    try:
        blob = Blob(
            int(n), int(r), int(p), bytes.fromhex(salt), bytes.fromhex(nonce),
            bytes.fromhex(sealed), public, parts[8] if len(parts) == 9 else "",
        )  # fmt: skip
        bytes.fromhex(public)
    except ValueError:
        return None
    return blob if _cost_ok(blob.n, blob.r, blob.p) else None


_HEX64 = re.compile(r"[0-9a-f]{64}")


def _cost_ok(n: int, r: int, p: int) -> bool:
    return 1 < n <= KDF_MAX_N and 0 < r * p <= 64


def parse_withheld(stored: str | None) -> Withheld | None:
    """The withheld form of a secret (`Withheld`), or None when `stored` is not one."""
    if not stored or not stored.startswith(WITHHELD + "$"):
        return None
    parts = stored.split("$")
    if len(parts) != 8 or not _HEX64.fullmatch(parts[1]):
        return None
    try:
        found = Withheld(
            parts[1], int(parts[3]), int(parts[4]), int(parts[5]), bytes.fromhex(parts[6]),
            parts[7] or None,
        )  # fmt: skip
    except ValueError:
        return None
    return found if _cost_ok(found.n, found.r, found.p) else None


def withheld(stored: str) -> str:
    """`stored` as a log copied for reading keeps it (`dealer.audit.copy`): its withheld form,
    as the PostgreSQL server shows it to terminals (`dealer.withheld`) — the fingerprint verify
    compares with the user's record, the scrypt cost and salt, the public key — and nothing a
    PIN can be tested against. Never the sealed key, nor the verifier: that is the SHA-256 of
    a proof, itself a digest of the scrypt key, so a guess checked against it costs one scrypt,
    as one against the sealed key does. A PIN hash made before signing keys (`scrypt$N$r$p$
    SALT$HASH`) is withheld without its salt, which with the fingerprint (on the user record)
    would test a PIN. A form already withheld is kept, its salt dropped the same way; a secret
    in no form this release reads is refused (AuditError)."""
    parts = stored.split("$")
    if parse_withheld(stored) is not None:
        fingerprint, scheme, cost, salt, public = parts[1], parts[2], parts[3:6], parts[6], parts[7]
    elif parse_blob(stored) is not None or _legacy(parts):
        fingerprint, scheme, cost, salt = sha256_hex(stored), parts[0], parts[1:4], parts[4]
        public = parts[7] if scheme == SCHEME else ""
    else:
        raise AuditError("a users row holds a secret in no form this release reads")
    return "$".join((WITHHELD, fingerprint, scheme, *cost, salt if public else "", public))


def _legacy(parts: list[str]) -> bool:
    """Whether `parts` are a PIN hash made before signing keys: `scrypt$N$r$p$SALT$HASH`."""
    if len(parts) != 6 or parts[0] != "scrypt":
        return False
    try:
        bytes.fromhex(parts[4])
        return _cost_ok(int(parts[1]), int(parts[2]), int(parts[3]))
    except ValueError:
        return False


def public_key(stored: str | None) -> str | None:
    """The public key (hex) of the key blob in `stored` (or of its withheld form), or None."""
    withheld = parse_withheld(stored)
    if withheld is not None:
        return withheld.public
    blob = parse_blob(stored)
    return blob.public if blob else None


def proof(secret: str, withheld: Withheld) -> str:
    """What proves `secret` to the server that withholds a secret (`Withheld`): a one-way
    digest of the key the secret derives (so neither the secret nor the sealing key is sent)."""
    return _proof_of(_derive(secret, withheld.salt, withheld.n, withheld.r, withheld.p))


def _proof_of(derived: bytes) -> str:
    return hashlib.sha256(_PROOF + derived).hexdigest()


def verifier_of(proof_hex: str) -> str:
    """The verifier a blob keeps for a proof: its SHA-256 (the server compares the two; the
    verifier read alone lets no one pass the check without guessing the secret at scrypt's
    cost)."""
    return hashlib.sha256(proof_hex.encode("ascii")).hexdigest()


@functools.lru_cache(maxsize=2)
def _derive(secret: str, salt: bytes, n: int, r: int, p: int) -> bytes:
    """The sealing key `secret` derives (scrypt). The last two are kept for the process: a
    PostgreSQL terminal derives it once for the proof and once more to open the key released."""
    memory = 128 * r * (n + p + 2) + 1024 * 1024
    return hashlib.scrypt(secret.encode("utf-8"), salt=salt, n=n, r=r, p=p, maxmem=memory, dklen=32)


def make_key(secret: str, user_id: str = "") -> tuple[str, Ed25519PrivateKey]:
    """A new key pair for `secret` (checked as `user_id`'s: `check_secret`): the blob to
    store, and the private key (to sign the bootstrap record with)."""
    import os

    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
    from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305

    check_secret(secret, user_id)
    private = Ed25519PrivateKey.generate()
    raw = private.private_bytes(
        serialization.Encoding.Raw,
        serialization.PrivateFormat.Raw,
        serialization.NoEncryption(),
    )
    public = _public_hex(private)
    salt, nonce = os.urandom(16), os.urandom(12)
    derived = _derive(secret, salt, KDF_N, KDF_R, KDF_P)
    sealed = ChaCha20Poly1305(derived).encrypt(nonce, raw, public.encode("ascii"))
    verifier = verifier_of(_proof_of(derived))
    parts = (SCHEME, KDF_N, KDF_R, KDF_P, salt.hex(), nonce.hex(), sealed.hex(), public, verifier)
    return "$".join(str(part) for part in parts), private


def open_key(secret: str, stored: str | None) -> Ed25519PrivateKey | None:
    """The private key sealed in `stored` if `secret` opens it, else None (one KDF)."""
    blob = parse_blob(stored)
    if blob is None or not isinstance(secret, str):
        return None
    from cryptography.exceptions import InvalidTag
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
    from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305

    try:
        key = _derive(secret, blob.salt, blob.n, blob.r, blob.p)
        raw = ChaCha20Poly1305(key).decrypt(blob.nonce, blob.sealed, blob.public.encode())
        private = Ed25519PrivateKey.from_private_bytes(raw)
    except (InvalidTag, ValueError):
        return None
    return private if _public_hex(private) == blob.public else None


def _public_hex(private: Ed25519PrivateKey) -> str:
    from cryptography.hazmat.primitives import serialization

    return (
        private.public_key()
        .public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
        .hex()
    )


def _message(
    stored: Mapping[str, Any], parts: Mapping[str, str], signer: str, version: int
) -> bytes:
    """What is signed: the stored fields of the entry (`settings` without its signatures), the
    signature's `parts` (key, nonce, time); from format 2 also its place and its `signer`."""
    payload: dict[str, Any] = {name: stored[name] for name in SIGNED_FIELDS}
    settings = json.loads(stored["settings"])
    settings.pop(SIGNATURE, None)
    if version == 1:
        payload["settings"] = canonical_json(settings)
        payload.update(key=parts["key"], nonce=parts["nonce"], signed_at=parts["signed_at"])
        return _CONTEXT_V1 + canonical_json(payload).encode("utf-8")
    settings.pop(COUNTERSIGNATURE, None)
    payload["settings"] = canonical_json(settings)
    payload.update(
        key=parts["key"],
        nonce=parts["nonce"],
        signed_at=parts["signed_at"],
        prev_hash=stored["prev_hash"],
        signer=signer,
    )
    return _CONTEXT + canonical_json(payload).encode("utf-8")


def _signed(
    entry: Entry, private: Ed25519PrivateKey, prev_hash: str, slot: str, signer: str
) -> Entry:
    import os

    unsigned = {k: v for k, v in entry.settings.items() if k != slot}
    stored = entry._replace(settings=unsigned).stored()
    stored["prev_hash"] = prev_hash
    parts = {"key": _public_hex(private), "nonce": os.urandom(16).hex(), "signed_at": utc_now()}
    value = private.sign(_message(stored, parts, signer, FORMAT)).hex()
    return entry._replace(settings={**unsigned, slot: {"v": FORMAT, **parts, "value": value}})


def sign(entry: Entry, private: Ed25519PrivateKey, prev_hash: str) -> Entry:
    """`entry` with its maker's signature by `private` in its settings, as the record after the
    one whose hash is `prev_hash` (the head of the write transaction that appends it)."""
    return _signed(entry, private, prev_hash, SIGNATURE, MAKER)


def countersign(entry: Entry, private: Ed25519PrivateKey, prev_hash: str, signer: str) -> Entry:
    """`entry` with the countersignature by `private` of the person its field `signer` names
    (`second_reviewer`, `rule_changes_approved_by`), as the record after `prev_hash`."""
    return _signed(entry, private, prev_hash, COUNTERSIGNATURE, signer)


def signature_of(row: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """The signature stored in a record row's settings, or None."""
    try:
        settings = json.loads(row["settings"])
    except (TypeError, ValueError):
        return None
    return signature_in(settings)


def signature_in(settings: Any, slot: str = SIGNATURE) -> Mapping[str, Any] | None:
    """The signature (or, with `slot`, the countersignature) in a record's parsed `settings`, or
    None (for a reader that has parsed them already: `verify` reads each record's settings
    once)."""
    found = settings.get(slot) if isinstance(settings, dict) else None
    return found if isinstance(found, dict) else None


def signature_format(found: Mapping[str, Any]) -> int | None:
    """The format of a stored signature: 2 (`v` is 2), 1 (no `v`: before signatures were bound
    to their place), None for anything else."""
    if "v" not in found:
        return 1
    version = found["v"]
    return FORMAT if type(version) is int and version == FORMAT else None


def signature_bytes(found: Mapping[str, Any]) -> bytes | None:
    """The signature value's bytes, decoded from its one encoding; None if it is in no other
    (a copy is found by these bytes, never by the text)."""
    value = found.get("value")
    if isinstance(value, str) and ENCODED["value"].fullmatch(value):
        return bytes.fromhex(value)
    return None


def encoding_problem(found: Mapping[str, Any]) -> str | None:
    """Why a stored signature is malformed (a part missing, a format unknown, hex in another
    encoding than the one written), or None."""
    if signature_format(found) is None or not isinstance(found.get("signed_at"), str):
        return "its signature is malformed"
    for name, pattern in ENCODED.items():
        part = found.get(name)
        if not isinstance(part, str) or not pattern.fullmatch(part):
            return f"its signature is malformed (its {name} is not {pattern.pattern} hex)"
    return None


def signature_problem(
    row: Mapping[str, Any], key: str, *, slot: str = SIGNATURE, signer: str = MAKER
) -> str | None:
    """Why the stored record `row` is not validly signed (in `slot`, by `signer`) by the public
    key `key`, or None. Both formats are checked as they were written: which one a log may hold
    at a place is `verify`'s to say."""
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    try:
        found = signature_in(json.loads(row["settings"]), slot)
    except (TypeError, ValueError):
        found = None
    noun = "signature" if slot == SIGNATURE else "countersignature"
    if found is None:
        return f"it carries no {noun}"
    malformed = encoding_problem(found)
    if malformed is not None:
        return malformed.replace("signature", noun)
    version = signature_format(found) or FORMAT
    if version == 1 and slot != SIGNATURE:
        return f"its {noun} is malformed"
    parts = {name: str(found[name]) for name in ("key", "nonce", "signed_at")}
    if parts["key"] != key:
        whose = "its maker's" if signer == MAKER else f"its {signer}'s"
        verb = "signed" if slot == SIGNATURE else "countersigned"
        return f"it is {verb} with a key that was not {whose} then"
    try:
        public = Ed25519PublicKey.from_public_bytes(bytes.fromhex(key))
        public.verify(bytes.fromhex(str(found["value"])), _message(row, parts, signer, version))
    except (InvalidSignature, ValueError):
        return f"its {noun} does not match its content"
    return None


RECOVERY_KEY_LENGTH = 64
"""Hex digits of an operator's recovery key as printed (its Ed25519 private half)."""


def make_recovery_key() -> tuple[str, str]:
    """A new operator's recovery key: its public half (hex, put on the log) and its private
    half (hex, printed once, never stored: whoever holds it may register a supervisor)."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    private = Ed25519PrivateKey.generate()
    raw = private.private_bytes(
        serialization.Encoding.Raw,
        serialization.PrivateFormat.Raw,
        serialization.NoEncryption(),
    )
    return _public_hex(private), raw.hex()


def recovery_private(text: object) -> Ed25519PrivateKey:
    """The recovery key printed as `text` (64 hex digits; spaces and dashes between groups
    ignored), else AuditError saying what is allowed."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    digits = "".join(str(text).replace("-", " ").split()) if isinstance(text, str) else ""
    if len(digits) != RECOVERY_KEY_LENGTH or not all(c in "0123456789abcdef" for c in digits):
        raise AuditError(
            f"a recovery key is the {RECOVERY_KEY_LENGTH} hex digits (0-9, a-f) printed when "
            "it was made"
        )
    return Ed25519PrivateKey.from_private_bytes(bytes.fromhex(digits))


def public_hex(private: Ed25519PrivateKey) -> str:
    """The public half (hex) of `private`."""
    return _public_hex(private)
