-- Grain: one row per category (level 'category', both taxonomies) × term with at least 2
-- papers of that category (search-page papers included: no date needed). Lift compares the
-- term's share in the category with its share among all papers: what the category is about,
-- beyond what everybody writes.
CREATE OR REPLACE VIEW marts.terms_per_category AS
WITH category_papers AS (
    SELECT taxonomy, code, name, parent_code, paper_id
    FROM marts.paper_category_levels WHERE level = 'category'
), category_sizes AS (
    SELECT taxonomy, code, count(DISTINCT paper_id) AS n_category_papers FROM category_papers GROUP BY ALL
), counts AS (
    SELECT c.taxonomy, c.code, c.name, c.parent_code, b.term_id, count(DISTINCT c.paper_id) AS n_papers
    FROM category_papers c JOIN main.bridge_paper_term b USING (paper_id)
    GROUP BY ALL HAVING count(DISTINCT c.paper_id) >= 2
), all_papers AS (SELECT count(*) AS n FROM main.dim_paper)
SELECT c.taxonomy, c.code, c.name, c.parent_code, c.term_id, t.term, c.n_papers, s.n_category_papers,
       c.n_papers / s.n_category_papers AS share_in_category,
       t.n_papers / a.n AS share_overall,
       (c.n_papers / s.n_category_papers) / (t.n_papers / a.n) AS lift,
       row_number() OVER (PARTITION BY c.taxonomy, c.code ORDER BY c.n_papers DESC, t.term) AS rank_in_category
FROM counts c
JOIN category_sizes s USING (taxonomy, code)
JOIN main.dim_term t USING (term_id)
CROSS JOIN all_papers a;

COMMENT ON VIEW marts.terms_per_category IS 'Terms of each category (arXiv categories and conference areas) with at least 2 papers there, with their share and lift.';
COMMENT ON COLUMN marts.terms_per_category.taxonomy IS '''arxiv'' or ''conference''.';
COMMENT ON COLUMN marts.terms_per_category.code IS 'Category code ("cs.LG", "Deep Learning · Large Language Models").';
COMMENT ON COLUMN marts.terms_per_category.name IS 'Category name.';
COMMENT ON COLUMN marts.terms_per_category.parent_code IS 'Its parent (arXiv archive or conference area); null for a one-level area.';
COMMENT ON COLUMN marts.terms_per_category.term_id IS 'The term (dim_term).';
COMMENT ON COLUMN marts.terms_per_category.term IS 'The term''s normal form.';
COMMENT ON COLUMN marts.terms_per_category.n_papers IS 'Papers of the category with the term.';
COMMENT ON COLUMN marts.terms_per_category.n_category_papers IS 'All papers of the category.';
COMMENT ON COLUMN marts.terms_per_category.share_in_category IS 'n_papers / n_category_papers.';
COMMENT ON COLUMN marts.terms_per_category.share_overall IS 'The term''s papers (dim_term.n_papers) / all papers.';
COMMENT ON COLUMN marts.terms_per_category.lift IS 'share_in_category / share_overall: above 1, the term is more frequent in this category than overall.';
COMMENT ON COLUMN marts.terms_per_category.rank_in_category IS '1 = the category''s most frequent term (ties by term).';
