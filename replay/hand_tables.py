"""Memoised per-group tables behind :mod:`kansa.replay.hand`.

A hand's 34 counts fall into four independent groups: three suits of nine kinds
and the seven honors.  Everything :mod:`kansa.replay.hand` needs is a function of one
group's count tuple, so each answer is computed once per distinct tuple and kept
in a dict (suits share tables; a suit tuple never holds more than 14 tiles, so
the tables stay bounded: at most ~405,000 suit tuples and 5**7 honor tuples,
in practice a few thousand).

Two kinds of table:

* **Shape** (:func:`suit_info`, :func:`honor_info`): the tuple's size mod 3,
  whether it splits into sets (plus one pair when the size is 2 mod 3), and the
  bit mask of kinds whose addition makes it split.  That is all that waits and
  completeness need.
* **Distance** (:func:`suit_distance`, :func:`honor_distance`): for ``m`` sets
  (0-4) and ``p`` pairs (0-1), the fewest tiles to *add* so that the group holds
  ``m`` sets and ``p`` pairs, never asking for a fifth copy of a kind.  Shanten
  is the min-plus combination of the four groups' vectors, minus one; that is
  the exact definition, and it agrees with ``mahjong``'s shanten (including its
  "a wait on a tile held four times is no wait" rule).  Vectors are interned as
  small ints so that combinations can be memoised by id pairs.
"""

from __future__ import annotations

from typing import Final

Key = tuple[int, ...]
Reading = tuple[int, tuple[tuple[int, bool], ...]]
"""(pair offset or -1, sorted sets as (first-kind offset, is_sequence))."""

CLIP: Final = 10
"""Distances are capped here.  Shanten is at most 8 (distance 9), and every
entry of a min-plus sum is non-negative, so capping entries at 10 never changes
a total below 10."""

NO_PAIR: Final = -1


# -- shape: can a group be split into sets (and a pair)? ------------------------------


def _split_sets(h: Key) -> bool:
    """Whether a suit tuple splits into sets only (greedy from the left).

    At the leftmost kind, ``c % 3`` tiles must start sequences and the rest form
    pungs: three identical sequences use the same tiles as three pungs.
    """
    a = b = 0  # sequences started one and two kinds back, still owed a tile here
    for i in range(9):
        c = h[i] - a - b
        if c < 0:
            return False
        start = c % 3
        if start and i >= 7:
            return False
        a, b = start, a
    return a == 0 and b == 0


def _split_pair(h: Key) -> int:
    """Bit mask of the kinds that can be the pair of a set-plus-pair split of ``h``."""
    # Each set has a kind-index sum divisible by 3, so 2*pair == total (mod 3).
    weight = sum(i * c for i, c in enumerate(h))
    start = (weight * 2) % 3
    found = 0
    for i in range(start, 9, 3):
        if h[i] >= 2:
            rest = list(h)
            rest[i] -= 2
            if _split_sets(tuple(rest)):
                found |= 1 << i
    return found


def _grow(h: Key, i: int) -> Key:
    return (*h[:i], h[i] + 1, *h[i + 1 :])


Info = tuple[int, bool, int, int]
"""(size mod 3, splits, waits mask, size) for one group; see :func:`suit_info`."""

SUIT_INFO: Final[dict[Key, Info]] = {}
"""Memo of :func:`suit_info`; hot paths try ``SUIT_INFO.get`` before calling it."""
HONOR_INFO: Final[dict[Key, Info]] = {}
"""Memo of :func:`honor_info`."""


def suit_info(h: Key) -> Info:
    """Shape facts of a nine-kind suit tuple.

    ``(r, ok, mask, size)``: ``size`` is the tile count and ``r`` that count mod 3;
    ``ok`` says the tuple splits into sets (``r == 0``) or sets and one pair
    (``r == 2``); ``mask`` has bit ``i`` when adding kind ``i`` makes it split into
    sets and a pair (``r == 1``) or into sets only (``r == 2``).  A kind already held four times
    can be in ``mask`` (a fifth tile would complete the shape).
    """
    info = SUIT_INFO.get(h)
    if info is not None:
        return info
    size = sum(h)
    r = size % 3
    ok = False
    mask = 0
    if r == 0:
        ok = _split_sets(h)
    else:
        if r == 2:
            ok = _split_pair(h) != 0
        near = 0
        for i in range(9):
            if h[i]:
                near |= 0b11111 << i
        near = (near >> 2) & 0x1FF
        for i in range(9):
            if near >> i & 1:
                g = _grow(h, i)
                if (_split_pair(g) if r == 1 else _split_sets(g)):
                    mask |= 1 << i
    info = (r, ok, mask, size)
    SUIT_INFO[h] = info
    return info


def honor_info(h: Key) -> Info:
    """:func:`suit_info` for the seven honor counts (no sequences)."""
    info = HONOR_INFO.get(h)
    if info is not None:
        return info
    size = sum(h)
    r = size % 3
    odd = [i for i, c in enumerate(h) if c not in (0, 3)]
    ok = False
    mask = 0
    if r == 0:
        ok = not odd
    elif r == 2:
        ok = len(odd) == 1 and h[odd[0]] == 2
        if ok:
            mask = 1 << odd[0]
    elif len(odd) == 1 and h[odd[0]] in (1, 4):
        mask = 1 << odd[0]  # tanki, or a pung plus a fifth-tile tanki on a held four
    elif len(odd) == 2 and h[odd[0]] == h[odd[1]] == 2:
        mask = 1 << odd[0] | 1 << odd[1]  # shanpon
    info = (r, ok, mask, size)
    HONOR_INFO[h] = info
    return info


# -- readings: every way to split a group -----------------------------------------------

_SET_READINGS: Final[dict[tuple[Key, bool], tuple[tuple[tuple[int, bool], ...], ...]]] = {}


def set_readings(h: Key, seqs: bool) -> tuple[tuple[tuple[int, bool], ...], ...]:
    """Every multiset of sets that uses exactly the tiles of ``h`` (sorted tuples).

    At the leftmost held kind there is at most one pung and every other copy starts a
    sequence, so each reading is produced once.
    """
    key = (h, seqs)
    cached = _SET_READINGS.get(key)
    if cached is not None:
        return cached
    i = 0
    while i < len(h) and not h[i]:
        i += 1
    out: list[tuple[tuple[int, bool], ...]] = []
    if i == len(h):
        out.append(())
    else:
        for pung in (1, 0) if h[i] >= 3 else (0,):
            start = h[i] - 3 * pung
            if start and not (seqs and i + 2 < len(h) and h[i + 1] >= start
                              and h[i + 2] >= start):
                continue
            rest = list(h)
            rest[i] = 0
            if start:
                rest[i + 1] -= start
                rest[i + 2] -= start
            head = ((i, False),) * pung + ((i, True),) * start
            out.extend(tuple(sorted(head + tail)) for tail in set_readings(tuple(rest), seqs))
    result = tuple(out)
    _SET_READINGS[key] = result
    return result


def readings(h: Key, seqs: bool) -> tuple[Reading, ...]:
    """Every set (and pair) reading of a group whose size is 0 or 2 mod 3."""
    if sum(h) % 3 == 0:
        return tuple((NO_PAIR, sets) for sets in set_readings(h, seqs))
    out: list[Reading] = []
    for i, c in enumerate(h):
        if c >= 2:
            rest = (*h[:i], c - 2, *h[i + 1 :])
            out.extend((i, sets) for sets in set_readings(rest, seqs))
    return tuple(out)


# -- distance: fewest tiles to add for m sets and p pairs ----------------------------------

Vector = tuple[int, ...]
"""Ten distances, index ``2*m + p`` for ``m`` sets (0-4) and ``p`` pairs (0-1)."""

_FREE: Final[Vector] = tuple(min(CLIP, 3 * (j // 2) + 2 * (j % 2)) for j in range(10))
"""An empty group: every set costs three tiles, the pair two."""


def _conv(x: Vector, y: Vector) -> Vector:
    """Min-plus combination of two groups' distance vectors."""
    out = [CLIP] * 10
    for j1 in range(10):
        a = x[j1]
        if a >= CLIP:
            continue
        m1, p1 = divmod(j1, 2)
        for m2 in range(5 - m1):
            for p2 in range(2 - p1):
                v = a + y[2 * m2 + p2]
                j = 2 * (m1 + m2) + p1 + p2
                out[j] = min(out[j], v)
    return tuple(out)


def _free_groups(d: list[int]) -> Vector:
    """Let sets and the pair that use none of the held tiles cost 3 and 2."""
    for j in range(1, 10):
        m, p = divmod(j, 2)
        for j2 in range(j):
            m2, p2 = divmod(j2, 2)
            if m2 <= m and p2 <= p:
                d[j] = min(d[j], d[j2] + 3 * (m - m2) + 2 * (p - p2))
    return tuple(min(v, CLIP) for v in d)


def dp_distance(h: Key) -> Vector:
    """Exact distance vector of a run of suited kinds, by dynamic programming.

    Walks the kinds left to right with state (tiles owed here by earlier
    sequences, tiles owed to the next kind, sets so far, pair so far) and the
    tiles added so far; the target count of a kind never exceeds four.  Only sets
    and pairs touching a held tile are placed; the others are priced by
    :func:`_free_groups`.  Slow (hundreds of µs), hence the caches above it.
    """
    n = len(h)
    cur: dict[tuple[int, int, int, int], int] = {(0, 0, 0, 0): 0}
    for i in range(n):
        hi = h[i]
        seq_ok = i + 2 < n and (hi or h[i + 1] or h[i + 2])
        nxt: dict[tuple[int, int, int, int], int] = {}
        get = nxt.get
        for (owed, owed_next, m, p), c in cur.items():
            max_x = min(4 - m, 4 - owed) if seq_ok else 0
            for x in range(max_x + 1):
                here = owed + x
                carry = owed_next + x
                if carry > 4:
                    break
                for q in (0, 1) if hi and m + x < 4 and here <= 1 else (0,):
                    here_q = here + 3 * q
                    mq = m + x + q
                    for t in (0, 1) if hi and not p and here_q <= 2 else (0,):
                        target = here_q + 2 * t
                        cost = c + (target - hi if target > hi else 0)
                        if cost > CLIP:
                            continue
                        key = (carry, x, mq, p + t)
                        old = get(key)
                        if old is None or cost < old:
                            nxt[key] = cost
        cur = nxt
    d = [CLIP] * 10
    for (owed, owed_next, m, p), c in cur.items():
        if not owed and not owed_next and c < d[2 * m + p]:
            d[2 * m + p] = c
    return _free_groups(d)


def blocks(h: Key) -> list[Key]:
    """Split a suit tuple where two or more kinds in a row are empty.

    No set touches held tiles on both sides of such a gap, so the suit's distance
    vector is the min-plus combination of its blocks' vectors (checked
    exhaustively over all 405,350 suit tuples of at most 14 tiles when this was
    written, and on a sample in the tests).  Each block keeps up to two empty
    kinds of real room on each side, because sequences near the suit's edges
    have fewer places to go.
    """
    held = [i for i in range(9) if h[i]]
    out: list[Key] = []
    if not held:
        return out
    first = last = held[0]
    for i in [*held[1:], 99]:
        if i - last >= 3:
            lo = max(0, first - 2)
            hi = min(8, last + 2)
            out.append(h[lo : hi + 1])
            first = i
        last = i
    return out


_VECTOR_ID: Final[dict[Vector, int]] = {}
VECTORS: Final[list[Vector]] = []
_BLOCK_ID: Final[dict[Key, int]] = {}
SUIT_DISTANCE: Final[dict[Key, int]] = {}
"""Memo of :func:`suit_distance` (suit tuple -> vector id)."""
HONOR_DISTANCE: Final[dict[Key, int]] = {}
"""Memo of :func:`honor_distance`."""
COMBINED: Final[dict[int, int]] = {}
"""Memo of :func:`conv_id`, keyed ``a << 20 | b``."""


def intern(v: Vector) -> int:
    """Small-int id of a distance vector (ids index :data:`VECTORS`)."""
    i = _VECTOR_ID.get(v)
    if i is None:
        i = _VECTOR_ID[v] = len(VECTORS)
        VECTORS.append(v)
    return i


FREE_ID: Final = intern(_FREE)


def conv_id(a: int, b: int) -> int:
    """Id of the min-plus combination of vectors ``a`` and ``b`` (memoised)."""
    key = a << 20 | b
    c = COMBINED.get(key)
    if c is None:
        c = COMBINED[key] = intern(_conv(VECTORS[a], VECTORS[b]))
    return c


def suit_distance(h: Key) -> int:
    """Interned distance vector of a nine-kind suit tuple."""
    i = SUIT_DISTANCE.get(h)
    if i is not None:
        return i
    i = FREE_ID
    for b in blocks(h):
        bi = _BLOCK_ID.get(b)
        if bi is None:
            bi = _BLOCK_ID[b] = intern(dp_distance(b))
        i = conv_id(i, bi)
    SUIT_DISTANCE[h] = i
    return i


def _honor_vector(c: int) -> Vector:
    """One honor kind held ``c`` times: a pung or a pair of it, never both."""
    d = [CLIP] * 10
    d[0] = 0
    d[1] = max(0, 2 - c)
    d[2] = max(0, 3 - c)
    return _free_groups(d)


_ONE_HONOR: Final = tuple(intern(_honor_vector(c)) for c in range(5))


def honor_distance(h: Key) -> int:
    """Interned distance vector of the seven honor counts."""
    i = HONOR_DISTANCE.get(h)
    if i is not None:
        return i
    i = FREE_ID
    for c in sorted(h):
        if c:
            i = conv_id(i, _ONE_HONOR[c])
    HONOR_DISTANCE[h] = i
    return i


def cache_sizes() -> dict[str, int]:
    """Entries in each table (for benchmarks and tests)."""
    return {
        "suit_info": len(SUIT_INFO),
        "honor_info": len(HONOR_INFO),
        "set_readings": len(_SET_READINGS),
        "suit_distance": len(SUIT_DISTANCE),
        "honor_distance": len(HONOR_DISTANCE),
        "blocks": len(_BLOCK_ID),
        "vectors": len(VECTORS),
        "combinations": len(COMBINED),
    }
