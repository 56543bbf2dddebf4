"""Hand analysis: shanten, waits, complete-hand readings, kan during riichi.

Every function takes the **concealed** tiles as a 34-entry count list indexed by
kind (``Tile.index``: 0-8 man, 9-17 pin, 18-26 sou, 27-33 E S W N haku hatsu
chun).  Called melds are left out, so a hand with ``k`` melds has ``13 - 3k`` or
``14 - 3k`` concealed tiles, and the missing sets are taken as already made.
Counts are at most 4 (not checked, for speed).

>>> from kansa.replay.tiles import kind_counts, parse_tiles
>>> hand = kind_counts(parse_tiles("123m456p789s1122z"))
>>> shanten(hand), [Tile.from_index(k).mpsz for k in waits(hand)]
(0, ['1z', '2z'])

Standard hands, seven pairs and thirteen orphans are all recognised; seven pairs
and thirteen orphans only with no melds (13 or 14 concealed tiles).  Four of a
kind is one pair, not two, so ``1111m`` never counts toward seven pairs (as in
the ``mahjong`` package).

Speed comes from :mod:`kansa.replay.hand_tables`: each suit (and the honors) is looked
up by its count tuple in memoised tables, so after warm-up a call costs a few
dict lookups.  Nothing here depends on the ``mahjong`` package, which serves as
the tests' oracle.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Final, Literal

from kansa.replay import hand_tables as _t
from kansa.replay.tiles import YAOCHU, Tile, kind_counts

__all__ = [
    "Decomposition",
    "ankan_is_only_pung",
    "ankan_keeps_waits",
    "decompositions",
    "is_complete",
    "is_tenpai",
    "shanten",
    "shanten_of",
    "waits",
    "waits_mask",
    "waits_of",
]

Form = Literal["standard", "chiitoitsu", "kokushi"]
SetKind = Literal["seq", "pon"]

_YAOCHU_KINDS: Final = tuple(t.index for t in YAOCHU)
_YAOCHU_MASK: Final = sum(1 << k for k in _YAOCHU_KINDS)

_suit_info = _t.suit_info
_honor_info = _t.honor_info
_SUIT_INFO: Final = _t.SUIT_INFO
_HONOR_INFO: Final = _t.HONOR_INFO


def _total(counts: Sequence[int]) -> int:
    if len(counts) != 34:
        raise ValueError(f"expected 34 kind counts, got {len(counts)}")
    return sum(counts)


def shanten_size(n: int) -> bool:
    """Whether a hand of ``n`` tiles has a shanten number: 3k+1 or 3k+2, at most 14."""
    return n % 3 != 0 and n <= 14


# -- shanten ---------------------------------------------------------------------------


def shanten(counts: Sequence[int]) -> int:
    """Tiles away from tenpai: 0 is tenpai, -1 a complete hand.

    The minimum over the standard form, seven pairs and thirteen orphans (the last
    two only for 13 or 14 tiles).  A hand whose only waits are on a kind it holds
    four times is not tenpai (shanten 1).  Agrees with
    ``mahjong.shanten.Shanten.calculate_shanten``.

    >>> from kansa.replay.tiles import kind_counts, parse_tiles
    >>> shanten(kind_counts(parse_tiles("1111m234p567s888s")))
    1
    >>> shanten(kind_counts(parse_tiles("19m19p19s1234567z")))
    0

    :raises ValueError: if the tile count is a multiple of 3 or above 14, or the
        list does not have 34 entries.
    """
    n = _total(counts)
    if not shanten_size(n):
        raise ValueError(f"shanten needs 3n+1 or 3n+2 tiles (at most 14), got {n}")
    sd = _t.SUIT_DISTANCE
    k0 = tuple(counts[0:9])
    k1 = tuple(counts[9:18])
    k2 = tuple(counts[18:27])
    kz = tuple(counts[27:34])
    a = sd.get(k0)
    if a is None:
        a = _t.suit_distance(k0)
    b = sd.get(k1)
    if b is None:
        b = _t.suit_distance(k1)
    c = sd.get(k2)
    if c is None:
        c = _t.suit_distance(k2)
    z = _t.HONOR_DISTANCE.get(kz)
    if z is None:
        z = _t.honor_distance(kz)
    conv = _t.COMBINED
    ab = conv.get(a << 20 | b)
    if ab is None:
        ab = _t.conv_id(a, b)
    cz = conv.get(c << 20 | z)
    if cz is None:
        cz = _t.conv_id(c, z)
    total = conv.get(ab << 20 | cz)
    if total is None:
        total = _t.conv_id(ab, cz)
    best = _t.VECTORS[total][2 * (n // 3) + 1] - 1
    if n >= 13 and best >= 0:
        best = min(best, _chiitoitsu_shanten(counts), _kokushi_shanten(counts))
    return best


def _chiitoitsu_shanten(counts: Sequence[int]) -> int:
    empty = counts.count(0)
    pairs = 34 - empty - counts.count(1)
    if pairs == 7:
        return -1
    kinds = 34 - empty
    return 6 - pairs + (7 - kinds if kinds < 7 else 0)


def _kokushi_shanten(counts: Sequence[int]) -> int:
    kinds = 0
    pair = 0
    for k in _YAOCHU_KINDS:
        c = counts[k]
        if c:
            kinds += 1
            if c >= 2:
                pair = 1
    return 13 - kinds - pair


def shanten_of(tiles: Iterable[Tile]) -> int:
    """:func:`shanten` of a list of tiles (red fives count as fives).

    >>> from kansa.replay.tiles import parse_tiles
    >>> shanten_of(parse_tiles("1122m3344p5566s7z"))
    0
    """
    return shanten(kind_counts(tiles))


# -- waits and completeness --------------------------------------------------------------


def waits_mask(counts: Sequence[int]) -> int:
    """Waits of a 3n+1 hand as a bit mask (bit ``k`` = kind ``k``).

    The cheap form for per-discard furiten tracking: ``waits_mask(h) & discarded``.
    Shape waits, so a kind held four times can be set; see :func:`is_tenpai`.

    >>> from kansa.replay.tiles import kind_counts, parse_tiles
    >>> bin(waits_mask(kind_counts(parse_tiles("1m"))))
    '0b1'

    :raises ValueError: if the tile count is not 3n+1.
    """
    n = _total(counts)
    if n % 3 != 1:
        raise ValueError(f"waits need a 3n+1 tile hand, got {n} tiles")
    si = _SUIT_INFO
    k0 = tuple(counts[0:9])
    k1 = tuple(counts[9:18])
    k2 = tuple(counts[18:27])
    kz = tuple(counts[27:34])
    i0 = si.get(k0) or _suit_info(k0)
    i1 = si.get(k1) or _suit_info(k1)
    i2 = si.get(k2) or _suit_info(k2)
    iz = _HONOR_INFO.get(kz) or _honor_info(kz)
    mask = 0
    one = -1  # the group that is 1 mod 3
    twos: list[int] = []
    groups = (i0, i1, i2, iz)
    for g in range(4):
        r, ok, _, _ = groups[g]
        if r == 0:
            if not ok:
                break
        elif r == 1:
            if one >= 0 or twos:
                break
            one = g
        else:
            if one >= 0 or len(twos) == 2:
                break
            twos.append(g)
    else:
        if one >= 0:
            mask = groups[one][2] << 9 * one
        elif twos:
            g, h = twos
            if groups[h][1]:
                mask = groups[g][2] << 9 * g
            if groups[g][1]:
                mask |= groups[h][2] << 9 * h
    if n == 13:
        mask |= _thirteen_tile_waits(counts)
    return mask


def _thirteen_tile_waits(counts: Sequence[int]) -> int:
    """Waits that only 13-tile concealed hands have: seven pairs, thirteen orphans."""
    if counts.count(2) == 6 and counts.count(1) == 1:
        return 1 << counts.index(1)
    if sum(counts[k] for k in _YAOCHU_KINDS) != 13:
        return 0
    missing = [k for k in _YAOCHU_KINDS if not counts[k]]
    if not missing:
        return _YAOCHU_MASK
    if len(missing) == 1:
        return 1 << missing[0]
    return 0


@lru_cache(maxsize=4096)
def _kinds(mask: int) -> tuple[int, ...]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return tuple(out)


def waits(counts: Sequence[int]) -> tuple[int, ...]:
    """Every kind that completes a 3n+1 hand, sorted (shape only).

    A kind the hand already holds four times is included when a fifth copy would
    complete the shape; :func:`is_tenpai` is the rule that discounts it.

    >>> from kansa.replay.tiles import kind_counts, parse_tiles
    >>> waits(kind_counts(parse_tiles("1112345678999m")))
    (0, 1, 2, 3, 4, 5, 6, 7, 8)
    >>> waits(kind_counts(parse_tiles("1111m234p567s888s")))
    (0,)

    :raises ValueError: if the tile count is not 3n+1.
    """
    return _kinds(waits_mask(counts))


def waits_of(tiles: Iterable[Tile]) -> tuple[Tile, ...]:
    """:func:`waits` of a list of tiles, as plain (non-red) tiles.

    >>> from kansa.replay.tiles import parse_tiles
    >>> waits_of(parse_tiles("2345m"))
    (Tile.M2, Tile.M5)
    """
    return tuple(Tile.from_index(k) for k in waits(kind_counts(tiles)))


def is_tenpai(counts: Sequence[int]) -> bool:
    """Tenpai under the EMA and Tenhou rule for a 3n+1 hand.

    Tenpai iff some wait is on a kind the hand does not already hold four times.
    Waits whose tiles are all visible elsewhere (discards, melds, dora) still
    count: only the concealed hand is looked at.

    >>> from kansa.replay.tiles import kind_counts, parse_tiles
    >>> is_tenpai(kind_counts(parse_tiles("1111m234p567s888s")))
    False
    >>> is_tenpai(kind_counts(parse_tiles("11112m55p234678s")))
    True

    :raises ValueError: if the tile count is not 3n+1.
    """
    mask = waits_mask(counts)
    while mask:
        low = mask & -mask
        if counts[low.bit_length() - 1] < 4:
            return True
        mask ^= low
    return False


def is_complete(counts: Sequence[int]) -> bool:
    """Whether a 3n+2 hand is a winning shape (standard, seven pairs, thirteen orphans).

    Says nothing about yaku.

    >>> from kansa.replay.tiles import kind_counts, parse_tiles
    >>> is_complete(kind_counts(parse_tiles("11223344556677z")))
    True
    >>> is_complete(kind_counts(parse_tiles("11112233445566z")))
    False

    :raises ValueError: if the tile count is not 3n+2.
    """
    n = _total(counts)
    if n % 3 != 2:
        raise ValueError(f"a complete hand has 3n+2 tiles, got {n}")
    si = _SUIT_INFO
    k0 = tuple(counts[0:9])
    k1 = tuple(counts[9:18])
    k2 = tuple(counts[18:27])
    kz = tuple(counts[27:34])
    pairs = 0
    for r, ok, _, _ in (
        si.get(k0) or _suit_info(k0),
        si.get(k1) or _suit_info(k1),
        si.get(k2) or _suit_info(k2),
        _HONOR_INFO.get(kz) or _honor_info(kz),
    ):
        if not ok:
            break
        if r == 2:
            pairs += 1
    else:
        if pairs == 1:
            return True
    if n == 14:
        if counts.count(2) == 7:
            return True
        return _kokushi_shanten(counts) == -1
    return False


# -- readings -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Decomposition:
    """One reading of a complete hand's concealed tiles.

    * ``standard``: ``pair`` is the pair's kind and ``sets`` the sets, sorted, as
      ``(first kind, "seq" | "pon")``;
    * ``chiitoitsu``: ``pairs`` holds the seven kinds, ``pair`` is ``None``;
    * ``kokushi``: ``pair`` is the doubled kind.

    >>> from kansa.replay.tiles import kind_counts, parse_tiles
    >>> decompositions(kind_counts(parse_tiles("11122m")))
    [Decomposition(form='standard', pair=1, sets=((0, 'pon'),), pairs=())]
    """

    form: Form
    pair: int | None
    sets: tuple[tuple[int, SetKind], ...] = ()
    pairs: tuple[int, ...] = ()

    def __str__(self) -> str:
        """mpsz groups: ``11m 123m 555z`` (sets after the pair)."""
        def name(k: int, n: int, step: int) -> str:
            t = Tile.from_index(k)
            return "".join(str(t.number + step * j) for j in range(n)) + t.suit

        if self.form == "chiitoitsu":
            return " ".join(name(k, 2, 0) for k in self.pairs)
        if self.form == "kokushi":
            return " ".join(name(k, 2 if k == self.pair else 1, 0) for k in _YAOCHU_KINDS)
        assert self.pair is not None
        parts = [name(self.pair, 2, 0)]
        parts += [name(k, 3, 1 if kind == "seq" else 0) for k, kind in self.sets]
        return " ".join(parts)


def decompositions(counts: Sequence[int]) -> list[Decomposition]:
    """Every reading of a complete 3n+2 hand (empty if it is not complete).

    A hand can have several: ``111222333m`` reads as three pungs or three
    sequences; ``11223344556677m`` is seven pairs and three standard hands.

    >>> from kansa.replay.tiles import kind_counts, parse_tiles
    >>> [str(d) for d in decompositions(kind_counts(parse_tiles("111222333m55p")))]
    ['55p 111m 222m 333m', '55p 123m 123m 123m']

    :raises ValueError: if the tile count is not 3n+2.
    """
    n = _total(counts)
    if n % 3 != 2:
        raise ValueError(f"a complete hand has 3n+2 tiles, got {n}")
    out: list[Decomposition] = []
    per_group: list[tuple[_t.Reading, ...]] = []
    for g in range(4):
        base = 9 * g
        key = tuple(counts[base : base + (9 if g < 3 else 7)])
        per_group.append(_t.readings(key, g < 3))
    combos: list[tuple[int, list[tuple[int, SetKind]]]] = [(_t.NO_PAIR, [])]
    for g, group in enumerate(per_group):
        base = 9 * g
        combos = [
            (pair if gp == _t.NO_PAIR else base + gp,
             sets + [(base + k, "seq" if seq else "pon") for k, seq in gsets])
            for pair, sets in combos
            for gp, gsets in group
            if _t.NO_PAIR in (gp, pair)
        ]
    for pair, sets in combos:
        if pair != _t.NO_PAIR:
            out.append(Decomposition("standard", pair, tuple(sorted(sets))))
    if n == 14:
        if counts.count(2) == 7:
            out.append(Decomposition("chiitoitsu", None, (),
                                     tuple(k for k in range(34) if counts[k])))
        elif _kokushi_shanten(counts) == -1:
            double = next(k for k in _YAOCHU_KINDS if counts[k] == 2)
            out.append(Decomposition("kokushi", double))
    return out


# -- kan during riichi ----------------------------------------------------------------------


def _riichi_waits(counts: Sequence[int], kind: int) -> int:
    if not 0 <= kind < 34 or counts[kind] != 3:
        raise ValueError(f"ankan after riichi needs three of kind {kind} before the draw")
    mask = waits_mask(counts)
    for k in _kinds(mask):
        if counts[k] == 4:
            mask ^= 1 << k  # a wait only in shape (RULESETS.md section 1, row 39)
    return mask


def ankan_keeps_waits(counts: Sequence[int], kind: int) -> bool:
    """Tenhou rule for a concealed kan after riichi: the waits do not change.

    ``counts`` is the 3n+1 hand *before* drawing the fourth ``kind``.  With ``W``
    its waits (those on a kind held four times dropped), the kan is allowed
    iff ``kind`` is not in ``W`` and every ``w`` in ``W`` still completes the
    hand once the four tiles are set aside as a meld.  The waits can only shrink,
    so this is "the wait set is unchanged" (RULESETS.md section 2).  An honor
    kan always passes.  A hand with no waits passes vacuously; whether its riichi
    was legal is a separate check.

    >>> from kansa.replay.tiles import kind_counts, parse_tiles
    >>> hand = kind_counts(parse_tiles("3444m778899s333z"))
    >>> ankan_keeps_waits(hand, Tile.M4.index), ankan_keeps_waits(hand, Tile.WEST.index)
    (False, True)

    :raises ValueError: if the hand does not hold exactly three of ``kind`` or is
        not 3n+1 tiles.
    """
    before = _riichi_waits(counts, kind)
    if before >> kind & 1:
        return False
    after = list(counts)
    after[kind] = 0
    return before & ~waits_mask(after) == 0


def ankan_is_only_pung(counts: Sequence[int], kind: int) -> bool:
    """EMA (strict) rule for a concealed kan after riichi.

    :func:`ankan_keeps_waits`, and in addition the three held tiles of ``kind``
    are a pung in *every* reading of the hand completed by *every* wait: if any
    reading uses one of them in a sequence or as the pair, the kan is illegal.

    >>> from kansa.replay.tiles import kind_counts, parse_tiles
    >>> hand = kind_counts(parse_tiles("333444555m789p6s"))
    >>> ankan_keeps_waits(hand, Tile.M3.index), ankan_is_only_pung(hand, Tile.M3.index)
    (True, False)

    :raises ValueError: as :func:`ankan_keeps_waits`.
    """
    if not ankan_keeps_waits(counts, kind):
        return False
    hand = list(counts)
    pung = (kind, "pon")
    for w in _kinds(_riichi_waits(counts, kind)):
        hand[w] += 1
        if not all(pung in d.sets for d in decompositions(hand)):
            return False
        hand[w] -= 1
    return True
