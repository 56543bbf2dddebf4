"""Every game's score progression as a small inline SVG: light enough for a report
of many games (about 1.5 kB a game, drawn as text in the page, no image data).

Each chart has the seats' scores at the start of every hand and after the last
one; the line's tooltip lists them, the legend gives each seat's final score.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from html import escape

import pandas as pd

COLORS = ("#1565c0", "#e65100", "#2e7d32", "#6a1b9a")
WIDTH, HEIGHT, PAD = 240, 96, 4

CSS = """
.games{display:grid;grid-template-columns:repeat(auto-fill,minmax(250px,1fr));gap:8px}
.games figure{padding:4px 6px}.games svg{display:block;width:100%;height:auto}
.games figcaption{white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
.games figure:target{outline:3px solid #1565c0}
.legend{font-size:11px;line-height:1.3}.legend i{display:inline-block;width:9px;height:9px;
 margin-right:3px}.legend b{font-weight:600}
"""


def game_anchor(game: str) -> str:
    """The page anchor of a game's chart (stable: from the game's key)."""
    return "game-" + hashlib.sha256(game.encode("utf-8")).hexdigest()[:12]


def _scores(ph: pd.DataFrame) -> tuple[list[str], dict[int, tuple[str, list[float | None]]]]:
    """The x labels and each seat's name and scores, start of every hand then the end."""
    ph = ph.sort_values(["hand", "seat"])
    labels = [*dict.fromkeys(str(x) for x in ph["label"]), "end"]
    last = ph[ph["hand"] == ph["hand"].max()]
    seats: dict[int, tuple[str, list[float | None]]] = {}
    for seat, rows in ph.groupby("seat", sort=True):
        ys: list[float | None] = [None if pd.isna(v) else float(v) for v in rows["start_score"]]
        end = last.loc[last["seat"] == seat, "end_score"]
        ys.append(float(end.iloc[0]) if len(end) and pd.notna(end.iloc[0]) else None)
        name = rows["name"].iloc[0]
        seats[int(str(seat))] = ("" if pd.isna(name) else str(name), ys)
    return labels, seats


def _points(ys: Sequence[float | None], low: float, high: float) -> str:
    step = (WIDTH - 2 * PAD) / max(1, len(ys) - 1)
    span = high - low or 1.0
    return " ".join(f"{PAD + i * step:.0f},{PAD + (high - y) / span * (HEIGHT - 2 * PAD):.0f}"
                    for i, y in enumerate(ys) if y is not None)


def chart(title: str, game: str, ph: pd.DataFrame, *, highlight: str | None = None) -> str:
    """One game's figure: the chart, its caption and the legend."""
    labels, seats = _scores(ph)
    values = [y for _, ys in seats.values() for y in ys if y is not None]
    if not values:
        return ""
    low, high = min(values), max(values)
    lines, legend = [], []
    for seat, (name, ys) in seats.items():
        color = COLORS[seat % len(COLORS)]
        bold = highlight is not None and name == highlight
        tip = escape(f"{seat}: {name}: " + ", ".join(
            f"{lab} {int(y):,}" for lab, y in zip(labels, ys, strict=True) if y is not None))
        lines.append(f'<polyline fill="none" stroke="{color}" stroke-width="{3 if bold else 1.5}"'
                     f' points="{_points(ys, low, high)}"><title>{tip}</title></polyline>')
        final = f"{int(ys[-1]):,}" if ys[-1] is not None else "–"
        who = f"<b>{escape(name)}</b>" if bold else escape(name)
        legend.append(f'<span><i style="background:{color}"></i>{who} {final}</span>')
    start = values[0]
    base = ""
    if low < start < high:
        y = PAD + (high - start) / (high - low) * (HEIGHT - 2 * PAD)
        base = (f'<line x1="0" x2="{WIDTH}" y1="{y:.0f}" y2="{y:.0f}" stroke="#ccc" '
                'stroke-dasharray="3 3"/>')
    return (f'<figure id="{game_anchor(game)}"><figcaption title="{escape(title)}">'
            f'{escape(title)} · {len(labels) - 1} hands</figcaption>'
            f'<svg viewBox="0 0 {WIDTH} {HEIGHT}">{base}{"".join(lines)}</svg>'
            f'<div class="legend">{" ".join(legend)}</div></figure>')


def progressions_html(games: pd.DataFrame, player_hands: pd.DataFrame, *,
                      highlight: str | None = None, limit: int = 2000) -> str:
    """A chart for each game of ``games`` (its ``game`` and ``title``), the first
    ``limit`` of them."""
    by_game = {str(g): rows for g, rows in player_hands.groupby("game", sort=False)}
    figs = [chart(str(title), str(game), by_game[str(game)], highlight=highlight)
            for game, title in games[["game", "title"]].head(limit).itertuples(index=False)
            if str(game) in by_game]
    more = ""
    if len(games) > limit:
        more = (f'<p class="note">Showing the first {limit:,} of {len(games):,} games; '
                "<code>kansa report --game GAME</code> draws any one of them in full.</p>")
    if not any(figs):
        return '<p class="note">No game has a hand with scores.</p>'
    return f'<div class="games">{"".join(figs)}</div>{more}'
