"""The House Way engine and the two shipped ways."""

import csv
import random
from pathlib import Path

import pytest
from house_way_reference import set_hand as set_by_reading
from hypothesis import given, settings
from hypothesis import strategies as st

from dealer.games.paigow.deck import parse_cards
from dealer.games.paigow.house_way import load_house_way, parse_house_way, set_hand
from dealer.games.paigow.ranking import high_key, is_foul, low_key
from dealer.kernel.cards import DECK, Card
from dealer.kernel.errors import ConfigError, HouseWayError

DATA = Path(__file__).parent / "data"
WAYS = ("trump-plaza", "foxwoods")


def _rows(path: Path) -> list[list[str]]:
    with open(path, encoding="utf-8") as f:
        return [r for r in csv.reader(f, delimiter="\t") if r and not r[0].startswith("#")]


def _reference_cases() -> list[tuple[str, str, str, str]]:
    cases = []
    for cards, tp_high, tp_low, fw_high, fw_low, _ in _rows(DATA / "house_way_examples.tsv"):
        cases.append((cards, "trump-plaza", tp_high, tp_low))
        cases.append((cards, "foxwoods", fw_high, fw_low))
    return cases


def _set(cards: str, way: str) -> tuple[set[Card], set[Card], str]:
    setting = set_hand(parse_cards(cards), load_house_way(way))
    return set(setting.high), set(setting.low), setting.clause


@pytest.mark.parametrize(("cards", "way", "high", "low"), _reference_cases())
def test_every_reference_example(cards: str, way: str, high: str, low: str) -> None:
    got_high, got_low, _ = _set(cards, way)
    assert (got_high, got_low) == (set(parse_cards(high)), set(parse_cards(low)))


@pytest.mark.parametrize("row", _rows(DATA / "house_way_grey_areas.tsv"), ids=lambda r: r[5])
def test_grey_areas_and_branches(row: list[str]) -> None:
    cards, way, high, low, clause, _ = row
    got_high, got_low, got_clause = _set(cards, way)
    assert (got_high, got_low) == (set(parse_cards(high)), set(parse_cards(low)))
    assert got_clause == clause


def test_the_setting_names_the_way_version_and_clause() -> None:
    setting = set_hand(parse_cards("Ks Kd 4c 4h As 9d 2c"), load_house_way("trump-plaza"))
    assert setting.house_way == "trump-plaza" and setting.version == "1"
    assert setting.rule.startswith("trump-plaza v1 §3c: A low and a high pair with an ace")


seven = st.lists(st.sampled_from(DECK), min_size=7, max_size=7, unique=True)


@settings(max_examples=400)
@given(seven, st.sampled_from(WAYS), st.randoms(use_true_random=False))
def test_a_house_way_setting_is_never_a_foul_and_uses_all_seven(cards, way, rnd) -> None:
    setting = set_hand(cards, load_house_way(way))
    assert len(setting.high) == 5 and len(setting.low) == 2
    assert set(setting.high) | set(setting.low) == set(cards)
    assert not is_foul(high_key(setting.high), low_key(setting.low))
    shuffled = list(cards)
    rnd.shuffle(shuffled)
    again = set_hand(shuffled, load_house_way(way))
    assert (again.high, again.low, again.clause) == (setting.high, setting.low, setting.clause)


def _setting_or_refusal(cards: list[Card], way: str, setter) -> object:
    try:
        return setter(cards, load_house_way(way))
    except HouseWayError as exc:
        return str(exc)


DECKS = {
    "the 53 cards": DECK,
    "9 to ace and the joker (pairs, trips, quads, straights)": tuple(
        c for c in DECK if c.rank >= 9
    ),
    "two suits and the joker (flushes)": tuple(c for c in DECK if c.suit in (2, 3, 4)),
}


@pytest.mark.slow
@pytest.mark.parametrize("way", WAYS)
@pytest.mark.parametrize(
    ("deck", "hands"), [(name, 30_000 if name == "the 53 cards" else 10_000) for name in DECKS]
)
def test_the_compiled_way_sets_every_hand_as_its_clauses_read(
    way: str, deck: str, hands: int
) -> None:
    """The engine compiles a way into a plan by ranks; the reference reads every clause for
    every hand. A fixed sample (the same every run) from the full deck and from two small
    decks where the rare branches are common: both set each hand alike, or refuse it alike."""
    rnd = random.Random(f"{way} {deck}")
    cards = DECKS[deck]
    for _ in range(hands):
        hand = rnd.sample(cards, 7)
        assert _setting_or_refusal(hand, way, set_hand) == _setting_or_refusal(
            hand, way, set_by_reading
        ), hand


def test_a_property_can_ship_its_own_way(tmp_path: Path) -> None:
    own = tmp_path / "my-casino.yaml"
    own.write_text(
        "name: my-casino\nversion: '2026.1'\nclauses:\n"
        "  - id: '1'\n    says: Everything — the two highest cards low.\n"
        "    when: {pattern: [no-pair, one-pair, two-pair, three-pair, three-of-a-kind,"
        " full-house, two-trips, four-of-a-kind, five-aces]}\n"
        "    low: best\n    high: straight-or-flush\n"
        "  - id: '2'\n    says: Otherwise the second and third highest low.\n"
        "    when: {pattern: no-pair}\n    low: second-and-third-singles\n",
        encoding="utf-8",
    )
    way = load_house_way(str(own))
    setting = set_hand(parse_cards("2h 3h 6h 9h Jh Ks Qd"), way)
    assert (setting.house_way, setting.version, setting.clause) == ("my-casino", "2026.1", "1")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("- a list", "top level: a House Way must be a mapping"),
        ("name: x\nversion: 1\n", "top level: missing 'clauses'"),
        ("name: x\nversion: 1\nclauses: []\n", "clauses: must be a non-empty list"),
        (
            "name: x\nversion: 1\nclauses:\n  - {id: a, says: s, when: {pattern: two-pairs},"
            " low: best}\n",
            "clause a: pattern 'two-pairs' is not one of",
        ),
        (
            "name: x\nversion: 1\nclauses:\n  - {id: b, says: s, when: {pattern: no-pair},"
            " low: best}\n",
            "clause b: low: best needs high: straight-or-flush",
        ),
        (
            "name: x\nversion: 1\nclauses:\n  - {id: c, says: s, when: {pattern: two-pair,"
            " ranks: {pair: [Z]}}, low: highest-singles}\n",
            "clause c ranks.pair: 'Z' is not a rank",
        ),
        (
            "name: x\nversion: 1\nclauses:\n  - {id: d, says: s, when: {pattern: two-pair,"
            " colour: red}, low: highest-singles}\n",
            "clause d: unknown condition 'colour'",
        ),
        (
            "name: x\nversion: 1\nclauses:\n  - {id: e, says: s, when: {pattern: two-pair},"
            " low: {pair: middle}}\n",
            "clause e: low {'pair': 'middle'} is not a known selection",
        ),
        ("name: [unclosed", "bad.yaml: line 2, column 1: not valid YAML: while parsing a flow"),
    ],
)
def test_bad_documents_name_file_place_and_problem(text: str, message: str) -> None:
    with pytest.raises(ConfigError, match="House Way bad.yaml: ") as err:
        parse_house_way(text, "bad.yaml")
    assert message in str(err.value)


def test_unknown_way() -> None:
    with pytest.raises(ConfigError, match="unknown House Way 'bellagio'"):
        load_house_way("bellagio")
