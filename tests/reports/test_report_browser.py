"""The report navigates in headless Chromium: a rule count lands on its finding,
a column heading sorts its table, the filter box hides rows, and the page shows
every table with its script disabled; no console error and no request leaving
the file either way.  Skipped without Chromium (see ``test_report_html.py``).
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest
from headless import PageReport, find_browser, inspect_page
from report_games import sample_results

from kansa.reports.html import render_html
from kansa.reports.stats import build

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "test-output"

CLICK_SORT_FILTER = """(async () => {
  const frame = () => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
  const out = {};
  const a = document.querySelector('#summary table.data a[href^="#finding-"]');
  out.rule = a.closest('tr').cells[0].textContent;
  out.href = a.getAttribute('href');
  a.click();
  await frame();
  const t = document.querySelector(':target');
  out.hash = location.hash;
  out.target = t && t.id;
  out.top = t && Math.round(t.getBoundingClientRect().top);
  out.targetRule = t && t.querySelector('header code').textContent;
  const table = document.querySelector('#tables table.data');
  const heads = [...table.tHead.rows[0].cells];
  const col = heads.findIndex(c => c.textContent === 'value');
  const read = () => [...table.tBodies[0].rows].map(r => r.cells[col].textContent);
  out.before = read();
  heads[col].querySelector('button.sort').click();
  out.ascending = read();
  heads[col].querySelector('button.sort').click();
  out.descending = read();
  out.sortState = heads[col].getAttribute('aria-sort');
  const box = table.closest('details').querySelector('.tools input');
  box.value = 'E2';
  box.dispatchEvent(new Event('input'));
  const rows = [...table.tBodies[0].rows];
  out.shownHaveE2 = rows.filter(r => !r.hidden).map(r => r.textContent.includes('E2'));
  out.hidden = rows.filter(r => r.hidden).length;
  out.hiddenDrawn = rows.filter(r => r.hidden && r.offsetParent !== null).length;
  out.filters = document.querySelectorAll('.tools input').length;
  out.tables = document.querySelectorAll('table.data').length;
  return out;
})()"""

STATIC = """(() => {
  const rows = [...document.querySelectorAll('table.data tbody tr')];
  const link = document.querySelector('#summary table.data a[href^="#finding-"]');
  link.click();
  const target = document.querySelector(':target');
  return {
    landed: target !== null && '#' + target.id === link.getAttribute('href')
            && Math.abs(target.getBoundingClientRect().top) < 60,
    sections: [...document.querySelectorAll('main > section')].map(s => s.id),
    tables: document.querySelectorAll('table.data').length,
    rows: rows.length,
    undrawn: rows.filter(r => r.offsetParent === null
                         && !r.closest('details:not([open])')).length,
    charts: document.querySelectorAll('#games figure svg polyline').length,
    findings: document.querySelectorAll('article.finding').length,
    buttons: document.querySelectorAll('button.sort').length,
    filters: document.querySelectorAll('.tools').length,
  };
})()"""


def browser_or_skip() -> str:
    path = find_browser()
    if path is None and os.environ.get("KANSA_REQUIRE_CHROMIUM"):
        pytest.fail("KANSA_REQUIRE_CHROMIUM is set (as .ci/run does) but Chromium is missing")
    if path is None:
        pytest.skip("headless Chromium not found (apt-get install chromium, or set "
                    "KANSA_CHROMIUM); .ci/run installs it")
    return path


def assert_clean(report: PageReport) -> None:
    assert report.console_errors == []
    assert report.exceptions == []
    assert [u for u in report.requests if not u.startswith(("file:", "data:"))] == []


@pytest.fixture(scope="module")
def sample_page() -> Path:
    tables = build(sample_results(), player="Aki")
    OUT.mkdir(exist_ok=True)
    page = OUT / "report-navigation.html"
    page.write_text(render_html(tables, {}, files=2, player="Aki"), encoding="utf-8")
    return page


def _number(cell: str) -> float:
    return float(cell.replace(",", ""))


def test_click_sort_and_filter(sample_page: Path) -> None:
    report = inspect_page(browser_or_skip(), sample_page, CLICK_SORT_FILTER)
    (OUT / "report-navigation.png").write_bytes(report.screenshot)
    assert_clean(report)
    v: dict[str, Any] = report.value
    # the rule count lands on the first finding of its rule
    assert v["hash"] == v["href"] and v["target"] == v["href"][1:]
    assert v["targetRule"] == v["rule"]
    assert 0 <= v["top"] < 60
    # sorting by a number column: ascending, then descending, missing cells last
    assert sorted(v["ascending"]) == sorted(v["before"])
    for order, reverse in ((v["ascending"], False), (v["descending"], True)):
        numbers = [_number(c) for c in order if c != "–"]
        assert len(set(numbers)) >= 2
        assert numbers == sorted(numbers, reverse=reverse)
        assert order[len(numbers):] == ["–"] * (len(order) - len(numbers))
    assert v["ascending"] != v["descending"] and v["sortState"] == "descending"
    # the filter hides the rows without its text, and only those
    assert v["shownHaveE2"] and all(v["shownHaveE2"])
    assert v["hidden"] > 0 and v["hiddenDrawn"] == 0
    assert v["filters"] == v["tables"]


def test_without_script_every_table_is_there(sample_page: Path) -> None:
    browser = browser_or_skip()
    off = inspect_page(browser, sample_page, STATIC, scripts=False)
    on = inspect_page(browser, sample_page, STATIC)
    (OUT / "report-without-script.png").write_bytes(off.screenshot)
    assert_clean(off)
    assert_clean(on)
    v, w = off.value, on.value
    assert v["sections"] == w["sections"] == ["summary", "findings", "player", "players",
                                              "games", "plots", "tables"]
    assert v["buttons"] == v["filters"] == 0 and w["filters"] == w["tables"]
    for key in ("tables", "rows", "charts", "findings"):
        assert v[key] == w[key] > 0
    assert v["undrawn"] == 0
    assert v["landed"] is True and w["landed"] is True  # the links are plain anchors
    html = sample_page.read_text(encoding="utf-8")
    assert v["tables"] == len(re.findall(r'<table class="data">', html))
