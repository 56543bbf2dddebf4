"""kansa's own valuation of regular wins: the ``mahjong`` library's answer, computed here.

:mod:`kansa.replay.scoring` asks :func:`value_regular` first and the library for what it
declines.  A regular win is a win of four sets and a pair or of seven pairs, with no
yakuman in reach, no blessing (tenhou, chiihou, renhou), and flags the library accepts;
that is nearly every win of every log, at four players or three (where the kita count as
dora, as the library counts them).  For those this gives
what the library gives, decision for decision: the same readings of the hand in the
same order, the same fu, the same yaku (listed by the library's ids), and the same choice
between readings (the highest payment, then han, then fu, then unrounded fu, then the
first).
tests/replay/test_valuation.py holds it to the library on generated hands and on every
win of the corpus.

A reading is a sorted list of block codes, ``4 * kind + shape``, the shapes numbered as
the library orders its blocks (a kan before a pung before a pair before a sequence), so
that sorting codes sorts blocks as the library does.

"""

from __future__ import annotations

from typing import Final

from kansa.replay import hand_tables as _t
from kansa.replay.melds import Meld, MeldType
from kansa.replay.rules import KazoeCap, RuleSet
from kansa.replay.situation import WinSituation
from kansa.replay.tiles import Tile
from kansa.replay.yaku import Yaku

QUAD: Final = 0
TRIPLET: Final = 1
PAIR: Final = 2
SEQUENCE: Final = 3
"""Block shapes; ``shape <= TRIPLET`` is a pung or a kan."""

_YAOCHU: Final = tuple(k >= 27 or k % 9 in (0, 8) for k in range(34))
_TERMINAL: Final = tuple(k < 27 and k % 9 in (0, 8) for k in range(34))
_GREEN: Final = tuple(k in (19, 20, 21, 23, 25, 32) for k in range(34))
_DRAGONS: Final = (31, 32, 33)
_WINDS: Final = (27, 28, 29, 30)
_SEAT_YAKU: Final = (Yaku.SEAT_EAST, Yaku.SEAT_SOUTH, Yaku.SEAT_WEST, Yaku.SEAT_NORTH)
_ROUND_YAKU: Final = (Yaku.ROUND_EAST, Yaku.ROUND_SOUTH, Yaku.ROUND_WEST, Yaku.ROUND_NORTH)
_DRAGON_YAKU: Final = (Yaku.HAKU, Yaku.HATSU, Yaku.CHUN)

_HAN: Final[dict[Yaku, tuple[int, int, int]]] = {
    Yaku.MENZEN_TSUMO: (1, 0, 0), Yaku.RIICHI: (1, 0, 1), Yaku.IPPATSU: (1, 0, 3),
    Yaku.CHANKAN: (1, 1, 4), Yaku.RINSHAN: (1, 1, 5), Yaku.HAITEI: (1, 1, 6),
    Yaku.HOUTEI: (1, 1, 7), Yaku.DOUBLE_RIICHI: (2, 0, 8), Yaku.PINFU: (1, 0, 12),
    Yaku.TANYAO: (1, 1, 13), Yaku.IIPEIKOU: (1, 0, 14), Yaku.HAKU: (1, 1, 15),
    Yaku.HATSU: (1, 1, 16), Yaku.CHUN: (1, 1, 17), Yaku.SEAT_EAST: (1, 1, 18),
    Yaku.SEAT_SOUTH: (1, 1, 19), Yaku.SEAT_WEST: (1, 1, 20), Yaku.SEAT_NORTH: (1, 1, 21),
    Yaku.ROUND_EAST: (1, 1, 22), Yaku.ROUND_SOUTH: (1, 1, 23), Yaku.ROUND_WEST: (1, 1, 24),
    Yaku.ROUND_NORTH: (1, 1, 25), Yaku.SANSHOKU: (2, 1, 26), Yaku.ITTSU: (2, 1, 27),
    Yaku.CHANTA: (2, 1, 28), Yaku.HONROUTOU: (2, 2, 29), Yaku.TOITOI: (2, 2, 30),
    Yaku.SANANKOU: (2, 2, 31), Yaku.SANKANTSU: (2, 2, 32), Yaku.SANSHOKU_DOUKOU: (2, 2, 33),
    Yaku.CHIITOITSU: (2, 0, 34), Yaku.SHOUSANGEN: (2, 2, 35), Yaku.HONITSU: (3, 2, 36),
    Yaku.JUNCHAN: (3, 2, 37), Yaku.RYANPEIKOU: (3, 0, 38), Yaku.CHINITSU: (6, 5, 39),
}
"""(closed han, open han, the library's id) of each yaku valued here, as the library
counts them (open 0: a closed hand's yaku); the library lists yaku by id, dora last."""


class Valued:
    """A win's yaku and fu as the library reports them, before limits and payments."""

    __slots__ = ("double_wind_pair", "error", "fu", "raw_fu", "yaku")

    def __init__(self, yaku: list[tuple[Yaku, int]], fu: int, raw_fu: int,
                 double_wind_pair: bool, error: str | None = None) -> None:
        self.yaku: Final = yaku
        """(yaku, han) in the library's order, dora, red fives and ura dora last."""
        self.fu: Final = fu
        """Fu rounded up to ten (25 for seven pairs)."""
        self.raw_fu: Final = raw_fu
        """Fu before rounding."""
        self.double_wind_pair: Final = double_wind_pair
        """The pair is the seat wind and the round wind both (4 fu counted)."""
        self.error: Final = error
        """``no_yaku`` (and the rest empty) when no reading has a yaku."""


class _Hand:
    """What every reading of one win shares."""

    __slots__ = ("chi_melds", "closed", "dealer", "kan_melds", "meld_state", "open_blocks",
                 "opened", "round", "seat", "tsumo", "valued", "win")

    def __init__(self, ws: WinSituation, melds: tuple[Meld, ...]) -> None:
        self.win: Final = ws.win_tile.index
        self.tsumo: Final = ws.is_tsumo
        self.dealer: Final = ws.seat_wind is Tile.EAST
        self.seat: Final = ws.seat_wind.index
        self.round: Final = ws.round_wind.index
        self.valued: Final = (31, 32, 33, self.seat, self.round)
        opened: list[int] = []
        chi_melds: list[int] = []
        state = [0] * 34
        kans = 0
        for m in melds:
            code = meld_code(m)
            is_open = m.type is not MeldType.ANKAN
            if is_open:
                opened.append(code)
            if m.type is MeldType.CHI:
                chi_melds.append(code >> 2)
            else:
                kan = m.type.is_kan
                kans += kan
                state[code >> 2] = is_open | kan << 1
        self.opened: Final = opened
        self.open_blocks: Final = frozenset(opened)
        self.closed: Final = not opened
        self.chi_melds: Final = chi_melds
        self.meld_state: Final = state
        self.kan_melds: Final = kans


def meld_code(m: Meld) -> int:
    """The block code of a meld (its lowest kind and shape)."""
    low = min(t.index for t in m.tiles)
    if m.type is MeldType.CHI:
        return 4 * low + SEQUENCE
    if m.type is MeldType.PON:
        return 4 * low + TRIPLET
    return 4 * low + QUAD


def _declined(ws: WinSituation, is_open: bool) -> bool:
    """Wins left to the library: blessings, and the flag combinations the library
    refuses (its error is the answer)."""
    if ws.tenhou or ws.chiihou or ws.renhou:
        return True
    riichi = ws.riichi or ws.double_riichi
    tsumo = ws.is_tsumo
    return ((riichi and is_open) or (ws.ippatsu and not riichi) or (ws.chankan and tsumo)
            or (ws.rinshan and not tsumo) or (ws.haitei and not tsumo)
            or (ws.houtei and tsumo) or (ws.haitei and ws.rinshan)
            or (ws.houtei and ws.chankan))


def _yakuman_in_reach(total: list[int], melds: tuple[Meld, ...], closed: bool) -> bool:
    """Whether some reading of a hand holding ``total`` could be a yakuman (a superset
    of the hands that are: those are left to the library)."""
    honors = sum(total[27:])
    if honors == sum(total):
        return True  # tsuuiisou
    if honors == 0 and all(_TERMINAL[k] for k in range(34) if total[k]):
        return True  # chinroutou
    if all(_GREEN[k] for k in range(34) if total[k]):
        return True  # ryuuiisou
    if sum(1 for k in _DRAGONS if total[k] >= 3) == 3:
        return True  # daisangen
    if sum(1 for k in _WINDS if total[k] >= 2) == 4:
        return True  # shousuushii, daisuushii
    if sum(1 for m in melds if m.type.is_kan) == 4:
        return True  # suukantsu
    if closed and sum(1 for c in total if c >= 3) >= 4:
        return True  # suuankou
    if not melds and honors == 0:
        for s in (0, 9, 18):
            if sum(total[s:s + 9]) == 14 and total[s] >= 3 and total[s + 8] >= 3:
                return True  # chuuren poutou
    return False


def _readings(counts: list[int], melds: tuple[Meld, ...], meld_codes: list[int],
              ) -> list[list[int]]:
    """Every reading of the concealed ``counts`` with the melds, each sorted, in the
    library's order (seven pairs as one more reading when there is no meld)."""
    combos: list[tuple[int, list[int]]] = [(-1, [])]
    for g in range(4):
        base = 9 * g
        key = tuple(counts[base:base + (9 if g < 3 else 7)])
        size = sum(key)
        if size % 3 == 1:
            combos = []  # no four sets and a pair
            break
        if size == 0:
            continue
        nxt: list[tuple[int, list[int]]] = []
        for gp, gsets in _t.readings(key, g < 3):
            for pair, sets in combos:
                if _t.NO_PAIR not in (gp, pair):
                    continue  # a second pair
                out = list(sets)
                for k, seq in gsets:
                    out.append(4 * (base + k) + (SEQUENCE if seq else TRIPLET))
                nxt.append((pair if gp == _t.NO_PAIR else base + gp, out))
        combos = nxt
    found: list[list[int]] = []
    for pair, sets in combos:
        if pair != _t.NO_PAIR:
            blocks = sets + meld_codes
            blocks.append(4 * pair + PAIR)
            if len(blocks) == 5:
                blocks.sort()
                found.append(blocks)
    if not melds and all(c in (0, 2) for c in counts) and counts.count(2) == 7:
        found.append([4 * k + PAIR for k in range(34) if counts[k]])
    found.sort()
    return found


def _win_groups(blocks: list[int], hand: _Hand) -> list[int]:
    """The blocks the winning tile may have completed: those holding its kind that are not
    an open meld, each code once."""
    consumed = [False] * len(hand.opened)
    groups: list[int] = []
    w = hand.win
    for code in blocks:
        meld = False
        for i, o in enumerate(hand.opened):
            if not consumed[i] and o == code:
                consumed[i] = True
                meld = True
                break
        if meld:
            continue
        k = code >> 2
        holds = k <= w <= k + 2 if code & 3 == SEQUENCE else k == w
        if holds and code not in groups:
            groups.append(code)
    return groups


_PON_FU: Final = ((4, 2), (16, 8), (8, 4), (32, 16))
"""Fu of a pung or kan: index ``2 * terminal_or_honor + kan``, then closed or open."""


def _fu(blocks: list[int], wg: int, hand: _Hand, tsumo_fu_for_pinfu: bool,
        ) -> tuple[int, bool, bool]:
    """(unrounded fu, the pair is a double wind, no fu but the base) of one reading won on
    block ``wg`` (four sets and a pair)."""
    w = hand.win
    wk = wg >> 2
    wg_chi = wg & 3 == SEQUENCE
    extra = 0
    double = False
    if wg_chi:
        in_hand = sum(1 for b in blocks if b == wg)
        in_melds = sum(1 for k in hand.chi_melds if k == wk)
        if in_hand > in_melds:
            if (wk % 9 == 0 and w == wk + 2) or (wk % 9 == 6 and w == wk):
                extra += 2  # penchan
            if w == wk + 1:
                extra += 2  # kanchan
    for b in blocks:
        if b & 3 == PAIR:
            n = hand.valued.count(b >> 2)
            if n == 1:
                extra += 2
            elif n >= 2:
                extra += 4
                double = True
    if wg & 3 == PAIR:
        extra += 2
    for b in blocks:
        shape = b & 3
        if shape <= TRIPLET:
            k = b >> 2
            state = hand.meld_state[k]
            was_open = state & 1 == 1
            kan = shape == QUAD or state & 2 == 2
            if not hand.tsumo and wg == b:
                was_open = True
            fu = _PON_FU[2 * _YAOCHU[k] + kan]
            extra += fu[1] if was_open else fu[0]
    bare = extra == 0
    if hand.tsumo and (extra > 0 or tsumo_fu_for_pinfu):
        extra += 2
    if not hand.closed and extra == 0:
        extra += 2  # an open hand without fu
    return extra + (20 if not hand.closed or hand.tsumo else 30), double, bare


def _sanankou(blocks: list[int], hand: _Hand) -> bool:
    w = hand.win
    closed_pons = 0
    chi_with_win = False
    for b in blocks:
        shape = b & 3
        if shape <= TRIPLET:
            if b not in hand.open_blocks:
                closed_pons += 1
        elif shape == SEQUENCE and b >> 2 <= w <= (b >> 2) + 2 and b not in hand.open_blocks:
            chi_with_win = True
    if not hand.tsumo and not chi_with_win:
        for b in blocks:
            shape = b & 3
            if (shape <= TRIPLET) and b >> 2 == w and b not in hand.open_blocks:
                closed_pons -= 1
                break
    return closed_pons == 3


def _chantai_junchan(blocks: list[int]) -> tuple[bool, bool]:
    terminal = honor = 0
    for b in blocks:
        k = b >> 2
        last = k + 2 if b & 3 == SEQUENCE else k
        if _TERMINAL[k] or _TERMINAL[last]:
            terminal += 1
        elif k >= 27:
            honor += 1
    return (terminal + honor == 5 and terminal > 0 and honor > 0), terminal == 5


def _suit_masks(blocks: list[int], sequences: bool) -> tuple[int, int, int]:
    """Per suit (man, pin, sou), bit ``n`` set for a sequence (``sequences``) or else a
    pung or kan starting at number ``n + 1``."""
    man = pin = sou = 0
    for b in blocks:
        k = b >> 2
        shape = b & 3
        if k < 27 and (shape == SEQUENCE if sequences else shape <= TRIPLET):
            bit = 1 << (k % 9)
            if k >= 18:
                sou |= bit
            elif k >= 9:
                pin |= bit
            else:
                man |= bit
    return man, pin, sou


def _library_total(han: int, fu: int, hand: _Hand, rules: RuleSet) -> int:
    """What the library's payment total would be (no honba, no sticks)."""
    if han >= 13:
        han = 13 if rules.kazoe_cap is KazoeCap.YAKUMAN else 12
    if han >= 5:
        rounded = (8000 if han >= 13 else 6000 if han >= 11 else 4000 if han >= 8
                   else 3000 if han >= 6 else 2000)
        double, four, six = 2 * rounded, 4 * rounded, 6 * rounded
    else:
        b = fu << (han + 2)
        rounded = (b + 99) // 100 * 100
        double = (2 * b + 99) // 100 * 100
        four = (4 * b + 99) // 100 * 100
        six = (6 * b + 99) // 100 * 100
        kiriage = rules.kiriage and ((han == 4 and fu == 30) or (han == 3 and fu == 60))
        if rounded > 2000 or kiriage:
            rounded, double, four, six = 2000, 4000, 8000, 12000
    if hand.tsumo:
        payers = 1 if rules.players == 3 else 2  # the library's other payers but one
        return double + payers * (double if hand.dealer else rounded)
    return six if hand.dealer else four


def value_regular(ws: WinSituation, ura: tuple[Tile, ...], rules: RuleSet) -> Valued | None:
    """The library's yaku and fu for a regular win, or ``None`` for a win it must value."""
    melds = ws.melds
    is_open = any(m.type is not MeldType.ANKAN for m in melds)
    if _declined(ws, is_open):
        return None
    counts = [0] * 34
    reds = 0
    for t in ws.concealed:
        counts[t.index] += 1
        reds += t.is_red
    total = list(counts)
    for m in melds:
        for t in m.tiles:
            total[t.index] += 1
            reds += t.is_red
    if max(total) > 4 or not counts[ws.win_tile.index]:
        return None
    if _yakuman_in_reach(total, melds, not is_open):
        return None
    hand = _Hand(ws, melds)
    readings = _readings(counts, melds, [meld_code(m) for m in melds])
    if not readings:
        return None
    return _best(readings, hand, ws, total=total, reds=reds, ura=ura, rules=rules)


def _best(readings: list[list[int]], hand: _Hand, ws: WinSituation, *, total: list[int],
          reds: int, ura: tuple[Tile, ...], rules: RuleSet) -> Valued:
    """The library's choice among the readings and their winning blocks."""
    riichi = ws.riichi or ws.double_riichi
    tanyao_hand = not any(total[k] for k in range(34) if _YAOCHU[k])
    honors = any(total[27:])
    suits = sum(1 for s in (0, 9, 18) if any(total[s:s + 9]))
    all_yaochu = all(_YAOCHU[k] for k in range(34) if total[k])
    three = rules.players == 3
    kita = ws.nukidora if rules.kita_dora else 0
    dora = _dora(total, ws.dora_markers, three, kita) + kita
    aka = reds if rules.aka else 0
    ura_dora = _dora(total, ura, three, kita) if riichi else 0
    head: list[Yaku] = []  # the yaku of the situation, in the library's order
    if riichi:
        head.append(Yaku.DOUBLE_RIICHI if ws.double_riichi else Yaku.RIICHI)
    for flag, flag_yaku in ((ws.ippatsu, Yaku.IPPATSU), (ws.rinshan, Yaku.RINSHAN),
                            (ws.chankan, Yaku.CHANKAN), (ws.haitei, Yaku.HAITEI),
                            (ws.houtei, Yaku.HOUTEI)):
        if flag:
            head.append(flag_yaku)
    if suits == 1:
        head.append(Yaku.HONITSU if honors else Yaku.CHINITSU)
    if all_yaochu:
        head.append(Yaku.HONROUTOU)
    honor_yaku: list[Yaku] = []
    for k, dragon in zip(_DRAGONS, _DRAGON_YAKU, strict=True):
        if total[k] >= 3:
            honor_yaku.append(dragon)
    if total[hand.seat] >= 3:
        honor_yaku.append(_SEAT_YAKU[hand.seat - 27])
    if total[hand.round] >= 3:
        honor_yaku.append(_ROUND_YAKU[hand.round - 27])
    shousangen = sum(1 for k in _DRAGONS if total[k] >= 2) == 3

    best: Valued | None = None
    best_key = (-2, 0, 0, 0)
    for blocks in readings:
        seven = len(blocks) == 7
        chi = any(b & 3 == SEQUENCE for b in blocks)
        pons = sum(1 for b in blocks if b & 3 <= TRIPLET)
        for wg in _win_groups(blocks, hand):
            if seven:
                raw, double, bare = 25, False, False
            else:
                raw, double, bare = _fu(blocks, wg, hand, False)
            fu = 25 if seven else (raw + 9) // 10 * 10
            yaku: list[Yaku] = []
            if hand.tsumo and hand.closed:
                yaku.append(Yaku.MENZEN_TSUMO)
            if bare and not seven and hand.closed:
                yaku.append(Yaku.PINFU)
            if seven:
                yaku.append(Yaku.CHIITOITSU)
            if tanyao_hand and (hand.closed or rules.kuitan):
                yaku.append(Yaku.TANYAO)
            yaku += head
            if chi:
                man, pin, sou = _suit_masks(blocks, True)
                if not tanyao_hand:
                    chanta, junchan = _chantai_junchan(blocks)
                    if chanta:
                        yaku.append(Yaku.CHANTA)
                    if junchan:
                        yaku.append(Yaku.JUNCHAN)
                    if 0b1001001 in (man & 0b1001001, pin & 0b1001001, sou & 0b1001001):
                        yaku.append(Yaku.ITTSU)
                if hand.closed:
                    peikou = _peikou(blocks)
                    if peikou >= 2:
                        yaku.append(Yaku.RYANPEIKOU)
                    elif peikou == 1:
                        yaku.append(Yaku.IIPEIKOU)
                if suits == 3 and man & pin & sou:
                    yaku.append(Yaku.SANSHOKU)
            if pons:
                if pons == 4:
                    yaku.append(Yaku.TOITOI)
                if _sanankou(blocks, hand):
                    yaku.append(Yaku.SANANKOU)
                if suits == 3:
                    man, pin, sou = _suit_masks(blocks, False)
                    if man & pin & sou:
                        yaku.append(Yaku.SANSHOKU_DOUKOU)
                if honors:
                    if shousangen:
                        yaku.append(Yaku.SHOUSANGEN)
                    yaku += honor_yaku
                if hand.kan_melds == 3:
                    yaku.append(Yaku.SANKANTSU)
            yaku.sort(key=_library_id)
            pairs = [(y, _HAN[y][1] if not hand.closed and _HAN[y][1] else _HAN[y][0])
                     for y in yaku]
            han = sum(h for _, h in pairs)
            if han == 0:
                key = (-1, 0, fu, raw)
                if key > best_key:
                    best_key = key
                    best = Valued([], 0, 0, False, error="no_yaku")
                continue
            for n, y in ((dora, Yaku.DORA), (aka, Yaku.AKA_DORA), (ura_dora, Yaku.URA_DORA)):
                if n:
                    pairs.append((y, n))
                    han += n
            key = (_library_total(han, fu, hand, rules), han, fu, raw)
            if key > best_key:
                best_key = key
                best = Valued(pairs, fu, raw, double)
    assert best is not None  # every reading has a winning block
    return best


def _dora(total: list[int], markers: tuple[Tile, ...], three: bool, kita: int) -> int:
    """The dora the indicators make of the hand and of the ``kita`` Norths set aside (at
    three players a 1m indicator makes 9m the dora)."""
    n = 0
    for t in markers:
        k = 8 if three and t.index == 0 else t.dora().index
        n += total[k] + (kita if k == 30 else 0)
    return n


def _library_id(y: Yaku) -> int:
    return _HAN[y][2]


def _peikou(blocks: list[int]) -> int:
    """Pairs of equal sequences (2 for ryanpeikou)."""
    seqs = [b for b in blocks if b & 3 == SEQUENCE]
    return sum(seqs.count(b) // 2 for b in set(seqs))

