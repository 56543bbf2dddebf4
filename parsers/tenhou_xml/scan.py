"""A short way past the XML parser for mjlogs written the way Tenhou writes them.

A Tenhou mjlog is one line of empty elements: ``<mjloggm ver="2.3">``, then tags
such as ``<INIT seed="0,0,0,3,2,61" ... />`` and ``<T56/>``, then ``</mjloggm>``.
For a document in exactly that form, splitting the text at ``/><`` gives the
children, and splitting a child at ``"`` gives its attributes; :func:`split_tags`
and :func:`scanned_tag` do that and nothing more (:func:`scan_body` and
:func:`scanned_tag_by_character` give the same without splitting, for the compiled
reader).  They accept only text that is
well-formed XML and that lxml reads to the same elements, names and values:

* ASCII, printable, no ``&`` (so no entity or character references to expand) and
  no ``<`` but at the tag boundaries (so no comment, PI, CDATA or DOCTYPE: a draw or
  discard is its exact text, and :func:`scanned_tag` refuses any other with a ``<``);
* the prolog an optional ``<?xml version="1.0" encoding="UTF-8"?>`` and whitespace
  (spaces, tabs, line feeds), the root exactly ``<mjloggm ver="2.3">`` with its
  children on the line it is on and nothing between them, and only whitespace
  after ``</mjloggm>``;
* each child ``NAME`` followed by `` name="value"`` pairs (ASCII letters and
  digits in names, no name twice, no ``xmlns``), an optional space, then ``/>``;
* at most 8 MB, and names of at most 64 characters (lxml's own limits are higher).

Anything else returns ``None`` and the caller reads the document with lxml, which
gives the same result or the exact error (``tests/parsers/test_tenhou_xml_scan.py``
compares the two readings).  The split takes about a tenth of the time lxml takes
to build the tree, and a tag is a dict lookup, not an element proxy.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache
from typing import TYPE_CHECKING, Final, TypeVar, overload

if TYPE_CHECKING:
    from mypy_extensions import i64

__all__ = ["ScannedTag", "scan_body", "scanned_tag", "scanned_tag_by_character", "split_tags"]

_T = TypeVar("_T")

_HEAD: Final = re.compile(
    r'(?:<\?xml version="1\.0"(?: encoding="(?:UTF|utf)-8")?\?>)?[ \t\n]*<mjloggm ver="2\.3"><')
"""Optional declaration, whitespace, the root and the first child's ``<``."""
_END: Final = '/></mjloggm>'
_PRINTABLE: Final = bytes(range(0x20, 0x7F))
_MOST_BYTES: Final = 8_000_000
"""Larger documents are left to lxml: it refuses an attribute value of about 10 MB
(without ``huge_tree``), which a smaller document cannot hold.  (Names are held to
64 characters for the same reason: lxml refuses one of 50,000.)  A real mjlog is
tens of kilobytes."""
_OUTSIDE: Final = re.compile(
    r'([A-Z]{1,64})(?: ?|( [A-Za-z][A-Za-z0-9]{0,63}=(?:" [A-Za-z][A-Za-z0-9]{0,63}=)*))')
"""A child's text outside its quotes, the pieces joined by ``"``: the tag name and an
optional space, or the tag name and `` name=`` per attribute."""


class ScannedTag:
    """A child read by :func:`scanned_tag`: its attributes, name, line and text (as
    :func:`split_tags` gives it: ``raw`` is the tag without its ``<`` and ``/>``)."""

    __slots__ = ("attrs", "raw", "sourceline", "tag")

    def __init__(self, tag: str, attrs: dict[str, str], sourceline: int | None,
                 raw: str) -> None:
        self.tag = tag
        self.attrs = attrs
        self.sourceline = sourceline
        self.raw = raw

    @overload
    def get(self, key: str, /) -> str | None: ...
    @overload
    def get(self, key: str, default: _T, /) -> str | _T: ...

    def get(self, key: str, default: object = None, /) -> object:
        return self.attrs.get(key, default)

    def items(self) -> Iterable[tuple[str, str]]:
        return self.attrs.items()

    def __len__(self) -> int:
        return len(self.attrs)


def split_tags(data: bytes) -> tuple[int, list[str]] | None:
    """The line the root's children are on and their texts (``T56``,
    ``INIT seed="..." ...``), or ``None`` when the document is not in the form above."""
    scanned = scan_body(data)
    return None if scanned is None else (scanned[0], scanned[1].split("/><"))


def scan_body(data: bytes) -> tuple[int, str] | None:
    """:func:`split_tags` unsplit: the line and the root's children's texts, separated
    by ``/><``."""
    if len(data) > _MOST_BYTES or not data.isascii():
        return None
    text = data.decode("ascii")
    head = _HEAD.match(text)
    end = text.rfind(_END)
    if head is None or end < head.end() or text[end + len(_END):].strip(" \t\r\n"):
        return None
    start = head.end()  # ASCII: the text's offsets are the bytes'
    body = text[start:end]
    # (translate finds any unprintable byte faster than isprintable; only the white
    # space around the root may be one)
    if (data.translate(None, _PRINTABLE) and data[start:end].translate(None, _PRINTABLE)) \
            or "&" in body:
        return None
    return text.count("\n", 0, start) + 1, body


def scanned_tag(text: str, line: int | None) -> ScannedTag | None:
    """The child whose text is ``text`` (as :func:`split_tags` gives it), or ``None``
    when it is not ``NAME name="value" ...`` with a name used once."""
    if "<" in text:
        return None
    parts = text.split('"')
    if len(parts) == 1:  # no attributes
        outside, values = text, parts[1:]
    elif len(parts) % 2 and parts[-1] in ("", " "):
        outside, values = '"'.join(parts[0:-1:2]), parts[1::2]
    else:
        return None
    shape = _cached_shape(outside) if len(outside) <= _CACHED else _shape(outside)
    if shape is None or len(shape[1]) != len(values):
        return None
    return ScannedTag(shape[0], dict(zip(shape[1], values, strict=True)), line, text)


def scanned_tag_by_character(text: str, line: int | None) -> ScannedTag | None:
    """:func:`scanned_tag` read character by character, with native integers when
    compiled: the same tag for the same text, ``None`` for the same others.  The
    compiled reader's way (``TagReader.run_text``): no split, join or cached shape,
    one pass that cuts out each name and value."""
    if "<" in text:
        return None
    n: i64 = len(text)
    i: i64 = 0
    while i < n and 65 <= ord(text[i]) <= 90:  # A-Z
        i += 1
    if i == 0 or i > _LONGEST_NAME:
        return None
    attrs: dict[str, str] = {}
    tag = ScannedTag(text[:i], attrs, line, text)
    if i == n:
        return tag
    if ord(text[i]) != 32:  # " "
        return None
    i += 1
    while i < n:
        start = i
        c: i64 = ord(text[i])
        if not (65 <= c <= 90 or 97 <= c <= 122):  # a name starts with a letter
            return None
        i += 1
        while i < n:
            c = ord(text[i])
            if not (65 <= c <= 90 or 97 <= c <= 122 or 48 <= c <= 57):
                break
            i += 1
        if i - start > _LONGEST_NAME or i + 1 >= n or ord(text[i]) != 61 \
                or ord(text[i + 1]) != 34:  # name="
            return None
        end: i64 = text.find('"', i + 2)
        if end < 0:
            return None
        key = text[start:i]
        if key in attrs or key == "xmlns":
            return None
        attrs[key] = text[i + 2:end]
        i = end + 1
        if i < n:  # a space: before the next name, or the last character
            if ord(text[i]) != 32:
                return None
            i += 1
    return tag


_LONGEST_NAME: Final = 64
"""The longest tag or attribute name read here, as in ``_OUTSIDE``."""


def _shape(outside: str) -> tuple[str, tuple[str, ...]] | None:
    """The tag name and attribute names of a child whose text outside its quotes,
    joined by ``"``, is ``outside`` (``INIT seed=" ten=" oya=``), or ``None`` when
    that is not a name and ``" name=`` pieces."""
    match = _OUTSIDE.fullmatch(outside)
    if match is None:
        return None
    name, names = match.groups()
    keys = tuple(names[1:-1].split('=" ')) if names else ()
    if len(set(keys)) != len(keys) or "xmlns" in keys:  # xmlns puts the tag in a namespace
        return None
    return name, keys


_cached_shape = lru_cache(maxsize=1024)(_shape)
"""A log has a few dozen shapes, each under ``_CACHED`` characters (an AGARI's is
about 100); longer ones are not kept."""
_CACHED: Final = 512
