-- Grain: one row per author × calendar month with at least one dated listing of their papers.
CREATE OR REPLACE VIEW marts.author_productivity_month AS
WITH listed AS (  -- one row per paper and month
    SELECT f.paper_id, d.year, d.month, count(*) AS n_listings
    FROM main.fact_listing f JOIN main.dim_date d ON d.date = f.listed_on
    GROUP BY f.paper_id, d.year, d.month
), monthly AS (
    SELECT b.author_id, l.year, l.month,
           count(*) AS n_papers_listed,
           count(*) FILTER (WHERE year(p.first_listed_on) = l.year AND month(p.first_listed_on) = l.month) AS n_new_papers,
           sum(l.n_listings)::BIGINT AS n_listings
    FROM listed l
    JOIN main.bridge_paper_author b USING (paper_id)
    JOIN main.dim_paper p USING (paper_id)
    WHERE b.author_id NOT IN (SELECT author_id FROM main.author_person WHERE is_repeat)  -- (a rare name's later place on one list)
    GROUP BY b.author_id, l.year, l.month
)
SELECT m.author_id, a.name, m.year, m.month, make_date(m.year, m.month, 1) AS month_start,
       m.n_papers_listed, m.n_new_papers, m.n_listings,
       sum(m.n_new_papers) OVER (PARTITION BY m.author_id ORDER BY m.year, m.month)::BIGINT AS cumulative_new_papers
FROM monthly m JOIN main.dim_author a USING (author_id);

COMMENT ON VIEW marts.author_productivity_month IS 'Author productivity over time: per author and month, papers listed, new papers and a running total.';
COMMENT ON COLUMN marts.author_productivity_month.author_id IS 'The author (dim_author).';
COMMENT ON COLUMN marts.author_productivity_month.name IS 'Display name.';
COMMENT ON COLUMN marts.author_productivity_month.year IS 'Calendar year (dim_date).';
COMMENT ON COLUMN marts.author_productivity_month.month IS 'Calendar month 1-12 (dim_date).';
COMMENT ON COLUMN marts.author_productivity_month.month_start IS 'First day of the month: a date axis for charts.';
COMMENT ON COLUMN marts.author_productivity_month.n_papers_listed IS 'Distinct papers of the author listed in the month (re-listings included).';
COMMENT ON COLUMN marts.author_productivity_month.n_new_papers IS 'Papers of the author first listed in the month.';
COMMENT ON COLUMN marts.author_productivity_month.n_listings IS 'Listings in the month of the author''s papers.';
COMMENT ON COLUMN marts.author_productivity_month.cumulative_new_papers IS 'Running total of n_new_papers up to and including the month (dated papers only).';
