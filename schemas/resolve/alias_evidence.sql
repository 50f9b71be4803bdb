-- Name keys at the same position of one paper in two lists of it: this run's listings, and the
-- stored list of papers that already exist.
WITH lists AS (
    SELECT DISTINCT m.paper_id, l.author_keys FROM stg_listings l JOIN paper_key_map m USING (paper_key)
    UNION
    SELECT p.paper_id, p.author_keys FROM dim_paper p
    WHERE p.paper_id IN (SELECT m.paper_id FROM stg_listings JOIN paper_key_map m USING (paper_key))
), named AS (
    SELECT paper_id, unnest(author_keys) AS name_key, unnest(range(1, len(author_keys) + 1)) AS pos FROM lists
)
SELECT DISTINCT a.name_key AS key_a, b.name_key AS key_b
FROM named a JOIN named b USING (paper_id, pos)
WHERE a.name_key < b.name_key AND a.name_key <> '' AND b.name_key <> ''
