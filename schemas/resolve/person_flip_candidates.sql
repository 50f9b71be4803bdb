-- Stored names that share a given name or a surname with a name of this batch but are not in it:
-- this batch changes how common they are, and so perhaps how a fresh load would decide them.
-- decided_rare: one person with no evidence gathered (decided by the rare-name rule, or before
-- persons existed). {band}: 0 = every such name; else only names whose commonness when decided
-- was within that factor of the rare/common line.
CREATE OR REPLACE TEMP TABLE flip_candidates AS
WITH parts AS (
    SELECT DISTINCT regexp_extract(name_key, '^(\S+)', 1) AS given, regexp_extract(name_key, '(\S+)$', 1) AS surname
    FROM batch_keys
)
SELECT name_key, count(*) = 1 AND bool_and(paper_ids IS NULL) AS decided_rare
FROM author_person
WHERE (given IN (SELECT given FROM parts) OR surname IN (SELECT surname FROM parts))
  AND name_key NOT IN (SELECT name_key FROM batch_keys)
  -- a run small beside the warehouse moves a frequency by little: only names near the line
  AND (name_lambda IS NULL OR {band} = 0 OR name_lambda BETWEEN $rare_lambda / {band} AND $rare_lambda * {band})
GROUP BY name_key;
