"""What each seat may do now: the legal actions of a position, as small frozen records.

Derived from the state and the rule set with the helpers the checks use
(:mod:`kansa.replay.hand` for shapes and waits, the tracker's furiten, the kuikae
memory of :mod:`kansa.replay.checks.claims`).  The list errs on the side of allowing:
a win is offered on any winning shape (whether it has a yaku is the scoring's
judgement), and a seat whose tiles a one-seat log hides may discard an unseen tile
(``tiles`` empty).  Abortive draws other than nine terminals are not offered: they are
the table's, not a player's (four winds, four riichi, four kans, three rons).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Final, Literal

from kansa.replay import hand
from kansa.replay.checks.claims import forbidden_discards
from kansa.replay.melds import MeldType
from kansa.replay.memory import Memos
from kansa.replay.rules import RuleSet
from kansa.replay.settle import WinEntry
from kansa.replay.state import GameState, PlayerState, RoundState
from kansa.replay.tiles import ALL_TILES, YAOCHU, Seat, Tile, shimocha

ActionKind = Literal["tsumo", "dahai", "chi", "pon", "daiminkan", "ankan", "kakan", "riichi",
                     "hora", "ryukyoku", "nukidora", "pass"]
MAX_KANS: Final = 4
_NORTH: Final = Tile.NORTH


@dataclass(frozen=True, slots=True)
class Action:
    """One thing ``seat`` may do: ``tsumo`` is a draw from the wall, ``hora`` a win
    (``tiles``: the winning tile), a call's ``tiles`` are the ones taken from the hand."""

    seat: Seat
    kind: ActionKind
    tiles: tuple[Tile, ...] = ()


def legal_actions(st: GameState, rules: RuleSet, memos: Memos,
                  wins: Sequence[WinEntry] = ()) -> list[Action]:
    """Every action open to every seat in the position ``st``; empty between hands, after
    the hand's result (but for another ron on the same tile: ``wins`` are the hand's)
    and once the state is lost."""
    rs = st.round
    if rs is None or rs.desync is not None or rs.current is None:
        return []
    if rs.ended:
        return list(_another_ron(rs, wins))
    p = rs.players[rs.current]
    last = rs.last_discard
    if p.size == 14 or (p.size == 13 and rs.after_kan):
        if p.size == 13:  # a kan or North set aside: the replacement tile comes next
            return [*_chankan(rs, rules), Action(p.seat, "tsumo")]
        return list(_own_turn(st, rs, p, rules, memos))
    if last is not None and last.seat == p.seat:
        return list(_after_discard(rs, last.tile, rules))
    if last is None and all(q.draws == 0 for q in rs.players):
        return [Action(p.seat, "tsumo")]  # the dealer's first draw
    return []


def _own_turn(st: GameState, rs: RoundState, p: PlayerState, rules: RuleSet,
              memos: Memos) -> Iterator[Action]:
    seat = p.seat
    counts = p.c34
    drawn = p.last_draw
    if p.hidden:
        yield Action(seat, "dahai")
    if drawn is not None or p.hidden or p.draws == 0:  # (a dealer dealt 14 has no draw)
        if p.hidden or hand.is_complete(counts):
            yield Action(seat, "hora")  # (which tile the log names as the last is its own)
        if _nine_terminals(rs, p):
            yield Action(seat, "ryukyoku")
    if p.riichi:
        if drawn is not None:
            yield Action(seat, "dahai", (drawn,))
    else:
        forbidden = forbidden_discards(memos, seat)
        for code, n in enumerate(p.c37):
            if n and ALL_TILES[code].index not in forbidden:
                yield Action(seat, "dahai", (ALL_TILES[code],))
        if _may_riichi(st, rs, p, rules):
            yield Action(seat, "riichi")
    if drawn is None and not p.hidden:
        return  # right after a call: a discard only
    if rs.kans < MAX_KANS and rs.live_wall > 0 and p.hidden:
        yield from (Action(seat, k) for k in ("ankan", "kakan"))
    elif rs.kans < MAX_KANS and rs.live_wall > 0:
        for kind, n in enumerate(counts):
            if n == 4 and (not p.riichi or (drawn is not None and drawn.index == kind
                                            and hand.ankan_keeps_waits(_before_draw(p), kind))):
                yield Action(seat, "ankan", _copies(p, kind, 4))
        if not p.riichi:
            for m in p.melds:
                if m.type is MeldType.PON and counts[m.tiles[0].index]:
                    yield Action(seat, "kakan", _copies(p, m.tiles[0].index, 1))
    north_drawn = drawn is not None and drawn.index == _NORTH.index
    if rules.players == 3 and rs.live_wall > 0 and (
            p.hidden or (p.c37[_NORTH.code] and (not p.riichi or north_drawn))):
        yield Action(seat, "nukidora", (_NORTH,))  # in riichi only the North just drawn


def _after_discard(rs: RoundState, tile: Tile, rules: RuleSet) -> Iterator[Action]:
    """The answers to ``tile`` just discarded, and the next draw (or the wall's end)."""
    discarder = rs.current
    assert discarder is not None
    last_tile = rs.live_wall == 0
    kind = tile.index
    for q in rs.players:
        if q.seat == discarder:
            continue
        yield Action(q.seat, "pass")
        if _can_ron(q, kind):
            yield Action(q.seat, "hora", (tile,))
        if q.riichi or last_tile:
            continue
        chi_seat = rules.players == 4 and q.seat == shimocha(discarder, rules.players) \
            and not tile.is_honor
        if q.hidden:  # tiles the log does not show: any call may be there
            yield from (Action(q.seat, k) for k in ("pon", "daiminkan", "chi")
                        if k != "chi" or chi_seat)
            continue
        if q.c34[kind] >= 2:
            yield from (Action(q.seat, "pon", t) for t in _choices(q, kind, 2))
        if q.c34[kind] >= 3 and rs.kans < MAX_KANS:
            yield Action(q.seat, "daiminkan", _copies(q, kind, 3))
        if chi_seat:
            yield from (Action(q.seat, "chi", t) for t in _chi_choices(q, tile))
    following = Seat(shimocha(discarder, rules.players))
    yield Action(following, "ryukyoku") if last_tile else Action(following, "tsumo")


def _another_ron(rs: RoundState, wins: Sequence[WinEntry]) -> Iterator[Action]:
    """After a ron, the other players waiting on the same tile may win on it too."""
    if rs.draw is not None or not wins or wins[-1].event.is_tsumo:
        return
    ev = wins[-1].event
    won = {w.event.actor for w in wins}
    for q in rs.players:
        if q.seat != ev.target and q.seat not in won and ev.tile is not None \
                and _can_ron(q, ev.tile.index):
            yield Action(q.seat, "hora", (ev.tile,))


def _chankan(rs: RoundState, rules: RuleSet) -> Iterator[Action]:
    """Robbing the kan just added (a win for whoever waits on the tile), a concealed kan
    for thirteen orphans where the rules allow it, or a win on a North just set aside."""
    seat = rs.current
    assert seat is not None
    p = rs.players[seat]
    if rs.kakan is not None:
        seat, tile = rs.kakan
        robbed: tuple[Tile, ...] = (tile,)
    elif rs.kita is not None:
        seat, tile = rs.kita
        robbed = (tile,)
    elif p.melds and p.melds[-1].type is MeldType.ANKAN and rules.chankan_ankan_kokushi:
        robbed = (p.melds[-1].tiles[0],)
    else:
        robbed = ()
    for q in rs.players:
        for tile in robbed:
            if q.seat != seat and _can_ron(q, tile.index):
                yield Action(q.seat, "hora", (tile,))


def _can_ron(q: PlayerState, kind: int) -> bool:
    """``kind`` completes ``q``'s hand and ``q`` is not furiten (a hidden hand may)."""
    if q.hidden:
        return True
    if q.waits < 0 or not q.waits >> kind & 1:
        return False
    furiten = any(q.discarded34[k] for k in range(34) if q.waits >> k & 1)
    return not furiten and q.temp_furiten is None and q.riichi_furiten is None


def _may_riichi(st: GameState, rs: RoundState, p: PlayerState, rules: RuleSet) -> bool:
    """Closed, tenpai after some discard, the points for the stick, enough wall left."""
    if p.riichi_pending or not p.is_closed or rs.live_wall < rules.riichi_min_live_wall:
        return False
    if rules.riichi_min_points > 0 and st.scores is not None \
            and st.scores[p.seat] < rules.riichi_min_points:
        return False
    if p.hidden:
        return True
    counts = list(p.c34)
    for kind, n in enumerate(p.c34):
        if n:
            counts[kind] -= 1
            tenpai = hand.is_tenpai(counts)
            counts[kind] += 1
            if tenpai:
                return True
    return False


def _nine_terminals(rs: RoundState, p: PlayerState) -> bool:
    """The first draw of an uninterrupted first go-around, nine kinds of terminals and
    honours in hand."""
    return (rs.first_go_around and p.draws == 1 and not any(q.melds for q in rs.players)
            and sum(1 for t in YAOCHU if p.c34[t.index]) >= 9)


def _before_draw(p: PlayerState) -> list[int]:
    counts = list(p.c34)
    if p.last_draw is not None:
        counts[p.last_draw.index] -= 1
    return counts


def _codes(p: PlayerState, kind: int) -> list[Tile]:
    """The copies of ``kind`` in ``p``'s hand, one entry per tile (red fives apart)."""
    out: list[Tile] = []
    for code, n in enumerate(p.c37):
        if n and ALL_TILES[code].index == kind:
            out.extend([ALL_TILES[code]] * n)
    return out


def _copies(p: PlayerState, kind: int, n: int) -> tuple[Tile, ...]:
    return tuple(sorted(_codes(p, kind))[:n]) if n < 4 else tuple(sorted(_codes(p, kind)))


def _choices(p: PlayerState, kind: int, n: int) -> set[tuple[Tile, ...]]:
    return {tuple(sorted(c)) for c in combinations(_codes(p, kind), n)}


def _chi_choices(p: PlayerState, tile: Tile) -> set[tuple[Tile, ...]]:
    out: set[tuple[Tile, ...]] = set()
    k, n = tile.index, tile.number
    for a, b in ((-2, -1), (-1, 1), (1, 2)):
        if 1 <= n + a <= 9 and 1 <= n + b <= 9 and p.c34[k + a] and p.c34[k + b]:
            out.update(tuple(sorted((x, y))) for x in _codes(p, k + a) for y in _codes(p, k + b))
    return out
