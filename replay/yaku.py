"""The yaku vocabulary shared by every format.

Values are Tenhou's yaku ids (0-54), so the XML parser maps ids directly; the
other formats map their names onto these members in their parsers.
"""

from __future__ import annotations

from enum import Enum


class Yaku(Enum):
    MENZEN_TSUMO = 0
    RIICHI = 1
    IPPATSU = 2
    CHANKAN = 3
    RINSHAN = 4
    HAITEI = 5
    HOUTEI = 6
    PINFU = 7
    TANYAO = 8
    IIPEIKOU = 9
    SEAT_EAST = 10
    SEAT_SOUTH = 11
    SEAT_WEST = 12
    SEAT_NORTH = 13
    ROUND_EAST = 14
    ROUND_SOUTH = 15
    ROUND_WEST = 16
    ROUND_NORTH = 17
    HAKU = 18
    HATSU = 19
    CHUN = 20
    DOUBLE_RIICHI = 21
    CHIITOITSU = 22
    CHANTA = 23
    ITTSU = 24
    SANSHOKU = 25
    SANSHOKU_DOUKOU = 26
    SANKANTSU = 27
    TOITOI = 28
    SANANKOU = 29
    SHOUSANGEN = 30
    HONROUTOU = 31
    RYANPEIKOU = 32
    JUNCHAN = 33
    HONITSU = 34
    CHINITSU = 35
    RENHOU = 36
    TENHOU = 37
    CHIIHOU = 38
    DAISANGEN = 39
    SUUANKOU = 40
    SUUANKOU_TANKI = 41
    TSUUIISOU = 42
    RYUUIISOU = 43
    CHINROUTOU = 44
    CHUUREN = 45
    JUNSEI_CHUUREN = 46
    KOKUSHI = 47
    KOKUSHI_13 = 48
    DAISUUSHII = 49
    SHOUSUUSHII = 50
    SUUKANTSU = 51
    DORA = 52
    URA_DORA = 53
    AKA_DORA = 54
    # not in Tenhou's table
    KAZOE_YAKUMAN = 100
    NUKIDORA = 101

    @property
    def is_yakuman(self) -> bool:
        return 37 <= self.value <= 51 or self in (Yaku.KAZOE_YAKUMAN,)

    @property
    def is_dora(self) -> bool:
        """Dora, ura dora, red fives and North extraction: han that are not yaku."""
        return self in (Yaku.DORA, Yaku.URA_DORA, Yaku.AKA_DORA, Yaku.NUKIDORA)

    @staticmethod
    def from_tenhou_id(yaku_id: int) -> Yaku:
        """:raises ValueError: for an id outside Tenhou's table."""
        if not 0 <= yaku_id <= 54:
            raise ValueError(f"unknown Tenhou yaku id {yaku_id}")
        return Yaku(yaku_id)


class Limit(Enum):
    """The limit a hand's value reached, as logs record it."""

    NONE = 0
    MANGAN = 1
    HANEMAN = 2
    BAIMAN = 3
    SANBAIMAN = 4
    YAKUMAN = 5
