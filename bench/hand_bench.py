"""Throughput of kansa.replay.hand against the ``mahjong`` package on the same hands.

Run from the repository root::

    python -m bench.hand_bench [--hands 50000] [--seed 1]

The hands are seeded: half 13/14 tiles drawn from a 136-tile wall, half built
from random sets and a pair with one tile removed (tenpai or close, so waits are
not trivial).  "cold" is the first pass over the hands, filling the tables;
"warm" is the same hands again.  Rates are per second of CPU time.  The
library's waits are 34 shanten calls per hand, so they are timed on a slice.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable, Sequence

from mahjong.shanten import Shanten

from kansa.replay import hand_tables
from kansa.replay.hand import is_tenpai, shanten, waits

WALL = [k // 4 for k in range(136)]
SETS = [(k, False) for k in range(34)] + [(k, True) for k in range(27) if k % 9 <= 6]


def make_hands(n: int, seed: int) -> list[list[int]]:
    rng = random.Random(seed)
    hands: list[list[int]] = []
    while len(hands) < n:
        c = [0] * 34
        if len(hands) % 2:
            for k in rng.sample(WALL, rng.choice((13, 14))):
                c[k] += 1
        else:
            for _ in range(4):
                k, seq = rng.choice(SETS)
                for j in (0, 1, 2):
                    c[k + j if seq else k] += 1
            c[rng.randrange(34)] += 2
            if max(c) > 4:
                continue
            c[rng.choice([k for k in range(34) if c[k]])] -= 1
        hands.append(c)
    return hands


def library_waits(c: list[int]) -> tuple[int, ...]:
    found = []
    for k in range(34):
        if c[k] < 4:
            c[k] += 1
            if Shanten.calculate_shanten(c) == -1:
                found.append(k)
            c[k] -= 1
    return tuple(found)


def rate(fn: Callable[[list[int]], object], hands: Sequence[list[int]]) -> float:
    """Hands per second of this process's CPU time (robust on a shared machine)."""
    start = time.process_time()
    for c in hands:
        fn(c)
    return len(hands) / (time.process_time() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=50_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    hands = make_hands(args.hands, args.seed)
    thirteen = [c for c in hands if sum(c) % 3 == 1]
    rows = [
        ("kansa.replay.hand.shanten (cold)", rate(shanten, hands), len(hands)),
        ("kansa.replay.hand.shanten (warm)", rate(shanten, hands), len(hands)),
        ("kansa.replay.hand.waits (cold)", rate(waits, thirteen), len(thirteen)),
        ("kansa.replay.hand.waits (warm)", rate(waits, thirteen), len(thirteen)),
        ("kansa.replay.hand.is_tenpai (warm)", rate(is_tenpai, thirteen), len(thirteen)),
        ("mahjong Shanten.calculate_shanten", rate(Shanten.calculate_shanten, hands),
         len(hands)),
        ("mahjong waits (34 shanten calls)", rate(library_waits, thirteen[:2_000]),
         min(2_000, len(thirteen))),
    ]
    print(f"seed {args.seed}, {len(hands)} hands ({len(thirteen)} of 3n+1 tiles)")
    for name, per_second, n in rows:
        print(f"{name:36} {per_second:>11,.0f} hands/s {1e6 / per_second:8.1f} µs  (n={n})")
    print("tables:", hand_tables.cache_sizes())


if __name__ == "__main__":
    main()
