"""The mjai reader and writer: corpus, dialects, one-seat logs, round trips, bad input."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kansa.parsers import FORMATS, available_formats, load, sniff
from kansa.parsers.canonical import canonical
from kansa.parsers.errors import LogFormatError, UnsupportedLogError
from kansa.parsers.mjai import claims as claims_module
from kansa.parsers.mjai import read as mjai_read
from kansa.parsers.mjai.read import parse, write
from kansa.replay.engine import replay
from kansa.replay.events import (
    Chi,
    Dahai,
    DrawReason,
    EndGame,
    Hora,
    ReachAccepted,
    Ryukyoku,
    StartKyoku,
    Tsumo,
)
from kansa.replay.game import Game, Player, RuleHints
from kansa.replay.rules import RuleSet
from kansa.replay.tiles import Seat, Tile
from kansa.replay.yaku import Limit, Yaku
from kansa.sim.table import simulate
from tests.corpus_counts import manifest_files, mjai_games, mjai_players
from tests.parser_helpers import (
    check_error,
    corpus_files,
    dumps,
    errors,
    run,
    structural_errors,
)

MANUE = "Apricot-S__mjai-manue-go"

# Corpus logs that are themselves illegal or cut short, with the rule ids a
# replay may report there and why.
EXPECTED: dict[str, tuple[tuple[str, ...], str]] = {
    "kuikae.mjson": (("kuikae",), "gimite's kuikae test: seat 0 chis 4m with 2m3m and "
                     "discards 1m, the suji swap-call kuikae forbids; the snippet then stops"),
    "kuikae_only.mjson": (("kuikae",), "gimite's kuikae test: after three pons seat 0 chis 4m "
                          "with 2m3m keeping only 1m1m, so its only discard would be kuikae; "
                          "the snippet stops at the chi"),
    "2026-06-18-160903.mjson": ((), "the server stopped on a bot's illegal reply (the last "
                                "line is an 'error' event): the log is truncated mid-hand"),
    "2026-06-19-030401.mjson": ((), "the server stopped on a bot's illegal chi reply (the "
                                "last line is an 'error' event): the log is truncated mid-hand"),
}


def _lines(*objs: Any) -> bytes:
    return ("\n".join(o if isinstance(o, str) else dumps(o) for o in objs) + "\n").encode()


def _files(corpus: Path) -> list[Path]:
    """Every mjai file of the corpus, all of them listed in its manifest."""
    files = corpus_files(corpus, "mjai")
    assert files == sorted(manifest_files(corpus, "mjai")), files
    return files


# -- the corpus ------------------------------------------------------------------

@pytest.mark.corpus
def test_every_corpus_log_parses_and_replays(corpus_dir: Path) -> None:
    """Four-player games give no errors but the expected ones; three-player games (as
    many starting hands) are not audited yet, so only their state is held to that."""
    games = 0
    files = _files(corpus_dir)
    for path in files:
        found = load(path)
        assert found and all(g.format == "mjai" and g.events for g in found), path
        players = mjai_players(path)
        for game in found:
            games += 1
            assert game.hints.players == players, path
            result = run(game)
            allowed, why = EXPECTED.get(path.name, ((), ""))
            found_errors = errors(result) if players == 4 else structural_errors(result)
            bad = [v for v in found_errors if not any(a in v.rule for a in allowed)]
            assert not bad, (path, why, [f"{v.rule}: {v.message}" for v in bad])
            if path.name in EXPECTED:
                assert any(v.rule == "log.truncated" for v in result.violations), why
    assert games == sum(mjai_games(p) for p in files)


@pytest.mark.corpus
def test_manue_archives_keep_gimite_claims(corpus_dir: Path) -> None:
    game = load(corpus_dir / "mjai" / MANUE / "2026-06-18-160903.mjson")[0]
    wins = [e for e in game.events if isinstance(e, Hora)]
    assert wins[0].yaku == ((Yaku.TANYAO, 1),) and wins[0].fu == 30 and wins[0].points == 1000
    assert wins[0].hand is not None and len(wins[0].hand) == 11 and wins[0].tile is Tile.P5
    assert Tile.P5 in wins[0].hand
    # 'sangenpai' tells only how many dragon pungs: the hand shows which
    assert (Yaku.HATSU, 1) in (wins[2].yaku or ())
    assert (Yaku.HAKU, 1) in (wins[3].yaku or ())
    messages = [d.message for d in game.diagnostics]
    assert any("assumed 25000" in m for m in messages)
    assert any("records an error" in m for m in messages)
    accepted = [e for e in game.events if isinstance(e, ReachAccepted)]
    assert accepted[0].scores is not None


@pytest.mark.corpus
def test_gimite_snippets_are_one_seat_logs(corpus_dir: Path) -> None:
    game = load(corpus_dir / "mjai" / "gimite__mjai" / "kuikae.mjson")[0]
    assert game.perspective == 0
    start = game.events[0]
    assert isinstance(start, StartKyoku) and start.oya == 3 and start.kyoku == 4
    assert all(t is None for hand in start.tehais[1:] for t in hand)
    assert isinstance(game.events[1], Tsumo) and game.events[1].tile is None
    chi = game.events[3]
    assert isinstance(chi, Chi) and chi.target == 3 and chi.consumed == (Tile.M2, Tile.M3)
    assert game.players == (Player(name="NoName"),) * 4


@pytest.mark.corpus
@pytest.mark.parametrize("seat", [0, 2])
def test_one_seat_view_of_a_corpus_game_replays(corpus_dir: Path, seat: int) -> None:
    out = []
    path = corpus_dir / "mjai" / "smly__RiichiEnv" / "126_204_0_mjai.jsonl"
    for line in path.read_text().splitlines():
        obj = json.loads(line)
        if obj["type"] == "start_kyoku":
            obj["tehais"] = [h if i == seat else ["?"] * 13 for i, h in enumerate(obj["tehais"])]
        if obj["type"] == "tsumo" and obj["actor"] != seat:
            obj["pai"] = "?"
        out.append(obj)
    game = parse(_lines(*out), "view.mjson")[0]
    assert game.perspective == seat
    assert not errors(run(game))
    assert parse(write(game).encode(), "rt")[0].perspective == seat


@pytest.mark.corpus
def test_logs_without_scores_warn_and_replay(corpus_dir: Path) -> None:
    path = corpus_dir / "mjai" / "smly__RiichiEnv" / "126_204_0_mjai.jsonl"
    out = []
    for line in path.read_text().splitlines():
        obj = json.loads(line)
        obj.pop("scores", None)
        out.append(obj)
    game = parse(_lines(*out), "noscores.mjson")[0]
    first = game.diagnostics[0]
    assert "assumed 25000" in first.message and first.src is not None and first.src.line == 2
    assert any("computed from the previous hand's deltas" in d.message
               for d in game.diagnostics)
    assert not errors(run(game))
    original = load(path)[0]
    assert [e for e in game.events if isinstance(e, StartKyoku)] == \
        [e for e in original.events if isinstance(e, StartKyoku)]
    assert len(game.assumed_scores) == sum(isinstance(e, StartKyoku) for e in game.events)
    # the audit warns once, and under a rule set starting at 30000 the replay starts there
    tenhou = run(game)
    assert [v.rule for v in tenhou.violations if v.rule == "log.assumption"] == [
        "log.assumption"]
    ema = replay(game, RuleSet.preset("ema"))
    assert ema.hands[0].start_scores == (30000,) * 4
    assert not [v for v in ema.violations if v.rule == "flow.scores"]


# -- round trips: every corpus game of every installed reader ----------------------

def _all_corpus_games(corpus: Path) -> list[Game]:
    games: list[Game] = []
    installed = set(available_formats())
    logs = (p for d in corpus.iterdir() if d.is_dir() for p in d.rglob("*") if p.is_file())
    for path in sorted(logs):
        try:
            games.extend(load(path))
        except UnsupportedLogError:
            continue
        except LogFormatError:
            # a format this branch has no reader for yet
            assert set(FORMATS) - installed, path
    return games


@pytest.mark.corpus
def test_every_corpus_game_round_trips_through_mjai(corpus_dir: Path) -> None:
    games = _all_corpus_games(corpus_dir)
    formats = {g.format for g in games}
    assert {"mjai", "majiang", "majsoul"} <= formats
    for game in games:
        text = write(game)
        back = parse(text.encode(), "rt.mjson")
        assert len(back) == 1
        again = back[0]
        assert again.events == game.events, game.source
        assert (again.players, again.hints, again.title, again.log_id, again.perspective) == \
            (game.players, game.hints, game.title, game.log_id, game.perspective), game.source
        assert write(again) == text


@pytest.mark.corpus
def test_written_lines_carry_mortals_required_fields(corpus_dir: Path) -> None:
    required = {
        "start_kyoku": {"bakaze", "dora_marker", "kyoku", "honba", "kyotaku", "oya",
                        "scores", "tehais"},
        "tsumo": {"actor", "pai"}, "dahai": {"actor", "pai", "tsumogiri"},
        "chi": {"actor", "target", "pai", "consumed"}, "pon": {"actor", "target", "pai",
                                                              "consumed"},
        "reach": {"actor"}, "reach_accepted": {"actor"}, "hora": {"actor", "target"},
    }
    game = load(corpus_dir / "mjai" / MANUE / "2025-08-23-085608.mjson")[0]
    for line in write(game).splitlines():
        obj = json.loads(line)
        assert next(iter(obj)) == "type"
        assert required.get(obj["type"], set()) <= obj.keys(), obj
    assert sniff(write(game).encode()) == "mjai"


# -- dialect details ---------------------------------------------------------------

START: dict[str, Any] = {
    "type": "start_kyoku", "bakaze": "S", "kyoku": 2, "honba": 1, "kyotaku": 1, "oya": 1,
    "scores": [25000, 24000, 26000, 24000], "dora_marker": "5pr",
    "tehais": [["1m"] * 13, ["2m"] * 13, ["3m"] * 13, ["4m"] * 13]}


def test_gimite_hora_and_ryukyoku_fields() -> None:
    hora = {"type": "hora", "actor": 2, "target": 0, "pai": "C",
            "hora_tehais": ["C", "C", "P", "P", "P", "F", "F", "F", "1s", "2s", "3s", "E", "E"],
            "uradora_markers": ["1p"], "yakus": [["daisangen", 100], ["dora", 0]],
            "fu": 40, "fan": 100, "hora_points": 32000, "pao": 3,
            "deltas": [-32000, 0, 32000, 0], "scores": [1, 2, 3, 4]}
    game = parse(_lines(
        {"type": "start_game", "names": ["a", "b", "c", "d"]}, START, hora,
        {"type": "ryukyoku", "reason": "suchareach", "tenpais": [True, False, False, True],
         "tehais": [["1m", "2m"], ["?", "?"], ["?"], ["E", "E"]], "deltas": [0, 0, 0, 0]},
        {"type": "end_game", "scores": [1, 2, 3, 4], "kansa": {"points": [1.5, 2, 3, -6.5]}},
    ), "g.mjson")[0]
    win = game.events[1]
    assert isinstance(win, Hora)
    assert win.hand is not None and len(win.hand) == 14 and win.hand[-1] is Tile.CHUN
    assert win.yaku == ((Yaku.DAISANGEN, 13), (Yaku.DORA, 0)) and win.han == 13
    assert (win.fu, win.points, win.pao, win.ura_markers) == (40, 32000, 3, (Tile.P1,))
    draw = game.events[2]
    assert isinstance(draw, Ryukyoku) and draw.reason is DrawReason.SUUCHA_RIICHI
    assert draw.hands == ((Tile.M1, Tile.M2), None, None, (Tile.EAST, Tile.EAST))
    end = game.events[3]
    assert isinstance(end, EndGame) and end.points == (1.5, 2.0, 3.0, -6.5)
    assert parse(write(game).encode(), "rt")[0].events == game.events


@pytest.mark.parametrize(("yakus", "read"), [
    ([["daisangen", 200]], ((Yaku.DAISANGEN, 26),)),  # gimite's fan: 100 a yakuman
    ([["tanyao", 100]], ((Yaku.TANYAO, 100),)),  # not a yakuman: its fan as written
    ([["daisangen", 150]], ((Yaku.DAISANGEN, 150),)),  # not a multiple of 100: as written
    ([["tanyao", 2.0]], ((Yaku.TANYAO, 2),)),  # an integral float reads as an integer
])
def test_a_yaku_reads_its_fan(yakus: list[list[Any]], read: tuple[tuple[Yaku, int], ...]
                              ) -> None:
    hora = {"type": "hora", "actor": 0, "target": 0, "pai": "1m", "yakus": yakus,
            "deltas": [0, 0, 0, 0]}
    game = parse(_lines({"type": "start_game", "names": ["a", "b", "c", "d"]}, START, hora),
                 "y.mjson")[0]
    win = game.events[1]
    assert isinstance(win, Hora) and win.yaku == read


def test_a_yaku_whose_fan_is_not_an_integer_is_an_error() -> None:
    hora = {"type": "hora", "actor": 0, "target": 0, "pai": "1m", "yakus": [["tanyao", "1"]]}
    with pytest.raises(LogFormatError, match="'fan of tanyao' should be an integer"):
        parse(_lines({"type": "start_game", "names": ["a", "b", "c", "d"]}, START, hora),
              "y.mjson")


def test_a_discard_right_after_a_call_is_never_tsumogiri() -> None:
    """Some writers flag a discard after a chi or pon as tsumogiri when the tile is the
    seat's last draw; after a call the seat has no drawn tile, so kansa reads it as a
    discard from the hand (as the Tenhou reader does)."""
    def dahai(actor: int, pai: str, tsumogiri: bool) -> dict[str, Any]:
        return {"type": "dahai", "actor": actor, "pai": pai, "tsumogiri": tsumogiri}
    game = parse(_lines(
        START,
        {"type": "tsumo", "actor": 1, "pai": "6m"}, dahai(1, "2m", False),
        {"type": "pon", "actor": 3, "target": 1, "pai": "2m", "consumed": ["2m", "2m"]},
        dahai(3, "4m", True),
        {"type": "chi", "actor": 0, "target": 3, "pai": "4m", "consumed": ["2m", "3m"]},
        dahai(0, "1m", True),
        {"type": "tsumo", "actor": 1, "pai": "7m"}, dahai(1, "7m", True),
    ), "called.mjson")[0]
    flags = [(e.actor, e.tsumogiri) for e in game.events if isinstance(e, Dahai)]
    assert flags == [(1, False), (3, False), (0, False), (1, True)]
    after_pon = game.events[4]
    assert isinstance(after_pon, Dahai)
    flagged = [*game.events[:4], dataclasses.replace(after_pon, tsumogiri=True),
               *game.events[5:]]
    assert canonical(flagged) == game.events
    assert canonical(game.events) == game.events


@pytest.mark.parametrize(("name", "reason"), [
    ("fanpai", DrawReason.EXHAUSTIVE), ("kyushukyuhai", DrawReason.KYUUSHU_KYUUHAI),
    ("sufonrenta", DrawReason.SUUFON_RENDA), ("suchareach", DrawReason.SUUCHA_RIICHI),
    ("sukaikan", DrawReason.SUUKAIKAN), ("sanchaho", DrawReason.SANCHAHOU),
    ("nagashimangan", DrawReason.NAGASHI_MANGAN)])
def test_ryukyoku_reasons(name: str, reason: DrawReason) -> None:
    game = parse(_lines(START, {"type": "ryukyoku", "reason": name}), "r.mjson")[0]
    draw = game.events[1]
    assert isinstance(draw, Ryukyoku) and draw.reason is reason


def test_yaku_names_resolve_winds_and_dragons_from_context() -> None:
    # seat 3 with dealer 1 sits West; the round is South
    hora = {"type": "hora", "actor": 3, "target": 3, "pai": "W",
            "hora_tehais": ["W", "W", "W", "P", "P", "P", "1s", "2s", "3s", "4s", "5s", "6s",
                            "9p", "9p"],
            "yakus": [["jikaze", 1], ["bakaze", 1], ["sangenpai", 1], ["reach", 1],
                      ["menzenchin_tsumoho", 1], ["no_such_yaku", 1]]}
    game = parse(_lines(START, hora), "y.mjson")[0]
    win = game.events[1]
    assert isinstance(win, Hora)
    assert win.yaku == ((Yaku.SEAT_WEST, 1), (Yaku.ROUND_SOUTH, 1), (Yaku.HAKU, 1),
                        (Yaku.RIICHI, 1), (Yaku.MENZEN_TSUMO, 1))
    assert any("no_such_yaku" in d.message for d in game.diagnostics)


def test_writer_round_trips_claims_mjai_has_no_field_for() -> None:
    start = StartKyoku(**{**_start_kwargs(), "oya": 0})
    hora = Hora(actor=Seat(1), target=Seat(0), tile=Tile.M5, deltas=(-8000, 8000, 0, 0),
                hand=(Tile.M5, Tile.M1, Tile.M1), yaku=((Yaku.SEAT_SOUTH, 1), (Yaku.SEAT_EAST, 1),
                                                        (Yaku.KOKUSHI_13, 26), (Yaku.TANYAO, 100)),
                fu=30, han=100, points=8000, limit=Limit.MANGAN,
                dora_markers=(Tile.P5R,), ura_markers=(), pao=None, honba=2, kyotaku=1)
    draw = Ryukyoku(reason=DrawReason.EXHAUSTIVE, tenpai=(True, False, False, False),
                    hands=((), None, None, None))
    game = Game(format="tenhou_xml", source="x", events=canonical((start, hora, draw)),
                players=(Player(name="A", rank="七段", rating=2100.0),) * 4,
                hints=RuleHints(aka=True, kuitan=True, hanchan=True, room="鳳南喰赤",
                                uma=(20, 10, -10, -20)),
                title="t", log_id="2023")
    text = write(game)
    assert '"kansa"' in text and '"jikaze"' in text and '"jikaze_east"' in text
    back = parse(text.encode(), "rt")[0]
    assert back.events == game.events
    assert (back.players, back.hints, back.title, back.log_id) == \
        (game.players, game.hints, game.title, game.log_id)


def _start_kwargs() -> dict[str, Any]:
    return {"bakaze": Tile.EAST, "kyoku": 1, "honba": 0, "kyotaku": 0, "oya": 0,
            "scores": (25000,) * 4, "dora_marker": Tile.P5R,
            "tehais": ((Tile.M1,) * 13,) * 4}


def test_several_games_in_one_file() -> None:
    game_lines = [{"type": "start_game"}, START, {"type": "ryukyoku", "reason": "fanpai"},
                  {"type": "end_kyoku"}, {"type": "end_game"}]
    games = parse(_lines(*game_lines, *game_lines, START), "multi.mjson")
    assert [g.index for g in games] == [0, 1, 2]
    assert "without a start_game" in games[2].diagnostics[0].message


def test_none_error_and_unknown_types_are_diagnostics() -> None:
    game = parse(_lines({"type": "start_game"}, START, {"type": "none"}, {"type": "none"},
                        {"type": "error", "message": "boom"}, {"type": "hello"}), "d")[0]
    messages = [d.message for d in game.diagnostics]
    assert any("'none' lines" in m and "2 lines" in m for m in messages)
    assert any("boom" in m for m in messages)
    assert any("'hello'" in m for m in messages)
    assert len(game.events) == 1


def test_three_player_mjai() -> None:
    start = {**START, "oya": 0, "scores": [35000] * 3, "tehais": START["tehais"][:3]}
    game = parse(_lines(start, {"type": "tsumo", "actor": 0, "pai": "N"},
                        {"type": "kita", "actor": 0, "pai": "N"}), "3p")[0]
    assert game.hints.players == 3
    assert parse(write(game).encode(), "rt")[0].events == game.events


# -- bad input ---------------------------------------------------------------------

def _error(data: bytes) -> LogFormatError:
    with pytest.raises(LogFormatError) as info:
        parse(data, "bad.mjson")
    check_error(info.value)
    return info.value


def test_empty_input() -> None:
    for data in (b"", b"\n\n  \n", b"\xef\xbb\xbf"):
        assert str(_error(data)) == "bad.mjson:1: the file is empty"
    assert "no mjai game events" in str(_error(_lines({"type": "none"})))


def test_not_json_on_line_7() -> None:
    good = [{"type": "start_game"}, START] + [{"type": "tsumo", "actor": 1, "pai": "1m"}] * 4
    err = _error(_lines(*good, '{"type": "dahai", "actor": 1, "pai": "1m",}'))
    assert (err.src.line, err.src.column) == (7, 43)
    assert str(err).startswith("bad.mjson:7:43: not valid JSON")
    err = _error(_lines(*good[:6], '   {"type": "dahai" "actor": 1}'))
    assert (err.src.line, err.src.column) == (7, 21)


def test_bad_tile_and_unknown_actor() -> None:
    err = _error(_lines(START, {"type": "dahai", "actor": 1, "pai": "5x", "tsumogiri": False}))
    assert err.src.line == 2 and "'5x' is not a tile" in str(err)
    err = _error(_lines(START, {"type": "tsumo", "actor": 7, "pai": "5m"}))
    assert err.src.line == 2 and err.src.pointer == "/actor" and "outside 0..3" in str(err)
    err = _error(_lines(START, {"type": "dahai", "actor": 0, "pai": "?", "tsumogiri": False}))
    assert "hidden" in str(err)


@pytest.mark.parametrize("line", [
    '[1, 2]', '{"no_type": 1}', '{"type": 5}', '{"type": "start_kyoku"}',
    '{"type": "start_kyoku", "oya": 0, "dora_marker": "1m", "tehais": [["1m"], 3, [], []]}',
    '{"type": "hora", "actor": 0, "target": 0, "yakus": [["reach"]]}',
    '{"type": "hora", "actor": 0, "target": 0, "deltas": [1, 2]}',
    '{"type": "ryukyoku", "reason": "because"}',
    '{"type": "chi", "actor": 0, "target": 3, "pai": "1m", "consumed": []}',
    '{"type": "tsumo", "actor": true, "pai": "1m"}',
    '{"type": "end_game", "kansa": {"points": ["x", 1, 2, 3]}}',
    '{"type": "end_game", "kansa": {"points": [1e999, 1, 2, 3]}}',
    '{"type": "start_game", "names": "abcd"}', '\xff'])
def test_malformed_lines(line: str) -> None:
    data = line.encode("latin-1") if line == "\xff" else line.encode()
    err = _error(data)
    assert err.src.line == 1


def test_nesting_limit() -> None:
    err = _error(b'{"type": "none", "x": ' + b"[" * 100 + b"]" * 100 + b"}")
    assert "nested deeper" in str(err)
    err = _error(b'{"type": "none", "x": ' + b"[" * 100000 + b"}")
    assert err.src.line == 1


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=300))
def test_random_bytes_never_raise_anything_else(data: bytes) -> None:
    try:
        parse(data, "fuzz.mjson")
    except LogFormatError as exc:
        check_error(exc)


_CORPUS_LINES = [
    dumps(START), '{"type":"tsumo","actor":0,"pai":"5mr"}',
    '{"type":"dahai","actor":0,"pai":"E","tsumogiri":false}',
    '{"type":"pon","actor":1,"target":0,"pai":"E","consumed":["E","E"]}',
    '{"type":"kakan","actor":1,"pai":"E","consumed":["E","E","E"]}',
    '{"type":"ankan","actor":2,"consumed":["9m","9m","9m","9m"]}',
    '{"type":"reach_accepted","actor":2,"deltas":[0,0,-1000,0],"scores":[1,2,3,4]}',
    '{"type":"hora","actor":3,"target":1,"pai":"2s","uradora_markers":["C"],"hora_tehais":'
    '["7m","8m","9m","3p","4p","4p","5p","5pr","6p","9p","9p","3s","4s"],"yakus":[["dora",1],'
    '["sangenpai",2],["jikaze",1]],"fu":30,"fan":4,"hora_points":7700,'
    '"deltas":[8700,0,0,-7700],"scores":[1,2,3,4],"kansa":{"limit":"MANGAN"}}',
    '{"type":"ryukyoku","reason":"fanpai","tehais":[["?"],["1m"],[],["?"]],'
    '"tenpais":[false,true,false,false],"deltas":[-1000,3000,-1000,-1000]}',
    '{"type":"end_game","scores":[1,2,3,4],"kansa":{"points":[1,2,3,4]}}',
]
_JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 200) | st.sampled_from(
        ["1m", "5pr", "?", "E", "x", "", "fanpai", "reach", "MANGAN"]),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(
        st.sampled_from(["type", "actor", "pai", "yakus", "kansa", "x"]), inner, max_size=3),
    max_leaves=12)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.sampled_from(_CORPUS_LINES), st.integers(0, 400), st.text(max_size=4),
                          st.sampled_from(["cut", "insert", "field"]), _JSON),
                min_size=1, max_size=6))
def test_mutated_lines_give_only_format_errors(
        edits: list[tuple[str, int, str, str, Any]]) -> None:
    lines = []
    for line, at, text, how, value in edits:
        if how == "cut":
            lines.append(line[:at] + line[at + 2:])
        elif how == "insert":
            lines.append(line[:at] + text + line[at:])
        else:
            obj = json.loads(line)
            key = sorted(obj)[at % len(obj)]
            obj[key] = value
            lines.append(dumps(obj))
    try:
        games = parse(("\n".join(lines)).encode(), "fuzz.mjson")
    except LogFormatError as exc:
        check_error(exc)
        return
    for game in games:
        run(game)  # whatever was read replays without an exception


@pytest.mark.corpus
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_mutated_corpus_lines_give_only_format_errors(corpus_dir: Path,
                                                      data: st.DataObject) -> None:
    pool = _corpus_line_pool(corpus_dir)
    start = data.draw(st.integers(0, len(pool) - 8))
    lines = pool[start:start + 8]
    for _ in range(data.draw(st.integers(1, 3))):
        k = data.draw(st.integers(0, len(lines) - 1))
        line = lines[k]
        at = data.draw(st.integers(0, len(line)))
        how = data.draw(st.sampled_from(["cut", "insert", "field"]))
        if how == "cut":
            lines[k] = line[:at] + line[at + 3:]
        elif how == "insert":
            lines[k] = line[:at] + data.draw(st.text(max_size=3)) + line[at:]
        else:
            try:
                obj = json.loads(line)
            except ValueError:
                continue  # already cut or garbled by an earlier edit
            obj[data.draw(st.sampled_from(sorted(obj)))] = data.draw(_JSON)
            lines[k] = dumps(obj)
    try:
        games = parse("\n".join(lines).encode(), "fuzz.mjson")
    except LogFormatError as exc:
        check_error(exc)
        return
    for game in games:
        run(game)


_POOL: list[str] = []


def _corpus_line_pool(corpus: Path) -> list[str]:
    """Lines of real corpus logs (the bots' 'logs' annotations dropped to keep them short)."""
    if not _POOL:
        for path in _files(corpus):
            for line in path.read_text(encoding="utf-8").splitlines()[:400]:
                obj = json.loads(line)
                obj.pop("logs", None)
                _POOL.append(dumps(obj))
    return list(_POOL)


def test_sniff_reads_the_type_key_however_it_is_written() -> None:
    sniff_mjai = mjai_read.sniff
    assert sniff_mjai(b'{"type":"start_game","names":["a","b","c","d"]}\n')
    assert sniff_mjai(b'{"\\u0074ype": "start_game"}\n')  # an escaped key is the same key
    assert sniff_mjai(b'{"type":"start_game","names":["' + b"x" * 9000)  # cut by the window
    assert not sniff_mjai(b'{"title":"a","log":[' + b"[0]," * 3000)  # no type key at all
    assert not sniff_mjai(b'{"types":"start_game"}\n')
    assert not sniff_mjai(b'{"name":"a\\nb","log":[' + b"[0]," * 3000)  # an escape, not \\u
    assert sniff_mjai(b'{"type":"start_game","x":NaN}\n')  # what only json reads
    assert sniff_mjai(b'{"type":"start_game","x":' + b"[" * 2000 + b"]" * 2000 + b"}\n")
    assert not sniff_mjai(b'{"type":"dahai_later"}\n{"type":"start_game"}\n')  # first line
    assert not sniff_mjai(b'{"type":"start_game","type":"majiang"}\n')  # the last key counts
    assert not sniff_mjai(b'{"type":"start_game","\\u0074ype":"majiang"}\n')  # escaped, too
    assert not sniff_mjai(b'{"type":"start_games"}\n')
    assert sniff_mjai(b'{ "type" : "end_game", "note": "\\"type\\"" }\n')  # a string's


@pytest.mark.parametrize(("patch", "words"), [
    ({"yaku": [["RIICHI", 1], ["NOT_A_YAKU", 1]]}, "kansa yaku entries"),
    ({"yaku": [[["RIICHI"], 1]]}, "kansa yaku entries"),  # not a name at all
    ({"yaku": [["RIICHI", "one"]]}, "should be an integer"),
    ({"limit": "GIGAMAN"}, "unknown limit"),
    ({"limit": ["MANGAN"]}, "unknown limit"),
])
def test_the_kansa_extension_of_a_win_is_checked(patch: dict[str, Any], words: str) -> None:
    lines = write(simulate(0)).splitlines()
    at = next(i for i, line in enumerate(lines) if '"type":"hora"' in line)
    row = json.loads(lines[at])
    row["kansa"].update(patch)
    lines[at] = json.dumps(row)
    with pytest.raises(LogFormatError) as got:
        parse("\n".join(lines).encode(), "ext.mjson")
    assert words in str(got.value) and got.value.src.line == at + 1


def test_the_kansa_extension_of_a_draw_is_checked() -> None:
    lines = write(simulate(0)).splitlines()
    at = next(i for i, line in enumerate(lines) if '"type":"ryukyoku"' in line)
    row = json.loads(lines[at])
    row["kansa"] = {"reason": "TEA_BREAK"}
    lines[at] = json.dumps(row)
    with pytest.raises(LogFormatError, match="unknown draw reason"):
        parse("\n".join(lines).encode(), "ext.mjson")


_HORA_CLAIMS: dict[str, Any] = {
    "tile": Tile.M1, "deltas": (8000, -8000, 0, 0), "hand": (Tile.M2,),
    "yaku": ((Yaku.RIICHI, 1),), "fu": 30, "han": 4, "points": 8000, "limit": Limit.MANGAN,
    "dora_markers": (Tile.P1,), "ura_markers": (Tile.S1,), "pao": Seat(1), "honba": 2,
    "kyotaku": 3}
_DRAW_CLAIMS: dict[str, Any] = {
    "reason": DrawReason.KYUUSHU_KYUUHAI, "deltas": (0, 0, 0, 0),
    "tenpai": (True, False, False, False), "hands": ((Tile.M1,), None, None, None),
    "actor": Seat(2)}


@pytest.mark.parametrize(("claims", "with_changes", "values"), [
    (claims_module.HoraClaims(), claims_module._hora_with, _HORA_CLAIMS),
    (claims_module.DrawClaims(reason=DrawReason.EXHAUSTIVE), claims_module._draw_with,
     _DRAW_CLAIMS),
])
def test_each_claim_of_the_extension_object_replaces_its_field(
        claims: Any, with_changes: Any, values: dict[str, Any]) -> None:
    fields = [f.name for f in dataclasses.fields(claims)]
    assert sorted(values) == sorted(fields)
    for name in fields:
        changed = with_changes(claims, {name: values[name]})
        assert [getattr(changed, k) for k in fields] == [
            values[k] if k == name else getattr(claims, k) for k in fields]
