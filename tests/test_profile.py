"""The table profile: defaults, a property's file, --rule overrides, and clear refusals."""

from decimal import Decimal
from pathlib import Path

import pytest

from dealer.games.paigow.pay import BONUSES, Wager
from dealer.games.paigow.paytables import shipped_paytables
from dealer.games.paigow.profile import load_profile
from dealer.kernel.errors import ConfigError


def test_defaults_are_the_rulings_defaults() -> None:
    p = load_profile()
    assert (p.wheel, p.dealer_pai_gow, p.foul, p.house_way) == (
        "second-highest",
        "half-pay",
        "forfeit",
        "trump-plaza",
    )
    assert p.envy_minimum == Decimal(5)
    assert p.table_id(Wager.TREASURE) == "PT-FLT-EC-ET-01"
    assert p.caps["treasure"].per_hand is None
    assert [(m.seed, m.cap) for m in p.meters.values()] == [
        (Decimal(5000), Decimal(100000)),
        (Decimal(10000), Decimal(250000)),
    ]
    assert p.settings()["meters"]["progressive_treasure"] == {
        "seed": 10000,
        "contribution": 0.25,
        "cap": 250000,
    }


def test_every_bonus_wager_has_its_pay_table_setting() -> None:
    default = load_profile()
    assert tuple(default.tables) == BONUSES
    for wager in BONUSES:  # each posts a shipped table of its own wager
        assert shipped_paytables().get(default.table_id(wager), wager).wager == wager
    assert [k for k in default.settings() if k.endswith("_table")] == [
        w.table_setting for w in BONUSES
    ]
    p = load_profile(rules=["envy_table=E02"])
    assert [p.table_id(w) for w in BONUSES] == [
        "E02" if w == Wager.ENVY else default.table_id(w) for w in BONUSES
    ]
    assert p.settings()["envy_table"] == "E02"


def test_a_property_file_and_rule_overrides(tmp_path: Path) -> None:
    f = tmp_path / "table-7.yaml"
    f.write_text(
        "name: table-7\nrules:\n  dealer_pai_gow: push-ace-high\n  house_way: foxwoods\n"
        "caps:\n  treasure: {per_hand: 5000}\n",
        encoding="utf-8",
    )
    p = load_profile(f, ["wheel=lowest", "caps.treasure.per_round=20000", "foul=reset"])
    assert (p.name, p.dealer_pai_gow, p.house_way, p.wheel, p.foul) == (
        "table-7",
        "push-ace-high",
        "foxwoods",
        "lowest",
        "reset",
    )
    assert p.caps["treasure"].per_hand == Decimal(5000)
    assert p.caps["treasure"].per_round == Decimal(20000)
    settings = p.settings()
    assert settings["profile_source"] == str(f)
    assert settings["overrides"] == ["wheel=lowest", "caps.treasure.per_round=20000", "foul=reset"]


@pytest.mark.parametrize(
    ("text", "rules", "message"),
    [
        (
            "rules:\n  wheel: middle\n",
            [],
            "rules.wheel: 'middle' is not one of second-highest, lowest",
        ),
        ("rules:\n  colour: red\n", [], "rules.colour: unknown setting"),
        ("limits:\n  base: {min: 50, max: 10}\n", [], "limits.base: min 50 is above max 10"),
        (
            "caps:\n  treasure: {per_hand: lots}\n",
            [],
            "caps.treasure.per_hand 'lots' is not an amount: use digits",
        ),
        ("meters:\n  progressive_treasure: {contribution: 3}\n", [], "from 0 to 1"),
        (
            "meters:\n  progressive_treasure: {cap: 5000}\n",
            [],
            "meters.progressive_treasure: cap 5000 is below the seed 10000",
        ),
        (
            "",
            ["meters.progressive_treasure.cap=1e400"],
            "meters.progressive_treasure.cap '1e400' is not an amount: use digits",
        ),
        (
            "",
            ["meters.progressive_insurance.seed=5000.001"],
            "meters.progressive_insurance.seed '5000.001' is not an amount: amounts are whole "
            "cents",
        ),
        ("- just a list\n", [], "top level: must be a mapping"),
        ("rules: [unclosed\n", [], "bad.yaml: line 2, column 1: not valid YAML: while parsing"),
        ("", ["dealer_pai_gow=sometimes"], "'sometimes' is not one of half-pay"),
        ("", ["wheel"], "--rule 'wheel': expected KEY=VALUE"),
        ("", ["bogus=1"], "rules.bogus: unknown setting"),
    ],
)
def test_refusals_name_the_file_the_place_and_the_problem(
    tmp_path: Path, text: str, rules: list[str], message: str
) -> None:
    f = tmp_path / "bad.yaml"
    f.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError) as err:
        load_profile(f, rules)
    assert message in str(err.value)


def test_missing_profile_file(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="cannot read it"):
        load_profile(tmp_path / "nope.yaml")
