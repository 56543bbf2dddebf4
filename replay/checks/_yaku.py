"""Does a complete hand have a yaku?  A private helper of the ``win.no-yaku`` check.

Most wins show a yaku at a glance (riichi, a concealed tsumo, a dragon or wind
pung, all simples, seven pairs, the timing yaku); those are answered here
without scoring the hand.  The rest go to the ``mahjong`` package's hand
calculator, configured from the rule set (open tanyao, seat and round wind).
When ``replay/scoring.py`` lands, this should ask its calculator instead.
"""

from __future__ import annotations

from mahjong.hand_calculating.hand import HandCalculator
from mahjong.hand_calculating.hand_config import HandConfig, OptionalRules
from mahjong.meld import Meld as MjMeld

from replay.rules import RuleSet
from replay.situation import WinSituation
from replay.state import MeldType
from replay.tiles import Tile

_SIMPLE = tuple(not Tile.from_index(k).is_yaochu for k in range(34))
_MJ_MELD = {MeldType.CHI: MjMeld.CHI, MeldType.PON: MjMeld.PON}


def obvious_yaku(sit: WinSituation, counts: list[int], rules: RuleSet) -> str | None:
    """A yaku the hand surely has, read off the situation and the tile counts
    (concealed tiles with the winning tile); ``None`` when none is obvious."""
    closed = sit.is_closed
    for flag, name in ((sit.riichi, "riichi"), (sit.double_riichi, "double riichi"),
                       (sit.is_tsumo and closed, "menzen tsumo"), (sit.haitei, "haitei"),
                       (sit.houtei, "houtei"), (sit.rinshan, "rinshan kaihou"),
                       (sit.chankan, "chankan"), (sit.tenhou, "tenhou"),
                       (sit.chiihou, "chiihou"), (sit.renhou, "renhou")):
        if flag:
            return name
    valued = {Tile.HAKU.index, Tile.HATSU.index, Tile.CHUN.index, sit.seat_wind.index,
              sit.round_wind.index}
    for m in sit.melds:
        if m.type is not MeldType.CHI and m.tiles[0].index in valued:
            return f"yakuhai {m.tiles[0].normal}"
    for k in valued:
        if counts[k] >= 3:  # honors never make sequences: three of them are a pung
            return f"yakuhai {Tile.from_index(k)}"
    if closed or rules.kuitan:
        simple = all(c == 0 or _SIMPLE[k] for k, c in enumerate(counts)) \
            and all(_SIMPLE[m.tiles[0].index] and _SIMPLE[max(m.tiles).index]
                    for m in sit.melds)
        if simple:
            return "tanyao"
    if closed and not sit.melds and counts.count(2) == 7:
        return "chiitoitsu"
    return None


def calculated_yaku(sit: WinSituation, rules: RuleSet) -> list[str] | None:
    """The yaku the ``mahjong`` calculator finds (dora left out); ``[]`` for none,
    ``None`` when it cannot judge the hand."""
    ids: list[int] = []
    used = [0] * 34

    def tid(t: Tile) -> int:
        k = t.index
        n = used[k]
        used[k] = n + 1
        return k * 4 + min(n, 3)

    melds = []
    for m in sit.melds:
        tiles = sorted(tid(t) for t in m.tiles)
        ids.extend(tiles)
        if m.type in _MJ_MELD:
            melds.append(MjMeld(meld_type=_MJ_MELD[m.type], tiles=tiles, opened=True))
        else:
            melds.append(MjMeld(meld_type=MjMeld.KAN, tiles=tiles,
                                opened=m.type is not MeldType.ANKAN))
    win_id = -1
    for t in sit.concealed:
        i = tid(t)
        ids.append(i)
        if t.index == sit.win_tile.index:
            win_id = i
    if win_id < 0:
        return None
    config = HandConfig(
        is_tsumo=sit.is_tsumo, player_wind=sit.seat_wind.index,
        round_wind=sit.round_wind.index,
        options=OptionalRules(has_open_tanyao=rules.kuitan, has_aka_dora=False,
                              renhou_as_yakuman=False),
    )
    result = HandCalculator.estimate_hand_value(ids, win_id, melds=melds, config=config)
    if result.error == HandCalculator.ERR_NO_YAKU:
        return []
    if result.error is not None or not result.yaku:
        return None
    return [str(y.name) for y in result.yaku if not getattr(y, "is_dora", False)
            and "Dora" not in str(y.name)]
