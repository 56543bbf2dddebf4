"""Every input limit: its default, its flag, and the clear refusal when it is crossed.

Each test goes through the ``kansa audit`` command, so the flag, the error message
naming the flag and the exit status are checked together.
"""

from __future__ import annotations

import gzip
import io
import json
import time
import zipfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kansa.cli import build_parser, main
from kansa.parsers.errors import LogFormatError
from kansa.parsers.source import DEFAULT_LIMITS, Limits, check_items

MJLOG = (b'<mjloggm ver="2.3"><GO type="169" lobby="0"/>'
         b'<UN n0="a" n1="b" n2="c" n3="d" dan="0,0,0,0" rate="1500,1500,1500,1500" '
         b'sx="M,M,M,M"/><TAIKYOKU oya="0"/></mjloggm>')
"""A game with no hand: read without error (a truncated-log warning at most)."""
T6 = json.dumps({"title": ["", ""], "name": ["a", "b", "c", "d"], "rule": {"aka": 1},
                 "log": []}).encode()


def audit(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict[str, Any]]:
    code = main(["audit", "--json", "--no-timing", "--jobs", "1", *args])
    return code, json.loads(capsys.readouterr().out)


def refusal(capsys: pytest.CaptureFixture[str], path: Path, *flags: str) -> dict[str, Any]:
    """The one unreadable entry for ``path``; the command must exit 1."""
    code, doc = audit(capsys, *flags, str(path))
    assert code == 3, doc
    [entry] = doc["unreadable"]
    assert entry["error"] and entry["position"]
    return entry


def test_defaults_and_flags_agree() -> None:
    expected = Limits(
        max_file_bytes=64 * 1024 * 1024, max_decompressed_bytes=256 * 1024 * 1024,
        max_json_depth=64, max_items=1_000_000, max_seconds=60.0)
    assert expected == DEFAULT_LIMITS
    args = build_parser().parse_args(["audit", "x"])
    assert (args.max_file_bytes, args.max_decompressed_bytes, args.max_json_depth,
            args.max_items, args.max_seconds) == (
        DEFAULT_LIMITS.max_file_bytes, DEFAULT_LIMITS.max_decompressed_bytes,
        DEFAULT_LIMITS.max_json_depth, DEFAULT_LIMITS.max_items, DEFAULT_LIMITS.max_seconds)


@pytest.mark.parametrize("flag", ["--max-file-bytes", "--max-decompressed-bytes",
                                  "--max-json-depth", "--max-items", "--max-seconds"])
@pytest.mark.parametrize("value", ["0", "-5", "many", "nan"])
def test_a_limit_must_be_positive(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                  flag: str, value: str) -> None:
    assert main(["audit", flag, value, str(tmp_path)]) == 2
    assert flag in capsys.readouterr().err


# -- file size --------------------------------------------------------------------------


def test_a_file_over_max_file_bytes(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "big.mjlog"
    path.write_bytes(MJLOG + b" " * 2000)
    entry = refusal(capsys, path, "--max-file-bytes", "1000")
    assert "over the limit of 1000" in entry["error"] and "--max-file-bytes" in entry["error"]
    code, doc = audit(capsys, "--max-file-bytes", "10000", str(path))
    assert code == 0 and doc["unreadable"] == [] and doc["summary"]["games"] == 1


# -- gzip and zip bombs -----------------------------------------------------------------


def test_a_gzip_bomb_is_refused_at_the_default_limit(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    member = gzip.compress(b"\0" * (16 * 1024 * 1024), compresslevel=9, mtime=0)
    path = tmp_path / "bomb.mjlog.gz"
    path.write_bytes(member * 17)  # 272 MiB from about 400 KiB
    assert path.stat().st_size < 1_000_000
    entry = refusal(capsys, path)
    assert f"expands past {DEFAULT_LIMITS.max_decompressed_bytes} bytes" in entry["error"]
    assert "--max-decompressed-bytes" in entry["error"] and "gzip bomb" in entry["error"]


def test_a_gzip_stream_over_the_flag(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "log.mjlog.gz"
    path.write_bytes(gzip.compress(MJLOG + b" " * 5000))
    entry = refusal(capsys, path, "--max-decompressed-bytes", "4096")
    assert "expands past 4096 bytes (--max-decompressed-bytes)" in entry["error"]
    code, doc = audit(capsys, "--max-decompressed-bytes", "100000", str(path))
    assert code == 0 and doc["summary"]["games"] == 1


def test_many_concatenated_gzip_members_are_read_in_linear_time(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "members.mjlog.gz"  # zlib copied the rest after every member: quadratic
    path.write_bytes(gzip.compress(MJLOG, mtime=0) + gzip.compress(b"", mtime=0) * 200_000)
    start = time.perf_counter()
    code, doc = audit(capsys, str(path))
    assert code == 0 and doc["summary"]["games"] == 1
    assert time.perf_counter() - start < 15


def _zip(members: dict[str, bytes]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in members.items():
            zf.writestr(name, data)
    return buf.getvalue()


def test_a_zip_bomb_member_is_refused(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "bomb.zip"
    path.write_bytes(_zip({"a.mjlog": MJLOG, "b.mjlog": b"\0" * 5_000_000}))
    code, doc = audit(capsys, "--max-decompressed-bytes", "1000000", str(path))
    assert code == 3 and doc["summary"]["games"] == 1  # the good member is still audited
    [entry] = doc["unreadable"]
    assert entry["file"] == f"{path}!b.mjlog"
    assert "--max-decompressed-bytes" in entry["error"] and "zip bomb" in entry["error"]


def test_a_zip_of_many_members_is_capped_as_a_whole(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "many.zip"
    path.write_bytes(_zip({f"{k:03d}.mjlog": MJLOG + b" " * 1000 for k in range(40)}))
    code, doc = audit(capsys, "--max-decompressed-bytes", "20000", str(path))
    assert code == 3
    summary = doc["summary"]
    assert summary["files"] == 40 and summary["games"] + summary["unreadable"] == 40
    assert summary["games"] == 20000 // (len(MJLOG) + 1000)
    assert all("the archive expands past 20000 bytes" in u["error"] for u in doc["unreadable"])


def test_a_zip_of_more_members_than_max_items_is_refused_whole(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "crowd.zip"
    path.write_bytes(_zip({f"{k:03d}.mjlog": MJLOG for k in range(30)}))
    entry = refusal(capsys, path, "--max-items", "20")
    assert entry["file"] == str(path)
    assert "holds 30 files, more than 20 (--max-items)" in entry["error"]
    code, doc = audit(capsys, "--max-items", "30", str(path))  # at the limit: every member read
    assert code == 0 and doc["summary"]["games"] == 30


# -- JSON ---------------------------------------------------------------------------------


def test_json_nested_past_max_json_depth(capsys: pytest.CaptureFixture[str],
                                         tmp_path: Path) -> None:
    path = tmp_path / "deep.json"
    path.write_bytes(b'{"log": [[[0, ' + b"[" * 40 + b"]" * 40 + b"]]]}")
    entry = refusal(capsys, path, "--max-json-depth", "20")
    assert "deeper than 20 levels (--max-json-depth)" in entry["error"]
    assert entry["position"].startswith("line 1, column")
    entry = refusal(capsys, path)  # within the default: refused for what it is, not its depth
    assert "--max-json-depth" not in entry["error"]


def _nest(depth: int) -> bytes:
    return b"[" * depth + b"0" + b"]" * depth


@pytest.mark.parametrize(("fmt", "data"), [
    ("tenhou6", b'{"log": [[[0, ' + _nest(40) + b"]]]}"),
    ("mjai", b'{"type": "start_game", "names": ' + _nest(40) + b"}\n"),
    ("majiang", b'{"title": "x", "log": [[{"qipai": ' + _nest(40) + b"}]]}"),
    ("majsoul", b'{"events": [{"name": "NewRound", "data": ' + _nest(40) + b"}]}"),
])
def test_every_json_reader_honours_max_json_depth(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, fmt: str, data: bytes) -> None:
    path = tmp_path / f"deep-{fmt}.json"
    path.write_bytes(data)
    entry = refusal(capsys, path, "--format", fmt, "--max-json-depth", "20")
    assert "deeper than 20 levels" in entry["error"] and "--max-json-depth" in entry["error"]
    entry = refusal(capsys, path, "--format", fmt)  # within the default depth of 64
    assert "--max-json-depth" not in entry["error"]
    path.write_bytes(data.replace(_nest(40), _nest(100_000)))
    entry = refusal(capsys, path, "--format", fmt)
    assert "deeper than" in entry["error"] and "--max-json-depth" in entry["error"]


def test_json_nested_100000_deep_is_refused_quickly(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "deeper.json"
    path.write_bytes(b'{"log": [[[0, ' + b"[" * 100_000 + b"]" * 100_000 + b"]]]}")
    start = time.perf_counter()
    entry = refusal(capsys, path)
    assert "deeper than 64 levels (--max-json-depth)" in entry["error"]
    assert time.perf_counter() - start < 10


# -- items --------------------------------------------------------------------------------


def test_a_log_over_max_items(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "long.mjlog"
    path.write_bytes(MJLOG.replace(b"</mjloggm>", b"<BYE who='0'/>\n" * 200 + b"</mjloggm>"))
    entry = refusal(capsys, path, "--max-items", "100")
    assert "over the limit of 100 (--max-items)" in entry["error"]
    assert entry["position"].startswith("line ")
    path = tmp_path / "long.json"
    path.write_bytes(T6.replace(b'"log": []', b'"log": [' + b"0," * 500 + b"0]"))
    entry = refusal(capsys, path, "--max-items", "100")
    assert "(--max-items)" in entry["error"]


@given(st.binary(max_size=120).map(lambda b: b.replace(b"a", b"<")), st.integers(0, 130))
def test_max_items_is_decided_by_the_count_alone(data: bytes, limit: int) -> None:
    """(A log no longer than the limit is not counted: it cannot hold more items.)"""
    count = sum(data.count(c) for c in (b"<", b",", b"[", b"{"))
    try:
        check_items(data, limit, "x")
    except LogFormatError:
        assert count > limit
    else:
        assert count <= limit


# -- XML ----------------------------------------------------------------------------------

BILLION_LAUGHS = (
    b'<?xml version="1.0"?>\n<!DOCTYPE lolz [<!ENTITY lol "lol">'
    + b"".join(b'<!ENTITY lol%d "%s">' % (i, b"&lol%d;" % (i - 1) * 10 if i > 1 else b"&lol;" * 10)
               for i in range(1, 10))
    + b']>\n<mjloggm ver="2.3"><GO type="169" lobby="0" title="&lol9;"/></mjloggm>')


@pytest.mark.parametrize(("name", "data", "says"), [
    ("billion-laughs.mjlog", BILLION_LAUGHS, "DOCTYPE declarations are refused"),
    ("external-entity.mjlog",
     b'<?xml version="1.0"?><!DOCTYPE m [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
     b'<mjloggm ver="2.3"><GO type="169" lobby="0" title="&x;"/></mjloggm>', "DOCTYPE"),
    ("external-dtd.mjlog",
     b'<?xml version="1.0"?><!DOCTYPE mjloggm SYSTEM "http://127.0.0.1:9/evil.dtd">'
     b'<mjloggm ver="2.3"><GO type="169" lobby="0"/></mjloggm>', "DOCTYPE"),
    ("entity-alone.mjlog", b'<mjloggm ver="2.3"><!ENTITY x "y"><GO type="169"/></mjloggm>',
     "ENTITY declarations are refused"),
    ("utf16-doctype.mjlog",
     '<?xml version="1.0" encoding="UTF-16"?><!DOCTYPE m [<!ENTITY x "y">]><mjloggm/>'
     .encode("utf-16"), "UTF-16"),
    ("deep.mjlog", b'<mjloggm ver="2.3">' + b"<a>" * 5000 + b"</a>" * 5000 + b"</mjloggm>",
     "depth"),
])
def test_hostile_xml_is_refused(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                name: str, data: bytes, says: str) -> None:
    path = tmp_path / name
    path.write_bytes(data)
    start = time.perf_counter()
    entry = refusal(capsys, path, "--format", "tenhou_xml")
    assert says in entry["error"]
    assert time.perf_counter() - start < 5


def test_the_xml_parser_is_configured_safe() -> None:
    # the source (the module itself may be the compiled extension)
    source = (Path(__file__).resolve().parents[2] / "parsers/tenhou_xml/read.py").read_text()
    for setting in ("resolve_entities=False", "no_network=True", "load_dtd=False",
                    "huge_tree=False", 'encoding="utf-8"'):
        assert setting in source


# -- time ---------------------------------------------------------------------------------


def test_a_log_that_takes_too_long_is_given_up(
        capsys: pytest.CaptureFixture[str], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    import kansa.parsers.tenhou_xml.read as reader  # noqa: PLC0415

    original = reader.parse

    def crawl(data: bytes, source: str, limits: Limits = DEFAULT_LIMITS) -> list[Any]:
        while "slow" in source:  # a reader stuck in a loop that swallows every Exception
            try:
                time.sleep(0.01)
            except Exception:
                continue
        return original(data, source, limits)

    (tmp_path / "a-slow.mjlog").write_bytes(MJLOG)
    (tmp_path / "b-fine.mjlog").write_bytes(MJLOG)
    monkeypatch.setattr(reader, "parse", crawl)
    start = time.perf_counter()
    code, doc = audit(capsys, "--max-seconds", "0.3", str(tmp_path))
    assert time.perf_counter() - start < 5
    assert code == 3
    [entry] = doc["unreadable"]
    assert entry["file"].endswith("a-slow.mjlog")
    assert "longer than the limit of 0.3 s (--max-seconds)" in entry["error"]
    assert doc["summary"]["files"] == 2 and doc["summary"]["games"] == 1
