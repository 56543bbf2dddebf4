"""The README's Reports section stays true to the code."""

from __future__ import annotations

import re
from pathlib import Path

from kansa.reports.metrics import markdown
from kansa.reports.tables import SCHEMAS

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def reports_section() -> str:
    return README.split("## Reports", 1)[1].split("\n## ", 1)[0]


def test_metric_table_is_generated_from_the_code() -> None:
    block = re.search(r"<!-- metrics:begin -->\n(.*?)<!-- metrics:end -->", README, re.S)
    assert block, "README lacks the metrics markers"
    assert block.group(1) == markdown(), (
        "README metric table is stale: replace it with the output of "
        "`python -m kansa.reports.metrics`")


def test_every_table_column_is_documented() -> None:
    section = reports_section()
    missing = [f"{table}.{col}" for table, cols in SCHEMAS.items() for col in cols
               if f"`{col}`" not in section]
    assert missing == []


def test_images_made_by_the_project_are_there() -> None:
    for image in re.findall(r"!\[[^\]]*\]\((docs/[^)]+)\)", reports_section()):
        assert (ROOT / image).read_bytes().startswith(b"\x89PNG"), image
    assert (ROOT / "docs" / "make-images.sh").exists()
