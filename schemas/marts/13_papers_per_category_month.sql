-- Grain: one row per calendar month × taxonomy × level × code; papers distinct within the month.
CREATE OR REPLACE VIEW marts.papers_per_category_month AS
WITH listed AS (  -- one row per paper and month
    SELECT f.paper_id, d.year, d.month, count(*) AS n_listings
    FROM main.fact_listing f JOIN main.dim_date d ON d.date = f.listed_on
    GROUP BY f.paper_id, d.year, d.month
)
SELECT l.year, l.month, make_date(l.year, l.month, 1) AS month_start,
       c.taxonomy, c.level, c.code, c.name, c.parent_code, c.parent_name,
       count(*) AS n_papers,
       count(*) FILTER (WHERE year(p.first_listed_on) = l.year AND month(p.first_listed_on) = l.month) AS n_new_papers,
       sum(l.n_listings)::BIGINT AS n_listings
FROM listed l
JOIN main.dim_paper p USING (paper_id)
JOIN marts.paper_category_levels c USING (paper_id)
GROUP BY ALL;

COMMENT ON VIEW marts.papers_per_category_month IS 'Papers listed per category (and parent roll-up) per calendar month, both taxonomies; dated listings only.';
COMMENT ON COLUMN marts.papers_per_category_month.year IS 'Calendar year (dim_date).';
COMMENT ON COLUMN marts.papers_per_category_month.month IS 'Calendar month 1-12 (dim_date).';
COMMENT ON COLUMN marts.papers_per_category_month.month_start IS 'First day of the month: a date axis for charts.';
COMMENT ON COLUMN marts.papers_per_category_month.taxonomy IS '''arxiv'' or ''conference''.';
COMMENT ON COLUMN marts.papers_per_category_month.level IS '''category'' or ''parent'' (roll-up): filter on one level before summing.';
COMMENT ON COLUMN marts.papers_per_category_month.code IS 'Category or parent code.';
COMMENT ON COLUMN marts.papers_per_category_month.name IS 'Category or parent name.';
COMMENT ON COLUMN marts.papers_per_category_month.parent_code IS 'Parent code of a category row; null on parent rows.';
COMMENT ON COLUMN marts.papers_per_category_month.parent_name IS 'Parent name of a category row; null on parent rows.';
COMMENT ON COLUMN marts.papers_per_category_month.n_papers IS 'Distinct papers of this category listed in the month.';
COMMENT ON COLUMN marts.papers_per_category_month.n_new_papers IS 'Of those, papers first listed in this month.';
COMMENT ON COLUMN marts.papers_per_category_month.n_listings IS 'Listings in the month of this category''s papers.';
