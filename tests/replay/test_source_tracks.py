"""``SourceTracks``: positions of shared events found again from the order of play."""

from __future__ import annotations

import pickle

from kansa.replay.events import Dahai, Dora, Reach, ReachAccepted, SourceRef, StartKyoku, Tsumo
from kansa.replay.game import PEEK_NEXT, SAME_PLACE, TAKE_NEXT, Game, SourceTracks
from kansa.replay.tiles import WINDS, Seat, Tile

START = StartKyoku(bakaze=WINDS[0], kyoku=1, honba=0, kyotaku=0, oya=Seat(0),
                   scores=(25000,) * 4, dora_marker=Tile.M1, tehais=((),) * 4,
                   src=SourceRef("g.json", None, None, "/log/0"))
DRAW = Tsumo(actor=Seat(0), tile=Tile.M2)
CUT = Dahai(actor=Seat(0), tile=Tile.M2, tsumogiri=True)
EVENTS = (START, DRAW, Reach(actor=Seat(0)), CUT, ReachAccepted(actor=Seat(0)),
          Dora(dora_marker=Tile.P1, src=SourceRef("g.json", None, None, "/log/0/2/1")),
          DRAW, CUT)
ORDER = bytes([TAKE_NEXT + 0, PEEK_NEXT + 1, TAKE_NEXT + 1, SAME_PLACE, TAKE_NEXT + 0,
               TAKE_NEXT + 1])


def _tracks(events: tuple[object, ...], discards: tuple[int, ...] | None) -> SourceTracks:
    return SourceTracks(events, "g.json", (0,), (3,), (("/log/0/5/{}", "/log/0/6/{}"),),
                        ((None, discards),), (ORDER,))  # type: ignore[arg-type]


def _pointers(tracks: SourceTracks) -> list[str | None]:
    return [None if (ref := tracks.at(i)) is None else ref.pointer
            for i in range(len(EVENTS))]


def test_each_shared_event_is_found_at_its_place_in_its_track() -> None:
    assert _pointers(_tracks(EVENTS, None)) == [
        None, "/log/0/5/0", "/log/0/6/0", "/log/0/6/0", "/log/0/6/0", None, "/log/0/5/1",
        "/log/0/6/1"]
    ref = _tracks(EVENTS, None).at(6)
    assert ref == SourceRef("g.json", 3, None, "/log/0/5/1")  # on the hand's line


def test_a_track_read_out_of_order_gives_its_elements() -> None:
    # a placeholder skipped after an open kan: the discards read are 0 and 2
    assert _pointers(_tracks(EVENTS, (0, 2)))[6:] == ["/log/0/5/1", "/log/0/6/2"]


def test_a_game_answers_through_its_tracks_and_only_for_its_own_events() -> None:
    tracks = _tracks(EVENTS, None)
    game = Game(format="tenhou6", source="g.json", events=EVENTS, runs=tracks)  # type: ignore[arg-type]
    assert game.src_of(7) == SourceRef("g.json", 3, None, "/log/0/6/1")
    assert game.src_of(5) == EVENTS[5].src  # an event's own position first
    copy = Game(format="tenhou6", source="g.json", events=EVENTS[:7], runs=tracks)  # type: ignore[arg-type]
    assert copy.src_of(6) is None
    back = pickle.loads(pickle.dumps(game))
    assert back.runs == tracks and back.src_of(7) == game.src_of(7)
