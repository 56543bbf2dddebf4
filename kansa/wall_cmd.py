"""``kansa wall``: a hand's whole wall from the log's shuffle seed, in draw order.

Each tile is marked with where it went: dealt to a seat, drawn by a seat at a turn,
drawn as a replacement after a kan, revealed as an indicator, or never drawn.  For a
call (``--call N``, or every call) it lists the live tiles that followed it and who would
have drawn each had the call not been made (every later call left out too).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TextIO

from kansa.options import Subcommands, add_limit_options, limits_from
from kansa.parsers import LogFormatError, UnsupportedLogError, load_bytes
from kansa.parsers.source import Limits
from kansa.replay.events import (
    Ankan,
    Chi,
    Daiminkan,
    Dora,
    Hora,
    Kakan,
    Pon,
    StartKyoku,
    Tsumo,
)
from kansa.replay.game import Game
from kansa.replay.tiles import Tile
from kansa.replay.wall import TILES, Wall, game_walls
from kansa.runner import display_name, read_input_bytes

SHOWN_AFTER_CALL = 12
"""Live draws listed after a call."""


@dataclass
class HandWall:
    """One hand's wall with what the log did with each position."""

    label: str
    number: int
    oya: int
    wall: Wall
    aka: bool
    marks: dict[int, str] = field(default_factory=dict)
    logged: dict[int, Tile | None] = field(default_factory=dict)
    """The tile the log shows at a position, where it shows one."""
    calls: list[tuple[str, int, int]] = field(default_factory=list)
    """Each call: its description, the live draws made before it, the seat after it
    in turn order (who would have drawn next without the call)."""
    live_drawn: list[int] = field(default_factory=list)
    """Per live draw, the seat that made it."""

    def tile(self, position: int) -> Tile:
        return Tile.from_tenhou_id(self.wall.at(position), self.aka)


def hand_walls(game: Game) -> Iterator[HandWall] | None:
    """The walls of ``game``'s hands with the log's use of them; ``None`` without a seed
    kansa can reproduce (or for a game not of four players)."""
    walls = game_walls(game.wall_seed) if game.hints.players == 4 else None
    if walls is None:
        return None
    return _follow(game, walls)


def _follow(game: Game, walls: Iterator[Wall]) -> Iterator[HandWall]:
    hand: HandWall | None = None
    kan_by: int | None = None
    turns = [0] * 4
    kans = doras = 0
    for ev in game.events:
        if isinstance(ev, StartKyoku):
            if hand is not None:
                yield hand
            hand = HandWall(ev.label, (hand.number + 1) if hand else 0, ev.oya, next(walls),
                            game.hints.aka is not False)
            _deal(hand, ev)
            kan_by, turns, kans, doras = None, [0] * 4, 0, 0
        elif hand is None:
            continue
        elif isinstance(ev, Tsumo):
            if kan_by == ev.actor and kans < 4:
                position = hand.wall.replacement_position(kans)
                kans += 1
                hand.marks[position] = f"replacement draw {kans}: seat {ev.actor}, turn " \
                                       f"{turns[ev.actor]}"
            else:
                turns[ev.actor] += 1
                position = hand.wall.live_position(len(hand.live_drawn))
                hand.live_drawn.append(ev.actor)
                hand.marks[position] = f"draw: seat {ev.actor}, turn {turns[ev.actor]}"
            hand.logged[position] = ev.tile
            kan_by = None
        elif isinstance(ev, Ankan | Kakan | Daiminkan):
            kan_by = ev.actor
            if isinstance(ev, Daiminkan):
                _call(hand, ev)
        elif isinstance(ev, Chi | Pon):
            _call(hand, ev)
        elif isinstance(ev, Dora) and doras < 4:
            doras += 1
            position = hand.wall.dora_position(doras)
            hand.marks[position] = f"kan dora indicator {doras}, revealed"
            hand.logged[position] = ev.dora_marker
        elif isinstance(ev, Hora) and ev.ura_markers:
            for k in range(min(len(ev.ura_markers), 5)):
                position = hand.wall.dora_position(k) ^ 1
                hand.marks[position] = f"ura indicator {k + 1}, shown at the win"
                hand.logged[position] = ev.ura_markers[k]
    if hand is not None:
        yield hand


def _deal(hand: HandWall, ev: StartKyoku) -> None:
    wall = hand.wall
    for k in range(4):
        seat = (hand.oya + k) % 4
        for position in wall.deal_positions(k):
            hand.marks[position] = f"dealt to seat {seat}" + (" (dealer)" if k == 0 else "")
    position = wall.dora_position(0)
    hand.marks[position] = "dora indicator"
    hand.logged[position] = ev.dora_marker


def _call(hand: HandWall, ev: Chi | Pon | Daiminkan) -> None:
    kind = type(ev).__name__.lower()
    hand.calls.append((f"seat {ev.actor} calls {kind} on {ev.tile.mpsz} from seat "
                       f"{ev.target}", len(hand.live_drawn), (ev.target + 1) % 4))


def dead_wall_places(wall: Wall) -> dict[int, str]:
    """What each dead-wall position holds."""
    places = {wall.replacement_position(k): f"replacement tile {k + 1}" for k in range(4)}
    for k in range(5):
        name = "dora indicator" if k == 0 else f"kan dora indicator {k}"
        places[wall.dora_position(k)] = name
        places[wall.dora_position(k) ^ 1] = f"ura indicator {k + 1}"
    return places


def wall_lines(hand: HandWall) -> list[str]:
    """The hand's 136 positions in draw order, each with its tile and mark."""
    wall = hand.wall
    lines = [f"{hand.label} (hand {hand.number + 1} of the game): dice {wall.dice[0] + 1} and "
             f"{wall.dice[1] + 1}; the wall in draw order, from the log's shuffle seed"]
    places = dead_wall_places(wall)
    live_end = wall.live_position(Wall.live_size(4, 0))
    kans = sum(1 for m in hand.marks.values() if m.startswith("replacement"))
    for position in range(TILES):
        tile = hand.tile(position)
        mark = hand.marks.get(position)
        if mark is None:
            if position >= live_end:
                place = places[position]
                mark = place + (", never drawn" if place.startswith("replacement")
                                else ", never revealed")
            elif position >= live_end - kans:
                mark = "live wall's end, given to the dead wall by a kan"
            else:
                mark = "live wall, never drawn"
        logged = hand.logged.get(position)
        differs = f"  <- the log has {logged.mpsz}" if logged is not None and logged != tile \
            else ""
        lines.append(f"  {position:3d}  {tile.mpsz:2s}  {mark}{differs}")
    return lines


def call_lines(hand: HandWall, chosen: int | None) -> list[str]:
    """For each call (or call ``chosen``, 1 = the hand's first), the live draws after it:
    who drew each, and who would have without the call."""
    lines = []
    for number, (text, drawn, after) in enumerate(hand.calls, 1):
        if chosen is not None and number != chosen:
            continue
        lines.append(f"{hand.label} call {number}: {text}, after {drawn} live draws; "
                     "had it not been made (nor any later call):")
        size = Wall.live_size(4, 0)
        seat = after
        for i in range(drawn, min(drawn + SHOWN_AFTER_CALL, size)):
            position = hand.wall.live_position(i)
            actual = (f"drawn by seat {hand.live_drawn[i]}" if i < len(hand.live_drawn)
                      else "not drawn")
            lines.append(f"  live draw {i + 1:2d} ({hand.tile(position).mpsz}): seat {seat} "
                         f"would have drawn it; in the game {actual}")
            seat = (seat + 1) % 4
    if chosen is not None and not lines:
        lines.append(f"{hand.label} has {len(hand.calls)} calls: there is no call {chosen}")
    return lines


def run_wall(path: str, limits: Limits, *, hand: str | None, call: int | None,
             show_calls: bool, out: TextIO | None = None) -> int:
    """Print the walls of ``path``'s games (or of the hand labelled ``hand``); 0 when
    something was shown, 1 when the file or hand cannot be shown."""
    out = out or sys.stdout
    name = display_name(path)
    try:
        games = load_bytes(read_input_bytes(path, limits), name, None, limits)
    except (LogFormatError, UnsupportedLogError) as exc:
        print(f"kansa wall: {exc}", file=sys.stderr)
        return 1
    shown = 0
    for game in games:
        hands = hand_walls(game)
        if hands is None and game.hints.players != 4 and game.wall_seed is not None:
            print(f"kansa wall: {name} game {game.index}: a {game.hints.players}-player "
                  "game: the replay's wall checks compare it with the seed, `kansa wall` "
                  "draws four-player walls only", file=sys.stderr)
            continue
        if hands is None:
            print(f"kansa wall: {name} game {game.index}: the log carries no shuffle seed "
                  "kansa can reproduce (Tenhou's mt19937ar-sha512-n288 forms): its walls "
                  "cannot be shown", file=sys.stderr)
            continue
        for h in hands:
            if hand is not None and h.label not in (hand, f"{hand}-0"):
                continue
            shown += 1
            lines = wall_lines(h)
            if show_calls or call is not None:
                lines += call_lines(h, call)
            print("\n".join(lines), file=out)
    if not shown and hand is not None:
        print(f"kansa wall: {name}: no hand {hand} with a wall to show", file=sys.stderr)
    return 0 if shown else 1


def wall_command(sub: Subcommands) -> None:
    """The ``kansa wall`` subcommand (its function is :func:`cmd_wall`)."""
    p = sub.add_parser(
        "wall", help="print a hand's wall from the log's shuffle seed, marking where each "
                     "tile went")
    p.add_argument("path", metavar="FILE", help="a Tenhou mjlog with its SHUFFLE seed")
    p.add_argument("--hand", default=None, metavar="LABEL",
                   help="only this hand, as the findings name it (E2-1; E2 is E2-0)")
    p.add_argument("--call", type=int, default=None, metavar="N",
                   help="for the hand's call N (1 = first), the tiles each player would "
                        "have drawn had it not been made")
    p.add_argument("--calls", action="store_true",
                   help="the same for every call of the hand")
    add_limit_options(p)
    p.set_defaults(func=cmd_wall)


def cmd_wall(args: argparse.Namespace) -> int:
    return run_wall(args.path, limits_from(args), hand=args.hand, call=args.call,
                    show_calls=args.calls)
