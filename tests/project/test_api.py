"""The Python API: ``kansa.read``, ``kansa.audit`` and the names ``kansa`` exports.

``Audit.to_dict()`` is checked against the document the command prints for the same
file, on the sample logs and on a corpus file of every format.
"""

from __future__ import annotations

import csv
import doctest
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import corpus_path

import kansa
from kansa.cli import main

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = sorted((ROOT / "sample_logs").rglob("*.*json"))


def cli_document(path: Path, capsys: pytest.CaptureFixture[str], *args: str) -> object:
    capsys.readouterr()
    main(["audit", str(path), "--json", "--no-timing", "-j", "1", *args])
    return json.loads(capsys.readouterr().out)


def one_file_per_format() -> list[Path]:
    """The first file of each format the corpus's MANIFEST lists."""
    manifest = corpus_path() / "MANIFEST.tsv"
    if not manifest.is_file():
        return []
    first: dict[str, Path] = {}
    with manifest.open(encoding="utf-8") as fh:
        for row in csv.DictReader(fh, delimiter="\t"):
            first.setdefault(row["format"], corpus_path() / row["file"])
    return sorted(first.values())


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.name)
def test_audit_of_a_sample_is_the_commands_document(path: Path,
                                                    capsys: pytest.CaptureFixture[str]
                                                    ) -> None:
    result = kansa.audit(path)
    document = result.to_dict()
    assert document == cli_document(path, capsys)
    assert result.file == str(path) and len(result.games) == len(document["games"])
    listed = [{k: x for k, x in v.items() if k != "player"}
              for g in document["games"] for v in g["violations"]]
    assert [v.to_dict() for v in result.violations] == listed


@pytest.mark.parametrize("path", one_file_per_format(), ids=lambda p: p.parent.name)
def test_audit_of_a_corpus_file_is_the_commands_document(
        path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert kansa.audit(path).to_dict() == cli_document(path, capsys)
    assert kansa.audit(path, "ema").to_dict() == cli_document(path, capsys, "--rules", "ema")


def test_the_corpus_has_every_format() -> None:
    if not corpus_path().is_dir():
        pytest.skip(f"corpus not found at {corpus_path()}")
    assert len(one_file_per_format()) >= 5


def test_audit_of_a_game_is_the_audit_of_its_file() -> None:
    path = ROOT / "sample_logs" / "disputes" / "furiten-discard.mjson"
    game, = kansa.read(path)
    by_game, by_path = kansa.audit(game), kansa.audit(path)
    assert by_game.to_dict() == by_path.to_dict()
    assert by_game.games == [game]
    assert [v.rule for v in by_game.violations] == ["furiten.discard", "log.truncated"]
    assert by_game.hands[0].label == "E1-0"
    assert by_game.ledger and all(t.hand == 0 for t in by_game.ledger)  # the one hand


def test_a_rule_set_object_or_a_preset_name() -> None:
    path = ROOT / "sample_logs" / "disputes" / "fifth-kan.mjson"
    by_name = kansa.audit(path, rules="tenhou")
    by_object = kansa.audit(path, rules=kansa.RuleSet.preset("tenhou"))
    assert by_name.to_dict() == by_object.to_dict()
    assert "kan.dora" in {v.rule for v in by_name.violations}
    assert "kan.dora" not in {v.rule for v in kansa.audit(path).violations}  # auto: ema


def test_read_takes_a_path_a_string_or_bytes() -> None:
    path = ROOT / "sample_logs" / "games" / "tenhou-112.mjson"
    from_path, from_str = kansa.read(path), kansa.read(str(path))
    from_bytes = kansa.read(path.read_bytes())
    assert [g.events for g in from_path] == [g.events for g in from_str] == \
        [g.events for g in from_bytes]
    assert from_bytes[0].source == "<bytes>" and from_path[0].source == str(path)
    assert kansa.read(path.read_bytes(), fmt="mjai")[0].events == from_path[0].events


def test_read_names_the_problem() -> None:
    with pytest.raises(kansa.LogFormatError, match=r"^<bytes>:2: not a JSON object"):
        kansa.read(b'{"type":"start_game"}\nnot json\n')
    with pytest.raises(kansa.LogFormatError, match="cannot read file"):
        kansa.read("no/such/file.mjson")


def test_audit_never_raises_for_bad_input() -> None:
    missing = kansa.audit("no/such/file.mjson")
    assert missing.status == "unreadable" and missing.games == []
    assert missing.error is not None and "cannot read file" in missing.error.message
    assert missing.to_dict()["summary"]["unreadable"] == 1
    broken = kansa.audit(b"\x00\x01 not a log")
    assert broken.status == "unreadable" and broken.file == "<bytes>"


def test_short_reprs() -> None:
    game, = kansa.read(ROOT / "sample_logs" / "games" / "tenhou-12.json")
    assert repr(game) == "<Game tenhou6 kansa-sim-tenhou-12 4p 14 hands>"
    dispute, = kansa.read(ROOT / "sample_logs" / "disputes" / "late-claim.mjson")
    assert repr(dispute) == "<Game mjai late-claim.mjson 4p 1 hand>"  # no log id: the file
    result = kansa.audit(ROOT / "sample_logs" / "disputes" / "late-claim.mjson")
    assert re.fullmatch(r"<Audit \S+late-claim\.mjson findings: 1 game, 1 hand, "
                        r"2 findings \(1 error\)>", repr(result))
    table = kansa.Table("ema")
    assert repr(table) == "<Table ema no hand yet, 0 events, 0 findings>"
    for ev in dispute.events[:6]:
        table.push(ev)
    assert repr(table) == "<Table ema E1-0, 6 events, 1 finding>"  # the late pon


def test_a_game_repr_stays_short_however_long_the_game() -> None:
    game, = kansa.read(ROOT / "sample_logs" / "games" / "ema-23.mjson")
    assert len(game.events) > 1000 and len(repr(game)) < 80


def test_every_exported_name_resolves() -> None:
    for name in kansa.__all__:
        assert getattr(kansa, name) is not None, name
    assert kansa.Tile.from_mjai("5mr") is kansa.Tile.M5R
    assert issubclass(kansa.Hora, object) and kansa.Table is kansa.Table
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        kansa.nothing  # type: ignore[attr-defined]  # noqa: B018


def test_import_kansa_stays_light() -> None:
    """``import kansa`` loads no engine or parser: the names come on first use."""
    code = ("import sys, kansa; light = 'kansa.runner' not in sys.modules; kansa.audit; "
            "print(light, 'kansa.runner' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, check=True, timeout=120)
    assert done.stdout.split() == ["True", "True"]


# -- the README's Python API section ---------------------------------------------------

def readme_api_examples() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("\n## Python API\n", 1)[1].split("\n## ", 1)[0]
    return "\n".join(re.findall(r"^```pycon\n(.*?)^```", section, re.M | re.S))


def test_the_readme_api_examples_run(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every ``>>>`` line of the section's ``pycon`` blocks gives the output shown."""
    monkeypatch.chdir(ROOT)
    examples = readme_api_examples()
    parser = doctest.DocTestParser()
    test = parser.get_doctest(examples, {}, "README.md#python-api", "README.md", 0)
    assert len(test.examples) >= 10
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.failed == 0 and result.attempted == len(test.examples)
