"""One game, one stream: the same game read from two formats gives equal events,
apart from what a format cannot carry (listed in the README)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from kansa.parsers import load
from kansa.replay.events import EndGame, Event, Hora, ReachAccepted, Ryukyoku
from kansa.runner import AuditOptions, audit_file

pytestmark = pytest.mark.corpus

# Fields tenhou.net/6 cannot carry, so they are compared only when both sides have them.
NOT_IN_TENHOU6: dict[type, tuple[str, ...]] = {
    ReachAccepted: ("scores",),
    Hora: ("hand", "kyotaku", "fu"),
    Ryukyoku: ("hands", "tenpai"),
    EndGame: ("scores", "points"),
}


def strip(ev: Event, fields: dict[type, tuple[str, ...]]) -> Event:
    names = fields.get(type(ev))
    return dataclasses.replace(ev, **dict.fromkeys(names)) if names else ev  # type: ignore[arg-type]


def xml_twin(corpus: Path, t6: Path) -> Path | None:
    folder = corpus / "tenhou_xml" / "mjx-project__mjx"
    for cand in sorted(folder.glob(t6.stem + "*.mjlog")):
        if cand.stem == t6.stem or cand.stem.startswith(t6.stem + "&"):
            return cand
    return None


def pairs(corpus: Path) -> list[tuple[Path, Path]]:
    out = []
    for t6 in sorted((corpus / "tenhou6" / "mjx-project__mjx").glob("*.json")):
        twin = xml_twin(corpus, t6)
        if twin is not None:
            out.append((t6, twin))
    return out


def test_tenhou6_and_xml_give_the_same_events(corpus_dir: Path) -> None:
    found = pairs(corpus_dir)
    assert len(found) >= 10
    for t6, xml in found:
        a = [strip(e, NOT_IN_TENHOU6) for e in load(t6)[0].events]
        b = [strip(e, NOT_IN_TENHOU6) for e in load(xml)[0].events]
        n = min(len(a), len(b))  # a tenhou6 excerpt may stop early
        assert n > 100
        assert a[:n] == b[:n], (t6.name, next(i for i in range(n) if a[i] != b[i]))


def test_tenhou6_and_xml_give_the_same_verdict(corpus_dir: Path) -> None:
    for t6, xml in pairs(corpus_dir):
        if len(load(t6)[0].events) != len(load(xml)[0].events):
            continue  # an excerpt is truncated on purpose: its verdict differs by that
        va = audit_file(str(t6), AuditOptions()).games[0]["violations"]
        vb = audit_file(str(xml), AuditOptions()).games[0]["violations"]
        assert [(v["rule"], v["hand"], v["seat"]) for v in va] == \
               [(v["rule"], v["hand"], v["seat"]) for v in vb], t6.name
