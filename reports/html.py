"""The HTML report: one self-contained file a referee can hand over.

Inline CSS, plots as SVG ``data:`` images, tiles as CSS boxes with text; no
script, font, image or style sheet is fetched, and a Content-Security-Policy
forbids the page to fetch anything.  Every string that comes from a log
(player names, messages, file names) is escaped.

>>> page = render_html(tables, plots, files=3)     # doctest: +SKIP
"""

from __future__ import annotations

import base64
import json
import re
from collections.abc import Mapping, Sequence
from html import escape
from typing import Any

import pandas as pd

from kansa.replay.violations import Snapshot
from kansa.reports.metrics import METRICS, Metric
from kansa.reports.tables import Tables
from kansa.reports.tiles_html import CSS as TILE_CSS
from kansa.reports.tiles_html import snapshot_html

CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:"

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
               max_rows: int = 2000, headers: Mapping[str, str] | None = None) -> str:
    """A DataFrame as an escaped HTML table, at most ``max_rows`` rows."""
    kinds = kinds or {}
    headers = headers or {}
    text_cols = {c for c in df.columns if df[c].dtype == object or str(df[c].dtype)
                 in ("string", "str")}
    head = "".join(
        f'<th class="{"s" if c in text_cols else ""}">{escape(headers.get(c, str(c)))}</th>'
        for c in df.columns)
    body = []
    for row in df.head(max_rows).itertuples(index=False):
        cells = []
        for c, v in zip(df.columns, row, strict=True):
            text, missing = _fmt(v, kinds.get(c, ""))
            cls = " ".join(x for x in ("s" if c in text_cols else "", "na" if missing else "")
                           if x)
            cells.append(f'<td class="{cls}">{escape(text)}</td>')
        body.append("<tr>" + "".join(cells) + "</tr>")
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


def summary_html(tables: Tables, *, files: int, problems: Sequence[Mapping[str, Any]]) -> str:
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
        parts.append("<h3>Findings by rule</h3>" + table_html(by_rule))
    if problems:
        rows = pd.DataFrame([{"file": p.get("file", ""), "status": p.get("status", ""),
                              "reason": p.get("reason") or p.get("error") or ""}
                             for p in problems])
        parts.append("<h3>Files not in the statistics</h3>" + table_html(rows))
    return "".join(parts)


def finding_html(n: int, f: Mapping[str, Any], names: tuple[str, ...],
                 dealer: int | None) -> str:
    """One finding (a row of the findings table) with the table drawn as it was."""
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
    return (f'<article class="finding {sev}" id="finding-{n}"><header>'
            f'<span class="badge {sev}">{sev}</span> <code>{escape(str(f["rule"]))}</code> · '
            f'{" · ".join(where)}</header><p class="msg">{escape(str(f["message"]))}</p>'
            f'<p class="cite">{escape(str(f["citation"]))}{src}</p>{board}</article>')


def _present(value: Any) -> bool:
    return value is not None and not bool(pd.isna(value))


def findings_html(tables: Tables, *, limit: int) -> str:
    """Every finding, errors first, the first ``limit`` with their table state; read
    from the findings table alone, so a report can come from a results store."""
    dealers = {(g, lab): int(d) for g, lab, d in
               tables.hands[["game", "label", "dealer"]].itertuples(index=False)}
    names: dict[str, list[str]] = {}
    for g, seat, name in tables.seats[["game", "seat", "name"]].itertuples(index=False):
        row = names.setdefault(str(g), [])
        row.extend([""] * (int(seat) + 1 - len(row)))
        row[int(seat)] = "" if name is pd.NA or name is None else str(name)
    found = tables.findings
    if found.empty:
        return '<p class="note">No findings: every game replayed cleanly.</p>'
    order = sorted(range(len(found)), key=lambda i: found["severity"].iloc[i] != "error")
    rows: list[dict[str, Any]] = [{str(k): v for k, v in found.iloc[i].to_dict().items()}
                                  for i in order]
    parts = [finding_html(i, f, tuple(names.get(str(f["game"]), ())),
                          dealers.get((f["game"], f["hand"] if _present(f["hand"]) else "")))
             for i, f in enumerate(rows[:limit])]
    if len(rows) > limit:
        parts.append(f'<p class="note">{len(rows) - limit:,} more findings are listed '
                     "without their table state:</p>")
        rest = pd.DataFrame(rows[limit:])[["title", "rule", "severity", "hand", "turn", "seat",
                                           "message"]].rename(columns={"title": "game"})
        parts.append(table_html(rest))
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
                max_rows: int = 2000) -> str:
    """The whole page as a string.

    :param plots: SVG bytes by plot name (see :func:`kansa.reports.plots.render_all`).
    """
    who = f" · player {escape(player)}" if player else ""
    players = tables.extra.get("players", pd.DataFrame())
    sections = [
        ("summary", "Summary", summary_html(tables, files=files, problems=problems)),
        ("findings", f"Findings ({len(tables.findings):,})",
         findings_html(tables, limit=max_findings)),
        ("players", "Players", players_html(players) if len(players) else
         '<p class="note">No players.</p>'),
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
        f"<title>{escape(title)}</title><style>{CSS}{TILE_CSS}</style></head><body>"
        f"<header><h1>{escape(title)}</h1><p class=\"note\">{len(tables.games):,} games"
        f"{who} · made by {escape(generator)}</p><nav>{nav}</nav></header>"
        f"<main>{body}</main><footer>Made by kansa from the replayed logs; the full tables "
        "are written by <code>kansa stats</code>.</footer></body></html>\n")
