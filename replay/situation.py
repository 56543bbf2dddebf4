"""Everything about a win that its value depends on, read off the replayed state.

:func:`win_situation` is called with the state as it was when the win was
declared (a before-check of :class:`~kansa.replay.events.Hora`).  Scoring takes the
hand from here, never from the log's claim, except where the log hides the
winner's tiles (one-seat logs), where the claimed hand is used and marked so.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from kansa.replay.events import Hora
from kansa.replay.frozen import frozen_reduce
from kansa.replay.melds import Meld, MeldType
from kansa.replay.rules import RuleSet
from kansa.replay.state import GameState, RoundState
from kansa.replay.tiles import WINDS, Seat, Tile


@dataclass(slots=True, kw_only=True, init=False, unsafe_hash=True)
class WinSituation:
    winner: Final[Seat]
    target: Final[Seat]
    win_tile: Final[Tile]
    concealed: Final[tuple[Tile, ...]]
    """The winner's concealed tiles, the winning tile included."""
    melds: Final[tuple[Meld, ...]]
    is_tsumo: Final[bool]
    is_dealer: Final[bool]
    seat_wind: Final[Tile]
    round_wind: Final[Tile]
    riichi: Final[bool]
    double_riichi: Final[bool]
    ippatsu: Final[bool]
    rinshan: Final[bool]
    chankan: Final[bool]
    haitei: Final[bool]
    houtei: Final[bool]
    tenhou: Final[bool]
    chiihou: Final[bool]
    renhou: Final[bool]
    dora_markers: Final[tuple[Tile, ...]]
    ura_markers: Final[tuple[Tile, ...]]
    nukidora: Final[int]
    honba: Final[int]
    kyotaku: Final[int]
    hand_from_claim: Final[bool]
    """The concealed tiles are the log's claim (the replay could not see them)."""
    kita_ron: Final[bool]
    """A ron on a North set aside (kita): the target's last action, not a discard."""

    def __init__(self, *, winner: Seat, target: Seat, win_tile: Tile,
                 concealed: tuple[Tile, ...], melds: tuple[Meld, ...], is_tsumo: bool,
                 is_dealer: bool, seat_wind: Tile, round_wind: Tile, riichi: bool,
                 double_riichi: bool, ippatsu: bool, rinshan: bool, chankan: bool,
                 haitei: bool, houtei: bool, tenhou: bool, chiihou: bool, renhou: bool,
                 dora_markers: tuple[Tile, ...], ura_markers: tuple[Tile, ...],
                 nukidora: int, honba: int, kyotaku: int, hand_from_claim: bool = False,
                 kita_ron: bool = False) -> None:
        self.winner = winner
        self.target = target
        self.win_tile = win_tile
        self.concealed = concealed
        self.melds = melds
        self.is_tsumo = is_tsumo
        self.is_dealer = is_dealer
        self.seat_wind = seat_wind
        self.round_wind = round_wind
        self.riichi = riichi
        self.double_riichi = double_riichi
        self.ippatsu = ippatsu
        self.rinshan = rinshan
        self.chankan = chankan
        self.haitei = haitei
        self.houtei = houtei
        self.tenhou = tenhou
        self.chiihou = chiihou
        self.renhou = renhou
        self.dora_markers = dora_markers
        self.ura_markers = ura_markers
        self.nukidora = nukidora
        self.honba = honba
        self.kyotaku = kyotaku
        self.hand_from_claim = hand_from_claim
        self.kita_ron = kita_ron

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
