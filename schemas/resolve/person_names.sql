-- The run's name keys (batch_keys: the new mentions' names, with given name, surname, number of
-- words and whether the warehouse holds no person of it yet, is_new, as person_name_stats.sql
-- reads them), those new to the warehouse (new_name_keys) and the
-- number of distinct name keys of two words or more, stored or new (n_name_keys), before any
-- name is taken back to be decided again. Names are counted by their marked row (person_marks.sql).
-- first_rank: the name's first new mention in the canonical order (canonical_rank), read by
-- person_rare.sql through name_lam and name_class: one grouping of the run's mentions, not two.
CREATE OR REPLACE TEMP TABLE batch_keys AS
WITH run_keys AS (
    SELECT n.name_key, min(canonical_rank(p.first_listed_on, n.paper_id, n.author_position)) AS first_rank
    FROM new_mentions n LEFT JOIN dim_paper p USING (paper_id) GROUP BY n.name_key
),
stored AS (SELECT DISTINCT name_key FROM author_person SEMI JOIN run_keys USING (name_key))
SELECT k.name_key, given_name(k.name_key) AS given, surname_of(k.name_key) AS surname,
       n_words(k.name_key) AS n_tokens, s.name_key IS NULL AS is_new, k.first_rank
FROM run_keys k LEFT JOIN stored s USING (name_key);
CREATE OR REPLACE TEMP TABLE new_name_keys AS SELECT name_key, given, surname FROM batch_keys WHERE is_new;
CREATE OR REPLACE TEMP TABLE n_name_keys AS
SELECT (SELECT count(*) FROM author_person WHERE first_of_name AND contains(name_key, ' '))
     + (SELECT count(*) FROM new_name_keys WHERE contains(name_key, ' ')) AS n;
-- Names person_reopen.sql takes back to decide again (their stored persons are dropped): still
-- names of the warehouse for the statistics of this run.
CREATE OR REPLACE TEMP TABLE taken_back_keys (name_key VARCHAR);
-- The stored mentions taken back (person_reopen.sql replaces it; empty when nothing is, as on a
-- first load): person_rare.sql reads their first one beside batch_keys'.
CREATE OR REPLACE TEMP TABLE reopened_mentions (paper_id BIGINT, author_position INTEGER, name_key VARCHAR,
                                                 mention_key VARCHAR);
-- How common each name the step reads is (name_key, given, surname, lam; first_rank of the run's
-- names, batch_keys'): filled by person_name_stats.sql, for the run's names first, then for those
-- the model reads beside them.
CREATE OR REPLACE TEMP TABLE name_lam (name_key VARCHAR, given VARCHAR, surname VARCHAR, lam DOUBLE, first_rank HUGEINT);
