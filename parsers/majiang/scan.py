"""The bytes of a majiang paipu as the quick reading reads them: JSON whitespace,
where a value ends and how deep it nests, each value decoded alone, and the draw and
discard entries a hand is mostly made of (``{"zimo":{"l":0,"p":"m1"}}``,
``{"dapai":{"p":"s5_","l":2}}``) read without a decoder, to a number that names the
entry.

Every function indexes past the end of ``data`` (an ``IndexError``) where the text
ends inside what it reads; the quick reading then leaves the file to the full one."""

from __future__ import annotations

from types import FunctionType
from typing import TYPE_CHECKING, Any, Final

import msgspec

from kansa.parsers._json import NOT_READ, QUICK_DECODER, plainly_within, quick_value
from kansa.parsers.majiang.paipu import NotQuick

if TYPE_CHECKING:  # native integers where compiled; only annotations name them
    from mypy_extensions import i64

__all__ = ["COMPACT_MOST", "COMPILED", "NOT_SHARED", "TILE_INDEXES", "compact_code",
           "entry_code", "entry_value",
           "json_value", "skip_space", "string_end", "text_value", "value_span"]

_SPACE: Final = 0x20
_TAB: Final = 0x09
_LF: Final = 0x0A
_CR: Final = 0x0D
_QUOTE: Final = 0x22
_BACKSLASH: Final = 0x5C
_COMMA: Final = 0x2C
_COLON: Final = 0x3A
_LBRACE: Final = 0x7B
_RBRACE: Final = 0x7D
_LBRACKET: Final = 0x5B
_RBRACKET: Final = 0x5D
_ZERO: Final = 0x30
_UNDERSCORE: Final = 0x5F


def skip_space(data: bytes, pos: i64) -> i64:
    """The offset of the first byte at or after ``pos`` that is not JSON whitespace
    (``len(data)`` at the end)."""
    size: i64 = len(data)
    while pos < size:
        c: i64 = data[pos]
        if c not in (_SPACE, _LF, _CR, _TAB):
            return pos
        pos += 1
    return pos


def string_end(data: bytes, pos: i64) -> i64:
    """The offset after the string whose opening quote is at ``pos``."""
    pos += 1
    while True:
        c: i64 = data[pos]
        if c == _QUOTE:
            return pos + 1
        pos += 1
        if c == _BACKSLASH:
            pos += 1


def value_span(data: bytes, pos: i64) -> tuple[i64, i64]:
    """The offset after the JSON value that starts at ``pos`` and how deep it nests
    (the most arrays and objects open at once, those in strings not counted): a string,
    an array or object, or a scalar (up to the next comma, closing bracket or
    whitespace).  Where the text is not JSON the span found is not either, and the
    decoder it goes to refuses it."""
    c: i64 = data[pos]
    if c == _QUOTE:
        return string_end(data, pos), 0
    if c in (_LBRACE, _LBRACKET):
        depth: i64 = 0
        deepest: i64 = 0
        while True:
            c = data[pos]
            if c == _QUOTE:
                pos = string_end(data, pos)
                continue
            if c in (_LBRACE, _LBRACKET):
                depth += 1
                deepest = max(deepest, depth)
            elif c in (_RBRACE, _RBRACKET):
                depth -= 1
                if depth == 0:
                    return pos + 1, deepest
            pos += 1
    size: i64 = len(data)
    while pos < size:
        c = data[pos]
        if c in (_COMMA, _RBRACE, _RBRACKET, _SPACE, _LF, _CR, _TAB):
            return pos, 0
        pos += 1
    return pos, 0


NOT_SHARED: Final = -1
""":func:`entry_code`'s code for an entry it does not read."""

TILE_INDEXES: Final = 40
"""Tile indexes of :func:`entry_code`: ten digits for each suit letter of ``mpsz``."""


def _kind(data: bytes, pos: i64) -> i64:
    """0 for ``"zimo"`` at ``pos``, 1 for ``"dapai"``, else -1."""
    c: i64 = data[pos + 1]
    if c == 0x7A and data[pos + 2] == 0x69 and data[pos + 3] == 0x6D \
            and data[pos + 4] == 0x6F and data[pos + 5] == _QUOTE:  # zimo
        return 0
    if c == 0x64 and data[pos + 2] == 0x61 and data[pos + 3] == 0x70 \
            and data[pos + 4] == 0x61 and data[pos + 5] == 0x69 \
            and data[pos + 6] == _QUOTE:  # dapai
        return 1
    return -1


def _tile_index(suit: i64, digit: i64) -> i64:
    """The index of a majiang tile (``m0`` to ``m9``, ``p0`` to ``s9``, ``z1`` to
    ``z7``), or -1."""
    if not 0 <= digit <= 9:
        return -1
    if suit == 0x6D:  # m
        return digit
    if suit == 0x70:  # p
        return 10 + digit
    if suit == 0x73:  # s
        return 20 + digit
    if suit == 0x7A and 1 <= digit <= 7:  # z
        return 30 + digit
    return -1


def _token(data: bytes, p: i64) -> tuple[i64, i64]:
    """The offset of the first byte at or after ``p`` that is not whitespace, and that
    byte (compact JSON has no whitespace, which :func:`skip_space` is left)."""
    c: i64 = data[p]
    if c > _SPACE:
        return p, c
    p = skip_space(data, p)
    return p, data[p]


def entry_code(data: bytes, pos: i64, players: i64) -> tuple[i64, i64]:
    """The entry at ``pos`` (its opening brace) and the offset after it, where it is a
    draw ``{"zimo":{"l":L,"p":"T"}}`` or a discard ``{"dapai":{"l":L,"p":"T"}}`` or
    ``"T_"`` (its two fields in either order, whitespace anywhere JSON has it), with
    ``L`` a digit below ``players`` and ``T`` a tile: its code,
    ``((kind * 4 + L) * TILE_INDEXES + tile) * 2 + tsumogiri`` (``kind`` 0 for a draw,
    1 for a discard).  Anything else (a riichi discard, a field more, a number written
    otherwise) is ``(NOT_SHARED, pos)``, for the decoder."""
    if data[pos] != _LBRACE:
        return NOT_SHARED, pos
    if pos + COMPACT_MOST < len(data):
        code, end = compact_code(data, pos, players)
        if code != NOT_SHARED:
            return code, end
    p, c = _token(data, pos + 1)
    if c != _QUOTE:
        return NOT_SHARED, pos
    kind = _kind(data, p)
    if kind < 0:
        return NOT_SHARED, pos
    p, c = _token(data, p + 6 + kind)  # after "zimo" or "dapai"
    if c != _COLON:
        return NOT_SHARED, pos
    p, c = _token(data, p + 1)
    if c != _LBRACE:
        return NOT_SHARED, pos
    actor: i64 = -1
    tile: i64 = -1
    tsumogiri: i64 = 0
    member: i64
    for member in range(2):
        p, c = _token(data, p + 1)  # after the opening brace or the comma
        if c != _QUOTE or data[p + 2] != _QUOTE:
            return NOT_SHARED, pos
        key: i64 = data[p + 1]
        p, c = _token(data, p + 3)
        if c != _COLON:
            return NOT_SHARED, pos
        p, c = _token(data, p + 1)
        if key == 0x6C and actor < 0:  # "l": one digit (more, "0.0", "0e0" are refused
            actor = c - _ZERO  # where a comma or brace should follow)
            if not 0 <= actor < players:
                return NOT_SHARED, pos
            p += 1
        elif key == 0x70 and tile < 0 and c == _QUOTE:  # "p": a tile, "_" for tsumogiri
            tile = _tile_index(data[p + 1], data[p + 2] - _ZERO)
            p += 3
            c = data[p]
            if c == _UNDERSCORE and kind == 1:
                tsumogiri = 1
                p += 1
                c = data[p]
            if tile < 0 or c != _QUOTE:
                return NOT_SHARED, pos
            p += 1
        else:
            return NOT_SHARED, pos
        p, c = _token(data, p)
        if (member == 0 and c != _COMMA) or (member == 1 and c != _RBRACE):
            return NOT_SHARED, pos
    p, c = _token(data, p + 1)
    if c != _RBRACE:
        return NOT_SHARED, pos
    return ((kind * 4 + actor) * TILE_INDEXES + tile) * 2 + tsumogiri, p + 1


COMPACT_MOST: Final = 27
"""The longest compact draw or discard (``{"dapai":{"l":0,"p":"m1_"}}``)."""


def compact_code(data: bytes, pos: i64, players: i64) -> tuple[i64, i64]:
    """:func:`entry_code` of the entry at ``pos`` (with at least :data:`COMPACT_MOST`
    bytes after it) where it is written as kobalab's writers write it, without
    whitespace (``l`` first or ``p`` first): its bytes are compared where they must be,
    not read token by token.  ``(NOT_SHARED, pos)`` for any other text (which
    :func:`entry_code` then reads token by token)."""
    if data[pos] != _LBRACE or data[pos + 1] != _QUOTE:
        return NOT_SHARED, pos
    c: i64 = data[pos + 2]  # _kind, written out
    kind: i64
    if c == 0x7A and data[pos + 3] == 0x69 and data[pos + 4] == 0x6D \
            and data[pos + 5] == 0x6F and data[pos + 6] == _QUOTE:  # zimo
        kind = 0
    elif c == 0x64 and data[pos + 3] == 0x61 and data[pos + 4] == 0x70 \
            and data[pos + 5] == 0x61 and data[pos + 6] == 0x69 \
            and data[pos + 7] == _QUOTE:  # dapai
        kind = 1
    else:
        return NOT_SHARED, pos
    p = pos + kind  # the offsets below are a draw's
    if data[p + 7] != _COLON or data[p + 8] != _LBRACE or data[p + 9] != _QUOTE \
            or data[p + 11] != _QUOTE or data[p + 12] != _COLON:
        return NOT_SHARED, pos  # :{"?":
    actor: i64  # each byte read as a native integer, then subtracted from
    if data[p + 10] == 0x6C:  # {"l":D,"p":"T"}
        actor = data[p + 13]
        actor -= _ZERO
        if data[p + 14] != _COMMA or data[p + 15] != _QUOTE or data[p + 16] != 0x70 \
                or data[p + 17] != _QUOTE or data[p + 18] != _COLON:
            return NOT_SHARED, pos  # ,"p":
        p += 6
    elif data[p + 10] == 0x70:  # {"p":"T","l":D}
        actor = -1
    else:
        return NOT_SHARED, pos
    if data[p + 13] != _QUOTE:
        return NOT_SHARED, pos
    suit: i64 = data[p + 14]
    digit: i64 = data[p + 15]
    digit -= _ZERO
    tile: i64 = -1  # _tile_index, written out
    if 0 <= digit <= 9:
        if suit == 0x6D:  # m
            tile = digit
        elif suit == 0x70:  # p
            tile = 10 + digit
        elif suit == 0x73:  # s
            tile = 20 + digit
        elif suit == 0x7A and 1 <= digit <= 7:  # z
            tile = 30 + digit
    tsumogiri: i64 = 1 if kind == 1 and data[p + 16] == _UNDERSCORE else 0
    p += tsumogiri
    if tile < 0 or data[p + 16] != _QUOTE:
        return NOT_SHARED, pos
    if actor < 0:
        if data[p + 17] != _COMMA or data[p + 18] != _QUOTE or data[p + 19] != 0x6C \
                or data[p + 20] != _QUOTE or data[p + 21] != _COLON:
            return NOT_SHARED, pos  # ,"l":
        actor = data[p + 22]
        actor -= _ZERO
        p += 6
    if not 0 <= actor < players or data[p + 17] != _RBRACE or data[p + 18] != _RBRACE:
        return NOT_SHARED, pos  # }}
    return ((kind * 4 + actor) * TILE_INDEXES + tile) * 2 + tsumogiri, p + 19


def json_value(data: bytes, pos: i64, depth: int) -> tuple[Any, i64]:
    """The JSON value that starts at ``pos`` in ``data`` and the offset after it, for
    the quick reading, where it nests at most ``depth`` deep.

    :raises NotQuick: for a value nested deeper, or one msgspec refuses (the full
        reading words its error, or reads what only ``json`` reads).
    """
    end, deepest = value_span(data, pos)
    if deepest > depth:
        raise NotQuick
    return _decoded(data[pos:end]), end


def _decoded(text: bytes) -> Any:
    try:
        return QUICK_DECODER.decode(text)
    except (msgspec.DecodeError, RecursionError, UnicodeError):
        raise NotQuick from None


def entry_value(data: bytes, pos: i64, depth: int) -> tuple[Any, i64]:
    """:func:`json_value` of a log entry, where a short one (a call, a kan, a riichi
    discard, a kan's indicator) read before is the value decoded then: they repeat
    from game to game, and the readers only read the values they decode."""
    end, deepest = value_span(data, pos)
    if deepest > depth:
        raise NotQuick
    text = data[pos:end]
    if end - pos > _KEPT_TEXT:
        return _decoded(text), end
    value = _KEPT.get(text)
    if value is None:
        value = _decoded(text)
        if len(_KEPT) < _KEPT_MOST:
            _KEPT[text] = value
    return value, end


_KEPT: Final[dict[bytes, Any]] = {}
_KEPT_TEXT: Final = 48
"""The longest entry :func:`_entry_value` keeps (``{"fulou":{"l":0,"m":"m5550-"}}`` is
29 bytes, a deal or a win is a few hundred)."""
_KEPT_MOST: Final = 8192


def text_value(text: bytes, depth: int) -> Any:
    """The JSON value ``text`` (a value's whole text) where it nests at most ``depth``
    deep, its brackets counted in bulk, as interpreted code does best.

    :raises NotQuick: as :func:`json_value`.
    """
    if text.count(b"[") + text.count(b"{") > depth and not plainly_within(text, depth):
        raise NotQuick
    value = quick_value(text)
    if value is NOT_READ:
        raise NotQuick
    return value


COMPILED: Final = not isinstance(skip_space, FunctionType)
"""Whether this module runs compiled: then the quick reading walks the paipu's bytes
(:func:`entry_code`, :func:`json_value`); interpreted, a loop over bytes costs far
more than msgspec's splitting the log into its entries' texts and a lookup of each
text (``Hand.read_texts``)."""
