"""Categories: papers per category and per parent roll-up, trends by day/week/month, and which
categories share papers. Both taxonomies: arXiv categories and conference areas."""

import streamlit as st

import digest_ui as ui

ui.require_warehouse()
st.title("Categories")

TAXONOMIES = {"arXiv": "arxiv", "Conference": "conference"}
LEVELS = {"Category": "category", "Parent roll-up": "parent"}
# Views and their period column, chosen from this fixed list, never from user text.
PERIOD_VIEWS = {
    "Day": ("marts.papers_per_category_day", "date"),
    "Week": ("marts.papers_per_category_week", "week_start"),
    "Month": ("marts.papers_per_category_month", "month_start"),
}

c1, c2, c3 = st.columns(3)
taxonomy = TAXONOMIES[c1.segmented_control("Taxonomy", list(TAXONOMIES), default="arXiv", key="cat_taxonomy") or "arXiv"]
level = LEVELS[c2.segmented_control("Level", list(LEVELS), default="Category", key="cat_level") or "Category"]
period = c3.segmented_control("Trend by", list(PERIOD_VIEWS), default="Month", key="cat_period") or "Month"
params = {"taxonomy": taxonomy, "level": level}

totals = ui.query("""
    SELECT code, name, parent_code, n_papers, n_dated_papers, n_listings, n_digests, share_of_papers,
           first_listed_on, last_listed_on
    FROM marts.papers_per_category WHERE taxonomy = $taxonomy AND level = $level
    ORDER BY n_papers DESC, code
""", params)
m1, m2, m3 = st.columns(3)
m1.metric("Categories" if level == "category" else "Parents", ui.fmt_int(totals.height))
m2.metric("Papers (with repeats across categories)", ui.fmt_int(totals["n_papers"].sum()))
m3.metric("Dated papers", ui.fmt_int(totals["n_dated_papers"].sum()))

left, right = st.columns(2)
with left:
    ui.bar_chart(totals, "code", "n_papers", "Papers, all time (search pages included)",
                 color="parent_code" if level == "category" else None)
with right:
    view, x = PERIOD_VIEWS[period]
    top_codes = totals["code"].head(8).to_list()
    trend = ui.query(f"SELECT {x} AS period, code, n_papers FROM {view} "
                     "WHERE taxonomy = $taxonomy AND level = $level AND list_contains($codes, code) ORDER BY period, code",
                     {**params, "codes": top_codes})
    ui.line_chart(trend, "period", "n_papers", f"Papers listed per {period.lower()} (top {len(top_codes)})", color="code",
                  every=ui.EVERY[period])
    if taxonomy == "conference":
        st.caption("Conference areas come from search pages, which carry no date: trends show only the papers "
                   "that were also listed with a date.")

st.subheader("Roll-up" if level == "parent" else "All categories")
ui.table(totals)

st.subheader("Categories that share papers")
pairs = ui.query("""
    SELECT code_a, code_b, n_papers, n_papers_a, n_papers_b, jaccard, taxonomy_a, taxonomy_b
    FROM marts.category_cooccurrence WHERE level = $level
      AND (taxonomy_a = $taxonomy OR taxonomy_b = $taxonomy)
    ORDER BY n_papers DESC, jaccard DESC, code_a, code_b LIMIT 100
""", params)
ui.table(pairs)
