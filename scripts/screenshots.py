"""Take the README's pictures (docs/img/*.png) of the current app in a real headless Chromium.

    python scripts/screenshots.py [--out docs/img]

Starts ``streamlit run app.py`` headless on a free port, opens each page at 1400 px wide with
Debian's Chromium (``/usr/bin/chromium``, or $CHROMIUM), waits for the script to finish and saves
the visible part of the page. Look at every picture before committing it.
"""

from __future__ import annotations

import argparse
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from playwright.sync_api import sync_playwright

from offcenter.ops.serve import streamlit_command

ROOT = Path(__file__).resolve().parents[1]
#: (file name, page path and query, viewport height, what to do before the picture)
SHOTS = [
    ("home.png", "", 1100, None),
    ("two_classes.png", "Two_classes", 1000, "Figure 2"),
    ("q_classes.png", "Q_classes?tab=ternary", 1000, None),
    ("tree_page.png", "Tree?data=pima&max_depth=3", 1150, "scroll to the tree"),
    ("compare_measures.png", "Compare_measures", 1150, "open the KEEL study"),
]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_for_app(page) -> None:
    page.wait_for_selector("[data-testid='stApp']", timeout=60_000)
    page.wait_for_function(
        "() => !document.querySelector('[data-testid=\"stStatusWidget\"]')"
        " || !document.querySelector('[data-testid=\"stStatusWidget\"]').innerText"
        ".includes('Running')",
        timeout=120_000,
    )
    page.wait_for_timeout(1000)


def _wait_for_figures(page) -> None:
    """Wait until every Plotly figure of the page has drawn, then for the app to be idle."""
    page.wait_for_selector(".js-plotly-plot .main-svg", state="attached", timeout=120_000)
    page.wait_for_function(
        "() => [...document.querySelectorAll('[data-testid=\"stPlotlyChart\"]')]"
        ".every(c => c.querySelector('.main-svg'))",
        timeout=120_000,
    )
    _wait_for_app(page)
    page.wait_for_timeout(1500)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=str(ROOT / "docs" / "img"))
    ap.add_argument("--only", nargs="*", help="file names to take (default: all)")
    args = ap.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    proc = subprocess.Popen(
        streamlit_command(port, "127.0.0.1", "--server.fileWatcherType", "none"),
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 300  # its own warm-up runs before it answers
        while True:
            try:
                with urllib.request.urlopen(url + "/_stcore/health", timeout=2):
                    break
            except OSError:
                if time.monotonic() > deadline or proc.poll() is not None:
                    raise SystemExit("streamlit did not start") from None
                time.sleep(0.5)
        # run every page once, so that no picture shows a cold page's placeholders
        import asyncio

        from offcenter.ops.warmup import warm

        asyncio.run(warm([port], ["", "Two_classes", "Q_classes", "Tree", "Compare_measures"]))
        chromium = os.environ.get("CHROMIUM", "/usr/bin/chromium")
        with sync_playwright() as pw:
            browser = pw.chromium.launch(
                executable_path=chromium, args=["--no-sandbox", "--disable-gpu"], headless=True
            )
            for name, path, height, action in SHOTS:
                if args.only and name not in args.only:
                    continue
                ctx = browser.new_context(viewport={"width": 1400, "height": height})
                page = ctx.new_page()
                page.goto(f"{url}/{path}")
                _wait_for_app(page)
                if action == "scroll to the tree":
                    _wait_for_figures(page)
                    page.locator("[data-testid='stPlotlyChart']").first.scroll_into_view_if_needed()
                    page.mouse.move(700, 600)
                    page.mouse.wheel(0, -160)
                    page.wait_for_timeout(1000)
                elif action == "open the KEEL study":
                    page.get_by_text("The KEEL benchmark").first.click()
                    _wait_for_app(page)
                    _wait_for_figures(page)
                    page.mouse.move(700, 600)
                    page.mouse.wheel(0, 560)  # the app scrolls its own container
                    page.wait_for_timeout(1000)
                elif action:  # a preset button
                    page.get_by_role("button", name=action).first.click()
                    _wait_for_app(page)
                _wait_for_figures(page)
                page.mouse.move(5, 5)  # no tooltip in the picture
                page.wait_for_timeout(500)
                page.screenshot(path=str(out / name))
                print(out / name)
                ctx.close()
            browser.close()
    finally:
        proc.terminate()
        proc.wait(timeout=20)
    return 0


if __name__ == "__main__":
    sys.exit(main())
