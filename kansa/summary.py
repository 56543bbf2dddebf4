"""The text summary ``kansa audit`` prints for a person: counts, then the findings listed."""

from __future__ import annotations

import os
from typing import Any, TextIO

from kansa.problems import FileProblem

_SGR = {"error": "1;31", "warning": "33", "rule": "36", "dim": "2"}


def colour_wanted(choice: str, stream: TextIO) -> bool:
    """``--color``: ``always``, ``never`` or ``auto`` (a terminal, unless ``NO_COLOR``
    is set; ``FORCE_COLOR`` turns it on when not a terminal)."""
    if choice != "auto":
        return choice == "always"
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR", "0") not in ("", "0"):
        return True
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty()) and os.environ.get("TERM") != "dumb"


class Painter:
    """Wraps text in ANSI colours, or leaves it as it is."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled

    def __call__(self, text: str, style: str) -> str:
        return f"\x1b[{_SGR[style]}m{text}\x1b[0m" if self.enabled else text


def player_label(player: dict[str, Any] | None) -> str:
    """``seat 2 (West, Costa)``; ``seat 2`` without wind or name; ``""`` for none."""
    if player is None:
        return ""
    details = [d for d in (player.get("wind"), player.get("name")) if d]
    return f"seat {player['seat']}" + (f" ({', '.join(details)})" if details else "")


def finding_line(file: str, v: dict[str, Any], paint: Painter) -> str:
    """One finding: where, which hand and player, the rule, what happened, the citation."""
    player = v.get("player")
    if player is None and v.get("seat") is not None:  # a document from before players
        player = {"seat": v["seat"]}
    where = " ".join(part for part in (v.get("hand"), player_label(player)) if part)
    severity = v["severity"]
    tag = paint(f"[{v['rule']}]", "rule")
    if severity != "error":
        tag = paint(severity, severity) + " " + tag
    return (f"  {v['source'] or file}: " + (f"{where}: " if where else "")
            + f"{tag} {v['message']} ({v['citation']})")


def print_summary(doc: dict[str, Any], listed: list[tuple[str, dict[str, Any]]],
                  out: TextIO, *, unlisted: dict[str, int] | None = None,
                  paint: Painter | None = None, more_hint: str = "") -> None:
    """The counts of ``doc`` (a document without its games), then each finding of
    ``listed``, then how many were left out of the listing and how to see them."""
    paint = paint or Painter(False)
    s = doc["summary"]
    errors = sum(s["errors_by_rule"].values())
    warnings = sum(s["violations"].values()) - errors
    print(f"{s['files']} files, {s['games']} games, {s['hands']} hands, {s['wins']} wins "
          f"in {s['seconds']:.1f} s" + (f" ({s['from_store']} files taken from the store)"
                                         if s.get("from_store") else ""), file=out)
    print(f"  {s['wins_valued']} wins valued, {s['hands_compared']} hands' payments compared, "
          f"{s['transfers']} transfers in the ledger", file=out)
    wall = s.get("wall")
    if wall and (wall["verified"] or wall["mismatched"] or wall.get("partial")):
        print(f"  walls against the shuffle seed: {wall['verified']} hands verified, "
              f"{wall['mismatched']} mismatched" + (f", {wall['partial']} in part"
                                                    if wall.get("partial") else "")
              + f", {wall['no_seed']} without a seed", file=out)
    print(f"  clean {s['clean']}, with findings {s['with_findings']}, unsupported "
          f"{s['unsupported']}, unreadable {s['unreadable']}, internal errors "
          f"{s['internal_errors']}" + (f", not audited {s['not_audited']}"
                                       if s["not_audited"] else ""), file=out)
    print(f"  {paint(f'{errors} errors', 'error') if errors else '0 errors'}, "
          f"{warnings} warnings", file=out)
    for rule, n in sorted(s["violations"].items(), key=lambda kv: (-kv[1], kv[0])):
        sev = "error" if rule in s["errors_by_rule"] else "warning"
        print(f"    {n:6d}  {paint(rule, 'rule')} ({paint(sev, sev)})", file=out)
    if s.get("notes"):  # the readers' info diagnostics
        print(f"  {s['notes']} notes (disconnections, reconnections, defaults taken): "
              "not findings; --json lists them", file=out)
    for file, v in listed:
        print(finding_line(file, v, paint), file=out)
    left = {sev: n for sev, n in (unlisted or {}).items() if n}
    if left:
        counts = " and ".join(f"{n} {sev}s" for sev, n in sorted(left.items()))
        print(f"  ... and {counts} more, not listed" + (f" ({more_hint})" if more_hint else ""),
              file=out)
    for u in doc["unreadable"]:
        print(f"  {FileProblem.from_dict('unreadable', u).line()}", file=out)
    for u in doc["unsupported"]:
        print(f"  {FileProblem.from_dict('unsupported', u).line()}", file=out)
    for u in doc["internal_errors"]:
        print(f"  {paint('INTERNAL ERROR', 'error')} (please report): "
              f"{FileProblem.from_dict('internal', u).line()}", file=out)
