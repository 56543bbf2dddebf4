"""The state transitions: what each event does to the table, one function per kind.

No checks here: the engine calls a transition once it has made sure the event can be
followed (the right seat, the tiles in the hand, see :mod:`kansa.replay.conservation`),
and records and judges around it.  Tiles leave a hand before the transition runs
(:func:`kansa.replay.conservation.take`), since taking them can fail.
"""

from __future__ import annotations

from typing import Final

from kansa.replay.events import Chi, Dahai, Daiminkan, Pon, ReachAccepted, Ryukyoku, StartKyoku
from kansa.replay.melds import Meld, MeldType
from kansa.replay.payments import RIICHI_STICK
from kansa.replay.rules import RuleSet
from kansa.replay.state import GameState, LastDiscard, PlayerState, RiverTile, RoundState
from kansa.replay.tiles import Tile

_CALLED: Final = {Chi: MeldType.CHI, Pon: MeldType.PON, Daiminkan: MeldType.DAIMINKAN}


def start_kyoku(st: GameState, ev: StartKyoku, rules: RuleSet) -> RoundState:
    """Deal the hand ``ev`` starts: scores and counters from the event, a fresh round."""
    st.scores = list(ev.scores)
    st.honba = ev.honba
    st.kyotaku = ev.kyotaku
    rs = st.round = RoundState.initial(ev, rules)
    st.hands_played += 1
    return rs


def tsumo(rs: RoundState, p: PlayerState, tile: Tile | None, rinshan: bool) -> None:
    """``p`` draws ``tile`` (``None``: unseen), from the dead wall when ``rinshan``."""
    if rs.live_wall > 0:  # a replacement after a kan on the last tile (kan.last-tile)
        rs.live_wall -= 1
    if tile is None:
        p.hidden += 1
    else:  # PlayerState.add, inline: this runs for every draw
        p.c37[tile.code] += 1
        n = p.c34[tile.index] = p.c34[tile.index] + 1
        p.pairs += (n == 2) - (n == 3)
        p.known_count += 1
    p.last_draw = tile
    if not rinshan:
        p.draws += 1
        if p.draws > 1:
            rs.first_go_around = False
    if rs.last_discard is not None:
        rs.last_discard.claimable = False
    if rs.kakan is not None or rs.kita is not None:
        # the added kan or the North was not won on: now it breaks ippatsu
        rs.kakan = rs.kita = None
        for q in rs.players:
            q.ippatsu = False
    rs.current = p.seat
    rs.after_kan = False
    rs.rinshan_draw = rinshan


def dahai(rs: RoundState, p: PlayerState, ev: Dahai, index: int) -> None:
    """``p``'s discard goes to the river (the tile already left the hand)."""
    tile = ev.tile
    riichi = p.riichi_pending and p.riichi_discard_index is None
    river = p.river
    river.append(RiverTile(tile, ev.tsumogiri, riichi))
    if riichi:
        p.riichi_discard_index = len(river) - 1
    p.discarded34[tile.index] = True
    p.last_draw = None
    if p.riichi:
        p.ippatsu = False  # the first discard after the declaration ends the window
    rs.last_discard = LastDiscard(p.seat, tile, index, last_tile=rs.live_wall == 0,
                                  time=ev.time)
    rs.after_kan = False
    rs.rinshan_draw = False


def call(rs: RoundState, p: PlayerState, ev: Chi | Pon | Daiminkan, entry: RiverTile,
         ) -> Meld:
    """``p`` calls the discard ``entry`` (the consumed tiles already left the hand)."""
    entry.called_by = ev.actor
    mtype = _CALLED[type(ev)]
    meld = Meld(type=mtype, tiles=(*ev.consumed, ev.tile), called=ev.tile, target=ev.target)
    p.melds.append(meld)
    if rs.last_discard is not None:
        rs.last_discard.claimable = False
    rs.current = ev.actor
    rs.first_go_around = False
    p.last_draw = None
    for q in rs.players:
        q.ippatsu = False
    if mtype is MeldType.DAIMINKAN:
        rs.kans += 1
        rs.after_kan = True
    return meld


def kakan(rs: RoundState, p: PlayerState, at: int, tile: Tile) -> None:
    """``p`` adds ``tile`` to its pon ``p.melds[at]`` (the tile already left the hand)."""
    p.melds[at] = p.melds[at].kakan(tile)
    rs.kans += 1
    rs.after_kan = True
    p.last_draw = None
    rs.kakan = (p.seat, tile)  # robbable until the replacement draw


def ankan(rs: RoundState, p: PlayerState, tiles: tuple[Tile, ...]) -> None:
    """``p`` declares a concealed kan of ``tiles`` (already out of the hand)."""
    p.melds.append(Meld(type=MeldType.ANKAN, tiles=tiles))
    rs.kans += 1
    rs.after_kan = True
    rs.first_go_around = False
    p.last_draw = None
    for q in rs.players:
        q.ippatsu = False


def nukidora(rs: RoundState, p: PlayerState, tile: Tile) -> None:
    """``p`` sets ``tile`` (a North) aside, already out of the hand; a replacement tile
    follows.  Like a call it ends the first go-around; like an added kan it can be won
    on until the replacement draw, which then breaks ippatsu (see :func:`tsumo`)."""
    p.nukidora += 1
    p.last_draw = None
    rs.after_kan = True
    rs.first_go_around = False
    rs.kita = (p.seat, tile)


def reach(p: PlayerState) -> None:
    """``p`` declares riichi; the next discard is the declaration tile."""
    p.riichi_pending = True
    p.riichi_discard_index = None


def reach_accepted(st: GameState, rs: RoundState, p: PlayerState, ev: ReachAccepted) -> None:
    """``p``'s riichi stands: the stick goes to the table."""
    p.riichi_pending = False
    p.riichi = True
    p.riichi_turn = p.draws
    p.ippatsu = True
    p.double_riichi = rs.first_go_around and p.draws <= 1
    rs.riichi_count += 1
    st.kyotaku += 1
    if st.scores is not None:
        st.scores[ev.actor] -= RIICHI_STICK


def dora(rs: RoundState, marker: Tile) -> None:
    """A new dora indicator is turned."""
    rs.dora_markers.append(marker)


def hora(rs: RoundState) -> None:
    """A win ends the hand (more wins on the same tile may follow)."""
    rs.ended = True


def ryukyoku(rs: RoundState, ev: Ryukyoku) -> None:
    """The hand ends in a draw."""
    rs.ended = True
    rs.draw = ev


def apply_deltas(st: GameState, deltas: tuple[int, ...]) -> None:
    """Move the points of a result (when the scores are known)."""
    if st.scores is not None:
        st.scores = [s + d for s, d in zip(st.scores, deltas, strict=True)]
