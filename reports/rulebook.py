"""The rule texts a dispute packet shows, and the rule sets' penalties.

The EMA Riichi Competition Rules sections kansa's checks cite are carried in
``rule_texts.json`` beside this module: each section's text in the language of the
translation it was taken from (the project's seeds, Spanish and French), with a short
English summary written for kansa.  A section the seeds do not hold has a summary and
no text.

>>> sections_cited("EMA RCR 3.3.12, 3.4.5")
['3.3.12', '3.4.5']
>>> sections_cited("EMA RCR 3.4.9-3.4.10 (payments, counters)")
['3.4.9', '3.4.10']
>>> section("3.4.5").language
'es'
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

EDITION_2016 = "2016"
"""Citations naming this edition point at a numbering the seeds' older edition lacks."""

_NUMBER = re.compile(r"\d+(?:\.\d+)+")
_RANGE = re.compile(r"(\d+(?:\.\d+)+)\s*-\s*(\d+(?:\.\d+)+)")


@dataclass(frozen=True, slots=True)
class Section:
    """One section of the EMA rules as kansa carries it."""

    number: str
    title: str | None
    summary: str
    text: str | None
    """The section in its original language; ``None`` when the seeds do not hold it."""
    language: str | None
    seed: str | None
    """The seed file the text was taken from."""
    note: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"section": self.number, "title": self.title, "summary": self.summary,
                "text": self.text, "language": self.language, "seed": self.seed,
                "note": self.note}


@cache
def _sections() -> dict[str, Section]:
    raw = json.loads(resources.files("kansa.reports").joinpath("rule_texts.json")
                     .read_text(encoding="utf-8"))
    return {number: Section(number=number, title=d.get("title"), summary=d["summary"],
                            text=d.get("text"), language=d.get("language"),
                            seed=d.get("seed"), note=d.get("note"))
            for number, d in raw["sections"].items()}


def all_sections() -> dict[str, Section]:
    """Every section carried, by number."""
    return dict(_sections())


def section(number: str) -> Section | None:
    return _sections().get(number)


def _expand(first: str, last: str) -> list[str]:
    """``3.3.5``-``3.3.7``: the carried sections from the first to the last."""
    head, _, start = first.rpartition(".")
    head_last, _, end = last.rpartition(".")
    if head != head_last or not start.isdigit() or not end.isdigit():
        return [first, last]
    return [f"{head}.{n}" for n in range(int(start), int(end) + 1)]


def sections_cited(citation: str) -> list[str]:
    """The EMA section numbers a citation names (empty when it names none, or names
    the 2016 edition's numbering, which the carried older edition does not share)."""
    at = citation.find("EMA RCR")
    if at < 0:
        return []
    rest = citation[at + len("EMA RCR"):]
    rest = re.split(r"[;(:]", rest, maxsplit=1)[0]
    if rest.strip().startswith(EDITION_2016):
        return []
    out: list[str] = []
    for part in re.split(r",|\band\b", rest):
        ranged = _RANGE.search(part)
        if ranged:
            out.extend(_expand(ranged.group(1), ranged.group(2)))
        else:
            out.extend(_NUMBER.findall(part))
    return list(dict.fromkeys(out))


def rule_texts(citation: str) -> list[Section]:
    """The carried sections a citation names, in its order (unknown numbers left out)."""
    found = (section(n) for n in sections_cited(citation))
    return [s for s in found if s is not None]


CHOMBO = frozenset({"furiten.discard", "furiten.temporary", "furiten.riichi",
                    "win.incomplete", "win.no-yaku", "riichi.not-tenpai"})
"""Offences that are a false declaration of a win (or a riichi on a hand that was not
waiting): chombo under the competition rules."""

DEAD_HAND = frozenset({"tiles.hand-size", "tiles.not-in-hand"})
"""Offences that leave the player with a dead hand under the competition rules."""

ONLINE = frozenset({"tenhou", "majsoul"})


def penalty(rule: str, ruleset: str) -> dict[str, str | None]:
    """What the rule set ``ruleset`` (a preset's name, or the base of a rule file) does
    to the player for an offence against ``rule``: ``penalty`` (``None`` where the rule
    set says nothing kansa can cite) and ``source``."""
    if ruleset in ONLINE:
        return {"penalty": None, "source": None,
                "note": f"{ruleset} is an online platform: its client does not offer an "
                        "illegal action, so it has no penalty; a finding here means the log "
                        "does not show what the platform allowed (a conversion or an edit)"}
    if ruleset == "ema" and rule in CHOMBO:
        return {"penalty": "chombo: 20,000 points taken from the player's score, applied "
                           "after the uma",
                "source": "EMA Riichi Competition Rules 2016, penalties (the 2016 change "
                          "list: 'Chombo -20,000 applied after uma')",
                "note": None}
    if ruleset == "wrc" and rule in CHOMBO:
        return {"penalty": "chombo: 30,000 points (WRC 2022)",
                "source": "WRC 2022 rule changes (the WRC 2015 text's figure is not in the "
                          "sources kansa read)",
                "note": None}
    if ruleset in ("ema", "wrc") and rule in DEAD_HAND:
        return {"penalty": "dead hand: the player may not win or call for the rest of the "
                           "hand, keeps drawing and discarding, and is noten at an "
                           "exhaustive draw",
                "source": "EMA RCR 3.3.5 (a claimed tile not taken before two discards: "
                          "dead hand); the other dead-hand cases are in the penalty "
                          "chapter, not in the texts kansa carries",
                "note": None}
    return {"penalty": None, "source": None,
            "note": f"the {ruleset} rule set as kansa knows it names no penalty for this: "
                    "the referee decides"}
