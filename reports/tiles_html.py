"""Tiles and table states as HTML: CSS boxes with text, no images or fonts.

>>> tiles_html("0m5z")
'<span class="t m red" title="red 5m">5<i>m</i></span><span class="t z haku" \
title="Haku (white dragon)"></span>'

Every string that comes from a log goes through :func:`html.escape`.
"""

from __future__ import annotations

from html import escape

from kansa.replay.tiles import Tile, parse_tiles
from kansa.replay.violations import Snapshot

HONORS = {
    Tile.EAST: ("E", "East"), Tile.SOUTH: ("S", "South"), Tile.WEST: ("W", "West"),
    Tile.NORTH: ("N", "North"), Tile.HAKU: ("", "Haku (white dragon)"),
    Tile.HATSU: ("F", "Hatsu (green dragon)"), Tile.CHUN: ("C", "Chun (red dragon)"),
}
WIND_LETTERS = ("E", "S", "W", "N")

CSS = """
.t{display:inline-flex;flex-direction:column;align-items:center;justify-content:center;
 box-sizing:border-box;width:1.55em;height:2.15em;margin:0 1px 2px 0;border:1px solid #9e9e9e;
 border-radius:3px;background:#fffdf4;box-shadow:0 2px 0 #d6cfb8;font:bold 15px/1 sans-serif;
 vertical-align:middle;color:#222}
.t i{font-style:normal;font-weight:normal;font-size:.58em;margin-top:1px}
.t.m{color:#8b1a1a}.t.p{color:#0d47a1}.t.s{color:#1b5e20}
.t.red{background:#ffe3e3;color:#d50000;border-color:#e57373}
.t.haku{box-shadow:inset 0 0 0 3px #fffdf4,inset 0 0 0 5px #5c8fd6,0 2px 0 #d6cfb8}
.t.hatsu{color:#1b5e20}.t.chun{color:#c62828}
.t.back{background:#2e7d32;border-color:#1b5e20;box-shadow:0 2px 0 #1b5e20}
.sm .t,.t.sm{font-size:11px}
.t.rot{transform:rotate(90deg);margin:0 .4em 2px .3em}
.t.gone{opacity:.35}
.meld{display:inline-block;margin-right:.6em;white-space:nowrap}
.meld small{display:block;font-size:10px;color:#666}
"""


def tile_html(tile: Tile, extra: str = "") -> str:
    """One tile as a ``<span>``; ``extra`` adds CSS classes (``rot``, ``gone``)."""
    cls = ["t", tile.suit]
    if tile.is_honor:
        letter, title = HONORS[tile.normal]
        if tile.normal is Tile.HAKU:
            cls.append("haku")
        elif tile.normal is Tile.HATSU:
            cls.append("hatsu")
        elif tile.normal is Tile.CHUN:
            cls.append("chun")
        body = escape(letter)
    else:
        title = f"red {tile.number}{tile.suit}" if tile.is_red else tile.mpsz
        if tile.is_red:
            cls.append("red")
        body = f"{tile.number}<i>{tile.suit}</i>"
    if extra:
        cls.append(extra)
    return f'<span class="{" ".join(cls)}" title="{escape(title)}">{body}</span>'


def back_html(n: int) -> str:
    """``n`` face-down tiles (a hand the log does not show)."""
    return '<span class="t back" title="hidden tile"></span>' * n


def tiles_html(mpsz: str) -> str:
    """A row of tiles from mpsz notation; unreadable text is shown escaped, as text."""
    try:
        return "".join(tile_html(t) for t in parse_tiles(mpsz))
    except ValueError:
        return f"<code>{escape(mpsz)}</code>"


def meld_html(meld: str) -> str:
    """A meld from the snapshot's ``type:tiles`` form (``pon:555z``)."""
    kind, _, tiles = meld.partition(":")
    return f'<span class="meld"><small>{escape(kind)}</small>{tiles_html(tiles)}</span>'


def river_html(river: tuple[str, ...]) -> str:
    """Discards in order: the riichi tile sideways, tiles called away faded."""
    out = []
    for entry in river:
        core = entry.rstrip("*>")
        extra = "rot" if "*" in entry else ("gone" if ">" in entry else "")
        try:
            out.append(tile_html(Tile.parse(core), extra))
        except ValueError:
            out.append(f"<code>{escape(entry)}</code>")
    return "".join(out)


def snapshot_html(state: Snapshot, names: tuple[str, ...], *, dealer: int | None,
                  focus: int | None) -> str:
    """The table at a finding: per seat the hand, melds and river; dora and wall."""
    rows = []
    for seat, hand in enumerate(state.hands):
        name = names[seat] if seat < len(names) else f"(seat {seat})"
        wind = WIND_LETTERS[(seat - dealer) % 4] if dealer is not None else ""
        score = (f"{state.scores[seat]:,}" if state.scores is not None
                 and seat < len(state.scores) else "")
        riichi = seat < len(state.riichi) and state.riichi[seat]
        hidden = state.hidden[seat] if seat < len(state.hidden) else 0
        melds = state.melds[seat] if seat < len(state.melds) else ()
        river = state.rivers[seat] if seat < len(state.rivers) else ()
        rows.append(
            f'<tr class="{"focus" if seat == focus else ""}">'
            f'<th><span class="wind">{escape(wind)}</span> {seat} {escape(name)}'
            f'<div class="score">{score}{" · riichi" if riichi else ""}</div></th>'
            f'<td class="hand">{tiles_html(hand)}{back_html(hidden)}</td>'
            f'<td class="melds">{"".join(meld_html(m) for m in melds)}</td>'
            f'<td class="river sm">{river_html(river)}</td></tr>')
    dora = "".join(tiles_html(d) for d in state.dora_markers)
    return (
        '<div class="board">'
        f'<p class="tableinfo">Dora indicators {dora} · live wall {state.live_wall} tiles</p>'
        '<table class="state"><thead><tr><th>seat</th><th>hand</th><th>melds</th>'
        '<th>discards</th></tr></thead><tbody>' + "".join(rows) + "</tbody></table></div>")
