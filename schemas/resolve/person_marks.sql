-- Each name key of author_person has one row marked first_of_name: name statistics count names by
-- it, without a DISTINCT over every person. The mark is a name's first person (its id is
-- stable_id(name_key): transforms.persons marks new persons); rows from before the mark get it here. A name
-- whose marked person left (no mention left, or merged into another) marks one remaining (which one
-- does not matter: only the count of names is read).
UPDATE author_person SET given = given_name(name_key), surname = surname_of(name_key)
WHERE given IS NULL;
UPDATE author_person SET first_of_name = author_id = stable_id(name_key) WHERE first_of_name IS NULL;
UPDATE author_person SET first_of_name = true WHERE author_id IN (
    SELECT min(author_id) FROM author_person
    SEMI JOIN (SELECT DISTINCT name_key FROM author_person WHERE NOT first_of_name) USING (name_key)
    GROUP BY name_key HAVING NOT bool_or(first_of_name)
);
