"""Pay tables as data: the shipped files against the seed's cells, the schema checks (one
malformed file per kind of problem), operator tables, look-ups."""

import csv
from decimal import Decimal
from pathlib import Path

import pytest
import yaml

from dealer.games.paigow.events import EVENT_ORDER
from dealer.games.paigow.pay import Basis, Pay, PayKind
from dealer.games.paigow.paytables import (
    check_file,
    load_file,
    load_paytables,
    shipped_dir,
    shipped_paytables,
)
from dealer.inputs import InputFileError
from dealer.kernel.errors import PayTableError

DATA = Path(__file__).parent / "data"
ROOT = Path(__file__).parent.parent


def tables_in(folder: Path) -> int:
    """How many tables the pay-table files of `folder` hold, counted without the loader."""
    files = folder.glob("*.yaml")
    return sum(len(yaml.safe_load(f.read_text(encoding="utf-8"))["tables"]) for f in files)


SHIPPED_IDS = {
    "insurance": [f"PT-FLT-EC-PGI-0{i}" for i in range(1, 6)],
    "treasure": [f"PT-FLT-EC-ET-0{i}" for i in range(1, 9)],
    "envy": [f"E0{i}" for i in range(1, 9)],
    "progressive_insurance": [f"PT-BJS-EC-PGI-0{i}" for i in range(1, 6)],
    "progressive_treasure": [f"PT-BJS-EC-ET-0{i}" for i in range(1, 4)],
}
# How the seed prints a bare number: the appendix's own note.
BASIS = {
    "insurance": Basis.TO_ONE,
    "treasure": Basis.TO_ONE,
    "envy": Basis.FIXED,
    "progressive_insurance": Basis.FOR_ONE,
    "progressive_treasure": Basis.FOR_ONE,
}


def _rows(name: str) -> list[list[str]]:
    with open(DATA / name, encoding="utf-8") as f:
        rows = [r for r in csv.reader(f, delimiter="\t") if r and not r[0].startswith("#")]
    return rows[1:]


def seed_pay(cell: str, basis: str) -> Pay:
    """A cell as the seed prints it: `400`, `5,000`, `$1,000`, `10%`, `Push`, `Loss`, `N/A`."""
    words = {"Push": PayKind.PUSH, "Loss": PayKind.LOSS, "N/A": PayKind.NOT_OFFERED}
    if cell in words:
        return Pay(words[cell])
    if cell.endswith("%"):
        return Pay(PayKind.PERCENT, Decimal(cell[:-1]))
    if cell.startswith("$"):
        return Pay(PayKind.FIXED, Decimal(cell[1:].replace(",", "")))
    return Pay(PayKind(basis), Decimal(cell.replace(",", "")))


def test_every_table_of_the_seed_is_shipped() -> None:
    tables = shipped_paytables()
    assert {w: [t.id for t in tables if t.wager == w] for w in SHIPPED_IDS} == SHIPPED_IDS
    assert len(tables) == tables_in(shipped_dir())


def test_shipped_tables_are_the_seeds_cells() -> None:
    """Each shipped row, in order, has the seed's row label and the seed's pay."""
    tables = shipped_paytables()
    by_table: dict[str, list[tuple[str, str]]] = {}
    for table_id, label, cell in _rows("paytables_seed.tsv"):
        by_table.setdefault(table_id, []).append((label, cell))
    assert set(by_table) == set(tables.tables)
    for table_id, cells in by_table.items():
        table = tables.get(table_id)
        assert table.basis == BASIS[table.wager]
        assert [(r.label, r.pay) for r in table.rows] == [
            (label, seed_pay(cell, table.basis)) for label, cell in cells
        ], table_id


def test_shipped_rows_run_from_the_highest_event() -> None:
    for table in shipped_paytables():
        events = [r.event for r in table.rows]
        assert events == sorted(events, key=EVENT_ORDER.index), table.id


def test_shipped_files_have_no_problems() -> None:
    files = sorted(shipped_dir().glob("*.yaml"))
    assert files and [check_file(f) for f in files] == [[]] * len(files)


def test_shipped_dir_in_the_source_tree() -> None:
    assert shipped_dir() == ROOT / "paytables"


def test_row_for_takes_the_first_event_the_table_offers() -> None:
    et3 = shipped_paytables().get("PT-BJS-EC-ET-03")
    royal_ak = ["royal-flush-with-suited-ak", "royal-flush", "straight-flush", "flush"]
    assert et3.row("royal-flush-with-suited-ak").pay == Pay(PayKind.NOT_OFFERED)  # type: ignore[union-attr]
    row = et3.row_for(royal_ak)
    assert (
        row is not None
        and row.event == "royal-flush"
        and row.pay == Pay(PayKind.FIXED, Decimal(500))
    )
    et1 = shipped_paytables().get("PT-BJS-EC-ET-01")
    assert et1.row_for(royal_ak).event == "royal-flush-with-suited-ak"  # type: ignore[union-attr]
    assert et1.row_for(["flush", "straight"]) is None
    assert et1.row_for([]) is None


def test_a_loss_row_is_a_row() -> None:
    et2 = shipped_paytables().get("PT-FLT-EC-ET-02")
    row = et2.row_for(["three-pair"])
    assert row is not None and row.pay == Pay(PayKind.LOSS) and row.label == "3 Pair"


@pytest.mark.parametrize(
    ("pay", "text"),
    [
        (Pay(PayKind.TO_ONE, Decimal(5000)), "5,000 to 1"),
        (Pay(PayKind.TO_ONE, Decimal("2.5")), "2.5 to 1"),
        (Pay(PayKind.FOR_ONE, Decimal(250)), "250 for 1"),
        (Pay(PayKind.FIXED, Decimal(1000)), "$1,000"),
        (Pay(PayKind.FIXED, Decimal("7.50")), "$7.50"),
        (Pay(PayKind.PERCENT, Decimal(10)), "10% of the meter"),
        (Pay(PayKind.PUSH), "Push"),
        (Pay(PayKind.LOSS), "Loss"),
        (Pay(PayKind.NOT_OFFERED), "N/A"),
    ],
)
def test_pay_text(pay: Pay, text: str) -> None:
    assert pay.text() == text


def test_to_dict() -> None:
    d = shipped_paytables().get("PT-BJS-EC-PGI-01").to_dict()
    assert d["id"] == "PT-BJS-EC-PGI-01" and d["wager"] == "progressive_insurance"
    assert d["basis"] == "for-1" and d["notes"][0] == 'All odds shown above are "for 1."'
    assert d["rows"][1] == {
        "row": 2,
        "event": "9-high-pai-gow-two-tone",
        "label": "9-High two-tone",
        "kind": "percent-of-meter",
        "value": 10,
        "pays": "10% of the meter",
    }


@pytest.mark.parametrize("row", _rows("paytables_bad.tsv"), ids=lambda r: r[0])
def test_each_kind_of_schema_error_is_named(row: list[str]) -> None:
    name, problem = row
    path = DATA / "paytables_bad" / name
    problems = check_file(path)
    assert problems and problems[0].startswith(f"{path}: {problem}")
    with pytest.raises(PayTableError) as caught:
        load_file(path)
    assert str(caught.value).startswith(f"{path}: {problem}")
    with pytest.raises(PayTableError):
        load_paytables([path])


def test_every_bad_file_is_listed() -> None:
    listed = {r[0] for r in _rows("paytables_bad.tsv")}
    assert listed == {p.name for p in (DATA / "paytables_bad").glob("*.yaml")}


def test_all_problems_of_a_file_are_counted(tmp_path: Path) -> None:
    path = tmp_path / "two.yaml"
    path.write_text(
        "schema: 1\ntables:\n  - {id: T1, wager: treasure, basis: to-1, rows: "
        "[{event: flush, kind: to-1, value: 0}, {event: straight, kind: to-1}]}\n"
    )
    assert len(check_file(path)) == 2
    with pytest.raises(PayTableError, match=r"row 1 \(flush\).*\(and 1 more problem\)$"):
        load_file(path)


def test_an_unreadable_file_is_refused_not_checked(tmp_path: Path) -> None:
    missing = tmp_path / "missing.yaml"
    with pytest.raises(InputFileError, match=f"cannot read pay-table file {missing}: there is no"):
        check_file(missing)


def test_an_operator_directory_adds_tables() -> None:
    tables = load_paytables([DATA / "paytables_operator"])
    assert len(tables) == tables_in(shipped_dir()) + tables_in(DATA / "paytables_operator")
    house = tables.get("HOUSE-ET-01", "treasure")
    assert house.name == "Emperor's Treasure"  # the wager's name by default
    assert house.row("full-house").label == "Full House"  # type: ignore[union-attr]
    assert house.path.endswith("house-treasure.yaml")
    only = load_paytables([DATA / "paytables_operator"], shipped=False)
    assert list(only.tables) == ["HOUSE-ET-01"]


def test_an_id_defined_twice_is_refused() -> None:
    with pytest.raises(PayTableError, match="table PT-FLT-EC-ET-01: the id is already defined in"):
        load_paytables([DATA / "paytables_clash"])


def test_a_missing_directory_is_refused(tmp_path: Path) -> None:
    with pytest.raises(PayTableError, match="does not exist"):
        load_paytables([tmp_path / "nowhere"])


def test_unknown_id_and_wrong_wager() -> None:
    tables = shipped_paytables()
    with pytest.raises(PayTableError, match="unknown pay table 'PT-NOPE'"):
        tables.get("PT-NOPE")
    with pytest.raises(PayTableError, match="E01 is for Envy Bonus, not for Emperor's Treasure"):
        tables.get("E01", "treasure")
