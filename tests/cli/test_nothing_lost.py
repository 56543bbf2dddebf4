"""Nothing lost: every file of a batch is accounted for, broken ones included; internal
errors are caught per game and reported; the same input gives the same bytes out."""

from __future__ import annotations

import gzip
import io
import json
import os
import zipfile
from pathlib import Path
from typing import Any

import pytest

from kansa.cli import main
from kansa.replay.checks import registry
from kansa.replay.events import Dahai
from kansa.runner import audit_file

XML_GOOD = "tenhou_xml/mjx-project__mjx/2022060100gm-00a9-0000-97b5d87f.mjlog"
T6_GOOD = "tenhou6/Equim-chan__mjai-reviewer/chankan.json"
T6_SANMA = "tenhou6/hidacow__mjai-reviewer3p/chankan.json"
MJAI_GOOD = "mjai/smly__RiichiEnv/126_204_0_mjai.jsonl"
MAJIANG_GOOD = "majiang/MitsuhiroTaniguchi__MahjongLM/2023012721gm-00e1-0000-72b6b9d6.json"
MAJSOUL_SANMA = "majsoul/smly__RiichiEnv/mjsoul_heavenly_hand.json"
STATUS_KEYS = ("clean", "with_findings", "unreadable", "unsupported", "internal_errors")


def run_json(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict[str, Any]]:
    code = main(["audit", "--json", "--no-timing", "--jobs", "1", *args])
    return code, json.loads(capsys.readouterr().out)


def zip_of(members: dict[str, bytes]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in members.items():
            zf.writestr(name, data)
    return buf.getvalue()


def accounted(doc: dict[str, Any]) -> dict[str, str]:
    """Every input the document speaks of, with how it ended."""
    seen = {g["file"]: "audited" for g in doc["games"]}
    seen.update({u["file"]: "unreadable" for u in doc["unreadable"]})
    seen.update({u["file"]: "unsupported" for u in doc["unsupported"]})
    seen.update({u["file"]: "internal" for u in doc["internal_errors"]})
    return seen


@pytest.mark.corpus
def test_a_batch_of_broken_files_of_every_format_audits_the_good_ones(
        capsys: pytest.CaptureFixture[str], corpus_dir: Path, tmp_path: Path) -> None:
    xml = (corpus_dir / XML_GOOD).read_bytes()
    t6 = (corpus_dir / T6_GOOD).read_bytes()
    mjai = (corpus_dir / MJAI_GOOD).read_bytes()
    majiang = (corpus_dir / MAJIANG_GOOD).read_bytes()
    majsoul = (corpus_dir / MAJSOUL_SANMA).read_bytes()
    good = {"good.mjlog": xml, "good.json": t6, "good.mjlog.gz": gzip.compress(xml),
            "good.mjson": mjai, "good-majiang.json": majiang}
    sanma = {"sanma.json": (corpus_dir / T6_SANMA).read_bytes(),
             "sanma-majsoul.json": majsoul}
    """Three-player games: audited as the others."""
    lines = mjai.split(b"\n")
    cut = {"cut.mjlog": xml[:len(xml) // 2], "cut.mjson": mjai[:len(mjai) // 2 + 7]}
    """Audited as far as they go (with a log.truncated warning)."""
    bad = {
        "flipped.mjlog": xml.replace(b"<INIT", b"<INIT seed=\"x\"", 1),
        "cut.json": t6[:len(t6) // 2],
        "badtile.json": t6.replace(b"[33]", b"[99]", 1),
        "cut.mjlog.gz": gzip.compress(xml)[:200],
        "bomb.gz": gzip.compress(b"\0" * 4_000_000),
        "empty.log": b"",
        "binary.bin": bytes(range(256)) * 8,
        "deep.json": b'{"log": [[[0, ' + b"[" * 5000 + b"]" * 5000 + b"]]]}",
        "badtile.mjson": b"\n".join([*lines[:3], lines[3].replace(b'"pai":"', b'"pai":"9z', 1),
                                     *lines[4:]]),
        "noscores.mjson": b'{"type":"start_game","names":["a","b","c","d"]}\n'
                          b'{"type":"start_kyoku","bakaze":"E"}\n',
        "cut-majiang.json": majiang[:len(majiang) // 3],
        "cut-majsoul.json": majsoul[:len(majsoul) // 2],
    }
    for name, data in {**good, **cut, **sanma, **bad}.items():
        (tmp_path / name).write_bytes(data)
    (tmp_path / "games.zip").write_bytes(zip_of(
        {"a.mjlog": xml, "b.json": t6, "c-broken.mjlog": xml[:300], "d-empty.json": b"",
         "e.mjson": mjai}))
    (tmp_path / "corrupt.zip").write_bytes(b"PK\x03\x04" + b"\0" * 64)

    code, doc = run_json(capsys, "--max-decompressed-bytes", "1000000", str(tmp_path))
    assert code == 3
    seen = accounted(doc)
    root = str(tmp_path)
    audited = {f"{root}/{n}" for n in {**good, **cut, **sanma}} | {f"{root}/games.zip!{n}"
                                                for n in ("a.mjlog", "b.json", "e.mjson")}
    assert {f for f, how in seen.items() if how == "audited"} == audited
    assert {f for f, how in seen.items() if how == "unsupported"} == set()
    expected_bad = {f"{root}/{n}" for n in bad} | {
        f"{root}/games.zip!c-broken.mjlog", f"{root}/games.zip!d-empty.json",
        f"{root}/corrupt.zip"}
    assert {f for f, how in seen.items() if how == "unreadable"} == expected_bad
    assert set(seen) == audited | expected_bad
    # every unreadable one says where and why
    for u in doc["unreadable"]:
        assert u["error"] and u["position"], u
    by_file = {u["file"]: u for u in doc["unreadable"]}
    assert "--max-decompressed-bytes" in by_file[f"{root}/bomb.gz"]["error"]
    assert "--max-json-depth" in by_file[f"{root}/deep.json"]["error"]
    assert "line 4" in by_file[f"{root}/badtile.mjson"]["position"]
    summary = doc["summary"]
    files = len(good) + len(cut) + len(sanma) + len(bad) + 5 + 1  # 5 members, 1 zip
    assert summary["files"] == files
    assert sum(summary[k] for k in STATUS_KEYS) == files
    assert summary["games"] == len(audited) and summary["internal_errors"] == 0


def test_a_zip_with_a_bad_member_audits_the_others(tmp_path: Path) -> None:
    good = (b'<mjloggm ver="2.3"><GO type="169" lobby="0"/>'
            b'<UN n0="a" n1="b" n2="c" n3="d"/><TAIKYOKU oya="0"/></mjloggm>')
    path = tmp_path / "logs.zip"
    path.write_bytes(zip_of({f"{k:02d}.mjlog": good for k in range(13)} | {"07x.mjlog": good[:60]}))
    outcome = audit_file(str(path))
    assert len(outcome.members) == 14
    statuses = [m.status for m in outcome.members]
    assert statuses.count("unreadable") == 1 and len(outcome.games) == 13
    assert outcome.status == "unreadable"  # the archive's status is its worst member's
    bad = next(m for m in outcome.members if m.status == "unreadable")
    assert bad.file == f"{path}!07x.mjlog" and bad.error is not None
    assert bad.error.file == f"{path}!07x.mjlog" and "line 1" in (bad.error.position or "")


def test_an_empty_zip_is_unreadable(tmp_path: Path) -> None:
    path = tmp_path / "empty.zip"
    path.write_bytes(zip_of({}))
    outcome = audit_file(str(path))
    assert outcome.status == "unreadable" and outcome.error is not None
    assert "holds no file" in outcome.error.message


def test_an_encrypted_or_exotic_zip_member_is_refused_alone(tmp_path: Path) -> None:
    data = bytearray(zip_of({"a.mjlog": b"<mjloggm/>", "b.mjlog": b"<mjloggm/>"}))
    # mark the second member encrypted (general purpose flag bit 0), in both headers
    second = data.index(b"PK\x03\x04", 4)
    data[second + 6] |= 1
    central = data.index(b"PK\x01\x02", second)
    central = data.index(b"PK\x01\x02", central + 4)
    data[central + 8] |= 1
    path = tmp_path / "locked.zip"
    path.write_bytes(bytes(data))
    outcome = audit_file(str(path))
    assert [m.status for m in outcome.members] == ["unreadable", "unreadable"]
    assert outcome.members[1].error is not None
    assert "encrypted" in outcome.members[1].error.message


def test_a_pipe_or_a_broken_link_in_a_folder_is_reported_not_skipped(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    (tmp_path / "dangling.mjlog").symlink_to(tmp_path / "nowhere")
    os.mkfifo(tmp_path / "pipe.mjlog")
    code, doc = run_json(capsys, str(tmp_path))
    assert code == 3 and doc["summary"]["files"] == 2 == doc["summary"]["unreadable"]
    errors = {Path(u["file"]).name: u["error"] for u in doc["unreadable"]}
    assert "not a regular file" in errors["pipe.mjlog"]
    assert "cannot read file" in errors["dangling.mjlog"]


@pytest.mark.corpus
def test_a_failing_check_is_an_internal_error_of_that_game_only(
        capsys: pytest.CaptureFixture[str], corpus_dir: Path, tmp_path: Path) -> None:
    xml = (corpus_dir / XML_GOOD).read_bytes()
    t6 = (corpus_dir / T6_GOOD).read_bytes()
    (tmp_path / "a.mjlog").write_bytes(xml)
    (tmp_path / "b.json").write_bytes(t6)
    (tmp_path / "c.mjlog").write_bytes(xml)

    def broken_check(ctx: Any, ev: Any) -> None:
        if ctx.game.round is not None and "c.mjlog" in str(ctx.src()):
            raise ZeroDivisionError("a check that divides by zero")

    check = registry.Check(fn=broken_check, events=(Dahai,), rules=("log.out-of-order",),
                           phase="before")
    # appended to the registry's own list, not a replacement of the module attribute:
    # compiled code reads the list through its Final name
    registry.CHECKS.append(check)
    try:
        code, doc = run_json(capsys, str(tmp_path))
        assert code == 3
        assert doc["summary"]["internal_errors"] == 1 and doc["summary"]["games"] == 2
        assert doc["summary"]["files"] == 3 == sum(doc["summary"][k] for k in STATUS_KEYS)
        [entry] = doc["internal_errors"]
        assert entry["file"] == f"{tmp_path}/c.mjlog" and entry["game"] == 0
        assert "ZeroDivisionError: a check that divides by zero" in entry["error"]
        assert "Traceback (most recent call last)" in entry["traceback"]
        assert "broken_check" in entry["traceback"]
        assert {g["file"] for g in doc["games"]} == {f"{tmp_path}/a.mjlog", f"{tmp_path}/b.json"}
        main(["audit", "--no-timing", "--jobs", "1", str(tmp_path)])
        assert "INTERNAL ERROR (please report)" in capsys.readouterr().out
    finally:
        registry.CHECKS.remove(check)


@pytest.mark.corpus
def test_two_runs_give_byte_identical_output_in_any_file_order(
        capsys: pytest.CaptureFixture[str], corpus_dir: Path) -> None:
    files = sorted(str(p) for p in corpus_dir.rglob("*") if p.is_file())
    runs = []
    for args in (["--jobs", "1", str(corpus_dir)], ["--jobs", "2", *reversed(files)]):
        main(["audit", "--json", "--no-timing", *args])
        runs.append(capsys.readouterr().out)
        main(["audit", "--no-timing", *args])
        runs.append(capsys.readouterr().out)
    assert runs[0] == runs[2] and runs[1] == runs[3]
    assert json.loads(runs[0])["summary"]["games"] > 200


@pytest.mark.corpus
def test_convert_goes_on_past_a_reader_or_writer_bug(
        capsys: pytest.CaptureFixture[str], corpus_dir: Path, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    from kansa.parsers.mjai import write as mjai_writer  # noqa: PLC0415

    xml = (corpus_dir / XML_GOOD).read_bytes()
    for name in ("a.mjlog", "b-bug.mjlog", "c.mjlog"):
        (tmp_path / name).write_bytes(xml)
    write = mjai_writer.write

    def buggy(game: Any) -> str:
        if "b-bug" in game.source:
            raise IndexError("a writer bug")
        return write(game)

    monkeypatch.setattr(mjai_writer, "write", buggy)  # the registry's writer of mjai
    out = tmp_path / "out"
    code = main(["convert", str(tmp_path / "a.mjlog"), str(tmp_path / "b-bug.mjlog"),
                 str(tmp_path / "c.mjlog"), "--to", "mjai", "-o", f"{out}/"])
    assert code == 3
    assert "INTERNAL ERROR (please report) writing" in capsys.readouterr().err
    assert sorted(p.name for p in out.iterdir()) == ["a.mjson", "c.mjson"]
