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

The reader's parts: this module takes the document (the split reading or lxml's
tree) and names each tag's handler; :mod:`~kansa.parsers.tenhou_xml.reader` walks
the tags (draws and discards itself) with the helpers that read attributes;
:mod:`~kansa.parsers.tenhou_xml.header` reads GO, UN, BYE, TAIKYOKU and SHUFFLE,
:mod:`~kansa.parsers.tenhou_xml.hand` INIT, N, REACH and DORA,
:mod:`~kansa.parsers.tenhou_xml.result` AGARI, RYUUKYOKU and ``owari``; the tables
they share are built once in :mod:`~kansa.parsers.tenhou_xml.tables`.
"""


from __future__ import annotations

import re
from typing import Any, Final, cast

from lxml import etree

from kansa.parsers.errors import CutOffError, LogFormatError
from kansa.parsers.source import DEFAULT_LIMITS, Limits
from kansa.parsers.tenhou_xml.cut import read_cut
from kansa.parsers.tenhou_xml.header import rank_label, room_label
from kansa.parsers.tenhou_xml.result import ResultTags
from kansa.parsers.tenhou_xml.scan import scan_body
from kansa.parsers.tenhou_xml.tables import _COMPILED
from kansa.replay.events import SourceRef
from kansa.replay.game import Game

__all__ = ["parse", "parse_game", "rank_label", "read_scanned", "read_tree", "room_label",
           "sniff"]


_Element = etree._Element

_BIG_LINE: Final = 65535
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

_PROLOG_ITEM: Final = re.compile(rb"[ \t\r\n]*(?:<\?.*?\?>|<!--.*?-->)", re.DOTALL)
"""Whitespace and one XML declaration, processing instruction or comment."""
_ROOT_START: Final = re.compile(rb"[ \t\r\n]*<mjloggm[ \t\r\n/>]")


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


def read_scanned(data: bytes, source: str, *, by_character: bool = _COMPILED) -> Game | None:
    """The game, read without an XML parser when the document is in the form Tenhou
    writes (:mod:`kansa.parsers.tenhou_xml.scan`); ``None`` for any other document, and for
    one that does not read as a game (:func:`read_tree` then words the error).
    ``by_character``: read the tags with
    :meth:`~kansa.parsers.tenhou_xml.reader.TagReader.run_text` rather than split (the
    same game; each build's faster way by default, see ``tables._COMPILED``)."""
    scanned = scan_body(data)
    if scanned is None:
        return None
    line, body = scanned
    reader = _Reader(source)
    try:
        done = reader.run_text(body, line) if by_character \
            else reader.run(body.split("/><"), None, line)
        if not done:
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
                    SourceRef(source, cast("int | None", root.sourceline),
                              pointer="the root <mjloggm>"))
    if cut is not None:
        if not any(el.tag == "INIT" for el in children):
            raise CutOffError(
                f"the file is cut off at byte {cut.offset}, before the first hand's <INIT> tag "
                "is complete: nothing to audit", SourceRef(source, cut.line, cut.column))
        reader.truncated(cut, children)
    reader.run([el.tag for el in children], children, _shared_line(root, children))
    return reader.game()


# -- XML layer ------------------------------------------------------------------

_WIDE_BOMS: Final = {b"\xff\xfe\x00\x00": "UTF-32", b"\x00\x00\xfe\xff": "UTF-32",
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
                             SourceRef(source, cast("int | None", root.sourceline),
                                       pointer="the root element"))
    return root


class _Reader(ResultTags):
    """The reader with every tag's handler."""


_Reader.handlers = {
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
