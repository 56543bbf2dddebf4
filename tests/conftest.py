"""Shared fixtures: where the real corpus lives."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
# The tests import the tree's helpers (tests.*, fuzz.*) from its root, which goes last on
# the path: run by the ``pytest`` script, the suite tests the installed kansa (compiled or
# pure); ``python -m pytest`` puts the working folder, the source tree, first.
if str(ROOT) not in sys.path:
    sys.path.append(str(ROOT))


def corpus_path() -> Path:
    """``$KANSA_CORPUS`` if set, else ``../shared/corpus`` beside the project."""
    env = os.environ.get("KANSA_CORPUS")
    return Path(env) if env else ROOT.parent / "shared" / "corpus"


@pytest.fixture(scope="session")
def corpus_dir() -> Path:
    path = corpus_path()
    if not path.is_dir():
        pytest.skip(f"corpus not found at {path} (set KANSA_CORPUS)")
    return path
