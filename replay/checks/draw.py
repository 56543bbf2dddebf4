"""Draws: tenpai shown at an exhaustive draw (EMA RCR 3.4.2), abortive draws (3.4.3)."""

from __future__ import annotations

from typing import Final

from kansa.replay import hand
from kansa.replay.checks.registry import check
from kansa.replay.checks.structure import ASSUMPTION
from kansa.replay.checks.text import hand_text, kinds_text, mask_kinds, shanten_text
from kansa.replay.context import CheckContext
from kansa.replay.events import DrawReason, Ryukyoku
from kansa.replay.settle import assumed_tenpai, shown_tenpai
from kansa.replay.state import PlayerState, RoundState
from kansa.replay.tiles import ALL_TILES, format_tiles
from kansa.replay.violations import Severity, Violation, define

_TH: Final = "Tenhou.net rules (riichi.wiki/Tenhou.net_rules), "

TENPAI_CLAIM: Final = define(
    "draw.tenpai-claim", "Tenpai shown at a draw that the hand contradicts", Severity.ERROR,
    "EMA RCR 3.4.2",
    "At an exhaustive draw a hand shown as tenpai must be tenpai (a wait on a kind the "
    "player holds four times does not count; waits whose tiles are all visible elsewhere "
    "do), and a player in riichi must show their hand. A hand left out or written as an "
    "empty list, of a player the payments pay as tenpai and the replay finds waiting, is a "
    "log.assumption warning (a blank of the log's writer), not this error.",
    tenhou=_TH + "ryuukyoku: tenpai hands are shown, riichi hands always; EMA RCR 3.4.2",
)
ABORTIVE: Final = define(
    "draw.abortive-invalid", "Abortive draw whose condition does not hold", Severity.ERROR,
    "EMA RCR 3.4.3 (seed text; removed in EMA 2016)",
    "An abortive draw the replayed state does not allow: nine terminals without nine "
    "different terminal and honor kinds or not on the player's first uninterrupted draw; "
    "four winds that differ or after an interruption; four riichi not all declared; four "
    "kongs missing or all one player's; three winners that the hands do not show.",
    tenhou=_TH + "tochuu ryuukyoku (kyuushu kyuuhai, suufon renda, suucha riichi, "
    "suukaikan, sanchahou); EMA RCR 3.4.3",
    majsoul="Mahjong Soul rules (riichi.wiki/Mahjong_Soul), abortive draws; EMA RCR 3.4.3",
)
_NAMES: Final = {
    DrawReason.KYUUSHU_KYUUHAI: "nine terminals (kyuushu kyuuhai)",
    DrawReason.SUUFON_RENDA: "four winds (suufon renda)",
    DrawReason.SUUCHA_RIICHI: "four riichi (suucha riichi)",
    DrawReason.SUUKAIKAN: "four kongs (suukaikan)",
    DrawReason.SANCHAHOU: "three winners (sanchahou)",
}
_YAOCHU: Final = tuple(t.index for t in ALL_TILES if not t.is_red and t.is_yaochu)


# -- exhaustive draw -----------------------------------------------------------------------


@check(Ryukyoku, rules=(TENPAI_CLAIM.id, ASSUMPTION.id))
def tenpai_claims(ctx: CheckContext, ev: Ryukyoku) -> list[Violation] | None:
    if ev.reason.is_abortive:
        return None
    rs = ctx.round
    found: list[Violation] = []
    assumed = assumed_tenpai(rs, ev)
    for p in rs.players:
        s = p.seat
        shown = shown_tenpai(ev, s)
        if shown is None:
            continue
        if s in assumed:
            found.append(ctx.violation(
                ASSUMPTION.id, f"seat {s}'s hand at the exhaustive draw is left out or "
                f"written as an empty list, as if not tenpai, but the payments pay it as "
                f"tenpai and the replay finds it waiting ({hand_text(p)}, waiting on "
                f"{kinds_text(mask_kinds(p.waits))}): taken as tenpai, a blank of the log's "
                "writer", seat=s))
            continue
        if not shown and not p.riichi:
            continue  # hiding a tenpai hand is a choice (EMA 3.4.2) outside riichi
        judged = _tenpai(p, ev)
        if judged is None:
            continue
        tenpai, text = judged
        if shown and not tenpai:
            found.append(ctx.violation(
                "draw.tenpai-claim", f"seat {s} is shown as tenpai at the exhaustive draw, "
                f"but {text}", seat=s))
        elif not shown and p.riichi:
            extra = (f"; besides, {text}" if not tenpai else
                     f" ({hand_text(p)}, waiting on {kinds_text(mask_kinds(p.waits))})"
                     if p.waits >= 0 else "")
            found.append(ctx.violation(
                "draw.tenpai-claim", f"seat {s} is in riichi and does not show its hand at the "
                f"exhaustive draw; riichi players must show{extra}", seat=s))
    return found or None


def _tenpai(p: PlayerState, ev: Ryukyoku) -> tuple[bool, str] | None:
    """Whether ``p`` is tenpai, and the proof in words; ``None`` when it cannot be told."""
    if p.waits >= 0:
        counts = p.c34
    elif ev.hands is not None and p.seat < len(ev.hands) and ev.hands[p.seat] is not None:
        counts = [0] * 34
        for t in ev.hands[p.seat] or ():
            counts[t.index] += 1
        if sum(counts) % 3 != 1:
            return None
    else:
        return None
    waits = mask_kinds(p.waits if p.waits >= 0 else hand.waits_mask(counts))
    live = [k for k in waits if counts[k] < 4]
    if live:
        return True, ""  # the proof is only written out for a finding
    text = (hand_text(p) if p.waits >= 0
            else f"the hand shown, {format_tiles(ev.hands[p.seat] or ())},"  # type: ignore[index]
            )
    if waits:
        return False, (f"{text} waits only on {kinds_text(waits)}, of which it holds all "
                       "four, so it is not tenpai")
    return False, f"{text} has no wait ({shanten_text(counts)})"


# -- abortive draws ------------------------------------------------------------------------


@check(Ryukyoku, rules=("draw.abortive-invalid",))
def abortive_draw(ctx: CheckContext, ev: Ryukyoku) -> list[Violation] | None:
    reason = ev.reason
    if not reason.is_abortive:
        return None
    why = _ABORTIVE[reason](ctx.round, ev)
    if why is None:
        return None
    seat, text = why
    return [ctx.violation(
        "draw.abortive-invalid", f"abortive draw by {_NAMES[reason]} in hand "
        f"{ctx.round.label}, but {text}", seat=seat)]


Why = tuple[int | None, str] | None


def _kyuushu(rs: RoundState, ev: Ryukyoku) -> Why:
    seat = ev.actor if ev.actor is not None else rs.current
    if seat is None:
        return None
    p = rs.players[seat]
    if rs.current != seat or p.last_draw is None:
        return seat, f"seat {seat} declares it without having just drawn a tile"
    if p.draws != 1 or p.melds or not rs.first_go_around:
        when = (f"on its draw number {p.draws}" if p.draws != 1
                else "after the first go-around was interrupted by a call")
        return seat, (f"seat {seat} declares it {when}; it is allowed only on the player's "
                      "first draw of an uninterrupted first go-around")
    if p.hidden:
        if ev.hands is None or seat >= len(ev.hands) or ev.hands[seat] is None:
            return None
        tiles = list(ev.hands[seat] or ())
        counts = [0] * 34
        for t in tiles:
            counts[t.index] += 1
        text = format_tiles(tiles)
    else:
        counts, text = p.c34, hand_text(p)
    kinds = [k for k in _YAOCHU if counts[k]]
    if len(kinds) >= 9:
        return None
    return seat, (f"seat {seat}'s hand {text} has only {len(kinds)} different terminal and "
                  f"honor kinds ({kinds_text(kinds)}); nine are needed")


def _suufon(rs: RoundState, ev: Ryukyoku) -> Why:
    firsts = [p.river[0].tile if p.river else None for p in rs.players]
    shown = ", ".join(f"seat {p.seat}: {t.mpsz if t is not None else 'none'}"
                      for p, t in zip(rs.players, firsts, strict=True))
    if any(len(p.river) != 1 for p in rs.players):
        return None, (f"not every player has made exactly one discard (first discards: "
                      f"{shown})")
    if not rs.first_go_around or any(p.melds for p in rs.players):
        return None, "the first go-around was interrupted by a call"
    t0 = firsts[0]
    if t0 is None or not t0.is_wind or any(t is None or t.index != t0.index for t in firsts):
        return None, f"the first discards are not four of the same wind ({shown})"
    return None


def _suucha(rs: RoundState, ev: Ryukyoku) -> Why:
    declared = [p.seat for p in rs.players
                if p.riichi or (p.riichi_pending and p.riichi_discard_index is not None)]
    if len(declared) >= 4:
        return None
    who = ", ".join(f"seat {s}" for s in declared) or "nobody"
    return None, f"only {len(declared)} players are in riichi ({who})"


def _suukaikan(rs: RoundState, ev: Ryukyoku) -> Why:
    owners = {p.seat: sum(1 for m in p.melds if m.type.is_kan) for p in rs.players}
    total = sum(owners.values())
    by = ", ".join(f"seat {s}: {n}" for s, n in owners.items() if n)
    if total < 4:
        return None, f"only {total} kongs were declared ({by or 'none'})"
    if sum(1 for n in owners.values() if n) < 2:
        return None, (f"all four kongs are one player's ({by}); that player may still go "
                      "for four kongs")
    return None


def _sanchahou(rs: RoundState, ev: Ryukyoku) -> Why:
    if rs.kakan is not None:
        seat, tile = rs.kakan
    elif rs.kita is not None:
        seat, tile = rs.kita
    elif rs.last_discard is not None:
        seat, tile = rs.last_discard.seat, rs.last_discard.tile
    else:
        return None, "there is no discard to win on"
    others = [p for p in rs.players if p.seat != seat]
    if any(p.waits < 0 for p in others):
        return None  # a hidden hand: the log cannot show it
    winners = [p.seat for p in others if p.waits >> tile.index & 1]
    if len(winners) >= 3:
        return None
    return seat, (f"only {len(winners)} of the other players can win on {tile.mpsz} from seat "
                  f"{seat} (" + "; ".join(f"seat {p.seat} {hand_text(p)} waits on "
                                         f"{kinds_text(mask_kinds(p.waits))}" for p in others)
                  + ")")


_ABORTIVE: Final = {
    DrawReason.KYUUSHU_KYUUHAI: _kyuushu,
    DrawReason.SUUFON_RENDA: _suufon,
    DrawReason.SUUCHA_RIICHI: _suucha,
    DrawReason.SUUKAIKAN: _suukaikan,
    DrawReason.SANCHAHOU: _sanchahou,
}
