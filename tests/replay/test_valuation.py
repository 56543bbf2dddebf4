"""kansa's own valuation of regular wins against the ``mahjong`` library, its reference.

Generated wins (seeded), at four players and at three: four sets and a pair or seven
pairs, some sets called or konged, a winning tile among the concealed ones, random
winds, flags, dora, Norths set aside and rule sets, and hands biased towards the shapes
of the rarer yaku.  Whenever
:func:`~kansa.replay.valuation.value_regular` answers, its yaku, fu and choice between
readings must be the library's; the tests also require that it answers for most of them
and that every yaku it knows has come up, so that they cannot pass by declining.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import pytest

from kansa.replay import scoring, valuation
from kansa.replay.melds import Meld, MeldType
from kansa.replay.rules import RuleSet
from kansa.replay.situation import WinSituation
from kansa.replay.tiles import Tile, parse_tiles
from kansa.replay.yaku import Yaku

WINDS = (Tile.EAST, Tile.SOUTH, Tile.WEST, Tile.NORTH)
FOUR_PLAYER = tuple(RuleSet.preset(n) for n in ("tenhou", "majsoul", "ema", "wrc", "mleague"))
THREE_PLAYER = (RuleSet.preset("tenhou-sanma"), RuleSet.preset("majsoul-sanma"))
FIVES = (4, 13, 22)


def _kinds(rng: random.Random) -> list[int]:
    """The kinds sets are drawn from: everything, one suit with or without honors,
    terminals and honors, or simples."""
    style = rng.random()
    if style < 0.35:
        return list(range(34))
    if style < 0.6:
        s = 9 * rng.randrange(3)
        return list(range(s, s + 9)) + (list(range(27, 34)) if rng.random() < 0.5 else [])
    if style < 0.75:
        return [k for k in range(34) if k >= 27 or k % 9 in (0, 8)] + [0, 6, 9, 15, 18, 24]
    return [k for k in range(27) if k % 9 not in (0, 8)]


def _sets(rng: random.Random) -> tuple[list[tuple[int, bool]], int] | None:
    """Four sets (first kind, is a sequence) and a pair kind, at most four of a kind."""
    kinds = _kinds(rng)
    sets: list[tuple[int, bool]] = []
    shape = rng.random()
    if shape < 0.1:  # the same sequence in the three suits
        start = rng.randrange(7)
        sets = [(start, True), (9 + start, True), (18 + start, True)]
    elif shape < 0.2:  # a straight
        s = 9 * rng.randrange(3)
        sets = [(s, True), (s + 3, True), (s + 6, True)]
    elif shape < 0.3:  # a repeated sequence
        k = rng.choice([k for k in range(27) if k % 9 <= 6])
        sets = [(k, True), (k, True)]
    elif shape < 0.36:  # dragons
        sets = [(31, False), (32, False)]
    while len(sets) < 4:
        k = rng.choice(kinds)
        seq = k < 27 and k % 9 <= 6 and rng.random() < 0.6
        sets.append((k, seq))
    pair = rng.choice(kinds)
    counts = Counter[int]()
    for k, seq in sets:
        for j in (0, 1, 2):
            counts[k + j if seq else k] += 1
    counts[pair] += 2
    if max(counts.values()) > 4:
        return None
    return sets, pair


def _tile(k: int, red: bool) -> Tile:
    t = Tile.from_index(k)
    return t.red() if red else t


def _win(rng: random.Random, players: int = 4) -> WinSituation | None:
    melds: list[Meld] = []
    concealed: list[Tile] = []
    reds_left = {k for k in FIVES if rng.random() < 0.5}

    def take(k: int) -> Tile:
        red = k in reds_left and rng.random() < 0.5
        if red:
            reds_left.discard(k)
        return _tile(k, red)

    if rng.random() < 0.1:  # seven pairs
        kinds = rng.sample(_kinds(rng) if rng.random() < 0.5 else list(range(34)), 7)
        if len(set(kinds)) < 7:
            return None
        for k in kinds:
            concealed += [take(k), take(k)]
    else:
        drawn = _sets(rng)
        if drawn is None:
            return None
        sets, pair = drawn
        open_rate = rng.choice((0.0, 0.0, 0.3, 0.6))
        used = Counter[int]()
        for k, seq in sets:
            used.update([k, k + 1, k + 2] if seq else [k, k, k])
        used[pair] += 2
        for k, seq in sets:
            if seq:
                tiles = [take(k), take(k + 1), take(k + 2)]
                if rng.random() < open_rate:
                    melds.append(Meld(MeldType.CHI, tuple(tiles), called=tiles[0], target=3))
                else:
                    concealed += tiles
                continue
            tiles = [take(k), take(k), take(k)]
            r = rng.random()
            if r < 0.12 and used[k] == 3:
                tiles.append(take(k))
                used[k] += 1
                kind = rng.choice((MeldType.ANKAN, MeldType.DAIMINKAN, MeldType.KAKAN))
                called = None if kind is MeldType.ANKAN else tiles[0]
                melds.append(Meld(kind, tuple(tiles), called=called,
                                  target=None if called is None else 2))
            elif r < 0.12 + open_rate:
                melds.append(Meld(MeldType.PON, tuple(tiles), called=tiles[0], target=1))
            else:
                concealed += tiles
        concealed += [take(pair), take(pair)]
    kita = 0
    if players == 3:  # no 2m-8m, no chi; some Norths set aside
        held = concealed + [t for m in melds for t in m.tiles]
        if any(1 <= t.index <= 7 for t in held) or any(m.type is MeldType.CHI for m in melds):
            return None
        kita = rng.choice((0, 0, rng.randrange(5 - sum(t.index == 30 for t in held))))
    win = rng.choice(concealed)
    is_open = any(m.type is not MeldType.ANKAN for m in melds)
    tsumo = rng.random() < 0.45
    sloppy = rng.random() < 0.05  # flags the library refuses
    riichi = (not is_open or sloppy) and rng.random() < 0.5
    double = riichi and rng.random() < 0.1
    kan = any(m.type.is_kan for m in melds)
    rinshan = tsumo and (kan or sloppy) and rng.random() < 0.3
    last = rng.random() < 0.08
    markers = tuple(Tile.from_index(rng.randrange(34)) for _ in range(1 + rng.randrange(4)))
    ura = tuple(Tile.from_index(rng.randrange(34)) for _ in markers)
    seat = rng.choice(WINDS)
    return WinSituation(
        winner=0, target=0 if tsumo else 1, win_tile=win, concealed=tuple(sorted(concealed)),
        melds=tuple(melds), is_tsumo=tsumo, is_dealer=seat is Tile.EAST, seat_wind=seat,
        round_wind=rng.choice(WINDS[:2] if rng.random() < 0.8 else WINDS),
        riichi=riichi and not double, double_riichi=double,
        ippatsu=(riichi or sloppy) and rng.random() < 0.25, rinshan=rinshan,
        chankan=(not tsumo or sloppy) and rng.random() < 0.03,
        haitei=(tsumo or sloppy) and not rinshan and last,
        houtei=(not tsumo or sloppy) and last, tenhou=False, chiihou=False, renhou=False,
        dora_markers=markers, ura_markers=ura, nukidora=kita, honba=0, kyotaku=0)


def _rules(rng: random.Random, players: int) -> RuleSet:
    rules = rng.choice(FOUR_PLAYER if players == 4 else THREE_PLAYER)
    if players == 3 and rng.random() < 0.2:
        rules = replace(rules, kita_dora=False)
    if rng.random() < 0.3:
        rules = replace(rules, kuitan=rng.random() < 0.5, aka=rng.random() < 0.5,
                        kiriage=rng.random() < 0.5, double_wind_pair_fu=rng.choice((2, 4)))
    return rules


def _answer(v: valuation.Valued) -> tuple[object, ...]:
    return v.yaku, v.fu, v.raw_fu, v.double_wind_pair, v.error


def _generated(n: int, seed: int, players: int = 4) -> list[tuple[WinSituation, RuleSet]]:
    rng = random.Random(seed)
    out: list[tuple[WinSituation, RuleSet]] = []
    while len(out) < n:
        ws = _win(rng, players)
        if ws is not None:
            out.append((ws, _rules(rng, players)))
    return out


@pytest.mark.parametrize(("seed", "players"), [(1, 4), (2, 4), (3, 4), (4, 3)])
def test_own_valuation_is_the_librarys_on_generated_wins(seed: int, players: int) -> None:
    answered = 0
    seen: set[Yaku] = set()
    errors = 0
    wins = _generated(4000, seed, players)
    for ws, rules in wins:
        own = valuation.value_regular(ws, ws.ura_markers, rules)
        if own is None:
            continue
        answered += 1
        lib = scoring.library_value(ws, rules)
        assert _answer(own) == _answer(lib), (ws, rules.name)
        seen.update(y for y, _ in own.yaku)
        errors += own.error is not None
    assert answered >= 0.8 * len(wins)
    assert errors > 0  # hands without a yaku came up
    expected = set(valuation._HAN) | {Yaku.DORA, Yaku.AKA_DORA, Yaku.URA_DORA}
    if players == 3:
        expected -= {Yaku.SANSHOKU, Yaku.SANSHOKU_DOUKOU}  # no 2m-8m
        assert sum(ws.nukidora > 0 for ws, _ in wins) > len(wins) // 5
    assert expected <= seen


def test_hand_values_are_the_same_with_and_without_own_valuation() -> None:
    """Through the calculator's whole path, declined wins, limits and kita included."""
    wins = _generated(1500, 7) + _generated(500, 8, players=3)
    try:
        scoring.set_own_valuation(False)
        lib = [scoring.hand_value(ws, rules) for ws, rules in wins]
    finally:
        scoring.set_own_valuation(True)
    own = [scoring.hand_value(ws, rules) for ws, rules in wins]
    assert own == lib
    assert len({(v.han, v.fu) for v in own if v.error is None}) > 40


def _situation(concealed: str, *, win: str, tsumo: bool = False,
               melds: tuple[Meld, ...] = (), seat: Tile = Tile.SOUTH) -> WinSituation:
    return WinSituation(
        winner=0, target=0 if tsumo else 1, win_tile=parse_tiles(win)[0],
        concealed=tuple(sorted(parse_tiles(concealed))), melds=melds, is_tsumo=tsumo,
        is_dealer=seat is Tile.EAST, seat_wind=seat, round_wind=Tile.EAST, riichi=False,
        double_riichi=False, ippatsu=False, rinshan=False, chankan=False, haitei=False,
        houtei=False, tenhou=False, chiihou=False, renhou=False, dora_markers=(),
        ura_markers=(), nukidora=0, honba=0, kyotaku=0)


TENHOU = RuleSet.preset("tenhou")


@pytest.mark.parametrize(("hand", "win", "tsumo", "yaku", "fu"), [
    # a ron completing a pung: no yaku (that pung counts as open)
    ("234m678p55s777s999s", "9s", False, [], 0),
    # the same by tsumo: 30 + 8 + 4 + 2 fu before rounding
    ("234m678p55s777s999s", "9s", True, [Yaku.MENZEN_TSUMO], 40),
    # 123 123 123 read as sequences (iipeikou, pinfu) or pungs (sanankou): the dearer one
    ("111222333m456p99s", "3m", True, [Yaku.MENZEN_TSUMO, Yaku.SANANKOU], 40),
    # seven pairs or two identical sequences twice: ryanpeikou pays more
    ("223344m556677p88s", "4m", False,
     [Yaku.PINFU, Yaku.TANYAO, Yaku.RYANPEIKOU], 30),
])
def test_known_readings(hand: str, win: str, tsumo: bool, yaku: list[Yaku], fu: int) -> None:
    ws = _situation(hand, win=win, tsumo=tsumo)
    own = valuation.value_regular(ws, (), TENHOU)
    assert own is not None
    assert [y for y, _ in own.yaku] == yaku
    if yaku:
        assert own.fu == fu
    else:
        assert own.error == "no_yaku"
    assert _answer(own) == _answer(scoring.library_value(ws, TENHOU))


@pytest.mark.parametrize(("hand", "win", "tsumo"), [
    ("555666777z11122m", "2m", False),  # daisangen
    ("111m999m111p999p11s", "1s", True),  # chinroutou (and suuankou)
    ("111222333z44z555z", "4z", False),  # shousuushii
    ("1112345678999m5m", "5m", True),  # chuuren poutou
    ("19m19p19s1234567z1m", "1m", False),  # kokushi: no reading of four sets
])
def test_yakuman_shapes_are_left_to_the_library(hand: str, win: str, tsumo: bool) -> None:
    ws = _situation(hand, win=win, tsumo=tsumo)
    assert valuation.value_regular(ws, (), TENHOU) is None
    value = scoring.hand_value(ws, TENHOU)
    assert value.yakuman >= 1 or value.error is not None
