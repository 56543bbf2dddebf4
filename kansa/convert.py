"""``kansa convert``: read logs in any format, write mjai or tenhou.net/6."""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TextIO

from kansa.parsers import load_bytes
from kansa.parsers.errors import LogError, LogWriteError
from kansa.parsers.registry import WRITABLE, format_named
from kansa.parsers.source import Limits
from kansa.replay.game import Game
from kansa.runner import STDIN, display_name, read_input_bytes

TARGETS: tuple[str, ...] = tuple(f.name for f in WRITABLE)
"""The formats ``--to`` accepts (the writable formats of :mod:`kansa.parsers.registry`)."""


def convert(files: Sequence[str], to: str, out: str | None, limits: Limits,
            err: TextIO | None = None, *, fmt: str | None = None) -> int:
    """Convert every game in ``files`` (``-``: standard input), each read as ``fmt``
    or recognised; returns the number of files that failed.

    ``out`` may be a folder (one file per game), a file (all games; one game for
    tenhou.net/6), or ``None`` for standard output.
    """
    err = err or sys.stderr
    target_format = format_named(to)
    write: Callable[[Game], str] = target_format.write
    suffix = target_format.suffix or ""
    games: list[tuple[str, Game]] = []
    failed = 0
    for f in files:
        try:
            data = read_input_bytes(f, limits)
            games.extend((f, g) for g in load_bytes(data, display_name(f), fmt, limits))
        except LogError as exc:  # unreadable or unsupported: named with its position
            print(f"kansa convert: skipped {exc}", file=err)
            failed += 1
        except Exception as exc:  # a reader bug: this file fails, the others go on
            print(f"kansa convert: INTERNAL ERROR (please report) reading {display_name(f)}: "
                  f"{type(exc).__name__}: {exc}", file=err)
            failed += 1
    texts: list[tuple[str, Game, str]] = []
    for f, g in games:
        try:
            texts.append((f, g, write(g)))
        except LogWriteError as exc:  # e.g. hidden tiles cannot be written as tenhou.net/6
            print(f"kansa convert: {exc}", file=err)
            failed += 1
        except Exception as exc:  # a writer bug: this game fails, the others go on
            print(f"kansa convert: INTERNAL ERROR (please report) writing {display_name(f)} game "
                  f"{g.index} as {to}: {type(exc).__name__}: {exc}", file=err)
            failed += 1
    target = Path(out) if out else None
    if target is not None and (target.is_dir() or out.endswith(("/", "\\"))):  # type: ignore[union-attr]
        target.mkdir(parents=True, exist_ok=True)
        for f, g, text in texts:
            name = "stdin" if f == STDIN else Path(f.split("!")[-1]).name.split(".")[0]
            suffix_index = f"-{g.index}" if g.index else ""
            (target / f"{name}{suffix_index}{suffix}").write_text(_ends(text), encoding="utf-8")
        return failed
    if to == "tenhou6" and target is not None and len(texts) > 1:
        print("kansa convert: several games need a folder for -o with --to tenhou6",
              file=err)
        return failed + len(texts)
    body = "".join(_ends(text) for _, _, text in texts)
    if target is None:
        sys.stdout.write(body)
    else:
        target.write_text(body, encoding="utf-8")
    return failed


def _ends(text: str) -> str:
    return text if text.endswith("\n") else text + "\n"
