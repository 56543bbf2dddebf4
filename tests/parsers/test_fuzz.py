"""The seeded fuzz suite: every parser and the replay engine on hostile and broken input.

Each case must end in games that replay without an exception (keeping the desync
contract) or in a ``LogFormatError`` with a position, within a time bound; see
:mod:`fuzz.harness`.  The examples are derandomised, so CI runs the same cases
every time; ``python -m fuzz.long_run`` runs 100,000+ of them.
"""

from __future__ import annotations

import dataclasses
import gzip
import io
import json
import random
import zipfile
from functools import cache

import pytest
from conftest import corpus_path
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fuzz.events import mutate_events, random_event
from fuzz.harness import Failure, audit_case, corpus_files, parse_case, replay_checked
from fuzz.mutate import mutate
from kansa.parsers import load
from kansa.parsers.registry import REGISTRY
from kansa.replay.events import DrawReason
from kansa.replay.game import Game
from kansa.sim.scenario import Scenario

BOUND = 5.0
"""Seconds one case may take (real ones take milliseconds)."""
ARCHIVE_BOUND = 30.0
"""Seconds for a whole corpus archive (dozens of games), with room for a loaded CI machine."""
SEEDS = st.integers(0, 2**64 - 1)
_SEEDED = settings(derandomize=True, database=None, deadline=None, print_blob=True,
                   suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def fast(examples: int) -> settings:
    """Seeded settings (the same cases on every run) with ``examples`` cases."""
    return settings(_SEEDED, max_examples=examples)


HEADS = (b"", b'<mjloggm ver="2.3">', b'<?xml version="1.0"?><mjloggm>', b'{"log":[[[0,',
         b'{"type":"start_game"', b'{"title":', b'{"head":', b"\x1f\x8b", b"PK\x03\x04",
         b"\xef\xbb\xbf")
"""Starts that steer random bytes to each reader's sniffer."""


@cache
def corpus() -> dict[str, list[bytes]]:
    """Corpus logs by sniffed format (only formats kansa reads), plus ``zip`` archives."""
    path = corpus_path()
    if not path.is_dir():
        return {}
    found = corpus_files(path)
    return {fmt: [p.read_bytes() for p in paths] for fmt, paths in found.items()
            if fmt != "gzip"}


@cache
def corpus_games() -> tuple[Game, ...]:
    path = corpus_path()
    games: list[Game] = []
    for fmt, paths in corpus_files(path).items() if path.is_dir() else ():
        for p in paths[::3] if fmt != "zip" else paths:
            try:
                games += [g for g in load(p) if g.hints.players == 4]
            except ValueError:
                continue
    return tuple(games)


LOG_FORMATS = tuple(f.name for f in REGISTRY)


def _seeds_of(fmt: str) -> list[bytes]:
    logs = corpus().get(fmt)
    if not logs:
        pytest.skip(f"no {fmt} logs in the corpus (or no reader for them yet)")
    return logs


# -- parsers --------------------------------------------------------------------------


@fast(300)
@given(st.sampled_from(HEADS), st.binary(max_size=3000))
def test_random_bytes(head: bytes, tail: bytes) -> None:
    parse_case(head + tail, bound=BOUND)


@pytest.mark.corpus
@pytest.mark.parametrize("fmt", LOG_FORMATS)
@fast(250)
@given(seed=SEEDS)
def test_mutated_corpus_logs(fmt: str, seed: int) -> None:
    rng = random.Random(seed)
    data, how = mutate(rng.choice(_seeds_of(fmt)), fmt, rng)
    try:
        parse_case(data, bound=BOUND)
    except Failure as f:
        raise AssertionError(f"{how}: {f}") from None


@pytest.mark.corpus
@fast(100)
@given(seed=SEEDS)
def test_mutated_logs_inside_gzip_and_zip(seed: int) -> None:
    rng = random.Random(seed)
    logs = [(fmt, data) for fmt, items in corpus().items() if fmt != "zip" for data in items]
    if not logs:
        pytest.skip("no corpus")
    members = {f"m{k}": mutate(data, fmt, rng)[0]
               for k, (fmt, data) in enumerate(rng.sample(logs, 3))}
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in members.items():
            zf.writestr(name, data)
    archive = buf.getvalue()
    wrapped = gzip.compress(members["m0"], mtime=0)
    for data in (archive, wrapped, archive[:rng.randrange(len(archive))],
                 wrapped[:rng.randrange(len(wrapped))]):
        parse_case(data, bound=BOUND)
        audit_case(data)


@pytest.mark.corpus
@fast(60)
@given(seed=SEEDS)
def test_damaged_corpus_archives(seed: int) -> None:
    rng = random.Random(seed)
    archives = corpus().get("zip")
    if not archives:
        pytest.skip("no zip archive in the corpus")
    data, _ = mutate(rng.choice(archives), "zip", rng)
    parse_case(data, bound=ARCHIVE_BOUND)
    audit_case(data)


# -- the replay engine ------------------------------------------------------------------


@pytest.mark.corpus
@fast(500)
@given(seed=SEEDS)
def test_mutated_event_streams_of_real_games(seed: int) -> None:
    games = corpus_games()
    if not games:
        pytest.skip("no corpus")
    rng = random.Random(seed)
    game = rng.choice(games)
    events = mutate_events(game.events, rng, rng.choice((None, None, 8, 30)))
    replay_checked(dataclasses.replace(game, events=tuple(events)))


def _scenario_game() -> Game:
    sc = Scenario()
    for oya in range(2):
        sc.start(["123456789m1234p", "147m258p369s1234z", "258m369p147s5677z",
                  "369m147p258s1156z"], dora="9p", oya=oya)
        sc.go_around(oya, 12)
        sc.ryukyoku(DrawReason.EXHAUSTIVE, tenpai=(False,) * 4).end_kyoku()
    return sc.end_game().game()


@fast(300)
@given(seed=SEEDS)
def test_mutated_event_streams_of_a_crafted_game(seed: int) -> None:
    rng = random.Random(seed)
    game = _scenario_game()
    events = mutate_events(game.events, rng, rng.choice((None, 10, 40)))
    replay_checked(dataclasses.replace(game, events=tuple(events)))


@fast(200)
@given(seed=SEEDS, players=st.sampled_from((3, 4)))
def test_streams_of_random_events(seed: int, players: int) -> None:
    rng = random.Random(seed)
    game = _scenario_game()
    events = tuple(random_event(rng) for _ in range(rng.randrange(60)))
    hints = dataclasses.replace(game.hints, players=players)
    replay_checked(dataclasses.replace(game, events=events, hints=hints))


# -- findings of the fuzzer, kept as plain regression cases --------------------------------


def _tenhou6_with(pointer: tuple[int, ...], value: object) -> bytes:
    doc = json.loads((corpus_path() / "tenhou6" / "Equim-chan__mjai-reviewer" /
                      "chankan.json").read_text())
    node = doc["log"][0]
    for key in pointer[:-1]:
        node = node[key]
    node[pointer[-1]] = value
    return json.dumps(doc, ensure_ascii=False).encode()


@pytest.mark.corpus
@pytest.mark.parametrize(("pointer", "value", "message"), [
    ((5, 1), "c474747\n", "malformed call string"),  # '$' matched before a newline
    ((6, 1), "13p1313\n", "malformed call string"),
    ((6, 1), "r²3", "malformed riichi discard"),  # str.isdigit() is true for '²'
    ((6, 1), "f²³", "malformed nukidora"),
    ((16, 2, 4), "立直(" + "9" * 5000 + "飜)", None),  # int() refuses 4,300+ digits
    ((16, 2, 3), "9" * 5000 + "符" + "9" * 5000 + "飜" + "9" * 5000 + "点", None),
])
def test_tenhou6_findings(pointer: tuple[int, ...], value: object, message: str | None) -> None:
    if not corpus_path().is_dir():
        pytest.skip("no corpus")
    outcome = parse_case(_tenhou6_with(pointer, value), "x.json", bound=BOUND)
    if message is not None:
        assert outcome.kind == "format_error" and message in outcome.detail


@pytest.mark.parametrize("data", [b"[]", b"{}", b"[]\n[]", b"", b"0"])
def test_the_json_mutators_take_json_without_documents_or_keys(data: bytes) -> None:
    for seed in range(50):  # (json_hostile once indexed into an empty list: a fuzzer bug)
        mutate(data, "tenhou6", random.Random(seed))
        mutate(data, "mjai", random.Random(seed))


@pytest.mark.corpus
def test_a_chi_of_two_tiles_is_a_finding_and_its_win_is_not_valued() -> None:
    path = corpus_path() / "mjai" / "Apricot-S__mjai-manue-go" / "2025-09-12-153331.mjson"
    if not path.is_file():
        pytest.skip("no corpus")
    call = '"type":"chi","actor":3,"target":2,"pai":"3p","consumed":["1p","2p"]'
    data = path.read_text()
    assert data.count(call) == 1
    data = data.replace(call, call.replace('["1p","2p"]', '["1p"]'))
    outcome = parse_case(data.encode(), "x.mjson", bound=BOUND)  # the library once raised
    [game] = outcome.games
    found = {v.rule: v.message for v in replay_checked(game).violations}
    assert "making 13p" in found["claim.meld-shape"]
    assert "a meld is not a chow, pung or kong" in found["score.value"]



@pytest.mark.corpus
@pytest.mark.parametrize(("key", "value"), [("rate", [10**400, 1500.0, 1500.0, 1500.0]),
                                            ("sc", [250, 10**400, 250, 0, 250, 0, 250, 0])])
def test_tenhou6_numbers_too_large_for_a_float(key: str, value: list[object]) -> None:
    if not corpus_path().is_dir():
        pytest.skip("no corpus")
    doc = json.loads((corpus_path() / "tenhou6" / "Equim-chan__mjai-reviewer" /
                      "chankan.json").read_text())
    doc[key] = value  # float() of a 400-digit int raised OverflowError
    outcome = parse_case(json.dumps(doc).encode(), "x.json", bound=BOUND)
    assert outcome.kind in ("games", "format_error")
