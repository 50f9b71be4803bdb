-- Grain: one row per term × calendar month, from the term's first month to the warehouse's
-- last month; months without a paper of the term as zero. Papers counted once, in the month
-- they were first listed; terms of at least 2 dated papers (as marts.term_papers_week).
CREATE OR REPLACE VIEW marts.term_papers_month AS
WITH dated AS (
    SELECT paper_id, date_trunc('month', first_listed_on)::DATE AS month_start
    FROM main.dim_paper WHERE first_listed_on IS NOT NULL
), all_papers AS (
    SELECT month_start, count(*) AS n_all_papers FROM dated GROUP BY month_start
), spine AS (  -- every month from the first dated paper to the last listing (relistings only: zeros)
    SELECT unnest(generate_series(min(month_start),
                                  greatest(max(month_start), (SELECT date_trunc('month', max(listed_on))::DATE FROM main.fact_listing)),
                                  INTERVAL 1 MONTH))::DATE AS month_start
    FROM all_papers
), monthly AS (
    SELECT b.term_id, d.month_start, count(*) AS n_papers
    FROM main.bridge_paper_term b JOIN dated d USING (paper_id) GROUP BY ALL
), eligible AS (
    SELECT term_id, min(month_start) AS first_month FROM monthly GROUP BY term_id HAVING sum(n_papers) >= 2
)
SELECT e.term_id, t.term, s.month_start, year(s.month_start) AS year, month(s.month_start) AS month,
       coalesce(m.n_papers, 0) AS n_papers, coalesce(a.n_all_papers, 0) AS n_all_papers,
       coalesce(m.n_papers, 0) / nullif(a.n_all_papers, 0) AS share_of_papers
FROM eligible e
JOIN main.dim_term t USING (term_id)
JOIN spine s ON s.month_start >= e.first_month
LEFT JOIN monthly m ON m.term_id = e.term_id AND m.month_start = s.month_start
LEFT JOIN all_papers a ON a.month_start = s.month_start;

COMMENT ON VIEW marts.term_papers_month IS 'New papers per term per calendar month (missing months as zero), for terms of at least 2 dated papers.';
COMMENT ON COLUMN marts.term_papers_month.term_id IS 'The term (dim_term).';
COMMENT ON COLUMN marts.term_papers_month.term IS 'The term''s normal form.';
COMMENT ON COLUMN marts.term_papers_month.month_start IS 'First day of the month: a date axis for charts.';
COMMENT ON COLUMN marts.term_papers_month.year IS 'Calendar year.';
COMMENT ON COLUMN marts.term_papers_month.month IS 'Calendar month 1-12.';
COMMENT ON COLUMN marts.term_papers_month.n_papers IS 'Papers first listed in the month that have the term among their top terms (0 when none).';
COMMENT ON COLUMN marts.term_papers_month.n_all_papers IS 'All papers first listed in the month.';
COMMENT ON COLUMN marts.term_papers_month.share_of_papers IS 'n_papers / n_all_papers; null in a month without any paper.';
