"""Table rules on crafted games: every rule id here has a game that must trigger it
and a near miss that must not, under each rule set where the verdict differs.

The checks of other modules (riichi, furiten, wins, scores) may have their own
opinion of these games; each case looks only at the rule ids of this module's
checks, and at the engine's own findings to prove the replay kept going.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

import pytest

from kansa.replay.engine import replay
from kansa.replay.events import DrawReason
from kansa.replay.result import ReplayResult
from kansa.replay.rules import RuleSet
from kansa.replay.violations import Severity
from kansa.sim.scenario import Scenario

TABLE_RULES = {
    "claim.late", "claim.chi-not-from-left", "claim.precedence", "claim.last-tile",
    "claim.kuikae", "claim.in-riichi", "claim.meld-shape", "kan.fifth",
    "kan.four-kan-draw-missed", "kan.last-tile", "kan.after-call", "kan.dora",
    "ruleset.mismatch",
}
LOST = {"log.out-of-order", "tiles.not-in-hand", "tiles.hand-size", "tiles.conservation"}

# Claims: seat 1 holds 23m+4m (chi of 1m, suji 4m), seat 2 holds 111m (pon of 1m,
# one left for kuikae) and 77z, seat 3 holds 34m (chi of 2m from across).
CLAIM_HANDS = ["123456789m1234p", "234m1p789s123466z", "111m99p456s55677z",
               "345m147p258s1237z"]
# Kans: seat 1 holds 111z (ankan on drawing 1z), seat 2 holds 777z.
KAN_HANDS = ["123456789m1234p", "147m258p369s1114z", "258m369p147s5777z",
             "369m147p258s2356z"]
# Four kans by four players, one daiminkan each: 1m, 2m, 3m, 4m.
FOUR_HANDS = ["1444m555666789s", "1112m99p1234567z", "2223m11p1234567z",
              "3334m22p1234567z"]
# Plain hands for the wall-running games.
HANDS = ["123456789m1234p", "147m258p369s1234z", "258m369p147s5677z", "369m147p258s1156z"]

ZERO = (0, 0, 0, 0)


def audit(sc: Scenario, rules: str | RuleSet) -> ReplayResult:
    rs = RuleSet.preset(rules) if isinstance(rules, str) else rules
    return replay(sc.game(), rs)


def found(result: ReplayResult) -> Counter[str]:
    return Counter(v.rule for v in result.violations if v.rule in TABLE_RULES)


# -- builders --------------------------------------------------------------------------


def claims(platform: str = "tenhou") -> Scenario:
    sc = Scenario(platform=platform)
    sc.start(CLAIM_HANDS, dora="9s")
    sc.draw(0, "1s").discard(0, "1m")
    return sc


def finish(sc: Scenario, first: int, n: int = 4) -> Scenario:
    """Play ``n`` more plain turns from ``first`` and end the hand in a draw."""
    sc.go_around(first, n)
    return sc.ryukyoku(tenpai=(False,) * 4).end_kyoku()


def chi_ok() -> Scenario:
    sc = claims().chi(1, "23m").discard(1, "6z")
    return finish(sc, 2)


def chi_from_across() -> Scenario:
    sc = claims()
    sc.draw(1, "9m").discard(1, "2m")
    sc.chi(3, "34m").discard(3, "7z")
    return finish(sc, 0)


def chi_after_own_draw(times: bool = False) -> Scenario:
    sc = claims()
    if times:
        sc.at(10.0)
    sc.draw(1, "9m")
    if times:
        sc.at(10.5)
    sc.chi(1, "23m", target=0, tile="1m")
    if times:
        sc.at(11.0)
    sc.discard(1, "6z")
    return finish(sc, 2)


def pon_after_draw(delay: float | None = None) -> Scenario:
    sc = claims()
    if delay is not None:
        sc.at(10.0)
    sc.draw(1, "9m")
    if delay is not None:
        sc.at(10.0 + delay / 2)
    sc.pon(2, "11m", target=0, tile="1m")
    if delay is not None:
        sc.at(10.0 + delay)
    sc.discard(2, "6z")
    return finish(sc, 3, 8)


def pon_in_time() -> Scenario:
    sc = claims().pon(2, "11m").discard(2, "6z")
    return finish(sc, 3)


def pon_of_older_discard() -> Scenario:
    sc = claims()
    sc.draw(1, "9m").discard(1, "9m")
    sc.pon(2, "11m", target=0, tile="1m").discard(2, "6z")
    return finish(sc, 3)


def ron_after_draw() -> Scenario:
    sc = claims()
    sc.draw(1, "9m")
    return sc.ron(2, (-1000, 0, 1000, 0), target=0, tile="1m").end_kyoku()


def ron_in_time() -> Scenario:
    return claims().ron(2, (-1000, 0, 1000, 0)).end_kyoku()


def pon_then_ron() -> Scenario:
    sc = claims().pon(2, "11m")
    return sc.ron(3, (-1000, 0, 0, 1000), target=0, tile="1m").end_kyoku()


def chi_then_pon() -> Scenario:
    sc = claims().chi(1, "23m").pon(2, "11m", target=0, tile="1m").discard(2, "6z")
    return finish(sc, 3, 8)


def pon_then_chi() -> Scenario:
    sc = claims().pon(2, "11m").chi(1, "23m", target=0, tile="1m").discard(1, "6z")
    return finish(sc, 2, 8)


def kuikae_pon() -> Scenario:
    sc = claims().pon(2, "11m").discard(2, "1m")
    return finish(sc, 3)


def kuikae_suji() -> Scenario:
    sc = claims().chi(1, "23m").discard(1, "4m")
    return finish(sc, 2)


def call_leaving_only_swaps() -> Scenario:
    """Seat 0 pons three dragons, then a chi of 4m with 23m leaves it 11m: only swaps."""
    sc = Scenario()
    sc.start(["1123m123556677z", "147m258p369s1357z", "258m369p147s2344z",
              "369m147p258s1234z"], dora="9p", oya=3)
    others = iter(["9s", "8m", "8s", "8p", "9m", "7p"])
    for dragon, single in (("5z", "1z"), ("6z", "2z"), ("7z", "3z")):
        sc.draw(3, dragon).discard(3, dragon).pon(0, dragon * 2).discard(0, single)
        sc.turn(1, next(others)).turn(2, next(others))
    sc.draw(3, "4m").discard(3, "4m").chi(0, "23m")
    return sc


def call_in_riichi(riichi: bool = True) -> Scenario:
    sc = claims()
    sc.draw(1, "9m").discard(1, "9m")
    sc.draw(2, "6z")
    if riichi:
        sc.riichi(2, "6z")
    else:
        sc.discard(2, "6z")
    sc.draw(3, "8m").discard(3, "7z")
    sc.pon(2, "77z").discard(2, "9p")
    return finish(sc, 3)


def bad_chi() -> Scenario:
    sc = claims().chi(1, "24m").discard(1, "6z")
    return finish(sc, 2)


def bad_pon() -> Scenario:
    sc = claims().pon(2, "1m9p").discard(2, "6z")
    return finish(sc, 3)


def run_wall(n: int, avoid: str) -> Scenario:
    """``n`` plain draws from the dealer on; the live wall holds 70."""
    sc = Scenario()
    sc.start(HANDS, dora="9p")
    sc.go_around(0, n, avoid=[avoid])
    return sc


def pon_last_discard(last: bool = True) -> Scenario:
    # the 70th draw is seat 1's; seat 2 holds 77z
    sc = run_wall(69 if last else 65, "7z")
    sc.draw(1, "7z").discard(1, "7z").pon(2, "77z").discard(2, "5z")
    if not last:
        sc.go_around(3, 3, avoid=["7z"])
    return sc.ryukyoku(tenpai=(False,) * 4).end_kyoku()


def ron_last_discard() -> Scenario:
    sc = run_wall(69, "7z")
    sc.draw(1, "7z").discard(1, "7z")
    return sc.ron(2, (0, -1000, 1000, 0)).end_kyoku()


# -- kans -----------------------------------------------------------------------------


def kans(platform: str = "tenhou") -> Scenario:
    sc = Scenario(platform=platform)
    sc.start(KAN_HANDS, dora="9s")
    sc.draw(0, "1s").discard(0, "1s")
    return sc


def ankan(order: str = "dora-draw") -> Scenario:
    sc = kans()
    sc.draw(1, "1z").ankan(1, "1111z")
    if order == "dora-draw":
        sc.dora("2p").draw(1, "9m")
    else:
        sc.draw(1, "9m").dora("2p")
    sc.discard(1, "9m")
    return finish(sc, 2)


def daiminkan(order: str, platform: str = "tenhou", then: str = "discard") -> Scenario:
    sc = kans(platform)
    sc.draw(1, "7z").discard(1, "7z").daiminkan(2)
    if order == "dora-draw":
        sc.dora("2p").draw(2, "9m")
    elif order == "draw-dora":
        sc.draw(2, "9m").dora("2p")
    else:  # no indicator by the discard
        sc.draw(2, "9m")
    if then == "tsumo":
        return sc.tsumo(2, (-1000, -1000, 3000, -1000)).end_kyoku()
    sc.discard(2, "9m")
    return finish(sc, 3)


def daiminkan_late() -> Scenario:
    """The open kan's indicator shows up only after the next player's draw."""
    sc = kans()
    sc.draw(1, "7z").discard(1, "7z").daiminkan(2).draw(2, "9m").discard(2, "9m")
    sc.draw(3, "8m").dora("2p").discard(3, "8m")
    return finish(sc, 0)


def kakan(order: str, then: str = "discard") -> Scenario:
    sc = kans()
    sc.draw(1, "7z").discard(1, "7z").pon(2, "77z").discard(2, "5z")
    sc.go_around(3, 3)
    sc.draw(2, "8m").kakan(2, "7z")
    if then == "robbed":
        if order == "dora-draw":
            sc.dora("2p")
        return sc.ron(3, (0, 0, -1000, 1000), target=2, tile="7z").end_kyoku()
    if order == "dora-draw":
        sc.dora("2p").draw(2, "9m")
    else:
        sc.draw(2, "9m").dora("2p")
    sc.discard(2, "9m")
    return finish(sc, 3)


def kakan_after_pon() -> Scenario:
    sc = kans()
    sc.draw(1, "7z").discard(1, "7z").pon(2, "77z").kakan(2, "7z")
    sc.draw(2, "9m").dora("2p").discard(2, "9m")
    return finish(sc, 3)


def extra_indicator() -> Scenario:
    sc = kans().dora("2p")
    return finish(sc, 1)


def ankan_last_tile(last: bool = True) -> Scenario:
    sc = Scenario()
    sc.start(KAN_HANDS, dora="9s")
    sc.go_around(0, 69 if last else 65, avoid=["1z"])
    sc.draw(1, "1z").ankan(1, "1111z").dora(sc.spare()).draw(1).discard(1)
    if not last:
        sc.go_around(2, 3, avoid=["1z"])
    return sc.ryukyoku(tenpai=(False,) * 4).end_kyoku()


def robbed_ankan(platform: str = "tenhou") -> Scenario:
    sc = kans(platform)
    sc.draw(1, "1z").ankan(1, "1111z")
    return sc.ron(2, (0, -32000, 32000, 0), target=1, tile="1z").end_kyoku()


def four_kans(rules: str, *, fifth: bool = False, abort: bool = False,
              platform: str = "tenhou") -> Scenario:
    """Seats 1, 2, 3 and 0 each make a daiminkan, the indicators timed for ``rules``."""
    immediate = RuleSet.preset(rules).open_kan_dora.value == "immediate"
    sc = Scenario(aka=False, platform=platform)
    sc.start(FOUR_HANDS, dora="9m")
    sc.draw(0, "9p").discard(0, "1m")
    markers = iter(["1p", "2p", "3p", "4p", "5p"])
    for seat, nxt, rinshan in ((1, "2m", "8p"), (2, "3m", "7p"), (3, "4m", "6p"),
                               (0, "7s", "9s")):
        sc.daiminkan(seat)
        if immediate:
            sc.dora(next(markers)).draw(seat, rinshan)
        else:
            sc.draw(seat, rinshan).dora(next(markers))
        sc.discard(seat, nxt)
    if abort:
        return sc.ryukyoku(DrawReason.SUUKAIKAN).end_kyoku()
    sc.go_around(1, 3)
    if fifth:
        sc.draw(0, "6s").ankan(0, "6666s").dora(next(markers)).draw(0, "3s").discard(0, "3s")
        sc.go_around(1, 3)
    return sc.ryukyoku(tenpai=(False,) * 4).end_kyoku()


# -- rule-set differences --------------------------------------------------------------


def red_five() -> Scenario:
    sc = Scenario()
    sc.start(HANDS, dora="9p")
    sc.turn(0, "0m", "0m").turn(1, "0p", "0p")
    return finish(sc, 2)


def draw_by(reason: DrawReason) -> Scenario:
    sc = Scenario()
    sc.start(HANDS, dora="9p")
    sc.go_around(0, 4)
    return sc.ryukyoku(reason).end_kyoku()


def rons(n: int) -> Scenario:
    sc = Scenario()
    sc.start(HANDS, dora="9p")
    sc.draw(0, "5p").discard(0, "1m")
    deltas = {1: (-1000, 1000, 0, 0), 2: (-1000, 0, 1000, 0), 3: (-1000, 0, 0, 1000)}
    for seat in range(1, n + 1):
        sc.ron(seat, deltas[seat], target=0, tile="1m")
    return sc.end_kyoku()


def riichi_low(platform: str) -> Scenario:
    sc = Scenario(platform=platform)
    sc.start(HANDS, dora="9p", scores=(800, 33000, 33000, 33200))
    sc.draw(0, "5p").riichi(0, "1m")
    return finish(sc, 1)


def riichi_late(platform: str) -> Scenario:
    sc = Scenario(platform=platform)
    sc.start(HANDS, dora="9p")
    sc.go_around(0, 68, avoid=["5p"])
    sc.draw(0, "5p").riichi(0, "1m")  # one tile left
    sc.go_around(1, 1)
    return sc.ryukyoku(tenpai=(True, False, False, False)).end_kyoku()


@dataclass(frozen=True)
class Case:
    name: str
    build: Callable[[], Scenario]
    rules: str | RuleSet
    expect: dict[str, int]
    severity: dict[str, Severity] | None = None


SAME_ONLY = RuleSet.from_mapping({"base": "tenhou", "kuikae": "same"})
NO_KUIKAE_RULE = RuleSet.from_mapping({"base": "tenhou", "kuikae": "allowed"})

CASES = [
    # claim.late
    Case("chi in time", chi_ok, "tenhou", {}),
    Case("pon in time", pon_in_time, "ema", {}),
    Case("pon after the next draw, online", pon_after_draw, "tenhou", {"claim.late": 1}),
    Case("pon after the next draw, no times", pon_after_draw, "ema", {"claim.late": 1},
         {"claim.late": Severity.WARNING}),
    Case("pon after the next draw, within 3 s", lambda: pon_after_draw(2.0), "ema", {}),
    Case("pon after the next draw, after 3 s", lambda: pon_after_draw(5.0), "ema",
         {"claim.late": 1}, {"claim.late": Severity.ERROR}),
    Case("pon of an older discard", pon_of_older_discard, "ema", {"claim.late": 1}),
    Case("pon of an older discard, online", pon_of_older_discard, "tenhou",
         {"claim.late": 1}),
    Case("chi after the player's own draw", chi_after_own_draw, "tenhou", {"claim.late": 1}),
    Case("chi after the own draw, even within 3 s", lambda: chi_after_own_draw(True), "ema",
         {"claim.late": 1}, {"claim.late": Severity.ERROR}),
    Case("ron after the next draw, online", ron_after_draw, "tenhou", {"claim.late": 1}),
    Case("ron after the next draw, EMA: until the next discard", ron_after_draw, "ema", {}),
    Case("ron in time", ron_in_time, "tenhou", {}),
    # claim.chi-not-from-left
    Case("chi from across", chi_from_across, "tenhou", {"claim.chi-not-from-left": 1}),
    Case("chi from across, EMA", chi_from_across, "ema", {"claim.chi-not-from-left": 1}),
    # claim.precedence
    Case("pon, then a ron on the same discard", pon_then_ron, "tenhou",
         {"claim.precedence": 1}),
    Case("chi, then a pon of the same discard", chi_then_pon, "ema", {"claim.precedence": 1}),
    Case("pon, then a chi of the same discard", pon_then_chi, "tenhou",
         {"claim.precedence": 1}),
    # claim.last-tile
    Case("pon of the last discard", pon_last_discard, "tenhou", {"claim.last-tile": 1}),
    Case("pon of the last discard, EMA", pon_last_discard, "ema", {"claim.last-tile": 1}),
    Case("pon of the discard before the last", lambda: pon_last_discard(False), "ema", {}),
    Case("ron on the last discard", ron_last_discard, "ema", {}),
    # claim.kuikae
    Case("pon, then the same tile", kuikae_pon, "tenhou", {"claim.kuikae": 1}),
    Case("pon, then the same tile, EMA", kuikae_pon, "ema", {"claim.kuikae": 1}),
    Case("pon, then the same tile, kuikae allowed", kuikae_pon, NO_KUIKAE_RULE, {}),
    Case("chi, then the suji tile", kuikae_suji, "tenhou", {"claim.kuikae": 1}),
    Case("chi, then the suji tile, same-tile rule only", kuikae_suji, SAME_ONLY, {}),
    Case("chi, then another tile", chi_ok, "ema", {}),
    Case("a chi that leaves only swap tiles", call_leaving_only_swaps, "tenhou",
         {"claim.kuikae": 1}),
    Case("a chi that leaves only swap tiles, kuikae allowed", call_leaving_only_swaps,
         NO_KUIKAE_RULE, {}),
    # claim.in-riichi
    Case("pon in riichi", call_in_riichi, "tenhou", {"claim.in-riichi": 1}),
    Case("pon without riichi", lambda: call_in_riichi(False), "tenhou", {}),
    # claim.meld-shape
    Case("chi that is not a run", bad_chi, "tenhou", {"claim.meld-shape": 1}),
    Case("pon of two kinds", bad_pon, "ema", {"claim.meld-shape": 1}),
    # kan.fifth and kan.four-kan-draw-missed
    Case("four kans, play on, EMA", lambda: four_kans("ema"), "ema", {}),
    Case("fifth kan, EMA", lambda: four_kans("ema", fifth=True), "ema", {"kan.fifth": 1}),
    Case("four kans by four players, play on, Tenhou", lambda: four_kans("tenhou"),
         "tenhou", {"kan.four-kan-draw-missed": 1}),
    Case("four kans, abortive draw, Tenhou", lambda: four_kans("tenhou", abort=True),
         "tenhou", {}),
    Case("four kans, play on, M-League", lambda: four_kans("mleague"), "mleague", {}),
    Case("four kans, play on, an EMA log under Tenhou",
         lambda: four_kans("tenhou", platform="ema"), "tenhou",
         {"kan.four-kan-draw-missed": 1, "ruleset.mismatch": 1}),
    # kan.last-tile
    Case("ankan after the last draw", ankan_last_tile, "tenhou", {"kan.last-tile": 1}),
    Case("ankan after the last draw, EMA", ankan_last_tile, "ema", {"kan.last-tile": 1}),
    Case("ankan with tiles left", lambda: ankan_last_tile(False), "ema", {}),
    # kan.after-call
    Case("kakan right after the pon", kakan_after_pon, "tenhou", {"kan.after-call": 1}),
    Case("kakan after a draw", lambda: kakan("draw-dora"), "tenhou", {}),
    # kan.dora
    Case("ankan indicator before the replacement", ankan, "tenhou", {}),
    Case("ankan indicator before the replacement, EMA", ankan, "ema", {}),
    Case("ankan indicator after the replacement", lambda: ankan("draw-dora"), "tenhou",
         {"kan.dora": 1}, {"kan.dora": Severity.ERROR}),
    Case("ankan indicator after the replacement, EMA", lambda: ankan("draw-dora"), "ema",
         {"kan.dora": 1}),
    Case("daiminkan, Tenhou timing, under Tenhou", lambda: daiminkan("draw-dora"), "tenhou",
         {}),
    Case("daiminkan, Tenhou timing, under EMA", lambda: daiminkan("draw-dora"), "ema",
         {"kan.dora": 1, "ruleset.mismatch": 1}, {"kan.dora": Severity.ERROR}),
    Case("daiminkan, EMA timing, under EMA", lambda: daiminkan("dora-draw", "ema"), "ema", {}),
    Case("daiminkan, EMA timing, EMA log under Tenhou",
         lambda: daiminkan("dora-draw", "ema"), "tenhou",
         {"kan.dora": 1, "ruleset.mismatch": 1}),
    Case("daiminkan, EMA timing, Tenhou log under Tenhou",
         lambda: daiminkan("dora-draw"), "tenhou", {"kan.dora": 1}),
    Case("daiminkan, no indicator in the whole hand", lambda: daiminkan("none"), "tenhou",
         {"kan.dora": 1}, {"kan.dora": Severity.WARNING}),
    Case("daiminkan, no indicator in the whole hand, EMA", lambda: daiminkan("none"), "ema",
         {"kan.dora": 1}, {"kan.dora": Severity.WARNING}),
    Case("daiminkan, indicator only after the next draw", daiminkan_late, "tenhou",
         {"kan.dora": 1}, {"kan.dora": Severity.ERROR}),
    Case("kakan, indicator before the replacement (chip-lobby order), Tenhou",
         lambda: kakan("dora-draw"), "tenhou", {}),
    Case("kakan, Tenhou order", lambda: kakan("draw-dora"), "tenhou", {}),
    Case("rinshan win, open-kan indicator already shown, Tenhou",
         lambda: daiminkan("draw-dora", then="tsumo"), "tenhou", {"kan.dora": 1}),
    Case("rinshan win, open-kan indicator pending, Tenhou",
         lambda: daiminkan("none", then="tsumo"), "tenhou", {}),
    Case("rinshan win after an EMA kan", lambda: daiminkan("dora-draw", "ema", then="tsumo"),
         "ema", {}),
    Case("robbed kakan that revealed its indicator",
         lambda: kakan("dora-draw", then="robbed"), "tenhou", {"kan.dora": 1}),
    Case("robbed kakan, no indicator", lambda: kakan("none", then="robbed"), "tenhou", {}),
    Case("robbed kakan, no indicator, EMA", lambda: kakan("none", then="robbed"), "ema", {}),
    Case("an indicator with no kan", extra_indicator, "tenhou", {"kan.dora": 1}),
    # ruleset.mismatch
    Case("red fives under EMA (once)", red_five, "ema", {"ruleset.mismatch": 1}),
    Case("red fives under Tenhou", red_five, "tenhou", {}),
    Case("nine terminals under EMA", lambda: draw_by(DrawReason.KYUUSHU_KYUUHAI), "ema",
         {"ruleset.mismatch": 1}),
    Case("nine terminals under Tenhou", lambda: draw_by(DrawReason.KYUUSHU_KYUUHAI),
         "tenhou", {}),
    Case("sanchahou draw under Mahjong Soul", lambda: draw_by(DrawReason.SANCHAHOU),
         "majsoul", {"ruleset.mismatch": 1}),
    Case("nagashi mangan under EMA", lambda: draw_by(DrawReason.NAGASHI_MANGAN), "ema",
         {"ruleset.mismatch": 1}),
    Case("nagashi mangan under Tenhou", lambda: draw_by(DrawReason.NAGASHI_MANGAN),
         "tenhou", {}),
    Case("double ron under WRC (head bump)", lambda: rons(2), "wrc", {"ruleset.mismatch": 1}),
    Case("double ron under M-League (head bump)", lambda: rons(2), "mleague",
         {"ruleset.mismatch": 1}),
    Case("double ron under Tenhou", lambda: rons(2), "tenhou", {}),
    Case("triple ron under Tenhou", lambda: rons(3), "tenhou", {"ruleset.mismatch": 1}),
    Case("triple ron under EMA", lambda: rons(3), "ema", {}),
    Case("triple ron under WRC (once)", lambda: rons(3), "wrc", {"ruleset.mismatch": 1}),
    Case("riichi at 800, M-League log under Tenhou", lambda: riichi_low("mleague"), "tenhou",
         {"ruleset.mismatch": 1}),
    Case("riichi at 800, M-League log under M-League", lambda: riichi_low("mleague"),
         "mleague", {}),
    Case("riichi at 800, Tenhou log under Tenhou (riichi.points judges it)",
         lambda: riichi_low("tenhou"), "tenhou", {}),
    Case("riichi with one tile left, M-League log under EMA", lambda: riichi_late("mleague"),
         "ema", {"ruleset.mismatch": 1}),
    Case("riichi with one tile left, EMA log under EMA", lambda: riichi_late("ema"), "ema",
         {}),
    Case("robbing a concealed kan under Tenhou", robbed_ankan, "tenhou",
         {"ruleset.mismatch": 1}),
    Case("robbing a concealed kan under EMA", robbed_ankan, "ema", {}),
]


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_table_rule(case: Case) -> None:
    result = audit(case.build(), case.rules)
    assert dict(found(result)) == case.expect, [
        (v.rule, v.message) for v in result.violations if v.rule in TABLE_RULES]
    lost = [(v.rule, v.message) for v in result.violations if v.rule in LOST]
    assert lost == [], "the replay lost the hand"
    for rule, severity in (case.severity or {}).items():
        assert {v.severity for v in result.violations if v.rule == rule} == {severity}


def test_every_table_rule_has_a_triggering_case() -> None:
    triggered = {rule for c in CASES for rule in c.expect}
    assert triggered == TABLE_RULES


# -- the same games under every preset: the verdict follows the preset's flags -------------

PRESET_NAMES = sorted(["ema", "tenhou", "majsoul", "wrc", "mleague"])


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_late_claims_follow_the_claim_window(preset: str) -> None:
    rules = RuleSet.preset(preset)
    online = rules.late_claim.value == "forbidden"
    late = [v for v in audit(pon_after_draw(), rules).violations if v.rule == "claim.late"]
    assert [v.severity for v in late] == [Severity.ERROR if online else Severity.WARNING]
    timed = [v for v in audit(pon_after_draw(2.0), rules).violations if v.rule == "claim.late"]
    assert len(timed) == (1 if online else 0)
    ron = found(audit(ron_after_draw(), rules))
    assert ron["claim.late"] == (0 if rules.ron_until_next_discard else 1)
    # an older discard and a chi after the own draw are late under every rule set
    assert found(audit(pon_of_older_discard(), rules))["claim.late"] == 1
    assert found(audit(chi_after_own_draw(), rules))["claim.late"] == 1


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_open_kan_indicators_follow_the_preset(preset: str) -> None:
    rules = RuleSet.preset(preset)
    immediate = rules.open_kan_dora.value == "immediate"
    tenhou_order = found(audit(daiminkan("draw-dora"), rules))["kan.dora"]
    ema_order = found(audit(daiminkan("dora-draw", "ema"), rules))["kan.dora"]
    assert (tenhou_order, ema_order) == ((1, 0) if immediate else (0, 1))
    assert found(audit(ankan("draw-dora"), rules))["kan.dora"] == 1  # never late for ankan


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_four_kans_follow_the_abortive_draws(preset: str) -> None:
    rules = RuleSet.preset(preset)
    aborts = DrawReason.SUUKAIKAN in rules.abortive
    result = found(audit(four_kans(preset), rules))
    assert result["kan.four-kan-draw-missed"] == (1 if aborts else 0)
    fifth = found(audit(four_kans(preset, fifth=True), rules))
    assert fifth["kan.fifth"] == 1
