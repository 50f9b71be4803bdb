-- Which of the run's names are rare (one person whatever the context: person_rare.sql) and which are
-- common (decided on evidence, in Python): the rule of transforms.persons.name_classes, decided
-- where the names are, so a run's names (2.3M at 1M distinct listings) need not cross into Python
-- and back. Classes every name of name_lam: flows/persons.py runs this when name_lam holds the
-- run's names (person_name_stats.sql), and again once the names taken back have joined them.
-- name_class: name_key, lam, given, surname, n_stored (stored persons of the name), is_rare,
-- first_rank (name_lam's). A rare name's repeat persons (author_person.is_repeat) are not counted.
-- Parameters: $rare_lambda.
CREATE OR REPLACE TEMP TABLE name_class AS
SELECT l.name_key, l.lam, l.given, l.surname, l.first_rank, coalesce(s.n, 0) AS n_stored,
       l.lam < $rare_lambda AND coalesce(s.n, 0) <= 1 AS is_rare
FROM name_lam l
LEFT JOIN (SELECT name_key, count(*) AS n FROM author_person SEMI JOIN name_lam USING (name_key)
           WHERE is_repeat IS NOT TRUE GROUP BY name_key) s
    USING (name_key);
