"""Hand value: yaku, han, fu, limit and base points of a win, recomputed from the replay.

The ``mahjong`` library is the calculator.  :func:`hand_value` feeds it the
replayed hand (:class:`~kansa.replay.situation.WinSituation`) with its options taken
from the :class:`~kansa.replay.rules.RuleSet` (the library's own defaults have red
fives and open tanyao off and double yakuman on), then turns its answer into a
:class:`HandValue` in kansa's vocabulary.  Regular wins (nearly all) are valued by
:mod:`kansa.replay.valuation`, which gives the library's answer at a small part of its
cost; the library values the rest and is that module's reference in the tests.
Limits and base points are worked out here from han and fu (:func:`base_points`), so
that the log's own han and fu go through the same arithmetic as the replay's.

>>> base_points(3, 30, 0, RuleSet.preset("tenhou"))
(960, <Limit.NONE: 0>)
>>> base_points(4, 30, 0, RuleSet.preset("wrc"))  # kiriage mangan
(2000, <Limit.MANGAN: 1>)
>>> base_points(13, 40, 0, RuleSet.preset("ema"))  # counted yakuman is sanbaiman
(6000, <Limit.SANBAIMAN: 4>)
>>> ron_points(960, dealer=False), tsumo_points(960, dealer=False)
(3900, (1000, 2000))
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Final

from mahjong.hand_calculating.fu import FuCalculator
from mahjong.hand_calculating.hand import HandCalculator
from mahjong.hand_calculating.hand_config import HandConfig, HandConstants, OptionalRules
from mahjong.meld import Meld as LibMeld

from kansa.replay.frozen import frozen_state, set_frozen_state
from kansa.replay.melds import MeldType
from kansa.replay.rules import KazoeCap, RuleSet
from kansa.replay.situation import WinSituation
from kansa.replay.tiles import Tile
from kansa.replay.valuation import Valued, value_regular
from kansa.replay.yaku import Limit, Yaku

YakuHan = tuple[tuple[Yaku, int], ...]


@dataclass(frozen=True, slots=True)
class HandValue:
    """What a win is worth; ``error`` set (and the rest empty) when it has no value."""

    yaku: YakuHan
    """(yaku, han) pairs; a yakuman counts 13 han per multiple, dora entries included."""
    han: int
    fu: int
    limit: Limit
    base: int
    """Base points (fu x 2^(han+2), or the limit's value): what payments are made of."""
    yakuman: int = 0
    """Yakuman multiples (0 for a hand valued by han and fu)."""
    points: int = 0
    """The hand's value before honba and sticks: the ron payment, or all tsumo payments."""
    error: str | None = None
    """``hand_not_winning``, ``no_yaku``... (the library's code) when there is no value."""

    def text(self) -> str:
        """``riichi 1, tsumo 1, dora 2 = 4 han 30 fu 7900``."""
        return describe(self.yaku, self.han, self.fu, self.points, self.limit)

    def __getstate__(self) -> tuple[Any, ...]:
        return frozen_state(self)

    def __setstate__(self, state: tuple[Any, ...]) -> None:
        set_frozen_state(self, state)


def describe(yaku: Iterable[tuple[Yaku, int]], han: int | None, fu: int | None,
             points: int | None, limit: Limit | None = None) -> str:
    """One side of a value comparison, yaku by yaku."""
    parts = ", ".join(f"{y.name.lower().replace('_', ' ')} {h}" for y, h in yaku) or "no yaku"
    total = f"{han} han" if han is not None else "? han"
    if fu is not None:
        total += f" {fu} fu"
    if limit is not None and limit is not Limit.NONE:
        total += f" {limit.name.lower()}"
    if points is not None:
        total += f" {points}"
    return f"{parts} = {total}"


# -- arithmetic ------------------------------------------------------------------

_LIMIT_BASE: Final = {Limit.MANGAN: 2000, Limit.HANEMAN: 3000, Limit.BAIMAN: 4000,
               Limit.SANBAIMAN: 6000, Limit.YAKUMAN: 8000}


def base_points(han: int, fu: int, yakuman: int, rules: RuleSet) -> tuple[int, Limit]:
    """Base points and limit of a hand of ``han`` and ``fu`` (``yakuman`` multiples).

    Counted yakuman (13+ han without a yakuman) follows ``rules.kazoe_cap``;
    kiriage rounds 4 han 30 fu and 3 han 60 fu (base 1920) up to mangan.
    """
    if yakuman > 0:
        return 8000 * yakuman, Limit.YAKUMAN
    if han >= 13:
        if rules.kazoe_cap is KazoeCap.YAKUMAN:
            return 8000, Limit.YAKUMAN
        return 6000, Limit.SANBAIMAN
    if han >= 11:
        return 6000, Limit.SANBAIMAN
    if han >= 8:
        return 4000, Limit.BAIMAN
    if han >= 6:
        return 3000, Limit.HANEMAN
    if han >= 5:
        return 2000, Limit.MANGAN
    if han < 0:  # a log's garbage claim: no value
        return 0, Limit.NONE
    base = fu * (1 << (han + 2))
    if base >= 2000 or (rules.kiriage and base == 1920):
        return 2000, Limit.MANGAN
    return base, Limit.NONE


def _up100(x: int) -> int:
    return -(-x // 100) * 100


def ron_points(base: int, *, dealer: bool) -> int:
    """What the discarder pays (before honba)."""
    return _up100(base * (6 if dealer else 4))


def tsumo_points(base: int, *, dealer: bool) -> tuple[int, int]:
    """(each non-dealer pays, the dealer pays) on a tsumo (before honba).

    For a dealer's tsumo both numbers are what each of the others pays.
    """
    if dealer:
        each = _up100(base * 2)
        return each, each
    return _up100(base), _up100(base * 2)


def tsumo_shares(base: int, *, dealer: bool, players: int, tsumo_loss: bool = True,
                 ) -> tuple[int, int]:
    """(each non-dealer pays, the dealer pays) on a tsumo at a table of ``players``.

    At three players the absent seat's share (a non-dealer's payment) is lost with
    ``tsumo_loss``, else split between the two payers, half each rounded up to 100.

    >>> tsumo_shares(2000, dealer=False, players=3), tsumo_shares(2000, dealer=False,
    ...                                                           players=3, tsumo_loss=False)
    ((2000, 4000), (3000, 5000))
    """
    child, oya = tsumo_points(base, dealer=dealer)
    if players < 4 and not tsumo_loss:
        half = _up100(child // 2 + child % 2)
        return child + half, oya + half
    return child, oya


def total_points(base: int, *, dealer: bool, tsumo: bool, players: int,
                 tsumo_loss: bool = True) -> int:
    """The value as logs record it: the ron payment or the sum of the tsumo payments."""
    if not tsumo:
        return ron_points(base, dealer=dealer)
    child, oya = tsumo_shares(base, dealer=dealer, players=players, tsumo_loss=tsumo_loss)
    if dealer:
        return child * (players - 1)
    return child * (players - 2) + oya


def yakuman_multiple(yaku: Iterable[tuple[Yaku, int]], rules: RuleSet) -> int:
    """Yakuman multiples in a (yaku, han) list, stacked or not as the rule set says."""
    counts = [h // 13 for y, h in yaku if y.is_yakuman and h >= 13]
    if not counts:
        return 0
    return sum(counts) if rules.stack_yakuman else max(counts)


# -- the calculator --------------------------------------------------------------

_LIB_YAKU: Final[dict[int, Yaku]] = {
    0: Yaku.MENZEN_TSUMO, 1: Yaku.RIICHI, 3: Yaku.IPPATSU, 4: Yaku.CHANKAN, 5: Yaku.RINSHAN,
    6: Yaku.HAITEI, 7: Yaku.HOUTEI, 8: Yaku.DOUBLE_RIICHI, 11: Yaku.RENHOU, 12: Yaku.PINFU,
    13: Yaku.TANYAO, 14: Yaku.IIPEIKOU, 15: Yaku.HAKU, 16: Yaku.HATSU, 17: Yaku.CHUN,
    18: Yaku.SEAT_EAST, 19: Yaku.SEAT_SOUTH, 20: Yaku.SEAT_WEST, 21: Yaku.SEAT_NORTH,
    22: Yaku.ROUND_EAST, 23: Yaku.ROUND_SOUTH, 24: Yaku.ROUND_WEST, 25: Yaku.ROUND_NORTH,
    26: Yaku.SANSHOKU, 27: Yaku.ITTSU, 28: Yaku.CHANTA, 29: Yaku.HONROUTOU, 30: Yaku.TOITOI,
    31: Yaku.SANANKOU, 32: Yaku.SANKANTSU, 33: Yaku.SANSHOKU_DOUKOU, 34: Yaku.CHIITOITSU,
    35: Yaku.SHOUSANGEN, 36: Yaku.HONITSU, 37: Yaku.JUNCHAN, 38: Yaku.RYANPEIKOU,
    39: Yaku.CHINITSU,
    100: Yaku.KOKUSHI, 101: Yaku.CHUUREN, 102: Yaku.SUUANKOU, 103: Yaku.DAISANGEN,
    104: Yaku.SHOUSUUSHII, 105: Yaku.RYUUIISOU, 106: Yaku.SUUKANTSU, 107: Yaku.TSUUIISOU,
    108: Yaku.CHINROUTOU, 111: Yaku.DAISUUSHII, 112: Yaku.KOKUSHI_13,
    113: Yaku.SUUANKOU_TANKI, 114: Yaku.JUNSEI_CHUUREN, 115: Yaku.TENHOU, 116: Yaku.CHIIHOU,
    117: Yaku.RENHOU, 120: Yaku.DORA, 121: Yaku.AKA_DORA, 122: Yaku.URA_DORA,
}
"""The library's yaku ids (``Yaku.yaku_id``) as kansa's :class:`~kansa.replay.yaku.Yaku`."""

_LIB_MELD: Final = {MeldType.CHI: LibMeld.CHI, MeldType.PON: LibMeld.PON,
             MeldType.DAIMINKAN: LibMeld.KAN, MeldType.KAKAN: LibMeld.SHOUMINKAN,
             MeldType.ANKAN: LibMeld.KAN}


class _Ids:
    """Hands out distinct 136-format ids: a red five is copy 0 of its kind."""

    __slots__ = ("used",)

    def __init__(self) -> None:
        self.used = [0] * 34

    def take(self, t: Tile) -> int:
        i = t.index
        if t.is_red:
            return 4 * i
        n = self.used[i]
        self.used[i] = n + 1
        copy = n + 1 if t.is_five else n
        return 4 * i + min(copy, 3)


class _Calculator:
    """One rule set's calculator: the library's options, one reused ``HandConfig`` (building
    one costs a fresh set of ~60 yaku objects; every flag is set again on each call, and the
    library only ever writes the dora counts into it), and a bounded cache of values."""

    __slots__ = ("cache", "config", "rules")

    def __init__(self, rules: RuleSet) -> None:
        self.rules = rules
        options = OptionalRules(
            has_open_tanyao=rules.kuitan,
            has_aka_dora=rules.aka,
            has_double_yakuman=rules.double_yakuman_patterns,
            kazoe_limit=(HandConstants.KAZOE_LIMITED if rules.kazoe_cap is KazoeCap.YAKUMAN
                         else HandConstants.KAZOE_SANBAIMAN),
            kiriage=rules.kiriage,
            fu_for_open_pinfu=True,
            fu_for_pinfu_tsumo=False,
            renhou_as_yakuman=False,
            is_three_player=rules.players == 3,
        )
        self.config = HandConfig(options=options)
        self.cache: dict[tuple[int, ...], HandValue] = {}

    def value(self, ws: WinSituation, ura: tuple[Tile, ...]) -> HandValue:
        key = _key(ws, ura)
        hit = self.cache.get(key)
        if hit is None:
            if len(self.cache) >= _CACHE_SIZE:
                self.cache.clear()
            hit = self.cache[key] = self._compute(ws, ura)
        return hit

    def _compute(self, ws: WinSituation, ura: tuple[Tile, ...]) -> HandValue:
        if not all(m.well_formed for m in ws.melds):
            return HandValue(yaku=(), han=0, fu=0, limit=Limit.NONE, base=0,
                             error="a meld is not a chow, pung or kong (claim.meld-shape)")
        rules = self.rules
        valued = value_regular(ws, ura, rules) if _MODE["own"] else None
        if valued is None:
            valued = self.library(ws, ura)
        if valued.error is not None:
            return HandValue(yaku=(), han=0, fu=0, limit=Limit.NONE, base=0,
                             error=valued.error)
        pairs = valued.yaku
        kita = ws.nukidora if rules.kita_dora else 0
        if kita:
            pairs = _kita_apart(pairs, kita, ws.dora_markers)
        fu = valued.fu
        if rules.double_wind_pair_fu != 4 and valued.double_wind_pair:
            fu = -(-(valued.raw_fu - 4 + rules.double_wind_pair_fu) // 10) * 10
        yakuman = yakuman_multiple(pairs, rules)
        han = sum(h for _, h in pairs)
        base, limit = base_points(han, fu, yakuman, rules)
        points = total_points(base, dealer=ws.is_dealer, tsumo=ws.is_tsumo,
                              players=rules.players, tsumo_loss=rules.tsumo_loss)
        return HandValue(yaku=tuple(pairs), han=han, fu=fu, limit=limit, base=base,
                         yakuman=yakuman, points=points)

    def library(self, ws: WinSituation, ura: tuple[Tile, ...]) -> Valued:
        """The library's yaku and fu for the win (its error code when it has no value;
        the kita counted in its dora)."""
        rules = self.rules
        ids = _Ids()
        tiles: list[int] = []
        lib_melds: list[LibMeld] = []
        is_open = False
        for m in ws.melds:
            m_ids = [ids.take(t) for t in sorted(m.tiles)]
            tiles.extend(m_ids)
            opened = m.type is not MeldType.ANKAN
            is_open = is_open or opened
            lib_melds.append(LibMeld(meld_type=_LIB_MELD[m.type], tiles=m_ids, opened=opened))
        win_id = -1
        win = ws.win_tile
        for t in ws.concealed:
            tid = ids.take(t)
            tiles.append(tid)
            if t is win or (win_id < 0 and t.index == win.index):
                win_id = tid
        c = self.config
        c.is_tsumo = ws.is_tsumo
        c.is_riichi = ws.riichi or ws.double_riichi
        c.is_ippatsu = ws.ippatsu
        c.is_rinshan = ws.rinshan
        c.is_chankan = ws.chankan
        c.is_haitei = ws.haitei
        c.is_houtei = ws.houtei
        c.is_daburu_riichi = ws.double_riichi
        c.is_nagashi_mangan = False
        c.is_tenhou = ws.tenhou
        c.is_chiihou = ws.chiihou
        c.is_renhou = ws.renhou
        c.is_open_riichi = False
        c.player_wind = ws.seat_wind.index
        c.round_wind = ws.round_wind.index
        c.is_dealer = ws.seat_wind is Tile.EAST
        c.paarenchan = 0
        c.kyoutaku_number = 0
        c.tsumi_number = 0
        c.num_nuki_dora = ws.nukidora if rules.kita_dora else 0
        res = HandCalculator.estimate_hand_value(
            tiles, win_id, melds=lib_melds, config=c,
            dora_indicators=[4 * t.index for t in ws.dora_markers],
            ura_dora_indicators=[4 * t.index for t in ura],
        )
        if res.error or res.han is None:
            return Valued([], 0, 0, False, error=str(res.error or "no value"))
        pairs: list[tuple[Yaku, int]] = []
        for y in res.yaku or ():
            han = y.han_open if is_open and y.han_open else y.han_closed
            pairs.append((_LIB_YAKU.get(y.yaku_id, Yaku.KAZOE_YAKUMAN), han))
        details = res.fu_details or []
        return Valued(pairs, int(res.fu or 0), sum(d["fu"] for d in details),
                      any(d["reason"] == FuCalculator.DOUBLE_VALUED_PAIR for d in details))


def _kita_apart(pairs: list[tuple[Yaku, int]], kita: int, markers: Iterable[Tile],
                ) -> list[tuple[Yaku, int]]:
    """The library counts the kita (one each, and the dora an indicator makes of North)
    into its dora; logs name them apart, as ``nukidora`` (抜きドラ).

    >>> _kita_apart([(Yaku.RIICHI, 1), (Yaku.DORA, 3)], 2, [Tile.M1])
    [(<Yaku.RIICHI: 1>, 1), (<Yaku.DORA: 52>, 1), (<Yaku.NUKIDORA: 101>, 2)]
    """
    han = kita * (1 + sum(1 for t in markers if t.dora() is Tile.NORTH))
    out: list[tuple[Yaku, int]] = []
    for y, h in pairs:
        if y is Yaku.DORA:
            moved = min(h, han)
            han -= moved
            if h - moved:
                out.append((y, h - moved))
            if moved:
                out.append((Yaku.NUKIDORA, moved))
        else:
            out.append((y, h))
    return out


_CACHE_SIZE: Final = 4096
_MELD_CODE: Final = {MeldType.CHI: -2, MeldType.PON: -3, MeldType.DAIMINKAN: -4,
              MeldType.KAKAN: -5, MeldType.ANKAN: -6}


def _key(ws: WinSituation, ura: tuple[Tile, ...]) -> tuple[int, ...]:
    """Everything a value depends on, as small integers (hashing ``Tile`` members runs
    ``Enum.__hash__`` in Python; a tile's ``index`` and ``is_red`` are plain attributes)."""
    flags = (ws.is_tsumo | ws.riichi << 1 | ws.double_riichi << 2 | ws.ippatsu << 3
             | ws.rinshan << 4 | ws.chankan << 5 | ws.haitei << 6 | ws.houtei << 7
             | ws.tenhou << 8 | ws.chiihou << 9 | ws.renhou << 10)
    w = ws.win_tile
    k = [flags, ws.seat_wind.index, ws.round_wind.index, 2 * w.index + w.is_red,
         ws.nukidora, -1]
    k += [2 * t.index + t.is_red for t in ws.concealed]
    for m in ws.melds:
        k.append(_MELD_CODE[m.type])
        k += sorted(2 * t.index + t.is_red for t in m.tiles)
    k.append(-1)
    k += [t.index for t in ws.dora_markers]
    k.append(-1)
    k += [t.index for t in ura]
    return tuple(k)


_BY_ID: Final[dict[int, tuple[RuleSet, _Calculator]]] = {}
_BY_RULES: Final[dict[RuleSet, _Calculator]] = {}


def _calculator(rules: RuleSet) -> _Calculator:
    """The calculator of ``rules``: found by identity (no hashing of the rule set per win),
    shared between equal rule sets (one hash per new rule-set object)."""
    hit = _BY_ID.get(id(rules))
    if hit is not None and hit[0] is rules:
        return hit[1]
    calc = _BY_RULES.get(rules)
    if calc is None:
        if len(_BY_RULES) >= 32:
            _BY_RULES.clear()
        calc = _BY_RULES[rules] = _Calculator(rules)
    if len(_BY_ID) >= 256:
        _BY_ID.clear()
    _BY_ID[id(rules)] = (rules, calc)  # the entry keeps ``rules`` alive, so its id stays its own
    return calc


def hand_value(ws: WinSituation, rules: RuleSet, *,
               ura_markers: tuple[Tile, ...] | None = None) -> HandValue:
    """The value of the win described by ``ws`` under ``rules``.

    ``ura_markers`` replaces ``ws.ura_markers`` (for instance when the log shows none).
    Results are cached on everything they depend on.
    """
    return _calculator(rules).value(ws, ws.ura_markers if ura_markers is None else ura_markers)


def library_value(ws: WinSituation, rules: RuleSet,
                  ura_markers: tuple[Tile, ...] | None = None) -> Valued:
    """The ``mahjong`` library's yaku and fu for the win, uncached (the reference of
    :mod:`kansa.replay.valuation`)."""
    return _calculator(rules).library(ws, ws.ura_markers if ura_markers is None else ura_markers)


_MODE: Final = {"own": True}
"""``own``: regular wins are valued by :mod:`kansa.replay.valuation` (else every win by
the library); set by :func:`set_own_valuation`."""


def set_own_valuation(on: bool) -> None:
    """Value regular wins with kansa's own valuation (``True``, the default) or every win
    with the library (for comparing the two), forgetting every cached value."""
    _MODE["own"] = on
    clear_cache()


def clear_cache() -> None:
    """Forget every cached value (for timing the calculator cold)."""
    _BY_ID.clear()
    _BY_RULES.clear()


def claimed_value(yaku: YakuHan | None, han: int | None, fu: int | None, rules: RuleSet,
                  ) -> tuple[int, Limit, int] | None:
    """(base points, limit, yakuman multiples) of the log's own han and fu, if it gives them."""
    if han is None:
        return None
    yakuman = yakuman_multiple(yaku or (), rules)
    if yakuman == 0 and fu is None:
        return None
    base, limit = base_points(han, fu or 0, yakuman, rules)
    return base, limit, yakuman
