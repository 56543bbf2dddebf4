"""Tenhou's walls from the shuffle seed: the generator, the hash, the shuffle, the places."""

from __future__ import annotations

import base64
import hashlib
import random
import struct
import subprocess
import sys
from pathlib import Path

import pytest

from kansa.replay.wall import (
    BASE64_PREFIX,
    HEX_PREFIX,
    MT19937,
    TILES,
    Wall,
    block,
    dice,
    game_walls,
    generator,
    hand_random,
    init_by_array,
    seed_key,
    shuffle,
    walls,
)

REFERENCE_KEY = [0x123, 0x234, 0x345, 0x456]
REFERENCE_OUT = [1067595299, 955945823, 477289528, 4107218783, 4228976476]
"""mt19937ar.c's own test: the first outputs of ``init_by_array({0x123, 0x234, 0x345,
0x456}, 4)`` as its mt19937ar.out lists them."""


def test_reference_generator_gives_mt19937ar_outputs() -> None:
    mt = MT19937(REFERENCE_KEY)
    assert [mt.genrand_int32() for _ in range(5)] == REFERENCE_OUT


def test_reference_generator_past_its_first_twist() -> None:
    # CPython seeds a Random from an integer with init_by_array over its 32-bit words
    mt = MT19937(REFERENCE_KEY)
    cpython = random.Random(0x456 << 96 | 0x345 << 64 | 0x234 << 32 | 0x123)
    assert [mt.genrand_int32() for _ in range(2000)] == [
        cpython.getrandbits(32) for _ in range(2000)]


@pytest.mark.parametrize("key", [
    REFERENCE_KEY,
    [0xFFFFFFFF] * 624,
    [7, 0],  # a zero top word: CPython's integer seeding would drop it
    [0] * 624,
    [0x80000000, 1, 0, 0],
])
def test_fast_generator_is_the_reference(key: list[int]) -> None:
    ref = MT19937(key)
    words = [ref.genrand_int32() for _ in range(2 * 288 + 700)]
    fast = generator(key)
    got = struct.unpack(f"<{len(words)}I", block(fast, 288) + block(fast, 288)
                        + block(fast, 700))
    assert list(got) == words


def test_zero_top_word_is_not_cpythons_integer_seed() -> None:
    # the reason generator() seeds such keys itself
    key = [7, 0]
    naive = random.Random(7)  # what seeding from the key's integer would give
    assert naive.getrandbits(32) != MT19937(key).genrand_int32()
    assert generator(key).getrandbits(32) == MT19937(key).genrand_int32()


def test_init_by_array_rejects_bad_keys() -> None:
    with pytest.raises(ValueError, match="32-bit words"):
        init_by_array([])
    with pytest.raises(ValueError, match="32-bit words"):
        init_by_array([1 << 32])


def test_seed_forms() -> None:
    words = list(range(1, 625))
    text = BASE64_PREFIX + base64.b64encode(struct.pack("<624I", *words)).decode()
    assert seed_key(text) == words
    assert seed_key(BASE64_PREFIX + base64.b64encode(b"\0" * 100).decode()) is None
    assert seed_key(BASE64_PREFIX + "not base64!") is None
    assert seed_key(HEX_PREFIX + "F1504633,0000000A") == [0xF1504633, 10]
    assert seed_key(HEX_PREFIX + "XYZ") is None
    assert seed_key("mt19937ar,6A36C726") is None  # the per-INIT form: not reproducible
    assert game_walls(None) is None
    assert game_walls("mt19937ar,6A36C726") is None
    first = next(game_walls(text))  # type: ignore[arg-type]
    assert not first.legacy
    assert next(game_walls(HEX_PREFIX + "1,2,3")).legacy  # type: ignore[arg-type]


def test_hand_random_hashes_nine_chunks() -> None:
    rnd = hand_random(bytes(range(256)) * 4 + bytes(128))
    assert len(rnd) == 144
    assert all(0 <= r < 1 << 32 for r in rnd)
    changed = bytearray(bytes(range(256)) * 4 + bytes(128))
    changed[1151] = 1  # the last chunk's digest only: the last 16 words
    other = hand_random(bytes(changed))
    assert rnd[:128] == other[:128] and rnd[128:] != other[128:]


def test_shuffle_is_a_permutation_and_follows_rnd() -> None:
    rnd = list(range(144))
    yama = shuffle(rnd)
    assert sorted(yama) == list(range(TILES))
    assert shuffle([0] * 144) == list(range(TILES))  # every swap with itself
    three = [i for i in range(TILES) if not 4 <= i < 32]
    assert sorted(shuffle(rnd, three)) == three
    assert dice([0] * 135 + [13, 20] + [0] * 7) == (1, 2)


def _shuffle_step_by_step(rnd: list[int], n: int) -> list[int]:
    """The issue's shuffle, one swap at a time."""
    yama = list(range(n))
    for i in range(n - 1):
        j = i + rnd[i] % (n - i)
        yama[i], yama[j] = yama[j], yama[i]
    return yama


@pytest.mark.parametrize("seed", range(5))
def test_shuffle_is_the_swap_loop(seed: int) -> None:
    rnd = [random.Random(seed).getrandbits(32) for _ in range(144)]
    assert shuffle(rnd) == _shuffle_step_by_step(rnd, TILES)
    assert shuffle(rnd, range(108)) == _shuffle_step_by_step(rnd, 108)
    assert shuffle(rnd[:5], range(10)) == _shuffle_step_by_step(rnd[:5] + [0] * 4, 10)
    assert shuffle([], range(1)) == [0] and shuffle(rnd, ()) == []


def test_the_walls_do_not_load_openssl() -> None:
    """SHA-512 comes from CPython's own module: hashlib would load OpenSSL (3.5 MB)."""
    code = ("import sys; from kansa.replay.wall import hand_random; hand_random(bytes(1152)); "
            "print('hashlib' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=Path(__file__).resolve().parents[2])
    assert out.stdout.strip() == "False"


def test_hand_random_is_sha512_of_each_chunk() -> None:
    words = bytes(range(256)) * 4 + bytes(128)
    digest = b"".join(hashlib.sha512(words[i:i + 128]).digest() for i in range(0, 1152, 128))
    assert hand_random(words) == list(struct.unpack("<144I", digest))


def test_places_cover_the_wall_once() -> None:
    wall = next(walls(REFERENCE_KEY))
    places = [p for k in range(4) for p in _deal_positions(wall, k)]
    places += [wall.live_position(i) for i in range(Wall.live_size(4, 0))]
    places += [wall.dora_position(k) for k in range(5)]
    places += [wall.dora_position(k) ^ 1 for k in range(5)]
    places += [wall.replacement_position(k) for k in range(4)]
    assert sorted(places) == list(range(TILES))
    assert wall.dora(0) == wall.yama[5] and wall.ura(0) == wall.yama[4]
    assert [wall.replacement(k) for k in range(4)] == [wall.yama[i] for i in (1, 0, 3, 2)]
    old = Wall(wall.yama, wall.dice, legacy=True)
    assert old.dora(0) == wall.yama[4] and old.ura(0) == wall.yama[5]
    assert old.replacement(0) == wall.yama[0]


def _deal_positions(wall: Wall, k: int) -> list[int]:
    ids = wall.deal(k)
    return [TILES - 1 - wall.yama.index(i) for i in ids]


def test_walls_take_288_words_a_hand() -> None:
    it = walls(REFERENCE_KEY)
    first, second = next(it), next(it)
    rng = generator(REFERENCE_KEY)
    rnd = hand_random(block(rng, 288))
    assert first.yama == tuple(shuffle(rnd)) and first.dice == dice(rnd)
    rnd = hand_random(block(rng, 288))
    assert second.yama == tuple(shuffle(rnd))


@pytest.mark.parametrize("key", [[(i * 2654435761) & 0xFFFFFFFF for i in range(1, 625)],
                                 [7] * 623 + [0]])  # a zero top word: the slower path
def test_a_base64_seed_gives_the_walls_of_its_key(key: list[int]) -> None:
    seed = BASE64_PREFIX + base64.b64encode(struct.pack("<624I", *key)).decode()
    fast, plain = game_walls(seed), walls(key)
    assert fast is not None
    assert [next(fast) for _ in range(3)] == [next(plain) for _ in range(3)]
