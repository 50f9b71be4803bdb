-- Grain: one row per unordered pair of authors who share at least one paper, oriented by name
-- (name_a sorts before name_b; ties broken by id) so each pair appears once.
CREATE OR REPLACE VIEW marts.coauthor_pairs AS
WITH named AS (  -- not a rare name's later place on one list: its own co-author (author_person.is_repeat)
    SELECT b.paper_id, b.author_id, a.name
    FROM main.bridge_paper_author b JOIN main.dim_author a USING (author_id)
    WHERE b.author_id NOT IN (SELECT author_id FROM main.author_person WHERE is_repeat)
)
SELECT x.author_id AS author_id_a, x.name AS name_a, y.author_id AS author_id_b, y.name AS name_b,
       count(*) AS n_papers,
       sum(p.n_listings)::BIGINT AS n_listings,
       min(p.first_listed_on) AS first_listed_on,
       max(p.last_listed_on) AS last_listed_on
FROM named x
JOIN named y ON y.paper_id = x.paper_id AND (x.name, x.author_id) < (y.name, y.author_id)
JOIN main.dim_paper p ON p.paper_id = x.paper_id
GROUP BY x.author_id, x.name, y.author_id, y.name;

COMMENT ON VIEW marts.coauthor_pairs IS 'Co-author pairs: two authors and how many papers they share, each pair once.';
COMMENT ON COLUMN marts.coauthor_pairs.author_id_a IS 'First author of the pair (dim_author), the one whose name sorts first.';
COMMENT ON COLUMN marts.coauthor_pairs.name_a IS 'Display name of author a.';
COMMENT ON COLUMN marts.coauthor_pairs.author_id_b IS 'Second author of the pair (dim_author).';
COMMENT ON COLUMN marts.coauthor_pairs.name_b IS 'Display name of author b.';
COMMENT ON COLUMN marts.coauthor_pairs.n_papers IS 'Papers both are authors of (among the names shown).';
COMMENT ON COLUMN marts.coauthor_pairs.n_listings IS 'Listings of those papers.';
COMMENT ON COLUMN marts.coauthor_pairs.first_listed_on IS 'Earliest listing date of a shared paper; null if none is dated.';
COMMENT ON COLUMN marts.coauthor_pairs.last_listed_on IS 'Latest listing date of a shared paper.';
