-- Grain: one row per author, with ranks by papers and by listings (rank 1 = most; ties share
-- a rank). Counts come from the bridges, so they hold on an incremental warehouse.
CREATE OR REPLACE VIEW marts.top_authors AS
WITH bridge AS (  -- a rare name's later place on one list is no author of its own (author_person.is_repeat)
    SELECT * FROM main.bridge_paper_author WHERE author_id NOT IN (SELECT author_id FROM main.author_person WHERE is_repeat)
), authors AS (
    SELECT * FROM main.dim_author WHERE author_id NOT IN (SELECT author_id FROM main.author_person WHERE is_repeat)
), papers AS (
    SELECT b.author_id, count(*) AS n_papers,
           count(*) FILTER (WHERE b.author_position = 1) AS n_first_author_papers,
           sum(p.n_listings)::BIGINT AS n_listings,
           min(p.first_listed_on) AS first_listed_on, max(p.last_listed_on) AS last_listed_on
    FROM bridge b JOIN main.dim_paper p USING (paper_id)
    GROUP BY b.author_id
), digests AS (
    SELECT b.author_id, count(DISTINCT f.source_file_id) AS n_digests
    FROM bridge b JOIN main.fact_listing f USING (paper_id)
    GROUP BY b.author_id
), namesakes AS (
    SELECT author_id FROM authors  -- one name key, or one display name under two keys
    WHERE name_key IN (SELECT name_key FROM authors GROUP BY 1 HAVING count(*) > 1)
       OR name IN (SELECT name FROM authors GROUP BY 1 HAVING count(*) > 1)
), top_category AS (  -- namesakes are told apart by their main category
    SELECT author_id, first(code ORDER BY n DESC, code) AS code FROM (
        SELECT b.author_id, c.code, count(*) AS n
        FROM bridge b JOIN main.bridge_paper_category pc USING (paper_id)
        JOIN main.dim_category c USING (category_id)
        WHERE b.author_id IN (SELECT author_id FROM namesakes)
        GROUP BY b.author_id, c.code
    ) GROUP BY author_id
), top_coauthor AS (  -- ... and, where category and years agree, by the co-author of most papers
    SELECT author_id, first(name ORDER BY n DESC, name) AS name FROM (
        SELECT x.author_id, a.name, count(*) AS n
        FROM bridge x
        JOIN bridge y ON y.paper_id = x.paper_id AND y.author_id <> x.author_id
        JOIN authors a ON a.author_id = y.author_id
        WHERE x.author_id IN (SELECT author_id FROM namesakes)
        GROUP BY x.author_id, a.name
    ) GROUP BY author_id
), coauthors AS (
    SELECT x.author_id, count(DISTINCT y.author_id) AS n_coauthors
    FROM bridge x
    JOIN bridge y ON y.paper_id = x.paper_id AND y.author_id <> x.author_id
    GROUP BY x.author_id
), ranked AS (
    SELECT a.author_id, a.name, p.n_papers, p.n_first_author_papers, p.n_listings, d.n_digests,
           coalesce(c.n_coauthors, 0) AS n_coauthors, p.first_listed_on, p.last_listed_on,
           rank() OVER (ORDER BY p.n_papers DESC) AS rank_by_papers,
           rank() OVER (ORDER BY p.n_listings DESC) AS rank_by_listings,
           a.name_key, count(*) OVER (PARTITION BY a.name_key) AS n_persons_of_name,
           coalesce(t.code || ', ', '') || coalesce(year(p.first_listed_on)::VARCHAR, '?') || '–'
               || coalesce(year(p.last_listed_on)::VARCHAR, '?') AS told_by,
           tc.name AS top_coauthor
    FROM authors a
    JOIN papers p USING (author_id)
    JOIN digests d USING (author_id)
    LEFT JOIN coauthors c USING (author_id)
    LEFT JOIN top_category t USING (author_id)
    LEFT JOIN top_coauthor tc USING (author_id)
), told AS (  -- a co-author named where category and years do not tell two persons apart
    SELECT *, CASE WHEN count(*) OVER (PARTITION BY name, told_by) > 1 AND top_coauthor IS NOT NULL
                   THEN told_by || ', with ' || top_coauthor ELSE told_by END AS told_by_more
    FROM ranked
)
-- The label is unique (charts and pickers key on it): persons still alike are numbered, the
-- one of most papers first.
SELECT author_id, name, n_papers, n_first_author_papers, n_listings, n_digests, n_coauthors,
       first_listed_on, last_listed_on, rank_by_papers, rank_by_listings, name_key, n_persons_of_name,
       CASE WHEN n_persons_of_name = 1 AND count(*) OVER (PARTITION BY name) = 1 THEN name
            ELSE name || ' (' || told_by_more || ')'
                 || CASE WHEN count(*) OVER (PARTITION BY name, told_by_more) > 1
                         THEN ' #' || row_number() OVER (PARTITION BY name, told_by_more ORDER BY n_papers DESC, author_id)
                         ELSE '' END END AS label
FROM told;

COMMENT ON VIEW marts.top_authors IS 'Authors ranked by papers and by listings, with first-author papers, digests and co-authors.';
COMMENT ON COLUMN marts.top_authors.author_id IS 'The author (dim_author).';
COMMENT ON COLUMN marts.top_authors.name IS 'Display name.';
COMMENT ON COLUMN marts.top_authors.n_papers IS 'Distinct papers the author is on (among the names shown).';
COMMENT ON COLUMN marts.top_authors.n_first_author_papers IS 'Papers where the author is named first.';
COMMENT ON COLUMN marts.top_authors.n_listings IS 'Listings of the author''s papers: how often their work appeared in digests.';
COMMENT ON COLUMN marts.top_authors.n_digests IS 'Distinct source files the author''s papers appear in.';
COMMENT ON COLUMN marts.top_authors.n_coauthors IS 'Distinct co-authors.';
COMMENT ON COLUMN marts.top_authors.first_listed_on IS 'Earliest listing date of the author''s papers; null if none is dated.';
COMMENT ON COLUMN marts.top_authors.last_listed_on IS 'Latest listing date of the author''s papers.';
COMMENT ON COLUMN marts.top_authors.rank_by_papers IS 'Rank by n_papers, 1 = most (ties share a rank).';
COMMENT ON COLUMN marts.top_authors.rank_by_listings IS 'Rank by n_listings, 1 = most (ties share a rank).';
COMMENT ON COLUMN marts.top_authors.name_key IS 'The name (matching key); several persons may wear it (marts.namesakes).';
COMMENT ON COLUMN marts.top_authors.n_persons_of_name IS 'Persons wearing this name among the ranked authors.';
COMMENT ON COLUMN marts.top_authors.label IS 'The name, with the main category and years when several persons wear it, then the top co-author, then a number: unique (for charts).';
