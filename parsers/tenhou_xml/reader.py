"""The walk over an mjlog's tags: the reader's state, its main loop, and the helpers
that read attributes with positions (every error names the line and the tag)."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar, Final, NoReturn, cast

from lxml import etree

from kansa.parsers.errors import LogFormatError
from kansa.parsers.tenhou_xml.cut import Cut
from kansa.parsers.tenhou_xml.scan import ScannedTag, scanned_tag, scanned_tag_by_character
from kansa.parsers.tenhou_xml.tables import (
    _COMPILED,
    _LETTER_BY_CODE,
    _LOG_ID,
    _ORDER,
    _ORDER_OF_ID_AKA,
    _ORDER_TEXT_AKA,
    _PLAY_LIKE,
    _PLAY_TAGS,
    _POINTER,
    _SEAT_TEXT,
    _TILE_TEXT_AKA,
    _TILES_AKA,
    _TILES_PLAIN,
    FORMAT,
    _hand,
    _hand_by_character,
    _Play,
)
from kansa.parsers.tenhou_xml.tag import Tag
from kansa.replay.events import EndGame, EndKyoku, Event, SourceRef
from kansa.replay.game import Diagnostic, Game, Player, RuleHints, SourceRuns
from kansa.replay.tiles import Seat, Tile

if TYPE_CHECKING:
    from mypy_extensions import i64

_Element = etree._Element

_TAG_SHOWN: Final = 80
"""Characters of a tag quoted in a position or a message."""


def _tag_text(el: Tag) -> str:
    """The tag as Tenhou writes it (``<N who="2" m="47723"/>``), shortened."""
    if isinstance(el, ScannedTag):  # its text less the space Tenhou may put before "/>"
        text = f"<{el.raw.removesuffix(' ')}/>"
    else:
        attrs = "".join(f' {name}="{value}"' for name, value in el.items())
        text = f"<{el.tag}{attrs}/>"
    return text if len(text) <= _TAG_SHOWN else text[:_TAG_SHOWN - 5] + '..."/>'


class TagReader:
    """State while walking the root's children once, and the helpers every tag handler
    uses; the handlers themselves are in :mod:`~kansa.parsers.tenhou_xml.header`,
    :mod:`~kansa.parsers.tenhou_xml.hand` and :mod:`~kansa.parsers.tenhou_xml.result`."""

    handlers: ClassVar[dict[str, Callable[[Any, Tag, int], None]]] = {}
    """Tag name -> handler, set by the class that has every handler."""

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
        self.play_codes: list[_Play] = []
        """The same by code (``_PLAY_CODES_AKA`` or ``_PLAY_CODES_PLAIN``)."""
        self.tile_text: dict[str, Tile] = _TILE_TEXT_AKA
        self.order_text: dict[str, int] = _ORDER_TEXT_AKA
        self.order_of_id: list[int] = _ORDER_OF_ID_AKA
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
        last = self.last_draw
        handlers = self.handlers
        plays = self.plays
        starts, elements, lines = self.starts, self.elements, self.lines
        k = 0  # the element number of the last tag read that is not a draw or discard
        read = 0  # len(events) after it: each draw or discard since adds one event
        for tag in tags:
            play = plays.get(tag)
            if play is not None:
                if line is None:  # lines differ: each draw or discard is a run of its own
                    element = k + len(events) - read + 1
                    starts.append(len(events))
                    elements.append(element)
                    child = cast("list[_Element]", children)[element - 1]
                    lines.append(cast("int | None", child.sourceline))
                seat, match, leaves, event, matched = play
                events.append(matched if last[seat] == match else event)
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
            plays = self.plays
        self.finish()
        return True

    def run_text(self, body: str, line: int) -> bool:
        """:meth:`run` over the children's texts unsplit (``body``, from
        :func:`scan_body`, all on ``line``), each draw and discard read from its
        characters: the reading the compiled build runs, where a string made and hashed
        per tag costs more than this loop (the interpreter runs :meth:`run` over the
        split text).  A text is a draw or discard exactly when it is a key of
        :attr:`plays`: a letter of ``TUVWDEFG`` and a tile id 0-135 written as Tenhou
        writes it (no sign, no leading zero), the whole text between separators.  The
        other tags are read by :func:`scanned_tag_by_character`."""
        events = self.events
        last = self.last_draw
        handlers = self.handlers
        codes = self.play_codes
        starts, elements, lines = self.starts, self.elements, self.lines
        k = 0
        read = 0
        n: i64 = len(body)
        i: i64 = 0
        j: i64 = 0
        letter: i64 = -1
        tile: i64 = -1
        while True:
            if codes and i + 1 < n:
                c: i64 = ord(body[i])
                letter = _LETTER_BY_CODE[c] if c < 128 else -1
                tile = ord(body[i + 1]) - 48 if letter >= 0 else -1
                j = i + 2
                if tile > 9:
                    tile = -1
                elif tile >= 1:  # more digits; a leading 0 stands alone
                    while j < n and tile < 136:
                        digit: i64 = ord(body[j]) - 48
                        if digit < 0 or digit > 9:
                            break
                        tile = tile * 10 + digit
                        j += 1
                if 0 <= tile < 136 and (j == n or (j + 2 < n and ord(body[j]) == 47
                                                    and ord(body[j + 1]) == 62
                                                    and ord(body[j + 2]) == 60)):  # "/><"
                    seat, match, leaves, event, matched = codes[letter * 136 + tile]
                    events.append(matched if last[seat] == match else event)
                    last[seat] = leaves
                    if j == n:
                        break
                    i = j + 3
                    continue
            end = body.find("/><", i)
            at_end = end < 0
            k += len(events) - read + 1
            el = scanned_tag_by_character(body[i:] if at_end else body[i:end], line)
            if el is None:
                return False
            handler = handlers.get(el.tag)
            if handler is None:
                self.unknown_tag(el, k)
            handler(self, el, k)
            read = len(events)
            starts.append(read)
            elements.append(k + 1)
            lines.append(line)
            codes = self.play_codes
            if at_end:
                break
            i = end + 3
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
        return SourceRef(self.source, el.sourceline,
                         pointer=f"{pointer} attribute {attr}" if attr else pointer)

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

    def hand_tiles(self, text: str) -> tuple[Tile, ...]:
        """A hand's tile ids (``text``) as tiles in canonical order, for the game's
        red-five rule; raises one of ``_UNUSUAL`` for ids not as Tenhou writes them."""
        if _COMPILED:
            return _hand_by_character(self.order_of_id, text)
        return _hand(self.order_text, text)

    def in_play(self, el: Tag, k: int) -> None:
        if not self.plays:
            self.fail(f"<{el.tag}> before the first <INIT>", el, k)

    def deltas(self, el: Tag, k: int) -> tuple[int, ...]:
        # s0,d0,...,s3,d3 in hundreds; chip lobbies append 8 chip values
        sc = self.ints(el, k, "sc", 8)
        return tuple(sc[2 * i + 1] * 100 for i in range(self.n))

    def flush_end(self) -> None:
        if self.result_src is not None:
            self.events.append(EndKyoku(src=self.result_src))
            self.result_src = None
        if self.game_end is not None:
            self.events.append(self.game_end)
            self.game_end = None
            self.game_over = True
        self.in_hand = False

    def players(self) -> tuple[Player, ...]:
        return tuple(self.un[:self.n]) if self.un is not None else ()
