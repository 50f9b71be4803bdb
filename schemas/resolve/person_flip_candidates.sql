-- Stored names with several mentions that share a given name or a surname with a name of this
-- batch (batch_keys): this batch changes how common they are, and so perhaps how a fresh load
-- would decide them. decided_rare: every mention was decided as rare (or before persons existed).
CREATE OR REPLACE TEMP TABLE flip_candidates AS
WITH parts AS (
    SELECT DISTINCT regexp_extract(name_key, '^(\S+)', 1) AS given, regexp_extract(name_key, '(\S+)$', 1) AS surname
    FROM batch_keys
)
SELECT name_key, bool_and(rule IN ('rare_name', 'one_name_one_person')) AS decided_rare FROM author_mention
WHERE name_key NOT IN (SELECT name_key FROM batch_keys)
  AND (regexp_extract(name_key, '^(\S+)', 1) IN (SELECT given FROM parts)
       OR regexp_extract(name_key, '(\S+)$', 1) IN (SELECT surname FROM parts))
GROUP BY name_key HAVING count(*) > 1;
