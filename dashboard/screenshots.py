"""Screenshots of every dashboard page, taken in a real browser (Playwright driving Debian's
chromium; Playwright cannot download its own browser offline).

    python -m dashboard.screenshots WAREHOUSE [--out docs/screenshots] [--port 8599] [--only trends]

docs/screenshots/trends.png is taken on the trends test corpus (a topic that grows week by
week, tests/support/trends_corpus.py), the other pages on the marts test corpus.

The helpers here (launching chromium, waiting for a Streamlit run to finish, searching) are
shared with tests/test_browser.py.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from pathlib import Path

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
VIEWPORT = {"width": 1400, "height": 1000}
# Streamlit scrolls inside its own container, so a "full page" shot is the viewport: make it tall.
SCREENSHOT_VIEWPORT = {"width": 1400, "height": 1800}


def launch(playwright):
    return playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)


# True when the page has drawn a run: a title, no "running" widget, no skeletons, every chart
# and table in view rendered to its canvas.
_READY_JS = """() => {
  const main = document.querySelector('[data-testid="stMain"]');
  if (!main || !main.querySelector('[data-testid="stHeading"]')) return false;
  if (document.querySelector('[data-testid="stStatusWidget"]')) return false;
  if (main.querySelector('[data-testid="stSkeleton"]')) return false;
  const shown = (e) => !e.closest('details:not([open])');  // not inside a closed expander
  for (const c of main.querySelectorAll('[data-testid="stVegaLiteChart"]'))
    if (shown(c) && !c.querySelector('canvas, svg')) return false;
  for (const f of main.querySelectorAll('[data-testid="stDataFrame"]'))
    if (shown(f) && !f.querySelector('canvas')) return false;
  return true;
}"""


def wait_idle(page, timeout_s: float = 30.0, stable_s: float = 1.5) -> None:
    """Wait until Streamlit has finished a run and the page has stayed drawn for `stable_s`
    (a rerun can start a moment after a click, so one ready check is not enough)."""
    deadline = time.monotonic() + timeout_s
    ready_since = None
    while time.monotonic() < deadline:
        if page.evaluate(_READY_JS):
            ready_since = ready_since or time.monotonic()
            if time.monotonic() - ready_since >= stable_s:
                return
        else:
            ready_since = None
        time.sleep(0.25)
    raise TimeoutError(f"dashboard page {page.url} did not finish drawing within {timeout_s:.0f} s")


def search(page, label: str, text: str) -> None:
    """Type into the text input with this label and submit it, as a person would."""
    box = page.get_by_label(label)
    box.fill(text)
    box.press("Enter")
    wait_idle(page)


def metrics(page) -> dict[str, str]:
    """Every st.metric on the page: label → the value as rendered."""
    labels = page.locator('[data-testid="stMetricLabel"]').all_inner_texts()
    values = page.locator('[data-testid="stMetricValue"]').all_inner_texts()
    return {label.strip(): value.strip() for label, value in zip(labels, values)}


# screenshot name (the page's url path unless URL_PATH says otherwise) → what to do before it
PAGES: dict[str, Callable | None] = {
    "overview": None,
    "authors": lambda page: search(page, "Search authors by name", "kempe"),
    "namesakes": lambda page: search(page, "Search authors by name", "wei wang"),  # a name worn by two people
    "categories": None,
    "papers": lambda page: search(page, "Search titles and abstracts", "diffusion"),
    "trends": None,
    "data_quality": None,
}
URL_PATH = {"overview": "", "namesakes": "authors"}


def take_screenshots(url: str, out_dir: Path, only: list[str] | None = None) -> list[Path]:
    from playwright.sync_api import sync_playwright

    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    with sync_playwright() as playwright:
        browser = launch(playwright)
        try:
            page = browser.new_page(viewport=SCREENSHOT_VIEWPORT)
            for path, action in PAGES.items():
                if only and path not in only:
                    continue
                page.goto(f"{url}/{URL_PATH.get(path, path)}")
                wait_idle(page)
                if action:
                    action(page)
                target = out_dir / f"{path}.png"
                page.screenshot(path=str(target))
                written.append(target)
        finally:
            browser.close()
    return written


def main() -> None:
    from flows.analytics import running_dashboard

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("warehouse", type=Path)
    parser.add_argument("--out", type=Path, default=Path("docs/screenshots"))
    parser.add_argument("--port", type=int, default=8599)
    parser.add_argument("--only", nargs="+", choices=list(PAGES), help="shoot these pages only")
    args = parser.parse_args()
    with running_dashboard(args.warehouse, args.port) as url:
        for path in take_screenshots(url, args.out, args.only):
            print(path)


if __name__ == "__main__":
    main()
