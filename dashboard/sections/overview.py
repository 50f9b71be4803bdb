"""Overview: headline counts and how listings and new papers trend over time."""

import streamlit as st

import digest_ui as ui

ui.require_warehouse()
st.title("Overview")

summary = ui.scalar_row("SELECT * FROM marts.warehouse_summary")
cols = st.columns(5)
for col, (label, key) in zip(cols, [("Papers", "n_papers"), ("Listings", "n_listings"), ("Authors", "n_authors"),
                                    ("Files", "n_files"), ("Quarantined spans", "n_quarantined_spans")]):
    col.metric(label, ui.fmt_int(summary.get(key)))
first, last = summary.get("first_listed_on"), summary.get("last_listed_on")
st.caption(f"Dated listings from {first or '–'} to {last or '–'} on {ui.fmt_int(summary.get('n_listing_days'))} days; "
           f"{ui.fmt_int(summary.get('n_papers_with_title'))} papers have a title; {ui.fmt_int(summary.get('n_runs'))} ingest runs.")

# Period expressions chosen from this fixed list, never from user text.
PERIODS = {
    "Day": "{col}",
    "Week": "date_trunc('week', {col})::DATE",
    "Month": "date_trunc('month', {col})::DATE",
}
period = st.segmented_control("Trend by", list(PERIODS), default="Week", key="overview_period") or "Week"
trend = ui.query(f"""
    WITH listed AS (SELECT {PERIODS[period].format(col='listed_on')} AS period, paper_id FROM fact_listing WHERE listed_on IS NOT NULL),
    new AS (SELECT {PERIODS[period].format(col='first_listed_on')} AS period, count(*) AS new_papers
            FROM dim_paper WHERE first_listed_on IS NOT NULL GROUP BY ALL)
    SELECT l.period, count(*) AS listings, count(DISTINCT l.paper_id) AS papers_listed,
           coalesce(any_value(n.new_papers), 0) AS new_papers
    FROM listed l LEFT JOIN new n USING (period) GROUP BY l.period ORDER BY l.period
""")
long = trend.unpivot(index="period", on=["listings", "papers_listed", "new_papers"], variable_name="measure",
                     value_name="count")
ui.line_chart(long, "period", "count", f"Listings and papers per {period.lower()}", color="measure",
              every=ui.EVERY[period])

left, right = st.columns(2)
with left:
    cats = ui.query("SELECT code, name, n_papers FROM marts.papers_per_category "
                    "WHERE level = 'category' ORDER BY n_papers DESC, code LIMIT 15")
    ui.bar_chart(cats, "code", "n_papers", "Papers per category (all time, both taxonomies)")
with right:
    seen = ui.query("SELECT seen_in, n_papers, n_complete FROM marts.author_list_completeness ORDER BY seen_in")
    ui.bar_chart(seen, "seen_in", "n_papers", "Papers by the formats they were seen in")

st.subheader("Most listed papers")
top = ui.query("SELECT label, n_listings, n_digests, first_listed_on, last_listed_on, listed_span_days, seen_in "
               "FROM marts.papers_most_listed ORDER BY rank_by_listings, label LIMIT 10")
ui.table(top)
