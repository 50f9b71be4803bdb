-- Grain: one row per paper × category level: each category of the paper ('category') and the
-- parent it rolls up to ('parent': arXiv archive such as "cs", or conference area such as
-- "Deep Learning"). A one-level area ("Social Aspects") is its own parent. DISTINCT on the
-- parent rows: a paper in cs.LG and cs.AI counts once for "cs".
CREATE OR REPLACE VIEW marts.paper_category_levels AS
SELECT DISTINCT b.paper_id, c.taxonomy, 'category' AS level, c.category_id, c.code, c.name,
       c.parent_code, c.parent_name
FROM main.bridge_paper_category b JOIN main.dim_category c USING (category_id)
UNION
SELECT DISTINCT b.paper_id, c.taxonomy, 'parent' AS level, NULL::BIGINT AS category_id,
       coalesce(c.parent_code, c.code) AS code, coalesce(c.parent_name, c.name) AS name,
       NULL::VARCHAR AS parent_code, NULL::VARCHAR AS parent_name
FROM main.bridge_paper_category b JOIN main.dim_category c USING (category_id);

COMMENT ON VIEW marts.paper_category_levels IS 'Each paper''s categories and their parent roll-ups (level = category or parent): the base of the per-category marts.';
COMMENT ON COLUMN marts.paper_category_levels.paper_id IS 'The paper (dim_paper).';
COMMENT ON COLUMN marts.paper_category_levels.taxonomy IS '''arxiv'' or ''conference''.';
COMMENT ON COLUMN marts.paper_category_levels.level IS '''category'' for the category itself, ''parent'' for its roll-up (arXiv archive or conference area).';
COMMENT ON COLUMN marts.paper_category_levels.category_id IS 'dim_category key of a category row; null on parent rows.';
COMMENT ON COLUMN marts.paper_category_levels.code IS 'Category code ("cs.LG", "Deep Learning · Attention Mechanisms") or parent code ("cs", "Deep Learning").';
COMMENT ON COLUMN marts.paper_category_levels.name IS 'Readable name of the category or parent ("Machine Learning", "Computer Science").';
COMMENT ON COLUMN marts.paper_category_levels.parent_code IS 'Parent code of a category row; null on parent rows.';
COMMENT ON COLUMN marts.paper_category_levels.parent_name IS 'Parent name of a category row; null on parent rows.';
