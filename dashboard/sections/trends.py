"""Trends: the key terms of the abstracts that are rising or new in the latest week or month,
each with a small trend line; pick a term to see its trend and its papers, and a paper to see
its lineage. Terms and tests: marts.rising_terms, marts.new_terms (README "Topics and trends")."""

import polars as pl
import streamlit as st

import digest_ui as ui
from flows.trends_cli import LATEST_SQL  # `digest trends` reads the same period
from paper_view import show_paper

ui.require_warehouse()
st.title("Trends")

# Period → (counts view, its period column, periods in a trend line); fixed, never user text.
PERIODS = {
    "Week": ("marts.term_papers_week", "week_start", 8),
    "Month": ("marts.term_papers_month", "month_start", 6),
}
period = st.segmented_control("Period", list(PERIODS), default="Week", key="trend_period") or "Week"
view, period_col, n_spark = PERIODS[period]
kind = period.lower()

# The period of the last listing: weeks of relistings only have no new paper, and are still the latest.
latest = ui.scalar_row(LATEST_SQL, {"period": kind}).get("period_start")
if latest is None:
    st.info("No dated papers with terms yet: trends need listing digests (they carry dates).")
    st.stop()

RISING_SQL = """
SELECT term_id, term, n_papers, n_papers_before, round(share_of_papers, 3) AS share,
       round(share_before, 3) AS share_before, p_value
FROM marts.rising_terms  -- a part that only repeats a longer term's rise is that term's (within_term)
WHERE period = $kind AND period_start = $latest AND is_rising AND within_term IS NULL ORDER BY rising_rank LIMIT 30
"""
NEW_SQL = """
SELECT term_id, term, n_papers_first_week AS n_papers, first_listed_on FROM marts.new_terms
WHERE first_week_start = $latest AND n_papers_first_week >= 2 ORDER BY n_papers_first_week DESC, term LIMIT 30
""" if kind == "week" else """
SELECT term_id, term, n_papers_first_month AS n_papers, first_listed_on FROM marts.new_terms
WHERE first_month_start = $latest AND n_papers_first_month >= 2 ORDER BY n_papers_first_month DESC, term LIMIT 30
"""
# The last n_spark periods of each term, oldest first; periods before a term's first one are 0.
SPARK_SQL = f"""
SELECT term_id, list({period_col} ORDER BY {period_col}) AS periods, list(n_papers ORDER BY {period_col}) AS counts
FROM {view} WHERE list_contains($ids, term_id) AND {period_col} >= $since AND {period_col} <= $latest
GROUP BY term_id
"""
TERM_PAPERS_SQL = """
SELECT p.paper_id, coalesce(p.title, left(p.abstract, 80) || '…') AS paper, p.first_listed_on,
       b.term_rank, round(b.score, 2) AS score
FROM bridge_paper_term b JOIN dim_paper p USING (paper_id)
WHERE b.term_id = $term ORDER BY p.first_listed_on DESC NULLS LAST, b.term_rank, paper, p.paper_id LIMIT 200
"""


def with_trend_lines(terms: pl.DataFrame) -> pl.DataFrame:
    """Add `trend`: the term's papers in each of the last n_spark periods (zeros included)."""
    if terms.is_empty():
        return terms.with_columns(trend=pl.lit(None, pl.List(pl.Int64)))
    step = ui.EVERY[period]  # "1w" or "1mo"
    first = pl.select(pl.lit(latest).dt.offset_by(f"-{n_spark - 1}{step[1:]}")).item()
    full = pl.date_range(first, latest, interval=step, eager=True).to_list()
    sparks = ui.query(SPARK_SQL, {"ids": terms["term_id"].to_list(), "since": first, "latest": latest})
    padded = {tid: [dict(zip(p, c)).get(d, 0) for d in full] for tid, p, c in sparks.iter_rows()}
    return terms.with_columns(trend=pl.col("term_id").replace_strict(padded, default=None,
                                                                      return_dtype=pl.List(pl.Int64)))


def term_table(frame: pl.DataFrame, key: str) -> int | None:
    """The table with its trend lines; returns the term_id of a clicked row."""
    config = {"trend": st.column_config.LineChartColumn(f"last {n_spark} {kind}s", y_min=0),
              "term_id": None, "p_value": st.column_config.NumberColumn(format="%.1e")}
    first = ["term_id", "term", "trend"]  # the trend line right beside its term
    frame = frame.select(first + [c for c in frame.columns if c not in first])
    event = st.dataframe(frame, hide_index=True, column_config=config, on_select="rerun",
                         selection_mode="single-row", key=key)
    rows = event.selection.rows if event else []
    return frame["term_id"][rows[0]] if rows else None


period_label = f"{kind} of {latest}" if kind == "week" else f"{latest:%B %Y}"
rising = with_trend_lines(ui.query(RISING_SQL, {"kind": kind, "latest": latest}))
new = with_trend_lines(ui.query(NEW_SQL, {"latest": latest}))
m1, m2 = st.columns(2)
m1.metric(f"Rising terms, {period_label}", ui.fmt_int(rising.height))
m2.metric(f"New terms (2+ papers), {period_label}", ui.fmt_int(new.height))

st.subheader("Rising")
st.caption("Share of new papers above the 4 periods before: exact binomial test, p < 0.001, 3+ papers. "
           "Click a row to see the term's papers.")
clicked = term_table(rising, "rising_table") if rising.height else None
if rising.is_empty():
    st.info("Nothing rising in this period.")
st.subheader("New")
st.caption("First seen in this period, in 2 or more papers.")
clicked_new = term_table(new, "new_table") if new.height else None
if new.is_empty():
    st.info("No new term with 2+ papers.")

terms = pl.concat([rising.select("term_id", "term"), new.select("term_id", "term")]).unique("term_id", keep="first",
                                                                                           maintain_order=True)
if terms.is_empty():
    st.stop()
labels = dict(zip(terms["term_id"], terms["term"]))
picked = clicked or clicked_new
if picked in labels:  # a click on a row picks its term below
    st.session_state["trend_term"] = picked
term_id = st.selectbox("Term", list(labels), key="trend_term", format_func=labels.get)

st.subheader(f"“{labels[term_id]}”")
counts = ui.query(f"SELECT {period_col} AS period, n_papers FROM {view} WHERE term_id = $term ORDER BY period",
                  {"term": term_id})
ui.line_chart(counts, "period", "n_papers", f"New papers per {kind} with this term", every=ui.EVERY[period])
papers = ui.query(TERM_PAPERS_SQL, {"term": term_id})
st.caption(f"{papers.height} papers have this term among their top terms" + (" (latest 200)" if papers.height == 200 else ""))
ui.table(papers.drop("paper_id"))
paper_labels = dict(zip(papers["paper_id"], papers["paper"]))
chosen = st.selectbox("Paper", list(paper_labels), key="trend_paper", format_func=lambda p: paper_labels[p][:120])
if chosen is not None:
    show_paper(chosen)
