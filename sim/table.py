"""Complete games written by kansa itself: a seeded, deterministic self-play table.

:func:`simulate` plays a whole game (East-South by default, as the rule set says)
between copies of the simple policy in :mod:`kansa.sim.bots`, as many as the rule set
has players (four, or three with 108 tiles, kita and no chi, three dealers a wind),
from a ``random.Random(seed)`` that shuffles each hand's wall and makes the players'
"sometimes" choices.  The same seed and rule set always give the same game.

The game is recorded as kansa events with every claim a full log carries (deltas,
yaku, fu, han, points, limit, dora and ura indicators, sticks after a riichi,
tenpai and shown hands at a draw, final scores and points), valued and paid by
kansa's own :mod:`kansa.replay.scoring` and :mod:`kansa.replay.payments`; the flow of the game
(renchan, honba, sticks carried over, bankruptcy, the all-last dealer stopping,
the West extension) follows the rule set's flags.  So every simulated game replays
under its own rule set without a single finding, which the tests hold it to.

>>> game = simulate(7)
>>> game.format, game.hints.platform, type(game.events[-1]).__name__
('kansa-sim', 'tenhou', 'EndGame')
>>> simulate(7).events == game.events
True
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from kansa.parsers.canonical import canonical
from kansa.replay.events import (
    CALLS,
    Ankan,
    Daiminkan,
    EndGame,
    EndKyoku,
    Event,
    Hora,
    Kakan,
    ReachAccepted,
    Ryukyoku,
)
from kansa.replay.game import Game, Player, RuleHints
from kansa.replay.payments import final_result, ranking
from kansa.replay.rules import PRESETS, RuleSet
from kansa.replay.tiles import WINDS, Seat
from kansa.sim.hand import HandTable
from kansa.sim.players import HandResult

FORMAT = "kansa-sim"
NAMES = ("Ando", "Baker", "Chen", "Diaz")
MAX_HANDS = 200
"""A guard against a game that never ends (a dealer repeating without end)."""


def rule_names() -> list[str]:
    """The names :func:`rule_set` takes: every preset, for three players and for four."""
    return sorted(PRESETS)


def rule_set(rules: RuleSet | str) -> RuleSet:
    """A rule set, or the preset of that name."""
    return rules if isinstance(rules, RuleSet) else RuleSet.preset(rules)


def simulate(seed: int, rules: RuleSet | str = "tenhou", *,
             names: Sequence[str] = NAMES) -> Game:
    """Play one complete game from ``seed`` under ``rules`` (a rule set or a preset name).

    :raises ValueError: for a rule set that is not for three or four players.
    """
    rs = rule_set(rules)
    n = rs.players
    if n not in (3, 4):
        raise ValueError(f"the simulator plays three- and four-player games, not {n}")
    rng = random.Random(seed)
    events: list[Event] = []
    scores = [rs.start_score] * n
    honba = kyotaku = 0
    pos = 0
    for _ in range(MAX_HANDS):
        oya = Seat(pos % n)
        table = HandTable(rs, rng, events, bakaze=WINDS[(pos // n) % 4], kyoku=oya + 1,
                          oya=oya, honba=honba, kyotaku=kyotaku, scores=scores)
        result = table.play()
        events.append(EndKyoku())
        scores, kyotaku = result.scores, result.kyotaku
        renchan = _renchan(result, oya)
        honba = honba + 1 if renchan or not result.winners else 0
        if _game_over(pos, renchan, result.draw is not None and result.draw.is_abortive,
                      scores, rs):
            break
        pos = pos if renchan else pos + 1
    else:
        raise RuntimeError(f"seed {seed}: the game did not end within {MAX_HANDS} hands")
    final = final_result(scores, kyotaku, rules=rs)
    events.append(EndGame(scores=final.scores, points=final.points))
    platform = rs.base if rs.base in PRESETS else "tenhou"
    hints = RuleHints(players=n, aka=rs.aka, kuitan=rs.kuitan, hanchan=rs.hanchan,
                      platform=platform, start_score=rs.start_score)
    return Game(format=FORMAT, source=f"<{FORMAT} seed {seed} {rs.name}>",
                events=canonical(events), players=tuple(Player(name=name)
                                                        for name in names[:n]),
                hints=hints, log_id=f"{FORMAT}-{rs.name}-{seed}",
                title=f"kansa self-play, seed {seed}, {rs.name} rules")


def _renchan(result: HandResult, oya: Seat) -> bool:
    if result.winners:
        return oya in result.winners
    return result.dealer_tenpai


def _game_over(pos: int, renchan: bool, abortive: bool, scores: Sequence[int],
               rules: RuleSet) -> bool:
    """Whether the game ends after the hand at ``pos`` (E1 = 0; four players: S4 = 7,
    W1 = 8; three players: S3 = 5, W1 = 6)."""
    if rules.tobi and any(s < 0 for s in scores):
        return True
    n = len(scores)
    length = 2 * n if rules.hanchan else n
    reached = any(s >= rules.target_score for s in scores)
    if abortive:
        return rules.west_extension and pos >= length and reached
    if renchan:
        oya = pos % n
        return rules.agari_yame and pos >= length - 1 and scores[oya] >= rules.target_score \
            and ranking(scores)[0] == oya
    if rules.west_extension:
        return pos + 1 >= length + n or (pos + 1 >= length and reached)
    return pos + 1 >= length


# -- what a game shows -----------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Summary:
    """What happened in a simulated game, for choosing samples and for tests."""

    hands: int
    riichi: int
    calls: int
    kans: int
    tsumo: int
    ron: int
    multi_ron: int
    draws: Counter[str]
    yaku: Counter[str]

    def text(self) -> str:
        draws = ", ".join(f"{n} {k}" for k, n in sorted(self.draws.items())) or "none"
        return (f"{self.hands} hands, {self.riichi} riichi, {self.calls} calls, "
                f"{self.kans} kans, {self.tsumo} tsumo, {self.ron} ron "
                f"({self.multi_ron} multiple), draws: {draws}")


def summary(game: Game) -> Summary:
    events = game.events
    rons: Counter[int] = Counter()
    hand = 0
    draws: Counter[str] = Counter()
    yaku: Counter[str] = Counter()
    tsumo = ron = 0
    for ev in events:
        if isinstance(ev, EndKyoku):
            hand += 1
        elif isinstance(ev, Hora):
            if ev.is_tsumo:
                tsumo += 1
            else:
                ron += 1
                rons[hand] += 1
            yaku.update(y.name.lower() for y, _ in ev.yaku or ())
        elif isinstance(ev, Ryukyoku):
            draws[ev.reason.value] += 1
    return Summary(
        hands=hand, riichi=sum(isinstance(e, ReachAccepted) for e in events),
        calls=sum(isinstance(e, CALLS) for e in events),
        kans=sum(isinstance(e, Ankan | Kakan | Daiminkan) for e in events),
        tsumo=tsumo, ron=ron, multi_ron=sum(1 for n in rons.values() if n > 1),
        draws=draws, yaku=yaku)


