"""Everything about a win that its value depends on, read off the replayed state.

:func:`win_situation` is called with the state as it was when the win was
declared (a before-check of :class:`~kansa.replay.events.Hora`).  Scoring takes the
hand from here, never from the log's claim, except where the log hides the
winner's tiles (one-seat logs), where the claimed hand is used and marked so.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from kansa.replay.events import Hora
from kansa.replay.frozen import frozen_reduce
from kansa.replay.melds import Meld, MeldType
from kansa.replay.rules import RuleSet
from kansa.replay.state import GameState, RoundState
from kansa.replay.tiles import WINDS, Seat, Tile


@dataclass(frozen=True, slots=True, kw_only=True, init=False)
class WinSituation:
    winner: Seat
    target: Seat
    win_tile: Tile
    concealed: tuple[Tile, ...]
    """The winner's concealed tiles, the winning tile included."""
    melds: tuple[Meld, ...]
    is_tsumo: bool
    is_dealer: bool
    seat_wind: Tile
    round_wind: Tile
    riichi: bool
    double_riichi: bool
    ippatsu: bool
    rinshan: bool
    chankan: bool
    haitei: bool
    houtei: bool
    tenhou: bool
    chiihou: bool
    renhou: bool
    dora_markers: tuple[Tile, ...]
    ura_markers: tuple[Tile, ...]
    nukidora: int
    honba: int
    kyotaku: int
    hand_from_claim: bool = False
    """The concealed tiles are the log's claim (the replay could not see them)."""
    kita_ron: bool = False
    """A ron on a North set aside (kita): the target's last action, not a discard."""

    def __init__(self, *, winner: Seat, target: Seat, win_tile: Tile,
                 concealed: tuple[Tile, ...], melds: tuple[Meld, ...], is_tsumo: bool,
                 is_dealer: bool, seat_wind: Tile, round_wind: Tile, riichi: bool,
                 double_riichi: bool, ippatsu: bool, rinshan: bool, chankan: bool,
                 haitei: bool, houtei: bool, tenhou: bool, chiihou: bool, renhou: bool,
                 dora_markers: tuple[Tile, ...], ura_markers: tuple[Tile, ...],
                 nukidora: int, honba: int, kyotaku: int, hand_from_claim: bool = False,
                 kita_ron: bool = False) -> None:
        # written out, as for ledger.Transfer
        set_field = object.__setattr__
        set_field(self, "winner", winner)
        set_field(self, "target", target)
        set_field(self, "win_tile", win_tile)
        set_field(self, "concealed", concealed)
        set_field(self, "melds", melds)
        set_field(self, "is_tsumo", is_tsumo)
        set_field(self, "is_dealer", is_dealer)
        set_field(self, "seat_wind", seat_wind)
        set_field(self, "round_wind", round_wind)
        set_field(self, "riichi", riichi)
        set_field(self, "double_riichi", double_riichi)
        set_field(self, "ippatsu", ippatsu)
        set_field(self, "rinshan", rinshan)
        set_field(self, "chankan", chankan)
        set_field(self, "haitei", haitei)
        set_field(self, "houtei", houtei)
        set_field(self, "tenhou", tenhou)
        set_field(self, "chiihou", chiihou)
        set_field(self, "renhou", renhou)
        set_field(self, "dora_markers", dora_markers)
        set_field(self, "ura_markers", ura_markers)
        set_field(self, "nukidora", nukidora)
        set_field(self, "honba", honba)
        set_field(self, "kyotaku", kyotaku)
        set_field(self, "hand_from_claim", hand_from_claim)
        set_field(self, "kita_ron", kita_ron)

    @property
    def is_closed(self) -> bool:
        return all(m.type is MeldType.ANKAN for m in self.melds)

    def __reduce__(self) -> tuple[Any, ...]:
        return frozen_reduce(self)

def win_situation(st: GameState, ev: Hora, rules: RuleSet) -> WinSituation | None:
    """The situation of ``ev`` before it is applied, or ``None`` if it cannot be known
    (no winning tile, or a hidden hand without a claimed hand)."""
    rs = st.round
    if rs is None:
        return None
    p = rs.players[ev.actor]
    tsumo = ev.actor == ev.target
    win_tile = _win_tile(rs, ev, tsumo)
    if win_tile is None:
        return None
    from_claim = False
    if p.known:
        concealed = p.concealed_tiles()
        if not tsumo:
            concealed.append(win_tile)
    elif ev.hand is not None:
        concealed, from_claim = list(ev.hand), True
    else:
        return None
    chankan = not tsumo and rs.kakan is not None and rs.kakan[0] == ev.target
    on_kita = not tsumo and rs.kita is not None and rs.kita[0] == ev.target
    if not tsumo and not chankan and not on_kita and rs.last_discard is not None:
        houtei = rs.last_discard.last_tile
    else:
        houtei = False
    first = rs.first_go_around and not p.melds
    is_dealer = ev.actor == rs.start.oya
    return WinSituation(
        winner=ev.actor, target=ev.target, win_tile=win_tile, concealed=tuple(sorted(concealed)),
        melds=tuple(p.melds), is_tsumo=tsumo, is_dealer=is_dealer,
        seat_wind=WINDS[(ev.actor - rs.start.oya) % rules.players],
        round_wind=rs.start.bakaze, riichi=p.riichi, double_riichi=p.double_riichi,
        ippatsu=p.riichi and p.ippatsu,
        rinshan=tsumo and rs.rinshan_draw,
        chankan=chankan,
        haitei=tsumo and rs.live_wall == 0 and not rs.rinshan_draw,
        houtei=houtei,
        tenhou=tsumo and first and is_dealer and p.draws == 1,
        chiihou=tsumo and first and not is_dealer and p.draws == 1,
        renhou=(not tsumo and rules.renhou and rs.first_go_around and p.draws == 0
                and not p.melds),
        dora_markers=tuple(rs.dora_markers), ura_markers=tuple(ev.ura_markers or ()),
        nukidora=p.nukidora, honba=st.honba, kyotaku=st.kyotaku,
        hand_from_claim=from_claim,
        kita_ron=(not tsumo and not chankan and win_tile is Tile.NORTH
                  and (rs.last_discard is None or rs.last_discard.seat != ev.target)),
    )


def _win_tile(rs: RoundState, ev: Hora, tsumo: bool) -> Tile | None:
    p = rs.players[ev.actor]
    if tsumo:
        return p.last_draw if p.last_draw is not None else ev.tile
    if rs.kakan is not None and rs.kakan[0] == ev.target:
        return rs.kakan[1]
    if rs.kita is not None and rs.kita[0] == ev.target:
        return rs.kita[1]
    if rs.last_discard is not None and rs.last_discard.seat == ev.target:
        return rs.last_discard.tile
    return ev.tile
