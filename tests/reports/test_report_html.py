"""The HTML report: self-contained, escaped, and right when a browser draws it.

The browser tests load the page in headless Chromium (Debian's ``chromium``;
``.ci/run`` installs it) over the DevTools protocol, fail on any console
error, uncaught exception or request that leaves the file, check that the
findings, tables and images are there and drawn, and keep a full-page
screenshot in ``test-output/``.  Without Chromium they are skipped.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from headless import PageReport, find_browser, inspect_page
from report_games import EVIL, sample_results

from kansa.cli import main
from kansa.reports.html import render_html
from kansa.reports.html_script import SCRIPT
from kansa.reports.plots import PLOTS, render_all
from kansa.reports.stats import build

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "test-output"

PROBE = """(() => {
  const imgs = [...document.images];
  const cells = [...document.querySelectorAll('td, th')];
  return {
    sections: [...document.querySelectorAll('main > section')].map(s => s.id),
    findings: document.querySelectorAll('article.finding').length,
    boards: document.querySelectorAll('article.finding table.state').length,
    tiles: document.querySelectorAll('article.finding .t').length,
    tables: document.querySelectorAll('table.data').length,
    rows: document.querySelectorAll('table.data tbody tr').length,
    images: imgs.length,
    drawn: imgs.filter(i => i.complete && i.naturalWidth > 100).length,
    scripts: document.scripts.length,
    charts: document.querySelectorAll('#games figure svg').length,
    evilShownAsText: cells.some(c => c.textContent.includes(%s)),
    fitsWidth: document.documentElement.scrollWidth <= window.innerWidth,
  };
})()"""


def page_of_sample() -> str:
    results = sample_results()
    tables = build(results)
    return render_html(tables, render_all(tables, "svg"), files=2,
                       problems=[{"file": "x.bin", "status": "unreadable",
                                  "error": "<img src=x onerror=alert(1)>"}])


def test_page_is_self_contained_and_escaped() -> None:
    page = page_of_sample()
    assert page.count("<script>") == 1 and f"<script>{SCRIPT}</script>" in page
    assert EVIL not in page and "onerror=alert" not in page.replace("&lt;img src=x onerror", "")
    refs = re.findall(r'(?:src|href)="([^"]*)"', page)
    assert refs and all(r.startswith(("data:", "#")) for r in refs), refs
    assert 'http-equiv="Content-Security-Policy"' in page
    assert page.count('<img src="data:image/svg+xml;base64,') == len(PLOTS)
    assert page.count('class="finding ') == 2


def browser_or_skip() -> str:
    path = find_browser()
    if path is None and os.environ.get("KANSA_REQUIRE_CHROMIUM"):
        pytest.fail("KANSA_REQUIRE_CHROMIUM is set (as .ci/run does) but Chromium is missing")
    if path is None:
        pytest.skip("headless Chromium not found (apt-get install chromium, or set "
                    "KANSA_CHROMIUM); .ci/run installs it")
    return path


def load(page: Path, max_height: int = 16000) -> PageReport:
    browser = browser_or_skip()
    report = inspect_page(browser, page, PROBE % '\'<script>alert("x")</script>&amp;\'',
                          max_height=max_height)
    OUT.mkdir(exist_ok=True)
    (OUT / f"{page.stem}.png").write_bytes(report.screenshot)
    return report


def assert_clean(report: PageReport) -> None:
    assert report.console_errors == []
    assert report.exceptions == []
    external = [u for u in report.requests if not u.startswith(("file:", "data:"))]
    assert external == []


def test_report_in_chromium(tmp_path: Path) -> None:
    OUT.mkdir(exist_ok=True)
    page = OUT / "report.html"
    page.write_text(page_of_sample(), encoding="utf-8")
    report = load(page)
    assert_clean(report)
    v = report.value
    assert v["sections"] == ["summary", "findings", "players", "games", "plots", "tables"]
    assert v["findings"] == 2 and v["boards"] == 2 and v["tiles"] > 100
    assert v["tables"] >= 6 and v["rows"] > 20
    assert v["images"] == len(PLOTS) and v["drawn"] == len(PLOTS)
    assert v["scripts"] == 1
    assert v["charts"] == 2
    assert v["evilShownAsText"] is True
    assert v["fitsWidth"] is True
    assert report.screenshot.startswith(b"\x89PNG") and len(report.screenshot) > 50_000


@pytest.mark.corpus
def test_corpus_report_from_the_cli_in_chromium(corpus_dir: Path) -> None:
    browser_or_skip()
    OUT.mkdir(exist_ok=True)
    page = OUT / "corpus-report.html"
    assert main(["report", str(corpus_dir / "tenhou_xml"), "-o", str(page)]) == 0
    report = load(page, max_height=4000)
    assert_clean(report)
    v = report.value
    assert v["findings"] > 0 and v["images"] == v["drawn"] == len(PLOTS)
    assert v["fitsWidth"] is True
    games = re.search(r'<p class="note">([\d,]+) games', page.read_text(encoding="utf-8"))
    assert games is not None and v["charts"] == int(games.group(1).replace(",", "")) > 10


def test_the_browser_harness_sees_what_goes_wrong(tmp_path: Path) -> None:
    """The checks above would fail: a script error, a console error and a request out."""
    browser = browser_or_skip()
    bad = tmp_path / "bad.html"
    bad.write_text('<!doctype html><p>x</p><img src="http://127.0.0.1:9/x.png">'
                   '<script>console.error("boom"); undefinedFn();</script>', encoding="utf-8")
    report = inspect_page(browser, bad, "document.images.length")
    assert "boom" in report.console_errors
    assert any("undefinedFn" in e for e in report.exceptions)
    assert "http://127.0.0.1:9/x.png" in report.requests
    assert report.value == 1
