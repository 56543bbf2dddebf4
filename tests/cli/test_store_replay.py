"""A file taken from the results store gives what auditing it again gives.

The inputs are the sample logs (made by kansa itself), a zip archive of some of
them and an unreadable file, so these tests need no corpus.
"""

from __future__ import annotations

import json
import re
import shutil
import zipfile
from collections.abc import Iterable, Iterator
from pathlib import Path

import pandas as pd
import pytest

from kansa import store as results
from kansa.cli import main
from kansa.discovery import iter_files
from kansa.parsers.source import Limits
from kansa.runner import AuditOptions, FileOutcome, audit_file
from kansa.store import ResultStore

ROOT = Path(__file__).resolve().parents[2]
DISPUTES = ROOT / "sample_logs" / "disputes"
GAMES = ROOT / "sample_logs" / "games"
CLEAN = ("ema-23.mjson", "tenhou-112.mjson", "tenhou-12.json")
"""The complete games copied: a fixed three, so the counts below stay the test's own."""


def make_logs(tmp_path: Path) -> Path:
    """Dispute logs (findings), complete games (clean), a zip, a broken file and notes
    that are no log (unsupported)."""
    logs = tmp_path / "logs"
    shutil.copytree(DISPUTES, logs / "disputes")
    (logs / "games").mkdir(parents=True)
    for name in CLEAN:
        shutil.copy(GAMES / name, logs / "games" / name)
    with zipfile.ZipFile(logs / "two.zip", "w") as z:
        for name in ("late-claim.mjson", "fifth-kan.mjson"):
            z.write(DISPUTES / name, name)
        z.writestr("broken.json", '{"title": ["a", ')
    (logs / "broken.json").write_text('{"title": ["a", ', encoding="utf-8")
    (logs / "notes.md").write_text("# what we saw\n", encoding="utf-8")
    return logs


def audit(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["audit", "--no-timing", *args])
    out = capsys.readouterr()
    return code, out.out, out.err


def without_from_store(text: str) -> tuple[dict, int]:  # type: ignore[type-arg]
    doc = json.loads(text)
    return doc, doc["summary"].pop("from_store")


def test_a_second_audit_gives_the_same_document(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    logs = make_logs(tmp_path)
    store = str(tmp_path / "store")
    direct = audit(capsys, "--json", "-j", "1", str(logs))
    first = audit(capsys, "--json", "-j", "1", str(logs), "--store", store)
    again = audit(capsys, "--json", "-j", "2", str(logs), "--store", store)
    assert first == direct
    assert again[0] == direct[0] and again[2] == direct[2]
    want, zero = without_from_store(direct[1])
    got, stored = without_from_store(again[1])
    assert got == want and zero == 0
    assert stored == want["summary"]["files"] == 6 + 3 + 3 + 1 + 1  # a zip: its members
    s = got["summary"]
    assert (s["with_findings"], s["clean"], s["unreadable"], s["unsupported"]) == (8, 3, 2, 1)
    assert sum(s["errors_by_rule"].values()) == 8
    assert all("state" in v for g in got["games"] for v in g["violations"])
    # byte for byte, apart from the one count
    assert again[1].replace(f'"from_store": {stored}', '"from_store": 0') == direct[1]


def test_a_growing_archive_mixes_stored_and_new_files_in_order(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    logs = make_logs(tmp_path)
    store = str(tmp_path / "store")
    audit(capsys, "--json", str(logs / "disputes"), str(logs / "two.zip"), "--store", store)
    direct = audit(capsys, "--json", "-j", "1", str(logs))
    grown = audit(capsys, "--json", "-j", "2", str(logs), "--store", store)
    want, _ = without_from_store(direct[1])
    got, stored = without_from_store(grown[1])
    assert got == want and grown[0] == direct[0]
    assert stored == 6 + 3
    assert len(ResultStore(Path(store)).files()) == 6 + 1 + len(CLEAN) + 2


def test_the_text_summary_is_the_same_on_a_second_run(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    logs = make_logs(tmp_path)
    store = str(tmp_path / "store")
    direct = audit(capsys, str(logs))
    first = audit(capsys, str(logs), "--store", store)
    again = audit(capsys, str(logs), "--store", store)
    assert direct == first
    code, out, err = again
    taken = re.compile(r" \((\d+) files taken from the store\)")
    assert int(taken.search(out.splitlines()[0]).group(1)) > 0  # type: ignore[union-attr]
    assert (code, taken.sub("", out, count=1), err) == direct
    assert "8 errors" in again[1]
    assert "claim.late" in again[1] and "broken.json" in again[1] and "notes.md" in again[1]


def test_a_moved_file_is_told_under_its_new_path(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    store = str(tmp_path / "store")
    old, new = tmp_path / "old", tmp_path / "elsewhere" / "new name"
    old.mkdir()
    new.mkdir(parents=True)
    for folder in (old, new):
        shutil.copy(DISPUTES / "late-claim.mjson", folder / "late-claim.mjson")
        with zipfile.ZipFile(folder / "a.zip", "w") as z:
            z.write(DISPUTES / "fifth-kan.mjson", "fifth-kan.mjson")
    audit(capsys, "--json", str(old), "--store", store)
    direct = audit(capsys, "--json", str(new))
    moved = audit(capsys, "--json", str(new), "--store", store)
    want, _ = without_from_store(direct[1])
    got, stored = without_from_store(moved[1])
    assert stored == 2 and got == want
    assert str(old) not in moved[1]
    assert {g["file"] for g in got["games"]} == {
        str(new / "late-claim.mjson"), f"{new / 'a.zip'}!fifth-kan.mjson"}


def test_stats_read_the_store_as_they_read_the_logs(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    logs = make_logs(tmp_path)
    store = str(tmp_path / "store")
    audit(capsys, str(logs), "--store", store)
    runs = []
    for name, inputs in (("logs", [str(logs)]), ("store1", ["--store", store]),
                         ("store2", ["--store", store])):
        out = tmp_path / name
        code = main(["stats", *inputs, "-o", str(out), "-j", "1"])
        err = capsys.readouterr().err
        runs.append((code, err, out))
    (code, err, from_logs), *stored = runs
    assert "broken.json" in err
    for other_code, other_err, folder in stored:
        assert (other_code, other_err) == (code, err)
        for csv in sorted(from_logs.glob("*.csv")):
            a, b = pd.read_csv(csv), pd.read_csv(folder / csv.name)
            pd.testing.assert_frame_equal(a, b, obj=csv.name)
    assert len(pd.read_csv(from_logs / "findings.csv")) > 0


def test_report_reads_the_store_as_it_reads_the_logs(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    logs = make_logs(tmp_path)
    store = str(tmp_path / "store")
    audit(capsys, str(logs), "--store", store)
    pages = []
    for name, inputs in (("logs", [str(logs)]), ("store1", ["--store", store]),
                         ("store2", ["--store", store])):
        page = tmp_path / f"{name}.html"
        code = main(["report", *inputs, "-o", str(page), "-j", "1"])
        pages.append((code, capsys.readouterr().err, page.read_text(encoding="utf-8")))
    assert pages[0] == pages[1] == pages[2]
    assert "broken.json" in pages[0][2]


def test_a_store_without_outcomes_is_refused_for_audit_but_read_by_reports(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    store = tmp_path / "store"
    audit(capsys, str(DISPUTES), "--store", str(store))
    for part in (store / "files").glob("*.parquet"):  # as an earlier kansa wrote it
        pd.read_parquet(part).drop(columns=["outcome"]).to_parquet(part, index=False)
    code, out, err = audit(capsys, str(DISPUTES), "--store", str(store))
    assert code == 2 and out == ""
    assert "earlier kansa" in err and "new folder" in err and "Traceback" not in err
    assert main(["stats", "--store", str(store), "-o", str(tmp_path / "t")]) == 0
    assert len(pd.read_csv(tmp_path / "t" / "findings.csv")) == 12


def test_reports_refuse_a_folder_that_is_no_store(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    for args in (["stats", "-o", str(tmp_path / "t")], ["report", "-o", str(tmp_path / "r")]):
        assert main([*args, "--store", str(tmp_path / "nothing")]) == 2
        assert "not a results store" in capsys.readouterr().err
    assert not (tmp_path / "nothing").exists()


def test_outcomes_are_found_across_parts_and_row_groups(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    logs = make_logs(tmp_path)
    paths = list(iter_files([str(logs)]))
    monkeypatch.setattr(results, "ROW_GROUP", 2)

    def audit(todo: Iterable[str]) -> Iterator[results.Stored]:
        return (results.audit_and_tabulate(f, AuditOptions()) for f in todo)

    def outcomes(batch_files: int) -> list[tuple[dict, bool]]:  # type: ignore[type-arg]
        store = ResultStore(tmp_path / "store", batch_files=batch_files)
        got = [(o.to_dict(), stored)
               for o, stored in results.audit_with_store(paths, store, AuditOptions(), audit)]
        store.flush()
        return got

    first = outcomes(batch_files=3)  # parts of 3 files, row groups of 2
    assert len(list((tmp_path / "store" / "files").glob("*.parquet"))) == 4
    again = outcomes(batch_files=3)
    direct = [audit_file(f).to_dict() for f in paths]
    assert [o for o, _ in first] == [o for o, _ in again] == direct
    assert [s for _, s in first] == [False] * len(paths)
    assert [s for _, s in again] == [True] * len(paths)


def _through_store(root: Path, paths: list[str], options: AuditOptions
                   ) -> list[tuple[FileOutcome, bool]]:
    store = ResultStore(root)

    def audit(todo: Iterable[str]) -> Iterator[results.Stored]:
        return (results.audit_and_tabulate(f, options) for f in todo)

    got = list(results.audit_with_store(paths, store, options, audit))
    store.flush()
    return got


def test_other_size_limits_or_a_forced_format_are_another_audit(tmp_path: Path) -> None:
    paths = [str(p) for p in sorted(DISPUTES.iterdir())]
    root = tmp_path / "store"
    small = AuditOptions(limits=Limits(max_file_bytes=100))
    plain = _through_store(root, paths, AuditOptions())
    refused = _through_store(root, paths, small)
    assert not any(stored for _, stored in refused)
    assert {o.status for o, _ in refused} == {"unreadable"}
    assert [(o.status, s) for o, s in _through_store(root, paths, small)] == [
        ("unreadable", True)] * len(paths)
    forced = _through_store(root, paths, AuditOptions(fmt="tenhou6"))
    assert not any(stored for _, stored in forced)
    assert [(o.to_dict(), s) for o, s in _through_store(root, paths, AuditOptions())] == [
        (o.to_dict(), True) for o, _ in plain]


def test_an_audit_stopped_by_the_time_limit_is_tried_again(tmp_path: Path) -> None:
    paths = [str(DISPUTES / "late-claim.mjson")]
    hurried = AuditOptions(limits=Limits(max_seconds=1e-6))
    (first, _), = _through_store(tmp_path / "store", paths, hurried)
    assert first.status == "unreadable" and "--max-seconds" in str(first.error)
    (again, stored), = _through_store(tmp_path / "store", paths, hurried)
    assert not stored and again.status == "unreadable"
    (relaxed, stored), = _through_store(tmp_path / "store", paths, AuditOptions())
    assert not stored and relaxed.status == "findings"
