-- Grain: one row per level × unordered pair of categories sharing at least one paper, across
-- taxonomies too (an arXiv category and a conference area of the same paper).
CREATE OR REPLACE VIEW marts.category_cooccurrence AS
WITH sized AS (
    SELECT level, taxonomy, code, count(*) AS n_papers FROM marts.paper_category_levels GROUP BY ALL
), pairs AS (
    SELECT x.level, x.taxonomy AS taxonomy_a, x.code AS code_a, x.name AS name_a,
           y.taxonomy AS taxonomy_b, y.code AS code_b, y.name AS name_b, count(*) AS n_papers
    FROM marts.paper_category_levels x
    JOIN marts.paper_category_levels y
      ON y.paper_id = x.paper_id AND y.level = x.level AND (x.taxonomy, x.code) < (y.taxonomy, y.code)
    GROUP BY ALL
)
SELECT p.level, p.taxonomy_a, p.code_a, p.name_a, p.taxonomy_b, p.code_b, p.name_b, p.n_papers,
       a.n_papers AS n_papers_a, b.n_papers AS n_papers_b,
       p.n_papers / (a.n_papers + b.n_papers - p.n_papers) AS jaccard
FROM pairs p
JOIN sized a ON a.level = p.level AND a.taxonomy = p.taxonomy_a AND a.code = p.code_a
JOIN sized b ON b.level = p.level AND b.taxonomy = p.taxonomy_b AND b.code = p.code_b;

COMMENT ON VIEW marts.category_cooccurrence IS 'Pairs of categories (or of parents) that share papers, with overlap measures; each pair once.';
COMMENT ON COLUMN marts.category_cooccurrence.level IS '''category'' pairs or ''parent'' (roll-up) pairs.';
COMMENT ON COLUMN marts.category_cooccurrence.taxonomy_a IS 'Taxonomy of a; (taxonomy_a, code_a) sorts before (taxonomy_b, code_b).';
COMMENT ON COLUMN marts.category_cooccurrence.code_a IS 'Code of category a.';
COMMENT ON COLUMN marts.category_cooccurrence.name_a IS 'Name of category a.';
COMMENT ON COLUMN marts.category_cooccurrence.taxonomy_b IS 'Taxonomy of b.';
COMMENT ON COLUMN marts.category_cooccurrence.code_b IS 'Code of category b.';
COMMENT ON COLUMN marts.category_cooccurrence.name_b IS 'Name of category b.';
COMMENT ON COLUMN marts.category_cooccurrence.n_papers IS 'Papers in both a and b.';
COMMENT ON COLUMN marts.category_cooccurrence.n_papers_a IS 'Papers in a.';
COMMENT ON COLUMN marts.category_cooccurrence.n_papers_b IS 'Papers in b.';
COMMENT ON COLUMN marts.category_cooccurrence.jaccard IS 'n_papers / papers in a or b (0-1): how much the two overlap.';
