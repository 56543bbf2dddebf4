"""The check catalog as text, JSON and Markdown; the README's tables of checks and formats.

The checks are generated from :data:`kansa.replay.violations.RULES`, the catalog the
checks themselves report from, and the formats from
:data:`kansa.parsers.registry.REGISTRY`, the list the loader reads, so ``kansa rules``
and the README cannot drift from the code.  ``python -m kansa.docs`` rewrites the
README tables; ``python -m kansa.docs --check`` exits 1 when one is out of date.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import kansa.replay.engine  # noqa: F401  (registers every check)
from kansa.parsers.registry import REGISTRY
from kansa.replay.rules import RuleSet
from kansa.replay.violations import RULES, RuleSpec

BEGIN = "<!-- rules:begin -->"
END = "<!-- rules:end -->"
FORMATS_BEGIN = "<!-- formats:begin -->"
FORMATS_END = "<!-- formats:end -->"
README = Path(__file__).resolve().parents[1] / "README.md"


def catalog() -> list[RuleSpec]:
    """Every rule id, sorted by id."""
    return [RULES[k] for k in sorted(RULES)]


def citation(spec: RuleSpec, rules: RuleSet | None) -> str:
    """The rule's citation for ``rules`` (the EMA one without a rule set)."""
    return spec.cite(rules.name, rules.base) if rules is not None else spec.citation


def as_json(rules: RuleSet | None) -> dict[str, Any]:
    return {
        "rules": rules.to_mapping() if rules is not None else None,
        "checks": [{"id": s.id, "severity": s.severity.value, "title": s.title,
                    "citation": citation(s, rules), "description": s.description}
                   for s in catalog()],
    }


def as_text(rules: RuleSet | None) -> str:
    specs = catalog()
    width = max(len(s.id) for s in specs)
    head = (f"kansa checks under rule set {rules.name}" if rules is not None
            else "kansa checks (citations: EMA Riichi Competition Rules)")
    lines = [head, ""]
    for s in specs:
        lines.append(f"{s.id:<{width}}  {s.severity.value:<7}  {s.title}")
        lines.append(f"{'':<{width}}  {'':<7}  {citation(s, rules)}")
    if rules is not None:
        lines += ["", f"rule set {rules.name} (base {rules.base or rules.name}):"]
        for key, value in rules.to_mapping().items():
            lines.append(f"  {key} = {_toml_value(value)}")
    return "\n".join(lines) + "\n"


def as_toml(rules: RuleSet) -> str:
    """``rules`` as a TOML rule file: every field, which ``--rules FILE.toml`` reads
    back to the same rule set."""
    lines = [f"# kansa rule set {rules.name} (base {rules.base or rules.name}); "
             "edit the values, or keep only base and the keys you change"]
    for key, value in rules.to_mapping().items():
        lines.append(f"{key} = {_toml_value(value)}")
    return "\n".join(lines) + "\n"


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        return repr(value) if math.isfinite(value) else ("inf" if value > 0 else "-inf")
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)  # a JSON string is a TOML basic string
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    raise TypeError(f"no TOML form for {type(value).__name__} {value!r}")


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def as_markdown(rules: RuleSet | None = None) -> str:
    """The table of checks, one row per rule id."""
    cite = f"citation ({rules.name})" if rules is not None else "citation"
    rows = [f"| id | severity | what | {cite} |", "|---|---|---|---|"]
    for s in catalog():
        rows.append(f"| `{s.id}` | {s.severity.value} | **{_cell(s.title)}.** "
                    f"{_cell(s.description)} | {_cell(citation(s, rules))} |")
    return "\n".join(rows) + "\n"


def formats_markdown() -> str:
    """The table of formats, one row per format of the registry, in sniffing order."""
    rows = ["| format | `--format` | read | write | notes |", "|---|---|---|---|---|"]
    for f in REGISTRY:
        write = f"yes (`kansa convert --to {f.name}`, `{f.suffix}`)" if f.writer else "no"
        rows.append(f"| {_cell(f.title)} | `{f.name}` | yes | {write} | "
                    f"{_cell(f.description)} |")
    return "\n".join(rows) + "\n"


def readme_block(text: str, begin: str = BEGIN, end: str = END) -> tuple[int, int]:
    """Where a generated table (the checks' by default) sits in the README text.

    :raises ValueError: when the markers are missing.
    """
    start = text.find(begin)
    stop = text.find(end)
    if start < 0 or stop < start:
        raise ValueError(f"README has no {begin} ... {end} block")
    return start + len(begin), stop


def updated_readme(text: str) -> str:
    """``text`` with both generated tables (checks, formats) written afresh."""
    for begin, end, table in ((BEGIN, END, as_markdown()),
                              (FORMATS_BEGIN, FORMATS_END, formats_markdown())):
        start, stop = readme_block(text, begin, end)
        text = text[:start] + "\n" + table + text[stop:]
    return text


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m kansa.docs",
        description="Regenerate the README's tables of checks and formats.")
    parser.add_argument("--check", action="store_true",
                        help="exit 1 if the README table is out of date, without writing")
    parser.add_argument("--readme", type=Path, default=README)
    args = parser.parse_args(argv)
    text = args.readme.read_text(encoding="utf-8")
    new = updated_readme(text)
    if new == text:
        return 0
    if args.check:
        print(f"{args.readme}: a generated table is out of date; run python -m kansa.docs",
              file=sys.stderr)
        return 1
    args.readme.write_text(new, encoding="utf-8")
    print(f"{args.readme}: generated tables updated")
    return 0


if __name__ == "__main__":
    sys.exit(main())
