-- Grain: one row per paper: how often and for how long it was listed, ranked (rank 1 = most
-- listings). "Digests" are distinct source files; a paper repeated in one file counts once.
CREATE OR REPLACE VIEW marts.papers_most_listed AS
WITH listings AS (
    SELECT paper_id, count(*) AS n_listings,
           count(DISTINCT source_file_id) AS n_digests,
           count(DISTINCT listed_on) AS n_days_listed,
           string_agg(DISTINCT format, '+' ORDER BY format) AS seen_in
    FROM main.fact_listing GROUP BY paper_id
)
SELECT p.paper_id, p.title,
       coalesce(p.title, left(p.abstract, 80) || '…') AS label,
       l.n_listings, l.n_digests, l.n_days_listed,
       p.first_listed_on, p.last_listed_on,
       (p.last_listed_on - p.first_listed_on) + 1 AS listed_span_days,
       l.seen_in,
       rank() OVER (ORDER BY l.n_listings DESC, l.n_digests DESC) AS rank_by_listings
FROM main.dim_paper p JOIN listings l USING (paper_id);

COMMENT ON VIEW marts.papers_most_listed IS 'Papers by how often (listings, digests, days) and for how long (first to last listing) they were listed.';
COMMENT ON COLUMN marts.papers_most_listed.paper_id IS 'The paper (dim_paper).';
COMMENT ON COLUMN marts.papers_most_listed.title IS 'Title; null when the paper was only seen on search pages.';
COMMENT ON COLUMN marts.papers_most_listed.label IS 'Title, or the start of the abstract when there is no title: a label for charts.';
COMMENT ON COLUMN marts.papers_most_listed.n_listings IS 'Listings of the paper (every appearance in every file).';
COMMENT ON COLUMN marts.papers_most_listed.n_digests IS 'Distinct source files (digests) the paper appears in.';
COMMENT ON COLUMN marts.papers_most_listed.n_days_listed IS 'Distinct listing days (dated listings only).';
COMMENT ON COLUMN marts.papers_most_listed.first_listed_on IS 'First listing date; null if never in a dated listing.';
COMMENT ON COLUMN marts.papers_most_listed.last_listed_on IS 'Last listing date.';
COMMENT ON COLUMN marts.papers_most_listed.listed_span_days IS 'Days from first to last listing, both included (1 = a single day); null if undated.';
COMMENT ON COLUMN marts.papers_most_listed.seen_in IS 'Formats the paper was seen in, joined by + ("listing", "search", "listing+search").';
COMMENT ON COLUMN marts.papers_most_listed.rank_by_listings IS 'Rank by n_listings then n_digests, 1 = most listed (ties share a rank).';
