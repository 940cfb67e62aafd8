"""Issue 24, findings 2, 3 and 7 in units: documents read with every scalar as text, each field
converted by its own rule; a typed JSON object's numbers and an override's figures passing the
money type; no stored value stopping a shift summary; a House Way's clause ids."""

from __future__ import annotations

import json
import math
from decimal import Decimal
from typing import Any

import pytest
from log_reads import record

from dealer.desk.shift import summarize
from dealer.games.paigow.bonus import Meters
from dealer.games.paigow.demo import deal_demo_round
from dealer.games.paigow.figures import check_figures, has_figures
from dealer.games.paigow.house_way import parse_house_way
from dealer.games.paigow.pay import PROGRESSIVES
from dealer.games.paigow.profile import load_profile
from dealer.games.paigow.seat_rulings import round_ruling
from dealer.inputs import decimal_number, json_object, money, whole_number
from dealer.kernel.documents import DocumentSyntaxError, load_yaml
from dealer.kernel.errors import ConfigError, DealerError


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("012", "012"),
        ("0x19", "0x19"),
        ("1:05", "1:05"),
        ("2026-11-22", "2026-11-22"),
        ("yes", "yes"),
        ("True", "True"),
        ("1e400", "1e400"),
        (".inf", ".inf"),
        ("null", None),
        ("~", None),
        ("", None),
        ("true", True),
        ("false", False),
        ('"true"', "true"),
    ],
)
def test_every_scalar_is_text_but_null_and_true_or_false(text: str, value: Any) -> None:
    assert load_yaml(f"a: {text}\n", cache=False) == {"a": value}


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("a: !!int 5\n", "could not determine a constructor"),
        ("a: !!float 5\n", "could not determine a constructor"),
        ("a: !!bool yes\n", "write true or false"),
        ("a: !!null 5\n", "write null, ~ or nothing"),
        ("true: 1\n", "is not a name"),
        ("~: 1\n", "is not a name"),
    ],
)
def test_a_type_asked_for_by_tag_or_a_key_that_is_no_name_is_refused(text: str, says: str) -> None:
    with pytest.raises(DocumentSyntaxError, match=says):
        load_yaml(text, cache=False)


@pytest.mark.parametrize(
    "text", ["012", "0x19", "1_000", "+5", "-1", "1.0", "1e1", "²", "", "1 000", "٣"]
)
def test_a_whole_number_is_decimal_digits_only(text: str) -> None:
    with pytest.raises(DealerError, match="is not a whole number"):
        whole_number(text, "count", most=100)


def test_a_whole_number_is_bounded_and_read_from_text_or_an_int() -> None:
    assert whole_number("12", "count", most=12) == whole_number(12, "count", most=12) == 12
    assert whole_number("0", "count", most=1) == 0
    for number in ("13", "9" * 5000):
        with pytest.raises(DealerError, match="is not from 0 to 12"):
            whole_number(number, "count", most=12)


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("7,50", "a comma is never read"),
        ("1e400", "is not a number"),
        ("1e-400", "is not a number"),
        ("07.5", "is not a number"),
        (".5", "is not a number"),
        ("7.125", "more than 2 decimals"),
        ("100001", "more than 100,000"),
        ("9" * 5000, "more than 100,000"),
    ],
)
def test_a_decimal_number_is_plain_and_bounded(text: str, says: str) -> None:
    with pytest.raises(DealerError, match=says):
        decimal_number(text, "value", places=2, most=Decimal(100_000))
    assert decimal_number("7.5", "value", places=2, most=Decimal(10)) == Decimal("7.5")


@pytest.mark.parametrize(
    ("text", "says"), [("025", "leading zeros"), ("00.50", "leading zeros"), ("+25", "use")]
)
def test_money_refuses_a_sign_or_leading_zeros(text: str, says: str) -> None:
    with pytest.raises(DealerError, match=says):
        money(text)
    assert money("0.50") == Decimal("0.50") and money("0") == 0


@pytest.mark.parametrize(
    ("typed", "says"),
    [
        ('{"n": 1e300}', "--result n"),
        ('{"n": -0.001}', "--result n"),
        ('{"n": 25.000000000000001}', "--result n"),
        ('{"n": NaN}', "NaN"),
        ('{"n": -Infinity}', "Infinity"),
        ('{"a": [1, {"b": 1e-400}]}', "--result a[1].b"),
        ('{"n": ' + "9" * 5000 + "}", "the most allowed"),
    ],
)
def test_every_number_of_a_typed_json_object_is_an_amount(typed: str, says: str) -> None:
    with pytest.raises(DealerError, match=says.replace("[", r"\[")):
        json_object(typed, "--result")


def test_a_typed_json_object_keeps_amounts_in_their_stored_form() -> None:
    typed = '{"winner": 1, "net": -12.50, "seats": [{"wager": 25.00}], "note": "25"}'
    kept = json_object(typed, "--result")
    assert kept == {"winner": 1, "net": -12.5, "seats": [{"wager": 25}], "note": "25"}
    assert isinstance(kept["seats"][0]["wager"], int)


SEAT = {"seat": 1, "base": {"wager": 25, "net": 12.5}, "bonuses": []}


@pytest.mark.parametrize(
    ("action", "result", "says"),
    [
        ("settle", {"base": {"wager": 25, "net": "lots"}}, "base.net"),
        ("settle", {"base": {"wager": 25, "net": True}}, "base.net"),
        ("settle", {"base": {"wager": 25, "net": 1e300}}, "base.net"),
        ("settle", {"base": {"wager": 25, "net": -0.001}}, "base.net"),
        ("settle", {"base": {"wager": 25, "net": math.nan}}, "base.net"),
        ("settle", {"base": {"wager": 25, "net": 1}, "bonuses": {}}, "bonuses"),
        ("settle", {"base": {"wager": 25, "net": 1}, "bonuses": [{"wager": "x"}]}, "bonuses"),
        ("round", {"seats": []}, "seats"),
        ("round", {"seats": [SEAT, SEAT]}, "listed twice"),
        ("round", {"seats": [dict(SEAT, seat="1")]}, "seat"),
        ("round", {"seats": [dict(SEAT, seat=7)]}, "seat"),
        ("round", {"seats": [dict(SEAT, base=[])]}, "base"),
    ],
)
def test_figures_not_in_the_ruling_s_form_are_refused(
    action: str, result: dict[str, Any], says: str
) -> None:
    with pytest.raises(DealerError, match=says):
        check_figures(action, result)
    assert not has_figures(action, result)


def test_figures_in_the_ruling_s_form_and_a_decision_without_figures_pass() -> None:
    check_figures("round", {"seats": [SEAT]})
    check_figures("settle", {"base": {"wager": 25, "net": -25}, "bonuses": []})
    check_figures("settle", {"winner": 1})  # a decision: no figures to check
    check_figures("hand", {"base": "anything"})  # not a Pai Gow settle or round
    assert has_figures("round", {"seats": [SEAT]}) and not has_figures("settle", {"winner": 1})


WORST: list[Any] = [
    "lots",
    "1e300",
    1e300,
    -1e300,
    math.nan,
    math.inf,
    None,
    True,
    [],
    {},
    "9" * 5000,
    10**5000,
]
"""What no stored money field may hold, and each may hold in a log altered around the tool."""
PROFILE = load_profile(None, ())


def _paths(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every number's place in a stored result."""
    if isinstance(value, dict):
        return [p for k, v in value.items() for p in _paths(v, (*path, k))]
    if isinstance(value, list):
        return [p for i, v in enumerate(value) for p in _paths(v, (*path, i))]
    return [path] if isinstance(value, int | float) and not isinstance(value, bool) else []


def _with(result: Any, path: tuple[Any, ...], value: Any) -> Any:
    changed = json.loads(json.dumps(result))
    place = changed
    for step in path[:-1]:
        place = place[step]
    place[path[-1]] = value
    return changed


def test_no_stored_money_value_stops_a_summary() -> None:
    """Every number of a recorded round (wagers, nets, meters, hits), of a meter record and of an
    override's replacement, each given every worst value in turn: the summary is made, and its
    JSON is plain (no exponent, no NaN)."""
    meters = Meters(**{name: PROFILE.meters[name].seed for name in PROGRESSIVES})
    ruling, _ = round_ruling(deal_demo_round(7, "PG-1", PROFILE), "", PROFILE, meters)
    result = json.loads(json.dumps(ruling.result))
    move = {"meter": "progressive_treasure", "value": "10000.25", "delta": "0.25"}
    places = _paths(result)
    assert len(places) > 30
    for bad in WORST:
        for path in places:
            records = [
                record(1, "ruling", "round", _with(result, path, bad)),
                record(2, "meter", "adjust", dict(move, value=bad, delta=bad)),
            ]
            override = record(
                3, "override", "round", {"result": _with(result, path, bad)}, links_to=1
            )
            made = summarize("PG-1", None, None, records, records[1:], [override], [], Decimal(1))
            shown = json.dumps(made.to_dict(), allow_nan=False)
            assert "E+" not in shown and "e+" not in shown


def test_a_stored_replacement_not_in_the_ruling_s_form_counts_the_ruling_as_ruled() -> None:
    ruled = {"seats": [SEAT]}
    good = record(2, "override", "round", {"result": {"seats": [SEAT]}}, links_to=1)
    junk = {"seats": [dict(SEAT, base={"wager": 25, "net": "lots"})]}
    bad = record(3, "override", "round", {"result": junk}, links_to=1)
    for overrides, replaced in (([good], {1: 2}), ([bad], {}), ([good, bad], {1: 2})):
        made = summarize(
            "PG-1",
            None,
            None,
            [record(1, "ruling", "round", ruled)],
            [],
            overrides,
            [],
            Decimal(1),
        )
        assert made.replaced == replaced and made.players_net == Decimal("12.5")


CLAUSE = "  - {{id: '{id}', says: {says}, when: {{pattern: {pattern}}}, low: highest-singles}}\n"


def _way(*clauses: tuple[str, str, str]) -> str:
    return "name: room\nversion: '1'\nclauses:\n" + "".join(
        CLAUSE.format(id=i, says=s, pattern=p) for i, s, p in clauses
    )


def test_one_clause_s_branches_share_its_id_one_after_another() -> None:
    """The shipped ways number their clauses as the published way does, a letter per branch,
    and write a branch's alternatives one after another under one id (trump-plaza's 9b): each
    says its own words, so a ruling's citation (id and words) names one clause."""
    branches = _way(("9b", "With a king", "two-pair"), ("9b", "Without", "two-pair"))
    assert [c.id for c in parse_house_way(branches, "w").clauses] == ["9b", "9b"]
    apart = _way(("1", "A", "two-pair"), ("2", "B", "one-pair"), ("1", "C", "no-pair"))
    with pytest.raises(ConfigError, match="the id 1 is already used by an earlier clause"):
        parse_house_way(apart, "w")
    same = _way(("1", "A", "two-pair"), ("1", "A", "one-pair"))
    with pytest.raises(ConfigError, match="says what an earlier clause of this id says"):
        parse_house_way(same, "w")
