"""Result arrays: every spelling of the kind, score texts, yaku texts, several winners, pao."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from tenhou6_helpers import EQUIM, obj, parse_obj

from kansa.parsers.tenhou6.result import parse_score, parse_yaku, result_kind, score_text, yaku_text
from kansa.replay.events import DrawReason, Hora, ReachAccepted, Ryukyoku
from kansa.replay.tiles import Tile
from kansa.replay.yaku import Limit, Yaku

D = DrawReason


@pytest.fixture(autouse=True)
def _need_corpus(corpus_dir: Path) -> None:
    """The snippets start from corpus hands."""


def _with_result(name: str, result: list[Any]) -> Any:
    o = obj(EQUIM / name)
    o["log"][0][16] = result
    return parse_obj(o)


@pytest.mark.parametrize(("spelling", "reason"), [
    ("流局", D.EXHAUSTIVE), ("全員聴牌", D.EXHAUSTIVE), ("全員不聴", D.EXHAUSTIVE),
    ("流し満貫", D.NAGASHI_MANGAN), ("四風連打", D.SUUFON_RENDA), ("四家立直", D.SUUCHA_RIICHI),
    ("四槓散了", D.SUUKAIKAN), ("四開槓", D.SUUKAIKAN), ("三家和了", D.SANCHAHOU),
    ("三家和", D.SANCHAHOU), ("Exhaustive Draw", D.EXHAUSTIVE), ("Ryuukyoku", D.EXHAUSTIVE),
    ("Mangan at Draw", D.NAGASHI_MANGAN), ("Four Kan Abortion", D.SUUKAIKAN),
    ("Three Ron Abortion", D.SANCHAHOU), ("Suucha Riichi", D.SUUCHA_RIICHI),
    ("Four Wind Abortion", D.SUUFON_RENDA),
])
def test_draw_spellings_after_a_discard(spelling: str, reason: DrawReason) -> None:
    game = _with_result("four_reach.json", [spelling])
    draw = next(e for e in game.events if isinstance(e, Ryukyoku))
    assert draw.reason is reason
    assert not game.diagnostics
    # the fourth riichi stick stays on the table unless three players ronned it
    accepted = sum(isinstance(e, ReachAccepted) for e in game.events)
    assert accepted == (3 if reason is D.SANCHAHOU else 4)


@pytest.mark.parametrize("spelling", ["九種九牌", "Kyuushu Kyuuhai", "Nine Terminal Abortion"])
def test_kyuushu_spellings(spelling: str) -> None:
    game = _with_result("kyushukyuhai.json", [spelling])
    draw = next(e for e in game.events if isinstance(e, Ryukyoku))
    assert (draw.reason, draw.actor, draw.deltas) == (D.KYUUSHU_KYUUHAI, 0, (0, 0, 0, 0))


def test_tenpai_claims() -> None:
    def draw(result: list[Any]) -> Ryukyoku:
        game = _with_result("four_reach.json", result)
        return next(e for e in game.events if isinstance(e, Ryukyoku))

    assert draw(["全員聴牌"]).tenpai == (True,) * 4
    assert draw(["全員聴牌"]).deltas == (0,) * 4
    assert draw(["全員不聴"]).tenpai == (False,) * 4
    assert draw(["流局", [3000, -1000, -1000, -1000]]).tenpai == (True, False, False, False)
    assert draw(["流局", [0, 0, 0, 0]]).tenpai is None  # all tenpai or all noten: cannot tell
    assert draw(["流局"]).tenpai is None and draw(["流局"]).deltas is None
    nagashi = draw(["流し満貫", [-4000, 12000, -4000, -4000]])
    assert nagashi.deltas == (-4000, 12000, -4000, -4000) and nagashi.tenpai is None


def test_result_kind_unknown() -> None:
    assert result_kind("和了") == "和了" and result_kind("Agari") == "和了"
    assert result_kind("something else") is None


@pytest.mark.parametrize(("text", "expected"), [
    ("30符2飜2000点", (30, 2, 2000, Limit.NONE)),
    ("満貫8000点", (None, None, 8000, Limit.MANGAN)),
    ("30符3飜1000-2000点", (30, 3, 4000, Limit.NONE)),
    ("30符1飜300-500点", (30, 1, 1100, Limit.NONE)),
    ("4000点∀", (None, None, 12000, Limit.NONE)),
    ("30符4飜3900点∀", (30, 4, 11700, Limit.NONE)),
    ("満貫2000-4000点", (None, None, 8000, Limit.MANGAN)),
    ("跳満12000点", (None, None, 12000, Limit.HANEMAN)),
    ("跳満18000点", (None, None, 18000, Limit.HANEMAN)),
    ("倍満4000-8000点", (None, None, 16000, Limit.BAIMAN)),
    ("三倍満24000点", (None, None, 24000, Limit.SANBAIMAN)),
    ("役満32000点", (None, None, 32000, Limit.YAKUMAN)),
    ("役満16000点∀", (None, None, 48000, Limit.YAKUMAN)),
    ("役満64000点", (None, None, 64000, Limit.YAKUMAN)),
    ("数え役満32000点", (None, None, 32000, Limit.YAKUMAN)),
    ("切り上げ満貫8000点", (None, None, 8000, Limit.MANGAN)),
    ("30符4飜満貫8000点", (30, 4, 8000, Limit.MANGAN)),
    ("Mangan 8000点", (None, None, 8000, Limit.MANGAN)),
    ("Counted Yakuman 32000点", (None, None, 32000, Limit.YAKUMAN)),
    ("40Fu2Han2600点", (40, 2, 2600, Limit.NONE)),
    ("３０符２飜２０００点", (30, 2, 2000, Limit.NONE)),
])
def test_score_texts(text: str, expected: tuple[Any, ...]) -> None:
    s = parse_score(text)
    assert s is not None
    assert (s.fu, s.han, s.points, s.limit) == expected
    assert s.kazoe == ("数え" in text or "Counted" in text)


def test_unreadable_score_text() -> None:
    assert parse_score("hello") is None
    s = parse_score("点")
    assert s is not None and (s.fu, s.han, s.points, s.limit) == (None, None, None, None)


@pytest.mark.parametrize(("text", "expected"), [
    ("立直(1飜)", (Yaku.RIICHI, 1)), ("役牌 中(1飜)", (Yaku.CHUN, 1)),
    ("役牌 白(1飜)", (Yaku.HAKU, 1)), ("役牌 發(1飜)", (Yaku.HATSU, 1)),
    ("場風 東(1飜)", (Yaku.ROUND_EAST, 1)), ("自風 南(1飜)", (Yaku.SEAT_SOUTH, 1)),
    ("ドラ(3飜)", (Yaku.DORA, 3)), ("赤ドラ(2飜)", (Yaku.AKA_DORA, 2)),
    ("裏ドラ(0飜)", (Yaku.URA_DORA, 0)), ("大三元(役満)", (Yaku.DAISANGEN, 13)),
    ("四槓子(役満)", (Yaku.SUUKANTSU, 13)), ("国士無双１３面(役満)", (Yaku.KOKUSHI_13, 13)),
    ("両立直(2飜)", (Yaku.DOUBLE_RIICHI, 2)), ("ダブル立直(2飜)", (Yaku.DOUBLE_RIICHI, 2)),
    ("門前清自摸和(1飜)", (Yaku.MENZEN_TSUMO, 1)), ("混全帯幺九(2飜)", (Yaku.CHANTA, 2)),
    ("抜きドラ(2飜)", (Yaku.NUKIDORA, 2)), ("四暗刻単騎(ダブル役満)", (Yaku.SUUANKOU_TANKI, 26)),
    ("Riichi(1飜)", (Yaku.RIICHI, 1)), ("Ura Dora(0飜)", (Yaku.URA_DORA, 0)),
    ("Dora(1飜)", (Yaku.DORA, 1)), ("Red Five(1飜)", (Yaku.AKA_DORA, 1)),
    ("Fully Concealed Hand(1飜)", (Yaku.MENZEN_TSUMO, 1)), ("All Simples(1飜)", (Yaku.TANYAO, 1)),
    ("Seat Wind (South)(1飜)", (Yaku.SEAT_SOUTH, 1)), ("Seat Wind(1飜)", (Yaku.SEAT_WEST, 1)),
    ("Prevalent Wind(1飜)", (Yaku.ROUND_EAST, 1)), ("White Dragon(1飜)", (Yaku.HAKU, 1)),
    ("Big Three Dragons(役満)", (Yaku.DAISANGEN, 13)),
])
def test_yaku_texts(text: str, expected: tuple[Yaku, int]) -> None:
    # the winner sits West in an East round
    assert parse_yaku(text, Tile.WEST, Tile.EAST) == expected


def test_yaku_texts_written_back() -> None:
    for yaku in Yaku:
        han = 13 if yaku.is_yakuman else 2
        if yaku is Yaku.KAZOE_YAKUMAN:
            continue
        assert parse_yaku(yaku_text(yaku, han), Tile.EAST, Tile.EAST) == (yaku, han)


@pytest.mark.parametrize(("points", "tsumo", "dealer", "text"), [
    (2000, False, False, "30符2飜2000点"), (4000, True, False, "30符2飜1000-2000点"),
    (1100, True, False, "30符2飜300-500点"), (2400, True, False, "30符2飜600-1200点"),
    (11700, True, True, "30符2飜3900点∀"),
])
def test_score_text_round_trip(points: int, tsumo: bool, dealer: bool, text: str) -> None:
    out = score_text(fu=30, han=2, points=points, limit=Limit.NONE, kazoe=False, tsumo=tsumo,
                     dealer=dealer)
    assert out == text
    back = parse_score(out)
    assert back is not None and back.points == points


def test_unknown_yaku_is_a_diagnostic() -> None:
    game = _with_result("confusing_nakis_1.json", [
        "和了", [1600, 0, -1600, 0], [0, 2, 0, "30符1飜1000点", "謎の役(1飜)"]])
    hora = next(e for e in game.events if isinstance(e, Hora))
    assert hora.yaku is None and hora.points == 1000
    assert any("謎の役" in d.message for d in game.diagnostics)


def test_pao_and_several_winners() -> None:
    game = _with_result("confusing_nakis_1.json", [
        "和了", [33000, 0, -32000, 0], [0, 2, 1, "役満32000点", "大三元(役満)"],
        [0, 0, -8000, 8000], [3, 2, 3, "満貫8000点", "役牌 中(1飜)", "ドラ(4飜)"]])
    h1, h2 = (e for e in game.events if isinstance(e, Hora))
    assert (h1.actor, h1.target, h1.pao, h1.han) == (0, 2, 1, 13)
    assert (h2.actor, h2.target, h2.pao, h2.han, h2.limit) == (3, 2, None, 5, Limit.MANGAN)
    assert h1.tile is h2.tile is not None


def test_result_that_does_not_match_the_hand_is_kept_with_a_diagnostic() -> None:
    # confusing_nakis_1 ends on seat 2's discard; a tsumo claim cannot be placed there
    game = _with_result("confusing_nakis_1.json", [
        "和了", [4000, -2000, -1000, -1000], [0, 0, 0, "30符3飜1000-2000点", "立直(1飜)"]])
    hora = next(e for e in game.events if isinstance(e, Hora))
    assert hora.is_tsumo and hora.tile is None
    assert any("does not match" in d.message for d in game.diagnostics)
