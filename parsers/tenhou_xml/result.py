"""The result tags of an mjlog: AGARI (a win, with its yaku, fu and points as the log
claims them) and RYUUKYOKU (a draw), and ``owari``, the game's final scores and
points on the last of them.  ``EndKyoku`` and ``EndGame`` wait for the next INIT or
the end of the log (a double ron has two AGARI)."""

from __future__ import annotations

import math
from typing import Final

from kansa.parsers.canonical import is_empty_ura
from kansa.parsers.tenhou_xml.hand import HandTags
from kansa.parsers.tenhou_xml.tables import (
    _HAI,
    _LIMIT_TEXT,
    _SEAT_TEXT,
    _UNUSUAL,
    _YAKU_BY_ID,
    _YAKU_TEXT,
    _quick_deltas,
    _tiles,
)
from kansa.parsers.tenhou_xml.tag import Tag
from kansa.replay.events import DrawReason, EndGame, Hora, Ryukyoku, SourceRef
from kansa.replay.tiles import Seat, Tile
from kansa.replay.yaku import Limit, Yaku

_DRAW_REASONS: Final[dict[str | None, DrawReason]] = {
    None: DrawReason.EXHAUSTIVE,
    "yao9": DrawReason.KYUUSHU_KYUUHAI,
    "kaze4": DrawReason.SUUFON_RENDA,
    "reach4": DrawReason.SUUCHA_RIICHI,
    "ron3": DrawReason.SANCHAHOU,
    "kan4": DrawReason.SUUKAIKAN,
    "nm": DrawReason.NAGASHI_MANGAN,
}



class ResultTags(HandTags):
    """The handlers of the result tags, AGARI and RYUUKYOKU, with the game's final
    result (``owari``) they may carry."""

    def on_agari(self, el: Tag, k: int) -> None:
        self.in_play(el, k)
        src = self.src(el, k)
        try:
            hora = self.quick_hora(el, src)
        except _UNUSUAL:
            hora = self.hora(el, k, src)
        self.events.append(hora)
        self.result(el, k, src)

    def quick_hora(self, el: Tag, src: SourceRef) -> Hora:
        """:meth:`hora` for the common shape of AGARI; raises one of ``_UNUSUAL`` otherwise."""
        get = el.get
        tile_text = self.tile_text
        honba, sticks = map(int, get("ba", "").split(","))
        fu, points, limit = get("ten", "").split(",")
        yaku = _quick_yaku(el)
        dora, ura, pao = get("doraHai"), get("doraHaiUra"), get("paoWho")
        return Hora(
            actor=_SEAT_TEXT[get("who")], target=_SEAT_TEXT[get("fromWho")],
            tile=tile_text[get("machi", "")], deltas=_quick_deltas(get("sc", ""), self.n),
            hand=self.hand_tiles(get("hai", "")), yaku=yaku,
            fu=int(fu), han=sum([h for _, h in yaku]), points=int(points),
            limit=_LIMIT_TEXT[limit],
            dora_markers=_tiles(tile_text, dora) if dora else None,
            ura_markers=_tiles(tile_text, ura) if ura else None,
            pao=_SEAT_TEXT[pao] if pao else None,
            honba=honba, kyotaku=sticks, src=src)

    def hora(self, el: Tag, k: int, src: SourceRef) -> Hora:
        honba, sticks = self.ints(el, k, "ba", 2)[:2]
        fu, points, limit = self.ints(el, k, "ten", 3)[:3]
        if not 0 <= limit <= 5:
            self.fail(f"<AGARI ten>: limit {limit} is not 0-5", el, k, "ten")
        yaku = self.yaku(el, k)
        return Hora(
            actor=self.seat(el, k, "who"), target=self.seat(el, k, "fromWho"),
            tile=self.tile(el, k, "machi"), deltas=self.deltas(el, k),
            hand=self.tiles(el, k, "hai", sort=True), yaku=yaku,
            fu=fu, han=sum(h for _, h in yaku) if yaku is not None else None,
            points=points, limit=Limit(limit),
            dora_markers=self.tiles(el, k, "doraHai") if el.get("doraHai") else None,
            ura_markers=self.tiles(el, k, "doraHaiUra") if el.get("doraHaiUra") else None,
            pao=self.seat(el, k, "paoWho") if el.get("paoWho") else None,
            honba=honba, kyotaku=sticks, src=src)

    def yaku(self, el: Tag, k: int) -> tuple[tuple[Yaku, int], ...] | None:
        """``yaku`` (id, han) pairs, or ``yakuman`` ids at 13 han each."""
        if el.get("yaku") is not None:
            name = "yaku"
            values = self.ints(el, k, name)
            if len(values) % 2:
                self.fail("<AGARI yaku> is not a list of (id, han) pairs", el, k, name)
            ids, hans = values[0::2], values[1::2]
            if any(h < 0 for h in hans):
                self.fail("<AGARI yaku>: a yaku's han is negative", el, k, name)
        elif el.get("yakuman") is not None:
            name = "yakuman"
            ids = self.ints(el, k, name)
            hans = [13] * len(ids)
        else:
            self.note("AGARI has neither yaku nor yakuman", self.src(el, k))
            return None
        for yaku_id in ids:
            if not 0 <= yaku_id < len(_YAKU_BY_ID):
                self.fail(f"<AGARI {name}>: unknown Tenhou yaku id {yaku_id}", el, k, name)
        pairs = zip([_YAKU_BY_ID[i] for i in ids], hans, strict=True)
        return tuple([item for item in pairs if not is_empty_ura(item)])  # canonical

    def on_ryuukyoku(self, el: Tag, k: int) -> None:
        self.in_play(el, k)
        src = self.src(el, k)
        kind = el.get("type")
        reason = _DRAW_REASONS.get(kind)
        if reason is None:
            self.fail(f"<RYUUKYOKU type={kind!r}> is not a known draw type", el, k, "type")
        try:
            hands, deltas = self.quick_shown(el)
        except _UNUSUAL:
            hands = tuple([self.tiles(el, k, name, sort=True)
                           if el.get(name) is not None else None for name in _HAI[:self.n]])
            deltas = self.deltas(el, k)
        shown = [Seat(i) for i, hand in enumerate(hands) if hand is not None]
        actor = None
        if reason is DrawReason.KYUUSHU_KYUUHAI:
            if len(shown) == 1:
                actor = shown[0]
            else:
                self.note(f"yao9 draw shows {len(shown)} hands; the declarer is unknown", src)
        tenpai = None
        if reason in (DrawReason.EXHAUSTIVE, DrawReason.NAGASHI_MANGAN):
            tenpai = tuple(hand is not None for hand in hands)
        self.events.append(Ryukyoku(reason=reason, deltas=deltas, tenpai=tenpai,
                                    hands=hands, actor=actor, src=src))
        self.result(el, k, src)

    def quick_shown(self, el: Tag) -> tuple[tuple[tuple[Tile, ...] | None, ...],
                                                 tuple[int, ...]]:
        """RYUUKYOKU's shown hands and ``sc`` deltas in their common shape; raises one of
        ``_UNUSUAL`` otherwise."""
        get = el.get
        hands = tuple([self.hand_tiles(hand) if (hand := get(name)) is not None else None
                       for name in _HAI[:self.n]])
        return hands, _quick_deltas(get("sc", ""), self.n)

    def result(self, el: Tag, k: int, src: SourceRef) -> None:
        """Book-keeping shared by AGARI and RYUUKYOKU (EndKyoku/EndGame wait)."""
        self.result_src = src
        raw = el.get("owari")
        if raw is None:
            return
        parts = raw.split(",")
        if len(parts) < 2 * self.n:
            self.fail(f"<{el.tag} owari={raw!r}> needs {2 * self.n} values", el, k, "owari")
        try:
            scores = tuple(int(parts[2 * i]) * 100 for i in range(self.n))
            points = tuple(float(parts[2 * i + 1]) for i in range(self.n))
        except ValueError:
            self.fail(f"<{el.tag} owari={raw!r}> is not numeric", el, k, "owari")
        if not all(math.isfinite(p) for p in points):  # float() takes 'inf' and 'nan'
            self.fail(f"<{el.tag} owari={raw!r}> is not numeric", el, k, "owari")
        self.game_end = EndGame(scores=scores, points=points, src=src)


def _quick_yaku(el: Tag) -> tuple[tuple[Yaku, int], ...]:
    """:meth:`_Reader.yaku` when AGARI has a ``yaku`` or a non-empty ``yakuman``."""
    raw = el.get("yaku")
    if raw is None:  # yakuman ids, 13 han each
        ids = el.get("yakuman", "").split(",")
        hans = [13] * len(ids)
    else:
        parts = raw.split(",")
        ids, hans = parts[0::2], [int(part) for part in parts[1::2]]
        if len(ids) != len(hans) or min(hans) < 0:
            raise ValueError("left to the careful reading")
    pairs = [(_YAKU_TEXT[i], h) for i, h in zip(ids, hans, strict=True)]
    return tuple([item for item in pairs if item != _EMPTY_URA])  # canonical, is_empty_ura


_EMPTY_URA: Final = (Yaku.URA_DORA, 0)
