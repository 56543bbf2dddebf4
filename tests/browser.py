"""A headless Chromium driven by Playwright for Python: Debian's ``chromium`` (or
``$KANSA_CHROMIUM``, see :func:`headless.find_browser`), never a downloaded browser.

The ``browser`` fixture skips when Playwright or Chromium is missing, unless
``KANSA_REQUIRE_CHROMIUM=1`` (as ``.ci/run`` sets), when it fails.  :func:`open_page`
loads a file and keeps what a person would not see: console errors, uncaught
exceptions and every request that leaves the file.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from headless import find_browser

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run"]
OUTPUT = Path(__file__).resolve().parents[1] / "test-output"
"""Where the browser tests write their screenshots (ignored by git)."""


def _missing(why: str) -> None:
    if os.environ.get("KANSA_REQUIRE_CHROMIUM") == "1":
        pytest.fail(f"{why} (KANSA_REQUIRE_CHROMIUM=1)")
    pytest.skip(why)


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    try:
        from playwright.sync_api import sync_playwright  # noqa: PLC0415
    except ImportError:
        _missing("Playwright for Python is not installed (pip install '.[test]')")
    executable = find_browser()
    if executable is None:
        _missing("headless Chromium not found (apt-get install chromium, or set "
                 "KANSA_CHROMIUM)")
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=executable, args=FLAGS)
        try:
            yield chromium
        finally:
            chromium.close()


@dataclass
class Opened:
    """A page loaded from a file, with what went wrong while it ran."""

    page: Any
    errors: list[str] = field(default_factory=list)
    """Console errors and uncaught exceptions."""
    requests: list[str] = field(default_factory=list)
    """Requests for anything but the file itself."""


def open_page(browser: Any, path: Path, *, width: int = 1280, height: int = 900) -> Opened:
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    opened = Opened(page)
    url = path.resolve().as_uri()
    page.on("console", lambda m: opened.errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: opened.errors.append(str(e)))
    page.on("request", lambda r: opened.requests.append(r.url) if r.url != url else None)
    page.goto(url)
    page.wait_for_load_state("load")
    return opened


def screenshot(opened: Opened, name: str) -> Path:
    OUTPUT.mkdir(exist_ok=True)
    out = OUTPUT / name
    opened.page.screenshot(path=str(out), full_page=True)
    return out
