"""Write simulated games to a folder, for benchmarks and for comparing with other tools.

Usage::

    python bench/generate.py --games 200 --to mjai --out /tmp/gen
        [--rules tenhou|tenhou-sanma|ema|...] [--seed 0] [-j N] [--verify]

Game ``i`` is ``kansa.sim.table.simulate(seed + i, rules)``, so a folder is
reproducible from its arguments; each is written as ``<rules>-<seed>.mjson`` (mjai)
or ``<rules>-<seed>.json`` (tenhou.net/6).  The figures printed are the
simulator's and writer's speed, never asserted.  ``--verify`` also replays every
game under its rule set and counts the findings, which should be none.

tenhou.net/6 has Tenhou's kan-dora timing built in: a game under rules that reveal
open-kan indicators at once (``ema``) cannot be written as tenhou.net/6 when it
has an open or added kan; such games are counted as skipped (exit status 1).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Sequence
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from kansa.parsers.mjai import read as mjai
from kansa.parsers.tenhou6 import format as tenhou6
from kansa.replay.engine import replay
from kansa.sim.table import rule_names, rule_set, simulate

WRITERS = {"mjai": (mjai.write, ".mjson"), "tenhou6": (tenhou6.write, ".json")}


def _one(job: tuple[int, str, str, str, bool]) -> tuple[int, str | None, int, float]:
    """Simulate, write and (optionally) replay one game: (seed, skip reason, findings,
    CPU seconds)."""
    seed, rules, to, out, verify = job
    start = time.process_time()
    game = simulate(seed, rules)
    write, ext = WRITERS[to]
    try:
        text = write(game)
    except ValueError as exc:
        return seed, str(exc), 0, time.process_time() - start
    Path(out, f"{rules}-{seed:06d}{ext}").write_text(text, encoding="utf-8")
    findings = len(replay(game, rule_set(rules)).violations) if verify else 0
    return seed, None, findings, time.process_time() - start


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python bench/generate.py",
                                     description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100, help="how many games (100)")
    parser.add_argument("--to", choices=sorted(WRITERS), default="mjai")
    parser.add_argument("--out", type=Path, required=True, help="the folder to write to")
    parser.add_argument("--rules", choices=rule_names(), default="tenhou")
    parser.add_argument("--seed", type=int, default=0, help="the first seed (0)")
    parser.add_argument("-j", "--jobs", type=int, default=1,
                        help="worker processes (0: one per CPU)")
    parser.add_argument("--verify", action="store_true",
                        help="replay every game and count the findings")
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be at least 1")
    args.out.mkdir(parents=True, exist_ok=True)
    jobs = [(args.seed + i, args.rules, args.to, str(args.out), args.verify)
            for i in range(args.games)]
    workers = args.jobs or os.cpu_count() or 1
    wall = time.perf_counter()
    if workers == 1:
        results = [_one(j) for j in jobs]
    else:
        with Pool(workers) as pool:
            results = pool.map(_one, jobs, chunksize=4)
    wall = time.perf_counter() - wall
    skipped = [(seed, why) for seed, why, _, _ in results if why is not None]
    cpu = sum(r[3] for r in results)
    written = len(results) - len(skipped)
    print(f"{written} games written to {args.out} as {args.to} ({args.rules} rules, seeds "
          f"{args.seed}-{args.seed + args.games - 1})")
    print(f"  {len(results) / cpu:.1f} games/s per core (simulate + write"
          f"{' + replay' if args.verify else ''}), {wall:.1f} s wall with {workers} "
          f"worker{'s' if workers > 1 else ''}")
    if args.verify:
        print(f"  {sum(r[2] for r in results)} findings when replayed")
    for seed, why in skipped[:5]:
        print(f"  skipped seed {seed}: {why}", file=sys.stderr)
    if skipped:
        print(f"  {len(skipped)} games skipped", file=sys.stderr)
    return 1 if skipped else 0


if __name__ == "__main__":
    sys.exit(main())
