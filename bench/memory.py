"""Peak memory of ``kansa audit`` over the corpus once and copied ten times.

Usage::

    python bench/memory.py [--corpus DIR] [--copies 10] [--jobs 1] [--json]
    python bench/memory.py --paths 300000

Each run is a fresh ``python -m kansa audit`` process (its JSON document sent to
/dev/null with ``--json``), whose peak resident set size is read with
``getrusage(RUSAGE_CHILDREN)`` after it exits.  Streaming batches keep it flat:
the 10x run should stay within 20% of the 1x run.

``--paths N`` instead makes N empty files in 100 folders and prints the peak RSS
of finding them: kept in a list (``discover``) and streamed (``iter_files``, what
``kansa audit`` does), each in a fresh process.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def default_corpus() -> Path:
    env = os.environ.get("KANSA_CORPUS")
    return Path(env) if env else ROOT.parent / "shared" / "corpus"


def peak_rss_mb(args: list[str]) -> tuple[float, float]:
    """Run ``python -m kansa ARGS`` in a child and return (peak RSS in MB, seconds)."""
    script = (
        "import resource, subprocess, sys\n"
        "subprocess.run([sys.executable, '-m', 'kansa', *sys.argv[1:]], "
        "stdout=subprocess.DEVNULL, check=False)\n"
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n")
    start = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", script, *args], capture_output=True,
                         text=True, check=True, cwd=ROOT,
                         env={**os.environ, "PYTHONPATH": str(ROOT)})
    seconds = time.perf_counter() - start
    return int(out.stdout.strip().splitlines()[-1]) / 1024, seconds


def discovery_rss_mb(how: str, folder: Path) -> float:
    """Peak RSS of a fresh process that finds the files under ``folder``."""
    count = ("len(discover(sys.argv[1:])[0])" if how == "list"
             else "sum(1 for _ in iter_files(sys.argv[1:]))")
    script = (
        "import resource, sys\n"
        "from kansa.discovery import discover, iter_files\n"
        f"n = {count}\n"
        "print(n, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)\n")
    out = subprocess.run([sys.executable, "-c", script, str(folder)], capture_output=True,
                         text=True, check=True, cwd=ROOT,
                         env={**os.environ, "PYTHONPATH": str(ROOT)})
    return int(out.stdout.split()[1]) / 1024


def paths_main(n: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        for k in range(n):
            folder = Path(tmp) / f"{k % 100:03d}"
            folder.mkdir(exist_ok=True)
            (folder / f"2019010100gm-00a9-0000-{k:08x}.mjlog").touch()
        kept, streamed = discovery_rss_mb("list", Path(tmp)), discovery_rss_mb("iter", Path(tmp))
    print(f"finding {n:,} files in 100 folders: peak RSS {kept:.1f} MB kept in a list, "
          f"{streamed:.1f} MB streamed")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--corpus", type=Path, default=default_corpus())
    ap.add_argument("--copies", type=int, default=10)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--json", action="store_true", help="also write the JSON document")
    ap.add_argument("--paths", type=int, help="measure finding this many files instead")
    args = ap.parse_args()
    if args.paths:
        paths_main(args.paths)
        return
    with tempfile.TemporaryDirectory() as tmp:
        big = Path(tmp) / "corpus"
        big.mkdir()
        for k in range(args.copies):
            (big / f"copy{k:02d}").symlink_to(args.corpus.resolve(), target_is_directory=True)
        extra = ["--json", "--no-timing"] if args.json else []
        base = ["audit", "-j", str(args.jobs), "--progress", "never", *extra]
        one, t1 = peak_rss_mb([*base, str(args.corpus)])
        many, tn = peak_rss_mb([*base, str(big)])
    print(f"kansa audit, {args.jobs} job(s){', --json' if args.json else ''}")
    print(f"  1x corpus : peak RSS {one:7.1f} MB  ({t1:.1f} s)")
    print(f"  {args.copies}x corpus: peak RSS {many:7.1f} MB  ({tn:.1f} s)")
    print(f"  ratio {many / one:.3f} (target: within 1.20)")


if __name__ == "__main__":
    main()
