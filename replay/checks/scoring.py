"""Every point accounted for: hand values, payments, liability and final points.

The engine values each win when it is declared and prices each hand once all its
wins are known (:mod:`kansa.replay.settle`); the checks here compare those figures with
the log's claims and say, yaku by yaku and payment by payment, where they differ.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator
from typing import Final

from kansa.replay.checks.kans import indicators_missing
from kansa.replay.checks.registry import check
from kansa.replay.context import CheckContext
from kansa.replay.events import DrawReason, EndGame, Hora
from kansa.replay.payments import WinPayment, final_result, out_of_range
from kansa.replay.rules import MultiRon, SticksMultiRon
from kansa.replay.scoring import describe
from kansa.replay.settle import SettledDraw, SettledWin, Settlement, WinEntry, allowed_winners
from kansa.replay.violations import Severity, Violation, define
from kansa.replay.yaku import Limit, Yaku

VALUE: Final = define(
    "score.value", "Hand value differs from the rule set's", Severity.ERROR,
    "EMA RCR 3.3.11 and the scoring chapter (yaku, fu, limits)",
    "The yaku, han, fu, limit or points the log gives a win differ from what the replayed hand "
    "is worth under the rule set (melds, winning tile, seat and round wind, riichi, ippatsu, "
    "last-tile and kan wins, dora from the revealed indicators, ura dora, red fives). The "
    "message lists both sides yaku by yaku. Where only the yaku names differ (as many yaku "
    "with the same han each, as many dora of all kinds, and the same fu, limit and points: "
    "a converter naming the seat wind West where the seat is North) it is a warning: the "
    "log's writer slipped, the hand did not.",
    tenhou="Tenhou rules: yaku list and scoring (tenhou.net/man), kazoe yakuman, "
           "no double-yakuman patterns",
    majsoul="Mahjong Soul rules: yaku list, double-yakuman patterns",
    wrc="WRC 2015 §6.1 (kiriage mangan, kazoe capped at sanbaiman)",
    mleague="M-League rules: scoring",
)
INDICATORS: Final = define(
    "score.indicators", "Indicators of a win that do not match the table", Severity.ERROR,
    "EMA RCR 3.3.5-3.3.7 (kan dora), scoring chapter (ura dora)",
    "The dora indicators the log lists for a win differ from those revealed during play, or "
    "a riichi winner's ura indicators are not as many as the dora indicators.",
    tenhou="Tenhou rules: kan dora (ankan at once, open kans at the next discard), ura dora",
)
PAYMENT: Final = define(
    "score.payment", "Win payment differs from the rule set's", Severity.ERROR,
    "EMA RCR 3.4.9-3.4.10 (payments, counters)",
    "A ron or tsumo moved other points than the hand's value gives: the dealer and "
    "non-dealer split (at three players with the absent seat's share lost or split, as the "
    "rule set says), rounding to 100, or the honba (300 per counter at four players, 200 at "
    "three, to the closest or to every winner as the rule set says). The payments are "
    "priced from the replay's own value of the hand; scores that moved by the log's "
    "claimed value instead are score.value's finding (the claim is wrong, the payments "
    "follow it), and payments that match neither are reported with both.",
    tenhou="Tenhou rules: payments; double ron: the closest winner takes the honba",
)
STICKS: Final = define(
    "score.sticks", "Riichi sticks collected wrongly", Severity.ERROR, "EMA RCR 3.3.14, 3.4.4",
    "A winner collected other riichi sticks than the rule set gives: all sticks on the table "
    "(those carried over draws included) to the closest winner, or, under EMA, each winning "
    "declarer's own stick back and the rest to the closest winner.",
    tenhou="Tenhou rules: the closest winner takes every stick on the table",
)
NOTEN: Final = define(
    "score.noten", "Draw payments differ from the rule set's", Severity.ERROR, "EMA RCR 3.4.2",
    "An exhaustive draw moved other points than the noten payments (3,000 in total at four "
    "players, 2,000 at three, split "
    "between the noten players and shared by the tenpai players), nagashi mangan moved other "
    "points than a mangan tsumo without honba (replacing noten payments), or an abortive draw "
    "moved points.",
    tenhou="Tenhou rules: noten payments, nagashi mangan (流し満貫)",
)
PAO: Final = define(
    "score.pao", "Liability (pao) differs from the rule set's", Severity.ERROR, "EMA RCR 3.3.6",
    "The liable player (the one who fed the pon or open kan completing the third dragon set "
    "or the fourth wind set) is not the one the log names, or the liable player's payments "
    "differ: a tsumo paid in full by the liable player, a ron split half and half with the "
    "discarder, honba by the rule set's payer.",
    tenhou="Tenhou rules: 包 (daisangen, daisuushii; tsumo in full, ron half each, honba by "
           "the liable player)",
    majsoul="Mahjong Soul rules: liability for the pao yakuman part only",
)
FINAL: Final = define(
    "score.final", "Final points differ from the rule set's", Severity.ERROR,
    "EMA RCR 3.6 (end of the game: uma)",
    "The game points the log gives at the end (after leftover sticks, uma and oka, rounded as "
    "the rule set rounds them) differ from those the final scores give.",
    tenhou="Tenhou rules: oka 20 and uma 10-20; older logs round each score to whole "
           "thousands (half away from zero), newer ones give tenths; first place takes minus "
           "the sum of the others",
    majsoul="Mahjong Soul: (score - 25,000) / 1000 plus uma 15/5/-5/-15, no oka, ties to "
            "the earlier seat (the final points of its records, as converted logs give them)",
    tenhou_sanma="Tenhou three-player rules: start 35,000, return 40,000 (oka 15 to first), "
                 "uma +20/0/-20, each score but the first's in whole thousands (the "
                 "three-player owari values)",
    majsoul_sanma="Mahjong Soul three-player: (score - 35,000) / 1000 plus uma 15/0/-15, no "
                  "oka (the final points of its records, as converted logs give them)",
)
MULTI_RON: Final = define(
    "win.multi-ron", "More winners on one discard than the rule set allows", Severity.ERROR,
    "EMA RCR 3.3.1 (EMA: every claimant wins)",
    "Two or more players win on one discard where the rule set lets only the closest win "
    "(head bump), or three win where three winners abort the hand (sanchahou).",
    tenhou="Tenhou rules: 三家和 (a triple ron is an abortive draw)",
    wrc="WRC 2015 §5.7.6 (head bump: only the closest player wins)",
    mleague="M-League rules: head bump",
)


# -- hand value --------------------------------------------------------------------

def _yaku_list(yaku: Iterable[tuple[Yaku, int]]) -> list[tuple[Yaku, int]]:
    return sorted(((y, h) for y, h in yaku if h), key=lambda p: (p[0].value, p[1]))


@check(Hora, rules=("score.value", "score.indicators", "win.multi-ron"), phase="after")
def win_value(ctx: CheckContext, ev: Hora) -> Iterator[Violation]:
    wins = ctx.wins
    if not wins or wins[-1].event is not ev:
        return
    entry = wins[-1]
    for e in wins:
        if e.extra_at == ctx.index:
            yield from _multi_ron(ctx, e)
    yield from _indicators(ctx, entry)
    v = entry.value
    if v is None:
        return
    claimed = ev.yaku is not None or ev.han is not None or ev.points is not None
    if v.error is not None:
        if claimed:
            yield ctx.violation("score.value", (
                f"seat {ev.actor}'s win has no value under {ctx.rules.name}: "
                f"{v.error.replace('_', ' ')}; the log claims "
                f"{describe(_yaku_list(ev.yaku or ()), ev.han, ev.fu, ev.points, ev.limit)}"),
                seat=ev.actor)
        return
    mine = list(v.yaku)
    if ev.yaku is not None and not any(y is Yaku.NUKIDORA for y, _ in ev.yaku):
        mine = _kita_as_dora(mine)
    note = ""
    ws = entry.situation
    if ws is not None and (ws.riichi or ws.double_riichi) and ev.ura_markers is None:
        ura = [(y, h) for y, h in (ev.yaku or ()) if y is Yaku.URA_DORA]
        mine += ura  # the log shows no ura indicators: take its ura count as given
        note = " (ura dora as the log gives them: it shows no ura indicators)"
    ours = _yaku_list(mine)
    han = sum(h for _, h in ours) if note else v.han
    diffs: list[str] = []
    log_han = ev.han
    if ev.yaku is not None:
        theirs = _yaku_list(ev.yaku)
        if theirs != ours and ev.points is not None and ev.points == v.points:
            counted = _yakuman_as_counted(theirs, ours)
            if counted != theirs:
                theirs, log_han = counted, sum(h for _, h in counted)
        if theirs != ours:
            diffs.append("yaku")
    if log_han is not None and log_han != han:
        diffs.append("han")
    limited = v.limit is not Limit.NONE and (ev.limit is None or ev.limit is not Limit.NONE)
    if ev.fu is not None and ev.fu != v.fu and not limited:
        diffs.append("fu")
    if ev.points is not None and ev.points != v.points and not note:
        diffs.append("points")
    if ev.limit is not None and ev.limit is not v.limit:
        diffs.append("limit")
    if not diffs:
        return
    log_text = describe(_yaku_list(ev.yaku or ()), ev.han, ev.fu, ev.points, ev.limit)
    replay_text = describe(ours, han, v.fu, v.points, v.limit)
    win = "tsumo" if ev.is_tsumo else f"ron on seat {ev.target}"
    missing = indicators_missing(ctx)
    why = (f"; the log lost {missing} kan dora indicator(s) before this win (see kan.dora), "
           "so its dora cannot be counted and this is a warning") if missing else ""
    if not missing and diffs == ["yaku"] and _names_only(ev.yaku or (), ours):
        why = ("; only the yaku names differ (as many yaku with the same han each, as many "
               "dora, the same fu, limit and points): a naming slip of the log's writer, not "
               "an error of the hand, so this is a warning")
    if not missing and diffs == ["limit"] and ev.points is not None:
        why = ("; only the limit's name differs (the same yaku, han and points): a naming "
               "slip of the log's writer (a rounded-up mangan written without its limit), "
               "not an error of the hand, so this is a warning")
    yield ctx.violation("score.value", (
        f"seat {ev.actor}'s {win} ({', '.join(diffs)} differ): log: {log_text}; "
        f"replay under {ctx.rules.name}: {replay_text}{note}{why}"), seat=ev.actor,
        severity=Severity.WARNING if why else None)


def _yakuman_as_counted(theirs: list[tuple[Yaku, int]], ours: list[tuple[Yaku, int]],
                        ) -> list[tuple[Yaku, int]]:
    """The log's yaku with a yakuman written as one (13 han) taken at the multiple the
    replay counts, for a log whose points are the replay's: converted Mahjong Soul logs
    write a double yakuman (a 13-wait kokushi) as ``(役満)`` and pay it double."""
    mine = dict(ours)
    return [(y, mine[y]) if y.is_yakuman and h == 13 and mine.get(y, 0) > 13 else (y, h)
            for y, h in theirs]


def _kita_as_dora(yaku: list[tuple[Yaku, int]]) -> list[tuple[Yaku, int]]:
    """``yaku`` with the kita counted into the dora, as Tenhou's logs count them (Mahjong
    Soul's name them apart, 抜きドラ)."""
    kita = sum(h for y, h in yaku if y is Yaku.NUKIDORA)
    if not kita:
        return yaku
    dora = sum(h for y, h in yaku if y is Yaku.DORA) + kita
    return [p for p in yaku if p[0] not in (Yaku.DORA, Yaku.NUKIDORA)] + [(Yaku.DORA, dora)]


def _names_only(theirs: Iterable[tuple[Yaku, int]], ours: list[tuple[Yaku, int]]) -> bool:
    """Whether two yaku lists differ in names only: as many yaku, with the same han each,
    and as many dora of all kinds (a writer may count red fives as plain dora)."""
    def shape(yaku: Iterable[tuple[Yaku, int]]) -> tuple[list[int], int]:
        pairs = _yaku_list(yaku)
        return (sorted(h for y, h in pairs if not y.is_dora),
                sum(h for y, h in pairs if y.is_dora))
    return shape(theirs) == shape(ours)


def _indicators(ctx: CheckContext, entry: WinEntry) -> Iterator[Violation]:
    ev, ws = entry.event, entry.situation
    if ws is None:
        return
    if ev.dora_markers is not None and tuple(ev.dora_markers) != ws.dora_markers:
        yield ctx.violation("score.indicators", (
            f"the log lists dora indicators {_tiles(ev.dora_markers)} for seat {ev.actor}'s "
            f"win; the table revealed {_tiles(ws.dora_markers)}"), seat=ev.actor)
    ura = ev.ura_markers
    if (ws.riichi or ws.double_riichi) and ura is not None and len(ura) != len(ws.dora_markers):
        yield ctx.violation("score.indicators", (
            f"riichi winner seat {ev.actor} is shown {len(ura)} ura indicators "
            f"({_tiles(ura)}) for {len(ws.dora_markers)} dora indicators "
            f"({_tiles(ws.dora_markers)})"), seat=ev.actor)


def _tiles(tiles: Iterable[object]) -> str:
    return " ".join(map(str, tiles)) or "none"


def _multi_ron(ctx: CheckContext, entry: WinEntry) -> Iterator[Violation]:
    ev = entry.event
    rons = [e.event.actor for e in ctx.wins if not e.event.is_tsumo]
    if ctx.rules.multi_ron is MultiRon.HEAD_BUMP:
        why = "head bump: only the closest winner to the discarder's right wins"
    else:
        why = (f"{allowed_winners(ctx.rules) + 1} winners on one discard abort the hand "
               "(sanchahou)")
    yield ctx.violation("win.multi-ron", (
        f"seat {ev.actor} wins on seat {ev.target}'s discard together with seat"
        f"{'s' if len(rons) > 2 else ''} {', '.join(str(s) for s in rons if s != ev.actor)}; "
        f"under {ctx.rules.name}, {why}"), seat=ev.actor)


# -- payments ----------------------------------------------------------------------

@check(Settlement, rules=("score.payment", "score.sticks", "score.pao", "score.noten"),
       phase="after")
def payments(ctx: CheckContext, s: Settlement) -> Iterator[Violation]:
    for w in s.wins:
        yield from _win_payment(ctx, w)
    if s.draw is not None:
        yield from _draw_payment(ctx, s.draw)


def _win_payment(ctx: CheckContext, w: SettledWin) -> Iterator[Violation]:
    e, exp, logged = w.entry, w.expected, w.logged
    ev = e.event
    if ev.pao is not None and e.value is not None and e.value.error is None \
            and ev.pao != e.liable:
        replay_side = (f"seat {e.liable} (for {', '.join(y.name.lower() for y in e.liable_yaku)})"
                       if e.liable is not None else "nobody")
        yield ctx.violation("score.pao", (
            f"the log makes seat {ev.pao} liable for seat {ev.actor}'s win; the replay finds "
            f"{replay_side} liable"), seat=ev.actor)
    if exp is None or logged is None or len(logged) != len(exp.deltas) \
            or w.explained is not None:
        return
    win = "tsumo" if ev.is_tsumo else f"ron on seat {ev.target}"
    got = sum(logged)  # the table's sticks are what a win's deltas do not sum to zero by
    if got != exp.sticks:
        on_kita = e.situation is not None and e.situation.kita_ron and got < exp.sticks
        why = ("; a ron on a kita, where neither the rule texts nor the platforms' published "
               "rules say who takes the sticks: the log leaves them on the table, and this is "
               "a warning") if on_kita else ""
        yield ctx.violation("score.sticks", (
            f"seat {ev.actor} collects {got} in riichi sticks on its {win}; under "
            f"{ctx.rules.name} it collects {exp.sticks} ({e.kyotaku} on the table"
            f"{_stick_rule(ctx, w)}){why}"), seat=ev.actor,
            severity=Severity.WARNING if on_kita else None)
    if any(_same_but_sticks(logged, p, ev.actor) for p in (exp, w.claimed) if p is not None):
        return  # the payments are right but for the sticks, which score.sticks reported
    rule = "score.pao" if exp.liable is not None or ev.pao is not None else "score.payment"
    rules_side = f"{list(exp.deltas)} ({exp.breakdown()}, {e.honba} honba)"
    if w.claimed is None:
        text = f"under {ctx.rules.name} it moves {rules_side}"
    else:
        text = (f"that is neither what the rule set's value gives under {ctx.rules.name}, "
                f"{rules_side}, nor what the log's own claimed value gives, "
                f"{list(w.claimed.deltas)} ({w.claimed.breakdown()})")
    yield ctx.violation(rule, f"seat {ev.actor}'s {win} moves {list(logged)}; {text}",
                        seat=ev.actor)


def _same_but_sticks(logged: tuple[int, ...], paid: WinPayment, winner: int) -> bool:
    """Whether ``logged`` is ``paid`` apart from the riichi sticks the winner collected."""
    rest = list(logged)
    rest[winner] -= sum(logged)
    want = list(paid.deltas)
    want[winner] -= paid.sticks
    return rest == want


def _stick_rule(ctx: CheckContext, w: SettledWin) -> str:
    if len(ctx.wins) < 2:
        return ""
    if ctx.rules.sticks_multi_ron is SticksMultiRon.CLOSEST_ALL:
        return "; the closest winner takes them all"
    return "; each winning declarer takes back their own, the closest winner the rest"


def _draw_payment(ctx: CheckContext, d: SettledDraw) -> Iterator[Violation]:
    exp, logged = d.expected, d.logged
    if exp is None or logged is None or len(logged) != len(exp.deltas) \
            or logged == exp.deltas:
        return
    notes = []
    if d.event.reason is DrawReason.NAGASHI_MANGAN and not d.nagashi:
        notes.append("no seat's discards qualify for nagashi mangan"
                     if ctx.rules.nagashi else f"{ctx.rules.name} has no nagashi mangan")
    yield ctx.violation("score.noten", (
        f"the {d.event.reason.value.replace('_', ' ')} draw moves {list(logged)}; under "
        f"{ctx.rules.name} it moves {list(exp.deltas)} ({exp.breakdown})"
        + "".join(f"; {n}" for n in notes)))


# -- end of the game ---------------------------------------------------------------

@check(EndGame, rules=("score.final",), phase="before")
def final_points(ctx: CheckContext, ev: EndGame) -> Iterator[Violation]:
    rules = ctx.rules
    if ev.points is None or rules.uma is None or len(ev.points) != rules.players:
        return
    if ev.scores is not None:
        scores, sticks = list(ev.scores), 0  # the log's own final scores (leftovers in)
    elif ctx.game.scores is not None:
        scores, sticks = list(ctx.game.scores), ctx.game.kyotaku
    else:
        return
    if out_of_range(scores) or not all(math.isfinite(p) for p in ev.points):
        yield ctx.violation("score.final", (
            f"the log's final scores or points are beyond any game's range: "
            f"{str(scores)[:80]}, {str(list(ev.points))[:80]}"))
        return
    rounding = rules.rounding
    if rounding == "tenhou" and any(abs(p * 10 - round(p) * 10) > 1e-6 for p in ev.points):
        rounding = "tenhou_tenths"  # the log gives tenths: newer Tenhou logs, custom lobbies
    got = final_result(scores, sticks, rules=rules, rounding=rounding)
    if all(abs(a - b) < 1e-6 for a, b in zip(got.points, ev.points, strict=True)):
        return
    uma = ", ".join(f"{u:+d}" for u in rules.uma)
    oka = (rules.return_score - rules.start_score) * rules.players
    yield ctx.violation("score.final", (
        f"the log's final points are {list(ev.points)} for scores {scores}; under "
        f"{rules.name} (return {rules.return_score}, oka {oka}, uma {uma}, rounding "
        f"{rounding}) they are "
        f"{list(got.points)}"))
