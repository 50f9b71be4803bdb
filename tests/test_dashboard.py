"""Every dashboard page runs headless (Streamlit's AppTest) on the marts test warehouse without
an exception, and the numbers it shows are the warehouse's own."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest
from streamlit.testing.v1 import AppTest

from flows import analytics
from tests.support import marts as corpus

APP = Path(__file__).resolve().parent.parent / "dashboard" / "app.py"
TIMEOUT_S = 60  # the first run imports altair, polars and pyarrow


@pytest.fixture(scope="module")
def warehouse(run_ingest, tmp_path_factory) -> Path:
    return corpus.incremental_warehouse(run_ingest, tmp_path_factory)


@pytest.fixture
def app(warehouse, monkeypatch):
    """Open a page: app("sections/authors.py") → the AppTest after its first run."""
    monkeypatch.setenv("DIGEST_WAREHOUSE", str(warehouse))

    def open_page(page: str) -> AppTest:
        at = AppTest.from_file(str(APP), default_timeout=TIMEOUT_S).run()
        at.switch_page(page).run()
        assert not at.exception, [e.value for e in at.exception]
        return at

    return open_page


def one(warehouse: Path, sql: str, params=None) -> dict:
    return analytics.query(warehouse, sql, params).row(0, named=True)


def metrics(at: AppTest) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


def test_overview_shows_the_headline_counts(app, warehouse):
    at = app("sections/overview.py")
    s = one(warehouse, "SELECT * FROM marts.warehouse_summary")
    assert metrics(at) == {"Papers": f"{s['n_papers']:,}", "Listings": f"{s['n_listings']:,}",
                           "Authors": f"{s['n_authors']:,}", "Files": f"{s['n_files']:,}",
                           "Quarantined spans": f"{s['n_quarantined_spans']:,}"}
    at.segmented_control(key="overview_period").set_value("Month").run()
    assert not at.exception
    assert at.dataframe[0].value.shape[0] == 10  # the ten most listed papers


def test_authors_search_shows_an_authors_numbers(app, warehouse):
    at = app("sections/authors.py")
    assert at.dataframe, "top authors are listed before any search"
    at.text_input(key="author_query").input("NIKDAN").run()
    assert not at.exception
    author = one(warehouse, "SELECT * FROM marts.top_authors WHERE name = 'Mahdi Nikdan'")
    assert at.selectbox(key="author_pick").value == author["author_id"]
    assert metrics(at) == {"Papers": str(author["n_papers"]), "Listings": str(author["n_listings"]),
                           "Digests": str(author["n_digests"]), "Co-authors": str(author["n_coauthors"]),
                           "First-author papers": str(author["n_first_author_papers"])}
    papers, coauthors = at.dataframe[0].value, at.dataframe[1].value
    assert len(papers) == author["n_papers"] and len(coauthors) == author["n_coauthors"]
    assert coauthors.iloc[0]["coauthor"] == "Dan Alistarh" and coauthors.iloc[0]["shared_papers"] == 4


@pytest.mark.parametrize("typed, found", [
    ("schonlieb", "Carola-Bibiane Schönlieb"),  # no accent typed
    ("van der berg", "Pieter van der Berg"),
    ("dan alistarh", "Dan Alistarh"),  # also listed as "DAN ALISTARH": one person
])
def test_author_search_ignores_accents_and_case(app, typed, found):
    at = app("sections/authors.py")
    at.text_input(key="author_query").input(typed).run()
    options = at.selectbox(key="author_pick").options
    assert len(options) == 1 and options[0].startswith(found)


def test_a_name_worn_by_two_people_is_two_authors(app, warehouse):
    at = app("sections/authors.py")
    at.text_input(key="author_query").input("Wei Wang").run()
    assert not at.exception
    options = at.selectbox(key="author_pick").options
    assert len(options) == 2 and len(set(options)) == 2  # labels tell them apart (category, years)
    assert [i.value for i in at.info][0].startswith("2 people named Wei Wang")
    assert at.dataframe[0].value.shape[0] == 2  # the namesakes, side by side


def test_author_search_takes_wildcards_literally(app):
    at = app("sections/authors.py")
    at.text_input(key="author_query").input("%").run()
    assert not at.exception
    assert [i.value for i in at.info] == ["No author matches that name."]


def test_categories_page_rolls_up(app, warehouse):
    at = app("sections/categories.py")
    n_arxiv = one(warehouse, "SELECT count(*) AS n FROM marts.papers_per_category "
                             "WHERE taxonomy = 'arxiv' AND level = 'category'")["n"]
    assert metrics(at)["Categories"] == str(n_arxiv)
    at.segmented_control(key="cat_taxonomy").set_value("Conference").run()
    at.segmented_control(key="cat_level").set_value("Parent roll-up").run()
    assert not at.exception
    parents = analytics.query(warehouse, "SELECT code, n_papers FROM marts.papers_per_category "
                                         "WHERE taxonomy = 'conference' AND level = 'parent'")
    assert metrics(at)["Parents"] == str(parents.height)
    shown = at.dataframe[0].value
    assert dict(zip(shown["code"], shown["n_papers"])) == dict(parents.iter_rows())
    at.segmented_control(key="cat_period").set_value("Day").run()
    assert not at.exception


def test_papers_search_escapes_text_and_traces_lineage(app, warehouse):
    at = app("sections/papers.py")
    at.text_input(key="paper_query").input("$O(d").run()  # LaTeX in an abstract; ( and $ taken literally
    assert not at.exception
    paper = one(warehouse, "SELECT paper_id, title, n_listings FROM dim_paper WHERE abstract LIKE '%$O(d/%'")
    assert at.selectbox(key="paper_pick").options == [paper["title"]]
    # The title goes through Markdown with every special character escaped; the abstract is
    # plain text, so "$O(d/\\sqrt{T})$" is printed as typed, never rendered as math.
    assert at.subheader[0].value == "Zeroth\\-Order Methods for Nonsmooth Bilevel Problems"
    assert any("$O(d/\\sqrt{T})$" in t.value for t in at.text)
    lineage = at.dataframe[-1].value
    assert len(lineage) == paper["n_listings"] == int(metrics(at)["Listings"])
    files = set(analytics.query(warehouse, "SELECT s.path FROM fact_listing f JOIN dim_source_file s "
                                           "USING (source_file_id) WHERE f.paper_id = ?", [paper["paper_id"]])["path"])
    assert set(lineage["path"]) == files
    assert (lineage["line_end"] - lineage["line_start"]).eq(4).all()  # five-line listing records


def test_data_quality_page(app, warehouse):
    at = app("sections/data_quality.py")
    q = one(warehouse, "SELECT count(*) AS spans, sum(line_end - line_start + 1) AS lines FROM quarantine")
    shown = metrics(at)
    assert (shown["Quarantined spans"], shown["Quarantined lines"]) == (str(q["spans"]), str(q["lines"]))
    assert shown["Runs"] == "2" and shown["Files"] == "14"


def test_without_a_warehouse_pages_explain_what_to_do(monkeypatch, tmp_path):
    monkeypatch.setenv("DIGEST_WAREHOUSE", str(tmp_path / "missing.duckdb"))
    at = AppTest.from_file(str(APP), default_timeout=TIMEOUT_S).run()
    assert not at.exception
    assert "digest ingest" in at.error[0].value


def test_a_newly_published_snapshot_is_shown_on_the_next_run(warehouse, run_ingest, tmp_path_factory, tmp_path,
                                                             monkeypatch):
    published = tmp_path / "warehouse.duckdb"
    shutil.copyfile(warehouse, published)  # two runs
    monkeypatch.setenv("DIGEST_WAREHOUSE", str(published))
    at = AppTest.from_file(str(APP), default_timeout=TIMEOUT_S).run()
    at.switch_page("sections/data_quality.py").run()
    assert metrics(at)["Runs"] == "2"
    # What an ingest does when it publishes: build elsewhere, then rename over the file.
    staged = tmp_path / "warehouse.duckdb.building"
    shutil.copyfile(corpus.fresh_warehouse(run_ingest, tmp_path_factory), staged)  # one run
    os.replace(staged, published)
    at.run()
    assert not at.exception
    assert metrics(at)["Runs"] == "1"


def test_a_namesakes_name_is_shown_as_text_not_markdown(warehouse, tmp_path, monkeypatch):
    # "2 people named Kai ~~Sun~~" was rendered struck through
    copy = tmp_path / "w.duckdb"
    shutil.copyfile(warehouse, copy)
    with duckdb.connect(str(copy)) as con:
        ids = [r[0] for r in con.execute("UPDATE dim_author SET name = 'Wei ~~Wang~~' WHERE name = 'Wei Wang' "
                                         "RETURNING author_id").fetchall()]
    assert len(ids) == 2
    monkeypatch.setenv("DIGEST_WAREHOUSE", str(copy))
    at = AppTest.from_file(str(APP), default_timeout=TIMEOUT_S).run()
    at.switch_page("sections/authors.py").run()
    at.text_input(key="author_query").input("~~Wang~~").run()
    at.selectbox(key="author_pick").set_value(ids[0]).run()
    assert not at.exception
    assert [i.value for i in at.info][0].startswith("2 people named Wei \\~\\~Wang\\~\\~: ")


PAGES = ["sections/overview.py", "sections/authors.py", "sections/categories.py", "sections/papers.py",
         "sections/trends.py", "sections/data_quality.py"]


def _held_read_write(path: Path) -> subprocess.Popen:
    """Another process holding the file open read-write, as a writer does."""
    holder = subprocess.Popen([sys.executable, "-c", "import duckdb, sys, time; con = duckdb.connect(sys.argv[1]); "
                               "print('open', flush=True); time.sleep(120)", str(path)], stdout=subprocess.PIPE, text=True)
    assert holder.stdout.readline().strip() == "open"
    return holder


@pytest.mark.parametrize("kind", ["text file", "no marts", "locked"])
def test_a_warehouse_that_cannot_be_read_is_one_message_on_every_page(warehouse, tmp_path, monkeypatch, kind):
    # each page showed a Python exception and its stack trace
    path = tmp_path / "w.duckdb"
    if kind == "text file":
        path.write_text("not a database\n" * 100)
    elif kind == "no marts":
        with duckdb.connect(str(path)) as con:
            con.execute("CREATE TABLE dim_paper AS SELECT 1 AS paper_id")
    else:
        shutil.copyfile(warehouse, path)
    holder = _held_read_write(path) if kind == "locked" else None
    monkeypatch.setenv("DIGEST_WAREHOUSE", str(path))
    try:
        at = AppTest.from_file(str(APP), default_timeout=TIMEOUT_S).run()
        for page in PAGES if kind != "locked" else PAGES[:2]:  # locked: each page waits out the retries
            at.switch_page(page).run()
            assert not at.exception, (page, [e.value for e in at.exception])
            assert len(at.error) == 1, (page, [e.value for e in at.error])
            says = {"text file": "not a DuckDB warehouse", "no marts": "lacks the marts",
                    "locked": "open with write access in another program ("}
            shown = at.error[0].value.replace("\\", "")
            assert says[kind] in shown and (holder is None or f"PID {holder.pid})" in shown), (page, shown)
    finally:
        if holder:
            holder.kill()
            holder.wait()
