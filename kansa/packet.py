"""A referee's dispute packet: one hand replayed step by step, with its findings.

:func:`build_packet` reads a log, audits it, and replays the chosen game through a
:class:`~kansa.replay.table.Table` one event at a time, keeping the table after each
event of the hand, what each seat could legally do at each finding, the tiles that
decide the finding and, where the log gives the wall, the next tiles of the wall.  The
result is the evidence document (``kansa explain --json``) that the page
(:mod:`kansa.reports.packet`) and the terminal view draw.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from kansa import __version__
from kansa.parsers import LogFormatError, UnsupportedLogError, load_bytes
from kansa.parsers.source import DEFAULT_LIMITS, Limits
from kansa.replay.checks.text import mask_kinds
from kansa.replay.context import snapshot
from kansa.replay.engine import replay
from kansa.replay.events import (
    Ankan,
    Chi,
    Dahai,
    Daiminkan,
    Event,
    Hora,
    Kakan,
    Pon,
    Reach,
    StartKyoku,
    Tsumo,
)
from kansa.replay.game import Game
from kansa.replay.legal import Action
from kansa.replay.rules import RuleSet
from kansa.replay.state import RoundState
from kansa.replay.table import Table
from kansa.replay.tiles import Tile
from kansa.replay.violations import Severity, Violation
from kansa.replay.wall import TILES, game_walls
from kansa.reports import rulebook
from kansa.reports.packet_events import KINDS, action_text, event_text
from kansa.runner import display_name, read_input_bytes, rules_for

NEXT_WALL_TILES = 8
"""Tiles of the wall shown after a finding."""
DEAD_WALL = 14
ORDER = ("pass", "hora", "tsumo", "dahai", "riichi", "chi", "pon", "daiminkan", "ankan",
         "kakan", "nukidora", "ryukyoku")
"""The order legal actions are listed in."""


class PacketError(Exception):
    """The file, hand or finding asked for cannot make a packet (the message says why)."""


@dataclass(frozen=True, slots=True)
class Chosen:
    """The game and hand of a packet."""

    game: int
    """Position of the game in the file (from 0)."""
    hand: str


def file_sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def read_games(path: str, limits: Limits = DEFAULT_LIMITS) -> tuple[bytes, list[Game]]:
    """The file's bytes and games; :class:`PacketError` when it cannot be read."""
    name = display_name(path)
    try:
        data = read_input_bytes(path, limits)
        games = load_bytes(data, name, None, limits)
    except OSError as exc:
        raise PacketError(f"{name}: {exc.strerror or exc}") from None
    except (LogFormatError, UnsupportedLogError) as exc:
        raise PacketError(str(exc)) from None
    if not games:
        raise PacketError(f"{name}: the file holds no game")
    return data, games


def choose(findings: Sequence[Sequence[Violation]], games: Sequence[Game], *,
           hand: str | None, finding: int | None) -> Chosen:
    """The hand a packet shows: that of finding ``finding`` (its number in the file, from
    0, in the order ``kansa audit --json`` lists them), else hand ``hand`` (the first game
    that has it), else the hand of the file's first error (its first finding in a hand
    without errors)."""
    flat = [(g, v) for g, vs in enumerate(findings) for v in vs]
    if finding is not None:
        if not 0 <= finding < len(flat):
            raise PacketError(f"there is no finding {finding}: the file has {len(flat)} "
                              "(numbered from 0)")
        g, v = flat[finding]
        if v.hand is None:
            raise PacketError(f"finding {finding} ({v.rule}) is about the whole game, "
                              "not a hand")
        return Chosen(g, v.hand)
    if hand is not None:
        wanted = {hand, f"{hand}-0"} if hand.count("-") == 0 else {hand}
        for g, game in enumerate(games):
            for label in hand_labels(game):
                if label in wanted:
                    return Chosen(g, label)
        raise PacketError(f"no hand {hand} in the file (hands are named E1-0, E2-1, ...)")
    in_hands = [(g, v) for g, v in flat if v.hand is not None]
    errors = [(g, v) for g, v in in_hands if v.severity is Severity.ERROR]
    pick = errors or in_hands
    if not pick:
        raise PacketError("no finding in a hand: give --hand to see one anyway")
    g, v = pick[0]
    assert v.hand is not None
    return Chosen(g, v.hand)


def hand_labels(game: Game) -> list[str]:
    """The labels of the game's hands, in order (``E1-0``)."""
    return [f"{ev.bakaze.mjai}{ev.kyoku}-{ev.honba}" for ev in game.events
            if isinstance(ev, StartKyoku)]


def build_packet(path: str, rules: str | RuleSet = "auto", *, hand: str | None = None,
                 finding: int | None = None, limits: Limits = DEFAULT_LIMITS) -> dict[str, Any]:
    """The evidence document of one hand of ``path`` (see :func:`choose`)."""
    data, games = read_games(path, limits)
    name = display_name(path)
    if any(g.hints.players != 4 for g in games):
        raise PacketError(f"{name}: kansa explains four-player games only so far")
    found = [replay(g, rules_for(g, rules)).violations for g in games]
    chosen = choose(found, games, hand=hand, finding=finding)
    return packet_for(name, data, games[chosen.game], chosen, rules=rules,
                      violations=found[chosen.game])


def packet_for(name: str, data: bytes, game: Game, chosen: Chosen, *, rules: str | RuleSet,
               violations: Sequence[Violation]) -> dict[str, Any]:
    """The evidence document of hand ``chosen.hand`` of ``game`` (``violations``: the
    game's findings, as its audit gave them)."""
    ruleset = rules_for(game, rules)
    numbered = [(i, v) for i, v in enumerate(violations) if v.hand == chosen.hand]
    at = {v.event for _, v in numbered if v.event is not None}
    table = Table(ruleset, game=game)
    steps: list[dict[str, Any]] = []
    legal: dict[int, list[Action]] = {}
    before: dict[int, dict[str, Any]] = {}
    rivers: dict[int, tuple[int, int]] = {}
    inside = False
    walls = _walls(game)
    wall: tuple[Tile, ...] | None = None
    live = kans = 0
    kan_by: int | None = None
    names = [p.name for p in game.players]
    hands_seen = -1
    for index, ev in enumerate(game.events):
        if isinstance(ev, StartKyoku):
            hands_seen += 1
            label = f"{ev.bakaze.mjai}{ev.kyoku}-{ev.honba}"
            if inside:
                break
            inside = label == chosen.hand
            if inside:
                wall = walls[hands_seen] if hands_seen < len(walls) else None
        rs = table.state.round
        if inside and index in at:
            legal[index] = table.legal()
            if rs is not None:
                for n, v in numbered:
                    if v.event == index:
                        before[n] = _deciding(rs, ev, v.rule, rivers, ruleset)
                        before[n]["wall"] = _next_wall(wall, live, kans)
        table.push(ev)
        if not inside:
            continue
        if isinstance(ev, Tsumo):
            if kan_by == ev.actor:
                kans += 1
            else:
                live += 1
            kan_by = None
        elif isinstance(ev, Ankan | Kakan | Daiminkan):
            kan_by = ev.actor
        rs = table.state.round
        if isinstance(ev, Dahai) and rs is not None:
            rivers[index] = (ev.actor, len(rs.players[ev.actor].river) - 1)
        state = snapshot(table.state).to_dict() if rs is not None else (
            steps[-1]["state"] if steps else None)
        steps.append({"step": len(steps), "event": index, "actor": getattr(ev, "actor", None),
                      "kind": KINDS.get(type(ev), type(ev).__name__.lower()),
                      "text": event_text(ev, names), "state": state, "findings": []})
    if not steps:
        raise PacketError(f"{name}: no hand {chosen.hand} in game {chosen.game}")
    step_of = {s["event"]: s["step"] for s in steps}
    out_findings = []
    for number, v in numbered:
        step = step_of.get(v.event, len(steps) - 1) if v.event is not None else 0
        steps[step]["findings"].append(number)
        out_findings.append(_finding(number, v, step, ruleset, legal=legal.get(v.event or -1),
                                     deciding=before.get(number), events=game.events,
                                     names=names))
    return {
        "kansa": __version__, "file": name, "sha256": file_sha256(data),
        "format": game.format, "game": chosen.game, "log_id": game.log_id,
        "hand": chosen.hand, "rules": ruleset.name, "players": names,
        "dealer": next((e.oya for e in game.events if isinstance(e, StartKyoku)
                        and f"{e.bakaze.mjai}{e.kyoku}-{e.honba}" == chosen.hand), 0),
        "wall_known": wall is not None, "findings": out_findings, "steps": steps,
    }


def _walls(game: Game) -> list[tuple[Tile, ...] | None]:
    """Each hand's wall in draw order where the log gives it (a seed, or a listed wall)."""
    seeded = game_walls(game.wall_seed) if game.hints.players == 4 else None
    if seeded is not None:
        aka = game.hints.aka is not False
        ids = [Tile.from_tenhou_id(i, aka) for i in range(TILES)]
        hands = sum(1 for e in game.events if isinstance(e, StartKyoku))
        return [tuple(ids[t] for t in reversed(next(seeded).yama)) for _ in range(hands)]
    return list(game.walls)


def _next_wall(wall: tuple[Tile, ...] | None, live: int, kans: int) -> dict[str, Any] | None:
    """The next live tiles after ``live`` live draws and ``kans`` replacement draws."""
    if wall is None or len(wall) != TILES:
        return None
    start = 13 * 4 + live
    end = len(wall) - DEAD_WALL - kans
    return {"live_draws": live, "next": [t.mpsz for t in wall[start:min(end, start
                                                                       + NEXT_WALL_TILES)]]}


def _deciding(rs: RoundState, ev: Event, rule: str, rivers: dict[int, tuple[int, int]],
              rules: RuleSet) -> dict[str, Any]:
    """The tiles that decide finding ``rule`` at ``ev``, read from the table just before
    it: places (``river``, ``hand``, ``melds``, ``wall``) to highlight, and the waits
    where they count."""
    places: list[dict[str, Any]] = []
    waits: list[str] = []

    def river(seat: int, pos: int, tile: Tile, why: str) -> None:
        places.append({"seat": seat, "place": "river", "position": pos, "tile": tile.mpsz,
                       "why": why})

    def latest(why: str) -> None:
        last = rs.last_discard
        if last is not None:
            river(last.seat, len(rs.players[last.seat].river) - 1, last.tile, why)

    if isinstance(ev, Hora):
        p = rs.players[ev.actor]
        if rule.startswith("furiten."):
            waits = [Tile.from_index(k).mpsz for k in mask_kinds(p.waits)]
            kinds = set(mask_kinds(p.waits))
            for i, r in enumerate(p.river):
                if r.tile.index in kinds:
                    river(ev.actor, i, r.tile, "own discard among the waits")
            missed = p.riichi_furiten or p.temp_furiten
            if missed is not None and missed.event in rivers:
                seat, pos = rivers[missed.event]
                river(seat, pos, missed.tile, "the winning tile let pass")
        if ev.is_tsumo:
            drawn = p.last_draw or ev.tile
            if drawn is not None:
                places.append({"seat": ev.actor, "place": "hand", "position": None,
                               "tile": drawn.mpsz, "why": "the tile drawn and won on"})
        else:
            latest("the tile won on")
    elif isinstance(ev, Reach):
        places.append({"seat": ev.actor, "place": "wall", "position": None, "tile": None,
                       "why": f"{rs.live_wall} tiles left in the wall (riichi needs "
                              f"{rules.riichi_min_live_wall})"})
    elif isinstance(ev, Chi | Pon | Daiminkan):
        claimed = next((pos for _event, (seat, pos) in sorted(rivers.items(), reverse=True)
                        if seat == ev.target
                        and rs.players[seat].river[pos].tile == ev.tile), None)
        if claimed is not None:
            river(ev.target, claimed, ev.tile, "the tile claimed")
        last = rs.last_discard
        if last is not None and not (last.seat == ev.target
                                     and len(rs.players[last.seat].river) - 1 == claimed):
            latest("the most recent discard")
    elif isinstance(ev, Dahai):
        river(ev.actor, len(rs.players[ev.actor].river), ev.tile, "the tile discarded")
        if rule == "claim.kuikae" and rs.players[ev.actor].melds:
            m = rs.players[ev.actor].melds[-1]
            places.append({"seat": ev.actor, "place": "melds", "position": None,
                           "tile": m.tiles[0].mpsz, "why": f"the {m.type.value} just called"})
    elif isinstance(ev, Ankan | Kakan):
        places.append({"seat": ev.actor, "place": "melds", "position": None,
                       "tile": ev.consumed[0].mpsz if ev.consumed else None,
                       "why": f"kan number {rs.kans + 1} of the hand"})
    return {"places": places, "waits": waits, "live_wall": rs.live_wall}


def _finding(number: int, v: Violation, step: int, rules: RuleSet, *,
             legal: list[Action] | None, deciding: dict[str, Any] | None,
             events: Sequence[Event], names: Sequence[str]) -> dict[str, Any]:
    ev = events[v.event] if v.event is not None and 0 <= v.event < len(events) else None
    base = rules.base or rules.name
    texts = rulebook.rule_texts(v.citation)
    return {
        "number": number, "rule": v.rule, "severity": v.severity.value, "message": v.message,
        "citation": v.citation, "seat": v.seat, "turn": v.turn, "event": v.event,
        "step": step, "source": str(v.src) if v.src is not None else None,
        "deciding": deciding["places"] if deciding else [],
        "waits": deciding["waits"] if deciding else [],
        "live_wall": deciding["live_wall"] if deciding else None,
        "wall": deciding.get("wall") if deciding else None,
        "legal": _legal(legal, ev, v.seat, names) if legal is not None else None,
        "penalty": rulebook.penalty(v.rule, base),
        "rule_texts": [s.to_dict() for s in texts],
        "online_rule": v.citation if base in rulebook.ONLINE else None,
    }


def _legal(actions: list[Action], ev: Event | None, seat: int | None,
           names: Sequence[str]) -> dict[str, Any]:
    """What was legal just before the finding's event, and a sentence for its seat."""
    who = seat if seat is not None else getattr(ev, "actor", None)
    actions = sorted(actions, key=lambda a: (a.seat, ORDER.index(a.kind), a.tiles))
    mine = [a for a in actions if a.seat == who] if who is not None else []
    done = KINDS.get(type(ev)) if ev is not None else None
    did = _tiles_of(ev) if ev is not None else ()
    did_legal = any(a.kind == done and (not a.tiles or not did
                                        or sorted(a.tiles) == sorted(did))
                    for a in mine) if done is not None else None
    choices = [action_text(a) for a in mine]
    if who is None:
        sentence = "no seat is named by this finding"
    elif not choices:
        sentence = f"seat {who} had no action open at this moment"
    else:
        sentence = f"seat {who} could {', or '.join(dict.fromkeys(choices))}"
        if done is not None and not did_legal and ev is not None:
            sentence = f"seat {who} could not {event_text(ev, names, short=True)}; it " \
                       + sentence.removeprefix(f"seat {who} ")
        elif did_legal:
            sentence += "; what it did was among them"
    return {"seat": who, "text": sentence, "done_was_legal": did_legal,
            "actions": [{"seat": a.seat, "kind": a.kind, "tiles": [t.mpsz for t in a.tiles]}
                        for a in actions]}


def _tiles_of(ev: Event) -> tuple[Tile, ...]:
    """The tiles an event's action names, as the legal actions name them."""
    if isinstance(ev, Dahai):
        return (ev.tile,)
    if isinstance(ev, Hora):
        return (ev.tile,) if ev.tile is not None and not ev.is_tsumo else ()
    if isinstance(ev, Chi | Pon | Daiminkan | Ankan):
        return ev.consumed
    if isinstance(ev, Kakan):
        return (ev.tile,)
    return ()
