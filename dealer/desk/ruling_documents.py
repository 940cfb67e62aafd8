"""What the documents a Pai Gow ruling names give: its settings derived again from them, never
read from its own words.

A ruling names its table profile by `profile_sha256` (whose text the package ships or an
approval record holds: the text vouches for itself by its SHA-256), the rule changes it was made
with (`overrides`, which a supervisor approved and countersigned), the House Way and the pay
tables by SHA-256. From those alone the profile is read again (`profile.profile_of_text`, its
changes applied as they were, `profile.changes_of`) and the ruling's settings made again as its
action makes them (`rulings.settings_of`, `seat_rulings.round_settings`); every value a check
trusts (a meter's seed for a reset, a link's terms, the sign-off line, the limits) is then the
approved document's.

Two checks ask it: verify (`RulingDocuments`, handed to `audit.verify` as `rulings`: a ruling
whose settings are not what its documents give fails, and the meter book reads the derived
settings), and the tool before it pays from a meter (`seed_of`: the seed a past ruling may have
reset the meter to). A profile is read once per (document, changes) in a process: a log has
few; verify's sound rulings once per settings text and table.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from dealer.audit.assignments import APPROVER
from dealer.audit.records import RecordKind, canonical_json
from dealer.audit.sign_ins import SIGNED_IN
from dealer.desk.assignments import GAME
from dealer.kernel.errors import DealerError
from dealer.kernel.ruling import RulingAction

if TYPE_CHECKING:
    from dealer.audit.approvals import ApprovalBook
    from dealer.audit.meters import SeedOf
    from dealer.audit.records import Record
    from dealer.audit.storage import Reads
    from dealer.audit.verify import Documented
    from dealer.games.paigow.profile import Profile

SETTING_A_HAND = (RulingAction.SET, RulingAction.SETTLE, RulingAction.ROUND)
"""The rulings that set a hand by a House Way and record it."""
READING_PAY_TABLES = (RulingAction.BONUS, RulingAction.SETTLE, RulingAction.ROUND)
"""The rulings that record the SHA-256 of the pay tables posted."""
ROUNDS = (RulingAction.SETTLE, RulingAction.ROUND)
"""The rulings that record a seat's or a round's settings (`seat_rulings.round_settings`)."""
RULED = (RulingAction.RANK, RulingAction.COMPARE, *SETTING_A_HAND, RulingAction.BONUS)
SIGNED = ("signature", "countersignature", "profile_source", SIGNED_IN)
"""What a ruling's settings hold besides what its documents give: the signatures made on it,
the name of the file its profile was read from (`profile_sha256` decides the profile), and the
sign-in it was made under (verify checks it stood)."""

_profiles: dict[tuple[str, tuple[str, ...]], Profile] = {}


@functools.cache
def _shipped_sha256() -> str:
    from dealer.games.paigow.profile import load_profile

    return load_profile().sha256


def derived_profile(
    settings: Mapping[str, Any], text_of: Callable[[str], str | None]
) -> Profile | str:
    """The profile a ruling's `settings` name, read again: its text by `profile_sha256` (the
    shipped default's, else `text_of` it: None, not to be had), its recorded changes applied;
    or why it cannot be (a problem in words)."""
    from dealer.games.paigow.profile import changes_of, profile_of_text

    digest, changes = settings.get("profile_sha256"), settings.get("overrides", [])
    if not isinstance(digest, str):
        return "it names no table profile"
    if not isinstance(changes, list) or not all(isinstance(c, str) for c in changes):
        return "its rule changes are not a list of changes"
    text = None if digest == _shipped_sha256() else text_of(digest)
    if text is None and digest != _shipped_sha256():
        return (
            f"it names the table profile {settings.get('profile')} (sha256 {digest[:12]}…), "
            "which the package does not ship and no approval for its table holds"
        )
    key = (digest, tuple(changes))
    if key not in _profiles:
        rules, house_way = changes_of(changes)
        origin = str(settings.get("profile_source", ""))
        try:
            profile = profile_of_text(text, origin, rules, house_way)
        except DealerError as exc:
            return f"its table profile cannot be read with its rule changes ({exc})"
        _profiles[key] = profile._replace(overrides=tuple(changes))
    return _profiles[key]


class RulingDocuments:
    """verify's check of each Pai Gow ruling against the documents it names (`audit.verify`'s
    `rulings`), one for each verify: its settings made again (`derived_profile`) and compared
    whole; approved changes only with a supervisor named (whose countersignature verify's
    approver step checks), but at the demo's own table, which pays no one. A ruling naming no
    profile names no documents: no meter seed or link terms are read from it."""

    def __init__(self) -> None:
        self._sound: set[tuple[str, str, str]] = set()

    def __call__(
        self, row: Mapping[str, Any], settings: Mapping[str, Any], approvals: ApprovalBook
    ) -> Documented:
        from dealer.audit.verify import Documented

        action, table = str(row["action"]), str(row["table_id"])
        if row["game"] != GAME or action not in RULED:
            return Documented(None, settings)
        if not isinstance(settings.get("profile_sha256"), str):
            return Documented(None, {})
        key = (str(row["settings"]), table, action)
        if key in self._sound:
            return Documented(None, settings)
        profile = derived_profile(
            settings, lambda digest: approvals.text(RecordKind.PROFILE_CHANGE, digest, table)
        )
        if isinstance(profile, str):
            return Documented(profile, {})
        approver = settings.get(APPROVER)
        profile = profile._replace(approved_by=approver if isinstance(approver, str) else "")
        made = _made(profile, settings, action, table, approvals)
        if isinstance(made, str):
            return Documented(made, profile.settings())
        why = _unapproved(profile, settings, table) or _differs(made, settings, profile)
        if why is None and "countersignature" not in settings:
            self._sound.add(key)
        return Documented(why, made)


def _unapproved(profile: Profile, settings: Mapping[str, Any], table: str) -> str | None:
    """Why a ruling's rule changes stand approved by no one, or None."""
    from dealer.desk.context import DEMO_TABLE

    if not profile.overrides or settings.get(APPROVER) or table == DEMO_TABLE:
        return None
    return f"its rule changes ({', '.join(profile.overrides)}) name no supervisor approving them"


def _differs(made: Mapping[str, Any], settings: Mapping[str, Any], profile: Profile) -> str | None:
    """The first setting (by name) a ruling's `settings` hold otherwise than its documents
    give them (`made`), in words; None when they agree."""
    for key in sorted(set(made) | set(settings)):
        if key in SIGNED:
            continue
        if key not in made or key not in settings:
            return f"its settings.{key} are not what its documents give ({_named(profile)})"
        if canonical_json(made[key]) != canonical_json(settings[key]):
            return f"its settings.{key} are not what its documents give ({_named(profile)})"
    return None


def _named(profile: Profile) -> str:
    return f"the table profile {profile.name}, sha256 {profile.sha256[:12]}…"


def _made(
    profile: Profile,
    settings: Mapping[str, Any],
    action: str,
    table: str,
    approvals: ApprovalBook,
) -> dict[str, Any] | str:
    """The settings ruling `action` records under `profile`: the House Way its rules name (a
    shipped one by name; a file by the SHA-256 the ruling names, if a supervisor approved that
    file for `table`), the posted pay tables (each by the SHA-256 the ruling names, if that is
    a shipped or approved file holding the table); or why the ruling's are none of them."""
    from dealer.games.paigow.house_way import SHIPPED, HouseWay, load_house_way
    from dealer.games.paigow.rulings import settings_of
    from dealer.games.paigow.seat_rulings import posted_digests, round_settings

    way: HouseWay | None = None
    if action in SETTING_A_HAND and profile.house_way in SHIPPED:
        way = load_house_way(profile.house_way)
    elif action in SETTING_A_HAND:
        digest = settings.get("house_way_sha256")
        if not isinstance(digest, str) or not _way_approved(profile, digest, table, approvals):
            return (
                f"its House Way file {profile.house_way} (sha256 {str(digest)[:12]}…) is not "
                f"one a supervisor approved for table {table}"
            )
        named = settings.get("house_way")
        said = named if isinstance(named, Mapping) else {}
        name, version = str(said.get("name")), str(said.get("version"))
        way = HouseWay(name, version, "", "", (), profile.house_way, digest)
    try:
        if way is not None and action in ROUNDS:
            made = round_settings(profile, way)
        else:
            made = settings_of(profile, way)
        if action in READING_PAY_TABLES:
            made["paytables_sha256"] = _posted(posted_digests(profile), settings, table, approvals)
    except DealerError as exc:
        return f"its pay tables cannot be read ({exc})"
    return made


def _posted(
    posted: Mapping[str, str], settings: Mapping[str, Any], table: str, approvals: ApprovalBook
) -> dict[str, str]:
    """The SHA-256 of each posted pay table as a ruling may record it: the one it names, where
    that is a shipped or approved file holding the table (`_table_approved`), else the
    installed file's (so a ruling naming another differs)."""
    given = settings.get("paytables_sha256")
    named = given if isinstance(given, Mapping) else {}
    return {
        table_id: named[table_id]
        if _table_approved(table_id, named.get(table_id), table, approvals)
        else digest
        for table_id, digest in posted.items()
    }


def _way_approved(profile: Profile, digest: str, table: str, approvals: ApprovalBook) -> bool:
    """Whether House Way file `digest` was approved for `table`: on its own, or as the file the
    approval of the ruling's profile named (`house_way_file`)."""
    if approvals.approval(RecordKind.HOUSE_WAY_CHANGE, digest, table) is not None:
        return True
    approved = approvals.approval(RecordKind.PROFILE_CHANGE, profile.sha256, table) or {}
    named = approved.get("house_way_file")
    return isinstance(named, Mapping) and named == {"file": profile.house_way, "sha256": digest}


def _table_approved(table_id: str, digest: object, table: str, approvals: ApprovalBook) -> bool:
    """Whether `digest` is a pay-table file holding table `table_id` that the package ships
    (as the installed one is) or a supervisor approved for `table`."""
    if not isinstance(digest, str):
        return False
    from dealer.games.paigow.paytables import shipped_paytables
    from dealer.kernel.documents import shipped_documents

    installed = shipped_paytables().tables.get(table_id)
    if installed is not None and installed.sha256 == digest and digest in shipped_documents():
        return True
    approved = approvals.approval(RecordKind.PAYTABLE_CHANGE, digest, table) or {}
    listed = approved.get("paytables")
    return isinstance(listed, list) and table_id in listed


def documented_seed(reads: Reads, ruling: Record, name: str) -> Decimal | None:
    """The seed of meter `name` as the documents ruling `ruling` names give it (its profile's
    text from the approval holding it), None when they give none (`meters.SeedOf`)."""
    from dealer.audit.approvals import approved_text

    profile = derived_profile(
        ruling.settings, lambda digest: approved_text(reads, RecordKind.PROFILE_CHANGE, digest)
    )
    if isinstance(profile, str) or name not in profile.meters:
        return None
    return profile.meters[name].seed


def seed_of(current: Profile) -> SeedOf:
    """`documented_seed`, read from `current` (the profile a ruling at the table is made under
    now) for a past ruling made under the same document and changes: no profile is read."""

    def seed(reads: Reads, ruling: Record, name: str) -> Decimal | None:
        named = (ruling.settings.get("profile_sha256"), ruling.settings.get("overrides"))
        if named == (current.sha256, list(current.overrides)) and name in current.meters:
            return current.meters[name].seed
        return documented_seed(reads, ruling, name)

    return seed
