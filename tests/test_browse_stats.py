"""The browser's statistics pages in Chromium, against a log of three days of play dated by a
clock set for it (`browser.stats_log`): every figure is `dealer stats`'s, the chart's last
point is the row's (the series is the same computation over buckets), the pace adds up to the
row's rounds, the planted run is on the flags page with its rulings linked, and hostile ids, ids
with no rulings and bad ranges get the error pages the other pages give."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser import STATS_ROUNDS, Served, chromium, serving, stats_log
from cli import ok
from test_browse import fetch, needs_chromium

from dealer.cli.stats import cell, columns


@pytest.fixture(scope="module")
def log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("browse-stats") / "audit.sqlite"
    stats_log(path)
    return path


@pytest.fixture(scope="module")
def served(log: Path) -> Iterator[Served]:
    with serving(log, *STATS_ROUNDS) as running:
        yield running


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as context:
        yield context


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    opened = browser.new_page()
    yield opened
    opened.close()


def cli_rows(log: Path, group: str, *more: str) -> dict[str, dict[str, Any]]:
    """`dealer stats GROUP --json` by key."""
    printed = ok("stats", group, "--json", "--db", str(log), *STATS_ROUNDS, *more)
    key = {"tables": "table", "dealers": "user", "patrons": "patron"}[group]
    return {row[key]: row for row in json.loads(printed.stdout)[group]}


def figures(page: Any) -> dict[str, str]:
    """The figures table of a group's page (the first), by name."""
    rows = page.locator("table.figures").first.locator("tr").all_inner_texts()
    return dict(tuple(r.split("\t")) for r in rows)


@needs_chromium
def test_the_overview_is_dealer_stats_each_row_linked(served: Served, page: Any, log: Path) -> None:
    page.goto(f"{served.address}/-/dealer")
    page.get_by_role("link", name="Statistics").last.click()
    page.wait_for_url(f"{served.address}/-/dealer/stats")
    for group in ("tables", "dealers", "patrons"):
        shown = page.locator(f"h2#{group} + table tr").all_inner_texts()[1:]
        expected = [
            "\t".join(cell(n, row[n]) for n in columns(group))
            for _, row in sorted(cli_rows(log, group).items())
        ]
        assert shown == expected
    page.get_by_role("link", name="PG#FAIR").click()
    page.wait_for_url(f"{served.address}/-/dealer/stats/table/PG%23FAIR")
    assert page.locator("h1").inner_text() == "Statistics of table PG#FAIR"


@needs_chromium
def test_a_tables_page_is_its_row_and_its_charts_end_at_it(
    served: Served, page: Any, log: Path, tmp_path: Path
) -> None:
    row = cli_rows(log, "tables")["PG-HOT"]
    page.goto(f"{served.address}/-/dealer/stats/table/PG-HOT")
    shown = figures(page)
    for name in columns("tables")[1:]:
        assert shown[name.replace("_", " ")] == cell(name, row[name])
    low, high = row["interval"]
    assert shown["interval"] == f"{cell('wagered', low)} to {cell('wagered', high)}"
    points = page.locator("svg.result-chart circle.point")
    assert points.count() == 3  # a day each: March 3, 4 and 5
    last = points.last
    assert float(last.get_attribute("data-house-result")) == row["house_result"] == -300
    assert float(last.get_attribute("data-expected")) == row["expected_house_result"]
    assert [float(last.get_attribute(f"data-{x}")) for x in ("low", "high")] == [low, high]
    results = [float(p.get_attribute("data-house-result")) for p in points.all()]
    assert results == [-120, -180, -300]  # 12, 6 and 12 wins of $10, cumulated
    table = page.locator("table.series tr").all_inner_texts()
    assert table[-1].split("\t") == [
        "2025-03-06 00:00", "30", cell("house_result", row["house_result"]),
        cell("expected_house_result", row["expected_house_result"]),
        cell("wagered", low), cell("wagered", high),
    ]  # fmt: skip
    pace = [r.split("\t") for r in page.locator("table.pace tr").all_inner_texts()[1:]]
    assert pace == [
        ["09:00", "6", "1", "6.0"],
        ["10:00", "12", "2", "6.0"],
        ["11:00", "6", "1", "6.0"],
        ["14:00", "6", "1", "6.0"],
    ]
    assert sum(int(r[1]) for r in pace) == row["rounds"]
    bars = page.locator("svg.pace-chart rect.bar")
    assert bars.count() == 24
    assert (
        page.locator("svg.pace-chart rect.bar[data-hour='10']").get_attribute("data-per-hour")
        == "6.0"
    )
    page.screenshot(path=str(tmp_path / "table.png"), full_page=True)
    page.get_by_role("link", name="d-2").click()
    page.wait_for_url(f"{served.address}/-/dealer/stats/dealer/d-2")
    assert figures(page)["house result"] == cell("house_result", -300)
    page.get_by_role("link", name="P-LUCKY").click()
    page.wait_for_url(f"{served.address}/-/dealer/stats/patron/P-LUCKY")


@needs_chromium
def test_a_day_is_charted_by_hour(served: Served, page: Any, log: Path) -> None:
    row = cli_rows(log, "tables", "--period", "day", "--date", "2025-03-05")["PG#FAIR"]
    page.goto(f"{served.address}/-/dealer/stats/table/PG%23FAIR?period=day&date=2025-03-05")
    assert page.locator("input[name=period]").input_value() == "day"
    assert page.locator("form").get_attribute("action") == "/-/dealer/stats/table/PG%23FAIR"
    points = page.locator("svg.result-chart circle.point")
    assert [p.get_attribute("data-end") for p in points.all()] == [
        "2025-03-05 10:00",
        "2025-03-05 11:00",
    ]
    assert float(points.last.get_attribute("data-house-result")) == row["house_result"]
    assert float(points.last.get_attribute("data-expected")) == row["expected_house_result"]
    assert figures(page)["rulings"] == str(row["rulings"]) == "12"
    page.get_by_role("link", name="P-7").click()
    page.wait_for_url(f"{served.address}/-/dealer/stats/patron/P-7?period=day&date=2025-03-05")


@needs_chromium
def test_a_patrons_page_shows_their_demonstrated_play(served: Served, page: Any, log: Path) -> None:
    row = cli_rows(log, "patrons")["P-LUCKY"]
    page.goto(f"{served.address}/-/dealer/stats/patron/P-LUCKY")
    play = dict(tuple(r.split("\t")) for r in page.locator("h2#play + table tr").all_inner_texts())
    assert (row["own_hands"], row["best_share"], row["play_cost"]) == (30, 1.0, 0)
    assert play["own hands"] == "30" and play["best share"] == "1.0"
    assert play["play cost"] == "0.00" and play["theo source"] == row["theo_source"]
    assert play["theo"] == cell("theo", row["theo"])
    assert play["demonstrated edge"] == str(row["demonstrated_edge"])
    low, high = row["demonstrated_edge_interval"]
    assert play["demonstrated edge interval"] == f"{low} to {high}"
    points = page.locator("svg.result-chart circle.point")
    assert float(points.last.get_attribute("data-house-result")) == row["house_result"]


@needs_chromium
def test_the_flags_page_links_the_rulings_behind_each_flag(
    served: Served, page: Any, log: Path, tmp_path: Path
) -> None:
    printed = ok("stats", "flags", "--json", "--db", str(log), *STATS_ROUNDS)
    flags = json.loads(printed.stdout)["flags"]
    page.goto(f"{served.address}/-/dealer/stats/flags")
    rows = page.locator("tr.flag")
    assert rows.count() == len(flags) >= 3
    about = [r.split("\t")[:2] for r in rows.all_inner_texts()]
    assert ["table", "PG-HOT"] in about and ["dealer", "d-2"] in about
    assert ["patron", "P-LUCKY"] in about
    assert all(a[1] not in ("PG#FAIR", "d-4", "P-7") for a in about)
    hot = next(f for f in flags if f.get("table") == "PG-HOT")
    links = page.locator("tr.flag", has_text="PG-HOT").locator("td.rulings a")
    assert [a.get_attribute("href") for a in links.all()] == [
        f"/-/dealer/record/{i}" for i in hot["rulings"]
    ]
    page.screenshot(path=str(tmp_path / "flags.png"), full_page=True)
    links.first.click()
    page.wait_for_url(f"{served.address}/-/dealer/record/{hot['rulings'][0]}")
    assert page.locator("h1").inner_text().endswith("ruling paigow settle")


@needs_chromium
@pytest.mark.parametrize(
    ("path", "shown"),
    [
        ("table/%3Cscript%3Ealert(1)%3C%2Fscript%3E",
         "Error: table id '<script>alert(1)</script>' is not valid"),
        ("patron/P%22%3E%3Cb%3E'x", """Error: patron id 'P"><b>'x' is not valid"""),
    ],
)  # fmt: skip
def test_a_hostile_id_is_shown_as_text(served: Served, page: Any, path: str, shown: str) -> None:
    answer = page.goto(f"{served.address}/-/dealer/stats/{path}")
    assert answer.status == 400
    assert page.locator("p.message-error").inner_text().startswith(shown)
    assert page.locator("p.message-error *").count() == 0  # no element made of the id


@pytest.mark.parametrize(
    ("query", "status", "message"),
    [
        ("table/PG-NONE", 404, "there is no table PG-NONE in the statistics from the first "
         "record to now"),
        ("dealer/d-2?period=day&date=2025-03-04", 200, None),
        ("dealer/d-2?period=day&date=2025-03-07", 404, "there is no dealer d-2 in the statistics"),
        ("table/PG-HOT?period=week", 400, "--period &#39;week&#39; is not one of day, month, year"),
        ("table/PG-HOT?period=day&date=2025-13-01", 400,
         "--date &#39;2025-13-01&#39; is not a date"),
        ("flags?period=day&since=2025-03-03", 400, "give a period or since/until, not both"),
        ("?date=2025-03-03", 400, "date is the date of a period"),
        ("table/PG-HOT?since=2025-03-05&until=2025-03-04", 400,
         "--since &#39;2025-03-05&#39; is not before --until &#39;2025-03-04&#39;"),
        ("dealer/d%202", 400, "dealer &#39;d 2&#39; is not valid"),
    ],
)  # fmt: skip
def test_an_id_or_range_not_there_is_one_error_line(
    served: Served, query: str, status: int, message: str | None
) -> None:
    got, body = fetch(f"{served.address}/-/dealer/stats/{query}".replace("/?", "?"))
    assert got == status
    if message is not None:
        assert f'<p class="message-error">Error: {message}' in body
        assert "Traceback" not in body
