"""The dashboard in a real browser: `digest dashboard`'s server on a free port, Debian's chromium
driven by Playwright; search an author and check the rendered numbers against SQL on the same
warehouse. CI installs chromium (.ci/run); without it locally these tests are skipped."""

from __future__ import annotations

import os
import shutil
import socket
from pathlib import Path

import duckdb
import pytest

from dashboard.screenshots import CHROMIUM, SCREENSHOT_VIEWPORT, VIEWPORT, launch, metrics, search, wait_idle
from flows import analytics
from tests.support import marts as corpus

pytestmark = pytest.mark.skipif(
    not CHROMIUM.is_file(),
    reason=f"no browser at {CHROMIUM}: install Debian's chromium (apt-get install chromium) to run browser tests",
)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def warehouse(run_ingest, tmp_path_factory) -> Path:
    return corpus.incremental_warehouse(run_ingest, tmp_path_factory)


@pytest.fixture(scope="module")
def dashboard_url(warehouse):
    with analytics.running_dashboard(warehouse, free_port()) as url:
        yield url


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = launch(playwright)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser):
    page = browser.new_page(viewport=VIEWPORT)
    yield page
    page.close()


def grid_column(page, table_index: int, column: int) -> list[str]:
    """The rendered cells of one column of an st.dataframe (its accessible grid)."""
    grid = page.locator('[data-testid="stDataFrame"]').nth(table_index)
    return grid.locator(f'[id^="glide-cell-{column}-"]').all_inner_texts()


def test_overview_numbers_match_sql(page, dashboard_url, warehouse):
    page.goto(dashboard_url)
    wait_idle(page)
    s = analytics.query(warehouse, "SELECT * FROM marts.warehouse_summary").row(0, named=True)
    assert metrics(page) == {"Papers": f"{s['n_papers']:,}", "Listings": f"{s['n_listings']:,}",
                             "Authors": f"{s['n_authors']:,}", "Files": f"{s['n_files']:,}",
                             "Quarantined spans": f"{s['n_quarantined_spans']:,}"}


def test_search_an_author_and_check_the_numbers(page, dashboard_url, warehouse):
    page.goto(f"{dashboard_url}/authors")
    wait_idle(page)
    search(page, "Search authors by name", "kempe")
    author = analytics.query(warehouse, "SELECT * FROM marts.top_authors WHERE name = ?", ["Julia Kempe"]).row(0, named=True)
    assert page.get_by_label("Author", exact=True).input_value() == f"Julia Kempe ({author['n_papers']} papers)"
    assert metrics(page) == {"Papers": str(author["n_papers"]), "Listings": str(author["n_listings"]),
                             "Digests": str(author["n_digests"]), "Co-authors": str(author["n_coauthors"]),
                             "First-author papers": str(author["n_first_author_papers"])}
    titles = analytics.query(
        warehouse, "SELECT coalesce(p.title, left(p.abstract, 80) || '…') AS paper FROM bridge_paper_author b "
                   "JOIN dim_paper p USING (paper_id) WHERE b.author_id = ?", [author["author_id"]])["paper"]
    assert sorted(grid_column(page, 0, 0)) == sorted(titles)


def test_a_name_worn_by_two_people_shows_both(page, dashboard_url, warehouse, tmp_path):
    """Two Wei Wangs (one in cs.CV, one in math.AP, told apart by their co-authors): the page
    says so, lists both with what distinguishes them, and docs/screenshots/namesakes.png is it."""
    page.goto(f"{dashboard_url}/authors")
    wait_idle(page)
    search(page, "Search authors by name", "wei wang")
    assert page.get_by_text("2 people named Wei Wang").count() == 1
    persons = analytics.query(warehouse, "SELECT * FROM marts.namesakes WHERE name_key = 'wei wang' ORDER BY person_rank")
    assert persons.height == 2 and sorted(persons["top_categories"]) == ["cs.CV", "math.AP"]
    # as dashboard/screenshots.py draws it (PAGES["namesakes"]), on this test's browser
    page.set_viewport_size(SCREENSHOT_VIEWPORT)
    wait_idle(page)
    shot = tmp_path / "namesakes.png"
    page.screenshot(path=str(shot))
    page.set_viewport_size(VIEWPORT)
    assert shot.stat().st_size > 20_000
    committed = Path(__file__).resolve().parent.parent / "docs" / "screenshots" / "namesakes.png"
    if os.environ.get("DIGEST_UPDATE_GOLDEN") == "1":
        shutil.copyfile(shot, committed)
    assert committed.is_file(), "no docs/screenshots/namesakes.png: run this test with DIGEST_UPDATE_GOLDEN=1"


def test_the_dashboard_never_holds_the_warehouse(page, dashboard_url, warehouse):
    page.goto(f"{dashboard_url}/data_quality")
    wait_idle(page)
    assert metrics(page)["Runs"] == "2"
    # Readers open the file per query and close it: a writer (an ingest) can take it now.
    with duckdb.connect(str(warehouse)) as writer:
        assert writer.execute("SELECT count(*) FROM ingest_run").fetchall()[0][0] == 2
