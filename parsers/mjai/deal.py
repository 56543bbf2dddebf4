"""mjai ``start_kyoku`` lines read from their characters, as most mjai writers spell
them: the fields in mjai's own order, written compact or with a space after each colon
and comma (Python's ``json.dumps``).  Decoded, a deal's 52 tile names cost a new string
each and a lookup each; read here, none.

:func:`read_deal` takes a line only when its text is exactly that spelling and every
value is of the type and within the bounds the reader's per-line code wants; any other
line (fields in another order, one more or less, an escape, a number spelled another
way, a name that is not a tile, a hand of another count) it leaves to that code, which
reads it in full and words any error.  What it takes, that code reads the same
(``tests/parsers/test_mjai_deal.py`` compares the two).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from kansa.parsers.canonical import sorted_hidden
from kansa.parsers.fields import Fields
from kansa.parsers.mjai.chars import HIDDEN_TILE, integer, key, past_tile, spaces, tile_at, word
from kansa.parsers.mjai.tiles import TILE_AT
from kansa.replay.events import SourceRef, StartKyoku
from kansa.replay.tiles import Seat, Tile

if TYPE_CHECKING:  # native integers where compiled; the reader imports this module
    from mypy_extensions import i64

    from kansa.parsers.mjai.read import GameBuilder

__all__ = ["DEAL_OPENINGS", "DEFAULT_SCORE", "Deal", "assumed_scores", "begin_kyoku", "read_deal"]

DEAL_OPENINGS: Final = ('{"type":"start_kyoku"', '{"type": "start_kyoku"')
"""How a line :func:`read_deal` reads opens."""


@dataclass(slots=True, init=False, eq=False)
class Deal:
    """The values of a ``start_kyoku`` line, each as the per-line code reads it; the
    hands as written (not sorted; ``None`` for a hidden tile)."""

    bakaze: Final[Tile]
    dora_marker: Final[Tile]
    kyoku: Final[int]
    honba: Final[int]
    kyotaku: Final[int]
    oya: Final[int]
    scores: Final[tuple[int, ...]]
    hands: Final[tuple[tuple[Tile | None, ...], ...]]

    def __init__(self, *, bakaze: Tile, dora_marker: Tile, kyoku: int, honba: int,
                 kyotaku: int, oya: int, scores: tuple[int, ...],
                 hands: tuple[tuple[Tile | None, ...], ...]) -> None:
        self.bakaze = bakaze
        self.dora_marker = dora_marker
        self.kyoku = kyoku
        self.honba = honba
        self.kyotaku = kyotaku
        self.oya = oya
        self.scores = scores
        self.hands = hands


def read_deal(raw: str, players: int | None) -> Deal | None:
    """The deal of the line ``raw`` (without its newline) in a game of ``players``
    seats (``None``: not known yet, then 3 or 4 by the hands), or ``None`` to leave the
    line to the per-line code."""
    size: i64 = len(raw)
    at = spaces(raw, word(raw, 0, size, '{"type":'), size)
    at = key(raw, word(raw, at, size, '"start_kyoku"'), size, '"bakaze":')
    bakaze = tile_at(raw, at, size)
    at = key(raw, past_tile(at, bakaze), size, '"dora_marker":')
    dora_marker = tile_at(raw, at, size)
    kyoku, at = integer(raw, key(raw, past_tile(at, dora_marker), size, '"kyoku":'), size)
    honba, at = integer(raw, key(raw, at, size, '"honba":'), size)
    kyotaku, at = integer(raw, key(raw, at, size, '"kyotaku":'), size)
    oya, at = integer(raw, key(raw, at, size, '"oya":'), size)
    at = word(raw, key(raw, at, size, '"scores":'), size, "[")
    scores: list[int] = []
    while at >= 0:
        score, at = integer(raw, at, size)
        scores.append(int(score))
        if at < 0 or at >= size or raw[at] != ",":
            break
        at = spaces(raw, at + 1, size)
    at = key(raw, word(raw, at, size, "]"), size, '"tehais":')
    hands: list[tuple[Tile | None, ...]] = []
    at = word(raw, _hands(raw, at, size, hands), size, "}")
    if at != size or bakaze < 0 or dora_marker < 0:
        return None
    n = len(hands) if players is None else players
    wind = TILE_AT[bakaze]
    dora = TILE_AT[dora_marker]
    if not (n == len(hands) == len(scores) and 3 <= n <= 4 and wind is not None
            and wind.is_wind and dora is not None and 1 <= kyoku <= 4 and honba >= 0
            and kyotaku >= 0 and 0 <= oya < n):
        return None
    return Deal(bakaze=wind, dora_marker=dora, kyoku=int(kyoku), honba=int(honba),
                kyotaku=int(kyotaku), oya=int(oya), scores=tuple(scores),
                hands=tuple(hands))


def begin_kyoku(g: GameBuilder, deal: Deal, src: SourceRef) -> StartKyoku:
    """The event of a deal whose values are read and checked (the per-line code's, or
    :func:`read_deal`), and the hand begun in ``g``."""
    n = len(deal.hands)
    if g.n is None:
        g.n = n
    tehais = []
    for seat, dealt in enumerate(deal.hands):
        hand = sorted_hidden(dealt)
        if hand and hand[-1] is None:  # (sorted, hidden tiles go last)
            g.hidden.add(seat)
        tehais.append(hand)
    g.begin(Seat(deal.oya), deal.bakaze, deal.scores)
    return StartKyoku(
        bakaze=deal.bakaze, kyoku=deal.kyoku, honba=deal.honba, kyotaku=deal.kyotaku,
        oya=Seat(deal.oya), scores=deal.scores, dora_marker=deal.dora_marker,
        tehais=tuple(tehais), src=src)


def assumed_scores(g: GameBuilder, f: Fields, n: int) -> tuple[int, ...]:
    """Scores for a start_kyoku without them: the previous result's, else the default."""
    g.assumed.add(len(g.events))
    if g.start_scores is None:
        score = g.hints.get("start_score") or DEFAULT_SCORE[n]
        g.note(f"start_kyoku gives no scores: assumed {score} each (the audit's rule set "
               "decides the real starting score)", f.src, "warning")
        return (score,) * n
    if g.result_scores is not None:
        g.count("start_kyoku without scores: taken from the previous hand's recorded "
                "result scores", f.src)
        return g.result_scores
    deltas = g.result_deltas
    base = [s - 1000 * k for s, k in zip(g.start_scores, g.sticks, strict=True)]
    if deltas and all(d is not None for d in deltas):
        g.count("start_kyoku without scores: computed from the previous hand's deltas",
                f.src)
        for d in deltas:
            assert d is not None
            base = [s + x for s, x in zip(base, d, strict=True)]
    else:
        g.note("start_kyoku without scores after a hand with no recorded result "
               "deltas; the previous scores less riichi sticks are assumed", f.src)
    return tuple(base)


DEFAULT_SCORE: Final = {3: 35000, 4: 25000}
"""Each player's score at the start, by the number of players, where a log gives none."""

def _hands(text: str, at: i64, size: i64, hands: list[tuple[Tile | None, ...]]) -> i64:
    """Read a list of lists of quoted tile names into ``hands`` (``?``: ``None``)."""
    if at < 0 or at >= size or text[at] != "[":
        return -1
    at += 1
    while True:
        if at + 1 >= size or text[at] != "[":
            return -1
        at += 1
        hand: list[Tile | None] = []
        if text[at] == "]":
            at += 1
        else:
            while True:
                k = tile_at(text, at, size)
                if k == -1:
                    return -1
                hand.append(None if k == HIDDEN_TILE else TILE_AT[k])
                at = past_tile(at, k)
                if at >= size:
                    return -1
                if text[at] != ",":
                    break
                at += 1
                if at < size and text[at] == " ":
                    at = spaces(text, at, size)
            if text[at] != "]":
                return -1
            at += 1
        hands.append(tuple(hand))
        if at >= size:
            return -1
        if text[at] != ",":
            return at + 1 if text[at] == "]" else -1
        at += 1
        if at < size and text[at] == " ":
            at = spaces(text, at, size)
