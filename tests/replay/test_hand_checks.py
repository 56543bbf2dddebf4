"""The hand checks on crafted games: each rule id has a game that must trigger it and a
near miss that must not, under every rule set where the answer differs.

A case lists the hand-check findings it must produce (an empty set for a near
miss); findings of other families (scores, flow, claims) are not looked at.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pytest

from kansa.replay.engine import replay
from kansa.replay.events import DrawReason
from kansa.replay.result import ReplayResult
from kansa.replay.rules import RuleSet, TempFuritenClear
from kansa.replay.table import Table
from kansa.replay.tiles import Tile, parse_tiles
from kansa.replay.violations import Severity
from kansa.sim.scenario import Scenario, fill_hands

TENHOU = RuleSet.preset("tenhou")
EMA = RuleSet.preset("ema")
MLEAGUE = RuleSet.preset("mleague")
SEED = EMA.replace(name="ema-seed", temp_furiten_clear=TempFuritenClear.DRAW_OR_ANY_CALL)
"""EMA with the seed text's temporary furiten: any call ends it."""
NO_KUITAN = TENHOU.replace(name="tenhou-nashi", kuitan=False)

HAND_RULES = {
    "riichi.wall", "riichi.open-hand", "riichi.not-tenpai", "riichi.points", "riichi.twice",
    "riichi.hand-changed", "riichi.kan-changes-wait", "furiten.discard", "furiten.temporary",
    "furiten.riichi", "win.incomplete", "win.no-yaku", "draw.tenpai-claim",
    "draw.abortive-invalid",
}
"""The hand checks' rule ids; ``ruleset.mismatch`` (shared with the table checks, which
also report other differences such as kan indicator timing) is tested on its own below."""
RON = (-2000, 0, 2000, 0)
"""Deltas for a ron by seat 2 on seat 0 (the value is not what these tests look at)."""


def hand_findings(result: ReplayResult) -> list[tuple[str, str]]:
    return [(v.rule, v.message) for v in result.violations if v.rule in HAND_RULES]


# -- riichi ------------------------------------------------------------------------------

TENPAI = "123m456p789s1122z"
"""Waits on 1z and 2z (shanpon)."""
SHANPON = ["1z", "2z"]


def riichi_game(hand: str = TENPAI, *, scores: tuple[int, ...] | None = None) -> Scenario:
    """Seat 0 (dealer) declares riichi on its first draw, discarding the drawn tile."""
    sc = Scenario().start(fill_hands({0: hand}), scores=scores)
    return sc.draw(0, avoid=SHANPON).riichi(0)


def riichi_with_left(left: int) -> Scenario:
    """Seat 0 declares riichi on the draw that leaves ``left`` tiles in the live wall."""
    k = 70 - left  # seat 0 makes the k-th draw of the hand
    oya = (1 - k) % 4
    sc = Scenario().start(fill_hands({0: TENPAI}), oya=oya)
    sc.go_around(oya, k - 1, avoid=SHANPON)
    return sc.draw(0, avoid=SHANPON).riichi(0)


def open_riichi(ankan: bool) -> Scenario:
    """Seat 1 pons 5z (or, the near miss, makes a concealed kong of it), then declares."""
    if ankan:
        sc = Scenario().start(fill_hands({1: "123m456p789s1555z"}, reserve="5z"))
        sc.turn(0, avoid=["1z", "5z"])
        sc.draw(1, "5z").ankan(1, "5555z").dora("9m").draw(1, avoid=["1z"]).discard(1)
    else:
        sc = Scenario().start(fill_hands({1: "123m456p789s1255z"}, reserve="5z"))
        sc.turn(0, "5z", "5z").pon(1).discard(1, "2z")
    sc.go_around(2, 3, avoid=["1z"])
    return sc.draw(1, avoid=["1z"]).riichi(1)


def riichi_twice(again: bool) -> Scenario:
    sc = riichi_game()
    sc.go_around(1, 3, avoid=SHANPON)
    sc.draw(0, avoid=SHANPON)
    return sc.riichi(0) if again else sc.discard(0)


def riichi_changes_hand(how: str) -> Scenario:
    """Seat 0 waits on 2m (kanchan) in riichi, then discards from the hand, pons, or
    (the near miss) discards the drawn tile."""
    sc = Scenario().start(fill_hands({0: "13m456p789s11z555s"}, reserve="1z2m", dora="9m"),
                          dora="9m")
    sc.draw(0, avoid=["2m"]).riichi(0)
    if how == "pon":
        sc.go_around(1, 2, avoid=["2m", "1z"]).turn(3, "1z", "1z").pon(0).discard(0, "1m")
        return sc
    sc.go_around(1, 3, avoid=["2m", "1z"]).draw(0, avoid=["2m", "1z"])
    return sc.discard(0, "1m" if how == "discard" else None)


def riichi_ankan(hand: str, drawn: str, kan: str, waits: str) -> Scenario:
    """Seat 0 declares riichi with ``hand`` and later draws ``drawn`` and declares a
    concealed kong of ``kan`` (four tiles, mpsz)."""
    avoid = [t.mpsz for t in parse_tiles(waits + kan)]
    sc = Scenario().start(fill_hands({0: hand}, reserve=drawn + kan))
    sc.draw(0, avoid=avoid).riichi(0)
    sc.go_around(1, 3, avoid=avoid)
    sc.draw(0, drawn).ankan(0, kan).dora(sc.spare(avoid))
    return sc.draw(0, avoid=avoid).discard(0)


# -- furiten -----------------------------------------------------------------------------

VICTIM = "45m234p678s777z11s"
"""Seat 2's hand: waits on 3m and 6m, with a chun pung for a yaku."""
W36 = ["3m", "6m"]


def furiten_game(extra: dict[int, str] | None = None, reserve: str = "3m6m") -> Scenario:
    return Scenario().start(fill_hands({2: VICTIM, **(extra or {})}, reserve=reserve))


def discard_furiten(own: str | None, called: bool = False) -> Scenario:
    """Seat 2 discards ``own`` (its wait 6m, or a safe tile), then rons 3m from seat 0."""
    sc = furiten_game({3: "66m19p19s1234567z"}, reserve="3m6m") if called else furiten_game()
    sc.turn(0, avoid=W36).turn(1, avoid=W36)
    if own is None:
        sc.turn(2, avoid=W36)
    else:
        sc.turn(2, own, own)
    if called:
        sc.pon(3).discard(3, "9p")
    else:
        sc.turn(3, avoid=W36)
    return sc.turn(0, "3m", "3m").ron(2, RON)


def temporary_furiten(mode: str) -> Scenario:
    """Seat 2 lets 3m from seat 0 pass, then rons 6m: at once (``pass``), after its own
    draw and discard (``cleared``), or after someone else's pon (``call``)."""
    if mode == "call":
        sc = furiten_game({3: "69m99p19s1234567z"}, reserve="3m6m9p")
        sc.turn(0, "3m", "3m").turn(1, "9p", "9p").pon(3).discard(3, "6m")
        return sc.ron(2, (0, 0, 2000, -2000), target=3)
    sc = furiten_game().turn(0, "3m", "3m")
    if mode == "pass":
        return sc.turn(1, "6m", "6m").ron(2, RON, target=1)
    sc.turn(1, avoid=W36).turn(2, avoid=W36).turn(3, "6m", "6m")
    return sc.ron(2, RON, target=3)


def chankan_pass(robbed: bool) -> Scenario:
    """Seat 1 pons 1m and later adds the fourth 1m; seat 2, waiting on 1m and 4m, lets
    the added tile pass and then rons 4m (or, the near miss, robs the kong)."""
    sc = Scenario().start(fill_hands({1: "119m9p19s1234567z", 2: "23m234p678s777z19s"},
                                     reserve="1m4m"))
    sc.turn(0, "1m", "1m").pon(1).discard(1, "9m")
    sc.turn(2, "1s", "9s")  # now 23m234p678s777z11s: waits on 1m and 4m
    sc.turn(3, avoid=["1m", "4m"]).turn(0, avoid=["1m", "4m"])
    sc.draw(1, "1m").kakan(1, "1m")
    if robbed:
        return sc.ron(2, (0, -2000, 2000, 0), target=1, tile="1m")
    sc.draw(1, "4m").dora("9p").discard(1, "4m")
    return sc.ron(2, (0, -2000, 2000, 0), target=1)


def riichi_furiten(riichi: bool) -> Scenario:
    """Seat 2 (in riichi, or not) lets 3m pass, draws and discards, then rons 6m."""
    sc = furiten_game().turn(0, avoid=W36).turn(1, avoid=W36)
    sc.draw(2, avoid=W36)
    if riichi:
        sc.riichi(2)
    else:
        sc.discard(2)
    sc.turn(3, avoid=W36).turn(0, "3m", "3m").turn(1, avoid=W36).turn(2, avoid=W36)
    return sc.turn(3, "6m", "6m").ron(2, RON, target=3)


def double_ron() -> Scenario:
    """Seats 1 and 2 both ron 3m from seat 0; seat 1 had discarded 3m itself."""
    sc = Scenario().start(fill_hands({1: "12m456p789s555z22s", 2: VICTIM}, reserve="3m6m"))
    sc.turn(0, avoid=W36).turn(1, "3m", "3m").turn(2, avoid=W36).turn(3, avoid=W36)
    sc.turn(0, "3m", "3m")
    return sc.ron(1, (-2000, 2000, 0, 0)).ron(2, RON)


# -- wins --------------------------------------------------------------------------------


def ron_with(hand: str, tile: str, *, reserve: str = "") -> Scenario:
    """Seat 2, dealt ``hand``, rons ``tile`` from seat 0 on its second discard (not on
    the first go-around, which would make it renhou under EMA)."""
    sc = Scenario().start(fill_hands({2: hand}, reserve=reserve + tile))
    avoid = [t.mpsz for t in parse_tiles(reserve + tile)]
    sc.go_around(0, 4, avoid=avoid)
    return sc.turn(0, tile, tile).ron(2, RON)


def open_win(hand: str, called: str, chi_with: str) -> Scenario:
    """Seat 2 chis ``called`` from seat 1 with ``chi_with``, discards 9s, rons 3m."""
    sc = Scenario().start(fill_hands({2: hand}, reserve=called + "3m6m"))
    sc.turn(0, avoid=W36).turn(1, called, called).chi(2, chi_with).discard(2, "9s")
    sc.turn(3, avoid=W36)
    return sc.turn(0, "3m", "3m").ron(2, RON)


def noten_tsumo() -> Scenario:
    sc = Scenario().start(fill_hands({}))
    return sc.draw(0).tsumo(0, (6000, -2000, -2000, -2000))


# -- draws -------------------------------------------------------------------------------


def exhaustive(hands: dict[int, str], shown: tuple[bool, ...], *, riichi: int | None = None,
               dead: str | None = None) -> Scenario:
    """Play one go-around (seat ``riichi`` declaring) and end in an exhaustive draw with
    the ``shown`` tenpai claims.  ``dead`` (one kind) is discarded by the three other
    players, so every copy of it is visible."""
    sc = Scenario().start(fill_hands(hands, reserve=dead or ""))
    avoid = ["1z", "2z", "9m"]
    for seat in range(4):
        if dead is not None and seat != 1:
            sc.turn(seat, dead, dead)
        elif seat == riichi:
            sc.draw(seat, avoid=avoid).riichi(seat)
        else:
            sc.turn(seat, avoid=avoid)
    return sc.ryukyoku(tenpai=shown)


NINE = "19m19p19s12345z55m"
"""Eleven terminal and honor kinds."""
EIGHT = "19m19p1s123z2345m5p"
"""Eight kinds."""


def kyuushu(hand: str, *, second_draw: bool = False, interrupted: bool = False) -> Scenario:
    if interrupted:
        sc = Scenario().start(fill_hands({1: hand, 3: "12345m99p1789s67z"}, reserve="9p"))
        sc.turn(0, "9p", "9p").pon(3).discard(3, "7z").turn(0)
        sc.draw(1)
        return sc.ryukyoku(DrawReason.KYUUSHU_KYUUHAI, actor=1)
    sc = Scenario().start(fill_hands({0: hand}))
    if second_draw:
        sc.go_around(0, 4)
    sc.draw(0, avoid=["1m", "9m", "1p", "9p", "1s", "9s"])
    return sc.ryukyoku(DrawReason.KYUUSHU_KYUUHAI, actor=0)


def four_winds(last: str) -> Scenario:
    """Everyone discards East on the first go-around (seat 3 discards ``last``)."""
    sc = Scenario().start(["1z2z258m369p147s33z", "1z2z147m258p369s44z",
                           "1z2z369m147p258s55z", "1z2z258m147p369s66z"], dora="9p")
    for seat in range(4):
        sc.turn(seat, discard="1z" if seat < 3 else last)
    return sc.ryukyoku(DrawReason.SUUFON_RENDA)


FOUR_RIICHI = ["123m456p789s3555z", "123m456p789s4666z", "123m456p789s1777z",
               "123m456p789s2333z"]


def four_riichi(declared: int) -> Scenario:
    sc = Scenario().start(FOUR_RIICHI, dora="9m")
    avoid = ["1z", "2z", "3z", "4z"]
    for seat in range(4):
        sc.draw(seat, avoid=avoid)
        if seat < declared:
            sc.riichi(seat)
        else:
            sc.discard(seat)
    return sc.ryukyoku(DrawReason.SUUCHA_RIICHI)


def four_kans(split: bool, kans: int = 4) -> Scenario:
    """Concealed kongs on the first turns: two each by seats 0 and 1 (``kans - 2`` by
    seat 1), or (``split`` false) all four by seat 0."""
    if split:
        sc = Scenario().start(fill_hands({0: "1111m2222m34567p", 1: "1111p2222p34567s"}))
        avoid = ["1m", "2m", "1p", "2p"]
        for seat, kongs in ((0, ["1111m", "2222m"]), (1, ["1111p", "2222p"][: kans - 2])):
            sc.draw(seat, avoid=avoid)
            for kong in kongs:
                sc.ankan(seat, kong).dora(sc.spare(avoid)).draw(seat, avoid=avoid)
            sc.discard(seat)
    else:
        sc = Scenario().start(fill_hands({0: "1111m2222m3333m4m"}, reserve="4m9p"))
        sc.draw(0, "4m")
        for kong, replacement in (("1111m", "4m"), ("2222m", "4m"), ("3333m", "9p"),
                                  ("4444m", "9p")):
            sc.ankan(0, kong).dora(sc.spare(["4m", "9p"])).draw(0, replacement)
        sc.discard(0, "9p")
    return sc.ryukyoku(DrawReason.SUUKAIKAN)


def three_winners(third_waits: bool) -> Scenario:
    third = "3m456p789s666z444s" if third_waits else "19m19p18s1234567z"
    sc = Scenario().start(fill_hands({1: "45m234p678s777z11s", 2: "12m456p789s555z22s",
                                      3: third}, reserve="3m"))
    sc.turn(0, "3m", "3m")
    return sc.ryukyoku(DrawReason.SANCHAHOU)


def nine_terminals_twice() -> Scenario:
    sc = kyuushu(NINE)
    sc.end_kyoku()
    sc.start(fill_hands({0: NINE}), honba=1)
    sc.draw(0, avoid=["1m", "9m", "1p", "9p", "1s", "9s"])
    return sc.ryukyoku(DrawReason.KYUUSHU_KYUUHAI, actor=0)


# -- the table ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Case:
    name: str
    build: Callable[[], Scenario]
    expect: dict[str, set[str]]
    """Rule set name -> the hand-check rule ids the game must produce (exactly)."""
    says: str = ""
    """A phrase the first finding's message must contain."""


def same(rules: set[str], *names: str) -> dict[str, set[str]]:
    return {n: set(rules) for n in (names or ("tenhou", "ema"))}


CASES = [
    # riichi.wall
    Case("riichi with 3 tiles left", lambda: riichi_with_left(3),
         {"tenhou": {"riichi.wall"}, "ema": {"riichi.wall"}, "mleague": set()},
         "3 tiles left in the live wall"),
    Case("riichi with 4 tiles left", lambda: riichi_with_left(4), same(set())),
    # riichi.open-hand
    Case("riichi after a pon", lambda: open_riichi(False), same({"riichi.open-hand"}),
         "open hand (pon 5z)"),
    Case("riichi after a concealed kong", lambda: open_riichi(True), same(set())),
    # riichi.not-tenpai
    Case("noten riichi", lambda: riichi_game("123m456p789s1357z"), same({"riichi.not-tenpai"}),
         "-shanten"),
    Case("riichi waiting only on a tile held four times",
         lambda: riichi_game("1111m234p567s888s"), same({"riichi.not-tenpai"}),
         "holds all four"),
    Case("tenpai riichi", riichi_game, same(set())),
    # riichi.points
    Case("riichi with 900 points", lambda: riichi_game(scores=(900, 25000, 25000, 25000)),
         {"tenhou": {"riichi.points"}, "ema": set(), "mleague": set()}, "holding 900 points"),
    Case("riichi with 1000 points", lambda: riichi_game(scores=(1000, 25000, 25000, 25000)),
         same(set())),
    # riichi.twice
    Case("riichi declared twice", lambda: riichi_twice(True), same({"riichi.twice"})),
    Case("riichi declared once", lambda: riichi_twice(False), same(set())),
    # riichi.hand-changed
    Case("riichi then a discard from the hand", lambda: riichi_changes_hand("discard"),
         same({"riichi.hand-changed"}), "instead of the tile just drawn"),
    Case("riichi then a pon", lambda: riichi_changes_hand("pon"),
         same({"riichi.hand-changed"}), "calls pon"),
    Case("riichi then the drawn tile", lambda: riichi_changes_hand("tsumogiri"), same(set())),
    # riichi.kan-changes-wait: RULESETS.md section 2, the three test vectors
    Case("kan vector 1: 111m222333p5678s + 1m",
         lambda: riichi_ankan("111m222333p5678s", "1m", "1111m", "58s"), same(set())),
    Case("kan vector 2: 3444m778899s333z + 4m",
         lambda: riichi_ankan("3444m778899s333z", "4m", "4444m", "235m"),
         same({"riichi.kan-changes-wait"}), "changes the waits"),
    Case("kan vector 3: 333444555m789p6s + 3m",
         lambda: riichi_ankan("333444555m789p6s", "3m", "3333m", "6s"),
         {"tenhou": set(), "majsoul": set(), "ema": {"riichi.kan-changes-wait"}},
         "are not a pung"),
    Case("okurikan after riichi",
         lambda: riichi_ankan("11112m234p567s99s", "7z", "1111m", "3m"),
         same({"riichi.kan-changes-wait"}), "no okurikan"),
    # furiten.discard
    Case("ron on 3m after discarding 6m", lambda: discard_furiten("6m"),
         same({"furiten.discard"}), "it discarded 6m itself"),
    Case("ron after a 6m discard called away", lambda: discard_furiten("6m", called=True),
         same({"furiten.discard"}), "called by seat 3"),
    Case("ron on 3m, 6m never discarded", lambda: discard_furiten(None), same(set())),
    Case("double ron, one winner furiten", double_ron, same({"furiten.discard"}),
         "seat 1 wins by ron"),
    # furiten.temporary
    Case("ron after passing a win", lambda: temporary_furiten("pass"),
         {"tenhou": {"furiten.temporary"}, "ema": {"furiten.temporary"},
          "ema-seed": {"furiten.temporary"}}, "3m discarded by seat 0"),
    Case("ron after passing, own discard since", lambda: temporary_furiten("cleared"),
         {"tenhou": set(), "ema": set(), "ema-seed": set()}),
    Case("ron after passing, someone called since", lambda: temporary_furiten("call"),
         {"tenhou": {"furiten.temporary"}, "ema": {"furiten.temporary"}, "ema-seed": set()},
         "has not"),
    Case("ron after passing a robbable kong", lambda: chankan_pass(False),
         same({"furiten.temporary"}), "1m added to a kan by seat 1"),
    Case("robbing the kong", lambda: chankan_pass(True), same(set())),
    # furiten.riichi
    Case("ron in riichi after passing a win", lambda: riichi_furiten(True),
         same({"furiten.riichi"}), "for the rest of the hand"),
    Case("the same pass without riichi", lambda: riichi_furiten(False), same(set())),
    # win.incomplete
    Case("ron with a scattered hand", lambda: ron_with("19m19p18s1234567z", "3m"),
         same({"win.incomplete"}), "not a complete hand"),
    Case("tsumo with a scattered hand", noten_tsumo, same({"win.incomplete"})),
    Case("ron completing the hand", lambda: ron_with(VICTIM, "3m", reserve="6m"), same(set())),
    # win.no-yaku
    Case("open hand without a yaku", lambda: open_win("23s456p678m99p45m9s", "1s", "23s"),
         same({"win.no-yaku"}), "no yaku"),
    Case("open hand with a chun pung", lambda: open_win("23s456p777z99p45m9s", "1s", "23s"),
         same(set())),
    Case("open all-simples hand", lambda: open_win("34s456p678m88p45m9s", "2s", "34s"),
         {"tenhou": set(), "ema": set(), "tenhou-nashi": {"win.no-yaku"}}),
    Case("closed ron on a kanchan, no yaku", lambda: ron_with("13m456p678s234p99s", "2m"),
         same({"win.no-yaku"})),
    Case("closed ron, pinfu", lambda: ron_with("45m456p678s234p99s", "3m"), same(set())),
    # draw.tenpai-claim
    Case("noten hand shown as tenpai", lambda: exhaustive({}, (False, True, False, False)),
         same({"draw.tenpai-claim"}), "has no wait"),
    Case("riichi hand not shown", lambda: exhaustive({0: TENPAI}, (False,) * 4, riichi=0),
         same({"draw.tenpai-claim"}), "riichi players must show"),
    Case("wait only on a tile held four times, shown",
         lambda: exhaustive({1: "1111m234p567s888s"}, (False, True, False, False)),
         same({"draw.tenpai-claim"}), "holds all four"),
    Case("every copy of the wait visible (karaten), shown",
         lambda: exhaustive({1: "123p456p789s111z9m"}, (False, True, False, False),
                            dead="9m"), same(set())),
    Case("tenpai shown", lambda: exhaustive({1: TENPAI}, (False, True, False, False)),
         same(set())),
    Case("dama tenpai not shown", lambda: exhaustive({1: TENPAI}, (False,) * 4),
         same(set())),
    # draw.abortive-invalid and ruleset.mismatch
    Case("nine terminals", lambda: kyuushu(NINE),
         {"tenhou": set(), "ema": set()}),
    Case("nine terminals with eight kinds", lambda: kyuushu(EIGHT),
         {"tenhou": {"draw.abortive-invalid"}}, "only 8 different"),
    Case("nine terminals on the second draw", lambda: kyuushu(NINE, second_draw=True),
         {"tenhou": {"draw.abortive-invalid"}}, "draw number 2"),
    Case("nine terminals after a pon", lambda: kyuushu(NINE, interrupted=True),
         {"tenhou": {"draw.abortive-invalid"}}, "interrupted"),
    Case("nine terminals twice in a game", nine_terminals_twice,
         {"tenhou": set(), "ema": set()}),
    Case("four winds", lambda: four_winds("1z"), {"tenhou": set(), "ema": set()}),
    Case("four winds that differ", lambda: four_winds("2z"),
         {"tenhou": {"draw.abortive-invalid"}}, "not four of the same wind"),
    Case("four riichi", lambda: four_riichi(4), {"tenhou": set()}),
    Case("four riichi with three declared", lambda: four_riichi(3),
         {"tenhou": {"draw.abortive-invalid"}}, "only 3 players are in riichi"),
    Case("four kongs by two players", lambda: four_kans(True), {"tenhou": set()}),
    Case("four kongs declared, three made", lambda: four_kans(True, kans=3),
         {"tenhou": {"draw.abortive-invalid"}}, "only 3 kongs"),
    Case("four kongs by one player", lambda: four_kans(False),
         {"tenhou": {"draw.abortive-invalid"}}, "one player's"),
    Case("three winners", lambda: three_winners(True),
         {"tenhou": set(), "majsoul": set()}),
    Case("three winners declared, two can win", lambda: three_winners(False),
         {"tenhou": {"draw.abortive-invalid"}}, "only 2 of the other players"),
]

RULESETS = {r.name: r for r in (TENHOU, EMA, MLEAGUE, SEED, NO_KUITAN,
                                RuleSet.preset("majsoul"))}


@pytest.mark.parametrize(
    ("case", "rules"),
    [(c, r) for c in CASES for r in c.expect],
    ids=[f"{c.name} [{r}]" for c in CASES for r in c.expect],
)
def test_hand_check(case: Case, rules: str) -> None:
    result = replay(case.build().game(), RULESETS[rules])
    broken = [(v.rule, v.message) for v in result.violations
              if v.rule.startswith("tiles.") or v.rule == "log.out-of-order"]
    assert not broken and result.unchecked == 0, broken  # the crafted game itself is sound
    found = hand_findings(result)
    assert {r for r, _ in found} == case.expect[rules], found
    if case.expect[rules] and case.says:
        assert any(case.says in m for _, m in found), found
    for v in result.violations:
        if v.rule in case.expect[rules]:
            assert v.severity is Severity.ERROR


@pytest.mark.parametrize(("build", "rules", "mismatches"), [
    (lambda: kyuushu(NINE), TENHOU, 0),
    (lambda: kyuushu(NINE), EMA, 1),
    (nine_terminals_twice, EMA, 1),  # once per game
    (lambda: four_winds("1z"), EMA, 1),
    (lambda: four_kans(True), MLEAGUE, 1),
    (lambda: four_riichi(4), EMA, 1),
    (lambda: three_winners(True), RuleSet.preset("majsoul"), 1),
    (lambda: three_winners(True), TENHOU, 0),
], ids=["kyuushu-tenhou", "kyuushu-ema", "kyuushu-twice-ema", "kaze4-ema", "kan4-mleague",
        "reach4-ema", "ron3-majsoul", "ron3-tenhou"])
def test_draws_the_rule_set_does_not_have(build: Callable[[], Scenario], rules: RuleSet,
                                          mismatches: int) -> None:
    """An abortive draw the rule set lacks is a ruleset.mismatch warning, once per game
    (reported by replay/checks/ruleset.py); its condition is still checked."""
    found = [v for v in replay(build().game(), rules).violations
             if v.rule == "ruleset.mismatch"]
    assert len(found) == mismatches, [v.message for v in found]
    assert all(v.severity is Severity.WARNING for v in found)


# -- facts for the reports ---------------------------------------------------------------


def test_riichi_record_facts_shanpon() -> None:
    result = replay(riichi_game().game(), TENHOU)
    rec = result.hands[0].riichi[0]
    assert rec.waits == (Tile.EAST, Tile.SOUTH)
    # 8 copies, 4 in the declarer's hand, 1 East shown as the dora indicator
    assert rec.live == 3
    assert rec.furiten is False and rec.good_shape is True


def test_riichi_record_facts_kanchan_on_a_discarded_wait() -> None:
    sc = Scenario().start(fill_hands({0: "13m456p789s11z555s"}, reserve="2m"))
    sc.draw(0, "2m").riichi(0, "2m")  # back to 13m: waits on 2m, which it just discarded
    rec = replay(sc.game(), TENHOU).hands[0].riichi[0]
    assert rec.waits == (Tile.M2,) and rec.live == 3
    assert rec.furiten is True and rec.good_shape is False


def test_tenpai_turn_and_tenpai_at_the_end() -> None:
    sc = Scenario().start(fill_hands({0: TENPAI, 2: "23m234p678s777z19s"}, reserve="1s1m4m"))
    avoid = ["1z", "2z", "1m", "4m"]
    sc.turn(0, avoid=avoid).turn(1, avoid=avoid).turn(2, avoid=avoid).turn(3, avoid=avoid)
    sc.turn(0, avoid=avoid).turn(1, avoid=avoid).turn(2, "1s", "9s").turn(3, avoid=avoid)
    sc.ryukyoku(tenpai=(True, False, True, False))
    hand = replay(sc.game(), TENHOU).hands[0]
    assert hand.tenpai_turn == [0, None, 2, None]
    assert hand.tenpai_end == [True, False, True, False]


@pytest.mark.parametrize(("rules", "after_draw"), [(TENHOU, True), (EMA, False)])
def test_temporary_furiten_ends_by_rule(rules: RuleSet, after_draw: bool) -> None:
    """Tenhou ends it at the player's discard, EMA 2016 already at the player's draw."""
    sc = furiten_game().turn(0, "3m", "3m").turn(1, avoid=W36).draw(2, avoid=W36)
    sc.discard(2)
    r = Table(rules, game=sc.game())
    events = sc.game().events
    for ev in events[:-1]:  # up to seat 2's draw
        r.push(ev)
    seat2 = r.state.round.players[2]  # type: ignore[union-attr]
    assert (seat2.temp_furiten is not None) is after_draw
    r.push(events[-1])
    assert seat2.temp_furiten is None
