"""Fast constructors for events and source references.

A frozen dataclass ``__init__`` sets each field through ``object.__setattr__``, a
call per field.  Here each object is first built as an instance of a *draft*
class: a twin of the frozen class with the same base and the same ``__slots__``
but ordinary attribute stores, which the interpreter turns into plain slot
writes.  The finished object then becomes an instance of the real class by
``__class__`` assignment, which CPython allows between classes of identical
layout.  The result is an ordinary frozen event, built in about 40% of the time
of the slot-descriptor calls used before (and a third of the dataclass
``__init__``).  (The draws and discards most of a Tenhou log is made of are not
built per tag at all: ``kansa.parsers.tenhou_xml.read`` shares them.)

The field check fails at import if the vocabulary changes, and
``tests/parsers/test_fast_events.py`` compares every result with the ordinary
constructor (equality, hash, repr, immutability, copying, pickling).

:func:`constructor` applies the same idea to any event class, keeping its keyword
signature: for the rarer, wider events (a ``Hora`` has 17 fields) it builds in
about 40% of the time of the frozen ``__init__``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import MISSING, dataclass, field, fields
from typing import Any, ParamSpec, TypeVar, cast

from kansa.replay.events import SourceRef

__all__ = ["constructor", "source_ref"]

P = ParamSpec("P")
E = TypeVar("E")


def _draft(cls: type, names: tuple[str, ...], **extra: Any) -> type:
    """A mutable twin of the frozen slotted dataclass ``cls`` (same base, same slots);
    ``extra`` adds to its namespace."""
    if {f.name for f in fields(cls)} != set(names):
        raise RuntimeError(f"{cls.__name__} fields changed; update kansa.parsers.fast_events")
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


source_ref = _make_source_ref()
"""``SourceRef(file, line, None, pointer)``."""
