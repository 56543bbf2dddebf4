"""Events and legal actions in words, for the dispute packet's timeline.

>>> from kansa.replay.tiles import Tile
>>> from kansa.replay.legal import Action
>>> action_text(Action(1, "pon", (Tile.parse("5p"), Tile.parse("5p"))))
'call pon with 55p'
"""

from __future__ import annotations

from collections.abc import Sequence

from kansa.replay.events import (
    Ankan,
    Chi,
    Dahai,
    Daiminkan,
    Dora,
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
    StartKyoku,
    Tsumo,
)
from kansa.replay.legal import Action
from kansa.replay.tiles import format_tiles

KINDS: dict[type, str] = {
    Tsumo: "tsumo", Dahai: "dahai", Chi: "chi", Pon: "pon", Daiminkan: "daiminkan",
    Ankan: "ankan", Kakan: "kakan", Reach: "riichi", Hora: "hora", Ryukyoku: "ryukyoku",
    Nukidora: "nukidora", StartKyoku: "deal", ReachAccepted: "riichi-accepted",
    Dora: "dora", EndKyoku: "end", EndGame: "end-game",
}
"""Each event type as the legal actions name it (or a name of its own)."""

_ACTIONS = {
    "tsumo": "draw", "dahai": "discard", "chi": "call chi", "pon": "call pon",
    "daiminkan": "call an open kan", "ankan": "declare a concealed kan",
    "kakan": "add to a pon (kan)", "riichi": "declare riichi", "ryukyoku": "declare a draw",
    "nukidora": "set North aside", "pass": "pass",
}


def action_text(a: Action) -> str:
    """A legal action in words (without its seat)."""
    tiles = format_tiles(a.tiles)
    if a.kind == "hora":
        return f"win on {tiles}" if tiles else "win"
    words = _ACTIONS.get(a.kind, a.kind)
    if not tiles:
        return words
    return f"{words} with {tiles}" if a.kind in ("chi", "pon", "daiminkan") \
        else f"{words} {tiles}"


def _seat(seat: int, names: Sequence[str]) -> str:
    name = names[seat] if 0 <= seat < len(names) and names[seat] else ""
    return f"seat {seat}" + (f" ({name})" if name else "")


def event_text(ev: Event, names: Sequence[str], *, short: bool = False) -> str:
    """The event as a sentence; ``short``: the action alone, without who made it."""
    who = _seat(ev.actor, names) if hasattr(ev, "actor") and ev.actor is not None else ""
    what: str
    if isinstance(ev, StartKyoku):
        return (f"deal of {ev.bakaze.mjai}{ev.kyoku}-{ev.honba}: dealer seat {ev.oya}, dora "
                f"indicator {ev.dora_marker.mpsz}, {ev.kyotaku} riichi sticks on the table")
    if isinstance(ev, Tsumo):
        what = f"draws {ev.tile.mpsz}" if ev.tile is not None else "draws a hidden tile"
    elif isinstance(ev, Dahai):
        what = f"discards {ev.tile.mpsz}" + (" (the tile drawn)" if ev.tsumogiri else "")
    elif isinstance(ev, Chi | Pon | Daiminkan):
        kind = {Chi: "chi", Pon: "pon", Daiminkan: "an open kan"}[type(ev)]
        what = (f"calls {kind} on {ev.tile.mpsz} from seat {ev.target} with "
                f"{format_tiles(ev.consumed)}")
    elif isinstance(ev, Ankan):
        what = f"declares a concealed kan of {format_tiles(ev.consumed)}"
    elif isinstance(ev, Kakan):
        what = f"adds {ev.tile.mpsz} to a pon (kan)"
    elif isinstance(ev, Nukidora):
        what = f"sets {ev.tile.mpsz} aside"
    elif isinstance(ev, Reach):
        what = "declares riichi"
    elif isinstance(ev, ReachAccepted):
        what = "riichi stick accepted"
    elif isinstance(ev, Hora):
        tile = f" on {ev.tile.mpsz}" if ev.tile is not None else ""
        what = (f"wins by tsumo{tile}" if ev.is_tsumo
                else f"wins by ron{tile} from seat {ev.target}")
        if ev.points is not None and not short:
            what += f", {ev.points:,} points"
    elif isinstance(ev, Ryukyoku):
        what = f"draw ({ev.reason.value.replace('_', ' ')})"
        if not who:
            return what
    elif isinstance(ev, Dora):
        return f"new dora indicator {ev.dora_marker.mpsz}"
    elif isinstance(ev, EndKyoku):
        return "end of the hand"
    elif isinstance(ev, EndGame):
        return "end of the game"
    else:
        what = type(ev).__name__
    if short:
        return what.replace("calls", "call").replace("wins", "win").replace(
            "discards", "discard").replace("declares", "declare").replace("draws", "draw")
    return f"{who} {what}" if who else what
