"""The event vocabulary every log format is turned into.

One frozen dataclass per mjai event type.  Each carries a :class:`SourceRef`
(where in the file it came from) and an optional ``time``; neither takes part
in equality, so the same game read from two formats compares equal.  A parser
may share one event object between every place it occurs (the Tenhou reader's
draws and discards); such an event has no ``src``, and its positions are in the
game's ``runs``: read them with ``Game.src_of``.

The log's own claims (deltas, yaku, fu, points, shown hands, final scores)
travel in :class:`Hora`, :class:`Ryukyoku`, :class:`ReachAccepted` and
:class:`EndGame` unchanged: parsers never compute points, replay recomputes
them and the checks compare.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from kansa.replay.tiles import Seat, Tile
from kansa.replay.yaku import Limit, Yaku


@dataclass(frozen=True, slots=True)
class SourceRef:
    """A position in a log file: a line (and column), and/or a ``pointer``: a JSON
    pointer (``file#/log/0/1``), or a Tenhou XML tag (``file:1 tag 376 <N .../>``).

    ``str()`` is what a referee reads (and the JSON ``source`` field):
    ``file:line:column``, ``file:line pointer`` or ``file#pointer``."""

    file: str
    line: int | None = None
    column: int | None = None
    pointer: str | None = None

    def __str__(self) -> str:
        where = self.file
        if self.line is not None:
            where += f":{self.line}"
            if self.column is not None:
                where += f":{self.column}"
        if self.pointer is not None:
            where += f" {self.pointer}" if self.line is not None else f"#{self.pointer}"
        return where


@dataclass(frozen=True, slots=True, kw_only=True)
class _Event:
    src: SourceRef | None = field(default=None, compare=False, repr=False)
    time: float | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True, slots=True, kw_only=True)
class StartKyoku(_Event):
    bakaze: Tile
    kyoku: int
    """1-4 within the round wind."""
    honba: int
    kyotaku: int
    """Riichi sticks on the table at the start."""
    oya: Seat
    scores: tuple[int, ...]
    dora_marker: Tile
    tehais: tuple[tuple[Tile | None, ...], ...]
    """Each seat's 13 starting tiles; ``None`` where the log hides them."""

    @property
    def label(self) -> str:
        """``E1``, ``S3-2`` style hand label (honba after the dash when not 0)."""
        base = f"{self.bakaze.mjai}{self.kyoku}"
        return f"{base}-{self.honba}" if self.honba else base


@dataclass(frozen=True, slots=True, kw_only=True)
class Tsumo(_Event):
    actor: Seat
    tile: Tile | None


@dataclass(frozen=True, slots=True, kw_only=True)
class Dahai(_Event):
    actor: Seat
    tile: Tile
    tsumogiri: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class Chi(_Event):
    actor: Seat
    target: Seat
    tile: Tile
    consumed: tuple[Tile, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class Pon(_Event):
    actor: Seat
    target: Seat
    tile: Tile
    consumed: tuple[Tile, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class Daiminkan(_Event):
    actor: Seat
    target: Seat
    tile: Tile
    consumed: tuple[Tile, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class Kakan(_Event):
    actor: Seat
    tile: Tile
    """The added tile."""
    consumed: tuple[Tile, ...]
    """The three tiles of the pon being extended."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Ankan(_Event):
    actor: Seat
    consumed: tuple[Tile, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class Nukidora(_Event):
    """Three-player North extraction (kita)."""

    actor: Seat
    tile: Tile


@dataclass(frozen=True, slots=True, kw_only=True)
class Reach(_Event):
    actor: Seat


@dataclass(frozen=True, slots=True, kw_only=True)
class ReachAccepted(_Event):
    actor: Seat
    scores: tuple[int, ...] | None = None
    """Claim: everyone's scores after the stick was paid, where the log records them."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Dora(_Event):
    dora_marker: Tile


@dataclass(frozen=True, slots=True, kw_only=True)
class Hora(_Event):
    """A win.  Everything after ``tile`` is the log's claim, ``None`` where absent."""

    actor: Seat
    target: Seat
    """The discarder (the kakan player for chankan); ``actor`` for tsumo."""
    tile: Tile | None = None
    """The winning tile, where the log names it."""
    deltas: tuple[int, ...] | None = None
    hand: tuple[Tile, ...] | None = None
    """The winner's concealed tiles including the winning tile."""
    yaku: tuple[tuple[Yaku, int], ...] | None = None
    """(yaku, han) pairs; a yakuman counts 13 han per multiple."""
    fu: int | None = None
    han: int | None = None
    points: int | None = None
    """Hand value before honba and sticks (Tenhou's ``ten``)."""
    limit: Limit | None = None
    dora_markers: tuple[Tile, ...] | None = None
    ura_markers: tuple[Tile, ...] | None = None
    pao: Seat | None = None
    honba: int | None = None
    """The honba count the log shows for this win."""
    kyotaku: int | None = None
    """The riichi sticks the log says this winner collected."""

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


@dataclass(frozen=True, slots=True, kw_only=True)
class Ryukyoku(_Event):
    reason: DrawReason
    deltas: tuple[int, ...] | None = None
    tenpai: tuple[bool, ...] | None = None
    """Claim: who the log says was tenpai (exhaustive draws)."""
    hands: tuple[tuple[Tile, ...] | None, ...] | None = None
    """Claim: the hands shown, ``None`` for a seat that did not show."""
    actor: Seat | None = None
    """Who declared an abortive draw that one player declares (kyuushu kyuuhai)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class EndKyoku(_Event):
    pass


@dataclass(frozen=True, slots=True, kw_only=True)
class EndGame(_Event):
    scores: tuple[int, ...] | None = None
    """Claim: final scores after leftover sticks."""
    points: tuple[float, ...] | None = None
    """Claim: final game points after uma and oka (Tenhou's ``owari``)."""


Event = (
    StartKyoku | Tsumo | Dahai | Chi | Pon | Daiminkan | Kakan | Ankan | Nukidora
    | Reach | ReachAccepted | Dora | Hora | Ryukyoku | EndKyoku | EndGame
)
CALLS = (Chi, Pon, Daiminkan)
"""Events that claim another player's discard."""
