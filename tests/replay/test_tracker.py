"""The tracker's fast waits agree with kansa.replay.hand.waits_mask."""

from __future__ import annotations

import random

from kansa.replay import hand
from kansa.replay.tracker import waits_mask

YAOCHU = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)


def _hand(rng: random.Random) -> list[int] | None:
    """A random 3n+1 hand: near-complete standard, seven-pairs and thirteen-orphans
    shapes (one tile taken out, sometimes one swapped), and scattered tiles."""
    c = [0] * 34
    f = rng.random()
    if f < 0.1:
        for k in YAOCHU:
            c[k] += 1
        c[rng.choice(YAOCHU)] += 1
    elif f < 0.25:
        for k in rng.sample(range(34), 7):
            c[k] += 2
    elif f < 0.7:
        for _ in range(4 - rng.choice([0, 0, 1, 2, 3, 4])):
            if rng.random() < 0.5:
                c[rng.randrange(34)] += 3
            else:
                suit, low = rng.randrange(3), rng.randrange(7)
                for j in range(3):
                    c[9 * suit + low + j] += 1
        c[rng.randrange(34)] += 2
    else:
        wall = [k for k in range(34) for _ in range(4)]
        for k in rng.sample(wall, rng.choice([2, 5, 8, 11, 14])):
            c[k] += 1
    if max(c) > 4:
        return None
    c[rng.choice([k for k in range(34) for _ in range(c[k])])] -= 1
    if rng.random() < 0.3:
        c[rng.choice([k for k in range(34) for _ in range(c[k])])] -= 1
        k = rng.randrange(34)
        c[k if c[k] < 4 else c.index(max(c))] += 1
    return c if max(c) <= 4 else None


def test_fast_waits_equal_hand_waits() -> None:
    rng = random.Random(7)
    tenpai = checked = 0
    while checked < 30000:
        c = _hand(rng)
        if c is None:
            continue
        checked += 1
        expected = hand.waits_mask(c)
        assert waits_mask(c, sum(c), c.count(2)) == expected, c
        tenpai += expected != 0
    assert tenpai > 10000  # the sample is mostly waiting hands, not only noise
