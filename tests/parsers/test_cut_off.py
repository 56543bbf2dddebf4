"""Cut-off logs are audited as far as they go: the game up to its last complete tag or
line, with one ``log.truncated`` warning saying where the file stops and what was lost."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from kansa.parsers import load_bytes
from kansa.parsers.errors import CutOffError, LogFormatError
from kansa.parsers.source import read_log_bytes
from kansa.runner import audit_bytes
from tests.parser_helpers import corpus_files


def corpus_log(corpus: Path, fmt: str, suffix: str) -> tuple[str, bytes]:
    """The first corpus log of ``fmt`` whose name ends in ``suffix`` and that holds a
    complete four-player game."""
    for path in corpus_files(corpus, fmt):
        if path.name.endswith(suffix):
            data = read_log_bytes(path)
            outcome = audit_bytes(data, str(path))
            if outcome.status != "unsupported" and not any(
                    v["rule"] == "log.truncated" for g in outcome.games
                    for v in g["violations"]):
                return str(path), data
    pytest.skip(f"no complete {fmt} game in the corpus")


def findings(data: bytes, source: str) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The ``log.truncated`` findings and the errors of auditing ``data``."""
    outcome = audit_bytes(data, source)
    assert outcome.error is None and not outcome.internal, outcome.error or outcome.internal
    found = [v for g in outcome.games for v in g["violations"]]
    return ([v for v in found if v["rule"] == "log.truncated"],
            [v for v in found if v["severity"] == "error"])


def keys(errors: list[dict[str, Any]]) -> set[tuple[Any, ...]]:
    return {(v["rule"], v["event"], v["message"]) for v in errors}


# -- Tenhou XML --------------------------------------------------------------------------

@pytest.mark.corpus
def test_the_first_8000_bytes_of_an_mjlog_are_audited(corpus_dir: Path) -> None:
    source, data = corpus_log(corpus_dir, "tenhou_xml", ".mjlog")
    cut = data[:8000]
    game = load_bytes(cut, source)[0]
    whole = load_bytes(data, source)[0]
    last_tag = cut.rfind(b">") + 1
    tags = cut[:last_tag].count(b"<") - 1  # the root's children before the cut
    # every event read is the whole game's, up to its last complete tag
    assert 0 < len(game.events) < len(whole.events)
    assert game.events == whole.events[:len(game.events)]
    last = game.src_of(len(game.events) - 1)
    assert last is not None and last.pointer is not None
    assert int(last.pointer.split()[1]) <= tags
    truncated, errors = findings(cut, source)
    assert len(truncated) == 1
    message = truncated[0]["message"]
    assert "stops at byte 8000 (line 1, column 8001)" in message
    assert repr(cut[last_tag:].decode().strip()) in message  # what was lost
    assert "mid-hand" in message or "before the end of the game" in message
    assert truncated[0]["source"] == f"{source}:1:8001"
    assert truncated[0]["severity"] == "warning"
    assert keys(errors) <= keys(findings(data, source)[1])  # no error of its own


@pytest.mark.corpus
def test_every_cut_after_the_first_hand_starts_is_read(corpus_dir: Path) -> None:
    source, data = corpus_log(corpus_dir, "tenhou_xml", ".mjlog")
    first_hand = data.index(b"<INIT")
    start = data.index(b"/>", first_hand) + 2
    for size in range(start, len(data), 211):
        truncated, _ = findings(data[:size], source)
        assert len(truncated) == 1 and f"stops at byte {size}" in truncated[0]["message"]


@pytest.mark.corpus
def test_a_pretty_printed_mjlog_cut_off_names_its_line(corpus_dir: Path) -> None:
    source, data = corpus_log(corpus_dir, "tenhou_xml", ".mjlog")
    pretty = b"<!-- saved -->\r\n" + data.replace(b"/><", b"/>\r\n  <")
    cut = pretty[:len(pretty) * 2 // 3]
    line = cut.count(b"\n") + 1
    truncated, _ = findings(cut, source)
    assert len(truncated) == 1
    assert f"(line {line}, column " in truncated[0]["message"]
    assert truncated[0]["source"].startswith(f"{source}:{line}:")


@pytest.mark.corpus
def test_a_cut_in_the_closing_tag_keeps_the_whole_game(corpus_dir: Path) -> None:
    source, data = corpus_log(corpus_dir, "tenhou_xml", ".mjlog")
    end = data.rindex(b"</mjloggm>")
    truncated, errors = findings(data[:end + 4], source)
    assert len(truncated) == 1 and "the final result was read" in truncated[0]["message"]
    assert keys(errors) == keys(findings(data, source)[1])


@pytest.mark.corpus
def test_an_mjlog_cut_before_its_first_hand_is_unreadable(corpus_dir: Path) -> None:
    source, data = corpus_log(corpus_dir, "tenhou_xml", ".mjlog")
    cut = data[:data.index(b"<INIT") + 10]
    with pytest.raises(CutOffError, match=r"cut off at byte .* nothing to audit") as err:
        load_bytes(cut, source)
    assert err.value.src.line == 1 and err.value.src.column == len(cut) + 1


@pytest.mark.corpus
def test_a_broken_tag_before_the_end_is_still_an_error(corpus_dir: Path) -> None:
    source, data = corpus_log(corpus_dir, "tenhou_xml", ".mjlog")
    cut = data[:8000]
    middle = cut.index(b"<", 6000)
    broken = cut[:middle] + b"<<" + cut[middle + 1:]
    with pytest.raises(LogFormatError, match="malformed XML"):
        load_bytes(broken, source)


# -- mjai ----------------------------------------------------------------------------------

@pytest.mark.corpus
def test_an_mjai_log_whose_last_line_is_cut_is_audited(corpus_dir: Path) -> None:
    source, data = corpus_log(corpus_dir, "mjai", ".mjson")
    lines = data.split(b"\n")
    keep = len(lines) // 2
    cut = b"\n".join(lines[:keep]) + b"\n" + lines[keep][:len(lines[keep]) // 2]
    assert b"\n".join(lines[:keep]).count(b"\n") + 2 == keep + 1
    game = load_bytes(cut, source)[0]
    whole = load_bytes(b"\n".join(lines[:keep]) + b"\n", source)[0]
    assert game.events == whole.events
    truncated, errors = findings(cut, source)
    assert len(truncated) == 1
    message = truncated[0]["message"]
    assert f"stops at byte {len(cut)} (line {keep + 1}, column " in message
    assert "in the middle of its last line" in message
    assert keys(errors) <= keys(findings(data, source)[1])


def _mjai(*objs: dict[str, Any]) -> bytes:
    return "\n".join(json.dumps(o) for o in objs).encode()


START = {"type": "start_game", "names": ["a", "b", "c", "d"]}


def test_a_bad_last_line_with_its_newline_is_an_error() -> None:
    with pytest.raises(LogFormatError, match="not valid JSON"):
        load_bytes(_mjai(START) + b'\n{"type":"start_kyoku",\n', "bad.mjson")


def test_a_bad_line_before_the_last_is_an_error() -> None:
    with pytest.raises(LogFormatError, match="not valid JSON"):
        load_bytes(_mjai(START) + b'\n{"type":"start_ky\n' + _mjai(START), "bad.mjson")


def test_a_last_line_that_is_wrong_not_cut_is_an_error() -> None:
    with pytest.raises(LogFormatError, match="not valid JSON"):
        load_bytes(_mjai(START) + b'\n{"type": tru}', "bad.mjson")


def test_an_mjai_file_cut_in_its_only_line_is_unreadable() -> None:
    with pytest.raises(LogFormatError, match=r"cut off.*no game could be read"):
        load_bytes(b'{"type":"start_game","na', "cut.mjson")


# -- tenhou.net/6 and majiang ----------------------------------------------------------------

def _json_lines(corpus: Path) -> tuple[str, bytes]:
    """A complete four-player tenhou.net/6 game written one hand per line (mjx)."""
    for path in corpus_files(corpus, "tenhou6"):
        data = path.read_bytes()
        rows = [row for row in data.split(b"\n") if row.strip()]
        if len(rows) >= 4 and all(row.startswith(b"{") and row.endswith(b"}") for row in rows):
            outcome = audit_bytes(data, str(path))
            if outcome.status != "unsupported" and outcome.games[0]["complete"]:
                return str(path), data
    pytest.skip("no tenhou.net/6 JSON lines in the corpus")


def _one_document(corpus: Path) -> tuple[str, bytes]:
    """A multi-hand game written as one tenhou.net/6 document (title, name, rule, log)."""
    from kansa.parsers.tenhou6.format import write  # noqa: PLC0415

    source, data = _json_lines(corpus)
    return source, write(load_bytes(data, source)[0]).encode()


@pytest.mark.corpus
def test_a_tenhou6_document_cut_in_its_log_keeps_the_complete_hands(corpus_dir: Path) -> None:
    source, doc = _one_document(corpus_dir)
    kyokus = json.loads(doc)["log"]
    assert len(kyokus) > 2
    whole = load_bytes(doc, source)[0]
    third = doc.index(b"],[[", doc.index(b"],[[", doc.index(b'"log"')) + 1)  # in hand 2
    cut = doc[:third + 20]
    game = load_bytes(cut, source)[0]
    starts = [i for i, e in enumerate(whole.events) if type(e).__name__ == "StartKyoku"]
    assert game.events == whole.events[:starts[2]]  # the two complete hands
    truncated, errors = findings(cut, source)
    assert len(truncated) == 1
    column = len(cut.decode("utf-8", "ignore")) + 1  # columns count characters
    assert (f"stops at byte {len(cut)} (line 1, column {column}) in entry 2 of the "
            '"log" array') in truncated[0]["message"]
    assert "the 2 complete hands before it are read" in truncated[0]["message"]
    assert keys(errors) <= keys(findings(doc, source)[1])


@pytest.mark.corpus
def test_a_tenhou6_document_whose_rule_follows_the_cut_is_refused(corpus_dir: Path) -> None:
    source, doc = _one_document(corpus_dir)
    obj = json.loads(doc)
    reordered = json.dumps({"log": obj["log"], "name": obj["name"], "rule": obj["rule"]},
                           ensure_ascii=False).encode()
    with pytest.raises(LogFormatError, match="its \"rule\", which comes after \"log\""):
        load_bytes(reordered[:len(reordered) // 2], source)


@pytest.mark.corpus
def test_tenhou6_json_lines_lose_only_their_unfinished_last_line(corpus_dir: Path) -> None:
    source, data = _json_lines(corpus_dir)
    rows = data.split(b"\n")
    cut = b"\n".join(rows[:3]) + b"\n" + rows[3][:len(rows[3]) // 2]
    game = load_bytes(cut, source)[0]
    assert game.events == load_bytes(b"\n".join(rows[:3]), source)[0].events
    truncated, _ = findings(cut, source)
    assert len(truncated) == 1 and "(line 4, column " in truncated[0]["message"]


@pytest.mark.corpus
def test_a_cut_inside_a_character_is_a_cut_not_bad_utf8(corpus_dir: Path) -> None:
    source, data = corpus_log(corpus_dir, "mjai", ".mjson")
    lines = data.split(b"\n")
    tail = '{"type":"none","note":"あ"}'.encode()
    cut = b"\n".join(lines[:20]) + b"\n" + tail[:-3]  # inside the three bytes of あ
    truncated, _ = findings(cut, source)
    assert len(truncated) == 1


@pytest.mark.corpus
@pytest.mark.parametrize(("fmt", "what"), [("majiang", "majiang paipu"),
                                           ("majsoul", "Mahjong Soul record")])
def test_a_cut_off_majiang_or_majsoul_document_is_refused_saying_so(
        corpus_dir: Path, fmt: str, what: str) -> None:
    path = next(p for p in corpus_files(corpus_dir, fmt) if p.suffix == ".json")
    data = path.read_bytes()
    with pytest.raises(LogFormatError, match=f"cut off: it stops at byte {len(data) // 2} .*"
                       f"a cut-off {what} is not read"):
        load_bytes(data[:len(data) // 2], str(path))
