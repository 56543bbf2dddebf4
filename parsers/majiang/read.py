"""kobalab/majiang paipu JSON (電脳麻将 牌譜): ``{title, player, qijia, log, defen, rank, point}``.

``log`` holds one list per hand of one-key objects: ``qipai`` (deal), ``zimo`` /
``gangzimo`` (draws), ``dapai`` (discard; ``_`` = tsumogiri, ``*`` = riichi),
``fulou`` (chi/pon/daiminkan), ``gang`` (ankan/kakan), ``kaigang`` (kan dora),
``penuki`` (3-player North), ``hule`` and ``pingju``.

Seats: ``l`` is the seat wind in the hand (0 = dealer), so the absolute seat
(0 = the first dealer) is ``(l + jushu) % players``; ``player``/``defen``/
``rank``/``point`` at the top are in player order, starting at player ``qijia``.
A meld's ``+ = -`` marks a call from shimocha / toimen / kamicha, after the
called tile.  kobalab reveals kan dora after the replacement draw (ankan) and
after the discard (open kans); the reader moves each indicator to kansa's place.
"""

from __future__ import annotations

import math
import re
from pathlib import PurePath
from typing import Any

from kansa.parsers._json import decode_text, load_document
from kansa.parsers.canonical import canonical
from kansa.parsers.errors import LogFormatError
from kansa.parsers.fields import Fields, check_int, short
from kansa.parsers.majiang.names import DRAW_BY_NAME, YAKU_BY_NAME
from kansa.parsers.source import DEFAULT_LIMITS, Limits
from kansa.replay.events import (
    Ankan,
    Chi,
    Dahai,
    Daiminkan,
    Dora,
    DrawReason,
    EndGame,
    EndKyoku,
    Event,
    Hora,
    Kakan,
    Nukidora,
    Pon,
    Reach,
    ReachAccepted,
    Ryukyoku,
    SourceRef,
    StartKyoku,
    Tsumo,
)
from kansa.replay.game import Diagnostic, Game, Player, RuleHints
from kansa.replay.tiles import ALL_TILES, WINDS, Seat, Tile
from kansa.replay.yaku import Yaku

__all__ = ["parse", "sniff"]


_PAI = re.compile(r"([mpsz])([0-9])([_*+=\-]*)")
_MELD = re.compile(r"[mpsz](?:\d[+=\-]?)+\d*")
_PLAYER = re.compile(r"^(.*?)\s*[\n ]\((\S+) R(\d+)\)$", re.S)
_LOG_ID = re.compile(r"^\d{10}gm-[0-9a-f]{4}-\d{4}-[0-9a-f]{8}$")
_OFFSET4 = {"+": 1, "=": 2, "-": 3}
"""Call markers: the discarder's seat relative to the caller (4 players)."""


def sniff(head: bytes) -> bool:
    return head.startswith(b"{") and (b'"qipai"' in head or b'"qijia"' in head)


def parse(data: bytes, source: str, limits: Limits = DEFAULT_LIMITS) -> list[Game]:
    """The game in a majiang paipu.

    :raises LogFormatError: naming the JSON pointer of the first thing that
        cannot be read.
    """
    text = decode_text(data, source)
    doc = load_document(text, data, SourceRef(source, line=1), limits.max_json_depth,
                        "majiang paipu")
    if not isinstance(doc, dict):
        raise LogFormatError(f"expected a JSON object, got {short(doc)}",
                             SourceRef(source, line=1, column=1))
    f = Fields(doc, SourceRef(source, pointer=""), "a majiang paipu object")
    names = f.array("player")
    if len(names) not in (3, 4) or not all(isinstance(x, str) for x in names):
        f.fail("player", f"'player' should be 3 or 4 names, not {short(names)}")
    n = len(names)
    qijia = f.integer("qijia", 0, n - 1)
    order = [(qijia + s) % n for s in range(n)]  # player index of each seat
    log = f.array("log")
    diagnostics: list[Diagnostic] = []
    events: list[Event] = []
    for k, hand in enumerate(log):
        src = f.at("log")
        if not isinstance(hand, list) or not hand:
            raise LogFormatError(f"hand {k} should be a non-empty list", _ptr(src, k))
        events.extend(_Hand(n, _ptr(src, k), diagnostics).read(hand))
    end = _end_game(f, n, order)
    if end is not None:
        events.append(end)
    title = f.text("title") if f.has("title") else None
    stem = PurePath(source.rsplit("!", 1)[-1]).stem
    return [Game(
        format="majiang", source=source, events=canonical(events, n),
        players=tuple(_player(names[i]) for i in order), hints=_hints(title, n),
        log_id=stem if _LOG_ID.match(stem) else None, title=title,
        diagnostics=tuple(diagnostics))]


def _ptr(src: SourceRef, key: int | str) -> SourceRef:
    return SourceRef(src.file, pointer=f"{src.pointer or ''}/{key}")


def _player(text: str) -> Player:
    """``名前 (七段 R2112)`` (Tenhou-converted) or ``名前\\n(七段 R2112)`` (kobalab)."""
    m = _PLAYER.match(text)
    if m is None:
        return Player(name=text)
    return Player(name=m.group(1), rank=m.group(2), rating=float(m.group(3)))


def _hints(title: str | None, n: int) -> RuleHints:
    """Rule hints from a Tenhou room label in the title (``四鳳南喰赤速``)."""
    if title is None or not re.match(r"^[三四][般上特鳳若銀琥孔技]", title):
        return RuleHints(players=n)
    return RuleHints(players=n, aka="赤" in title, kuitan="喰" in title,
                     hanchan="南" in title, platform="tenhou", room=title)


def _end_game(f: Fields, n: int, order: list[int]) -> EndGame | None:
    """Final scores and points, when the paipu records the game's end."""
    defen, point = f.get("defen"), f.get("point")
    if not defen or not point:
        return None
    scores = f.ints("defen", n)
    if not isinstance(point, list) or len(point) != n:
        f.fail("point", f"'point' should have {n} entries")
    try:
        points = [float(p) for p in point]
    except (TypeError, ValueError):
        f.fail("point", f"'point' should be numbers, not {short(point)}")
    if not all(math.isfinite(p) for p in points):  # 1e999 reads as infinity
        f.fail("point", f"'point' should be finite numbers, not {short(point)}")
    return EndGame(scores=tuple(scores[i] for i in order),
                   points=tuple(points[i] for i in order), src=f.at("defen"))


_KNOWN: dict[str, tuple[Tile, str]] = {
    t.majiang + marks: (t, marks) for t in ALL_TILES for marks in ("", "_", "*", "_*")}


def _tile(text: Any, src: SourceRef, what: str) -> tuple[Tile, str]:
    """A majiang tile and its trailing marks (``_`` ``*`` ``+=-``)."""
    if type(text) is str and text in _KNOWN:
        return _KNOWN[text]
    m = _PAI.fullmatch(text) if isinstance(text, str) else None
    if m is None:
        raise LogFormatError(f"{what}: {short(text)} is not a majiang tile", src)
    try:
        return Tile.from_majiang(m.group(1) + m.group(2)), m.group(3)
    except ValueError:
        raise LogFormatError(f"{what}: {short(text)} is not a majiang tile", src) from None


def _field_tile(f: Fields, key: str, what: str) -> tuple[Tile, str]:
    """``_tile`` of field ``key``; the position is only built for an error."""
    value = f.get(key)
    if type(value) is str and value in _KNOWN:
        return _KNOWN[value]
    return _tile(f.req(key), f.at(key), what)


def _haisi(text: Any, src: SourceRef) -> tuple[Tile | None, ...]:
    """The concealed tiles of a hand string (melds after ``,`` left out, ``_`` hidden)."""
    if not isinstance(text, str):
        raise LogFormatError(f"a hand should be a string, not {short(text)}", src)
    tiles: list[Tile | None] = []
    suit = None
    for ch in text.split(",", 1)[0]:
        if ch in "mpsz":
            suit = ch
        elif ch.isdigit() and suit is not None:
            try:
                tiles.append(Tile.from_majiang(suit + ch))
            except ValueError:
                raise LogFormatError(f"{suit}{ch} in hand {short(text)} is not a tile",
                                     src) from None
        elif ch == "_":
            tiles.append(None)
        elif ch not in "*+=-":
            raise LogFormatError(f"unexpected {ch!r} in hand {short(text)}", src)
    return tuple(tiles)


class _Hand:
    """One ``log`` entry turned into kansa events."""

    def __init__(self, players: int, src: SourceRef, notes: list[Diagnostic]) -> None:
        self.n = players
        self.src = src
        self.notes = notes
        self.jushu = 0
        self.items: list[tuple[str, Fields]] = []
        self.kan_open = False
        """The last kan was open (daiminkan/kakan): its indicator follows the discard."""
        self.dora_due = False
        """A kan's indicator has not been revealed yet."""
        self.last_discarder: Seat | None = None

    def seat(self, f: Fields, key: str = "l") -> Seat:
        return Seat((f.integer(key, 0, self.n - 1) + self.jushu) % self.n)

    def read(self, raw: list[Any]) -> list[Event]:
        file, base = self.src.file, self.src.pointer
        for i, item in enumerate(raw):
            if not isinstance(item, dict) or len(item) != 1:
                raise LogFormatError(f"a log entry should be a one-key object, not "
                                     f"{short(item)}", _ptr(self.src, i))
            ((kind, body),) = item.items()
            self.items.append((kind, Fields(body, SourceRef(file, pointer=f"{base}/{i}/{kind}"))))
        if self.items[0][0] != "qipai":
            raise LogFormatError("a hand should start with qipai", self.src)
        out: list[Event] = [self.qipai(self.items[0][1])]
        i, ended = 1, False
        while i < len(self.items):
            kind, f = self.items[i]
            if kind == "zimo":
                skip = self.on_zimo(f, out)
            elif kind == "dapai":
                skip = self.on_dapai(f, i, out)
            elif kind == "fulou":
                skip = self.on_fulou(f, i, out)
            elif kind == "gang":
                skip = self.on_gang(f, i, out)
            elif kind == "gangzimo":
                skip = self.on_gangzimo(f, i, out)
            elif kind == "kaigang":
                skip = self.on_kaigang(f, out)
            elif kind == "penuki":
                skip = self.on_penuki(f, out)
            elif kind == "hule":
                skip = self.on_hule(f, out)
            elif kind == "pingju":
                skip = self.on_pingju(f, out)
            else:
                self.notes.append(Diagnostic(f"unknown log entry {kind!r} ignored", f.src))
                i += 1
                continue
            ended = ended or kind in ("hule", "pingju")
            i += 1 + skip
        if ended:
            out.append(EndKyoku(src=self.items[-1][1].src))
        return out

    def next_kind(self, i: int) -> str | None:
        return self.items[i + 1][0] if i + 1 < len(self.items) else None

    def dora(self, i: int) -> Dora:
        f = self.items[i + 1][1]
        self.dora_due = False
        tile, _ = _field_tile(f, "baopai", "kaigang baopai")
        return Dora(dora_marker=tile, src=f.src)

    # -- entries; each appends its events to ``out`` and returns how many next entries
    #    it used

    def qipai(self, f: Fields) -> StartKyoku:
        n = self.n
        self.jushu = f.integer("jushu", 0, n - 1)
        wind = f.integer("zhuangfeng", 0, 3)
        hands = f.array("shoupai")
        if len(hands) != n:
            f.fail("shoupai", f"'shoupai' should have {n} hands, not {len(hands)}")
        defen = f.ints("defen", n)
        by_seat = [(s - self.jushu) % n for s in range(n)]  # the l of each seat
        tehais = tuple(_haisi(hands[k], f.at("shoupai")) or (None,) * 13 for k in by_seat)
        baopai, _ = _field_tile(f, "baopai", "baopai")
        return StartKyoku(
            bakaze=WINDS[wind], kyoku=self.jushu + 1, honba=f.integer("changbang", 0),
            kyotaku=f.integer("lizhibang", 0), oya=Seat(self.jushu),
            scores=tuple(defen[k] for k in by_seat), dora_marker=baopai, tehais=tehais,
            src=f.src)

    def on_zimo(self, f: Fields, out: list[Event]) -> int:
        tile, _ = _field_tile(f, "p", "zimo") if f.get("p") != "_" else (None, "")
        out.append(Tsumo(actor=self.seat(f), tile=tile, src=f.src))
        return 0

    def on_gangzimo(self, f: Fields, i: int, out: list[Event]) -> int:
        skip = 0
        if not self.kan_open and self.next_kind(i) == "kaigang":
            out.append(self.dora(i))  # ankan: indicator before the replacement draw
            skip = 1
        self.on_zimo(f, out)
        return skip

    def on_dapai(self, f: Fields, i: int, out: list[Event]) -> int:
        actor = self.seat(f)
        tile, marks = _field_tile(f, "p", "dapai")
        riichi = "*" in marks
        if riichi:
            out.append(Reach(actor=actor, src=f.src))
        skip = 0
        if self.kan_open and self.next_kind(i) == "kaigang":
            out.append(self.dora(i))  # open kan: indicator before the discard
            skip = 1
        self.kan_open = False
        self.last_discarder = actor
        out.append(Dahai(actor=actor, tile=tile, tsumogiri="_" in marks, src=f.src))
        after = self.items[i + 1 + skip] if i + 1 + skip < len(self.items) else None
        ronned = after is not None and (after[0] == "hule" or (
            after[0] == "pingju" and after[1].get("name") == "三家和了"))
        if riichi and not ronned:
            out.append(ReachAccepted(actor=actor, src=f.src))
        return skip

    def on_fulou(self, f: Fields, i: int, out: list[Event]) -> int:
        actor = self.seat(f)
        tiles, called, mark = self.meld(f)
        if called is None or mark is None:
            f.fail("m", f"call {short(f.get('m'))} has no direction mark")
        own = tuple(t for k, t in enumerate(tiles) if k != called)
        target = self.target(f, actor, mark)
        tile = tiles[called]
        if len(tiles) == 4:
            self.kan_started(f, i)
            self.kan_open = True
            out.append(Daiminkan(actor=actor, target=target, tile=tile, consumed=own,
                                 src=f.src))
        elif len(tiles) == 3 and all(t.index == tile.index for t in own):
            out.append(Pon(actor=actor, target=target, tile=tile, consumed=own, src=f.src))
        elif len(tiles) == 3:
            out.append(Chi(actor=actor, target=target, tile=tile, consumed=own, src=f.src))
        else:
            f.fail("m", f"call {short(f.get('m'))} is neither chi, pon nor kan")
        return 0

    def on_gang(self, f: Fields, i: int, out: list[Event]) -> int:
        actor = self.seat(f)
        tiles, _, mark = self.meld(f)
        if len(tiles) != 4:
            f.fail("m", f"kan {short(f.get('m'))} does not have four tiles")
        self.kan_started(f, i)
        if mark is None:
            self.kan_open = False
            out.append(Ankan(actor=actor, consumed=tiles, src=f.src))
        else:
            self.kan_open = True
            out.append(Kakan(actor=actor, tile=tiles[3], consumed=tiles[:3], src=f.src))
        return 0

    def kan_started(self, f: Fields, i: int) -> None:
        """kobalab reveals a pending indicator before the next kan; note when it is missing."""
        if self.dora_due and self.next_kind(i) != "kaigang":
            self.notes.append(Diagnostic(
                "the earlier kan's dora indicator is missing from the log before this kan",
                f.src))
        self.dora_due = True

    def on_kaigang(self, f: Fields, out: list[Event]) -> int:
        self.dora_due = False
        tile, _ = _field_tile(f, "baopai", "kaigang baopai")
        out.append(Dora(dora_marker=tile, src=f.src))
        return 0

    def on_penuki(self, f: Fields, out: list[Event]) -> int:
        tile, _ = _field_tile(f, "p", "penuki")
        out.append(Nukidora(actor=self.seat(f), tile=tile, src=f.src))
        return 0

    def meld(self, f: Fields) -> tuple[tuple[Tile, ...], int | None, str | None]:
        """A meld's tiles in written order, the called tile's index and its mark."""
        m = f.req("m")
        if not isinstance(m, str) or not _MELD.fullmatch(m):
            f.fail("m", f"{short(m)} is not a majiang meld")
        tiles: list[Tile] = []
        called = mark = None
        for ch in m[1:]:
            if ch.isdigit():
                try:
                    tiles.append(Tile.from_majiang(m[0] + ch))
                except ValueError:
                    f.fail("m", f"{m[0]}{ch} in meld {short(m)} is not a tile")
            else:
                called, mark = len(tiles) - 1, ch
        return tuple(tiles), called, mark

    def target(self, f: Fields, actor: Seat, mark: str) -> Seat:
        if self.n == 4:
            return Seat((actor + _OFFSET4[mark]) % 4)
        # Tenhou-converted 3-player paipu mark shimocha with '+' or '='
        return Seat((actor + (-1 if mark == "-" else 1)) % 3)

    def on_hule(self, f: Fields, out: list[Event]) -> int:
        actor = self.seat(f)
        target = actor if f.get("baojia") is None else self.seat(f, "baojia")
        hand = _haisi(f.req("shoupai"), f.at("shoupai"))
        known = tuple(t for t in hand if t is not None) if None not in hand else None
        tile = known[-1] if known and len(known) % 3 == 2 else None
        yaku, pao = self.hupai(f, actor) if f.has("hupai") else (None, None)
        han = f.opt_int("fanshu", 0)
        if f.has("damanguan"):
            han = 13 * f.integer("damanguan", 1)
        ura = f.get("fubaopai")
        if ura is not None and not isinstance(ura, list):
            f.fail("fubaopai", "'fubaopai' should be a list of tiles")
        out.append(Hora(
            actor=actor, target=target, tile=tile, deltas=self.deltas(f), hand=known,
            yaku=yaku, fu=f.opt_int("fu", 0), han=han, points=f.opt_int("defen", 0),
            ura_markers=None if ura is None else tuple(
                _tile(t, f.at("fubaopai"), "fubaopai")[0] for t in ura),
            pao=pao, src=f.src))
        return 0

    def hupai(self, f: Fields, actor: Seat) -> tuple[tuple[tuple[Yaku, int], ...],
                                                     Seat | None]:
        out: list[tuple[Yaku, int]] = []
        pao = None
        for entry in f.array("hupai"):
            h = Fields(entry, f.at("hupai"))
            name = h.text("name")
            fanshu = h.req("fanshu")
            if isinstance(fanshu, str) and fanshu and set(fanshu) == {"*"}:
                han = 13 * len(fanshu)
            else:
                han = check_int(fanshu, h.at("fanshu"), f"fanshu of {name}")
            yaku = YAKU_BY_NAME.get(name.replace("　", " "))
            if yaku is None:
                self.notes.append(Diagnostic(f"unknown yaku {name!r} ({han} han) left out",
                                             h.src))
                continue
            out.append((yaku, han))
            mark = h.get("baojia")
            if isinstance(mark, str) and mark in _OFFSET4:
                pao = self.target(h, actor, mark)
            elif mark is not None:
                pao = self.seat(h, "baojia")
        return tuple(out), pao

    def deltas(self, f: Fields) -> tuple[int, ...] | None:
        if not f.has("fenpei"):
            return None
        fenpei = f.ints("fenpei", self.n)
        return tuple(fenpei[(s - self.jushu) % self.n] for s in range(self.n))

    def on_pingju(self, f: Fields, out: list[Event]) -> int:
        name = f.text("name")
        reason = DRAW_BY_NAME.get(name)
        if reason is None:
            f.fail("name", f"unknown draw {name!r} (known: {', '.join(DRAW_BY_NAME)})")
        hands = None
        if f.has("shoupai"):
            rows = f.array("shoupai")
            if len(rows) != self.n:
                f.fail("shoupai", f"'shoupai' should have {self.n} hands, not {len(rows)}")
            shown = [_haisi(rows[(s - self.jushu) % self.n], f.at("shoupai"))
                     for s in range(self.n)]
            hands = tuple(None if not h or None in h else
                          tuple(t for t in h if t is not None) for h in shown)
        tenpai = None
        actor = None
        if hands is not None and not reason.is_abortive:
            tenpai = tuple(h is not None for h in hands)
        elif hands is not None and reason is DrawReason.KYUUSHU_KYUUHAI:
            declared = [Seat(s) for s, h in enumerate(hands) if h is not None]
            actor = declared[0] if len(declared) == 1 else None
        out.append(Ryukyoku(reason=reason, deltas=self.deltas(f), tenpai=tenpai,
                            hands=hands, actor=actor, src=f.src))
        return 0
