"""mjai JSON-lines logs: the reader (Mortal and gimite dialects) and the writer.

One JSON object per line with a ``type``.  A ``start_game`` opens a game, so a
file can hold several.  Besides Mortal's fields the reader takes gimite's
claims (``yakus``, ``fu``, ``fan``, ``hora_points``, ``hora_tehais``,
``uradora_markers``, ``pao``, ``ryukyoku`` ``reason``/``tenpais``/``tehais``,
``reach_accepted``/``end_game`` ``scores``) and kansa's ``kansa`` extension
object.  ``none`` and ``error`` lines and unknown types become diagnostics.

>>> games = parse(write(game), "x.mjson")                    # doctest: +SKIP
"""

from __future__ import annotations

import dataclasses
import json
import math
import re
from typing import Any

from kansa.parsers._json import (
    NOT_READ,
    decode_text,
    excerpt,
    holds,
    is_cut_off,
    loads,
    quick_value,
)
from kansa.parsers.canonical import after_call, is_empty_ura, sorted_hidden, sorted_tiles
from kansa.parsers.errors import LogFormatError
from kansa.parsers.fields import Fields, short, tile_or_fail
from kansa.parsers.mjai.chars import Call
from kansa.parsers.mjai.claims import EXT, WinContext, read_hora, read_ryukyoku
from kansa.parsers.mjai.deal import Deal, assumed_scores, begin_kyoku
from kansa.parsers.mjai.fast import FIRST_PIECE, quick_hand, quick_tiles, read_pieces, read_rows
from kansa.parsers.mjai.write import write
from kansa.parsers.source import DEFAULT_LIMITS, Limits
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
    SourceRef,
    StartKyoku,
    Tsumo,
)
from kansa.replay.game import Diagnostic, Game, Player, RuleHints, SourceRuns
from kansa.replay.tiles import BY_MJAI, WINDS, Seat, Tile

__all__ = ["parse", "sniff", "write"]

GAME_TYPES = frozenset({
    "start_game", "start_kyoku", "tsumo", "dahai", "chi", "pon", "daiminkan", "kakan",
    "ankan", "dora", "reach", "reach_accepted", "hora", "ryukyoku", "end_kyoku",
    "end_game", "none", "error", "kita", "nukidora"})
_TYPE_RE = re.compile(rb'"type"\s*:\s*"([a-z_]+)"')
_TYPE_FIRST = re.compile(rb'\{\s*"type"\s*:\s*"([a-z_]+)"')


def sniff(head: bytes) -> bool:
    """The first line is a JSON object whose ``type`` is an mjai event type."""
    end = head.find(b"\n")
    line = (head if end < 0 else head[:end]).strip()  # (a one-line head is not copied)
    if not line.startswith(b"{"):
        return False
    if not holds(line, b'"type"', 2) and (b"\\" not in line or b"\\u" not in line):
        return False  # no key can read as "type" (only a \u escape spells it otherwise)
    first = _TYPE_FIRST.match(line)
    if first is not None and first.group(1).decode() in GAME_TYPES and b"\\u" not in line \
            and line.count(b'"type"') == 1:
        return True  # its one "type" key, however the rest of the line reads
    obj = quick_value(line)  # msgspec: as json reads it, where it reads it
    if obj is NOT_READ:
        try:
            obj = json.loads(line)
        except (ValueError, RecursionError):  # cut off by the sniff window, not JSON, too deep
            m = _TYPE_RE.search(line)
            return m is not None and m.group(1).decode() in GAME_TYPES
    kind = obj.get("type") if isinstance(obj, dict) else None
    return isinstance(kind, str) and kind in GAME_TYPES


def parse(data: bytes, source: str, limits: Limits = DEFAULT_LIMITS) -> list[Game]:
    """Every game in an mjai log.

    :raises LogFormatError: for a line that is not a JSON object or a field that
        cannot be read, naming the line (and column for JSON syntax errors).
    """
    reader = Reader(source)
    if data[:FIRST_PIECE].isascii():  # as most logs: no names or notes in other scripts
        read_rows(reader, decode_text(data, source), limits, len(data))
    else:
        read_pieces(reader, data, limits)
    return reader.finish()


class GameBuilder:
    """One game's events and what reading them needs to remember."""

    def __init__(self, reader: Reader, src: SourceRef, players: int | None) -> None:
        self.reader = reader
        self.src = src
        self.n = players
        self.events: list[Event] = []
        self.starts: list[int] = []
        self.lines: list[int | None] = []
        """Runs of shared events (no ``src``), one a line (see ``SourceRuns``)."""
        self.run_end = -1
        self.run_line = -1
        """Where the last run ends: the next event and line that would extend it."""
        self.assumed: set[int] = set()
        """Indices of start_kyoku events whose scores were filled in."""
        self.diagnostics: list[Diagnostic] = []
        self.players: tuple[Player, ...] = ()
        self.hints: dict[str, Any] = {}
        self.title: str | None = None
        self.log_id: str | None = None
        self.ended = False
        self.hidden: set[int] = set()
        self.counts: dict[str, tuple[int, SourceRef]] = {}
        # the hand being read
        self.oya = Seat(0)
        self.bakaze = Tile.EAST
        self.melds: list[list[Tile]] = []
        self.start_scores: tuple[int, ...] | None = None
        self.sticks: list[int] = []
        self.result_scores: tuple[int, ...] | None = None
        self.result_deltas: list[tuple[int, ...] | None] = []
        self.called = 0
        """Bit mask of the seats whose last take was a chi or pon (see :meth:`canonical`)."""

    def begin(self, oya: Seat, bakaze: Tile, scores: tuple[int, ...]) -> None:
        """Begin a hand dealt by ``oya`` in the round of ``bakaze`` from ``scores``."""
        n = len(scores)
        self.oya, self.bakaze = oya, bakaze
        self.melds = [[] for _ in range(n)]
        self.start_scores, self.sticks = scores, [0] * n
        self.result_scores, self.result_deltas = None, []
        self.called = 0

    def canonical(self, event: Event) -> Event:
        """``event`` in canonical form (:mod:`kansa.parsers.canonical`) while a seat's
        last take was a chi or pon: that seat's next discard is never tsumogiri.  Every
        other event is built canonical, so a game's events need no second pass."""
        self.called, event = after_call(self.called, event)
        return event

    def note(self, message: str, src: SourceRef | None, level: str = "info") -> None:
        self.diagnostics.append(Diagnostic(message, src, level))

    def shared(self, event: Event, number: int) -> None:
        """Append ``event``, shared between the lines it is read from (no ``src``), read
        on line ``number``."""
        events = self.events
        if len(events) != self.run_end or number != self.run_line:
            self.starts.append(len(events))
            self.lines.append(number)
        events.append(event)
        self.run_end = len(events)
        self.run_line = number + 1

    def count(self, key: str, src: SourceRef) -> None:
        """A repeated oddity, reported once with how often it occurred."""
        n, first = self.counts.get(key, (0, src))
        self.counts[key] = (n + 1, first)

    def build(self, index: int) -> Game:
        events = tuple(self.events)  # built canonical (see canonical)
        runs = SourceRuns(events, self.reader.source, None, tuple(self.starts), (),
                          tuple(self.lines)) if self.starts else None
        return self.header(index, events=events, perspective=self.perspective(),
                           diagnostics=(*self.diagnostics, *self.closing_notes()),
                           assumed_scores=frozenset(self.assumed), runs=runs)

    def perspective(self) -> int | None:
        """The one seat whose tiles the log shows, when the others' are hidden."""
        known = [s for s in range(self.n or 4) if s not in self.hidden]
        return known[0] if self.hidden and len(known) == 1 else None

    def closing_notes(self) -> list[Diagnostic]:
        """What only the whole game tells: repeated oddities counted, hidden hands."""
        notes = [Diagnostic(f"{key} ({n} line{'s' if n > 1 else ''}, first here)", first)
                 for key, (n, first) in self.counts.items()]
        if self.hidden and self.perspective() is None:
            notes.append(Diagnostic(
                f"tiles of seats {sorted(self.hidden)} are hidden, but no single seat's "
                "view is recorded", self.src))
        return notes

    def header(self, index: int, *, events: tuple[Event, ...] = (),
               perspective: int | None = None, diagnostics: tuple[Diagnostic, ...] = (),
               assumed_scores: frozenset[int] = frozenset(), runs: SourceRuns | None = None
               ) -> Game:
        """The game's metadata as read so far (players, rule hints), with ``events`` and
        what :meth:`build` adds (none by default)."""
        hints = RuleHints(**{"players": self.n or 4, **self.hints})
        return Game(format="mjai", source=self.reader.source, events=events,
                    players=self.players, hints=hints, log_id=self.log_id,
                    title=self.title, index=index, perspective=perspective,
                    diagnostics=diagnostics, assumed_scores=assumed_scores, runs=runs)


class Reader:
    """Reads an mjai log line by line: :func:`parse` gives it a file's lines, the
    stream reader (:mod:`kansa.parsers.mjai.stream`) a stream's as they arrive."""

    def __init__(self, source: str, *, keep: bool = True) -> None:
        self.source = source
        self.keep = keep
        """Keep each game built in :attr:`games` (a stream's reader drops them)."""
        self.games: list[Game] = []
        self.built = 0
        """Games closed so far (the index of the next one)."""
        self.cur: GameBuilder | None = None
        self.lines = 0
        self.cut: Diagnostic | None = None
        """Where a file cut off in its last line stops (a ``log.truncated`` warning)."""

    def read_line(self, raw: str, number: int, limits: Limits, *,
                  end: int | None = None) -> bool:
        """Read line ``number`` (``raw``, without its newline).  ``end``: the input ends
        with this line, without a newline, at byte ``end``.  True when that line is cut
        off (then it is :attr:`cut`, and lost).

        :raises LogFormatError: for a line that is not a JSON object or a field that
            cannot be read, naming the line (and column for JSON syntax errors).
        """
        line = raw.rstrip()  # leading blanks stay, so JSON columns match the file
        if not line.strip():
            return False
        src = SourceRef(self.source, line=number)
        if not line.lstrip().startswith("{"):
            raise LogFormatError(f"not a JSON object: {short(line)}", src)
        if end is not None and is_cut_off(line):
            self.cut = Diagnostic(
                f"the file is cut off: it stops at byte {end} (line {number}, column "
                f"{len(raw) + 1}) in the middle of its last line, {excerpt(line.strip())}, "
                "which is lost",
                SourceRef(self.source, number, len(raw) + 1), "warning", "log.truncated")
            return True
        self.feed(Fields(loads(line, src, limits.max_json_depth), src), number)
        return False

    def finish(self) -> list[Game]:
        self._close()
        if not self.games:
            what = "no mjai game events in the file" if self.lines else "the file is empty"
            if self.cut is not None:
                what = f"{self.cut.message}; no game could be read before it"
            raise LogFormatError(what, SourceRef(self.source, line=max(self.lines, 1)))
        if self.cut is not None:
            last = self.games[-1]
            self.games[-1] = dataclasses.replace(
                last, diagnostics=(*last.diagnostics, self.cut))
        return self.games

    def _close(self) -> None:
        g, self.cur = self.cur, None
        if g is not None and (g.events or g.players):
            if self.keep:
                self.games.append(g.build(self.built))
            self.built += 1

    def _game(self, kind: str, src: SourceRef) -> GameBuilder:
        """The game this line belongs to (opening one when the log omits start_game)."""
        g = self.cur
        if g is None or (g.ended and kind == "start_kyoku"):
            self._close()
            g = self.cur = GameBuilder(self, src, None)
            g.note("a game starts without a start_game line", src)
        return g

    def deal(self, deal: Deal, number: int) -> bool:
        """Take the deal read from line ``number`` by
        :func:`~kansa.parsers.mjai.deal.read_deal`, as :meth:`feed` would take that line:
        False, having taken nothing, where a game must be opened for it first."""
        g = self.cur
        if g is None or g.ended or (g.n is not None and g.n != len(deal.hands)):
            return False
        self.lines = number
        g.events.append(begin_kyoku(g, deal, SourceRef(self.source, number)))
        return True

    def call(self, call: Call, number: int) -> bool:
        """Take the call read from line ``number`` by
        :func:`~kansa.parsers.mjai.chars.read_call`, as :meth:`feed` would take that line:
        False, having taken nothing, where the game's players are not known yet."""
        g = self.cur
        if g is None or g.n is None:
            return False
        self.lines = number
        g.events.append(_called(g, call, SourceRef(self.source, number)))
        return True

    def feed(self, f: Fields, number: int) -> None:
        self.lines = number
        kind = f.get("type")
        if not isinstance(kind, str):
            f.fail("type", f"missing or non-string 'type': {short(kind)}")
        if kind == "start_game":
            self._close()
            self.cur = GameBuilder(self, f.src, None)
            _start_game(self.cur, f)
            return
        handler = _HANDLERS.get(kind)
        if handler is None:
            g = self.cur or GameBuilder(self, f.src, None)  # notes before any game are lost
            if kind == "none":
                g.count("'none' lines (a bot's pass) are ignored", f.src)
            elif kind == "error":
                g.note(f"the log records an error: {short(f.get('message'))}", f.src)
            else:
                g.count(f"unknown event type {kind!r} ignored", f.src)
            return
        g = self._game(kind, f.src)
        event = handler(g, f)
        if event is not None:
            g.events.append(g.canonical(event) if g.called else event)


# -- per-type readers ------------------------------------------------------------

def _players(g: GameBuilder) -> int:
    if g.n is None:
        g.n = 4
    return g.n


def _actor(g: GameBuilder, f: Fields, key: str = "actor") -> Seat:
    return Seat(f.integer(key, 0, _players(g) - 1))


def _melds(g: GameBuilder, seat: Seat) -> list[Tile]:
    """The tiles ``seat`` called or kanned this hand (for ``sangenpai``)."""
    while len(g.melds) <= seat:
        g.melds.append([])
    return g.melds[seat]


def _tile(f: Fields, key: str) -> Tile:
    value = f.obj.get(key)
    if type(value) is str and value in BY_MJAI:
        return BY_MJAI[value]
    return tile_or_fail(Tile.from_mjai, f.req(key), f.at(key), repr(key))


def _tiles(f: Fields, key: str, lo: int = 1, hi: int = 4) -> tuple[Tile, ...]:
    items = f.array(key)
    if not lo <= len(items) <= hi:
        f.fail(key, f"{key!r} should have {lo}-{hi} tiles, not {len(items)}")
    tiles = quick_tiles(items)
    if tiles is not None:
        return tiles
    return tuple(tile_or_fail(Tile.from_mjai, t, f.at(key), repr(key)) for t in items)


def _start_game(g: GameBuilder, f: Fields) -> None:
    n = f.opt_int("num_players", 3, 4)
    g.n = n
    names = f.get("names")
    if names is not None and (
            not isinstance(names, list) or not all(isinstance(x, str) for x in names)):
        f.fail("names", f"'names' should be a list of strings, not {short(names)}")
    ext = f.get(EXT)
    if names is not None and not (isinstance(ext, dict) and ext.get("players") is not None):
        g.players = tuple(Player(name=x) for x in names)  # (else kansa's players replace them)
    if ext is not None:
        _game_ext(g, Fields(ext, f.at(EXT)))


def _game_ext(g: GameBuilder, e: Fields) -> None:
    """kansa's game metadata: players' ranks, rule hints, title, log id."""
    people = e.get("players")
    if people is not None:
        if not isinstance(people, list):
            e.fail("players", "'players' should be a list")
        rows = [Fields(p, e.at("players")) for p in people]
        g.players = tuple(Player(name=_opt_str(r, "name") or "", rank=_opt_str(r, "rank"),
                                 rating=_opt_num(r, "rating"), sex=_opt_str(r, "sex"))
                          for r in rows)
    hints = e.get("hints")
    if hints is not None:
        h = Fields(hints, e.at("hints"))
        for key in ("aka", "kuitan", "hanchan"):
            if h.get(key) is not None:
                g.hints[key] = h.flag(key)
        for key in ("platform", "lobby", "room"):
            if h.get(key) is not None:
                g.hints[key] = h.text(key)
        for key in ("raw_type", "start_score", "return_score"):
            if h.get(key) is not None:
                g.hints[key] = h.integer(key)
        if h.get("uma") is not None:
            g.hints["uma"] = h.ints("uma")
        if h.get("players") is not None:
            g.n = h.integer("players", 3, 4)
    g.title = _opt_str(e, "title")
    g.log_id = _opt_str(e, "log_id")


def _opt_str(f: Fields, key: str) -> str | None:
    return f.text(key) if f.get(key) is not None else None


def _opt_num(f: Fields, key: str) -> float | None:
    value = f.get(key)
    if value is None:
        return None
    if not isinstance(value, (int, float)) or isinstance(value, bool) \
            or not math.isfinite(value):
        f.fail(key, f"{key!r} should be a number, not {short(value)}")
    return float(value)


def _start_kyoku(g: GameBuilder, f: Fields) -> StartKyoku:
    rows = f.array("tehais")
    if g.n is None:
        if len(rows) not in (3, 4):
            f.fail("tehais", f"'tehais' should have 3 or 4 hands, not {len(rows)}")
        g.n = len(rows)
    n = g.n
    if len(rows) != n:
        f.fail("tehais", f"'tehais' should have {n} hands, not {len(rows)}")
    tehais = []
    for seat, row in enumerate(rows):
        if not isinstance(row, list):
            f.fail("tehais", f"hand {seat} should be a list of tiles, not {short(row)}")
        hand = quick_hand(row) or tuple(
            None if t == "?" else tile_or_fail(Tile.from_mjai, t, f.at("tehais"),
                                               f"tile of hand {seat}") for t in row)
        hand = sorted_hidden(hand)
        if hand and hand[-1] is None:  # (sorted, hidden tiles go last)
            g.hidden.add(seat)
        tehais.append(hand)
    oya = Seat(f.integer("oya", 0, n - 1))
    missing = [k for k in ("bakaze", "kyoku", "honba", "kyotaku") if not f.has(k)]
    if missing:
        g.note(f"start_kyoku has no {', '.join(missing)}; assumed East round, hand "
               f"{oya + 1}, no honba and no sticks where missing", f.src)
    bakaze = _tile(f, "bakaze") if f.has("bakaze") else Tile.EAST
    if not bakaze.is_wind:
        f.fail("bakaze", f"'bakaze' is {bakaze.mjai}, not a wind")
    scores = f.ints("scores", n) if f.has("scores") else assumed_scores(g, f, n)
    g.begin(oya, bakaze, scores)
    return StartKyoku(
        bakaze=bakaze, kyoku=f.integer("kyoku", 1, 4) if f.has("kyoku") else oya + 1,
        honba=f.integer("honba", 0) if f.has("honba") else 0,
        kyotaku=f.integer("kyotaku", 0) if f.has("kyotaku") else 0,
        oya=oya, scores=scores, dora_marker=_tile(f, "dora_marker"),
        tehais=tuple(tehais), src=f.src)


def _tsumo(g: GameBuilder, f: Fields) -> Tsumo:
    actor = _actor(g, f)
    pai = f.req("pai")
    if pai == "?":
        g.hidden.add(actor)
        return Tsumo(actor=actor, tile=None, src=f.src)
    return Tsumo(actor=actor, tile=_tile(f, "pai"), src=f.src)


def _dahai(g: GameBuilder, f: Fields) -> Dahai:
    if f.get("tsumogiri") is None:
        g.count("dahai without 'tsumogiri': read as a discard from the hand", f.src)
    return Dahai(actor=_actor(g, f), tile=_tile(f, "pai"),
                 tsumogiri=f.flag("tsumogiri", False), src=f.src)


def _call(g: GameBuilder, f: Fields) -> Chi | Pon | Daiminkan:
    actor, target = _actor(g, f), _actor(g, f, "target")
    return _called(g, Call(f.obj["type"], actor, target, _tile(f, "pai"),
                           _tiles(f, "consumed")), f.src)


def _called(g: GameBuilder, call: Call, src: SourceRef) -> Chi | Pon | Daiminkan:
    """The event of a call whose values are read and checked, and the call noted in
    ``g``."""
    kind, actor, target, tile = call.kind, call.actor, call.target, call.tile
    consumed = sorted_tiles(call.consumed)
    _melds(g, actor).extend((tile, *consumed))
    if kind == "daiminkan":
        return Daiminkan(actor=actor, target=target, tile=tile, consumed=consumed, src=src)
    g.called |= 1 << actor
    if kind == "chi":
        return Chi(actor=actor, target=target, tile=tile, consumed=consumed, src=src)
    return Pon(actor=actor, target=target, tile=tile, consumed=consumed, src=src)


def _kakan(g: GameBuilder, f: Fields) -> Kakan:
    actor, tile = _actor(g, f), _tile(f, "pai")
    _melds(g, actor).append(tile)
    return Kakan(actor=actor, tile=tile, consumed=sorted_tiles(_tiles(f, "consumed")),
                 src=f.src)


def _ankan(g: GameBuilder, f: Fields) -> Ankan:
    actor, consumed = _actor(g, f), sorted_tiles(_tiles(f, "consumed"))
    _melds(g, actor).extend(consumed)
    return Ankan(actor=actor, consumed=consumed, src=f.src)


def _nukidora(g: GameBuilder, f: Fields) -> Nukidora:
    tile = _tile(f, "pai") if f.has("pai") else Tile.NORTH
    return Nukidora(actor=_actor(g, f), tile=tile, src=f.src)


def _reach_accepted(g: GameBuilder, f: Fields) -> ReachAccepted:
    actor = _actor(g, f)
    if actor < len(g.sticks):
        g.sticks[actor] += 1
    n = _players(g)
    return ReachAccepted(actor=actor, scores=f.ints("scores", n) if f.has("scores") else None,
                         src=f.src)


def _hora(g: GameBuilder, f: Fields) -> Hora:
    actor, target = _actor(g, f), _actor(g, f, "target")
    n = _players(g)
    ctx = WinContext(players=n, seat_wind=WINDS[(actor - g.oya) % n], round_wind=g.bakaze,
                     meld_tiles=tuple(_melds(g, actor)))
    c = read_hora(f, ctx, g.note)
    _result(g, f, n, c.deltas)
    yaku = c.yaku
    if yaku is not None and any(is_empty_ura(item) for item in yaku):
        yaku = tuple(item for item in yaku if not is_empty_ura(item))
    # built in canonical form, which canonical() would otherwise copy the event into
    return Hora(actor=actor, target=target, tile=c.tile, deltas=c.deltas,
                hand=None if c.hand is None else sorted_tiles(c.hand),
                yaku=yaku, fu=c.fu, han=c.han, points=c.points, limit=c.limit,
                dora_markers=c.dora_markers, ura_markers=c.ura_markers, pao=c.pao,
                honba=c.honba, kyotaku=c.kyotaku, src=f.src)


def _ryukyoku(g: GameBuilder, f: Fields) -> Ryukyoku:
    n = _players(g)
    c = read_ryukyoku(f, n, g.note)
    _result(g, f, n, c.deltas)
    # an abortive draw moves no points (the canonical form's zeros, not unknown)
    deltas = (0,) * n if c.deltas is None and c.reason.is_abortive else c.deltas
    hands = None if c.hands is None else tuple(
        None if h is None else sorted_tiles(h) for h in c.hands)
    return Ryukyoku(reason=c.reason, deltas=deltas, tenpai=c.tenpai, hands=hands,
                    actor=c.actor, src=f.src)


def _result(g: GameBuilder, f: Fields, n: int, deltas: tuple[int, ...] | None) -> None:
    g.result_deltas.append(deltas)
    if f.has("scores"):
        g.result_scores = f.ints("scores", n)


def _end_game(g: GameBuilder, f: Fields) -> EndGame:
    n = _players(g)
    g.ended = True
    points = None
    ext = f.get(EXT)
    if ext is not None:
        e = Fields(ext, f.at(EXT))
        if e.get("points") is not None:
            values = e.array("points")
            if len(values) != n or not all(isinstance(v, (int, float)) and not isinstance(v, bool)
                                           and math.isfinite(v) for v in values):
                e.fail("points", f"'points' should be {n} numbers")
            points = tuple(float(v) for v in values)
    return EndGame(scores=f.ints("scores", n) if f.has("scores") else None, points=points,
                   src=f.src)


_HANDLERS: dict[str, Any] = {
    "start_kyoku": _start_kyoku,
    "tsumo": _tsumo,
    "dahai": _dahai,
    "chi": _call,
    "pon": _call,
    "daiminkan": _call,
    "kakan": _kakan,
    "ankan": _ankan,
    "kita": _nukidora,
    "nukidora": _nukidora,
    "dora": lambda g, f: Dora(dora_marker=_tile(f, "dora_marker"), src=f.src),
    "reach": lambda g, f: Reach(actor=_actor(g, f), src=f.src),
    "reach_accepted": _reach_accepted,
    "hora": _hora,
    "ryukyoku": _ryukyoku,
    "end_kyoku": lambda g, f: EndKyoku(src=f.src),
    "end_game": _end_game,
}
