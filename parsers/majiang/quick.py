"""The exception of the majiang reader's quick reading, in a module that stays Python:
mypyc compiles no exception class that an ``except`` can tell from its base."""

from __future__ import annotations

__all__ = ["NotQuick"]


class NotQuick(Exception):
    """The quick reading met something it leaves to the full reading (which reads it,
    or words the error)."""
