"""The mjlog XML parser: small hand-written logs, bad input, fuzzing, the real corpus."""

from __future__ import annotations

import dataclasses
import gzip
import itertools
import re
from pathlib import Path
from urllib.parse import unquote

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lxml import etree

from kansa.buildinfo import which_build
from kansa.parsers.canonical import canonical
from kansa.parsers.errors import LogFormatError
from kansa.parsers.source import read_log_bytes
from kansa.parsers.tenhou_xml.read import parse_game as parse
from kansa.parsers.tenhou_xml.read import rank_label, room_label, sniff
from kansa.replay.engine import replay
from kansa.replay.events import (
    Ankan,
    Chi,
    Dahai,
    Daiminkan,
    Dora,
    DrawReason,
    EndGame,
    EndKyoku,
    Event,
    Hora,
    Kakan,
    Nukidora,
    Pon,
    Reach,
    ReachAccepted,
    Ryukyoku,
    SourceRef,
    StartKyoku,
    Tsumo,
)
from kansa.replay.tiles import Tile, parse_tiles
from kansa.replay.yaku import Limit, Yaku
from kansa.runner import rules_for

# -- building small logs --------------------------------------------------------

HANDS = (
    "0,4,8,12,16,20,24,28,32,36,40,44,48",  # 1-9m 1-4p, with red 5m (16)
    "1,5,9,13,17,21,25,29,33,37,41,45,49",
    "2,6,10,14,18,22,26,30,34,38,42,46,50",
    "72,76,80,84,88,92,96,100,104,108,112,116,120",  # 1-9s E S W N, with red 5s (88)
)
UN = ('<UN n0="%E3%81%82" n1="%41%42" n2="bot" n3="%44" dan="0,9,16,20" '
      'rate="1500.00,1600.50,2000.00,2200.00" sx="M,F,M,C"/>')


def init(seed: str = "0,0,0,3,5,55", ten: str = "250,250,250,250", oya: int = 0,
         hands: tuple[str, ...] = HANDS) -> str:
    hai = " ".join(f'hai{i}="{h}"' for i, h in enumerate(hands))
    return f'<INIT seed="{seed}" ten="{ten}" oya="{oya}" {hai}/>'


def log(body: str, go: int = 169, un: str = UN, sep: str = "") -> bytes:
    head = ['<mjloggm ver="2.3">', '<SHUFFLE seed="mt19937ar-sha512-n288-base64,AA" ref=""/>',
            f'<GO type="{go}" lobby="0"/>', un, '<TAIKYOKU oya="0"/>']
    return (sep.join([*head, body]) + sep + "</mjloggm>").encode()


AGARI = ('<AGARI ba="1,1" hai="0,4,8,12,16,20,24,28,32,36,40,44,48,52" machi="52" '
         'ten="30,7700,0" yaku="1,1,0,1,52,1,54,1,53,0" doraHai="55" doraHaiUra="7" '
         'who="0" fromWho="0" sc="250,-26,250,-26,250,-26,240,88"/>')
OWARI = ' owari="224,-27.6,224,-17.6,224,3.4,328,41.8"'


def events_of(data: bytes, source: str = "test.xml") -> list[Event]:
    return list(parse(data, source).events)


def sources_of(data: bytes, source: str = "test.xml") -> list[SourceRef | None]:
    game = parse(data, source)
    return [game.src_of(i) for i in range(len(game.events))]


def kinds(events: list[Event]) -> list[str]:
    return [type(e).__name__ for e in events]


# -- metadata -------------------------------------------------------------------

def test_metadata_from_go_and_un() -> None:
    game = parse(log(init() + AGARI.replace("/>", OWARI + "/>")),
                 "/x/2019052915gm-00a9-0000-1b2c3d4e&tw=2.mjlog")
    assert game.format == "tenhou_xml"
    assert game.log_id == "2019052915gm-00a9-0000-1b2c3d4e"
    hints = game.hints
    assert (hints.players, hints.aka, hints.kuitan, hints.hanchan) == (4, True, True, True)
    assert (hints.platform, hints.lobby, hints.room, hints.raw_type) == (
        "tenhou", "0", "鳳南喰赤", 169)
    assert [p.name for p in game.players] == ["あ", "AB", "bot", "D"]
    assert [p.rank for p in game.players] == ["新人", "1級", "七段", "天鳳位"]
    assert game.players[1].rating == 1600.5
    assert game.players[3].sex == "C"
    assert game.diagnostics == ()


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=12), st.booleans(),
       st.text(alphabet="%09afAFxz\u3042 ", max_size=6))
def test_names_decode_as_unquote_does(raw: bytes, lower: bool, tail: str) -> None:
    """Fully percent-encoded names (Tenhou's form) are decoded directly; the result must
    be unquote's, invalid UTF-8 and stray '%' included."""
    name = "".join(f"%{b:02x}" if lower else f"%{b:02X}" for b in raw) + tail
    un = f'<UN n0="{name}" n1="b" n2="c" n3="d" dan="0,0,0,0"/>'
    assert parse(log("", un=un), "a.xml").players[0].name == unquote(name, errors="replace")


def test_log_id_only_for_tenhou_names() -> None:
    assert parse(log(""), "encdec-chanta.mjlog").log_id is None
    assert parse(log(""), "2019020120gm-0009-10011-215330df.mjlog").log_id == (
        "2019020120gm-0009-10011-215330df")


@pytest.mark.parametrize(("go_type", "label"), [
    (9, "般南喰赤"), (41, "特南喰赤"), (137, "上南喰赤"), (169, "鳳南喰赤"),
    (161, "鳳東喰赤"), (185, "三鳳南喰赤"), (193, "上東喰赤速"), (0x0F, "般南"),
    (0, "般東喰赤－"),
])
def test_room_label(go_type: int, label: str) -> None:
    assert room_label(go_type) == label


def test_rule_bits() -> None:
    hints = parse(log("", go=0x0F), "t").hints  # no red, no kuitan, hanchan
    assert (hints.aka, hints.kuitan, hints.hanchan, hints.players) == (False, False, True, 4)
    assert parse(log("", go=0x11), "t").hints.players == 3


def test_rank_labels() -> None:
    labels = [rank_label(d) for d in range(21)]
    assert labels[:2] == ["新人", "9級"]
    assert labels[10:12] == ["初段", "二段"]
    assert labels[19:] == ["十段", "天鳳位"]
    assert rank_label(21) is None
    assert rank_label(-1) is None


def test_un_without_dan_and_reconnect() -> None:
    un = '<UN n0="rule-based-0" n1="target" n2="c" n3="d"/>'
    game = parse(log('<BYE who="2"/><UN n2="%63"/>' + init(), un=un), "t")
    assert [p.name for p in game.players] == ["rule-based-0", "target", "c", "d"]
    assert game.players[0].rank is None
    messages = [d.message for d in game.diagnostics]
    assert "seat 2 disconnected (BYE)" in messages
    assert "seat 2 reconnected" in messages


def test_2023_go_attributes() -> None:
    go = ('<GO type="257" lobby="1" title="%41%42" rule=",,0101,0,0,0,0" ranking="" '
          'csrule="0FE0BF0B,0000001F,,,30000,30000,30000,,,5,-5,-15"/>')
    data = log("").replace(b'<GO type="169" lobby="0"/>', go.encode())
    game = parse(data, "t")
    assert game.title == "AB"
    assert game.hints.start_score == 30000
    assert game.hints.lobby == "1"


def test_sniff() -> None:
    assert sniff(log(""))
    assert sniff(b'<?xml version="1.0"?>\n<mjloggm ver="2.3">')
    assert not sniff(b'{"title": []}')


# -- hands ----------------------------------------------------------------------

def test_start_kyoku() -> None:
    body = init(seed="5,2,1,3,5,55", ten="240,250,260,250", oya=1)
    (start,) = events_of(log(body))
    assert isinstance(start, StartKyoku)
    assert (start.bakaze, start.kyoku, start.honba, start.kyotaku, start.oya) == (
        Tile.SOUTH, 2, 2, 1, 1)
    assert start.scores == (24000, 25000, 26000, 25000)
    assert start.dora_marker == Tile.P5
    assert start.tehais[0] == tuple(parse_tiles("123406789m1234p"))
    assert start.tehais[3][4] == Tile.S5R
    assert start.label == "S2-2"


def test_red_fives_only_when_the_game_has_them() -> None:
    (start,) = events_of(log(init(), go=169 | 0x02))
    assert start.tehais[0][4] == Tile.M5
    assert not any(t.is_red for hand in start.tehais for t in hand)


def test_draws_discards_and_tsumogiri() -> None:
    body = init() + "<T60/><D60/><U61/><E1/><V62/><F2/><W63/><G63/>"
    evs = events_of(log(body))[1:]
    assert evs == [
        Tsumo(actor=0, tile=Tile.P7), Dahai(actor=0, tile=Tile.P7, tsumogiri=True),
        Tsumo(actor=1, tile=Tile.P7), Dahai(actor=1, tile=Tile.M1, tsumogiri=False),
        Tsumo(actor=2, tile=Tile.P7), Dahai(actor=2, tile=Tile.M1, tsumogiri=False),
        Tsumo(actor=3, tile=Tile.P7), Dahai(actor=3, tile=Tile.P7, tsumogiri=True),
    ]


def test_tsumogiri_is_reset_by_a_call() -> None:
    # seat 0 draws 5, declares ankan of 1s (no rinshan draw logged), discards 5
    evs = events_of(log(init() + '<T5/><N who="0" m="18944"/><D5/>'))
    assert isinstance(evs[-1], Dahai)
    assert not evs[-1].tsumogiri


def test_tsumogiri_needs_the_same_physical_tile() -> None:
    evs = events_of(log(init() + "<T60/><D61/>"))
    assert evs[-1] == Dahai(actor=0, tile=Tile.P7, tsumogiri=False)


def test_shared_draws_and_discards_behave_like_constructed_ones() -> None:
    data = log(init() + "<T60/><D60/><U61/><E61/><V70/><F60/>")
    tsumo, dahai = events_of(data)[1:3]
    same_tsumo = Tsumo(actor=0, tile=Tile.P7)
    assert tsumo == same_tsumo
    assert hash(tsumo) == hash(same_tsumo)
    assert repr(dahai) == repr(Dahai(actor=0, tile=Tile.P7, tsumogiri=True))
    assert tsumo.time is None and tsumo.src is None
    assert sources_of(data)[2] == SourceRef("test.xml", 1, None, "tag 7")
    if which_build() == "compiled":  # read-only there; mypy refuses the store in both
        with pytest.raises(AttributeError):
            tsumo.actor = 1  # type: ignore[misc]
    # one object per seat, tile and kind, whatever the copy (60 and 61 are both 7p)
    again = events_of(data)
    assert again[1] is tsumo and again[2] is dahai
    assert again[3] is not tsumo and again[3] == Tsumo(actor=1, tile=Tile.P7)
    assert again[6] == Dahai(actor=2, tile=Tile.P7, tsumogiri=False)


def test_melds() -> None:
    body = (init() + '<T60/><D60/><N who="1" m="63647"/><E1/>'  # chi 789s (seat 1 from 0)
            '<N who="3" m="43593"/><G2/>'  # pon South from seat 0
            '<N who="3" m="1539"/><W64/><DORA hai="9"/><G3/>'  # daiminkan 2m from seat 2
            '<T65/><N who="0" m="10769"/><T66/><DORA hai="13"/><D66/>'  # kakan 8m
            '<U67/><N who="1" m="23040"/><DORA hai="16"/><U68/><E68/>')  # ankan 5s
    evs = [e for e in events_of(log(body)) if not isinstance(e, (Tsumo, Dahai, StartKyoku))]
    assert evs == [
        Chi(actor=1, target=0, tile=Tile.S9, consumed=(Tile.S7, Tile.S8)),
        Pon(actor=3, target=0, tile=Tile.SOUTH, consumed=(Tile.SOUTH, Tile.SOUTH)),
        Daiminkan(actor=3, target=2, tile=Tile.M2, consumed=(Tile.M2,) * 3),
        Dora(dora_marker=Tile.M3),
        Kakan(actor=0, tile=Tile.M8, consumed=(Tile.M8,) * 3),
        Dora(dora_marker=Tile.M4),
        Ankan(actor=1, consumed=(Tile.S5, Tile.S5, Tile.S5, Tile.S5R)),
        Dora(dora_marker=Tile.M5R),
    ]


def test_xml_order_is_kept_for_kan_dora() -> None:
    # ankan: N, DORA, draw; daiminkan: N, draw, DORA, discard
    body = (init() + '<T60/><N who="0" m="18944"/><DORA hai="9"/><T61/><D61/>'
            '<N who="3" m="1539"/><W64/><DORA hai="13"/><G64/>')
    assert kinds(events_of(log(body)))[2:] == [
        "Ankan", "Dora", "Tsumo", "Dahai", "Daiminkan", "Tsumo", "Dora", "Dahai"]


def test_reach_steps() -> None:
    body = (init() + '<T60/><REACH who="0" step="1"/><D60/>'
            '<REACH who="0" ten="240,250,250,250" step="2"/>'
            '<U61/><REACH who="1" step="1"/><E61/><REACH who="1" step="2"/>')
    evs = [e for e in events_of(log(body)) if isinstance(e, (Reach, ReachAccepted))]
    assert evs == [Reach(actor=0), ReachAccepted(actor=0, scores=(24000, 25000, 25000, 25000)),
                   Reach(actor=1), ReachAccepted(actor=1, scores=None)]


def test_agari_claims_and_end_events() -> None:
    body = init() + "<T52/>" + AGARI.replace("/>", OWARI + "/>")
    evs = events_of(log(body))
    assert kinds(evs) == ["StartKyoku", "Tsumo", "Hora", "EndKyoku", "EndGame"]
    hora = evs[2]
    assert isinstance(hora, Hora)
    assert (hora.actor, hora.target, hora.is_tsumo, hora.tile) == (0, 0, True, Tile.P5R)
    assert hora.deltas == (-2600, -2600, -2600, 8800)
    assert hora.hand is not None and len(hora.hand) == 14
    assert hora.yaku == ((Yaku.RIICHI, 1), (Yaku.MENZEN_TSUMO, 1), (Yaku.DORA, 1),
                         (Yaku.AKA_DORA, 1))  # a zero-han ura entry is dropped
    assert (hora.fu, hora.han, hora.points, hora.limit) == (30, 4, 7700, Limit.NONE)
    assert hora.dora_markers == (Tile.P5,)
    assert hora.ura_markers == (Tile.M2,)
    assert (hora.pao, hora.honba, hora.kyotaku) == (None, 1, 1)
    assert evs[-1] == EndGame(scores=(22400, 22400, 22400, 32800),
                              points=(-27.6, -17.6, 3.4, 41.8))
    assert evs[-1].src == evs[2].src == evs[3].src
    assert evs[-1].src is not None


def test_events_are_built_in_canonical_form() -> None:
    """The parser sorts hands and drops a zero-han ura entry as it reads: a second pass
    through ``canonical`` changes nothing."""
    hands = ("48,44,40,36,32,28,24,20,17,16,12,8,4", *HANDS[1:])  # 5m before red 5m
    meld = '<N who="1" m="43051"/>'
    body = (init(hands=hands) + "<T52/><D52/>" + meld + "<D1/><T60/>"
            + AGARI.replace('hai="0,4,8,12,16,20,24,28,32,36,40,44,48,52"',
                            'hai="52,48,44,40,36,32,28,24,20,16,12,8,4,0"'))
    evs = events_of(log(body))
    start, hora = evs[0], evs[-2]
    assert isinstance(start, StartKyoku) and isinstance(hora, Hora)
    assert start.tehais[0][3:6] == (Tile.M5, Tile.M5R, Tile.M6)
    assert hora.hand is not None and list(hora.hand) == sorted(hora.hand)
    assert all(a is b for a, b in zip(canonical(evs), evs, strict=True))


def test_yakuman_and_pao() -> None:
    agari = ('<AGARI ba="0,0" hai="124,125,126,128,129,130,132,133,134,0,1" m="51722" '
             'machi="1" ten="40,32000,5" yakuman="39" doraHai="55" who="0" fromWho="0" '
             'paoWho="2" sc="250,320,250,0,250,-320,250,0"/>')
    hora = events_of(log(init() + "<T1/>" + agari))[2]
    assert isinstance(hora, Hora)
    assert hora.yaku == ((Yaku.DAISANGEN, 13),)
    assert (hora.han, hora.limit, hora.pao, hora.ura_markers) == (13, Limit.YAKUMAN, 2, None)


def test_double_ron_has_one_end_kyoku() -> None:
    ron = ('<AGARI ba="1,1" hai="{hai}" machi="60" ten="30,1000,0" yaku="8,1" doraHai="55" '
           'who="{who}" fromWho="0" sc="250,-14,250,{d},250,{e},250,0"/>')
    body = (init() + "<T60/><D60/>"
            + ron.format(hai=HANDS[1] + ",60", who=1, d=24, e=0)
            + ron.format(hai=HANDS[2] + ",60", who=2, d=0, e=14).replace('ba="1,1"', 'ba="1,0"')
            + init(seed="1,0,0,1,1,9"))
    assert kinds(events_of(log(body))) == [
        "StartKyoku", "Tsumo", "Dahai", "Hora", "Hora", "EndKyoku", "StartKyoku"]


def test_chip_lobby_sc_reads_the_first_eight_values() -> None:
    agari = AGARI.replace('sc="250,-26,250,-26,250,-26,240,88"',
                          'sc="250,-26,250,-26,250,-26,240,88,0,-1,0,-1,0,-1,0,3"')
    hora = events_of(log(init() + "<T52/>" + agari, go=553))[2]
    assert isinstance(hora, Hora)
    assert hora.deltas == (-2600, -2600, -2600, 8800)


@pytest.mark.parametrize(("attrs", "reason", "tenpai", "actor"), [
    ('hai1="1,5,9,13,17,21,25,29,33,37,41,45,49"', DrawReason.EXHAUSTIVE,
     (False, True, False, False), None),
    ('type="yao9" hai2="2,6,10,14,18,22,26,30,34,38,42,46,50,108"',
     DrawReason.KYUUSHU_KYUUHAI, None, 2),
    ('type="kaze4"', DrawReason.SUUFON_RENDA, None, None),
    ('type="reach4"', DrawReason.SUUCHA_RIICHI, None, None),
    ('type="ron3"', DrawReason.SANCHAHOU, None, None),
    ('type="kan4"', DrawReason.SUUKAIKAN, None, None),
    ('type="nm" hai0="0,4,8,12,16,20,24,28,32,36,40,44,48"', DrawReason.NAGASHI_MANGAN,
     (True, False, False, False), None),
])
def test_ryuukyoku(attrs: str, reason: DrawReason, tenpai: tuple[bool, ...] | None,
                   actor: int | None) -> None:
    body = init() + f'<RYUUKYOKU ba="0,0" sc="250,-10,250,30,250,-10,250,-10" {attrs}/>'
    evs = events_of(log(body))
    assert kinds(evs) == ["StartKyoku", "Ryukyoku", "EndKyoku"]
    draw = evs[1]
    assert isinstance(draw, Ryukyoku)
    assert (draw.reason, draw.tenpai, draw.actor) == (reason, tenpai, actor)
    assert draw.deltas == (-1000, 3000, -1000, -1000)
    assert draw.hands is not None
    assert [h is not None for h in draw.hands] == [f"hai{i}=" in attrs for i in range(4)]


def test_sanma() -> None:
    un = ('<UN n0="%41" n1="%42" n2="%43" n3="" dan="17,16,18,0" '
          'rate="2245.92,2143.98,2284.34,1500.00" sx="M,M,F,C"/>')
    hands = (*HANDS[:3], "")
    body = (init(ten="350,350,350,0", hands=hands) + '<T82/><N who="0" m="31008"/><T38/><D38/>'
            '<RYUUKYOKU ba="0,0" sc="350,0,350,0,350,0,0,0"'
            ' owari="350,0.0,350,0.0,350,0.0,0,0.0"/>')
    game = parse(log(body, go=185, un=un), "sanma.mjlog")
    assert game.hints.players == 3
    assert len(game.players) == 3
    start = game.events[0]
    assert isinstance(start, StartKyoku)
    assert start.scores == (35000, 35000, 35000)
    assert len(start.tehais) == 3
    assert Nukidora(actor=0, tile=Tile.NORTH) in game.events
    draw = game.events[-3]
    assert isinstance(draw, Ryukyoku)
    assert draw.deltas == (0, 0, 0)
    assert game.events[-1] == EndGame(scores=(35000, 35000, 35000), points=(0.0, 0.0, 0.0))


def test_truncated_log_gets_no_invented_end_events() -> None:
    game = parse(log(init() + "<T60/><D60/>"), "upd-bef-x.mjlog")
    assert kinds(list(game.events)) == ["StartKyoku", "Tsumo", "Dahai"]
    messages = " ".join(d.message for d in game.diagnostics)
    assert "middle of a hand" in messages
    assert "no final result" in messages


def test_log_ending_after_a_result_closes_the_hand() -> None:
    evs = events_of(log(init() + "<T52/>" + AGARI))
    assert kinds(evs)[-2:] == ["Hora", "EndKyoku"]


def test_multiline_positions() -> None:
    data = log(init() + "\n<T60/>\n<D60/>", sep="\n")
    places = sources_of(data, "multi.xml")
    assert places[0] is not None and places[0].line == 6
    assert (places[0].pointer or "").startswith('tag 5 <INIT seed="0,0,0,3,5,55" ten=')
    assert places[1] == SourceRef("multi.xml", 7, None, "tag 6")
    assert places[2] == SourceRef("multi.xml", 8, None, "tag 7")


def test_positions_when_only_some_children_share_a_line() -> None:
    places = sources_of(log(init() + "<T60/>\n<D60/>"), "multi.xml")
    assert places[1] == SourceRef("multi.xml", 1, None, "tag 6")
    assert places[2] == SourceRef("multi.xml", 2, None, "tag 7")


def test_positions_past_line_65535_are_lxml_s() -> None:
    """libxml2 keeps big line numbers approximately (an element may report a neighbour's
    line); the events carry what lxml reports, element by element."""
    plays = "".join(f"<T{i}/><D{i}/>" for i in range(60, 66))
    data = b"\n" * 70000 + log(init() + plays + "\n" + plays)
    lines = [el.sourceline for el in etree.fromstring(data)]
    assert len(set(lines)) > 1 and lines[0] == lines[-1]  # what a shortcut could miss
    assert [p.line for p in sources_of(data) if p] == lines[4:]


def test_pointers_past_the_shared_cache() -> None:
    last = sources_of(log(init() + "<T60/><D60/>" * 5000))[-1]
    assert last is not None
    assert last.pointer == "tag 10005"


def test_comments_do_not_shift_pointers() -> None:
    data = log(init() + "<!-- note --><T60/>")
    assert sources_of(data)[1] == SourceRef("test.xml", 1, None, "tag 6")


EVERY_TAG = (init() + '<T52/><REACH who="0" step="1"/><D52/>'
             '<REACH who="0" ten="240,250,250,250" step="2"/><N who="1" m="43051"/>'
             '<DORA hai="8"/><E1/><T60/>' + AGARI + init(seed="1,0,0,1,1,9")
             + '<RYUUKYOKU ba="0,0" sc="250,-10,250,30,250,-10,250,-10" '
             'hai1="1,5,9,13,17,21,25,29,33,37,41,45,49"/>')


def test_a_game_given_other_events_has_no_positions_for_shared_ones() -> None:
    game = parse(log(init() + "<T60/><D60/><U61/><E61/>"), "a.xml")
    assert game.src_of(3) == SourceRef("a.xml", 1, None, "tag 8")
    shorter = dataclasses.replace(game, events=game.events[:1] + game.events[3:])
    assert shorter.src_of(1) is None  # not element 6's position, the old event 1's
    assert shorter.src_of(0) == game.src_of(0)  # its own


def test_a_finding_at_a_shared_discard_names_its_element() -> None:
    game = parse(log(init() + "<T60/><D60/><U61/><E130/><V62/><F62/>"), "a.xml")
    result = replay(game, rules_for(game, "auto"))
    found = {v.rule: v for v in result.violations}
    assert found["tiles.not-in-hand"].src == SourceRef("a.xml", 1, None, "tag 9")
    assert found["log.truncated"].src == SourceRef("a.xml", 1, None, "tag 11")


def test_every_event_has_a_position_in_document_order() -> None:
    data = log(EVERY_TAG)
    game = parse(data, "a.xml")
    children = [el.tag for el in etree.fromstring(data)]
    places = [game.src_of(i) for i in range(len(game.events))]
    assert all(p is not None and p.line == 1 for p in places)
    numbers = [int(p.pointer.split(" <")[0][len("tag "):]) for p in places if p and p.pointer]
    assert numbers == sorted(numbers) and len(numbers) == len(game.events)
    for event, number in zip(game.events, numbers, strict=True):
        tag = children[number - 1]
        if isinstance(event, Tsumo):
            assert tag[0] in "TUVW" and int(tag[1:]) // 4 == event.tile.index
        elif isinstance(event, Dahai):
            assert tag[0] in "DEFG" and int(tag[1:]) // 4 == event.tile.index


def tag_numbers(places: list[SourceRef | None]) -> list[tuple[int | None, str] | None]:
    """Each position's line and tag number (the tag's text differs with its form)."""
    return [(p.line, (p.pointer or "").split(" <")[0]) if p else None for p in places]


@pytest.mark.parametrize(("plain", "odd"), [
    ('seed="0,0,0,3,5,55"', 'seed=" 0,0,+0,3,5,055"'),
    ('ten="250,250,250,250"', 'ten="250,250,250,250,0"'),
    ('oya="0"', 'oya="00"'),
    ('hai1="1,5,9', 'hai1="01,5,9'),
    ('step="1"', 'step="01"'),
    ('who="0" ten="240,250,250,250"', 'who=" 0" ten="240,250,250,250,0"'),
    ('<N who="1"', '<N who="01"'),
    ('hai="8"', 'hai="08"'),
    ('ba="1,1"', 'ba="1,1,0"'),
    ('ten="30,7700,0"', 'ten="30,7700,00,5"'),
    ('yaku="1,1,0,1,52,1,54,1,53,0"', 'yaku="1,1,0,1,52,1,54,1, 53,0"'),
    ('hai="0,4,8', 'hai="00,4,8'),
    ('machi="52"', 'machi="052"'),
    ('fromWho="0"', 'fromWho=" 0"'),
    ('doraHai="55"', 'doraHai="055"'),
    ('41,45,49"/>', '41,45,049"/>'),
])
def test_numbers_in_other_forms_read_as_tenhou_writes_them(plain: str, odd: str) -> None:
    """The handlers read Tenhou's own forms directly and hand anything else to the
    validating helpers, which must give the same events (and positions)."""
    assert plain in EVERY_TAG
    expected = parse(log(EVERY_TAG), "a.xml")
    game = parse(log(EVERY_TAG.replace(plain, odd, 1)), "a.xml")
    assert game.events == expected.events
    assert tag_numbers(sources_of(log(EVERY_TAG.replace(plain, odd, 1)), "a.xml")) == \
        tag_numbers(sources_of(log(EVERY_TAG), "a.xml"))
    assert game.diagnostics == expected.diagnostics


# -- bad input ------------------------------------------------------------------

def raises_at(data: bytes, *fragments: str) -> LogFormatError:
    with pytest.raises(LogFormatError) as info:
        parse(data, "bad.mjlog")
    text = str(info.value)
    assert text.startswith("bad.mjlog:"), text
    for fragment in fragments:
        assert fragment in text, text
    return info.value


@pytest.mark.parametrize("data", [b"", b"   \n", b"\x00\x01\x02binary\xff", b"\x1f\x8b\x08\x00"])
def test_empty_or_binary(data: bytes) -> None:
    raises_at(data, "malformed XML")


def test_xml_cut_before_its_first_hand_reports_line_and_column() -> None:
    data = log(init() + "<T60/>", sep="\n")[:-20]
    error = raises_at(data, "cut off", "nothing to audit")
    assert error.src.line is not None and error.src.line > 1
    assert error.src.column is not None


def test_wrong_root() -> None:
    raises_at(b'<html><body/></html>', "root element is <html>", ":1 the root element")


def test_unknown_tag() -> None:
    error = raises_at(log(init() + "<FOO/>"), "unknown tag <FOO>", "tag 6")
    assert error.src.line == 1


@pytest.mark.parametrize(("body", "fragment"), [
    (init() + "<T136/>", "<T136> does not name a tile id"),
    (init() + "<D999/>", "<D999> does not name a tile id"),
    (init(hands=(HANDS[0], HANDS[1], HANDS[2], "1,2,136")), "tile id 136 is outside 0-135"),
    (init() + '<DORA hai="-1"/>', "tile id -1 is outside 0-135"),
    (init(seed="0,0,0,3,5,200"), "tile id 200"),
])
def test_tile_id_out_of_range(body: str, fragment: str) -> None:
    raises_at(log(body), fragment, "tag ")


@pytest.mark.parametrize(("body", "fragment"), [
    ('<INIT ten="250,250,250,250" oya="0"/>', "lacks the required attribute 'seed'"),
    (init() + '<N who="1"/>', "lacks the required attribute 'm'"),
    (init() + '<AGARI who="0" fromWho="0"/>', "lacks the required attribute"),
    (init() + '<REACH step="1"/>', "lacks the required attribute 'who'"),
])
def test_missing_attribute(body: str, fragment: str) -> None:
    raises_at(log(body), fragment)


@pytest.mark.parametrize(("body", "fragment"), [
    (init(ten="250,abc,250,250"), "attribute ten"),
    (init(seed="x,0,0,3,5,55"), "attribute seed"),
    (init() + '<REACH who="zero" step="1"/>', "attribute who"),
    (init() + '<REACH who="7" step="1"/>', "not a seat 0-3"),
    (init() + '<REACH who="0" step="3"/>', "neither 1 nor 2"),
    (init() + "<T52/>" + AGARI.replace('ten="30,7700,0"', 'ten="30,7700,9"'), "limit 9"),
    (init() + "<T52/>" + AGARI.replace('yaku="1,1,0,1,52,1,54,1,53,0"', 'yaku="99,1"'),
     "yaku id 99"),
    (init() + "<T52/>" + AGARI.replace("/>", ' owari="x,1,2,3,4,5,6,7"/>'), "attribute owari"),
    (init() + "<T52/>" + AGARI.replace("/>", ' owari="0,inf,0,0,0,0,0,nan"/>'), "attribute owari"),
    (init() + "<T52/>" + AGARI.replace('yaku="1,1,0,1,52,1,54,1,53,0"', 'yaku="1,-1"'),
     "han is negative"),
    (init() + '<RYUUKYOKU ba="0,0" sc="250,0,250,0,250,0,250,0" type="what"/>',
     "not a known draw type"),
    (init() + '<RYUUKYOKU ba="0,0" sc="250,0,250"/>', "needs 8 values"),
])
def test_bad_attribute_values(body: str, fragment: str) -> None:
    raises_at(log(body), fragment)


def test_bad_go_type() -> None:
    raises_at(log("").replace(b'type="169"', b'type="x"'), "attribute type")


@pytest.mark.parametrize("code", ["65535", "70000", "-5", "4"])
def test_undecodable_meld(code: str) -> None:
    raises_at(log(init() + f'<N who="0" m="{code}"/>'), "<N m=", "attribute m")


def test_meld_the_caller_does_not_hold_is_not_a_parse_error() -> None:
    # seat 1 has no 7s/8s at all; the replay engine reports that, the parser does not
    (_, chi) = events_of(log(init() + '<N who="1" m="63647"/>'))
    assert chi == Chi(actor=1, target=0, tile=Tile.S9, consumed=(Tile.S7, Tile.S8))


@pytest.mark.parametrize(("body", "fragment"), [
    ("<T60/>", "<T60> before the first <INIT>"),
    ('<REACH who="0" step="1"/>', "<REACH> before the first <INIT>"),
])
def test_play_before_init(body: str, fragment: str) -> None:
    raises_at(log(body), fragment)


def test_init_before_go() -> None:
    raises_at(b'<mjloggm ver="2.3">' + init().encode() + b"</mjloggm>", "before <GO>")


def test_no_go_at_all() -> None:
    raises_at(b'<mjloggm ver="2.3"></mjloggm>', "no <GO>")


BILLION_LAUGHS = b"""<?xml version="1.0"?>
<!DOCTYPE lolz [
 <!ENTITY lol "lol">
 <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
 <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
 <!ENTITY lol5 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;">
 <!ENTITY lol6 "&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;">
 <!ENTITY lol7 "&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;">
 <!ENTITY lol8 "&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;">
 <!ENTITY lol9 "&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;">
]>
<mjloggm ver="2.3"><GO type="169" lobby="&lol9;"/></mjloggm>"""


def test_billion_laughs_is_refused() -> None:
    raises_at(BILLION_LAUGHS, "DOCTYPE declarations are refused", ":2")


def test_external_entity_is_refused() -> None:
    data = (b'<!DOCTYPE m [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
            b'<mjloggm ver="2.3"><GO type="169" lobby="&x;"/></mjloggm>')
    raises_at(data, "refused")


def test_doctype_in_utf16_is_refused() -> None:
    text = '<?xml version="1.0" encoding="UTF-16"?><!DOCTYPE m><mjloggm ver="2.3"/>'
    raises_at(text.encode("utf-16"), "UTF-16", "UTF-8 only")
    raises_at(text.encode("utf-16-be"), "malformed XML")  # no BOM: read as UTF-8, refused


# -- gzip -----------------------------------------------------------------------

def test_gzip_is_read_transparently(tmp_path: Path) -> None:
    path = tmp_path / "2019052915gm-00a9-0000-1b2c3d4e.mjlog"
    path.write_bytes(gzip.compress(log(init() + "<T52/>" + AGARI)))
    game = parse(read_log_bytes(path), str(path))
    assert game.log_id == "2019052915gm-00a9-0000-1b2c3d4e"
    assert kinds(list(game.events))[-1] == "EndKyoku"


# -- fuzzing --------------------------------------------------------------------

def parses_or_log_format_error(data: bytes) -> None:
    try:
        parse(data, "fuzz.mjlog")
    except LogFormatError as exc:
        assert str(exc).startswith("fuzz.mjlog")


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=2048))
def test_fuzz_binary(data: bytes) -> None:
    parses_or_log_format_error(data)


SAMPLE = log(init() + '<T60/><REACH who="0" step="1"/><D60/><REACH who="0" ten="240,250,250,250"'
             ' step="2"/><N who="1" m="63647"/><E1/><U5/><N who="1" m="18944"/><DORA hai="9"/>'
             '<U61/><E61/><BYE who="2"/><UN n2="%43"/>' + AGARI.replace("/>", OWARI + "/>")
             + init(seed="1,0,0,3,5,9") + '<RYUUKYOKU ba="0,0" sc="250,0,250,0,250,0,250,0" '
             'type="yao9" hai1="1,5,9"/>')


@settings(max_examples=400, deadline=None)
@given(st.lists(st.tuples(st.integers(0, len(SAMPLE) - 1), st.integers(0, 255),
                          st.sampled_from(["set", "insert", "delete"])), min_size=1, max_size=6))
def test_fuzz_mutated_log(mutations: list[tuple[int, int, str]]) -> None:
    data = bytearray(SAMPLE)
    for where, byte, how in mutations:
        pos = min(where, len(data) - 1)
        if how == "set":
            data[pos] = byte
        elif how == "insert":
            data.insert(pos, byte)
        else:
            del data[pos]
    parses_or_log_format_error(bytes(data))


ATTR_VALUES = st.one_of(
    st.integers(-3, 140).map(str), st.integers(-(2**70), 2**70).map(str),
    st.lists(st.integers(-2, 140).map(str), max_size=16).map(",".join),
    st.sampled_from(["", ",", "x", "1.5", "nan", " 1", "yao9", "nm", "%E3%81", "1,,2"]))
TAGS = st.sampled_from(["INIT", "N", "REACH", "DORA", "AGARI", "RYUUKYOKU", "UN", "BYE",
                        "GO", "T12", "D12", "W135", "G0", "TAIKYOKU", "SHUFFLE"])
NAMES = st.sampled_from(["seed", "ten", "oya", "hai0", "hai1", "hai2", "hai3", "who", "m",
                         "step", "hai", "ba", "machi", "yaku", "yakuman", "doraHai",
                         "doraHaiUra", "fromWho", "paoWho", "sc", "owari", "type", "dan",
                         "rate", "n0", "lobby", "csrule", "title"])


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(TAGS, st.dictionaries(NAMES, ATTR_VALUES, max_size=8)), max_size=12))
def test_fuzz_tag_soup(tags: list[tuple[str, dict[str, str]]]) -> None:
    body = "".join(
        f"<{tag} " + " ".join(f'{k}="{v}"' for k, v in attrs.items()) + "/>"
        for tag, attrs in tags)
    parses_or_log_format_error(log(init() + body))
    parses_or_log_format_error(log(body))


# -- the real corpus ------------------------------------------------------------

def corpus_files(corpus_dir: Path) -> list[Path]:
    files = sorted(p for p in (corpus_dir / "tenhou_xml").rglob("*") if p.is_file())
    assert files, "no Tenhou XML files in the corpus"
    return files


def count_tags(data: bytes, tag: bytes) -> int:
    return len(re.findall(rb"<" + tag + rb"[\s/>]", data))


@pytest.mark.corpus
def test_corpus_parses_with_matching_counts(corpus_dir: Path) -> None:
    four_player = 0
    for path in corpus_files(corpus_dir):
        data = read_log_bytes(path)
        game = parse(data, str(path))
        if game.hints.players != 4:
            continue
        four_player += 1
        evs = list(game.events)
        assert sum(isinstance(e, StartKyoku) for e in evs) == count_tags(data, b"INIT"), path
        assert sum(isinstance(e, Hora) for e in evs) == count_tags(data, b"AGARI"), path
        assert sum(isinstance(e, Ryukyoku) for e in evs) == count_tags(data, b"RYUUKYOKU")
        assert sum(isinstance(e, EndGame) for e in evs) == data.count(b"owari=")
        # draw/discard/meld tags become events one for one
        plays = len(re.findall(rb"<[TUVWDEFG]\d+/>", data)) + count_tags(data, b"N")
        assert sum(isinstance(e, (Tsumo, Dahai, Chi, Pon, Daiminkan, Kakan, Ankan))
                   for e in evs) == plays, path
    assert four_player > 100


@pytest.mark.corpus
def test_corpus_claims_are_consistent(corpus_dir: Path) -> None:
    for path in corpus_files(corpus_dir):
        game = parse(read_log_bytes(path), str(path))
        last_index = 0
        for i, event in enumerate(game.events):
            # hora deltas move exactly the riichi sticks this winner collects
            if isinstance(event, Hora):
                assert event.deltas is not None and event.kyotaku is not None
                assert sum(event.deltas) == 1000 * event.kyotaku, (path, event)
            if isinstance(event, Ryukyoku):
                assert event.deltas is not None and sum(event.deltas) == 0, (path, event)
            # events come in XML order
            src = game.src_of(i)
            assert src is not None and src.pointer is not None
            match = re.match(r"tag (\d+)(?: <|$)", src.pointer)
            assert match, src
            index = int(match.group(1))
            assert index >= last_index, (path, event)
            last_index = index


@pytest.mark.corpus
def test_corpus_games_are_built_canonical(corpus_dir: Path) -> None:
    for path in corpus_files(corpus_dir):
        evs = parse(read_log_bytes(path), str(path)).events
        assert all(a is b for a, b in zip(canonical(evs), evs, strict=True)), path


@pytest.mark.corpus
def test_corpus_end_events_only_after_results(corpus_dir: Path) -> None:
    for path in corpus_files(corpus_dir):
        evs = list(parse(read_log_bytes(path), str(path)).events)
        for before, event in itertools.pairwise(evs):
            if isinstance(event, EndKyoku):
                assert isinstance(before, (Hora, Ryukyoku)), path
            if isinstance(event, EndGame):
                assert isinstance(before, EndKyoku), path
        if evs and isinstance(evs[-1], EndKyoku | EndGame):
            continue
        # a log that stops mid-hand ends on a play event, with no end events invented
        assert not any(isinstance(e, EndGame) for e in evs), path


@pytest.mark.corpus
def test_corpus_gzip_files(corpus_dir: Path) -> None:
    gzipped = [p for p in corpus_files(corpus_dir) if p.read_bytes()[:2] == b"\x1f\x8b"]
    assert gzipped
    for path in gzipped:
        data = read_log_bytes(path)
        assert data.lstrip().startswith(b"<mjloggm")
        assert parse(data, str(path)).events
