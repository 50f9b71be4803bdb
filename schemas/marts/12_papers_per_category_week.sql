-- Grain: one row per ISO week × taxonomy × level × code. Papers are distinct within the week:
-- a paper listed on Monday and Tuesday counts once (do not sum the daily mart).
CREATE OR REPLACE VIEW marts.papers_per_category_week AS
WITH listed AS (  -- one row per paper and ISO week
    SELECT f.paper_id, isoyear(d.date) AS iso_year, d.iso_week,
           date_trunc('week', min(d.date))::DATE AS week_start, count(*) AS n_listings
    FROM main.fact_listing f JOIN main.dim_date d ON d.date = f.listed_on
    GROUP BY f.paper_id, isoyear(d.date), d.iso_week
)
SELECT l.iso_year, l.iso_week, l.week_start, (l.week_start + 6) AS week_end,
       c.taxonomy, c.level, c.code, c.name, c.parent_code, c.parent_name,
       count(*) AS n_papers,
       count(*) FILTER (WHERE p.first_listed_on BETWEEN l.week_start AND l.week_start + 6) AS n_new_papers,
       sum(l.n_listings)::BIGINT AS n_listings
FROM listed l
JOIN main.dim_paper p USING (paper_id)
JOIN marts.paper_category_levels c USING (paper_id)
GROUP BY ALL;

COMMENT ON VIEW marts.papers_per_category_week IS 'Papers listed per category (and parent roll-up) per ISO week, both taxonomies; dated listings only.';
COMMENT ON COLUMN marts.papers_per_category_week.iso_year IS 'ISO year of the week (differs from the calendar year around New Year).';
COMMENT ON COLUMN marts.papers_per_category_week.iso_week IS 'ISO week number 1-53.';
COMMENT ON COLUMN marts.papers_per_category_week.week_start IS 'Monday of the week.';
COMMENT ON COLUMN marts.papers_per_category_week.week_end IS 'Sunday of the week.';
COMMENT ON COLUMN marts.papers_per_category_week.taxonomy IS '''arxiv'' or ''conference''.';
COMMENT ON COLUMN marts.papers_per_category_week.level IS '''category'' or ''parent'' (roll-up): filter on one level before summing.';
COMMENT ON COLUMN marts.papers_per_category_week.code IS 'Category or parent code.';
COMMENT ON COLUMN marts.papers_per_category_week.name IS 'Category or parent name.';
COMMENT ON COLUMN marts.papers_per_category_week.parent_code IS 'Parent code of a category row; null on parent rows.';
COMMENT ON COLUMN marts.papers_per_category_week.parent_name IS 'Parent name of a category row; null on parent rows.';
COMMENT ON COLUMN marts.papers_per_category_week.n_papers IS 'Distinct papers of this category listed in the week.';
COMMENT ON COLUMN marts.papers_per_category_week.n_new_papers IS 'Of those, papers first listed in this week.';
COMMENT ON COLUMN marts.papers_per_category_week.n_listings IS 'Listings in the week of this category''s papers.';
