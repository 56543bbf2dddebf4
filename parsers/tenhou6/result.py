"""The result array of a tenhou.net/6 kyoku (index 16), both ways.

Reading: the spelling of the result kind (Tenhou's, the Mahjong Soul
converters' and their English modes), the score text (``30符2飜2000点``,
``満貫2000-4000点``, ``3900点∀``) and the yaku texts (``役牌 中(1飜)``).
Writing: the same texts from a :class:`Hora`'s claims.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from dataclasses import dataclass
from typing import Final

from kansa.replay.events import DrawReason
from kansa.replay.tiles import WINDS, Tile
from kansa.replay.yaku import Limit, Yaku

_TEXTS_KEPT: Final = 1024
"""Score and yaku texts whose reading is kept (a game repeats a few dozen of them)."""

AGARI = "和了"
INTERRUPTED = "中断"
"""kansa's result for a hand the log stops in (no win, no draw): ``["中断"]``
("interrupted"), shaped like an abortive draw (``["九種九牌"]``), the one-text form
the viewer shows as the hand's ending.  An empty result stays an error."""

# -- result kinds ----------------------------------------------------------------

_DRAW_SPELLINGS: dict[DrawReason, tuple[str, ...]] = {
    DrawReason.EXHAUSTIVE: ("流局", "全員聴牌", "全員不聴", "全員テンパイ", "全員ノーテン",
                            "ryuukyoku", "ryukyoku", "exhaustivedraw", "draw"),
    DrawReason.NAGASHI_MANGAN: ("流し満貫", "nagashimangan", "manganatdraw"),
    DrawReason.KYUUSHU_KYUUHAI: ("九種九牌", "九種么九", "kyuushukyuuhai", "kyuushu",
                                 "nineterminalabortion", "nineterminals"),
    DrawReason.SUUFON_RENDA: ("四風連打", "四風子連打", "suufonrenda", "fourwindabortion"),
    DrawReason.SUUCHA_RIICHI: ("四家立直", "suuchariichi", "fourriichiabortion"),
    DrawReason.SUUKAIKAN: ("四槓散了", "四開槓", "四槓流れ", "suukaikan", "suukantsusanra",
                           "fourkanabortion"),
    DrawReason.SANCHAHOU: ("三家和了", "三家和", "sanchahou", "sanchahō", "threeronabortion"),
}
_DRAW_BY_KEY = {key: reason for reason, keys in _DRAW_SPELLINGS.items() for key in keys}
_AGARI_KEYS = frozenset({"和了", "和了り", "agari", "win", "hora"})
ALL_TENPAI = frozenset({"全員聴牌", "全員テンパイ"})
ALL_NOTEN = frozenset({"全員不聴", "全員ノーテン"})

_STRIP = re.compile(r"[\s　:：・()（）\-_]+")


def norm(text: str) -> str:
    """Width-folded, lower-case text without spaces and punctuation, for loose matching."""
    return _STRIP.sub("", unicodedata.normalize("NFKC", text)).lower()


@functools.lru_cache(maxsize=_TEXTS_KEPT)
def result_kind(text: str) -> DrawReason | str | None:
    """``AGARI`` for a win, a :class:`DrawReason` for a draw, ``None`` if unknown."""
    key = norm(text)
    if key in _AGARI_KEYS or text.startswith(AGARI):
        return AGARI
    reason = _DRAW_BY_KEY.get(key)
    if reason is not None:
        return reason
    for spelling, reason in _DRAW_BY_KEY.items():  # loose: a known spelling plus decoration
        if len(spelling) >= 3 and spelling in key:
            return reason
    return None


# -- score text ------------------------------------------------------------------

_LIMITS: tuple[tuple[str, Limit], ...] = (
    # longest first: 三倍満 contains 倍満, 数え役満 contains 役満
    ("数え役満", Limit.YAKUMAN), ("kazoeyakuman", Limit.YAKUMAN),
    ("countedyakuman", Limit.YAKUMAN), ("役満", Limit.YAKUMAN), ("yakuman", Limit.YAKUMAN),
    ("三倍満", Limit.SANBAIMAN), ("sanbaiman", Limit.SANBAIMAN),
    ("倍満", Limit.BAIMAN), ("baiman", Limit.BAIMAN),
    ("跳満", Limit.HANEMAN), ("haneman", Limit.HANEMAN),
    ("切り上げ満貫", Limit.MANGAN), ("kiriagemangan", Limit.MANGAN),
    ("roundedmangan", Limit.MANGAN), ("満貫", Limit.MANGAN), ("mangan", Limit.MANGAN),
)
_FU_HAN = re.compile(r"(?<!\d)(\d{1,9})\s*(?:符|fu)\s*(\d{1,9})\s*(?:飜|翻|han)", re.IGNORECASE)
_POINTS = re.compile(r"(?<!\d)(\d{1,9})(?:\s*-\s*(\d{1,9}))?\s*(?:点|points?|pts)\s*(∀|all)?",
                     re.IGNORECASE)
"""Numbers of at most nine digits: a longer one is not read (and never overflows int())."""


@dataclass(frozen=True, slots=True)
class Score:
    fu: int | None = None
    han: int | None = None
    points: int | None = None
    """Hand value before honba and sticks (a tsumo's payments added up)."""
    limit: Limit | None = None
    kazoe: bool = False


@functools.lru_cache(maxsize=_TEXTS_KEPT)
def parse_score(text: str, players: int = 4) -> Score | None:
    """Read ``30符2飜2000点`` and its variants; ``None`` if nothing in it is readable.

    A tsumo's texts give what each payer pays; its points are what the ``players - 1``
    others pay together (``500-1000点`` is 1,500 at three players: the absent seat's
    share is lost).
    """
    folded = unicodedata.normalize("NFKC", text)
    key = norm(folded)
    limit = next((lim for word, lim in _LIMITS if word in key), None)
    kazoe = limit is Limit.YAKUMAN and any(w in key for w in ("数え", "kazoe", "counted"))
    fu = han = points = None
    m = _FU_HAN.search(folded)
    if m:
        fu, han = int(m.group(1)), int(m.group(2))
    m = _POINTS.search(folded)
    if m:
        a = int(m.group(1))
        if m.group(3):
            points = (players - 1) * a  # dealer tsumo: each non-dealer pays a
        elif m.group(2):  # non-dealer tsumo: a per child, b from the dealer
            points = (players - 2) * a + int(m.group(2))
        else:
            points = a
    if limit is None and (fu is not None or points is not None):
        limit = Limit.NONE
    if limit is None and fu is None and points is None:
        return None if key not in ("", "点") else Score()
    return Score(fu=fu, han=han, points=points, limit=limit, kazoe=kazoe)


_LIMIT_TEXT = {Limit.MANGAN: "満貫", Limit.HANEMAN: "跳満", Limit.BAIMAN: "倍満",
               Limit.SANBAIMAN: "三倍満", Limit.YAKUMAN: "役満"}


def score_text(*, fu: int | None, han: int | None, points: int | None, limit: Limit | None,
               kazoe: bool, tsumo: bool, dealer: bool, players: int = 4) -> str:
    """Tenhou's score text; the parts whose claim is missing are left out."""
    fu_han = f"{fu}符{han}飜" if fu is not None and han is not None else ""
    if limit is not None and limit is not Limit.NONE:
        # fu and han before a limit name are optional; the viewer shows them as written
        head = fu_han + ("数え役満" if kazoe else _LIMIT_TEXT[limit])
    else:
        head = fu_han
    if points is None:
        return head + "点"
    if tsumo and dealer:
        return f"{head}{_ceil100(points / (players - 1))}点∀"
    if tsumo:
        child = _ceil100(points / players)
        return f"{head}{child}-{points - (players - 2) * child}点"
    return f"{head}{points}点"


def _ceil100(x: float) -> int:
    return int(-(-x // 100) * 100)


# -- yaku ------------------------------------------------------------------------

_TENHOU_NAMES: dict[Yaku, str] = {
    Yaku.MENZEN_TSUMO: "門前清自摸和", Yaku.RIICHI: "立直", Yaku.IPPATSU: "一発",
    Yaku.CHANKAN: "槍槓", Yaku.RINSHAN: "嶺上開花", Yaku.HAITEI: "海底摸月",
    Yaku.HOUTEI: "河底撈魚", Yaku.PINFU: "平和", Yaku.TANYAO: "断幺九", Yaku.IIPEIKOU: "一盃口",
    Yaku.SEAT_EAST: "自風 東", Yaku.SEAT_SOUTH: "自風 南", Yaku.SEAT_WEST: "自風 西",
    Yaku.SEAT_NORTH: "自風 北", Yaku.ROUND_EAST: "場風 東", Yaku.ROUND_SOUTH: "場風 南",
    Yaku.ROUND_WEST: "場風 西", Yaku.ROUND_NORTH: "場風 北", Yaku.HAKU: "役牌 白",
    Yaku.HATSU: "役牌 發", Yaku.CHUN: "役牌 中", Yaku.DOUBLE_RIICHI: "両立直",
    Yaku.CHIITOITSU: "七対子", Yaku.CHANTA: "混全帯幺九", Yaku.ITTSU: "一気通貫",
    Yaku.SANSHOKU: "三色同順", Yaku.SANSHOKU_DOUKOU: "三色同刻", Yaku.SANKANTSU: "三槓子",
    Yaku.TOITOI: "対々和", Yaku.SANANKOU: "三暗刻", Yaku.SHOUSANGEN: "小三元",
    Yaku.HONROUTOU: "混老頭", Yaku.RYANPEIKOU: "二盃口", Yaku.JUNCHAN: "純全帯幺九",
    Yaku.HONITSU: "混一色", Yaku.CHINITSU: "清一色", Yaku.RENHOU: "人和", Yaku.TENHOU: "天和",
    Yaku.CHIIHOU: "地和", Yaku.DAISANGEN: "大三元", Yaku.SUUANKOU: "四暗刻",
    Yaku.SUUANKOU_TANKI: "四暗刻単騎", Yaku.TSUUIISOU: "字一色", Yaku.RYUUIISOU: "緑一色",
    Yaku.CHINROUTOU: "清老頭", Yaku.CHUUREN: "九蓮宝燈", Yaku.JUNSEI_CHUUREN: "純正九蓮宝燈",
    Yaku.KOKUSHI: "国士無双", Yaku.KOKUSHI_13: "国士無双１３面", Yaku.DAISUUSHII: "大四喜",
    Yaku.SHOUSUUSHII: "小四喜", Yaku.SUUKANTSU: "四槓子", Yaku.DORA: "ドラ",
    Yaku.URA_DORA: "裏ドラ", Yaku.AKA_DORA: "赤ドラ", Yaku.NUKIDORA: "抜きドラ",
    Yaku.KAZOE_YAKUMAN: "数え役満",
}
_WIND_WORDS = (("東", "east", "ton"), ("南", "south", "nan"), ("西", "west", "sha", "shaa"),
               ("北", "north", "pei", "pee"))
_ALIASES: dict[Yaku, tuple[str, ...]] = {
    Yaku.MENZEN_TSUMO: ("門前清模和", "門前清自摸", "ツモ", "tsumo", "menzentsumo",
                        "menzenchintsumo", "fullyconcealedhand", "selfdraw"),
    Yaku.RIICHI: ("リーチ", "riichi", "reach"),
    Yaku.IPPATSU: ("一發", "ippatsu"),
    Yaku.CHANKAN: ("搶槓", "chankan", "robbingakan", "robbingthekan"),
    Yaku.RINSHAN: ("嶺上", "rinshan", "rinshankaihou", "afterakan", "deadwalldraw"),
    Yaku.HAITEI: ("海底撈月", "haitei", "haiteiraoyue", "underthesea"),
    Yaku.HOUTEI: ("河底", "houtei", "houteiraoyui", "undertheriver"),
    Yaku.PINFU: ("pinfu", "nopointshand"),
    Yaku.TANYAO: ("断么九", "断ヤオ九", "タンヤオ", "tanyao", "allsimples"),
    Yaku.IIPEIKOU: ("一杯口", "iipeikou", "iipeiko", "puredoublesequence"),
    Yaku.HAKU: ("白", "役牌白", "役牌:白", "haku", "whitedragon", "yakuhaihaku"),
    Yaku.HATSU: ("發", "発", "役牌発", "hatsu", "greendragon", "yakuhaihatsu"),
    Yaku.CHUN: ("中", "chun", "reddragon", "yakuhaichun"),
    Yaku.DOUBLE_RIICHI: ("ダブル立直", "ダブルリーチ", "doubleriichi", "dabururiichi"),
    Yaku.CHIITOITSU: ("七対", "chiitoitsu", "chiitoi", "sevenpairs"),
    Yaku.CHANTA: ("混全帯么九", "チャンタ", "chanta", "halfoutsidehand"),
    Yaku.ITTSU: ("一氣通貫", "一通", "ittsu", "ikkitsuukan", "purestraight"),
    Yaku.SANSHOKU: ("三色", "sanshoku", "sanshokudoujun", "mixedtriplesequence"),
    Yaku.SANSHOKU_DOUKOU: ("sanshokudoukou", "tripletriplets", "puretriplesequence"),
    Yaku.SANKANTSU: ("sankantsu", "threequads", "threekans"),
    Yaku.TOITOI: ("対対和", "對對和", "トイトイ", "toitoi", "toitoihou", "alltriplets"),
    Yaku.SANANKOU: ("sanankou", "threeconcealedtriplets"),
    Yaku.SHOUSANGEN: ("shousangen", "littlethreedragons", "threelittledragons"),
    Yaku.HONROUTOU: ("honroutou", "allterminalsandhonors"),
    Yaku.RYANPEIKOU: ("ryanpeikou", "ryanpeiko", "twicepuredoublesequence"),
    Yaku.JUNCHAN: ("純全帯么九", "純チャン", "junchan", "fullyoutsidehand"),
    Yaku.HONITSU: ("混一", "honitsu", "halfflush"),
    Yaku.CHINITSU: ("清一", "chinitsu", "fullflush"),
    Yaku.RENHOU: ("renhou", "blessingofman"),
    Yaku.TENHOU: ("tenhou", "blessingofheaven"),
    Yaku.CHIIHOU: ("chiihou", "blessingofearth"),
    Yaku.DAISANGEN: ("daisangen", "bigthreedragons", "threebigdragons"),
    Yaku.SUUANKOU: ("suuankou", "fourconcealedtriplets"),
    Yaku.SUUANKOU_TANKI: ("四暗刻単騎待ち", "四暗刻単騎待", "suuankoutanki",
                          "singlewaitfourconcealedtriplets"),
    Yaku.TSUUIISOU: ("tsuuiisou", "allhonors", "allhonours"),
    Yaku.RYUUIISOU: ("ryuuiisou", "allgreen"),
    Yaku.CHINROUTOU: ("chinroutou", "allterminals"),
    Yaku.CHUUREN: ("九蓮寶燈", "chuuren", "chuurenpoutou", "ninegates"),
    Yaku.JUNSEI_CHUUREN: ("純正九蓮寶燈", "junseichuuren", "junseichuurenpoutou", "trueninegates",
                          "pureninegates"),
    Yaku.KOKUSHI: ("kokushi", "kokushimusou", "thirteenorphans"),
    Yaku.KOKUSHI_13: ("国士無双13面", "国士無双十三面", "国士無双十三面待ち", "国士無双13面待ち",
                      "kokushi13", "kokushimusou13menmachi", "thirteenwaitthirteenorphans"),
    Yaku.DAISUUSHII: ("daisuushii", "bigfourwinds", "fourbigwinds"),
    Yaku.SHOUSUUSHII: ("shousuushii", "littlefourwinds", "fourlittlewinds"),
    Yaku.SUUKANTSU: ("suukantsu", "fourquads", "fourkans"),
    Yaku.DORA: ("dora",),
    Yaku.URA_DORA: ("uradora", "ura"),
    Yaku.AKA_DORA: ("赤", "akadora", "aka", "redfive", "redfives", "reddora"),
    Yaku.NUKIDORA: ("北ドラ", "抜き北", "nukidora", "kita", "northdora"),
}
_BY_NAME: dict[str, Yaku] = {}
for _yaku, _alias in _ALIASES.items():
    for _name in (*_alias, _TENHOU_NAMES[_yaku]):
        _BY_NAME[norm(_name)] = _yaku
for _i, _words in enumerate(_WIND_WORDS):
    for _w in _words:
        for _seat in ("自風", "門風", "門風牌", "自風牌", "seatwind", "jikaze", "役牌自風"):
            _BY_NAME[norm(_seat + _w)] = Yaku(Yaku.SEAT_EAST.value + _i)
        for _rnd in ("場風", "圏風", "圏風牌", "場風牌", "prevalentwind", "roundwind", "bakaze",
                     "役牌場風"):
            _BY_NAME[norm(_rnd + _w)] = Yaku(Yaku.ROUND_EAST.value + _i)
_SEAT_ONLY = frozenset(norm(w) for w in ("自風", "門風牌", "自風牌", "seatwind", "役牌:門風牌",
                                         "役牌 自風牌", "yakuhaiseatwind"))
_ROUND_ONLY = frozenset(norm(w) for w in ("場風", "圏風牌", "場風牌", "prevalentwind", "roundwind",
                                          "役牌:圏風牌", "役牌 場風牌", "yakuhaiprevalentwind"))
del _yaku, _alias, _name, _i, _words, _w, _seat, _rnd

_YAKU_TEXT = re.compile(r"^(.*)[(（]([^()（）]*)[)）]\s*$")
_YAKUMAN_WORDS = {"役満": 1, "yakuman": 1, "ダブル役満": 2, "二倍役満": 2, "2倍役満": 2,
                  "doubleyakuman": 2, "トリプル役満": 3, "三倍役満": 3, "3倍役満": 3}


@functools.lru_cache(maxsize=_TEXTS_KEPT)
def parse_yaku(text: str, seat_wind: Tile, round_wind: Tile) -> tuple[Yaku, int] | None:
    """``立直(1飜)`` -> ``(Yaku.RIICHI, 1)``; yakuman count 13 han each; ``None`` if unknown."""
    m = _YAKU_TEXT.match(text)
    if not m:
        return None
    name, value = norm(m.group(1)), norm(m.group(2))
    yaku = _BY_NAME.get(name)
    if yaku is None:
        if name in _SEAT_ONLY:
            yaku = Yaku(Yaku.SEAT_EAST.value + WINDS.index(seat_wind))
        elif name in _ROUND_ONLY:
            yaku = Yaku(Yaku.ROUND_EAST.value + WINDS.index(round_wind))
        else:
            return None
    if value in _YAKUMAN_WORDS:
        return yaku, 13 * _YAKUMAN_WORDS[value]
    hm = re.fullmatch(r"(\d{1,9})(?:飜|翻|han)", value)
    if hm is None:
        return None
    return yaku, int(hm.group(1))


def yaku_text(yaku: Yaku, han: int) -> str:
    name = _TENHOU_NAMES[yaku]
    if yaku.is_yakuman and yaku is not Yaku.KAZOE_YAKUMAN:
        times = max(1, han // 13)
        return f"{name}({'役満' if times == 1 else f'{times}倍役満'})"
    return f"{name}({han}飜)"


def draw_text(reason: DrawReason, tenpai: tuple[bool, ...] | None, no_payments: bool) -> str:
    """Tenhou's spelling of a draw."""
    if reason is DrawReason.EXHAUSTIVE and no_payments and tenpai is not None \
            and len(set(tenpai)) == 1:
        return "全員聴牌" if tenpai[0] else "全員不聴"
    return _DRAW_SPELLINGS[reason][0]
