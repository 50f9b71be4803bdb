-- Grain: one row per term × ISO week, from the term's first week to the warehouse's last week;
-- a week without a paper of the term is a row with n_papers = 0 (charts show a gap as zero, not
-- a slope). A paper counts once, in the week it was first listed (dim_paper.first_listed_on): a
-- topic's trend is new papers, not re-listings; undated papers (search pages only) are left out.
-- Terms of at least 2 dated papers (a one-paper term has no trend, and the rows stay few).
CREATE OR REPLACE VIEW marts.term_papers_week AS
WITH dated AS (  -- one row per dated paper and its week
    SELECT paper_id, date_trunc('week', first_listed_on)::DATE AS week_start
    FROM main.dim_paper WHERE first_listed_on IS NOT NULL
), all_papers AS (
    SELECT week_start, count(*) AS n_all_papers FROM dated GROUP BY week_start
), spine AS (  -- every week from the first dated paper to the last listing (relistings only: zeros)
    SELECT unnest(generate_series(min(week_start),
                                  greatest(max(week_start), (SELECT date_trunc('week', max(listed_on))::DATE FROM main.fact_listing)),
                                  INTERVAL 7 DAY))::DATE AS week_start
    FROM all_papers
), weekly AS (
    SELECT b.term_id, d.week_start, count(*) AS n_papers
    FROM main.bridge_paper_term b JOIN dated d USING (paper_id) GROUP BY ALL
), eligible AS (
    SELECT term_id, min(week_start) AS first_week FROM weekly GROUP BY term_id HAVING sum(n_papers) >= 2
)
SELECT e.term_id, t.term, s.week_start, (s.week_start + 6) AS week_end,
       isoyear(s.week_start) AS iso_year, weekofyear(s.week_start) AS iso_week,
       coalesce(w.n_papers, 0) AS n_papers, coalesce(a.n_all_papers, 0) AS n_all_papers,
       coalesce(w.n_papers, 0) / nullif(a.n_all_papers, 0) AS share_of_papers
FROM eligible e
JOIN main.dim_term t USING (term_id)
JOIN spine s ON s.week_start >= e.first_week
LEFT JOIN weekly w ON w.term_id = e.term_id AND w.week_start = s.week_start
LEFT JOIN all_papers a ON a.week_start = s.week_start;

COMMENT ON VIEW marts.term_papers_week IS 'New papers per term per ISO week (missing weeks as zero), for terms of at least 2 dated papers.';
COMMENT ON COLUMN marts.term_papers_week.term_id IS 'The term (dim_term).';
COMMENT ON COLUMN marts.term_papers_week.term IS 'The term''s normal form ("large language model").';
COMMENT ON COLUMN marts.term_papers_week.week_start IS 'Monday of the week.';
COMMENT ON COLUMN marts.term_papers_week.week_end IS 'Sunday of the week.';
COMMENT ON COLUMN marts.term_papers_week.iso_year IS 'ISO year of the week.';
COMMENT ON COLUMN marts.term_papers_week.iso_week IS 'ISO week number 1-53.';
COMMENT ON COLUMN marts.term_papers_week.n_papers IS 'Papers first listed in the week that have the term among their top terms (0 when none).';
COMMENT ON COLUMN marts.term_papers_week.n_all_papers IS 'All papers first listed in the week (the denominator of the share).';
COMMENT ON COLUMN marts.term_papers_week.share_of_papers IS 'n_papers / n_all_papers; null in a week without any paper.';
