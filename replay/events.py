"""The event vocabulary every log format is turned into.

One dataclass per mjai event type, its fields ``Final`` and set by a written
``__init__`` (as :mod:`kansa.replay.frozen` says of the values made per win: mypy
refuses any later assignment, the compiled build refuses it at run time, and building
one is plain stores).  Each carries a :class:`SourceRef` (where in the file it came
from) and an optional ``time``; neither takes part in equality or the hash, so the
same game read from two formats compares equal.  A parser
may share one event object between every place it occurs (the draws and discards
of the Tenhou XML, tenhou.net/6 and mjai readers); such an event has no ``src``, and
its positions are in the game's ``runs``: read them with ``Game.src_of``.

The log's own claims (deltas, yaku, fu, points, shown hands, final scores)
travel in :class:`Hora`, :class:`Ryukyoku`, :class:`ReachAccepted` and
:class:`EndGame` unchanged: parsers never compute points, replay recomputes
them and the checks compare.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Final

from kansa.replay.frozen import frozen_reduce
from kansa.replay.tiles import Seat, Tile
from kansa.replay.yaku import Limit, Yaku


@dataclass(slots=True, init=False, unsafe_hash=True)
class SourceRef:
    """A position in a log file: a line (and column), and/or a ``pointer``: a JSON
    pointer (``file#/log/0/1``), or a Tenhou XML tag (``file:1 tag 376 <N .../>``).

    ``str()`` is what a referee reads (and the JSON ``source`` field):
    ``file:line:column``, ``file:line pointer`` or ``file#pointer``."""

    file: Final[str]
    line: Final[int | None]
    column: Final[int | None]
    pointer: Final[str | None]

    def __init__(self, file: str, line: int | None = None, column: int | None = None,
                 pointer: str | None = None) -> None:
        self.file = file
        self.line = line
        self.column = column
        self.pointer = pointer

    def __str__(self) -> str:
        where = self.file
        if self.line is not None:
            where += f":{self.line}"
            if self.column is not None:
                where += f":{self.column}"
        if self.pointer is not None:
            where += f" {self.pointer}" if self.line is not None else f"#{self.pointer}"
        return where

    def __reduce__(self) -> tuple[Any, ...]:
        return frozen_reduce(self)


@dataclass(slots=True, kw_only=True, init=False, unsafe_hash=True)
class _Event:
    src: SourceRef | None = field(default=None, compare=False, repr=False)
    time: float | None = field(default=None, compare=False, repr=False)

    def __reduce__(self) -> tuple[Any, ...]:
        return frozen_reduce(self)


@dataclass(slots=True, kw_only=True, init=False, unsafe_hash=True)
class StartKyoku(_Event):
    bakaze: Final[Tile]
    kyoku: Final[int]
    """1-4 within the round wind."""
    honba: Final[int]
    kyotaku: Final[int]
    """Riichi sticks on the table at the start."""
    oya: Final[Seat]
    scores: Final[tuple[int, ...]]
    dora_marker: Final[Tile]
    tehais: Final[tuple[tuple[Tile | None, ...], ...]]
    """Each seat's 13 starting tiles; ``None`` where the log hides them."""

    def __init__(self, *, bakaze: Tile, kyoku: int, honba: int, kyotaku: int, oya: Seat,
                 scores: tuple[int, ...], dora_marker: Tile,
                 tehais: tuple[tuple[Tile | None, ...], ...], src: SourceRef | None = None,
                 time: float | None = None) -> None:
        self.bakaze = bakaze
        self.kyoku = kyoku
        self.honba = honba
        self.kyotaku = kyotaku
        self.oya = oya
        self.scores = scores
        self.dora_marker = dora_marker
        self.tehais = tehais
        self.src = src
        self.time = time

    @property
    def label(self) -> str:
        """``E1``, ``S3-2`` style hand label (honba after the dash when not 0)."""
        base = f"{self.bakaze.mjai}{self.kyoku}"
        return f"{base}-{self.honba}" if self.honba else base


@dataclass(slots=True, kw_only=True, init=False, unsafe_hash=True)
class Tsumo(_Event):
    actor: Final[Seat]
    tile: Final[Tile | None]

    def __init__(self, *, actor: Seat, tile: Tile | None, src: SourceRef | None = None,
                 time: float | None = None) -> None:
        self.actor = actor
        self.tile = tile
        self.src = src
        self.time = time


@dataclass(slots=True, kw_only=True, init=False, unsafe_hash=True)
class Dahai(_Event):
    actor: Final[Seat]
    tile: Final[Tile]
    tsumogiri: Final[bool]

    def __init__(self, *, actor: Seat, tile: Tile, tsumogiri: bool,
                 src: SourceRef | None = None, time: float | None = None) -> None:
        self.actor = actor
        self.tile = tile
        self.tsumogiri = tsumogiri
        self.src = src
        self.time = time


@dataclass(slots=True, kw_only=True, init=False, unsafe_hash=True)
class _Claim(_Event):
    """A claim of ``target``'s discard ``tile`` with ``consumed`` from the hand."""

    actor: Final[Seat]
    target: Final[Seat]
    tile: Final[Tile]
    consumed: Final[tuple[Tile, ...]]

    def __init__(self, *, actor: Seat, target: Seat, tile: Tile, consumed: tuple[Tile, ...],
                 src: SourceRef | None = None, time: float | None = None) -> None:
        self.actor = actor
        self.target = target
        self.tile = tile
        self.consumed = consumed
        self.src = src
        self.time = time


@dataclass(slots=True, kw_only=True, init=False, unsafe_hash=True)
class Chi(_Claim):
    pass


@dataclass(slots=True, kw_only=True, init=False, unsafe_hash=True)
class Pon(_Claim):
    pass


@dataclass(slots=True, kw_only=True, init=False, unsafe_hash=True)
class Daiminkan(_Claim):
    pass


@dataclass(slots=True, kw_only=True, init=False, unsafe_hash=True)
class Kakan(_Event):
    actor: Final[Seat]
    tile: Final[Tile]
    """The added tile."""
    consumed: Final[tuple[Tile, ...]]
    """The three tiles of the pon being extended."""

    def __init__(self, *, actor: Seat, tile: Tile, consumed: tuple[Tile, ...],
                 src: SourceRef | None = None, time: float | None = None) -> None:
        self.actor = actor
        self.tile = tile
        self.consumed = consumed
        self.src = src
        self.time = time


@dataclass(slots=True, kw_only=True, init=False, unsafe_hash=True)
class Ankan(_Event):
    actor: Final[Seat]
    consumed: Final[tuple[Tile, ...]]

    def __init__(self, *, actor: Seat, consumed: tuple[Tile, ...], src: SourceRef | None = None,
                 time: float | None = None) -> None:
        self.actor = actor
        self.consumed = consumed
        self.src = src
        self.time = time


@dataclass(slots=True, kw_only=True, init=False, unsafe_hash=True)
class Nukidora(_Event):
    """Three-player North extraction (kita)."""

    actor: Final[Seat]
    tile: Final[Tile]

    def __init__(self, *, actor: Seat, tile: Tile, src: SourceRef | None = None,
                 time: float | None = None) -> None:
        self.actor = actor
        self.tile = tile
        self.src = src
        self.time = time


@dataclass(slots=True, kw_only=True, init=False, unsafe_hash=True)
class Reach(_Event):
    actor: Final[Seat]

    def __init__(self, *, actor: Seat, src: SourceRef | None = None,
                 time: float | None = None) -> None:
        self.actor = actor
        self.src = src
        self.time = time


@dataclass(slots=True, kw_only=True, init=False, unsafe_hash=True)
class ReachAccepted(_Event):
    actor: Final[Seat]
    scores: Final[tuple[int, ...] | None]
    """Claim: everyone's scores after the stick was paid, where the log records them."""

    def __init__(self, *, actor: Seat, scores: tuple[int, ...] | None = None,
                 src: SourceRef | None = None, time: float | None = None) -> None:
        self.actor = actor
        self.scores = scores
        self.src = src
        self.time = time


@dataclass(slots=True, kw_only=True, init=False, unsafe_hash=True)
class Dora(_Event):
    dora_marker: Final[Tile]

    def __init__(self, *, dora_marker: Tile, src: SourceRef | None = None,
                 time: float | None = None) -> None:
        self.dora_marker = dora_marker
        self.src = src
        self.time = time


@dataclass(slots=True, kw_only=True, init=False, unsafe_hash=True)
class Hora(_Event):
    """A win.  Everything after ``tile`` is the log's claim, ``None`` where absent."""

    actor: Final[Seat]
    target: Final[Seat]
    """The discarder (the kakan player for chankan); ``actor`` for tsumo."""
    tile: Final[Tile | None]
    """The winning tile, where the log names it."""
    deltas: Final[tuple[int, ...] | None]
    hand: Final[tuple[Tile, ...] | None]
    """The winner's concealed tiles including the winning tile."""
    yaku: Final[tuple[tuple[Yaku, int], ...] | None]
    """(yaku, han) pairs; a yakuman counts 13 han per multiple."""
    fu: Final[int | None]
    han: Final[int | None]
    points: Final[int | None]
    """Hand value before honba and sticks (Tenhou's ``ten``)."""
    limit: Final[Limit | None]
    dora_markers: Final[tuple[Tile, ...] | None]
    ura_markers: Final[tuple[Tile, ...] | None]
    pao: Final[Seat | None]
    honba: Final[int | None]
    """The honba count the log shows for this win."""
    kyotaku: Final[int | None]
    """The riichi sticks the log says this winner collected."""

    def __init__(self, *, actor: Seat, target: Seat, tile: Tile | None = None,
                 deltas: tuple[int, ...] | None = None, hand: tuple[Tile, ...] | None = None,
                 yaku: tuple[tuple[Yaku, int], ...] | None = None, fu: int | None = None,
                 han: int | None = None, points: int | None = None, limit: Limit | None = None,
                 dora_markers: tuple[Tile, ...] | None = None,
                 ura_markers: tuple[Tile, ...] | None = None, pao: Seat | None = None,
                 honba: int | None = None, kyotaku: int | None = None,
                 src: SourceRef | None = None, time: float | None = None) -> None:
        self.actor = actor
        self.target = target
        self.tile = tile
        self.deltas = deltas
        self.hand = hand
        self.yaku = yaku
        self.fu = fu
        self.han = han
        self.points = points
        self.limit = limit
        self.dora_markers = dora_markers
        self.ura_markers = ura_markers
        self.pao = pao
        self.honba = honba
        self.kyotaku = kyotaku
        self.src = src
        self.time = time

    @property
    def is_tsumo(self) -> bool:
        return self.actor == self.target


class DrawReason(Enum):
    EXHAUSTIVE = "exhaustive"
    NAGASHI_MANGAN = "nagashi_mangan"
    KYUUSHU_KYUUHAI = "kyuushu_kyuuhai"
    SUUFON_RENDA = "suufon_renda"
    SUUCHA_RIICHI = "suucha_riichi"
    SUUKAIKAN = "suukaikan"
    SANCHAHOU = "sanchahou"

    @property
    def is_abortive(self) -> bool:
        return self not in (DrawReason.EXHAUSTIVE, DrawReason.NAGASHI_MANGAN)


@dataclass(slots=True, kw_only=True, init=False, unsafe_hash=True)
class Ryukyoku(_Event):
    reason: Final[DrawReason]
    deltas: Final[tuple[int, ...] | None]
    tenpai: Final[tuple[bool, ...] | None]
    """Claim: who the log says was tenpai (exhaustive draws)."""
    hands: Final[tuple[tuple[Tile, ...] | None, ...] | None]
    """Claim: the hands shown, ``None`` for a seat that did not show."""
    actor: Final[Seat | None]
    """Who declared an abortive draw that one player declares (kyuushu kyuuhai)."""

    def __init__(self, *, reason: DrawReason, deltas: tuple[int, ...] | None = None,
                 tenpai: tuple[bool, ...] | None = None,
                 hands: tuple[tuple[Tile, ...] | None, ...] | None = None,
                 actor: Seat | None = None, src: SourceRef | None = None,
                 time: float | None = None) -> None:
        self.reason = reason
        self.deltas = deltas
        self.tenpai = tenpai
        self.hands = hands
        self.actor = actor
        self.src = src
        self.time = time


@dataclass(slots=True, kw_only=True, init=False, unsafe_hash=True)
class EndKyoku(_Event):
    def __init__(self, *, src: SourceRef | None = None, time: float | None = None) -> None:
        self.src = src
        self.time = time


@dataclass(slots=True, kw_only=True, init=False, unsafe_hash=True)
class EndGame(_Event):
    scores: Final[tuple[int, ...] | None]
    """Claim: final scores after leftover sticks."""
    points: Final[tuple[float, ...] | None]
    """Claim: final game points after uma and oka (Tenhou's ``owari``)."""

    def __init__(self, *, scores: tuple[int, ...] | None = None,
                 points: tuple[float, ...] | None = None, src: SourceRef | None = None,
                 time: float | None = None) -> None:
        self.scores = scores
        self.points = points
        self.src = src
        self.time = time


Event = (
    StartKyoku | Tsumo | Dahai | Chi | Pon | Daiminkan | Kakan | Ankan | Nukidora
    | Reach | ReachAccepted | Dora | Hora | Ryukyoku | EndKyoku | EndGame
)
CALLS = (Chi, Pon, Daiminkan)
"""Events that claim another player's discard."""
