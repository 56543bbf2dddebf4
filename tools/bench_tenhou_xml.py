"""Parse-only throughput of the Tenhou XML parser over the corpus, on one core.

Usage: ``python tools/bench_tenhou_xml.py [CORPUS_DIR]`` (default ``$KANSA_CORPUS``
or ``../shared/corpus``).  Files are read and gunzipped first; only ``parse`` is
timed, best of several passes, in CPU time (robust on a shared machine).
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from parsers.source import read_log_bytes
from parsers.tenhou_xml import parse


def main() -> None:
    default = os.environ.get("KANSA_CORPUS") or Path(__file__).resolve().parents[2] / (
        "shared/corpus")
    corpus = Path(sys.argv[1] if len(sys.argv) > 1 else default) / "tenhou_xml"
    blobs = [(read_log_bytes(p), str(p)) for p in sorted(corpus.rglob("*")) if p.is_file()]
    events = sum(len(parse(data, name).events) for data, name in blobs)
    best = float("inf")
    for _ in range(7):
        start = time.process_time()
        for data, name in blobs:
            parse(data, name)
        best = min(best, time.process_time() - start)
    print(f"{len(blobs)} games, {events} events: {len(blobs) / best:.0f} games/s, "
          f"{events / best / 1e6:.2f} M events/s ({best * 1e3:.0f} ms per pass)")


if __name__ == "__main__":
    main()
