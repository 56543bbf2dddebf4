"""``kansa explain``: the referee's dispute packet of one hand (HTML, JSON or text).

The page is :mod:`kansa.reports.packet`; the evidence it is drawn from is
:func:`kansa.packet.build_packet`; ``--text`` prints the hand as lines of tiles, step
by step up to the finding, for a terminal.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from kansa import __version__
from kansa.options import (
    UsageError,
    limits_from,
    resolve_rules,
)
from kansa.packet import Chosen, PacketError, build_packet, packet_for, read_games
from kansa.replay.rules import RuleSet
from kansa.reports.links import finding_key
from kansa.reports.packet import render_packet
from kansa.reports.tiles_html import WIND_LETTERS
from kansa.runner import FileResults

EXIT_OK = 0
EXIT_FAILED = 3


def cmd_explain(args: argparse.Namespace) -> int:
    if not Path(args.path).is_file():
        raise UsageError(f"no such file: {args.path}")
    rules = resolve_rules(args.rules)
    try:
        doc = build_packet(args.path, rules, hand=args.hand, finding=args.finding,
                           limits=limits_from(args))
    except PacketError as exc:
        print(f"kansa explain: {exc}", file=sys.stderr)
        return EXIT_FAILED
    if args.text:
        sys.stdout.write("\n".join(text_lines(doc, args.finding)) + "\n")
        return EXIT_OK
    if args.json and args.output is None:
        json.dump(doc, sys.stdout, ensure_ascii=False, indent=1)
        sys.stdout.write("\n")
        return EXIT_OK
    out = Path(args.output or "packet.html")
    write_packet(doc, out, evidence=args.json)
    print(f"{out}: {doc['file']} game {doc['game']} hand {doc['hand']}, "
          f"{len(doc['steps'])} steps, {len(doc['findings'])} findings", file=sys.stderr)
    return EXIT_OK


def write_packet(doc: Mapping[str, Any], out: Path, *, evidence: bool = False) -> None:
    """Write the page (and with ``evidence`` the JSON beside it, ``out`` + ``.json``)."""
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(render_packet(doc, generator=f"kansa {__version__}"), encoding="utf-8")
    if evidence:
        Path(f"{out}.json").write_text(json.dumps(doc, ensure_ascii=False, indent=1) + "\n",
                                       encoding="utf-8")


def _seat_line(state: Mapping[str, Any], seat: int, dealer: int) -> str:
    scores = state.get("scores")
    score = f"{scores[seat]:>7,}" if scores is not None else " " * 7
    hand = state["hands"][seat] + "?" * int(state["hidden"][seat])
    melds = " ".join(f"[{m}]" for m in state["melds"][seat])
    river = " ".join(state["rivers"][seat])
    riichi = " R" if state["riichi"][seat] else "  "
    return (f"  {seat} {WIND_LETTERS[(seat - dealer) % 4]}{riichi} {score}  {hand:<18}"
            f"{(' ' + melds) if melds else ''}  | {river}")


def text_lines(doc: Mapping[str, Any], finding: int | None = None) -> list[str]:
    """The hand step by step up to its finding (``finding``: the file's number of the
    one to stop at; by default the hand's first error, else its first finding, else the
    hand's end); river tiles: ``*`` the riichi tile, ``>`` called away."""
    found = doc["findings"]
    errors = [f for f in found if f["severity"] == "error"]
    target = next((f for f in found if finding is not None and f["number"] == finding),
                  None) or (errors or found or [None])[0]
    last = int(target["step"]) if target is not None else len(doc["steps"]) - 1
    dealer = int(doc["dealer"])
    lines = [f"{doc['file']} game {doc['game']} hand {doc['hand']} under {doc['rules']} "
             f"(sha256 {doc['sha256'][:16]}...): steps 0-{last} of {len(doc['steps']) - 1}"]
    for s in doc["steps"][:last + 1]:
        st = s["state"]
        lines.append(f"step {s['step']}: {s['text']}")
        if st is None:
            continue
        lines.append(f"  dora {' '.join(st['dora_markers'])} · wall {st['live_wall']}")
        lines.extend(_seat_line(st, seat, dealer) for seat in range(len(st["hands"])))
    if target is not None:
        lines.append(f"FINDING {target['rule']} ({target['severity']}) at step "
                     f"{target['step']}: {target['message']}")
        lines.append(f"  rule: {target['citation']}")
        if target["legal"]:
            lines.append(f"  legal instead: {target['legal']['text']}")
        pen = target["penalty"]
        lines.append("  penalty: " + (f"{pen['penalty']} ({pen['source']})" if pen["penalty"]
                                      else str(pen["note"])))
    return lines


def packet_name(file: str, game: int, hand: str) -> str:
    """A packet's file name: the log's name, the game's number and the hand, made safe."""
    stem = re.sub(r"[^\w.-]+", "_", Path(file.replace("!", "/")).name)[:80]
    return f"{stem}-g{game}-{hand}.html"


def write_report_packets(files: Iterable[FileResults], folder: Path, report: Path,
                         rules: str | RuleSet) -> dict[str, str]:
    """A packet in ``folder`` for each hand of ``files`` with a finding; the link of
    each finding (by :func:`~kansa.reports.links.finding_key`), relative to the
    ``report`` page's folder.  Inputs that cannot be read again (archive members,
    standard input) get no packet, and say so on standard error."""
    links: dict[str, str] = {}
    used: set[str] = set()
    folder.mkdir(parents=True, exist_ok=True)
    base = report.resolve().parent
    for f in files:
        for leaf in f.members or [f]:
            found = [r for r in leaf.results if any(v.hand for v in r.violations)]
            if not found:
                continue
            if not Path(leaf.file).is_file():
                print(f"kansa report: no dispute packets for {leaf.file}: it cannot be "
                      "read again on its own", file=sys.stderr)
                continue
            try:
                data, games = read_games(leaf.file)
            except PacketError as exc:
                print(f"kansa report: no dispute packets for {leaf.file}: {exc}",
                      file=sys.stderr)
                continue
            for r in found:
                if not 0 <= r.index < len(games):
                    continue
                for hand in dict.fromkeys(v.hand for v in r.violations if v.hand):
                    doc = packet_for(leaf.file, data, games[r.index], Chosen(r.index, hand),
                                     rules=rules, violations=r.violations)
                    name = packet_name(leaf.file, r.index, hand)
                    while name in used:  # two logs of the same name in different folders
                        name = f"{name.removesuffix('.html')}-{len(used)}.html"
                    used.add(name)
                    out = folder / name
                    write_packet(doc, out)
                    href = Path(os.path.relpath(out.resolve(), base)).as_posix()
                    for number, v in enumerate(r.violations):
                        if v.hand == hand:
                            links[finding_key(r.source, r.index, number)] = \
                                f"{href}#finding-{number}"
    return links
