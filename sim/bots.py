"""The simulated players' choices: simple, plausible, and never against the rules.

Every seat plays the same policy, with the table's seeded random numbers for the
choices it makes only "sometimes":

* win whenever the hand is complete and has a yaku (tsumo, ron; the table checks
  furiten before asking);
* discard to reduce shanten (:func:`kansa.replay.hand.shanten`); on ties keep the tiles
  that connect, throw isolated honors and terminals first, and at tenpai keep the
  wait with the most tiles left; fold to safe tiles (the riichi player's own
  discards) when far from tenpai against a riichi;
* declare riichi when closed and tenpai with a live wait, at least four tiles in the
  wall and at least 1,000 points (or the rule set's minimum), most of the time;
* pon a value-tile pair most of the time, pon and chi now and then when the hand
  already has a way to a yaku (value tiles, open tanyao, a half flush) and the call
  brings it closer; an open kan of three held tiles sometimes; a concealed kan of
  four held tiles when it does not slow the hand (in riichi only as the rule set
  allows); an added kan when the fourth tile is not needed;
* nine terminals: declare the abortive draw unless eleven kinds make thirteen
  orphans worth a try;
* at a three-player table, set a North aside (kita) whenever that does not slow the
  hand; in riichi only the North just drawn.
"""

from __future__ import annotations

from dataclasses import dataclass

from kansa.replay import hand as H
from kansa.replay.events import DrawReason
from kansa.replay.melds import MeldType
from kansa.replay.rules import Kuikae, RiichiAnkan, RuleSet
from kansa.replay.tiles import ALL_TILES, Seat, Tile
from kansa.sim.players import SimPlayer, TableView

RIICHI_RATE = 0.85
VALUE_PON_RATE = 0.85
PON_RATE = 0.3
CHI_RATE = 0.6
CLOSED_CHI_RATE = 0.25
OPEN_KAN_RATE = 0.4
ADDED_KAN_RATE = 0.7

_YAOCHU = tuple(t.index for t in ALL_TILES if not t.is_red and t.is_yaochu)


@dataclass(frozen=True, slots=True)
class Action:
    """What a player does after a draw."""

    kind: str
    """``tsumo``, ``kyuushu``, ``kita``, ``ankan``, ``kakan`` or ``discard``."""
    tile: Tile | None = None
    riichi: bool = False


@dataclass(frozen=True, slots=True)
class Call:
    seat: Seat
    kind: str
    """``chi``, ``pon`` or ``daiminkan``."""
    consumed: tuple[Tile, ...]


def kuikae_kinds(rules: RuleSet, kind: str, tile: Tile, consumed: tuple[Tile, ...],
                 ) -> tuple[int, ...]:
    """The kinds a caller may not discard in the turn of a chi or pon."""
    if rules.kuikae is Kuikae.ALLOWED or kind == "daiminkan":
        return ()
    out = [tile.index]
    if kind == "chi" and rules.kuikae is Kuikae.SAME_AND_SUJI:
        run = sorted({t.index for t in consumed} | {tile.index})
        if tile.index == run[0] and tile.number + 3 <= 9:
            out.append(tile.index + 3)
        elif tile.index == run[2] and tile.number - 3 >= 1:
            out.append(tile.index - 3)
    return tuple(out)


# -- discards --------------------------------------------------------------------------

def _candidates(p: SimPlayer) -> list[Tile]:
    """One tile per kind held (a plain five rather than the red one), kuikae allowed."""
    out: dict[int, Tile] = {}
    for t in p.tiles:
        if t.index in p.forbidden:
            continue
        have = out.get(t.index)
        if have is None or (have.is_red and not t.is_red):
            out[t.index] = t
    return [out[k] for k in sorted(out)]


def _keep_value(table: TableView, p: SimPlayer, t: Tile, dora: set[int]) -> int:
    """How much a tile is worth keeping on a tie: connected tiles, pairs, value tiles."""
    c = p.c34
    k = t.index
    if k >= 27:
        v = 3 * c[k] + (2 if table.is_yakuhai(p.seat, k) else 0)
    else:
        n = t.number
        v = 3 * c[k] + (0 if n in (1, 9) else 1)
        for d, w in ((1, 2), (2, 1)):
            if n - d >= 1 and c[k - d]:
                v += w
            if n + d <= 9 and c[k + d]:
                v += w
    if k in dora:
        v += 3
    if t.is_red:
        v += 2
    return v


def _live_waits(counts: list[int], seen: list[int]) -> int:
    """Tiles of the hand's waits that the player cannot see anywhere."""
    return sum(max(0, 4 - counts[k] - seen[k]) for k in H.waits(counts) if counts[k] < 4)


def _choose(table: TableView, p: SimPlayer, cands: list[Tile]) -> tuple[Tile, int]:
    """The discard among ``cands`` and the shanten it leaves."""
    c = p.c34
    options: list[tuple[int, Tile]] = []
    for t in cands:
        c[t.index] -= 1
        options.append((H.shanten(c), t))
        c[t.index] += 1
    best = min(s for s, _ in options)
    threats = [q for q in table.players if q is not p and q.riichi]
    if threats and best >= 2:
        safe = [(s, t) for s, t in options
                if all(q.discarded34[t.index] for q in threats)]
        if safe:
            options, best = safe, min(s for s, _ in safe)
    pool = [t for s, t in options if s == best]
    dora = {d.dora().index for d in table.dora}
    if best == 0 and len(pool) > 1:
        seen = table.visible()
        scored = []
        for t in pool:
            c[t.index] -= 1
            scored.append((-_live_waits(c, seen), _keep_value(table, p, t, dora),
                           t.index, t))
            c[t.index] += 1
        return min(scored)[3], best
    return min(pool, key=lambda t: (_keep_value(table, p, t, dora), t.index)), best


def discard_after_call(table: TableView, p: SimPlayer) -> Tile:
    return _choose(table, p, _candidates(p))[0]


def _can_riichi(table: TableView, p: SimPlayer) -> bool:
    rules = table.rules
    return (not p.riichi and p.is_closed
            and table.scores[p.seat] >= max(1000, rules.riichi_min_points)
            and table.live_left >= max(4, rules.riichi_min_live_wall))


# -- after a draw ----------------------------------------------------------------------

def self_action(table: TableView, p: SimPlayer) -> Action:
    if table.tsumo_value(p) is not None:
        return Action("tsumo")
    drawn = p.last_draw
    assert drawn is not None
    rules = table.rules
    can_kan = len(table.kans) < 4 and table.live_left > 0
    if p.riichi:
        kita = _kita(table, p, drawn)
        if kita is not None:
            return Action("kita", kita)
        if can_kan and p.c34[drawn.index] == 4 and _riichi_ankan_ok(rules, p, drawn.index):
            return Action("ankan", drawn)
        return Action("discard", drawn)
    kita = _kita(table, p, drawn)
    if kita is not None:
        return Action("kita", kita)
    if table.first_go_around and p.draws == 1 \
            and DrawReason.KYUUSHU_KYUUHAI in rules.abortive:
        yaochu = sum(1 for k in _YAOCHU if p.c34[k])
        if 9 <= yaochu <= 10:
            return Action("kyuushu")
    now = H.shanten(p.c34)
    if can_kan:
        for k in range(34):
            if p.c34[k] == 4:
                after = list(p.c34)
                after[k] = 0
                if H.shanten(after) <= now:
                    return Action("ankan", p.of_kind(k, 1)[0])
        for m in p.melds:
            k = m.tiles[0].index
            if m.type is MeldType.PON and p.c34[k]:
                p.c34[k] -= 1
                free = H.shanten(p.c34) == now
                p.c34[k] += 1
                if free and table.rng.random() < ADDED_KAN_RATE:
                    return Action("kakan", p.of_kind(k, 1)[0])
    tile, left = _choose(table, p, _candidates(p))
    riichi = False
    if left == 0 and _can_riichi(table, p):
        p.c34[tile.index] -= 1
        live = _live_waits(p.c34, table.visible())
        p.c34[tile.index] += 1
        riichi = live > 0 and table.rng.random() < RIICHI_RATE
    return Action("discard", tile, riichi)


def _kita(table: TableView, p: SimPlayer, drawn: Tile) -> Tile | None:
    """The North to set aside now, if any: one is held, a replacement tile is left, and
    the hand is no slower without it (in riichi: only the North just drawn)."""
    north = table.shape.kita
    if north is None or not p.c34[north.index] or table.live_left == 0:
        return None
    k = north.index
    if p.riichi:  # setting the drawn tile aside leaves the hand as it was
        return drawn if drawn.index == k else None
    now = H.shanten(p.c34)
    p.c34[k] -= 1
    slower = H.shanten(p.c34) > now
    p.c34[k] += 1
    return None if slower else p.of_kind(k, 1)[0]


def _riichi_ankan_ok(rules: RuleSet, p: SimPlayer, kind: int) -> bool:
    before = list(p.c34)
    before[kind] -= 1
    if rules.riichi_ankan is RiichiAnkan.FORBIDDEN:
        return False
    if rules.riichi_ankan is RiichiAnkan.STRICT:
        return H.ankan_is_only_pung(before, kind)
    return H.ankan_keeps_waits(before, kind)


# -- calls -----------------------------------------------------------------------------

def _after_call(p: SimPlayer, consumed: tuple[Tile, ...], forbidden: tuple[int, ...],
                ) -> int | None:
    """Shanten after the call and the best allowed discard; ``None`` when no discard is
    allowed (the call would be a swap call)."""
    c = list(p.c34)
    for t in consumed:
        c[t.index] -= 1
    best: int | None = None
    for k in range(34):
        if c[k] and k not in forbidden:
            c[k] -= 1
            s = H.shanten(c)
            c[k] += 1
            best = s if best is None else min(best, s)
    return best


def _yaku_path(table: TableView, p: SimPlayer, meld: tuple[int, ...]) -> bool:
    """Whether an open hand with ``meld`` added has an obvious way to a yaku."""
    melds = [tuple(t.index for t in m.tiles) for m in p.melds] + [meld]
    for m in melds:
        if m[0] == m[1] and table.is_yakuhai(p.seat, m[0]):
            return True
    simple = all(not Tile.from_index(k).is_yaochu for m in melds for k in m)
    if simple and table.rules.kuitan \
            and sum(p.c34[k] for k in _YAOCHU) - sum(1 for k in meld if k in _YAOCHU) <= 2:
        return True
    suits = {k // 9 for m in melds for k in m if k < 27}
    if len(suits) == 1:
        (s,) = suits
        off = sum(n for k, n in enumerate(p.c34[:27]) if k // 9 != s)
        return off <= 3
    return False


def call(table: TableView, tile: Tile, target: Seat) -> Call | None:
    """The call of ``tile`` (pon or kan by anyone, chi by the next player where the table
    has chi), if any."""
    rng = table.rng
    k = tile.index
    rules = table.rules
    n = len(table.players)
    for i in range(1, n):
        p = table.players[(target + i) % n]
        if p.riichi or p.c34[k] < 2:
            continue
        now = H.shanten(p.c34)
        value = table.is_yakuhai(p.seat, k)
        if p.c34[k] == 3 and len(table.kans) < 4 and (value or p.is_open) \
                and rng.random() < OPEN_KAN_RATE:
            three = p.of_kind(k, 3)
            rest = list(p.c34)
            rest[k] = 0
            if H.shanten(rest) <= now:
                return Call(p.seat, "daiminkan", three)
        two = p.of_kind(k, 2)
        after = _after_call(p, two, kuikae_kinds(rules, "pon", tile, two))
        if after is None:
            continue
        if value and after <= now and rng.random() < VALUE_PON_RATE:
            return Call(p.seat, "pon", two)
        if after < now and _yaku_path(table, p, (k, k, k)) and rng.random() < PON_RATE:
            return Call(p.seat, "pon", two)
    if k >= 27 or not table.shape.chi:
        return None
    p = table.players[(target + 1) % n]
    if p.riichi:
        return None
    n = tile.number
    now = H.shanten(p.c34)
    if p.is_closed and now < 2:
        return None  # a closed hand this close to tenpai keeps riichi in reach
    best: tuple[int, Call] | None = None
    for a, b in ((n - 2, n - 1), (n - 1, n + 1), (n + 1, n + 2)):
        if a < 1 or b > 9:
            continue
        ka, kb = k + a - n, k + b - n
        if not (p.c34[ka] and p.c34[kb]):
            continue
        consumed = (p.of_kind(ka, 1)[0], p.of_kind(kb, 1)[0])
        after = _after_call(p, consumed, kuikae_kinds(rules, "chi", tile, consumed))
        if after is None or after >= now or not _yaku_path(table, p, (ka, k, kb)):
            continue
        if best is None or after < best[0]:
            best = (after, Call(p.seat, "chi", consumed))
    rate = CHI_RATE if p.is_open else CLOSED_CHI_RATE
    if best is not None and rng.random() < rate:
        return best[1]
    return None
