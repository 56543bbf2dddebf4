"""``kansa audit`` in one process loads what it uses: the dispute packet (hashlib, so
OpenSSL), the mjai stream watcher and the process pool (multiprocessing, sockets) are
imported by the commands and the job counts that need them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HEAVY = ("hashlib", "multiprocessing", "concurrent.futures.process", "kansa.packet",
         "kansa.explain", "kansa.watch", "kansa.reports.packet")
CODE = f"""
import contextlib, io, json, sys
from kansa.cli import main
with contextlib.redirect_stdout(io.StringIO()):
    status = main(sys.argv[1:])
loaded = sorted(m for m in {HEAVY!r} if m in sys.modules)
print(json.dumps({{"status": status, "loaded": loaded}}))
"""


def _loaded(*args: str) -> dict[str, object]:
    done = subprocess.run([sys.executable, "-c", CODE, *args], cwd=ROOT, capture_output=True,
                          text=True, check=True, timeout=300)
    answer: dict[str, object] = json.loads(done.stdout.splitlines()[-1])
    return answer


def test_a_one_process_audit_loads_no_packet_watch_or_pool_module() -> None:
    answer = _loaded("audit", "-j", "1", "--progress", "never", "sample_logs/games")
    assert answer == {"status": 0, "loaded": []}


def test_the_commands_that_need_them_load_them() -> None:
    """The same probe sees the modules when a command uses them, so it can fail."""
    explained = _loaded("explain", "sample_logs/disputes/fifth-kan.mjson", "--json")
    assert explained["status"] == 0
    assert {"hashlib", "kansa.packet", "kansa.explain"} <= set(explained["loaded"])  # type: ignore[arg-type]
    pooled = _loaded("audit", "-j", "2", "--progress", "never", "sample_logs/games")
    assert pooled["status"] == 0
    assert "concurrent.futures.process" in pooled["loaded"]  # type: ignore[operator]
