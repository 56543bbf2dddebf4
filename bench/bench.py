"""kansa's benchmark: games per second on one core, printed, never asserted.

Usage::

    python bench/bench.py [--corpus DIR] [--repeat N] [--formats tenhou_xml,tenhou6,...]

For each format folder of the corpus it times, in CPU time and best of
``--repeat`` passes over the files already read into memory:

* ``parse``: bytes to events;
* ``parse+replay``: the same plus the replay engine with every check on.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from kansa.runner import rules_for
from parsers import parse_bytes, sniff
from parsers.source import read_log_bytes
from replay.engine import replay

FORMAT_DIRS = {"tenhou_xml": "tenhou_xml", "tenhou6": "tenhou6", "mjai": "mjai",
               "majiang": "majiang"}


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


def best_of(repeat: int, fn: Callable[[], int]) -> tuple[float, int]:
    best, n = float("inf"), 0
    for _ in range(repeat):
        start = time.process_time()
        n = fn()
        best = min(best, time.process_time() - start)
    return best, n


def bench_format(name: str, blobs: list[tuple[bytes, str]], repeat: int) -> None:
    def parse_only() -> int:
        return sum(len(parse_bytes(d, s)) for d, s in blobs)

    def parse_replay() -> int:
        n = 0
        for d, s in blobs:
            for g in parse_bytes(d, s):
                replay(g, rules_for(g, "auto"))
                n += 1
        return n

    for label, fn in (("parse", parse_only), ("parse+replay", parse_replay)):
        seconds, games = best_of(repeat, fn)
        print(f"{name:11s} {label:13s} {games:5d} games  {games / seconds:8.1f} games/s  "
              f"({seconds * 1e3:.0f} ms per pass)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--corpus", type=Path, default=default_corpus())
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--formats", default=",".join(FORMAT_DIRS))
    args = ap.parse_args()
    print(f"python {sys.version.split()[0]}, one core, CPU time, best of {args.repeat}")
    for name in args.formats.split(","):
        folder = args.corpus / FORMAT_DIRS[name]
        if not folder.is_dir():
            continue
        blobs = load_blobs(folder)
        if blobs:
            bench_format(name, blobs, args.repeat)


if __name__ == "__main__":
    main()
