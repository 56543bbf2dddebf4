"""mjai names for yaku and draw reasons (gimite/mjai's romanisation, plus aliases).

gimite writes a few names that stand for several :class:`Yaku` members:
``jikaze``/``bakaze`` (the wind follows from the seat and the round),
``sangenpai`` with the number of dragon pungs as its han, and some writers
``fanpai``/``yakuhai`` for any value-tile pung.  The reader resolves those from
context (see :mod:`kansa.parsers.mjai.read`); the writer uses one name per member so a
written log reads back exactly.
"""

from __future__ import annotations

from kansa.replay.events import DrawReason
from kansa.replay.yaku import Yaku

# gimite/mjai ``lib/mjai/hora.rb`` and ``tenhou_archive.rb`` names, one per member.
GIMITE: dict[Yaku, str] = {
    Yaku.MENZEN_TSUMO: "menzenchin_tsumoho",
    Yaku.RIICHI: "reach",
    Yaku.IPPATSU: "ippatsu",
    Yaku.CHANKAN: "chankan",
    Yaku.RINSHAN: "rinshankaiho",
    Yaku.HAITEI: "haiteiraoyue",
    Yaku.HOUTEI: "hoteiraoyui",
    Yaku.PINFU: "pinfu",
    Yaku.TANYAO: "tanyaochu",
    Yaku.IIPEIKOU: "ipeko",
    Yaku.DOUBLE_RIICHI: "double_reach",
    Yaku.CHIITOITSU: "chitoitsu",
    Yaku.CHANTA: "honchantaiyao",
    Yaku.ITTSU: "ikkitsukan",
    Yaku.SANSHOKU: "sanshokudojun",
    Yaku.SANSHOKU_DOUKOU: "sanshokudoko",
    Yaku.SANKANTSU: "sankantsu",
    Yaku.TOITOI: "toitoiho",
    Yaku.SANANKOU: "sananko",
    Yaku.SHOUSANGEN: "shosangen",
    Yaku.HONROUTOU: "honroto",
    Yaku.RYANPEIKOU: "ryanpeko",
    Yaku.JUNCHAN: "junchantaiyao",
    Yaku.HONITSU: "honiso",
    Yaku.CHINITSU: "chiniso",
    Yaku.RENHOU: "renho",
    Yaku.TENHOU: "tenho",
    Yaku.CHIIHOU: "chiho",
    Yaku.DAISANGEN: "daisangen",
    Yaku.SUUANKOU: "suanko",
    Yaku.TSUUIISOU: "tsuiso",
    Yaku.RYUUIISOU: "ryuiso",
    Yaku.CHINROUTOU: "chinroto",
    Yaku.CHUUREN: "churenpoton",
    Yaku.KOKUSHI: "kokushimuso",
    Yaku.DAISUUSHII: "daisushi",
    Yaku.SHOUSUUSHII: "shosushi",
    Yaku.SUUKANTSU: "sukantsu",
    Yaku.DORA: "dora",
    Yaku.URA_DORA: "uradora",
    Yaku.AKA_DORA: "akadora",
}

# Members gimite folds into a shared name get their own (kansa) name when written.
_OWN_NAMES: dict[Yaku, str] = {
    Yaku.SUUANKOU_TANKI: "suanko_tanki",
    Yaku.JUNSEI_CHUUREN: "junsei_churenpoton",
    Yaku.KOKUSHI_13: "kokushimuso_13",
    Yaku.HAKU: "haku",
    Yaku.HATSU: "hatsu",
    Yaku.CHUN: "chun",
    Yaku.SEAT_EAST: "jikaze_east",
    Yaku.SEAT_SOUTH: "jikaze_south",
    Yaku.SEAT_WEST: "jikaze_west",
    Yaku.SEAT_NORTH: "jikaze_north",
    Yaku.ROUND_EAST: "bakaze_east",
    Yaku.ROUND_SOUTH: "bakaze_south",
    Yaku.ROUND_WEST: "bakaze_west",
    Yaku.ROUND_NORTH: "bakaze_north",
    Yaku.KAZOE_YAKUMAN: "kazoe_yakuman",
    Yaku.NUKIDORA: "nukidora",
}

WRITE_NAME: dict[Yaku, str] = {**GIMITE, **_OWN_NAMES}
"""The name the writer uses for each member (``jikaze``/``bakaze`` where they fit)."""

_ALIASES: dict[str, Yaku] = {
    "riichi": Yaku.RIICHI, "tsumo": Yaku.MENZEN_TSUMO, "menzen_tsumo": Yaku.MENZEN_TSUMO,
    "tanyao": Yaku.TANYAO, "iipeikou": Yaku.IIPEIKOU, "double_riichi": Yaku.DOUBLE_RIICHI,
    "rinshan": Yaku.RINSHAN, "haitei": Yaku.HAITEI, "houtei": Yaku.HOUTEI,
    "ittsu": Yaku.ITTSU, "sanshoku": Yaku.SANSHOKU, "toitoi": Yaku.TOITOI,
    "honitsu": Yaku.HONITSU, "chinitsu": Yaku.CHINITSU, "chanta": Yaku.CHANTA,
    "junchan": Yaku.JUNCHAN, "aka_dora": Yaku.AKA_DORA, "ura_dora": Yaku.URA_DORA,
    "kokushi": Yaku.KOKUSHI, "suuankou": Yaku.SUUANKOU,
}

YAKU_BY_NAME: dict[str, Yaku] = {
    **{m.name.lower(): m for m in Yaku}, **_ALIASES,
    **{name: m for m, name in WRITE_NAME.items()},
}
"""Every name the reader maps to one member (lower-case enum names included)."""

SEAT_WIND_NAMES = frozenset({"jikaze"})
ROUND_WIND_NAMES = frozenset({"bakaze"})
DRAGON_NAMES = frozenset({"sangenpai"})
VALUE_TILE_NAMES = frozenset({"fanpai", "yakuhai"})
"""Names whose member (and count) follows from the winner's hand."""

SEAT_WIND_YAKU = (Yaku.SEAT_EAST, Yaku.SEAT_SOUTH, Yaku.SEAT_WEST, Yaku.SEAT_NORTH)
ROUND_WIND_YAKU = (Yaku.ROUND_EAST, Yaku.ROUND_SOUTH, Yaku.ROUND_WEST, Yaku.ROUND_NORTH)
DRAGON_YAKU = (Yaku.HAKU, Yaku.HATSU, Yaku.CHUN)

# gimite ``tenhou_archive.rb`` draw reasons; ``fanpai`` is the exhaustive draw.
REASON_BY_NAME: dict[str, DrawReason] = {
    "fanpai": DrawReason.EXHAUSTIVE,
    "kyushukyuhai": DrawReason.KYUUSHU_KYUUHAI,
    "sufonrenta": DrawReason.SUUFON_RENDA,
    "suchareach": DrawReason.SUUCHA_RIICHI,
    "sukaikan": DrawReason.SUUKAIKAN,
    "sanchaho": DrawReason.SANCHAHOU,
    "nagashimangan": DrawReason.NAGASHI_MANGAN,
    # other writers' spellings
    "exhaustive_draw": DrawReason.EXHAUSTIVE,
    "kyushu_kyuhai": DrawReason.KYUUSHU_KYUUHAI,
    "sufuurenta": DrawReason.SUUFON_RENDA,
    "suucha_riichi": DrawReason.SUUCHA_RIICHI,
    **{r.value: r for r in DrawReason},
}
WRITE_REASON: dict[DrawReason, str] = {
    DrawReason.EXHAUSTIVE: "fanpai",
    DrawReason.KYUUSHU_KYUUHAI: "kyushukyuhai",
    DrawReason.SUUFON_RENDA: "sufonrenta",
    DrawReason.SUUCHA_RIICHI: "suchareach",
    DrawReason.SUUKAIKAN: "sukaikan",
    DrawReason.SANCHAHOU: "sanchaho",
    DrawReason.NAGASHI_MANGAN: "nagashimangan",
}

YAKUMAN_FAN = 100
"""gimite counts a yakuman as 100 fan; kansa counts it as 13 han."""
