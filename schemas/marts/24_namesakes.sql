-- Grain: one row per person of a name worn by several persons (dim_author rows sharing a
-- name_key), with what tells them apart: their top co-authors, categories and years.
CREATE OR REPLACE VIEW marts.namesakes AS
WITH authors AS (  -- a rare name's later place on one list is no person of the name (author_person.is_repeat)
    SELECT * FROM main.dim_author WHERE author_id NOT IN (SELECT author_id FROM main.author_person WHERE is_repeat)
), shared AS (
    SELECT name_key FROM authors GROUP BY name_key HAVING count(*) > 1
), persons AS (
    SELECT a.author_id, a.name, a.name_key, a.n_papers FROM authors a SEMI JOIN shared USING (name_key)
), coauthors AS (
    SELECT me.author_id, o.name, count(*) AS n
    FROM main.bridge_paper_author me SEMI JOIN persons USING (author_id)
    JOIN main.bridge_paper_author ob ON ob.paper_id = me.paper_id AND ob.author_id <> me.author_id
    JOIN authors o ON o.author_id = ob.author_id
    GROUP BY me.author_id, o.author_id, o.name
), categories AS (
    SELECT b.author_id, c.code, count(*) AS n
    FROM main.bridge_paper_author b SEMI JOIN persons USING (author_id)
    JOIN main.bridge_paper_category pc USING (paper_id) JOIN main.dim_category c USING (category_id)
    GROUP BY b.author_id, c.code
), years AS (
    SELECT b.author_id, min(year(p.first_listed_on)) AS first_year, max(year(p.last_listed_on)) AS last_year
    FROM main.bridge_paper_author b SEMI JOIN persons USING (author_id) JOIN main.dim_paper p USING (paper_id)
    GROUP BY b.author_id
)
SELECT p.name_key, p.name, count(*) OVER (PARTITION BY p.name_key) AS n_persons,
       row_number() OVER (PARTITION BY p.name_key ORDER BY p.n_papers DESC, p.author_id) AS person_rank,
       p.author_id, p.n_papers,
       (SELECT array_to_string(list(x.name ORDER BY x.n DESC, x.name)[1:3], ', ') FROM coauthors x WHERE x.author_id = p.author_id) AS top_coauthors,
       (SELECT array_to_string(list(x.code ORDER BY x.n DESC, x.code)[1:3], ', ') FROM categories x WHERE x.author_id = p.author_id) AS top_categories,
       y.first_year, y.last_year
FROM persons p LEFT JOIN years y USING (author_id);

COMMENT ON VIEW marts.namesakes IS 'Names worn by several persons (namesakes split on evidence, transforms.persons), one row per person, with what tells them apart; author_mention holds each decision.';
COMMENT ON COLUMN marts.namesakes.name_key IS 'The shared name (matching key).';
COMMENT ON COLUMN marts.namesakes.name IS 'Display name.';
COMMENT ON COLUMN marts.namesakes.n_persons IS 'Persons wearing this name.';
COMMENT ON COLUMN marts.namesakes.person_rank IS '1 = the person of this name with most papers.';
COMMENT ON COLUMN marts.namesakes.author_id IS 'The person (dim_author).';
COMMENT ON COLUMN marts.namesakes.n_papers IS 'The person''s papers.';
COMMENT ON COLUMN marts.namesakes.top_coauthors IS 'Up to three co-authors with most shared papers, comma-separated.';
COMMENT ON COLUMN marts.namesakes.top_categories IS 'Up to three categories (or conference areas) with most papers, comma-separated.';
COMMENT ON COLUMN marts.namesakes.first_year IS 'Year of the earliest listing of the person''s papers; null if none is dated.';
COMMENT ON COLUMN marts.namesakes.last_year IS 'Year of the latest listing.';
