"""Plots pick a font that has the glyphs of the players' names, or say once which to
install.  The installed fonts are mocked, so that the tests do not depend on the machine."""

from __future__ import annotations

import dataclasses
import warnings

import pytest
from matplotlib import font_manager
from report_games import sample_results

from kansa.reports import fonts
from kansa.reports.plots import render_all
from kansa.reports.stats import build
from kansa.reports.tables import Tables

JAPANESE = ("山田太郎", "Botan", "鈴木", "Dai")
DEJAVU = fonts.installed()["DejaVu Sans"]
LAST_RESORT = next((f.fname for f in font_manager.fontManager.ttflist
                    if f.name.startswith("Last Resort")), None)


def japanese_tables() -> Tables:
    one, two = sample_results()
    return build([dataclasses.replace(one, names=JAPANESE),
                  dataclasses.replace(two, names=JAPANESE)])


@pytest.fixture(autouse=True)
def fresh(monkeypatch: pytest.MonkeyPatch) -> None:
    """Nothing said yet, and the system's fonts not looked for."""
    monkeypatch.setattr(fonts, "_TOLD", set())
    monkeypatch.setattr(fonts, "_SCANNED", set())
    monkeypatch.setattr(font_manager, "findSystemFonts", list)


def only(monkeypatch: pytest.MonkeyPatch, installed: dict[str, str],
         glyphs: dict[str, str]) -> None:
    """Pretend these fonts are installed; a fake file has exactly ``glyphs[file]``."""
    monkeypatch.setattr(fonts, "installed", lambda: installed)
    real = fonts.charmap

    def charmap(fname: str) -> frozenset[int]:
        return frozenset(map(ord, glyphs[fname])) if fname in glyphs else real(fname)

    monkeypatch.setattr(fonts, "charmap", charmap)


def test_a_font_with_the_glyphs_is_chosen(monkeypatch: pytest.MonkeyPatch) -> None:
    only(monkeypatch, {"DejaVu Sans": DEJAVU, "Some Latin": "latin.ttf",
                       "Kana Only": "kana.ttf", "Noto Sans CJK JP": "cjk.ttf"},
         {"latin.ttf": "abc", "kana.ttf": "あい", "cjk.ttf": "山田太郎鈴木"})
    assert fonts.families("山田太郎 Botan") == (["DejaVu Sans", "Noto Sans CJK JP"], "")
    assert fonts.families("Botan Dai") == (["DejaVu Sans"], "")
    # a second font for the characters the first one lacks
    assert fonts.families("山田あい") == (["DejaVu Sans", "Noto Sans CJK JP", "Kana Only"], "")
    assert fonts.families("山田語") == (["DejaVu Sans", "Noto Sans CJK JP"], "語")


def test_no_font_with_the_glyphs_is_said_once(monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    installed = {"DejaVu Sans": DEJAVU, "Some Latin": "latin.ttf"}
    if LAST_RESORT is not None:  # its boxes cover every character: it does not count
        installed["Last Resort High-Efficiency"] = LAST_RESORT
    only(monkeypatch, installed, {"latin.ttf": "abc"})
    tables = japanese_tables()
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        first = render_all(tables, "png")
        render_all(tables, "svg")
    assert [w for w in seen if "Glyph" in str(w.message)] == []  # not one per glyph
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("kansa: ")
    assert "fonts-noto-cjk" in err and "山" in err and "鈴" in err
    assert first["placement_distribution"].startswith(b"\x89PNG")


def test_nothing_is_said_when_a_font_has_the_glyphs(monkeypatch: pytest.MonkeyPatch,
                                                    capsys: pytest.CaptureFixture[str]
                                                    ) -> None:
    only(monkeypatch, {"DejaVu Sans": DEJAVU, "Noto Sans CJK JP": DEJAVU},
         {DEJAVU: "".join(chr(c) for c in fonts.charmap(DEJAVU)) + "山田太郎鈴木"})
    render_all(japanese_tables(), "svg")
    assert capsys.readouterr().err == ""


def test_fonts_installed_after_matplotlib_made_its_cache_are_found(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    known = {"DejaVu Sans": DEJAVU}
    monkeypatch.setattr(fonts, "installed", lambda: dict(known))
    monkeypatch.setattr(font_manager, "findSystemFonts", lambda: [DEJAVU, "/new/cjk.ttc"])
    monkeypatch.setattr(font_manager.fontManager, "addfont",
                        lambda path: known.setdefault("Noto Sans CJK JP", path))
    real = fonts.charmap
    monkeypatch.setattr(fonts, "charmap", lambda fname: frozenset(map(ord, "山田"))
                        if fname == "/new/cjk.ttc" else real(fname))
    assert fonts.families("山田 Dai") == (["DejaVu Sans", "Noto Sans CJK JP"], "")
    assert known["Noto Sans CJK JP"] == "/new/cjk.ttc"
    assert fonts.families("鈴木") == (["DejaVu Sans"], "木鈴")  # looked for once only


def test_latin_names_need_no_other_font(capsys: pytest.CaptureFixture[str]) -> None:
    assert fonts.families("Aki Botan Dai 123 (seat 2)") == (["DejaVu Sans"], "")
    render_all(build(sample_results()), "svg")
    assert capsys.readouterr().err == ""


def test_real_cjk_font_covers_the_names_when_installed(monkeypatch: pytest.MonkeyPatch
                                                      ) -> None:
    monkeypatch.undo()  # the machine's own fonts
    chosen, missing = fonts.families("山田太郎 鈴木")
    have = [n for n in fonts.CJK_FONTS if n in fonts.installed()]
    if not have:
        pytest.skip(f"no CJK font installed ({fonts.INSTALL_HINT})")
    assert missing == "" and chosen[1] in have

