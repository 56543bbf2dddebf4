"""tenhou.net/6 documents -> games: metadata, kyoku after kyoku, and the end of the game."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any, Final

from kansa.parsers.tenhou6.ext import read_ext
from kansa.parsers.tenhou6.jsontext import Where, as_list, is_int, show
from kansa.parsers.tenhou6.kyoku import read_kyoku
from kansa.parsers.tenhou6.pointers import kyoku_pointers
from kansa.replay.events import (
    DrawReason,
    EndGame,
    EndKyoku,
    Event,
    Hora,
    ReachAccepted,
    Ryukyoku,
    StartKyoku,
)
from kansa.replay.game import Diagnostic, Game, Player, RuleHints, SourceTracks

FORMAT = "tenhou6"
RIICHI_STICK = 1000
_MAJSOUL_ROOMS = ("銅の間", "銀の間", "金の間", "玉の間", "王座の間", "Bronze Room",
                  "Silver Room", "Gold Room", "Jade Room", "Throne Room", "雀魂")
_MAJSOUL_REF = re.compile(r"^\d{6}-[0-9a-f]{8}-")


@dataclass(slots=True, init=False)
class _Doc:
    """One decoded document (one per JSON line); fields set by a written ``__init__``,
    which compiles to native code where a generated one does not."""

    where: Final[Where]
    obj: Final[dict[str, Any]]
    kyokus: Final[list[Any]]

    def __init__(self, where: Where, obj: dict[str, Any], kyokus: list[Any]) -> None:
        self.where = where
        self.obj = obj
        self.kyokus = kyokus


@dataclass(slots=True, init=False)
class _Group:
    docs: Final[list[_Doc]]

    def __init__(self) -> None:
        self.docs = []


def read_games(docs: list[tuple[Where, Any]]) -> list[Game]:
    """Every game in the decoded documents (JSON lines of one game give one game)."""
    parsed = []
    for where, obj in docs:
        if not isinstance(obj, dict):
            where.fail("", f"expected a JSON object with a \"log\" array, not {show(obj)}")
        kyokus = as_list(where, "/log", obj.get("log"), "log")
        if not kyokus:
            where.fail("/log", "the log has no kyoku")
        parsed.append(_Doc(where, obj, kyokus))
    groups: list[_Group] = []
    for doc in parsed:
        if not groups or _starts_new_game(groups[-1], doc):
            groups.append(_Group())
        groups[-1].docs.append(doc)
    return [_read_game(g, i) for i, g in enumerate(groups)]


def _identity(doc: _Doc) -> tuple[object, ...]:
    names = doc.obj.get("name")
    return (tuple(names) if isinstance(names, list) else names, doc.obj.get("ref"))


def _starts_new_game(group: _Group, doc: _Doc) -> bool:
    if _identity(group.docs[-1]) != _identity(doc):
        return True
    first = doc.kyokus[0] if doc.kyokus else None
    head = first[0] if isinstance(first, list) and first else None
    return head == [0, 0, 0] and any(d.kyokus for d in group.docs)


def _strings(value: object, n: int) -> list[str | None]:
    items = value if isinstance(value, list) else []
    out: list[str | None] = []
    for i in range(n):
        v = items[i] if i < len(items) else None
        out.append(v if isinstance(v, str) and v else None)
    return out


def _players_of(obj: dict[str, Any], first_kyoku: object) -> int:
    rule = obj.get("rule")
    disp = rule.get("disp") if isinstance(rule, dict) else None
    if isinstance(first_kyoku, list) and len(first_kyoku) > 13 and first_kyoku[13] == []:
        return 3
    if isinstance(disp, str) and (disp.startswith(("三", "3")) or "3-Player" in disp):
        return 3
    return 3 if obj.get("ratingc") == "PF3" else 4


def players_of(obj: dict[str, Any]) -> int:
    """3 or 4: the number of players a tenhou.net/6 object is for."""
    kyokus = obj.get("log")
    return _players_of(obj, kyokus[0] if isinstance(kyokus, list) and kyokus else None)


def _read_game(group: _Group, index: int) -> Game:
    head = group.docs[0]
    where0 = head.where
    obj = head.obj
    first = head.kyokus[0] if head.kyokus else None
    players = _players_of(obj, first)
    exts = [read_ext(d.where, d.obj, players, len(d.kyokus)) for d in group.docs]
    events: list[Event] = []
    diags: list[Diagnostic] = []
    has_red = False
    firsts: list[int] = []
    lines: list[int | None] = []
    formats: list[tuple[str, ...]] = []
    elements: list[tuple[tuple[int, ...] | None, ...]] = []
    orders: list[bytes] = []
    for doc, ext in zip(group.docs, exts, strict=True):
        for i, kyoku in enumerate(doc.kyokus):
            got = read_kyoku(doc.where, kyoku_pointers(i), kyoku, players, ext.of_kyoku(i))
            if got.order:
                firsts.append(len(events))
                lines.append(doc.where.line)
                formats.append(got.formats)
                elements.append(got.elements)
                orders.append(got.order)
            events.extend(got.events)
            diags.extend(got.diagnostics)
            has_red |= got.has_red
    ext = exts[0]  # the game's own keys come from its first document
    meta = read_meta(where0, obj, players, has_red, diags, hints=ext.hints)
    hints = meta.hints
    if "end_game" in ext.meta:
        end: EndGame | None = ext.meta["end_game"]
    else:
        sc_doc = next((d for d in reversed(group.docs) if d.obj.get("sc") not in (None, [])),
                      None)
        end = _end_game(events, sc_doc, players, hints, diags)
    if end is not None:
        events.append(end)
    ordered = tuple(events)  # built canonical (see read_kyoku)
    runs = SourceTracks(ordered, where0.file, tuple(firsts), tuple(lines), tuple(formats),
                        tuple(elements), tuple(orders)) if orders else None
    return Game(format=FORMAT, source=where0.file, events=ordered,
                players=ext.meta.get("players", meta.players), hints=hints,
                log_id=ext.meta.get("log_id", meta.log_id),
                title=ext.meta.get("title", meta.title), index=index,
                diagnostics=tuple(diags), runs=runs)


@dataclass(slots=True, init=False)
class Meta:
    """What the standard keys say about the game besides its kyokus (fields ``Final``,
    set by a written ``__init__``: compiled, a frozen dataclass's runs interpreted)."""

    players: Final[tuple[Player, ...]]
    hints: Final[RuleHints]
    log_id: Final[str | None]
    title: Final[str | None]

    def __init__(self, *, players: tuple[Player, ...], hints: RuleHints, log_id: str | None,
                 title: str | None) -> None:
        self.players = players
        self.hints = hints
        self.log_id = log_id
        self.title = title


def read_meta(where: Where, obj: dict[str, Any], players: int, has_red: bool,
              diags: list[Diagnostic], *, hints: dict[str, Any] | None = None) -> Meta:
    """Players, rule hints, log id and title from ``name``, ``dan``, ``rate``, ``sx``,
    ``rule``, ``lobby``, ``ref`` and ``title``; ``hints``: the extension's rule hints,
    which replace what those keys say."""
    names = _strings(obj.get("name"), players)
    dan = _strings(obj.get("dan"), players)
    sx = _strings(obj.get("sx"), players)
    rate_v = obj.get("rate")
    rates = rate_v if isinstance(rate_v, list) else []
    player_list = tuple(
        Player(name=names[i] or "", rank=dan[i],
               rating=float(rates[i]) if i < len(rates) and _is_number(rates[i]) else None,
               sex=sx[i])
        for i in range(players))
    title_v = obj.get("title")
    title_parts = [t for t in (title_v if isinstance(title_v, list) else [title_v])
                   if isinstance(t, str) and t]
    ref = obj.get("ref")
    return Meta(players=player_list,
                hints=_hints(obj, players, has_red, where, diags, ext=hints or {}),
                log_id=ref if isinstance(ref, str) and ref else None,
                title=" / ".join(title_parts) or None)


def end_game_of(events: list[Event], where: Where, obj: dict[str, Any], players: int,
                hints: RuleHints) -> EndGame | None:
    """The ``EndGame`` the standard keys give after ``events`` (a one-document game)."""
    sc_doc = _Doc(where, obj, []) if obj.get("sc") not in (None, []) else None
    return _end_game(events, sc_doc, players, hints, [])


def _is_number(v: object) -> bool:
    """A finite number that converts to a float (an int of 400 digits does not)."""
    if is_int(v):
        return abs(v) < 10**15  # type: ignore[arg-type]
    return isinstance(v, float) and math.isfinite(v)


def _hints(obj: dict[str, Any], players: int, has_red: bool, where: Where,
           diags: list[Diagnostic], *, ext: dict[str, Any]) -> RuleHints:
    rule = obj.get("rule")
    rule = rule if isinstance(rule, dict) else {}
    disp_v = rule.get("disp")
    disp = disp_v if isinstance(disp_v, str) and disp_v else None
    flags = [rule[k] for k in ("aka", "aka51", "aka52", "aka53") if k in rule]
    aka: bool | None
    if flags:
        aka = any(is_int(f) and f > 0 for f in flags)
    elif disp is not None and "赤" in disp:
        aka = True
    else:
        aka = True if has_red else None
    if aka is False and has_red:
        diags.append(Diagnostic("rule.aka says no red fives, but red fives (51-53) are in play",
                                where.ref("/rule")))
    title_v = obj.get("title")
    title = " ".join(t for t in title_v if isinstance(t, str)) \
        if isinstance(title_v, list) else ""
    ref = obj.get("ref")
    majsoul = any(r in (disp or "") or r in title for r in _MAJSOUL_ROOMS) or (
        isinstance(ref, str) and _MAJSOUL_REF.match(ref) is not None)
    hanchan: bool | None = None
    kuitan: bool | None = None
    if disp is not None:
        low = disp.lower()
        if "南" in disp or "south" in low:
            hanchan = True
        elif "東" in disp or "east" in low:
            hanchan = False
        kuitan = True if majsoul else "喰" in disp
    lobby = obj.get("lobby")
    get = ext.get  # the extension's fields replace these (one RuleHints made, not two)
    return RuleHints(players=players, aka=get("aka", aka), kuitan=get("kuitan", kuitan),
                     hanchan=get("hanchan", hanchan),
                     platform=get("platform", "majsoul" if majsoul else "tenhou"),
                     lobby=get("lobby", str(lobby) if is_int(lobby) or isinstance(lobby, str)
                               else None),
                     room=get("room", disp), raw_type=get("raw_type"),
                     start_score=get("start_score"), uma=get("uma"),
                     return_score=get("return_score"))


# -- the end of the game ---------------------------------------------------------------


def _end_game(events: list[Event], sc_doc: _Doc | None, players: int, hints: RuleHints,
              diags: list[Diagnostic]) -> EndGame | None:
    """``EndGame`` when the log looks like a whole game, with ``sc`` when it has one."""
    # the first and the last StartKyoku, each found from its end of the game
    first_i = 0
    while first_i < len(events) and not isinstance(events[first_i], StartKyoku):
        first_i += 1
    if first_i == len(events):
        return None
    last_i = len(events) - 1
    while not isinstance(events[last_i], StartKyoku):
        last_i -= 1
    first = events[first_i]
    last = events[last_i]
    assert isinstance(first, StartKyoku) and isinstance(last, StartKyoku)
    hand = events[last_i:]
    end_scores = _end_scores(last, hand)
    final = _read_sc(sc_doc, players, sum(first.scores) + RIICHI_STICK * first.kyotaku)
    if not isinstance(events[-1], EndKyoku):  # the log stops in its last hand
        if final is not None and sc_doc is not None:
            diags.append(Diagnostic("the log has final scores (sc) but its last hand has no "
                                    "result; no EndGame", sc_doc.where.ref("/sc")))
        return None
    matches = final is not None and end_scores is not None and _same_end(
        final[0], end_scores, last, hand)
    if not (matches or _looks_finished(last, hand, end_scores, players, hints)):
        if final is not None and sc_doc is not None:
            diags.append(Diagnostic(
                "the log has final scores (sc) but stops before the game ends (an excerpt?); "
                "no EndGame", sc_doc.where.ref("/sc")))
        return None
    src = sc_doc.where.ref("/sc") if final is not None and sc_doc is not None else hand[-1].src
    if final is None:
        return EndGame(src=src)
    return EndGame(scores=final[0], points=final[1], src=src)


def _read_sc(doc: _Doc | None, players: int,
             total: int) -> tuple[tuple[int, ...], tuple[float, ...]] | None:
    if doc is None:
        return None
    sc = doc.obj.get("sc")
    if not isinstance(sc, list) or len(sc) < 2 * players or not all(_is_number(v) for v in sc):
        doc.where.fail("/sc", f"sc must be [score, points] for each seat, not {show(sc)}")
    raw = [sc[2 * i] for i in range(players)]
    points = tuple(float(sc[2 * i + 1]) for i in range(players))
    unit = 1
    s = sum(raw)
    if abs(s * 100 - total) <= 10 * RIICHI_STICK < abs(s - total):
        unit = 100  # Tenhou's hundreds
    return tuple(round(v * unit) for v in raw), points


def _end_scores(start: StartKyoku, hand: list[Event]) -> list[int] | None:
    scores = list(start.scores)
    for e in hand:
        if isinstance(e, ReachAccepted):
            scores[e.actor] -= RIICHI_STICK
        elif isinstance(e, Hora):
            if e.deltas is None:
                return None
            scores = [s + d for s, d in zip(scores, e.deltas, strict=True)]
        elif isinstance(e, Ryukyoku) and e.deltas is not None:
            scores = [s + d for s, d in zip(scores, e.deltas, strict=True)]
    return scores


def _sticks_left(start: StartKyoku, hand: list[Event]) -> int:
    if any(isinstance(e, Hora) for e in hand):
        return 0
    return start.kyotaku + sum(isinstance(e, ReachAccepted) for e in hand)


def _same_end(final: tuple[int, ...], end: list[int], last: StartKyoku,
              hand: list[Event]) -> bool:
    if tuple(end) == final:
        return True
    sticks = _sticks_left(last, hand)
    top = max(range(len(end)), key=lambda s: (end[s], -s))
    with_sticks = list(end)
    with_sticks[top] += RIICHI_STICK * sticks
    return tuple(with_sticks) == final


def _looks_finished(last: StartKyoku, hand: list[Event], end: list[int] | None, players: int,
                    hints: RuleHints) -> bool:
    """Could the game (Tenhou / Mahjong Soul ranked rules) end after this hand?"""
    if end is None:
        return False
    if min(end) < 0:
        return True  # bust
    per_wind = 4 if players == 4 else 3
    number = WIND_INDEX[last.bakaze.mjai] * per_wind + last.kyoku - 1
    final = (2 if hints.hanchan is not False else 1) * per_wind - 1
    if number < final:
        return False
    target = 30000 if players == 4 else 40000
    oya = last.oya
    renchan = _renchan(hand, oya)
    if renchan is None:
        return False
    if renchan:
        top = max(range(len(end)), key=lambda s: (end[s], -s))
        return top == oya and end[oya] >= target
    return max(end) >= target or number >= final + per_wind


WIND_INDEX = {"E": 0, "S": 1, "W": 2, "N": 3}


def _renchan(hand: list[Event], oya: int) -> bool | None:
    """Does the dealer keep the deal?  ``None`` when the log cannot tell."""
    for e in hand:
        if isinstance(e, Hora):
            if e.actor == oya:
                return True
        elif isinstance(e, Ryukyoku):
            if e.reason.is_abortive:
                return True
            if e.reason is not DrawReason.EXHAUSTIVE:
                return None  # nagashi mangan: who was tenpai is not in the log
            if e.tenpai is not None:
                return e.tenpai[oya]
            if e.deltas is not None and any(e.deltas):
                return e.deltas[oya] > 0
            return None
    return False
