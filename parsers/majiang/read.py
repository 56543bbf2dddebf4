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
from typing import TYPE_CHECKING, Any, Final

import msgspec

from kansa.parsers._json import decode_text, load_document, utf8_of
from kansa.parsers.errors import LogFormatError
from kansa.parsers.fields import Fields, short
from kansa.parsers.majiang.hand import Hand
from kansa.parsers.majiang.paipu import PAIPU_DECODER, NotQuick, Paipu
from kansa.parsers.majiang.pointers import Log, pointer_ref, track_formats
from kansa.parsers.majiang.scan import COMPILED, json_value, skip_space, text_value
from kansa.parsers.source import DEFAULT_LIMITS, Limits
from kansa.replay.events import EndGame, Event, SourceRef
from kansa.replay.game import Diagnostic, Game, Player, RuleHints, SourceTracks

if TYPE_CHECKING:  # native integers where compiled; only annotations name them
    from mypy_extensions import i64

__all__ = ["parse", "read_full", "read_quick", "sniff"]


_PLAYER = re.compile(r"^(.*?)\s*[\n ]\((\S+) R(\d+)\)$", re.S)
_LOG_ID = re.compile(r"^\d{10}gm-[0-9a-f]{4}-\d{4}-[0-9a-f]{8}$")
_ROOM = re.compile(r"^[三四][般上特鳳若銀琥孔技]")


def sniff(head: bytes) -> bool:
    return head.startswith(b"{") and (b'"qipai"' in head or b'"qijia"' in head)


def parse(data: bytes, source: str, limits: Limits = DEFAULT_LIMITS) -> list[Game]:
    """The game in a majiang paipu: read quickly where :func:`read_quick` can, else in
    full (:func:`read_full`), which reads the same game or words the file's first
    problem.

    :raises LogFormatError: naming the JSON pointer of the first thing that
        cannot be read.
    """
    if limits.max_json_depth >= _QUICK_DEPTH:
        try:
            return [read_quick(data, source, limits.max_json_depth)]
        except (NotQuick, LogFormatError):
            pass
    return [read_full(data, source, limits)]


def read_full(data: bytes, source: str, limits: Limits = DEFAULT_LIMITS) -> Game:
    """The game, its whole document decoded first."""
    text = decode_text(data, source)
    doc = load_document(text, data, SourceRef(source, line=1), limits.max_json_depth,
                        "majiang paipu")
    if not isinstance(doc, dict):
        raise LogFormatError(f"expected a JSON object, got {short(doc)}",
                             SourceRef(source, line=1, column=1))
    f = Fields(doc, SourceRef(source, pointer=""), "a majiang paipu object")
    return _game(f, source, [])


_QUICK_DEPTH: Final = 8
"""The least depth limit under which the quick reading runs: the deepest paipu has
objects in a list in a log entry (a win's ``hupai``), depth 7."""


def read_quick(data: bytes, source: str, depth: int, *, by_bytes: bool = COMPILED) -> Game:
    """The game, in a paipu that nests at most ``depth`` deep, each log entry met
    before (a draw or discard) one shared event, every other value decoded alone with
    its depth counted.  ``by_bytes``: read from the paipu's bytes (:func:`_scan`), or
    from msgspec's texts of the entries (:func:`_read_texts`); each build's faster way
    by default (:data:`~kansa.parsers.majiang.scan.COMPILED`), the same game either way.

    :raises NotQuick: where the full reading is needed (it reads the whole document).
    """
    utf8 = utf8_of(data)
    if utf8 is None:
        raise NotQuick
    if not by_bytes:
        return _read_texts(utf8, source, depth)
    try:
        return _scan(utf8, source, depth)
    except IndexError:  # the text ends inside a value
        raise NotQuick from None


def _read_texts(data: bytes, source: str, depth: int) -> Game:
    """:func:`read_quick` through :data:`PAIPU_DECODER`: the top-level fields and the
    log's entries kept as their JSON text."""
    # msgspec checks the UTF-8 of the strings it decodes, not of a Raw's text: every
    # Raw here is decoded, or is the text of an entry decoded before
    try:
        paipu = PAIPU_DECODER.decode(data)
    except (msgspec.DecodeError, RecursionError, UnicodeError):
        raise NotQuick from None
    doc: dict[str, Any] = {}
    for name in _TOP_FIELDS:
        raw: msgspec.Raw = getattr(paipu, name)
        if len(raw):
            doc[name] = text_value(bytes(raw), depth - 1)
    names = doc.get("player")
    if not isinstance(names, list) or len(names) not in (3, 4):
        raise NotQuick
    src = SourceRef(source, pointer="/log")
    notes: list[Diagnostic] = []
    hands: list[Hand] = []
    log = Log()
    for k, entries in enumerate(paipu.log):
        if not entries:
            raise NotQuick
        hand = Hand(len(names), pointer_ref(src, k), notes, log)
        hand.read_texts(entries, depth - 3)
        hands.append(hand)
    return _game(Fields(doc, SourceRef(source, pointer="")), source, notes, (hands, log))


_TOP_FIELDS: Final = tuple(name for name in Paipu.__struct_fields__ if name != "log")


def _scan(data: bytes, source: str, depth: int) -> Game:
    """:func:`read_quick` of ``data`` (UTF-8 without a byte-order mark)."""
    doc: dict[str, Any] = {}
    hands: list[Hand] = []
    log = Log()
    src = SourceRef(source, pointer="/log")
    notes: list[Diagnostic] = []
    pos: i64 = skip_space(data, 0)
    if data[pos] != 0x7B:  # {
        raise NotQuick
    pos = skip_space(data, pos + 1)
    while data[pos] == 0x22:  # "
        key, end = json_value(data, pos, 0)
        pos = skip_space(data, end)
        if data[pos] != 0x3A:  # :
            raise NotQuick
        pos = skip_space(data, pos + 1)
        if key == "log":
            if hands or data[pos] != 0x5B:  # [
                raise NotQuick
            pos, hands = _scan_log(data, pos, depth - 3, src, notes, log=log)
        else:
            doc[key], pos = json_value(data, pos, depth - 1)
        pos, more = _after_item(data, pos, 0x22)  # "
        if not more:
            break
    if data[pos] != 0x7D or skip_space(data, pos + 1) != len(data) or not hands:  # }
        raise NotQuick
    names = doc.get("player")
    if not isinstance(names, list) or len(names) != hands[0].n:
        raise NotQuick
    return _game(Fields(doc, SourceRef(source, pointer="")), source, notes, (hands, log))


def _scan_log(data: bytes, pos: i64, depth: int, src: SourceRef, notes: list[Diagnostic],
              *, log: Log) -> tuple[i64, list[Hand]]:
    """The hands of the log whose list opens at ``pos``, read into ``log``, and the
    offset after it."""
    hands: list[Hand] = []
    players = 0  # told by the first deal
    pos = skip_space(data, pos + 1)
    while data[pos] == 0x5B:  # [
        hand = Hand(players, pointer_ref(src, len(hands)), notes, log)
        pos = hand.scan(data, pos, depth)
        players = hand.n
        hands.append(hand)
        pos, more = _after_item(data, pos, 0x5B)  # [
        if not more:
            break
    if data[pos] != 0x5D:  # ]
        raise NotQuick
    return pos + 1, hands


def _after_item(data: bytes, pos: i64, opening: int) -> tuple[i64, bool]:
    """After an item of an object or a list that ends at ``pos``: the offset of the
    next item, which opens with the byte ``opening``, and True; or where no comma
    follows, the offset of the next byte (the closing bracket, else the text is not
    JSON) and False.

    :raises NotQuick: for a comma before the closing bracket.
    """
    pos = skip_space(data, pos)
    if data[pos] != 0x2C:  # ,
        return pos, False
    pos = skip_space(data, pos + 1)
    if data[pos] != opening:
        raise NotQuick
    return pos, True


def _game(f: Fields, source: str, diagnostics: list[Diagnostic],
          read: tuple[list[Hand], Log] | None = None) -> Game:
    """The game of the paipu ``f``, its hands read from its ``log``, or (the quick
    reading) already ``read``, with the game's events."""
    names = f.array("player")
    if len(names) not in (3, 4) or not all(isinstance(x, str) for x in names):
        f.fail("player", f"'player' should be 3 or 4 names, not {short(names)}")
    n = len(names)
    qijia = f.integer("qijia", 0, n - 1)
    order = [(qijia + s) % n for s in range(n)]  # player index of each seat
    tracks = _Tracks()
    if read is None:
        src = f.at("log")
        hands: list[Hand] = []
        log = Log()
        for k, entries in enumerate(f.array("log")):
            if not isinstance(entries, list) or not entries:
                raise LogFormatError(f"hand {k} should be a non-empty list",
                                     pointer_ref(src, k))
            hand = Hand(n, pointer_ref(src, k), diagnostics, log)
            hand.read(entries)
            hands.append(hand)
    else:
        hands, log = read
    for hand in hands:
        if hand.order:
            tracks.add(hand)
    events = log.events
    end = _end_game(f, n, order)
    if end is not None:
        events.append(end)
    title = f.text("title") if f.has("title") else None
    stem = _stem(source.rsplit("!", 1)[-1])
    ordered = tuple(events)  # built canonical (see Hand.canonical)
    return Game(
        format="majiang", source=source, events=ordered,
        players=tuple(_player(names[i]) for i in order), hints=_hints(title, n),
        log_id=stem if _LOG_ID.match(stem) else None, title=title,
        diagnostics=tuple(diagnostics), runs=tracks.runs(ordered, source))


class _Tracks:
    """Where each hand's shared draws and discards were read (:class:`SourceTracks`)."""

    def __init__(self) -> None:
        self.firsts: list[int] = []
        self.formats: list[tuple[str, ...]] = []
        self.elements: list[tuple[tuple[int, ...] | None, ...]] = []
        self.orders: list[bytes] = []

    def add(self, hand: Hand) -> None:
        base = hand.src.pointer
        self.firsts.append(hand.first)
        self.formats.append(track_formats(base or ""))
        self.elements.append(hand.elements)
        self.orders.append(hand.order)

    def runs(self, events: tuple[Event, ...], file: str) -> SourceTracks | None:
        if not self.orders:
            return None
        return SourceTracks(events, file, tuple(self.firsts), (None,) * len(self.firsts),
                            tuple(self.formats), tuple(self.elements), tuple(self.orders))


def _player(text: str) -> Player:
    """``名前 (七段 R2112)`` (Tenhou-converted) or ``名前\\n(七段 R2112)`` (kobalab)."""
    m = _PLAYER.match(text)
    if m is None:
        return Player(name=text)
    return Player(name=m.group(1), rank=m.group(2), rating=float(m.group(3)))


def _stem(path: str) -> str:
    """``PurePath(path).stem``, found in the string where the path's last part is
    plainly its text after the last slash."""
    name = path[path.rfind("/") + 1:]
    if name in ("", ".", ".."):
        return PurePath(path).stem
    i = name.rfind(".")
    return name[:i] if 0 < i < len(name) - 1 else name


def _hints(title: str | None, n: int) -> RuleHints:
    """Rule hints from a Tenhou room label in the title (``四鳳南喰赤速``)."""
    if title is None or not _ROOM.match(title):
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


