"""Which files a batch reads: the files, folders and globs given, expanded in order.

:func:`iter_files` yields every file under the arguments once, in the order of
``sorted()`` over their path strings, without holding the list: each folder is
listed and sorted on its own, and a subfolder ``a`` sorts as ``a/`` (``a\\`` on
Windows) among its siblings, which is where its files' paths fall
(``a-b`` < ``a/x`` < ``a0``).
Memory is one listing per folder level, not one string per file (about 160 bytes a
file in a list; 480 MB for three million).  Folders are followed through symbolic
links, never into a loop; names starting with a dot are skipped; anything else (a
broken link, a pipe) is yielded, and reading it later says why it is refused.
"""

from __future__ import annotations

import glob
import heapq
import os
from collections.abc import Iterable, Iterator
from pathlib import Path

__all__ = ["discover", "iter_files", "missing_paths"]


def discover(paths: Iterable[str]) -> tuple[list[str], list[str]]:
    """``(files, missing)``: the files of :func:`iter_files` as a list, and the
    arguments that match nothing."""
    paths = list(paths)
    return list(iter_files(paths)), missing_paths(paths)


def missing_paths(paths: Iterable[str]) -> list[str]:
    """The arguments that are neither an existing path nor a glob matching one."""
    return [arg for arg in paths
            if not os.path.exists(arg) and not glob.glob(arg, recursive=True)]


def iter_files(paths: Iterable[str]) -> Iterator[str]:
    """Every file under ``paths`` once, in sorted order, listed as it is reached."""
    streams: list[Iterator[str]] = []
    for arg in paths:
        matches = [arg] if os.path.exists(arg) else sorted(glob.glob(arg, recursive=True))
        streams.extend(_expand(Path(m)) for m in matches)
    previous = None
    for path in heapq.merge(*streams):
        if path != previous:
            yield path
            previous = path


def _expand(path: Path) -> Iterator[str]:
    if path.is_dir():
        yield from _walk(str(path), path)
    else:  # not only regular files: reading tells why a pipe or device is refused
        yield str(path)


def _walk(folder: str, top: Path) -> Iterator[str]:
    """The files under ``folder`` in sorted order, as ``os.walk(top,
    followlinks=True)`` finds them (its errors ignored, as it ignores them)."""
    if _is_loop(Path(folder), top):
        return
    try:
        with os.scandir(folder) as listing:
            entries = [(e.name, e.path, _is_dir(e)) for e in listing
                       if not e.name.startswith(".")]
    except OSError:
        return
    entries.sort(key=lambda e: e[0] + os.sep if e[2] else e[0])
    for _, path, is_dir in entries:
        if is_dir:
            yield from _walk(path, top)
        else:
            yield path


def _is_dir(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_dir()  # follows symbolic links, as os.walk does
    except OSError:
        return False


def _is_loop(path: Path, top: Path) -> bool:
    """True when ``path`` resolves to one of its own ancestors (a symlink loop)."""
    real = os.path.realpath(path)
    parent = path.parent
    while len(parent.parts) >= len(top.parts) and parent != path:
        if os.path.realpath(parent) == real:
            return True
        if parent == top:
            break
        path, parent = parent, parent.parent
    return False
