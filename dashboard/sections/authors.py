"""Authors: search by name (accents, case and punctuation ignored), an author's papers,
co-authors and output over time; the top authors when nothing is searched."""

import polars as pl
import streamlit as st

import digest_ui as ui
from flows import analytics

ui.require_warehouse()
st.title("Authors")

# Names match on the folded key (so "schonlieb" finds "Schönlieb") or on the display form.
SEARCH_SQL = """
SELECT a.author_id, a.name, a.name_key, a.n_papers, coalesce(t.label, a.name) AS label
FROM dim_author a LEFT JOIN marts.top_authors t USING (author_id)
WHERE a.name_key LIKE $key ESCAPE '\\' OR a.name ILIKE $raw ESCAPE '\\'
ORDER BY a.n_papers DESC, a.name, a.author_id LIMIT 200
"""
# Several persons wear one name (namesakes, split on evidence): what tells them apart.
NAMESAKES_SQL = """
SELECT person_rank AS person, n_papers, top_categories, top_coauthors, first_year, last_year
FROM marts.namesakes WHERE name_key = $key ORDER BY person_rank
"""
STATS_SQL = """
WITH mine AS (SELECT paper_id, author_position FROM bridge_paper_author WHERE author_id = $author)
SELECT count(*) AS n_papers,
       count(*) FILTER (WHERE m.author_position = 1) AS n_first_author_papers,
       coalesce(sum(p.n_listings), 0) AS n_listings,
       (SELECT count(DISTINCT f.source_file_id) FROM fact_listing f SEMI JOIN mine USING (paper_id)) AS n_digests,
       (SELECT count(DISTINCT b.author_id) FROM bridge_paper_author b SEMI JOIN mine USING (paper_id)
        WHERE b.author_id <> $author) AS n_coauthors
FROM mine m JOIN dim_paper p USING (paper_id)
"""
PAPERS_SQL = """
SELECT coalesce(p.title, left(p.abstract, 80) || '…') AS paper, b.author_position,
       p.n_authors_shown, p.author_count, p.first_listed_on, p.last_listed_on, p.n_listings,
       (SELECT string_agg(c.code, ', ' ORDER BY c.code) FROM bridge_paper_category pc
        JOIN dim_category c USING (category_id) WHERE pc.paper_id = p.paper_id) AS categories
FROM bridge_paper_author b JOIN dim_paper p USING (paper_id)
WHERE b.author_id = $author
ORDER BY p.first_listed_on DESC NULLS LAST, paper
"""
COAUTHORS_SQL = """
SELECT a.name AS coauthor, count(*) AS shared_papers, a.n_papers AS their_papers
FROM bridge_paper_author me
JOIN bridge_paper_author other ON other.paper_id = me.paper_id AND other.author_id <> me.author_id
JOIN dim_author a ON a.author_id = other.author_id
WHERE me.author_id = $author
GROUP BY a.author_id, a.name, a.n_papers ORDER BY shared_papers DESC, coauthor
"""


def fold(text: str) -> str:
    """The same matching key the pipeline gives names (transforms.text.fold_key)."""
    from transforms.text import fold_key

    return pl.select(fold_key(pl.lit(text))).item()


def show_namesakes(name_key: str, name: str) -> None:
    """"3 people named Wei Wang": the persons of one name side by side."""
    persons = ui.query(NAMESAKES_SQL, {"key": name_key})
    if persons.height > 1:
        st.info(f"{persons.height} people named {ui.md_escape(name)}: told apart by their co-authors, categories and years "
                "(each decision is in the author_mention table).")
        ui.table(persons)


def show_author(author_id: int) -> None:
    stats = ui.scalar_row(STATS_SQL, {"author": author_id})
    cols = st.columns(5)
    for col, (label, key) in zip(cols, [("Papers", "n_papers"), ("Listings", "n_listings"), ("Digests", "n_digests"),
                                        ("Co-authors", "n_coauthors"), ("First-author papers", "n_first_author_papers")]):
        col.metric(label, ui.fmt_int(stats.get(key)))

    st.subheader("Papers")
    ui.table(ui.query(PAPERS_SQL, {"author": author_id}))

    left, right = st.columns(2)
    with left:
        coauthors = ui.query(COAUTHORS_SQL, {"author": author_id})
        ui.bar_chart(coauthors, "coauthor", "shared_papers", "Co-authors by shared papers")
        with st.expander(f"All {coauthors.height} co-authors"):
            ui.table(coauthors)
    with right:
        monthly = ui.query("SELECT month_start, n_papers_listed, n_new_papers FROM marts.author_productivity_month "
                           "WHERE author_id = $author ORDER BY month_start", {"author": author_id})
        long = monthly.unpivot(index="month_start", on=["n_papers_listed", "n_new_papers"], variable_name="measure",
                               value_name="papers")
        ui.line_chart(long, "month_start", "papers", "Papers per month", color="measure", every="1mo")


text = st.text_input("Search authors by name", key="author_query", placeholder="e.g. Kempe, schonlieb, van der Berg")
needle = (text or "").strip()
if needle:
    key = fold(needle)  # empty for pure punctuation: then only the display form can match
    matches = ui.query(SEARCH_SQL, {"key": analytics.like_pattern(key) if key else None,
                                    "raw": analytics.like_pattern(needle)})
    if matches.is_empty():
        st.info("No author matches that name.")
        st.stop()
    st.caption(f"{matches.height} matching authors" + (" (first 200)" if matches.height == 200 else ""))
    names = {r["author_id"]: r for r in matches.iter_rows(named=True)}
    chosen = st.selectbox("Author", list(names), key="author_pick",
                          format_func=lambda a: f"{names[a]['label']} ({names[a]['n_papers']} papers)")
    show_namesakes(names[chosen]["name_key"], names[chosen]["name"])
    show_author(chosen)
else:
    st.caption("Type a name to see an author's papers and co-authors. Top authors:")
    columns = ("SELECT label AS name, n_papers, n_listings, n_digests, n_coauthors, first_listed_on, last_listed_on, "
               "rank_by_papers, rank_by_listings FROM marts.top_authors ")  # label: namesakes told apart
    by_papers = ui.query(columns + "ORDER BY rank_by_papers, rank_by_listings, name LIMIT 50")
    by_listings = ui.query(columns + "ORDER BY rank_by_listings, rank_by_papers, name LIMIT 15")
    left, right = st.columns(2)
    with left:
        ui.bar_chart(by_papers, "name", "n_papers", "Top authors by papers")
    with right:
        ui.bar_chart(by_listings, "name", "n_listings", "Top authors by listings")
    ui.table(by_papers)
