-- Grain: one row per term with at least one dated paper: when it first appeared (the first
-- listing date of its earliest paper) and how many papers it had in its first week and month.
-- "New this week" = first_week_start is that week; a term with one paper is often noise, so
-- readers filter on n_papers_first_week (the dashboard and `digest trends` show 2 or more).
CREATE OR REPLACE VIEW marts.new_terms AS
WITH dated AS (
    SELECT b.term_id, p.first_listed_on
    FROM main.bridge_paper_term b JOIN main.dim_paper p USING (paper_id)
    WHERE p.first_listed_on IS NOT NULL
), firsts AS (
    SELECT term_id, min(first_listed_on) AS first_listed_on, count(*) AS n_papers FROM dated GROUP BY term_id
)
SELECT f.term_id, t.term, t.n_words, f.first_listed_on,
       date_trunc('week', f.first_listed_on)::DATE AS first_week_start,
       date_trunc('month', f.first_listed_on)::DATE AS first_month_start,
       count(*) FILTER (WHERE date_trunc('week', d.first_listed_on) = date_trunc('week', f.first_listed_on)) AS n_papers_first_week,
       count(*) FILTER (WHERE date_trunc('month', d.first_listed_on) = date_trunc('month', f.first_listed_on)) AS n_papers_first_month,
       f.n_papers
FROM firsts f
JOIN main.dim_term t USING (term_id)
JOIN dated d USING (term_id)
GROUP BY ALL;

COMMENT ON VIEW marts.new_terms IS 'When each term first appeared among the top terms of a dated paper, and its papers in that first week and month.';
COMMENT ON COLUMN marts.new_terms.term_id IS 'The term (dim_term).';
COMMENT ON COLUMN marts.new_terms.term IS 'The term''s normal form.';
COMMENT ON COLUMN marts.new_terms.n_words IS 'Words in the term.';
COMMENT ON COLUMN marts.new_terms.first_listed_on IS 'First listing date of the earliest paper with the term.';
COMMENT ON COLUMN marts.new_terms.first_week_start IS 'Monday of the week the term appeared.';
COMMENT ON COLUMN marts.new_terms.first_month_start IS 'First day of the month the term appeared.';
COMMENT ON COLUMN marts.new_terms.n_papers_first_week IS 'Papers with the term first listed in that first week.';
COMMENT ON COLUMN marts.new_terms.n_papers_first_month IS 'Papers with the term first listed in that first month.';
COMMENT ON COLUMN marts.new_terms.n_papers IS 'All dated papers with the term.';
