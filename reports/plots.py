"""Plots of the report tables.  Each function draws on an ``Axes`` it is given.

>>> from matplotlib.figure import Figure                      # doctest: +SKIP
>>> fig = Figure(figsize=(8, 4)); ax = fig.add_subplot()       # doctest: +SKIP
>>> riichi_outcomes(ax, tables.riichi)                         # doctest: +SKIP
>>> fig.savefig("riichi.svg")                                  # doctest: +SKIP

Nothing here calls ``pyplot`` or shows a window: callers own their figures.
:func:`render_all` makes every plot of a :class:`~kansa.reports.tables.Tables` as
PNG or SVG bytes, for the CLI and the HTML report.
"""

from __future__ import annotations

import io
import warnings
from collections.abc import Iterator
from contextlib import contextmanager

import matplotlib as mpl
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.ticker import FuncFormatter, MaxNLocator, PercentFormatter

from kansa.reports import fonts
from kansa.reports.ledger import REASONS
from kansa.reports.metrics import with_table_size
from kansa.reports.tables import OUTCOMES, Tables

OUTCOME_COLORS = {
    "tsumo": "#2e7d32", "ron": "#66bb6a", "dealt_in": "#c62828", "other_won": "#8d6e63",
    "exhaustive_draw": "#90a4ae", "abortive_draw": "#cfd8dc", "unfinished": "#eeeeee",
}
PLACE_COLORS = ("#1565c0", "#64b5f6", "#ffb74d", "#e65100")


@contextmanager
def style(text: str = "") -> Iterator[None]:
    """Fonts that have the glyphs of ``text`` (player names, titles) where installed;
    otherwise one line on standard error naming the font to install, and no
    matplotlib warning per missing glyph."""
    family, missing = fonts.families(text)
    fonts.tell_missing(missing)
    with mpl.rc_context({"font.family": family, "svg.fonttype": "path",
                         "svg.hashsalt": "kansa"}), warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=r"Glyph \d+ .*missing from")
        yield


def _empty(ax: Axes, title: str, why: str) -> Axes:
    ax.set_title(title)
    ax.text(0.5, 0.5, why, ha="center", va="center", transform=ax.transAxes, color="#666666")
    ax.set_xticks([])
    ax.set_yticks([])
    return ax


def score_progression(ax: Axes, player_hands: pd.DataFrame, game: str, *,
                      highlight: str | None = None, title: str | None = None) -> Axes:
    """Each seat's score at the start of every hand of ``game``, and after the last one."""
    ph = player_hands[player_hands["game"] == game].sort_values(["hand", "seat"])
    title = title or "Score progression"
    if ph.empty:
        return _empty(ax, title, "no hands")
    labels = list(dict.fromkeys(ph["label"]))
    last = ph[ph["hand"] == ph["hand"].max()]
    for seat, rows in ph.groupby("seat"):
        ys = [*rows["start_score"].astype("Float64").tolist()]
        end = last.loc[last["seat"] == seat, "end_score"]
        xs = list(range(len(ys)))
        if len(end) and pd.notna(end.iloc[0]):
            ys.append(float(end.iloc[0]))
            xs.append(len(xs))
        name = str(rows["name"].iloc[0])
        bold = highlight is not None and name == highlight
        ax.plot(xs, [float(y) if pd.notna(y) else float("nan") for y in ys], marker="o",
                markersize=3, linewidth=2.6 if bold else 1.4, label=f"{seat}: {name}",
                zorder=3 if bold else 2)
    ticks = [*labels, "end"]
    ax.set_xticks(range(len(ticks)))
    ax.set_xticklabels(ticks, rotation=60 if len(ticks) > 10 else 0, fontsize=8)
    ax.axhline(25000, color="#bbbbbb", linewidth=0.8, zorder=1)
    ax.set_ylabel("points")
    ax.set_title(title)
    ax.legend(fontsize=8, loc="best")
    ax.grid(axis="y", alpha=0.3)
    return ax


def riichi_outcomes(ax: Axes, riichi: pd.DataFrame) -> Axes:
    """How riichi declarations ended: share of each outcome, with counts."""
    title = "Riichi outcomes"
    if riichi.empty:
        return _empty(ax, title, "no riichi declarations")
    counts = riichi["outcome"].value_counts().reindex(list(OUTCOMES), fill_value=0)
    counts = counts[counts > 0]
    total = int(counts.sum())
    shares = counts / total
    names = [str(o).replace("_", " ") for o in counts.index]
    bars = ax.barh(names, shares.to_numpy(dtype=float),
                   color=[OUTCOME_COLORS[str(o)] for o in counts.index])
    for bar, n in zip(bars, counts.to_numpy(), strict=True):
        ax.text(bar.get_width() + 0.005, bar.get_y() + bar.get_height() / 2, f"{int(n)}",
                va="center", fontsize=8)
    ax.invert_yaxis()
    ax.xaxis.set_major_formatter(PercentFormatter(1.0))
    ax.set_xlim(0, max(0.1, float(shares.max()) * 1.15))
    ax.set_title(f"{title} ({total} declarations)")
    ax.grid(axis="x", alpha=0.3)
    return ax


def placement_distribution(ax: Axes, seats: pd.DataFrame, *, top: int = 10) -> Axes:
    """Share of 1st-4th places for the ``top`` players with the most placed games.

    ``seats`` carries its games' ``players`` (the table size): a player's three- and
    four-player games make separate bars, labelled ``3p`` and ``4p`` when both sizes
    are in the data, and the places run to the largest table's.
    """
    title = "Placement distribution"
    placed = seats[seats["placement"].notna()]
    if placed.empty:
        return _empty(ax, title, "no game with final scores")
    sizes = placed["players"].astype(int)
    table = pd.crosstab([placed["name"], sizes], placed["placement"].astype(int))
    places = tuple(range(1, int(sizes.max()) + 1))
    table = table.reindex(columns=list(places), fill_value=0)
    games = table.sum(axis=1)
    chosen = games.sort_values(ascending=False, kind="stable").index[:top]
    shares = table.loc[chosen].div(games[chosen], axis=0)
    mixed = sizes.nunique() > 1
    labels = [f"{name}{f', {size}p' if mixed else ''} ({int(games[name, size])})"
              for name, size in chosen]
    left = pd.Series(0.0, index=chosen)
    for place, color in zip(places, PLACE_COLORS, strict=False):
        ax.barh(labels, shares[place].to_numpy(dtype=float), left=left.to_numpy(dtype=float),
                color=color, label=f"{place}{'stndrdth'[2 * min(place - 1, 3):][:2]}")
        left = left + shares[place]
    ax.invert_yaxis()
    ax.xaxis.set_major_formatter(PercentFormatter(1.0))
    ax.set_xlim(0, 1)
    ax.set_title(f"{title} (placed games per player)")
    ax.legend(ncols=len(places), fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.06),
              frameon=False)
    return ax


def tenpai_by_turn(ax: Axes, table: pd.DataFrame) -> Axes:
    """The share of hands tenpai by each turn (see :mod:`kansa.reports.tenpai`), one line
    per table size (labelled when there are both)."""
    title = "Tenpai rate by turn"
    if table.empty:
        return _empty(ax, title, "needs replayed tenpai facts\n(hand analysis, issue 4)")
    groups = list(table.groupby("players", sort=True))
    for size, curve in groups:
        ax.plot(curve["turn"].astype(int), curve["rate"].astype(float), marker="o",
                label=f"{size} players")
    if len(groups) > 1:
        ax.legend(fontsize=8)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.yaxis.set_major_formatter(PercentFormatter(1.0))
    ax.set_ylim(0, 1)
    ax.set_xlabel("turn (wall draws)")
    ax.set_title(title)
    ax.grid(alpha=0.3)
    return ax


def payments_by_reason(ax: Axes, payments: pd.DataFrame, *, player: str | None = None) -> Axes:
    """Points moved per payment reason; with ``player``, that player's net per reason."""
    title = "Payments by reason" if player is None else f"Net points by reason: {player}"
    if payments.empty:
        return _empty(ax, title, "no payments")
    if player is None:
        sums = payments.groupby("reason")["amount"].sum()
    else:
        got = payments[payments["payee_name"] == player].groupby("reason")["amount"].sum()
        paid = payments[payments["payer_name"] == player].groupby("reason")["amount"].sum()
        sums = got.sub(paid, fill_value=0)
    sums = sums.reindex([r for r in REASONS if r in sums.index])
    values = sums.to_numpy(dtype=float)
    colors = ["#2e7d32" if v >= 0 else "#c62828" for v in values]
    ax.bar(list(sums.index), values, color=colors if player else "#1565c0")
    ax.set_xticks(range(len(sums)))
    ax.set_xticklabels(list(sums.index), rotation=30, ha="right", fontsize=8)
    ax.axhline(0, color="#888888", linewidth=0.8)
    ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _pos: f"{v:,.0f}"))
    ax.set_ylabel("points")
    ax.set_title(title)
    ax.grid(axis="y", alpha=0.3)
    return ax


PLOTS = ("score_progression", "riichi_outcomes", "placement_distribution", "tenpai_by_turn",
         "payments_by_reason")
"""The plots :func:`render_all` makes, by file stem."""


def draw(name: str, tables: Tables, *, game: str | None = None,
         player: str | None = None) -> Figure:
    """A new figure with the plot ``name`` (one of :data:`PLOTS`) drawn from ``tables``."""
    seats = with_table_size(tables.seats, tables.games)
    if name == "placement_distribution":
        placed = seats[seats["placement"].notna()]
        n = min(10, max(1, len(placed[["name", "players"]].drop_duplicates())))
        fig = Figure(figsize=(8, 1.4 + 0.38 * n), layout="constrained")
    else:
        fig = Figure(figsize=(8, 4.2), layout="constrained")
    ax = fig.add_subplot()
    if name == "score_progression":
        key = game if game is not None else first_game(tables)
        title = None
        if key is not None:
            t = tables.games.loc[tables.games["game"] == key, "title"]
            title = f"Score progression: {t.iloc[0]}" if len(t) else None
        score_progression(ax, tables.player_hands, key or "", highlight=player, title=title)
    elif name == "riichi_outcomes":
        riichi_outcomes(ax, tables.riichi)
    elif name == "placement_distribution":
        placement_distribution(ax, seats if player is None
                               else seats[seats["name"] == player])
    elif name == "tenpai_by_turn":
        tenpai_by_turn(ax, tables.extra.get("tenpai_by_turn", pd.DataFrame()))
    elif name == "payments_by_reason":
        payments_by_reason(ax, tables.payments, player=player)
    else:
        raise ValueError(f"unknown plot {name!r}; plots are {', '.join(PLOTS)}")
    return fig


def first_game(tables: Tables) -> str | None:
    games = tables.games["game"]
    return str(games.iloc[0]) if len(games) else None


def render(fig: Figure, fmt: str, dpi: int = 110) -> bytes:
    """The figure as ``png`` or ``svg`` bytes."""
    buf = io.BytesIO()
    fig.savefig(buf, format=fmt, dpi=dpi, metadata={"Date": None} if fmt == "svg" else None)
    return buf.getvalue()


def render_all(tables: Tables, fmt: str, *, game: str | None = None,
               player: str | None = None) -> dict[str, bytes]:
    """Every plot of :data:`PLOTS` as ``fmt`` bytes, by name."""
    shown = fonts.text_of([*tables.seats["name"], *tables.player_hands["name"],
                           *tables.games["title"], player])
    with style(shown):
        return {name: render(draw(name, tables, game=game, player=player), fmt)
                for name in PLOTS}
