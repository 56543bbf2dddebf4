"""A seeded generator of the forms a log's format allows, for the metamorphic test.

Each function takes a log's (decompressed) content and returns it rewritten in one
named form: the same document as far as the format's specification goes (XML 1.0,
JSON, JSON lines), written otherwise.  ``forms_of(fmt, data, rng)`` gives every
named form of a format plus a few seeded mixtures of them.
"""

from __future__ import annotations

import bz2
import functools
import gzip
import json
import lzma
import random
from collections.abc import Callable
from dataclasses import dataclass, fields, replace
from typing import Any

import zstandard
from lxml import etree

BOM = b"\xef\xbb\xbf"

# -- Tenhou XML ---------------------------------------------------------------------


@dataclass(frozen=True)
class XmlStyle:
    """How to write an mjlog; every field off is Tenhou's own one-line form."""

    comment_before: bool = False
    """``<!-- saved from ... -->`` on its own line before the root, as browsers save."""
    declaration: bool = False
    pi_before: bool = False
    bom: bool = False
    pretty: bool = False
    """One child per line, indented."""
    crlf: bool = False
    attrs_reversed: bool = False
    attrs_shuffled: bool = False
    single_quotes: bool = False
    space_before_slash: bool = False
    spaces_in_tags: bool = False
    """Line breaks and runs of spaces between attributes and around ``=``."""
    comments_inside: bool = False
    pis_inside: bool = False
    whitespace_inside: bool = False
    after_root: bool = False
    """Whitespace, a comment and a PI after ``</mjloggm>``."""


XML_FORMS = tuple(f.name for f in fields(XmlStyle))


def _xml_root(data: bytes) -> Any:
    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False,
                             remove_comments=True, remove_pis=True)
    return etree.fromstring(data, parser)


def _attr_value(value: str, quote: str) -> str:
    text = (value.replace("&", "&amp;").replace("<", "&lt;").replace("\n", "&#10;")
            .replace("\r", "&#13;").replace("\t", "&#9;"))
    return quote + text.replace(quote, "&quot;" if quote == '"' else "&apos;") + quote


def _xml_tag(el: Any, style: XmlStyle, rng: random.Random) -> str:
    items = list(el.attrib.items())
    if style.attrs_reversed:
        items.reverse()
    if style.attrs_shuffled:
        rng.shuffle(items)
    quote = "'" if style.single_quotes else '"'
    parts = []
    for name, value in items:
        if style.spaces_in_tags:
            gap = rng.choice([" ", "  ", "\n    ", "\t"])
            eq = rng.choice(["=", " = ", "=\n"])
        else:
            gap, eq = " ", "="
        parts.append(f"{gap}{name}{eq}{_attr_value(value, quote)}")
    end = " />" if style.space_before_slash else "/>"
    if style.spaces_in_tags:
        end = rng.choice(["\n", " ", ""]) + end
    return f"<{el.tag}{''.join(parts)}{end}"


def write_xml(data: bytes, style: XmlStyle, rng: random.Random, name: str = "log") -> bytes:
    """The mjlog ``data`` written in ``style``."""
    root = _xml_root(data)
    out: list[str] = []
    if style.declaration:
        out.append('<?xml version="1.0" encoding="UTF-8"?>\n')
    if style.pi_before:
        out.append('<?xml-stylesheet type="text/xsl" href="mjlog.xsl"?>\n')
    if style.comment_before:
        out.append(f"<!-- saved from /0/?log={name} -->\n")
    head = _xml_tag(root, replace(style, space_before_slash=False), rng)[:-2] + ">"
    out.append(head)
    for k, child in enumerate(root):
        if style.pretty:
            out.append("\n  ")
        if style.whitespace_inside and rng.random() < 0.2:
            out.append(rng.choice([" ", "\n", "\t\t", "\n\n  "]))
        if style.comments_inside and rng.random() < 0.1:
            out.append(f"<!-- tag {k + 1}: <T8/> & -->" if k % 2 else f"<!--{k}-->")
        if style.pis_inside and rng.random() < 0.05:
            out.append(f"<?kansa-test tag {k + 1}?>")
        out.append(_xml_tag(child, style, rng))
    if style.pretty:
        out.append("\n")
    out.append("</mjloggm>")
    if style.after_root:
        out.append("\n\n<!-- end -->\n<?done?>\n  ")
    text = "".join(out)
    if style.crlf:
        text = text.replace("\n", "\r\n")
    return (BOM if style.bom else b"") + text.encode("utf-8")


Form = Callable[[], bytes]
"""A form, written when called (the test reads a sample of them)."""


def xml_forms(data: bytes, rng: random.Random, mixtures: int) -> dict[str, Form]:
    styles = {name: XmlStyle(**{name: True}) for name in XML_FORMS}
    styles["tenhou"] = XmlStyle()
    styles["pretty_crlf_bom"] = XmlStyle(pretty=True, crlf=True, bom=True, comment_before=True)
    for k in range(mixtures):
        styles[f"xml_mixture_{k}"] = XmlStyle(**{name: rng.random() < 0.5
                                                 for name in XML_FORMS})
    seed = rng.getrandbits(32)
    return {name: functools.partial(write_xml, data, style, random.Random(seed))
            for name, style in styles.items()}


# -- JSON and JSON lines ------------------------------------------------------------------


@dataclass(frozen=True)
class JsonStyle:
    indent: int | str | None = None
    """Pretty-printed (only for a single document)."""
    spaced: bool = False
    """``", "`` and ``": "`` separators."""
    ascii_escapes: bool = False
    """Every non-ASCII character as ``\\uXXXX``."""
    keys_reversed: bool = False
    keys_shuffled: bool = False
    bom: bool = False
    crlf: bool = False
    blank_lines: bool = False
    """Empty lines between the lines and at the end (JSON lines: between records)."""


JSON_FORMS = ("indent", "tabs", "spaced", "ascii_escapes", "keys_reversed", "keys_shuffled",
              "bom", "crlf", "blank_lines")


def _reorder(value: Any, style: JsonStyle, rng: random.Random) -> Any:
    if isinstance(value, dict):
        items = [(k, _reorder(v, style, rng)) for k, v in value.items()]
        if style.keys_reversed:
            items.reverse()
        if style.keys_shuffled:
            rng.shuffle(items)
        return dict(items)
    if isinstance(value, list):
        return [_reorder(v, style, rng) for v in value]
    return value


def _dump(value: Any, style: JsonStyle, rng: random.Random, indent: int | str | None) -> str:
    separators = (", ", ": ") if style.spaced else (",", ":")
    return json.dumps(_reorder(value, style, rng), ensure_ascii=style.ascii_escapes,
                      indent=indent, separators=separators)


def documents(data: bytes) -> list[Any] | None:
    """The JSON lines of ``data`` as values, or ``None`` when it is one document."""
    text = data.decode("utf-8-sig")
    try:
        json.loads(text)
        return None
    except json.JSONDecodeError:
        return [json.loads(line) for line in text.splitlines() if line.strip()]


def write_json(data: bytes, style: JsonStyle, rng: random.Random) -> bytes:
    """``data`` (a JSON document, or JSON lines) written in ``style``."""
    lines = documents(data)
    if lines is None:
        doc = json.loads(data.decode("utf-8-sig"))
        text = _dump(doc, style, rng, style.indent) + "\n"
        if style.blank_lines:
            text = "\n" + text + "\n\n"
    else:
        gap = "\n\n" if style.blank_lines else "\n"
        text = gap.join(_dump(doc, style, rng, None) for doc in lines) + gap
    if style.crlf:
        text = text.replace("\n", "\r\n")
    return (BOM if style.bom else b"") + text.encode("utf-8")


def json_forms(data: bytes, rng: random.Random, mixtures: int) -> dict[str, Form]:
    styles = {
        "indent": JsonStyle(indent=2), "tabs": JsonStyle(indent="\t"),
        "spaced": JsonStyle(spaced=True), "ascii_escapes": JsonStyle(ascii_escapes=True),
        "keys_reversed": JsonStyle(keys_reversed=True),
        "keys_shuffled": JsonStyle(keys_shuffled=True), "bom": JsonStyle(bom=True),
        "crlf": JsonStyle(crlf=True, indent=1), "blank_lines": JsonStyle(blank_lines=True),
    }
    for k in range(mixtures):
        styles[f"json_mixture_{k}"] = JsonStyle(
            indent=rng.choice([None, 2, "\t", 0]), spaced=rng.random() < 0.5,
            ascii_escapes=rng.random() < 0.5, keys_reversed=rng.random() < 0.3,
            keys_shuffled=rng.random() < 0.5, bom=rng.random() < 0.5,
            crlf=rng.random() < 0.5, blank_lines=rng.random() < 0.5)
    seed = rng.getrandbits(32)
    return {name: functools.partial(write_json, data, style, random.Random(seed))
            for name, style in styles.items()}


# -- compressions --------------------------------------------------------------------------

COMPRESSIONS: dict[str, Callable[[bytes], bytes]] = {
    "gzip": lambda b: gzip.compress(b, mtime=0),
    "bzip2": bz2.compress,
    "xz": lzma.compress,
    "zstd": lambda b: zstandard.ZstdCompressor(write_checksum=True).compress(b),
}


def forms_of(fmt: str, data: bytes, rng: random.Random, mixtures: int = 2
             ) -> dict[str, Form]:
    """Every named form of a log of format ``fmt``, ``mixtures`` seeded mixtures, and
    one of them (seeded) compressed in each compression (``gzip``, ``bzip2``...)."""
    forms = xml_forms(data, rng, mixtures) if fmt == "tenhou_xml" else \
        json_forms(data, rng, mixtures)
    sample = forms[rng.choice(sorted(forms))]
    for kind, pack in COMPRESSIONS.items():
        forms[kind] = functools.partial(_packed, pack, sample)
    return forms


def _packed(pack: Callable[[bytes], bytes], form: Form) -> bytes:
    return pack(form())
