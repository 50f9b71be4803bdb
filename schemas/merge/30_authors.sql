-- Merge, part 3 (after the person step, flows/persons.py, has decided every mention of the
-- touched papers in author_mention): the paper × person bridge and the persons' rows.
-- Parameters: $run_id.

CREATE OR REPLACE TEMP TABLE bridge_papers AS
SELECT paper_id FROM touched UNION SELECT paper_id FROM moved_papers;

-- Persons whose paper count or name may change: on the old or the new lists of those papers,
-- wearing a name given a new spelling or a new alias by this run, or merged into another.
CREATE OR REPLACE TEMP TABLE touched_authors AS
SELECT DISTINCT author_id FROM bridge_paper_author SEMI JOIN bridge_papers USING (paper_id)
UNION
SELECT DISTINCT author_id FROM author_mention SEMI JOIN bridge_papers USING (paper_id)
UNION
SELECT author_id FROM dim_author WHERE name_key IN (
    SELECT coalesce(a.to_name_key, s.name_key) FROM (SELECT DISTINCT name_key FROM stg_authors) s
    LEFT JOIN author_alias a USING (name_key)
    UNION SELECT to_name_key FROM author_alias WHERE run_id = $run_id)
UNION
SELECT from_author_id FROM person_alias WHERE run_id = $run_id;

-- One row per person and paper, at the person's first position on the list.
DELETE FROM bridge_paper_author WHERE paper_id IN (SELECT paper_id FROM bridge_papers);
INSERT INTO bridge_paper_author BY NAME
SELECT paper_id, author_id, min(author_position) AS author_position
FROM author_mention SEMI JOIN bridge_papers USING (paper_id) GROUP BY paper_id, author_id;

-- A person's display name: the best spelling of its name key and of the keys aliased to it
-- (every person of a name shows the same name; dim_author.author_id tells them apart).
CREATE OR REPLACE TEMP TABLE author_rows AS
WITH persons AS (SELECT author_id, name_key FROM author_person SEMI JOIN touched_authors USING (author_id)),
keys AS (
    SELECT DISTINCT name_key, name_key AS spelling_key FROM persons
    UNION SELECT to_name_key, name_key FROM author_alias WHERE to_name_key IN (SELECT name_key FROM persons)
),
names AS (
    SELECT k.name_key, first(n.name ORDER BY n.display_rank DESC, length(n.name_key) DESC, n.name DESC) AS name
    FROM keys k JOIN author_name_variant n ON n.name_key = k.spelling_key GROUP BY k.name_key
)
SELECT p.author_id, n.name, p.name_key, coalesce(c.n_papers, 0)::INTEGER AS n_papers
FROM persons p JOIN names n USING (name_key) LEFT JOIN (
    SELECT author_id, count(DISTINCT paper_id) AS n_papers FROM bridge_paper_author
    WHERE author_id IN (SELECT author_id FROM touched_authors) GROUP BY author_id
) c USING (author_id);
DELETE FROM dim_author WHERE author_id IN (SELECT author_id FROM touched_authors);
INSERT INTO dim_author BY NAME SELECT * FROM author_rows WHERE n_papers > 0;
-- A person left with no mention is gone (its paper left, or its only mention was decided again).
DELETE FROM author_person WHERE author_id IN (SELECT author_id FROM touched_authors)
  AND author_id NOT IN (SELECT author_id FROM dim_author);
