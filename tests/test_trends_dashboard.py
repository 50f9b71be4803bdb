"""The Trends page (headless, Streamlit's AppTest) and the two fixes on the older pages: time
series draw an empty period as zero, not as a straight line across it, and abstracts show
LaTeX as readable text."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import polars as pl
import pyarrow as pa
import pytest
from streamlit.testing.v1 import AppTest

from flows import analytics
from tests.support import marts as marts_corpus
from tests.support import trends_corpus

APP = Path(__file__).resolve().parent.parent / "dashboard" / "app.py"
TIMEOUT_S = 60


def open_page(warehouse: Path, page: str, monkeypatch) -> AppTest:
    monkeypatch.setenv("DIGEST_WAREHOUSE", str(warehouse))
    at = AppTest.from_file(str(APP), default_timeout=TIMEOUT_S).run()
    at.switch_page(page).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def chart_data(at: AppTest) -> list[pl.DataFrame]:
    """The data of every Vega-Lite chart on the page, as sent to the browser."""
    frames = []
    for node in at.get("vega_lite_chart"):
        for blob in [d.data.data for d in node.proto.datasets] + [node.proto.data.data]:
            if blob:
                frames.append(pl.from_arrow(pa.ipc.open_stream(blob).read_all()))
    return frames


@pytest.fixture(scope="module")
def marts_warehouse(run_ingest, tmp_path_factory) -> Path:
    return marts_corpus.incremental_warehouse(run_ingest, tmp_path_factory)


@pytest.fixture(scope="module")
def trends_warehouse(run_ingest, tmp_path_factory) -> Path:
    return trends_corpus.warehouse(run_ingest, tmp_path_factory)


def test_an_empty_month_is_drawn_as_zero(marts_warehouse, monkeypatch):
    # cs.LG has papers in Oct 2026, Dec 2026, Jan and Feb 2027, none in November: before the fix
    # the line went straight from October to December.
    at = open_page(marts_warehouse, "sections/categories.py", monkeypatch)
    at.segmented_control(key="cat_period").set_value("Month").run()
    (trend,) = [f for f in chart_data(at) if "period" in f.columns]
    cs_lg = trend.filter(pl.col("code") == "cs.LG").sort("period")
    months = cs_lg["period"].cast(pl.Date).to_list()
    assert dt.date(2026, 11, 1) in months
    assert cs_lg.filter(pl.col("period").cast(pl.Date) == dt.date(2026, 11, 1))["n_papers"].to_list() == [0]
    assert len(months) == 5  # Oct .. Feb, every month once


def test_an_abstract_shows_latex_as_readable_text(marts_warehouse, monkeypatch):
    at = open_page(marts_warehouse, "sections/papers.py", monkeypatch)
    at.text_input(key="paper_query").input("$O(d").run()
    assert not at.exception
    shown = [t.value for t in at.text]
    assert any("O(d/√T)" in t and "\\sqrt" not in t for t in shown)  # before: only "$O(d/\sqrt{T})$"
    assert any("$O(d/\\sqrt{T})$" in t for t in shown)  # the source stays one click away


def test_trends_page_ranks_the_growing_topic_and_opens_its_papers(trends_warehouse, monkeypatch):
    at = open_page(trends_warehouse, "sections/trends.py", monkeypatch)
    rising = at.dataframe[0].value
    assert rising["term"].iloc[0] == trends_corpus.GROWING
    # its words rise with it, only repeating its rise (marts.rising_terms.within_term): not listed
    assert not set(trends_corpus.GROWING.split()) & set(rising["term"])
    trend = [int(n) for n in rising["trend"].iloc[0]]  # the last 8 weeks, zeros before its first paper
    assert len(trend) == 8 and trend[-5:] == list(trends_corpus.GROWING_COUNTS[1:]) and trend[:-5] == [0, 0, 0]
    growing = analytics.query(trends_warehouse, "SELECT term_id, n_papers FROM dim_term WHERE term = ?",
                              [trends_corpus.GROWING]).row(0, named=True)
    assert at.selectbox(key="trend_term").value == growing["term_id"]
    papers = next(d.value for d in at.dataframe if "term_rank" in d.value.columns)  # the term's papers
    assert len(papers) == growing["n_papers"] == sum(trends_corpus.GROWING_COUNTS)
    lineage = at.dataframe[-1].value
    assert (lineage["line_end"] - lineage["line_start"]).eq(4).all()
    at.segmented_control(key="trend_period").set_value("Month").run()
    assert not at.exception


def test_trends_page_without_rising_terms_says_so(marts_warehouse, monkeypatch):
    at = open_page(marts_warehouse, "sections/trends.py", monkeypatch)
    assert at.title[0].value == "Trends"
