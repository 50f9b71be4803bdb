-- The texts of each candidate pair (a stored paper's: its dim_paper row), and the declared
-- totals of authors (null when unknown). Both keys of a new ×
-- new pair are new keys (new_signature's), so their rows are read from stg_fullest as they are:
-- through the new_papers view each join also anti-joined every staged key with paper_key_map.
SELECT c.paper_key, c.other, c.other_is_paper, c.other_key,
       a.abstract AS abstract_a, coalesce(b.abstract, p.abstract) AS abstract_b,
       a.title AS title_a, CASE WHEN c.other_is_paper THEN p.title ELSE b.title END AS title_b,
       a.author_keys AS keys_a, coalesce(b.author_keys, p.author_keys) AS keys_b,
       a.author_count AS total_a, CASE WHEN c.other_is_paper THEN p.author_count ELSE b.author_count END AS total_b
FROM candidates c
JOIN stg_fullest a ON a.paper_key = c.paper_key
LEFT JOIN stg_fullest b ON NOT c.other_is_paper AND b.paper_key = c.other
LEFT JOIN dim_paper p ON c.other_is_paper AND p.paper_id = c.other
