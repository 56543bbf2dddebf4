"""Shared helpers for the tenhou.net/6 tests: corpus file lists and small log builders."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from conftest import corpus_path
from corpus_counts import tenhou6_players

from kansa.parsers.tenhou6 import format as tenhou6
from kansa.replay.events import Event, StartKyoku
from kansa.replay.game import Game

T6 = corpus_path() / "tenhou6"
FILES = sorted(T6.glob("**/*.json")) if T6.is_dir() else []
THREE_PLAYER = [f for f in FILES if tenhou6_players(f) == 3]
FOUR_PLAYER = [f for f in FILES if f not in THREE_PLAYER]
EQUIM = T6 / "Equim-chan__mjai-reviewer"
MJX = T6 / "mjx-project__mjx"


def ids(paths: list[Path]) -> list[str]:
    return [f"{p.parent.name.split('__')[0]}/{p.name}" for p in paths]


def load(path: Path) -> list[Game]:
    return tenhou6.parse(path.read_bytes(), str(path))


def load_one(path: Path) -> Game:
    games = load(path)
    assert len(games) == 1
    return games[0]


def obj(path: Path) -> dict[str, Any]:
    """The file's single JSON object (a fresh copy to edit)."""
    return copy.deepcopy(json.loads(path.read_text(encoding="utf-8")))


def parse_obj(o: dict[str, Any]) -> Game:
    games = tenhou6.parse(json.dumps(o, ensure_ascii=False).encode(), "test.json")
    assert len(games) == 1
    return games[0]


def hands(events: tuple[Event, ...]) -> list[list[Event]]:
    out: list[list[Event]] = []
    for e in events:
        if isinstance(e, StartKyoku):
            out.append([])
        if out:
            out[-1].append(e)
    return out


def names(events: list[Event] | tuple[Event, ...]) -> list[str]:
    return [type(e).__name__ for e in events]
