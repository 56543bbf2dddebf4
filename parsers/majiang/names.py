"""Japanese yaku and draw names in majiang paipu (kobalab ``hule.js`` and Tenhou conversions)."""

from __future__ import annotations

from kansa.replay.events import DrawReason
from kansa.replay.yaku import Yaku

_WINDS = "東南西北"

YAKU_BY_NAME: dict[str, Yaku] = {
    "立直": Yaku.RIICHI,
    "ダブル立直": Yaku.DOUBLE_RIICHI,
    "一発": Yaku.IPPATSU,
    "門前清自摸和": Yaku.MENZEN_TSUMO,
    "海底摸月": Yaku.HAITEI,
    "河底撈魚": Yaku.HOUTEI,
    "嶺上開花": Yaku.RINSHAN,
    "槍槓": Yaku.CHANKAN,
    "天和": Yaku.TENHOU,
    "地和": Yaku.CHIIHOU,
    "人和": Yaku.RENHOU,
    "平和": Yaku.PINFU,
    "断幺九": Yaku.TANYAO,
    "断么九": Yaku.TANYAO,
    "一盃口": Yaku.IIPEIKOU,
    "三色同順": Yaku.SANSHOKU,
    "一気通貫": Yaku.ITTSU,
    "混全帯幺九": Yaku.CHANTA,
    "七対子": Yaku.CHIITOITSU,
    "対々和": Yaku.TOITOI,
    "三暗刻": Yaku.SANANKOU,
    "三槓子": Yaku.SANKANTSU,
    "三色同刻": Yaku.SANSHOKU_DOUKOU,
    "混老頭": Yaku.HONROUTOU,
    "小三元": Yaku.SHOUSANGEN,
    "混一色": Yaku.HONITSU,
    "純全帯幺九": Yaku.JUNCHAN,
    "二盃口": Yaku.RYANPEIKOU,
    "清一色": Yaku.CHINITSU,
    "国士無双": Yaku.KOKUSHI,
    "国士無双十三面": Yaku.KOKUSHI_13,
    "四暗刻": Yaku.SUUANKOU,
    "四暗刻単騎": Yaku.SUUANKOU_TANKI,
    "大三元": Yaku.DAISANGEN,
    "大四喜": Yaku.DAISUUSHII,
    "小四喜": Yaku.SHOUSUUSHII,
    "字一色": Yaku.TSUUIISOU,
    "緑一色": Yaku.RYUUIISOU,
    "清老頭": Yaku.CHINROUTOU,
    "四槓子": Yaku.SUUKANTSU,
    "九蓮宝燈": Yaku.CHUUREN,
    "純正九蓮宝燈": Yaku.JUNSEI_CHUUREN,
    "ドラ": Yaku.DORA,
    "赤ドラ": Yaku.AKA_DORA,
    "裏ドラ": Yaku.URA_DORA,
    "抜きドラ": Yaku.NUKIDORA,
    "北ドラ": Yaku.NUKIDORA,
    "数え役満": Yaku.KAZOE_YAKUMAN,
    **{f"場風 {w}": y for w, y in zip(_WINDS, (Yaku.ROUND_EAST, Yaku.ROUND_SOUTH,
                                               Yaku.ROUND_WEST, Yaku.ROUND_NORTH), strict=True)},
    **{f"自風 {w}": y for w, y in zip(_WINDS, (Yaku.SEAT_EAST, Yaku.SEAT_SOUTH,
                                               Yaku.SEAT_WEST, Yaku.SEAT_NORTH), strict=True)},
    # kobalab writes 翻牌, Tenhou conversions 役牌; 発 is a common variant of 發
    **{f"{p} {d}": y for p in ("翻牌", "役牌")
       for d, y in (("白", Yaku.HAKU), ("發", Yaku.HATSU), ("発", Yaku.HATSU),
                    ("中", Yaku.CHUN))},
}

DRAW_BY_NAME: dict[str, DrawReason] = {
    "流局": DrawReason.EXHAUSTIVE,
    "荒牌平局": DrawReason.EXHAUSTIVE,
    "流し満貫": DrawReason.NAGASHI_MANGAN,
    "九種九牌": DrawReason.KYUUSHU_KYUUHAI,
    "四風連打": DrawReason.SUUFON_RENDA,
    "四家立直": DrawReason.SUUCHA_RIICHI,
    "四開槓": DrawReason.SUUKAIKAN,
    "四槓散了": DrawReason.SUUKAIKAN,
    "三家和": DrawReason.SANCHAHOU,
    "三家和了": DrawReason.SANCHAHOU,
}
