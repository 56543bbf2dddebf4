"""Hand analysis: agreement with the ``mahjong`` package, hand-written cases, kan in riichi."""

from __future__ import annotations

import doctest
import itertools
import random
import time
from collections import Counter
from collections.abc import Callable

import pytest
from mahjong.shanten import Shanten

from kansa.replay import hand, hand_tables
from kansa.replay.hand import (
    Decomposition,
    ankan_is_only_pung,
    ankan_keeps_waits,
    decompositions,
    is_complete,
    is_tenpai,
    shanten,
    shanten_of,
    waits,
    waits_mask,
    waits_of,
)
from kansa.replay.tiles import Tile, kind_counts, parse_tiles

SEED = 20_160_401
N_HANDS = 100_000
SIZES = (1, 2, 4, 5, 7, 8, 10, 11, 13, 14)
WALL = [k // 4 for k in range(136)]
YAOCHU = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)
SETS = [(k, False) for k in range(34)] + [(k, True) for k in range(27) if k % 9 <= 6]


def counts(text: str) -> list[int]:
    return kind_counts(parse_tiles(text))


def kinds(text: str) -> tuple[int, ...]:
    return tuple(sorted({t.index for t in parse_tiles(text)}))


# -- the sample ----------------------------------------------------------------------------


def random_hand(rng: random.Random, n: int) -> list[int]:
    """``n`` tiles drawn from a real 136-tile wall."""
    c = [0] * 34
    for k in rng.sample(WALL, n):
        c[k] += 1
    return c


def built_hand(rng: random.Random) -> list[int]:
    """0-4 random sets and a pair (so 2-14 tiles), then spoiled a little.

    Mostly one tile removed (a tenpai 3n+1 hand with real waits), sometimes also
    one tile swapped (near tenpai), kept complete, or swapped at 3n+2.
    """
    while True:
        c = [0] * 34
        for _ in range(rng.choice((4, 4, 4, 3, 2, 1, 0))):
            k, seq = rng.choice(SETS)
            for j in (0, 1, 2):
                c[k + j if seq else k] += 1
        c[rng.randrange(34)] += 2
        if max(c) <= 4:
            break

    def take() -> None:
        c[rng.choice([k for k in range(34) if c[k]])] -= 1

    def add() -> None:
        c[rng.choice([k for k in range(34) if c[k] < 4])] += 1

    roll = rng.random()
    if roll < 0.50:
        take()
    elif roll < 0.75:
        take()
        take()
        add()
    elif roll < 0.90:
        take()
        add()
    return c


def sample(seed: int, n: int) -> list[list[int]]:
    """Seeded mix: 40% wall draws of every size, 60% built near-complete hands."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        if i % 5 < 2:
            size = rng.choice((*SIZES, 13, 13, 14, 14))
            out.append(random_hand(rng, size))
        else:
            out.append(built_hand(rng))
    return out


def candidate_kinds(c: list[int]) -> list[int]:
    """Kinds that could complete ``c``: near a held suited tile, a held honor, or
    (13 tiles) any terminal or honor for thirteen orphans.  Any other kind would be
    a lone tile in every reading."""
    out: set[int] = set()
    for k in range(27):
        if c[k]:
            base = k - k % 9
            out.update(range(max(base, k - 2), min(base + 8, k + 2) + 1))
    out.update(k for k in range(27, 34) if c[k])
    if sum(c) == 13:
        out.update(YAOCHU)
    return sorted(out)


_LIBRARY: dict[tuple[int, ...], int] = {}


def library_shanten(c: list[int]) -> int:
    """``mahjong``'s shanten, memoised (small hands repeat a lot)."""
    key = tuple(c)
    s = _LIBRARY.get(key)
    if s is None:
        s = _LIBRARY[key] = Shanten.calculate_shanten(c)
    return s


def library_waits(c: list[int], kinds_to_try: list[int]) -> tuple[int, ...]:
    """Kinds (held fewer than four times) that make ``mahjong`` say -1."""
    found = []
    for k in kinds_to_try:
        if c[k] < 4:
            c[k] += 1
            if library_shanten(c) == -1:
                found.append(k)
            c[k] -= 1
    return tuple(found)


def test_agreement_with_mahjong() -> None:
    """Shanten, waits, tenpai and completeness on 100,000 seeded hands."""
    start = time.process_time()
    hands = sample(SEED, N_HANDS)
    assert len(hands) >= 100_000
    sizes = Counter(sum(c) for c in hands)
    assert set(sizes) == set(SIZES), sizes
    bad: list[str] = []
    tenpai = multi_wait = 0
    for c in hands:
        lib = library_shanten(c)
        mine = shanten(c)
        if mine != lib:
            bad.append(f"shanten {c}: {mine} != mahjong {lib}")
        if sum(c) % 3 == 1:
            w = tuple(k for k in waits(c) if c[k] < 4)
            # The library's shanten is the exact "tiles to a complete hand" count, so a
            # hand it calls 1+ shanten has no wait on a kind held fewer than 4 times.
            expected = library_waits(c, candidate_kinds(c)) if lib == 0 else ()
            if w != expected:
                bad.append(f"waits {c}: {w} != mahjong {expected}")
            if is_tenpai(c) != (lib == 0):
                bad.append(f"is_tenpai {c}: {is_tenpai(c)} but mahjong shanten {lib}")
            tenpai += lib == 0
            multi_wait += len(expected) >= 2
        elif is_complete(c) != (lib == -1):
            bad.append(f"is_complete {c}: {is_complete(c)} but mahjong shanten {lib}")
    elapsed = time.process_time() - start
    assert bad[:10] == [], f"{len(bad)} disagreements"
    # The sample must exercise waits, not only far-from-tenpai hands.
    assert tenpai > 25_000 and multi_wait > 10_000, (tenpai, multi_wait)
    print(f"\n{len(hands)} hands (seed {SEED}) agree with mahjong: {tenpai} tenpai, "
          f"{multi_wait} with 2+ waits, {elapsed:.1f} s CPU")


def test_candidate_kinds_are_enough() -> None:
    """The oracle above tries only nearby kinds; check every kind on fewer hands."""
    hands = [c for c in sample(SEED + 1, 6_000) if sum(c) % 3 == 1]
    for c in hands:
        if Shanten.calculate_shanten(c) == 0:
            assert tuple(k for k in waits(c) if c[k] < 4) == library_waits(c, list(range(34)))


def reference_complete(c: list[int]) -> bool:
    """A slow, obviously correct standard/seven-pairs/thirteen-orphans test that,
    unlike ``mahjong``, accepts a fifth copy of a kind."""

    def sets_only(h: list[int]) -> bool:
        i = next((k for k in range(34) if h[k]), None)
        if i is None:
            return True
        if h[i] >= 3:
            h[i] -= 3
            ok = sets_only(h)
            h[i] += 3
            if ok:
                return True
        if i < 27 and i % 9 <= 6 and h[i + 1] and h[i + 2]:
            for j in (i, i + 1, i + 2):
                h[j] -= 1
            ok = sets_only(h)
            for j in (i, i + 1, i + 2):
                h[j] += 1
            return ok
        return False

    for k in range(34):
        if c[k] >= 2:
            c[k] -= 2
            ok = sets_only(c)
            c[k] += 2
            if ok:
                return True
    if sum(c) == 14:
        if sorted(x for x in c if x) == [2] * 7:
            return True
        if all(c[k] for k in YAOCHU) and sum(c[k] for k in YAOCHU) == 14:
            return True
    return False


def quad_hand(rng: random.Random) -> list[int]:
    """A 3n+1 hand (at most 13 tiles) holding some kind four times, among sets and pairs."""
    while True:
        c = [0] * 34
        quad = rng.randrange(34)
        c[quad] = 4
        for _ in range(rng.choice((0, 1, 2, 3))):
            k, seq = rng.choice(SETS)
            for j in (0, 1, 2):
                c[k + j if seq else k] += 1
        if rng.random() < 0.7:
            c[rng.randrange(34)] += 2
        if max(c) > 4:
            continue
        while sum(c) > 13 or sum(c) % 3 != 1:
            c[rng.choice([k for k in range(34) if c[k] and k != quad])] -= 1
        return c


def test_waits_on_a_kind_held_four_times() -> None:
    """Shape waits on a held four (the library cannot be asked: it rejects a fifth)."""
    rng = random.Random(SEED + 2)
    seen = 0
    for _ in range(20_000):
        c = quad_hand(rng)
        w = waits(c)
        assert shanten(c) == Shanten.calculate_shanten(c)
        for k in range(34):
            if c[k] == 4:
                c[k] += 1
                assert (k in w) == reference_complete(c), (c, k)
                c[k] -= 1
                seen += k in w
        assert is_tenpai(c) == any(c[k] < 4 for k in w)
    assert seen > 100


# -- hand-written cases -------------------------------------------------------------------

WAIT_CASES = [
    # (concealed hand, waits, tenpai)
    ("123m456p789s1122z", "12z", True),  # shanpon
    ("1122m3344p5566s7z", "7z", True),  # seven pairs
    ("1111m22334455p6s", "", False),  # a four is not two pairs
    ("19m19p19s1234567z", "19m19p19s1234567z", True),  # thirteen orphans, 13 waits
    ("19m19p19s1234566z", "7z", True),
    ("1112345678999m", "123456789m", True),  # nine gates
    ("1111m234p567s888s", "1m", False),  # only a fifth 1m would complete it
    ("1111234m567p789s", "14m", True),  # 1m in shape only, 4m real
    ("11112m55p234678s", "3m", True),
    ("3444m778899s333z", "235m", True),
    ("1234m", "14m", True),  # three melds called
    ("5556m", "467m", True),
    ("1112223m", "1234m", True),  # two melds called
    ("5z", "5z", True),  # four melds called: tanki
    ("5555z", "5z", False),
    ("1m", "1m", True),
    ("19m19p19s12345z66m", "", False),
]


@pytest.mark.parametrize(("hand", "expected", "tenpai"), WAIT_CASES)
def test_waits_cases(hand: str, expected: str, tenpai: bool) -> None:
    c = counts(hand)
    want = kinds(expected) if expected else ()
    assert waits(c) == want
    assert waits_mask(c) == sum(1 << k for k in want)
    assert is_tenpai(c) is tenpai
    assert shanten(c) == Shanten.calculate_shanten(c)
    assert (shanten(c) == 0) is tenpai


def test_wrappers_take_tiles() -> None:
    assert waits_of(parse_tiles("406m1z")) == (Tile.EAST,)
    assert waits_of(parse_tiles("3406m")) == (Tile.M3, Tile.M6)
    assert shanten_of(parse_tiles("19m19p19s1234567z")) == 0
    assert shanten_of(parse_tiles("1111m234p567s888s")) == 1


COMPLETE_CASES: list[tuple[str, list[str]]] = [
    ("111222333m55p", ["55p 111m 222m 333m", "55p 123m 123m 123m"]),
    ("11223344556677m",
     ["11m 234m 234m 567m 567m", "44m 123m 123m 567m 567m", "77m 123m 123m 456m 456m",
      "11m 22m 33m 44m 55m 66m 77m"]),
    ("11223344556677z", ["11z 22z 33z 44z 55z 66z 77z"]),
    ("19m19p19s12345677z", ["1m 9m 1p 9p 1s 9s 1z 2z 3z 4z 5z 6z 77z"]),
    ("11122m", ["22m 111m"]),
    ("11m", ["11m"]),
    ("11112345678999m", ["99m 111m 123m 456m 789m"]),
    ("11112233445566z", []),  # a four is not two pairs
    ("123m456p789s12344z", []),
]


@pytest.mark.parametrize(("hand", "readings"), COMPLETE_CASES)
def test_decomposition_cases(hand: str, readings: list[str]) -> None:
    c = counts(hand)
    assert [str(d) for d in decompositions(c)] == readings
    assert is_complete(c) is bool(readings)
    assert (Shanten.calculate_shanten(c) == -1) is bool(readings)


def test_decomposition_values() -> None:
    (d,) = decompositions(counts("123m456p789s11122z"))
    assert d == Decomposition("standard", 28, ((0, "seq"), (12, "seq"), (24, "seq"), (27, "pon")))
    (k,) = decompositions(counts("19m19p19s12345677z"))
    assert (k.form, k.pair) == ("kokushi", 33)
    chiitoi = decompositions(counts("1133557799m1155p"))
    assert [d.form for d in chiitoi] == ["chiitoitsu"]
    assert chiitoi[0].pairs == (0, 2, 4, 6, 8, 9, 13)


def test_decompositions_rebuild_the_hand() -> None:
    checked = 0
    for c in sample(SEED + 3, 20_000):
        if sum(c) % 3 != 2:
            continue
        ds = decompositions(c)
        assert bool(ds) == is_complete(c)
        assert len(set(ds)) == len(ds)
        for d in ds:
            rebuilt = [0] * 34
            if d.form == "standard":
                assert d.pair is not None
                rebuilt[d.pair] += 2
                for k, kind in d.sets:
                    for j in (0, 1, 2):
                        rebuilt[k + j if kind == "seq" else k] += 1
            elif d.form == "chiitoitsu":
                for k in d.pairs:
                    rebuilt[k] += 2
            else:
                assert d.pair is not None
                for k in YAOCHU:
                    rebuilt[k] += 1
                rebuilt[d.pair] += 1
            assert rebuilt == c
            checked += 1
    assert checked > 1_000


# -- kan during riichi (RULESETS.md section 2, riichi.wiki "Kan during riichi") -------------

KAN_CASES = [
    # (hand before the draw, kan kind, waits, Tenhou rule, EMA rule)
    ("111m222333p5678s", "1m", "58s", True, True),  # RULESETS vector 1 (wiki legal example)
    ("3444m778899s333z", "4m", "235m", False, False),  # vector 2: waits shrink to 3m
    ("3444m778899s333z", "3z", "235m", True, True),  # the wiki: West could be kanned
    ("333444555m789p6s", "3m", "6s", True, False),  # vector 3: 333 also reads as 345
    ("111m23m456p789s11z", "1m", "14m1z", False, False),  # the kan tile is a wait
    ("111m222333p5678s", "2p", "58s", True, True),
    ("1112345678999m", "1m", "123456789m", False, False),  # nine gates
    ("11122333p22255s", "1p", "2p5s", True, False),  # 111222333p also reads as 123 x3
    ("999p6667999s111z", "9s", "578s", True, False),  # +8s: 66 678 999 or 666 789 99
]


@pytest.mark.parametrize(("hand", "kind", "expected", "tenhou", "ema"), KAN_CASES)
def test_kan_during_riichi(hand: str, kind: str, expected: str, tenhou: bool, ema: bool) -> None:
    c = counts(hand)
    k = Tile.parse(kind).index
    assert waits(c) == kinds(expected)
    assert ankan_keeps_waits(c, k) is tenhou
    assert ankan_is_only_pung(c, k) is ema


def test_honor_kan_in_riichi_is_always_allowed() -> None:
    hits = 0
    for c in sample(SEED + 4, 40_000):
        if sum(c) % 3 != 1 or not is_tenpai(c):
            continue
        for k in range(27, 34):
            if c[k] == 3:
                assert ankan_keeps_waits(c, k) and ankan_is_only_pung(c, k), c
                hits += 1
    assert hits > 100


def test_kan_rules_nest() -> None:
    """The EMA rule only ever forbids more than the Tenhou rule."""
    for c in sample(SEED + 5, 20_000):
        if sum(c) % 3 != 1 or not is_tenpai(c):
            continue
        for k in range(34):
            if c[k] == 3 and ankan_is_only_pung(c, k):
                assert ankan_keeps_waits(c, k)


# -- tables and errors ---------------------------------------------------------------------


def test_blocks_match_the_whole_suit() -> None:
    """Splitting a suit at double gaps gives the same distances as the whole-suit DP."""
    rng = random.Random(SEED + 6)
    for _ in range(400):
        h = tuple(rng.choice((0, 0, 0, 1, 1, 2, 3, 4)) for _ in range(9))
        if sum(h) <= 14:
            assert hand_tables.VECTORS[hand_tables.suit_distance(h)] == \
                hand_tables.dp_distance(h), h


ERRORS: list[tuple[Callable[[list[int]], object], str]] = [
    (shanten, "123m"),
    (shanten, "123456789m123456z"),
    (waits, "12m"),
    (is_complete, "1m"),
    (decompositions, "123m"),
]


@pytest.mark.parametrize(("fn", "hand"), ERRORS)
def test_wrong_sizes_raise(fn: Callable[[list[int]], object], hand: str) -> None:
    with pytest.raises(ValueError):
        fn(counts(hand))


def test_bad_input_raises() -> None:
    with pytest.raises(ValueError):
        shanten([1] * 13)
    with pytest.raises(ValueError):
        ankan_keeps_waits(counts("1111m234p567s888s"), 0)
    with pytest.raises(ValueError):
        ankan_is_only_pung(counts("123m456p789s1122z"), 27)


def test_every_size_of_the_sample_is_exercised() -> None:
    sizes = Counter(sum(c) for c in itertools.islice(sample(SEED, 5_000), 5_000))
    assert all(sizes[n] > 50 for n in SIZES), sizes


def test_doctests() -> None:
    for module in (hand, hand_tables):
        result = doctest.testmod(module)
        assert result.failed == 0, module.__name__
