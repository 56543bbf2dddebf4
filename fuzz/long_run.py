"""The long fuzz run: 100,000+ seeded cases over every format kansa reads.

    python -m fuzz.long_run --cases 100000 --seed 1 --corpus ../shared/corpus

Each case is one of: a corpus log mutated (per format), the same inside gzip,
a zip of mutated members, a corpus archive with damaged bytes, random bytes,
or a corpus game's event stream mutated for the replay engine.  A case fails
when anything but a result or a ``LogFormatError`` with a position comes out,
when the replay breaks the desync contract, or when it takes longer than
``--bound`` seconds.  Failing inputs are written to ``--out``, each with the command
that runs that case alone again (``--case N``); the run prints
the cases, the time, the failures and the most frequent error messages, and
exits 1 if anything failed.
"""

from __future__ import annotations

import argparse
import dataclasses
import gzip
import io
import random
import re
import resource
import sys
import time
import traceback
import zipfile
from collections import Counter
from collections.abc import Callable
from pathlib import Path

from fuzz.events import mutate_events
from fuzz.harness import Failure, audit_case, corpus_files, parse_case, replay_checked
from fuzz.mutate import flip_bytes, mutate, splice, truncate
from kansa.parsers import load
from kansa.replay.game import Game

Case = Callable[[random.Random], tuple[str, bytes | None]]


class Cases:
    """Case generators over one corpus."""

    def __init__(self, corpus: Path) -> None:
        found = corpus_files(corpus)
        self.logs: dict[str, list[bytes]] = {
            fmt: [p.read_bytes() for p in paths]
            for fmt, paths in found.items() if fmt not in ("zip", "gzip")}
        self.archives = [p.read_bytes() for p in found.get("zip", [])]
        self.games: list[Game] = []
        for paths in found.values():
            for p in paths:
                try:
                    self.games += [g for g in load(p) if g.hints.players == 4]
                except ValueError:
                    continue
        self.formats = sorted(self.logs)

    def table(self) -> list[tuple[str, int, Case]]:
        """(name, weight, generator) for every kind of case."""
        rows: list[tuple[str, int, Case]] = [
            (f"mutated {fmt}", 10, self._mutated(fmt)) for fmt in self.formats]
        rows += [("gzip of mutated", 3, self._gzip), ("zip of mutated", 2, self._zip),
                 ("random bytes", 3, self._random)]
        if self.archives:
            rows.append(("damaged archive", 1, self._archive))
        if self.games:
            rows.append(("mutated events", 12, self._events))
        return rows

    def _mutated(self, fmt: str) -> Case:
        def case(rng: random.Random) -> tuple[str, bytes | None]:
            data, how = mutate(rng.choice(self.logs[fmt]), fmt, rng)
            return how, data
        return case

    def _any_mutated(self, rng: random.Random) -> bytes:
        fmt = rng.choice(self.formats)
        return mutate(rng.choice(self.logs[fmt]), fmt, rng)[0]

    def _gzip(self, rng: random.Random) -> tuple[str, bytes | None]:
        data = b"".join(gzip.compress(self._any_mutated(rng) if k == 0 else b"", mtime=0)
                        for k in range(rng.choice((1, 1, 1, 2, 50))))
        if rng.random() < 0.5:
            data = rng.choice((truncate, flip_bytes, splice))(data, rng)
        return "gzip", data

    def _zip(self, rng: random.Random) -> tuple[str, bytes | None]:
        buf = io.BytesIO()
        with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
            for k in range(rng.randint(1, 4)):
                zf.writestr(f"m{k}.log", self._any_mutated(rng))
        data = buf.getvalue()
        if rng.random() < 0.3:
            data = flip_bytes(data, rng)
        return "zip", data

    def _archive(self, rng: random.Random) -> tuple[str, bytes | None]:
        data = rng.choice(self.archives)
        return "archive", rng.choice((truncate, flip_bytes, splice))(data, rng)

    def _random(self, rng: random.Random) -> tuple[str, bytes | None]:
        n = rng.choice((0, 1, 8, 100, 4000))
        prefix = rng.choice((b"", b"<mjloggm ver=\"2.3\">", b'{"log":[[[0', b'{"type":',
                             b"PK\x03\x04", b"\x1f\x8b", b"\xef\xbb\xbf", b"[", b"{"))
        return "random", prefix + rng.randbytes(n)

    def _events(self, rng: random.Random) -> tuple[str, bytes | None]:
        game = rng.choice(self.games)
        events = mutate_events(game.events, rng, rng.choice((None, None, 8, 30)))
        replay_checked(dataclasses.replace(game, events=tuple(events)))
        return "events", None


def _norm(message: str) -> str:
    """A message with its particulars blanked, to group errors by kind."""
    text = re.sub(r"'[^']*'|\"[^\"]*\"", "'…'", message)
    text = re.sub(r"\d+", "N", text)
    return text[:90]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cases", type=int, default=100_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--corpus", type=Path, default=Path(__file__).parents[2] / "shared" / "corpus")
    ap.add_argument("--bound", type=float, default=10.0, help="seconds allowed per case")
    ap.add_argument("--out", type=Path, default=Path("fuzz-failures"))
    ap.add_argument("--case", type=int, default=0,
                    help="run only case N of the seeded sequence, to reproduce a failure")
    ap.add_argument("--audit-every", type=int, default=10,
                    help="also run every Nth byte case through the runner (0: never)")
    args = ap.parse_args(argv)

    cases = Cases(args.corpus)
    table = cases.table()
    names = [name for name, _, _ in table]
    weights = [w for _, w, _ in table]
    rng = random.Random(args.seed)
    per_kind: Counter[str] = Counter()
    outcomes: Counter[str] = Counter()
    messages: Counter[str] = Counter()
    failures: Counter[str] = Counter()
    slowest = (0.0, "")
    start = time.perf_counter()
    print(f"corpus: {', '.join(f'{f} {len(v)}' for f, v in sorted(cases.logs.items()))}, "
          f"{len(cases.archives)} archives, {len(cases.games)} games; seed {args.seed}",
          flush=True)
    for n in range(1, args.cases + 1):
        k = rng.choices(range(len(table)), weights)[0]
        name = names[k]
        per_kind[name] += 1
        case_rng = random.Random(rng.getrandbits(64))
        if args.case and n != args.case:
            continue
        data: bytes | None = None
        how = ""
        t0 = time.perf_counter()
        try:
            how, data = table[k][2](case_rng)
            if data is not None:
                outcome = parse_case(data, "fuzz.log", bound=args.bound)
                outcomes[outcome.kind] += 1
                if outcome.kind != "games":
                    messages[_norm(outcome.detail)] += 1
                if args.audit_every and n % args.audit_every == 0:
                    audit_case(data)
            else:
                outcomes["events replayed"] += 1
        except Exception as exc:  # a Failure, or a bug of the fuzzer itself
            f = exc if isinstance(exc, Failure) else Failure(
                "the fuzzer raised", data or b"", "".join(traceback.format_exception(exc)))
            key = f"{name}: {f.what}: {f.detail.strip().splitlines()[-1][:160]}"
            failures[key] += 1
            if failures[key] == 1:
                args.out.mkdir(parents=True, exist_ok=True)
                (args.out / f"case-{n}.bin").write_bytes(f.data or data or b"")
                (args.out / f"case-{n}.txt").write_text(
                    f"{key}\nmutations: {how}\nreproduce: python -m fuzz.long_run "
                    f"--seed {args.seed} --cases {n} --case {n}\n\n{f.detail}\n")
                print(f"FAIL case {n}: {key}", flush=True)
        spent = time.perf_counter() - t0
        if spent > slowest[0]:
            slowest = (spent, name)
        if n % 10_000 == 0:
            print(f"  {n} cases, {time.perf_counter() - start:.0f} s, "
                  f"{sum(failures.values())} failures", flush=True)
    seconds = time.perf_counter() - start
    print(f"\ncases: {args.cases}  time: {seconds:.1f} s  failures: {sum(failures.values())}  "
          f"slowest case: {slowest[0]:.2f} s ({slowest[1]})  "
          f"peak memory: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024} MiB")
    print("by kind:", ", ".join(f"{k} {v}" for k, v in sorted(per_kind.items())))
    print("outcomes:", ", ".join(f"{k} {v}" for k, v in sorted(outcomes.items())))
    print("most frequent LogFormatError messages:")
    for msg, count in messages.most_common(25):
        print(f"  {count:7d}  {msg}")
    print(f"  ({len(messages)} distinct messages)")
    for key, count in failures.most_common():
        print(f"FAILURE x{count}: {key}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
