"""Tenhou's walls from its shuffle seed: pure computation, no I/O.

A Tenhou mjlog's ``<SHUFFLE seed="mt19937ar-sha512-n288-base64,...">`` seeds one
Mersenne Twister (MT19937ar, ``init_by_array``) for the whole game.  Each hand, in play
order, takes 288 words from it, hashes them in nine 128-byte chunks with SHA-512 into 144
words ``rnd``, shuffles the 136 tile ids with ``rnd[0..134]`` and throws the dice with
``rnd[135]`` and ``rnd[136]``.  The wall is then taken from the end of the shuffled list.
A three-player hand shuffles the 108 ids without 2m-8m (:data:`SANMA_IDS`) the same way,
with the same dice words; its dead wall keeps eight replacement tiles (four kans and four
kita) before the first indicator pair.

>>> mt = MT19937([0x123, 0x234, 0x345, 0x456])
>>> [mt.genrand_int32() for _ in range(3)]
[1067595299, 955945823, 477289528]
"""

from __future__ import annotations

import base64
import binascii
import importlib
import random
import struct
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Final

N: Final = 624
_M: Final = 397
_MASK: Final = 0xFFFFFFFF
_UPPER: Final = 0x80000000
_LOWER: Final = 0x7FFFFFFF
_MATRIX: Final = 0x9908B0DF

BASE64_PREFIX: Final = "mt19937ar-sha512-n288-base64,"
HEX_PREFIX: Final = "mt19937ar-sha512-n288,"
WORDS_PER_HAND: Final = 288
LEGACY_SEEN: Final = 1
"""Kans after which the hex-seed era's dead wall is known from real logs: its later
replacement draws and kan-dora indicators are not compared."""
TILES: Final = 136
DEAD_WALL: Final = 14
SANMA_IDS: Final = tuple(i for i in range(TILES) if not 4 <= i < 32)
"""The tile ids of a three-player set, in order: 2m-8m (ids 4-31) left out.  Verified
on the real sanma log ``dnovikoff__tenhou/sanma2.xml``: its deals, dice, live draws,
first dora and ura indicators and kita replacement draws follow from its seed."""


def init_genrand(s: int) -> list[int]:
    """The state ``init_genrand(s)`` of mt19937ar.c leaves."""
    mt = [0] * N
    mt[0] = s & _MASK
    for i in range(1, N):
        prev = mt[i - 1]
        mt[i] = (1812433253 * (prev ^ (prev >> 30)) + i) & _MASK
    return mt


def init_by_array(key: Sequence[int]) -> list[int]:
    """The state ``init_by_array(key, len(key))`` of mt19937ar.c leaves (any key, a
    zero top word included).

    :raises ValueError: for an empty key or a word outside 32 bits.
    """
    if not key or any(not 0 <= w <= _MASK for w in key):
        raise ValueError("the key must be one or more 32-bit words")
    mt = init_genrand(19650218)
    i, j, length = 1, 0, len(key)
    for _ in range(max(N, length)):
        prev = mt[i - 1]
        mt[i] = ((mt[i] ^ ((prev ^ (prev >> 30)) * 1664525)) + key[j] + j) & _MASK
        i += 1
        j += 1
        if i >= N:
            mt[0] = mt[N - 1]
            i = 1
        if j >= length:
            j = 0
    for _ in range(N - 1):
        prev = mt[i - 1]
        mt[i] = ((mt[i] ^ ((prev ^ (prev >> 30)) * 1566083941)) - i) & _MASK
        i += 1
        if i >= N:
            mt[0] = mt[N - 1]
            i = 1
    mt[0] = _UPPER
    return mt


class MT19937:
    """MT19937ar seeded by ``init_by_array(key)``, the reference algorithm written out
    (:func:`generator` is the fast equivalent the walls are drawn from)."""

    def __init__(self, key: Sequence[int]) -> None:
        self.mt = init_by_array(key)
        self.mti = N

    def _twist(self) -> None:
        mt = self.mt
        for k in range(N):
            y = (mt[k] & _UPPER) | (mt[(k + 1) % N] & _LOWER)
            mt[k] = mt[(k + _M) % N] ^ (y >> 1) ^ (_MATRIX if y & 1 else 0)
        self.mti = 0

    def genrand_int32(self) -> int:
        """The next 32-bit output, as mt19937ar.c's ``genrand_int32``."""
        if self.mti >= N:
            self._twist()
        y = self.mt[self.mti]
        self.mti += 1
        y ^= y >> 11
        y ^= (y << 7) & 0x9D2C5680
        y ^= (y << 15) & 0xEFC60000
        return y ^ (y >> 18)


def generator(key: Sequence[int]) -> random.Random:
    """A :class:`random.Random` in the state ``init_by_array(key)`` leaves, whose
    ``getrandbits(32)`` is ``genrand_int32``.

    CPython seeds a Random from an integer by ``init_by_array`` over the integer's
    little-endian 32-bit words, as many as its bit length needs: that is ``key`` exactly
    when the top word is not zero.  A key whose top word is zero is seeded here instead
    (:func:`init_by_array`) and its state handed over with ``setstate``.
    """
    if key and key[-1]:
        return random.Random(int.from_bytes(struct.pack(f"<{len(key)}I", *key), "little"))
    rng = random.Random()
    rng.setstate((3, (*init_by_array(key), N), None))
    return rng


def block(rng: random.Random, words: int) -> bytes:
    """The next ``words`` outputs of ``rng`` as little-endian 32-bit words: getrandbits
    fills a wider result from its lowest 32 bits up, one output each."""
    return rng.getrandbits(32 * words).to_bytes(4 * words, "little")


def _base64_key(seed: str) -> bytes | None:
    """The key of a base64 ``<SHUFFLE seed>`` as its 2,496 little-endian bytes, or
    ``None``."""
    try:
        raw = base64.b64decode(seed[len(BASE64_PREFIX):], validate=True)
    except (ValueError, binascii.Error):
        return None
    return raw if len(raw) == 4 * N else None


def seed_key(seed: str) -> list[int] | None:
    """The ``init_by_array`` key of a ``<SHUFFLE seed>``: 624 words from the base64 form,
    the listed words from the older hex form; ``None`` for a form kansa cannot read."""
    if seed.startswith(BASE64_PREFIX):
        raw = _base64_key(seed)
        return None if raw is None else list(struct.unpack(f"<{N}I", raw))
    try:
        if seed.startswith(HEX_PREFIX):
            words = [int(w, 16) for w in seed[len(HEX_PREFIX):].split(",")]
            return words if words and all(0 <= w <= _MASK for w in words) else None
    except (ValueError, binascii.Error):
        return None
    return None


def _sha512() -> Callable[[bytes], Any]:
    """CPython's own SHA-512 (``_sha2`` from 3.12, ``_sha512`` before), as :mod:`random`
    takes it: :mod:`hashlib` loads OpenSSL, which adds about 3.5 MB to the process; it is
    the last resort, for a Python built without them."""
    for name in ("_sha2", "_sha512", "hashlib"):
        try:
            return importlib.import_module(name).sha512  # type: ignore[no-any-return]
        except (ImportError, AttributeError):
            continue
    raise ImportError("no SHA-512 in this Python")


_SHA512: Final = _sha512()


def hand_random(words: bytes) -> list[int]:
    """The 144 words ``rnd`` of one hand from its 288 generator words (1,152 bytes)."""
    sha512 = _SHA512
    digest = b"".join([sha512(words[i:i + 128]).digest() for i in range(0, len(words), 128)])
    return list(struct.unpack(f"<{len(digest) // 4}I", digest))


@dataclass(frozen=True, slots=True)
class Wall:
    """One hand's wall.  ``yama`` is the shuffled list of Tenhou tile ids (0-135); tiles
    are taken from its end, so position ``p`` of the wall in draw order is
    ``yama[len(yama) - 1 - p]`` (:meth:`at`): 136 ids, or 108 at three players."""

    yama: tuple[int, ...]
    dice: tuple[int, int]
    """The two dice, 0-5 each (as the ``INIT seed`` attribute writes them)."""
    players: int = 4
    legacy: bool = False
    """The hex-seed era's layout: each pair of the dead wall trades places (seen in real
    logs for the first dora and ura, the first kan dora and the first replacement draw;
    :data:`LEGACY_SEEN` says how far that goes)."""

    def at(self, position: int) -> int:
        """The tile id at ``position`` in draw order (0 = the dealer's first tile)."""
        return self.yama[len(self.yama) - 1 - position]

    def deal_positions(self, k: int) -> list[int]:
        """The positions dealt to the player ``k`` seats after the dealer, in dealing
        order: three rounds of four, then one."""
        n = self.players
        return [4 * n * r + 4 * k + i for r in range(3) for i in range(4)] + [12 * n + k]

    def deal(self, k: int) -> tuple[int, ...]:
        """The 13 ids dealt to the player ``k`` seats after the dealer."""
        return tuple([self.at(p) for p in self.deal_positions(k)])

    def live_position(self, draw: int) -> int:
        """The wall position of live draw ``draw`` (0 = the dealer's first draw)."""
        return 13 * self.players + draw

    def live(self, draw: int) -> int:
        return self.at(self.live_position(draw))

    @property
    def replacements(self) -> int:
        """Replacement tiles the dead wall keeps before its first indicator pair: four,
        or eight at three players (four kans and four kita; sanma2.xml shows the first
        indicator at ``yama[9]``, its ura at ``yama[8]``)."""
        return 4 if self.players == 4 else 8

    def dora_position(self, kan: int) -> int:
        """The position of dora indicator ``kan`` (0 = the first, 1 = the first kan's)."""
        return len(self.yama) - self.replacements - 2 - 2 * kan + self.legacy

    def dora(self, kan: int) -> int:
        return self.at(self.dora_position(kan))

    def ura(self, kan: int) -> int:
        """The ura indicator under dora indicator ``kan``: the other tile of its pair."""
        return self.at(self.dora_position(kan) ^ 1)

    def replacement_position(self, kan: int) -> int:
        """The position of replacement draw ``kan`` (0-3) after a kan (or a kita): from
        the end of the list, trading places in pairs (``yama[1]``, ``yama[0]``,
        ``yama[3]``, ...; the first three kita draws of sanma2.xml show it at three
        players)."""
        n = len(self.yama)
        return (n - 2, n - 1, n - 4, n - 3)[kan] ^ self.legacy

    def replacement(self, kan: int) -> int:
        return self.at(self.replacement_position(kan))

    @staticmethod
    def live_size(players: int, kans: int) -> int:
        """How many live draws the wall holds after ``kans`` replacement draws."""
        tiles = TILES if players == 4 else len(SANMA_IDS)
        return tiles - DEAD_WALL - 13 * players - kans


def shuffle(rnd: Sequence[int], ids: Sequence[int] = range(TILES)) -> list[int]:
    """``ids`` shuffled by ``rnd``: position ``i`` trades with ``i + rnd[i] % (n - i)``."""
    yama = list(ids)
    left = len(yama)  # the places from i on
    for i, r in enumerate(rnd[:max(left - 1, 0)]):
        j = i + r % left
        yama[i], yama[j] = yama[j], yama[i]
        left -= 1
    return yama


def dice(rnd: Sequence[int]) -> tuple[int, int]:
    """The two dice (0-5) of a hand's ``rnd``."""
    return rnd[TILES - 1] % 6, rnd[TILES] % 6


def walls(key: Sequence[int], *, legacy: bool = False, players: int = 4) -> Iterator[Wall]:
    """The walls of the game's hands, in play order, without end."""
    yield from _hands(generator(key), legacy, players)


def _hands(rng: random.Random, legacy: bool, players: int) -> Iterator[Wall]:
    ids = range(TILES) if players == 4 else SANMA_IDS
    while True:
        rnd = hand_random(block(rng, WORDS_PER_HAND))
        yield Wall(tuple(shuffle(rnd, ids)), dice(rnd), players=players, legacy=legacy)


def game_walls(seed: str | None, players: int = 4) -> Iterator[Wall] | None:
    """The walls a ``<SHUFFLE seed>`` gives a table of ``players``, or ``None`` for no
    seed or one kansa cannot reproduce (a hex-era seed at three players: no such log
    is known)."""
    if players not in (3, 4):
        return None
    if seed is not None and seed.startswith(BASE64_PREFIX):
        raw = _base64_key(seed)
        if raw is None:
            return None
        if any(raw[-4:]):  # the key's bytes are the integer generator() would pack
            return _hands(random.Random(int.from_bytes(raw, "little")), False, players)
    key = seed_key(seed) if seed is not None else None
    if key is None:
        return None
    legacy = not seed.startswith(BASE64_PREFIX)  # type: ignore[union-attr]
    if legacy and players == 3:
        return None
    return walls(key, legacy=legacy, players=players)
