"""The sample logs in ``sample_logs/``, written by kansa itself.

``disputes/``: one short hand each, played under the EMA rules (no red fives,
30,000 points), in which one player does the one thing the sample is named
after; the rest of the hand is legal, wins are paid at their EMA value, and the
log stops after the disputed hand (so it also carries a ``log.truncated`` warning).

``games/``: complete games from the self-play simulator (:mod:`kansa.sim.table`),
chosen by seed for what they show, which replay without a single finding: two
Tenhou-rule hanchan (one as mjai, one as tenhou.net/6), one EMA game (mjai), and two
three-player hanchan, under Tenhou's rules (tenhou.net/6) and Mahjong Soul's (mjai).

``python -m kansa.sim.samples`` writes them all; ``--check`` exits 1 when the files
on disk differ from what the builders give.

>>> sorted(SAMPLES)[:2]
['fifth-kan', 'furiten-discard']
>>> sorted(GAMES)[0]
'ema-23.mjson'
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from kansa.parsers.mjai.write import write as write_mjai
from kansa.parsers.tenhou6.write import write_game as write_tenhou6
from kansa.replay.events import Ankan, Chi, Daiminkan, Kakan, Nukidora, Pon, StartKyoku
from kansa.replay.game import Game
from kansa.replay.tiles import Tile
from kansa.sim.scenario import Scenario
from kansa.sim.table import simulate, summary

FOLDER = Path(__file__).resolve().parents[1] / "sample_logs"
"""The root of the samples: ``disputes/`` and ``games/`` below it."""
DISPUTES = "disputes"
GAMES_DIR = "games"
NAMES = ("Aoki", "Berg", "Costa", "Dubois")
NOTEN = (False, False, False, False)
WRITERS: dict[str, Callable[[Game], str]] = {"mjai": write_mjai, "tenhou6": write_tenhou6}
"""The log writers the samples use: the only place the simulator meets a format."""

# A closed tenpai hand for seat 1: 234m 345p 567s 55s 67p waits on 2p, 5p and 8p
# (34567p); a win is pinfu and tanyao (riichi and menzen tsumo where they apply).
PINFU = "234m345p567s55s67p"
OTHERS = ("119m2688p149s127z", "1158m239p289s346z", "367m1177p1s12456z")


def _scenario(name: str) -> Scenario:
    return Scenario(NAMES, aka=False, platform="ema", start_score=30000,
                    source=f"sample_logs/{DISPUTES}/{name}.mjson")


def _deal(sc: Scenario, seat1: str = PINFU) -> Scenario:
    dealer, seat2, seat3 = OTHERS
    return sc.start([dealer, seat1, seat2, seat3], dora="9s")


AVOID = ("2p", "5p", "8p")
"""Seat 1's waits: nobody else draws or discards them unless the story says so."""


def riichi_three_tiles_left() -> Game:
    """Seat 2 declares riichi after the 67th draw, with three tiles left (EMA 3.3.12: four)."""
    sc = _scenario("riichi-three-tiles-left")
    dealer, seat1, seat3 = OTHERS
    sc.start([dealer, seat1, "234m456p234s78s11z", seat3], dora="9s")
    waits = ("6s", "9s")
    sc.go_around(0, 66, avoid=waits)
    sc.draw(2, avoid=waits).riichi(2)
    sc.go_around(3, 3, avoid=waits)
    return sc.ryukyoku(deltas=(-1000, -1000, 3000, -1000),
                       tenpai=(False, False, True, False)).end_kyoku().game()


def furiten_discard() -> Game:
    """Seat 1 drew and threw away 8p, one of its waits, then wins by ron on 5p."""
    sc = _deal(_scenario("furiten-discard"))
    sc.turn(0, avoid=AVOID)
    sc.turn(1, "8p", "8p")
    sc.go_around(2, 2, avoid=AVOID)
    sc.turn(0, "5p", "5p")
    return sc.ron(1, (-2000, 2000, 0, 0)).end_kyoku().game()


def furiten_temporary() -> Game:
    """Seat 1 lets seat 2's 8p pass, then wins on seat 3's 5p before drawing again."""
    sc = _deal(_scenario("furiten-temporary"))
    sc.go_around(0, 2, avoid=AVOID)
    sc.turn(2, "8p", "8p")
    sc.turn(3, "5p", "5p")
    return sc.ron(1, (0, 2000, 0, -2000)).end_kyoku().game()


def furiten_riichi() -> Game:
    """Seat 1 in riichi lets the dealer's 8p pass, then later wins by ron on 5p."""
    sc = _deal(_scenario("furiten-riichi"))
    sc.go_around(0, 5, avoid=AVOID)  # riichi on the second turn: not a double riichi
    sc.draw(1, avoid=AVOID).riichi(1)
    sc.go_around(2, 2, avoid=AVOID)
    sc.turn(0, "8p", "8p")
    sc.go_around(1, 1, avoid=AVOID)
    sc.turn(2, "5p", "5p")
    # riichi, pinfu, tanyao: 3 han 30 fu, 3,900, plus the riichi stick on the table
    return sc.ron(1, (0, 4900, -3900, 0), ura_markers=(Tile.M9,)).end_kyoku().game()


def late_claim() -> Game:
    """Seat 2 calls pon on the dealer's 1z after seat 1 has drawn and discarded."""
    sc = _scenario("late-claim")
    dealer, seat2, seat3 = OTHERS[0], "158m239p289s1136z", OTHERS[2]
    sc.start([dealer, PINFU, seat2, seat3], dora="9s")
    sc.turn(0, "9s", "1z")
    sc.turn(1, avoid=AVOID)
    sc.pon(2, "11z", target=0, tile="1z").discard(2, "9p")
    sc.go_around(3, 2, avoid=AVOID)
    sc.draw(1, "8p")
    # menzen tsumo, pinfu, tanyao: 3 han 20 fu, 700 / 1,300
    return sc.tsumo(1, (-1300, 2700, -700, -700)).end_kyoku().game()


def fifth_kan() -> Game:
    """Four open kans by four players, then the dealer declares a fifth (a concealed one)."""
    sc = _scenario("fifth-kan")
    sc.start(["1444m555666789s", "1112m99p1234567z", "2223m11p1234567z",
              "3334m22p1234567z"], dora="9m")
    sc.turn(0, "9p", "1m")
    markers = iter(("1p", "2p", "3p", "4p", "5p"))
    for seat, rinshan, nxt in ((1, "8p", "2m"), (2, "7p", "3m"), (3, "6p", "4m"),
                               (0, "9s", "7s")):
        sc.daiminkan(seat).dora(next(markers)).draw(seat, rinshan).discard(seat, nxt)
    sc.go_around(1, 3)
    sc.draw(0, "6s").ankan(0, "6666s").dora(next(markers)).draw(0).discard(0)
    sc.go_around(1, 60)  # 70 live tiles: 10 drawn so far, counting replacements
    return sc.ryukyoku(tenpai=NOTEN).end_kyoku().game()


SAMPLES: dict[str, tuple[Callable[[], Game], str]] = {
    "riichi-three-tiles-left": (riichi_three_tiles_left, "riichi.wall"),
    "furiten-discard": (furiten_discard, "furiten.discard"),
    "furiten-temporary": (furiten_temporary, "furiten.temporary"),
    "furiten-riichi": (furiten_riichi, "furiten.riichi"),
    "late-claim": (late_claim, "claim.late"),
    "fifth-kan": (fifth_kan, "kan.fifth"),
}
"""File stem: (builder, the rule id the log is about)."""


@dataclass(frozen=True, slots=True)
class GameSample:
    seed: int
    rules: str
    writer: str
    """A key of :data:`WRITERS`."""
    shows: str
    """What the game holds, as the README says it."""
    expect: tuple[tuple[str, int], ...]
    """The same as :func:`features` counts it (a test keeps the two in step)."""

    def build(self) -> Game:
        return simulate(self.seed, self.rules)

    def write(self) -> str:
        return WRITERS[self.writer](self.build())


GAMES: dict[str, GameSample] = {
    "tenhou-112.mjson": GameSample(
        112, "tenhou", "mjai", "12 hands: riichi, pon and chi, six kans of all three kinds, "
        "a double ron, two exhaustive draws and a nine-terminals abortive draw",
        (("hands", 12), ("ankan", 2), ("kakan", 2), ("daiminkan", 2), ("multi_ron", 1),
         ("exhaustive", 2), ("kyuushu_kyuuhai", 1))),
    "tenhou-12.json": GameSample(
        12, "tenhou", "tenhou6", "14 hands: riichi, pon and chi, added kans, two double "
        "rons, an exhaustive draw, and a West round, since nobody had 30,000 after South 4",
        (("hands", 14), ("kakan", 2), ("multi_ron", 2), ("exhaustive", 1), ("west", 1))),
    "ema-23.mjson": GameSample(
        23, "ema", "mjai", "12 hands under the EMA rules (no red fives, 30,000 points): "
        "riichi, pon and chi, five kans of all three kinds, a double ron, two exhaustive "
        "draws",
        (("hands", 12), ("ankan", 2), ("kakan", 2), ("daiminkan", 1), ("multi_ron", 1),
         ("exhaustive", 2))),
    "tenhou-sanma-32.json": GameSample(
        32, "tenhou-sanma", "tenhou6", "7 hands at three players under Tenhou's rules "
        "(tsumo loss): riichi, pon, 18 kita, kans of all three kinds, an exhaustive draw "
        "and a nine-terminals abortive draw",
        (("hands", 7), ("nukidora", 18), ("ankan", 1), ("kakan", 2), ("daiminkan", 1),
         ("exhaustive", 1), ("kyuushu_kyuuhai", 1))),
    "majsoul-sanma-25.mjson": GameSample(
        25, "majsoul-sanma", "mjai", "10 hands at three players under Mahjong Soul's rules "
        "(uma 15/0/-15, no oka): riichi, pon, 25 kita, open and added kans, tsumo wins, "
        "four exhaustive draws",
        (("hands", 10), ("nukidora", 25), ("daiminkan", 2), ("kakan", 4), ("tsumo", 2),
         ("exhaustive", 4))),
}
"""File name in ``games/``: the seed, rule set and writer of a simulated game."""


def features(game: Game) -> dict[str, int]:
    """Counts of what a game shows: hands, riichi, each kind of call, kita, wins, draws, a
    West round."""
    s = summary(game)
    out = {"hands": s.hands, "riichi": s.riichi, "tsumo": s.tsumo, "ron": s.ron,
           "multi_ron": s.multi_ron, **s.draws}
    for ev in game.events:
        if isinstance(ev, Chi | Pon | Daiminkan | Kakan | Ankan | Nukidora):
            key = type(ev).__name__.lower()
            out[key] = out.get(key, 0) + 1
    out["west"] = int(any(isinstance(e, StartKyoku) and e.bakaze is Tile.WEST
                          for e in game.events))
    return out


def render() -> dict[str, str]:
    """Every sample as text, by path below :data:`FOLDER`."""
    files = {f"{DISPUTES}/{name}.mjson": WRITERS["mjai"](build())
             for name, (build, _) in SAMPLES.items()}
    files.update({f"{GAMES_DIR}/{name}": sample.write() for name, sample in GAMES.items()})
    return files


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m kansa.sim.samples",
        description="Write the dispute logs and the simulated games in sample_logs/.")
    parser.add_argument("--check", action="store_true",
                        help="exit 1 when the files differ from what the builders give")
    parser.add_argument("--folder", type=Path, default=FOLDER,
                        help="the samples' root (default: sample_logs/)")
    args = parser.parse_args(argv)
    files = render()
    stale = [n for n, text in files.items()
             if not (args.folder / n).is_file()
             or (args.folder / n).read_text(encoding="utf-8") != text]
    if args.check:
        for n in stale:
            print(f"{args.folder / n}: out of date; run python -m kansa.sim.samples",
                  file=sys.stderr)
        return 1 if stale else 0
    for n in stale:
        path = args.folder / n
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(files[n], encoding="utf-8")
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
