-- Name statistics without reading every name: for the keys of {keys} (name_key), how many
-- distinct name keys carry each one's given name (first word) and surname (last word): stored
-- names (their marked row, person_marks.sql), the run's new keys (new_name_keys) and the names
-- taken back (taken_back_keys), counted over the names that share one of those parts. The same
-- counts whenever it is called in a run, whatever keys it is asked for, as long as no person of
-- the run is written yet (flows/persons.py calls it before person_rare.sql: a new name written as
-- a person would count twice). name_lam gains the
-- commonness of the keys it lacks (lam: transforms.persons.commonness_from_counts, by the
-- name_commonness macro of flows.sql). {keys}: distinct name keys (every caller's set is), with
-- given, surname, n_tokens (given_name, surname_of, n_words), is_new (in new_name_keys) and
-- first_rank (batch_keys': the others' is null). Parameters:
-- $n_keys (distinct keys of two words or more).
CREATE OR REPLACE TEMP TABLE unstored_names AS
SELECT name_key, given, surname FROM new_name_keys
UNION ALL  -- names taken back to be decided again (person_reopen.sql): no stored person now
SELECT name_key, given_name(name_key), surname_of(name_key) FROM taken_back_keys
UNION ALL  -- any other of these keys without a stored person (a key of batch_keys is new or stored)
SELECT name_key, given, surname FROM (SELECT * FROM {keys} WHERE NOT is_new)
ANTI JOIN (SELECT name_key FROM author_person SEMI JOIN {keys} USING (name_key)) USING (name_key)
ANTI JOIN taken_back_keys USING (name_key);
INSERT INTO name_lam BY NAME
WITH n_given AS (
    SELECT given, count(*) AS n FROM (
        SELECT given FROM author_person SEMI JOIN (SELECT DISTINCT given FROM {keys}) USING (given) WHERE first_of_name
        UNION ALL SELECT given FROM unstored_names)
    GROUP BY given
),
n_surname AS (
    SELECT surname, count(*) AS n FROM (
        SELECT surname FROM author_person SEMI JOIN (SELECT DISTINCT surname FROM {keys}) USING (surname) WHERE first_of_name
        UNION ALL SELECT surname FROM unstored_names)
    GROUP BY surname
)
SELECT k.name_key, k.given, k.surname, k.first_rank,
       name_commonness(k.n_tokens >= 2, coalesce(ng.n, 0), g.share, coalesce(ns.n, 0), s.share, $n_keys) AS lam
FROM {keys} k ANTI JOIN name_lam USING (name_key)
LEFT JOIN n_given ng USING (given) LEFT JOIN n_surname ns USING (surname)
LEFT JOIN ref_given g ON g.part = k.given LEFT JOIN ref_surname s ON s.part = k.surname;
