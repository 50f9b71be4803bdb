-- Rare names, decided where their mentions are (flows/persons.py): a rare name is one person,
-- whatever the context (transforms.persons._assign_rare), so its mentions never cross into Python.
-- The run's rare names are those of name_class (person_classes.sql), each worn by one stored
-- person at most. The person is the stored one, else stable_id(name_key); a new person is founded
-- by its name's first mention in the canonical order (listing date, undated last, paper id,
-- position), a stored one keeps its founding. A person holds one place of a list: where a rare name
-- stands more than once on one list (real lists do: "Jiachen Guo, ..., Jiachen Guo", "Kun Xu, Kun
-- Xu"), its first place is the name's person and each later place a person of its own (rule
-- repeat_name, author_person.is_repeat), with the id of a person that mention founded, as
-- transforms.persons gives a common name's namesake on the same list. Parameters: $run_id.
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
FROM rare c LEFT JOIN (SELECT * FROM author_person WHERE is_repeat IS NOT TRUE) s USING (name_key)
WHERE c.first_rank IS NOT NULL;

-- The later places: every place of these names on these lists is in run_mentions (a touched
-- paper's whole list) or reopened_mentions (a name taken back brings every mention of it), a place
-- perhaps in both (min() does not mind; a UNION's dedupe of a first load's mentions did).
CREATE OR REPLACE TEMP TABLE rare_repeats AS
WITH places AS (
    SELECT paper_id, author_position, name_key FROM run_mentions
    UNION ALL SELECT paper_id, author_position, name_key FROM reopened_mentions
),
first_places AS (  -- of the names shown twice on a list (few), then of those the rare ones
    SELECT * FROM (SELECT paper_id, name_key, min(author_position) AS first_position FROM places
                   GROUP BY ALL HAVING count(*) > 1) SEMI JOIN rare_persons USING (name_key)
)
SELECT n.paper_id, n.author_position, n.name_key,
       stable_id(concat_ws(chr(31), n.name_key, n.paper_id::VARCHAR, n.author_position::VARCHAR)) AS author_id
FROM new_mentions n JOIN first_places f USING (paper_id, name_key)
WHERE n.author_position > f.first_position;

INSERT INTO author_mention BY NAME
SELECT n.paper_id, n.author_position, n.mention_key, n.name_key, coalesce(x.author_id, r.author_id) AS author_id,
       coalesce(x.author_id, r.author_id) AS decided_id, CASE WHEN x.author_id IS NULL THEN 'rare_name' ELSE 'repeat_name' END AS rule,
       r.lam AS name_lambda, $run_id AS run_id
FROM new_mentions n JOIN rare_persons r USING (name_key) LEFT JOIN rare_repeats x USING (paper_id, author_position);

-- A stored person of a name rare now carries no evidence (a rare name's evidence is never read).
UPDATE author_person SET founded_key = r.founded_key, first_on = NULL, last_on = NULL, n_mentions = NULL,
       paper_ids = NULL, coauthors = NULL, categories = NULL, words = NULL, name_lambda = r.lam
FROM rare_persons r WHERE author_person.author_id = r.author_id AND NOT r.is_new;

INSERT INTO author_person BY NAME
SELECT author_id, name_key, founded_key, given, surname, lam AS name_lambda, true AS first_of_name
FROM rare_persons ANTI JOIN author_person USING (author_id) WHERE is_new;

INSERT INTO author_person BY NAME
SELECT x.author_id, x.name_key, canonical_key(p.first_listed_on, x.paper_id, x.author_position) AS founded_key,
       r.given, r.surname, r.lam AS name_lambda, false AS first_of_name, true AS is_repeat
FROM (SELECT * FROM rare_repeats ANTI JOIN author_person USING (author_id)) x
JOIN rare_persons r USING (name_key) LEFT JOIN dim_paper p USING (paper_id);
