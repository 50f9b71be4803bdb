-- Grain: one row per taxonomy × level × code, all time. Unlike the dated marts it counts
-- papers seen only on (undated) search pages, which is where conference areas come from.
CREATE OR REPLACE VIEW marts.papers_per_category AS
WITH digests AS (  -- files each category's papers appear in
    SELECT c.taxonomy, c.level, c.code, count(DISTINCT f.source_file_id) AS n_digests
    FROM marts.paper_category_levels c JOIN main.fact_listing f USING (paper_id)
    GROUP BY ALL
)
SELECT c.taxonomy, c.level, c.code, c.name, c.parent_code, c.parent_name,
       count(*) AS n_papers,
       count(*) FILTER (WHERE p.first_listed_on IS NOT NULL) AS n_dated_papers,
       sum(p.n_listings)::BIGINT AS n_listings,
       any_value(g.n_digests) AS n_digests,
       count(*) / (SELECT count(*) FROM main.dim_paper) AS share_of_papers,
       min(p.first_listed_on) AS first_listed_on,
       max(p.last_listed_on) AS last_listed_on
FROM marts.paper_category_levels c
JOIN main.dim_paper p USING (paper_id)
JOIN digests g USING (taxonomy, level, code)
GROUP BY c.taxonomy, c.level, c.code, c.name, c.parent_code, c.parent_name;

COMMENT ON VIEW marts.papers_per_category IS 'All-time papers per category and parent roll-up, both taxonomies, undated search-page papers included.';
COMMENT ON COLUMN marts.papers_per_category.taxonomy IS '''arxiv'' or ''conference''.';
COMMENT ON COLUMN marts.papers_per_category.level IS '''category'' or ''parent'' (roll-up): filter on one level before summing.';
COMMENT ON COLUMN marts.papers_per_category.code IS 'Category or parent code.';
COMMENT ON COLUMN marts.papers_per_category.name IS 'Category or parent name.';
COMMENT ON COLUMN marts.papers_per_category.parent_code IS 'Parent code of a category row; null on parent rows.';
COMMENT ON COLUMN marts.papers_per_category.parent_name IS 'Parent name of a category row; null on parent rows.';
COMMENT ON COLUMN marts.papers_per_category.n_papers IS 'Distinct papers in the category (from any of their listings).';
COMMENT ON COLUMN marts.papers_per_category.n_dated_papers IS 'Of those, papers with at least one dated (listing-format) listing.';
COMMENT ON COLUMN marts.papers_per_category.n_listings IS 'All listings of these papers.';
COMMENT ON COLUMN marts.papers_per_category.n_digests IS 'Distinct source files these papers appear in.';
COMMENT ON COLUMN marts.papers_per_category.share_of_papers IS 'n_papers divided by all papers in the warehouse (0-1); shares overlap, a paper can be in several categories.';
COMMENT ON COLUMN marts.papers_per_category.first_listed_on IS 'Earliest listing date of these papers.';
COMMENT ON COLUMN marts.papers_per_category.last_listed_on IS 'Latest listing date of these papers.';
