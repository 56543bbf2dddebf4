"""Why a file (or an archive member, or one game of it) was not audited: one record.

A :class:`FileProblem` is what the runner gives, the batch passes on, the store keeps
and the summary prints.  Its JSON keeps the shape each list of the ``--json`` document
has always had (and the README documents)::

    unreadable       {"file", "error", "position"}
    unsupported      {"file", "reason"}
    internal_errors  {"file", "game", "error", "traceback"}

so :meth:`FileProblem.to_dict` and :meth:`FileProblem.from_dict` turn one into the
other without loss.
"""

from __future__ import annotations

import traceback as tracebacks
from dataclasses import dataclass
from typing import Any, Literal

from kansa.parsers.errors import LogError, LogFormatError

ProblemKind = Literal["unreadable", "unsupported", "internal"]
KINDS: tuple[ProblemKind, ...] = ("unreadable", "unsupported", "internal")
START = "start of file"
"""The position of a problem with the file as a whole."""


@dataclass(frozen=True, slots=True)
class FileProblem:
    """One problem: its kind, the file, what is wrong and where.

    ``unreadable``: kansa cannot read it (``position`` says where); ``unsupported``: a
    file kansa reads but does not audit (no position); ``internal``: kansa failed on it
    (a bug: ``game`` is the game it failed on, ``None`` for the whole file, and
    ``traceback`` the stack, ``None`` where the worker died).
    """

    kind: ProblemKind
    file: str
    """The file as results name it (``archive.zip!member.xml`` for a member)."""
    message: str
    position: str | None = None
    game: int | None = None
    traceback: str | None = None

    @classmethod
    def unreadable(cls, file: str, message: str, position: str = START) -> FileProblem:
        return cls("unreadable", file, message, position)

    @classmethod
    def unsupported(cls, file: str, message: str) -> FileProblem:
        return cls("unsupported", file, message)

    @classmethod
    def of_error(cls, error: LogError) -> FileProblem:
        """The problem a reader's error describes: unreadable, or unsupported for an
        :class:`~kansa.parsers.errors.UnsupportedLogError`, named by its source."""
        if isinstance(error, LogFormatError):
            return cls.unreadable(error.src.file, error.reason, error.position)
        return cls.unsupported(error.src.file, error.reason)

    @classmethod
    def internal(cls, file: str, error: BaseException, doing: str,
                 game: int | None = None) -> FileProblem:
        """A bug met while ``doing`` (``"parsing"``), with its traceback."""
        return cls("internal", file,
                   f"internal error while {doing}: {type(error).__name__}: {error}",
                   game=game, traceback="".join(tracebacks.format_exception(error)))

    @classmethod
    def lost(cls, file: str, why: str) -> FileProblem:
        """The audit of a file whose worker process died (no traceback there)."""
        return cls("internal", file,
                   f"internal error: the audit of this file never finished: {why}")

    @property
    def status(self) -> str:
        """The status the problem gives its file."""
        return "internal_error" if self.kind == "internal" else self.kind

    def to_dict(self) -> dict[str, Any]:
        """The entry of the document's list for this kind (see the module's text)."""
        if self.kind == "unreadable":
            return {"file": self.file, "error": self.message, "position": self.position}
        if self.kind == "unsupported":
            return {"file": self.file, "reason": self.message}
        return {"file": self.file, "game": self.game, "error": self.message,
                "traceback": self.traceback}

    @classmethod
    def from_dict(cls, kind: ProblemKind, d: dict[str, Any]) -> FileProblem:
        """The problem whose :meth:`to_dict` is ``d``.

        :raises ValueError: for a kind that is not one of :data:`KINDS`.
        """
        if kind == "unreadable":
            return cls(kind, d["file"], d["error"], d["position"])
        if kind == "unsupported":
            return cls(kind, d["file"], d["reason"])
        if kind == "internal":
            return cls(kind, d["file"], d["error"], game=d["game"],
                       traceback=d["traceback"])
        raise ValueError(f"not a kind of file problem: {kind!r} (known: {', '.join(KINDS)})")

    def line(self) -> str:
        """The problem as the text summary lists it (without the internal error's
        call to report it)."""
        if self.kind == "unreadable":
            return f"unreadable: {self.file}: {self.message} ({self.position})"
        if self.kind == "unsupported":
            return f"unsupported: {self.file}: {self.message}"
        return f"{self.file}: {self.message}"
