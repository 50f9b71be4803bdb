-- The current person of every key of alias_pairs (an alias, else the key's own id), the name key
-- that person's id was made from, and whether that person is stored.
WITH keys AS (SELECT short_key AS name_key FROM alias_pairs UNION SELECT full_key FROM alias_pairs)
SELECT k.name_key, coalesce(a.author_id, stable_id(k.name_key)) AS author_id,
       coalesce(a.to_name_key, k.name_key) AS base_key,
       coalesce(a.author_id, stable_id(k.name_key)) IN (SELECT author_id FROM dim_author) AS is_stored
FROM keys k LEFT JOIN author_alias a USING (name_key)
