"""The header of an mjlog: GO (the rules), UN (the players, and reconnections), BYE
(disconnections), TAIKYOKU and SHUFFLE; and the labels of Tenhou's ranks and rooms."""

from __future__ import annotations

import re
from typing import Final
from urllib.parse import unquote

from kansa.parsers.tenhou_xml.reader import TagReader
from kansa.parsers.tenhou_xml.rules import decode_go
from kansa.parsers.tenhou_xml.tag import Tag
from kansa.replay.game import Player

_DAN: Final = ("新人", "9級", "8級", "7級", "6級", "5級", "4級", "3級", "2級", "1級",
               "初段", "二段", "三段", "四段", "五段", "六段", "七段", "八段", "九段", "十段",
               "天鳳位")


def rank_label(dan: int) -> str | None:
    """Tenhou ``dan`` number as the rank Tenhou shows: 0 新人, 1-9 9級-1級, 10-19 初段-十段,
    20 天鳳位; ``None`` outside that range.

    >>> rank_label(0), rank_label(9), rank_label(16), rank_label(20)
    ('新人', '1級', '七段', '天鳳位')
    """
    return _DAN[dan] if 0 <= dan < len(_DAN) else None


def room_label(go_type: int) -> str:
    """Room label built from ``GO type`` bits as the tenhou.net/6 ``rule.disp`` shows it.

    >>> room_label(169), room_label(9), room_label(185), room_label(193)
    ('鳳南喰赤', '般南喰赤', '三鳳南喰赤', '上東喰赤速')
    """
    level = ("般", "上", "特", "鳳")[(go_type & 0x20) >> 4 | (go_type & 0x80) >> 7]
    return "".join((
        "三" if go_type & 0x10 else "",
        level,
        "南" if go_type & 0x08 else "東",
        "" if go_type & 0x04 else "喰",
        "" if go_type & 0x02 else "赤",
        "光" if go_type & 0x1000 else "速" if go_type & 0x40 else "",
        "" if go_type & 0x01 else "－",
    ))



_PERCENT_ENCODED: Final = re.compile(r"(?:%[0-9A-Fa-f]{2})+")


def _unquote(text: str) -> str:
    """``unquote(text, errors="replace")``, with the form Tenhou writes names and titles
    in (every byte percent-encoded) decoded directly: ``unquote`` takes ~9 us a name."""
    if _PERCENT_ENCODED.fullmatch(text):
        return bytes.fromhex(text.replace("%", "")).decode("utf-8", "replace")
    return unquote(text, errors="replace")



class HeaderTags(TagReader):
    """The handlers of the game's header tags: GO (rules), UN (players), BYE, TAIKYOKU, SHUFFLE."""

    def on_ignored(self, el: Tag, k: int) -> None:
        """TAIKYOKU (first dealer, always 0) carries nothing to replay."""

    def on_shuffle(self, el: Tag, k: int) -> None:
        """The wall seed, kept for the wall checks (the first SHUFFLE counts)."""
        if self.wall_seed is None:
            self.wall_seed = el.get("seed")

    def on_go(self, el: Tag, k: int) -> None:
        if self.hints is not None:
            self.note("a second <GO> tag was ignored", self.src(el, k))
            return
        go_type = self.int1(el, k, "type")
        self.n = 3 if go_type & 0x10 else 4
        self.aka = not go_type & 0x02
        title = el.get("title")
        self.title = _unquote(title) if title else None
        self.hints = decode_go(go_type, lobby=el.get("lobby"), csrule=el.get("csrule")).hints()

    def on_un(self, el: Tag, k: int) -> None:
        names = [el.get(f"n{i}") for i in range(4)]
        given = [i for i, name in enumerate(names) if name is not None]
        if self.un is not None or (len(given) == 1 and el.get("dan") is None):
            for i in given:
                self.note(f"seat {i} reconnected", self.src(el, k))
            return
        # names are percent-encoded UTF-8; dan, rate and sx are optional (bot logs lack them)
        dans = self.ints(el, k, "dan") if el.get("dan") else []
        try:
            rates = [float(r) for r in el.get("rate", "").split(",")] if el.get("rate") else []
        except ValueError:
            self.fail(f"<UN rate={el.get('rate')!r}> is not a list of numbers", el, k, "rate")
        sexes = el.get("sx", "").split(",")
        self.un = [Player(name=_unquote(names[i] or ""),
                          rank=rank_label(dans[i]) if i < len(dans) else None,
                          rating=rates[i] if i < len(rates) else None,
                          sex=sexes[i] if i < len(sexes) and sexes[i] else None)
                   for i in range(4)]

    def on_bye(self, el: Tag, k: int) -> None:
        self.note(f"seat {self.seat(el, k, 'who')} disconnected (BYE)", self.src(el, k))
