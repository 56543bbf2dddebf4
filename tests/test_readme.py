"""The README's Quickstart stays true: two commands, the second is what CI runs."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def quickstart_commands() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## Quickstart", 1)[1].split("\n## ", 1)[0]
    block = re.search(r"```sh\n(.*?)```", section, re.S)
    assert block, "Quickstart has no sh block"
    return [line for line in block.group(1).splitlines() if line.strip()]


def test_quickstart_is_two_commands() -> None:
    first, second = quickstart_commands()
    assert "kansa audit sample_logs/" in first and "pip install ." in first
    assert "pytest" in second and "[test]" in second


def test_ci_runs_the_readme_test_command() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert quickstart_commands()[1] in ci
