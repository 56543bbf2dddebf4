"""Counts of the corpus read from the raw files, independent of kansa's parsers.

Tenhou XML is counted with regular expressions over the tags, the JSON formats from
their own fields, and the file list and game counts from the corpus's MANIFEST.tsv.
The corpus README documents its first 184 Tenhou XML games (every folder but
``dnovikoff__tenhou``): :data:`DOCUMENTED_XML` pins those figures, so the counting
here is itself checked against a figure nobody computed with it.
"""

from __future__ import annotations

import csv
import gzip
import json
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

LATER_XML_FOLDER = "dnovikoff__tenhou"
"""The Tenhou XML folder added after the README's figures were written."""

THREE_PLAYER_BIT = 0x10
"""The ``GO type`` bit of a three-player Tenhou game."""

_GO_TYPE = re.compile(r'<GO type="(\d+)"')
_HAND = re.compile(r"<INIT ")
_RESULT = re.compile(r"<(AGARI|RYUUKYOKU) ")
_RIICHI = re.compile(r'<REACH who="\d" step="1"')


@dataclass(frozen=True, slots=True)
class XmlCounts:
    """What one or more Tenhou XML games show: hands (INIT), wins (AGARI), riichi
    declarations (REACH step 1) and hands with a result (AGARI or RYUUKYOKU)."""

    files: int = 0
    hands: int = 0
    wins: int = 0
    riichi: int = 0
    finished: int = 0

    def __add__(self, other: XmlCounts) -> XmlCounts:
        return XmlCounts(self.files + other.files, self.hands + other.hands,
                         self.wins + other.wins, self.riichi + other.riichi,
                         self.finished + other.finished)


DOCUMENTED_XML = XmlCounts(files=184, hands=1811, wins=1503, riichi=1340)
"""The corpus README's figures for its first 184 Tenhou XML games (``finished`` is not
documented there)."""


def read_text(path: Path) -> str:
    """A corpus file's text, gunzipped when it is gzip data."""
    raw = path.read_bytes()
    return (gzip.decompress(raw) if raw[:2] == b"\x1f\x8b" else raw).decode("utf-8")


def is_three_player_xml(text: str) -> bool:
    go = _GO_TYPE.search(text)
    return bool(go and int(go.group(1)) & THREE_PLAYER_BIT)


def xml_counts(text: str) -> XmlCounts:
    hands = _HAND.split(text)[1:]  # each hand's tags up to the next INIT
    return XmlCounts(files=1, hands=len(hands), wins=text.count("<AGARI "),
                     riichi=len(_RIICHI.findall(text)),
                     finished=sum(1 for h in hands if _RESULT.search(h)))


def four_player_xml(folder: Path) -> dict[str, str]:
    """Path -> text of every four-player Tenhou XML file under ``folder``."""
    out = {}
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        text = read_text(path)
        if not is_three_player_xml(text):
            out[str(path)] = text
    return out


def is_documented(path: str | Path) -> bool:
    """Whether a Tenhou XML file is one of the README's first 184."""
    return LATER_XML_FOLDER not in Path(path).parts


def total(texts: dict[str, str], documented: bool | None = None) -> XmlCounts:
    """The counts of ``texts``; only the documented (or only the later) files if asked."""
    out = XmlCounts()
    for path, text in texts.items():
        if documented is None or is_documented(path) == documented:
            out += xml_counts(text)
    return out


def check_documented(texts: dict[str, str]) -> None:
    """The regular expressions agree with the README on the files it documents."""
    got = total(texts, documented=True)
    assert (got.files, got.hands, got.wins, got.riichi) == (
        DOCUMENTED_XML.files, DOCUMENTED_XML.hands, DOCUMENTED_XML.wins,
        DOCUMENTED_XML.riichi), got


# -- the manifest and the JSON formats -------------------------------------------------

@dataclass(frozen=True, slots=True)
class ManifestRow:
    file: str
    """The path under the corpus folder."""
    format: str
    games: int
    players: int
    """From the notes, which start ``4p`` or ``3p``."""


def manifest(corpus: Path) -> list[ManifestRow]:
    with (corpus / "MANIFEST.tsv").open(encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    out = []
    for row in rows:
        notes = row["notes"]
        assert notes[:2] in ("3p", "4p"), row
        out.append(ManifestRow(row["file"], row["format"], int(row["n_games"]),
                               int(notes[0])))
    return out


def manifest_files(corpus: Path, folder: str) -> dict[Path, ManifestRow]:
    """The manifest's rows for the files under ``folder``, by absolute path."""
    return {corpus / r.file: r for r in manifest(corpus) if r.file.startswith(f"{folder}/")}


def manifest_games(corpus: Path, skip: frozenset[str] = frozenset()) -> Counter[str]:
    """Games per corpus folder (each named after its format), as the manifest lists them;
    files whose name is in ``skip`` left out."""
    out: Counter[str] = Counter()
    for r in manifest(corpus):
        if Path(r.file).name not in skip:
            out[r.file.split("/")[0]] += r.games
    return out


def _first_json(text: str) -> Any:
    """The first JSON value of a file (a whole document, or the first of JSON lines)."""
    return json.JSONDecoder().raw_decode(text.lstrip())[0]


def tenhou6_players(path: Path) -> int:
    """3 when the first hand leaves the fourth seat empty (no score, no starting hand),
    or the file names a three-player rating (``PF3``) or rule (``三...``); else 4."""
    obj = _first_json(read_text(path))
    first = obj["log"][0]
    if len(first[1]) == 3 or (first[1][3] == 0 and first[13] == []):
        return 3
    disp = obj.get("rule", {}).get("disp", "")
    return 3 if obj.get("ratingc") == "PF3" or str(disp).startswith("三") else 4


def mjai_lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in read_text(path).splitlines() if line.strip()]


def mjai_players(path: Path) -> int:
    """The number of starting hands of the first ``start_kyoku``."""
    start = next(o for o in mjai_lines(path) if o["type"] == "start_kyoku")
    return len(start["tehais"])


def mjai_games(path: Path) -> int:
    return sum(1 for o in mjai_lines(path) if o["type"] == "start_game")
