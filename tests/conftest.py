"""Shared fixtures: where the real corpus lives."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


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
