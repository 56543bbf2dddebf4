"""``kansa wall``: a hand's wall from the seed, each tile marked with where it went."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from kansa.cli import main

pytestmark = pytest.mark.corpus


def _example(corpus_dir: Path) -> Path:
    path = corpus_dir / "tenhou_xml" / "dnovikoff__tenhou" / "example.xml"
    if not path.is_file():
        pytest.skip("example.xml not in the corpus")
    return path


def test_one_hands_wall(corpus_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _example(corpus_dir)
    assert main(["wall", str(path), "--hand", "E1"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("E1 (hand 1 of the game): dice ")
    rows = out[1:]
    assert len(rows) == 136
    assert [int(r.split()[0]) for r in rows] == list(range(136))
    marks = [r.split(None, 2)[2] for r in rows]
    assert sum(m.startswith("dealt to seat") for m in marks) == 52
    assert sum(m.startswith("draw: seat") for m in marks) == 70  # E1 ends in a full wall
    assert marks[130] == "dora indicator"
    assert not any("the log has" in m for m in marks)  # the log's tiles are the wall's


def test_what_a_call_took(corpus_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _example(corpus_dir)
    assert main(["wall", str(path), "--hand", "E1", "--call", "1"]) == 0
    out = capsys.readouterr().out
    (head,) = re.findall(r"E1 call 1: seat (\d) calls chi on \w+ from seat (\d), after "
                         r"(\d+) live draws", out)
    caller, target, drawn = map(int, head)
    first = re.search(rf"live draw {drawn + 1} \(\w+\): seat (\d) would have drawn it; "
                      r"in the game drawn by seat (\d)", out)
    assert first is not None
    assert int(first.group(1)) == (target + 1) % 4 == caller  # the chi took its draw
    assert int(first.group(2)) == (caller + 1) % 4


def test_no_seed_no_wall(corpus_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = corpus_dir / "tenhou_xml" / "dnovikoff__tenhou" / "bye.xml"
    if not path.is_file():
        pytest.skip("bye.xml not in the corpus")
    assert main(["wall", str(path)]) == 1
    assert "carries no shuffle seed kansa can reproduce" in capsys.readouterr().err


def test_the_audit_summary_counts_the_walls(corpus_dir: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    path = _example(corpus_dir)
    main(["audit", str(path)])
    out = capsys.readouterr().out
    assert "  walls against the shuffle seed: 9 hands verified, 0 mismatched, 0 without a " \
           "seed\n" in out
    sample = Path(__file__).resolve().parents[2] / "sample_logs/disputes/late-claim.mjson"
    main(["audit", str(sample)])
    assert "walls against" not in capsys.readouterr().out  # nothing to verify: no line


def test_the_html_report_says_it() -> None:
    import pandas as pd  # noqa: PLC0415 (the reports' dependency, as in their tests)

    from kansa.reports.html import wall_html  # noqa: PLC0415

    hands = pd.DataFrame({"wall": ["verified", "verified", "mismatched", "no_seed"]})
    assert wall_html(hands) == ('<p class="note">Walls against the shuffle seed: 2 verified '
                                "tile by tile, 1 with a tile the wall did not give, 1 without "
                                "a seed to verify (hands).</p>")
    assert wall_html(pd.DataFrame({"wall": pd.Series([], dtype="string")})) == ""
