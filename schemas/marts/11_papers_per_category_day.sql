-- Grain: one row per listing day × taxonomy × level × code. Only dated listings count (the
-- listing format has dates, search pages do not); a paper counts on a day when it is listed
-- that day, in every category it has (from any of its listings, conference areas included).
CREATE OR REPLACE VIEW marts.papers_per_category_day AS
WITH listed AS (  -- one row per paper and listing day
    SELECT paper_id, listed_on AS date, count(*) AS n_listings
    FROM main.fact_listing WHERE listed_on IS NOT NULL
    GROUP BY paper_id, listed_on
)
SELECT l.date, d.year, d.month, d.iso_week, d.weekday,
       c.taxonomy, c.level, c.code, c.name, c.parent_code, c.parent_name,
       count(*) AS n_papers,
       count(*) FILTER (WHERE p.first_listed_on = l.date) AS n_new_papers,
       sum(l.n_listings)::BIGINT AS n_listings,
       d.iso_year  -- last: readers by position keep their columns
FROM listed l
JOIN main.dim_date d ON d.date = l.date
JOIN main.dim_paper p USING (paper_id)
JOIN marts.paper_category_levels c USING (paper_id)
GROUP BY ALL;

COMMENT ON VIEW marts.papers_per_category_day IS 'Papers listed per category (and parent roll-up) per day, both taxonomies; dated listings only.';
COMMENT ON COLUMN marts.papers_per_category_day.date IS 'Listing day.';
COMMENT ON COLUMN marts.papers_per_category_day.year IS 'Calendar year of the day (dim_date).';
COMMENT ON COLUMN marts.papers_per_category_day.month IS 'Calendar month 1-12 (dim_date).';
COMMENT ON COLUMN marts.papers_per_category_day.iso_year IS 'ISO year of the week (dim_date).';
COMMENT ON COLUMN marts.papers_per_category_day.iso_week IS 'ISO week number 1-53 (dim_date).';
COMMENT ON COLUMN marts.papers_per_category_day.weekday IS 'Day name (dim_date).';
COMMENT ON COLUMN marts.papers_per_category_day.taxonomy IS '''arxiv'' or ''conference''.';
COMMENT ON COLUMN marts.papers_per_category_day.level IS '''category'' or ''parent'' (roll-up): filter on one level before summing.';
COMMENT ON COLUMN marts.papers_per_category_day.code IS 'Category or parent code.';
COMMENT ON COLUMN marts.papers_per_category_day.name IS 'Category or parent name.';
COMMENT ON COLUMN marts.papers_per_category_day.parent_code IS 'Parent code of a category row; null on parent rows.';
COMMENT ON COLUMN marts.papers_per_category_day.parent_name IS 'Parent name of a category row; null on parent rows.';
COMMENT ON COLUMN marts.papers_per_category_day.n_papers IS 'Distinct papers of this category listed that day.';
COMMENT ON COLUMN marts.papers_per_category_day.n_new_papers IS 'Of those, papers listed for the first time that day (dim_paper.first_listed_on).';
COMMENT ON COLUMN marts.papers_per_category_day.n_listings IS 'Listings that day of this category''s papers (a paper in several digests counts each time).';
