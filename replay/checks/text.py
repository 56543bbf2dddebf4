"""How hand checks write hands and waits in their messages."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from kansa.replay import hand
from kansa.replay.state import PlayerState
from kansa.replay.tiles import Tile, format_tiles


def hand_text(p: PlayerState, extra: Tile | None = None) -> str:
    """The concealed tiles in mpsz (plus ``extra``), then the melds: ``23m456p [pon 555z]``."""
    tiles = p.concealed_tiles()
    if extra is not None:
        tiles.append(extra)
    text = format_tiles(tiles) or "no tiles"
    for m in p.melds:
        text += f" [{m.type.value} {format_tiles(m.tiles)}]"
    return text


def shanten_text(counts: Sequence[int]) -> str:
    """``"2-shanten"``; for a count no hand has (a log that lost track of a hand, reported
    as ``tiles.hand-size``), the count itself."""
    n = sum(counts)
    if not hand.shanten_size(n):
        return f"{n} tiles, which no hand holds"
    return f"{hand.shanten(counts)}-shanten"


def kinds_text(kinds: Iterable[int]) -> str:
    """Kinds as tiles: ``3m 6m``; ``none`` when empty."""
    out = " ".join(Tile.from_index(k).mpsz for k in kinds)
    return out or "none"


def mask_kinds(mask: int) -> list[int]:
    return [k for k in range(34) if mask >> k & 1] if mask > 0 else []


def seat_name(seat: int) -> str:
    return f"seat {seat}"


def reading_text(form: str, pair: int | None, sets: Iterable[tuple[int, str]]) -> str:
    """One reading of a complete hand: ``55p 123m 123m 123m`` (the pair first)."""
    def group(k: int, n: int, step: int) -> str:
        t = Tile.from_index(k)
        return "".join(str(t.number + step * j) for j in range(n)) + t.suit

    if form != "standard" or pair is None:
        return form
    return " ".join([group(pair, 2, 0), *(group(k, 3, 1 if s == "seq" else 0) for k, s in sets)])
