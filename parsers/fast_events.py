"""Fast constructors for the events a log is mostly made of (draws and discards).

A frozen dataclass ``__init__`` sets each field through ``object.__setattr__``;
setting the slots directly builds an identical object in about half the time,
which matters at ~1,000 events per game.  The field check fails at import if the
vocabulary changes, and ``tests/test_fast_events.py`` compares every result with
the ordinary constructor (equality, hash, repr, immutability).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields
from typing import Any

from replay.events import Dahai, SourceRef, Tsumo
from replay.tiles import Seat, Tile

__all__ = ["dahai", "source_ref", "tsumo"]


def _slot_setters(cls: type, names: tuple[str, ...]) -> tuple[Callable[[Any, Any], None], ...]:
    if {f.name for f in fields(cls)} != set(names):
        raise RuntimeError(f"{cls.__name__} fields changed; update parsers.fast_events")
    setters = []
    for name in names:
        slot = next(k.__dict__[name] for k in cls.__mro__ if name in k.__dict__)
        setters.append(slot.__set__)
    return tuple(setters)


def _make_source_ref() -> Callable[[str, Any, str], SourceRef]:
    new = object.__new__
    s_file, s_line, s_col, s_ptr = _slot_setters(SourceRef, ("file", "line", "column", "pointer"))

    def source_ref(file: str, line: Any, pointer: str) -> SourceRef:
        """``line`` is lxml's ``sourceline`` (``int | None``; the stubs type it loosely)."""
        ref: SourceRef = new(SourceRef)
        s_file(ref, file)
        s_line(ref, line)
        s_col(ref, None)
        s_ptr(ref, pointer)
        return ref
    return source_ref


def _make_tsumo() -> Callable[[Seat, Tile, SourceRef], Tsumo]:
    new = object.__new__
    s_actor, s_tile, s_src, s_time = _slot_setters(Tsumo, ("actor", "tile", "src", "time"))

    def tsumo(actor: Seat, tile: Tile, src: SourceRef) -> Tsumo:
        ev: Tsumo = new(Tsumo)
        s_actor(ev, actor)
        s_tile(ev, tile)
        s_src(ev, src)
        s_time(ev, None)
        return ev
    return tsumo


def _make_dahai() -> Callable[[Seat, Tile, bool, SourceRef], Dahai]:
    new = object.__new__
    s_actor, s_tile, s_giri, s_src, s_time = _slot_setters(
        Dahai, ("actor", "tile", "tsumogiri", "src", "time"))

    def dahai(actor: Seat, tile: Tile, tsumogiri: bool, src: SourceRef) -> Dahai:
        ev: Dahai = new(Dahai)
        s_actor(ev, actor)
        s_tile(ev, tile)
        s_giri(ev, tsumogiri)
        s_src(ev, src)
        s_time(ev, None)
        return ev
    return dahai


source_ref = _make_source_ref()
"""``SourceRef(file, line, None, pointer)``."""
tsumo = _make_tsumo()
"""``Tsumo(actor=, tile=, src=)``."""
dahai = _make_dahai()
"""``Dahai(actor=, tile=, tsumogiri=, src=)``."""
