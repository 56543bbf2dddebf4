"""kansa's benchmark: games per second on one core, printed, never asserted.

Usage::

    python bench/bench.py [--corpus DIR] [--repeat N] [--formats tenhou_xml,tenhou6,...]
                          [--limit N] [--generated N] [--cpu C]
                          [--peers [--peer-python /tmp/peers/bin/python]]

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

``--peers`` runs the peers installed in another virtual environment (jansou,
riichienv, the mjai package's libriichi state tracker) on the same games as the
``tenhou_xml`` folder and the generated games, taking turns with kansa's passes,
and prints their figures and the ratios (see ``bench/peers.py``).
"""

from __future__ import annotations

import argparse
import functools
import importlib
import os
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import peers  # the sibling bench/peers.py

from kansa.parsers import mjai, parse_bytes, sniff
from kansa.parsers.source import read_log_bytes
from kansa.replay.collector import collector_paused
from kansa.replay.engine import replay
from kansa.replay.game import Game
from kansa.replay.scoring import clear_cache
from kansa.runner import rules_for

FORMAT_DIRS = {"tenhou_xml": "tenhou_xml", "tenhou6": "tenhou6", "mjai": "mjai",
               "majiang": "majiang"}
PEER_FORMATS = ("tenhou_xml",)
"""The corpus folders the peers are run on (the issue's comparison is on Tenhou XML)."""


def default_corpus() -> Path:
    env = os.environ.get("KANSA_CORPUS")
    return Path(env) if env else Path(__file__).resolve().parents[2] / "shared" / "corpus"


def load_blobs(folder: Path) -> list[tuple[bytes, str]]:
    blobs = []
    for path in sorted(folder.rglob("*")):
        if not path.is_file():
            continue
        data = read_log_bytes(path)
        if data.startswith(b"PK") or sniff(data) is None:
            continue  # archives and unknown content are not timed here
        try:
            games = parse_bytes(data, str(path))
        except Exception:
            continue
        if all(g.hints.players == 4 for g in games):
            blobs.append((data, str(path)))
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


def bench_format(name: str, blobs: list[tuple[bytes, str]], repeat: int,
                 cpu: int | None = None) -> None:
    run = kansa_pass(blobs)
    warm_up(blobs)
    with peers.pinned(cpu):
        for mode, label in peers.KANSA_MODES.items():
            seconds, games = best_of(repeat, functools.partial(run, mode))
            print(f"{name:11s} {label:49s} {games:5d} games  {games / seconds:8.1f} games/s  "
                  f"({seconds * 1e3:.0f} ms per pass)")


def bench_with_peers(work: peers.Workload, args: argparse.Namespace) -> None:
    if len(work.games) != len(work.blobs):
        print(f"{work.label:11s} peers skipped: the peers are given one game per file")
        bench_format(work.label, work.blobs, args.repeat, args.cpu)
        return
    run = kansa_pass(work.blobs)
    warm_up(work.blobs)
    peers.compare(work, lambda mode: timed(lambda: run(mode)), python=args.peer_python,
                  repeat=args.repeat, cpu=args.cpu)


def generated(n: int) -> peers.Workload | None:
    """``n`` games from kansa's simulator as mjai bytes, or ``None`` without a simulator."""
    try:
        simulate = importlib.import_module("kansa.sim.table")  # written on another branch
    except ImportError:
        return None
    games: list[Game] = [simulate.simulate(seed) for seed in range(n)]
    blobs = [(mjai.write(g).encode(), f"sim-seed-{seed}") for seed, g in enumerate(games)]
    parsed = [g for d, s in blobs for g in parse_bytes(d, s)]
    return peers.Workload("generated", blobs, parsed, "mjai")


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--corpus", type=Path, default=default_corpus())
    ap.add_argument("--repeat", type=int, default=5,
                    help="passes per mode (rounds taken in turn with the peers, with --peers)")
    ap.add_argument("--formats", default=",".join(FORMAT_DIRS))
    ap.add_argument("--limit", type=int, default=0, help="time only the first N files per format")
    ap.add_argument("--generated", type=int, default=0, metavar="N",
                    help="also time N games from kansa's simulator")
    ap.add_argument("--cpu", type=int, default=peers.default_cpu(),
                    help="the CPU to pin the timed work to (default: the first allowed)")
    ap.add_argument("--peers", action="store_true",
                    help="also run the peers installed for --peer-python and print ratios")
    ap.add_argument("--peer-python", default=peers.DEFAULT_PYTHON)
    args = ap.parse_args(argv)
    where = f"CPU {args.cpu}" if args.cpu is not None else "one core"
    print(f"python {sys.version.split()[0]}, {where}, CPU time, best of {args.repeat}; "
          f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
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
        if args.peers and name in PEER_FORMATS:
            games = [g for d, s in blobs for g in parse_bytes(d, s)]
            bench_with_peers(peers.Workload(name, blobs, games, "xml"), args)
        else:
            bench_format(name, blobs, args.repeat, args.cpu)
    if args.generated:
        work = generated(args.generated)
        if work is None:
            print("generated   skipped: this branch has no sim/table.py yet")
        elif args.peers:
            bench_with_peers(work, args)
        else:
            bench_format(work.label, work.blobs, args.repeat, args.cpu)
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())} at the end")


if __name__ == "__main__":
    main()
