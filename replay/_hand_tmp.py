"""TEMPORARY stand-in for ``replay.hand`` until it lands on main. DELETE when merged.

Same names and meanings as the announced ``replay.hand`` API; slow, simple,
shanten from ``mahjong.shanten``.  Nothing but the checks-hand branch uses it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from mahjong.shanten import Shanten

_YAOCHU = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)


@dataclass(frozen=True, slots=True)
class Decomposition:
    form: str
    pair: int | None
    sets: tuple[tuple[int, str], ...] = ()
    pairs: tuple[int, ...] = ()


def _sets(c: list[int], i: int) -> list[list[tuple[int, str]]]:
    while i < 34 and c[i] == 0:
        i += 1
    if i == 34:
        return [[]]
    out: list[list[tuple[int, str]]] = []
    if c[i] >= 3:
        c[i] -= 3
        out += [[(i, "pon"), *r] for r in _sets(c, i)]
        c[i] += 3
    if i < 27 and i % 9 <= 6 and c[i + 1] and c[i + 2]:
        for k in (i, i + 1, i + 2):
            c[k] -= 1
        out += [[(i, "seq"), *r] for r in _sets(c, i)]
        for k in (i, i + 1, i + 2):
            c[k] += 1
    return out


@lru_cache(maxsize=65536)
def _decomp(key: tuple[int, ...]) -> tuple[Decomposition, ...]:
    c = list(key)
    n = sum(c)
    out: list[Decomposition] = []
    for p in range(34):
        if c[p] >= 2:
            c[p] -= 2
            out += [Decomposition("standard", p, tuple(sorted(s))) for s in _sets(c, 0)]
            c[p] += 2
    if n == 14:
        if c.count(2) == 7:
            out.append(Decomposition("chiitoitsu", None, (), tuple(k for k in range(34) if c[k])))
        elif all(c[k] for k in _YAOCHU) and sum(c[k] for k in _YAOCHU) == 14:
            out.append(Decomposition("kokushi", next(k for k in _YAOCHU if c[k] == 2)))
    return tuple(out)


def decompositions(counts: Sequence[int]) -> list[Decomposition]:
    return list(_decomp(tuple(counts)))


def is_complete(counts: Sequence[int]) -> bool:
    return bool(_decomp(tuple(counts)))


@lru_cache(maxsize=65536)
def _waits(key: tuple[int, ...]) -> int:
    c = list(key)
    mask = 0
    for k in range(34):
        c[k] += 1
        if _decomp(tuple(c)):
            mask |= 1 << k
        c[k] -= 1
    return mask


def waits_mask(counts: Sequence[int]) -> int:
    return _waits(tuple(counts))


def waits(counts: Sequence[int]) -> tuple[int, ...]:
    m = waits_mask(counts)
    return tuple(k for k in range(34) if m >> k & 1)


def is_tenpai(counts: Sequence[int]) -> bool:
    return any(counts[k] < 4 for k in waits(counts))


def shanten(counts: Sequence[int]) -> int:
    return int(Shanten().calculate_shanten(list(counts)))


def _riichi_waits(counts: Sequence[int], kind: int) -> int:
    m = waits_mask(counts)
    for k in range(34):
        if m >> k & 1 and counts[k] == 4:
            m ^= 1 << k
    return m


def ankan_keeps_waits(counts: Sequence[int], kind: int) -> bool:
    before = _riichi_waits(counts, kind)
    if before >> kind & 1:
        return False
    after = list(counts)
    after[kind] = 0
    return before & ~waits_mask(after) == 0


def ankan_is_only_pung(counts: Sequence[int], kind: int) -> bool:
    if not ankan_keeps_waits(counts, kind):
        return False
    h = list(counts)
    m = _riichi_waits(counts, kind)
    for w in range(34):
        if m >> w & 1:
            h[w] += 1
            if not all((kind, "pon") in d.sets for d in decompositions(h)):
                return False
            h[w] -= 1
    return True
