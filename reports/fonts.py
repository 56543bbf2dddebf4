"""Fonts for the plots: DejaVu Sans, then installed fonts that have the glyphs it lacks.

Player names and game titles come from the logs (Japanese, Chinese, Korean...).
:func:`families` picks, among the fonts matplotlib knows, the ones whose character
maps cover the text a figure will show, preferring :data:`CJK_FONTS`; when no
installed font has some of its characters, :func:`tell_missing` says once on
standard error which font to install.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from functools import cache
from typing import TextIO

from matplotlib import font_manager
from matplotlib.ft2font import FT2Font

BASE = "DejaVu Sans"
"""Matplotlib's own font: Latin, Greek, Cyrillic and symbols."""
CJK_FONTS = ("Noto Sans CJK JP", "Noto Sans JP", "IPAexGothic", "IPAGothic", "TakaoGothic",
             "Source Han Sans JP", "Yu Gothic", "Hiragino Sans", "MS Gothic")
"""Fonts for Japanese and Chinese names, tried first in this order when installed."""
INSTALL_HINT = "Debian and Ubuntu: apt-get install fonts-noto-cjk"
_PLACEHOLDERS = ("Last Resort",)
"""Fonts whose glyphs are boxes for every character: they cover nothing."""
_TOLD: set[str] = set()
"""The characters already said missing: the line is printed once per process."""
_SCANNED: set[bool] = set()
"""Not empty once the system's fonts were looked for (once per process)."""


def installed() -> dict[str, str]:
    """Family name -> the file of its regular face (or another face), of every font
    matplotlib found."""
    best: dict[str, tuple[int, str]] = {}
    for f in font_manager.fontManager.ttflist:
        weight = f.weight if isinstance(f.weight, int) else 400
        rank = abs(weight - 400) + (0 if f.style == "normal" else 1000)
        if f.name not in best or rank < best[f.name][0]:
            best[f.name] = (rank, f.fname)
    return {name: fname for name, (_, fname) in best.items()}


@cache
def charmap(fname: str) -> frozenset[int]:
    """The code points the font file has glyphs for (its first face); none when it
    cannot be read."""
    try:
        return frozenset(FT2Font(fname).get_charmap())
    except (OSError, RuntimeError, ValueError):
        return frozenset()


def families(text: str) -> tuple[list[str], str]:
    """The font families to draw ``text`` with, and the characters none of them has.

    Matplotlib keeps its list of fonts in a cache made the first time it ran: when
    the fonts it knows lack characters, the system's fonts installed since are
    added to it, and the choice made again.
    """
    chosen, missing = _families(text)
    if missing and _learn_new_system_fonts():
        chosen, missing = _families(text)
    return chosen, missing


def _learn_new_system_fonts() -> bool:
    """Add to matplotlib's font list the system fonts it does not know; whether any."""
    if _SCANNED:
        return False
    _SCANNED.add(True)
    known = {f.fname for f in font_manager.fontManager.ttflist}
    added = False
    for path in font_manager.findSystemFonts():
        if path not in known:
            try:
                font_manager.fontManager.addfont(path)
            except (OSError, RuntimeError, ValueError):
                continue
            added = True
    return added


def _families(text: str) -> tuple[list[str], str]:
    fonts = installed()
    needed = {c for c in text if not c.isspace()}
    chosen = [BASE]
    if BASE in fonts:
        needed -= {c for c in needed if ord(c) in charmap(fonts[BASE])}
    order = [n for n in CJK_FONTS if n in fonts] + sorted(
        n for n in fonts if n not in CJK_FONTS and n != BASE
        and not n.startswith(_PLACEHOLDERS))
    for name in order:
        if not needed:
            break
        covered = {c for c in needed if ord(c) in charmap(fonts[name])}
        if covered:
            chosen.append(name)
            needed -= covered
    return chosen, "".join(sorted(needed))


def tell_missing(missing: str, stream: TextIO | None = None) -> None:
    """Say once per process that ``missing`` characters will be empty boxes."""
    if not missing or _TOLD:
        return
    _TOLD.add(missing)
    shown = missing if len(missing) <= 12 else missing[:12] + "..."
    print(f"kansa: no installed font has the characters {shown} (in player names or "
          "titles): the plots draw them as empty boxes. Install a CJK font such as Noto "
          f"Sans CJK ({INSTALL_HINT}).", file=stream or sys.stderr)


def text_of(values: Iterable[object]) -> str:
    """The characters of every string among ``values``."""
    return "".join({c for v in values if isinstance(v, str) for c in v})
