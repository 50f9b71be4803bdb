"""The Trends page in a real browser (Debian's chromium driven by Playwright, as
tests/test_browser.py): on the trends corpus the rising table's first term is the growing
topic, its papers open below, and docs/screenshots/trends.png is the page as drawn."""

from __future__ import annotations

import os
import shutil
import socket
from pathlib import Path

import pytest

from dashboard.screenshots import CHROMIUM, SCREENSHOT_VIEWPORT, launch, metrics, take_screenshots, wait_idle
from flows import analytics
from tests.support import trends_corpus

pytestmark = pytest.mark.skipif(
    not CHROMIUM.is_file(),
    reason=f"no browser at {CHROMIUM}: install Debian's chromium (apt-get install chromium) to run browser tests",
)
SCREENSHOT = Path(__file__).resolve().parent.parent / "docs" / "screenshots" / "trends.png"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def dashboard_url(run_ingest, tmp_path_factory):
    warehouse = trends_corpus.warehouse(run_ingest, tmp_path_factory)
    with analytics.running_dashboard(warehouse, free_port()) as url:
        yield url


def test_trends_page_in_a_browser(dashboard_url, tmp_path):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = launch(playwright)
        try:
            page = browser.new_page(viewport=SCREENSHOT_VIEWPORT)
            page.goto(f"{dashboard_url}/trends")
            wait_idle(page)
            shown = metrics(page)
            assert [v for k, v in shown.items() if k.startswith("Rising terms")] == ["1"]  # its words: echoes
            # Cell ids are glide-cell-<column>-<row>; column 0 is the hidden term_id.
            first_term = page.locator('[data-testid="stDataFrame"]').first.locator('[id="glide-cell-1-0"]')
            assert first_term.inner_text().strip() == trends_corpus.GROWING
            assert page.get_by_label("Term", exact=True).input_value() == trends_corpus.GROWING
        finally:
            browser.close()
    # The committed screenshot is what dashboard/screenshots.py draws for this page.
    (shot,) = take_screenshots(dashboard_url, tmp_path, only=["trends"])
    assert shot.stat().st_size > 20_000
    if os.environ.get("DIGEST_UPDATE_GOLDEN") == "1":
        shutil.copyfile(shot, SCREENSHOT)
    assert SCREENSHOT.is_file(), "no docs/screenshots/trends.png: run this test with DIGEST_UPDATE_GOLDEN=1"
