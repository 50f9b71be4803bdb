"""Papers: search titles and abstracts, then a paper's authors, categories, and every listing
with its lineage back to the file and lines it came from."""

import streamlit as st

import digest_ui as ui
from flows import analytics

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
PAPER_SQL = """
SELECT p.title, p.abstract, p.n_authors_shown, p.author_count, p.is_author_list_complete, p.n_listings,
       p.first_listed_on, p.last_listed_on,
       (SELECT count(DISTINCT source_file_id) FROM fact_listing f WHERE f.paper_id = p.paper_id) AS n_digests
FROM dim_paper p WHERE p.paper_id = $paper
"""
AUTHORS_SQL = """
SELECT b.author_position AS position, a.name, a.n_papers AS their_papers
FROM bridge_paper_author b JOIN dim_author a USING (author_id)
WHERE b.paper_id = $paper ORDER BY b.author_position
"""
CATEGORIES_SQL = """
SELECT c.taxonomy, c.code, c.name, c.parent_name
FROM bridge_paper_category b JOIN dim_category c USING (category_id)
WHERE b.paper_id = $paper ORDER BY c.taxonomy, c.code
"""
LINEAGE_SQL = """
SELECT s.path, s.version, f.format, f.listed_on, f.rank, f.position, f.listed_code,
       f.line_start, f.line_end, f.n_authors_shown, f.author_total, s.ingested_at, f.listing_id, f.source_file_id
FROM fact_listing f JOIN dim_source_file s USING (source_file_id)
WHERE f.paper_id = $paper ORDER BY f.listed_on NULLS LAST, s.path, f.position
"""


def show_paper(paper_id: int) -> None:
    paper = ui.scalar_row(PAPER_SQL, {"paper": paper_id})
    if not paper:
        st.warning("That paper is no longer in the warehouse.")
        return
    st.subheader(ui.md_escape(paper["title"]) if paper["title"] else "Untitled (seen only on search pages)")
    cols = st.columns(4)
    cols[0].metric("Listings", ui.fmt_int(paper["n_listings"]))
    cols[1].metric("Digests", ui.fmt_int(paper["n_digests"]))
    cols[2].metric("Authors shown", ui.fmt_int(paper["n_authors_shown"]))
    cols[3].metric("Authors declared", ui.fmt_int(paper["author_count"]) if paper["author_count"] else "unknown")
    st.caption(f"Listed from {paper['first_listed_on'] or '–'} to {paper['last_listed_on'] or '–'}; "
               f"author list {'complete' if paper['is_author_list_complete'] else 'incomplete'}.")
    st.text(paper["abstract"], width="stretch")  # plain text: no Markdown, LaTeX or links from the data
    left, right = st.columns(2)
    with left:
        st.markdown("**Authors**")
        ui.table(ui.query(AUTHORS_SQL, {"paper": paper_id}))
    with right:
        st.markdown("**Categories**")
        ui.table(ui.query(CATEGORIES_SQL, {"paper": paper_id}))
    st.markdown("**Listings and lineage** (file path relative to the ingest root, with the lines of each record)")
    ui.table(ui.query(LINEAGE_SQL, {"paper": paper_id}))


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
