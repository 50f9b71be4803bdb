-- Stored names this run does not mention whose rare/common class by today's statistics is not the
-- class they were decided in: a fresh load of every file would decide them the other way. Exact,
-- for every stored name: each run adds name keys, so every frequency moves (the number of keys
-- grows), not only those of the names sharing a part with this run's new keys; no band around
-- the line. Commonness as transforms.persons.commonness_from_counts (the name_commonness macro of
-- flows.sql); ref_given and ref_surname (part, share) hold transforms/name_parts.csv, $n_keys is
-- n_name_keys.
-- Only flips that can change persons are returned: a name decided rare (one person, below the line
-- when decided, or decided before persons existed) now common (person_reopen.sql takes it back when
-- it has several mentions), and a name worn by several persons now rare.
CREATE OR REPLACE TEMP TABLE flipped_names AS
WITH population AS (
    SELECT given, surname FROM author_person WHERE first_of_name
    UNION ALL SELECT given, surname FROM new_name_keys
),
n_given AS (SELECT given, count(*) AS n FROM population GROUP BY given),
n_surname AS (SELECT surname, count(*) AS n FROM population GROUP BY surname),
several AS (SELECT DISTINCT name_key FROM author_person WHERE NOT first_of_name AND is_repeat IS NOT TRUE),
decided AS (
    SELECT name_key, given, surname, name_key IN (SELECT name_key FROM several) AS several,
           name_lambda IS NULL OR name_lambda < $rare_lambda AS below
    FROM author_person WHERE first_of_name AND name_key NOT IN (SELECT name_key FROM batch_keys)
),
now AS (
    SELECT d.name_key, d.several, d.below,
           name_commonness(contains(d.name_key, ' '), g.n, rg.share, s.n, rs.share, $n_keys) AS lam
    FROM decided d JOIN n_given g USING (given) JOIN n_surname s USING (surname)
    LEFT JOIN ref_given rg ON rg.part = d.given LEFT JOIN ref_surname rs ON rs.part = d.surname
)
SELECT name_key, NOT several AS decided_rare, lam FROM now
WHERE (NOT several AND below AND lam >= $rare_lambda) OR (several AND lam < $rare_lambda);
