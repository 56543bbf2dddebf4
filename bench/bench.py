"""kansa's benchmark: games per second on one core, printed, never asserted.

Usage::

    python bench/bench.py [--corpus DIR] [--repeat N] [--formats tenhou_xml,tenhou6,...]
                          [--limit N] [--generated N] [--same-games] [--cpu C]
                          [--peers [--peer-python /tmp/peers/bin/python]]
                          [--compiled SITE]

For each format folder of the corpus it times, pinned to one CPU, in CPU time and
best of ``--repeat`` passes over the files already read into memory:

* ``parse``: bytes to events;
* ``replay (engine only: rule checks off)``: the same plus the replay engine with
  no registered check (tiles are still tracked, wins still valued and paid, the
  engine's own tile and log findings still made);
* ``full audit (every check and score verification)``: the same with every check on,
  as ``kansa audit`` runs it.

Each pass starts with an empty scoring cache (``kansa.replay.scoring.clear_cache``): the
values cached by one pass would make the next one's full audit about 10 % faster than
a first audit of the same games, which is what a user's run is.

``--generated N`` adds N games played by kansa's simulator (``kansa.sim.table``, when
the branch has it), written as mjai by kansa's writer and timed from those bytes.

``--same-games`` adds the ``tenhou_xml`` folder's games written by kansa's writers as
tenhou.net/6 (``tenhou6<xml``) and as mjai (``mjai<xml``), timed from those bytes: the
same games in three formats, so each JSON reader is compared with the XML reader game
for game (the corpus folders of the other formats hold other games: single-hand
excerpts, an AI's annotations on every line).  The last lines give each reader's parse
speed over the XML reader's, per build: per game for the same games, and per hand for
every workload (the corpus folders' games differ in length: per hand, a reader of
other games is compared with the XML reader fairly).

``--peers`` runs the peers installed in another virtual environment (jansou,
riichienv, the mjai package's libriichi state tracker) on the same games as the
``tenhou_xml`` folder and the generated games, taking turns with kansa's passes,
and prints their figures and the ratios (see ``bench/peers.py``).

``--compiled SITE`` times a second build of kansa beside the one this script imports
(the source tree: the pure-Python build, unless extensions were built in place), in the
same rounds: ``SITE`` is a folder holding an installed compiled kansa, as made by
``pip install --no-deps --target SITE .`` (or a virtual environment's site-packages).
A second process imports kansa from there and times the same passes on request; every
mode gets a line per build and the ratio compiled / pure.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import json
import os
import subprocess
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Final

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))
if os.environ.get("KANSA_BENCH_SITE"):  # the second build's process (--compiled)
    sys.path.insert(0, os.environ["KANSA_BENCH_SITE"])

import peers  # the sibling bench/peers.py

from kansa.buildinfo import which_build
from kansa.parsers import parse_bytes, sniff
from kansa.parsers.archive import is_zip, iter_members
from kansa.parsers.mjai.write import write as write_mjai
from kansa.parsers.source import DEFAULT_LIMITS, read_log_bytes
from kansa.parsers.tenhou6.format import write as write_tenhou6
from kansa.replay.collector import collector_paused
from kansa.replay.engine import replay
from kansa.replay.events import StartKyoku
from kansa.replay.game import Game
from kansa.replay.scoring import clear_cache
from kansa.runner import rules_for

FORMAT_DIRS = {"tenhou_xml": "tenhou_xml", "tenhou6": "tenhou6", "mjai": "mjai",
               "majiang": "majiang", "majsoul": "majsoul"}
PEER_FORMATS = ("tenhou_xml",)
"""The corpus folders the peers are run on (the issue's comparison is on Tenhou XML)."""


def default_corpus() -> Path:
    env = os.environ.get("KANSA_CORPUS")
    return Path(env) if env else Path(__file__).resolve().parents[2] / "shared" / "corpus"


def load_blobs(folder: Path) -> list[tuple[bytes, str]]:
    """The 4-player logs under ``folder``, each as its bytes and name; a zip archive's
    members each on their own (``archive!member``), as kansa reads them."""
    blobs = []
    for path in sorted(folder.rglob("*")):
        if not path.is_file():
            continue
        data = read_log_bytes(path)
        logs = [(data, str(path))]
        if is_zip(data):
            logs = [(member, name) for name, member in iter_members(data, str(path),
                                                                   DEFAULT_LIMITS)
                    if isinstance(member, bytes)]
        for log, name in logs:
            if sniff(log) is None:
                continue  # unknown content is not timed here
            try:
                games = parse_bytes(log, name)
            except Exception:
                continue
            if all(g.hints.players == 4 for g in games):
                blobs.append((log, name))
    return blobs


def no_rule_checks(rule: str) -> bool:
    """The ``enabled`` filter of the engine-only mode: no registered check runs."""
    return False


def one_log(data: bytes, source: str, mode: str) -> int:
    """Parse one log and replay its games in ``mode``; the number of games.  Its games
    are freed when it returns, inside the caller's pause of the collector, as
    ``kansa.runner`` frees a log's games before the collector runs again."""
    games = parse_bytes(data, source)
    for g in games:
        if mode == "engine":
            replay(g, rules_for(g, "auto"), enabled=no_rule_checks)
        elif mode == "audit":
            replay(g, rules_for(g, "auto"))
    return len(games)


def kansa_pass(blobs: Sequence[tuple[bytes, str]]) -> Callable[[str], int]:
    """One pass of a kansa mode over ``blobs``; it returns the number of games."""
    def run(mode: str) -> int:
        clear_cache()  # every pass values each win afresh, as a first audit of the games does
        n = 0
        for d, s in blobs:
            with collector_paused():  # per log, as kansa.runner reads and replays one
                n += one_log(d, s, mode)
        return n
    return run


def timed(fn: Callable[[], int]) -> tuple[float, int]:
    start = time.process_time()
    n = fn()
    return time.process_time() - start, n


def best_of(repeat: int, fn: Callable[[], int]) -> tuple[float, int]:
    best, n = float("inf"), 0
    for _ in range(repeat):
        seconds, n = timed(fn)
        best = min(best, seconds)
    return best, n


def warm_up(blobs: Sequence[tuple[bytes, str]]) -> None:
    """Each mode once on the first file, untimed (the peers' worker does the same)."""
    run = kansa_pass(blobs[:1])
    for mode in peers.KANSA_MODES:
        run(mode)


Runs = dict[str, peers.KansaRun]
"""A pass of a mode by build (``pure``, ``compiled``)."""


def local_run(blobs: Sequence[tuple[bytes, str]]) -> peers.KansaRun:
    run = kansa_pass(blobs)
    warm_up(blobs)
    return lambda mode: timed(lambda: run(mode))


class OtherBuild:
    """The process that times the same workloads with the kansa installed in ``site``."""

    def __init__(self, site: Path, argv: Sequence[str]) -> None:
        env = {**os.environ, "KANSA_BENCH_SITE": str(site.resolve())}
        self.process = subprocess.Popen(
            [sys.executable, __file__, *argv, "--serve"], env=env, text=True,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.build = self._answer()["build"]

    def _answer(self) -> dict[str, object]:
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        if not line:
            raise SystemExit("bench: the compiled build's process ended (see its error above)")
        answer: dict[str, object] = json.loads(line)
        return answer

    def run(self, label: str) -> peers.KansaRun:
        def one(mode: str) -> tuple[float, int]:
            assert self.process.stdin is not None
            self.process.stdin.write(f"{label} {mode}\n")
            self.process.stdin.flush()
            answer = self._answer()
            return float(str(answer["seconds"])), int(str(answer["games"]))
        return one

    def close(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        self.process.wait()


def serve(works: Sequence[tuple[peers.Workload, bool]], cpu: int | None) -> None:
    """The second build's side: time the pass asked for on each line of stdin."""
    runs = {work.label: local_run(work.blobs) for work, _ in works}
    print(json.dumps({"build": which_build()}), flush=True)
    for line in sys.stdin:
        label, mode = line.split()
        with peers.pinned(cpu):
            seconds, games = runs[label](mode)
        print(json.dumps({"seconds": seconds, "games": games}), flush=True)


def bench_format(label: str, runs: Runs, repeat: int, cpu: int | None = None) -> None:
    best: dict[str, dict[str, tuple[float, int]]] = {build: {} for build in runs}
    for _ in range(repeat):  # rounds in turn, so that load hits every build alike
        for build, run in runs.items():
            for mode in peers.KANSA_MODES:
                with peers.pinned(cpu):
                    seconds, games = run(mode)
                kept = best[build].get(mode)
                if kept is None or seconds < kept[0]:
                    best[build][mode] = (seconds, games)
    peers.emit_kansa(label, best)


def bench_with_peers(work: peers.Workload, runs: Runs, args: argparse.Namespace) -> None:
    if len(work.games) != len(work.blobs):
        print(f"{work.label:11s} peers skipped: the peers are given one game per file")
        bench_format(work.label, runs, args.repeat, args.cpu)
        return
    peers.compare(work, runs, python=args.peer_python, repeat=args.repeat, cpu=args.cpu)


def generated(n: int) -> peers.Workload | None:
    """``n`` games from kansa's simulator as mjai bytes, or ``None`` without a simulator."""
    try:
        simulate = importlib.import_module("kansa.sim.table")  # written on another branch
    except ImportError:
        return None
    games: list[Game] = [simulate.simulate(seed) for seed in range(n)]
    blobs = [(write_mjai(g).encode(), f"sim-seed-{seed}") for seed, g in enumerate(games)]
    parsed = [g for d, s in blobs for g in parse_bytes(d, s)]
    return peers.Workload("generated", blobs, parsed, "mjai")


SAME_GAMES: Final = {"tenhou6<xml": write_tenhou6, "mjai<xml": write_mjai}
"""The writers of ``--same-games``, by the label of their workload."""


def same_games(xml: peers.Workload) -> list[peers.Workload]:
    """The games of ``xml`` (the ``tenhou_xml`` folder's) as written by each writer of
    :data:`SAME_GAMES`, one file per game."""
    games = [g for d, s in xml.blobs for g in parse_bytes(d, s)]
    return [peers.Workload(label, [(write(g).encode(), f"{g.source}:{label}") for g in games],
                           [], label.split("<")[0]) for label, write in SAME_GAMES.items()]


def same_game_ratios(figures: Mapping[str, Mapping[str, Mapping[str, tuple[float, int]]]]
                     ) -> list[str]:
    """Each ``--same-games`` reader's parse speed over the XML reader's, per build."""
    lines = []
    xml = figures.get("tenhou_xml", {})
    for build, modes in xml.items():
        seconds, games = modes["parse"]
        ratios = []
        for label in SAME_GAMES:
            other = figures.get(label, {}).get(build)
            if other is not None and games:
                o_seconds, o_games = other["parse"]
                ratio = (o_games / o_seconds) / (games / seconds)
                ratios.append(f"{label.split('<')[0]} {ratio:.2f}")
        if ratios:
            lines.append(f"same games, parse per game over the XML reader's ({build}): "
                         + ", ".join(ratios))
    return lines


HANDS: Final[dict[str, int]] = {}
"""The hands (kyoku) of each workload's games, by its label."""


def count_hands(work: peers.Workload) -> None:
    """Count ``work``'s hands into :data:`HANDS` (its files read once more, untimed)."""
    hands = 0
    for data, source in work.blobs:
        hands += sum(1 for g in parse_bytes(data, source) for ev in g.events
                     if type(ev) is StartKyoku)
    HANDS[work.label] = hands


def per_hand_ratios(figures: Mapping[str, Mapping[str, Mapping[str, tuple[float, int]]]]
                    ) -> list[str]:
    """Each workload's parse speed in hands a second over the XML reader's, per build."""
    lines = []
    xml_hands = HANDS.get("tenhou_xml", 0)
    for build, modes in figures.get("tenhou_xml", {}).items():
        seconds, _ = modes["parse"]
        ratios = []
        for label, other in figures.items():
            o = other.get(build)
            if label == "tenhou_xml" or o is None or not HANDS.get(label) or not xml_hands:
                continue
            o_seconds, _ = o["parse"]
            ratio = (HANDS[label] / o_seconds) / (xml_hands / seconds)
            ratios.append(f"{label} {ratio:.2f}")
        if ratios:
            lines.append(f"parse per hand over the XML reader's ({build}): " + ", ".join(ratios))
    return lines


def format_list(text: str) -> str:
    """``--formats``: a comma-separated list of the corpus folders timed."""
    unknown = [name for name in text.split(",") if name and name not in FORMAT_DIRS]
    if unknown:
        raise argparse.ArgumentTypeError(
            f"unknown format {', '.join(unknown)} (known: {', '.join(FORMAT_DIRS)})")
    return text


def workloads(args: argparse.Namespace) -> list[tuple[peers.Workload, bool]]:
    """The workloads to time, each with whether the peers run on it."""
    works = []
    for name in args.formats.split(","):
        if not name:
            continue
        folder = args.corpus / FORMAT_DIRS[name]
        if not folder.is_dir():
            continue
        blobs = load_blobs(folder)
        if args.limit:
            blobs = blobs[:args.limit]
        if not blobs:
            continue
        games = [g for d, s in blobs for g in parse_bytes(d, s)] if args.peers else []
        work = peers.Workload(name, blobs, games, "xml" if name == "tenhou_xml" else name)
        works.append((work, args.peers and name in PEER_FORMATS))
        if args.same_games and name == "tenhou_xml":
            works.extend((same, False) for same in same_games(work))
    if args.generated:
        work = generated(args.generated)
        if work is None:
            print("generated   skipped: this branch has no sim/table.py yet")
        else:
            works.append((work, args.peers))
    return works


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--corpus", type=Path, default=default_corpus())
    ap.add_argument("--repeat", type=int, default=5,
                    help="passes per mode (rounds taken in turn with the peers, with --peers)")
    ap.add_argument("--formats", type=format_list, default=",".join(FORMAT_DIRS),
                    help=f"comma-separated, of {', '.join(FORMAT_DIRS)}")
    ap.add_argument("--limit", type=int, default=0, help="time only the first N files per format")
    ap.add_argument("--generated", type=int, default=0, metavar="N",
                    help="also time N games from kansa's simulator")
    ap.add_argument("--same-games", action="store_true",
                    help="also time the tenhou_xml games written as tenhou.net/6 and mjai")
    ap.add_argument("--cpu", type=int, default=peers.default_cpu(),
                    help="the CPU to pin the timed work to (default: the first allowed)")
    ap.add_argument("--peers", action="store_true",
                    help="also run the peers installed for --peer-python and print ratios")
    ap.add_argument("--peer-python", default=peers.DEFAULT_PYTHON)
    ap.add_argument("--compiled", type=Path, metavar="SITE",
                    help="also time the kansa installed in SITE (pip install --target SITE .)")
    ap.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.serve:
        with contextlib.redirect_stdout(sys.stderr):  # stdout carries the answers only
            works = workloads(args)
        serve(works, args.cpu)
        return
    where = f"CPU {args.cpu}" if args.cpu is not None else "one core"
    print(f"python {sys.version.split()[0]}, {where}, CPU time, best of {args.repeat}; "
          f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    works = workloads(args)
    other = None
    if args.compiled is not None:
        shared = ["--corpus", str(args.corpus), "--formats", args.formats, "--limit",
                  str(args.limit), "--generated", str(args.generated)]
        if args.same_games:
            shared.append("--same-games")
        if args.cpu is not None:
            shared += ["--cpu", str(args.cpu)]
        other = OtherBuild(args.compiled, shared)
    here = which_build()
    print(f"builds: {here} (this process, kansa from {Path(peers.__file__).parents[1]})"
          + (f", {other.build} (kansa from {args.compiled})" if other else ""))
    try:
        for work, with_peers in works:
            runs: Runs = {here: local_run(work.blobs)}
            if other is not None:
                runs[other.build if other.build != here else f"{here}-2"] = \
                    other.run(work.label)
            if with_peers:
                bench_with_peers(work, runs, args)
            else:
                bench_format(work.label, runs, args.repeat, args.cpu)
    finally:
        if other is not None:
            other.close()
    for work, _ in works:
        count_hands(work)
    for line in [*same_game_ratios(peers.FIGURES), *per_hand_ratios(peers.FIGURES)]:
        print(line)
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())} at the end")


if __name__ == "__main__":
    main()
