"""One tenhou.net/6 kyoku array (17 items, FORMATS.md B.2) -> its events.

A hand whose result is kansa's ``["中断"]`` is one the log stops
in: its events stop where its takes and discards stop, without ReachAccepted,
result or EndKyoku, plus the ``tail`` the ``kansa`` extension gives.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from kansa.parsers.canonical import Canonical, is_empty_ura, sorted_hidden
from kansa.parsers.tenhou6.ext import NO_KYOKU_EXT, KyokuExt
from kansa.parsers.tenhou6.items import (
    DAHAI,
    DRAW,
    KITA,
    Script,
    read_script,
    script_tracks,
    tile_code,
    tile_codes,
)
from kansa.parsers.tenhou6.jsontext import Where, as_int, as_list, int_list, show
from kansa.parsers.tenhou6.order import (
    END_AFTER_DISCARD,
    END_AFTER_KAN,
    END_AFTER_TAKE,
    Ending,
    NoOrder,
    Walker,
)
from kansa.parsers.tenhou6.patching import apply_kyoku
from kansa.parsers.tenhou6.pointers import KyokuPointers
from kansa.parsers.tenhou6.result import (
    AGARI,
    ALL_NOTEN,
    ALL_TENPAI,
    INTERRUPTED,
    Score,
    parse_score,
    parse_yaku,
    result_kind,
)
from kansa.replay.events import (
    Dora,
    DrawReason,
    EndKyoku,
    Event,
    Hora,
    ReachAccepted,
    Ryukyoku,
    SourceRef,
    StartKyoku,
)
from kansa.replay.game import Diagnostic
from kansa.replay.tiles import WINDS, Seat, Tile, seat_wind
from kansa.replay.yaku import Yaku

KYOKU_ITEMS: Final = 17


# The values below are made per kyoku: fields ``Final``, set by a written ``__init__``
# (as the events' are), which compiles to native code where a generated one does not.

@dataclass(slots=True, init=False)
class _Win:
    actor: Final[Seat]
    target: Final[Seat]
    pao: Final[Seat | None]
    deltas: Final[tuple[int, ...]]
    score: Final[Score | None]
    yaku: Final[tuple[tuple[Yaku, int], ...] | None]
    src: Final[SourceRef]

    def __init__(self, *, actor: Seat, target: Seat, pao: Seat | None,
                 deltas: tuple[int, ...], score: Score | None,
                 yaku: tuple[tuple[Yaku, int], ...] | None, src: SourceRef) -> None:
        self.actor = actor
        self.target = target
        self.pao = pao
        self.deltas = deltas
        self.score = score
        self.yaku = yaku
        self.src = src


@dataclass(slots=True, init=False)
class _Draw:
    reason: Final[DrawReason]
    deltas: Final[tuple[int, ...] | None]
    tenpai: Final[tuple[bool, ...] | None]
    src: Final[SourceRef]

    def __init__(self, reason: DrawReason, deltas: tuple[int, ...] | None,
                 tenpai: tuple[bool, ...] | None, src: SourceRef) -> None:
        self.reason = reason
        self.deltas = deltas
        self.tenpai = tenpai
        self.src = src


@dataclass(slots=True, init=False)
class KyokuRead:
    events: Final[list[Event]]
    diagnostics: Final[list[Diagnostic]]
    has_red: Final[bool]
    order: Final[bytes]
    """Where its events without a ``src`` (shared draws and discards) were read: a hand
    of ``SourceTracks`` with :attr:`formats` and :attr:`elements`."""
    formats: Final[tuple[str, ...]]
    elements: Final[tuple[tuple[int, ...] | None, ...]]

    def __init__(self, events: list[Event], diagnostics: list[Diagnostic], has_red: bool,
                 tracks: Tracks) -> None:
        self.events = events
        self.diagnostics = diagnostics
        self.has_red = has_red
        self.order, self.formats, self.elements = tracks


Tracks = tuple[bytes, tuple[str, ...], tuple[tuple[int, ...] | None, ...]]
"""A hand's order, formats and elements (see ``SourceTracks``)."""


def read_kyoku(where: Where, at: KyokuPointers, value: Any, players: int,
               ext: KyokuExt = NO_KYOKU_EXT) -> KyokuRead:
    """Events of one kyoku, from ``StartKyoku`` to ``EndKyoku`` (or where an
    interrupted hand stops), with the claims of its ``kansa`` entry ``ext``; ``at``:
    its pointers.

    :raises LogFormatError: for a malformed kyoku or one whose order of play
        cannot be reconstructed.
    """
    ptr = at.base
    item = at.items
    k = as_list(where, ptr, value, "a kyoku")
    if len(k) != KYOKU_ITEMS:
        where.fail(ptr, f"a kyoku has {KYOKU_ITEMS} items, this one has {len(k)}")
    head = int_list(where, item[0], k[0], "the kyoku header")
    if len(head) != 3 or head[0] < 0 or head[1] < 0 or head[2] < 0 or head[0] >= 16:
        where.fail(item[0], f"the kyoku header must be [kyoku 0-15, honba, riichi sticks], "
                            f"not {show(k[0])}")
    num, honba, sticks = head
    oya = Seat(num % 4)
    if oya >= players:
        where.fail(item[0], f"kyoku {num} has dealer seat {oya} in a {players}-player game")
    scores = int_list(where, item[1], k[1], "a score")
    if len(scores) != players and (len(scores) != 4 or any(scores[players:])):
        where.fail(item[1], f"expected {players} scores, not {show(k[1])}")
    dora_v = as_list(where, item[2], k[2], "the dora indicators")
    if not dora_v:
        where.fail(item[2], "no dora indicator")
    indicators = [(tile_code(where, at.dora_at(i), v), where.ref(at.dora_at(i)))
                  for i, v in enumerate(dora_v)]
    ura = list(tile_codes(where, item[3], as_list(where, item[3], k[3], "the ura indicators")))
    tehais: list[tuple[Tile | None, ...]] = []
    for seat in range(4):
        hp = item[4 + 3 * seat]
        hand = as_list(where, hp, k[4 + 3 * seat], "a starting hand")
        if seat >= players:
            for i in (4, 5, 6):
                if k[i + 3 * seat] != []:
                    where.fail(f"{ptr}/{i + 3 * seat}",
                               f"seat {seat} is empty in a {players}-player game")
            continue
        if not hand:
            where.fail(hp, f"seat {seat} has no starting hand")
        tehais.append(tile_codes(where, hp, hand))
    scripts = [read_script(where, at, k[5 + 3 * s], k[6 + 3 * s], seat=Seat(s), players=players)
               for s in range(players)]
    bakaze = WINDS[num // 4]
    diags: list[Diagnostic] = []
    result = _read_result(where, at, k[16], players=players, oya=oya, bakaze=bakaze,
                          diags=diags)

    start = StartKyoku(bakaze=bakaze, kyoku=num % 4 + 1, honba=honba, kyotaku=sticks, oya=oya,
                       scores=tuple(scores[:players]), dora_marker=indicators[0][0],
                       tehais=tuple([sorted_hidden(hand) for hand in tehais]),
                       src=where.ref(ptr))
    interrupted = result is None
    if ext.tail and not interrupted:
        where.fail(f"{ext.pointer}/tail", "only an interrupted hand (result [\"中断\"]) has a "
                                          "tail")
    if not ext.end_kyoku and interrupted:
        where.fail(f"{ext.pointer}/end_kyoku", "an interrupted hand has no EndKyoku anyway")
    walk = Walker(where, scripts, oya, indicators,
                  lambda e: result is None or _fits(e, result), interrupted=interrupted,
                  events=[start]).run()
    if isinstance(walk, NoOrder):
        raise_at = walk.src or where.ref(ptr)
        where.fail(raise_at.pointer or ptr,
                   f"cannot reconstruct the order of play: {walk.message}")
    if not walk.matches_result:
        diags.append(Diagnostic(
            f"the result array does not match how the hand ends (after seat "
            f"{walk.ending.seat}'s {walk.ending.kind}); kept the result as written",
            where.ref(item[16])))
    dora_used = walk.dora_used + sum(isinstance(e, Dora) for e in ext.tail)
    if walk.dora_missing:
        diags.append(Diagnostic(f"{walk.dora_missing} kan dora indicator(s) missing; their "
                                "Dora events are left out", where.ref(item[2])))
    elif dora_used < len(indicators) - 1:
        diags.append(Diagnostic(f"{len(indicators) - 1 - dora_used} dora indicator(s) "
                                "more than the kans reveal", where.ref(item[2])))
    events = walk.events  # the start, then the play
    tracks: Tracks = (b"".join(walk.order), *script_tracks(at, scripts))
    has_red = _has_red(tehais, scripts)
    ending = walk.ending
    res_src = where.ref(item[16])
    if result is None:
        # (the tail's reach and dora events are canonical as they are)
        events = [*apply_kyoku(where, ext, events, players), *ext.tail]
        return KyokuRead(events, diags, has_red, tracks)
    ronned = isinstance(result, list) and ending.kind == END_AFTER_DISCARD
    accepted = walk.riichi  # the seats of the ReachAccepted events
    if ending.reach_pending is not None and not ronned and not (
            isinstance(result, _Draw) and result.reason is DrawReason.SANCHAHOU):
        events.append(ReachAccepted(actor=ending.reach_pending, src=res_src))
        accepted |= 1 << ending.reach_pending
    if isinstance(result, list):
        riichi = {Seat(s) for s in range(players) if accepted >> s & 1}
        for w in result:
            events.append(_hora(w, ending, matches=walk.matches_result, indicators=indicators,
                                ura=ura, riichi=riichi, honba=honba))
    else:
        actor = ending.seat if result.reason is DrawReason.KYUUSHU_KYUUHAI else None
        draw = Ryukyoku(reason=result.reason, deltas=result.deltas, tenpai=result.tenpai,
                        actor=actor, src=result.src)
        events.append(Canonical(players).event(draw))  # an abortive draw's zero deltas
    if ext.end_kyoku:
        events.append(EndKyoku(src=res_src))
    return KyokuRead(apply_kyoku(where, ext, events, players), diags, has_red, tracks)


def _has_red(tehais: list[tuple[Tile | None, ...]], scripts: list[Script]) -> bool:
    return any(t is not None and t.is_red for hand in tehais for t in hand) or any(
        st.tile.is_red or (st.kind not in _NOTHING_CONSUMED
                           and any(t.is_red for t in getattr(st.event, "consumed", ())))
        for script in scripts for st in script.steps)


_NOTHING_CONSUMED: Final = frozenset({DRAW, DAHAI, KITA})
"""The steps whose event has no ``consumed`` tiles."""


def _hora(w: _Win, ending: Ending, *, matches: bool, indicators: list[tuple[Tile, SourceRef]],
          ura: list[Tile], riichi: set[Seat], honba: int) -> Hora:
    s = w.score
    han = s.han if s is not None else None
    yaku = w.yaku
    if yaku is not None:
        if han is None:
            han = sum(h for _, h in yaku)  # limit hands: the text names no han
        if any(is_empty_ura(item) for item in yaku):  # dropped, as the canonical form has it
            yaku = tuple(item for item in yaku if not is_empty_ura(item))
    return Hora(
        actor=w.actor, target=w.target, tile=ending.tile if matches else None,
        deltas=w.deltas, yaku=yaku,
        fu=s.fu if s is not None else None, han=han,
        points=s.points if s is not None else None,
        limit=s.limit if s is not None else None,
        dora_markers=tuple(t for t, _ in indicators),
        ura_markers=tuple(ura) if ura and w.actor in riichi else None,
        pao=w.pao, honba=honba, src=w.src)


def _fits(ending: Ending, result: list[_Win] | _Draw) -> bool:
    """Does the result array describe a hand that ends this way?"""
    a = ending.seat
    if isinstance(result, _Draw):
        if ending.kind == END_AFTER_TAKE:
            return result.reason is DrawReason.KYUUSHU_KYUUHAI
        return ending.kind == END_AFTER_DISCARD \
            and result.reason is not DrawReason.KYUUSHU_KYUUHAI
    if ending.kind == END_AFTER_TAKE:
        return all(w.actor == w.target == a for w in result)
    assert ending.kind in (END_AFTER_DISCARD, END_AFTER_KAN)
    return all(w.target == a != w.actor for w in result)


def _deltas(where: Where, ptr: str, value: object, players: int) -> tuple[int, ...]:
    d = int_list(where, ptr, value, "a score change")
    if len(d) != players and (len(d) != 4 or any(d[players:])):
        where.fail(ptr, f"expected {players} score changes, not {show(value)}")
    return tuple(d[:players])


def _read_result(where: Where, at: KyokuPointers, value: object, *, players: int, oya: Seat,
                 bakaze: Tile, diags: list[Diagnostic]) -> list[_Win] | _Draw | None:
    """The wins or the draw (the kyoku's item 16, ``at`` its pointers); ``None`` for an
    interrupted hand."""
    ptr = at.items[16]
    r = as_list(where, ptr, value, "the result")
    if r == [INTERRUPTED]:
        return None
    if not r or not isinstance(r[0], str):
        where.fail(ptr, f"the result must start with its kind (和了, 流局, ...), not "
                        f"{show(r[0] if r else value)}")
    kind = result_kind(r[0])
    if kind is None:
        where.fail(f"{ptr}/0", f"unknown result {r[0]!r}")
    if kind != AGARI:
        assert isinstance(kind, DrawReason)
        deltas = _deltas(where, at.result_at(1), r[1], players) if len(r) > 1 else None
        tenpai: tuple[bool, ...] | None = None
        if r[0] in ALL_TENPAI or r[0] in ALL_NOTEN:  # the spelling says: nobody pays
            tenpai = (r[0] in ALL_TENPAI,) * players
            deltas = deltas or (0,) * players
        elif kind is DrawReason.EXHAUSTIVE and deltas is not None and any(deltas):
            tenpai = tuple(d > 0 for d in deltas)
        return _Draw(kind, deltas, tenpai, where.ref(ptr))
    if len(r) < 3 or len(r) % 2 == 0:
        where.fail(ptr, "a win result is 和了 followed by (score changes, detail) pairs")
    wins = []
    for i in range(1, len(r), 2):
        deltas = _deltas(where, at.result_at(i), r[i], players)
        wins.append(_read_detail(where, at.result_at(i + 1), r[i + 1], deltas=deltas,
                                 players=players, oya=oya, bakaze=bakaze, diags=diags))
    return wins


def _read_detail(where: Where, ptr: str, value: object, *, deltas: tuple[int, ...],
                 players: int, oya: Seat, bakaze: Tile, diags: list[Diagnostic]) -> _Win:
    d = as_list(where, ptr, value, "a win detail")
    if len(d) < 3:
        where.fail(ptr, "a win detail starts with [winner, discarder, liable seat]")
    seats = [d[i] if type(d[i]) is int else as_int(where, f"{ptr}/{i}", d[i], "a seat")
             for i in range(3)]
    for i, s in enumerate(seats):
        if not 0 <= s < players:
            where.fail(f"{ptr}/{i}", f"seat {s} out of range")
    actor, target, liable = Seat(seats[0]), Seat(seats[1]), Seat(seats[2])
    score: Score | None = None
    yaku: list[tuple[Yaku, int]] = []
    unknown = False
    for i in range(3, len(d)):  # (an indexed loop: compiled, enumerate(start=) is a call)
        text = d[i]
        if not isinstance(text, str):
            where.fail(f"{ptr}/{i}", f"expected a text, not {show(text)}")
        if i == 3:
            score = parse_score(text, players)
            if score is None:
                diags.append(Diagnostic(f"unreadable score text {text!r}",
                                        where.ref(f"{ptr}/{i}")))
            continue
        one = parse_yaku(text, seat_wind(actor, oya, players), bakaze)
        if one is None:
            unknown = True
            diags.append(Diagnostic(f"unknown yaku {text!r}; the win's yaku are left out",
                                    where.ref(f"{ptr}/{i}")))
        else:
            yaku.append(one)
    return _Win(actor=actor, target=target, pao=liable if liable != actor else None,
                deltas=deltas, score=score,
                yaku=tuple(yaku) if yaku and not unknown else None, src=where.ref(ptr))
