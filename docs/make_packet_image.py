"""Remake docs/packet.png, the README's picture of a dispute packet: ``kansa explain``
on ``sample_logs/disputes/furiten-discard.mjson``, drawn by Debian's chromium through
Playwright (``pip install '.[test]'``; ``$KANSA_CHROMIUM`` names another browser).

Usage: python docs/make_packet_image.py
"""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from PIL import Image
from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[1]
LOG = "sample_logs/disputes/furiten-discard.mjson"
"""Relative to the checkout, as a referee would type it (the page names the file so)."""
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run"]


def main() -> None:
    browser = os.environ.get("KANSA_CHROMIUM") or shutil.which("chromium")
    if browser is None:
        sys.exit("chromium not found (apt-get install chromium, or set KANSA_CHROMIUM)")
    with tempfile.TemporaryDirectory() as tmp:
        page_file = Path(tmp) / "packet.html"
        subprocess.run([sys.executable, "-m", "kansa", "explain", LOG, "-o",
                        str(page_file)], check=True, cwd=ROOT)
        with sync_playwright() as p:
            chromium = p.chromium.launch(executable_path=browser, args=FLAGS)
            page = chromium.new_page(viewport={"width": 1100, "height": 900})
            page.goto(page_file.as_uri())
            shot = page.screenshot(full_page=True)
            chromium.close()
    # a 128-colour palette keeps the picture small in the repository
    image = Image.open(io.BytesIO(shot)).convert("RGB").quantize(128)
    image.save(ROOT / "docs" / "packet.png", optimize=True)
    print("wrote docs/packet.png")


if __name__ == "__main__":
    main()
