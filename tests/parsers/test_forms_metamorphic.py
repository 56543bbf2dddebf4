"""Metamorphic test: every corpus log rewritten in each form its format allows (see
:mod:`tests.forms`) reads as the same games, and audits to the same verdict.

The games are compared on everything but positions (events, players, rule hints,
title, id and the parser's notes), in every form for a format of few logs and in a
seeded sample of ``SAMPLE`` forms per log otherwise (each form is still met by dozens
of logs); the verdict (the status and every finding's rule, severity, hand, seat,
event and message) on one seeded mixture of forms per log.  That keeps the test's time
within a minute.  The figures (logs x forms) are printed for the README:
``python -m pytest tests/parsers/test_forms_metamorphic.py -s``.
"""

from __future__ import annotations

import random
import zlib
from pathlib import Path
from typing import Any

import pytest

from kansa.parsers import FORMATS, load_bytes
from kansa.parsers.archive import is_zip, iter_members
from kansa.parsers.source import DEFAULT_LIMITS, maybe_gunzip, read_log_bytes
from kansa.replay.events import SourceRef
from kansa.replay.game import Game
from kansa.runner import audit_bytes
from tests.forms import forms_of
from tests.parser_helpers import corpus_files

FORMAT_DIRS = FORMATS
"""The corpus has a folder per format, named after it."""
SEED = 16
SAMPLE = 6
"""Forms read per log for a format of more than ``ALL_FORMS_UP_TO`` logs."""
ALL_FORMS_UP_TO = 15
LOG_SUFFIXES = (".mjlog", ".xml", ".xml_", ".json", ".jsonl", ".mjson", ".log", ".zip")


def corpus_logs(corpus: Path, fmt: str) -> list[tuple[str, bytes]]:
    """``(source, content)`` of each log of ``fmt`` (a zip archive gives its members)."""
    logs = []
    for path in corpus_files(corpus, fmt):
        if path.suffix not in LOG_SUFFIXES:
            continue
        data = read_log_bytes(path)
        if is_zip(data):
            logs += [(name, member) for name, member in iter_members(
                data, str(path), DEFAULT_LIMITS) if isinstance(member, bytes)]
        else:
            logs.append((str(path), data))
    return logs


def reading(games: list[Game]) -> list[tuple[Any, ...]]:
    """What a game is, apart from where in the file each thing was read."""
    return [(g.format, g.events, g.players, g.hints, g.title, g.log_id, g.index,
             g.perspective, g.assumed_scores,
             [(d.message, d.level) for d in g.diagnostics]) for g in games]


def verdict(data: bytes, source: str) -> tuple[Any, ...]:
    """The audit's status, its reason for an unsupported log, and every finding."""
    outcome = audit_bytes(data, source)
    reason = outcome.error.message if outcome.error else None
    findings = [[(v["rule"], v["severity"], v["hand"], v["seat"], v["event"], v["message"])
                 for v in game["violations"]] for game in outcome.games]
    return outcome.status, reason, findings


def read(form: bytes, source: str) -> list[Game]:
    return load_bytes(maybe_gunzip(form, SourceRef(source)), source)


@pytest.mark.corpus
@pytest.mark.parametrize("fmt", FORMAT_DIRS)
def test_every_form_reads_and_audits_the_same(corpus_dir: Path, fmt: str) -> None:
    logs = corpus_logs(corpus_dir, fmt)
    assert logs, f"no {fmt} logs in the corpus"
    checked = 0
    names: set[str] = set()
    for source, data in logs:
        rng = random.Random(SEED * 1_000_003 + zlib.crc32(Path(source).name.encode()))
        want = reading(load_bytes(data, source))
        forms = forms_of(fmt, data, rng)
        chosen = sorted(forms)
        if len(logs) > ALL_FORMS_UP_TO:
            chosen = rng.sample(chosen, SAMPLE)
        for name in chosen:
            assert reading(read(forms[name](), source)) == want, f"{source} in form {name}"
        names.update(chosen)
        checked += len(chosen)
        sample = rng.choice(sorted(name for name in forms if "mixture" in name))
        assert verdict(maybe_gunzip(forms[sample](), SourceRef(source)), source) == \
            verdict(data, source), f"{source} in form {sample}"
    assert names == set(forms), "a form was never tried"
    print(f"\n{fmt}: {len(logs)} logs, {len(names)} forms, {checked} readings compared, "
          f"{len(logs)} verdicts compared")


@pytest.mark.corpus
def test_a_saved_page_with_a_comment_before_the_root_is_the_same_game(corpus_dir: Path) -> None:
    """A browser's saved mjlog: ``<!-- saved from ... -->`` first, then the root
    pretty-printed over many lines, with CRLF; sniffed, not named."""
    from tests.forms import XmlStyle, write_xml  # noqa: PLC0415

    path = corpus_files(corpus_dir, "tenhou_xml")[0]
    data = read_log_bytes(path)
    saved = write_xml(data, XmlStyle(comment_before=True, pretty=True, crlf=True),
                      random.Random(SEED), name=path.stem)
    assert saved.startswith(b"<!-- saved from") and saved.count(b"\n") > 100
    assert reading(read(saved, str(path))) == reading(read(data, str(path)))
    assert verdict(saved, "saved.txt") == verdict(data, "saved.txt")
