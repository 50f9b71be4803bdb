-- Grain: one row per combination of formats a paper was seen in. The listing format shows 3
-- names and "and N more" (total known), search pages show 10 and "等" (total unknown), so
-- completeness depends on where a paper was seen. Rows partition the papers: they sum.
CREATE OR REPLACE VIEW marts.author_list_completeness AS
WITH papers AS (
    SELECT p.*, f.seen_in
    FROM main.dim_paper p JOIN (
        SELECT paper_id, string_agg(DISTINCT format, '+' ORDER BY format) AS seen_in
        FROM main.fact_listing GROUP BY paper_id
    ) f USING (paper_id)
)
SELECT seen_in,
       count(*) AS n_papers,
       count(*) FILTER (WHERE is_author_list_complete) AS n_complete,
       count(*) FILTER (WHERE NOT is_author_list_complete AND author_count IS NOT NULL) AS n_incomplete_known_total,
       count(*) FILTER (WHERE NOT is_author_list_complete AND author_count IS NULL) AS n_incomplete_unknown_total,
       count(*) FILTER (WHERE is_author_list_complete) / count(*) AS share_complete,
       sum(n_authors_shown)::BIGINT AS n_names_shown,
       coalesce(sum(author_count - n_authors_shown) FILTER (WHERE author_count > n_authors_shown), 0)::BIGINT
           AS n_names_missing
FROM papers GROUP BY seen_in;

COMMENT ON VIEW marts.author_list_completeness IS 'How complete author lists are, by the formats a paper was seen in; rows sum to all papers.';
COMMENT ON COLUMN marts.author_list_completeness.seen_in IS 'Formats the papers were seen in, joined by + ("listing", "search", "listing+search").';
COMMENT ON COLUMN marts.author_list_completeness.n_papers IS 'Papers seen in exactly these formats.';
COMMENT ON COLUMN marts.author_list_completeness.n_complete IS 'Papers whose shown names are all the authors (dim_paper.is_author_list_complete).';
COMMENT ON COLUMN marts.author_list_completeness.n_incomplete_known_total IS 'Incomplete lists whose total is declared ("and 3 more").';
COMMENT ON COLUMN marts.author_list_completeness.n_incomplete_unknown_total IS 'Incomplete lists with no declared total ("等", et al.).';
COMMENT ON COLUMN marts.author_list_completeness.share_complete IS 'n_complete / n_papers (0-1).';
COMMENT ON COLUMN marts.author_list_completeness.n_names_shown IS 'Author names shown, summed over the papers.';
COMMENT ON COLUMN marts.author_list_completeness.n_names_missing IS 'Declared authors not shown, summed over papers with a declared total (unknown totals add nothing).';
