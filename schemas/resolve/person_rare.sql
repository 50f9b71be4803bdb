-- Rare names, decided where their mentions are (flows/persons.py): a rare name is one person,
-- whatever the context (transforms.persons._assign_rare), so its mentions never cross into Python.
-- The run's rare names are those of name_class (person_classes.sql), each worn by one stored
-- person at most. The person is the stored one, else stable_id(name_key); a new person is founded
-- by its name's first mention in the canonical order (listing date, undated last, paper id,
-- position), a stored one keeps its founding. Parameters: $run_id.
-- The first mention: the run's new ones' (name_class.first_rank, from batch_keys) or a stored one
-- taken back to be decided again (reopened_mentions, person_reopen.sql), whichever comes first
-- (least ignores a null); a name without either has no mention to decide.
CREATE OR REPLACE TEMP TABLE rare_persons AS
WITH reopened_first AS (
    SELECT n.name_key, min(canonical_rank(p.first_listed_on, n.paper_id, n.author_position)) AS first_rank
    FROM reopened_mentions n LEFT JOIN dim_paper p USING (paper_id) GROUP BY n.name_key
),
rare AS (
    SELECT c.name_key, c.lam, c.given, c.surname, least(c.first_rank, r.first_rank) AS first_rank
    FROM name_class c LEFT JOIN reopened_first r USING (name_key) WHERE c.is_rare
)
SELECT c.name_key, coalesce(s.author_id, stable_id(c.name_key)) AS author_id, s.author_id IS NULL AS is_new, c.lam,
       c.given, c.surname, coalesce(s.founded_key, canonical_key_of(c.first_rank)) AS founded_key
FROM rare c LEFT JOIN author_person s USING (name_key)
WHERE c.first_rank IS NOT NULL;

INSERT INTO author_mention BY NAME
SELECT n.paper_id, n.author_position, n.mention_key, n.name_key, r.author_id, r.author_id AS decided_id,
       'rare_name' AS rule, r.lam AS name_lambda, $run_id AS run_id
FROM new_mentions n JOIN rare_persons r USING (name_key);

-- A stored person of a name rare now carries no evidence (a rare name's evidence is never read).
UPDATE author_person SET founded_key = r.founded_key, first_on = NULL, last_on = NULL, n_mentions = NULL,
       paper_ids = NULL, coauthors = NULL, categories = NULL, words = NULL, name_lambda = r.lam
FROM rare_persons r WHERE author_person.author_id = r.author_id AND NOT r.is_new;

INSERT INTO author_person BY NAME
SELECT author_id, name_key, founded_key, given, surname, lam AS name_lambda, true AS first_of_name
FROM rare_persons ANTI JOIN author_person USING (author_id) WHERE is_new;
