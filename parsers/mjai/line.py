"""The fields of an mjai line that :mod:`kansa.parsers.mjai.fast` reads from a long
line: msgspec decodes the line into one :class:`Line`, filling these and skipping
every other field unbuilt (an AI's annotations, checked to be JSON all the same).  A
module of its own that stays Python: mypyc compiles no ``msgspec.Struct`` subclass."""

from __future__ import annotations

from typing import Any, Final

import msgspec

__all__ = ["LINE_DECODER", "Line"]


class Line(msgspec.Struct, gc=False):
    """A line's ``type`` and the fields of the kinds read from here, each ``None`` when
    the line has none, as the JSON gives it (no type is checked here).  Decoded JSON
    holds no reference cycle, so the collector need not track these."""

    type: Any = None
    actor: Any = None
    pai: Any = None
    tsumogiri: Any = None
    dora_marker: Any = None
    scores: Any = None


LINE_DECODER: Final = msgspec.json.Decoder(Line)
