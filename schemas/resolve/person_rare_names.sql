-- Stored names with several mentions, all decided as rare (or from before persons existed),
-- that share a given name or a surname with a name of this batch (batch_keys): their
-- commonness may have changed with this batch.
CREATE OR REPLACE TEMP TABLE rare_name_candidates AS
WITH parts AS (
    SELECT DISTINCT regexp_extract(name_key, '^(\S+)', 1) AS given, regexp_extract(name_key, '(\S+)$', 1) AS surname
    FROM batch_keys
)
SELECT name_key FROM author_mention
WHERE regexp_extract(name_key, '^(\S+)', 1) IN (SELECT given FROM parts)
   OR regexp_extract(name_key, '(\S+)$', 1) IN (SELECT surname FROM parts)
GROUP BY name_key HAVING bool_and(rule IN ('rare_name', 'one_name_one_person')) AND count(*) > 1;
