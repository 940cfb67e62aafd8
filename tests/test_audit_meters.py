"""Progressive meters set by hand: a meter of the table profile, whole cents from its seed to
its cap, checked before the supervisor's authority so a refusal writes nothing; and a table
whose log holds a meter no ruling can pay from (written by an older version) refuses its
rulings in one line, without a traceback, until a supervisor sets the meter again."""

from __future__ import annotations

import json
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path

import pytest
from cli import run
from typer.testing import Result

from dealer.audit import meters, open_log, staff
from dealer.audit.authority import supervised
from dealer.audit.chain import Checkpoint
from dealer.audit.meters import MeterRange
from dealer.audit.records import Entry
from dealer.audit.storage import Storage
from dealer.games.paigow.pay import PROGRESSIVES
from dealer.kernel.errors import AccessError, AuditError

PIN = "lantern-2468"
RANGES = {
    "progressive_insurance": MeterRange(Decimal(5000), Decimal(100000)),
    "progressive_treasure": MeterRange(Decimal(10000), Decimal(250000)),
}
RANGE = "a supervisor sets a meter between its seed and its cap, $10,000–$250,000"
DEALER = "As Kd 9c 7h 5s 3d 2c"
PLAYER = "Js Jd Ac Qh 8s 5d 3h"


# -- the audit layer ---------------------------------------------------------------------------


@pytest.fixture
def log(log_at: Path | str) -> Iterator[Storage]:
    with open_log(log_at) as opened:
        staff.add_user(opened, "S1", "supervisor", pin=PIN)
        yield opened


@pytest.mark.parametrize(
    ("name", "value", "reason", "message"),
    [
        (
            "treasure",
            10000,
            "r",
            f"there is no meter 'treasure': the meters are {', '.join(PROGRESSIVES)}",
        ),
        (
            "progressive_treasure",
            Decimal("1E+400"),
            "r",
            f"meter progressive_treasure at table PG-1 cannot be set to $1E+400: {RANGE}",
        ),
        (
            "progressive_treasure",
            Decimal("9999.99"),
            "r",
            f"meter progressive_treasure at table PG-1 cannot be set to $9,999.99: {RANGE}",
        ),
        (
            "progressive_treasure",
            Decimal("250000.01"),
            "r",
            f"meter progressive_treasure at table PG-1 cannot be set to $250,000.01: {RANGE}",
        ),
        (
            "progressive_insurance",
            Decimal(4000),
            "r",
            "meter progressive_insurance at table PG-1 cannot be set to $4,000: a supervisor sets "
            "a meter between its seed and its cap, $5,000–$100,000",
        ),
        (
            "progressive_treasure",
            Decimal("10000.001"),
            "r",
            "meter progressive_treasure must be whole cents, zero or more, not "
            "Decimal('10000.001')",
        ),
        (
            "progressive_treasure",
            Decimal(-5),
            "r",
            "meter progressive_treasure must be whole cents, zero or more, not Decimal('-5')",
        ),
        (
            "progressive_treasure",
            "NaN",
            "r",
            "meter progressive_treasure must be a finite number, not 'NaN'",
        ),
        (
            "progressive_treasure",
            Decimal(20000),
            " ",
            "adjusting meter progressive_treasure needs a reason",
        ),
    ],
)
def test_an_adjustment_out_of_bounds_is_refused_before_the_pin(
    log: Storage, name: str, value: object, reason: str, message: str
) -> None:
    before = log.head()
    for pin in (PIN, "0000"):  # the right PIN or a wrong one: the value is refused first
        with pytest.raises(AuditError) as refused:
            meters.adjust(
                log,
                "PG-1",
                name,
                value,  # type: ignore[arg-type]
                reason,
                ranges=RANGES,
                supervisor_id="S1",
                pin=pin,
            )
        assert str(refused.value) == message
    assert log.head() == before


def test_the_seed_and_the_cap_themselves_are_allowed(log: Storage) -> None:
    for value in (Decimal(10000), Decimal("250000.00"), Decimal("12345.67")):
        made = meters.adjust(
            log,
            "PG-1",
            "progressive_treasure",
            value,
            "count",
            ranges=RANGES,
            supervisor_id="S1",
            pin=PIN,
        )
        assert log.record(made).result["value"] == str(value)  # type: ignore[union-attr]
        assert log.meter("PG-1", "progressive_treasure") == value


def test_a_meter_move_is_whole_cents_zero_or_more(log: Storage) -> None:
    with log.transaction() as tx:
        for value, shown in (("0.001", "'0.001'"), (-1, "-1")):
            with pytest.raises(AuditError) as refused:
                meters.move(tx, "PG-1", "progressive_treasure", value, "r", user_id="S1")
            assert str(refused.value) == (
                f"meter progressive_treasure must be whole cents, zero or more, not {shown}"
            )


def test_a_wrong_pin_with_a_good_value_is_refused_and_recorded(log: Storage) -> None:
    before = log.head().records
    with pytest.raises(AccessError, match="wrong PIN for S1: meter-adjust refused"):
        meters.adjust(
            log,
            "PG-1",
            "progressive_treasure",
            Decimal(20000),
            "r",
            ranges=RANGES,
            supervisor_id="S1",
            pin="0000",
        )
    assert log.head().records == before + 1
    assert log.record(before + 1).kind == "access-denied"  # type: ignore[union-attr]
    assert log.meter("PG-1", "progressive_treasure") is None


# -- through the CLI ---------------------------------------------------------------------------


@pytest.fixture
def db(log_at: Path | str, monkeypatch: pytest.MonkeyPatch) -> Path | str:
    """A log with supervisor S1, on each backend (`log_at`)."""
    path = log_at
    for name in ("DEALER_USER", "DEALER_TABLE", "DEALER_PIN", "DEALER_NEW_PIN"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("DEALER_DB", str(path))
    assert (
        run("audit", "user", "add", "S1", "--role", "supervisor", "--new-pin", PIN).exit_code == 0
    )
    return path


def adjust(value: str, *extra: str, name: str = "progressive_treasure") -> Result:
    return run(
        "audit",
        "meter",
        "adjust",
        name,
        value,
        "--reason",
        "count",
        "--table",
        "PG-1",
        *(extra or ("--supervisor", "S1", "--pin", PIN)),
    )


FORM = "use digits with at most one decimal point and two decimals, e.g. 25, 12.50 or $25"


def settle(table: str = "PG-1") -> Result:
    return run(
        "paigow",
        "settle",
        "--dealer",
        DEALER,
        "--player",
        PLAYER,
        "--wager",
        "10",
        "--progressive-treasure",
        "1",
        "--table",
        table,
        "--user",
        "d-104",
        "--json",
    )


def head(db: Path | str) -> Checkpoint:
    with open_log(db, read_only=True) as log:
        return log.head()


def meters_before(result: Result) -> dict[str, float]:
    assert result.exit_code == 0, result.output
    before: dict[str, float] = json.loads(result.stdout)["meters"]["before"]
    return before


@pytest.mark.parametrize(
    ("value", "extra", "message"),
    [
        (
            "1e400",
            (),
            "meter progressive_treasure '1e400' is not an amount: " + FORM + "",
        ),
        (
            "1e25",
            (),
            "meter progressive_treasure '1e25' is not an amount: " + FORM + "",
        ),
        (
            "99999999999999999999999",
            (),
            "meter progressive_treasure '99999999999999999999999' is not an amount: the most "
            "allowed is $1,000,000",
        ),
        (
            "250000.01",
            (),
            f"meter progressive_treasure at table PG-1 cannot be set to $250,000.01: {RANGE}",
        ),
        (
            "9999.99",
            (),
            f"meter progressive_treasure at table PG-1 cannot be set to $9,999.99: {RANGE}",
        ),
        ("0", (), f"meter progressive_treasure at table PG-1 cannot be set to $0: {RANGE}"),
        (
            "0.001",
            (),
            "meter progressive_treasure '0.001' is not an amount: amounts are whole cents (at "
            "most two decimals)",
        ),
        (
            "lots",
            (),
            "meter progressive_treasure 'lots' is not an amount: " + FORM + "",
        ),
        (
            "20000",
            ("--supervisor", "sup-7", "--pin", PIN),
            "user sup-7 is not a registered supervisor: meter-adjust needs the id and PIN of an "
            "active supervisor",
        ),
    ],
)
def test_a_refused_adjustment_writes_nothing_and_the_table_still_settles(
    db: Path | str, value: str, extra: tuple[str, ...], message: str
) -> None:
    assert meters_before(settle())["progressive_treasure"] == 10000
    before = head(db)
    refused = adjust(value, *extra)
    assert (refused.exit_code, refused.stdout, refused.stderr) == (1, "", f"Error: {message}\n")
    assert head(db) == before
    assert meters_before(settle())["progressive_treasure"] == 10000.25


def test_an_unknown_meter_is_refused_naming_the_meters(db: Path | str) -> None:
    before = head(db)
    refused = adjust("20000", name="treasure")
    assert (refused.exit_code, refused.stderr) == (
        1,
        "Error: there is no meter 'treasure': the meters are progressive_insurance, "
        "progressive_treasure\n",
    )
    assert head(db) == before


def test_the_range_is_the_table_profiles(db: Path | str) -> None:
    rule = ("--rule", "meters.progressive_treasure.cap=20000")
    refused = adjust("25000", *rule, "--supervisor", "S1", "--pin", PIN)
    assert refused.stderr == (
        "Error: meter progressive_treasure at table PG-1 cannot be set to $25,000: a supervisor "
        "sets a meter between its seed and its cap, $10,000–$20,000\n"
    )
    made = adjust("20000", *rule, "--supervisor", "S1", "--pin", PIN, "--json")
    assert json.loads(made.stdout) == {
        "record_id": 2,
        "table": "PG-1",
        "meter": "progressive_treasure",
        "value": 20000,
    }


def put_meter(db: Path | str, value: str) -> None:
    """A meter record as an older version could write it: any finite number, signed by the
    supervisor (an unsigned one is explained by nothing, and refused as such)."""
    with open_log(db) as log:
        supervised(
            log,
            "S1",
            PIN,
            "meter-adjust",
            lambda tx, sup: tx.append(
                Entry(
                    kind="meter",
                    user_id="S1",
                    role="supervisor",
                    table_id="PG-1",
                    action="adjust",
                    result={"meter": "progressive_treasure", "previous": None, "value": value},
                    reason="older version",
                )
            ),
            table_id="PG-1",
        )


@pytest.mark.parametrize(
    ("stored", "shown"),
    [
        ("1E+400", "$1E+400"),
        ("0.001", "$0.00"),
        ("-5", "-$5"),
        ("250000.01", "$250,000.01"),
    ],
)
def test_a_stored_meter_no_ruling_can_pay_from_is_refused_until_a_supervisor_sets_it(
    db: Path | str, stored: str, shown: str
) -> None:
    put_meter(db, stored)
    before = head(db)
    refused = settle()
    assert (refused.exit_code, refused.stdout) == (1, "")
    assert json.loads(refused.stderr) == {
        "error": f"the progressive_treasure meter at table PG-1 holds {shown}, which no ruling "
        "can pay from (a meter holds whole cents from $0 to its cap, $250,000): a supervisor "
        "sets it again with dealer audit meter adjust",
        "exit": 1,
    }
    assert head(db) == before
    assert meters_before(settle("PG-2"))["progressive_treasure"] == 10000  # other tables rule on
    assert adjust("12000").exit_code == 0
    assert meters_before(settle())["progressive_treasure"] == 12000


def test_a_stored_meter_below_its_seed_is_paid_from(db: Path | str) -> None:
    put_meter(db, "9000.00")  # a percentage hit leaves a meter below its seed
    assert meters_before(settle())["progressive_treasure"] == 9000


def test_a_stored_meter_that_is_no_number_is_a_damaged_record(db: Path | str) -> None:
    put_meter(db, "lots")
    refused = settle()
    assert (refused.exit_code, json.loads(refused.stderr)) == (
        1,
        {
            "error": "audit record 2 is damaged: meter progressive_treasure at table PG-1 holds "
            "'lots', which is not a number",
            "exit": 1,
        },
    )


def test_the_live_table_keeps_its_round_when_a_stored_meter_is_refused(db: Path | str) -> None:
    put_meter(db, "1E+400")
    before = head(db)
    result = run(
        "table",
        "--table",
        "PG-1",
        "--user",
        "d-104",
        stdin=f"{DEALER}\n1 {PLAYER} base 10 pt 1\nsettle\nshow\n",
    )
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        "Error: line 3: the progressive_treasure meter at table PG-1 holds $1E+400, which no "
        "ruling can pay from (a meter holds whole cents from $0 to its cap, $250,000): a "
        "supervisor sets it again with dealer audit meter adjust (the round is kept: settle "
        "again, or undo)",
        "Error: the input ended with round 1 not settled (the dealer's cards and 1 seat): "
        "nothing is recorded "
        "for it",
    ]
    assert "seat 1" in result.stdout  # `show` after the refusal still shows the round
    assert head(db) == before


def test_the_bounds_are_as_documented() -> None:
    from dealer.audit.disputes import AMOUNT_LIMIT
    from dealer.games.paigow.profile import load_profile
    from dealer.kernel.money import fmt_money

    readme = (Path(__file__).parents[1] / "README.md").read_text(encoding="utf-8")
    default = load_profile()
    assert {n: MeterRange(m.seed, m.cap) for n, m in default.meters.items()} == RANGES
    for shown in ("$5,000–$100,000", "$10,000–$250,000", "at most $10,000,000 either way"):
        assert shown in readme
    assert fmt_money(AMOUNT_LIMIT) == "$10,000,000"


# -- what explains a ruling's move ---------------------------------------------------------------

SETTINGS = {"meters": {"progressive_treasure": {"seed": 10000, "cap": 250000}}}


def straight_flush(**changes: object) -> dict[str, object]:
    """A settle's result as a ruling records it: $1 on the progressive treasure, the meter at
    $10,000 taking a $0.25 contribution (`added`) and paying 100%, reset to its seed; `changes`
    to the hit."""
    added = changes.pop("added", 0.25)
    hit = {
        "meter": "progressive_treasure",
        "before": 10000.25,
        "paid": 10000.25,
        "after": 10000,
        "reset": True,
        "returned_by_cap": 0,
    } | changes
    return {
        "bonuses": [{"wager": "progressive_treasure", "amount": 1}],
        "meters": {
            "before": {"progressive_treasure": 10000},
            "contributions": {"progressive_treasure": added},
            "after": {"progressive_treasure": 10000},
        },
        "progressive_hits": [hit],
    }


@pytest.mark.parametrize(
    ("result", "previous", "value", "problem"),
    [
        (straight_flush(), Decimal(10000), Decimal(10000), None),
        (straight_flush(), None, Decimal(10000), None),
        (straight_flush(), Decimal(10000), Decimal(250000), "the ruling left it at $10,000"),
        (
            straight_flush(),
            Decimal(9000),
            Decimal(10000),
            "the ruling ruled from $10,000, not from $9,000",
        ),
        (
            straight_flush(added=2),
            Decimal(10000),
            Decimal(10000),
            "the ruling's contribution $2 is more than its wagers on it",
        ),
        (
            straight_flush(after=250000),
            Decimal(10000),
            Decimal(10000),
            "a hit of it takes the meter from $10,000.25 to $250,000 and returns $0 of "
            "$10,000.25 paid",
        ),
        (
            straight_flush(reset=False, after=9000),
            Decimal(10000),
            Decimal(10000),
            "the ruling's $10,000 + contributions $0.25 and its hits do not come to $10,000",
        ),
    ],
)
def test_what_explains_a_rulings_move(
    result: dict[str, object], previous: Decimal | None, value: Decimal, problem: str | None
) -> None:
    """A ruling explains its move when it ruled from the meter's value, left it at the move's
    value, contributed no more than its wagers on it, and its hits (none raising the meter but
    a reset to the seed) add up (`meters.ruling_problem`)."""
    found = meters.ruling_problem(result, SETTINGS, "progressive_treasure", previous, value)
    assert found == problem
