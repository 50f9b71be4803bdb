"""Papers: search titles and abstracts, then a paper's authors, categories, and every listing
with its lineage back to the file and lines it came from."""

import streamlit as st

import digest_ui as ui
from flows import analytics
from paper_view import show_paper

ui.require_warehouse()
st.title("Papers")

LABEL = "coalesce(p.title, left(p.abstract, 80) || '…')"
SEARCH_SQL = f"""
SELECT p.paper_id, {LABEL} AS paper, p.n_listings, p.first_listed_on, p.last_listed_on, p.n_authors_shown
FROM dim_paper p
WHERE p.title ILIKE $pattern ESCAPE '\\' OR p.abstract ILIKE $pattern ESCAPE '\\'
ORDER BY p.n_listings DESC, paper, p.paper_id LIMIT 200
"""
MOST_LISTED_SQL = """
SELECT paper_id, label AS paper, n_listings, first_listed_on, last_listed_on, n_digests
FROM marts.papers_most_listed ORDER BY rank_by_listings, label, paper_id LIMIT 25
"""

text = st.text_input("Search titles and abstracts", key="paper_query", placeholder="e.g. diffusion, bilevel, $O(d")
needle = (text or "").strip()
if needle:
    results = ui.query(SEARCH_SQL, {"pattern": analytics.like_pattern(needle)})
    st.caption(f"{results.height} matching papers" + (" (first 200)" if results.height == 200 else ""))
else:
    results = ui.query(MOST_LISTED_SQL)
    st.caption("Most listed papers; type words to search titles and abstracts.")
if results.is_empty():
    st.info("No paper matches.")
    st.stop()
ui.table(results.drop("paper_id"))
labels = dict(zip(results["paper_id"], results["paper"]))
chosen = st.selectbox("Paper", list(labels), key="paper_pick", format_func=lambda p: labels[p][:120])
show_paper(chosen)
