"""One paper in full, shared by the pages that open a paper (Papers, Trends): its numbers, the
abstract as readable text, authors, categories, and every listing with its lineage back to the
file and lines it came from."""

import streamlit as st

import digest_ui as ui

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
    # Plain text (no Markdown or links from the data), LaTeX shown as a reader would read it;
    # the text exactly as the digest had it is one click away.
    st.text(ui.readable(paper["abstract"]), width="stretch")
    if paper["abstract"] and ui.readable(paper["abstract"]) != paper["abstract"]:
        with st.expander("Abstract as written in the digest (LaTeX source)"):
            st.text(paper["abstract"], width="stretch")
    left, right = st.columns(2)
    with left:
        st.markdown("**Authors**")
        ui.table(ui.query(AUTHORS_SQL, {"paper": paper_id}))
    with right:
        st.markdown("**Categories**")
        ui.table(ui.query(CATEGORIES_SQL, {"paper": paper_id}))
    st.markdown("**Listings and lineage** (file path relative to the ingest root, with the lines of each record)")
    ui.table(ui.query(LINEAGE_SQL, {"paper": paper_id}))
