-- Each name key of author_person has one row marked first_of_name: name statistics count names by
-- it, without a DISTINCT over every person. The mark is a name's first person (its id is
-- stable_id(name_key): transforms.persons marks new persons); rows from before the mark get it here. A name
-- whose marked person left (no mention left, or merged into another) marks one remaining (which one
-- does not matter: only the count of names is read).
UPDATE author_person SET given = given_name(name_key), surname = surname_of(name_key)
WHERE given IS NULL;
-- A name's commonness is read from the fullest key aliased to it (name_parts_key: name_key ->
-- parts_key, where they differ): a person loaded as "J. Smith", then named in full by a later
-- run, keeps the key "j smith" and "john smith" points at it, while a fresh load keeps "john
-- smith". An initial is as common as every name it opens (transforms.persons.given_counts), so
-- read from its own key the name was common in one load and rare in the other. Its marked row
-- carries the fullest key's parts, as the fresh load's does; a withdrawn alias gives them back.
CREATE OR REPLACE TEMP TABLE name_parts_key AS
WITH members AS (
    SELECT to_name_key AS name_key, name_key AS alias_key FROM author_alias
    UNION SELECT to_name_key, to_name_key FROM author_alias
)
SELECT * FROM (
    SELECT name_key, first(alias_key ORDER BY length(replace(alias_key, ' ', '')) DESC, length(alias_key) DESC,
                           alias_key) AS parts_key  -- transforms.resolve.fuller_key
    FROM members GROUP BY name_key)
WHERE parts_key <> name_key;
UPDATE author_person SET given = given_name(k.parts_key), surname = surname_of(k.parts_key)
FROM name_parts_key k
WHERE author_person.name_key = k.name_key
  AND (author_person.given <> given_name(k.parts_key) OR author_person.surname <> surname_of(k.parts_key));
UPDATE author_person SET given = given_name(name_key), surname = surname_of(name_key)
WHERE NOT (starts_with(name_key, given) AND suffix(name_key, surname))  -- few rows: the parts of another key
  AND name_key NOT IN (SELECT name_key FROM name_parts_key)
  AND (given <> given_name(name_key) OR surname <> surname_of(name_key));
UPDATE author_person SET first_of_name = author_id = stable_id(name_key) WHERE first_of_name IS NULL;
UPDATE author_person SET first_of_name = true WHERE author_id IN (
    SELECT min(author_id) FROM author_person
    SEMI JOIN (SELECT DISTINCT name_key FROM author_person WHERE NOT first_of_name) USING (name_key)
    GROUP BY name_key HAVING NOT bool_or(first_of_name)
);
