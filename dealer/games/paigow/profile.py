"""The table profile: a table's house rules, loaded from YAML, validated, with --rule overrides.

The shipped `default_profile.yaml` holds every setting and its default (RULINGS.md). A
property's profile names only what it changes; `--rule KEY=VALUE` changes one setting, with
dotted keys for nested ones (`caps.treasure.per_hand=5000`). Every ruling records
`Profile.settings()`.

A progressive wager is a whole number of units: its limits carry a `unit` (default $1, with
min = max = $1: one unit), and its min and max must be whole numbers of units, so an operator
allows more units by raising `max` (`limits.progressive_treasure.max=5`: up to five $1 units)
or sets a larger `unit`. The `offered` section marks each bonus wager offered or not at the
table (`offered.envy=false`). The `training` section is the trainer's standard: the share of
hands right (`pass_percent`) over at least `min_hands` hands of a trainee's latest whole drill
that `dealer train certify` asks for.

`rules.signoff_over` (money, default $2,500, the floor's large-pay line the shift summary used
before it was a setting) is the most one seat may be paid on one ruling without a supervisor's
sign-off: a seat whose net win is more awaits `dealer audit signoff`. `rules.rule_changes`
(`allowed`, `forbidden`) says whether a ruling at the table may be made with `--rule` changes
or a `--house-way` other than `rules.house_way` (both are changes: the desk enforces it, and
asks a supervisor to approve a change to an approved profile); a ruling made with approved
changes records who approved them (`rule_changes_approved_by`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import Decimal
from itertools import combinations
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from dealer.inputs import decimal_number, document, document_name, whole_number
from dealer.kernel.digest import sha256_hex
from dealer.kernel.errors import ConfigError, DealerError
from dealer.kernel.money import fmt_money, whole_cents
from dealer.kernel.text import quoted
from dealer.kernel.tuples import NamedTuple

if TYPE_CHECKING:
    from dealer.games.paigow.pay import Wager

CHOICES = {
    "wheel": ("second-highest", "lowest"),
    "dealer_pai_gow": ("half-pay", "push-king-or-less", "push-ace-high"),
    "foul": ("forfeit", "reset"),
    "rule_changes": ("allowed", "forbidden"),
}
SECTIONS = ("name", "rules", "limits", "offered", "caps", "meters", "training")
TRAINING_HANDS_LIMIT = 200
"""The most hands one training drill deals, and so the most a standard may ask for."""
METER_LIMIT = Decimal(1_000_000)
"""The largest seed or cap a profile may give a meter ($1,000,000): four times the default
treasure cap, and well inside exact arithmetic to the cent."""


class Limit(NamedTuple):
    """Smallest and largest wager a seat may place, and for a progressive wager its unit (the
    wager is a whole number of units; None: any amount)."""

    min: Decimal
    max: Decimal
    unit: Decimal | None = None

    def problem(self, amount: Decimal) -> str | None:
        """Why a wager of `amount` (above zero) is refused, or None when it is allowed."""
        limits = f"{fmt_money(self.min)}-{fmt_money(self.max)}"
        if not self.min <= amount <= self.max:
            units = "" if self.unit is None else f" (units of {fmt_money(self.unit)})"
            return f"is outside the table limits {limits}{units}"
        if self.unit is not None and amount % self.unit:
            return (
                f"is not a whole number of units of {fmt_money(self.unit)} (table limits {limits})"
            )
        return None


class Cap(NamedTuple):
    """Maximum aggregate payout of one wager type per hand and per round (None: no cap)."""

    per_hand: Decimal | None
    per_round: Decimal | None


class MeterConfig(NamedTuple):
    """A progressive meter's seed, the share of each wager it receives, and its cap (the most
    it holds: contributions stop there, and a supervisor sets it between seed and cap); `link`
    names the meter shared by every table whose profile names the same link (None: the
    table's own meter). A link's seed and cap are its terms, the same at every member table
    (`dealer.audit.meters.MeterLink`); the contribution is each table's own."""

    seed: Decimal
    contribution: Decimal
    cap: Decimal
    link: str | None = None


class Profile(NamedTuple):
    """A validated table profile."""

    name: str
    source: str
    wheel: str
    dealer_pai_gow: str
    foul: str
    house_way: str
    tables: Mapping[str, str]
    """The pay table posted for each bonus wager, by wager (`rules.<wager>_table`)."""
    envy_minimum: Decimal
    signoff_over: Decimal
    rule_changes: str
    limits: Mapping[str, Limit]
    offered: Mapping[str, bool]
    caps: Mapping[str, Cap]
    meters: Mapping[str, MeterConfig]
    overrides: tuple[str, ...]
    sha256: str = ""
    """SHA-256 of the profile file's text (of the shipped defaults for `default`), so a
    ruling can be matched to the profile a supervisor approved."""
    approved_by: str = ""
    """The supervisor who approved this ruling's `--rule` changes to an approved profile."""
    pass_percent: Decimal = Decimal(95)
    """The trainer's standard (`training.pass_percent`): the share of hands right, in percent,
    a trainee's latest drill needs for a certificate."""
    min_hands: int = 50
    """The trainer's standard (`training.min_hands`): the fewest hands that drill answers."""

    def table_id(self, wager: Wager) -> str:
        """The pay table the profile posts for one bonus wager."""
        return self.tables[wager]

    def offers(self, wager: str) -> bool:
        """True when the table offers this bonus wager."""
        return self.offered[wager]

    def unit(self, wager: str) -> Decimal:
        """The unit of a progressive wager."""
        unit = self.limits[wager].unit
        assert unit is not None, f"{wager} has no unit"
        return unit

    def settings(self) -> dict[str, Any]:
        """Every setting, JSON-ready, as recorded with each ruling."""

        def num(v: Decimal | None) -> int | float | None:
            if v is None:
                return None
            return int(v) if v == v.to_integral_value() else float(v)

        return {
            "profile": self.name,
            "profile_source": self.source,
            "profile_sha256": self.sha256,
            "overrides": list(self.overrides),
            **({"rule_changes_approved_by": self.approved_by} if self.approved_by else {}),
            "wheel": self.wheel,
            "dealer_pai_gow": self.dealer_pai_gow,
            "foul": self.foul,
            "rule_changes": self.rule_changes,
            "house_way": self.house_way,
            **{f"{wager}{_TABLE}": table for wager, table in self.tables.items()},
            "envy_minimum": num(self.envy_minimum),
            "signoff_over": num(self.signoff_over),
            "limits": {
                k: {"min": num(v.min), "max": num(v.max)}
                | ({} if v.unit is None else {"unit": num(v.unit)})
                for k, v in self.limits.items()
            },
            "offered": dict(self.offered),
            "caps": {
                k: {"per_hand": num(v.per_hand), "per_round": num(v.per_round)}
                for k, v in self.caps.items()
            },
            "meters": {
                k: {"seed": num(v.seed), "contribution": num(v.contribution), "cap": num(v.cap)}
                | ({} if v.link is None else {"link": v.link})
                for k, v in self.meters.items()
            },
        }


_TABLE = "_table"
"""The ending of a setting naming a bonus wager's pay table (`rules.treasure_table`,
`Wager.table_setting`): the profile reads a table setting for each one `default_profile.yaml`
has, in its order (the order of `dealer.games.paigow.pay.Wager`), so that a new wager needs no
change here, and ranking and setting a hand, which read the profile, never load the wagers."""


def _default_text() -> str:
    return (Path(__file__).parent / "default_profile.yaml").read_text(encoding="utf-8")


def _merge(base: dict[str, Any], extra: Mapping[str, Any], origin: str, path: str) -> None:
    """Deep-merge `extra` into `base`, refusing keys the default profile does not have."""
    for key, value in extra.items():
        where = f"{path}.{key}" if path else str(key)
        if key not in base:
            known = ", ".join(str(k) for k in base)
            raise ConfigError(f"profile {origin}: {where}: unknown setting (known: {known})")
        if isinstance(base[key], dict):
            if not isinstance(value, dict):
                raise ConfigError(f"profile {origin}: {where}: must be a mapping")
            _merge(base[key], value, origin, where)
        else:
            base[key] = value


def _decimal(value: Any, origin: str, where: str, *, optional: bool = False) -> Decimal | None:
    """An amount of money in the profile: read as every amount is (`dealer.inputs.money`)."""
    if value is None and optional:
        return None
    from dealer.inputs import money

    try:
        return money(value, where)
    except DealerError as exc:
        raise ConfigError(f"profile {origin}: {exc}") from None


SHARE_PLACES = 4
"""The most decimals of a share (a meter's contribution, from 0 to 1: `0.25`, `0.0125`)."""


def _share(value: Any, origin: str, where: str) -> Decimal:
    """A share (a meter's contribution): a number from 0 to 1 in decimal, at most
    `SHARE_PLACES` decimals (`dealer.inputs.decimal_number`)."""
    try:
        return decimal_number(value, where, places=SHARE_PLACES, most=Decimal(1))
    except DealerError as exc:
        raise ConfigError(f"profile {origin}: {exc} (a share of the wager, from 0 to 1)") from None


def _meter_amount(value: Any, origin: str, where: str) -> Decimal:
    """A meter's seed or cap: whole cents, at most `METER_LIMIT`."""
    amount = _need(_decimal(value, origin, where))
    if amount > METER_LIMIT:
        raise ConfigError(
            f"profile {origin}: {where}: {value!r} is more than {fmt_money(METER_LIMIT)}, "
            "the most a meter may hold"
        )
    if not whole_cents(amount):
        raise ConfigError(f"profile {origin}: {where}: {value!r} has fractions of a cent")
    return amount


def _link(value: Any, origin: str, where: str) -> str | None:
    """A meter's link: null (the table's own meter) or an id like a table id (`FLOOR-ET-1`)."""
    if value is None:
        return None
    from dealer.inputs import beyond_ascii, table_id

    try:
        return table_id(value)
    except DealerError:
        found = beyond_ascii(value)
        raise ConfigError(
            f"profile {origin}: {where}: {value!r} is not a link: "
            + (f"{found}: " if found else "")
            + "null, or an id of letters, digits and . _ @ # - (up to 64), such as FLOOR-ET-1"
        ) from None


NAME_LIMIT = 100
"""The most characters of a profile's name (every ruling records it)."""


def _name(value: Any, origin: str) -> str:
    """The profile's name: one line of text that the rule of names takes
    (`dealer.inputs.document_name`: no look-alike of another name)."""
    try:
        return document_name(value, "name", limit=NAME_LIMIT)
    except DealerError as exc:
        raise ConfigError(f"profile {origin}: {exc}") from None


def _need(value: Decimal | None) -> Decimal:
    assert value is not None
    return value


def _build(raw: dict[str, Any], origin: str, overrides: tuple[str, ...]) -> Profile:
    rules = raw["rules"]
    for key, allowed in CHOICES.items():
        if rules[key] not in allowed:
            raise ConfigError(
                f"profile {origin}: rules.{key}: {rules[key]!r} is not one of {', '.join(allowed)}"
            )
    named = ["house_way", *(key for key in rules if key.endswith(_TABLE))]
    for key in named:
        if not isinstance(rules[key], str) or not rules[key].strip():
            raise ConfigError(f"profile {origin}: rules.{key}: must be a name")
    limits = {wager: _limit(lim, origin, f"limits.{wager}") for wager, lim in raw["limits"].items()}
    for wager, offered in raw["offered"].items():
        if not isinstance(offered, bool):
            raise ConfigError(f"profile {origin}: offered.{wager}: must be true or false")
    caps = {
        w: Cap(
            _decimal(c["per_hand"], origin, f"caps.{w}.per_hand", optional=True),
            _decimal(c["per_round"], origin, f"caps.{w}.per_round", optional=True),
        )
        for w, c in raw["caps"].items()
    }
    meters = {}
    for m, cfg in raw["meters"].items():
        share = _share(cfg["contribution"], origin, f"meters.{m}.contribution")
        seed = _meter_amount(cfg["seed"], origin, f"meters.{m}.seed")
        cap = _meter_amount(cfg["cap"], origin, f"meters.{m}.cap")
        if cap < seed:
            raise ConfigError(f"profile {origin}: meters.{m}: cap {cap} is below the seed {seed}")
        meters[m] = MeterConfig(seed, share, cap, _link(cfg["link"], origin, f"meters.{m}.link"))
    linked = [(m, cfg.link) for m, cfg in meters.items() if cfg.link is not None]
    for (first, link), (second, other) in combinations(linked, 2):
        if link == other:
            raise ConfigError(
                f"profile {origin}: meters.{second}.link: {link} is already the link of "
                f"meters.{first}: each linked meter has a link of its own"
            )
    pass_percent, min_hands = _training(raw["training"], origin)
    return Profile(
        name=_name(raw["name"], origin),
        source=origin,
        wheel=rules["wheel"],
        dealer_pai_gow=rules["dealer_pai_gow"],
        foul=rules["foul"],
        rule_changes=rules["rule_changes"],
        house_way=rules["house_way"].strip(),
        tables=MappingProxyType(
            {key.removesuffix(_TABLE): rules[key].strip() for key in named[1:]}
        ),
        envy_minimum=_need(_decimal(rules["envy_minimum"], origin, "rules.envy_minimum")),
        signoff_over=_need(_decimal(rules["signoff_over"], origin, "rules.signoff_over")),
        limits=MappingProxyType(limits),
        offered=MappingProxyType(dict(raw["offered"])),
        caps=MappingProxyType(caps),
        meters=MappingProxyType(meters),
        overrides=overrides,
        pass_percent=pass_percent,
        min_hands=min_hands,
    )


def _training(raw: Mapping[str, Any], origin: str) -> tuple[Decimal, int]:
    """The trainer's standard: a percentage from 0 to 100 (at most 2 decimals) and a whole
    number of hands from 1 to `TRAINING_HANDS_LIMIT`, each by the one number rule of
    `dealer.inputs`."""
    try:
        share = decimal_number(
            raw["pass_percent"], "training.pass_percent", places=2, most=Decimal(100)
        )
        hands = whole_number(
            raw["min_hands"], "training.min_hands", least=1, most=TRAINING_HANDS_LIMIT
        )
    except DealerError as exc:
        raise ConfigError(f"profile {origin}: {exc}") from None
    return share, hands


def _limit(raw: Mapping[str, Any], origin: str, where: str) -> Limit:
    """One wager's limits: min ≤ max, and where the wager has a unit, a unit above zero that
    min and max are whole numbers of."""
    lo = _need(_decimal(raw["min"], origin, f"{where}.min"))
    hi = _need(_decimal(raw["max"], origin, f"{where}.max"))
    if lo > hi:
        raise ConfigError(f"profile {origin}: {where}: min {lo} is above max {hi}")
    if "unit" not in raw:
        return Limit(lo, hi)
    unit = _need(_decimal(raw["unit"], origin, f"{where}.unit"))
    if unit == 0:
        raise ConfigError(f"profile {origin}: {where}.unit: must be above zero")
    for key, value in (("min", lo), ("max", hi)):
        if value % unit:
            raise ConfigError(
                f"profile {origin}: {where}.{key}: {fmt_money(value)} is not a whole number of "
                f"units of {fmt_money(unit)}"
            )
    return Limit(lo, hi, unit)


def _apply_rule(raw: dict[str, Any], rule: str) -> None:
    """Apply one `KEY=VALUE` override; a bare KEY is looked up under `rules`."""
    key, sep, value = rule.partition("=")
    key = key.strip()
    if not sep or not key:
        raise ConfigError(f"--rule {quoted(rule)}: expected KEY=VALUE, e.g. --rule wheel=lowest")
    path = key.split(".")
    if len(path) == 1 and path[0] not in SECTIONS:
        path = ["rules", path[0]]
    node: Any = (
        document(value, f"--rule {quoted(rule)} value", cache=False) if value.strip() else None
    )
    for part in reversed(path):
        node = {part: node}
    _merge(raw, node, f"--rule {rule}", "")


def load_profile(
    path: str | Path | None = None, rules: Sequence[str] = (), house_way: str | None = None
) -> Profile:
    """The default profile, merged with a profile file if given, then the --rule overrides,
    then `house_way` (`--house-way`): a House Way other than the one the rules name is one more
    change, `house_way=NAME` in `overrides` (naming the same one changes nothing)."""
    if path is None:
        return profile_of_text(None, "default", rules, house_way)
    from dealer.inputs import InputFileError, text_file  # a profile file only

    try:
        text = text_file(path, "profile")
    except InputFileError as exc:
        raise ConfigError(f"profile {path}: cannot read it: {exc.reason}") from None
    return profile_of_text(text, str(path), rules, house_way)


def profile_of_text(
    text: str | None, origin: str, rules: Sequence[str] = (), house_way: str | None = None
) -> Profile:
    """`load_profile` of a profile's text as read (None: the shipped default alone), named
    `origin` (the file it was read or approved from): the one reading of a profile, whether
    from a file, from the approval record holding its text, or again from what a ruling
    recorded (`changes_of` its overrides)."""
    shipped = _default_text()
    raw = document(shipped, "the default profile")
    if text is not None:
        extra = document(text, f"profile {origin}") or {}
        if not isinstance(extra, dict):
            raise ConfigError(f"profile {origin}: top level: must be a mapping")
        _merge(raw, extra, origin, "")
        _build(raw, origin, ())
    for rule in rules:
        _apply_rule(raw, rule)
        _build(raw, f"--rule {rule}", ())
    profile = _build(raw, origin, tuple(rules))
    if house_way is not None and house_way != profile.house_way:
        changes = (*profile.overrides, f"{HOUSE_WAY_CHANGE}{house_way}")
        profile = profile._replace(house_way=house_way, overrides=changes)
    return profile._replace(sha256=sha256_hex(shipped if text is None else text))


HOUSE_WAY_CHANGE = "house_way="
"""How `overrides` name a House Way other than the rules' (`--house-way NAME`)."""
PROFILE_CHANGE = "profile="
"""How `overrides` say, first, that a ruling was made under another profile than the one its
table is assigned (`profile=FILE`): a change a supervisor approves, as a `--rule` is. No setting
is called `profile`, so no `--rule` reads so."""


def changes_of(overrides: Sequence[str]) -> tuple[tuple[str, ...], str | None]:
    """The `--rule` changes and the `--house-way` a ruling's recorded `overrides` were made
    with, to read its profile again as it was read (`profile_of_text`): the mark of another
    profile (`PROFILE_CHANGE`) is no rule, and a last `house_way=NAME` is given as the House
    Way it names, as typed (a `--rule house_way=NAME` reads the same)."""
    rules = [change for change in overrides if not change.startswith(PROFILE_CHANGE)]
    if rules and rules[-1].startswith(HOUSE_WAY_CHANGE):
        return tuple(rules[:-1]), rules[-1].removeprefix(HOUSE_WAY_CHANGE)
    return tuple(rules), None
