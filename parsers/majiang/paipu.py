"""The shape msgspec decodes a majiang paipu into for the reader's quick reading: the
top-level fields kept as their JSON text, and each ``log`` entry as its text, which
names the entry exactly (a draw or discard met before is the same event again).  A
module of its own that stays Python: mypyc compiles no ``msgspec.Struct`` subclass and
no exception class."""

from __future__ import annotations

from typing import Final

import msgspec

__all__ = ["ABSENT", "PAIPU_DECODER", "NotQuick", "Paipu"]

ABSENT: Final = msgspec.Raw(b"")
"""A top-level field the paipu does not have."""


class Paipu(msgspec.Struct, forbid_unknown_fields=True, gc=False):
    """Every top-level field kobalab writes.  A field of any other name makes the quick
    reading give way to the full one: msgspec would skip it without its depth counted."""

    log: list[list[msgspec.Raw]]
    title: msgspec.Raw = ABSENT
    player: msgspec.Raw = ABSENT
    qijia: msgspec.Raw = ABSENT
    defen: msgspec.Raw = ABSENT
    rank: msgspec.Raw = ABSENT
    point: msgspec.Raw = ABSENT


PAIPU_DECODER: Final = msgspec.json.Decoder(Paipu)


class NotQuick(Exception):
    """The quick reading met something it leaves to the full reading (which reads it,
    or words the error)."""
