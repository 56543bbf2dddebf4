"""The HTML report: one self-contained file a referee can hand over.

Inline CSS, plots as SVG ``data:`` images, each game's score progression as
inline SVG, tiles as CSS boxes with text; no script, font, image or style sheet
is fetched, and a Content-Security-Policy forbids the page to fetch anything and
allows one inline script (sorting and filtering the tables) by its hash.  The
page is whole without that script.  Every string that comes from a log (player
names, messages, file names) is escaped.

Each finding has a stable anchor (from its :func:`~kansa.reports.links.finding_key`),
the counts of the findings by rule link to them, and ``finding_links`` (finding
key to a relative address) adds a link from each finding to its dispute packet.

>>> page = render_html(tables, plots, files=3)     # doctest: +SKIP
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
from collections.abc import Mapping, Sequence
from html import escape
from typing import Any
from urllib.parse import urlsplit

import pandas as pd

from kansa.replay.violations import Snapshot
from kansa.reports import html_script, progressions
from kansa.reports.links import finding_key
from kansa.reports.metrics import METRICS, Metric
from kansa.reports.tables import Tables
from kansa.reports.tiles_html import CSS as TILE_CSS
from kansa.reports.tiles_html import snapshot_html

CSP = html_script.CSP

CSS = """
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans","Noto Sans CJK JP",
 sans-serif;margin:0;color:#1d1d1f;background:#f6f6f3}
header,main,footer{max-width:1180px;margin:0 auto;padding:0 20px}
header{padding-top:18px}h1{margin:.2em 0;font-size:26px}h2{margin-top:1.6em;
 border-bottom:2px solid #ddd;padding-bottom:.2em}
nav a{margin-right:1em}
.cards{display:flex;flex-wrap:wrap;gap:10px;margin:1em 0}
.card{background:#fff;border:1px solid #ddd;border-radius:6px;padding:8px 14px;min-width:96px}
.card b{display:block;font-size:22px}.card span{color:#666;font-size:12px}
table.data{border-collapse:collapse;background:#fff;font-size:12.5px;margin:.5em 0}
table.data th,table.data td{border:1px solid #ddd;padding:3px 7px;text-align:right;
 white-space:nowrap}
table.data th{background:#f0f0ec;position:sticky;top:0}
table.data td.s,table.data th.s{text-align:left}
td.na{color:#aaa}
.scroll{overflow:auto;max-height:560px;border:1px solid #ddd;display:inline-block;max-width:100%}
.finding{background:#fff;border:1px solid #ddd;border-left:6px solid #f9a825;border-radius:6px;
 padding:10px 14px;margin:12px 0}
.finding.error{border-left-color:#c62828}
.badge{display:inline-block;padding:1px 7px;border-radius:9px;font-size:12px;color:#fff;
 background:#f9a825}.badge.error{background:#c62828}
.finding header{padding:0;max-width:none;font-weight:600}.msg{margin:.4em 0}
.cite{color:#555;font-size:12px;margin:.2em 0}
table.state{border-collapse:collapse;margin-top:6px}
table.state th,table.state td{border-top:1px solid #eee;padding:4px 8px;text-align:left;
 vertical-align:middle}
table.state thead th{font-size:11px;color:#777;border:0}
table.state tr.focus{background:#fff8e1}
.score{font-weight:normal;font-size:12px;color:#555}.wind{color:#8b1a1a}
td.river{max-width:430px;white-space:normal}
.plots{display:flex;flex-wrap:wrap;gap:14px}
figure{background:#fff;border:1px solid #ddd;border-radius:6px;margin:0;padding:8px}
figure img{max-width:100%;height:auto;display:block}
figcaption{font-size:12px;color:#555}
details{margin:.6em 0}summary{cursor:pointer;font-weight:600}
.note{color:#555;font-size:13px}
footer{color:#777;font-size:12px;padding:24px 20px}
.finding:target{outline:3px solid #1565c0}table.data tr:target{background:#e3f2fd}
.finding header a{font-weight:normal;font-size:12px;margin-left:.6em}
"""


def _fmt(value: Any, kind: str) -> tuple[str, bool]:
    """Cell text and whether it is missing."""
    if value is None or (not isinstance(value, str) and pd.isna(value)):
        return "–", True
    if hasattr(value, "item"):  # numpy scalars from non-nullable columns
        value = value.item()
    if kind == "rate":
        return f"{float(value) * 100:.1f}%", False
    if kind == "average":
        return f"{float(value):,.2f}", False
    if isinstance(value, bool):
        return ("yes" if value else "no"), False
    if isinstance(value, int | float) and not isinstance(value, bool):
        return (f"{int(value):,}" if float(value).is_integer() else f"{value:,.2f}"), False
    return str(value), False


def table_html(df: pd.DataFrame, *, kinds: Mapping[str, str] | None = None,
               max_rows: int = 2000, headers: Mapping[str, str] | None = None,
               hrefs: Mapping[str, Sequence[str | None]] | None = None,
               row_ids: Sequence[str] | None = None) -> str:
    """A DataFrame as an escaped HTML table, at most ``max_rows`` rows.

    :param hrefs: by column, an address for each row's cell (in row order; ``None``
        for none): the cell's text becomes a link to it.
    :param row_ids: an anchor for each row, in row order.
    """
    kinds = kinds or {}
    headers = headers or {}
    hrefs = hrefs or {}
    text_cols = {c for c in df.columns if df[c].dtype == object or str(df[c].dtype)
                 in ("string", "str")}
    head = "".join(
        f'<th class="{"s" if c in text_cols else ""}">{escape(headers.get(c, str(c)))}</th>'
        for c in df.columns)
    body = []
    for n, row in enumerate(df.head(max_rows).itertuples(index=False)):
        cells = []
        for c, v in zip(df.columns, row, strict=True):
            text, missing = _fmt(v, kinds.get(c, ""))
            cls = " ".join(x for x in ("s" if c in text_cols else "", "na" if missing else "")
                           if x)
            href = hrefs[c][n] if c in hrefs else None
            shown = (f'<a href="{escape(href)}">{escape(text)}</a>' if href is not None
                     else escape(text))
            cells.append(f'<td class="{cls}">{shown}</td>')
        rid = f' id="{escape(row_ids[n])}"' if row_ids is not None else ""
        body.append(f"<tr{rid}>" + "".join(cells) + "</tr>")
    more = ""
    if len(df) > max_rows:
        more = (f'<p class="note">Showing the first {max_rows:,} of {len(df):,} rows; '
                "<code>kansa stats</code> writes the whole table as CSV and Parquet.</p>")
    return (f'<div class="scroll"><table class="data"><thead><tr>{head}</tr></thead>'
            f'<tbody>{"".join(body)}</tbody></table></div>{more}')


def _card(value: object, label: str) -> str:
    return f'<div class="card"><b>{escape(str(value))}</b><span>{escape(label)}</span></div>'


def wall_html(hands: pd.DataFrame) -> str:
    """A line on the hands' walls against the logs' shuffle seeds (see ``kansa wall``)."""
    counts = hands["wall"].value_counts() if "wall" in hands else pd.Series(dtype="Int64")
    if not counts.sum():
        return ""
    parts = [f"{int(counts.get('verified', 0)):,} verified tile by tile",
             f"{int(counts.get('mismatched', 0)):,} with a tile the wall did not give"]
    if counts.get("partial", 0):
        parts.append(f"{int(counts['partial']):,} verified in part")
    parts.append(f"{int(counts.get('no_seed', 0)):,} without a seed to verify")
    return f'<p class="note">Walls against the shuffle seed: {", ".join(parts)} (hands).</p>'


def summary_html(tables: Tables, *, files: int, problems: Sequence[Mapping[str, Any]],
                 listed: Sequence[Mapping[str, Any]] | None = None) -> str:
    """The counts, the findings by rule (each count links to the rule's first finding
    among ``listed``, the findings the page shows; default all) and the files left
    out (named as given in ``problems``)."""
    games = tables.games
    f = tables.findings
    errors = int((f["severity"] == "error").sum())
    warnings = int((f["severity"] == "warning").sum())
    cards = "".join([
        _card(f"{files:,}", "files"), _card(f"{len(games):,}", "games"),
        _card(f"{int(games['complete'].sum()):,}", "games played to the end"),
        _card(f"{len(tables.hands):,}", "hands"), _card(f"{len(tables.wins):,}", "wins"),
        _card(f"{len(tables.riichi):,}", "riichi declarations"),
        _card(f"{errors:,}", "errors"), _card(f"{warnings:,}", "warnings"),
    ])
    parts = [f'<div class="cards">{cards}</div>', wall_html(tables.hands)]
    unplaced = int((~games["placed"]).sum())
    if unplaced:
        parts.append(f'<p class="note">{unplaced} game(s) have no final scores (the log is '
                     "cut short): they are left out of placement statistics.</p>")
    if len(f):
        by_rule = f.groupby(["rule", "severity"]).size().reset_index(name="findings") \
            .sort_values(["findings", "rule"], ascending=[False, True])
        first: dict[tuple[str, str], str] = {}
        for row in (ordered_findings(tables) if listed is None else listed):
            first.setdefault((str(row["rule"]), str(row["severity"])), "#" + row["anchor"])
        links = [first.get((str(r), str(v))) for r, v in
                 by_rule[["rule", "severity"]].itertuples(index=False)]
        parts.append("<h3>Findings by rule</h3>"
                     + table_html(by_rule, hrefs={"findings": links}))
    if problems:
        rows = pd.DataFrame([{"file": p.get("file", ""), "status": p.get("status", ""),
                              "reason": p.get("reason") or p.get("error") or ""}
                             for p in problems])
        parts.append("<h3>Files not in the statistics</h3>" + table_html(rows))
    return "".join(parts)


def finding_anchor(key: str) -> str:
    """The page anchor of the finding with this key (stable: from the key alone)."""
    return "finding-" + hashlib.sha256(key.encode("utf-8")).hexdigest()[:12]


def ordered_findings(tables: Tables) -> list[dict[str, Any]]:
    """The findings as the page lists them (errors first, else in the table's order),
    each with its ``key`` (:func:`~kansa.reports.links.finding_key`) and ``anchor``."""
    found = tables.findings
    if found.empty:
        return []
    where = {str(g): (str(file), int(index)) for g, file, index in
             tables.games[["game", "file", "index"]].itertuples(index=False)}
    rows: list[dict[str, Any]] = []
    seen: dict[str, int] = {}
    for record in found.to_dict("records"):
        row = {str(k): v for k, v in record.items()}
        game = str(row["game"])
        n = seen.get(game, 0)
        seen[game] = n + 1
        file, index = where.get(game, (game, 0))
        row["key"] = finding_key(file, index, n)
        row["anchor"] = finding_anchor(row["key"])
        rows.append(row)
    return sorted(rows, key=lambda r: r["severity"] != "error")


def relative_href(href: str) -> str:
    """``href`` if it is a relative address (a packet beside the report), else a ValueError."""
    parts = urlsplit(href)
    if parts.scheme or parts.netloc or href.startswith(("/", "\\")):
        raise ValueError(f"a finding's link must be relative to the report: {href!r}")
    return href


def finding_html(f: Mapping[str, Any], names: tuple[str, ...], dealer: int | None, *,
                 packet: str | None = None, following: str | None = None) -> str:
    """One finding (a row of :func:`ordered_findings`) with the table drawn as it was,
    a link to its dispute packet and one to the next finding of the same rule."""
    sev = str(f["severity"])
    where = [escape(str(f["title"]))]
    if _present(f["hand"]):
        where.append(escape(str(f["hand"])))
    if _present(f["turn"]):
        where.append(f"turn {int(f['turn'])}")
    seat = int(f["seat"]) if _present(f["seat"]) else None
    if seat is not None:
        name = names[seat] if seat < len(names) else ""
        where.append(f"seat {seat} {escape(name)}")
    src = f" · source {escape(str(f['source']))}" if _present(f["source"]) else ""
    board = ""
    if _present(f["state"]):
        state = Snapshot.from_dict(json.loads(str(f["state"])))
        board = snapshot_html(state, names, dealer=dealer, focus=seat)
    links = f'<a href="#{f["anchor"]}" title="{escape(str(f["key"]))}">#</a>'
    if packet is not None:
        links += f'<a class="packet" href="{escape(relative_href(packet))}">dispute packet</a>'
    if following is not None:
        links += f'<a class="next" href="#{following}">next {escape(str(f["rule"]))}</a>'
    return (f'<article class="finding {sev}" id="{f["anchor"]}"><header>'
            f'<span class="badge {sev}">{sev}</span> <code>{escape(str(f["rule"]))}</code> · '
            f'{" · ".join(where)}{links}</header><p class="msg">{escape(str(f["message"]))}</p>'
            f'<p class="cite">{escape(str(f["citation"]))}{src}</p>{board}</article>')


def _present(value: Any) -> bool:
    return value is not None and not bool(pd.isna(value))


def findings_html(tables: Tables, *, limit: int, max_rows: int = 2000,
                  finding_links: Mapping[str, str] | None = None) -> str:
    """Every finding, errors first, the first ``limit`` with their table state and
    the next ``max_rows`` in a table; read from the findings table alone, so a report
    can come from a results store."""
    dealers = {(g, lab): int(d) for g, lab, d in
               tables.hands[["game", "label", "dealer"]].itertuples(index=False)}
    names: dict[str, list[str]] = {}
    for g, seat, name in tables.seats[["game", "seat", "name"]].itertuples(index=False):
        row = names.setdefault(str(g), [])
        row.extend([""] * (int(seat) + 1 - len(row)))
        row[int(seat)] = "" if name is pd.NA or name is None else str(name)
    rows = ordered_findings(tables)
    if not rows:
        return '<p class="note">No findings: every game replayed cleanly.</p>'
    links = finding_links or {}
    following: dict[str, str] = {}
    last: dict[str, str] = {}
    for f in reversed(rows):
        rule = str(f["rule"])
        if rule in last:
            following[f["anchor"]] = last[rule]
        last[rule] = f["anchor"]
    parts = [finding_html(f, tuple(names.get(str(f["game"]), ())),
                          dealers.get((f["game"], f["hand"] if _present(f["hand"]) else "")),
                          packet=links.get(f["key"]), following=following.get(f["anchor"]))
             for f in rows[:limit]]
    if len(rows) > limit:
        parts.append(f'<p class="note">{len(rows) - limit:,} more findings are listed '
                     "without their table state:</p>")
        rest_rows = rows[limit:]
        rest = pd.DataFrame(rest_rows)[["title", "rule", "severity", "hand", "turn", "seat",
                                        "message"]].rename(columns={"title": "game"})
        hrefs: dict[str, list[str | None]] = {}
        if links:
            rest["packet"] = ["dispute packet" if r["key"] in links else None
                              for r in rest_rows]
            hrefs["packet"] = [relative_href(links[r["key"]]) if r["key"] in links else None
                               for r in rest_rows]
        parts.append(table_html(rest, hrefs=hrefs, row_ids=[r["anchor"] for r in rest_rows],
                                max_rows=max_rows))
    return "".join(parts)


def player_html(tables: Tables, player: str, listed: Sequence[Mapping[str, Any]], *,
                max_rows: int = 2000) -> str:
    """The section on ``player`` (the tables narrowed to that player's games): their
    places, each game they played (linked to its score progression) and the findings
    on their seat (linked to the findings)."""
    seats = tables.seats[tables.seats["name"] == player]
    placed = seats["placement"].dropna().astype(int)
    mine = [f for f in listed if _present(f["name"]) and str(f["name"]) == player]
    cards = [_card(f"{seats['game'].nunique():,}", "games"),
             _card(f"{len(placed):,}", "games with final scores")]
    if len(placed):
        cards.append(_card(f"{placed.mean():.2f}", "average place"))
        cards += [_card(f"{int((placed == k).sum()):,}", f"{k}{suffix} places")
                  for k, suffix in ((1, "st"), (2, "nd"), (3, "rd"), (4, "th"))]
    cards.append(_card(f"{len(mine):,}", "findings on their seat"))
    first: dict[str, str] = {}
    count: dict[str, int] = {}
    for f in mine:
        first.setdefault(str(f["game"]), "#" + str(f["anchor"]))
        count[str(f["game"])] = count.get(str(f["game"]), 0) + 1
    games = seats.merge(tables.games[["game", "title", "hands"]], on="game", how="left")
    keys = [str(g) for g in games["game"]]
    games = games.assign(findings=[count.get(g, 0) for g in keys])[
        ["title", "seat", "final_score", "placement", "final_points", "hands", "findings"]]
    parts = [f'<div class="cards">{"".join(cards)}</div>',
             f"<h3>Games of {escape(player)}</h3>",
             table_html(games.rename(columns={"title": "game"}), max_rows=max_rows, hrefs={
                 "game": ["#" + progressions.game_anchor(g) for g in keys],
                 "findings": [first.get(g) for g in keys]})]
    if mine:
        rows = pd.DataFrame(mine)[["title", "hand", "turn", "rule", "severity", "message"]]
        parts += [f"<h3>Findings on {escape(player)}'s seat</h3>",
                  table_html(rows.rename(columns={"title": "game"}), max_rows=max_rows,
                             hrefs={"rule": ["#" + str(f["anchor"]) for f in mine]})]
    return "".join(parts)


def metric_kinds() -> dict[str, str]:
    return {m.name: m.kind for m in METRICS}


def definitions_html(metrics: Sequence[Metric] = METRICS) -> str:
    rows = pd.DataFrame([{
        "metric": m.name, "numerator": f"{m.numerator.name}: {m.numerator.description}",
        "denominator": (f"{m.denominator.name}: {m.denominator.description}"
                        if m.denominator is not None else "(total)"),
        "meaning": m.description} for m in metrics])
    return ("<details><summary>Metric definitions (numerator / denominator)</summary>"
            + table_html(rows) + "</details>")


def players_html(players: pd.DataFrame, *, max_rows: int = 500) -> str:
    rates = ["name", "players", "games", "placed_games", "hands"] + [
        m.name for m in METRICS if m.kind != "total"]
    nets = ["name", "players"] + [m.name for m in METRICS if m.kind == "total"]
    kinds = metric_kinds()
    return (table_html(players[rates], kinds=kinds, max_rows=max_rows)
            + definitions_html()
            + "<h3>Net points by payment reason</h3>"
            + table_html(players[nets], max_rows=max_rows))


def plots_html(plots: Mapping[str, bytes]) -> str:
    figs = []
    for name, svg in plots.items():
        size = re.search(rb'<svg[^>]*width="([\d.]+)pt"[^>]*height="([\d.]+)pt"', svg)
        dims = ""
        if size:
            w, h = (float(x) * 4 / 3 for x in size.groups())
            dims = f' width="{w:.0f}" height="{h:.0f}"'
        data = base64.b64encode(svg).decode("ascii")
        label = name.replace("_", " ")
        figs.append(f'<figure><img src="data:image/svg+xml;base64,{data}" alt="{escape(label)}"'
                    f'{dims}><figcaption>{escape(label)}</figcaption></figure>')
    return f'<div class="plots">{"".join(figs)}</div>'


def tables_html(tables: Tables, *, max_rows: int) -> str:
    hands = tables.hands.merge(tables.games[["game", "title"]], on="game", how="left")
    hands = hands[["title", "label", "dealer_name", "result", "winners", "loser", "value",
                   "turns", "riichi", "tenpai", "tenpai_source", "wall"]]
    riichi = tables.riichi.merge(tables.games[["game", "title"]], on="game", how="left")
    riichi = riichi[["title", "label", "name", "turn", "accepted", "tile", "chasing",
                     "chased", "waits", "live", "furiten", "good_shape", "outcome", "points"]]
    pay = tables.payments
    by_reason = pay.groupby("reason").agg(transfers=("amount", "size"),
                                          points=("amount", "sum")).reset_index()
    ledger = pay.merge(tables.games[["game", "title"]], on="game", how="left")[
        ["title", "label", "payer_name", "payee_name", "amount", "reason"]]
    return (
        f"<details open><summary>Hands ({len(hands):,})</summary>"
        f"{table_html(hands, max_rows=max_rows)}</details>"
        f"<details open><summary>Riichi declarations ({len(riichi):,})</summary>"
        f"{table_html(riichi, max_rows=max_rows)}</details>"
        f"<details open><summary>Payments by reason</summary>{table_html(by_reason)}</details>"
        f"<details><summary>Payments ledger ({len(ledger):,} transfers)</summary>"
        f"{table_html(ledger, max_rows=max_rows)}</details>")


def render_html(tables: Tables, plots: Mapping[str, bytes],
                *, files: int, problems: Sequence[Mapping[str, Any]] = (),
                player: str | None = None, title: str = "kansa report",
                generator: str = "kansa", max_findings: int = 200,
                max_rows: int = 2000, finding_links: Mapping[str, str] | None = None) -> str:
    """The whole page as a string.

    :param plots: SVG bytes by plot name (see :func:`kansa.reports.plots.render_all`).
    :param problems: the files left out, each with its ``file`` as the page names it.
    :param player: the player the tables were narrowed to: the page gets a section
        on that player.
    :param finding_links: a relative address for each finding's dispute packet, by
        finding key (:func:`kansa.reports.links.finding_key`).
    :raises ValueError: if an address of ``finding_links`` is not relative.
    """
    who = f" · player {escape(player)}" if player else ""
    players = tables.extra.get("players", pd.DataFrame())
    listed = ordered_findings(tables)[:max_findings + max_rows]
    sections = [
        ("summary", "Summary", summary_html(tables, files=files, problems=problems,
                                            listed=listed)),
        ("findings", f"Findings ({len(tables.findings):,})",
         findings_html(tables, limit=max_findings, max_rows=max_rows,
                       finding_links=finding_links)),
    ]
    if player is not None:
        sections.append(("player", f"Player {player}",
                         player_html(tables, player, listed, max_rows=max_rows)))
    sections += [
        ("players", "Players", players_html(players) if len(players) else
         '<p class="note">No players.</p>'),
        ("games", f"Score progressions ({len(tables.games):,} games)",
         progressions.progressions_html(tables.games, tables.player_hands, highlight=player,
                                        limit=max_rows)),
        ("plots", "Plots", plots_html(plots)),
        ("tables", "Tables", tables_html(tables, max_rows=max_rows)),
    ]
    nav = "".join(f'<a href="#{sid}">{escape(name.split(" (")[0])}</a>'
                  for sid, name, _ in sections)
    body = "".join(f'<section id="{sid}"><h2>{escape(name)}</h2>{html}</section>'
                   for sid, name, html in sections)
    return (
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        f'<meta http-equiv="Content-Security-Policy" content="{CSP}">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{escape(title)}</title><style>{CSS}{TILE_CSS}{progressions.CSS}"
        f"{html_script.CSS}</style></head><body>"
        f"<header><h1>{escape(title)}</h1><p class=\"note\">{len(tables.games):,} games"
        f"{who} · made by {escape(generator)}</p><nav>{nav}</nav></header>"
        f"<main>{body}</main><footer>Made by kansa from the replayed logs; the full tables "
        "are written by <code>kansa stats</code>.</footer>"
        f"<script>{html_script.SCRIPT}</script></body></html>\n")
