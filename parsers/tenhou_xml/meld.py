"""Decoder for the 16-bit meld code of Tenhou's ``<N who= m=>`` tag (FORMATS.md §A.6).

Bits 0-1 hold ``from``, the discarder *relative* to ``who`` (0 self, 1 shimocha,
2 toimen, 3 kamicha); the absolute seat is ``(who + from) % 4``, in sanma too.
The type is read in this order: bit 2 chi, bit 3 pon, bit 4 kakan, bit 5 nukidora,
otherwise a kan (daiminkan when ``from`` is not 0, else ankan).  Bits that no layout
uses are ignored, as every reference decoder does.

>>> meld = decode_meld(63647, who=1, aka=True)
>>> meld.kind, meld.target, [str(t) for t in meld.tiles], str(meld.called)
(<MeldKind.CHI: 'chi'>, 0, ['7s', '8s', '9s'], '9s')
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Final

from kansa.replay.tiles import Seat, Tile


class MeldKind(Enum):
    CHI = "chi"
    PON = "pon"
    KAKAN = "kakan"
    DAIMINKAN = "daiminkan"
    ANKAN = "ankan"
    NUKIDORA = "nukidora"


@dataclass(frozen=True, slots=True)
class Meld:
    """One decoded meld code.  Tiles are ordered by physical id, lowest first."""

    kind: MeldKind
    who: Seat
    """The caller."""
    target: Seat
    """Absolute seat the called tile came from (kakan: who fed the original pon);
    ``who`` itself for ankan and nukidora."""
    ids: tuple[int, ...]
    """Physical ids (0-135) of the whole meld: 3 for chi/pon, 4 for kans, 1 for nukidora."""
    tiles: tuple[Tile, ...]
    """``ids`` as tiles (red fives only when the game has them)."""
    consumed: tuple[Tile, ...]
    """What mjai lists as ``consumed``: the caller's own tiles for chi/pon/daiminkan,
    the three pon tiles for kakan, all four for ankan, the North for nukidora."""
    called: Tile | None = None
    """The tile taken from ``target`` (chi, pon, daiminkan; kakan: the pon's called tile)."""
    called_id: int | None = None
    added: Tile | None = None
    """Kakan only: the tile added to the pon."""
    added_id: int | None = None


def decode_meld(m: int, who: int, aka: bool) -> Meld:
    """Decode ``m`` of ``<N who=... m=...>``.

    ``aka`` says whether the game plays red fives (copy 0 of a five, ids 16/52/88).

    :raises ValueError: when ``m`` or ``who`` is out of range, or ``m`` does not
        decode to a meld (chi base past 7s, a kind past chun, a call from oneself,
        a tile id past 135, a nukidora that is not a North).
    """
    if not 0 <= m <= 0xFFFF:
        raise ValueError(f"meld code {m} is not a 16-bit value")
    if not 0 <= who <= 3:
        raise ValueError(f"meld caller seat {who} is not 0-3")
    rel = m & 3
    caller = Seat(who)
    target = Seat((who + rel) % 4)
    if m & 0x4:
        return _chi(m, caller, target, rel, aka)
    if m & 0x18:
        return _pon_or_kakan(m, caller, target, rel, aka)
    if m & 0x20:
        tile_id = m >> 8
        if not 120 <= tile_id <= 123 or rel != 0:
            raise ValueError(f"meld code {m} is a nukidora of tile id {tile_id}, not a North")
        north = (Tile.NORTH,)
        return Meld(kind=MeldKind.NUKIDORA, who=caller, target=caller, ids=(tile_id,),
                    tiles=north, consumed=north)
    return _kan(m, caller, target, rel, aka)


_TILE_BY_ID: Final[dict[bool, tuple[Tile, ...]]] = {
    aka: tuple(Tile.from_tenhou_id(i, aka) for i in range(136)) for aka in (False, True)}


def _tiles(ids: tuple[int, ...], aka: bool) -> tuple[Tile, ...]:
    table = _TILE_BY_ID[aka]
    return tuple([table[i] for i in ids])


def _chi(m: int, who: Seat, target: Seat, rel: int, aka: bool) -> Meld:
    if rel == 0:
        raise ValueError(f"meld code {m} is a chi from the caller's own seat")
    base6 = m >> 10
    called = base6 % 3
    base = base6 // 3  # suit * 7 + start
    if base >= 21:
        raise ValueError(f"meld code {m} is a chi with base {base} past 7s (max 20)")
    suit, start = divmod(base, 7)
    ids = tuple((suit * 9 + start + i) * 4 + ((m >> (3 + 2 * i)) & 3) for i in range(3))
    tiles = _tiles(ids, aka)
    return Meld(kind=MeldKind.CHI, who=who, target=target, ids=ids, tiles=tiles,
                consumed=tiles[:called] + tiles[called + 1:],
                called=tiles[called], called_id=ids[called])


def _pon_or_kakan(m: int, who: Seat, target: Seat, rel: int, aka: bool) -> Meld:
    if rel == 0:
        raise ValueError(f"meld code {m} is a pon from the caller's own seat")
    base7 = m >> 9
    called = base7 % 3
    kind = base7 // 3
    if kind >= 34:
        raise ValueError(f"meld code {m} names tile kind {kind} (max 33)")
    other = (m >> 5) & 3  # pon: the copy not used; kakan: the copy added
    pon_ids = tuple(kind * 4 + c for c in range(4) if c != other)
    pon_tiles = _tiles(pon_ids, aka)
    if m & 0x8:
        return Meld(kind=MeldKind.PON, who=who, target=target, ids=pon_ids, tiles=pon_tiles,
                    consumed=pon_tiles[:called] + pon_tiles[called + 1:],
                    called=pon_tiles[called], called_id=pon_ids[called])
    added_id = kind * 4 + other
    ids = tuple(kind * 4 + c for c in range(4))
    return Meld(kind=MeldKind.KAKAN, who=who, target=target, ids=ids, tiles=_tiles(ids, aka),
                consumed=pon_tiles, called=pon_tiles[called], called_id=pon_ids[called],
                added=_TILE_BY_ID[aka][added_id], added_id=added_id)


def _kan(m: int, who: Seat, target: Seat, rel: int, aka: bool) -> Meld:
    tile_id = m >> 8
    if tile_id >= 136:
        raise ValueError(f"meld code {m} is a kan of tile id {tile_id} (max 135)")
    kind = tile_id // 4
    ids = tuple(kind * 4 + c for c in range(4))
    tiles = _tiles(ids, aka)
    if rel == 0:
        return Meld(kind=MeldKind.ANKAN, who=who, target=who, ids=ids, tiles=tiles,
                    consumed=tiles)
    at = tile_id % 4
    return Meld(kind=MeldKind.DAIMINKAN, who=who, target=target, ids=ids, tiles=tiles,
                consumed=tiles[:at] + tiles[at + 1:], called=tiles[at], called_id=tile_id)
