"""Tenhou mjlog XML (FORMATS.md §A) in, one :class:`~kansa.replay.game.Game` out.

A document in the form Tenhou writes (one line of empty tags, ASCII, no entities)
is split into its tags as text (:mod:`kansa.parsers.tenhou_xml.scan`); any other is
parsed by lxml with entity expansion, DTD loading and network access off, and any
DOCTYPE/ENTITY declaration is refused.  Both readings give the same game, and
errors are always worded from lxml's (a document the split reading cannot finish
is read again by lxml).  The root's children
are read once, in order; every event's position is its tag's, as a
:class:`SourceRef` with the tag's line and a ``pointer`` naming the tag's number
among the root's children (from 1) and the tag itself, ``tag 376 <N who="2"
m="47723"/>``: most mjlogs are a single line, and a referee finds the tag by its
text.  Draws and discards are shared event objects (one per seat, tile and kind,
built at import), so they carry no ``src``: the game's ``runs`` give their positions
(``Game.src_of``: the line and ``tag 377``).

A document that stops part-way (cut off mid-tag) is read up to its last complete
tag (:mod:`kansa.parsers.tenhou_xml.cut`), with a ``log.truncated`` warning saying where
the file stops and what was lost.

What the parser tolerates (each becomes a :class:`Diagnostic` or is ignored):
``BYE`` and reconnect ``UN`` anywhere, empty dice fields in ``INIT seed``,
``REACH step=2`` without ``ten``, a 16-value chip-lobby ``sc`` (only the first 8
are read), a log that stops mid-hand (no end events are invented), sanma (every
per-seat tuple then has 3 entries).  Anything else that cannot be read raises
:class:`LogFormatError` naming the file, line and tag.

Claims are copied, never computed: deltas, yaku, fu and points come from the log
(``Hora.han`` is the sum of the log's own han values).

Speed: each tag handler first reads the shape every real log has (canonical ids and
numbers, the usual counts) directly, and reads the tag again with the validating
helpers only when that fails; those give the same value, or the exact error.
"""

from __future__ import annotations

import dataclasses
import math
import os
import re
from collections.abc import Callable
from functools import lru_cache
from operator import attrgetter
from typing import Any, NoReturn, cast
from urllib.parse import unquote

from lxml import etree

from kansa.parsers.canonical import is_empty_ura, sorted_tiles
from kansa.parsers.errors import LogFormatError
from kansa.parsers.fast_events import constructor
from kansa.parsers.fast_events import source_ref as _source_ref
from kansa.parsers.source import DEFAULT_LIMITS, Limits
from kansa.parsers.tenhou_xml.cut import Cut, read_cut
from kansa.parsers.tenhou_xml.meld import Meld, MeldKind, decode_meld
from kansa.parsers.tenhou_xml.rules import decode_go
from kansa.parsers.tenhou_xml.scan import Tag, scanned_tag, split_tags
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
from kansa.replay.game import Diagnostic, Game, Player, RuleHints, SourceRuns
from kansa.replay.tiles import WINDS, Seat, Tile
from kansa.replay.yaku import Limit, Yaku

__all__ = ["parse", "parse_game", "rank_label", "read_scanned", "read_tree", "room_label",
           "sniff"]

FORMAT = "tenhou_xml"

_Element = etree._Element

# -- lookup tables built once -------------------------------------------------

_TILES_PLAIN: tuple[Tile, ...] = tuple(Tile.from_tenhou_id(i, False) for i in range(136))
_TILES_AKA: tuple[Tile, ...] = tuple(Tile.from_tenhou_id(i, True) for i in range(136))
_TILE_TEXT_PLAIN: dict[str, Tile] = {str(i): t for i, t in enumerate(_TILES_PLAIN)}
_TILE_TEXT_AKA: dict[str, Tile] = {str(i): t for i, t in enumerate(_TILES_AKA)}
"""Canonical id text -> tile; anything else takes the validating slow path."""
_HAI = ("hai0", "hai1", "hai2", "hai3")
_ORDER = attrgetter("order")
_SEAT_TEXT: dict[str | None, Seat] = {str(i): Seat(i) for i in range(4)}
_YAKU_BY_ID: tuple[Yaku, ...] = tuple(Yaku.from_tenhou_id(i) for i in range(55))

_PLAY_TAGS: dict[str, tuple[bool, Seat, int]] = {
    f"{letter}{tile_id}": (is_discard, Seat(seat), tile_id)
    for is_discard, letters in ((False, "TUVW"), (True, "DEFG"))
    for seat, letter in enumerate(letters)
    for tile_id in range(136)
}
"""``T56`` -> (is a discard, seat, tile id) for every draw and discard tag."""


_Play = tuple[Seat, int, int, tuple[Event, Event]]
"""A draw or discard tag read as (seat, ``match``, ``leaves``, events): the event is
``events[1]`` when the seat's last draw (``_Reader.last_draw``) equals ``match``,
``events[0]`` otherwise, and the seat's last draw becomes ``leaves``.  A draw never
matches (``match`` -2) and leaves its tile id; a discard matches the id of the tile
it discards (then it is tsumogiri) and leaves -1."""
_NEVER = -2


def _plays(table: tuple[Tile, ...]) -> dict[str, _Play]:
    """``_PLAY_TAGS`` with the events themselves, built once and shared by every game
    (events are immutable; a shared event has no ``src``, see ``SourceRuns``)."""
    draws: dict[tuple[Seat, Tile], tuple[Event, Event]] = {}
    discards: dict[tuple[Seat, Tile], tuple[Event, Event]] = {}
    plays: dict[str, _Play] = {}
    for tag, (is_discard, seat, tile_id) in _PLAY_TAGS.items():
        tile = table[tile_id]
        if is_discard:
            pair = discards.setdefault((seat, tile), (
                Dahai(actor=seat, tile=tile, tsumogiri=False),
                Dahai(actor=seat, tile=tile, tsumogiri=True)))
            plays[tag] = (seat, tile_id, -1, pair)
        else:
            draw = Tsumo(actor=seat, tile=tile)
            plays[tag] = (seat, _NEVER, tile_id, draws.setdefault((seat, tile), (draw, draw)))
    return plays


_PLAYS_AKA = _plays(_TILES_AKA)
_PLAYS_PLAIN = _plays(_TILES_PLAIN)
"""``_PLAY_TAGS`` with their events, one table per red-five rule (chosen at INIT)."""
_POINTER = "tag {}"
"""An event's position: the number of its tag among the root's children (from 1)."""
_PLAY_LIKE = re.compile(r"[TUVWDEFG]\d+")
"""A tag that looks like a draw or discard (refused when not in ``_PLAY_TAGS``)."""

_DRAW_REASONS: dict[str | None, DrawReason] = {
    None: DrawReason.EXHAUSTIVE,
    "yao9": DrawReason.KYUUSHU_KYUUHAI,
    "kaze4": DrawReason.SUUFON_RENDA,
    "reach4": DrawReason.SUUCHA_RIICHI,
    "ron3": DrawReason.SANCHAHOU,
    "kan4": DrawReason.SUUKAIKAN,
    "nm": DrawReason.NAGASHI_MANGAN,
}

_DAN = ("新人", "9級", "8級", "7級", "6級", "5級", "4級", "3級", "2級", "1級",
        "初段", "二段", "三段", "四段", "五段", "六段", "七段", "八段", "九段", "十段",
        "天鳳位")
_LOG_ID = re.compile(r"\d{10}gm-[0-9a-f]{4}-\d{4,5}-[0-9a-f]{8}")



def _decode_canonical(m: int, who: int, aka: bool) -> Meld:
    """:func:`decode_meld` with ``consumed`` in canonical (sorted) order."""
    meld = decode_meld(m, who, aka)
    consumed = sorted_tiles(meld.consumed)
    return meld if consumed is meld.consumed else dataclasses.replace(meld, consumed=consumed)


_decode_meld: Callable[[int, int, bool], Meld] = lru_cache(maxsize=4096)(_decode_canonical)
"""Meld codes repeat a lot across a corpus; the decoded value is immutable."""

# Stand-ins for the event classes (same arguments, same objects), built in 40-60% of
# the time of their frozen __init__: see kansa.parsers.fast_events.constructor.
_StartKyoku = constructor(StartKyoku)
_Chi = constructor(Chi)
_Pon = constructor(Pon)
_Daiminkan = constructor(Daiminkan)
_Kakan = constructor(Kakan)
_Ankan = constructor(Ankan)
_Nukidora = constructor(Nukidora)
_Reach = constructor(Reach)
_ReachAccepted = constructor(ReachAccepted)
_Dora = constructor(Dora)
_Hora = constructor(Hora)
_Ryukyoku = constructor(Ryukyoku)
_EndKyoku = constructor(EndKyoku)
_EndGame = constructor(EndGame)

_BIG_LINE = 65535
"""From this line on libxml2 keeps line numbers only approximately: an element there may
report a neighbour's line, so equal first and last lines prove nothing."""


def _shared_line(root: _Element, children: list[_Element]) -> int | None:
    """The line all the root's ``children`` start on, or ``None`` when they start on
    several (then each element is asked).  Every real mjlog is a single line; lines only
    grow in document order, so the first and the last child settle it."""
    if not children:
        return None
    # lxml-stubs leave sourceline untyped; lxml gives int | None
    first, last = cast("tuple[int | None, int | None]",
                       (children[0].sourceline, children[-1].sourceline))
    return first if first is not None and first == last and first < _BIG_LINE else None


# -- public API -----------------------------------------------------------------

_PROLOG_ITEM = re.compile(rb"[ \t\r\n]*(?:<\?.*?\?>|<!--.*?-->)", re.DOTALL)
"""Whitespace and one XML declaration, processing instruction or comment."""
_ROOT_START = re.compile(rb"[ \t\r\n]*<mjloggm[ \t\r\n/>]")


def sniff(head: bytes) -> bool:
    """Whether the first bytes of a file look like an mjlog: after a BOM, whitespace,
    an XML declaration, processing instructions and comments, the ``<mjloggm`` root.
    Each item skipped must end within ``head`` (the sniffing window).  A DOCTYPE
    before an ``<mjloggm`` is taken too, for :func:`parse` to refuse by name."""
    pos = 3 if head.startswith(b"\xef\xbb\xbf") else 0
    while (item := _PROLOG_ITEM.match(head, pos)) is not None:
        pos = item.end()
    if head.startswith(b"<!DOCTYPE", pos):  # an mjlog with one: the parser refuses it
        return b"<mjloggm" in head
    return _ROOT_START.match(head, pos) is not None


def parse(data: bytes, source: str, limits: Limits = DEFAULT_LIMITS) -> list[Game]:
    """The game in an mjlog, as the one-element list the parser registry expects."""
    return [parse_game(data, source)]


def parse_game(data: bytes, source: str) -> Game:
    """Read one mjlog (already gunzipped, see :func:`kansa.parsers.source.read_log_bytes`).

    :param source: the file name, used in every :class:`SourceRef` and for the log id.
    :raises LogFormatError: for anything that is not a readable mjlog; never
        another exception, whatever the bytes.
    """
    game = read_scanned(data, source)
    return game if game is not None else read_tree(data, source)


def read_scanned(data: bytes, source: str) -> Game | None:
    """The game, read without an XML parser when the document is in the form Tenhou
    writes (:mod:`kansa.parsers.tenhou_xml.scan`); ``None`` for any other document, and for
    one that does not read as a game (:func:`read_tree` then words the error)."""
    scanned = split_tags(data)
    if scanned is None:
        return None
    line, tags = scanned
    reader = _Reader(source)
    try:
        if not reader.run(tags, None, line):
            return None
    except LogFormatError:
        return None
    return reader.game()


def read_tree(data: bytes, source: str) -> Game:
    """The game, read from the tree lxml builds (any well-formed mjlog, or one cut off:
    see :func:`kansa.parsers.tenhou_xml.cut.read_cut`)."""
    try:
        root = _parse_xml(data, source)
        children = list(root)  # all elements: comments and PIs are dropped, entities refused
        cut = None
    except LogFormatError as error:
        found = read_cut(data, source, error, _xml_parser)
        if found is None:
            raise
        root, children, cut = found
    reader = _Reader(source)
    if root.get("ver") not in (None, "2.3"):
        reader.note(f"mjloggm version {root.get('ver')!r}; read as 2.3",
                    _source_ref(source, root.sourceline, "the root <mjloggm>"))
    if cut is not None:
        if not any(el.tag == "INIT" for el in children):
            raise LogFormatError(
                f"the file is cut off at byte {cut.offset}, before the first hand's <INIT> tag "
                "is complete: nothing to audit", SourceRef(source, cut.line, cut.column))
        reader.truncated(cut, children)
    reader.run([el.tag for el in children], children, _shared_line(root, children))
    return reader.game()


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


# -- XML layer ------------------------------------------------------------------

_WIDE_BOMS = {b"\xff\xfe\x00\x00": "UTF-32", b"\x00\x00\xfe\xff": "UTF-32",
              b"\xff\xfe": "UTF-16", b"\xfe\xff": "UTF-16"}


def _xml_parser(**events: Any) -> etree.XMLParser:
    """The one parser configuration: no entities, DTDs, network or huge trees
    (``events`` makes it an :class:`etree.XMLPullParser` with the same settings)."""
    options: dict[str, Any] = dict(  # noqa: C408 (keywords, as the parsers take them)
        resolve_entities=False, no_network=True, load_dtd=False, huge_tree=False,
        remove_comments=True, remove_pis=True, collect_ids=False, encoding="utf-8")
    if events:
        return etree.XMLPullParser(**events, **options)
    return etree.XMLParser(**options)


def _parse_xml(data: bytes, source: str) -> _Element:
    # lxml is told the text is UTF-8 whatever it declares, so the byte search below
    # sees every declaration (in UTF-16 a DOCTYPE would slip past it)
    for bom, name in _WIDE_BOMS.items():
        if data.startswith(bom):
            raise LogFormatError(f"the file is {name} text; mjlogs are read as UTF-8 only",
                                 SourceRef(source, 1))
    for marker in (b"<!DOCTYPE", b"<!ENTITY"):
        at = data.find(marker)
        if at >= 0:
            raise LogFormatError(
                f"{marker.decode()} declarations are refused (entity expansion, DTDs)",
                SourceRef(source, data.count(b"\n", 0, at) + 1))
    try:
        root = etree.fromstring(data, _xml_parser())
    except etree.XMLSyntaxError as exc:
        line, column = exc.position
        message = (exc.msg or "syntax error").rsplit(", line ", 1)[0]
        raise LogFormatError(f"malformed XML: {message}",
                             SourceRef(source, line or None, column or None)) from None
    except (etree.LxmlError, ValueError) as exc:
        raise LogFormatError(f"malformed XML: {exc}", SourceRef(source)) from None
    if root is None:
        raise LogFormatError("malformed XML: no root element", SourceRef(source))
    docinfo: Any = root.getroottree().docinfo
    if docinfo.doctype or docinfo.internalDTD is not None:
        raise LogFormatError("DOCTYPE declarations are refused", SourceRef(source, 1))
    if root.tag != "mjloggm":
        raise LogFormatError(f"root element is <{root.tag}>, expected <mjloggm>",
                             _source_ref(source, root.sourceline, "the root element"))
    return root


_TAG_SHOWN = 80
"""Characters of a tag quoted in a position or a message."""


def _tag_text(el: Tag) -> str:
    """The tag as Tenhou writes it (``<N who="2" m="47723"/>``), shortened."""
    attrs = "".join(f' {name}="{value}"' for name, value in el.items())
    text = f"<{el.tag}{attrs}/>"
    return text if len(text) <= _TAG_SHOWN else text[:_TAG_SHOWN - 5] + '..."/>'


# -- the reader -----------------------------------------------------------------

class _Reader:
    """State while walking the root's children once."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.events: list[Event] = []
        self.diagnostics: list[Diagnostic] = []
        self.hints: RuleHints | None = None
        self.title: str | None = None
        self.n = 4
        self.aka = True
        self.un: list[Player] | None = None
        """The four seats of the first UN (sanma drops seat 3 at the end)."""
        self.plays: dict[str, _Play] = {}
        """Draw and discard tags for the game's red-five rule (``_PLAYS_AKA`` or
        ``_PLAYS_PLAIN``), set by the first INIT; empty before."""
        self.tile_text: dict[str, Tile] = _TILE_TEXT_AKA
        self.last_draw = [-1, -1, -1, -1]
        """Each seat's previous draw id while it may still be discarded as tsumogiri."""
        self.in_hand = False
        self.result_src: SourceRef | None = None
        """The last AGARI/RYUUKYOKU of the current hand: EndKyoku waits for INIT or EOF."""
        self.game_end: EndGame | None = None
        self.game_over = False
        self.starts: list[int] = []
        self.elements: list[int] = []
        self.lines: list[int | None] = []
        """The runs of shared draw and discard events (see ``SourceRuns``)."""
        self.cut: tuple[str, SourceRef] | None = None
        """Where a cut-off document stops (see :meth:`truncated`)."""
        self.wall_seed: str | None = None
        self.dice: list[tuple[int, int] | None] = []
        """Per INIT, its dice (``seed`` fields 4 and 5), ``None`` where they are not 0-5."""

    # -- main loop --

    def run(self, tags: list[str], children: list[_Element] | None, line: int | None) -> bool:
        """Read the root's children: ``tags[k - 1]`` is child k's tag name and
        ``children[k - 1]`` the child, or (``children`` ``None``) ``tags`` are the
        children's texts from :func:`split_tags`; ``line`` is the line they all start
        on, if they do.  False when :func:`scanned_tag` refuses a text."""
        events = self.events
        append = events.append
        last = self.last_draw
        handlers = _HANDLERS
        find = self.plays.get
        starts, elements, lines = self.starts, self.elements, self.lines
        k = 0  # the element number of the last tag read that is not a draw or discard
        read = 0  # len(events) after it: each draw or discard since adds one event
        for tag in tags:
            play = find(tag)
            if play is not None:
                if line is None:  # lines differ: each draw or discard is a run of its own
                    element = k + len(events) - read + 1
                    starts.append(len(events))
                    elements.append(element)
                    child = cast("list[_Element]", children)[element - 1]
                    lines.append(cast("int | None", child.sourceline))
                seat, match, leaves, pair = play
                append(pair[last[seat] == match])
                last[seat] = leaves
                continue
            k += len(events) - read + 1
            el: Tag | None = scanned_tag(tag, line) if children is None else children[k - 1]
            if el is None:
                return False
            handler = handlers.get(el.tag)
            if handler is None:
                self.unknown_tag(el, k)
            handler(self, el, k)
            read = len(events)
            if line is not None:  # the draws and discards from the next element on
                starts.append(read)
                elements.append(k + 1)
                lines.append(line)
            find = self.plays.get
        self.finish()
        return True

    def truncated(self, cut: Cut, children: list[_Element]) -> None:
        """Remember where a cut-off document stops (noted by :meth:`finish`)."""
        last = f"tag {len(children)} {_tag_text(children[-1])}" if children else "the root"
        self.cut = (f"the file is cut off: it stops at byte {cut.offset} (line {cut.line}, "
                    f"column {cut.column}) after {last}; the unfinished text after it "
                    f"({cut.lost}) is lost", SourceRef(self.source, cut.line, cut.column))

    def unknown_tag(self, el: Tag, k: int) -> NoReturn:
        tag = el.tag
        if tag in _PLAY_TAGS:  # a well-formed draw or discard: self.plays is still empty
            self.fail(f"<{tag}> before the first <INIT>", el, k)
        if isinstance(tag, str) and _PLAY_LIKE.fullmatch(tag):
            self.fail(f"<{tag}> does not name a tile id 0-135", el, k)
        self.fail(f"unknown tag <{tag}>", el, k)

    def finish(self) -> None:
        if self.hints is None:
            raise LogFormatError("no <GO> tag: not a Tenhou game log", SourceRef(self.source))
        if self.in_hand and self.result_src is None:
            self.note("the log ends in the middle of a hand (no AGARI or RYUUKYOKU)",
                      SourceRef(self.source))
        if self.cut is not None and self.game_end is None:
            self.result_src = None  # a cut file may have lost a double ron's second AGARI
        self.flush_end()
        if not self.game_over:
            self.note("the log has no final result (owari); the game is incomplete",
                      SourceRef(self.source))
        if self.cut is not None:
            message, src = self.cut
            lost = "the closing tags only: the final result was read" if self.game_over \
                else "the rest of the game too"
            self.diagnostics.append(Diagnostic(f"{message}, and {lost}", src, "warning",
                                               "log.truncated"))

    def game(self) -> Game:
        assert self.hints is not None
        log_id = _LOG_ID.search(os.path.basename(self.source))
        events = tuple(self.events)  # built canonical, see _Reader.tiles
        runs = SourceRuns(events, self.source, _POINTER, tuple(self.starts),
                          tuple(self.elements), tuple(self.lines))
        return Game(format=FORMAT, source=self.source, events=events,
                    players=self.players(), hints=self.hints,
                    log_id=log_id.group(0) if log_id else None, title=self.title,
                    diagnostics=tuple(self.diagnostics), runs=runs,
                    wall_seed=self.wall_seed, dice=tuple(self.dice))

    # -- helpers --

    def src(self, el: Tag, k: int, attr: str | None = None) -> SourceRef:
        pointer = f"tag {k} {_tag_text(el)}"  # _POINTER, formatted, and the tag
        return _source_ref(self.source, el.sourceline,
                           f"{pointer} attribute {attr}" if attr else pointer)

    def fail(self, message: str, el: Tag, k: int, attr: str | None = None) -> NoReturn:
        raise LogFormatError(message, self.src(el, k, attr))

    def note(self, message: str, src: SourceRef | None) -> None:
        self.diagnostics.append(Diagnostic(message, src))

    def req(self, el: Tag, k: int, name: str) -> str:
        value = el.get(name)
        if value is None:
            self.fail(f"<{el.tag}> lacks the required attribute {name!r}", el, k)
        return value

    def ints(self, el: Tag, k: int, name: str, size: int | None = None,
             raw: str | None = None) -> list[int]:
        """A comma list of integers (``""`` is empty); ``size`` = minimum length."""
        text = self.req(el, k, name) if raw is None else raw
        try:
            values = [int(v) for v in text.split(",")] if text else []
        except ValueError:
            self.fail(f"<{el.tag} {name}={text!r}> is not a comma list of integers",
                      el, k, name)
        if size is not None and len(values) < size:
            self.fail(f"<{el.tag} {name}={text!r}> needs {size} values", el, k, name)
        return values

    def int1(self, el: Tag, k: int, name: str) -> int:
        return self.ints(el, k, name, 1)[0]

    def seat(self, el: Tag, k: int, name: str) -> Seat:
        seat = _SEAT_TEXT.get(el.get(name))
        if seat is None:
            value = self.int1(el, k, name)
            if not 0 <= value <= 3:
                self.fail(f"<{el.tag} {name}={value}> is not a seat 0-3", el, k, name)
            seat = Seat(value)
        return seat

    def tiles(self, el: Tag, k: int, name: str, raw: str | None = None,
              sort: bool = False) -> tuple[Tile, ...]:
        """The tile ids of attribute ``name`` (or ``raw``); ``sort`` puts them in the
        canonical order of :mod:`kansa.parsers.canonical` (hands, whose order says nothing):
        the parser builds its events canonical instead of passing them through
        :func:`~kansa.parsers.canonical.canonical` again."""
        text = self.req(el, k, name) if raw is None else raw
        if not text:
            return ()
        try:
            tiles = tuple(map(self.tile_text.__getitem__, text.split(",")))
        except KeyError:  # not canonical id text: validate id by id for a precise message
            table = _TILES_AKA if self.aka else _TILES_PLAIN
            ids = self.ints(el, k, name, raw=text)
            for tile_id in ids:
                if not 0 <= tile_id < 136:
                    self.fail(f"<{el.tag} {name}>: tile id {tile_id} is outside 0-135",
                              el, k, name)
            tiles = tuple([table[i] for i in ids])
        return tuple(sorted(tiles, key=_ORDER)) if sort else tiles

    def tile(self, el: Tag, k: int, name: str) -> Tile:
        tiles = self.tiles(el, k, name)
        if len(tiles) != 1:
            self.fail(f"<{el.tag} {name}> must be one tile id", el, k, name)
        return tiles[0]

    def in_play(self, el: Tag, k: int) -> None:
        if not self.plays:
            self.fail(f"<{el.tag}> before the first <INIT>", el, k)

    def deltas(self, el: Tag, k: int) -> tuple[int, ...]:
        # s0,d0,...,s3,d3 in hundreds; chip lobbies append 8 chip values
        sc = self.ints(el, k, "sc", 8)
        return tuple(sc[2 * i + 1] * 100 for i in range(self.n))

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
        self.game_end = _EndGame(scores=scores, points=points, src=src)

    def flush_end(self) -> None:
        if self.result_src is not None:
            self.events.append(_EndKyoku(src=self.result_src))
            self.result_src = None
        if self.game_end is not None:
            self.events.append(self.game_end)
            self.game_end = None
            self.game_over = True
        self.in_hand = False

    def players(self) -> tuple[Player, ...]:
        return tuple(self.un[:self.n]) if self.un is not None else ()

    # -- tag handlers (dispatched through _HANDLERS) --

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

    def on_init(self, el: Tag, k: int) -> None:
        if self.hints is None:
            self.fail("<INIT> before <GO>: the red-five rule is unknown", el, k)
        src = self.src(el, k)
        if self.in_hand and self.result_src is None:
            self.note("a hand ended without AGARI or RYUUKYOKU", src)
        self.flush_end()
        if self.game_over:
            self.note("a hand starts after the game's final result", src)
        self.plays = _PLAYS_AKA if self.aka else _PLAYS_PLAIN
        self.tile_text = _TILE_TEXT_AKA if self.aka else _TILE_TEXT_PLAIN
        try:
            start = self.quick_start(el, src)
        except _UNUSUAL:
            start = self.start(el, k, src)
        self.events.append(start)
        self.dice.append(_dice(el.get("seed", "")))
        self.last_draw[:] = (-1, -1, -1, -1)
        self.in_hand = True

    def quick_start(self, el: Tag, src: SourceRef) -> StartKyoku:
        """:meth:`start` for the common shape of INIT; raises one of ``_UNUSUAL`` otherwise."""
        get = el.get
        n = self.n
        tile_text = self.tile_text
        rnd_text, honba_text, kyotaku_text, _, _, dora = get("seed", "").split(",")
        rnd, honba, kyotaku = int(rnd_text), int(honba_text), int(kyotaku_text)
        ten = _ints(get("ten", ""))
        if not 0 <= rnd < 16 or honba < 0 or kyotaku < 0 or len(ten) < n:
            raise ValueError("left to the careful reading")
        return _StartKyoku(
            bakaze=WINDS[rnd // 4], kyoku=rnd % 4 + 1, honba=honba, kyotaku=kyotaku,
            oya=_SEAT_TEXT[get("oya")], scores=tuple([t * 100 for t in ten[:n]]),
            dora_marker=tile_text[dora],
            tehais=tuple([_hand(tile_text, get(name, "")) for name in _HAI[:n]]), src=src)

    def start(self, el: Tag, k: int, src: SourceRef) -> StartKyoku:
        seed = self.req(el, k, "seed").split(",")
        if len(seed) != 6:
            self.fail(f"<INIT seed> has {len(seed)} fields, expected 6", el, k, "seed")
        # round, honba, sticks, dice-1, dice-1, dora; dice are unused (and empty in bot logs)
        try:
            rnd, honba, kyotaku = int(seed[0]), int(seed[1]), int(seed[2])
        except ValueError:
            self.fail(f"<INIT seed={','.join(seed)!r}> is not numeric", el, k, "seed")
        if not 0 <= rnd < 16 or honba < 0 or kyotaku < 0:
            self.fail(f"<INIT seed={','.join(seed)!r}> is out of range", el, k, "seed")
        dora = self.tiles(el, k, "seed", raw=seed[5])
        if len(dora) != 1:
            self.fail("<INIT seed> lacks the dora indicator", el, k, "seed")
        ten = self.ints(el, k, "ten", self.n)
        return _StartKyoku(
            bakaze=WINDS[rnd // 4], kyoku=rnd % 4 + 1, honba=honba, kyotaku=kyotaku,
            oya=self.seat(el, k, "oya"),
            scores=tuple([t * 100 for t in ten[:self.n]]), dora_marker=dora[0],
            tehais=tuple([self.tiles(el, k, name, sort=True) for name in _HAI[:self.n]]),
            src=src)

    def on_n(self, el: Tag, k: int) -> None:
        self.in_play(el, k)
        try:
            who = _SEAT_TEXT[el.get("who")]
            meld = _decode_meld(int(el.get("m", "")), who, self.aka)
        except _UNUSUAL:
            who, meld = self.meld(el, k)
        src = self.src(el, k)
        self.last_draw[who] = -1  # a discard after a call is never tsumogiri
        event: Event
        kind = meld.kind
        called = meld.called
        if kind is MeldKind.CHI and called is not None:
            event = _Chi(actor=who, target=meld.target, tile=called, consumed=meld.consumed,
                         src=src)
        elif kind is MeldKind.PON and called is not None:
            event = _Pon(actor=who, target=meld.target, tile=called, consumed=meld.consumed,
                         src=src)
        elif kind is MeldKind.DAIMINKAN and called is not None:
            event = _Daiminkan(actor=who, target=meld.target, tile=called,
                               consumed=meld.consumed, src=src)
        elif kind is MeldKind.KAKAN and meld.added is not None:
            event = _Kakan(actor=who, tile=meld.added, consumed=meld.consumed, src=src)
        elif kind is MeldKind.ANKAN:
            event = _Ankan(actor=who, consumed=meld.consumed, src=src)
        elif kind is MeldKind.NUKIDORA:
            event = _Nukidora(actor=who, tile=meld.tiles[0], src=src)
        else:  # decode_meld always fills called/added for these kinds
            raise AssertionError(f"decoded meld lacks its called tile: {meld}")
        self.events.append(event)

    def meld(self, el: Tag, k: int) -> tuple[Seat, Meld]:
        who = self.seat(el, k, "who")
        code = self.int1(el, k, "m")
        try:
            return who, _decode_meld(code, who, self.aka)
        except ValueError as exc:
            self.fail(f"<N m={code}>: {exc}", el, k, "m")

    def on_reach(self, el: Tag, k: int) -> None:
        self.in_play(el, k)
        try:
            event = self.quick_reach(el, k)
        except _UNUSUAL:
            event = self.reach(el, k)
        self.events.append(event)

    def quick_reach(self, el: Tag, k: int) -> Reach | ReachAccepted:
        """:meth:`reach` for the common shape of REACH; raises one of ``_UNUSUAL`` otherwise."""
        who = _SEAT_TEXT[el.get("who")]
        step = el.get("step")
        if step == "1":
            return _Reach(actor=who, src=self.src(el, k))
        if step != "2":
            raise ValueError("left to the careful reading")
        ten = el.get("ten")
        scores = None
        if ten:
            values = _ints(ten)
            if len(values) < self.n:
                raise ValueError("left to the careful reading")
            scores = tuple([t * 100 for t in values[:self.n]])
        return _ReachAccepted(actor=who, scores=scores, src=self.src(el, k))

    def reach(self, el: Tag, k: int) -> Reach | ReachAccepted:
        who = self.seat(el, k, "who")
        step = self.int1(el, k, "step")
        if step == 1:
            return _Reach(actor=who, src=self.src(el, k))
        if step != 2:
            self.fail(f"<REACH step={step}> is neither 1 nor 2", el, k, "step")
        ten = self.ints(el, k, "ten", self.n) if el.get("ten") else None
        scores = tuple(t * 100 for t in ten[:self.n]) if ten else None
        return _ReachAccepted(actor=who, scores=scores, src=self.src(el, k))

    def on_dora(self, el: Tag, k: int) -> None:
        self.in_play(el, k)
        try:
            tile = self.tile_text[el.get("hai", "")]
        except KeyError:
            tile = self.tile(el, k, "hai")
        self.events.append(_Dora(dora_marker=tile, src=self.src(el, k)))

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
        return _Hora(
            actor=_SEAT_TEXT[get("who")], target=_SEAT_TEXT[get("fromWho")],
            tile=tile_text[get("machi", "")], deltas=_quick_deltas(get("sc", ""), self.n),
            hand=_hand(tile_text, get("hai", "")), yaku=yaku,
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
        return _Hora(
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
        self.events.append(_Ryukyoku(reason=reason, deltas=deltas, tenpai=tenpai,
                                     hands=hands, actor=actor, src=src))
        self.result(el, k, src)

    def quick_shown(self, el: Tag) -> tuple[tuple[tuple[Tile, ...] | None, ...],
                                                 tuple[int, ...]]:
        """RYUUKYOKU's shown hands and ``sc`` deltas in their common shape; raises one of
        ``_UNUSUAL`` otherwise."""
        get = el.get
        tile_text = self.tile_text
        hands = tuple([_hand(tile_text, hand) if (hand := get(name)) is not None else None
                       for name in _HAI[:self.n]])
        return hands, _quick_deltas(get("sc", ""), self.n)


# -- quick readings ---------------------------------------------------------------
# A handler first reads its tag with these, for the shape every real log has, and
# reads it again with the careful helpers of _Reader when they raise: those give the
# same value for anything the quick reading takes, and the exact message otherwise.

_UNUSUAL = (AttributeError, IndexError, KeyError, TypeError, ValueError)
"""What a quick reading raises on a missing attribute, a number or id in a form other
than Tenhou's own, a wrong count or an out-of-range value."""
_LIMIT_TEXT: dict[str, Limit] = {str(limit.value): limit for limit in Limit}
_YAKU_TEXT: dict[str, Yaku] = {str(i): yaku for i, yaku in enumerate(_YAKU_BY_ID)}


def _dice(seed: str) -> tuple[int, int] | None:
    """The dice of an ``INIT seed`` (fields 4 and 5, 0-5 each); ``None`` if not given."""
    fields = seed.split(",")
    if len(fields) != 6 or not fields[3].isdigit() or not fields[4].isdigit():
        return None
    dice = (int(fields[3]), int(fields[4]))
    return dice if max(dice) <= 5 else None


def _ints(text: str) -> list[int]:
    return list(map(int, text.split(",")))


def _tiles(tile_text: dict[str, Tile], text: str) -> tuple[Tile, ...]:
    return tuple(map(tile_text.__getitem__, text.split(",")))


def _quick_deltas(sc_text: str, n: int) -> tuple[int, ...]:
    """:meth:`_Reader.deltas` of an ``sc`` attribute: s0,d0,...,s3,d3 in hundreds."""
    sc = _ints(sc_text)
    if len(sc) < 8:
        raise ValueError("left to the careful reading")
    return tuple([d * 100 for d in sc[1:2 * n:2]])


def _hand(tile_text: dict[str, Tile], text: str) -> tuple[Tile, ...]:
    """The tiles in canonical order (see :meth:`_Reader.tiles`)."""
    return tuple(sorted(map(tile_text.__getitem__, text.split(",")), key=_ORDER))


def _quick_yaku(el: Tag) -> tuple[tuple[Yaku, int], ...]:
    """:meth:`_Reader.yaku` when AGARI has a ``yaku`` or a non-empty ``yakuman``."""
    raw = el.get("yaku")
    if raw is None:  # yakuman ids, 13 han each
        ids = el.get("yakuman", "").split(",")
        hans = [13] * len(ids)
    else:
        parts = raw.split(",")
        ids, hans = parts[0::2], list(map(int, parts[1::2]))
        if len(ids) != len(hans) or min(hans) < 0:
            raise ValueError("left to the careful reading")
    pairs = zip(map(_YAKU_TEXT.__getitem__, ids), hans, strict=True)
    return tuple([item for item in pairs if item != _EMPTY_URA])  # canonical, is_empty_ura


_EMPTY_URA = (Yaku.URA_DORA, 0)
_PERCENT_ENCODED = re.compile(r"(?:%[0-9A-Fa-f]{2})+")


def _unquote(text: str) -> str:
    """``unquote(text, errors="replace")``, with the form Tenhou writes names and titles
    in (every byte percent-encoded) decoded directly: ``unquote`` takes ~9 us a name."""
    if _PERCENT_ENCODED.fullmatch(text):
        return bytes.fromhex(text.replace("%", "")).decode("utf-8", "replace")
    return unquote(text, errors="replace")


_HANDLERS: dict[str, Callable[[_Reader, Tag, int], None]] = {
    "SHUFFLE": _Reader.on_shuffle,
    "TAIKYOKU": _Reader.on_ignored,
    "GO": _Reader.on_go,
    "UN": _Reader.on_un,
    "BYE": _Reader.on_bye,
    "INIT": _Reader.on_init,
    "N": _Reader.on_n,
    "REACH": _Reader.on_reach,
    "DORA": _Reader.on_dora,
    "AGARI": _Reader.on_agari,
    "RYUUKYOKU": _Reader.on_ryuukyoku,
}
