"""The report navigates: anchors, links to packets, every game's score progression,
the player's section and the inline script's hash; read from the page's HTML.

What a browser does with them (clicking, sorting, filtering, the page without
script) is in ``test_report_browser.py``.
"""

from __future__ import annotations

import base64
import hashlib
import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from report_games import sample_results

from kansa.cli import build_parser, main
from kansa.reporting import cmd_report, relative_to
from kansa.reports.html import finding_anchor, ordered_findings, render_html
from kansa.reports.links import finding_key
from kansa.reports.progressions import game_anchor
from kansa.reports.stats import build

ROOT = Path(__file__).resolve().parents[2]


class Page(HTMLParser):
    """The ids, links, scripts and the CSP of a page."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.ids: list[str] = []
        self.hrefs: list[str] = []
        self.scripts: list[str] = []
        self.csp = ""
        self._in_script = False
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if a.get("id"):
            self.ids.append(str(a["id"]))
        if tag == "a" and a.get("href") is not None:
            self.hrefs.append(str(a["href"]))
        if tag == "meta" and a.get("http-equiv") == "Content-Security-Policy":
            self.csp = str(a["content"])
        if tag == "script":
            self._in_script = True
            self.scripts.append("")

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._in_script = False

    def handle_data(self, data: str) -> None:
        if self._in_script:
            self.scripts[-1] += data


def page(*, player: str | None = None, **kw: Any) -> str:
    return render_html(build(sample_results(), player=player), {}, files=2, player=player,
                       **kw)


def test_the_csp_allows_exactly_the_inline_script_by_its_hash() -> None:
    p = Page(page())
    assert len(p.scripts) == 1
    digest = base64.b64encode(hashlib.sha256(p.scripts[0].encode()).digest()).decode()
    sources = dict(d.strip().split(" ", 1) for d in p.csp.split(";"))
    assert sources["script-src"] == f"'sha256-{digest}'"
    assert sources["default-src"] == "'none'"
    assert "unsafe-inline" not in sources["script-src"]


def test_every_in_page_link_has_its_anchor_and_ids_are_unique() -> None:
    p = Page(page())
    assert len(p.ids) == len(set(p.ids))
    local = [h[1:] for h in p.hrefs if h.startswith("#")]
    assert local and set(local) <= set(p.ids)


def test_rule_counts_link_to_the_first_finding_of_their_rule() -> None:
    html = page()
    summary = html[html.index('<section id="summary">'):html.index('<section id="findings">')]
    rows = re.findall(r'<tr><td class="s">([^<]+)</td><td class="s">(\w+)</td>'
                      r'<td class=""><a href="#([\w-]+)">(\d+)</a></td></tr>', summary)
    assert rows
    tables = build(sample_results())
    listed = ordered_findings(tables)
    for rule, severity, anchor, count in rows:
        mine = [f for f in listed if f["rule"] == rule and f["severity"] == severity]
        assert len(mine) == int(count)
        assert anchor == mine[0]["anchor"]
        article = re.search(rf'<article class="finding {severity}" id="{anchor}">.*?</article>',
                            html, re.S)
        assert article is not None and f"<code>{rule}</code>" in article.group(0)


def test_finding_anchors_are_stable_and_keys_name_file_game_and_index() -> None:
    tables = build(sample_results())
    listed = ordered_findings(tables)
    games = tables.games.set_index("game")
    for f in listed:
        g = games.loc[f["game"]]
        assert f["key"].startswith(f"{g['file']}#{int(g['index'])}.")
        assert f["anchor"] == finding_anchor(f["key"])
    assert finding_key("a/b.xml", 2, 5) == "a/b.xml#2.5"
    # the anchors do not depend on how many findings are drawn
    assert Page(page(max_findings=0)).ids.count(listed[0]["anchor"]) == 1
    few, many = Page(page(max_findings=0)), Page(page(max_findings=200))
    assert {f["anchor"] for f in listed} <= set(few.ids) & set(many.ids)


def test_each_finding_links_to_its_packet_when_given_links() -> None:
    listed = ordered_findings(build(sample_results()))
    links = {listed[0]["key"]: "packets/one.html"}
    p = Page(page(finding_links=links))
    assert p.hrefs.count("packets/one.html") == 1
    assert not any(h.startswith("packets/") for h in Page(page()).hrefs)
    rest = Page(page(finding_links=links, max_findings=0))  # listed in the table
    assert rest.hrefs.count("packets/one.html") == 1
    for bad in ("https://example.org/p.html", "/etc/p.html", "javascript:alert(1)"):
        with pytest.raises(ValueError, match="relative"):
            page(finding_links={listed[0]["key"]: bad})


def test_a_score_progression_for_every_game() -> None:
    tables = build(sample_results())
    html = page()
    games = html[html.index('<section id="games">'):html.index('<section id="plots">')]
    ids = re.findall(r'<figure id="(game-\w+)">', games)
    assert ids == [game_anchor(str(g)) for g in tables.games["game"]]
    assert games.count("<polyline") == 4 * len(ids)
    # each legend gives the seats' final scores
    finals = tables.seats.dropna(subset=["final_score"])
    for name, score in finals[["name", "final_score"]].itertuples(index=False):
        if "<" not in str(name):
            assert f"{name} {int(score):,}" in games
    assert len(games) / len(ids) < 3000  # light: bytes per game


def test_the_player_section_lists_their_games_and_findings() -> None:
    tables = build(sample_results(), player="Aki")
    html = page(player="Aki")
    assert Page(page()).ids.count("player") == 0
    section = html[html.index('<section id="player">'):html.index('<section id="players">')]
    assert "<h2>Player Aki</h2>" in section
    for g in tables.games["game"]:
        assert f'href="#{game_anchor(str(g))}"' in section
    mine = [f for f in ordered_findings(tables) if f["name"] == "Aki"]
    assert [f["rule"] for f in mine] == ["tiles.not-in-hand"]
    for f in mine:
        assert f'href="#{f["anchor"]}"' in section
    assert f"<b>{len(mine)}</b><span>findings on their seat" in section


def test_relative_to_the_reports_folder(tmp_path: Path) -> None:
    assert relative_to(str(tmp_path / "logs" / "a.xml"), tmp_path / "out") == "../logs/a.xml"
    assert relative_to("-", tmp_path) == "-"


def test_files_left_out_are_named_from_the_reports_folder(tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    logs.mkdir()
    (logs / "bad.xml").write_text("<mjloggm ver='2.3'><GO", encoding="utf-8")
    (tmp_path / "out").mkdir()
    out = tmp_path / "out" / "r.html"
    main(["report", str(logs), "-o", str(out), "-j", "1", "--progress", "never"])
    html = out.read_text(encoding="utf-8")
    table = html[html.index("Files not in the statistics"):]
    assert '<td class="s">../logs/bad.xml</td>' in table
    assert str(tmp_path) not in table


def test_the_cli_layer_passes_the_packet_links_through(tmp_path: Path) -> None:
    log = str(ROOT / "sample_logs" / "disputes" / "late-claim.mjson")
    out = tmp_path / "r.html"
    args = build_parser().parse_args(["report", log, "-o", str(out), "-j", "1",
                                      "--progress", "never"])
    cmd_report(args, {finding_key(log, 0, 0): "packets/late-claim-0.html"})
    assert Page(out.read_text(encoding="utf-8")).hrefs.count("packets/late-claim-0.html") == 1
