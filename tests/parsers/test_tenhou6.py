"""tenhou.net/6 reader on the real corpus: parse, replay, order of play, dora timing, metadata."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tenhou6_helpers import (
    EQUIM,
    FILES,
    FOUR_PLAYER,
    MJX,
    THREE_PLAYER,
    hands,
    ids,
    load,
    load_one,
    names,
    obj,
    parse_obj,
)

import kansa.parsers
from kansa.parsers.tenhou6 import format as tenhou6
from kansa.replay.engine import replay
from kansa.replay.events import (
    Ankan,
    Dahai,
    Daiminkan,
    Dora,
    DrawReason,
    EndGame,
    EndKyoku,
    Hora,
    Kakan,
    Pon,
    Reach,
    ReachAccepted,
    Ryukyoku,
    SourceRef,
    StartKyoku,
    Tsumo,
)
from kansa.replay.rules import RuleSet
from kansa.replay.tiles import BY_TENHOU6, Tile
from kansa.replay.violations import Severity
from kansa.replay.yaku import Limit, Yaku
from tests.corpus_counts import manifest_files
from tests.corpus_known import known
from tests.parser_helpers import built_canonical, structural_errors

pytestmark = pytest.mark.corpus


@pytest.fixture(autouse=True)
def _need_corpus(corpus_dir: Path) -> None:
    """Skip (through the fixture) when the corpus is not there."""


def test_corpus_is_there(corpus_dir: Path) -> None:
    """Every file the manifest lists, three-player by content where it says "3p"."""
    listed = manifest_files(corpus_dir, "tenhou6")
    assert sorted(listed) == FILES
    assert sorted(p for p, row in listed.items() if row.players == 3) == THREE_PLAYER
    assert FOUR_PLAYER and THREE_PLAYER


@pytest.mark.parametrize("path", FILES, ids=ids(FILES))
def test_every_file_parses(path: Path) -> None:
    for game in load(path):
        assert game.format == "tenhou6"
        assert game.hints.players == (3 if path in THREE_PLAYER else 4)
        for hand in hands(game.events):
            assert isinstance(hand[0], StartKyoku)
            assert any(isinstance(e, Hora | Ryukyoku) for e in hand)
            assert isinstance(hand[-1], EndKyoku | EndGame)
        assert not game.diagnostics, game.diagnostics


@pytest.mark.parametrize("path", FOUR_PLAYER, ids=ids(FOUR_PLAYER))
def test_replays_without_errors(path: Path) -> None:
    for game in load(path):
        result = replay(game, RuleSet.auto(game.hints))
        errors = [v for v in result.violations
                  if v.severity is Severity.ERROR and not known(path.name, v.rule)]
        assert not errors, [(v.rule, v.hand, v.message, str(v.src)) for v in errors]


# kokushi_peinuki.json: the Mahjong Soul converter left the riichi stick out of the
# winner's deltas of a ron on a kita, so the final `sc` is 1000 above what the deltas add
# up to; the replay leaves such sticks on the table (to the top at the end), as the log.
KNOWN_BAD_DATA: dict[str, set[str]] = {}


@pytest.mark.parametrize("path", THREE_PLAYER, ids=ids(THREE_PLAYER))
def test_three_player_replays_without_errors(path: Path) -> None:
    game = load_one(path)
    result = replay(game, RuleSet.preset("tenhou").with_hints(game.hints))
    # three-player payments are not modelled (the audit lists sanma as unsupported): the
    # state and the scores are what is held to account
    errors = {v.rule for v in structural_errors(result)}
    assert errors == KNOWN_BAD_DATA.get(path.name, set())


def test_three_player_exhaustive_draws_use_the_whole_sanma_wall() -> None:
    game = load_one(T3 := EQUIM.parent / "hidacow__mjai-reviewer3p" / "double_nukidora.json")
    assert game.hints.players == 3, T3
    for hand in hands(game.events):
        start = hand[0]
        assert isinstance(start, StartKyoku)
        assert len(start.scores) == len(start.tehais) == 3
        draw = next((e for e in hand if isinstance(e, Ryukyoku)), None)
        if draw is not None and draw.reason is DrawReason.EXHAUSTIVE:
            # 108 tiles - 14 dead wall - 3 x 13 dealt = 55 draws, replacements included
            assert sum(isinstance(e, Tsumo) for e in hand) == 55
    assert "Nukidora" in names(game.events)


@pytest.mark.parametrize("path", FILES, ids=ids(FILES))
def test_sniffed_and_loaded_through_the_registry(path: Path) -> None:
    data = path.read_bytes()
    assert tenhou6.sniff(data[:8192])
    assert kansa.parsers.sniff(data) == "tenhou6"
    assert kansa.parsers.load(path) == load(path)


def test_sniff_rejects_other_formats() -> None:
    assert not tenhou6.sniff(b'{"type":"start_game","names":["a","b","c","d"]}\n')
    assert not tenhou6.sniff(b'<mjloggm ver="2.3"><SHUFFLE seed=""/>')
    assert not tenhou6.sniff(b'{"title":"x","player":["a"],"log":[[{"qipai":{}}]]}')
    assert not tenhou6.sniff(b"[1, 2, 3]")


@settings(max_examples=600, deadline=None)
@given(st.lists(st.sampled_from([b'"log"', b":", b" ", b"[", b"[[", b"-", b"7", b'"x"', b",",
                                 b"{", b'"lo', b'g"', b'"log":[[[-1', b'"log": [[{', b'"logs"',
                                 b"}", b"\n", b"}\n{", b"} \r\n {"]),
                max_size=24))
def test_sniff_finds_a_log_of_kyokus_wherever_the_pattern_does(parts: list[bytes]) -> None:
    """Anywhere in the head; in JSON lines (a first line that ends in "}" and an object
    after it), in the first line, a document of its own."""
    head = b"{" + b"".join(parts)
    first, newline, rest = head.partition(b"\n")
    lines = newline and first.rstrip().endswith(b"}") and rest.lstrip().startswith(b"{")
    where = first.rstrip() if lines else head
    assert tenhou6.sniff(head) == (tenhou6._LOG_OF_KYOKUS.search(where) is not None)


def test_sniff_of_json_lines_reads_the_first_line() -> None:
    kyoku = b'{"title":["",""],"log":[[[0,0,0],[25000,25000,25000,25000]]]}'
    assert tenhou6.sniff(kyoku + b"\n" + kyoku + b"\n")  # mjx: a kyoku a line
    assert not tenhou6.sniff(b'{"type":"start_game"}\n' + kyoku + b"\n")
    # one document written over several lines: its log may be on any of them
    assert tenhou6.sniff(b'{"title": ["", ""]}\n, ' + kyoku[1:])
    assert tenhou6.sniff(b'{\n  "rule": {"disp": "x"},\n' + kyoku[1:])


# -- the order of play -------------------------------------------------------------

CONFUSING = sorted(EQUIM.glob("confusing_nakis_*.json")) + sorted(EQUIM.glob("complex_*.json"))


@pytest.mark.parametrize("path", CONFUSING, ids=ids(CONFUSING))
def test_competing_calls_reconstruct(path: Path) -> None:
    game = load_one(path)
    assert not game.diagnostics
    result = replay(game, RuleSet.preset("tenhou").with_hints(game.hints))
    assert not [v for v in result.violations
                if v.severity is Severity.ERROR and not known(path.name, v.rule)]
    last_discard: dict[int, Tile] = {}
    previous = None
    for e in game.events:
        if isinstance(e, Pon | Daiminkan):
            # a call takes the discard made just before it, by the seat it names
            assert isinstance(previous, Dahai | ReachAccepted)
            assert last_discard[e.target] is e.tile
        if isinstance(e, Dahai):
            last_discard = {e.actor: e.tile}
        previous = e


def test_identical_discards_need_backtracking() -> None:
    """confusing_nakis_2: seat 1 discards 6z and 5z twice each; seat 0 pons the second ones."""
    game = load_one(EQUIM / "confusing_nakis_2.json")
    events = list(game.events)
    for tile in (Tile.HATSU, Tile.HAKU):
        first, second = (i for i, e in enumerate(events)
                         if isinstance(e, Dahai) and e.actor == 1 and e.tile is tile)
        assert not isinstance(events[first + 1], Pon)
        pon = events[second + 1]
        assert isinstance(pon, Pon) and (pon.actor, pon.target, pon.tile) == (0, 1, tile)


# -- kan dora timing, riichi, results ------------------------------------------------


def _seq(path: Path) -> list[str]:
    return names(load_one(path).events)


def test_ankan_reveals_before_the_replacement_draw() -> None:
    seq = _seq(EQUIM / "rinshan.json")
    i = seq.index("Ankan")
    assert seq[i:i + 4] == ["Ankan", "Dora", "Tsumo", "Hora"]


def test_open_kan_reveals_after_the_replacement_draw() -> None:
    game = load_one(EQUIM / "confusing_nakis_4.json")
    seq = names(game.events)
    i = seq.index("Daiminkan")
    assert seq[i:i + 4] == ["Daiminkan", "Tsumo", "Dora", "Dahai"]


def test_chained_kans_and_suukantsu() -> None:
    seq = _seq(EQUIM / "suukantsu_0.json")
    i = seq.index("Daiminkan")
    assert seq[i:i + 12] == [
        "Daiminkan", "Tsumo", "Kakan", "Dora", "Tsumo", "Ankan", "Dora", "Dora", "Tsumo",
        "Kakan", "Tsumo", "Dora"]
    assert seq[i + 12] == "Dahai"


def test_chankan_leaves_the_kan_dora_unrevealed() -> None:
    game = load_one(EQUIM / "double_kakan_then_chankan.json")
    assert not any(isinstance(e, Dora) for e in game.events)
    seq = names(game.events)
    assert seq[-5:] == ["Kakan", "Tsumo", "Kakan", "Hora", "EndKyoku"]  # E2: no EndGame
    hora = next(e for e in game.events if isinstance(e, Hora))
    kakans = [e for e in game.events if isinstance(e, Kakan)]
    assert hora.target == kakans[-1].actor and hora.tile is kakans[-1].tile
    assert (Yaku.CHANKAN, 1) in (hora.yaku or ())


def test_riichi_tile_ronned_is_not_accepted() -> None:
    game = load_one(EQUIM / "double_ron.json")
    seq = names(game.events)
    # South 4, the dealer lost and a seat is over 30000: the game could end here
    assert seq[-6:] == ["Reach", "Dahai", "Hora", "Hora", "EndKyoku", "EndGame"]
    reach = [e for e in game.events if isinstance(e, Reach)]
    accepted = {e.actor for e in game.events if isinstance(e, ReachAccepted)}
    assert reach[-1].actor == 3 and 3 not in accepted
    h1, h2 = (e for e in game.events if isinstance(e, Hora))
    assert (h1.actor, h1.target, h1.deltas) == (0, 3, (13000, 0, 0, -12000))
    assert (h2.actor, h2.target, h2.deltas) == (2, 3, (0, 0, 2000, -2000))
    assert h1.limit is Limit.HANEMAN and h1.points == 12000 and h1.han == 6 and h1.fu is None
    assert h1.ura_markers is not None and h2.ura_markers is None
    assert (h2.fu, h2.han, h2.points) == (30, 2, 2000)
    assert h1.tile is h2.tile is Tile.M7


def test_four_riichi_accepts_the_fourth_stick() -> None:
    seq = _seq(EQUIM / "four_reach.json")
    assert seq[-5:] == ["Reach", "Dahai", "ReachAccepted", "Ryukyoku", "EndKyoku"]
    assert seq.count("ReachAccepted") == 4


def test_kyuushu_kyuuhai_names_the_declarer() -> None:
    game = load_one(EQUIM / "kyushukyuhai.json")
    draw = next(e for e in game.events if isinstance(e, Ryukyoku))
    assert draw.reason is DrawReason.KYUUSHU_KYUUHAI and draw.actor == 0
    assert names(game.events)[-3:] == ["Tsumo", "Ryukyoku", "EndKyoku"]


def test_exhaustive_draw_tenpai_from_payments() -> None:
    game = load_one(EQUIM / "ryukyoku.json")
    draw = next(e for e in game.events if isinstance(e, Ryukyoku))
    assert draw.reason is DrawReason.EXHAUSTIVE
    assert draw.deltas == (1500, 1500, -1500, -1500)
    assert draw.tenpai == (True, True, False, False)


def test_double_ron_with_yakuman_and_ura() -> None:
    game = load_one(EQUIM / "suukantsu_1.json")
    horas = [e for e in game.events if isinstance(e, Hora)]
    yakuman, baiman = horas[-2:]
    assert yakuman.yaku == ((Yaku.SUUKANTSU, 13),) and yakuman.limit is Limit.YAKUMAN
    assert yakuman.points == 32000 and yakuman.han == 13 and yakuman.ura_markers is None
    assert baiman.limit is Limit.BAIMAN and (Yaku.URA_DORA, 4) in (baiman.yaku or ())
    assert baiman.ura_markers is not None and len(baiman.ura_markers) == 5


def test_tsumo_points_add_up() -> None:
    game = load_one(EQUIM / "ranked_game.json")
    dealer_tsumo = [e for e in game.events if isinstance(e, Hora)][1]
    assert dealer_tsumo.actor == dealer_tsumo.target == 1
    assert (dealer_tsumo.fu, dealer_tsumo.han, dealer_tsumo.points) == (30, 4, 11700)
    complex0 = next(e for e in load_one(EQUIM / "complex_nakis_0.json").events
                    if isinstance(e, Hora))
    assert complex0.points == 4000 and complex0.deltas == (-1300, -1300, -2300, 4900)
    assert (Yaku.SEAT_SOUTH, 1) in (complex0.yaku or ())


# -- games, metadata, the end ---------------------------------------------------------


def test_json_lines_of_one_game_are_one_game() -> None:
    path = MJX / "2010081709gm-00a9-0000-fe3371ad.json"
    game = load_one(path)
    lines = [x for x in path.read_text(encoding="utf-8").split("\n") if x.strip()]
    assert len(hands(game.events)) == len(lines) == 15
    starts = [e for e in game.events if isinstance(e, StartKyoku)]
    assert starts[3].src is not None and starts[3].src.line == 4
    assert starts[3].src.pointer == "/log/0"
    assert isinstance(game.events[-1], EndGame) and game.events[-1].scores is None


def test_json_lines_of_two_games_are_two_games() -> None:
    a = (MJX / "2010081709gm-00a9-0000-fe3371ad.json").read_bytes().rstrip(b"\n")
    b = (MJX / "2020081220gm-00a9-0000-9ee6ab3b.json").read_bytes()
    games = tenhou6.parse(a + b"\n" + b, "two.json")
    assert [g.index for g in games] == [0, 1]
    assert [len(hands(g.events)) for g in games] == [15, 5]


def test_ranked_game_metadata_and_final_scores() -> None:
    game = load_one(EQUIM / "ranked_game.json")
    assert game.log_id == "2019050417gm-0029-0000-4f2a8622"
    assert game.players[2].name == "Cさん" and game.players[2].rank == "九段"
    assert game.players[2].rating == pytest.approx(2104.6) and game.players[2].sex == "M"
    h = game.hints
    assert (h.aka, h.kuitan, h.hanchan, h.platform, h.room, h.lobby) == (
        True, True, True, "tenhou", "特南喰赤", "0")
    end = game.events[-1]
    assert isinstance(end, EndGame)
    assert end.scores == (21100, 55000, -4900, 28800)  # tenhou.net/6 sc is in points
    assert end.points == (-19.0, 65.0, -55.0, 9.0)


def test_sc_in_hundreds_is_converted() -> None:
    o = obj(EQUIM / "ranked_game.json")
    o["sc"] = [211, -19, 550, 65, -49, -55, 288, 9]
    end = parse_obj(o).events[-1]
    assert isinstance(end, EndGame) and end.scores == (21100, 55000, -4900, 28800)


def test_excerpt_with_final_scores_has_no_end_game() -> None:
    o = obj(EQUIM / "ranked_game.json")
    del o["log"][2]
    game = parse_obj(o)
    assert not isinstance(game.events[-1], EndGame)
    assert any("excerpt" in d.message for d in game.diagnostics)


def test_room_hints() -> None:
    assert load_one(EQUIM / "four_reach.json").hints.hanchan is False
    soul = load_one(EQUIM / "confusing_nakis_7.json").hints
    assert (soul.platform, soul.aka, soul.kuitan, soul.hanchan) == ("majsoul", True, True, True)
    assert load_one(EQUIM / "confusing_nakis_2.json").hints.room is None
    title = load_one(EQUIM / "ryukyoku.json").title
    assert title is not None and title.startswith("第二期")
    sanma = load_one(EQUIM.parent / "hidacow__mjai-reviewer3p" / "kokushi_ankan.json").hints
    assert (sanma.players, sanma.room) == (3, "三金の間赤")


def test_every_event_has_a_position() -> None:
    game = load_one(EQUIM / "suukantsu_0.json")
    places = [game.src_of(i) for i in range(len(game.events))]
    assert all(p is not None and p.pointer is not None for p in places)
    first = next(i for i, e in enumerate(game.events) if isinstance(e, Tsumo))
    assert places[first] == SourceRef(game.source, None, None, "/log/0/5/0")


def test_a_seats_same_draw_is_one_shared_event_with_a_place_each() -> None:
    game = load_one(MJX / "2016052515gm-00a9-0000-c4d72066.json")
    seen: dict[int, list[int]] = {}
    for i, e in enumerate(game.events):
        if isinstance(e, Tsumo | Dahai):
            seen.setdefault(id(e), []).append(i)
    shared = next(indices for indices in seen.values() if len(indices) > 1)
    event = game.events[shared[0]]
    assert event.src is None and all(game.events[i] is event for i in shared)
    places = {str(game.src_of(i)) for i in shared}
    assert len(places) == len(shared)  # one event, as many places as it occurs
    for i in shared:
        src = game.src_of(i)
        assert src is not None and src.line is not None  # JSON lines: the kyoku's line
        kyoku = json.loads(Path(game.source).read_text().split("\n")[src.line - 1])
        assert src.pointer is not None
        _, _, k, array, element = src.pointer.split("/")
        code = kyoku["log"][int(k)][int(array)][int(element)]
        assert code == 60 or BY_TENHOU6[code] is event.tile


def test_corpus_games_are_built_canonical() -> None:
    for path in FILES:
        assert all(built_canonical(game) for game in load(path)), path


def test_a_riichi_is_placed_at_its_discard() -> None:
    game = load_one(MJX / "2016052515gm-00a9-0000-c4d72066.json")
    i = next(i for i, e in enumerate(game.events) if isinstance(e, Reach))
    assert isinstance(game.events[i + 1], Dahai)
    assert game.src_of(i) == game.src_of(i + 1) and game.src_of(i) is not None
    accepted = next(j for j in range(i, len(game.events))
                    if isinstance(game.events[j], ReachAccepted))
    assert game.src_of(accepted) is not None


def test_a_game_given_other_events_has_no_positions_for_its_shared_ones() -> None:
    game = load_one(EQUIM / "suukantsu_0.json")
    other = dataclasses.replace(game, events=game.events[1:])
    shared = [i for i, e in enumerate(other.events) if e.src is None]
    assert shared and all(other.src_of(i) is None for i in shared)


def test_kan_events_keep_the_log_tiles() -> None:
    game = load_one(MJX / "2016052515gm-00a9-0000-c4d72066.json")
    ankan = next(e for e in game.events if isinstance(e, Ankan) and e.actor == 0)
    assert ankan.consumed == (Tile.M5, Tile.M5, Tile.M5, Tile.M5R)  # "151515a51"
    kakan = next(e for e in game.events if isinstance(e, Kakan) and e.tile is Tile.M3)
    assert kakan.consumed == (Tile.M3,) * 3  # "k13131313": the added tile follows k
