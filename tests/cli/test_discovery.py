"""Finding the files of a batch: sorted order without holding the list.

The oracle is the expansion kansa used before it streamed: ``os.walk`` over each
folder argument (following links, pruning loops and hidden names), a set, then
``sorted``.  ``iter_files`` must give exactly that list, lazily.
"""

from __future__ import annotations

import glob
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kansa import discovery
from kansa.discovery import discover, iter_files, missing_paths


def oracle(paths: list[str]) -> list[str]:
    found: set[str] = set()
    for arg in paths:
        matches = [arg] if os.path.exists(arg) else sorted(glob.glob(arg, recursive=True))
        for m in matches:
            p = Path(m)
            if not p.is_dir():
                found.add(str(p))
                continue
            for dirpath, dirnames, filenames in os.walk(p, followlinks=True):
                if discovery._is_loop(Path(dirpath), p):
                    dirnames[:] = []
                    continue
                dirnames[:] = [d for d in dirnames if not d.startswith(".")]
                found.update(os.path.join(dirpath, f) for f in filenames
                             if not f.startswith("."))
    return sorted(found)


def make_tree(root: Path) -> None:
    """Names that sort differently as folders and as path prefixes, links, a loop."""
    for rel in ["a/x.mjlog", "a-b", "a.b/y", "a0", "aB/z", "A/q", "b/c/d/e.json",
                "b/c-d", "b/c.d/f", "b/c0", "sp ace/g", "ü/h", ".hidden/i", "b/.j",
                "deep/1/2/3/4/k"]:
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(rel)
    (root / "link-to-b").symlink_to(root / "b")
    (root / "b" / "c" / "loop").symlink_to(root / "b")
    (root / "dangling").symlink_to(root / "nowhere")
    (root / "empty").mkdir()


@pytest.mark.parametrize("args", [
    ["{r}"],
    ["{r}/b", "{r}"],
    ["{r}/a/x.mjlog", "{r}/a", "{r}/a-b"],
    ["{r}/**/*.json", "{r}/a*"],
    ["{r}/link-to-b", "{r}/b/c"],
    ["{r}/./b/../a"],
])
def test_files_come_in_sorted_order_once(tmp_path: Path, args: list[str]) -> None:
    make_tree(tmp_path)
    paths = [a.format(r=tmp_path) for a in args]
    assert list(iter_files(paths)) == oracle(paths)
    assert discover(paths) == (oracle(paths), [])


def test_the_tree_holds_what_the_cases_need(tmp_path: Path) -> None:
    make_tree(tmp_path)
    files = list(iter_files([str(tmp_path)]))
    names = [os.path.relpath(f, tmp_path) for f in files]
    # a file named like a folder's prefix comes before the folder's files when it sorts so
    assert names.index("a-b") < names.index("a/x.mjlog") < names.index("a0")
    assert "dangling" in names and "link-to-b/c/d/e.json" in names
    assert not any(n.startswith(".") or "/." in n for n in names)
    assert not any("loop" in n for n in names)


NAME = st.text(st.sampled_from("aA0-._ ~b/"), min_size=1, max_size=4).filter(
    lambda s: s not in (".", "..") and "//" not in s and not s.startswith("/")
    and not s.endswith("/"))


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(NAME, min_size=1, max_size=12))
def test_random_trees(tmp_path_factory: pytest.TempPathFactory, rels: list[str]) -> None:
    root = tmp_path_factory.mktemp("tree")
    for rel in rels:
        path = root / rel
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            if not path.exists():
                path.write_text("x")
        except (FileExistsError, NotADirectoryError):
            continue  # a name used both as a file and as a folder
    assert list(iter_files([str(root)])) == oracle([str(root)])


def test_folders_are_listed_as_they_are_reached(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    for k in range(30):
        (tmp_path / f"d{k:02}").mkdir()
        (tmp_path / f"d{k:02}" / "f").write_text("x")
    listed: list[str] = []
    scandir = os.scandir

    def counting(path: str) -> Iterator[os.DirEntry[str]]:
        listed.append(path)
        return scandir(path)
    monkeypatch.setattr(discovery.os, "scandir", counting)
    files = iter_files([str(tmp_path)])
    assert next(files) == str(tmp_path / "d00" / "f")
    assert len(listed) == 2  # the top and d00, not the 29 others
    assert len(list(files)) == 29


def test_missing_paths(tmp_path: Path) -> None:
    make_tree(tmp_path)
    given_ = [str(tmp_path / "a"), str(tmp_path / "nope"), str(tmp_path / "*.none"),
              str(tmp_path / "a*")]
    assert missing_paths(given_) == [str(tmp_path / "nope"), str(tmp_path / "*.none")]
    assert discover(given_)[1] == missing_paths(given_)
