-- The texts of each candidate pair (a stored paper's: its dim_paper row), and the declared
-- totals of authors (null when unknown). Both keys of a new ×
-- new pair are new keys (new_signature's), so their rows are read from stg_fullest as they are:
-- through the new_papers view each join also anti-joined every staged key with paper_key_map.
-- A stored paper met through a key this run signed again (resigned_keys: its abstract or first two
-- authors changed) is read as that key's new version (stg_fullest), what a fresh load compares:
-- dim_paper still shows the old list until merge/20_papers.sql.
SELECT c.paper_key, c.other, c.other_is_paper, c.other_key,
       a.abstract AS abstract_a, coalesce(b.abstract, r.abstract, p.abstract) AS abstract_b,
       a.title AS title_a, CASE WHEN NOT c.other_is_paper THEN b.title WHEN r.paper_key IS NOT NULL THEN r.title
                                ELSE p.title END AS title_b,
       a.author_keys AS keys_a, coalesce(b.author_keys, r.author_keys, p.author_keys) AS keys_b,
       a.author_count AS total_a, CASE WHEN NOT c.other_is_paper THEN b.author_count
                                       WHEN r.paper_key IS NOT NULL THEN r.author_count
                                       ELSE p.author_count END AS total_b
FROM candidates c
JOIN stg_fullest a ON a.paper_key = c.paper_key
LEFT JOIN stg_fullest b ON NOT c.other_is_paper AND b.paper_key = c.other
LEFT JOIN stg_fullest r ON c.other_is_paper AND r.paper_key = c.other_key
                           AND c.other_key IN (SELECT paper_key FROM resigned_keys)
-- Every hash table is built on the papers' side, never on the pairs (flows/resolve.py turns the
-- planner's side swap off), so only the stored papers the pairs meet are read into one.
LEFT JOIN (SELECT paper_id, abstract, title, author_keys, author_count FROM dim_paper
           WHERE paper_id IN (SELECT other FROM candidates WHERE other_is_paper)) p
       ON c.other_is_paper AND p.paper_id = c.other
