-- Grain: one row per period kind ('week' or 'month') × period × term with at least one new
-- paper in that period. Rising = the term's share of new papers in the period is higher than
-- in the 4 periods before it, by an exact test that is sound for small counts: given the
-- term's papers over both spans (N = x + y), under "no change" the period's count x is
-- Binomial(N, q) with q = the period's share of all papers (n / (n + m)); p_value is the exact
-- one-sided tail P(X >= x), summed in log space. A term is rising when x >= 3 (minimum
-- support) and p_value < 0.001 (strict: thousands of terms are tested every period).
-- Papers count once, in the period they were first listed (as marts.term_papers_week).
-- A rising term inside a longer rising term of the period ("annealing", "quantum" in "quantum
-- annealing"; "neural network" in "graph neural network") whose papers without that longer term
-- do not rise on their own (the same test on them) is `within_term` that term and ranks after
-- every term that rises on its own: it only repeats the longer term's rise.

-- Exact one-sided binomial tail P(X >= x) for X ~ Binomial(n, q), summed in log space.
CREATE OR REPLACE MACRO marts.binomial_tail(x, n, q) AS (
    SELECT sum(exp(lgamma(n + 1) - lgamma(k + 1) - lgamma(n - k + 1) + k * ln(q) + (n - k) * ln(1 - q)))
    FROM range(x::BIGINT, (n + 1)::BIGINT) r(k)
);

CREATE OR REPLACE VIEW marts.rising_terms AS
WITH dated AS (
    SELECT paper_id, 'week' AS period, date_trunc('week', first_listed_on)::DATE AS period_start
    FROM main.dim_paper WHERE first_listed_on IS NOT NULL
    UNION ALL
    SELECT paper_id, 'month' AS period, date_trunc('month', first_listed_on)::DATE AS period_start
    FROM main.dim_paper WHERE first_listed_on IS NOT NULL
), totals AS (
    SELECT period, period_start, count(*) AS n_all_papers FROM dated GROUP BY ALL
), spine AS (  -- every period from the first to the last, empty ones included
    SELECT 'week' AS period,
           unnest(generate_series(min(period_start), max(period_start), INTERVAL 7 DAY))::DATE AS period_start
    FROM totals WHERE period = 'week'
    UNION ALL
    SELECT 'month' AS period,
           unnest(generate_series(min(period_start), max(period_start), INTERVAL 1 MONTH))::DATE AS period_start
    FROM totals WHERE period = 'month'
), all_papers AS (  -- all new papers in each period and in the 4 periods before it
    SELECT s.period, s.period_start, coalesce(t.n_all_papers, 0) AS n_all_papers,
           coalesce(sum(coalesce(t.n_all_papers, 0)) OVER before, 0) AS n_all_papers_before,
           count(*) OVER before AS n_periods_before
    FROM spine s LEFT JOIN totals t USING (period, period_start)
    WINDOW before AS (PARTITION BY s.period ORDER BY s.period_start ROWS BETWEEN 4 PRECEDING AND 1 PRECEDING)
), term_counts AS (
    SELECT d.period, d.period_start, b.term_id, count(*) AS n_papers
    FROM main.bridge_paper_term b JOIN dated d USING (paper_id) GROUP BY ALL
), counted AS (
    SELECT c.period, c.period_start, c.term_id, c.n_papers,
           coalesce(sum(p.n_papers), 0) AS n_papers_before
    FROM term_counts c
    LEFT JOIN term_counts p
      ON p.term_id = c.term_id AND p.period = c.period AND p.period_start < c.period_start
     AND p.period_start >= c.period_start - CASE c.period WHEN 'week' THEN INTERVAL 28 DAY ELSE INTERVAL 4 MONTH END
    GROUP BY ALL
), tested AS (
    SELECT c.*, a.n_all_papers, a.n_all_papers_before, a.n_periods_before,
           a.n_all_papers / (a.n_all_papers + a.n_all_papers_before) AS q,
           (c.n_papers + c.n_papers_before)::BIGINT AS n_total
    FROM counted c JOIN all_papers a USING (period, period_start)
), tails AS (  -- the exact binomial tail, only where the test can say something
    SELECT period, period_start, term_id, marts.binomial_tail(n_papers, n_total, q) AS p_value
    FROM tested WHERE n_papers >= 3 AND n_all_papers_before > 0
), scored AS (
    SELECT t.period, t.period_start, t.term_id, d.term, d.n_words, t.n_papers, t.n_papers_before,
           t.n_all_papers, t.n_all_papers_before, t.n_periods_before,
           t.n_papers / t.n_all_papers AS share_of_papers,
           t.n_papers_before / nullif(t.n_all_papers_before, 0) AS share_before,
           t.n_total * t.q AS expected_papers,
           CASE WHEN p.p_value > 1.0 THEN 1.0 ELSE p.p_value END AS p_value,  -- rounding can pass 1
           coalesce(p.p_value < 0.001, false) AS is_rising
    FROM tested t JOIN main.dim_term d USING (term_id)
    LEFT JOIN tails p USING (period, period_start, term_id)
), nested AS (  -- rising terms inside a longer rising term of the same period
    SELECT s.period, s.period_start, s.term_id, l.term_id AS longer_id, l.term AS longer_term, l.p_value AS longer_p
    FROM scored s JOIN scored l USING (period, period_start)
    WHERE s.is_rising AND l.is_rising AND l.n_words > s.n_words
      AND contains(' ' || l.term || ' ', ' ' || s.term || ' ')
), shared AS (  -- papers holding both, in the period (x_both) and in the 4 periods before (y_both)
    SELECT n.period, n.period_start, n.term_id, n.longer_id, n.longer_term, n.longer_p,
           count(*) FILTER (WHERE d.period_start = n.period_start) AS x_both,
           count(*) FILTER (WHERE d.period_start < n.period_start) AS y_both
    FROM nested n  -- the bridge's rows of these terms first: joined whole on paper_id, it cost more than the view
    JOIN (FROM main.bridge_paper_term SEMI JOIN nested USING (term_id)) bs ON bs.term_id = n.term_id
    JOIN (FROM main.bridge_paper_term b SEMI JOIN nested ON b.term_id = nested.longer_id) bl
      ON bl.term_id = n.longer_id AND bl.paper_id = bs.paper_id
    JOIN dated d ON d.paper_id = bs.paper_id AND d.period = n.period AND d.period_start <= n.period_start
     AND d.period_start >= n.period_start - CASE n.period WHEN 'week' THEN INTERVAL 28 DAY ELSE INTERVAL 4 MONTH END
    GROUP BY ALL
), within AS (  -- ... whose papers without the longer term do not rise on their own
    SELECT h.period, h.period_start, h.term_id, first(h.longer_term ORDER BY h.longer_p, h.longer_term) AS within_term
    FROM shared h JOIN tested t USING (period, period_start, term_id)
    WHERE t.n_papers - h.x_both < 3
       OR marts.binomial_tail(t.n_papers - h.x_both, t.n_total - h.x_both - h.y_both, t.q) >= 0.001
    GROUP BY ALL
)
SELECT s.*, w.within_term,
       CASE WHEN s.is_rising THEN row_number() OVER (
           PARTITION BY s.period, s.period_start, s.is_rising
           ORDER BY w.within_term IS NOT NULL, s.p_value, s.n_papers DESC, s.n_words DESC, s.term) END AS rising_rank
FROM scored s LEFT JOIN within w USING (period, period_start, term_id);

COMMENT ON VIEW marts.rising_terms IS 'Terms whose share of new papers grew against the 4 periods before (exact binomial test, minimum support 3 papers), per week and per month.';
COMMENT ON COLUMN marts.rising_terms.period IS '''week'' (ISO, Monday start) or ''month''.';
COMMENT ON COLUMN marts.rising_terms.period_start IS 'First day of the period.';
COMMENT ON COLUMN marts.rising_terms.term_id IS 'The term (dim_term).';
COMMENT ON COLUMN marts.rising_terms.term IS 'The term''s normal form.';
COMMENT ON COLUMN marts.rising_terms.n_papers IS 'New papers of the period with the term (x).';
COMMENT ON COLUMN marts.rising_terms.n_papers_before IS 'New papers with the term in the 4 periods before (y).';
COMMENT ON COLUMN marts.rising_terms.n_all_papers IS 'All new papers of the period (n).';
COMMENT ON COLUMN marts.rising_terms.n_all_papers_before IS 'All new papers of the 4 periods before (m); 0 for the first period.';
COMMENT ON COLUMN marts.rising_terms.n_periods_before IS 'Periods in the baseline (fewer than 4 at the start of the data).';
COMMENT ON COLUMN marts.rising_terms.share_of_papers IS 'x / n.';
COMMENT ON COLUMN marts.rising_terms.share_before IS 'y / m; null without a baseline.';
COMMENT ON COLUMN marts.rising_terms.expected_papers IS 'Papers expected in the period at the baseline share: (x + y) · n / (n + m).';
COMMENT ON COLUMN marts.rising_terms.p_value IS 'Exact one-sided binomial P(X >= x | x + y, n / (n + m)); null below the minimum support (x < 3) or without a baseline.';
COMMENT ON COLUMN marts.rising_terms.is_rising IS 'x >= 3 and p_value < 0.001.';
COMMENT ON COLUMN marts.rising_terms.n_words IS 'Words in the term.';
COMMENT ON COLUMN marts.rising_terms.within_term IS 'The longer rising term of the period this term is part of, when its papers without that term do not rise on their own (x - both < 3, or p >= 0.001 by the same test): it only repeats that term''s rise ("annealing" within "quantum annealing"); null otherwise.';
COMMENT ON COLUMN marts.rising_terms.rising_rank IS '1 = the most significant rising term of the period (terms rising on their own first, then those within a longer term; each by p_value, then papers, then the longer, more specific term, then the term text); null when not rising.';
