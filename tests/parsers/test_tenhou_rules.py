"""What a Tenhou header says of its rules (parsers/tenhou_xml/rules.py), on real games and
on real games whose ``GO`` tag a test rewrites: every decoded bit and csrule field
changes the rule set ``--rules auto`` picks, and a rule kansa cannot tell, or a header
the play contradicts, is one warning for the game, never errors."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from kansa.parsers import load_bytes
from kansa.parsers.source import read_log_bytes
from kansa.parsers.tenhou_xml.rules import (
    CHIP_UMA,
    CHIPS,
    FAST,
    FIVE_CHIPS,
    HANCHAN,
    JANSOU,
    KOU,
    NO_AKA,
    NO_KUITAN,
    OLD_EAST_UMA,
    SHADOW,
    decode_go,
)
from kansa.replay.rules import RuleSet
from kansa.runner import AuditOptions, audit_bytes, rules_for

DNOV = "tenhou_xml/dnovikoff__tenhou"
RULE_DEPENDENT = ("flow.", "score.")


def _log(corpus: Path, name: str) -> bytes:
    path = corpus / DNOV / name
    if not path.is_file():
        pytest.skip(f"{path} is not in the corpus")
    return read_log_bytes(path)


def _east_only_log(corpus: Path) -> bytes:
    """A 2022 East-only game (GO type 1, lobby 0) that ends after E4."""
    found = sorted((corpus / "tenhou_xml").rglob("2022060222gm-0001-0000-a87679bc*"))
    if not found:
        pytest.skip("the 2022 East-only game is not in the corpus")
    return read_log_bytes(found[0])


def _go(data: bytes) -> str:
    found = re.search(rb"<GO [^>]*>", data)
    assert found is not None
    return found.group(0).decode()


def _with_go(data: bytes, tag: str) -> bytes:
    """``data`` with its GO tag replaced by ``tag``."""
    return data.replace(_go(data).encode(), tag.encode(), 1)


def _go_type(data: bytes) -> int:
    found = re.search(r'type="(\d+)"', _go(data))
    assert found is not None
    return int(found.group(1))


def _audit(data: bytes, name: str = "built.xml") -> list[dict[str, Any]]:
    out = audit_bytes(data, name, AuditOptions())
    assert out.status in ("clean", "findings"), out.error
    (game,) = out.games
    violations: list[dict[str, Any]] = game["violations"]
    return violations


def _errors(violations: list[dict[str, Any]]) -> list[str]:
    return [f"{v['rule']}: {v['message']}" for v in violations if v["severity"] == "error"]


def _auto(data: bytes) -> RuleSet:
    """The rule set ``--rules auto`` audits the log under."""
    (game,) = load_bytes(data, "built.xml")
    return rules_for(game, "auto")


def _header(data: bytes) -> RuleSet:
    """The rule set the log's header alone points to."""
    (game,) = load_bytes(data, "built.xml")
    return RuleSet.auto(game.hints)


# -- every decoded bit, from a real header ------------------------------------------


def test_plain_houou_header_decodes_to_tenhou_rules(corpus_dir: Path) -> None:
    data = _log(corpus_dir, "example.xml")
    rules = _auto(data)
    assert rules == RuleSet.preset("tenhou")
    assert decode_go(_go_type(data), lobby="0").unknown == ()


@pytest.mark.parametrize(("bit", "field", "value"), [
    (NO_AKA, "aka", False), (NO_KUITAN, "kuitan", False), (HANCHAN, "hanchan", False)])
def test_each_rule_bit_sets_its_rule(corpus_dir: Path, bit: int, field: str,
                                     value: bool) -> None:
    data = _log(corpus_dir, "example.xml")  # type 41: 特南喰赤
    flipped = _go_type(data) ^ bit
    rules = _header(_with_go(data, f'<GO type="{flipped}" lobby="0"/>'))
    assert getattr(rules, field) is value
    assert getattr(RuleSet.preset("tenhou"), field) is not value
    assert rules.unknown == ()


@pytest.mark.parametrize("bit", [FAST, SHADOW, KOU])
def test_display_and_speed_bits_change_no_rule(corpus_dir: Path, bit: int) -> None:
    data = _log(corpus_dir, "example.xml")
    built = _with_go(data, f'<GO type="{_go_type(data) | bit}" lobby="0"/>')
    assert _auto(built) == _auto(data)
    assert _errors(_audit(built)) == []


def test_level_bits_name_the_room() -> None:
    assert [decode_go(1 | 0x08 | level).room for level in (0, 0x80, 0x20, 0xA0)] == \
        ["般南喰赤", "上南喰赤", "特南喰赤", "鳳南喰赤"]
    assert [decode_go(level, lobby="0").level for level in (0, 0x80, 0x20, 0xA0)] == \
        [0, 1, 2, 3]


def test_an_unnamed_bit_is_unknown_and_never_an_error(corpus_dir: Path) -> None:
    data = _log(corpus_dir, "example.xml")
    built = _with_go(data, f'<GO type="{_go_type(data) | 0x4000}" lobby="0"/>')
    rules = _auto(built)
    assert any("0x4000" in u.what for u in rules.unknown)
    assert _errors(_audit(built)) == []


# -- chip lobbies -------------------------------------------------------------------


def test_chip_bits_set_kiriage_and_the_chip_uma(corpus_dir: Path) -> None:
    data = _log(corpus_dir, "example.xml")
    for bits, chips in ((CHIPS, 2), (CHIPS | FIVE_CHIPS, 5)):
        built = _with_go(data, f'<GO type="{_go_type(data) | bits}" lobby="0"/>')
        rules = _auto(built)
        assert rules.kiriage and rules.uma == CHIP_UMA
        assert any(f"{chips} a prize" in u.what for u in rules.unknown)
        assert decode_go(_go_type(data) | bits, lobby="0").chips == chips


def test_real_chip_games_are_judged_by_their_lobby(corpus_dir: Path) -> None:
    """chip.xml_ (a dealer's 4 han 30 fu tsumo paid 4,000 all) and ratio1.xml_ (a
    honba paid 1,500 in a five-chip lobby): no errors, one warning each at most, and
    the final points agree with the chip lobbies' uma."""
    for name in ("chip.xml_", "ratio1.xml_"):
        found = _audit(_log(corpus_dir, name), name)
        assert _errors(found) == []
        assumed = [v for v in found if v["rule"] == "log.assumption"]
        assert len(assumed) <= 1
        assert all("score.final" not in v["message"] for v in assumed)
    assumed = [v for v in _audit(_log(corpus_dir, "ratio1.xml_")) if
               v["rule"] == "log.assumption"]
    assert len(assumed) == 1 and "-9500" in assumed[0]["message"]


def test_chip_rules_are_what_move_the_chip_game(corpus_dir: Path) -> None:
    """The same chip game audited without the chip bit: the values and the final
    points are errors again (12000 against 11700)."""
    data = _log(corpus_dir, "chip.xml_")
    plain = _with_go(data, f'<GO type="{_go_type(data) & ~CHIPS}" lobby="0"/>')
    errors = _errors(_audit(plain))
    assert any(e.startswith("score.value") and "11700" in e for e in errors)
    assert any(e.startswith("score.final") for e in errors)


# -- jansou lobbies and old logs ----------------------------------------------------


def test_jansou_game_gets_one_warning_for_its_points(corpus_dir: Path) -> None:
    data = _log(corpus_dir, "ratio.xml")
    assert _go_type(data) & JANSOU
    found = _audit(data, "ratio.xml")
    assert _errors(found) == []
    (assumed,) = [v for v in found if v["rule"] == "log.assumption"]
    assert "jansou" in assumed["message"] and "[-1.3, 1.3, 0.0, 0.0]" in assumed["message"]


def test_old_log_without_lobby_has_the_old_east_uma(corpus_dir: Path) -> None:
    for name in ("bye.xml", "shuffle.xml"):  # 2009 East-only games: uma 10/5
        data = _log(corpus_dir, name)
        assert "lobby" not in _go(data)
        assert _auto(data).uma == OLD_EAST_UMA
        found = _audit(data, name)
        assert _errors(found) == []
        assert not [v for v in found if v["rule"].startswith(RULE_DEPENDENT)]
    # the same header with a lobby attribute is a later game: Tenhou's uma
    later = _with_go(_log(corpus_dir, "bye.xml"), '<GO type="161" lobby="0"/>')
    assert _auto(later).uma == RuleSet.preset("tenhou").uma
    assert any(e.startswith("score.final") for e in _errors(_audit(later)))


def test_old_log_playing_on_after_dealer_tenpai_is_one_warning(corpus_dir: Path) -> None:
    """bug1.xml (2009) plays S4-2 after the all-last dealer's tenpai as top, which the
    2022 games never do: the old rule is not known, so one warning."""
    data = _log(corpus_dir, "bug1.xml")
    found = _audit(data, "bug1.xml")
    assert _errors(found) == []
    (assumed,) = [v for v in found if v["rule"] == "log.assumption"]
    assert "flow.end" in assumed["message"] and "37400" in assumed["message"]
    later = _errors(_audit(_with_go(data, '<GO type="169" lobby="0"/>')))
    assert [e.split(":")[0] for e in later] == ["flow.end"]


# -- the game length the play contradicts -------------------------------------------


def test_hanchan_played_under_an_east_only_header_is_one_finding(corpus_dir: Path) -> None:
    data = _log(corpus_dir, "example.xml")  # East-South, plays S1..S4
    built = _with_go(data, f'<GO type="{_go_type(data) & ~HANCHAN}" lobby="0"/>')
    found = _audit(built)
    assert _errors(found) == []
    (length,) = [v for v in found if v["rule"].startswith(("flow.", "ruleset."))]
    assert length["rule"] == "ruleset.mismatch" and "East-South" in length["message"]
    # without the one-finding rule each hand after E4 would be a flow.end: there are some
    starts = re.findall(rb'<INIT seed="([4-7]),', data)
    assert len(starts) >= 2


def test_east_only_game_under_a_hanchan_header_is_one_finding(corpus_dir: Path) -> None:
    data = _east_only_log(corpus_dir)
    built = _with_go(data, f'<GO type="{_go_type(data) | HANCHAN}" lobby="0"/>')
    found = _audit(built)
    # a game that ends early is one finding already: the end the header gives is kept
    (length,) = [v for v in found if v["rule"].startswith(("flow.", "ruleset."))]
    assert length["rule"] == "flow.end" and "goes on with S1" in length["message"]


# -- csrule -------------------------------------------------------------------------


def _csrule(start: int, returned: int, uma: str, flags: str = "0FE0BF0B,0000001F") -> str:
    """A csrule in the shape of newattr2023.xml's, with these numbers."""
    return f"{flags},,,{start},{returned},{returned}" + "," * 14 + f",{uma}" * 5 + ",,,,"


def test_csrule_of_the_real_custom_lobby_game(corpus_dir: Path) -> None:
    data = _log(corpus_dir, "newattr2023.xml")
    rules = _auto(data)
    assert (rules.start_score, rules.return_score) == (30000, 30000)
    assert rules.uma == (15000, 5000, -5000, -15000)
    assert any("csrule" in u.what for u in rules.unknown)
    found = _audit(data, "newattr2023.xml")
    assert _errors(found) == []
    # its tied players share the uma, which the undecoded flags must say: one warning
    assert len([v for v in found if v["rule"] == "log.assumption"]) <= 1


def test_csrule_the_log_follows_gives_a_clean_verdict(corpus_dir: Path) -> None:
    """A real lobby-0 game given a custom-lobby header whose csrule states its own
    points (25,000 start, 30,000 return, uma 20/10): judged by it, nothing to say."""
    data = _log(corpus_dir, "example.xml")
    built = _with_go(data, f'<GO type="{_go_type(data)}" lobby="1234" '
                           f'csrule="{_csrule(25000, 30000, "10,-10,-20")}"/>')
    rules = _auto(built)
    assert rules.uma == (20000, 10000, -10000, -20000) and rules.return_score == 30000
    assert [v for v in _audit(built) if v["rule"].startswith(RULE_DEPENDENT)] == []


def test_csrule_the_log_does_not_follow_is_one_warning(corpus_dir: Path) -> None:
    """The same game under a csrule whose uma (15/5) its final points do not show, or
    whose fields cannot be read, or whose header is also contradicted by the play's
    length: one warning for each difference, never an error."""
    data = _log(corpus_dir, "example.xml")
    go_type = _go_type(data)
    for tag in (f'<GO type="{go_type}" lobby="1234" csrule="{_csrule(25000, 30000, "5,-5,-15")}"/>',
                f'<GO type="{go_type}" lobby="1234" csrule="zz,??,,,x"/>',
                f'<GO type="{go_type & ~HANCHAN}" lobby="1234" '
                f'csrule="{_csrule(25000, 30000, "5,-5,-15")}"/>'):
        found = _audit(_with_go(data, tag))
        assert _errors(found) == [], tag
        assert len([v for v in found if v["rule"] == "log.assumption"]) <= 1
    found = _audit(_with_go(data, f'<GO type="{go_type}" lobby="1234" '
                                  f'csrule="{_csrule(25000, 30000, "5,-5,-15")}"/>'))
    (assumed,) = [v for v in found if v["rule"] == "log.assumption"]
    assert "score.final" in assumed["message"] and "csrule" in assumed["message"]


def test_csrule_uma_tables_that_differ_are_not_read() -> None:
    differing = "a,b,,,30000,30000,30000" + "," * 14 + ",5,-5,-15" * 4 + ",10,-10,-20,,,,"
    rules = decode_go(0x01, lobby="7", csrule=differing)
    assert rules.stated_uma is None and rules.start_score == 30000
    assert any("lobby 7" in u.what for u in rules.unknown)


def test_numbered_lobby_without_csrule_is_unknown() -> None:
    rules = decode_go(0x09, lobby="10011")
    assert any("lobby 10011" in u.what for u in rules.unknown)
    assert decode_go(0x09, lobby="0").unknown == ()


def test_csrule_game_whose_dealer_moves_on_is_one_warning(corpus_dir: Path) -> None:
    """A real game (mjx's encdec fixture: E1 ends with the dealer tenpai, E1-1 in a
    draw that moves no points, then E2-2) with E1-1 cut out, so that the deal passes
    after the dealer's tenpai as a custom lobby's rotation would: under lobby 0 that
    is flow.dealer and flow.honba errors; under a csrule header, one warning."""
    path = corpus_dir / "tenhou_xml/mjx-project__mjx/encdec-pinfu-ipeiko-vs-sanankou.mjlog"
    if not path.is_file():
        pytest.skip(f"{path} is not in the corpus")
    data = read_log_bytes(path)
    inits = [m.start() for m in re.finditer(rb"<INIT ", data)]
    assert re.match(rb'<INIT seed="0,1,', data[inits[1]:])  # E1-1, the hand cut out
    go_type = _go_type(data)
    cut = data[:inits[1]] + data[inits[2]:]
    # the cut also moves every later hand off its wall (the seed's walls go in play order)
    walls = {e.split(":")[0] for e in _errors(_audit(_with_go(cut, f'<GO type="{go_type}" '
                                                                  'lobby="0"/>')))}
    assert "wall.deal" in walls
    moved = re.sub(rb"<SHUFFLE [^>]*/>", b"", cut)  # this test is about the rotation
    plain = _errors(_audit(_with_go(moved, f'<GO type="{go_type}" lobby="0"/>')))
    assert sorted(e.split(":")[0] for e in plain) == ["flow.dealer", "flow.honba"]
    custom = _with_go(moved, f'<GO type="{go_type}" lobby="1234" '
                             f'csrule="{_csrule(25000, 30000, "10,-10,-20")}"/>')
    found = _audit(custom)
    assert _errors(found) == []
    (assumed,) = [v for v in found if v["rule"] == "log.assumption"]
    assert "flow.dealer" in assumed["message"] and "flow.honba" in assumed["message"]
    assert [v for v in found if v["rule"].startswith(RULE_DEPENDENT)] == []


def test_red_five_bit_the_wins_contradict_is_one_warning(corpus_dir: Path) -> None:
    """example.xml's header given the no-red-fives bit: five wins count aka dora, so
    which fives were red cannot be told; one warning, where there were five errors."""
    data = _log(corpus_dir, "example.xml")
    built = _with_go(data, f'<GO type="{_go_type(data) | NO_AKA}" lobby="0"/>')
    assert len(re.findall(rb'yaku="[^"]*\b54,[1-9]', data)) >= 2  # wins with aka dora
    found = _audit(built)
    assert _errors(found) == []
    (assumed,) = [v for v in found if v["rule"] == "log.assumption"]
    assert "red" in assumed["message"] and "(and 4 more)" in assumed["message"]
    assert [v for v in found if v["rule"].startswith(RULE_DEPENDENT)] == []


def test_kuitan_bit_the_wins_contradict_is_one_finding(corpus_dir: Path) -> None:
    """example.xml's header given the no-open-tanyao bit: seat 3's open tanyao win
    shows the table had kuitan; one ruleset.mismatch, no win.no-yaku error."""
    data = _log(corpus_dir, "example.xml")
    built = _with_go(data, f'<GO type="{_go_type(data) | NO_KUITAN}" lobby="0"/>')
    rules = _auto(built)
    assert rules.kuitan and rules.contradicted
    found = _audit(built)
    assert _errors(found) == []
    (mismatch,) = [v for v in found if v["rule"] == "ruleset.mismatch"]
    assert "open tanyao" in mismatch["message"]
    # the same bit on a game whose wins do not contradict it is simply followed
    pao = _log(corpus_dir, "pao.xml")
    assert not _auto(_with_go(pao, f'<GO type="{_go_type(pao) | NO_KUITAN}"/>')).kuitan
