"""Dispute packets in headless Chromium: they load from the file alone, step with the
buttons and the keys to the finding, and highlight the tiles that decide it.

One packet for each dispute in ``sample_logs/disputes/`` and three for findings on
real games under ``--rules ema`` (skipped without the corpus); a full-page screenshot
of each is kept in ``test-output/``.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from browser import browser, open_page, screenshot  # noqa: F401  (browser: a fixture)

from kansa.cli import main
from kansa.reports.tiles_html import tiles_html

ROOT = Path(__file__).resolve().parents[2]
DISPUTES = sorted((ROOT / "sample_logs" / "disputes").glob("*.mjson"))
CORPUS_FINDINGS = [  # a win without a complete hand, a swap call, a scoring dispute with a seed
    "tenhou6/Equim-chan__mjai-reviewer/confusing_nakis_2.json",
    "mjai/gimite__mjai/kuikae.mjson",
    "tenhou_xml/Jim137__Tenhou-Paifu-Logger/2022060222gm-0001-0000-a87679bc&tw=3.mjlog",
]

DECIDING = """() => [...document.querySelectorAll('details.step.current .decide')].map(e => {
  const seat = Number(e.closest('tr') ? e.closest('tr').dataset.seat : -1);
  if (e.closest('.r')) return {seat, place: 'river', position: Number(e.closest('.r').dataset.pos),
                               tile: e.closest('.r').dataset.tile};
  if (e.closest('.h')) return {seat, place: 'hand', position: null,
                               tile: e.closest('.h').dataset.tile};
  if (e.classList.contains('wall')) return {seat: null, place: 'wall', position: null, tile: null};
  return {seat, place: 'melds', position: null, tile: null};
})"""


CELLS = """() => [...document.querySelectorAll('details.step.current tbody tr')].map(tr => ({
  hand: [...tr.querySelectorAll('td.hand .t')].map(t => t.title),
  river: [...tr.querySelectorAll('td.river .t')].map(t => t.title),
  melds: [...tr.querySelectorAll('td.melds .t')].map(t => t.title)}))"""


def _packet(log: Path, out: Path, rules: str) -> tuple[Path, dict[str, Any]]:
    page = out / f"{log.stem}.html"
    assert main(["explain", str(log), "--rules", rules, "-o", str(page), "--json"]) == 0
    return page, json.loads(Path(f"{page}.json").read_text(encoding="utf-8"))


def _titles(mpsz: str) -> list[str]:
    return re.findall(r'title="([^"]*)"', tiles_html(mpsz))


def _same_tiles(page: Any, state: dict[str, Any]) -> None:
    """The current step's table shows the state's tiles, seat by seat."""
    shown = page.evaluate(CELLS)
    for seat, hand in enumerate(state["hands"]):
        assert shown[seat]["hand"] == _titles(hand) + ["hidden tile"] * state["hidden"][seat]
        assert shown[seat]["river"] == [t for e in state["rivers"][seat]
                                        for t in _titles(e.rstrip("*>"))]
        assert shown[seat]["melds"] == [t for m in state["melds"][seat]
                                        for t in _titles(m.partition(":")[2])]
    assert page.inner_text("details.step.current .wall") == str(state["live_wall"])


def _step(opened: Any) -> int:
    return int(opened.page.get_attribute("body", "data-step"))


def _check(browser: Any, page_file: Path, doc: dict[str, Any], shot: str) -> None:  # noqa: F811
    opened = open_page(browser, page_file)
    page = opened.page
    finding = next(f for f in doc["findings"] if f["severity"] == "error")
    target, last = finding["step"], len(doc["steps"]) - 1
    assert _step(opened) == target  # the finding's step is opened first
    assert page.is_visible(f"#step-{target}") and page.is_visible("#controls")
    assert page.locator("details.step:visible").count() == 1
    assert page.get_attribute(f"#timeline li:nth-child({target + 1})", "class") == "mark"
    page.click("button[data-go=first]")
    assert _step(opened) == 0
    _same_tiles(page, doc["steps"][0]["state"])  # a table the script drew
    for _ in range(target):
        page.click("button[data-go=next]")
    assert _step(opened) == target
    page.click("button[data-go=last]")
    assert _step(opened) == last
    _same_tiles(page, doc["steps"][last]["state"])
    page.keyboard.press("Home")
    page.keyboard.press("ArrowLeft")  # stays on the first step
    assert _step(opened) == 0
    page.keyboard.press("End")
    for _ in range(last - target):
        page.keyboard.press("ArrowLeft")
    assert _step(opened) == target
    page.click("button[data-go=prev]")
    page.keyboard.press("ArrowRight")
    assert _step(opened) == target
    _same_tiles(page, doc["steps"][target]["state"])  # a table drawn in the page
    shown = page.evaluate(DECIDING)
    here = [d for f in doc["findings"] if f["step"] == target for d in f["deciding"]]
    want = sorted({(d["seat"] if d["place"] != "wall" else None, d["place"], d["position"],
                   d["tile"] if d["place"] in ("river", "hand") else None) for d in here})
    assert sorted((d["seat"], d["place"], d["position"], d["tile"]) for d in shown) == want, \
        (shown, here)
    assert want, "a finding with no deciding tiles"
    text = page.inner_text(f"#finding-{finding['number']}")
    assert finding["rule"] in text and finding["legal"]["text"] in text
    screenshot(opened, shot)
    assert not opened.errors, opened.errors
    assert not opened.requests, opened.requests
    page.context.close()


@pytest.mark.parametrize("log", DISPUTES, ids=lambda p: p.stem)
def test_dispute_packet_in_chromium(browser: Any, log: Path, tmp_path: Path) -> None:  # noqa: F811
    page_file, doc = _packet(log, tmp_path, "auto")
    _check(browser, page_file, doc, f"packet-{log.stem}.png")


def test_the_six_disputes_are_there() -> None:
    assert len(DISPUTES) == 6


@pytest.mark.corpus
@pytest.mark.parametrize("relative", CORPUS_FINDINGS, ids=lambda p: Path(p).stem[:24])
def test_corpus_packet_in_chromium(browser: Any, corpus_dir: Path, relative: str,  # noqa: F811
                                   tmp_path: Path) -> None:
    log = corpus_dir / relative
    if not log.is_file():
        pytest.skip(f"{relative} is not in the corpus")
    page_file, doc = _packet(log, tmp_path, "ema")
    _check(browser, page_file, doc, f"packet-corpus-{log.stem[:24]}.png")
    finding = next(f for f in doc["findings"] if f["severity"] == "error")
    if doc["wall_known"]:  # the log's seed gives the wall: its next tiles are on the page
        assert finding["wall"] and finding["wall"]["next"]


def test_a_packet_reads_without_script(browser: Any, tmp_path: Path) -> None:  # noqa: F811
    page_file, doc = _packet(DISPUTES[0], tmp_path, "auto")
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(page_file.resolve().as_uri())
    assert page.locator("details.step").count() == len(doc["steps"])
    assert not page.is_visible("#controls")  # the buttons need the script
    marked = {f["step"] for f in doc["findings"]}
    opened = {int(s) for s in page.eval_on_selector_all(
        "details.step[open]", "els => els.map(e => e.dataset.step)")}
    assert opened == marked
    context.close()
