"""Byte-level mutations of log files, for every format.

Each mutator takes the file's bytes and a :class:`random.Random` and returns new
bytes; :func:`mutate` picks one (or chains a few).  They know just enough of
the formats to damage them where it hurts: XML tags and attributes, JSON
values, list items and object keys, JSON lines, tile codes and numbers.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from typing import Any

from kansa.parsers.registry import format_named

Mutator = Callable[[bytes, random.Random], bytes]

# -- values a mutation plants --------------------------------------------------

HUGE_NUMBERS: tuple[bytes, ...] = (
    b"0", b"-1", b"-0", b"4", b"13", b"34", b"53", b"60", b"135", b"136", b"137", b"255",
    b"1000", b"2147483648", b"9223372036854775808", b"-9223372036854775809",
    b"18446744073709551616", b"1e308", b"1e309", b"-1e309", b"0.5", b"1.0", b"1E2",
    b"9" * 400, b"9" * 5000, b"NaN", b"Infinity", b"-Infinity", b"0x10", b"",
)
"""Numbers (and not-quite-numbers) put where a number was."""

TILE_CODES: tuple[str, ...] = (
    "1m", "5mr", "0m", "0p", "5sr", "E", "N", "P", "F", "C", "?", "1z", "7z", "8z", "0z",
    "10m", "m", "", "5m5m", "\u0000", "１m", "11", "51", "53", "54", "60", "61", "99",
)
"""Tile spellings of every format, good and bad, as strings."""

_SCALARS: tuple[Any, ...] = (
    None, True, False, 0, -1, 1, 3, 4, 7, 13, 14, 37, 136, -136, 10**18, 2**63, -(2**63),
    10**30, 1e308, -1e-308, 0.5, 25000.0, "", "x", "null", "0", "25000", "-", "a" * 300,
    "\u0000", "\ufffd", [], {}, [None], [[]], {"": None},
)
"""JSON values put in place of another value."""

# -- generic byte damage ---------------------------------------------------------


def truncate(data: bytes, rng: random.Random) -> bytes:
    return data[:rng.randrange(len(data) + 1)]


def flip_bytes(data: bytes, rng: random.Random) -> bytes:
    if not data:
        return bytes([rng.randrange(256)])
    out = bytearray(data)
    for _ in range(rng.randint(1, 8)):
        i = rng.randrange(len(out))
        out[i] = rng.randrange(256) if rng.random() < 0.5 else out[i] ^ (1 << rng.randrange(8))
    return bytes(out)


def splice(data: bytes, rng: random.Random) -> bytes:
    """Delete, duplicate or move a random range of bytes, or insert junk."""
    n = len(data)
    i = rng.randrange(n + 1)
    j = min(n, i + rng.randint(1, max(1, n // 8)))
    op = rng.randrange(4)
    if op == 0:
        return data[:i] + data[j:]
    if op == 1:
        return data[:j] + data[i:j] * rng.randint(1, 4) + data[j:]
    if op == 2:
        k = rng.randrange(n + 1)
        chunk, rest = data[i:j], data[:i] + data[j:]
        k = min(k, len(rest))
        return rest[:k] + chunk + rest[k:]
    junk = bytes(rng.randrange(256) for _ in range(rng.randint(1, 64)))
    return data[:i] + junk + data[i:]


def corrupt_number(data: bytes, rng: random.Random) -> bytes:
    """Replace one number in the text with a wrong, huge or non-numeric one."""
    spans = [m.span() for m in _NUMBER.finditer(data[:1_000_000])]
    if not spans:
        return splice(data, rng)
    a, b = rng.choice(spans)
    return data[:a] + rng.choice(HUGE_NUMBERS) + data[b:]


_NUMBER = re.compile(rb"-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?")

# -- XML -------------------------------------------------------------------------

_TAG = re.compile(rb"<[^<>]*>")
_ATTR_VALUE = re.compile(rb'="([^"]*)"')


def _tags(data: bytes) -> list[tuple[int, int]]:
    return [m.span() for m in _TAG.finditer(data)]


def xml_tags(data: bytes, rng: random.Random) -> bytes:
    """Delete, duplicate, swap or move whole tags."""
    spans = _tags(data)
    if len(spans) < 2:
        return splice(data, rng)
    pieces = [data[a:b] for a, b in spans]
    gaps = [data[:spans[0][0]], *(data[spans[k][1]:spans[k + 1][0]]
                                  for k in range(len(spans) - 1)), data[spans[-1][1]:]]
    i, j = rng.randrange(len(pieces)), rng.randrange(len(pieces))
    op = rng.randrange(5)
    if op == 0:
        pieces[i] = b""
    elif op == 1:
        pieces[i] = pieces[i] * rng.randint(2, 3)
    elif op == 2:
        pieces[i], pieces[j] = pieces[j], pieces[i]
    elif op == 3:
        del pieces[i:i + rng.randint(2, 30)]
        pieces += [b""] * (len(gaps) - 1 - len(pieces))
    else:
        pieces.insert(j, pieces.pop(i))
    out = bytearray(gaps[0])
    for piece, gap in zip(pieces, gaps[1:], strict=True):
        out += piece + gap
    return bytes(out)


def xml_attribute(data: bytes, rng: random.Random) -> bytes:
    """Give one attribute a wrong value: numbers, tile ids, lists, junk; or drop it."""
    spans = [m.span(1) for m in _ATTR_VALUE.finditer(data[:1_000_000])]
    if not spans:
        return splice(data, rng)
    a, b = rng.choice(spans)
    value = data[a:b]
    choice = rng.randrange(6)
    if choice == 0:
        new = rng.choice(HUGE_NUMBERS)
    elif choice == 1 and b"," in value:
        items = value.split(b",")
        k = rng.randrange(len(items))
        items[k] = rng.choice(HUGE_NUMBERS)
        if rng.random() < 0.3:
            del items[rng.randrange(len(items))]
        new = b",".join(items)
    elif choice == 2:
        new = value + b"," + rng.choice(HUGE_NUMBERS)
    elif choice == 3:
        new = rng.choice((b"", b",", b",,", b"x", b"&amp;", b"%ZZ", b"%E3%81", b"\xff\xfe"))
    elif choice == 4:  # drop the attribute: cut back to the preceding space
        start = data.rfind(b" ", 0, a)
        return data[:start] + data[b + 1:] if start >= 0 else data
    else:
        new = b",".join(str(rng.choice((0, 16, 52, 88, 135, 136, 200, -1))).encode()
                        for _ in range(rng.choice((1, 2, 3, 13, 14))))
    return data[:a] + new + data[b:]


def xml_rename(data: bytes, rng: random.Random) -> bytes:
    """Rename one tag: an unknown name, a draw or discard with a bad tile id, case change."""
    spans = [m.span() for m in re.finditer(rb"<([A-Za-z]+\d*)", data[:1_000_000])]
    if not spans:
        return splice(data, rng)
    a, b = rng.choice(spans)
    name = rng.choice((b"<T136", b"<D999", b"<X", b"<init", b"<N", b"<AGARI", b"<INIT",
                       b"<RYUUKYOKU", b"<T0", b"<G135", b"<REACH", b"<DORA", b"<UN",
                       b"<GO", b"<T" + b"9" * 50, b"<mjloggm", b"<BYE"))
    return data[:a] + name + data[b:]


def xml_hostile(data: bytes, rng: random.Random) -> bytes:
    """Deep nesting, entity bombs, external entities, processing instructions, CDATA."""
    at = data.find(b">", data.find(b"<mjloggm")) + 1
    choice = rng.randrange(6)
    if choice == 0:
        depth = rng.choice((10, 300, 5000, 100_000))
        insert = b"<a>" * depth + b"</a>" * depth
    elif choice == 1:
        return (b'<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">'
                b'<!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]>'
                + data[at - 1 if at > 0 else 0:].replace(b"<GO ", b'<GO x="&lol2;" ', 1))
    elif choice == 2:
        return (b'<?xml version="1.0"?><!DOCTYPE m [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
                + data)
    elif choice == 3:
        insert = b"<![CDATA[" + b"x" * rng.randrange(100) + b"]]><?pi data?><!-- c -->"
    elif choice == 4:
        insert = b"&unknown;&#0;&#x110000;&amp;"
    else:
        insert = b"<INIT " + b'a="1" ' * rng.choice((10, 1000)) + b"/>"
    return data[:at] + insert + data[at:]


# -- JSON ----------------------------------------------------------------------------


def _json_docs(data: bytes) -> tuple[list[Any], bool] | None:
    """The JSON documents of ``data`` and whether it is JSON lines; ``None`` if not JSON."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return None
    try:
        return [json.loads(text)], False
    except (ValueError, RecursionError):
        pass
    try:
        return [json.loads(line) for line in text.splitlines() if line.strip()], True
    except (ValueError, RecursionError):
        return None


def _dump(docs: list[Any], lines: bool) -> bytes:
    if lines:
        return "\n".join(json.dumps(d, ensure_ascii=False) for d in docs).encode() + b"\n"
    return json.dumps(docs[0], ensure_ascii=False).encode()


def _slots(value: Any, out: list[tuple[Any, Any]]) -> None:
    """Every (container, key) pair under ``value`` (iteratively: values nest deep here)."""
    stack = [value]
    while stack:
        node = stack.pop()
        items = (enumerate(node) if isinstance(node, list)
                 else node.items() if isinstance(node, dict) else ())
        for k, v in items:
            out.append((node, k))
            stack.append(v)


def _nasty_value(old: Any, rng: random.Random) -> Any:
    r = rng.random()
    if isinstance(old, bool) or old is None:
        return rng.choice(_SCALARS)
    if isinstance(old, int) and r < 0.6:
        return rng.choice((old + 1, old - 1, -old, old * 1000, old + 60, old % 10, 2**63 + old))
    if isinstance(old, str) and r < 0.6:
        return rng.choice((*TILE_CODES, old + old, old[:-1], old.upper(), old + "?"))
    if isinstance(old, list) and r < 0.4:
        return [] if rng.random() < 0.5 else old * 2
    return rng.choice(_SCALARS)


def json_value(data: bytes, rng: random.Random) -> bytes:
    """Edit the parsed JSON: replace, delete, duplicate or swap values, list items, keys."""
    parsed = _json_docs(data)
    if parsed is None:
        return corrupt_number(data, rng)
    docs, lines = parsed
    for _ in range(rng.randint(1, 3)):
        slots: list[tuple[Any, Any]] = []
        for doc in docs:
            _slots(doc, slots)
        if not slots:
            break
        container, key = rng.choice(slots)
        op = rng.randrange(5)
        if op == 0:
            container[key] = _nasty_value(container[key], rng)
        elif op == 1:
            del container[key]
        elif op == 2 and isinstance(container, list):
            container.insert(key, container[key])
        elif op == 3 and isinstance(container, list) and len(container) > 1:
            j = rng.randrange(len(container))
            container[key], container[j] = container[j], container[key]
        elif op == 4 and isinstance(container, dict):
            container[rng.choice(("type", "actor", "log", "name", "events", "x"))] = \
                container.pop(key)
        else:
            container[key] = _nasty_value(container[key], rng)
    try:
        return _dump(docs, lines)
    except (ValueError, RecursionError):
        return data


def json_lines(data: bytes, rng: random.Random) -> bytes:
    """Delete, duplicate, swap or move whole lines."""
    rows = data.split(b"\n")
    if len(rows) < 2:
        return json_value(data, rng)
    i, j = rng.randrange(len(rows)), rng.randrange(len(rows))
    op = rng.randrange(5)
    if op == 0:
        del rows[i]
    elif op == 1:
        rows.insert(j, rows[i])
    elif op == 2:
        rows[i], rows[j] = rows[j], rows[i]
    elif op == 3:
        del rows[i:i + rng.randint(2, 30)]
    else:
        rows[i] = rows[i][:rng.randrange(len(rows[i]) + 1)]
    return b"\n".join(rows)


def json_hostile(data: bytes, rng: random.Random) -> bytes:
    """Deep nesting, huge numbers, constants JSON does not allow, huge strings."""
    choice = rng.randrange(5)
    if choice == 0:
        depth = rng.choice((50, 65, 1000, 100_000))
        body = data.strip() or b"1"
        return b"[" * depth + body + b"]" * depth
    if choice == 1:
        parsed = _json_docs(data)
        if parsed is not None and parsed[0] and isinstance(parsed[0][0], dict):
            key = rng.choice(list(parsed[0][0]) or ["x"])
            depth = rng.choice((30, 70, 3000))
            inner = json.dumps(parsed[0][0].get(key)).encode()
            value = b"[" * depth + inner + b"]" * depth
            rest = json.dumps({k: v for k, v in parsed[0][0].items() if k != key})
            return b"{" + json.dumps(key).encode() + b":" + value + b"," + rest[1:].encode()
        return corrupt_number(data, rng)
    if choice == 2:
        return corrupt_number(data, rng)
    if choice == 3:
        spans = [m.span() for m in _NUMBER.finditer(data[:1_000_000])]
        if not spans:
            return data
        a, b = rng.choice(spans)
        return data[:a] + rng.choice((b"NaN", b"Infinity", b"-Infinity", b"9" * 5000)) + data[b:]
    big = b'"' + b"x" * rng.choice((1000, 100_000)) + b'"'
    spans = [m.span() for m in re.finditer(rb'"[^"\\]*"', data[:1_000_000])]
    if not spans:
        return data
    a, b = rng.choice(spans)
    return data[:a] + big + data[b:]


GENERIC: tuple[Mutator, ...] = (truncate, flip_bytes, splice, corrupt_number)
BY_KIND: dict[str, tuple[Mutator, ...]] = {
    "xml": (xml_tags, xml_tags, xml_attribute, xml_attribute, xml_rename, xml_hostile),
    "json": (json_value, json_value, json_value, json_lines, json_hostile),
    "bytes": GENERIC,
}
"""Format-aware mutators: ``xml`` for Tenhou mjlog, ``json`` for every JSON format,
``bytes`` for archives."""


def kind_of(fmt: str) -> str:
    """The mutators' kind for a registry format's name, or ``zip`` and ``gzip``."""
    return "bytes" if fmt in ("zip", "gzip") else format_named(fmt).syntax


def mutate(data: bytes, fmt: str, rng: random.Random) -> tuple[bytes, str]:
    """``data`` after one to three mutations; also the names of the mutators applied."""
    names = []
    for _ in range(rng.choice((1, 1, 1, 2, 3))):
        pool = BY_KIND[kind_of(fmt)] if rng.random() < 0.7 else GENERIC
        fn = rng.choice(pool)
        data = fn(data, rng)
        names.append(fn.__name__)
    return data, "+".join(names)
