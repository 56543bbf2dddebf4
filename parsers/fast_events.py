"""Fast constructors for events, above all the draws and discards a log is made of.

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

:func:`constructor` applies the same idea to any event class, keeping its keyword
signature: for the rarer, wider events (a ``Hora`` has 17 fields) it builds in
about 40% of the time of the frozen ``__init__``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import MISSING, dataclass, field, fields
from typing import Any, ParamSpec, TypeVar, cast

from replay.events import Dahai, SourceRef, Tsumo
from replay.tiles import Seat, Tile

__all__ = ["constructor", "dahai", "dahai_at", "source_ref", "tsumo", "tsumo_at"]

P = ParamSpec("P")
E = TypeVar("E")


def _draft(cls: type, names: tuple[str, ...], **extra: Any) -> type:
    """A mutable twin of the frozen slotted dataclass ``cls`` (same base, same slots);
    ``extra`` adds to its namespace."""
    if {f.name for f in fields(cls)} != set(names):
        raise RuntimeError(f"{cls.__name__} fields changed; update parsers.fast_events")
    namespace = {
        "__slots__": cls.__dict__["__slots__"],
        "__init__": object.__init__,
        # both, or the base's frozen __setattr__/__delattr__ pair keeps stores slow
        "__setattr__": object.__setattr__,
        "__delattr__": object.__delattr__,
        **extra,
    }
    return type(f"_{cls.__name__}Draft", (cls.__mro__[1],), namespace)


def constructor(cls: Callable[P, E]) -> Callable[P, E]:
    """A stand-in for the frozen slotted dataclass ``cls``: it takes the same arguments
    and returns what ``cls`` returns (an equal ``cls`` instance).

    The dataclass machinery writes the ``__init__`` of a plain (not frozen) copy of
    ``cls``'s fields, with the same parameters and defaults and ordinary ``self.x = x``
    stores; it runs on an instance of the draft twin of ``cls``, whose
    ``__post_init__`` then makes the finished object a ``cls``.
    """
    frozen = cast(type, cls)
    params = getattr(frozen, "__dataclass_params__", None)
    if (params is None or not params.frozen or "__slots__" not in frozen.__dict__
            or hasattr(frozen, "__post_init__")):
        raise TypeError(f"{frozen.__name__}: not a frozen slotted dataclass "
                        "without __post_init__")
    own = fields(frozen)
    if any(f.default_factory is not MISSING or not f.init for f in own):
        raise TypeError(f"{frozen.__name__}: default factories and init=False fields "
                        "are not supported")

    def become(self: Any) -> None:
        self.__class__ = frozen

    namespace: dict[str, Any] = {
        "__qualname__": frozen.__qualname__,  # for the messages of a wrong call
        "__annotations__": {f.name: f.type for f in own},
        **{f.name: field(default=f.default, kw_only=f.kw_only) for f in own},
        "__post_init__": become,  # so that the generated __init__ ends with a call to it
    }
    plain: type = dataclass(type(frozen.__name__, (), namespace))
    draft = _draft(frozen, tuple(f.name for f in own), __init__=plain.__dict__["__init__"],
                   __post_init__=become)
    return cast("Callable[P, E]", draft)


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
