"""Fast constructors for the events a log is mostly made of (draws and discards).

A frozen dataclass ``__init__`` sets each field through ``object.__setattr__``, a
call per field.  Here each object is first built as an instance of a *draft*
class: a twin of the frozen class with the same base and the same ``__slots__``
but ordinary attribute stores, which the interpreter turns into plain slot
writes.  The finished object then becomes an instance of the real class by
``__class__`` assignment, which CPython allows between classes of identical
layout.  The result is an ordinary frozen event, built in about 40% of the time
of the slot-descriptor calls used before (and a third of the dataclass
``__init__``), which matters at ~1,000 events per game.

The field check fails at import if the vocabulary changes, and
``tests/test_fast_events.py`` compares every result with the ordinary
constructor (equality, hash, repr, immutability, copying, pickling).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields
from typing import Any

from replay.events import Dahai, SourceRef, Tsumo
from replay.tiles import Seat, Tile

__all__ = ["dahai", "dahai_at", "source_ref", "tsumo", "tsumo_at"]


def _draft(cls: type, names: tuple[str, ...]) -> type:
    """A mutable twin of the frozen slotted dataclass ``cls`` (same base, same slots)."""
    if {f.name for f in fields(cls)} != set(names):
        raise RuntimeError(f"{cls.__name__} fields changed; update parsers.fast_events")
    namespace = {
        "__slots__": cls.__dict__["__slots__"],
        "__init__": object.__init__,
        # both, or the base's frozen __setattr__/__delattr__ pair keeps stores slow
        "__setattr__": object.__setattr__,
        "__delattr__": object.__delattr__,
    }
    return type(f"_{cls.__name__}Draft", (cls.__mro__[1],), namespace)


def _make_source_ref() -> Callable[[str, Any, str], SourceRef]:
    draft = _draft(SourceRef, ("file", "line", "column", "pointer"))

    def source_ref(file: str, line: Any, pointer: str) -> SourceRef:
        """``line`` is lxml's ``sourceline`` (``int | None``; the stubs type it loosely)."""
        ref = draft()
        ref.file = file
        ref.line = line
        ref.column = None
        ref.pointer = pointer
        ref.__class__ = SourceRef
        return ref  # type: ignore[no-any-return]
    return source_ref


def _make_tsumo() -> Callable[[Seat, Tile, SourceRef], Tsumo]:
    draft = _draft(Tsumo, ("actor", "tile", "src", "time"))

    def tsumo(actor: Seat, tile: Tile, src: SourceRef) -> Tsumo:
        ev = draft()
        ev.actor = actor
        ev.tile = tile
        ev.src = src
        ev.time = None
        ev.__class__ = Tsumo
        return ev  # type: ignore[no-any-return]
    return tsumo


def _make_dahai() -> Callable[[Seat, Tile, bool, SourceRef], Dahai]:
    draft = _draft(Dahai, ("actor", "tile", "tsumogiri", "src", "time"))

    def dahai(actor: Seat, tile: Tile, tsumogiri: bool, src: SourceRef) -> Dahai:
        ev = draft()
        ev.actor = actor
        ev.tile = tile
        ev.tsumogiri = tsumogiri
        ev.src = src
        ev.time = None
        ev.__class__ = Dahai
        return ev  # type: ignore[no-any-return]
    return dahai


def _make_at() -> tuple[Callable[[Seat, Tile, str, Any, str], Tsumo],
                        Callable[[Seat, Tile, bool, str, Any, str], Dahai]]:
    """``tsumo``/``dahai`` that build their source ref too: one call per event instead
    of two, for the Tenhou reader's loop over draw and discard tags."""
    ref_draft = _draft(SourceRef, ("file", "line", "column", "pointer"))
    tsumo_draft = _draft(Tsumo, ("actor", "tile", "src", "time"))
    dahai_draft = _draft(Dahai, ("actor", "tile", "tsumogiri", "src", "time"))

    def tsumo_at(actor: Seat, tile: Tile, file: str, line: Any, pointer: str) -> Tsumo:
        ref = ref_draft()
        ref.file = file
        ref.line = line
        ref.column = None
        ref.pointer = pointer
        ref.__class__ = SourceRef
        ev = tsumo_draft()
        ev.actor = actor
        ev.tile = tile
        ev.src = ref
        ev.time = None
        ev.__class__ = Tsumo
        return ev  # type: ignore[no-any-return]

    def dahai_at(  # noqa: PLR0917  (positional: one call per discard in the reader loop)
            actor: Seat, tile: Tile, tsumogiri: bool, file: str, line: Any,
            pointer: str) -> Dahai:
        ref = ref_draft()
        ref.file = file
        ref.line = line
        ref.column = None
        ref.pointer = pointer
        ref.__class__ = SourceRef
        ev = dahai_draft()
        ev.actor = actor
        ev.tile = tile
        ev.tsumogiri = tsumogiri
        ev.src = ref
        ev.time = None
        ev.__class__ = Dahai
        return ev  # type: ignore[no-any-return]
    return tsumo_at, dahai_at


source_ref = _make_source_ref()
"""``SourceRef(file, line, None, pointer)``."""
tsumo = _make_tsumo()
"""``Tsumo(actor=, tile=, src=)``."""
dahai = _make_dahai()
"""``Dahai(actor=, tile=, tsumogiri=, src=)``."""
tsumo_at, dahai_at = _make_at()
"""``Tsumo(actor=, tile=, src=SourceRef(file, line, None, pointer))`` and the same for
``Dahai`` (with ``tsumogiri=``)."""
