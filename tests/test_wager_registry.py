"""Every place that lists the wagers lists each one of the registry, `Wager`
(`dealer/games/paigow/pay.py`): a new wager is its member there, its pay table and its lines in
`default_profile.yaml`, and this file fails, naming the wager and the place, if any place of
the code or the shipped data misses it.

For each wager, a round in which it wins is ruled and recorded as `dealer round` does it, and
the test follows it everywhere the wager must appear: the profile's settings, the pay-table
schema and a shipped table, the settle loop (it is paid), the round table (its column), the
shift summary (its totals, and a seat's net for the large-pay check), `paigow settle` (its
option), the live table (its name and short forms) and a round file."""

from __future__ import annotations

import csv
import json
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
import yaml
from cli import run

from dealer import inputs
from dealer.cli import render
from dealer.cli.shift import WAGER_LABELS
from dealer.desk import paigow as desk_paigow
from dealer.desk.context import Desk, HouseRules
from dealer.desk.shift import METERS, WAGER_TYPES, shift_summary
from dealer.games.paigow import bonus, round_input, session
from dealer.games.paigow.deck import parse_cards
from dealer.games.paigow.events import classify
from dealer.games.paigow.pay import (
    BONUSES,
    PLACED,
    PROGRESSIVES,
    Settled,
    Wager,
    row_net,
)
from dealer.games.paigow.paytables import WAGERS, shipped_paytables
from dealer.games.paigow.profile import load_profile
from dealer.games.paigow.round_input import read_round
from dealer.games.paigow.session import parse_seat_line
from dealer.kernel.money import fmt_money

DATA = Path(__file__).parent / "data"
DEFAULT_PROFILE = Path(__file__).parents[1] / "dealer" / "games" / "paigow" / "default_profile.yaml"
PROFILE = load_profile()
TABLE = "REG-1"
BASE = 10


def _hands() -> dict[str, str]:
    with open(DATA / "event_hands.tsv", encoding="utf-8") as f:
        rows = [r for r in csv.reader(f, delimiter="\t") if r and not r[0].startswith("#")]
    return dict(rows[1:])


HANDS = _hands()
"""One seven-card hand per bonus event, whose highest event it is."""


def _amount(wager: Wager) -> Decimal:
    """The smallest amount of `wager` the shipped profile allows (Envy: none of its own)."""
    return PROFILE.limits[wager].min if wager.placed else Decimal(0)


NO_EVENT = (
    "2c 3h 5h 6c Tc Th Jh",
    "2d 3s 5c 6h 9s 9d Jc",
    "Qs Qd Jd 4c 4d 3d 2s",
    "Kh Kc 8c 6s 4s 3c 2d",
    "Jd Js Tc 8s 6d 5c 3s",
)
"""Hands of no bonus event (a pair, two pairs), for the dealer and a seat that wins nothing."""


def _apart(hand: str) -> list[str]:
    """Two hands of `NO_EVENT` that share no card with `hand` nor with each other."""
    taken, found = set(hand.split()), []
    for other in NO_EVENT:
        if not taken & set(other.split()):
            found.append(other)
            taken |= set(other.split())
    return found[:2]


def _winning_hand(wager: Wager) -> str:
    """A hand on which `wager` wins: the base, five aces; a bonus wager, a hand whose row in the
    wager's posted table pays more than the wager stakes."""
    if not wager.bonus:
        return HANDS["five-aces"]
    table = shipped_paytables().get(PROFILE.table_id(wager), wager)
    seed = PROFILE.meters[wager].seed if wager.progressive else None
    for row in table.rows:
        if row.event not in HANDS or row.pay.kind == "not-offered":
            continue
        if row_net(row.pay, table.basis, _amount(wager), seed).net > 0:
            return HANDS[row.event]
    raise AssertionError(f"{wager}: no row of {table.id} pays a hand of tests/data")


def _round(wager: Wager) -> dict[str, Any]:
    """A round file's content in which `wager` wins: seat 1 holds its winning hand and places
    it; a wager across the table is won by seat 2, whose wager it rides on is at its minimum."""
    hand = _winning_hand(wager)
    others = _apart(hand)
    seats: list[dict[str, Any]] = [{"seat": 1, "cards": hand, "wagers": {"base": BASE}}]
    if wager.placed and wager.bonus:
        seats[0]["wagers"][wager.value] = str(_amount(wager))
    if wager.settled is Settled.ACROSS_THE_TABLE:
        riding = max(PROFILE.envy_minimum, _amount(wager.rides_on))
        seat = {"seat": 2, "cards": others[1], "wagers": {"base": BASE}}
        seats.append(seat | {"wagers": {"base": BASE, wager.rides_on.value: str(riding)}})
    return {"table": TABLE, "dealer": others[0], "seats": seats}


def _winner(wager: Wager) -> int:
    return 2 if wager.settled is Settled.ACROSS_THE_TABLE else 1


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> dict[Wager, tuple[Path, Any]]:
    """Each wager's winning round, ruled and recorded in a log of its own."""
    out = {}
    for wager in Wager:
        db = tmp_path_factory.mktemp(wager.value) / "audit.sqlite"
        desk = Desk(db, "d-1", TABLE)
        out[wager] = db, desk_paigow.record_round(desk, PROFILE, _round(wager), "").ruling
    return out


def _won(ruling: Any, wager: Wager) -> tuple[dict[str, Any], Decimal]:
    """The winning seat's JSON and what the wager netted it."""
    seat = next(s for s in ruling.result["seats"] if s["seat"] == _winner(wager))
    if not wager.bonus:
        return seat, Decimal(str(seat["base"]["net"]))
    nets = [Decimal(str(b["net"])) for b in seat["bonuses"] if b["wager"] == wager]
    return seat, sum(nets, Decimal(0))


# -- the registry itself ---------------------------------------------------------------------


def test_the_hands_of_no_event_have_none() -> None:
    assert [classify(parse_cards(hand)).events for hand in NO_EVENT] == [()] * len(NO_EVENT)


def test_the_registry_names_each_thing_once() -> None:
    options = [w.terms.option for w in Wager if w.terms.option]
    typed = [word for w in PLACED for word in (w.typed, *w.terms.short, *w.terms.on_dealer)]
    columns = [w.terms.column for w in Wager]
    assert len(set(options)) == len(options) == len(PLACED)
    assert len(set(typed)) == len(typed)
    assert len(set(columns)) == len(columns)
    assert list(Wager)[0] == Wager.BASE and [w for w in Wager if not w.bonus] == [Wager.BASE]


# -- every place, for each wager -------------------------------------------------------------


@pytest.mark.parametrize("wager", list(Wager), ids=str)
def test_the_shipped_profile_holds_its_settings(wager: Wager) -> None:
    raw = yaml.safe_load(DEFAULT_PROFILE.read_text(encoding="utf-8"))
    for key in wager.profile_keys:
        node = raw
        for part in key.split("."):
            assert isinstance(node, dict) and part in node, f"{key} is not in default_profile.yaml"
            node = node[part]


def test_the_shipped_profile_holds_no_wager_the_registry_lacks() -> None:
    raw = yaml.safe_load(DEFAULT_PROFILE.read_text(encoding="utf-8"))
    assert list(raw["limits"]) == list(PLACED)
    assert list(raw["offered"]) == list(raw["caps"]) == list(BONUSES)
    assert list(raw["meters"]) == list(PROGRESSIVES)
    tables = [key.removesuffix("_table") for key in raw["rules"] if key.endswith("_table")]
    assert tables == list(BONUSES) == list(PROFILE.tables)


@pytest.mark.parametrize("wager", BONUSES, ids=str)
def test_its_pay_tables_have_a_schema_and_a_shipped_table(wager: Wager) -> None:
    assert WAGERS[wager].events == wager.terms.events
    assert shipped_paytables().get(PROFILE.table_id(wager), wager).wager == wager
    assert list(WAGERS) == list(BONUSES)


@pytest.mark.parametrize("wager", list(Wager), ids=str)
def test_the_settle_loop_pays_it(wager: Wager, recorded: dict[Wager, tuple[Path, Any]]) -> None:
    _, ruling = recorded[wager]
    seat, net = _won(ruling, wager)
    assert net > 0, f"{wager} won nothing: {seat}"


@pytest.mark.parametrize("wager", list(Wager), ids=str)
def test_the_round_table_has_its_column(
    wager: Wager, recorded: dict[Wager, tuple[Path, Any]]
) -> None:
    _, ruling = recorded[wager]
    lines = render.round_pays(ruling.result, 200)
    headers, rows = lines[0].splitlines()[0], lines[0].splitlines()[2:]
    assert (wager.terms.column if wager != Wager.BASE else "base") in headers
    row = next(line for line in rows if line.split()[0] == str(_winner(wager)))
    assert fmt_money(_won(ruling, wager)[1], signed=True) in row
    shown = "\n".join(render.round_pays(ruling.result, render.PAYS_WIDTH))
    assert render.round_text(ruling).endswith(shown)  # the last block, fitted to 80 columns


@pytest.mark.parametrize("wager", list(Wager), ids=str)
def test_the_shift_summary_totals_it_and_counts_it_in_a_large_pay(
    wager: Wager, recorded: dict[Wager, tuple[Path, Any]]
) -> None:
    db, ruling = recorded[wager]
    seat, net = _won(ruling, wager)
    assert wager in WAGER_TYPES and WAGER_LABELS[wager]
    totals = shift_summary(db, TABLE).wagers[wager]
    assert totals.count >= 1 and totals.net == net
    # a line the seat's net is over only if its win on this wager counts in it
    total = Decimal(str(seat["total_net"]))
    line = max(total - net, Decimal(0))
    assert total > line
    house = HouseRules(rules=(f"signoff_over={line}",))
    large = shift_summary(db, TABLE, house=house).large_pays
    assert _winner(wager) in [p.seat for p in large]


def test_the_shift_summary_moves_every_meter() -> None:
    assert METERS == PROGRESSIVES


@pytest.mark.parametrize("wager", PLACED, ids=str)
def test_paigow_settle_has_its_option(
    wager: Wager, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DEALER_DB", str(tmp_path / "audit.sqlite"))
    monkeypatch.setenv("DEALER_USER", "d-1")
    monkeypatch.setenv("DEALER_TABLE", "PG-1")  # a progressive wager is paid at a table's meters
    hand = _round(wager)["seats"][0]["cards"]
    dealer = _round(wager)["dealer"]
    amount = str(_amount(wager) if wager.bonus else BASE)
    options = {Wager.BASE.terms.option: str(BASE), wager.terms.option: amount}
    args = ["paigow", "settle", "--dealer", dealer, "--player", hand, "--json"]
    result = run(*args, *(x for o in options.items() for x in o))
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    if wager.bonus:
        assert [b["amount"] for b in out["bonuses"] if b["wager"] == wager] == [float(amount)]
    else:
        assert out["base"]["wager"] == BASE
    if wager.terms.on_dealer:
        declared = [*args, f"{wager.terms.option}-on-dealer"]
        result = run(*declared, *(x for o in options.items() for x in o))
        assert result.exit_code == 0, result.output
        bonus = next(b for b in json.loads(result.stdout)["bonuses"] if b["wager"] == wager)
        assert bonus["hand"] == "dealer"


@pytest.mark.parametrize("wager", PLACED, ids=str)
def test_the_live_table_reads_it_by_each_of_its_names(wager: Wager) -> None:
    hand = _winning_hand(wager) if wager.bonus else HANDS["flush"]
    for word in (wager.typed, *wager.terms.short):
        line = f"1 {hand} 10 {word} 7" if wager.bonus else f"1 {hand} {word} 7"
        assert parse_seat_line(line).wagers == ({"base": 10} if wager.bonus else {}) | {
            wager.value: 7
        }
    for word in wager.terms.on_dealer:
        parts = parse_seat_line(f"1 {hand} 10 {wager.typed} 7 {word}")
        assert parts.wagers == {"base": 10, wager.value: 7, wager.on_dealer_key: True}


@pytest.mark.parametrize("wager", [w for w in Wager if not w.placed], ids=str)
def test_the_live_table_refuses_an_amount_on_a_wager_across_the_table(wager: Wager) -> None:
    with pytest.raises(Exception, match=f"{wager.words.capitalize()} has no wager of its own"):
        parse_seat_line(f"1 {HANDS['flush']} 10 {wager.typed} 5")


@pytest.mark.parametrize("wager", list(Wager), ids=str)
def test_a_round_file_places_it(wager: Wager) -> None:
    rnd = read_round(_round(wager), PROFILE)
    placed = wager if wager.placed else wager.rides_on
    assert rnd.seats[_winner(wager) - 1].wagers.amount(placed) > 0


# -- one seat's wagers: read once ------------------------------------------------------------


@pytest.fixture()
def reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """What `dealer.inputs.money` is asked to read, wherever it is called from."""
    asked: list[str] = []
    money = inputs.money

    def counted(value: object, what: str = "wager", **limit: Any) -> Decimal:
        asked.append(what)
        return money(value, what, **limit)

    monkeypatch.setattr(inputs, "money", counted)
    for module in (bonus, round_input, session):
        monkeypatch.setattr(module, "money", counted)
    return asked


def test_paigow_settle_reads_each_amount_once(
    reads: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DEALER_DB", str(tmp_path / "audit.sqlite"))
    monkeypatch.setenv("DEALER_USER", "d-1")
    monkeypatch.setenv("DEALER_TABLE", "PG-1")  # a progressive wager is paid at a table's meters
    given = {w: str(_amount(w) if w.bonus else BASE) for w in PLACED}
    args = ["paigow", "settle", "--dealer", NO_EVENT[0], "--player", HANDS["flush"], "--json"]
    typed = [word for w, amount in given.items() for word in (w.terms.option, amount)]
    result = run(*args, *typed)
    assert result.exit_code == 0, result.output
    assert len(json.loads(result.stdout)["bonuses"]) == len(PLACED) - 1
    wagers = sorted(what for what in reads if what.endswith("wager"))
    assert wagers == sorted(f"{w.words} wager" if w.bonus else "wager" for w in PLACED)


def test_a_round_file_reads_each_amount_once(reads: list[str]) -> None:
    raw = _round(Wager.ENVY)
    read_round(raw, PROFILE)
    placed = [f"{name} wager" for seat in raw["seats"] for name in seat["wagers"]]
    assert sorted(what for what in reads if what.endswith("wager")) == sorted(placed)
